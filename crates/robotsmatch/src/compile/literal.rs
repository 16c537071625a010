//! Literal prefix patterns (no `*`, no `$`) in one anchored Aho-Corasick automaton: one walk
//! over the path folds every literal that is a prefix of it. Part of the
//! [`Engine::Split`](super::Engine::Split) layout.

/// Literal prefix patterns in an anchored Aho-Corasick automaton.
#[derive(Debug)]
pub(crate) struct Literal {
    automaton: LiteralAutomaton,
    /// Per literal id: its key and kind index.
    entries: Vec<(u64, u8)>,
}

/// A DFA when it fits the dense budget (one table lookup per byte), else a compact NFA.
#[derive(Debug)]
enum LiteralAutomaton {
    Dfa(aho_corasick::dfa::DFA),
    Nfa(aho_corasick::nfa::contiguous::NFA),
}

impl Literal {
    /// Builds the automaton of `literals` (with their `(key, kind)` entries): a DFA when its
    /// estimated size fits `dense_budget`, else a contiguous NFA. `None` if it cannot be built.
    pub(crate) fn build(
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

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        use aho_corasick::automaton::Automaton as _;
        self.entries.len() * std::mem::size_of::<(u64, u8)>()
            + match &self.automaton {
                LiteralAutomaton::Dfa(d) => d.memory_usage(),
                LiteralAutomaton::Nfa(n) => n.memory_usage(),
            }
    }

    /// Folds the keys of every literal that is a prefix of `path`.
    #[inline]
    pub(crate) fn fold(&self, path: &[u8], best: &mut [u64; 2]) {
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
