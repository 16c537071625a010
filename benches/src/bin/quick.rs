//! `quick`: a fast look at the workloads while developing (criterion's `peers` is the record):
//! prebuilt URLs/s per core for robotsmatch's tiers and the two fastest peers, and the
//! one-shot time (parse + build + decide one URL). Best of several rounds, interleaved, so
//! that a noisy machine hurts every engine alike.
//!
//! Usage: `cargo run --release -p robotsmatch-benches --bin quick [WORKLOAD...]`

use std::hint::black_box;
use std::time::Instant;

use robotsmatch::{MatcherBuilder, Robots, Tier};
use robotsmatch_benches::*;

/// A crate's one-shot call.
type OnceFn = dyn Fn(&[u8], &str, &str) -> Option<bool>;

/// Best time of `rounds` runs of `f`, in seconds.
fn best(rounds: usize, mut f: impl FnMut() -> usize) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&'static str> = WORKLOADS
        .iter()
        .copied()
        .filter(|w| args.is_empty() || args.iter().any(|a| w.starts_with(a.as_str())))
        .collect();
    println!("workload       | rm hot    | rm cold   | fast-robots | texting   || once rm    | rm matcher | fast-robots | texting");
    for name in names {
        let w = load(name);
        let robots = Robots::parse(&w.robots);
        let hot = MatcherBuilder::new()
            .tier(Tier::Hot)
            .build(&robots, w.agent);
        let cold = MatcherBuilder::new()
            .tier(Tier::Cold)
            .build(&robots, w.agent);
        let fast = FastRobots::build(&w.robots, w.agent).expect("fast-robots builds");
        let texting = TextingRobots::build(&w.robots, w.agent).expect("texting builds");
        let n = w.urls.len() as f64;
        let mut t = [f64::MAX; 4];
        let cold_urls = if w.robots.len() > 100_000 {
            1000
        } else {
            w.urls.len()
        };
        for _ in 0..5 {
            t[0] = t[0].min(
                best(3, || {
                    w.urls.iter().filter(|u| hot.decide(u).is_allowed()).count()
                }) / n,
            );
            t[1] = t[1].min(
                best(1, || {
                    w.urls[..cold_urls]
                        .iter()
                        .filter(|u| cold.decide(u).is_allowed())
                        .count()
                }) / cold_urls as f64,
            );
            t[2] = t[2].min(best(3, || w.urls.iter().filter(|u| fast.allowed(u)).count()) / n);
            t[3] = t[3].min(best(1, || w.urls.iter().filter(|u| texting.allowed(u)).count()) / n);
        }
        let reps = if w.robots.len() > 100_000 { 50 } else { 2000 };
        let mut o = [f64::MAX; 4];
        let once = |f: &OnceFn, reps: usize| {
            best(1, || {
                (0..reps)
                    .filter(|i| f(black_box(&w.robots), w.agent, &w.urls[i % 64]).unwrap_or(false))
                    .count()
            }) / reps as f64
        };
        for _ in 0..5 {
            o[0] = o[0].min(once(&RobotsMatch::once, reps));
            o[1] = o[1].min(once(&RobotsMatchBuilt::once, reps));
            o[2] = o[2].min(once(&FastRobots::once, reps));
            o[3] = o[3].min(once(&TextingRobots::once, reps.min(200)));
        }
        let rate = |s: f64| format!("{:6.2} M/s", 1e-6 / s);
        let dur = |s: f64| {
            if s > 1e-3 {
                format!("{:7.2} ms", s * 1e3)
            } else if s > 1e-6 {
                format!("{:7.2} µs", s * 1e6)
            } else {
                format!("{:7.0} ns", s * 1e9)
            }
        };
        println!(
            "{name:14} | {} | {} | {}   | {} || {} | {} | {}  | {}",
            rate(t[0]),
            rate(t[1]),
            rate(t[2]),
            rate(t[3]),
            dur(o[0]),
            dur(o[1]),
            dur(o[2]),
            dur(o[3])
        );
    }
}
