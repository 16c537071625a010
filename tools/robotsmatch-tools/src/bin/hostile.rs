//! `hostile`: robots.txt files written to hurt a matcher, and what they cost robotsmatch.
//!
//! For each case: parse + compile time, the matcher's memory, the engine chosen, the mean time
//! to decide each of its URLs once with a new cache (the first pass), and the median time to
//! decide a 2 KB URL over rounds (and that the decision equals the reference matcher's). With
//! `--write DIR` the files are also written out (the test suite keeps a copy in
//! `corpora/hostile`).
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin hostile [-- --write DIR]`

use std::time::{Duration, Instant};

use robotsmatch::canon::canonical_path;
use robotsmatch::{MatcherBuilder, Robots, Tier};
use robotsmatch_tools::hostile_cases;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = match args.as_slice() {
        [flag, dir] if flag == "--write" => Some(std::path::PathBuf::from(dir)),
        [] => None,
        _ => anyhow::bail!("usage: hostile [--write DIR]"),
    };
    println!("| case | size | ready (cold) | cold decide | hot build | memory (hot) | hot engine | hot decide, first pass (mean) | hot decide (2 KB URL, median) | agrees with reference |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for case in hostile_cases() {
        if let Some(dir) = &write {
            std::fs::create_dir_all(dir)?;
            std::fs::write(dir.join(format!("{}.txt", case.name)), &case.body)?;
        }
        let start = Instant::now();
        let cold = MatcherBuilder::new()
            .tier(Tier::Cold)
            .build_from_bytes(&case.body, "Googlebot");
        let ready = start.elapsed();
        let start = Instant::now();
        let m = MatcherBuilder::new()
            .tier(Tier::Hot)
            .build(&Robots::parse(&case.body), "Googlebot");
        let compile = start.elapsed();
        let mut cache = m.create_cache();
        // Each URL once, with the new cache: what a log of different URLs costs (a lazy DFA
        // builds its states here).
        let start = Instant::now();
        for url in &case.urls {
            m.decide_with(&mut cache, url);
        }
        let first_pass = start.elapsed() / case.urls.len() as u32;
        let mut cold_cache = cold.create_cache();
        let (mut times, mut cold_times) = (Vec::new(), Vec::new());
        let mut agrees = true;
        let mut engine = m.engine();
        // Round after round over the URLs, so that a URL's states may have left the lazy
        // DFA's cache by the time it comes again (as with a log's many different URLs).
        for _ in 0..21 {
            for url in &case.urls {
                let t = Instant::now();
                let d = m.decide_with(&mut cache, url);
                times.push(t.elapsed());
                let t = Instant::now();
                let c = cold.decide_with(&mut cold_cache, url);
                cold_times.push(t.elapsed());
                engine = d.engine();
                let want = m.reference().decide(&canonical_path(url));
                agrees &= want.allowed == d.is_allowed() && want.allowed == c.is_allowed();
            }
        }
        println!(
            "| {} | {} KiB | {:.2?} | {:.2?} | {:.2?} | {:.1} KiB | {} | {:.2?} | {:.2?} | {} |",
            case.name,
            case.body.len() / 1024,
            ready,
            median(cold_times),
            compile,
            (m.memory_usage() + cache.memory_usage()) as f64 / 1024.0,
            engine.as_str(),
            first_pass,
            median(times),
            if agrees { "yes" } else { "NO" }
        );
    }
    Ok(())
}
