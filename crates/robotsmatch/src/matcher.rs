//! The [`Matcher`]: built once per (robots.txt, crawler, profile), decides many URLs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use regex_automata::hybrid;
use regex_automata::util::pool::Pool;

use crate::agent::{select, Agent, Selection, SelectionKind};
use crate::canon::canonical_path;
use crate::compile::{CompileConfig, Compiled, Engine, EngineChoice};
use crate::parse::{Robots, Rule, RuleKind};
use crate::profile::Profile;
use crate::reference::Reference;

/// A function that makes lazy DFA caches for the pool.
type CacheMaker = Box<
    dyn Fn() -> Option<hybrid::dfa::Cache>
        + Send
        + Sync
        + std::panic::RefUnwindSafe
        + std::panic::UnwindSafe,
>;

/// Unique ids for matchers, so a [`Cache`] can tell whose it is.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Builds a [`Matcher`] with a profile and limits other than the defaults.
///
/// ```
/// use robotsmatch::{MatcherBuilder, Profile, Robots};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /a*b\n");
/// let m = MatcherBuilder::new().profile(Profile::LEGACY).build(&robots, "Googlebot");
/// assert!(m.decide("/a-b").is_allowed()); // `*` is literal under the legacy profile
/// assert!(!m.decide("/a*b").is_allowed());
/// ```
#[derive(Clone, Debug, Default)]
pub struct MatcherBuilder {
    profile: Profile,
    compile: CompileConfig,
}

impl MatcherBuilder {
    /// The default profile ([`Profile::GOOGLE`]) and limits.
    pub fn new() -> MatcherBuilder {
        MatcherBuilder::default()
    }

    /// Sets the profile.
    pub fn profile(mut self, profile: Profile) -> MatcherBuilder {
        self.profile = profile;
        self
    }

    /// The profile matchers are built with.
    pub fn get_profile(&self) -> &Profile {
        &self.profile
    }

    /// Chooses the engine (default [`EngineChoice::Auto`]).
    pub fn engine(mut self, engine: EngineChoice) -> MatcherBuilder {
        self.compile.engine = engine;
        self
    }

    /// The largest NFA built, in bytes (default 32 MiB). A group whose rules need more is
    /// decided by the reference matcher.
    pub fn nfa_size_limit(mut self, bytes: usize) -> MatcherBuilder {
        self.compile.nfa_size_limit = bytes;
        self
    }

    /// The largest dense DFA built, in bytes (default 1 MiB); determinisation may use twice
    /// that. Above it, the lazy DFA is used.
    pub fn dense_size_limit(mut self, bytes: usize) -> MatcherBuilder {
        self.compile.dense_size_limit = bytes;
        self
    }

    /// Under [`EngineChoice::Auto`], a dense DFA is only tried when at most this many patterns
    /// contain a `*` (default 4): wildcards multiply DFA states.
    pub fn dense_max_wildcards(mut self, n: usize) -> MatcherBuilder {
        self.compile.dense_max_wildcards = n;
        self
    }

    /// The capacity of one lazy DFA cache, in bytes (default 2 MiB; raised to the minimum the
    /// automaton needs). One cache exists per thread that decides with the matcher.
    pub fn cache_capacity(mut self, bytes: usize) -> MatcherBuilder {
        self.compile.cache_capacity = bytes;
        self
    }

    /// In the split layout, more wildcard patterns than this (default 32) go behind a literal
    /// prefilter and are checked one by one, instead of into a lazy DFA: with hundreds of `*`
    /// patterns every lazy DFA state holds a live position in each, and its cache thrashes.
    pub fn lazy_max_wildcards(mut self, n: usize) -> MatcherBuilder {
        self.compile.lazy_max_wildcards = n;
        self
    }

    /// Builds the matcher for `agent` (a product token, a full user-agent string, or an
    /// [`Agent`]). Never fails: if the automaton cannot be built within its limits, the
    /// reference matcher decides.
    pub fn build(&self, robots: &Robots, agent: impl Into<Agent>) -> Matcher {
        let agent = agent.into();
        let selection = select(robots, &agent, self.profile.merge_groups);
        let rules: Vec<Rule> = selection
            .groups()
            .iter()
            .flat_map(|&g| robots.groups()[g].rules().iter().cloned())
            .collect();
        let compiled = Compiled::new(&rules, &self.profile, &self.compile);
        let pool = compiled
            .needs_cache()
            .then(|| Pool::new(compiled.cache_maker() as CacheMaker));
        Matcher {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            agent,
            profile: self.profile,
            selection,
            rules,
            compiled,
            pool,
            reference: OnceLock::new(),
        }
    }
}

/// Decides whether a crawler may fetch URLs under one robots.txt file.
///
/// Immutable, `Send` and `Sync`: build it once and share it between threads. A lazy-DFA
/// matcher keeps one cache per thread in an internal pool; hot loops can hold their own
/// [`Cache`] and call [`Matcher::decide_with`] instead.
///
/// ```
/// use robotsmatch::{Matcher, Robots};
///
/// let robots = Robots::parse(b"User-agent: *\nDisallow: /search\nAllow: /search/help$\n");
/// let m = Matcher::new(&robots, "Googlebot/2.1");
/// assert!(!m.decide("https://example.com/search?q=1").is_allowed());
/// let d = m.decide("https://example.com/search/help");
/// assert!(d.is_allowed());
/// assert_eq!(d.rule().map(|r| r.line()), Some(3));
/// ```
pub struct Matcher {
    id: u64,
    agent: Agent,
    profile: Profile,
    selection: Selection,
    rules: Vec<Rule>,
    compiled: Compiled,
    /// Lazy-DFA caches for [`Matcher::decide`]; only when the engine needs them.
    pool: Option<Pool<Option<hybrid::dfa::Cache>, CacheMaker>>,
    reference: OnceLock<Reference>,
}

impl std::fmt::Debug for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matcher")
            .field("agent", &self.agent)
            .field("profile", &self.profile.name)
            .field("selection", &self.selection)
            .field("rules", &self.rules.len())
            .field("engine", &self.engine())
            .finish()
    }
}

/// A per-thread scratch space for [`Matcher::decide_with`]. A cache made by one matcher and
/// used with another is reset, never trusted.
#[derive(Clone, Debug)]
pub struct Cache {
    owner: u64,
    lazy: Option<hybrid::dfa::Cache>,
}

/// The verdict for one URL and the rule that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision<'m> {
    allowed: bool,
    rule: Option<&'m Rule>,
    engine: Engine,
}

impl<'m> Decision<'m> {
    /// True when the crawler may fetch the URL.
    pub fn is_allowed(&self) -> bool {
        self.allowed
    }

    /// The rule that decided, or `None` when no rule matched (or the path is `/robots.txt`).
    pub fn rule(&self) -> Option<&'m Rule> {
        self.rule
    }

    /// The engine that decided this URL.
    pub fn engine(&self) -> Engine {
        self.engine
    }
}

/// A decision with everything a tester shows: the group chosen, the canonical path that was
/// compared, the deciding rule and the best rule of the other kind.
#[derive(Clone, Debug)]
pub struct Explanation<'m> {
    /// The path and query, in canonical percent-encoding, that rules were compared with.
    pub canonical_path: Vec<u8>,
    /// The verdict and deciding rule.
    pub decision: Decision<'m>,
    /// The best matching rule of the kind that did not decide, if any.
    pub runner_up: Option<&'m Rule>,
    /// True when the path is `/robots.txt`, which is always allowed.
    pub robots_txt: bool,
}

impl Matcher {
    /// Builds a matcher with the default profile ([`Profile::GOOGLE`]) and limits.
    pub fn new(robots: &Robots, agent: impl Into<Agent>) -> Matcher {
        MatcherBuilder::new().build(robots, agent)
    }

    /// Parses `body` and builds a matcher in one step.
    pub fn from_bytes(body: &[u8], agent: impl Into<Agent>) -> Matcher {
        Matcher::new(&Robots::parse(body), agent)
    }

    /// Decides a URL: an absolute URL (`https://host/path?query`) or a bare path (`/path`).
    /// The fragment is ignored. Does not allocate unless the path needs canonicalising.
    pub fn decide(&self, url: impl AsRef<[u8]>) -> Decision<'_> {
        let path = canonical_path(url.as_ref());
        match &self.pool {
            Some(pool) => {
                let mut guard = pool.get();
                self.decide_canonical_inner(&path, guard.as_mut())
            }
            None => self.decide_canonical_inner(&path, None),
        }
    }

    /// Like [`Matcher::decide`], with a cache the caller keeps (see [`Matcher::create_cache`]).
    pub fn decide_with(&self, cache: &mut Cache, url: impl AsRef<[u8]>) -> Decision<'_> {
        let path = canonical_path(url.as_ref());
        self.decide_canonical_with(cache, &path)
    }

    /// Decides a path that is already canonical (from [`crate::canon::canonical_path`]).
    pub fn decide_canonical_with(&self, cache: &mut Cache, path: &[u8]) -> Decision<'_> {
        if cache.owner != self.id {
            *cache = self.create_cache();
        }
        self.decide_canonical_inner(path, cache.lazy.as_mut())
    }

    /// True when the crawler may fetch `url`.
    pub fn is_allowed(&self, url: impl AsRef<[u8]>) -> bool {
        self.decide(url).is_allowed()
    }

    /// A cache for [`Matcher::decide_with`].
    pub fn create_cache(&self) -> Cache {
        Cache {
            owner: self.id,
            lazy: self.compiled.create_cache(),
        }
    }

    fn decide_canonical_inner(
        &self,
        path: &[u8],
        cache: Option<&mut hybrid::dfa::Cache>,
    ) -> Decision<'_> {
        if self.profile.robots_txt_allowed && path == b"/robots.txt" {
            return Decision {
                allowed: true,
                rule: None,
                engine: self.compiled.engine(),
            };
        }
        match self.compiled.fold(path, cache) {
            Ok(best) => {
                let (allowed, rule) = self.compiled.verdict(best);
                Decision {
                    allowed,
                    rule: rule.map(|i| &self.rules[i]),
                    engine: self.compiled.engine(),
                }
            }
            Err(_) => {
                let d = self.reference().decide(path);
                Decision {
                    allowed: d.allowed,
                    rule: d.rule.map(|i| &self.rules[i]),
                    engine: Engine::Reference,
                }
            }
        }
    }

    /// The reference matcher over the same rules (built on first use).
    pub fn reference(&self) -> &Reference {
        self.reference
            .get_or_init(|| Reference::new(&self.rules, self.profile))
    }

    /// Decides `url` and explains the decision (slower than [`Matcher::decide`]).
    pub fn explain(&self, url: impl AsRef<[u8]>) -> Explanation<'_> {
        let path = canonical_path(url.as_ref()).into_owned();
        let decision = self.decide(url);
        let robots_txt = self.profile.robots_txt_allowed && path == b"/robots.txt";
        let runner_up = match decision.rule {
            Some(rule) if !robots_txt => {
                let other = match rule.kind() {
                    RuleKind::Allow => RuleKind::Disallow,
                    RuleKind::Disallow => RuleKind::Allow,
                };
                self.reference()
                    .longest(other, &path)
                    .map(|(i, _)| &self.rules[i])
            }
            _ => None,
        };
        Explanation {
            canonical_path: path,
            decision,
            runner_up,
            robots_txt,
        }
    }

    /// The crawler this matcher decides for.
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The groups that apply, and why.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// True when a group names the crawler (so `*` groups are ignored).
    pub fn is_named(&self) -> bool {
        matches!(self.selection.kind(), SelectionKind::Named(_))
    }

    /// The rules that apply, in file order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The engine used when nothing gives up.
    pub fn engine(&self) -> Engine {
        self.compiled.engine()
    }

    /// Heap memory of the automaton and tables, in bytes (not counting per-thread caches).
    pub fn memory_usage(&self) -> usize {
        self.compiled.memory_usage()
            + self
                .rules
                .iter()
                .map(|r| r.pattern().len() + 24)
                .sum::<usize>()
    }

    /// The number of distinct compiled patterns, and how many contain a `*`.
    pub fn pattern_counts(&self) -> (usize, usize) {
        self.compiled.pattern_counts()
    }
}

impl Cache {
    /// Memory held by the cache, in bytes.
    pub fn memory_usage(&self) -> usize {
        self.lazy.as_ref().map_or(0, |c| c.memory_usage())
    }
}
