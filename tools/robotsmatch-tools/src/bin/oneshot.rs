//! `oneshot`: for every URL of a file, builds a matcher from the robots.txt bytes
//! (`Matcher::from_bytes`, the default tiering) and decides the URL: a crawler's one question
//! per fetched file. Several rounds; prints the best time per URL (one thread). A quick,
//! profilable look; criterion's `oneshot` group in `benches/` is the record.
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin oneshot ROBOTS URLS [AGENT] [ROUNDS]`
//!
//! (A binary of its own: as a mode of `speed`, its calls changed how the compiler inlined
//! `speed`'s decision loop, and so the instruction counts measured with it.)

use std::hint::black_box;
use std::time::Instant;

use robotsmatch::Matcher;

fn main() -> anyhow::Result<()> {
    let args = robotsmatch_tools::TimingArgs::from_env("oneshot")?;
    let (body, agent, rounds) = (&args.body, args.agent.as_str(), args.rounds);
    let urls = args.urls();
    // `ROBOTSMATCH_ONESHOT=once` measures `Matcher::decide_once` (one pass, nothing built)
    // instead.
    let (what, (best, allowed)) = if std::env::var("ROBOTSMATCH_ONESHOT").as_deref() == Ok("once") {
        let once = |u: &[u8]| Matcher::decide_once(black_box(body), agent, u).is_allowed();
        ("decide_once", best_of(rounds, &urls, once))
    } else {
        let built = |u: &[u8]| {
            Matcher::from_bytes(black_box(body), agent)
                .decide(u)
                .is_allowed()
        };
        ("from_bytes + decide", best_of(rounds, &urls, built))
    };
    println!(
        "{} URLs, {allowed} allowed; {what}, best of {rounds}: {:.1} ns/URL",
        urls.len(),
        best * 1e9 / urls.len() as f64
    );
    Ok(())
}

/// The best time of `rounds` rounds of `decide` over every URL (seconds), and how many URLs
/// it allowed.
#[inline(never)]
fn best_of(rounds: usize, urls: &[&[u8]], decide: impl Fn(&[u8]) -> bool) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut allowed = 0usize;
    for _ in 0..rounds {
        let t = Instant::now();
        allowed = urls.iter().filter(|&&u| decide(u)).count();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, allowed)
}
