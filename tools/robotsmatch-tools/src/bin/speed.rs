//! `speed`: decides every URL of a file against one robots.txt, several rounds, and prints
//! URLs/s per core (one thread). A quick look; criterion benches in `benches/` are the record.
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin speed ROBOTS URLS [AGENT] [ROUNDS]`

use std::time::Instant;

use robotsmatch::{EngineChoice, MatcherBuilder, Robots, Tier};

fn main() -> anyhow::Result<()> {
    let args = robotsmatch_tools::TimingArgs::from_env("speed")?;
    let (body, agent, rounds) = (&args.body, args.agent.as_str(), args.rounds);
    let urls = args.urls();
    // `ROBOTSMATCH_ENGINE=direct|dense|lazy|split` compares engines (default auto, built hot at
    // once: this measures the hot engine).
    let engine = match std::env::var("ROBOTSMATCH_ENGINE").as_deref() {
        Ok("direct") => EngineChoice::Direct,
        Ok("dense") => EngineChoice::Dense,
        Ok("lazy") => EngineChoice::Lazy,
        Ok("split") => EngineChoice::Split,
        Ok("tree") => EngineChoice::Tree,
        _ => EngineChoice::Auto,
    };
    let start = Instant::now();
    let m = MatcherBuilder::new()
        .engine(engine)
        .tier(Tier::Hot)
        .build(&Robots::parse(body), agent);
    let compile = start.elapsed();
    let mut cache = m.create_cache();
    let mut best = f64::MAX;
    let mut allowed = 0usize;
    for _ in 0..rounds {
        let t = Instant::now();
        allowed = 0;
        for u in &urls {
            allowed += m.decide_with(&mut cache, u).is_allowed() as usize;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mean_len = urls.iter().map(|u| u.len()).sum::<usize>() as f64 / urls.len() as f64;
    println!(
        "{} URLs (mean {:.0} bytes), {} allowed; engine {} ({:?} patterns, wildcards); compile {:.1?}; memory {} + cache {} bytes; best of {rounds}: {:.1} ns/URL, {:.2} M URLs/s",
        urls.len(),
        mean_len,
        allowed,
        m.engine().as_str(),
        m.pattern_counts(),
        compile,
        m.memory_usage(),
        cache.memory_usage(),
        best * 1e9 / urls.len() as f64,
        urls.len() as f64 / best / 1e6
    );
    Ok(())
}
