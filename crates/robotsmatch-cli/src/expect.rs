//! `robotsmatch test`: a regression list of URLs that must stay crawlable and URLs that must
//! be blocked, checked against a robots.txt file like a test suite.
//!
//! The expectations file has one entry per line: `allow URL` or `disallow URL`; `agent NAME`
//! switches the crawler for the lines below it (a product token, a full user-agent string or a
//! catalog name); `#` at the start of a line or after white space starts a comment (a `#`
//! inside a URL is its fragment); blank lines are skipped. Keywords ignore case.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use robotsmatch::{catalog, Matcher, Robots};

use crate::output::{self, verdict};

/// Arguments of `test`.
#[derive(Args, Debug)]
pub struct TestArgs {
    /// The robots.txt file.
    #[arg(long, value_name = "FILE")]
    robots: PathBuf,
    /// The crawler for expectations before any `agent` line: a product token, a full
    /// user-agent string or a catalog name.
    #[arg(long, value_name = "AGENT")]
    agent: Option<String>,
    /// Matching profile: google or legacy.
    #[arg(long, value_name = "P", default_value = "google")]
    profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    limits: crate::limits::LimitArgs,
    /// The expectations file.
    #[arg(value_name = "EXPECTATIONS")]
    expectations: PathBuf,
}

/// Output formats of `test`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// One line per failure, then `N passed, N failed`.
    Text,
    /// A JUnit XML report (one test case per expectation).
    Junit,
}

/// One expectation.
#[derive(Debug)]
struct Expectation {
    line: usize,
    allow: bool,
    url: String,
    agent: String,
}

/// Parses an expectations file; errors name the file and line.
fn parse(text: &str, name: &str, default_agent: Option<&str>) -> anyhow::Result<Vec<Expectation>> {
    let mut agent = default_agent.map(str::to_string);
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = match line.split_once(char::is_whitespace) {
            Some((k, r)) => (k, r.trim()),
            None => (line, ""),
        };
        let key = key.to_ascii_lowercase();
        match key.as_str() {
            "agent" => {
                if rest.is_empty() {
                    bail!("{name}:{n}: 'agent' needs a crawler name");
                }
                agent = Some(rest.to_string());
            }
            "allow" | "disallow" => {
                if rest.is_empty() {
                    bail!("{name}:{n}: '{key}' needs a URL");
                }
                if rest.contains(char::is_whitespace) {
                    bail!("{name}:{n}: one URL per line (found '{rest}')");
                }
                let Some(agent) = &agent else {
                    bail!("{name}:{n}: no crawler: give --agent or put an 'agent NAME' line above");
                };
                out.push(Expectation {
                    line: n,
                    allow: key == "allow",
                    url: rest.to_string(),
                    agent: agent.clone(),
                });
            }
            _ => bail!(
                "{name}:{n}: expected 'allow URL', 'disallow URL' or 'agent NAME', found '{line}'"
            ),
        }
    }
    Ok(out)
}

/// Cuts a `#` comment: at the start of a line or after white space (a `#` inside a URL is
/// its fragment, not a comment).
fn strip_comment(line: &str) -> &str {
    let mut prev_space = true;
    for (i, c) in line.char_indices() {
        if c == '#' && prev_space {
            return &line[..i];
        }
        prev_space = c.is_whitespace();
    }
    line
}

/// The outcome of one expectation.
struct Outcome {
    passed: bool,
    actual: &'static str,
    rule: String,
}

/// Runs `test`; returns the exit code.
pub fn run(args: TestArgs) -> anyhow::Result<u8> {
    let profile = crate::check::parse_profile(&args.profile)?;
    let body = crate::check::read_robots(&args.robots)?;
    let name = args.expectations.display().to_string();
    let text = std::fs::read(&args.expectations)
        .with_context(|| format!("cannot read expectations file '{name}'"))?;
    let text = String::from_utf8_lossy(&text);
    let expectations = parse(&text, &name, args.agent.as_deref())?;
    for e in &expectations {
        crate::check::single_agent(&e.agent)?;
    }
    let robots = Robots::parse_with(&body, &args.limits.parse_config());
    let builder = args.limits.builder(profile, 1 << 20);
    let mut matchers: HashMap<String, Matcher> = HashMap::new();
    let mut outcomes = Vec::with_capacity(expectations.len());
    for e in &expectations {
        let m = matchers
            .entry(e.agent.clone())
            .or_insert_with(|| builder.build(&robots, catalog::agent_for(&e.agent)));
        let d = m.decide(&e.url);
        let rule = match d.rule() {
            Some(r) => format!("line {}: {r}", r.line()),
            None => "no rule matches".to_string(),
        };
        outcomes.push(Outcome {
            passed: d.is_allowed() == e.allow,
            actual: verdict(&d),
            rule,
        });
    }
    let failed = outcomes.iter().filter(|o| !o.passed).count();
    let passed = outcomes.len() - failed;
    let mut out = output::stdout();
    match args.format {
        Format::Text => {
            for (e, o) in expectations.iter().zip(&outcomes) {
                if !o.passed {
                    writeln!(
                        out,
                        "FAIL {name}:{}: {} {} ({}): expected {}, got {} ({})",
                        e.line,
                        if e.allow { "allow" } else { "disallow" },
                        e.url,
                        e.agent,
                        if e.allow { "allowed" } else { "disallowed" },
                        o.actual,
                        o.rule
                    )?;
                }
            }
            writeln!(out, "{passed} passed, {failed} failed")?;
        }
        Format::Junit => {
            writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
            writeln!(
                out,
                r#"<testsuites name="robotsmatch test" tests="{}" failures="{failed}">"#,
                outcomes.len()
            )?;
            writeln!(
                out,
                r#"  <testsuite name="{}" tests="{}" failures="{failed}" errors="0">"#,
                xml(&args.robots.display().to_string()),
                outcomes.len()
            )?;
            for (e, o) in expectations.iter().zip(&outcomes) {
                let case = format!(
                    "line {}: {} {} ({})",
                    e.line,
                    if e.allow { "allow" } else { "disallow" },
                    e.url,
                    e.agent
                );
                if o.passed {
                    writeln!(
                        out,
                        r#"    <testcase classname="{}" name="{}"/>"#,
                        xml(&name),
                        xml(&case)
                    )?;
                } else {
                    writeln!(
                        out,
                        r#"    <testcase classname="{}" name="{}">"#,
                        xml(&name),
                        xml(&case)
                    )?;
                    let msg = format!(
                        "expected {}, got {} ({})",
                        if e.allow { "allowed" } else { "disallowed" },
                        o.actual,
                        o.rule
                    );
                    writeln!(
                        out,
                        r#"      <failure type="verdict" message="{}">{}:{}: {}</failure>"#,
                        xml(&msg),
                        xml(&name),
                        e.line,
                        xml(&msg)
                    )?;
                    writeln!(out, "    </testcase>")?;
                }
            }
            writeln!(out, "  </testsuite>")?;
            writeln!(out, "</testsuites>")?;
        }
    }
    out.flush()?;
    Ok(u8::from(failed > 0))
}

/// Escapes text for an XML attribute or element.
fn xml(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names_lines() {
        let e = parse(
            "# c\nallow /a\n\nagent GPTBot\nDISALLOW https://x/b # why\n",
            "f",
            Some("Googlebot"),
        )
        .unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].line, e[0].allow, e[0].agent.as_str()),
            (2, true, "Googlebot")
        );
        assert_eq!(
            (e[1].line, e[1].allow, e[1].agent.as_str()),
            (5, false, "GPTBot")
        );
        let err = parse("allow /a\nblock /b\n", "f", Some("x")).unwrap_err();
        assert!(err.to_string().starts_with("f:2: "), "{err}");
        assert!(parse("allow /a\n", "f", None).is_err());
        assert!(parse("allow /a /b\n", "f", Some("x")).is_err());
        assert_eq!(xml("a<\"b\"&"), "a&lt;&quot;b&quot;&amp;");
        let e = parse("allow /page#top # the anchor\n", "f", Some("x")).unwrap();
        assert_eq!(e[0].url, "/page#top");
    }
}
