//! Google-compatible robots.txt matching (RFC 9309): parse once, compile each crawler's rules
//! into one automaton, decide every URL in one pass.
//!
//! # Overview
//!
//! ```
//! use robotsmatch::{Matcher, Robots};
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /cart\nAllow: /cart/help$\n");
//! let matcher = Matcher::new(&robots, "Googlebot");
//! let decision = matcher.decide("https://shop.example/cart?item=1");
//! assert!(!decision.is_allowed());
//! let rule = decision.rule().ok_or("no rule")?;
//! assert_eq!((rule.line(), rule.pattern()), (2, &b"/cart"[..]));
//! # Ok::<(), &'static str>(())
//! ```
//!
//! # Stages, one module each
//!
//! - [`parse`]: any bytes to [`Robots`] (groups, rules with line numbers, sitemaps, other
//!   directives, warnings). Never fails.
//! - [`agent`]: the product token of a crawler and the groups that apply to it.
//! - [`url`]: one pass over a URL gives its scheme, host, port and the path and query that
//!   rules are matched against, so host and path always agree.
//! - [`canon`]: the canonical percent-encoding of patterns and paths.
//! - [`profile`]: the matching choices of `google` (default) and `legacy`.
//! - `compile` (internal): the compact canonical form of a crawler's rules (the cold tier)
//!   and the automata built from it once a matcher proves hot; the one-pass decision.
//! - [`Matcher`]: built once per (file, crawler, profile), decides many URLs.
//! - [`reference`](mod@reference): a naive matcher with the same semantics, for cross-checking.
//! - [`fetch`]: the outcome of fetching robots.txt (RFC 9309 §2.3) to rules and a reason;
//!   [`cache`]: a bounded, expiring, thread-safe cache of compiled rules per origin.
//! - [`lint`]: the mistakes of a file, with lines and fixes; [`catalog`]: well-known crawlers;
//!   [`expect`]: lists of URLs that must stay allowed or blocked.
//!
//! The semantics are those of `DESIGN.md` in the project repository; every deliberate
//! difference from Google's C++ library is listed in the README.
#![deny(missing_docs)]

pub mod agent;
mod bytescan;
pub mod cache;
pub mod canon;
pub mod catalog;
mod compile;
pub mod expect;
pub mod fetch;
pub mod lint;
mod matcher;
pub mod parse;
pub mod profile;
pub mod reference;
mod scan;
pub mod url;

pub use agent::{Agent, CrawlDelay, RequestRate, Selection, SelectionKind};
pub use compile::{Engine, EngineChoice, Tier};
pub use matcher::{Cache, Decision, Explanation, Matcher, MatcherBuilder};
pub use parse::{ParseConfig, Robots, Rule, RuleKind, RuleRef, Warning, WarningKind};
pub use profile::{Precedence, Profile};

#[cfg(test)]
mod testrng;

#[cfg(test)]
mod testoibits {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}
    fn assert_unwind_safe<T: std::panic::UnwindSafe + std::panic::RefUnwindSafe>() {}

    #[test]
    fn public_types_are_send_sync() {
        assert_send_sync::<Matcher>();
        assert_send_sync::<Robots>();
        assert_send_sync::<Cache>();
        assert_send_sync::<Decision<'static>>();
        assert_unwind_safe::<Robots>();
    }
}
