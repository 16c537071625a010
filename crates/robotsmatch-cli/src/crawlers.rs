//! `robotsmatch crawlers`: the crawler catalog.

use std::io::Write;

use clap::{Args, ValueEnum};
use robotsmatch::catalog::crawlers;

use crate::output;

/// Arguments of `crawlers`.
#[derive(Args, Debug)]
pub struct CrawlersArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Output formats of `crawlers`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A table: token, fallbacks, whether it obeys `*`, operator, purpose; then sources.
    Text,
    /// The catalog's columns, tab-separated, with a header line.
    Tsv,
    /// A JSON array.
    Json,
}

/// Runs `crawlers`; returns the exit code.
pub fn run(args: CrawlersArgs) -> anyhow::Result<u8> {
    let mut out = output::stdout();
    match args.format {
        Format::Text => {
            writeln!(
                out,
                "{:<22} {:<10} {:<3} {:<13} purpose",
                "token", "fallback", "*", "operator"
            )?;
            for c in crawlers() {
                let fallback = if c.fallbacks.is_empty() {
                    "-".to_string()
                } else {
                    c.fallbacks.join(",")
                };
                let wild = if c.obeys_wildcard { "yes" } else { "no" };
                writeln!(
                    out,
                    "{:<22} {:<10} {:<3} {:<13} {}",
                    c.token, fallback, wild, c.operator, c.purpose
                )?;
            }
            writeln!(out)?;
            writeln!(
                out,
                "fallback: the group obeyed when the file has none for the crawler's own token"
            )?;
            writeln!(
                out,
                "*: whether the crawler obeys the 'User-agent: *' group"
            )?;
            writeln!(out)?;
            writeln!(out, "sources:")?;
            for c in crawlers() {
                let url = if c.url.is_empty() { "-" } else { c.url };
                write!(out, "  {:<22} {:<10} {url}", c.token, c.source.as_str())?;
                if !c.note.is_empty() {
                    write!(out, " ({})", c.note)?;
                }
                writeln!(out)?;
            }
        }
        Format::Tsv => {
            writeln!(
                out,
                "token\tfallbacks\tobeys_wildcard\toperator\tpurpose\tsource\turl\tnote"
            )?;
            for c in crawlers() {
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    c.token,
                    c.fallbacks.join(","),
                    if c.obeys_wildcard { "yes" } else { "no" },
                    c.operator,
                    c.purpose,
                    c.source.as_str(),
                    c.url,
                    c.note
                )?;
            }
        }
        Format::Json => {
            let list: Vec<serde_json::Value> = crawlers()
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "token": c.token,
                        "fallbacks": c.fallbacks,
                        "obeys_wildcard": c.obeys_wildcard,
                        "operator": c.operator,
                        "purpose": c.purpose,
                        "source": c.source.as_str(),
                        "url": c.url,
                        "note": c.note,
                    })
                })
                .collect();
            serde_json::to_writer_pretty(&mut out, &list)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(0)
}
