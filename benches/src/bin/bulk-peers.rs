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

/// Writes into `key` the host key of an absolute URL as `classify` forms it (lower case,
/// `_port` for a port other than the scheme's); returns the default port, or `None` without
/// `scheme://host`.
fn host_key(url: &[u8], key: &mut Vec<u8>) -> Option<Option<u16>> {
    let sep = memchr::memmem::find(url, b"://")?;
    let scheme = &url[..sep];
    let rest = &url[sep + 3..];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#' | b'\\'))
        .unwrap_or(rest.len());
    let mut auth = &rest[..end];
    if let Some(at) = memchr::memrchr(b'@', auth) {
        auth = &auth[at + 1..];
    }
    let (host, port) = match memchr::memrchr(b':', auth) {
        Some(i) if !auth.starts_with(b"[") || auth[..i].ends_with(b"]") => (
            &auth[..i],
            std::str::from_utf8(&auth[i + 1..])
                .ok()?
                .parse::<u16>()
                .ok(),
        ),
        _ => (auth, None),
    };
    let host = host.strip_suffix(b".").unwrap_or(host);
    if host.is_empty() {
        return None;
    }
    let default = if scheme.eq_ignore_ascii_case(b"http") {
        Some(80)
    } else if scheme.eq_ignore_ascii_case(b"https") {
        Some(443)
    } else {
        None
    };
    key.clear();
    key.extend(host.iter().map(u8::to_ascii_lowercase));
    match port {
        Some(p) if Some(p) != default => {
            key.extend_from_slice(format!("_{p}").as_bytes());
            Some(None)
        }
        _ => Some(default),
    }
}

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
        let Some(default) = host_key(line, &mut key) else {
            continue;
        };
        if !hosts.contains_key(&key[..]) {
            let name = String::from_utf8_lossy(&key).into_owned();
            let read = |n: &str| std::fs::read(dir.join(format!("{n}.txt"))).ok();
            let body = read(&name).or_else(|| default.and_then(|p| read(&format!("{name}_{p}"))));
            hosts.insert(key.clone(), body.and_then(|b| P::build(&b, agent)));
        }
        let ok = match hosts.get(&key[..]) {
            Some(Some(p)) => p.allowed(std::str::from_utf8(line).unwrap_or("")),
            _ => true,
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
