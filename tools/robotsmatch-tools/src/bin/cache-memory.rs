//! Memory of a `RobotsCache` per host on a directory of real robots.txt files: every
//! `<host>.txt` (or `<host>_<port>.txt`) is inserted as a 200 response for its origin, for one
//! agent (default Googlebot), and the cache's own accounting and the process RSS are reported.
//!
//! ```sh
//! cargo run --release -p robotsmatch-tools --bin cache-memory -- ../shared/corpora/robots [AGENT]
//! ```

use std::time::Instant;

use anyhow::Context;
use robotsmatch::cache::{CacheConfig, Origin, RobotsCache};
use robotsmatch::fetch::Outcome;

/// Resident set size of this process, in bytes (Linux; 0 elsewhere).
fn rss() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmRSS:"))?;
            let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb * 1024)
        })
        .unwrap_or(0)
}

fn pct(sorted: &[usize], p: f64) -> usize {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn row(name: &str, v: &mut [usize]) {
    v.sort_unstable();
    let mean = v.iter().sum::<usize>() as f64 / v.len().max(1) as f64;
    println!(
        "{name:<34} {:>8} {:>8} {:>8} {:>10.0} {:>10}",
        pct(v, 0.5),
        pct(v, 0.9),
        pct(v, 0.99),
        mean,
        v.last().copied().unwrap_or(0)
    );
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../shared/corpora/robots".to_string());
    let agent = args.next().unwrap_or_else(|| "Googlebot".to_string());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot list '{dir}'"))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    // Read everything first, so the RSS difference is the cache's.
    let mut files = Vec::new();
    for name in &names {
        let stem = name.trim_end_matches(".txt");
        let host = match stem.rsplit_once('_') {
            Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) => format!("{h}:{p}"),
            _ => stem.to_string(),
        };
        let Some(origin) = Origin::from_url(&format!("https://{host}/")) else {
            eprintln!("cache-memory: skipped '{name}': not a host name");
            continue;
        };
        let body = std::fs::read(format!("{dir}/{name}"))
            .with_context(|| format!("cannot read '{dir}/{name}'"))?;
        files.push((origin, body));
    }
    let body_bytes: usize = files.iter().map(|f| f.1.len()).sum();
    let cache = RobotsCache::new(
        CacheConfig::new()
            .agents(&[agent.as_str()])
            .max_bytes(usize::MAX),
    );
    let now = Instant::now();
    let rss_before = rss();
    let start = Instant::now();
    let mut per_host = Vec::with_capacity(files.len());
    let mut first_of_body = Vec::new();
    let mut replaced = 0;
    for (origin, body) in &files {
        let (before, entries) = (cache.memory_usage(), cache.len());
        let compiled_before = cache.stats().compiled;
        cache.insert(origin, &Outcome::response(200, body), now);
        if cache.len() == entries {
            // `host.txt` and `host_443.txt` are one origin: the second replaced the first.
            replaced += 1;
            continue;
        }
        let delta = cache.memory_usage() - before;
        per_host.push(delta);
        if cache.stats().compiled > compiled_before {
            first_of_body.push(delta);
        }
    }
    let elapsed = start.elapsed();
    let rss_after = rss();
    let hosts = cache.len();
    let total = cache.memory_usage();
    println!(
        "{hosts} hosts from {dir} for {agent}: {} distinct bodies ({:.1} MiB of files), \
         inserted in {:.2} s ({replaced} files replaced another of the same origin)",
        cache.body_count(),
        body_bytes as f64 / (1 << 20) as f64,
        elapsed.as_secs_f64()
    );
    println!(
        "cache accounting: {:.1} MiB in all, {:.0} bytes per host (mean)",
        total as f64 / (1 << 20) as f64,
        total as f64 / hosts.max(1) as f64
    );
    println!(
        "process RSS: {:.1} MiB before inserting, {:.1} MiB after: {:.0} bytes per host",
        rss_before as f64 / (1 << 20) as f64,
        rss_after as f64 / (1 << 20) as f64,
        rss_after.saturating_sub(rss_before) as f64 / hosts.max(1) as f64
    );
    println!(
        "\n{:<34} {:>8} {:>8} {:>8} {:>10} {:>10}",
        "bytes charged", "p50", "p90", "p99", "mean", "max"
    );
    row("per host (insert order)", &mut per_host);
    row("per host that compiled a new body", &mut first_of_body);
    Ok(())
}
