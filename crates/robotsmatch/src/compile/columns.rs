//! An unanchored Aho-Corasick automaton as a DFA laid out by byte class ("column-major"), for
//! the shared scan of pieces in [`super::tree`].
//!
//! Scanning a path with a DFA is a chain of dependent loads, one per byte: the next state is
//! read from where the current state and the byte's class say. aho-corasick's DFA stores
//! states row by row and computes `state + class` before each load, so every step waits for
//! that addition and then the load. Here the transitions of one class are one column
//! (`trans[class * states + state]`): the column is chosen from the byte alone, off the chain,
//! and the step is the load at `column[state]` with nothing in front of it. The bounds check
//! (`state < states`) is a comparison that runs beside the load, not before it, so the copy
//! needs no `unsafe`.
//!
//! States are renumbered: the ordinary states first, then the special ones (the start state
//! when the scan skips with a prefilter, then the states where pieces end), so "special" is one
//! comparison, as it is in aho-corasick.

use aho_corasick::automaton::{Automaton, Prefilter};
use aho_corasick::Anchored;

/// An unanchored Aho-Corasick DFA as columns of transitions (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Columns {
    /// `trans[class * states + s]`: the state after `s` reads a byte of `class`.
    // PERF: 16-bit states: d-wildcards' table 109 -> 55 KB, decisions 1% faster (within noise).
    trans: Box<[u16]>,
    /// Per byte, the start of its class's column in `trans` (`class * states`).
    column: Box<[u32; 256]>,
    /// The number of states.
    states: u32,
    /// States numbered from here on are special: a match, or the start state when
    /// `prefilter` is set.
    special: u32,
    /// States numbered from here on are matches.
    first_match: u32,
    /// The start state.
    start: u32,
    /// Per match state (from `first_match`), its range in `ids`.
    match_ranges: Box<[(u32, u32)]>,
    /// The automaton's pattern ids of the pieces that end in each match state.
    ids: Box<[u32]>,
    /// The automaton's prefilter: where the scan is back in the start state, it skips to the
    /// next place where a piece may start.
    prefilter: Option<Prefilter>,
}

impl Columns {
    /// The DFA of `a`, an Aho-Corasick automaton of `pieces` with the standard match kind (an
    /// NFA's unanchored transitions follow its failure links, so they are the DFA's); `None`
    /// if its unanchored start state cannot be had or a transition leads to a dead state
    /// (neither happens for such an automaton), or if it has more than 65,536 states (the
    /// table holds 16-bit states: half the memory; the dense budget keeps the tree's automata
    /// far below that).
    pub(crate) fn new(a: &impl Automaton, pieces: &[&[u8]]) -> Option<Columns> {
        // Classes: every byte that occurs in a piece is a class of its own; all the others are
        // class 0, since reading one of them leaves no piece under way (the state after it is
        // the start state, whatever the state before).
        let mut class_of = [0u16; 256];
        let mut reps = vec![0u8];
        for &b in pieces.iter().flat_map(|p| p.iter()) {
            if class_of[b as usize] == 0 {
                class_of[b as usize] = reps.len() as u16;
                reps.push(b);
            }
        }
        // The representative of class 0: a byte in no piece (when the pieces use all 256
        // bytes, class 0 has none and its column is never read).
        reps[0] = (0..=255u8)
            .find(|&b| class_of[b as usize] == 0)
            .unwrap_or(0);
        let classes = reps.len();
        let start = a.start_state(Anchored::No).ok()?;
        let start_special = a.is_special(start) && !a.is_match(start);
        // Every state is reachable from the start state: number them breadth first. The
        // automaton's state IDs are small integers, so the numbering is a vector indexed by
        // them.
        // PERF: a hash map of IDs and a vector per row tripled the tree's build time on
        // d-wildcards (0.6 -> 1.1-2.2 ms).
        let mut number = vec![u32::MAX; 64];
        let mut order = vec![start];
        let slot = |number: &mut Vec<u32>, k: usize| {
            if k >= number.len() {
                number.resize((k + 1).max(2 * number.len()), u32::MAX);
            }
        };
        slot(&mut number, start.as_usize());
        number[start.as_usize()] = 0;
        // Transitions by breadth-first number, row by row.
        let mut rows: Vec<u32> = Vec::with_capacity(classes * 64);
        let mut i = 0;
        while i < order.len() {
            let s = order[i];
            i += 1;
            for &b in &reps {
                let t = a.next_state(Anchored::No, s, b);
                slot(&mut number, t.as_usize());
                let n = &mut number[t.as_usize()];
                if *n == u32::MAX {
                    if a.is_dead(t) {
                        return None;
                    }
                    *n = order.len() as u32;
                    order.push(t);
                }
                rows.push(*n);
            }
        }
        let states = order.len();
        if states > usize::from(u16::MAX) + 1 {
            return None;
        }
        // Ordinary states, then the start state if it is special, then the match states.
        let mut by_rank: Vec<u32> = Vec::with_capacity(states);
        let mut matching: Vec<u32> = Vec::new();
        for (k, &sid) in order.iter().enumerate() {
            if a.is_match(sid) {
                matching.push(k as u32);
            } else if !(k == 0 && start_special) {
                by_rank.push(k as u32);
            }
        }
        let special = by_rank.len() as u32;
        if start_special {
            by_rank.push(0);
        }
        let first_match = by_rank.len() as u32;
        by_rank.extend_from_slice(&matching);
        let mut renumber = vec![0u32; states];
        for (new, &old) in by_rank.iter().enumerate() {
            renumber[old as usize] = new as u32;
        }
        for t in &mut rows {
            *t = renumber[*t as usize];
        }
        let mut trans = vec![0u16; classes * states].into_boxed_slice();
        for (c, column) in trans.chunks_exact_mut(states).enumerate() {
            for (to, &old) in column.iter_mut().zip(&by_rank) {
                *to = rows[old as usize * classes + c] as u16;
            }
        }
        let mut match_ranges = Vec::with_capacity(matching.len());
        let mut ids = Vec::new();
        for &old in &matching {
            let sid = order[old as usize];
            let from = ids.len() as u32;
            for k in 0..a.match_len(sid) {
                ids.push(a.match_pattern(sid, k).as_u32());
            }
            match_ranges.push((from, ids.len() as u32));
        }
        let mut column = Box::new([0u32; 256]);
        for (b, c) in class_of.iter().enumerate() {
            column[b] = u32::from(*c) * states as u32;
        }
        Some(Columns {
            trans,
            column,
            states: states as u32,
            special,
            first_match,
            start: renumber[0],
            match_ranges: match_ranges.into_boxed_slice(),
            ids: ids.into_boxed_slice(),
            prefilter: if start_special {
                a.prefilter().cloned()
            } else {
                None
            },
        })
    }

    /// The start state.
    #[inline]
    pub(crate) fn start(&self) -> u32 {
        self.start
    }

    /// The prefilter to skip with from the start state (set when the start state is special).
    #[inline]
    pub(crate) fn prefilter(&self) -> Option<&Prefilter> {
        self.prefilter.as_ref()
    }

    /// True when `s` is a match or the start state with a prefilter.
    #[inline]
    pub(crate) fn is_special(&self, s: u32) -> bool {
        s >= self.special
    }

    /// True when pieces end in state `s`.
    #[inline]
    pub(crate) fn is_match(&self, s: u32) -> bool {
        s >= self.first_match
    }

    /// The automaton's pattern ids of the pieces that end in state `s` (none unless `s` is a
    /// match state).
    #[inline]
    pub(crate) fn matches(&self, s: u32) -> &[u32] {
        match s.checked_sub(self.first_match) {
            Some(m) => {
                let (from, to) = self.match_ranges[m as usize];
                &self.ids[from as usize..to as usize]
            }
            None => &[],
        }
    }

    /// The state after `s` reads `b`.
    #[inline]
    pub(crate) fn next(&self, s: u32, b: u8) -> u32 {
        let col = self.column[b as usize] as usize;
        u32::from(self.trans[col..col + self.states as usize][s as usize])
    }

    /// Steps from `s` through `path[at..]` until a special state is entered; returns it and the
    /// index after the byte that entered it, or the last state and `path.len()`.
    // PERF: a loop of its own, not inlined: inlined in the scan, the path and the table were
    // reloaded from the stack on every byte (as they were for aho-corasick's automaton).
    #[inline(never)]
    pub(crate) fn run(&self, mut s: u32, path: &[u8], at: usize) -> (u32, usize) {
        let (trans, column, states) = (&*self.trans, &*self.column, self.states as usize);
        let mut bytes = path[at..].iter();
        for &b in bytes.by_ref() {
            let col = column[b as usize] as usize;
            s = u32::from(trans[col..col + states][s as usize]);
            if s >= self.special {
                break;
            }
        }
        (s, path.len() - bytes.len())
    }

    /// Heap bytes held (the prefilter, shared with the automaton it came from, counted as a
    /// nominal 64 bytes).
    pub(crate) fn memory_usage(&self) -> usize {
        self.trans.len() * 2
            + 256 * 4
            + self.match_ranges.len() * 8
            + self.ids.len() * 4
            + self.prefilter.as_ref().map_or(0, |_| 64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The automaton the tree copies: aho-corasick's noncontiguous NFA.
    fn nfa(pieces: &[&[u8]]) -> aho_corasick::nfa::noncontiguous::NFA {
        aho_corasick::nfa::noncontiguous::Builder::new()
            .match_kind(aho_corasick::MatchKind::Standard)
            .build(pieces)
            .unwrap()
    }

    /// aho-corasick's DFA of the same pieces, whose copy must be the same table.
    fn dfa(pieces: &[&[u8]]) -> aho_corasick::dfa::DFA {
        aho_corasick::dfa::Builder::new()
            .match_kind(aho_corasick::MatchKind::Standard)
            .start_kind(aho_corasick::StartKind::Unanchored)
            .build(pieces)
            .unwrap()
    }

    /// Every (piece id, end) that the copy reports, stepping byte by byte.
    fn ends(c: &Columns, path: &[u8]) -> Vec<(u32, usize)> {
        let mut s = c.start();
        let mut out = Vec::new();
        for (i, &b) in path.iter().enumerate() {
            s = c.next(s, b);
            for &id in c.matches(s) {
                out.push((id, i + 1));
            }
        }
        out.sort_unstable();
        out
    }

    /// Every (piece id, end) by brute force.
    fn brute(pieces: &[&[u8]], path: &[u8]) -> Vec<(u32, usize)> {
        let mut out = Vec::new();
        for (id, p) in pieces.iter().enumerate() {
            for end in p.len()..=path.len() {
                if &path[end - p.len()..end] == *p {
                    out.push((id as u32, end));
                }
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn reports_every_occurrence_of_every_piece() {
        let pieces: Vec<&[u8]> = vec![
            b"/facets/",
            b"/facets/price",
            b"size",
            b"tops",
            b"plustops",
            b"/c/",
            b"/p/",
            b"s/p",
            b"\xff\x00",
            b"aaa",
            b"aa",
        ];
        let c = Columns::new(&nfa(&pieces), &pieces).unwrap();
        for path in [
            &b"/US/en/facets/plustops/size/c/p/facets/price"[..],
            b"",
            b"aaaaaa",
            b"/p/p/p/s/p",
            b"\xff\x00\xff\x00x\xff",
            b"/facets",
            b"xyz/fac/c/zz/ccc/",
        ] {
            assert_eq!(ends(&c, path), brute(&pieces, path), "{path:?}");
        }
    }

    #[test]
    fn run_stops_only_at_special_states() {
        let pieces: Vec<&[u8]> = vec![b"cart", b"/checkout", b"art"];
        let c = Columns::new(&nfa(&pieces), &pieces).unwrap();
        let path = b"/x/cart/y/checkout?q=cart";
        let (mut s, mut at) = (c.start(), 0);
        let mut found = Vec::new();
        while at < path.len() {
            (s, at) = c.run(s, path, at);
            if !c.is_special(s) {
                assert_eq!(at, path.len());
                break;
            }
            for &id in c.matches(s) {
                found.push((id, at));
            }
            if c.matches(s).is_empty() {
                // The start state, with a prefilter: go on from the next byte.
                assert_eq!(s, c.start());
                assert!(c.prefilter().is_some());
            }
        }
        found.sort_unstable();
        assert_eq!(found, brute(&pieces, path));
    }

    /// A seeded xorshift: `rnd(n)` is below `n`.
    fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    #[test]
    fn more_states_than_16_bits_hold_is_none() {
        // 1,400 pieces of 64 bytes over two letters: about 77,000 trie states (900: 49,000).
        let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15);
        let owned: Vec<Vec<u8>> = (0..1400)
            .map(|_| (0..64).map(|_| b"ab"[rnd(2) as usize]).collect())
            .collect();
        let pieces: Vec<&[u8]> = owned.iter().map(|p| &p[..]).collect();
        assert!(Columns::new(&nfa(&pieces), &pieces).is_none());
        let few: Vec<&[u8]> = pieces[..900].to_vec();
        assert!(Columns::new(&nfa(&few), &few).is_some());
    }

    #[test]
    fn every_transition_is_a_state() {
        // Random piece sets: every entry of the table names a state, so a column lookup
        // never leaves its column.
        let mut rnd = xorshift(0x2545_f491_4f6c_dd1d);
        for _ in 0..200 {
            let k = 1 + rnd(40) as usize;
            let owned: Vec<Vec<u8>> = (0..k)
                .map(|_| {
                    (0..1 + rnd(6))
                        .map(|_| b"ab/c\xff"[rnd(5) as usize])
                        .collect()
                })
                .collect();
            let pieces: Vec<&[u8]> = owned.iter().map(|p| &p[..]).collect();
            let c = Columns::new(&nfa(&pieces), &pieces).unwrap();
            assert!(c.trans.iter().all(|&t| u32::from(t) < c.states));
            assert!(c.start < c.states);
            let path: Vec<u8> = (0..rnd(64))
                .map(|_| b"ab/c\xffx"[rnd(6) as usize])
                .collect();
            assert_eq!(
                ends(&c, &path),
                brute(&pieces, &path),
                "{pieces:?} {path:?}"
            );
            // Copied from aho-corasick's DFA instead, the table is the same.
            let d = Columns::new(&dfa(&pieces), &pieces).unwrap();
            assert_eq!(
                (&d.trans, d.start, d.special),
                (&c.trans, c.start, c.special)
            );
            assert_eq!((&d.ids, &d.match_ranges), (&c.ids, &c.match_ranges));
        }
    }
}
