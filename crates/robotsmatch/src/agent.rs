//! Agent selection: which groups of a file apply to a crawler.
//!
//! A crawler is named by its product token (`Googlebot`, `GPTBot`, `MJ12bot`).
//! [`product_token`] reduces a full user-agent string to it. A token is the whole name up to
//! white space, `/`, `;`, `(`, `)` or `*`: digits belong to it, and nothing matches through a
//! cut-down prefix (`AI2Bot` never selects an `Ai2Bot-Dolma` group, as it would if both were
//! cut to `AI`). A group applies when one of its `user-agent` tokens equals the crawler's,
//! ignoring ASCII case; there is no substring matching (`bot` never selects `mybot`). All
//! groups naming the crawler are merged; only when none does do the `*` groups apply (merged
//! too); otherwise nothing applies and everything is allowed.
//!
//! Per-crawler data follows the `user-agent` lines, not the merged groups:
//! [`Selection::crawl_delay`] is the `crawl-delay` written under the crawler's own
//! `user-agent` lines (see [`crate::parse::Directive::user_agents`]).
//!
//! [`Agent`] adds what some crawlers document beyond that: a fallback chain
//! (`Googlebot-Image` obeys a `Googlebot` group when the file has none for it) and crawlers
//! that ignore the `*` group (`AdsBot-Google`).
#![forbid(unsafe_code)]

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;

use crate::parse::{leading_token, Directive, DirectiveKind, Robots};

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

/// A crawler name given by a user that names no crawler: it is empty or only white space
/// (issue 16). The command line, the web tester's API and the Python package refuse it with
/// this message, so they agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyAgentName;

impl std::fmt::Display for EmptyAgentName {
    /// `is empty: name a crawler (...)`, to follow the name of the field or flag.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("is empty: name a crawler (a product token such as Googlebot, a full user-agent string, or a catalog name)")
    }
}

impl std::error::Error for EmptyAgentName {}

/// Checks a crawler name given by a user (a flag, an API field, an argument): an error when
/// it is empty or only white space. Any other name is accepted, as [`product_token`] reads it.
///
/// ```
/// use robotsmatch::agent::check_name;
/// assert!(check_name("Googlebot").is_ok());
/// assert_eq!(
///     format!("--agent {}", check_name("  ").unwrap_err()),
///     "--agent is empty: name a crawler (a product token such as Googlebot, a full user-agent string, or a catalog name)"
/// );
/// ```
pub fn check_name(name: &str) -> Result<&str, EmptyAgentName> {
    if name.trim().is_empty() {
        Err(EmptyAgentName)
    } else {
        Ok(name)
    }
}

/// Reduces a product token or a full user-agent string to the product token that is compared
/// with `user-agent` lines.
///
/// - `Googlebot/2.1` gives `Googlebot`.
/// - `Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)` gives
///   `Googlebot`: the token after `compatible;` (or `compatible)`, as in
///   `Mozilla/5.0 (compatible) AI2Bot (+https://www.allenai.org/crawler)`) wins.
/// - Otherwise the first product that is not a browser or engine name (`Mozilla`,
///   `AppleWebKit`, `Chrome`, ...), else the first token.
///
/// A token is the name up to the first white space, `/`, `;`, `(`, `)` or `*`: digits and
/// other characters belong to it (`MJ12bot/1.4` gives `MJ12bot`, `360Spider` stays whole).
///
/// ```
/// use robotsmatch::agent::product_token;
///
/// assert_eq!(product_token("Googlebot/2.1"), "Googlebot");
/// assert_eq!(product_token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)"), "GPTBot");
/// assert_eq!(product_token("Googlebot-Image"), "Googlebot-Image");
/// assert_eq!(product_token("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)"), "MJ12bot");
/// ```
pub fn product_token(agent: &str) -> &str {
    let s = agent.trim();
    // PERF: no allocation (a crawler's one-shot question builds an `Agent` every time).
    let compatible = s
        .as_bytes()
        .windows("compatible".len())
        .position(|w| w.eq_ignore_ascii_case(b"compatible"));
    if let Some(i) = compatible {
        let after = &s[i + "compatible".len()..];
        if let Some(rest) = after.strip_prefix([';', ')']) {
            let tok = token_str(rest.trim_start());
            if !tok.is_empty() && !is_url(tok) {
                return tok;
            }
        }
    }
    let first = token_str(s);
    if !first.is_empty() && !is_generic(first) {
        return first;
    }
    // Mozilla-style strings: the first product that is not a browser or engine name (nor the
    // `+https://...` of a crawler's page).
    for word in s.split(|c: char| c.is_whitespace() || matches!(c, ';' | '(' | ')' | ',')) {
        let tok = token_str(word);
        if !tok.is_empty()
            && word[tok.len()..].starts_with('/')
            && !is_generic(tok)
            && !is_url(word)
        {
            return tok;
        }
    }
    first
}

fn token_str(s: &str) -> &str {
    let n = leading_token(s.as_bytes()).len();
    &s[..n]
}

/// `+http://...`, `https://...`: a link in a user-agent string, not a product.
fn is_url(word: &str) -> bool {
    word.starts_with('+') || word.contains(':')
}

fn is_generic(token: &str) -> bool {
    GENERIC_PRODUCTS
        .iter()
        .any(|g| g.eq_ignore_ascii_case(token))
}

/// A crawler as the matcher sees it: its product tokens, most specific first, and whether it
/// obeys the `*` group.
///
/// Cloning is cheap (the tokens are shared), and so is making the same agent from the same
/// string again on one thread: a crawler that builds a matcher per host with
/// `Matcher::from_bytes(body, "MyBot")` does not pay for the agent each time.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Agent {
    inner: Arc<AgentData>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct AgentData {
    tokens: Vec<String>,
    obeys_wildcard: bool,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field("tokens", &self.inner.tokens)
            .field("obeys_wildcard", &self.inner.obeys_wildcard)
            .finish()
    }
}

impl Agent {
    /// A crawler named by a product token or a full user-agent string (see [`product_token`]).
    pub fn new(agent: &str) -> Agent {
        Agent {
            inner: Arc::new(AgentData {
                tokens: vec![product_token(agent).to_string()],
                obeys_wildcard: true,
            }),
        }
    }

    /// Adds a fallback token: used when the file has no group for the tokens before it.
    pub fn with_fallback(mut self, token: &str) -> Agent {
        Arc::make_mut(&mut self.inner)
            .tokens
            .push(product_token(token).to_string());
        self
    }

    /// Sets whether the crawler obeys `*` groups (true by default; `AdsBot-Google` does not).
    pub fn obeys_wildcard(mut self, yes: bool) -> Agent {
        Arc::make_mut(&mut self.inner).obeys_wildcard = yes;
        self
    }

    /// The crawler's own product token.
    pub fn token(&self) -> &str {
        &self.inner.tokens[0]
    }

    /// The tokens tried in order.
    pub fn tokens(&self) -> &[String] {
        &self.inner.tokens
    }

    /// Whether the crawler obeys `*` groups.
    pub fn get_obeys_wildcard(&self) -> bool {
        self.inner.obeys_wildcard
    }
}

std::thread_local! {
    // PERF: the string and agent of the last `Agent::from(&str)` on this thread. A crawler
    // names the same agent for every host; making it again was two allocations and a parse
    // of the string per matcher (7% of `Matcher::from_bytes` + `decide` on a 4-line file).
    static LAST_AGENT: RefCell<Option<(Box<str>, Agent)>> = const { RefCell::new(None) };
}

impl From<&Agent> for Agent {
    /// A clone (cheap: the tokens are shared).
    fn from(agent: &Agent) -> Agent {
        agent.clone()
    }
}

impl From<&str> for Agent {
    /// [`Agent::new`], shared with the last agent made from the same string on this thread.
    fn from(s: &str) -> Agent {
        LAST_AGENT
            .try_with(|last| {
                let mut last = last.borrow_mut();
                if let Some((text, agent)) = last.as_ref() {
                    if **text == *s {
                        return agent.clone();
                    }
                }
                let agent = Agent::new(s);
                *last = Some((s.into(), agent.clone()));
                agent
            })
            .unwrap_or_else(|_| Agent::new(s))
    }
}

/// Which groups were chosen for a crawler, and why.
#[derive(Clone)]
pub struct Selection {
    kind: SelectionKind,
    groups: Groups,
}

impl std::fmt::Debug for Selection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Selection")
            .field("kind", &self.kind)
            .field("groups", &self.groups())
            .finish()
    }
}

impl PartialEq for Selection {
    fn eq(&self, other: &Selection) -> bool {
        self.kind == other.kind && self.groups() == other.groups()
    }
}

impl Eq for Selection {}

/// The groups of a [`Selection`]: most files have one group that applies, kept without an
/// allocation (PERF: one of the six allocations of a matcher for a small file).
#[derive(Clone, Debug)]
enum Groups {
    One(usize),
    Many(Vec<usize>),
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
        let groups = match groups[..] {
            [one] => Groups::One(one),
            _ => Groups::Many(groups),
        };
        Selection { kind, groups }
    }

    /// Why these groups.
    pub fn kind(&self) -> &SelectionKind {
        &self.kind
    }

    /// Indices into [`Robots::groups`], in file order.
    pub fn groups(&self) -> &[usize] {
        match &self.groups {
            Groups::One(g) => std::slice::from_ref(g),
            Groups::Many(v) => v,
        }
    }

    /// The lines kept as [`Directive`]s (`crawl-delay`, `request-rate`, unknown keys...) that
    /// belong to this crawler: in a chosen group, written under a run of `user-agent` lines
    /// that names the chosen token (or `*`, when the `*` groups apply). In file order.
    ///
    /// A crawler of a merged group does not inherit another crawler's lines: in
    /// `User-agent: bingbot` / `Crawl-delay: 1` / `User-agent: msnbot` / `Crawl-delay: 2` /
    /// `User-agent: *` / `Disallow: /login`, msnbot has only line 4 and `anybot` none.
    pub fn directives<'a>(
        &'a self,
        robots: &'a Robots,
    ) -> impl Iterator<Item = &'a Directive> + 'a {
        robots.directives().iter().filter(move |d| {
            d.group().is_some_and(|g| self.groups().contains(&g))
                && d.user_agents(robots).iter().any(|a| match &self.kind {
                    SelectionKind::Named(t) => {
                        !a.is_wildcard() && a.token().eq_ignore_ascii_case(t)
                    }
                    SelectionKind::Wildcard => a.is_wildcard(),
                    SelectionKind::None => false,
                })
        })
    }

    /// The crawl-delay that applies to this crawler: the first `crawl-delay` line among
    /// [`Selection::directives`] whose value is a non-negative number of seconds (other values
    /// are ignored, as a crawler ignores them). `None` when there is none.
    ///
    /// ```
    /// use robotsmatch::{Matcher, Robots};
    ///
    /// let robots = Robots::parse(
    ///     b"User-agent: bingbot\nCrawl-delay: 1\nUser-agent: msnbot\nCrawl-delay: 2\n\
    ///       User-agent: *\nDisallow: /login\n",
    /// );
    /// let delay = |agent| Matcher::new(&robots, agent).selection().crawl_delay(&robots);
    /// assert_eq!(delay("msnbot").map(|d| (d.seconds(), d.line())), Some((2.0, 4)));
    /// assert_eq!(delay("bingbot").map(|d| d.seconds()), Some(1.0));
    /// assert_eq!(delay("anybot"), None); // the '*' line has no crawl-delay of its own
    /// ```
    pub fn crawl_delay(&self, robots: &Robots) -> Option<CrawlDelay> {
        self.directives(robots)
            .filter(|d| d.kind() == DirectiveKind::CrawlDelay)
            .find_map(|d| {
                let s: f64 = d.value().trim().parse().ok()?;
                // `+ 0.0` turns -0 into 0.
                (s.is_finite() && s >= 0.0).then_some(CrawlDelay {
                    seconds: s + 0.0,
                    line: d.line(),
                })
            })
    }

    /// The request rate that applies to this crawler: the first `request-rate` line among
    /// [`Selection::directives`] of the form `requests/seconds` (`1/5`; the period may end in
    /// `s`, `m` or `h`, and anything after white space, such as a time of day, is ignored).
    /// `None` when there is none.
    pub fn request_rate(&self, robots: &Robots) -> Option<RequestRate> {
        self.directives(robots)
            .filter(|d| d.kind() == DirectiveKind::RequestRate)
            .find_map(|d| RequestRate::parse(d.value(), d.line()))
    }
}

/// A `crawl-delay` that applies to a crawler ([`Selection::crawl_delay`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrawlDelay {
    seconds: f64,
    line: u32,
}

impl CrawlDelay {
    /// The delay in seconds (finite, not negative).
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The line it is written on.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The delay as a [`Duration`] (the longest one for a value too large to represent).
    pub fn as_duration(&self) -> Duration {
        Duration::try_from_secs_f64(self.seconds).unwrap_or(Duration::MAX)
    }
}

/// A `request-rate` that applies to a crawler ([`Selection::request_rate`]): at most
/// `requests` fetches per `seconds`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestRate {
    requests: u32,
    seconds: f64,
    line: u32,
}

impl RequestRate {
    fn parse(value: &str, line: u32) -> Option<RequestRate> {
        let v = value.split_whitespace().next()?;
        let (n, period) = v.split_once('/')?;
        let requests: u32 = n.parse().ok()?;
        let (num, unit) = match period.strip_suffix(['s', 'm', 'h']) {
            Some(num) => (num, period.as_bytes()[period.len() - 1]),
            None => (period, b's'),
        };
        let count: u32 = num.parse().ok()?;
        let seconds = f64::from(count)
            * match unit {
                b'm' => 60.0,
                b'h' => 3600.0,
                _ => 1.0,
            };
        (requests > 0 && count > 0).then_some(RequestRate {
            requests,
            seconds,
            line,
        })
    }

    /// The number of requests allowed per period.
    pub fn requests(&self) -> u32 {
        self.requests
    }

    /// The period in seconds.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// The line it is written on.
    pub fn line(&self) -> u32 {
        self.line
    }
}

/// Chooses the groups of `robots` that apply to `agent`. With `merge` false only the first
/// matching group is used (the legacy convention); otherwise all are merged.
pub fn select(robots: &Robots, agent: &Agent, merge: bool) -> Selection {
    let groups = robots.groups();
    choose(
        groups.len(),
        agent,
        merge,
        |g, t| groups[g].names(&agent.tokens()[t]),
        |g| groups[g].is_wildcard(),
    )
}

/// The choice [`select`] makes, over `n` groups described by two predicates (so that the
/// one-crawler scan, which keeps only flags per group, makes the same choice): the groups
/// naming the first of the crawler's tokens that some group names (`names(group, token)`),
/// else, when the crawler obeys `*`, the `*` groups (`wildcard(group)`), else none; all of them
/// merged, or only the first when `merge` is false.
pub(crate) fn choose(
    n: usize,
    agent: &Agent,
    merge: bool,
    names: impl Fn(usize, usize) -> bool,
    wildcard: impl Fn(usize) -> bool,
) -> Selection {
    let take = |pred: &dyn Fn(usize) -> bool| -> Option<Groups> {
        let mut it = (0..n).filter(|&g| pred(g));
        let first = it.next()?;
        match it.next() {
            Some(second) if merge => {
                let mut all = vec![first, second];
                all.extend(it);
                Some(Groups::Many(all))
            }
            _ => Some(Groups::One(first)),
        }
    };
    for (t, token) in agent.tokens().iter().enumerate() {
        if let Some(groups) = take(&|g| names(g, t)) {
            return Selection {
                kind: SelectionKind::Named(token.clone()),
                groups,
            };
        }
    }
    if agent.get_obeys_wildcard() {
        if let Some(groups) = take(&wildcard) {
            return Selection {
                kind: SelectionKind::Wildcard,
                groups,
            };
        }
    }
    Selection::new(SelectionKind::None, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Agent::from(&str)` shares the last agent made from the same string on the thread;
    /// changing a copy must not change the shared one.
    #[test]
    fn agents_from_the_same_string_are_shared_not_aliased() {
        let a = Agent::from("MyBot/1.0");
        let b = Agent::from("MyBot/1.0");
        assert_eq!(a, b);
        assert!(Arc::ptr_eq(&a.inner, &b.inner), "made once");
        let c = Agent::from("MyBot/1.0")
            .with_fallback("Googlebot")
            .obeys_wildcard(false);
        assert_eq!(c.tokens(), ["MyBot", "Googlebot"]);
        assert!(!c.get_obeys_wildcard());
        let d = Agent::from("MyBot/1.0");
        assert_eq!(d.tokens(), ["MyBot"]);
        assert!(d.get_obeys_wildcard());
        assert_eq!(Agent::from("OtherBot").tokens(), ["OtherBot"]);
        assert_eq!(Agent::from("MyBot/1.0"), Agent::new("MyBot/1.0"));
        assert_eq!(Agent::from(&c), c);
        assert_eq!(
            format!("{d:?}"),
            r#"Agent { tokens: ["MyBot"], obeys_wildcard: true }"#
        );
    }

    /// One chosen group is held inline, several in a vector: the same to every reader.
    #[test]
    fn selections_with_one_or_many_groups() {
        let robots = Robots::parse(
            b"User-agent: a\nDisallow: /1\nUser-agent: *\nDisallow: /2\nUser-agent: a\nDisallow: /3\n",
        );
        let merged = select(&robots, &Agent::new("a"), true);
        assert_eq!(merged.groups(), [0, 2]);
        let first = select(&robots, &Agent::new("a"), false);
        assert_eq!(first.groups(), [0]);
        assert_eq!(
            first,
            Selection::new(SelectionKind::Named("a".into()), vec![0])
        );
        assert_ne!(first, merged);
        let wild = select(&robots, &Agent::new("b"), true);
        assert_eq!(wild.groups(), [1]);
        assert_eq!(
            format!("{wild:?}"),
            "Selection { kind: Wildcard, groups: [1] }"
        );
        let none = select(&robots, &Agent::new("b").obeys_wildcard(false), true);
        assert_eq!(none.groups(), [] as [usize; 0]);
    }

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
    fn issue15_tokens_keep_digits() {
        assert_eq!(product_token("MJ12bot"), "MJ12bot");
        assert_eq!(product_token("AI2Bot/1.0"), "AI2Bot");
        assert_eq!(product_token("360Spider"), "360Spider");
        assert_eq!(product_token("jävla-fanbot"), "jävla-fanbot");
        assert_eq!(
            product_token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; AI2Bot/1.0; +https://www.allenai.org/crawler)"),
            "AI2Bot"
        );
        assert_eq!(
            product_token(
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36 crawler3/2"
            ),
            "crawler3"
        );
        assert_eq!(
            product_token("Mozilla/5.0 (compatible) AI2Bot (+https://www.allenai.org/crawler)"),
            "AI2Bot"
        );
        assert_eq!(
            product_token("Mozilla/5.0 (+https://x.example/bot)"),
            "Mozilla"
        );
    }

    #[test]
    fn issue15_names_with_digits_select_their_own_groups() {
        // The issue's example: 'AI2Bot' and 'Ai2Bot-Dolma' were both cut to 'AI' and merged.
        let r = Robots::parse(
            b"User-agent: Ai2Bot-Dolma\nDisallow: /\n\nUser-agent: AI2Bot\nDisallow: /private/\n",
        );
        let s = select(&r, &Agent::new("AI2Bot"), true);
        assert_eq!(s.kind(), &SelectionKind::Named("AI2Bot".into()));
        assert_eq!(s.groups(), &[1]);
        assert_eq!(select(&r, &Agent::new("Ai2Bot-Dolma"), true).groups(), &[0]);
        assert_eq!(
            select(&r, &Agent::new("AI"), true).kind(),
            &SelectionKind::None
        );
        let mut body = String::new();
        for i in 1..=7 {
            body.push_str(&format!("User-agent: Rule{i}TestBot\nDisallow: /{i}\n\n"));
        }
        let r = Robots::parse(body.as_bytes());
        for i in 1..=7 {
            let s = select(&r, &Agent::new(&format!("Rule{i}TestBot")), true);
            assert_eq!(s.groups(), &[i - 1]);
        }
        assert_eq!(
            select(&r, &Agent::new("Rule"), true).kind(),
            &SelectionKind::None
        );
    }

    fn delay(body: &[u8], agent: Agent, merge: bool) -> Option<(f64, u32)> {
        let r = Robots::parse(body);
        select(&r, &agent, merge)
            .crawl_delay(&r)
            .map(|d| (d.seconds(), d.line()))
    }

    #[test]
    fn issue15_crawl_delay_belongs_to_its_own_user_agent_lines() {
        let body = b"User-agent: bingbot\nCrawl-delay: 1\nUser-agent: msnbot\nCrawl-delay: 2\n\
                     User-agent: *\nDisallow: /login\n";
        assert_eq!(delay(body, Agent::new("msnbot"), true), Some((2.0, 4)));
        assert_eq!(delay(body, Agent::new("bingbot"), true), Some((1.0, 2)));
        assert_eq!(delay(body, Agent::new("anybot"), true), None);
        // The rules stay grouped as Google groups them: all three share 'Disallow: /login'.
        let r = Robots::parse(body);
        for a in ["msnbot", "bingbot", "anybot"] {
            assert_eq!(select(&r, &Agent::new(a), true).groups(), &[0], "{a}");
        }
    }

    #[test]
    fn crawl_delay_follows_the_selection() {
        let body = b"User-agent: *\nCrawl-delay: 10\nDisallow: /x\n\n\
                     User-agent: slowbot\nCrawl-delay: soon\nCrawl-delay: -1\nCrawl-delay: 2.5\n\n\
                     User-agent: Googlebot\nDisallow: /g\n\nUser-agent: Googlebot\nCrawl-delay: 7\n\n\
                     User-agent: legacybot\nDisallow: /a\nUser-agent: legacybot\nCrawl-delay: 4\n";
        assert_eq!(delay(body, Agent::new("otherbot"), true), Some((10.0, 2)));
        assert_eq!(
            delay(body, Agent::new("SlowBot/1.0"), true),
            Some((2.5, 8)),
            "invalid values are skipped"
        );
        // Merged groups: Googlebot's second group has its delay.
        assert_eq!(delay(body, Agent::new("Googlebot"), true), Some((7.0, 14)));
        // A named group without a delay still shadows '*'.
        assert_eq!(
            delay(
                body,
                Agent::new("AdsBot-Google").obeys_wildcard(false),
                true
            ),
            None
        );
        let image = Agent::new("Googlebot-Image").with_fallback("Googlebot");
        assert_eq!(
            delay(body, image, true),
            Some((7.0, 14)),
            "the fallback's delay"
        );
        // Legacy: only the first group naming the crawler.
        assert_eq!(delay(body, Agent::new("Googlebot"), false), None);
        assert_eq!(delay(body, Agent::new("legacybot"), true), Some((4.0, 19)));
        assert_eq!(delay(body, Agent::new("legacybot"), false), None);
        assert_eq!(
            delay(b"User-agent: a\nCrawl-delay: -0\n", Agent::new("a"), true),
            Some((0.0, 2))
        );
        let r = Robots::parse(b"User-agent: a\nCrawl-delay: 1e400\nCrawl-delay: 1e300\n");
        let d = select(&r, &Agent::new("a"), true)
            .crawl_delay(&r)
            .expect("delay");
        assert_eq!((d.line(), d.as_duration()), (3, Duration::MAX));
    }

    #[test]
    fn request_rate() {
        let r = Robots::parse(
            b"User-agent: a\nRequest-rate: x\nRequest-rate: 0/5\nRequest-rate: 3/2m 0900-1700\n\
              User-agent: b\nRequest-rate: 1/5\nUser-agent: c\nRequest-rate: 1/1h\n",
        );
        let rate = |a: &str| {
            select(&r, &Agent::new(a), true)
                .request_rate(&r)
                .map(|q| (q.requests(), q.seconds(), q.line()))
        };
        assert_eq!(rate("a"), Some((3, 120.0, 4)));
        assert_eq!(rate("b"), Some((1, 5.0, 6)));
        assert_eq!(rate("c"), Some((1, 3600.0, 8)));
        assert_eq!(rate("d"), None);
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
