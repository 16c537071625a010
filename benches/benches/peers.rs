//! robotsmatch against every Rust robots.txt crate, in one run.
//!
//! Ids are `workload/mode/engine`:
//! - `prebuilt`: the matcher is built once; one iteration decides every URL of the workload
//!   (throughput in URLs), including each crate's own URL handling;
//! - `oneshot`: one iteration answers the one-shot question, each crate its fastest way:
//!   robotsmatch with `Matcher::decide_once` (one pass, nothing built), and
//!   `robotsmatch-matcher` with `Matcher::from_bytes` then `decide` (what asking a few URLs
//!   costs); fast-robots with `RobotsTxt::parse(..).is_allowed(..)`; the others build, then
//!   decide.
//!
//! Every iteration checks its answers: robotsmatch's count of allowed URLs must equal the
//! reference matcher's (Google's semantics); a peer's must equal the count it gave when it was
//! set up, and how far that is from the reference is printed (`agreement` prints the table).
//!
//! Also `scaling/...`: decide cost against the number of rules (10 to 10,000, literal and
//! wildcard) and the URL length, and build time against the number of rules, for robotsmatch
//! and the fastest peer (texting_robots).
//!
//! Run: `cargo bench -p robotsmatch-benches --bench peers` (add a filter, e.g. `-- b-shop`).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use robotsmatch_benches::*;

/// URLs decided per prebuilt iteration for engines that re-parse per URL on big files.
const SLOW_URLS: usize = 300;

fn prebuilt<P: Peer>(c: &mut Criterion, w: &Workload, reference: &[bool]) {
    // The Google port parses the whole file for every URL: give it fewer URLs on big files so a
    // run ends; throughput is per URL either way.
    let n = if P::NAME == "robotstxt" && w.robots.len() > 10_000 {
        SLOW_URLS
    } else {
        w.urls.len()
    };
    let urls = &w.urls[..n];
    let Some((peer, answers)) = verdicts::<P>(w, urls) else {
        eprintln!(
            "{}/prebuilt/{}: cannot handle this file (error or panic)",
            w.name,
            P::NAME
        );
        return;
    };
    let expected = answers.iter().filter(|&&a| a).count();
    let differ = answers
        .iter()
        .zip(reference)
        .filter(|(a, r)| a != r)
        .count();
    if differ > 0 {
        eprintln!(
            "{}/prebuilt/{}: differs from Google's semantics on {differ} of {n} URLs",
            w.name,
            P::NAME
        );
    }
    if P::NAME == RobotsMatch::NAME {
        assert_eq!(differ, 0, "robotsmatch must agree with the reference");
    }
    let mut group = c.benchmark_group(format!("{}/prebuilt", w.name));
    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(P::NAME, |b| {
        b.iter(|| {
            let allowed = urls.iter().filter(|u| peer.allowed(black_box(u))).count();
            assert_eq!(allowed, expected);
            allowed
        })
    });
    group.finish();
}

fn oneshot<P: Peer>(c: &mut Criterion, w: &Workload) {
    let urls = &w.urls[..w.urls.len().min(64)];
    let answers: Option<Vec<bool>> = std::panic::catch_unwind(|| {
        urls.iter()
            .map(|u| P::once(&w.robots, w.agent, u))
            .collect()
    })
    .ok()
    .flatten();
    let Some(answers) = answers else {
        return;
    };
    let mut group = c.benchmark_group(format!("{}/oneshot", w.name));
    group.throughput(Throughput::Elements(1));
    let mut i = 0;
    group.bench_function(P::NAME, |b| {
        b.iter(|| {
            i = (i + 1) % urls.len();
            let allowed = P::once(black_box(&w.robots), w.agent, &urls[i]).expect("built at setup");
            assert_eq!(allowed, answers[i]);
            allowed
        })
    });
    group.finish();
}

fn peers(c: &mut Criterion) {
    for name in WORKLOADS {
        let w = load(name);
        let reference = reference_verdicts(&w);
        prebuilt::<RobotsMatch>(c, &w, &reference);
        prebuilt::<TextingRobots>(c, &w, &reference);
        prebuilt::<GooglePort>(c, &w, &reference);
        prebuilt::<RobotParser>(c, &w, &reference);
        prebuilt::<CylonPeer>(c, &w, &reference);
        prebuilt::<FastRobots>(c, &w, &reference);
        oneshot::<RobotsMatch>(c, &w);
        oneshot::<RobotsMatchBuilt>(c, &w);
        oneshot::<TextingRobots>(c, &w);
        oneshot::<GooglePort>(c, &w);
        oneshot::<RobotParser>(c, &w);
        oneshot::<CylonPeer>(c, &w);
        oneshot::<FastRobots>(c, &w);
    }
}

fn synthetic_urls(n: usize, len: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let mut u = format!(
                "https://www.example.com/dir{}/sub{}/section{}/",
                i % 97,
                i % 7,
                i % 89
            );
            while u.len() + 12 < len {
                u.push_str(&format!("seg{}/", i % 13));
            }
            u.push_str(if i % 2 == 0 { "a.pdf" } else { "p?param3=1" });
            u
        })
        .collect()
}

fn scaling(c: &mut Criterion) {
    let urls = synthetic_urls(2000, 80);
    for wildcard in [false, true] {
        let kind = if wildcard { "wildcard" } else { "literal" };
        for n in [10usize, 100, 1000, 10_000] {
            let body = synthetic(n, wildcard);
            let w = Workload {
                name: "scaling",
                robots: body.into_bytes(),
                urls: urls.clone(),
                agent: "Googlebot",
            };
            let reference = reference_verdicts(&w);
            let expected = reference.iter().filter(|&&a| a).count();
            let mut group = c.benchmark_group(format!("scaling/decide-{kind}-rules-{n}"));
            group.throughput(Throughput::Elements(urls.len() as u64));
            let m = RobotsMatch::build(&w.robots, w.agent).expect("build");
            group.bench_function(RobotsMatch::NAME, |b| {
                b.iter(|| {
                    let allowed = urls.iter().filter(|u| m.allowed(u)).count();
                    assert_eq!(allowed, expected);
                    allowed
                })
            });
            if let Some((t, answers)) = verdicts::<TextingRobots>(&w, &urls) {
                let expected_t = answers.iter().filter(|&&a| a).count();
                group.bench_function(TextingRobots::NAME, |b| {
                    b.iter(|| {
                        let allowed = urls.iter().filter(|u| t.allowed(u)).count();
                        assert_eq!(allowed, expected_t);
                        allowed
                    })
                });
            }
            group.finish();
            let mut group = c.benchmark_group(format!("scaling/build-{kind}-rules-{n}"));
            group.bench_function(BenchmarkId::from_parameter(RobotsMatch::NAME), |b| {
                b.iter(|| RobotsMatch::build(black_box(&w.robots), w.agent).is_some())
            });
            group.bench_function(BenchmarkId::from_parameter(TextingRobots::NAME), |b| {
                b.iter(|| TextingRobots::build(black_box(&w.robots), w.agent).is_some())
            });
            group.finish();
        }
    }
    // URL length: the shop workload's rules, URLs of 32 to 2048 bytes.
    let shop = load("b-shop");
    for len in [32usize, 128, 512, 2048] {
        let urls = synthetic_urls(1000, len);
        let w = Workload {
            name: "scaling",
            robots: shop.robots.clone(),
            urls,
            agent: "Googlebot",
        };
        let reference = reference_verdicts(&w);
        let expected = reference.iter().filter(|&&a| a).count();
        let mut group = c.benchmark_group(format!("scaling/url-length-{len}"));
        group.throughput(Throughput::Elements(w.urls.len() as u64));
        let m = RobotsMatch::build(&w.robots, w.agent).expect("build");
        group.bench_function(RobotsMatch::NAME, |b| {
            b.iter(|| {
                let allowed = w.urls.iter().filter(|u| m.allowed(u)).count();
                assert_eq!(allowed, expected);
                allowed
            })
        });
        if let Some((t, answers)) = verdicts::<TextingRobots>(&w, &w.urls) {
            let expected_t = answers.iter().filter(|&&a| a).count();
            group.bench_function(TextingRobots::NAME, |b| {
                b.iter(|| {
                    let allowed = w.urls.iter().filter(|u| t.allowed(u)).count();
                    assert_eq!(allowed, expected_t);
                    allowed
                })
            });
        }
        group.finish();
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(15)
}

criterion_group! {
    name = benches;
    config = config();
    targets = peers, scaling
}
criterion_main!(benches);
