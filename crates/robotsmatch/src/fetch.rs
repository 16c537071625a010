//! From the outcome of fetching `/robots.txt` to the rules a crawler must follow (RFC 9309
//! §2.3), with the reason they were chosen. No network code: the caller fetches, this module
//! decides what the response means.
//!
//! | outcome | availability | rules |
//! |---|---|---|
//! | 2xx | available | the body, parsed (cut at [`ParseConfig::get_max_bytes`]) |
//! | 3xx | followed by the caller, up to [`MAX_REDIRECTS`] hops; more hops, or a 3xx that cannot be followed: unavailable | allow all |
//! | 4xx except 429 | unavailable | allow all |
//! | 429, 5xx | unreachable | disallow all |
//! | network error (DNS, refused, timeout, TLS, bad HTTP) | unreachable | disallow all |
//! | any other status (1xx, 600+) | unreachable | disallow all |
//!
//! 429 ("too many requests") is a 4xx, but Google's crawler treats it as a server error, and so
//! do we: a site that rate-limits the crawler is not saying "crawl everything".
//!
//! RFC 9309 also lets a crawler that finds robots.txt unreachable for more than 30 days use
//! its last cached copy or assume the rules are unavailable (allow all). This module does not
//! keep history, so it does not implement that: a caller that keeps a copy can choose it.
//!
//! ```
//! use robotsmatch::fetch::{Availability, FetchedRobots, Outcome};
//! use robotsmatch::ParseConfig;
//!
//! let config = ParseConfig::new();
//! let down = FetchedRobots::from_outcome(&Outcome::response(503, b""), &config);
//! assert_eq!(down.availability(), Availability::Unreachable);
//! let m = down.matcher(&robotsmatch::MatcherBuilder::new(), "Googlebot");
//! let d = m.decide("https://example.com/page");
//! assert!(!d.is_allowed());
//! assert_eq!(d.reason().to_string(), "robots.txt unreachable (503)");
//!
//! let ok = FetchedRobots::from_outcome(&Outcome::response(200, b"User-agent: *\nDisallow: /a\n"), &config);
//! let m = ok.matcher(&robotsmatch::MatcherBuilder::new(), "Googlebot");
//! assert!(!m.decide("/a").is_allowed());
//! assert_eq!(m.decide("/a").decision().and_then(|d| d.rule()).map(|r| r.line()), Some(2));
//! ```

use std::fmt;

use crate::agent::Agent;
use crate::canon::canonical_path;
use crate::matcher::{Cache, Decision, Matcher, MatcherBuilder};
use crate::parse::{ParseConfig, Robots};

/// The number of consecutive redirects followed (RFC 9309 §2.3.1.2: at least five).
pub const MAX_REDIRECTS: usize = 5;

/// What happened when `/robots.txt` was fetched.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome<'a> {
    /// The server answered (after the redirects in `redirects`, if any).
    Response {
        /// The HTTP status of the last response.
        status: u16,
        /// Its body (it may be longer than the parse limit: it is cut here).
        body: &'a [u8],
        /// The URLs that answered with a redirect, in order (empty when none).
        redirects: Vec<String>,
    },
    /// No HTTP response: DNS failure, connection refused, timeout, TLS or protocol error.
    NetworkError {
        /// What went wrong, for the reason text.
        message: String,
        /// The redirects followed before the failure.
        redirects: Vec<String>,
    },
    /// More than [`MAX_REDIRECTS`] consecutive redirects.
    TooManyRedirects {
        /// The URLs that answered with a redirect, in order.
        redirects: Vec<String>,
    },
}

impl<'a> Outcome<'a> {
    /// A response without redirects.
    pub fn response(status: u16, body: &'a [u8]) -> Outcome<'a> {
        Outcome::Response {
            status,
            body,
            redirects: Vec::new(),
        }
    }

    /// A network error without redirects.
    pub fn network_error(message: impl Into<String>) -> Outcome<'a> {
        Outcome::NetworkError {
            message: message.into(),
            redirects: Vec::new(),
        }
    }

    /// The redirects followed.
    pub fn redirects(&self) -> &[String] {
        match self {
            Outcome::Response { redirects, .. }
            | Outcome::NetworkError { redirects, .. }
            | Outcome::TooManyRedirects { redirects } => redirects,
        }
    }
}

/// The three cases of RFC 9309 §2.3.1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Availability {
    /// A robots.txt was fetched (2xx): its rules apply.
    Available,
    /// The file does not exist (4xx, or redirects that lead nowhere): everything is allowed.
    Unavailable,
    /// The server or network failed (5xx, 429, no response): everything is disallowed.
    Unreachable,
}

impl Availability {
    /// `available`, `unavailable` or `unreachable`.
    pub fn as_str(self) -> &'static str {
        match self {
            Availability::Available => "available",
            Availability::Unavailable => "unavailable",
            Availability::Unreachable => "unreachable",
        }
    }
}

impl fmt::Display for Availability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a set of rules was chosen; prints as `robots.txt unreachable (503)`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// 2xx: the body was parsed.
    Fetched {
        /// The status.
        status: u16,
    },
    /// 4xx (not 429), or a 3xx that could not be followed: allow all.
    Unavailable {
        /// The status.
        status: u16,
    },
    /// More than [`MAX_REDIRECTS`] redirects: allow all.
    TooManyRedirects {
        /// The number of redirects seen.
        hops: usize,
    },
    /// 5xx, 429 or an unexpected status: disallow all.
    ServerError {
        /// The status.
        status: u16,
    },
    /// No response: disallow all.
    NetworkError {
        /// What went wrong.
        message: String,
    },
}

impl Reason {
    /// RFC 9309 §2.3 applied to an outcome, without parsing its body: 2xx fetched; more than
    /// [`MAX_REDIRECTS`] redirects, 3xx and 4xx (but 429) unavailable; 429, 5xx, any other
    /// status and network errors unreachable.
    pub fn of(outcome: &Outcome<'_>) -> Reason {
        match outcome {
            Outcome::TooManyRedirects { redirects } => Reason::TooManyRedirects {
                hops: redirects.len(),
            },
            Outcome::Response { redirects, .. } if redirects.len() > MAX_REDIRECTS => {
                Reason::TooManyRedirects {
                    hops: redirects.len(),
                }
            }
            Outcome::NetworkError { message, .. } => Reason::NetworkError {
                message: message.clone(),
            },
            &Outcome::Response { status, .. } => match status {
                200..=299 => Reason::Fetched { status },
                429 => Reason::ServerError { status },
                300..=499 => Reason::Unavailable { status },
                _ => Reason::ServerError { status },
            },
        }
    }

    /// The availability this reason implies.
    pub fn availability(&self) -> Availability {
        match self {
            Reason::Fetched { .. } => Availability::Available,
            Reason::Unavailable { .. } | Reason::TooManyRedirects { .. } => {
                Availability::Unavailable
            }
            Reason::ServerError { .. } | Reason::NetworkError { .. } => Availability::Unreachable,
        }
    }

    /// The HTTP status of the last response, when there was one.
    pub fn status(&self) -> Option<u16> {
        match self {
            Reason::Fetched { status }
            | Reason::Unavailable { status }
            | Reason::ServerError { status } => Some(*status),
            Reason::TooManyRedirects { .. } | Reason::NetworkError { .. } => None,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Fetched { status } => write!(f, "robots.txt fetched ({status})"),
            Reason::Unavailable { status } => {
                write!(f, "robots.txt unavailable ({status}): everything allowed")
            }
            Reason::TooManyRedirects { hops } => write!(f, "too many redirects ({hops})"),
            Reason::ServerError { status } => write!(f, "robots.txt unreachable ({status})"),
            Reason::NetworkError { message } => {
                write!(f, "robots.txt unreachable ({message})")
            }
        }
    }
}

/// The rules chosen for an origin: a parsed file, or everything allowed or disallowed.
#[derive(Debug)]
pub enum Rules {
    /// The body of a 2xx response, parsed.
    Parsed(Robots),
    /// Unavailable: no restrictions.
    AllowAll,
    /// Unreachable: no URL may be fetched.
    DisallowAll,
}

/// The rules of an origin and why they were chosen, from one fetch [`Outcome`].
#[derive(Debug)]
pub struct FetchedRobots {
    rules: Rules,
    reason: Reason,
    redirects: Vec<String>,
    body_len: usize,
    truncated: bool,
}

impl FetchedRobots {
    /// Applies RFC 9309 §2.3 to `outcome`; a 2xx body is parsed with `config` (and so cut at
    /// its size limit).
    pub fn from_outcome(outcome: &Outcome<'_>, config: &ParseConfig) -> FetchedRobots {
        let redirects = outcome.redirects().to_vec();
        let reason = Reason::of(outcome);
        let (rules, body_len) = match (reason.availability(), outcome) {
            (Availability::Available, Outcome::Response { body, .. }) => {
                (Rules::Parsed(Robots::parse_with(body, config)), body.len())
            }
            (Availability::Unavailable, _) => (Rules::AllowAll, 0),
            _ => (Rules::DisallowAll, 0),
        };
        FetchedRobots {
            rules,
            reason,
            redirects,
            body_len,
            truncated: body_len > config.get_max_bytes(),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The parsed file, when one was fetched.
    pub fn robots(&self) -> Option<&Robots> {
        match &self.rules {
            Rules::Parsed(r) => Some(r),
            _ => None,
        }
    }

    /// Why these rules were chosen.
    pub fn reason(&self) -> &Reason {
        &self.reason
    }

    /// Available, unavailable or unreachable.
    pub fn availability(&self) -> Availability {
        self.reason.availability()
    }

    /// The redirects followed.
    pub fn redirects(&self) -> &[String] {
        &self.redirects
    }

    /// The length of the fetched body (0 unless 2xx).
    pub fn body_len(&self) -> usize {
        self.body_len
    }

    /// True when the body was longer than the parse limit and was cut.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Compiles the rules for `agent`.
    pub fn matcher(&self, builder: &MatcherBuilder, agent: impl Into<Agent>) -> FetchMatcher {
        FetchMatcher::new(&self.rules, self.reason.clone(), builder, agent.into())
    }
}

/// What decides URLs for a [`FetchMatcher`].
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one per origin and agent, never moved in a hot loop
enum Inner {
    Matcher(Matcher),
    All {
        allowed: bool,
        robots_txt_allowed: bool,
    },
}

/// A [`Matcher`] for fetched rules, or the "allow all" / "disallow all" of an unavailable or
/// unreachable robots.txt; every decision carries the [`Reason`]. `Send + Sync`.
#[derive(Debug)]
pub struct FetchMatcher {
    inner: Inner,
    reason: Reason,
}

impl FetchMatcher {
    /// Compiles `rules` for `agent` with `builder`'s profile and limits.
    pub fn new(
        rules: &Rules,
        reason: Reason,
        builder: &MatcherBuilder,
        agent: impl Into<Agent>,
    ) -> FetchMatcher {
        let robots_txt_allowed = builder.get_profile().robots_txt_allowed;
        let inner = match rules {
            Rules::Parsed(robots) => Inner::Matcher(builder.build(robots, agent)),
            Rules::AllowAll => Inner::All {
                allowed: true,
                robots_txt_allowed,
            },
            Rules::DisallowAll => Inner::All {
                allowed: false,
                robots_txt_allowed,
            },
        };
        FetchMatcher { inner, reason }
    }

    /// Decides `url` (absolute or a bare path). Under "disallow all", `/robots.txt` itself
    /// stays allowed when the profile says so (RFC 9309 §2.2.2), so it can be fetched again.
    pub fn decide(&self, url: impl AsRef<[u8]>) -> FetchDecision<'_> {
        match &self.inner {
            Inner::Matcher(m) => self.wrap(m.decide(url)),
            Inner::All { .. } => self.all(&canonical_path(url.as_ref())),
        }
    }

    /// Like [`FetchMatcher::decide`], with a per-thread cache (see [`Matcher::decide_with`]).
    pub fn decide_with(&self, cache: &mut Cache, url: impl AsRef<[u8]>) -> FetchDecision<'_> {
        match &self.inner {
            Inner::Matcher(m) => self.wrap(m.decide_with(cache, url)),
            Inner::All { .. } => self.all(&canonical_path(url.as_ref())),
        }
    }

    /// Decides a canonical path (see [`Matcher::decide_canonical_with`]).
    pub fn decide_canonical_with(&self, cache: &mut Cache, path: &[u8]) -> FetchDecision<'_> {
        match &self.inner {
            Inner::Matcher(m) => self.wrap(m.decide_canonical_with(cache, path)),
            Inner::All { .. } => self.all(path),
        }
    }

    fn wrap<'m>(&'m self, d: Decision<'m>) -> FetchDecision<'m> {
        FetchDecision {
            allowed: d.is_allowed(),
            decision: Some(d),
            reason: &self.reason,
        }
    }

    fn all(&self, path: &[u8]) -> FetchDecision<'_> {
        let Inner::All {
            allowed,
            robots_txt_allowed,
        } = self.inner
        else {
            unreachable!("only called for allow-all and disallow-all")
        };
        FetchDecision {
            allowed: allowed || (robots_txt_allowed && path == b"/robots.txt"),
            decision: None,
            reason: &self.reason,
        }
    }

    /// The compiled matcher, when a file was fetched.
    pub fn matcher(&self) -> Option<&Matcher> {
        match &self.inner {
            Inner::Matcher(m) => Some(m),
            Inner::All { .. } => None,
        }
    }

    /// Why these rules apply.
    pub fn reason(&self) -> &Reason {
        &self.reason
    }

    /// A cache for [`FetchMatcher::decide_with`].
    pub fn create_cache(&self) -> Option<Cache> {
        self.matcher().map(Matcher::create_cache)
    }

    /// Heap memory of the compiled matcher, in bytes (0 for allow all / disallow all).
    pub fn memory_usage(&self) -> usize {
        self.matcher().map_or(0, Matcher::memory_usage)
    }
}

/// The verdict for one URL, the rule that decided it (when a file was fetched), and why the
/// rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchDecision<'m> {
    allowed: bool,
    decision: Option<Decision<'m>>,
    reason: &'m Reason,
}

impl<'m> FetchDecision<'m> {
    pub(crate) fn new(
        allowed: bool,
        decision: Option<Decision<'m>>,
        reason: &'m Reason,
    ) -> FetchDecision<'m> {
        FetchDecision {
            allowed,
            decision,
            reason,
        }
    }

    /// True when the crawler may fetch the URL.
    pub fn is_allowed(&self) -> bool {
        self.allowed
    }

    /// The matcher's decision, when a robots.txt was fetched; `None` under allow all /
    /// disallow all.
    pub fn decision(&self) -> Option<Decision<'m>> {
        self.decision
    }

    /// Why these rules apply (`robots.txt unreachable (503)`).
    pub fn reason(&self) -> &'m Reason {
        self.reason
    }
}

/// Resolves a redirect's `Location` against the URL that sent it: absolute URLs,
/// scheme-relative (`//host/p`), absolute paths (`/p`) and relative paths. `None` when
/// `base` is not an absolute URL or `location` is empty.
///
/// ```
/// use robotsmatch::fetch::resolve_location;
/// let base = "http://a.example:8080/dir/robots.txt";
/// assert_eq!(resolve_location(base, "/x").as_deref(), Some("http://a.example:8080/x"));
/// assert_eq!(resolve_location(base, "y.txt").as_deref(), Some("http://a.example:8080/dir/y.txt"));
/// assert_eq!(resolve_location(base, "//b.example/r").as_deref(), Some("http://b.example/r"));
/// assert_eq!(resolve_location(base, "https://c.example/").as_deref(), Some("https://c.example/"));
/// // A Location with a scheme is absolute, whatever the scheme (RFC 3986 §4.3): the caller
/// // decides whether to follow it.
/// assert_eq!(resolve_location(base, "javascript:alert(1)").as_deref(), Some("javascript:alert(1)"));
/// assert_eq!(resolve_location(base, "file:///etc/passwd").as_deref(), Some("file:///etc/passwd"));
/// ```
pub fn resolve_location(base: &str, location: &str) -> Option<String> {
    let location = location.trim();
    if location.is_empty() {
        return None;
    }
    let scheme_end = base.find("://")?;
    // RFC 3986: `scheme ":"`, the scheme a letter then letters, digits, `+`, `-` or `.`,
    // before any `/`, `?` or `#` (a relative path with a `:` in its first segment must be
    // written `./a:b`).
    let has_scheme = location.find(':').is_some_and(|i| {
        let scheme = &location[..i];
        scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    });
    if has_scheme {
        return Some(location.to_string());
    }
    let scheme = &base[..scheme_end];
    if let Some(rest) = location.strip_prefix("//") {
        return Some(format!("{scheme}://{rest}"));
    }
    let after = &base[scheme_end + 3..];
    let auth_len = after.find(['/', '?', '#']).unwrap_or(after.len());
    let origin = &base[..scheme_end + 3 + auth_len];
    if location.starts_with('/') {
        return Some(format!("{origin}{location}"));
    }
    let path = &after[auth_len..];
    let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
    let dir = if dir.is_empty() { "/" } else { dir };
    Some(format!("{origin}{dir}{location}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetched(status: u16, body: &[u8]) -> FetchedRobots {
        FetchedRobots::from_outcome(&Outcome::response(status, body), &ParseConfig::new())
    }

    const BODY: &[u8] = b"User-agent: *\nDisallow: /private\n";

    #[test]
    fn every_status_class() {
        let cases: &[(u16, Availability, bool, &str)] = &[
            (
                200,
                Availability::Available,
                true,
                "robots.txt fetched (200)",
            ),
            (
                204,
                Availability::Available,
                true,
                "robots.txt fetched (204)",
            ),
            (
                301,
                Availability::Unavailable,
                true,
                "robots.txt unavailable (301): everything allowed",
            ),
            (
                404,
                Availability::Unavailable,
                true,
                "robots.txt unavailable (404): everything allowed",
            ),
            (
                410,
                Availability::Unavailable,
                true,
                "robots.txt unavailable (410): everything allowed",
            ),
            (
                401,
                Availability::Unavailable,
                true,
                "robots.txt unavailable (401): everything allowed",
            ),
            (
                429,
                Availability::Unreachable,
                false,
                "robots.txt unreachable (429)",
            ),
            (
                500,
                Availability::Unreachable,
                false,
                "robots.txt unreachable (500)",
            ),
            (
                503,
                Availability::Unreachable,
                false,
                "robots.txt unreachable (503)",
            ),
            (
                100,
                Availability::Unreachable,
                false,
                "robots.txt unreachable (100)",
            ),
            (
                600,
                Availability::Unreachable,
                false,
                "robots.txt unreachable (600)",
            ),
        ];
        for &(status, availability, public_allowed, reason) in cases {
            let f = fetched(status, BODY);
            assert_eq!(f.availability(), availability, "{status}");
            assert_eq!(f.reason().to_string(), reason);
            let m = f.matcher(&MatcherBuilder::new(), "Googlebot");
            assert_eq!(
                m.decide("https://a.example/public").is_allowed(),
                public_allowed,
                "{status}"
            );
            // The body only counts for 2xx.
            let private = m.decide("https://a.example/private");
            assert_eq!(
                private.is_allowed(),
                availability == Availability::Unavailable,
                "{status}"
            );
            assert_eq!(
                private.decision().is_some(),
                availability == Availability::Available
            );
            assert_eq!(private.reason().to_string(), reason);
        }
    }

    #[test]
    fn network_error_disallows_everything_but_robots_txt() {
        let f = FetchedRobots::from_outcome(
            &Outcome::network_error("connection refused"),
            &ParseConfig::new(),
        );
        assert_eq!(f.availability(), Availability::Unreachable);
        let m = f.matcher(&MatcherBuilder::new(), "Googlebot");
        let d = m.decide("https://a.example/");
        assert!(!d.is_allowed());
        assert_eq!(
            d.reason().to_string(),
            "robots.txt unreachable (connection refused)"
        );
        assert!(m.decide("https://a.example/robots.txt").is_allowed());
        assert_eq!(m.memory_usage(), 0);
    }

    #[test]
    fn redirect_limit() {
        let hops = |n: usize| {
            (0..n)
                .map(|i| format!("http://a.example/r{i}"))
                .collect::<Vec<_>>()
        };
        let five = Outcome::Response {
            status: 200,
            body: BODY,
            redirects: hops(MAX_REDIRECTS),
        };
        let f = FetchedRobots::from_outcome(&five, &ParseConfig::new());
        assert_eq!(f.availability(), Availability::Available);
        assert_eq!(f.redirects().len(), 5);
        let six = Outcome::Response {
            status: 200,
            body: BODY,
            redirects: hops(MAX_REDIRECTS + 1),
        };
        let f = FetchedRobots::from_outcome(&six, &ParseConfig::new());
        assert_eq!(f.availability(), Availability::Unavailable);
        assert_eq!(f.reason().to_string(), "too many redirects (6)");
        assert!(f
            .matcher(&MatcherBuilder::new(), "x")
            .decide("/private")
            .is_allowed());
        let f = FetchedRobots::from_outcome(
            &Outcome::TooManyRedirects { redirects: hops(6) },
            &ParseConfig::new(),
        );
        assert_eq!(f.reason(), &Reason::TooManyRedirects { hops: 6 });
    }

    #[test]
    fn oversized_body_is_cut_at_the_parse_limit() {
        let mut body = b"User-agent: *\nDisallow: /first\n".to_vec();
        body.resize(1000, b'#');
        body.extend_from_slice(b"\nDisallow: /after-the-limit\n");
        let config = ParseConfig::new().max_bytes(1000);
        let f = FetchedRobots::from_outcome(&Outcome::response(200, &body), &config);
        assert!(f.is_truncated());
        assert_eq!(f.body_len(), body.len());
        let m = f.matcher(&MatcherBuilder::new(), "Googlebot");
        assert!(!m.decide("/first").is_allowed());
        assert!(m.decide("/after-the-limit").is_allowed());
        let whole =
            FetchedRobots::from_outcome(&Outcome::response(200, &body), &ParseConfig::new());
        assert!(!whole.is_truncated());
        assert!(!whole
            .matcher(&MatcherBuilder::new(), "Googlebot")
            .decide("/after-the-limit")
            .is_allowed());
    }

    #[test]
    fn html_body_is_parsed_like_any_file() {
        let f = fetched(200, b"<html><body>Not found</body></html>");
        assert_eq!(f.availability(), Availability::Available);
        assert!(f
            .matcher(&MatcherBuilder::new(), "x")
            .decide("/any")
            .is_allowed());
    }

    #[test]
    fn locations() {
        let b = "https://a.example/robots.txt";
        assert_eq!(resolve_location(b, "").as_deref(), None);
        assert_eq!(resolve_location("not a url", "/x"), None);
        assert_eq!(
            resolve_location(b, "r2.txt").as_deref(),
            Some("https://a.example/r2.txt")
        );
        assert_eq!(
            resolve_location("https://a.example", "x").as_deref(),
            Some("https://a.example/x")
        );
        assert_eq!(
            resolve_location(b, "HTTP://B.example/robots.txt").as_deref(),
            Some("HTTP://B.example/robots.txt")
        );
    }
}
