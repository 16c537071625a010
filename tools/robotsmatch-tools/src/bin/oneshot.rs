//! `oneshot`: for every URL of a file, builds a matcher from the robots.txt bytes
//! (`Matcher::from_bytes`, the default tiering) and decides the URL: a crawler's one question
//! per fetched file. Several rounds; prints the best time per URL (one thread). A quick,
//! profilable look; criterion's `oneshot` group in `benches/` is the record.
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin oneshot ROBOTS URLS [AGENT] [ROUNDS]`
//!
//! (A binary of its own: as a mode of `speed`, its calls changed how the compiler inlined
//! `speed`'s decision loop, and so the instruction counts measured with it.)

use std::time::Instant;

use robotsmatch::Matcher;

fn main() -> anyhow::Result<()> {
    let args = robotsmatch_tools::TimingArgs::from_env("oneshot")?;
    let (body, agent, rounds) = (&args.body, args.agent.as_str(), args.rounds);
    let urls = args.urls();
    // `ROBOTSMATCH_ONESHOT=once` measures `Matcher::decide_once` (one pass, nothing built)
    // instead.
    if std::env::var("ROBOTSMATCH_ONESHOT").as_deref() == Ok("once") {
        return once(body, agent, &urls, rounds);
    }
    let mut best = f64::MAX;
    let mut allowed = 0usize;
    for _ in 0..rounds {
        let t = Instant::now();
        allowed = 0;
        for u in &urls {
            let m = Matcher::from_bytes(std::hint::black_box(body), agent);
            allowed += m.decide(u).is_allowed() as usize;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} URLs, {allowed} allowed; from_bytes + decide, best of {rounds}: {:.1} ns/URL",
        urls.len(),
        best * 1e9 / urls.len() as f64
    );
    Ok(())
}

/// The `decide_once` loop: one pass over the file per URL, nothing built.
#[inline(never)]
fn once(body: &[u8], agent: &str, urls: &[&[u8]], rounds: usize) -> anyhow::Result<()> {
    let mut best = f64::MAX;
    let mut allowed = 0usize;
    for _ in 0..rounds {
        let t = Instant::now();
        allowed = 0;
        for &u in urls {
            allowed +=
                Matcher::decide_once(std::hint::black_box(body), agent, u).is_allowed() as usize;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} URLs, {allowed} allowed; decide_once, best of {rounds}: {:.1} ns/URL",
        urls.len(),
        best * 1e9 / urls.len() as f64
    );
    Ok(())
}
