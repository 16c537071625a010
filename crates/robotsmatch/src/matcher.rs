//! The [`Matcher`]: built once per (robots.txt, crawler, profile), decides many URLs.
//!
//! Building a matcher is cheap: it selects the crawler's groups and keeps their rules in a
//! compact canonical form that decides on its own (the cold tier, [`Engine::Direct`]). A
//! matcher that proves hot builds its automaton once and switches to it (see
//! [`Tier`](crate::Tier) and the `compile` module docs).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use regex_automata::util::pool::Pool;

use crate::agent::{select, Agent, Selection, SelectionKind};
use crate::canon::{canonical_path, with_canonical_path};
use crate::compile::pattern::verdict;
use crate::compile::{CompileConfig, Engine, EngineChoice, Hot, LazyCache, PatternSet, Tier};
use crate::parse::{ParseConfig, Robots, RuleKind, RuleRef};
use crate::profile::Profile;
use crate::reference::Reference;

/// A function that makes lazy DFA caches for the pool.
type CacheMaker =
    Box<dyn Fn() -> LazyCache + Send + Sync + std::panic::RefUnwindSafe + std::panic::UnwindSafe>;

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
    parse: ParseConfig,
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

    /// Chooses the engine (default [`EngineChoice::Auto`]). A forced automaton is built with
    /// the matcher; [`EngineChoice::Direct`] keeps the matcher in the cold tier.
    pub fn engine(mut self, engine: EngineChoice) -> MatcherBuilder {
        self.compile.engine = engine;
        self
    }

    /// Chooses when the automaton of an [`EngineChoice::Auto`] matcher is built (default
    /// [`Tier::Auto`]: once the matcher has decided enough to pay for it).
    ///
    /// ```
    /// use robotsmatch::{Engine, MatcherBuilder, Robots, Tier};
    ///
    /// let mut body = String::from("User-agent: *\n");
    /// for i in 0..20 {
    ///     body.push_str(&format!("Disallow: /private{i}/\n"));
    /// }
    /// let robots = Robots::parse(body.as_bytes());
    /// let cold = MatcherBuilder::new().tier(Tier::Cold).build(&robots, "bot");
    /// let hot = MatcherBuilder::new().tier(Tier::Hot).build(&robots, "bot");
    /// assert_eq!(cold.decide("/private3/x").engine(), Engine::Direct);
    /// assert_eq!(hot.decide("/private3/x").engine(), Engine::Tree);
    /// assert_eq!(cold.decide("/private3/x").rule(), hot.decide("/private3/x").rule());
    /// ```
    pub fn tier(mut self, tier: Tier) -> MatcherBuilder {
        self.compile.tier = tier;
        self
    }

    /// Sets the parse limits used by [`MatcherBuilder::build_from_bytes`] (default
    /// [`ParseConfig::new`]: 500 KiB per file, 16,663 bytes per line).
    pub fn parse_config(mut self, config: ParseConfig) -> MatcherBuilder {
        self.parse = config;
        self
    }

    /// The largest NFA built, in bytes (default 32 MiB). A group whose rules need more is
    /// decided by the reference matcher.
    pub fn nfa_size_limit(mut self, bytes: usize) -> MatcherBuilder {
        self.compile.nfa_size_limit = bytes;
        self
    }

    /// The largest DFA table built, in bytes (default 1 MiB). Under [`EngineChoice::Auto`] it
    /// bounds the tree's table for searching the many pieces of one node at once (above it, a
    /// compact NFA searches them); with [`EngineChoice::Dense`] or [`EngineChoice::Split`]
    /// forced, the dense DFA (determinisation may use twice that; above it, the lazy DFA) and
    /// the split layout's literal automaton.
    pub fn dense_size_limit(mut self, bytes: usize) -> MatcherBuilder {
        self.compile.dense_size_limit = bytes;
        self
    }

    /// In the split layout ([`EngineChoice::Split`]), a dense DFA of the wildcard patterns is
    /// only tried when at most this many contain a `*` (default 4): wildcards multiply DFA
    /// states.
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
        let groups = robots.groups();
        let (mut count, mut bytes) = (0, 0);
        for &g in selection.groups() {
            count += groups[g].rules().len();
            bytes += groups[g]
                .rules()
                .iter()
                .map(|r| r.pattern().len())
                .sum::<usize>();
        }
        let mut patterns = PatternSet::with_capacity(count, bytes);
        let mut scratch = Vec::new();
        for &g in selection.groups() {
            for rule in groups[g].rules() {
                patterns.push(
                    rule.kind(),
                    rule.pattern(),
                    rule.line(),
                    &self.profile,
                    &mut scratch,
                );
            }
        }
        patterns.finish();
        self.finish(agent, selection, patterns)
    }

    /// Builds the matcher for `agent` straight from the bytes of a robots.txt file: the same
    /// matcher as [`MatcherBuilder::build`] of [`Robots::parse_with`] (with this builder's parse
    /// limits), but only the groups that apply to the crawler are read into memory, so a
    /// crawler that fetched a file to check a few URLs pays for little more than one pass over
    /// it.
    ///
    /// ```
    /// use robotsmatch::{MatcherBuilder, Robots};
    ///
    /// let body = b"User-agent: a\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n";
    /// let m = MatcherBuilder::new().build_from_bytes(body, "Googlebot");
    /// assert!(!m.decide("/private/x").is_allowed());
    /// assert_eq!(m.selection().groups(), &[1]);
    /// ```
    pub fn build_from_bytes(&self, body: &[u8], agent: impl Into<Agent>) -> Matcher {
        let agent = agent.into();
        if agent.tokens().len() > 64 {
            // The selective scan follows at most 64 tokens.
            return self.build(&Robots::parse_with(body, &self.parse), agent);
        }
        let scanned = crate::scan::scan(body, &self.parse, &agent, &self.profile);
        self.finish(agent, scanned.selection, scanned.patterns)
    }

    /// Decides one URL for `agent` while reading the bytes of a robots.txt file once, without
    /// building a matcher: the one-shot question of a crawler that fetched a file to check one
    /// URL (Google's library asks it as `OneAgentAllowedByRobots`). The same decision as
    /// [`MatcherBuilder::build_from_bytes`] then [`Matcher::decide`]; the deciding rule is
    /// borrowed from `body`. For more than one URL, build a matcher.
    ///
    /// ```
    /// use robotsmatch::MatcherBuilder;
    ///
    /// let body = b"User-agent: *\nDisallow: /cart\nAllow: /cart/help$\n";
    /// let d = MatcherBuilder::new().decide_once(body, "Googlebot", "https://shop.example/cart/x");
    /// assert!(!d.is_allowed());
    /// assert_eq!(d.rule().map(|r| r.line()), Some(2));
    /// ```
    pub fn decide_once<'b>(
        &self,
        body: &'b [u8],
        agent: impl Into<Agent>,
        url: impl AsRef<[u8]>,
    ) -> Decision<'b> {
        let agent = agent.into();
        with_canonical_path(url.as_ref(), |path| {
            if self.profile.always_allows(path) {
                return Decision {
                    allowed: true,
                    rule: None,
                    engine: Engine::Direct,
                };
            }
            let (allowed, rule) =
                crate::scan::decide_once(body, &self.parse, &agent, &self.profile, path);
            Decision {
                allowed,
                rule,
                engine: Engine::Direct,
            }
        })
    }

    /// Wraps up a matcher from its selected rules and their compact form.
    fn finish(&self, agent: Agent, selection: Selection, patterns: PatternSet) -> Matcher {
        let threshold = if self.compile.wants_hot(&patterns) {
            build_threshold(&patterns)
        } else {
            u64::MAX
        };
        let m = Matcher {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            agent,
            profile: self.profile,
            selection,
            patterns,
            config: self.compile.clone(),
            hot: OnceLock::new(),
            work: AtomicU64::new(0),
            threshold,
            building: AtomicBool::new(false),
            reference: OnceLock::new(),
        };
        if threshold != u64::MAX && self.compile.hot_at_once() {
            m.build_hot();
        }
        m
    }
}

/// How much cold work (in the units of `PatternSet::fold`) a matcher does before it builds its hot
/// engine: about what building costs, so that the total is at most about twice the cheaper of
/// staying cold and building at once (the ski-rental rule).
fn build_threshold(set: &PatternSet) -> u64 {
    let n = set.len() as u64;
    let wild = set.wildcard_count() as u64;
    BUILD_UNITS_BASE + n * BUILD_UNITS_PER_PATTERN + wild * BUILD_UNITS_PER_WILDCARD
}

// PERF: measured with `cargo run --release -p robotsmatch-tools --bin engines` over the real
// corpus's distinct bodies: one cold work unit (a pattern checked) costs about 1.2 ns, and
// building the tree about 860 ns per pattern, that is about 720 units.
/// Build cost estimate: a fixed part, in cold work units.
const BUILD_UNITS_BASE: u64 = 4_000;
/// Build cost estimate per pattern, in cold work units.
const BUILD_UNITS_PER_PATTERN: u64 = 720;
/// Extra build cost estimate per wildcard pattern (its pieces), in cold work units.
const BUILD_UNITS_PER_WILDCARD: u64 = 500;

/// Decides whether a crawler may fetch URLs under one robots.txt file.
///
/// Immutable, `Send` and `Sync`: build it once and share it between threads. Building is cheap
/// (the cold tier); a matcher that decides many URLs builds its automaton once, on the thread
/// that crosses the threshold, while other threads go on deciding. A lazy-DFA automaton keeps
/// one cache per thread in an internal pool; hot loops can hold their own [`Cache`] and call
/// [`Matcher::decide_with`] instead.
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
    /// The rules that apply, their compact form (the cold tier), and what the hot engine is
    /// built from.
    patterns: PatternSet,
    config: CompileConfig,
    /// The hot engine, once built (boxed: a matcher that stays cold, as most do, keeps only
    /// the pointer's room).
    hot: OnceLock<Box<HotEngine>>,
    /// Cold work done so far (in the units of `PatternSet::fold`).
    work: AtomicU64,
    /// Cold work after which the hot engine is built (`u64::MAX`: never).
    threshold: u64,
    /// Set by the one thread that builds the hot engine.
    building: AtomicBool,
    reference: OnceLock<Box<Reference>>,
}

/// The hot engine and, when it is a lazy DFA, the pool of caches for [`Matcher::decide`].
struct HotEngine {
    hot: Hot,
    pool: Option<Pool<LazyCache, CacheMaker>>,
    /// `hot.engine()`, named once (every decision reports it).
    engine: Engine,
}

impl std::fmt::Debug for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matcher")
            .field("agent", &self.agent)
            .field("profile", &self.profile.name)
            .field("selection", &self.selection)
            .field("rules", &self.patterns.rule_count())
            .field("engine", &self.engine())
            .finish()
    }
}

/// A per-thread scratch space for [`Matcher::decide_with`]. A cache made by one matcher and
/// used with another is reset, never trusted.
#[derive(Clone, Debug)]
pub struct Cache {
    owner: u64,
    lazy: Option<LazyCache>,
    /// Cold work not yet added to the matcher's count.
    work: u64,
}

/// The verdict for one URL and the rule that decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision<'m> {
    allowed: bool,
    rule: Option<RuleRef<'m>>,
    engine: Engine,
}

impl<'m> Decision<'m> {
    /// True when the crawler may fetch the URL.
    pub fn is_allowed(&self) -> bool {
        self.allowed
    }

    /// The rule that decided, or `None` when no rule matched (or the path is `/robots.txt`).
    pub fn rule(&self) -> Option<RuleRef<'m>> {
        self.rule
    }

    /// The engine that decided this URL: [`Engine::Direct`] in the cold tier, the hot engine
    /// once it is built; [`Engine::Direct`] again when the lazy DFA gave up (its cache
    /// thrashed: see [`Engine::Lazy`]), [`Engine::Reference`] when the rules' automaton could
    /// not be built (or the reference was asked for).
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
    pub runner_up: Option<RuleRef<'m>>,
    /// True when the path is `/robots.txt`, which is always allowed.
    pub robots_txt: bool,
}

impl Matcher {
    /// Builds a matcher with the default profile ([`Profile::GOOGLE`]) and limits.
    pub fn new(robots: &Robots, agent: impl Into<Agent>) -> Matcher {
        MatcherBuilder::new().build(robots, agent)
    }

    /// Builds a matcher straight from the bytes of a robots.txt file, reading only the groups
    /// that apply to the crawler (see [`MatcherBuilder::build_from_bytes`]).
    pub fn from_bytes(body: &[u8], agent: impl Into<Agent>) -> Matcher {
        MatcherBuilder::new().build_from_bytes(body, agent)
    }

    /// Decides one URL while reading `body` once, without building a matcher (see
    /// [`MatcherBuilder::decide_once`]), with the default profile and limits.
    pub fn decide_once<'b>(
        body: &'b [u8],
        agent: impl Into<Agent>,
        url: impl AsRef<[u8]>,
    ) -> Decision<'b> {
        MatcherBuilder::new().decide_once(body, agent, url)
    }

    /// Decides a URL: an absolute URL (`https://host/path?query`) or a bare path (`/path`).
    /// The fragment is ignored. Does not allocate unless the path needs canonicalising.
    pub fn decide(&self, url: impl AsRef<[u8]>) -> Decision<'_> {
        with_canonical_path(url.as_ref(), |path| match self.hot.get() {
            Some(h) => match &h.pool {
                Some(pool) => {
                    let mut guard = pool.get();
                    self.decide_hot(h, path, Some(&mut guard))
                }
                None => self.decide_hot(h, path, None),
            },
            None => {
                let (d, units) = self.decide_cold(path);
                self.account(units);
                d
            }
        })
    }

    /// Like [`Matcher::decide`], with a cache the caller keeps (see [`Matcher::create_cache`]).
    pub fn decide_with(&self, cache: &mut Cache, url: impl AsRef<[u8]>) -> Decision<'_> {
        with_canonical_path(url.as_ref(), |path| self.decide_canonical_with(cache, path))
    }

    /// Like [`Matcher::decide_with`], for a URL whose host [`crate::url::ordinary_host`] has
    /// already found: `host_end` is the end of the range it returned, and the path is read from
    /// there (see [`crate::canon::with_canonical_path_after_host`]). The same decision as
    /// [`Matcher::decide_with`]; a bulk job that looked the host up saves reading the scheme
    /// and the authority again.
    ///
    /// ```
    /// use robotsmatch::url::ordinary_host;
    /// use robotsmatch::Matcher;
    ///
    /// let m = Matcher::from_bytes(b"User-agent: *\nDisallow: /private", "Googlebot");
    /// let mut cache = m.create_cache();
    /// let url = b"https://example.com/private/x";
    /// let (host, _port) = ordinary_host(url).unwrap();
    /// assert!(!m.decide_after_host_with(&mut cache, url, host.end).is_allowed());
    /// ```
    #[inline]
    pub fn decide_after_host_with(
        &self,
        cache: &mut Cache,
        url: &[u8],
        host_end: usize,
    ) -> Decision<'_> {
        crate::canon::with_canonical_path_after_host(url, host_end, |path| {
            self.decide_canonical_with(cache, path)
        })
    }

    /// Decides a path that is already canonical (from [`crate::canon::canonical_path`]): it
    /// starts with `/`, which rules such as `Allow: /` are taken to match without looking.
    pub fn decide_canonical_with(&self, cache: &mut Cache, path: &[u8]) -> Decision<'_> {
        if cache.owner != self.id {
            *cache = self.create_cache();
        }
        match self.hot.get() {
            Some(h) => {
                let lazy = match h.hot.lazy() {
                    Some(l) => Some(cache.lazy.get_or_insert_with(|| l.create_cache())),
                    None => None,
                };
                self.decide_hot(h, path, lazy)
            }
            None => {
                let (d, units) = self.decide_cold(path);
                if self.threshold != u64::MAX {
                    // PERF: count locally and publish in batches, so threads sharing a cold
                    // matcher do not fight over one counter on every URL.
                    cache.work += units;
                    if cache.work >= self.flush_units() {
                        self.account(std::mem::take(&mut cache.work));
                    }
                }
                d
            }
        }
    }

    /// True when the crawler may fetch `url`.
    pub fn is_allowed(&self, url: impl AsRef<[u8]>) -> bool {
        self.decide(url).is_allowed()
    }

    /// A cache for [`Matcher::decide_with`].
    pub fn create_cache(&self) -> Cache {
        Cache {
            owner: self.id,
            lazy: self
                .hot
                .get()
                .and_then(|h| h.hot.lazy())
                .map(|l| l.create_cache()),
            work: 0,
        }
    }

    /// The cold work a cache gathers before adding it to the matcher's count.
    #[inline]
    fn flush_units(&self) -> u64 {
        (self.threshold / 16).clamp(1, 1 << 16)
    }

    /// Adds cold work to the count, and builds the hot engine when it crosses the threshold
    /// (only the first thread to see that builds; the others go on deciding cold).
    #[inline]
    fn account(&self, units: u64) {
        if self.threshold == u64::MAX {
            return;
        }
        let done = self.work.fetch_add(units, Ordering::Relaxed) + units;
        if done >= self.threshold && !self.building.swap(true, Ordering::AcqRel) {
            self.build_hot();
        }
    }

    /// Builds the hot engine and publishes it.
    #[cold]
    fn build_hot(&self) {
        self.building.store(true, Ordering::Release);
        let hot = Hot::build(&self.patterns, self.profile.precedence, &self.config);
        let pool = hot
            .lazy()
            .map(|l| Pool::new(Box::new(l.cache_maker()) as CacheMaker));
        // Only this thread sets it (guarded by `building`).
        let engine = hot.engine();
        let _ = self.hot.set(Box::new(HotEngine { hot, pool, engine }));
    }

    /// The engine of the cold tier.
    fn cold_engine(&self) -> Engine {
        if self.patterns.len() == 0 {
            Engine::Trivial
        } else {
            Engine::Direct
        }
    }

    #[inline]
    fn robots_txt(&self, path: &[u8]) -> bool {
        self.profile.always_allows(path)
    }

    #[inline]
    /// Decides `path` in the cold tier; returns the decision and the work it took.
    fn decide_cold(&self, path: &[u8]) -> (Decision<'_>, u64) {
        if self.robots_txt(path) {
            let d = Decision {
                allowed: true,
                rule: None,
                engine: self.cold_engine(),
            };
            return (d, 16);
        }
        let mut best = self.patterns.always;
        let units = self.patterns.fold(path, &mut best);
        let (allowed, rule) = verdict(best, self.profile.precedence);
        let d = Decision {
            allowed,
            rule: rule.map(|i| self.patterns.rule(i)),
            engine: self.cold_engine(),
        };
        (d, units)
    }

    // PERF: always inlined: once the tree's search chose between two bucket scans, LLVM kept
    // this as a call of its own, and every workload's decisions took about a nanosecond more
    // (a-tiny 38.9 -> 40.0 ns per URL, `speed`, pinned, 5 alternations).
    #[inline(always)]
    fn decide_hot(
        &self,
        h: &HotEngine,
        path: &[u8],
        cache: Option<&mut LazyCache>,
    ) -> Decision<'_> {
        let engine = h.engine;
        if self.robots_txt(path) {
            return Decision {
                allowed: true,
                rule: None,
                engine,
            };
        }
        match h.hot.fold(path, cache) {
            Ok(best) => {
                let (allowed, rule) = verdict(best, self.profile.precedence);
                Decision {
                    allowed,
                    rule: rule.map(|i| self.patterns.rule(i)),
                    engine,
                }
            }
            // PERF: the lazy DFA gave up on this URL (its cache thrashed: building states cost
            // more than the bytes they served). The cold tier's direct scan decides it: on 64
            // rules made to multiply the DFA's states, 2.4 µs per 4 KB URL, where the lazy DFA
            // took 680 µs and the reference matcher's pass per pattern byte would take longer.
            Err(_) if engine != Engine::Reference => self.decide_cold(path).0,
            Err(_) => {
                let d = self.reference().decide(path);
                Decision {
                    allowed: d.allowed,
                    rule: d.rule.map(|i| self.patterns.rule(i)),
                    engine: Engine::Reference,
                }
            }
        }
    }

    /// The reference matcher over the same rules (built on first use).
    pub fn reference(&self) -> &Reference {
        self.reference.get_or_init(|| {
            Box::new(Reference::new(
                (0..self.patterns.rule_count()).map(|i| {
                    let r = self.patterns.rule(i);
                    (r.kind(), r.pattern())
                }),
                self.profile,
            ))
        })
    }

    /// Decides `url` and explains the decision (slower than [`Matcher::decide`]).
    pub fn explain(&self, url: impl AsRef<[u8]>) -> Explanation<'_> {
        let path = canonical_path(url.as_ref()).into_owned();
        let decision = self.decide(url);
        let robots_txt = self.robots_txt(&path);
        let runner_up = match decision.rule {
            Some(rule) if !robots_txt => {
                let other = match rule.kind() {
                    RuleKind::Allow => RuleKind::Disallow,
                    RuleKind::Disallow => RuleKind::Allow,
                };
                self.reference()
                    .longest(other, &path)
                    .map(|(i, _)| self.patterns.rule(i))
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

    /// The number of rules that apply.
    pub fn rule_count(&self) -> usize {
        self.patterns.rule_count()
    }

    /// Rule `i` of the rules that apply (in file order; `i < rule_count()`).
    pub fn rule(&self, i: usize) -> RuleRef<'_> {
        self.patterns.rule(i)
    }

    /// The rules that apply, in file order.
    pub fn rules(&self) -> impl ExactSizeIterator<Item = RuleRef<'_>> + '_ {
        (0..self.patterns.rule_count()).map(|i| self.patterns.rule(i))
    }

    /// The engine that decides now when nothing gives up: the hot engine once built, else the
    /// cold tier's ([`Engine::Direct`], or [`Engine::Trivial`] without patterns).
    pub fn engine(&self) -> Engine {
        match self.hot.get() {
            Some(h) => h.engine,
            None => self.cold_engine(),
        }
    }

    /// True once the hot engine is built.
    pub fn is_hot(&self) -> bool {
        self.hot.get().is_some()
    }

    /// Heap memory of the rules, their compact form and the hot engine if built, in bytes
    /// (not counting per-thread caches).
    pub fn memory_usage(&self) -> usize {
        self.patterns.memory_usage()
            + self.hot.get().map_or(0, |h| {
                std::mem::size_of::<HotEngine>() + h.hot.memory_usage()
            })
    }

    /// The number of patterns (rules that need matching, and the `/dir/$` patterns that
    /// `index.html` rules add), and how many contain a `*`.
    pub fn pattern_counts(&self) -> (usize, usize) {
        (self.patterns.len(), self.patterns.wildcard_count())
    }
}

impl Cache {
    /// Memory held by the cache, in bytes.
    pub fn memory_usage(&self) -> usize {
        self.lazy.as_ref().map_or(0, |c| c.memory_usage())
    }
}
