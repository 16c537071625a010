//! Compilation of one crawler's rules and the one-pass decision, in two tiers.
//!
//! Every rule becomes a pattern over the canonical path: `*` is any sequence of bytes, a final
//! `$` is the end of input, and otherwise the pattern matches a prefix. Each pattern carries a
//! 64-bit key `(priority << 32) | (u32::MAX - rule index)`; deciding a URL folds the keys of
//! the patterns that match into two running maxima, the longest Allow and the longest Disallow
//! (the first in file order among equals), and compares them. Under the first-match precedence
//! the priority part is zero, so the maximum is the first rule in file order.
//!
//! # Tiers
//!
//! - **Cold**: [`Matcher::new`](crate::Matcher::new) only canonicalises and simplifies the
//!   rules into a compact form ([`pattern`]) that decides on its own by checking the patterns
//!   one by one. It costs about as much as reading the rules.
//! - **Hot**: once a matcher has done enough work (see [`Tier`]) one of the engines below is
//!   built from the compact form, once, by the thread that crossed the threshold; threads
//!   deciding meanwhile go on with the cold tier, and later decisions use the hot engine.
//!
//! # Engines, one module each ([`Engine`] names the one that decided)
//!
//! | engine | module | serves |
//! |---|---|---|
//! | [`Engine::Trivial`] | — | no pattern needs matching (no rules, or only `*` / empty ones) |
//! | [`Engine::Direct`] | [`pattern`] | the cold tier; the only tier for at most 8 patterns; an input on which the lazy DFA gave up (its cache filled before serving 1,000 bytes per state), and every later one with that cache |
//! | [`Engine::Tree`] | [`tree`], [`columns`] | the hot tier for most files: a radix tree of the literal prefixes, and the pieces of wildcard patterns searched where the walk activates them |
//! | [`Engine::Dense`] | [`dfa`] | only when forced: ONE dense DFA of every pattern |
//! | [`Engine::Lazy`] | [`dfa`] | the hot tier for small files (at most 128 patterns) with 5 to 64 wildcard patterns: ONE lazy DFA of every pattern, one pass over the path |
//! | [`Engine::Split`] | [`literal`], [`exact`], [`dfa`], [`filtered`] | only when forced: literal prefixes in an anchored Aho-Corasick automaton, literal `$` patterns in a hash map, wildcards in a dense or lazy DFA (or, past 32, behind a literal prefilter) |
//! | [`Engine::Reference`] | [`crate::reference`] | rules whose automaton is over its size limit, or when forced |
//!
//! The regex-automata engines were the hot tier until the tree replaced them: on the real
//! corpus the tree builds 9x faster than the dense DFAs and 3x faster than the split layout and
//! decides as fast; they stay as forced choices, checked by the same tests.

pub(crate) mod columns;
pub(crate) mod dfa;
pub(crate) mod exact;
pub(crate) mod filtered;
pub(crate) mod literal;
pub(crate) mod pattern;
pub(crate) mod tree;

pub(crate) use dfa::LazyCache;
use dfa::{build_dense, build_lazy, build_nfa, Dense, Lazy, DENSE_MAX_NFA_STATES};
use exact::Exact;
use filtered::Filtered;
use literal::Literal;
pub(crate) use pattern::PatternSet;
use pattern::Simple;
use tree::Tree;

/// Which engine decided, or will decide, a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// No pattern needs matching (no rules, or only rules that match every path or none).
    Trivial,
    /// The cold tier: the patterns checked one by one from their compact form (no automaton).
    /// For at most 8 patterns it is the only tier. It also decides where the lazy DFA gave up
    /// (its cache thrashed).
    Direct,
    /// A fully built dense DFA of every pattern.
    Dense,
    /// The lazy DFA of every pattern (states built on demand into a per-thread cache). It gives
    /// up when its cache fills before it has walked 1,000 bytes per state it holds, and then
    /// leaves that URL and every later one with that cache to [`Engine::Direct`].
    Lazy,
    /// A radix tree of the literal prefixes, walked once; the pieces of wildcard patterns
    /// searched where the walk activates them, while they can still change the verdict.
    Tree,
    /// Literal prefixes in an anchored Aho-Corasick automaton, literal `$` patterns in a hash
    /// map, and the wildcard patterns (if any) in a dense or lazy DFA or behind a prefilter.
    Split,
    /// The reference matcher (the rules' automaton could not be built, or it was asked for).
    Reference,
}

impl Engine {
    /// A short lower-case name: `trivial`, `direct`, `dense`, `lazy`, `tree`, `split`, `reference`.
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Trivial => "trivial",
            Engine::Direct => "direct",
            Engine::Dense => "dense",
            Engine::Lazy => "lazy",
            Engine::Tree => "tree",
            Engine::Split => "split",
            Engine::Reference => "reference",
        }
    }
}

/// Which engine the builder should use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EngineChoice {
    /// The direct (cold) engine for at most 8 patterns; beyond, under the [`Tier`] chosen, the
    /// radix tree, or the lazy DFA for small files with 5 to 64 wildcard patterns.
    #[default]
    Auto,
    /// Always the lazy DFA, over every pattern (built at once).
    Lazy,
    /// Always the split layout (built at once).
    Split,
    /// Always the radix tree (built at once).
    Tree,
    /// Always the direct engine: the cold tier, never anything else.
    Direct,
    /// A dense DFA when it builds within the dense budget (whatever the wildcard count), else
    /// the lazy DFA (built at once).
    Dense,
    /// Only the reference matcher (for testing and comparison).
    Reference,
}

/// When the hot engine is built (only matters for [`EngineChoice::Auto`]; a forced engine is
/// built at once, and [`EngineChoice::Direct`] never builds one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Tier {
    /// Start cold; build the hot engine once the cold tier has spent about as much work as
    /// building it would cost (counted in patterns checked, so the total is at most about
    /// twice the cheaper of the two ways).
    #[default]
    Auto,
    /// Never build: the cold tier decides every URL.
    Cold,
    /// Build the hot engine at once (the one [`EngineChoice::Auto`] picks for the rules,
    /// even for files so small that the cold tier would never leave).
    Hot,
}

/// Limits and choices for compilation. See the `MatcherBuilder` methods that set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CompileConfig {
    pub(crate) engine: EngineChoice,
    pub(crate) tier: Tier,
    pub(crate) nfa_size_limit: usize,
    pub(crate) dense_size_limit: usize,
    pub(crate) dense_max_wildcards: usize,
    pub(crate) cache_capacity: usize,
    pub(crate) lazy_max_wildcards: usize,
    /// When the lazy DFA gives up (see `dfa::build_lazy`): at a cache clear once it has been
    /// cleared this often, if it walked fewer bytes than this per state it holds.
    pub(crate) lazy_min_clears: usize,
    pub(crate) lazy_min_bytes_per_state: usize,
}

impl Default for CompileConfig {
    fn default() -> CompileConfig {
        CompileConfig {
            engine: EngineChoice::Auto,
            tier: Tier::Auto,
            nfa_size_limit: 32 << 20,
            dense_size_limit: 1 << 20,
            dense_max_wildcards: 4,
            cache_capacity: 2 << 20,
            lazy_max_wildcards: 32,
            lazy_min_clears: 0,
            lazy_min_bytes_per_state: 1000,
        }
    }
}

/// Under [`EngineChoice::Auto`], this many patterns or fewer never leave the cold tier.
// PERF: measured on the 4-rule workload, building a dense DFA takes about 30 µs while the
// direct checks of 3 patterns take well under 100 ns per URL; the median real file has 4 rules.
pub(crate) const DIRECT_MAX_PATTERNS: usize = 8;

impl CompileConfig {
    /// True when matchers of `set` should build a hot engine at some point.
    pub(crate) fn wants_hot(&self, set: &PatternSet) -> bool {
        match self.engine {
            EngineChoice::Direct => false,
            EngineChoice::Auto => match self.tier {
                Tier::Auto => set.len() > DIRECT_MAX_PATTERNS,
                Tier::Cold => false,
                Tier::Hot => true,
            },
            _ => true,
        }
    }

    /// True when the hot engine is built with the matcher rather than on demand.
    pub(crate) fn hot_at_once(&self) -> bool {
        self.engine != EngineChoice::Auto || self.tier == Tier::Hot
    }
}

/// True when the automatic choice builds the lazy DFA rather than the tree: 5 to 64 wildcard
/// patterns among at most 128. Fewer wildcards are cheap for the tree; more, or many literal
/// patterns, make the lazy DFA's cache thrash (measured on the corpus: about 120 µs per path
/// for the files outside this class, against 68 to 177 ns for the tree).
// PERF: www.reddit.com (64 patterns, 34 with `*`, a quarter of the benchmark log's URLs):
// 131 ns per real URL with the lazy DFA, 274 ns with the tree.
fn prefers_lazy(set: &PatternSet) -> bool {
    (5..=64).contains(&set.wildcard_count()) && set.len() <= 128
}

/// The automatic choice builds the lazy DFA only for an NFA of at most this many states.
const LAZY_MAX_NFA_STATES: usize = 4000;

/// Why an engine could not finish (the caller falls back to the reference matcher).
#[derive(Debug)]
pub(crate) struct GaveUp;

/// The regex automaton part of a hot engine.
#[derive(Debug)]
enum Automaton {
    None,
    /// Wildcard patterns behind a literal prefilter.
    Filtered(Box<Filtered>),
    /// The radix tree of every pattern.
    Tree(Box<Tree>),
    Dense(Dense),
    Lazy(Lazy),
    /// The automaton could not be built within its limits.
    Failed,
}

/// A hot engine, built from the compact form.
///
/// Two layouts:
/// - single: every pattern in one regex automaton (`automaton`), used when a dense DFA of all
///   patterns fits the dense budget (the fastest per URL), or when the lazy engine is forced;
/// - split: literal prefixes in an anchored Aho-Corasick automaton, literal `$` patterns in a
///   hash map of exact paths, and only the wildcard patterns in the regex automaton.
#[derive(Debug)]
pub(crate) struct Hot {
    /// Per kind: the best key among rules that match every path (0 = none).
    always: [u64; 2],
    /// Split layout: literal prefixes.
    literal: Option<Literal>,
    /// Split layout: literal patterns ending in `$`, by exact canonical path.
    exact: Exact,
    /// The regex automaton over the remaining patterns (all of them in the single layout).
    automaton: Automaton,
    /// Per regex pattern id: the key and the kind index.
    entries: Vec<(u64, u8)>,
}

impl Hot {
    /// Builds the hot engine of `set` as `config` says.
    pub(crate) fn build(
        set: &PatternSet,
        set_precedence: crate::profile::Precedence,
        config: &CompileConfig,
    ) -> Hot {
        let mut hot = Hot {
            always: set.always,
            literal: None,
            exact: Exact::default(),
            automaton: Automaton::None,
            entries: Vec::new(),
        };
        if set.len() == 0 {
            return hot;
        }
        let mut built_tree = None;
        if config.engine == EngineChoice::Auto && prefers_lazy(set) {
            // PERF: unless the tree searches its pieces with one bucket scan of a few sets:
            // then it is faster still (b-shop: 109 ns per URL, against 124 for the lazy DFA;
            // over the corpus's files of this kind, `engines`: 81 ns per path for the tree, 262
            // for the lazy DFA, whose cache each file's few paths never warm). With more sets,
            // the lazy DFA is faster on a file's many URLs (www.reddit.com's 34 pieces: 138 ns
            // per real URL for the tree, 86 for the lazy DFA). A tree without one is kept in
            // case the lazy DFA cannot be built.
            if crate::bytescan::has_bucket_features() {
                let tree = Tree::build(set, set_precedence, config.dense_size_limit);
                if tree.has_few_buckets() {
                    hot.automaton = Automaton::Tree(Box::new(tree));
                    return hot;
                }
                built_tree = Some(tree);
            }
            // PERF: a small file whose wildcard patterns all apply from the start of the path
            // (www.reddit.com: `/*.json`, `/*.rss`, `/r/*/comments/*/*/*/*`, ...) is decided
            // fastest by one pass of a lazy DFA over every pattern (measured: 133 ns per real
            // reddit URL, against 325 ns for the tree; 85 against 90 ns per path over the
            // corpus's files of this kind).
            let (simples, entries) = set.simples();
            if let Some(lazy) = build_nfa(&simples, config)
                .filter(|nfa| nfa.states().len() <= LAZY_MAX_NFA_STATES)
                .and_then(|nfa| build_lazy(nfa, config))
            {
                hot.automaton = Automaton::Lazy(lazy);
                hot.entries = entries;
                return hot;
            }
        }
        if let EngineChoice::Auto | EngineChoice::Tree = config.engine {
            // PERF: measured on the real corpus (`tools ... engines`): the tree builds 9x
            // faster than the dense DFAs the automatic choice used to build and 3x faster than
            // the split layout, and decides as fast or faster (59 to 104 ns per path, URL
            // handling included, for files with up to 32 wildcard patterns).
            let tree = built_tree
                .unwrap_or_else(|| Tree::build(set, set_precedence, config.dense_size_limit));
            hot.automaton = Automaton::Tree(Box::new(tree));
            return hot;
        }
        let (simples, entries) = set.simples();
        let single = match config.engine {
            EngineChoice::Reference => Some(Automaton::Failed),
            EngineChoice::Lazy => Some(
                build_nfa(&simples, config)
                    .and_then(|nfa| build_lazy(nfa, config))
                    .map_or(Automaton::Failed, Automaton::Lazy),
            ),
            EngineChoice::Dense => Some(build_nfa(&simples, config).map_or(
                Automaton::Failed,
                |nfa| match build_dense(&nfa, config) {
                    Some(d) => Automaton::Dense(d),
                    None => build_lazy(nfa, config).map_or(Automaton::Failed, Automaton::Lazy),
                },
            )),
            EngineChoice::Split
            | EngineChoice::Direct
            | EngineChoice::Auto
            | EngineChoice::Tree => None,
        };
        if let Some(automaton) = single {
            hot.automaton = automaton;
            hot.entries = entries;
            return hot;
        }
        hot.build_split(simples, entries, config);
        hot
    }

    /// The split layout: literal prefixes, exact paths, and the wildcard patterns.
    fn build_split(
        &mut self,
        simples: Vec<Simple>,
        entries: Vec<(u64, u8)>,
        config: &CompileConfig,
    ) {
        let mut literals: Vec<Vec<u8>> = Vec::new();
        let mut literal_entries = Vec::new();
        let mut rest: Vec<Simple> = Vec::new();
        for (simple, entry) in simples.into_iter().zip(entries) {
            match (simple.wildcards(), simple.anchored) {
                (0, false) => {
                    literal_entries.push(entry);
                    literals.push(simple.pieces.into_iter().next().unwrap_or_default());
                }
                (0, true) => {
                    let path = simple.pieces.into_iter().next().unwrap_or_default();
                    self.exact.insert(path, entry.0, entry.1 as usize);
                }
                _ => {
                    rest.push(simple);
                    self.entries.push(entry);
                }
            }
        }
        if !literals.is_empty() {
            match Literal::build(&literals, literal_entries, config.dense_size_limit) {
                Some(l) => self.literal = Some(l),
                None => {
                    self.automaton = Automaton::Failed;
                    return;
                }
            }
        }
        if rest.len() > config.lazy_max_wildcards {
            // PERF: hundreds of patterns with `*` make even the lazy DFA thrash (each state is
            // a set of live positions in every pattern): measured 28 µs per URL on a real
            // 384-wildcard file. A literal prefilter finds the few patterns that can match.
            let entries = std::mem::take(&mut self.entries);
            self.automaton = Automaton::Filtered(Box::new(Filtered::new(rest, entries)));
        } else if !rest.is_empty() {
            let wild = rest.len();
            self.automaton = match build_nfa(&rest, config) {
                None => Automaton::Failed,
                Some(nfa) => {
                    let dense = (wild <= config.dense_max_wildcards
                        && nfa.states().len() <= DENSE_MAX_NFA_STATES)
                        .then(|| build_dense(&nfa, config))
                        .flatten();
                    match dense {
                        Some(d) => Automaton::Dense(d),
                        None => build_lazy(nfa, config).map_or(Automaton::Failed, Automaton::Lazy),
                    }
                }
            };
        }
    }

    /// The engine used for inputs on which nothing gives up.
    pub(crate) fn engine(&self) -> Engine {
        let split = self.literal.is_some() || !self.exact.is_empty();
        match (&self.automaton, split) {
            (Automaton::Failed, _) => Engine::Reference,
            (_, true) | (Automaton::Filtered(_), _) => Engine::Split,
            (Automaton::None, false) => Engine::Trivial,
            (Automaton::Dense(_), false) => Engine::Dense,
            (Automaton::Lazy(_), false) => Engine::Lazy,
            (Automaton::Tree(_), false) => Engine::Tree,
        }
    }

    /// Heap memory of the automata and tables (not of per-thread lazy DFA caches).
    pub(crate) fn memory_usage(&self) -> usize {
        self.literal.as_ref().map_or(0, Literal::memory_usage)
            + self.exact.memory_usage()
            + self.entries.len() * std::mem::size_of::<(u64, u8)>()
            + match &self.automaton {
                Automaton::Dense(d) => d.memory_usage(),
                Automaton::Lazy(l) => l.memory_usage(),
                Automaton::Filtered(f) => f.memory_usage(),
                Automaton::Tree(t) => t.memory_usage(),
                Automaton::None | Automaton::Failed => 0,
            }
    }

    /// The lazy DFA, when deciding needs a per-thread cache.
    #[inline]
    pub(crate) fn lazy(&self) -> Option<&Lazy> {
        match &self.automaton {
            Automaton::Lazy(l) => Some(l),
            _ => None,
        }
    }

    /// Walks `path` and returns the best key per kind (0 = no match of that kind). `cache`
    /// must come from this engine's lazy DFA when it has one.
    #[inline]
    pub(crate) fn fold(
        &self,
        path: &[u8],
        cache: Option<&mut LazyCache>,
    ) -> Result<[u64; 2], GaveUp> {
        let mut best = self.always;
        if let Some(lit) = &self.literal {
            lit.fold(path, &mut best);
        }
        self.exact.fold(path, &mut best);
        match &self.automaton {
            Automaton::None => {}
            Automaton::Filtered(f) => f.fold(path, &mut best),
            Automaton::Tree(t) => t.fold(path, &mut best),
            Automaton::Dense(d) => d.fold(&self.entries, path, &mut best),
            Automaton::Lazy(l) => {
                let cache = cache.ok_or(GaveUp)?;
                l.fold(cache, &self.entries, path, &mut best)
                    .map_err(|_| GaveUp)?;
            }
            Automaton::Failed => return Err(GaveUp),
        }
        Ok(best)
    }
}
