//! `check` with several crawlers (`--agent all`: every catalog crawler) or several profiles
//! (`--profile google,legacy`): one row per (crawler, profile) for every URL, and a mark where
//! the profiles disagree.
//!
//! Text rows end with the group that applied and, when one applies, the crawler's crawl-delay.
//! TSV rows are `[agent<TAB>][profile<TAB>]verdict<TAB>line<TAB>rule<TAB>url[<TAB>same|differs]`:
//! the agent column appears with `--agent all`, the profile column and the last column with
//! more than one profile (`differs` when the profiles give this crawler different verdicts).

use std::io::Write;
use std::path::Path;

use robotsmatch::{catalog, Matcher, Profile, Robots, SelectionKind};

use crate::output::{self, rule_json, verdict, write_tsv};

/// Output formats (those of `check`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Rows per URL.
    Text,
    /// One line per (URL, crawler, profile).
    Tsv,
    /// One JSON document.
    Json,
}

/// The group a matcher chose, in a few words.
pub fn group_short(m: &Matcher) -> String {
    match m.selection().kind() {
        SelectionKind::Named(t) if t.eq_ignore_ascii_case(m.agent().token()) => {
            format!("group '{t}'")
        }
        SelectionKind::Named(t) => format!("group '{t}' (fallback)"),
        SelectionKind::Wildcard => "group '*'".to_string(),
        SelectionKind::None if !m.agent().get_obeys_wildcard() => {
            "no group (ignores '*')".to_string()
        }
        SelectionKind::None => "no group".to_string(),
    }
}

/// Runs the matrix form of `check`; returns the exit code.
pub fn run(
    robots_path: &Path,
    robots: &Robots,
    agent: &str,
    profiles: &[Profile],
    format: Format,
    limits: &crate::limits::LimitArgs,
    urls: &[String],
) -> anyhow::Result<u8> {
    let all = agent.eq_ignore_ascii_case("all");
    let agents: Vec<(String, robotsmatch::Agent)> = if all {
        catalog::crawlers()
            .iter()
            .map(|c| (c.token.to_string(), c.agent()))
            .collect()
    } else {
        vec![(agent.to_string(), catalog::agent_for(agent))]
    };
    // matchers[a][p]
    let matchers: Vec<Vec<Matcher>> = agents
        .iter()
        .map(|(_, a)| {
            profiles
                .iter()
                .map(|&p| limits.builder(p, 1 << 20).build(robots, a.clone()))
                .collect()
        })
        .collect();
    let several = profiles.len() > 1;
    let width = agents.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut out = output::stdout_for(format == Format::Json);
    let mut json_results = Vec::new();
    for url in urls {
        if format == Format::Text {
            writeln!(out, "{url}")?;
        }
        let mut json_rows = Vec::new();
        let mut any_differs = false;
        for ((name, _), row) in agents.iter().zip(&matchers) {
            let decisions: Vec<_> = row.iter().map(|m| m.decide(url)).collect();
            let differs = decisions
                .iter()
                .any(|d| d.is_allowed() != decisions[0].is_allowed());
            any_differs |= differs;
            for ((m, d), p) in row.iter().zip(&decisions).zip(profiles) {
                match format {
                    Format::Text => {
                        write!(out, "  ")?;
                        if all {
                            write!(out, "{name:<width$}  ")?;
                        }
                        if several {
                            write!(out, "{:<7} ", p.name)?;
                        }
                        let rule = match d.rule() {
                            Some(r) => format!("line {}: {r}", r.line()),
                            None => "-".to_string(),
                        };
                        let delay = match m.selection().crawl_delay(robots) {
                            Some(d) => format!(", crawl-delay {}", d.seconds()),
                            None => String::new(),
                        };
                        write!(
                            out,
                            "{:<10}  {rule}  ({}{delay})",
                            verdict(d),
                            group_short(m)
                        )?;
                        if differs {
                            write!(out, "  <- profiles differ")?;
                        }
                        writeln!(out)?;
                    }
                    Format::Tsv => {
                        if all {
                            write!(out, "{}\t", output::sanitize_str(name))?;
                        }
                        if several {
                            write!(out, "{}\t", p.name)?;
                        }
                        let mut line = Vec::new();
                        write_tsv(&mut line, d, url.as_bytes())?;
                        if several {
                            line.pop();
                            line.extend_from_slice(if differs {
                                b"\tdiffers\n"
                            } else {
                                b"\tsame\n"
                            });
                        }
                        out.write_all(&line)?;
                    }
                    Format::Json => json_rows.push(serde_json::json!({
                        "agent": name,
                        "token": m.agent().token(),
                        "profile": p.name,
                        "verdict": verdict(d),
                        "rule": rule_json(d.rule()),
                        "group": group_short(m),
                        "crawl_delay": m.selection().crawl_delay(robots).map(|d| d.seconds()),
                    })),
                }
            }
        }
        if format == Format::Json {
            json_results.push(serde_json::json!({
                "url": url,
                "rows": json_rows,
                "profiles_differ": any_differs,
            }));
        }
    }
    if format == Format::Json {
        let doc = serde_json::json!({
            "robots": robots_path.display().to_string(),
            "agent": agent,
            "profiles": profiles.iter().map(|p| p.name).collect::<Vec<_>>(),
            "results": json_results,
        });
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(0)
}
