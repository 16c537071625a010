//! The regex-automata engines: every pattern (or every wildcard pattern of the split layout)
//! in ONE anchored automaton with `MatchKind::All`, walked once over the path, folding the keys
//! of the patterns at every match state.
//!
//! - [`Engine::Dense`](super::Engine::Dense): a fully built dense DFA, when the rules are cheap
//!   to determinise (few wildcards) and it fits a small size budget; no per-thread state.
//! - [`Engine::Lazy`](super::Engine::Lazy): the lazy DFA (`regex_automata::hybrid`), whose
//!   states are built on demand into a per-thread cache. Real files defeat a fully built DFA:
//!   several `*` per rule multiply states. When its cache thrashes on an input, the walk gives
//!   up and the reference matcher decides that input.

use regex_automata::{
    dfa::{dense, Automaton as _, StartKind},
    hybrid,
    nfa::thompson::{self, WhichCaptures, NFA},
    util::{primitives::StateID, start, syntax::Config as SyntaxConfig},
    Anchored, MatchKind,
};
use regex_syntax::hir::{Dot, Hir, Look, Repetition};

use super::pattern::Simple;
use super::CompileConfig;

/// Under `EngineChoice::Auto`, NFAs with more states than this are not determinised.
// PERF: a failed dense attempt costs its whole size budget in time; with more NFA states than
// this the dense DFA almost never fits 1 MiB (measured on the real corpus), so don't try.
pub(crate) const DENSE_MAX_NFA_STATES: usize = 3000;

/// The HIR of one pattern: pieces joined by `(?s-u:.)*`, then `$` when anchored.
fn to_hir(s: &Simple) -> Hir {
    let any = Hir::repetition(Repetition {
        min: 0,
        max: None,
        greedy: true,
        sub: Box::new(Hir::dot(Dot::AnyByte)),
    });
    let mut parts = Vec::with_capacity(s.pieces.len() * 2 + 1);
    for (i, piece) in s.pieces.iter().enumerate() {
        if i > 0 {
            parts.push(any.clone());
        }
        if !piece.is_empty() {
            parts.push(Hir::literal(piece.clone()));
        }
    }
    if s.anchored {
        parts.push(Hir::look(Look::End));
    }
    Hir::concat(parts)
}

/// Builds the Thompson NFA of `simples`; `None` when it exceeds the size limit.
pub(crate) fn build_nfa(simples: &[Simple], config: &CompileConfig) -> Option<NFA> {
    let hirs: Vec<Hir> = simples.iter().map(to_hir).collect();
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

/// A fully built dense DFA and its anchored start state.
#[derive(Debug)]
pub(crate) struct Dense {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
}

/// Builds a dense DFA of `nfa` within the dense budget.
pub(crate) fn build_dense(nfa: &NFA, config: &CompileConfig) -> Option<Dense> {
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
    Some(Dense { dfa, start })
}

impl Dense {
    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        self.dfa.memory_usage()
    }

    /// Walks `path` and folds the entries of the patterns at every match state.
    #[inline]
    pub(crate) fn fold(&self, entries: &[(u64, u8)], path: &[u8], best: &mut [u64; 2]) {
        let dfa = &self.dfa;
        let mut sid = self.start;
        for &b in path {
            sid = dfa.next_state(sid, b);
            if dfa.is_special_state(sid) {
                if dfa.is_match_state(sid) {
                    for i in 0..dfa.match_len(sid) {
                        fold_entry(entries, dfa.match_pattern(sid, i).as_usize(), best);
                    }
                } else if dfa.is_dead_state(sid) {
                    return;
                }
            }
        }
        sid = dfa.next_eoi_state(sid);
        if dfa.is_match_state(sid) {
            for i in 0..dfa.match_len(sid) {
                fold_entry(entries, dfa.match_pattern(sid, i).as_usize(), best);
            }
        }
    }
}

/// The lazy DFA and the memory of its NFA.
#[derive(Debug)]
pub(crate) struct Lazy {
    dfa: hybrid::dfa::DFA,
    nfa_memory: usize,
}

/// Builds the lazy DFA of `nfa`; `None` if it cannot be built.
pub(crate) fn build_lazy(nfa: NFA, config: &CompileConfig) -> Option<Lazy> {
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
    hybrid::dfa::Builder::new()
        .configure(base.cache_capacity(capacity))
        .build_from_nfa(nfa)
        .ok()
        .map(|dfa| Lazy { dfa, nfa_memory })
}

impl Lazy {
    /// Heap bytes held (not counting per-thread caches).
    pub(crate) fn memory_usage(&self) -> usize {
        self.dfa.memory_usage() + self.nfa_memory
    }

    /// A new per-thread cache.
    pub(crate) fn create_cache(&self) -> hybrid::dfa::Cache {
        self.dfa.create_cache()
    }

    /// The DFA (cloned cheaply: it shares its NFA).
    pub(crate) fn dfa(&self) -> &hybrid::dfa::DFA {
        &self.dfa
    }

    /// Walks `path` and folds the entries of the patterns at every match state. `Err` when
    /// the cache thrashed (the caller decides the input another way).
    #[inline]
    pub(crate) fn fold(
        &self,
        cache: &mut hybrid::dfa::Cache,
        entries: &[(u64, u8)],
        path: &[u8],
        best: &mut [u64; 2],
    ) -> Result<(), ()> {
        let dfa = &self.dfa;
        let config = start::Config::new().anchored(Anchored::Yes);
        cache.search_start(0);
        let mut sid = dfa.start_state(cache, &config).map_err(|_| ())?;
        let mut at = 0;
        while at < path.len() {
            if sid.is_tagged() {
                sid = dfa.next_state(cache, sid, path[at]).map_err(|_| ())?;
                at += 1;
            } else {
                // PERF: chew through untagged states with the bare table lookup (no check for
                // a state not yet computed), as regex-automata's own search loop does; an
                // unknown transition comes back tagged and is computed below.
                let prev;
                (prev, sid, at) = run_untagged(dfa, cache, sid, path, at);
                if sid.is_unknown() {
                    sid = dfa.next_state(cache, prev, path[at - 1]).map_err(|_| ())?;
                }
            }
            if sid.is_tagged() {
                if sid.is_match() {
                    for i in 0..dfa.match_len(cache, sid) {
                        fold_entry(entries, dfa.match_pattern(cache, sid, i).as_usize(), best);
                    }
                } else if sid.is_dead() {
                    cache.search_finish(at - 1);
                    return Ok(());
                } else if sid.is_quit() {
                    return Err(());
                }
            }
        }
        sid = dfa.next_eoi_state(cache, sid).map_err(|_| ())?;
        if sid.is_match() {
            for i in 0..dfa.match_len(cache, sid) {
                fold_entry(entries, dfa.match_pattern(cache, sid, i).as_usize(), best);
            }
        }
        cache.search_finish(path.len());
        Ok(())
    }
}

/// Steps from the untagged state `sid` through `path[at..]` while the states stay untagged:
/// returns the state before the last step, the last state (tagged, or untagged at the end of
/// `path`) and where it stopped.
// PERF: a function of its own keeps the path, the table and the state in registers (inlined
// into the decision, the loop reloaded the path's pointer and length from the stack on every
// byte), and the iterator drops the bounds checks on the path.
#[inline(never)]
fn run_untagged(
    dfa: &hybrid::dfa::DFA,
    cache: &hybrid::dfa::Cache,
    mut sid: hybrid::LazyStateID,
    path: &[u8],
    at: usize,
) -> (hybrid::LazyStateID, hybrid::LazyStateID, usize) {
    let mut prev = sid;
    let mut bytes = path[at..].iter();
    for &b in bytes.by_ref() {
        prev = sid;
        sid = dfa.next_state_untagged(cache, sid, b);
        if sid.is_tagged() {
            break;
        }
    }
    (prev, sid, path.len() - bytes.len())
}

/// Folds the entry of pattern `pid` into `best`.
#[inline]
fn fold_entry(entries: &[(u64, u8)], pid: usize, best: &mut [u64; 2]) {
    let (k, kind) = entries[pid];
    let slot = &mut best[kind as usize];
    if k > *slot {
        *slot = k;
    }
}
