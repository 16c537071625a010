//! Expectations: a site owner's regression list of URLs that must stay crawlable and URLs that
//! must stay blocked, checked against a robots.txt file like a test suite.
//!
//! The text has one entry per line: `allow URL` or `disallow URL`; `agent NAME` switches the
//! crawler for the lines below it (a product token, a full user-agent string or a
//! [`catalog`] name); `#` at the start of a line or after white space starts a
//! comment (a `#` inside a URL is its fragment); blank lines are skipped; keywords ignore case.
//!
//! ```
//! use robotsmatch::{expect, MatcherBuilder, Robots};
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /cart\n");
//! let list = expect::parse("allow /\ndisallow /cart\nallow /cart/x\n", Some("Googlebot"))?;
//! let outcomes = expect::evaluate(&robots, &MatcherBuilder::new(), &list);
//! assert_eq!(outcomes.iter().filter(|o| o.passed).count(), 2);
//! assert_eq!(outcomes[2].rule.as_ref().map(|r| r.line()), Some(2));
//! # Ok::<(), expect::ParseError>(())
//! ```
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::fmt;

use crate::catalog;
use crate::matcher::{Matcher, MatcherBuilder};
use crate::parse::{Robots, Rule};

/// One expected verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The 1-based line of the expectations text.
    pub line: usize,
    /// True for `allow URL`, false for `disallow URL`.
    pub allow: bool,
    /// The URL or path as written.
    pub url: String,
    /// The crawler, as named by the last `agent` line (or the default).
    pub agent: String,
}

/// A line of the expectations text that is not an expectation, an `agent` line, a comment or
/// blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    /// `line N: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Cuts a `#` comment: at the start of a line or after white space.
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

/// Parses expectations; `default_agent` applies to the lines before any `agent` line.
pub fn parse(text: &str, default_agent: Option<&str>) -> Result<Vec<Expectation>, ParseError> {
    let mut agent = default_agent.map(str::to_string);
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let err = |message: String| ParseError { line: n, message };
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
                    return Err(err("'agent' needs a crawler name".into()));
                }
                agent = Some(rest.to_string());
            }
            "allow" | "disallow" => {
                if rest.is_empty() {
                    return Err(err(format!("'{key}' needs a URL")));
                }
                if rest.contains(char::is_whitespace) {
                    return Err(err(format!("one URL per line (found '{rest}')")));
                }
                let Some(agent) = &agent else {
                    return Err(err(
                        "no crawler: give a default agent (--agent) or put an 'agent NAME' line above"
                            .into(),
                    ));
                };
                out.push(Expectation {
                    line: n,
                    allow: key == "allow",
                    url: rest.to_string(),
                    agent: agent.clone(),
                });
            }
            _ => {
                return Err(err(format!(
                    "expected 'allow URL', 'disallow URL' or 'agent NAME', found '{line}'"
                )))
            }
        }
    }
    Ok(out)
}

/// The result of one expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// True when the verdict is the expected one.
    pub passed: bool,
    /// The actual verdict.
    pub allowed: bool,
    /// The rule that decided, if any.
    pub rule: Option<Rule>,
}

/// Decides every expectation's URL for its crawler (catalog behaviour included) with matchers
/// from `builder` (one per crawler), in order.
pub fn evaluate(
    robots: &Robots,
    builder: &MatcherBuilder,
    expectations: &[Expectation],
) -> Vec<Outcome> {
    let mut matchers: HashMap<&str, Matcher> = HashMap::new();
    expectations
        .iter()
        .map(|e| {
            let m = matchers
                .entry(e.agent.as_str())
                .or_insert_with(|| builder.build(robots, catalog::agent_for(&e.agent)));
            let d = m.decide(&e.url);
            Outcome {
                passed: d.is_allowed() == e.allow,
                allowed: d.is_allowed(),
                rule: d.rule().map(|r| r.to_rule()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_names_lines() {
        let e = parse(
            "# c\nallow /a\n\nagent GPTBot\nDISALLOW https://x/b # why\n",
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
        assert_eq!(
            parse("allow /a\nblock /b\n", Some("x")).unwrap_err().line,
            2
        );
        assert_eq!(parse("allow /a\n", None).unwrap_err().line, 1);
        assert!(parse("allow /a /b\n", Some("x")).is_err());
        assert!(parse("agent\n", Some("x")).is_err());
        let e = parse("allow /page#top # the anchor\n", Some("x")).unwrap();
        assert_eq!(e[0].url, "/page#top");
    }

    #[test]
    fn evaluates_with_the_catalog() {
        let robots =
            Robots::parse(b"User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n");
        let list = parse(
            "agent Googlebot-Image\ndisallow /b\nallow /a\nagent AdsBot-Google\ndisallow /a\n",
            None,
        )
        .unwrap();
        let o = evaluate(&robots, &MatcherBuilder::new(), &list);
        assert!(o[0].passed && o[1].passed);
        assert!(!o[2].passed && o[2].allowed && o[2].rule.is_none());
        assert_eq!(o[0].rule.as_ref().map(|r| r.line()), Some(5));
    }
}
