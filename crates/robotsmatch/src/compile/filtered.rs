//! Many wildcard patterns behind a literal prefilter: every pattern needs its longest literal
//! piece to occur in the path, so an unanchored Aho-Corasick scan of the path finds the
//! candidates and only those are checked one by one. Part of the
//! [`Engine::Split`](super::Engine::Split) layout, for more wildcard patterns than a lazy DFA
//! handles without thrashing.

use std::collections::HashMap;

use super::pattern::{find, Simple};

/// One pattern checked on its own: `first * p1 * ... * pk`, optionally anchored at the end.
#[derive(Debug)]
struct Verify {
    first: Vec<u8>,
    /// The pieces after each `*`.
    rest: Vec<Vec<u8>>,
    anchored: bool,
    key: u64,
    kind: u8,
}

impl Verify {
    fn new(s: Simple, (key, kind): (u64, u8)) -> Verify {
        let mut pieces = s.pieces.into_iter();
        let first = pieces.next().unwrap_or_default();
        Verify {
            first,
            rest: pieces.collect(),
            anchored: s.anchored,
            key,
            kind,
        }
    }

    fn memory_usage(&self) -> usize {
        self.first.len() + self.rest.iter().map(|p| p.len() + 24).sum::<usize>() + 64
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
        for piece in middle {
            match find(&path[pos..], piece) {
                Some(i) => pos += i + piece.len(),
                None => return false,
            }
        }
        if self.anchored {
            path.len() >= pos + last.len() && path.ends_with(last)
        } else {
            find(&path[pos..], last).is_some()
        }
    }
}

/// Wildcard patterns behind a literal prefilter.
#[derive(Debug)]
pub(crate) struct Filtered {
    pieces: aho_corasick::nfa::contiguous::NFA,
    /// Per piece id: the patterns that need it.
    by_piece: Vec<Vec<u32>>,
    patterns: Vec<Verify>,
}

impl Filtered {
    /// Builds the prefilter of `simples` (wildcard patterns) with their `(key, kind)` entries.
    pub(crate) fn new(simples: Vec<Simple>, entries: Vec<(u64, u8)>) -> Filtered {
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
            patterns.push(Verify::new(s, e));
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

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        aho_corasick::automaton::Automaton::memory_usage(&self.pieces)
            + self
                .by_piece
                .iter()
                .map(|v| v.len() * 4 + 24)
                .sum::<usize>()
            + self
                .patterns
                .iter()
                .map(Verify::memory_usage)
                .sum::<usize>()
    }

    /// Folds the keys of the patterns that match `path`.
    #[inline]
    pub(crate) fn fold(&self, path: &[u8], best: &mut [u64; 2]) {
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
