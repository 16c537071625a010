//! `robotsmatch classify`: every URL of crawl logs against a per-host robots store, on all
//! cores, output in input order. The work is `robotsmatch_bulk`'s; this module parses the
//! flags, writes the formats (as sinks that run on the worker threads) and sets the exit code.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use clap::{Args, ValueEnum};
use robotsmatch::fetch::Availability;
use robotsmatch_bulk::reader::{self, LogPath};
use robotsmatch_bulk::store::{StoreConfig, STORE_DENSE_SIZE_LIMIT};
use robotsmatch_bulk::summary::MALFORMED_KEPT;
use robotsmatch_bulk::{
    Classified, Classifier, Invalid, LineFormat, Malformed, Outcome, Progress, Report, Sink, Store,
    Summary,
};

use crate::output;

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
    /// Worker threads (default: all cores; at most 4 per core, and at least 16).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Print only URLs with this verdict (tsv and jsonl; an error with summary, which counts
    /// every URL).
    #[arg(long, value_enum, value_name = "VERDICT")]
    only: Option<Only>,
    /// Take the URL from this 1-based column of TSV/CSV lines (default: the whole line).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    column: Option<u32>,
    /// Column delimiter for --column: one character, or `\t` (default tab).
    #[arg(long, value_name = "C", default_value = "\\t")]
    delimiter: String,
    /// Read `&amp;` in URLs as `&` before matching, for link lists scraped from HTML. By
    /// default a URL is matched as written, as `check` and Google's library do; either way it
    /// is printed as written.
    #[arg(long)]
    decode_amp: bool,
    /// Chunk size in bytes for the parallel split (the output does not depend on it).
    #[arg(long, value_name = "BYTES", default_value_t = robotsmatch_bulk::reader::DEFAULT_CHUNK_SIZE, hide = true)]
    chunk_size: usize,
    /// Read plain files instead of memory-mapping them.
    #[arg(long)]
    no_mmap: bool,
    /// The longest log line read, in bytes: a longer line is `invalid` (only its first 256
    /// bytes are kept and shown), and reading goes on at the next line.
    #[arg(long, value_name = "BYTES", default_value_t = reader::DEFAULT_MAX_LINE as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_log_line: u64,
    #[command(flatten)]
    limits: crate::limits::LimitArgs,
    /// Logs: one URL per line, or TSV/CSV; plain or gzip; `-` is stdin.
    #[arg(value_name = "LOG", required = true)]
    logs: Vec<String>,
}

/// Output formats of `classify`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `verdict<TAB>line<TAB>rule<TAB>url` per input line.
    #[value(help = "verdict<TAB>line<TAB>rule<TAB>url per input line")]
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

/// Parses a `--delimiter` value: one ASCII character, or `\t` / `tab`.
pub fn parse_delimiter(s: &str) -> anyhow::Result<u8> {
    match s {
        "\\t" | "\t" | "tab" => Ok(b'\t'),
        _ if s.len() == 1 && s.is_ascii() => Ok(s.as_bytes()[0]),
        _ => bail!("--delimiter must be one ASCII character or \\t, not '{s}'"),
    }
}

/// Runs `classify`; returns the exit code.
pub fn run(args: ClassifyArgs) -> anyhow::Result<u8> {
    let start = Instant::now();
    let profile = crate::check::parse_profile(&args.profile)?;
    crate::check::single_agent(&args.agent)?;
    let format = LineFormat {
        column: args.column.map_or(0, |c| c as usize),
        delimiter: parse_delimiter(&args.delimiter)?,
        decode_amp: args.decode_amp,
    };
    let logs: Vec<LogPath> = args.logs.iter().map(|s| LogPath::parse(s)).collect();
    if logs.iter().filter(|l| **l == LogPath::Stdin).count() > 1 {
        bail!("stdin ('-') can be given only once");
    }
    if args.only.is_some() && args.format == Format::Summary {
        // Issue 17.8: a filter that would be silently ignored is a usage error.
        bail!("--only filters the URLs printed by --format tsv and jsonl; --format summary counts every URL (drop --only, or pick tsv or jsonl)");
    }
    let config = StoreConfig::new(robotsmatch::catalog::agent_for(&args.agent))
        .builder(args.limits.builder(profile, STORE_DENSE_SIZE_LIMIT))
        .parse_config(args.limits.parse_config());
    let store = match &args.robots {
        Some(path) => {
            let store = Store::open(path, config)?;
            reader::check_logs(&logs)?;
            store
        }
        None => {
            // Before the WARC files are read (they can be large).
            reader::check_logs(&logs)?;
            warc_store(&args.robots_warc, config)?
        }
    };
    let threads = threads_flag(args.threads)?;
    let summary = args.format == Format::Summary;
    let classifier = Classifier::new(&store)
        .line_format(format)
        .threads(threads)
        .chunk_size(args.chunk_size)
        .mmap(!args.no_mmap)
        .max_line(usize::try_from(args.max_log_line).unwrap_or(usize::MAX))
        .count_rules(summary)
        .count_hosts(summary);
    let store_empty = warn_empty_store(&store, args.robots.as_deref())?;
    let (total_bytes, size_known) = reader::total_size(&logs);
    let progress = progress_bar(total_bytes, size_known);
    let show = |p: &Progress| {
        if let Some(bar) = &progress {
            bar.set_position(p.bytes);
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!("{:.2} M URLs/s", p.urls as f64 / secs / 1e6));
        }
    };

    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    let mut write = |batch: Vec<u8>, p: &Progress| -> std::io::Result<()> {
        out.write_all(&batch)?;
        show(p);
        Ok(())
    };
    let report = match args.format {
        Format::Summary => classifier.run(&logs, &(), |(), p| {
            show(p);
            Ok(())
        })?,
        Format::Tsv => classifier.run(&logs, &TsvSink { only: args.only }, &mut write)?,
        Format::Jsonl => classifier.run(&logs, &JsonlSink { only: args.only }, &mut write)?,
    };
    out.flush()?;
    drop(out);
    if let Some(p) = &progress {
        p.finish_and_clear();
    }
    let elapsed = start.elapsed();

    let mut err = std::io::stderr().lock();
    let totals = &report.summary;
    if summary {
        let mut o = output::stdout();
        write_summary(
            &mut o,
            totals,
            &store,
            &logs,
            elapsed,
            report.threads,
            report.bytes,
        )?;
        o.flush()?;
    }
    report_malformed(&mut err, totals, &logs)?;
    let mut code = 0;
    if hint_invalid(&mut err, totals, format)? {
        // Issue 17.5: nothing in the input was a URL; an input error.
        code = 2;
    }
    if !store_empty && totals.urls() > 0 && totals.no_robots == totals.urls() {
        // Issue 17.4: a store whose keys match none of the log's hosts.
        let robots = match args.robots.as_deref() {
            Some(p) => format!("'{}' ({} files)", p.display(), store.file_count()),
            None => format!("the WARC files ({} hosts captured)", store.file_count()),
        };
        writeln!(
            err,
            "robotsmatch: warning: none of the {} URLs' hosts has a robots.txt in {robots}, \
             so every URL is allowed as 'no robots'; files are named after the host as in \
             the URL, lower case: <host>.txt, <host>_<port>.txt or <host>/robots.txt",
            totals.urls(),
        )?;
    }
    for e in &report.errors {
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
    let urls = totals.urls();
    if !summary && std::env::var_os("ROBOTSMATCH_TIMING").is_some() {
        writeln!(
            err,
            "classified {urls} URLs in {:.3} s ({:.0} URLs/s)",
            elapsed.as_secs_f64(),
            urls as f64 / elapsed.as_secs_f64()
        )?;
    }
    if std::env::var_os("ROBOTSMATCH_STATS").is_some() {
        write_stats(&mut err, &report, &store)?;
    }
    // PERF: the process ends right after this; the operating system takes back the store's
    // compiled matchers and the summary's hosts at once, where dropping them one by one took
    // 16-19 ms on one thread after the 1 GB log's parallel work (1% of a 2-thread run). Nothing
    // in them writes anything when dropped: the output and the errors are written above.
    std::mem::forget(store);
    std::mem::forget(report);
    Ok(code)
}

/// The memory figures of a run, on stderr (`ROBOTSMATCH_STATS=1`; `tools/bench-classify` reads
/// them). Hosts are counted for `--format summary` only.
fn write_stats(err: &mut impl Write, report: &Report, store: &Store) -> std::io::Result<()> {
    writeln!(
        err,
        "robotsmatch: stats: hosts seen {}, distinct bodies used {} ({} bytes, compiled {} \
         times), compiled matchers {} bytes, host tables {} bytes for {} entries over {} threads, lazy-DFA caches \
         {} bytes",
        report.summary.host_count(),
        store.compiled_count(),
        store.body_bytes(),
        store.compilations(),
        store.compiled_memory(),
        report.table_memory,
        report.table_entries,
        report.threads,
        report.cache_memory
    )
}

/// `tsv`: `verdict<TAB>line<TAB>rule<TAB>url`, one line per input line (`--only` filters).
struct TsvSink {
    only: Option<Only>,
}

impl Sink for TsvSink {
    type Batch = Vec<u8>;

    fn batch(&self, bytes: usize) -> Vec<u8> {
        Vec::with_capacity(bytes + bytes / 2)
    }

    #[inline]
    fn url(&self, out: &mut Vec<u8>, c: &Classified<'_>) {
        if self.only.is_some_and(|o| (o == Only::Allowed) != c.allowed) {
            return;
        }
        out.extend_from_slice(if c.allowed {
            b"allowed\t"
        } else {
            b"disallowed\t"
        });
        match c.rule() {
            Some(r) => {
                out.extend_from_slice(itoa::Buffer::new().format(r.line()).as_bytes());
                out.push(b'\t');
                out.extend_from_slice(r.kind().key().as_bytes());
                out.extend_from_slice(b": ");
                output::extend_sanitized(out, r.pattern());
            }
            None => out.extend_from_slice(b"-\t-"),
        }
        out.push(b'\t');
        output::extend_sanitized(out, c.text);
        out.push(b'\n');
    }

    fn invalid(&self, out: &mut Vec<u8>, line: &Invalid<'_>) {
        if self.only.is_none() {
            out.extend_from_slice(b"invalid\t-\t-\t");
            output::extend_sanitized(out, line.line);
            out.push(b'\n');
        }
    }
}

/// `jsonl`: one object per input line, keys in sorted order (`url`, `host`, `verdict`, `rule`,
/// `robots`, and `availability`, `reason` under allow/disallow all), written without building
/// a JSON value.
struct JsonlSink {
    only: Option<Only>,
}

/// Writes `s` (lossy UTF-8) as a JSON string.
fn json_str(out: &mut Vec<u8>, s: &[u8]) {
    // Writing into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &*String::from_utf8_lossy(s));
}

impl Sink for JsonlSink {
    type Batch = Vec<u8>;

    fn batch(&self, bytes: usize) -> Vec<u8> {
        Vec::with_capacity(bytes * 3)
    }

    fn url(&self, out: &mut Vec<u8>, c: &Classified<'_>) {
        if self.only.is_some_and(|o| (o == Only::Allowed) != c.allowed) {
            return;
        }
        out.push(b'{');
        if let Outcome::All(all) = c.outcome {
            out.extend_from_slice(b"\"availability\":");
            json_str(out, all.reason().availability().as_str().as_bytes());
            out.push(b',');
        }
        out.extend_from_slice(b"\"host\":");
        json_str(out, c.host);
        if let Outcome::All(all) = c.outcome {
            out.extend_from_slice(b",\"reason\":");
            json_str(out, all.reason().to_string().as_bytes());
        }
        out.extend_from_slice(if c.has_robots() {
            b",\"robots\":true,\"rule\":"
        } else {
            b",\"robots\":false,\"rule\":"
        });
        match c.rule() {
            Some(r) => {
                out.extend_from_slice(b"{\"kind\":");
                json_str(out, r.kind().as_str().as_bytes());
                out.extend_from_slice(b",\"line\":");
                out.extend_from_slice(itoa::Buffer::new().format(r.line()).as_bytes());
                out.extend_from_slice(b",\"pattern\":");
                json_str(out, r.pattern());
                out.push(b'}');
            }
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"url\":");
        json_str(out, c.text);
        out.extend_from_slice(if c.allowed {
            b",\"verdict\":\"allowed\"}\n"
        } else {
            b",\"verdict\":\"disallowed\"}\n"
        });
    }

    fn invalid(&self, out: &mut Vec<u8>, line: &Invalid<'_>) {
        if self.only.is_none() {
            out.extend_from_slice(b"{\"error\":");
            json_str(out, line.reason.as_str().as_bytes());
            out.extend_from_slice(b",\"url\":");
            json_str(out, line.line);
            out.extend_from_slice(b",\"verdict\":\"invalid\"}\n");
        }
    }
}

/// The `--threads` value: at least 1, and at most [`reader::max_threads`] (with a warning).
pub fn threads_flag(threads: Option<usize>) -> anyhow::Result<usize> {
    let Some(asked) = threads else {
        return Ok(reader::default_threads());
    };
    if asked == 0 {
        bail!("--threads must be at least 1");
    }
    let max = reader::max_threads();
    if asked > max {
        eprintln!(
            "robotsmatch: warning: --threads {asked} is more than this machine can use; using \
             {max} (at most 4 per core, {} cores here, and at least 16)",
            reader::default_threads()
        );
        return Ok(max);
    }
    Ok(asked)
}

/// Issue 17.4: warns when the store holds no robots.txt file at all. Returns whether it did.
fn warn_empty_store(store: &Store, robots: Option<&std::path::Path>) -> std::io::Result<bool> {
    if store.file_count() > 0 {
        return Ok(false);
    }
    let what = match robots {
        Some(p) => format!(
            "robots directory '{}' holds no robots.txt files (<host>.txt or <host>/robots.txt)",
            p.display()
        ),
        None => "the WARC files hold no robots.txt capture with a host".to_string(),
    };
    writeln!(
        std::io::stderr().lock(),
        "robotsmatch: warning: {what}: every URL will be allowed as 'no robots'"
    )?;
    Ok(true)
}

/// Issue 17.5: when most lines hold no URL, says why (the commonest reasons) and what to try
/// (`--column`, with the column where the first such line has a URL). Returns true when no
/// line held a URL at all (and some line was malformed): the run then exits with 2.
fn hint_invalid(err: &mut impl Write, t: &Summary, format: LineFormat) -> std::io::Result<bool> {
    let lines = t.urls() + t.invalid();
    if t.malformed == 0 || t.malformed * 2 <= lines {
        return Ok(false);
    }
    let mut reasons: Vec<(u64, Malformed)> = Malformed::ALL
        .iter()
        .map(|&r| (t.invalid_by(r), r))
        .filter(|&(n, r)| n > 0 && r != Malformed::Blank)
        .collect();
    reasons.sort_by_key(|r| std::cmp::Reverse(r.0));
    let why: Vec<String> = reasons
        .iter()
        .map(|(n, r)| format!("{n} {}", r.as_str()))
        .collect();
    writeln!(
        err,
        "robotsmatch: warning: {} of {lines} lines ({:.0}%) hold no usable URL ({})",
        t.malformed,
        pct(t.malformed, lines),
        why.join(", ")
    )?;
    if reasons.first().is_some_and(|r| r.1 == Malformed::TooLong) {
        writeln!(
            err,
            "robotsmatch: hint: lines longer than --max-log-line are skipped; if the log's \
             lines are that long, raise it (is this a log of URLs, one per line?)"
        )?;
    } else if let Some(first) = t.malformed_lines.first() {
        match suggest_column(&first.text, format) {
            Some((column, delimiter)) => writeln!(
                err,
                "robotsmatch: hint: the lines look like {} fields with the URL in column \
                 {column}: try --column {column}{}",
                if delimiter == b'\t' {
                    "tab-separated"
                } else {
                    "comma-separated"
                },
                if delimiter == b'\t' {
                    ""
                } else {
                    " --delimiter ,"
                }
            )?,
            None if format.column == 0 => writeln!(
                err,
                "robotsmatch: hint: each line must be one absolute URL (scheme://host/path); \
                 for TSV/CSV logs give the URL's column with --column N (and --delimiter , \
                 for CSV)"
            )?,
            None => writeln!(
                err,
                "robotsmatch: hint: column {} of these lines holds no absolute URL \
                 (scheme://host/path): check --column and --delimiter",
                format.column
            )?,
        }
    }
    Ok(t.urls() == 0)
}

/// The (column, delimiter) of a line's first field that is an absolute URL, when the line has
/// several fields and the URL is not where `format` looks.
fn suggest_column(line: &[u8], format: LineFormat) -> Option<(usize, u8)> {
    for delimiter in [b'\t', b',', format.delimiter] {
        if !line.contains(&delimiter) {
            continue;
        }
        let try_format = LineFormat {
            delimiter,
            ..format
        };
        for column in 1..=64 {
            let Ok(field) = robotsmatch_bulk::logline::field(
                line,
                LineFormat {
                    column,
                    ..try_format
                },
            ) else {
                break;
            };
            if (column, delimiter) != (format.column, format.delimiter)
                && robotsmatch_bulk::logline::host_key(&field).is_some()
            {
                return Some((column, delimiter));
            }
        }
    }
    None
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

fn report_malformed(err: &mut impl Write, t: &Summary, logs: &[LogPath]) -> std::io::Result<()> {
    if t.malformed == 0 {
        return Ok(());
    }
    writeln!(
        err,
        "robotsmatch: {} malformed lines (output as 'invalid'):",
        t.malformed
    )?;
    for m in t.malformed_lines.iter().take(MALFORMED_KEPT) {
        let mut shown = String::from_utf8_lossy(&m.text).into_owned();
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
            "  {}:{}: {}: {shown}",
            logs[m.log].display(),
            m.line,
            m.reason.as_str()
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
    t: &Summary,
    store: &Store,
    logs: &[LogPath],
    elapsed: std::time::Duration,
    threads: usize,
    bytes: u64,
) -> std::io::Result<()> {
    let urls = t.urls();
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
        t.host_count(),
        store.file_count(),
        store.compiled_count(),
        store.compiled_memory() as f64 / (1 << 20) as f64
    )?;
    if let Some(n) = store.availability_counts() {
        // Hosts of the log by what their capture said.
        let mut seen = [0u64; 4];
        for h in t.hosts() {
            let i = match store.availability(h.host) {
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
            t.host_count(),
            seen[0],
            seen[1],
            seen[2],
            seen[3]
        )?;
    }
    // Issue 16.6: the bytes of text read (after gzip decompression), from stdin too.
    writeln!(
        o,
        "elapsed       {:>12.3} s {:.0} URLs/s, {:.1} MB/s, {threads} threads",
        secs,
        urls as f64 / secs,
        bytes as f64 / secs / 1e6
    )?;
    writeln!(o, "\ntop hosts        urls    allowed disallowed  host")?;
    for h in t.top_hosts(10) {
        writeln!(
            o,
            "          {:>10} {:>10} {:>10}  {}",
            h.urls(),
            h.allowed,
            h.disallowed,
            String::from_utf8_lossy(h.host)
        )?;
    }
    writeln!(o, "\ntop deciding rules   urls  host:line  rule")?;
    for r in t.top_rules(10) {
        writeln!(
            o,
            "          {:>12}  {}:{}  {}",
            r.count,
            String::from_utf8_lossy(&r.host),
            r.line,
            r.rule
        )?;
    }
    Ok(())
}

/// How many skipped WARC records are reported in full.
const WARC_PROBLEMS_SHOWN: usize = 10;

/// Reads the WARC files into a store. A missing file is an error (exit 2); malformed records
/// are reported on stderr with file and byte offset, counted and skipped.
fn warc_store(paths: &[PathBuf], config: StoreConfig) -> anyhow::Result<Store> {
    let mut problems = 0usize;
    let mut err = std::io::stderr().lock();
    let (store, report) = Store::from_warc(paths, config, &mut |path, p| {
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
    })?;
    if problems > WARC_PROBLEMS_SHOWN {
        writeln!(
            err,
            "robotsmatch: ... and {} more malformed WARC records skipped",
            problems - WARC_PROBLEMS_SHOWN
        )?;
    }
    for c in report.no_host.iter().take(WARC_PROBLEMS_SHOWN) {
        writeln!(
            err,
            "robotsmatch: offset {}: WARC-Target-URI '{}' has no host (capture skipped)",
            c.offset, c.target_uri
        )?;
    }
    let counts = report.counts;
    writeln!(
        err,
        "robotsmatch: {} WARC file(s): {} records, {} responses, {} other records skipped, \
         {} malformed records skipped; {} hosts",
        report.files,
        counts.records,
        counts.responses,
        counts.other,
        counts.malformed,
        report.hosts
    )?;
    Ok(store)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The jsonl sink writes exactly what serde_json writes for the same object (sorted keys,
    /// escapes, lossy UTF-8), for URLs with and without a rule, under allow/disallow all, and
    /// for invalid lines.
    #[test]
    fn jsonl_is_what_serde_json_writes() {
        let store = Store::from_bodies(
            [("a.example", "User-agent: *\nDisallow: /x\"\\\u{e9}\t\n")],
            StoreConfig::new("Googlebot"),
        );
        let warc = Store::from_outcomes(
            [(
                "down.example".to_string(),
                robotsmatch::fetch::Outcome::Response {
                    status: 503,
                    body: b"",
                    redirects: Vec::new(),
                },
            )],
            StoreConfig::new("Googlebot"),
        );
        let cases: [(&Store, &[u8]); 4] = [
            (&store, "https://a.example/x\"\\\u{e9}\t/1".as_bytes()),
            (&store, b"https://b.example/\x01\xff"),
            (&warc, b"https://down.example/"),
            (&warc, b"https://down.example/robots.txt"),
        ];
        for (store, url) in cases {
            let mut worker = Classifier::new(store).worker();
            let c = worker.classify_url(url).expect("a URL");
            let mut got = Vec::new();
            JsonlSink { only: None }.url(&mut got, &c);
            let mut v = serde_json::json!({
                "url": String::from_utf8_lossy(c.text),
                "host": String::from_utf8_lossy(c.host),
                "verdict": if c.allowed { "allowed" } else { "disallowed" },
                "rule": output::rule_json(c.rule()),
                "robots": c.has_robots(),
            });
            if let Outcome::All(all) = &c.outcome {
                v["availability"] = all.reason().availability().as_str().into();
                v["reason"] = all.reason().to_string().into();
            }
            let mut want = serde_json::to_vec(&v).expect("json");
            want.push(b'\n');
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(&want)
            );
        }
        let mut got = Vec::new();
        let line = b"not a \"url\"\xff";
        JsonlSink { only: None }.invalid(
            &mut got,
            &Invalid {
                line,
                reason: robotsmatch_bulk::Malformed::NotAUrl,
            },
        );
        let mut want = serde_json::to_vec(&serde_json::json!({
            "url": String::from_utf8_lossy(line),
            "verdict": "invalid",
            "error": "no scheme://host URL",
        }))
        .expect("json");
        want.push(b'\n');
        assert_eq!(got, want);
    }
}
