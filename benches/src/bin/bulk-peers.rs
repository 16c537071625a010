//! `bulk-peers`: the plain loop a crawler would write over a robots.txt crate, on a whole
//! multi-host log, one thread: each URL's host looked up in a map; on first sight its
//! `<host>.txt` is read from the store and built; then one call per URL. The baseline that
//! `robotsmatch classify --threads 1` is compared with (`tools/bench-bulk` runs both).
//!
//! ```sh
//! cargo run --release -p robotsmatch-benches --bin bulk-peers -- \
//!     --robots ../shared/corpora/robots --peer fast-robots LOG
//! ```
//!
//! Peers: `fast-robots`, `texting_robots`, and `robotsmatch` (the library's `Matcher` in the
//! same loop). Prints the URLs, the verdict counts, the hosts with a file, the time and URLs/s.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use robotsmatch_benches::{FastRobots, Peer, RobotsMatch, TextingRobots};
use robotsmatch_bulk::logline::host_key_in;

/// Runs the loop with peer `P`; returns (allowed, disallowed, hosts with a file, seconds).
/// The loop is what a careful user writes: one reused key buffer, a fast hash map, one lookup
/// per URL, the host's file read and built only on first sight.
fn run<P: Peer>(dir: &Path, agent: &str, log: &[u8]) -> (u64, u64, usize, f64) {
    let start = Instant::now();
    let mut hosts: HashMap<Vec<u8>, Option<P>, foldhash::fast::RandomState> = HashMap::default();
    let (mut allowed, mut disallowed) = (0u64, 0u64);
    let mut key = Vec::new();
    for line in log.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // The host key as `classify` forms it (the same function).
        let Some((host, default)) = host_key_in(line, &mut key) else {
            continue;
        };
        let peer = match hosts.get(host) {
            Some(p) => p,
            None => {
                let name = String::from_utf8_lossy(host).into_owned();
                let read = |n: &str| std::fs::read(dir.join(format!("{n}.txt"))).ok();
                let body =
                    read(&name).or_else(|| default.and_then(|p| read(&format!("{name}_{p}"))));
                hosts
                    .entry(host.to_vec())
                    .or_insert(body.and_then(|b| P::build(&b, agent)))
            }
        };
        let ok = match peer {
            Some(p) => p.allowed(std::str::from_utf8(line).unwrap_or("")),
            None => true,
        };
        if ok {
            allowed += 1;
        } else {
            disallowed += 1;
        }
    }
    let with_file = hosts.values().filter(|p| p.is_some()).count();
    (
        allowed,
        disallowed,
        with_file,
        start.elapsed().as_secs_f64(),
    )
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut dir = PathBuf::from("../shared/corpora/robots");
    let mut peer = "fast-robots".to_string();
    let mut agent = "Googlebot".to_string();
    let mut log = None;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--robots" => dir = args.next().ok_or("--robots DIR")?.into(),
            "--peer" => peer = args.next().ok_or("--peer NAME")?,
            "--agent" => agent = args.next().ok_or("--agent AGENT")?,
            _ => log = Some(PathBuf::from(a)),
        }
    }
    let log = log.ok_or("usage: bulk-peers [--robots DIR] [--peer NAME] [--agent A] LOG")?;
    let text = std::fs::read(&log).map_err(|e| format!("cannot read {}: {e}", log.display()))?;
    let (a, d, hosts, secs) = match peer.as_str() {
        "fast-robots" => run::<FastRobots>(&dir, &agent, &text),
        "texting_robots" => run::<TextingRobots>(&dir, &agent, &text),
        "robotsmatch" => run::<RobotsMatch>(&dir, &agent, &text),
        other => return Err(format!("unknown peer {other}")),
    };
    let urls = a + d;
    println!(
        "{peer}: {urls} URLs ({a} allowed, {d} disallowed), {hosts} hosts with a file, {secs:.3} s, {:.3} M URLs/s",
        urls as f64 / secs / 1e6
    );
    Ok(())
}
