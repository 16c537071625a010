//! The crawler catalog: well-known crawlers, their product tokens and the robots.txt
//! behaviour their operators document (fallback chains, crawlers that ignore the `*` group).
//!
//! The data is the tab-separated file `data/crawlers.tsv` of this crate, compiled in. Each
//! entry says whether its behaviour is documented by the operator (with the page) or only
//! observed.
//!
//! ```
//! use robotsmatch::catalog;
//!
//! let image = catalog::lookup("googlebot-image").ok_or("missing")?;
//! assert_eq!(image.fallbacks, vec!["Googlebot"]);
//! let ads = catalog::lookup("AdsBot-Google").ok_or("missing")?;
//! assert!(!ads.obeys_wildcard);
//! # Ok::<(), &'static str>(())
//! ```
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use crate::agent::{product_token, Agent};

/// The catalog's source text.
pub const DATA: &str = include_str!("../data/crawlers.tsv");

/// How well a crawler's behaviour is established.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The operator documents the token and the behaviour (see [`Crawler::url`]).
    Documented,
    /// Only third-party observation supports it.
    Observed,
}

impl Source {
    /// `"documented"` or `"observed"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Documented => "documented",
            Source::Observed => "observed",
        }
    }
}

/// One crawler of the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crawler {
    /// The product token, as the operator spells it (`Googlebot-Image`).
    pub token: &'static str,
    /// Tokens whose group the crawler obeys when the file has none for its own, in order.
    pub fallbacks: Vec<&'static str>,
    /// False when the crawler ignores the `*` group.
    pub obeys_wildcard: bool,
    /// Who runs it.
    pub operator: &'static str,
    /// What it fetches for.
    pub purpose: &'static str,
    /// Documented by the operator, or observed.
    pub source: Source,
    /// The operator's documentation page (empty when there is none).
    pub url: &'static str,
    /// Anything else worth knowing (empty when nothing).
    pub note: &'static str,
}

impl Crawler {
    /// The [`Agent`] the matcher uses: the token, the fallbacks, the `*` behaviour.
    pub fn agent(&self) -> Agent {
        self.fallbacks
            .iter()
            .fold(Agent::new(self.token), |a, f| a.with_fallback(f))
            .obeys_wildcard(self.obeys_wildcard)
    }
}

fn parse_line(line: &'static str) -> Option<Crawler> {
    let f: Vec<&'static str> = line.split('\t').collect();
    if f.len() < 7 {
        return None;
    }
    Some(Crawler {
        token: f[0],
        fallbacks: f[1]
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
        obeys_wildcard: f[2] != "no",
        operator: f[3],
        purpose: f[4],
        source: if f[5] == "observed" {
            Source::Observed
        } else {
            Source::Documented
        },
        url: f[6],
        note: f.get(7).copied().unwrap_or(""),
    })
}

/// Every crawler of the catalog, in catalog order.
pub fn crawlers() -> &'static [Crawler] {
    static ALL: OnceLock<Vec<Crawler>> = OnceLock::new();
    ALL.get_or_init(|| {
        DATA.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(parse_line)
            .collect()
    })
}

/// The crawler whose token is `name` (ignoring ASCII case), or whose token is the product
/// token of `name` (so a full user-agent string finds its crawler).
pub fn lookup(name: &str) -> Option<&'static Crawler> {
    let name = name.trim();
    let find = |t: &str| crawlers().iter().find(|c| c.token.eq_ignore_ascii_case(t));
    find(name).or_else(|| find(product_token(name)))
}

/// The [`Agent`] for a product token, a full user-agent string or a catalog name: the
/// catalog's behaviour when the crawler is in it, otherwise the plain token.
///
/// ```
/// use robotsmatch::catalog::agent_for;
///
/// assert_eq!(agent_for("Googlebot-Image/1.0").tokens(), ["Googlebot-Image", "Googlebot"]);
/// assert!(!agent_for("AdsBot-Google").get_obeys_wildcard());
/// assert_eq!(agent_for("MyBot/2.0").tokens(), ["MyBot"]);
/// ```
pub fn agent_for(name: &str) -> Agent {
    match lookup(name) {
        Some(c) => c.agent(),
        None => Agent::new(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_parses() {
        let lines = DATA
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(crawlers().len(), lines);
        assert!(lines >= 25);
        for c in crawlers() {
            assert_eq!(product_token(c.token), c.token, "token {}", c.token);
            assert!(!c.operator.is_empty() && !c.purpose.is_empty());
            assert!(c.source == Source::Observed || c.url.starts_with("https://"));
            for f in &c.fallbacks {
                assert_eq!(product_token(f), *f);
            }
        }
    }

    #[test]
    fn behaviour() {
        let r = crate::Robots::parse(
            b"User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n",
        );
        let img = crate::agent::select(&r, &agent_for("Googlebot-Image"), true);
        assert_eq!(img.groups(), &[1]);
        let ads = crate::agent::select(&r, &agent_for("adsbot-google"), true);
        assert_eq!(ads.kind(), &crate::SelectionKind::None);
        let gpt = crate::agent::select(&r, &agent_for("GPTBot"), true);
        assert_eq!(gpt.kind(), &crate::SelectionKind::Wildcard);
    }
}
