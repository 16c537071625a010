//! Agent selection: which groups of a file apply to a crawler.
//!
//! A crawler is named by its product token (`Googlebot`, `GPTBot`). [`product_token`] reduces
//! a full user-agent string to it. A group applies when one of its `user-agent` tokens equals
//! the crawler's, ignoring ASCII case; there is no substring matching (`bot` never selects
//! `mybot`). All groups naming the crawler are merged; only when none does do the `*` groups
//! apply (merged too); otherwise nothing applies and everything is allowed.
//!
//! [`Agent`] adds what some crawlers document beyond that: a fallback chain
//! (`Googlebot-Image` obeys a `Googlebot` group when the file has none for it) and crawlers
//! that ignore the `*` group (`AdsBot-Google`).
#![forbid(unsafe_code)]

use crate::parse::{leading_token, Robots};

/// Browser and engine product names that appear in full user-agent strings but never name a
/// crawler.
const GENERIC_PRODUCTS: &[&str] = &[
    "mozilla",
    "applewebkit",
    "chrome",
    "chromium",
    "safari",
    "gecko",
    "firefox",
    "version",
    "mobile",
    "edg",
    "edge",
    "opr",
    "khtml",
    "like",
    "compatible",
    "linux",
    "android",
    "windows",
    "build",
    "trident",
];

/// Reduces a product token or a full user-agent string to the product token that is compared
/// with `user-agent` lines.
///
/// - `Googlebot/2.1` gives `Googlebot`.
/// - `Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)` gives
///   `Googlebot`: the token after `compatible;` wins.
/// - Otherwise the first product that is not a browser or engine name (`Mozilla`,
///   `AppleWebKit`, `Chrome`, ...), else the first token.
///
/// A token is a run of ASCII letters, `-` and `_`, as RFC 9309 and Google's library define it.
///
/// ```
/// use robotsmatch::agent::product_token;
///
/// assert_eq!(product_token("Googlebot/2.1"), "Googlebot");
/// assert_eq!(product_token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)"), "GPTBot");
/// assert_eq!(product_token("Googlebot-Image"), "Googlebot-Image");
/// ```
pub fn product_token(agent: &str) -> &str {
    let s = agent.trim();
    let lower = s.to_ascii_lowercase();
    if let Some(i) = lower.find("compatible;") {
        let rest = s[i + "compatible;".len()..].trim_start();
        let tok = token_str(rest);
        if !tok.is_empty() {
            return tok;
        }
    }
    let first = token_str(s);
    if !first.is_empty() && !is_generic(first) {
        return first;
    }
    // Mozilla-style strings: the first product that is not a browser or engine name.
    for word in s.split(|c: char| c.is_whitespace() || matches!(c, ';' | '(' | ')' | ',')) {
        let tok = token_str(word);
        if !tok.is_empty() && word[tok.len()..].starts_with('/') && !is_generic(tok) {
            return tok;
        }
    }
    first
}

fn token_str(s: &str) -> &str {
    let n = leading_token(s.as_bytes()).len();
    &s[..n]
}

fn is_generic(token: &str) -> bool {
    GENERIC_PRODUCTS
        .iter()
        .any(|g| g.eq_ignore_ascii_case(token))
}

/// A crawler as the matcher sees it: its product tokens, most specific first, and whether it
/// obeys the `*` group.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Agent {
    tokens: Vec<String>,
    obeys_wildcard: bool,
}

impl Agent {
    /// A crawler named by a product token or a full user-agent string (see [`product_token`]).
    pub fn new(agent: &str) -> Agent {
        Agent {
            tokens: vec![product_token(agent).to_string()],
            obeys_wildcard: true,
        }
    }

    /// Adds a fallback token: used when the file has no group for the tokens before it.
    pub fn with_fallback(mut self, token: &str) -> Agent {
        self.tokens.push(product_token(token).to_string());
        self
    }

    /// Sets whether the crawler obeys `*` groups (true by default; `AdsBot-Google` does not).
    pub fn obeys_wildcard(mut self, yes: bool) -> Agent {
        self.obeys_wildcard = yes;
        self
    }

    /// The crawler's own product token.
    pub fn token(&self) -> &str {
        &self.tokens[0]
    }

    /// The tokens tried in order.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }

    /// Whether the crawler obeys `*` groups.
    pub fn get_obeys_wildcard(&self) -> bool {
        self.obeys_wildcard
    }
}

impl From<&str> for Agent {
    fn from(s: &str) -> Agent {
        Agent::new(s)
    }
}

/// Which groups were chosen for a crawler, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    kind: SelectionKind,
    groups: Vec<usize>,
}

/// Why a [`Selection`] holds the groups it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SelectionKind {
    /// Groups naming this token (the crawler's own, or a fallback).
    Named(String),
    /// No group names the crawler; the `*` groups apply.
    Wildcard,
    /// No group applies: everything is allowed.
    None,
}

impl Selection {
    /// A selection of `groups` (indices into [`Robots::groups`], in file order).
    pub(crate) fn new(kind: SelectionKind, groups: Vec<usize>) -> Selection {
        Selection { kind, groups }
    }

    /// Why these groups.
    pub fn kind(&self) -> &SelectionKind {
        &self.kind
    }

    /// Indices into [`Robots::groups`], in file order.
    pub fn groups(&self) -> &[usize] {
        &self.groups
    }
}

/// Chooses the groups of `robots` that apply to `agent`. With `merge` false only the first
/// matching group is used (the legacy convention); otherwise all are merged.
pub fn select(robots: &Robots, agent: &Agent, merge: bool) -> Selection {
    let take = |pred: &dyn Fn(&crate::parse::Group) -> bool| -> Vec<usize> {
        let it = robots
            .groups()
            .iter()
            .enumerate()
            .filter(|(_, g)| pred(g))
            .map(|(i, _)| i);
        if merge {
            it.collect()
        } else {
            it.take(1).collect()
        }
    };
    for token in &agent.tokens {
        let groups = take(&|g| g.names(token));
        if !groups.is_empty() {
            return Selection {
                kind: SelectionKind::Named(token.clone()),
                groups,
            };
        }
    }
    if agent.obeys_wildcard {
        let groups = take(&|g| g.is_wildcard());
        if !groups.is_empty() {
            return Selection {
                kind: SelectionKind::Wildcard,
                groups,
            };
        }
    }
    Selection {
        kind: SelectionKind::None,
        groups: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(product_token("Googlebot"), "Googlebot");
        assert_eq!(product_token(" googlebot/2.1 "), "googlebot");
        assert_eq!(
            product_token(
                "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
            ),
            "Googlebot"
        );
        assert_eq!(
            product_token("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
            "Googlebot"
        );
        assert_eq!(
            product_token("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120 Safari/537.36 Mybot/1.0"),
            "Mybot"
        );
        assert_eq!(
            product_token(
                "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"
            ),
            "facebookexternalhit"
        );
        assert_eq!(product_token("Mozilla/5.0"), "Mozilla");
    }

    #[test]
    fn selection() {
        let r = Robots::parse(
            b"User-agent: *\nDisallow: /a\n\nUser-agent: googlebot\nDisallow: /b\n\n\
              User-agent: Bingbot\nUser-agent: mybot\nDisallow: /c\nUser-agent: GOOGLEBOT\nAllow: /d\n",
        );
        let s = select(&r, &Agent::new("Googlebot"), true);
        assert_eq!(s.kind(), &SelectionKind::Named("Googlebot".into()));
        assert_eq!(s.groups(), &[1, 3]);
        assert_eq!(select(&r, &Agent::new("Googlebot"), false).groups(), &[1]);
        assert_eq!(
            select(&r, &Agent::new("bot"), true).kind(),
            &SelectionKind::Wildcard
        );
        let img = Agent::new("Googlebot-Image").with_fallback("Googlebot");
        assert_eq!(select(&r, &img, true).groups(), &[1, 3]);
        let ads = Agent::new("AdsBot-Google").obeys_wildcard(false);
        assert_eq!(select(&r, &ads, true).kind(), &SelectionKind::None);
    }
}
