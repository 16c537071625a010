//! Compilation of one crawler's rules into one automaton, and the one-pass decision over it.
//!
//! Every rule becomes an anchored pattern over bytes: `*` is any sequence of bytes, a final `$`
//! is the end of input, and otherwise the pattern matches a prefix of the path. All patterns
//! build ONE regex-automata automaton with `MatchKind::All`, so a single walk over the path
//! reports every rule that matches a prefix of it. Each pattern id maps to a precomputed
//! 64-bit key `(priority << 32) | (u32::MAX - rule index)` and the walk keeps the maximum key
//! per kind: the longest Allow and the longest Disallow, the first in file order among equals.
//! Under the first-match profile the priority part is zero, so the maximum is the first rule in
//! file order.
//!
//! Engines (see [`Engine`]):
//! - a fully built dense DFA when the rules are cheap to determinise (few wildcards) and it fits
//!   a small size budget: no per-thread state at all;
//! - otherwise the lazy DFA (`regex_automata::hybrid`), whose states are built on demand into a
//!   per-thread cache. Real files defeat a fully built DFA: several `*` per rule multiply states.
//! - If the lazy DFA gives up on an input (its cache thrashes), that input is decided by the
//!   reference matcher; if the automaton cannot be built within its size limit at all, every
//!   input is. Either way the answer is right and [`Engine::Reference`] says so.

use regex_automata::{
    dfa::{dense, Automaton, StartKind},
    hybrid,
    nfa::thompson::{self, WhichCaptures, NFA},
    util::{primitives::StateID, start, syntax::Config as SyntaxConfig},
    Anchored, MatchKind,
};
use std::collections::HashMap;

use regex_syntax::hir::{Dot, Hir, Look, Repetition};

use crate::canon::canonicalize;
use crate::parse::{Rule, RuleKind};
use crate::profile::{Precedence, Profile};

/// Which engine decided, or will decide, a URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// No pattern needs an automaton (no rules, or only rules that match every path).
    Trivial,
    /// A handful of patterns matched one by one (no automaton: building one would cost more
    /// than it saves).
    Direct,
    /// A fully built dense DFA.
    Dense,
    /// The lazy DFA (states built on demand into a per-thread cache).
    Lazy,
    /// Literal prefixes in an anchored Aho-Corasick automaton, literal `$` patterns in a hash
    /// map, and the wildcard patterns (if any) in a dense or lazy DFA.
    Split,
    /// The reference matcher (the lazy DFA gave up on this URL, or could not be built).
    Reference,
}

impl Engine {
    /// A short lower-case name: `trivial`, `direct`, `dense`, `lazy`, `split`, `reference`.
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Trivial => "trivial",
            Engine::Direct => "direct",
            Engine::Dense => "dense",
            Engine::Lazy => "lazy",
            Engine::Split => "split",
            Engine::Reference => "reference",
        }
    }
}

/// Which engine the builder should use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EngineChoice {
    /// The direct matcher for at most 8 patterns; else, when some (at most
    /// `dense_max_wildcards`) patterns have a `*`, one dense DFA of every pattern if it builds
    /// within the dense budget; else the split layout.
    #[default]
    Auto,
    /// Always the lazy DFA, over every pattern.
    Lazy,
    /// Always the split layout (literal automaton + exact map + a DFA for wildcards).
    Split,
    /// Always the direct matcher (every pattern checked one by one).
    Direct,
    /// A dense DFA when it builds within the dense budget (whatever the wildcard count), else
    /// the lazy DFA.
    Dense,
    /// Only the reference matcher (for testing and comparison).
    Reference,
}

/// Limits and choices for compilation. See the `MatcherBuilder` methods that set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CompileConfig {
    pub(crate) engine: EngineChoice,
    pub(crate) nfa_size_limit: usize,
    pub(crate) dense_size_limit: usize,
    pub(crate) dense_max_wildcards: usize,
    pub(crate) cache_capacity: usize,
    pub(crate) lazy_max_wildcards: usize,
}

impl Default for CompileConfig {
    fn default() -> CompileConfig {
        CompileConfig {
            engine: EngineChoice::Auto,
            nfa_size_limit: 32 << 20,
            dense_size_limit: 1 << 20,
            dense_max_wildcards: 4,
            cache_capacity: 2 << 20,
            lazy_max_wildcards: 32,
        }
    }
}

/// Kind index into the per-kind maxima.
const ALLOW: usize = 0;
const DISALLOW: usize = 1;

fn kind_index(kind: RuleKind) -> usize {
    match kind {
        RuleKind::Allow => ALLOW,
        RuleKind::Disallow => DISALLOW,
    }
}

/// The packed key of a match: higher is better within a kind.
#[inline]
fn key(priority: usize, rule: usize, precedence: Precedence) -> u64 {
    let p = match precedence {
        Precedence::LongestMatch => priority.min(u32::MAX as usize) as u64,
        Precedence::FirstMatch => 0,
    };
    (p << 32) | u64::from(u32::MAX - rule as u32)
}

/// The priority part of a key.
#[inline]
pub(crate) fn key_priority(key: u64) -> u64 {
    key >> 32
}

/// The rule index of a (non-zero) key.
#[inline]
pub(crate) fn key_rule(key: u64) -> usize {
    (u32::MAX - key as u32) as usize
}

/// One simplified pattern ready for the automaton.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Simple {
    /// Literal pieces between wildcards (the first may be empty if the pattern starts with `*`).
    pieces: Vec<Vec<u8>>,
    /// Ends with `$`: must match the whole path.
    anchored: bool,
}

impl Simple {
    fn wildcards(&self) -> usize {
        self.pieces.len() - 1
    }

    fn to_hir(&self) -> Hir {
        let any = Hir::repetition(Repetition {
            min: 0,
            max: None,
            greedy: true,
            sub: Box::new(Hir::dot(Dot::AnyByte)),
        });
        let mut parts = Vec::with_capacity(self.pieces.len() * 2 + 1);
        for (i, piece) in self.pieces.iter().enumerate() {
            if i > 0 {
                parts.push(any.clone());
            }
            if !piece.is_empty() {
                parts.push(Hir::literal(piece.clone()));
            }
        }
        if self.anchored {
            parts.push(Hir::look(Look::End));
        }
        Hir::concat(parts)
    }
}

/// What a canonical pattern simplifies to.
enum Simplified {
    /// Matches nothing (empty pattern; or `$` alone: paths are never empty).
    Never,
    /// Matches every path (`*`, `*$`, ...).
    Always,
    /// Needs the automaton.
    Pattern(Simple),
}

/// Simplifies a canonical pattern: `**` is `*`; a trailing `*` on an unanchored pattern is
/// dropped; `*$` at the end is the same as no anchor. Without wildcards, `*` and `$` are
/// literal.
fn simplify(canonical: &[u8], profile: &Profile) -> Simplified {
    if canonical.is_empty() {
        return Simplified::Never;
    }
    let (mut body, mut anchored) = match canonical.split_last() {
        Some((b'$', rest)) if profile.end_anchor => (rest, true),
        _ => (canonical, false),
    };
    if !profile.wildcards {
        return if body.is_empty() {
            Simplified::Never
        } else {
            Simplified::Pattern(Simple {
                pieces: vec![body.to_vec()],
                anchored,
            })
        };
    }
    // A trailing `*` matches any rest, so it adds nothing to a prefix match, and `*$` is
    // equally satisfied by any rest.
    while let Some((b'*', rest)) = body.split_last() {
        body = rest;
        anchored = false;
    }
    if body.is_empty() {
        return if anchored {
            Simplified::Never
        } else {
            Simplified::Always
        };
    }
    let pieces: Vec<Vec<u8>> = body
        .split(|&b| b == b'*')
        .enumerate()
        .filter(|(i, p)| *i == 0 || !p.is_empty())
        .map(|(_, p)| p.to_vec())
        .collect();
    Simplified::Pattern(Simple { pieces, anchored })
}

/// The compiled form of one crawler's rules.
///
/// Two layouts:
/// - single: every pattern in one regex automaton (`automaton`), used when a dense DFA of all
///   patterns fits the dense budget (the fastest per URL), or when the lazy engine is forced;
/// - split: literal prefixes in an anchored Aho-Corasick automaton (`literal`, a contiguous
///   NFA: compact, and no per-thread state), literal `$` patterns in a hash map of exact paths
///   (`exact`), and only the wildcard patterns in the regex automaton.
#[derive(Debug)]
pub(crate) struct Compiled {
    /// Per kind: the best key among rules that match every path (0 = none).
    always: [u64; 2],
    /// Split layout: literal prefixes.
    literal: Option<Literal>,
    /// Split layout: literal patterns ending in `$`, by exact canonical path.
    exact: HashMap<Box<[u8]>, [u64; 2], foldhash::fast::FixedState>,
    /// Bit `n` is set when some exact path has length `n` (bit 63: length 63 or more), so most
    /// paths skip the hash lookup.
    exact_lengths: u64,
    /// The regex automaton over the remaining patterns (all of them in the single layout).
    automaton: Automaton_,
    /// Per regex pattern id: the key and the kind index.
    entries: Vec<(u64, u8)>,
    precedence: Precedence,
    pattern_count: usize,
    wildcard_count: usize,
}

/// Literal prefix patterns in an anchored Aho-Corasick automaton.
#[derive(Debug)]
struct Literal {
    automaton: LiteralAutomaton,
    entries: Vec<(u64, u8)>,
}

/// A DFA when it fits the dense budget (one table lookup per byte), else a compact NFA.
#[derive(Debug)]
enum LiteralAutomaton {
    Dfa(aho_corasick::dfa::DFA),
    Nfa(aho_corasick::nfa::contiguous::NFA),
}

/// The regex automaton behind [`Compiled`].
#[derive(Debug)]
enum Automaton_ {
    None,
    /// Patterns checked one by one.
    Direct(Vec<DirectPattern>),
    /// Wildcard patterns behind a literal prefilter.
    Filtered(Box<Filtered>),
    Dense {
        dfa: dense::DFA<Vec<u32>>,
        start: StateID,
    },
    Lazy {
        dfa: hybrid::dfa::DFA,
        nfa_memory: usize,
    },
    /// The automaton could not be built within its limits.
    Failed,
}

/// Why the lazy DFA could not finish (the caller falls back to the reference matcher).
#[derive(Debug)]
pub(crate) struct GaveUp;

impl Compiled {
    /// Compiles `rules` (one crawler's, in file order) for `profile`.
    pub(crate) fn new(rules: &[Rule], profile: &Profile, config: &CompileConfig) -> Compiled {
        let mut always = [0u64; 2];
        // Deduplicated patterns: identical compiled patterns of the same kind keep the best key.
        let mut index: HashMap<(u8, Simple), usize> = HashMap::new();
        let mut simples: Vec<Simple> = Vec::new();
        let mut entries: Vec<(u64, u8)> = Vec::new();
        let mut add = |kind: usize, simplified: Simplified, k: u64| match simplified {
            Simplified::Never => {}
            Simplified::Always => always[kind] = always[kind].max(k),
            Simplified::Pattern(s) => {
                let slot = (kind as u8, s);
                match index.get(&slot) {
                    Some(&id) => entries[id].0 = entries[id].0.max(k),
                    None => {
                        index.insert(slot.clone(), entries.len());
                        simples.push(slot.1);
                        entries.push((k, kind as u8));
                    }
                }
            }
        };
        for (i, rule) in rules.iter().enumerate() {
            let canonical = canonicalize(rule.pattern());
            let kind = kind_index(rule.kind());
            let priority = canonical.len();
            add(
                kind,
                simplify(&canonical, profile),
                key(priority, i, profile.precedence),
            );
            if profile.index_html && rule.kind() == RuleKind::Allow {
                if let Some(slash) = canonical.iter().rposition(|&b| b == b'/') {
                    if canonical[slash..].starts_with(b"/index.htm") {
                        let mut derived = canonical[..=slash].to_vec();
                        derived.push(b'$');
                        let s = simplify(&derived, &Profile::GOOGLE);
                        add(kind, s, key(derived.len(), i, profile.precedence));
                    }
                }
            }
        }
        let wildcard_count = simples.iter().filter(|s| s.wildcards() > 0).count();
        let mut compiled = Compiled {
            always,
            literal: None,
            exact: HashMap::default(),
            exact_lengths: 0,
            automaton: Automaton_::None,
            entries: Vec::new(),
            precedence: profile.precedence,
            pattern_count: simples.len(),
            wildcard_count,
        };
        if simples.is_empty() {
            return compiled;
        }
        let direct = match config.engine {
            EngineChoice::Direct => true,
            EngineChoice::Auto => simples.len() <= DIRECT_MAX_PATTERNS,
            _ => false,
        };
        if direct {
            compiled.automaton = Automaton_::Direct(
                simples
                    .into_iter()
                    .zip(entries)
                    .map(|(s, e)| DirectPattern::new(s, e))
                    .collect(),
            );
            return compiled;
        }
        let single = match config.engine {
            EngineChoice::Reference => {
                compiled.automaton = Automaton_::Failed;
                return compiled;
            }
            EngineChoice::Lazy => Some(
                build_nfa(&simples, config)
                    .map_or(Automaton_::Failed, |nfa| build_lazy(nfa, config)),
            ),
            EngineChoice::Dense => Some(
                build_nfa(&simples, config).map_or(Automaton_::Failed, |nfa| {
                    build_dense(&nfa, config).unwrap_or_else(|| build_lazy(nfa, config))
                }),
            ),
            EngineChoice::Split | EngineChoice::Direct => None,
            EngineChoice::Auto => {
                // PERF: literal-only rule sets go to the split layout, whose Aho-Corasick DFA
                // builds far faster than a regex dense DFA and walks as fast (measured: 10
                // literal rules, 111 µs to build dense).
                if wildcard_count > 0 && wildcard_count <= config.dense_max_wildcards {
                    build_nfa(&simples, config)
                        .filter(|nfa| nfa.states().len() <= DENSE_MAX_NFA_STATES)
                        .and_then(|nfa| build_dense(&nfa, config))
                } else {
                    None
                }
            }
        };
        if let Some(automaton) = single {
            compiled.automaton = automaton;
            compiled.entries = entries;
            return compiled;
        }
        // The split layout.
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
                    compiled.exact_lengths |= 1 << path.len().min(63);
                    let slot = compiled.exact.entry(path.into_boxed_slice()).or_default();
                    let kind = entry.1 as usize;
                    slot[kind] = slot[kind].max(entry.0);
                }
                _ => {
                    rest.push(simple);
                    compiled.entries.push(entry);
                }
            }
        }
        if !literals.is_empty() {
            compiled.literal =
                match build_literal(&literals, literal_entries, config.dense_size_limit) {
                    Some(l) => Some(l),
                    None => {
                        compiled.automaton = Automaton_::Failed;
                        return compiled;
                    }
                };
        }
        if rest.len() > config.lazy_max_wildcards {
            // PERF: hundreds of patterns with `*` make even the lazy DFA thrash (each state is
            // a set of live positions in every pattern): measured 28 µs per URL on a real
            // 384-wildcard file. A literal prefilter finds the few patterns that can match.
            let entries = std::mem::take(&mut compiled.entries);
            compiled.automaton = Automaton_::Filtered(Box::new(Filtered::new(rest, entries)));
        } else if !rest.is_empty() {
            let wild = rest.len();
            compiled.automaton = build_nfa(&rest, config).map_or(Automaton_::Failed, |nfa| {
                let dense = (wild <= config.dense_max_wildcards
                    && nfa.states().len() <= DENSE_MAX_NFA_STATES)
                    .then(|| build_dense(&nfa, config))
                    .flatten();
                dense.unwrap_or_else(|| build_lazy(nfa, config))
            });
        }
        compiled
    }

    /// The engine used for inputs on which nothing gives up.
    pub(crate) fn engine(&self) -> Engine {
        match (&self.automaton, self.is_split()) {
            (Automaton_::Failed, _) => Engine::Reference,
            (_, true) => Engine::Split,
            (Automaton_::None, false) => Engine::Trivial,
            (Automaton_::Direct(_), false) => Engine::Direct,
            (Automaton_::Filtered(_), false) => Engine::Split,
            (Automaton_::Dense { .. }, false) => Engine::Dense,
            (Automaton_::Lazy { .. }, false) => Engine::Lazy,
        }
    }

    fn is_split(&self) -> bool {
        self.literal.is_some() || !self.exact.is_empty()
    }

    /// Heap memory of the automata and tables (not of per-thread lazy DFA caches).
    pub(crate) fn memory_usage(&self) -> usize {
        let entry = std::mem::size_of::<(u64, u8)>();
        let literal = self.literal.as_ref().map_or(0, Literal::memory_usage);
        let exact: usize = self.exact.keys().map(|k| k.len() + 48).sum();
        literal
            + exact
            + self.entries.len() * entry
            + match &self.automaton {
                Automaton_::Dense { dfa, .. } => dfa.memory_usage(),
                Automaton_::Lazy { dfa, nfa_memory } => dfa.memory_usage() + nfa_memory,
                Automaton_::Direct(ps) => ps.iter().map(DirectPattern::memory_usage).sum(),
                Automaton_::Filtered(f) => f.memory_usage(),
                _ => 0,
            }
    }

    /// The number of distinct compiled patterns, and how many have a wildcard.
    pub(crate) fn pattern_counts(&self) -> (usize, usize) {
        (self.pattern_count, self.wildcard_count)
    }

    /// True when deciding needs a lazy DFA cache.
    #[inline]
    pub(crate) fn needs_cache(&self) -> bool {
        matches!(self.automaton, Automaton_::Lazy { .. })
    }

    /// A function that makes lazy DFA caches (returning `None` when no cache is needed), for
    /// a pool shared between threads.
    pub(crate) fn cache_maker(
        &self,
    ) -> Box<
        dyn Fn() -> Option<hybrid::dfa::Cache>
            + Send
            + Sync
            + std::panic::RefUnwindSafe
            + std::panic::UnwindSafe,
    > {
        match &self.automaton {
            Automaton_::Lazy { dfa, .. } => {
                let dfa = dfa.clone();
                Box::new(move || Some(dfa.create_cache()))
            }
            _ => Box::new(|| None),
        }
    }

    /// Creates a lazy DFA cache, if the engine needs one.
    pub(crate) fn create_cache(&self) -> Option<hybrid::dfa::Cache> {
        match &self.automaton {
            Automaton_::Lazy { dfa, .. } => Some(dfa.create_cache()),
            _ => None,
        }
    }

    /// Walks `path` and returns the best key per kind (0 = no match of that kind).
    /// `cache` must come from [`Compiled::create_cache`] of this value when the engine is lazy.
    #[inline]
    pub(crate) fn fold(
        &self,
        path: &[u8],
        cache: Option<&mut hybrid::dfa::Cache>,
    ) -> Result<[u64; 2], GaveUp> {
        let mut best = self.always;
        if let Some(lit) = &self.literal {
            lit.fold(path, &mut best);
        }
        if self.exact_lengths & (1 << path.len().min(63)) != 0 {
            if let Some(keys) = self.exact.get(path) {
                best[ALLOW] = best[ALLOW].max(keys[ALLOW]);
                best[DISALLOW] = best[DISALLOW].max(keys[DISALLOW]);
            }
        }
        match &self.automaton {
            Automaton_::None => {}
            Automaton_::Direct(patterns) => {
                for p in patterns {
                    if p.is_match(path) {
                        let slot = &mut best[p.kind as usize];
                        if p.key > *slot {
                            *slot = p.key;
                        }
                    }
                }
            }
            Automaton_::Filtered(f) => f.fold(path, &mut best),
            Automaton_::Dense { dfa, start } => self.walk_dense(dfa, *start, path, &mut best),
            Automaton_::Lazy { dfa, .. } => {
                let cache = cache.ok_or(GaveUp)?;
                self.walk_lazy(dfa, cache, path, &mut best)
                    .map_err(|_| GaveUp)?;
            }
            Automaton_::Failed => return Err(GaveUp),
        }
        Ok(best)
    }
    /// Decides from the per-kind maxima: `(allowed, deciding rule index)`.
    #[inline]
    pub(crate) fn verdict(&self, best: [u64; 2]) -> (bool, Option<usize>) {
        let [a, d] = best;
        if d == 0 {
            return (true, (a != 0).then(|| key_rule(a)));
        }
        let allow_wins = a != 0
            && match self.precedence {
                Precedence::LongestMatch => key_priority(a) >= key_priority(d),
                Precedence::FirstMatch => a > d,
            };
        if allow_wins {
            (true, Some(key_rule(a)))
        } else {
            (false, Some(key_rule(d)))
        }
    }

    #[inline]
    fn fold_pattern(&self, pid: usize, best: &mut [u64; 2]) {
        let (k, kind) = self.entries[pid];
        let slot = &mut best[kind as usize];
        if k > *slot {
            *slot = k;
        }
    }

    #[inline]
    fn walk_dense(
        &self,
        dfa: &dense::DFA<Vec<u32>>,
        start: StateID,
        path: &[u8],
        best: &mut [u64; 2],
    ) {
        let mut sid = start;
        for &b in path {
            sid = dfa.next_state(sid, b);
            if dfa.is_special_state(sid) {
                if dfa.is_match_state(sid) {
                    for i in 0..dfa.match_len(sid) {
                        self.fold_pattern(dfa.match_pattern(sid, i).as_usize(), best);
                    }
                } else if dfa.is_dead_state(sid) {
                    return;
                }
            }
        }
        sid = dfa.next_eoi_state(sid);
        if dfa.is_match_state(sid) {
            for i in 0..dfa.match_len(sid) {
                self.fold_pattern(dfa.match_pattern(sid, i).as_usize(), best);
            }
        }
    }

    #[inline]
    fn walk_lazy(
        &self,
        dfa: &hybrid::dfa::DFA,
        cache: &mut hybrid::dfa::Cache,
        path: &[u8],
        best: &mut [u64; 2],
    ) -> Result<(), ()> {
        let config = start::Config::new().anchored(Anchored::Yes);
        cache.search_start(0);
        let mut sid = dfa.start_state(cache, &config).map_err(|_| ())?;
        for (at, &b) in path.iter().enumerate() {
            sid = dfa.next_state(cache, sid, b).map_err(|_| ())?;
            if sid.is_tagged() {
                if sid.is_match() {
                    for i in 0..dfa.match_len(cache, sid) {
                        self.fold_pattern(dfa.match_pattern(cache, sid, i).as_usize(), best);
                    }
                } else if sid.is_dead() {
                    cache.search_finish(at);
                    return Ok(());
                } else if sid.is_quit() {
                    return Err(());
                }
            }
        }
        sid = dfa.next_eoi_state(cache, sid).map_err(|_| ())?;
        if sid.is_match() {
            for i in 0..dfa.match_len(cache, sid) {
                self.fold_pattern(dfa.match_pattern(cache, sid, i).as_usize(), best);
            }
        }
        cache.search_finish(path.len());
        Ok(())
    }
}

/// Under [`EngineChoice::Auto`], NFAs with more states than this go straight to the split
/// layout.
// PERF: a failed dense attempt costs its whole size budget in time; with more NFA states than
// this the dense DFA almost never fits 1 MiB (measured on the real corpus), so don't try.
const DENSE_MAX_NFA_STATES: usize = 3000;

/// Builds the Thompson NFA of `simples`; `None` when it exceeds the size limit.
fn build_nfa(simples: &[Simple], config: &CompileConfig) -> Option<NFA> {
    let hirs: Vec<Hir> = simples.iter().map(Simple::to_hir).collect();
    thompson::Compiler::new()
        .syntax(SyntaxConfig::new().unicode(false).utf8(false))
        .configure(
            thompson::Config::new()
                .utf8(false)
                .which_captures(WhichCaptures::None)
                .nfa_size_limit(Some(config.nfa_size_limit)),
        )
        .build_many_from_hir(&hirs)
        .ok()
}

/// Builds the anchored literal-prefix automaton: a DFA when its estimated size fits
/// `dense_budget`, else a contiguous NFA.
fn build_literal(
    literals: &[Vec<u8>],
    entries: Vec<(u64, u8)>,
    dense_budget: usize,
) -> Option<Literal> {
    // At most one trie state per literal byte, times a typical 64 byte classes, 4 bytes each.
    let estimate = literals.iter().map(|l| l.len()).sum::<usize>() * 64 * 4;
    let automaton = if estimate <= dense_budget {
        LiteralAutomaton::Dfa(
            aho_corasick::dfa::Builder::new()
                .match_kind(aho_corasick::MatchKind::Standard)
                .start_kind(aho_corasick::StartKind::Anchored)
                .prefilter(false)
                .build(literals)
                .ok()?,
        )
    } else {
        LiteralAutomaton::Nfa(
            aho_corasick::nfa::contiguous::Builder::new()
                .match_kind(aho_corasick::MatchKind::Standard)
                .build(literals)
                .ok()?,
        )
    };
    Some(Literal { automaton, entries })
}

impl Literal {
    fn memory_usage(&self) -> usize {
        use aho_corasick::automaton::Automaton as _;
        self.entries.len() * std::mem::size_of::<(u64, u8)>()
            + match &self.automaton {
                LiteralAutomaton::Dfa(d) => d.memory_usage(),
                LiteralAutomaton::Nfa(n) => n.memory_usage(),
            }
    }

    /// Folds the keys of every literal that is a prefix of `path`.
    #[inline]
    fn fold(&self, path: &[u8], best: &mut [u64; 2]) {
        match &self.automaton {
            LiteralAutomaton::Dfa(d) => fold_prefixes(d, &self.entries, path, best),
            LiteralAutomaton::Nfa(n) => fold_prefixes(n, &self.entries, path, best),
        }
    }
}

/// Walks an anchored Aho-Corasick automaton over `path` and folds the keys of the literals that
/// are prefixes of it.
#[inline]
fn fold_prefixes<A: aho_corasick::automaton::Automaton>(
    a: &A,
    entries: &[(u64, u8)],
    path: &[u8],
    best: &mut [u64; 2],
) {
    let Ok(mut sid) = a.start_state(aho_corasick::Anchored::Yes) else {
        return;
    };
    for (at, &b) in path.iter().enumerate() {
        sid = a.next_state(aho_corasick::Anchored::Yes, sid, b);
        if a.is_special(sid) {
            if a.is_dead(sid) {
                return;
            }
            if a.is_match(sid) {
                for i in 0..a.match_len(sid) {
                    let pid = a.match_pattern(sid, i);
                    // A state's matches include those of its failure states (suffixes of the
                    // path so far, for unanchored search): only a literal as long as the path
                    // so far is a prefix.
                    if a.pattern_len(pid) != at + 1 {
                        continue;
                    }
                    let (k, kind) = entries[pid.as_usize()];
                    let slot = &mut best[kind as usize];
                    if k > *slot {
                        *slot = k;
                    }
                }
            }
        }
    }
}

/// Under [`EngineChoice::Auto`], this many patterns or fewer are matched one by one.
// PERF: measured on the 4-rule workload, building a dense DFA takes about 30 µs while the
// direct checks of 3 patterns take well under 100 ns per URL; the median real file has 4 rules.
const DIRECT_MAX_PATTERNS: usize = 8;

/// One pattern of the direct matcher: `first * p1 * ... * pk`, optionally anchored at the end.
#[derive(Debug)]
struct DirectPattern {
    first: Vec<u8>,
    /// The pieces after each `*`, with a searcher each.
    rest: Vec<memchr::memmem::Finder<'static>>,
    anchored: bool,
    key: u64,
    kind: u8,
}

impl DirectPattern {
    fn new(s: Simple, (key, kind): (u64, u8)) -> DirectPattern {
        let mut pieces = s.pieces.into_iter();
        let first = pieces.next().unwrap_or_default();
        DirectPattern {
            first,
            rest: pieces
                .map(|p| memchr::memmem::Finder::new(&p).into_owned())
                .collect(),
            anchored: s.anchored,
            key,
            kind,
        }
    }

    fn memory_usage(&self) -> usize {
        self.first.len()
            + self
                .rest
                .iter()
                .map(|f| f.needle().len() * 2 + 64)
                .sum::<usize>()
    }

    /// Does the pattern match a prefix of `path` (all of it when anchored)? Each piece after a
    /// `*` is placed at its leftmost occurrence after the previous one, which finds a match
    /// whenever one exists; an anchored pattern's last piece must end the path.
    #[inline]
    fn is_match(&self, path: &[u8]) -> bool {
        if !path.starts_with(&self.first) {
            return false;
        }
        let Some((last, middle)) = self.rest.split_last() else {
            return !self.anchored || path.len() == self.first.len();
        };
        let mut pos = self.first.len();
        for finder in middle {
            match finder.find(&path[pos..]) {
                Some(i) => pos += i + finder.needle().len(),
                None => return false,
            }
        }
        if self.anchored {
            let n = last.needle();
            path.len() >= pos + n.len() && path.ends_with(n)
        } else {
            last.find(&path[pos..]).is_some()
        }
    }
}

/// Wildcard patterns behind a literal prefilter: every pattern needs its longest literal piece
/// to occur in the path, so an unanchored Aho-Corasick scan of the path finds the candidates
/// and only those are checked directly.
#[derive(Debug)]
struct Filtered {
    pieces: aho_corasick::nfa::contiguous::NFA,
    /// Per piece id: the patterns that need it.
    by_piece: Vec<Vec<u32>>,
    patterns: Vec<DirectPattern>,
}

impl Filtered {
    fn new(simples: Vec<Simple>, entries: Vec<(u64, u8)>) -> Filtered {
        let mut piece_ids: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut pieces: Vec<Vec<u8>> = Vec::new();
        let mut by_piece: Vec<Vec<u32>> = Vec::new();
        let mut patterns = Vec::with_capacity(simples.len());
        for (i, (s, e)) in simples.into_iter().zip(entries).enumerate() {
            let key = s
                .pieces
                .iter()
                .max_by_key(|p| p.len())
                .cloned()
                .unwrap_or_default();
            let id = *piece_ids.entry(key.clone()).or_insert_with(|| {
                pieces.push(key);
                by_piece.push(Vec::new());
                pieces.len() - 1
            });
            by_piece[id].push(i as u32);
            patterns.push(DirectPattern::new(s, e));
        }
        let pieces = aho_corasick::nfa::contiguous::Builder::new()
            .match_kind(aho_corasick::MatchKind::Standard)
            .build(&pieces)
            .expect("a contiguous NFA of a few hundred short literals builds");
        Filtered {
            pieces,
            by_piece,
            patterns,
        }
    }

    fn memory_usage(&self) -> usize {
        aho_corasick::automaton::Automaton::memory_usage(&self.pieces)
            + self
                .by_piece
                .iter()
                .map(|v| v.len() * 4 + 24)
                .sum::<usize>()
            + self
                .patterns
                .iter()
                .map(DirectPattern::memory_usage)
                .sum::<usize>()
    }

    #[inline]
    fn fold(&self, path: &[u8], best: &mut [u64; 2]) {
        use aho_corasick::automaton::Automaton as _;
        let nfa = &self.pieces;
        let Ok(mut sid) = nfa.start_state(aho_corasick::Anchored::No) else {
            return;
        };
        // Pieces already handled for this path (a piece may occur several times).
        let mut seen = [u32::MAX; 16];
        let mut seen_len = 0;
        for &b in path {
            sid = nfa.next_state(aho_corasick::Anchored::No, sid, b);
            if !nfa.is_match(sid) {
                continue;
            }
            for i in 0..nfa.match_len(sid) {
                let piece = nfa.match_pattern(sid, i).as_u32();
                if seen[..seen_len].contains(&piece) {
                    continue;
                }
                if seen_len < seen.len() {
                    seen[seen_len] = piece;
                    seen_len += 1;
                }
                for &p in &self.by_piece[piece as usize] {
                    let p = &self.patterns[p as usize];
                    let slot = &mut best[p.kind as usize];
                    if p.key > *slot && p.is_match(path) {
                        *slot = p.key;
                    }
                }
            }
        }
    }
}

fn build_dense(nfa: &NFA, config: &CompileConfig) -> Option<Automaton_> {
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(MatchKind::All)
                .start_kind(StartKind::Anchored)
                .accelerate(false)
                .minimize(false)
                .dfa_size_limit(Some(config.dense_size_limit))
                .determinize_size_limit(Some(config.dense_size_limit * 2)),
        )
        .build_from_nfa(nfa)
        .ok()?;
    let start = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .ok()?;
    Some(Automaton_::Dense { dfa, start })
}

fn build_lazy(nfa: NFA, config: &CompileConfig) -> Automaton_ {
    let nfa_memory = nfa.memory_usage();
    let base = hybrid::dfa::Config::new()
        .match_kind(MatchKind::All)
        .starts_for_each_pattern(false)
        .minimum_cache_clear_count(Some(3))
        .minimum_bytes_per_state(Some(10));
    // The cache must hold at least a few states of this NFA; grow it if the configured
    // capacity is below that minimum rather than fail.
    let capacity = match base.get_minimum_cache_capacity(&nfa) {
        Ok(min) => config.cache_capacity.max(min),
        Err(_) => config.cache_capacity,
    };
    match hybrid::dfa::Builder::new()
        .configure(base.cache_capacity(capacity))
        .build_from_nfa(nfa)
    {
        Ok(dfa) => Automaton_::Lazy { dfa, nfa_memory },
        Err(_) => Automaton_::Failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(p: &str) -> Option<(Vec<String>, bool)> {
        match simplify(p.as_bytes(), &Profile::GOOGLE) {
            Simplified::Pattern(s) => Some((
                s.pieces
                    .iter()
                    .map(|p| String::from_utf8(p.clone()).unwrap())
                    .collect(),
                s.anchored,
            )),
            Simplified::Always => Some((vec!["ALWAYS".into()], false)),
            Simplified::Never => None,
        }
    }

    #[test]
    fn simplification() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(pieces("/fish*"), Some((v(&["/fish"]), false)));
        assert_eq!(pieces("/a**b"), Some((v(&["/a", "b"]), false)));
        assert_eq!(pieces("*/a"), Some((v(&["", "/a"]), false)));
        assert_eq!(pieces("/*.php$"), Some((v(&["/", ".php"]), true)));
        assert_eq!(pieces("/a*$"), Some((v(&["/a"]), false)));
        assert_eq!(pieces("/a$b"), Some((v(&["/a$b"]), false)));
        assert_eq!(pieces("*"), Some((v(&["ALWAYS"]), false)));
        assert_eq!(pieces("$"), None);
        assert_eq!(pieces(""), None);
    }
}
