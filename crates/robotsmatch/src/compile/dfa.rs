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
//!
//! Both walks take one dependent table load per byte, so their speed is the load's latency
//! (about six cycles a byte), not their instruction count. Most bytes of a real path may leave
//! the lazy DFA where it was: after `/r/` in www.reddit.com's rules, only `.`, `/`, `?` and
//! `b` can start a piece that matters, and the letters of `can_i_watch_live_olympic_coverage`
//! loop on one state. So the lazy walk, when a state loops on itself, learns (once per state,
//! in its [`LazyCache`]) the bytes that leave it, and when there are at most
//! [`MAX_NEEDLES`](crate::bytescan::MAX_NEEDLES) of them it jumps to the next such byte, 16
//! bytes a step ([`crate::bytescan::ByteSet`]). A jump costs about as much as six steps, so
//! each cache tries it on its first walks and keeps it only if the jumps were long enough
//! (www.reddit.com's URLs: about 12.5 bytes a jump, kept; b-shop's: 4.9, dropped).

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use regex_automata::{
    dfa::{dense, Automaton as _, StartKind},
    hybrid::{self, LazyStateID},
    nfa::thompson::{self, WhichCaptures, NFA},
    util::{primitives::StateID, start, syntax::Config as SyntaxConfig},
    Anchored, MatchKind,
};
use regex_syntax::hir::{Dot, Hir, Look, Repetition};

use super::pattern::Simple;
use super::CompileConfig;
use crate::bytescan::{ByteSet, MAX_NEEDLES};

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

/// Numbers every lazy DFA built, so that a cache knows which one it was made for.
static NEXT_LAZY_ID: AtomicU64 = AtomicU64::new(1);

/// The lazy DFA and the memory of its NFA.
#[derive(Debug)]
pub(crate) struct Lazy {
    dfa: hybrid::dfa::DFA,
    /// Unique to this DFA (its clones share it: they build the same states); a
    /// [`LazyCache`] is used with the DFA of its `owner` only.
    id: u64,
    nfa_memory: usize,
    /// The stride of the DFA's transition table, as a power of two (a state's index is its
    /// raw ID shifted right by it).
    stride2: usize,
}

/// Builds the lazy DFA of `nfa`; `None` if it cannot be built.
pub(crate) fn build_lazy(nfa: NFA, config: &CompileConfig) -> Option<Lazy> {
    let nfa_memory = nfa.memory_usage();
    // PERF: the lazy DFA gives up (and the cold tier's direct scan decides, see
    // `Matcher::decide_hot`) the first time its cache fills before it has walked 1,000 bytes
    // per state it holds (`CompileConfig`'s defaults). regex-automata's defaults (3 clears, 10
    // bytes per state) suit a fallback that is slow per byte; ours is not. 64 rules of short
    // pieces over six letters multiply the states: against 4 KB URLs of those letters, the
    // lazy DFA built a state every 10 bytes or so and never gave up (680 µs per URL); the
    // direct scan takes 2.4 µs. A file that fills the 2 MiB cache that fast thrashes anyway
    // (no URL of the 1 GB real log gives up).
    let base = hybrid::dfa::Config::new()
        .match_kind(MatchKind::All)
        .starts_for_each_pattern(false)
        .minimum_cache_clear_count(Some(config.lazy_min_clears))
        .minimum_bytes_per_state(Some(config.lazy_min_bytes_per_state));
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
        .map(|dfa| Lazy {
            stride2: dfa.byte_classes().stride2(),
            dfa,
            id: NEXT_LAZY_ID.fetch_add(1, Ordering::Relaxed),
            nfa_memory,
        })
}

impl Lazy {
    /// Heap bytes held (not counting per-thread caches).
    pub(crate) fn memory_usage(&self) -> usize {
        self.dfa.memory_usage() + self.nfa_memory
    }

    /// A new per-thread cache.
    pub(crate) fn create_cache(&self) -> LazyCache {
        LazyCache::new(&self.dfa, self.id)
    }

    /// A function that makes caches for this DFA (it holds a clone of the DFA, which shares
    /// its NFA).
    pub(crate) fn cache_maker(&self) -> impl Fn() -> LazyCache + Send + Sync + 'static {
        let (dfa, id) = (self.dfa.clone(), self.id);
        move || LazyCache::new(&dfa, id)
    }

    /// Walks `path` and folds the entries of the patterns at every match state. `Err` when
    /// the cache thrashed (the caller decides the input another way); after that, `Err` at
    /// once on every path with this cache.
    #[inline]
    pub(crate) fn fold(
        &self,
        lazy: &mut LazyCache,
        entries: &[(u64, u8)],
        path: &[u8],
        best: &mut [u64; 2],
    ) -> Result<(), ()> {
        if lazy.owner != self.id {
            // Made for another DFA: its states mean nothing here (and the unchecked walk
            // below relies on states of this DFA).
            *lazy = self.create_cache();
        }
        if lazy.gave_up {
            return Err(());
        }
        let walked = self.walk(lazy, entries, path, best);
        if walked.is_err() {
            // A cache that thrashed once is full of states that served few bytes: it would
            // give up again at the next state it lacks, after walking the path that far.
            lazy.gave_up = true;
        }
        walked
    }

    /// [`Lazy::fold`] with a cache made for this DFA that has not given up.
    #[inline(always)]
    fn walk(
        &self,
        lazy: &mut LazyCache,
        entries: &[(u64, u8)],
        path: &[u8],
        best: &mut [u64; 2],
    ) -> Result<(), ()> {
        let dfa = &self.dfa;
        let config = start::Config::new().anchored(Anchored::Yes);
        if lazy.accel.mode == Mode::Trial {
            lazy.accel.count_trial_walk();
        }
        let cache = &mut lazy.cache;
        cache.search_start(0);
        let mut sid = dfa.start_state(cache, &config).map_err(|_| ())?;
        let mut at = 0;
        // Whether the next step must take the checked transition: after learning a state,
        // `sid` is no longer the state of the cache's most recent transition, the only one
        // `run_untagged` and `run_skipping` may be given.
        let mut checked = false;
        while at < path.len() {
            if sid.is_tagged() || checked {
                sid = dfa.next_state(cache, sid, path[at]).map_err(|_| ())?;
                at += 1;
                checked = false;
            } else {
                // PERF: chew through untagged states with the bare table lookup (no check for
                // a state not yet computed), as regex-automata's own search loop does; an
                // unknown transition comes back tagged and is computed below.
                let (prev, exit);
                (prev, sid, at, exit) = if lazy.accel.mode == Mode::Off {
                    let prev;
                    (prev, sid, at) = run_untagged(dfa, cache, sid, path, at);
                    (prev, sid, at, Exit::Stopped)
                } else {
                    lazy.accel.sync(cache.clear_count());
                    let run = if lazy.accel.mode == Mode::Trial {
                        run_skipping::<true>
                    } else {
                        run_skipping::<false>
                    };
                    run(dfa, cache, &mut lazy.accel, self.stride2, sid, path, at)
                };
                match exit {
                    Exit::Stopped => {
                        if sid.is_unknown() {
                            sid = dfa.next_state(cache, prev, path[at - 1]).map_err(|_| ())?;
                        }
                    }
                    Exit::Learn => {
                        // `sid` looped on itself on a byte, and is not known well enough.
                        lazy.accel.learn(dfa, cache, self.stride2, sid)?;
                        checked = true;
                        continue;
                    }
                    Exit::LearnRun(k) => {
                        // A skip ended where the run that follows it is not known yet: step
                        // through it (checked transitions) and remember it.
                        (sid, at) = lazy.accel.learn_run(dfa, cache, k, sid, path, at)?;
                        checked = true;
                        continue;
                    }
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
    mut sid: LazyStateID,
    path: &[u8],
    at: usize,
) -> (LazyStateID, LazyStateID, usize) {
    let mut prev = sid;
    let mut bytes = path[at..].iter();
    for &b in bytes.by_ref() {
        prev = sid;
        sid = step(dfa, cache, sid, b);
        if sid.is_tagged() {
            break;
        }
    }
    (prev, sid, path.len() - bytes.len())
}

/// Why [`run_skipping`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// At a tagged state, or at the end of the path.
    Stopped,
    /// At a state that looped on itself and that `accel` wants to learn (`at` is after the
    /// byte that kept it).
    Learn,
    /// After a skip through the looping state of `accel.sets[k]`, whose run is still being
    /// learnt: the state returned is the looping one, `at` the byte that leaves it.
    LearnRun(usize),
}

/// [`run_untagged`], skipping through states that loop on themselves: a state that `accel`
/// knows to be left by a few bytes only is skipped through to the next of them, and when the
/// bytes there are the run that usually follows that state (see [`Run`]), past them too.
/// Returns also why it stopped ([`Exit`]). `TRIAL`: count the skips and the bytes they passed
/// over, for the trial's verdict.
// PERF: counting on every skip after the trial (two stores) was ~10 instructions a skip.
#[inline(never)]
fn run_skipping<const TRIAL: bool>(
    dfa: &hybrid::dfa::DFA,
    cache: &hybrid::dfa::Cache,
    accel: &mut Accel,
    stride2: usize,
    mut sid: LazyStateID,
    path: &[u8],
    mut at: usize,
) -> (LazyStateID, LazyStateID, usize, Exit) {
    let mut prev = sid;
    while let Some(&b) = path.get(at) {
        prev = sid;
        sid = step(dfa, cache, sid, b);
        at += 1;
        // Looks at the state `sid` reached (again after passing over a run).
        'reached: loop {
            if sid.is_tagged() {
                return (prev, sid, at, Exit::Stopped);
            }
            if sid != prev {
                break 'reached;
            }
            match accel.get(sid, stride2) {
                Known::Skip(set, k) => {
                    let to = set.first_in(path, at);
                    if TRIAL {
                        accel.skips += 1;
                        accel.skipped += (to - at) as u64;
                    }
                    at = to;
                    let run = &accel.runs[k];
                    match run.phase {
                        RunPhase::On if run.matches(path, at) => {
                            // Past the run. Its last state is not the cache's most recent
                            // transition, so the step from it takes the bounds-checked
                            // transition; what that returns is, and the walk goes on.
                            at += usize::from(run.len);
                            let Some(&b) = path.get(at) else {
                                return (sid, run.end, at, Exit::Stopped);
                            };
                            prev = run.end;
                            sid = dfa.next_state_untagged(cache, prev, b);
                            at += 1;
                            continue 'reached;
                        }
                        RunPhase::Learning { .. } if at < path.len() => {
                            return (prev, sid, at, Exit::LearnRun(k));
                        }
                        RunPhase::On | RunPhase::Learning { .. } | RunPhase::Off => {}
                    }
                }
                Known::Step => {}
                Known::Learn => return (prev, sid, at, Exit::Learn),
            }
            break 'reached;
        }
    }
    (prev, sid, at, Exit::Stopped)
}

/// The transition of the untagged state `sid` on `b`, without a bounds check.
///
/// The caller's contract (that of `next_state_untagged_unchecked`): `sid` is untagged, and it
/// is the state the most recent transition (or start) computed with `cache` returned, for the
/// DFA `cache` was made for. [`Lazy::fold`] keeps it:
/// - the cache is replaced when it was made for another DFA (`LazyCache::owner`);
/// - `run_untagged` and `run_skipping` are entered with an untagged `sid` that the start, a
///   checked `next_state` or their own previous step has just returned (after learning a
///   state, which computes other transitions, the next step is a checked one), and they stop
///   at the first tagged state, the unknown one included, whose transition `fold` computes
///   with the checked `next_state`;
/// - a skip does not touch the cache, so `sid` stays the most recent;
/// - after passing over a learnt [`Run`], whose last state is not the most recent, the next
///   step takes the bounds-checked `next_state_untagged`, and the walk goes on from what it
///   returned.
// PERF: the bounds check on the transition table was 2 of the walk's ~12 instructions a
// byte.
#[inline(always)]
fn step(
    dfa: &hybrid::dfa::DFA,
    cache: &hybrid::dfa::Cache,
    sid: LazyStateID,
    b: u8,
) -> LazyStateID {
    // SAFETY: regex-automata requires `sid` to be valid for `cache` (see the contract above,
    // which every caller keeps); the offset it reads is then within the transition table,
    // as the checked `next_state_untagged` below verifies in debug builds, where the tests
    // (the walks against brute force with caches cleared often, and a cache used with the
    // wrong DFA) would panic on an index outside the table.
    let next = unsafe { dfa.next_state_untagged_unchecked(cache, sid, b) };
    debug_assert_eq!(next, dfa.next_state_untagged(cache, sid, b));
    next
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

/// A lazy DFA's per-thread cache, and what the walk learned about its states.
#[derive(Clone, Debug)]
pub(crate) struct LazyCache {
    cache: hybrid::dfa::Cache,
    /// The `Lazy::id` of the DFA it was made for.
    owner: u64,
    accel: Accel,
    /// The DFA gave up once with this cache: every later path is left to the caller.
    gave_up: bool,
}

impl LazyCache {
    /// An empty cache for `dfa`, whose `Lazy::id` is `owner`.
    fn new(dfa: &hybrid::dfa::DFA, owner: u64) -> LazyCache {
        LazyCache {
            cache: dfa.create_cache(),
            owner,
            accel: Accel::default(),
            gave_up: false,
        }
    }

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        self.cache.memory_usage() + self.accel.memory_usage()
    }
}

/// A state's entry in [`Accel::states`] before it is known: how often it looped so far.
/// Learning a state costs a transition for each byte class (which may add states to the
/// cache), so only states that loop this often are learnt.
const LEARN_AFTER: u32 = 4;
/// The entry of a state that has more than [`MAX_NEEDLES`] leaving bytes.
const STEP: u32 = u32::MAX;
/// The entries at or above this one (below [`STEP`]) are `SKIP + index` into [`Accel::sets`].
const SKIP: u32 = 1 << 31;
/// State indices past this one are never learnt (a table for them would be large).
const MAX_STATE_INDEX: usize = 1 << 16;

/// Whether a cache skips through looping states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Mode {
    /// For the first walks: learning, skipping, and counting what skipping saves.
    #[default]
    Trial,
    /// Skipping paid: go on.
    On,
    /// Skipping did not pay (the loops were short): the plain walk from now on.
    Off,
}

/// The walks of a trial.
const TRIAL_WALKS: u32 = 1024;
/// A trial ends early after this many skips.
const TRIAL_SKIPS: u64 = 4096;
/// Skipping stays on when a skip passes over at least this many bytes on average.
// PERF: a skip costs about as much as stepping over six bytes (a mispredicted branch where
// the loop starts, a lookup, a 16-byte comparison per byte of the set). Measured with every
// skip kept: www.reddit.com's rules on its URLs skip about 12.5 bytes a time (its URLs of the
// 1 GB log: 6-12% less time), b-shop's 4.9 (b-shop prebuilt: 6.2 -> 4.5 M URLs/s).
const MIN_SKIP_BYTES: u64 = 8;

/// What the walk does on a state that looped on itself.
enum Known<'a> {
    /// Skip to the next byte of the set (the others keep the state); `accel.sets[k]`.
    Skip(&'a ByteSet, usize),
    /// Step on: too many bytes leave it.
    Step,
    /// Not known (yet).
    Learn,
}

/// The states of one lazy DFA cache that loop on themselves, and the bytes that leave them.
///
/// A state is found by its index in the cache's transition table; regex-automata reuses
/// indices when it clears its cache, so the table is emptied when the cache's clear count
/// moves, and each entry also keeps its state ID, checked on every lookup (an entry is never
/// trusted for another state, however the index was come by).
#[derive(Clone, Debug, Default)]
struct Accel {
    /// `clear_count()` of the cache when the table was filled.
    clears: usize,
    /// By state index: the state and its entry (a loop count up to [`LEARN_AFTER`], [`STEP`],
    /// or `SKIP + k` for `sets[k]`).
    states: Vec<(LazyStateID, u32)>,
    /// The leaving bytes of the states that have few.
    sets: Vec<ByteSet>,
    /// For each of `sets`: the run that follows a skip through its state.
    runs: Vec<Run>,
    mode: Mode,
    /// Walks, skips and bytes skipped during the trial.
    walks: u32,
    skips: u64,
    skipped: u64,
}

impl Accel {
    /// Heap bytes held.
    fn memory_usage(&self) -> usize {
        self.states.capacity() * std::mem::size_of::<(LazyStateID, u32)>()
            + self.sets.capacity() * std::mem::size_of::<ByteSet>()
            + self.runs.capacity() * std::mem::size_of::<Run>()
    }

    /// Counts a walk of the trial, and ends the trial after enough walks or skips: skipping
    /// stays on when it passed over enough bytes a time.
    #[cold]
    fn count_trial_walk(&mut self) {
        self.walks += 1;
        if self.walks >= TRIAL_WALKS || self.skips >= TRIAL_SKIPS {
            self.mode = if self.skips > 0 && self.skipped >= self.skips * MIN_SKIP_BYTES {
                Mode::On
            } else {
                Mode::Off
            };
            if self.mode == Mode::Off {
                self.states = Vec::new();
                self.sets = Vec::new();
                self.runs = Vec::new();
            }
        }
    }

    /// Forgets every state when the cache was cleared since the table was filled.
    #[inline]
    fn sync(&mut self, clears: usize) {
        if self.clears != clears {
            self.clears = clears;
            self.states.clear();
            self.sets.clear();
            self.runs.clear();
        }
    }

    /// What is known of the untagged state `sid`.
    #[inline]
    fn get(&self, sid: LazyStateID, stride2: usize) -> Known<'_> {
        let index = state_index(sid, stride2);
        match self.states.get(index) {
            Some(&(s, e)) if s == sid && e > LEARN_AFTER => {
                if e == STEP {
                    Known::Step
                } else {
                    let k = (e - SKIP) as usize;
                    Known::Skip(&self.sets[k], k)
                }
            }
            _ if index >= MAX_STATE_INDEX => Known::Step,
            _ => Known::Learn,
        }
    }

    /// Counts a loop of the untagged state `sid`, and once it looped [`LEARN_AFTER`] times,
    /// finds the bytes that leave it. `Err` when that cleared the cache (`sid` is then stale:
    /// the caller decides the input another way) or the cache gave up.
    #[cold]
    fn learn(
        &mut self,
        dfa: &hybrid::dfa::DFA,
        cache: &mut hybrid::dfa::Cache,
        stride2: usize,
        sid: LazyStateID,
    ) -> Result<(), ()> {
        let index = state_index(sid, stride2);
        if index >= MAX_STATE_INDEX {
            return Ok(());
        }
        if index >= self.states.len() {
            self.states.resize(index + 1, (sid, 0));
        }
        if self.states[index].0 != sid {
            self.states[index] = (sid, 0);
        }
        let mut entry = self.states[index].1;
        if entry < LEARN_AFTER {
            entry += 1;
        } else {
            entry = match leaving_bytes(dfa, cache, sid)? {
                Some(set) => {
                    self.sets.push(set);
                    self.runs.push(Run::default());
                    SKIP + (self.sets.len() - 1) as u32
                }
                None => STEP,
            };
        }
        self.states[index].1 = entry;
        Ok(())
    }

    /// Steps from `sid`, the looping state of `sets[k]`, through the bytes at `at` (where a
    /// skip through it ended) with checked transitions, for as long as a [`Run`] may last:
    /// while the states are untagged and none loops on itself, and at most 16 bytes. Counts
    /// what it read towards `runs[k]`, and returns the state it reached and where. `Err` when
    /// that cleared the cache (the states known are then stale: the caller decides the input
    /// another way) or the cache gave up.
    #[cold]
    fn learn_run(
        &mut self,
        dfa: &hybrid::dfa::DFA,
        cache: &mut hybrid::dfa::Cache,
        k: usize,
        sid: LazyStateID,
        path: &[u8],
        at: usize,
    ) -> Result<(LazyStateID, usize), ()> {
        let clears = cache.clear_count();
        let (mut cur, mut len) = (sid, 0);
        let mut states = [LazyStateID::default(); 16];
        while len < 16 && at + len < path.len() {
            let next = dfa.next_state(cache, cur, path[at + len]).map_err(|_| ())?;
            if cache.clear_count() != clears {
                return Err(());
            }
            if next.is_tagged() || next == cur {
                break;
            }
            cur = next;
            states[len] = cur;
            len += 1;
        }
        self.runs[k].observe(&path[at..at + len], &states[..len]);
        Ok((cur, at + len))
    }
}

/// The bytes that usually follow a skip through a looping state, and the state they lead to:
/// www.reddit.com's rules leave the state of `/r/<name>` on `/`, then step through
/// `/comments/` byte by byte on nearly every URL. Once known, a skip that ends on those bytes
/// passes over them with one 16-byte comparison.
///
/// A run is learnt by stepping: every state after its first byte is untagged (no match, dead,
/// quit or unknown state is passed over) and differs from the one before it (a state that
/// loops is left to the skip), so passing over it changes nothing a walk folds. It holds
/// states of one generation of the cache: [`Accel::sync`] forgets it when the cache is
/// cleared.
#[derive(Clone, Debug, Default)]
struct Run {
    /// The run's bytes, little-endian (byte `i` in bits `8i..8i + 8`), and the mask of its
    /// length.
    bytes: u128,
    mask: u128,
    len: u8,
    /// The state after the run.
    end: LazyStateID,
    phase: RunPhase,
    /// While learning, the state after each byte of the run.
    states: [LazyStateID; 16],
}

/// Where a [`Run`] is in its learning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RunPhase {
    /// `seen`: times in a row that the bytes after a skip started with the run (which is cut
    /// to what they had in common, at least [`MIN_RUN`] bytes); `tries`: skips looked at so
    /// far.
    Learning { seen: u8, tries: u8 },
    /// Known: skips that end on it pass over it.
    On,
    /// No run followed often enough.
    Off,
}

impl Default for RunPhase {
    fn default() -> RunPhase {
        RunPhase::Learning { seen: 0, tries: 0 }
    }
}

/// A run is kept once it followed this many skips in a row.
const RUN_AFTER: u8 = 3;
/// After this many skips without a run kept, the state has none.
const RUN_TRIES: u8 = 32;
/// Shorter runs are not kept: passing over one costs a return from the walk and a checked
/// step, about as much as stepping over a few bytes.
const MIN_RUN: usize = 6;

/// `bytes` (at most 16) as a little-endian integer, and the mask of their length.
fn pack(bytes: &[u8]) -> (u128, u128) {
    let mut word = [0u8; 16];
    word[..bytes.len()].copy_from_slice(bytes);
    let mask = if bytes.len() == 16 {
        u128::MAX
    } else {
        (1u128 << (8 * bytes.len())) - 1
    };
    (u128::from_le_bytes(word), mask)
}

impl Run {
    /// Counts the bytes read after a skip (`bytes`, at most 16; `states[i]`: the state after
    /// `bytes[i]`).
    fn observe(&mut self, bytes: &[u8], states: &[LazyStateID]) {
        let RunPhase::Learning { seen, tries } = &mut self.phase else {
            return;
        };
        *tries += 1;
        let len = usize::from(self.len);
        let common = (self.bytes.to_le_bytes()[..len].iter())
            .zip(bytes)
            .take_while(|(a, b)| a == b)
            .count();
        if *seen > 0 && common >= MIN_RUN {
            // The same run (a prefix of it, as long as the states allow: both walks went
            // through the same states, the DFA being deterministic).
            *seen += 1;
            (self.bytes, self.mask) = pack(&bytes[..common]);
            self.len = common as u8;
        } else if bytes.len() >= MIN_RUN {
            (self.bytes, self.mask) = pack(bytes);
            self.len = bytes.len() as u8;
            self.states[..bytes.len()].copy_from_slice(states);
            *seen = 1;
        } else {
            *seen = 0;
        }
        if *seen >= RUN_AFTER {
            self.end = self.states[usize::from(self.len) - 1];
            self.phase = RunPhase::On;
        } else if *tries >= RUN_TRIES {
            self.phase = RunPhase::Off;
        }
    }

    /// Whether `path[at..]` starts with the run.
    #[inline]
    fn matches(&self, path: &[u8], at: usize) -> bool {
        match path.get(at..at + 16) {
            Some(window) => {
                let word = u128::from_le_bytes(window.try_into().expect("16 bytes"));
                (word ^ self.bytes) & self.mask == 0
            }
            None => {
                let len = usize::from(self.len);
                path.len() - at >= len && pack(&path[at..at + len]).0 == self.bytes
            }
        }
    }
}

/// The index of `sid` in its cache's table of states: its raw ID over the stride.
// regex-automata keeps the raw ID private; the `Hash` it derives writes exactly that `u32`,
// which this hasher keeps. Were that ever to change, the index would only be poorer: the
// table checks the state ID of every entry it returns.
#[inline]
fn state_index(sid: LazyStateID, stride2: usize) -> usize {
    /// Keeps the last integer written.
    struct Raw(u64);
    impl Hasher for Raw {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = self.0 << 8 | u64::from(b);
            }
        }
        fn write_u32(&mut self, n: u32) {
            self.0 = u64::from(n);
        }
    }
    let mut raw = Raw(0);
    sid.hash(&mut raw);
    (raw.0 as usize) >> stride2
}

/// The bytes on which the untagged state `sid` goes to another state, when there are at most
/// [`MAX_NEEDLES`]; `Ok(None)` when there are more. Computes the state's transition on every
/// byte class; `Err` when that cleared the cache or the cache gave up.
#[cold]
fn leaving_bytes(
    dfa: &hybrid::dfa::DFA,
    cache: &mut hybrid::dfa::Cache,
    sid: LazyStateID,
) -> Result<Option<ByteSet>, ()> {
    let clears = cache.clear_count();
    let classes = dfa.byte_classes();
    let mut leaves = [false; 256];
    for unit in classes.representatives(0..=255) {
        let Some(b) = unit.as_u8() else { continue };
        let next = dfa.next_state(cache, sid, b).map_err(|_| ())?;
        if cache.clear_count() != clears {
            return Err(());
        }
        leaves[usize::from(classes.get(b))] = next != sid;
    }
    let mut needles = [0u8; MAX_NEEDLES];
    let mut n = 0;
    for b in 0..=255u8 {
        if leaves[usize::from(classes.get(b))] {
            if n == MAX_NEEDLES {
                return Ok(None);
            }
            needles[n] = b;
            n += 1;
        }
    }
    Ok(ByteSet::new(&needles[..n]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simple(pattern: &str) -> Simple {
        let (p, anchored) = match pattern.strip_suffix('$') {
            Some(p) => (p, true),
            None => (pattern, false),
        };
        Simple {
            pieces: p.split('*').map(|s| s.as_bytes().to_vec()).collect(),
            anchored,
        }
    }

    /// The lazy DFA of `patterns`, each its own entry (key = index + 1, Disallow).
    fn lazy(patterns: &[&str], capacity: Option<usize>) -> (Lazy, Vec<(u64, u8)>) {
        let simples: Vec<Simple> = patterns.iter().map(|p| simple(p)).collect();
        let mut config = CompileConfig::default();
        if let Some(c) = capacity {
            config.cache_capacity = c;
            // Small caches are there to be cleared often, with states learnt and forgotten:
            // regex-automata's own give-up thresholds (3 clears, 10 bytes per state) let them.
            config.lazy_min_clears = 3;
            config.lazy_min_bytes_per_state = 10;
        }
        let nfa = build_nfa(&simples, &config).expect("nfa");
        let entries = (0..patterns.len()).map(|i| (i as u64 + 1, 1)).collect();
        (build_lazy(nfa, &config).expect("lazy"), entries)
    }

    /// The best key by brute force (the reference matcher's `matches`): the largest index + 1
    /// of a pattern that matches.
    fn brute(patterns: &[&str], path: &[u8]) -> u64 {
        patterns
            .iter()
            .enumerate()
            .filter(|(_, p)| crate::reference::matches(p.as_bytes(), path, true, true))
            .map(|(i, _)| i as u64 + 1)
            .max()
            .unwrap_or(0)
    }

    /// Walks `path` and checks the verdict against brute force; `false` when the walk gave up
    /// (the cache thrashed).
    fn agrees(
        l: &Lazy,
        cache: &mut LazyCache,
        entries: &[(u64, u8)],
        patterns: &[&str],
        path: &[u8],
    ) -> bool {
        let mut best = [0; 2];
        match l.fold(cache, entries, path, &mut best) {
            Ok(()) => {
                let want = brute(patterns, path);
                assert_eq!(best[1], want, "{}", String::from_utf8_lossy(path));
                true
            }
            Err(()) => false,
        }
    }

    /// A xorshift generator from `seed`: `next(n)` is in `0..n`.
    fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut x = seed;
        move |n| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        }
    }

    const PATTERNS: [&str; 6] = [
        "/*.json",
        "/*?*sort=",
        "/api",
        "/*/print$",
        "/r/*/x/",
        "/*b=1",
    ];

    #[test]
    fn a_state_that_loops_is_learnt_and_skipped_through() {
        let (l, entries) = lazy(&PATTERNS, None);
        let mut cache = l.create_cache();
        let long = b"/r/can_i_watch_live_olympic_coverage_anywhere_on_the_net_today";
        for _ in 0..(LEARN_AFTER + 2) {
            let mut best = [0; 2];
            l.fold(&mut cache, &entries, long, &mut best).unwrap();
            assert_eq!(best[1], brute(&PATTERNS, long));
        }
        // The letters loop on one state, which only `.`, `/`, `?` and `b` leave.
        let learnt: Vec<Vec<u8>> = cache
            .accel
            .sets
            .iter()
            .map(|s| s.bytes().collect())
            .collect();
        assert!(learnt.contains(&b"./?b".to_vec()), "{learnt:?}");
    }

    #[test]
    fn the_trial_keeps_skipping_only_where_it_pays() {
        let (l, entries) = lazy(&PATTERNS, None);
        // Long runs of letters: each skip passes over dozens of bytes.
        let long = format!("/r/{}.json", "a".repeat(60));
        // Runs of two letters between bytes that leave the state: skips pass over nothing.
        let short = "/r/aa/cc/aa?xx/aa/xa.aa/aa/xx/aa/cc/aa/xa/aa/ax/aa/aa".to_string();
        for (path, want) in [(long, Mode::On), (short, Mode::Off)] {
            let mut cache = l.create_cache();
            for _ in 0..=TRIAL_WALKS {
                let mut best = [0; 2];
                l.fold(&mut cache, &entries, path.as_bytes(), &mut best)
                    .unwrap();
                assert_eq!(best[1], brute(&PATTERNS, path.as_bytes()), "{path}");
            }
            assert_eq!(cache.accel.mode, want, "{path}");
        }
    }

    #[test]
    fn a_cache_made_for_another_dfa_is_replaced_not_walked() {
        // Caches of a DFA with many states (learnt, skipping) and of one with few: given to
        // the other DFA, the walk must not follow the foreign states (with the unchecked
        // transitions, they would index outside the table).
        let (big, big_entries) = lazy(&PATTERNS, None);
        let small_patterns = ["/a", "/*.x$"];
        let (small, small_entries) = lazy(&small_patterns, None);
        let mut big_cache = big.create_cache();
        let long = b"/r/can_i_watch_live_olympic_coverage_anywhere/on.json?sort=new";
        for _ in 0..(LEARN_AFTER + 2) {
            let mut best = [0; 2];
            big.fold(&mut big_cache, &big_entries, long, &mut best)
                .unwrap();
        }
        let paths: [&[u8]; 4] = [b"/a/b.x", b"/r/aaaa.json", long, b"/"];
        for path in paths {
            let mut cache = big_cache.clone();
            let mut best = [0; 2];
            small
                .fold(&mut cache, &small_entries, path, &mut best)
                .unwrap();
            assert_eq!(best[1], brute(&small_patterns, path));
            assert_eq!(cache.owner, small.id);
            let mut cache = small.create_cache();
            let mut best = [0; 2];
            big.fold(&mut cache, &big_entries, path, &mut best).unwrap();
            assert_eq!(best[1], brute(&PATTERNS, path));
        }
    }

    #[test]
    fn skipping_walks_agree_with_brute_force() {
        let mut next = xorshift(9309);
        // Pieces of the patterns, and near misses.
        let tokens: [&[u8]; 14] = [
            b".json", b".jso", b"?", b"sort=", b"/print", b"b=1", b"b=", b"/r/", b"/x/", b"/",
            b".", b"=", b"1", b"j",
        ];
        // The default cache, then the smallest (cleared often: learnt states must be
        // forgotten, and a clear while learning must give up on the input, not mislead); on
        // trial, skipping, and not.
        let runs = [
            (None, Mode::Trial),
            (None, Mode::On),
            (None, Mode::Off),
            (Some(0), Mode::On),
            (Some(8192), Mode::On),
            (Some(12000), Mode::On),
        ];
        for (capacity, mode) in runs {
            let (l, entries) = lazy(&PATTERNS, capacity);
            let mut cache = l.create_cache();
            cache.accel.mode = mode;
            let mut gave_up = 0;
            for _ in 0..3000 {
                let len = 1 + next(120) as usize;
                let mut path = vec![b'/'];
                while path.len() < len {
                    // Runs of one letter, and pieces that matter between them.
                    if next(2) == 0 {
                        let c = b"abxyz"[next(5) as usize];
                        path.extend(std::iter::repeat_n(c, 1 + next(30) as usize));
                    } else {
                        path.extend_from_slice(tokens[next(tokens.len() as u64) as usize]);
                    }
                }
                if !agrees(&l, &mut cache, &entries, &PATTERNS, &path) {
                    gave_up += 1;
                }
            }
            if capacity.is_some_and(|c| c > 0) {
                // (With a cache this small, states are learnt, forgotten and learnt again.)
                assert!(cache.cache.clear_count() > 0, "{capacity:?}: never cleared");
            }
            if capacity.is_none() {
                assert_eq!(gave_up, 0);
                assert_eq!(cache.accel.sets.is_empty(), mode == Mode::Off);
            }
        }
    }

    /// Paths where the same run follows a skip (`/comments/` after `/r/<name>`), with near
    /// misses: the run cut short, changed in its last byte, or cut by the end of the path.
    /// Every walk agrees with brute force; with the default cache the run is learnt and
    /// passed over, with small ones it is learnt, forgotten at each clear and learnt again.
    #[test]
    fn walks_that_pass_over_runs_agree_with_brute_force() {
        let patterns = [
            "/*.json",
            "/r/*/comments/*.rss",
            "/*?*sort=",
            "/r/*/comments/*/*/de/*",
            "/r/*/commentz",
        ];
        let mut next = xorshift(2024);
        let runs: [&str; 7] = [
            "/comments/",
            "/comments/",
            "/comments/",
            "/commentz",
            "/comment/",
            "/comments",
            "/comm",
        ];
        let tails: [&str; 6] = [".rss", ".json", "?sort=new", "/de/x", "", "/title/de/a.rss"];
        for capacity in [None, Some(0), Some(8192)] {
            let (l, entries) = lazy(&patterns, capacity);
            let mut cache = l.create_cache();
            cache.accel.mode = Mode::On;
            let mut gave_up = 0;
            for _ in 0..3000 {
                let mut path = b"/r/".to_vec();
                path.extend(std::iter::repeat_n(
                    b"abcxyz"[next(6) as usize],
                    5 + next(20) as usize,
                ));
                path.extend_from_slice(runs[next(runs.len() as u64) as usize].as_bytes());
                if next(4) != 0 {
                    path.extend(std::iter::repeat_n(b'q', next(12) as usize));
                    path.extend_from_slice(tails[next(tails.len() as u64) as usize].as_bytes());
                }
                if !agrees(&l, &mut cache, &entries, &patterns, &path) {
                    gave_up += 1;
                }
            }
            if capacity.is_none() {
                assert_eq!(gave_up, 0);
                let known: Vec<Vec<u8>> = (cache.accel.runs.iter())
                    .filter(|r| r.phase == RunPhase::On)
                    .map(|r| r.bytes.to_le_bytes()[..usize::from(r.len)].to_vec())
                    .collect();
                assert!(
                    known.iter().any(|r| r.starts_with(b"/comment")),
                    "{known:?}"
                );
            } else if capacity.is_some_and(|c| c > 0) {
                assert!(cache.cache.clear_count() > 0, "{capacity:?}: never cleared");
            }
        }
    }
}
