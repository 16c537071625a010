//! `robotsmatch diff`: which URLs of a log change verdict between two versions of a
//! robots.txt file.
//!
//! Both files are one site's versions and apply to every URL of the log (whatever its host);
//! a line may hold an absolute URL or a bare path. The log goes through the bulk pipeline
//! (memory-mapped, chunked, all cores, input order), and every URL is decided by two matchers.
//! Text output counts the changes in each direction and groups them by the rule responsible:
//! the rule of the new file that now blocks a URL, the rule of the old file that blocked a URL
//! now allowed. `--format tsv` lists every changed URL, in input order:
//! `old_verdict<TAB>new_verdict<TAB>old_rule<TAB>new_rule<TAB>url`, a rule written
//! `line N: Disallow: pattern` (or `-`). Exit 1 when any verdict changes.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::bail;
use clap::{Args, ValueEnum};
use robotsmatch::{catalog, Cache, Decision, Matcher, Robots};

use crate::output;
use robotsmatch_bulk::logline::{self, LineFormat, Malformed};
use robotsmatch_bulk::reader::{self, Chunk, LogPath, ReadConfig};

/// Arguments of `diff`.
#[derive(Args, Debug)]
pub struct DiffArgs {
    /// The crawler: a product token, a full user-agent string or a catalog name.
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Matching profile: google or legacy.
    #[arg(long, value_name = "P", default_value = "google")]
    profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Example URLs shown per rule in text output.
    #[arg(long, value_name = "N", default_value_t = 3)]
    examples: usize,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// The URL is in this 1-based column of a TSV/CSV log (default: the whole line).
    #[arg(long, value_name = "N")]
    column: Option<u32>,
    /// Field delimiter with --column: one character, or \t.
    #[arg(long, value_name = "C", default_value = "\\t")]
    delimiter: String,
    /// Read `&amp;` in URLs as `&` before matching, for link lists scraped from HTML. By
    /// default a URL is matched as written, as `check` and Google's library do.
    #[arg(long)]
    decode_amp: bool,
    #[command(flatten)]
    limits: crate::limits::LimitArgs,
    /// The old robots.txt file.
    #[arg(value_name = "OLD_FILE")]
    old: PathBuf,
    /// The new robots.txt file.
    #[arg(value_name = "NEW_FILE")]
    new: PathBuf,
    /// Logs of URLs ("-" = stdin; plain or gzip).
    #[arg(value_name = "LOG", required = true)]
    logs: Vec<String>,
}

/// Output formats of `diff`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Counts, and the changes grouped by the rule responsible with example URLs.
    Text,
    /// Every changed URL: old_verdict, new_verdict, old_rule, new_rule, url.
    Tsv,
}

/// Changes grouped by (newly disallowed?, rule line): count, rule text, examples.
type Groups = HashMap<(bool, u32), (u64, String, Vec<String>)>;

#[derive(Default)]
struct Stats {
    urls: u64,
    invalid: u64,
    to_disallowed: u64,
    to_allowed: u64,
    groups: Groups,
}

struct ChunkOut {
    stats: Stats,
    tsv: Vec<u8>,
}

fn rule_text(d: &Decision<'_>) -> String {
    match d.rule() {
        Some(r) => format!("line {}: {r}", r.line()),
        None => "-".to_string(),
    }
}

/// Runs `diff`; returns the exit code.
pub fn run(args: DiffArgs) -> anyhow::Result<u8> {
    let profile = crate::check::parse_profile(&args.profile)?;
    let format = LineFormat {
        column: args.column.map_or(0, |c| c as usize),
        delimiter: crate::classify::parse_delimiter(&args.delimiter)?,
        decode_amp: args.decode_amp,
    };
    let logs: Vec<LogPath> = args.logs.iter().map(|s| LogPath::parse(s)).collect();
    if logs.iter().filter(|l| **l == LogPath::Stdin).count() > 1 {
        bail!("stdin ('-') can be given only once");
    }
    crate::check::single_agent(&args.agent)?;
    let agent = catalog::agent_for(&args.agent);
    let builder = args.limits.builder(profile, 1 << 20);
    let parse = args.limits.parse_config();
    let old_body = args.limits.read_robots(&args.old)?;
    let new_body = args.limits.read_robots(&args.new)?;
    let old = builder.build(&Robots::parse_with(&old_body, &parse), agent.clone());
    let new = builder.build(&Robots::parse_with(&new_body, &parse), agent);
    reader::check_logs(&logs)?;
    let config = ReadConfig {
        threads: crate::classify::threads_flag(args.threads)?,
        ..ReadConfig::default()
    };
    let tsv = args.format == Format::Tsv;
    let examples = args.examples;
    let mut out = output::Escape::new(std::io::BufWriter::with_capacity(
        1 << 20,
        std::io::stdout().lock(),
    ));
    let mut totals = Stats::default();
    let finished = reader::run(
        &logs,
        &config,
        || (old.create_cache(), new.create_cache()),
        |(oc, nc), chunk| diff_chunk(chunk, format, &old, &new, oc, nc, tsv, examples),
        |r: ChunkOut, _bytes| {
            out.write_all(&r.tsv)?;
            merge(&mut totals, r.stats, examples);
            Ok(())
        },
    )?;
    let log_errors = finished.errors;
    out.flush()?;
    drop(out);
    if !tsv {
        let mut o = output::text_stdout();
        write_text(&mut o, &args, &old, &new, &totals)?;
        o.flush()?;
    }
    let mut err = std::io::stderr().lock();
    if totals.invalid > 0 {
        writeln!(
            err,
            "robotsmatch: {} log lines hold no URL and were skipped",
            totals.invalid
        )?;
    }
    for e in &log_errors {
        writeln!(err, "robotsmatch: {}", e.message)?;
    }
    if !log_errors.is_empty() {
        return Ok(2);
    }
    Ok(u8::from(totals.to_allowed + totals.to_disallowed > 0))
}

fn merge(total: &mut Stats, s: Stats, examples: usize) {
    total.urls += s.urls;
    total.invalid += s.invalid;
    total.to_disallowed += s.to_disallowed;
    total.to_allowed += s.to_allowed;
    for (k, (n, rule, ex)) in s.groups {
        let e = total.groups.entry(k).or_insert((0, rule, Vec::new()));
        e.0 += n;
        for x in ex {
            if e.2.len() < examples {
                e.2.push(x);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn diff_chunk(
    chunk: &Chunk<'_>,
    format: LineFormat,
    old: &Matcher,
    new: &Matcher,
    oc: &mut Cache,
    nc: &mut Cache,
    tsv: bool,
    examples: usize,
) -> ChunkOut {
    let mut stats = Stats::default();
    let mut out = Vec::new();
    for line in chunk.lines() {
        if line.too_long {
            stats.invalid += 1;
            continue;
        }
        let (text, url) = match logline::extract(line.text, format) {
            Ok(x) => x,
            Err(Malformed::Blank) => continue,
            Err(_) => {
                stats.invalid += 1;
                continue;
            }
        };
        // One reading of the URL for both: is there a host, and what path is matched.
        let parts = robotsmatch::url::split(&url);
        if !url.starts_with(b"/") && parts.host().is_none() {
            stats.invalid += 1;
            continue;
        }
        stats.urls += 1;
        let path = parts.canonical_path();
        let a = old.decide_canonical_with(oc, &path);
        let b = new.decide_canonical_with(nc, &path);
        if a.is_allowed() == b.is_allowed() {
            continue;
        }
        let now_disallowed = !b.is_allowed();
        if now_disallowed {
            stats.to_disallowed += 1;
        } else {
            stats.to_allowed += 1;
        }
        let shown = String::from_utf8_lossy(&output::sanitize(&text)).into_owned();
        if tsv {
            out.extend_from_slice(
                format!(
                    "{}\t{}\t{}\t{}\t{shown}\n",
                    output::verdict(&a),
                    output::verdict(&b),
                    rule_text(&a),
                    rule_text(&b)
                )
                .as_bytes(),
            );
            continue;
        }
        let responsible = if now_disallowed { &b } else { &a };
        let line_no = responsible.rule().map_or(0, |r| r.line());
        let e = stats
            .groups
            .entry((now_disallowed, line_no))
            .or_insert_with(|| (0, rule_text(responsible), Vec::new()));
        e.0 += 1;
        if e.2.len() < examples {
            e.2.push(shown);
        }
    }
    ChunkOut { stats, tsv: out }
}

/// "1 rule", "39 rules".
fn rules(n: usize) -> String {
    if n == 1 {
        "1 rule".to_string()
    } else {
        format!("{n} rules")
    }
}

fn write_text(
    o: &mut impl Write,
    args: &DiffArgs,
    old: &Matcher,
    new: &Matcher,
    t: &Stats,
) -> std::io::Result<()> {
    writeln!(
        o,
        "old: {} ({}: {} for '{}')",
        args.old.display(),
        crate::matrix::group_short(old),
        rules(old.rules().len()),
        old.agent().token()
    )?;
    writeln!(
        o,
        "new: {} ({}: {} for '{}')",
        args.new.display(),
        crate::matrix::group_short(new),
        rules(new.rules().len()),
        new.agent().token()
    )?;
    let changed = t.to_allowed + t.to_disallowed;
    writeln!(o, "urls                    {:>10}", t.urls)?;
    writeln!(o, "unchanged               {:>10}", t.urls - changed)?;
    writeln!(o, "allowed -> disallowed   {:>10}", t.to_disallowed)?;
    writeln!(o, "disallowed -> allowed   {:>10}", t.to_allowed)?;
    for (dir, title) in [
        (
            true,
            "allowed -> disallowed, by the new rule that blocks them:",
        ),
        (
            false,
            "disallowed -> allowed, by the old rule that blocked them:",
        ),
    ] {
        let mut groups: Vec<_> = t.groups.iter().filter(|((d, _), _)| *d == dir).collect();
        if groups.is_empty() {
            continue;
        }
        groups.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0 .1.cmp(&b.0 .1)));
        writeln!(o)?;
        writeln!(o, "{title}")?;
        for (_, (n, rule, ex)) in groups {
            writeln!(o, "  {n:>8}  {rule}")?;
            for x in ex {
                writeln!(o, "            {x}")?;
            }
        }
    }
    Ok(())
}
