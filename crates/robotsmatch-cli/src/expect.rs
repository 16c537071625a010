//! `robotsmatch test`: a regression list of URLs that must stay crawlable and URLs that must
//! be blocked, checked against a robots.txt file like a test suite.
//!
//! The expectations format and their evaluation are the library's (`robotsmatch::expect`);
//! this module reads the files and prints the results (text or JUnit XML).

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use robotsmatch::{expect, Robots};

use crate::output;

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

/// The outcome of one expectation, as printed.
struct Outcome {
    passed: bool,
    actual: &'static str,
    rule: String,
}

/// Runs `test`; returns the exit code.
pub fn run(args: TestArgs) -> anyhow::Result<u8> {
    let profile = crate::check::parse_profile(&args.profile)?;
    if let Some(agent) = &args.agent {
        crate::check::agent_given(agent)?;
    }
    let body = args.limits.read_robots(&args.robots)?;
    let name = args.expectations.display().to_string();
    let text = std::fs::read(&args.expectations)
        .with_context(|| format!("cannot read expectations file '{name}'"))?;
    let text = String::from_utf8_lossy(&text);
    let expectations = expect::parse(&text, args.agent.as_deref())
        .map_err(|e| anyhow::anyhow!("{name}:{}: {}", e.line, e.message))?;
    for e in &expectations {
        crate::check::single_agent(&e.agent)?;
    }
    let robots = Robots::parse_with(&body, &args.limits.parse_config());
    let builder = args.limits.builder(profile, 1 << 20);
    let outcomes: Vec<Outcome> = expect::evaluate(&robots, &builder, &expectations)
        .into_iter()
        .map(|o| Outcome {
            passed: o.passed,
            actual: if o.allowed { "allowed" } else { "disallowed" },
            rule: match &o.rule {
                Some(r) => format!("line {}: {r}", r.line()),
                None => "no rule matches".to_string(),
            },
        })
        .collect();
    let failed = outcomes.iter().filter(|o| !o.passed).count();
    let passed = outcomes.len() - failed;
    let mut out = output::text_stdout();
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
    fn xml_escapes() {
        assert_eq!(xml("a<\"b\"&"), "a&lt;&quot;b&quot;&amp;");
    }
}
