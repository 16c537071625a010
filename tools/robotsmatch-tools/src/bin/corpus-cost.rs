//! `corpus-cost`: what the real corpus's distinct robots.txt bodies cost to parse, to make ready
//! to decide (the cold tier) and to build hot, in time and memory, on one thread.
//!
//! ```sh
//! cargo run --release -p robotsmatch-tools --bin corpus-cost -- ../shared/corpora/robots [AGENT]
//! ```
//!
//! Prints, over the distinct bodies (identical files counted once):
//! - parsing (`Robots::parse`) in MB/s of robots.txt;
//! - parsed and ready to decide (`Matcher::from_bytes`, the cold tier) in bodies/s and MB/s;
//! - the memory of the cold matchers and of the hot engines against the bytes of the bodies;
//! - per-body distributions (p50, p99, max).
//!
//! Every body is run `ROUNDS` (default 3) times; the best round counts.

use std::time::Instant;

use robotsmatch::{Matcher, MatcherBuilder, Robots, Tier};

/// The `p` quantile of sorted values (0 when there are none).
fn pct(sorted: &[f64], p: f64) -> f64 {
    robotsmatch_tools::quantile(sorted, p).unwrap_or_default()
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../shared/corpora/robots".to_string());
    let agent = args.next().unwrap_or_else(|| "Googlebot".to_string());
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let (files, bodies) = robotsmatch_tools::distinct_bodies(&dir)?;
    let bytes: usize = bodies.iter().map(Vec::len).sum();
    println!(
        "{} files, {} distinct bodies, {:.1} MiB",
        files,
        bodies.len(),
        bytes as f64 / (1 << 20) as f64
    );

    let mut parse_best = f64::MAX;
    let mut ready_best = f64::MAX;
    let mut ready_each = vec![f64::MAX; bodies.len()];
    for _ in 0..rounds {
        let t = Instant::now();
        let mut rules = 0usize;
        for b in &bodies {
            rules += Robots::parse(b).rule_count();
        }
        parse_best = parse_best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(rules);
        let t = Instant::now();
        for (i, b) in bodies.iter().enumerate() {
            let s = Instant::now();
            let m = Matcher::from_bytes(b, agent.as_str());
            std::hint::black_box(m.decide("/").is_allowed());
            ready_each[i] = ready_each[i].min(s.elapsed().as_secs_f64());
        }
        ready_best = ready_best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "parse (Robots::parse):            {:8.1} MB/s  ({:.3} s)",
        bytes as f64 / parse_best / 1e6,
        parse_best
    );
    println!(
        "ready to decide (Matcher::from_bytes + 1 URL): {:8.0} bodies/s, {:.1} MB/s ({:.3} s)",
        bodies.len() as f64 / ready_best,
        bytes as f64 / ready_best / 1e6,
        ready_best
    );
    ready_each.sort_by(f64::total_cmp);
    println!(
        "  per body: p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
        pct(&ready_each, 0.5) * 1e6,
        pct(&ready_each, 0.99) * 1e6,
        pct(&ready_each, 1.0) * 1e6
    );

    let mut cold_mem = Vec::with_capacity(bodies.len());
    let mut hot_mem = Vec::with_capacity(bodies.len());
    let mut build = Vec::with_capacity(bodies.len());
    for b in &bodies {
        let robots = Robots::parse(b);
        let cold = MatcherBuilder::new()
            .tier(Tier::Cold)
            .build(&robots, agent.as_str());
        cold_mem.push(cold.memory_usage() as f64);
        let t = Instant::now();
        let hot = MatcherBuilder::new()
            .tier(Tier::Hot)
            .build(&robots, agent.as_str());
        build.push(t.elapsed().as_secs_f64());
        hot_mem.push(hot.memory_usage() as f64);
    }
    let total = |v: &[f64]| v.iter().sum::<f64>();
    println!(
        "memory, cold: {:.1} MiB ({:.2}x the bodies); hot: {:.1} MiB ({:.2}x)",
        total(&cold_mem) / (1 << 20) as f64,
        total(&cold_mem) / bytes as f64,
        total(&hot_mem) / (1 << 20) as f64,
        total(&hot_mem) / bytes as f64
    );
    for (name, v) in [("cold bytes", &mut cold_mem), ("hot bytes", &mut hot_mem)] {
        v.sort_by(f64::total_cmp);
        println!(
            "  {name} per body: p50 {:.0}, p99 {:.0}, max {:.0}",
            pct(v, 0.5),
            pct(v, 0.99),
            pct(v, 1.0)
        );
    }
    build.sort_by(f64::total_cmp);
    println!(
        "hot build (parse + build at once) per body: p50 {:.1} µs, p99 {:.1} µs, max {:.1} ms, total {:.2} s",
        pct(&build, 0.5) * 1e6,
        pct(&build, 0.99) * 1e6,
        pct(&build, 1.0) * 1e3,
        total(&build)
    );
    Ok(())
}
