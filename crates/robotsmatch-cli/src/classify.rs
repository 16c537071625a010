//! `robotsmatch classify`: every URL of crawl logs against a per-host robots store, on all
//! cores, output in input order.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::bail;
use clap::{Args, ValueEnum};
use robotsmatch::canon::canonical_path;

use crate::output;
use robotsmatch::fetch::Availability;
use robotsmatch_bulk::logline::{self, LineFormat, Malformed};
use robotsmatch_bulk::reader::{self as bulk, Chunk, LogPath};
use robotsmatch_bulk::store::{Outcome, Store, View};
use robotsmatch_bulk::warc;

/// Arguments of `classify`.
#[derive(Args, Debug)]
pub struct ClassifyArgs {
    /// A robots.txt file for every URL, or a directory of `<host>.txt` files (also
    /// `<host>/robots.txt`; a port as `<host>_<port>.txt`).
    #[arg(
        long,
        value_name = "FILE|DIR",
        required_unless_present = "robots_warc",
        conflicts_with = "robots_warc"
    )]
    robots: Option<PathBuf>,
    /// A WARC file of robots.txt captures (Common Crawl's robotstxt segments; gzip per record
    /// or plain); repeat the flag for several files. Hosts get RFC 9309 status semantics: 2xx
    /// parsed, 4xx allow all, 5xx/429 disallow all; the most recent capture of a host wins.
    #[arg(long = "robots-warc", value_name = "WARC")]
    robots_warc: Vec<PathBuf>,
    /// The crawler: a product token (Googlebot) or a full user-agent string.
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Matching profile: google or legacy.
    #[arg(long, value_name = "P", default_value = "google")]
    profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print only URLs with this verdict (tsv and jsonl).
    #[arg(long, value_enum, value_name = "VERDICT")]
    only: Option<Only>,
    /// Take the URL from this 1-based column of TSV/CSV lines (default: the whole line).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    column: Option<u32>,
    /// Column delimiter for --column: one character, or `\t` (default tab).
    #[arg(long, value_name = "C", default_value = "\\t")]
    delimiter: String,
    /// Chunk size in bytes for the parallel split (the output does not depend on it).
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20, hide = true)]
    chunk_size: usize,
    /// Read plain files instead of memory-mapping them.
    #[arg(long)]
    no_mmap: bool,
    #[command(flatten)]
    limits: crate::limits::LimitArgs,
    /// Logs: one URL per line, or TSV/CSV; plain or gzip; `-` is stdin.
    #[arg(value_name = "LOG", required = true)]
    logs: Vec<String>,
}

/// Output formats of `classify`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// verdict<TAB>line<TAB>rule<TAB>url per input line.
    Tsv,
    /// One JSON object per input line.
    Jsonl,
    /// Totals, top hosts, top rules, malformed lines, speed.
    Summary,
}

/// The `--only` filter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Only {
    /// Only allowed URLs.
    Allowed,
    /// Only disallowed URLs.
    Disallowed,
}

/// The dense DFA budget per robots.txt body in a store, in bytes.
const STORE_DENSE_SIZE_LIMIT: usize = 16 << 10;

/// How many malformed lines are reported in full.
const MALFORMED_SHOWN: usize = 10;

/// Counts kept per chunk and merged in order.
#[derive(Default)]
struct Stats {
    allowed: u64,
    disallowed: u64,
    no_robots: u64,
    /// Allowed because the host's robots.txt was unavailable (WARC store).
    unavailable: u64,
    /// Disallowed because the host's robots.txt was unreachable (WARC store).
    unreachable: u64,
    blank: u64,
    malformed: u64,
    /// (log, line: within the chunk, then 1-based within the log, reason, text) of the first
    /// malformed lines.
    malformed_lines: Vec<(usize, u64, Malformed, Vec<u8>)>,
    /// Summary only: host -> [allowed, disallowed].
    hosts: HashMap<Vec<u8>, [u64; 2], foldhash::fast::RandomState>,
    /// Summary only: (entry, line) -> (count, an example host, rule text).
    rules: HashMap<(usize, u32), RuleCount>,
}

/// How often a rule decided, an example host, and the rule as text.
type RuleCount = (u64, Vec<u8>, String);

/// The result of one chunk.
struct ChunkOut {
    log: usize,
    lines: u64,
    out: Vec<u8>,
    stats: Stats,
}

/// Per-thread state: the thread's view of the store.
struct Worker<'s> {
    view: View<'s>,
}

/// Runs `classify`; returns the exit code.
pub fn run(args: ClassifyArgs) -> anyhow::Result<u8> {
    let start = Instant::now();
    let profile = crate::check::parse_profile(&args.profile)?;
    crate::check::single_agent(&args.agent)?;
    let format = LineFormat {
        column: args.column.map_or(0, |c| c as usize),
        delimiter: logline::parse_delimiter(&args.delimiter)?,
    };
    let logs: Vec<LogPath> = args.logs.iter().map(|s| LogPath::parse(s)).collect();
    if logs.iter().filter(|l| **l == LogPath::Stdin).count() > 1 {
        bail!("stdin ('-') can be given only once");
    }
    // A smaller dense budget than `check`: a store holds thousands of matchers at once.
    let agent = robotsmatch::catalog::agent_for(&args.agent);
    let builder = args.limits.builder(profile, STORE_DENSE_SIZE_LIMIT);
    let store = match &args.robots {
        Some(path) => Store::open(path, agent, builder, args.limits.parse_config())?,
        None => {
            bulk::check_logs(&logs)?;
            warc_store(
                &args.robots_warc,
                agent,
                builder,
                args.limits.parse_config(),
            )?
        }
    };
    bulk::check_logs(&logs)?;
    let (pool, config, threads) = bulk::workers(args.threads, args.chunk_size, !args.no_mmap)?;
    let workers: Vec<Mutex<Worker<'_>>> = (0..threads + 1)
        .map(|_| {
            Mutex::new(Worker {
                view: View::new(&store),
            })
        })
        .collect();
    let summary = args.format == Format::Summary;
    let (total_bytes, size_known) = bulk::total_size(&logs);
    let progress = progress_bar(total_bytes, size_known);

    let process = |chunk: &Chunk<'_>| -> ChunkOut {
        let slot = rayon::current_thread_index().unwrap_or(threads);
        let mut worker = match workers[slot.min(threads)].lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        classify_chunk(chunk, &mut worker, format, args.format, args.only, summary)
    };

    // Not the locked stdout: the sink runs on the pipeline's writer thread.
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout());
    let mut totals = Stats::default();
    let mut line_base: Vec<u64> = vec![0; logs.len()];
    let sink = |r: ChunkOut, bytes: u64| -> std::io::Result<()> {
        out.write_all(&r.out)?;
        let base = line_base[r.log];
        line_base[r.log] += r.lines;
        merge(&mut totals, r.stats, base, r.log);
        if let Some(p) = &progress {
            p.inc(bytes);
            let urls = totals.allowed + totals.disallowed;
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            p.set_message(format!("{:.2} M URLs/s", urls as f64 / secs / 1e6));
        }
        Ok(())
    };
    let log_errors = bulk::run(&logs, &config, &pool, process, sink)?;
    out.flush()?;
    drop(out);
    if let Some(p) = &progress {
        p.finish_and_clear();
    }
    let elapsed = start.elapsed();

    let mut err = std::io::stderr().lock();
    let urls = totals.allowed + totals.disallowed;
    if summary {
        let mut o = output::stdout();
        write_summary(
            &mut o,
            &totals,
            &store,
            &logs,
            elapsed,
            threads,
            bytes_read(&logs),
        )?;
        o.flush()?;
    }
    report_malformed(&mut err, &totals, &logs)?;
    let mut code = 0;
    for e in &log_errors {
        writeln!(err, "robotsmatch: {}", e.message)?;
        code = 2;
    }
    for e in store.errors() {
        writeln!(
            err,
            "robotsmatch: {e} (its host was treated as having no robots.txt)"
        )?;
        code = 2;
    }
    if !summary && std::env::var_os("ROBOTSMATCH_TIMING").is_some() {
        writeln!(
            err,
            "classified {urls} URLs in {:.3} s ({:.0} URLs/s)",
            elapsed.as_secs_f64(),
            urls as f64 / elapsed.as_secs_f64()
        )?;
    }
    Ok(code)
}

fn bytes_read(logs: &[LogPath]) -> Option<u64> {
    let (n, known) = bulk::total_size(logs);
    known.then_some(n)
}

fn progress_bar(total: u64, known: bool) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = if known {
        indicatif::ProgressBar::new(total)
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    let template = if known {
        "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} {msg} ETA {eta}"
    } else {
        "{spinner} {bytes} {bytes_per_sec} {msg}"
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    Some(bar)
}

fn merge(total: &mut Stats, s: Stats, base: u64, log: usize) {
    total.allowed += s.allowed;
    total.disallowed += s.disallowed;
    total.no_robots += s.no_robots;
    total.unavailable += s.unavailable;
    total.unreachable += s.unreachable;
    total.blank += s.blank;
    total.malformed += s.malformed;
    for (_, line, why, text) in s.malformed_lines {
        if total.malformed_lines.len() < MALFORMED_SHOWN {
            total
                .malformed_lines
                .push((log, base + line + 1, why, text));
        }
    }
    for (h, c) in s.hosts {
        let e = total.hosts.entry(h).or_default();
        e[0] += c[0];
        e[1] += c[1];
    }
    for (k, (n, host, rule)) in s.rules {
        total.rules.entry(k).or_insert((0, host, rule)).0 += n;
    }
}

fn classify_chunk(
    chunk: &Chunk<'_>,
    worker: &mut Worker<'_>,
    format: LineFormat,
    out_format: Format,
    only: Option<Only>,
    summary: bool,
) -> ChunkOut {
    let mut out = Vec::with_capacity(if summary {
        0
    } else {
        chunk.data.len() + chunk.data.len() / 2
    });
    let mut stats = Stats::default();
    let mut data = chunk.data;
    if data.last() == Some(&b'\n') {
        data = &data[..data.len() - 1];
    }
    let mut lines = 0u64;
    if !chunk.data.is_empty() {
        for (i, raw) in data.split(|&b| b == b'\n').enumerate() {
            lines += 1;
            let line = logline::clean_line(raw, chunk.first && i == 0);
            classify_line(
                line, i as u64, worker, format, out_format, only, summary, &mut out, &mut stats,
            );
        }
    }
    ChunkOut {
        log: chunk.log,
        lines,
        out,
        stats,
    }
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn classify_line(
    line: &[u8],
    index: u64,
    worker: &mut Worker<'_>,
    format: LineFormat,
    out_format: Format,
    only: Option<Only>,
    summary: bool,
    out: &mut Vec<u8>,
    stats: &mut Stats,
) {
    let parsed = logline::extract(line, format).and_then(|(text, url)| {
        let (host, default_port) = logline::host_key(&url).ok_or(Malformed::NotAUrl)?;
        Ok((text, url, host, default_port))
    });
    let (text, url, host_key, default_port) = match parsed {
        Ok(x) => x,
        Err(why) => {
            if why == Malformed::Blank {
                stats.blank += 1;
            } else {
                stats.malformed += 1;
                if stats.malformed_lines.len() < MALFORMED_SHOWN {
                    stats.malformed_lines.push((0, index, why, line.to_vec()));
                }
            }
            if only.is_none() {
                match out_format {
                    Format::Tsv => {
                        out.extend_from_slice(b"invalid\t-\t-\t");
                        out.extend_from_slice(&output::sanitize(line));
                        out.push(b'\n');
                    }
                    Format::Jsonl => {
                        let v = serde_json::json!({
                            "url": String::from_utf8_lossy(line),
                            "verdict": "invalid",
                            "error": why.as_str(),
                        });
                        let _ = serde_json::to_writer(&mut *out, &v);
                        out.push(b'\n');
                    }
                    Format::Summary => {}
                }
            }
            return;
        }
    };
    let host = host_key.get(&url);
    let path = canonical_path(&url);
    let outcome = worker.view.decide(host, default_port, &path);
    let (allowed, decision) = match &outcome {
        Outcome::NoRobots => {
            stats.no_robots += 1;
            (true, None)
        }
        Outcome::Decided(d, e) => (d.is_allowed(), Some((d, *e))),
        Outcome::All(allowed, _) => {
            if *allowed {
                stats.unavailable += 1;
            } else {
                stats.unreachable += 1;
            }
            (*allowed, None)
        }
    };
    if allowed {
        stats.allowed += 1;
    } else {
        stats.disallowed += 1;
    }
    if summary {
        match stats.hosts.get_mut(host) {
            Some(e) => e[usize::from(!allowed)] += 1,
            None => {
                let mut e = [0, 0];
                e[usize::from(!allowed)] += 1;
                stats.hosts.insert(host.to_vec(), e);
            }
        }
        if let Some((d, entry)) = decision {
            if let Some(rule) = d.rule() {
                stats
                    .rules
                    .entry((entry.index, rule.line()))
                    .or_insert_with(|| (0, host.to_vec(), rule.to_string()))
                    .0 += 1;
            }
        }
        return;
    }
    if only.is_some_and(|o| (o == Only::Allowed) != allowed) {
        return;
    }
    let rule = decision.and_then(|(d, _)| d.rule());
    match out_format {
        Format::Tsv => {
            out.extend_from_slice(if allowed {
                b"allowed\t"
            } else {
                b"disallowed\t"
            });
            match rule {
                Some(r) => {
                    out.extend_from_slice(itoa::Buffer::new().format(r.line()).as_bytes());
                    out.push(b'\t');
                    out.extend_from_slice(r.kind().key().as_bytes());
                    out.extend_from_slice(b": ");
                    out.extend_from_slice(&output::sanitize(r.pattern()));
                }
                None => out.extend_from_slice(b"-\t-"),
            }
            out.push(b'\t');
            out.extend_from_slice(&output::sanitize(&text));
            out.push(b'\n');
        }
        Format::Jsonl => {
            let mut v = serde_json::json!({
                "url": String::from_utf8_lossy(&text),
                "host": String::from_utf8_lossy(host),
                "verdict": if allowed { "allowed" } else { "disallowed" },
                "rule": output::rule_json(rule),
                "robots": decision.is_some(),
            });
            if let Outcome::All(_, all) = &outcome {
                v["availability"] = all.reason.availability().as_str().into();
                v["reason"] = all.reason.to_string().into();
            }
            let _ = serde_json::to_writer(&mut *out, &v);
            out.push(b'\n');
        }
        Format::Summary => {}
    }
}

fn report_malformed(err: &mut impl Write, t: &Stats, logs: &[LogPath]) -> std::io::Result<()> {
    if t.malformed == 0 {
        return Ok(());
    }
    writeln!(
        err,
        "robotsmatch: {} malformed lines (output as 'invalid'):",
        t.malformed
    )?;
    for (log, line, why, text) in &t.malformed_lines {
        let mut shown = String::from_utf8_lossy(text).into_owned();
        if shown.len() > 120 {
            let mut cut = 120;
            while !shown.is_char_boundary(cut) {
                cut -= 1;
            }
            shown.truncate(cut);
            shown.push_str("...");
        }
        writeln!(
            err,
            "  {}:{line}: {}: {shown}",
            logs[*log].display(),
            why.as_str()
        )?;
    }
    if t.malformed > t.malformed_lines.len() as u64 {
        writeln!(
            err,
            "  ... and {} more",
            t.malformed - t.malformed_lines.len() as u64
        )?;
    }
    Ok(())
}

fn pct(n: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        100.0 * n as f64 / total as f64
    }
}

fn write_summary(
    o: &mut impl Write,
    t: &Stats,
    store: &Store,
    logs: &[LogPath],
    elapsed: std::time::Duration,
    threads: usize,
    bytes: Option<u64>,
) -> std::io::Result<()> {
    let urls = t.allowed + t.disallowed;
    let lines = urls + t.blank + t.malformed;
    let secs = elapsed.as_secs_f64().max(1e-9);
    writeln!(o, "lines         {lines:>12}   in {} log(s)", logs.len())?;
    writeln!(o, "urls          {urls:>12}")?;
    writeln!(
        o,
        "allowed       {:>12}   {:5.1}%",
        t.allowed,
        pct(t.allowed, urls)
    )?;
    writeln!(
        o,
        "  no robots   {:>12}   {:5.1}%   (host has no robots.txt)",
        t.no_robots,
        pct(t.no_robots, urls)
    )?;
    if store.availability_counts().is_some() {
        writeln!(
            o,
            "  unavailable {:>12}   {:5.1}%   (robots.txt 4xx or unresolved redirects: all allowed)",
            t.unavailable,
            pct(t.unavailable, urls)
        )?;
    }
    writeln!(
        o,
        "disallowed    {:>12}   {:5.1}%",
        t.disallowed,
        pct(t.disallowed, urls)
    )?;
    if store.availability_counts().is_some() {
        writeln!(
            o,
            "  unreachable {:>12}   {:5.1}%   (robots.txt 5xx, 429 or no response: all disallowed)",
            t.unreachable,
            pct(t.unreachable, urls)
        )?;
    }
    writeln!(
        o,
        "invalid       {:>12}   (malformed {}, blank {})",
        t.malformed + t.blank,
        t.malformed,
        t.blank
    )?;
    writeln!(
        o,
        "hosts         {:>12}   ({} robots files available, {} distinct bodies compiled, {:.1} MiB)",
        t.hosts.len(),
        store.file_count(),
        store.compiled_count(),
        store.compiled_memory() as f64 / (1 << 20) as f64
    )?;
    if let Some(n) = store.availability_counts() {
        // Hosts of the log by what their capture said.
        let mut seen = [0u64; 4];
        for h in t.hosts.keys() {
            let i = match store.availability(&String::from_utf8_lossy(h)) {
                Some(Availability::Available) => 0,
                Some(Availability::Unavailable) => 1,
                Some(Availability::Unreachable) => 2,
                None => 3,
            };
            seen[i] += 1;
        }
        writeln!(
            o,
            "robots.txt    {:>12}   hosts captured: {} available, {} unavailable, {} unreachable",
            n[0] + n[1] + n[2],
            n[0],
            n[1],
            n[2]
        )?;
        writeln!(
            o,
            "  log hosts   {:>12}   {} available, {} unavailable, {} unreachable, {} not captured",
            t.hosts.len(),
            seen[0],
            seen[1],
            seen[2],
            seen[3]
        )?;
    }
    match bytes {
        Some(b) => writeln!(
            o,
            "elapsed       {:>12.3} s {:.0} URLs/s, {:.1} MB/s, {threads} threads",
            secs,
            urls as f64 / secs,
            b as f64 / secs / 1e6
        )?,
        None => writeln!(
            o,
            "elapsed       {:>12.3} s {:.0} URLs/s, {threads} threads",
            secs,
            urls as f64 / secs
        )?,
    }
    let mut hosts: Vec<(&Vec<u8>, &[u64; 2])> = t.hosts.iter().collect();
    hosts.sort_by(|a, b| (b.1[0] + b.1[1]).cmp(&(a.1[0] + a.1[1])).then(a.0.cmp(b.0)));
    writeln!(o, "\ntop hosts        urls    allowed disallowed  host")?;
    for (h, c) in hosts.iter().take(10) {
        writeln!(
            o,
            "          {:>10} {:>10} {:>10}  {}",
            c[0] + c[1],
            c[0],
            c[1],
            String::from_utf8_lossy(h)
        )?;
    }
    let mut rules: Vec<_> = t.rules.iter().collect();
    rules.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    writeln!(o, "\ntop deciding rules   urls  host:line  rule")?;
    for ((_, line), (n, host, rule)) in rules.iter().take(10) {
        writeln!(
            o,
            "          {:>12}  {}:{line}  {rule}",
            n,
            String::from_utf8_lossy(host)
        )?;
    }
    Ok(())
}

/// How many skipped WARC records are reported in full.
const WARC_PROBLEMS_SHOWN: usize = 10;

/// Reads the WARC files into a store. A missing file is an error (exit 2); malformed records
/// are reported on stderr with file and byte offset, counted and skipped.
fn warc_store(
    paths: &[PathBuf],
    agent: robotsmatch::Agent,
    builder: robotsmatch::MatcherBuilder,
    parse: robotsmatch::ParseConfig,
) -> anyhow::Result<Store> {
    use anyhow::Context;
    let mut captures = Vec::new();
    let mut counts = warc::Counts::default();
    let mut problems = 0usize;
    let mut err = std::io::stderr().lock();
    for path in paths {
        let data = std::fs::read(path)
            .with_context(|| format!("cannot read WARC file '{}'", path.display()))?;
        let c = warc::read(&data, &mut |c| captures.push(c), &mut |p| {
            problems += 1;
            if problems <= WARC_PROBLEMS_SHOWN {
                let _ = writeln!(
                    err,
                    "robotsmatch: {}: offset {}: {} (record skipped)",
                    path.display(),
                    p.offset,
                    p.message
                );
            }
        });
        counts.records += c.records;
        counts.responses += c.responses;
        counts.other += c.other;
        counts.malformed += c.malformed;
    }
    if problems > WARC_PROBLEMS_SHOWN {
        writeln!(
            err,
            "robotsmatch: ... and {} more malformed WARC records skipped",
            problems - WARC_PROBLEMS_SHOWN
        )?;
    }
    let (hosts, bad) = warc::resolve(captures);
    for c in bad.iter().take(WARC_PROBLEMS_SHOWN) {
        writeln!(
            err,
            "robotsmatch: offset {}: WARC-Target-URI '{}' has no host (capture skipped)",
            c.offset, c.target_uri
        )?;
    }
    writeln!(
        err,
        "robotsmatch: {} WARC file(s): {} records, {} responses, {} other records skipped, \
         {} malformed records skipped; {} hosts",
        paths.len(),
        counts.records,
        counts.responses,
        counts.other,
        counts.malformed,
        hosts.len()
    )?;
    let outcomes = hosts.iter().map(|h| {
        let outcome = if h.too_many_redirects {
            robotsmatch::fetch::Outcome::TooManyRedirects {
                redirects: h.redirects.clone(),
            }
        } else {
            robotsmatch::fetch::Outcome::Response {
                status: h.capture.status,
                body: if h.dangling_redirect {
                    &[]
                } else {
                    &h.capture.body
                },
                redirects: h.redirects.clone(),
            }
        };
        (h.host.clone(), outcome)
    });
    Ok(Store::from_outcomes(outcomes, agent, builder, parse))
}
