//! [`Engine::Tree`](super::Engine::Tree): a radix tree of the patterns' literal prefixes,
//! walked once over the path, and for wildcard patterns a tree of the pieces after the first
//! `*`, searched only where the walk activated them and only while they can still change the
//! verdict.
//!
//! Every pattern is `first * p1 * ... * pk` (optionally `$`-anchored). `first` is anchored at the
//! start of the path, so all first pieces go into one radix tree (edges labelled with byte runs,
//! so long shared prefixes such as `/wiki/Spezial:` cost one comparison, not one step per byte).
//! A node where a literal pattern ends holds its key (folded when the walk reaches the node; a
//! `$` pattern only when the path ends there too). A node where the first piece of wildcard
//! patterns ends activates them at that depth. The walk of a path whose first segment (or
//! first two, in files deep there) is a node's whole string starts at that node, found by a
//! hash of the segment's bytes (see [`Jumps`]), after the keys and activations of the nodes
//! above it. Where the nodes with keys or activations are few and short (their strings fill
//! at most 8 rows of 64 bytes: 64 strings of up to 8 bytes, 32 of up to 16, ...) and the
//! processor has AVX-512, there is no walk: a [`PrefixTable`] compares all their strings with
//! the path at once (see [`Table`]).
//!
//! The wildcard patterns activated at one node share a second tree keyed by their pieces in
//! order (`/*?*sort=` and `/*?*order=` share the search for `?`). Each piece is placed at its
//! leftmost occurrence after the previous one (a `memchr` / `memmem` searcher built once), which
//! finds a match whenever one exists; an anchored pattern's last piece must end the path (one
//! comparison: a leaf piece of at most 8 bytes, such as `.pdf` in `/*.pdf$`, is kept apart
//! from the children searched and compared with the path's last word). A node with many
//! children first scans the path once with an Aho-Corasick automaton of their pieces (a DFA
//! laid out by byte class, [`super::columns`], when it fits the dense budget), so only the
//! children whose piece occurs are searched.
//!
//! Where every searched piece fits one [`BucketScan`] (3 to 72 pieces, their looked-up bytes
//! ASCII) and the processor has AVX-512 VBMI (or AVX2, for at least 9 pieces), a path of at
//! most 128 bytes is scanned once for all of them instead, without a dependent load per byte,
//! and only the children whose bucket has a candidate are searched (see
//! [`Tree::fold_bucketed`]). A tree whose scan has more than
//! [`FEW_SETS`](crate::bytescan::FEW_SETS) sets of 8 buckets keeps the Aho-Corasick scan too,
//! for longer paths; with fewer, longer paths search each piece on its own.
//!
//! Verdict pruning: the walk collects the literal matches first. Let `floor` be the higher
//! priority of the best Allow and the best Disallow so far: a pattern of lower priority can
//! neither change the verdict nor become the deciding rule, so every subtree whose highest
//! priority is below `floor` is skipped (children are ordered by it, so the search stops at the
//! first such child).

use std::collections::HashMap;

use super::columns::Columns;
use super::pattern::{key_priority, PatternSet, ALLOW, DISALLOW};
use crate::bytescan::{load8, prefetch, same, BucketIsa, BucketScan, PrefixSet, PrefixTable};
use crate::profile::Precedence;

/// No index.
const NONE: u32 = u32::MAX;

/// A node of the radix tree of first pieces. The children of a node are consecutive nodes.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    /// The first (up to) 8 bytes of the edge label leading into the node, little-endian; its
    /// first byte selects the node among its siblings.
    label: u64,
    /// Up to 8 children: their first bytes, little-endian, padded with the first one. More:
    /// the index of the set of their first bytes in `wide`.
    child_bytes: u64,
    /// Where the label's bytes after the eighth are in `labels`.
    label_rest: u32,
    /// The index of the first child in `nodes`.
    child_start: u32,
    /// An index into `keys` (+1), 0 for none.
    keys: u32,
    /// The index of the root of the piece tree of the wildcard patterns activated here (+1),
    /// 0 for none.
    rest: u32,
    label_len: u16,
    child_len: u16,
    /// `64 - 8 * min(label_len, 8)`: `u64::MAX >> head_shift` masks the label's first bytes
    /// (up to 8) in a word of the path.
    head_shift: u8,
}

/// The children of a node with more than 8, by their first byte: the child's position, or 0
/// for a byte that starts no child (the walk then compares the first child's label, whose
/// first byte differs, and stops as it would have).
// PERF: a 256-bit set and the count of bits below the byte cost ~25 instructions a lookup
// (no `popcnt` in the x86-64 baseline: `count_ones` is a bit-twiddling sequence); this is one
// load, for 256 bytes instead of 40 per node with more than 8 children.
#[derive(Clone, Copy, Debug)]
struct Wide {
    position: [u8; 256],
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

impl Node {
    /// The position among the node's children of the child whose label starts with `b`; for
    /// a node with more than 8 children, a position is always given, and the caller's
    /// comparison of the child's label (first byte included) rejects a byte with no child.
    #[inline]
    fn child(&self, b: u8, wide: &[Wide]) -> Option<usize> {
        if self.child_len <= 8 {
            // The lowest byte of `x` that is zero is the first child byte equal to `b` (the
            // zero-byte test can only err on bytes above a true zero).
            let x = self.child_bytes ^ (LO * b as u64);
            let z = x.wrapping_sub(LO) & !x & HI;
            let i = (z.trailing_zeros() / 8) as usize;
            (z != 0 && i < self.child_len as usize).then_some(i)
        } else {
            // Possibly a child whose label does not start with `b` (see `Wide`): the caller
            // compares the label.
            Some(wide[self.child_bytes as usize].position[b as usize] as usize)
        }
    }
}

/// A node of a piece tree: one piece, searched after the parent's piece.
#[derive(Clone, Debug)]
struct RestNode {
    /// The piece (an index into `pieces`); [`NONE`] for a root.
    piece: u32,
    /// Children, ordered by `max_priority`, highest first.
    children: Vec<u32>,
    /// Per kind: the best key of the patterns ending here without `$` (0 = none).
    open: [u64; 2],
    /// Per kind: the best key of the patterns ending here with `$` (0 = none).
    anchored: [u64; 2],
    /// The highest priority of any pattern ending here or below (a priority is the high half
    /// of a key: 32 bits).
    max_priority: u32,
    /// For a node whose children's pieces are in [`Multi`]: those children by piece, sorted
    /// (`(piece, child)`), so that only the children whose piece occurs are tried.
    by_piece: Box<[(u32, u32)]>,
    /// ... and the other children (pieces of one byte, or only `$`-anchored).
    // PERF: boxed slices rather than `Vec`s (set once, at the end of the build), so that
    // `ends` costs no memory: 24 bytes more a node were +12% hot memory on d-wildcards.
    others: Box<[u32]>,
    /// The children that are leaves ending patterns with `$` only, with pieces of at most 8
    /// bytes (`/*.pdf$`, `/*/print$`): compared with the path's last word, apart from
    /// `children`.
    // PERF: one such child cost about 75 instructions through `try_child` (a-tiny's
    // `/*.pdf$`, b-shop's `.pdf`, `.json`, `.xml`, `/print`); here it is a few.
    ends: Box<[End]>,
}

impl RestNode {
    /// No pattern goes on after this node's piece.
    #[inline]
    fn is_leaf(&self) -> bool {
        self.children.is_empty() && self.ends.is_empty()
    }

    /// Its piece must be searched in the path, not only compared with the path's end (for
    /// `$`): patterns end with it without `$`, or go on after it.
    fn is_searched(&self) -> bool {
        self.open != [0; 2] || !self.is_leaf()
    }
}

/// A piece of at most 8 bytes that must end the path, and the node whose patterns it ends.
#[derive(Clone, Copy, Debug)]
struct End {
    /// The piece, little-endian, in the low `len` bytes.
    word: u64,
    len: u32,
    /// The piece tree node (its `anchored` keys are folded when the piece ends the path).
    node: u32,
}

/// Whether `path`, whose [`last8`] is `last`, ends with the piece of `len` bytes (1 to 8,
/// `len <= path.len()`) whose bytes are `word` (little-endian, zero-padded).
#[inline]
fn ends_with_word(last: u64, len: usize, word: u64) -> bool {
    last >> (64 - 8 * len) == word
}

/// The last (up to) 8 bytes of `path`, little-endian, in the high bytes of the word: shifted
/// right by `64 - 8 * len`, the path's last `len` bytes (`len <= path.len()`).
#[inline]
fn last8(path: &[u8]) -> u64 {
    match path.len() {
        0 => 0,
        n @ 1..=7 => load8(path) << (64 - 8 * n),
        n => u64::from_le_bytes(path[n - 8..].try_into().unwrap_or([0; 8])),
    }
}

/// A piece after a `*`.
#[derive(Clone, Debug)]
struct Piece {
    bytes: Box<[u8]>,
    /// Found by the shared scan ([`Multi`]) rather than on its own.
    multi: bool,
    /// Its bucket in [`Tree::buckets`], or [`NO_BUCKET`].
    bucket: u8,
}

/// No bucket.
const NO_BUCKET: u8 = u8::MAX;

/// A tree searches its pieces with a [`BucketScan`] only when it has at least this many.
const BUCKET_MIN_PIECES: usize = 3;

/// [`BUCKET_MIN_PIECES`] for a scan with AVX2 ([`BucketScan::scan_avx2`]): more than one set.
// PERF: `speed`, pinned, 5 alternations, the fastest of each (the AMD Zen 3 machine, AVX2
// only): against the search without buckets, d-wildcards' 67 pieces 285.4 -> 249.3 ns per
// URL, b-shop's 23 (a tree with the scan, against the lazy DFA it got without) 148.5 ->
// 143.5, but e-largest's 5 pieces 110.1 -> 113.6.
const BUCKET_MIN_PIECES_AVX2: usize = 9;

/// The first 3 bytes of `pieces`, each once, sorted; `None` when a piece is shorter.
fn first_grams(pieces: &[&[u8]]) -> Option<Vec<[u8; 3]>> {
    let mut grams = pieces
        .iter()
        .map(|p| match p {
            [a, b, c, ..] => Some([*a, *b, *c]),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    grams.sort_unstable();
    grams.dedup();
    Some(grams)
}

/// The children of a piece tree node by the buckets of their pieces ([`Tree::buckets`]), so
/// that a search tries only those whose piece may occur in the path.
#[derive(Clone, Debug)]
struct BucketNode {
    /// Bit `i % 64` of word `i / 64` when a child's piece is bucket `i`.
    mask: [u64; 2],
    /// Those children, by bucket (the child of the `k`th lowest bit of `mask` is `kids[k]`).
    kids: Box<[u32]>,
    /// Children whose piece has no bucket (only compared with the end of the path).
    plain: Box<[u32]>,
}

impl Piece {
    /// Whether `path` ends with the piece (the caller checked that it is at least as long).
    #[inline]
    fn ends(&self, path: &[u8]) -> bool {
        let len = self.bytes.len();
        debug_assert!(path.len() >= len);
        // PERF: most anchored pieces are short (`.pdf`, `.php`, `/print`): comparing the
        // path's last word, shifted to the piece's length, replaces a byte loop.
        if (1..=8).contains(&len) {
            return ends_with_word(last8(path), len, load8(&self.bytes));
        }
        same(&path[path.len() - len..], &self.bytes)
    }
}

/// Pieces searched by one shared scan of the path: the searched pieces of the children of
/// piece tree nodes with more than [`WIDE_CHILDREN`] of them (real files put dozens of
/// patterns such as `/*/*/cart`, `/*/*/checkout`, ... under one node). One Aho-Corasick pass
/// records where they occur; each search is then a lookup.
#[derive(Clone, Debug)]
struct Multi {
    automaton: MultiAutomaton,
    /// Automaton pattern id to piece id.
    piece: Vec<u32>,
    /// Automaton pattern id to piece length.
    len: Vec<u32>,
    /// Where the scan skips to from the start state instead of using the automaton's
    /// prefilter ([`Skip`]): the next place where one of the pieces' first 3 bytes occur,
    /// or for at most [`MULTI_MAX_SKIP`] pieces with more starts than that, the leftmost piece
    /// (a Teddy search, where it can be built).
    // PERF: pieces that all start with `/` (e-largest's `/*/sp_common/`, `/*/dcommon/`, ...)
    // give Aho-Corasick a prefilter on `/`, which stops every few bytes of a path and paid
    // memchr's set-up each time: 720 of e's 1,980 instructions per URL.
    skip: Option<Skip>,
}

/// How [`Multi`]'s scan skips from the start state to where a piece may start.
#[derive(Clone, Debug)]
enum Skip {
    /// Every piece is 3 bytes or longer and they start with at most
    /// [`bytescan::MAX_PREFIXES`](crate::bytescan::MAX_PREFIXES) distinct strings of 3 bytes:
    /// to the next of those.
    // PERF: e-largest's five pieces start with `/sp`, `/dc` and `/pl`. Teddy's search for them
    // took ~270 of its 1,174 instructions per URL (its set-up on every call, for a path of a
    // few dozen bytes); this one ~200 of 1,201, and the decision 4-5% less time (`speed`,
    // pinned, alternating builds). Two-byte starts (`/s`, `/d`, `/p`) stopped at most path
    // segments: 1,311 instructions and 13% more time than Teddy.
    Prefixes(Box<PrefixSet>),
    /// Teddy: to the leftmost occurrence of a piece.
    Teddy(aho_corasick::packed::Searcher),
}

impl Skip {
    /// The first position at or after `at` where a piece may start (`Prefixes`) or starts
    /// (`Teddy`), or `None`.
    #[inline]
    fn find(&self, path: &[u8], at: usize) -> Option<usize> {
        match self {
            Skip::Prefixes(p) => Some(p.first_in(path, at)).filter(|&i| i < path.len()),
            Skip::Teddy(t) => t
                .find_in(path, aho_corasick::Span::from(at..path.len()))
                .map(|m| m.start()),
        }
    }

    fn memory_usage(&self) -> usize {
        match self {
            Skip::Prefixes(p) => std::mem::size_of_val(&**p),
            Skip::Teddy(t) => t.memory_usage(),
        }
    }
}

/// A DFA when it fits the dense budget (copied into [`Columns`]), else a compact NFA (also
/// for the rare DFA with more states than [`Columns`] holds).
#[derive(Clone, Debug)]
enum MultiAutomaton {
    Dfa(Columns),
    Nfa(Box<aho_corasick::nfa::contiguous::NFA>),
    /// Past [`MULTI_MAX_AC`] pieces: a radix trie of the pieces, walked from every position.
    Trie(PieceTrie),
}

/// More pieces than this and [`Multi`] is a [`PieceTrie`] rather than an Aho-Corasick
/// automaton.
// PERF: Aho-Corasick builds slowly for some large sets: 10,000 pieces `a0` ... `a9999` took
// 160 ms (its failure links), where the trie takes a few ms; on a real path the trie's walk
// from each position costs about what the automaton's walk does.
const MULTI_MAX_AC: usize = 1000;

/// More pieces than this and [`Multi`] has no Teddy skip.
const MULTI_MAX_SKIP: usize = 16;

/// A radix trie of pieces, each node with the pieces that end there; searched by walking it
/// from every position of the path whose byte starts some piece.
#[derive(Clone, Debug)]
struct PieceTrie {
    /// (label start, label length, first child, number of children, first piece id, number
    /// of piece ids)
    nodes: Vec<[u32; 6]>,
    /// The first label byte of each node, by node (to pick a child).
    first_byte: Vec<u8>,
    labels: Vec<u8>,
    /// Automaton pattern ids (indices into [`Multi::piece`]) ending at each node.
    ends: Vec<u32>,
    /// The bytes that start some piece.
    starts: [u64; 4],
}

impl PieceTrie {
    fn build(pieces: &[&[u8]]) -> PieceTrie {
        let mut order: Vec<u32> = (0..pieces.len() as u32).collect();
        order.sort_by(|&a, &b| pieces[a as usize].cmp(pieces[b as usize]));
        let sorted: Vec<&[u8]> = order.iter().map(|&i| pieces[i as usize]).collect();
        let mut radix = RadixBuilder::new();
        let at = radix.build(&sorted);
        let (bfs, new_index) = radix.breadth_first();
        let mut ends_of: Vec<Vec<u32>> = vec![Vec::new(); radix.nodes.len()];
        for (k, &node) in at.iter().enumerate() {
            ends_of[node as usize].push(order[k]);
        }
        let mut t = PieceTrie {
            nodes: Vec::with_capacity(bfs.len()),
            first_byte: Vec::with_capacity(bfs.len()),
            labels: Vec::new(),
            ends: Vec::new(),
            starts: [0; 4],
        };
        for &old in &bfs {
            let b = radix.nodes[old as usize];
            let label =
                &radix.labels[b.label_start as usize..(b.label_start + b.label_len) as usize];
            let kids = &radix.kids[old as usize];
            let ends = &ends_of[old as usize];
            t.nodes.push([
                t.labels.len() as u32,
                label.len() as u32,
                kids.first().map_or(0, |&k| new_index[k as usize]),
                kids.len() as u32,
                t.ends.len() as u32,
                ends.len() as u32,
            ]);
            t.first_byte.push(label.first().copied().unwrap_or(0));
            t.labels.extend_from_slice(label);
            t.ends.extend_from_slice(ends);
        }
        for p in pieces {
            if let Some(&b) = p.first() {
                t.starts[(b >> 6) as usize] |= 1 << (b & 63);
            }
        }
        t
    }

    fn memory_usage(&self) -> usize {
        self.nodes.capacity() * 24
            + self.first_byte.capacity()
            + self.labels.capacity()
            + self.ends.capacity() * 4
    }

    /// Calls `hit(id, start)` for every occurrence of a piece in `path`, in order of start.
    #[inline]
    fn scan(&self, path: &[u8], mut hit: impl FnMut(usize, usize) -> bool) {
        for i in 0..path.len() {
            let b = path[i];
            if self.starts[(b >> 6) as usize] & (1 << (b & 63)) == 0 {
                continue;
            }
            let mut node = 0usize;
            let mut pos = i;
            loop {
                let [_, _, first, count, _, _] = self.nodes[node];
                let Some(&c) = path.get(pos) else {
                    break;
                };
                let kids = first as usize..(first + count) as usize;
                let Some(child) = kids.into_iter().find(|&k| self.first_byte[k] == c) else {
                    break;
                };
                let [ls, ll, _, _, es, el] = self.nodes[child];
                let label = &self.labels[ls as usize..(ls + ll) as usize];
                if path.len() - pos < label.len() || !same(&path[pos..pos + label.len()], label) {
                    break;
                }
                pos += label.len();
                node = child;
                for &id in &self.ends[es as usize..(es + el) as usize] {
                    if !hit(id as usize, i) {
                        return;
                    }
                }
            }
        }
    }
}

/// Piece tree nodes with more children than this whose pieces must be searched (longer than a
/// byte, not only `$`-anchored) have those pieces in [`Multi`].
// PERF: measured on the real multi-host log: www.reddit.com's `/*.json`, `/*.xml`, `/*.rss`,
// `/*.i`, `/*.embed`, ... (8 pieces under one node) cost more searched one by one than in one
// scan; b-shop's 2 searched pieces are faster on their own.
const WIDE_CHILDREN: usize = 3;

/// The occurrences of the [`Multi`] pieces in one path, found on the first search that needs
/// them: up to [`INLINE_HITS`] in place, more on the heap (crowded or hostile paths), sorted by
/// piece then.
struct Occurrences {
    /// 0: not scanned yet; 1: every occurrence is kept; 2: more than [`MAX_HITS`] (each piece
    /// is then searched on its own).
    state: u8,
    len: usize,
    /// (piece, start), in the order of their ends.
    inline: [(u32, u32); INLINE_HITS],
    /// All of them, sorted by (piece, start), once there are more than [`INLINE_HITS`].
    spill: Vec<(u32, u32)>,
}

/// Occurrences kept in place, and pieces copied out on the stack, before the heap is used.
// PERF: both arrays are zeroed for every path that activates a wildcard pattern; 32 entries
// cost about 30 more instructions per URL than 16 on d-wildcards, e-largest and b-shop's tree
// (measured), and paths with more occurrences than 16 are rare there.
const INLINE_HITS: usize = 16;

/// More occurrences than this in one path, and the shared scan gives up.
const MAX_HITS: usize = 1 << 16;

impl Occurrences {
    fn new() -> Occurrences {
        Occurrences {
            state: 0,
            len: 0,
            inline: [(0, 0); INLINE_HITS],
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, hit: (u32, u32)) {
        if self.len < self.inline.len() {
            self.inline[self.len] = hit;
        } else {
            if self.len == self.inline.len() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(hit);
        }
        self.len += 1;
    }

    /// Ends the scan: a spilled list is sorted, for the lookups.
    fn finish(&mut self) {
        if self.len > self.inline.len() {
            self.spill.sort_unstable();
        }
    }

    /// The leftmost occurrence of `piece` starting at or after `from`.
    #[inline]
    fn first(&self, piece: u32, from: usize) -> Option<usize> {
        if self.len <= self.inline.len() {
            return self.inline[..self.len]
                .iter()
                .find(|h| h.0 == piece && h.1 as usize >= from)
                .map(|h| h.1 as usize);
        }
        let at = self.spill.partition_point(|&h| h < (piece, from as u32));
        self.spill
            .get(at)
            .filter(|h| h.0 == piece)
            .map(|h| h.1 as usize)
    }

    /// For hits kept in place: the indices (as bits) of the first hit of each piece among
    /// those starting at or after `from`.
    #[inline]
    fn first_hits(&self, from: usize) -> u32 {
        let hits = &self.inline[..self.len.min(INLINE_HITS)];
        let mut done = 0u32;
        let mut first = 0u32;
        for h in 0..hits.len() {
            let (piece, start) = hits[h];
            if (start as usize) < from || done & (1 << h) != 0 {
                continue;
            }
            for (k, &(p, _)) in hits[h..].iter().enumerate() {
                if p == piece {
                    done |= 1 << (h + k);
                }
            }
            first |= 1 << h;
        }
        first
    }

    /// For hits on the heap (more than [`INLINE_HITS`]): every piece that occurs starting at
    /// or after `from`, once each.
    fn spilled_pieces(&self, from: usize) -> Vec<u32> {
        debug_assert!(self.len > INLINE_HITS);
        // Sorted by piece, then start: a piece's last hit is its latest start.
        self.spill
            .chunk_by(|a, b| a.0 == b.0)
            .filter(|group| group.last().is_some_and(|h| h.1 as usize >= from))
            .map(|group| group[0].0)
            .collect()
    }
}

impl Multi {
    fn build(pieces: &[&[u8]], ids: Vec<u32>, dense_budget: usize) -> Option<Multi> {
        // At most one trie state per piece byte, times a typical 64 byte classes, 4 bytes each
        // (the size of aho-corasick's DFA; the column table of 16-bit states is about half).
        let estimate = pieces.iter().map(|p| p.len()).sum::<usize>() * 64 * 4;
        // PERF: the table is filled from the NFA's transitions (which follow its failure
        // links), not from aho-corasick's DFA: building that DFA and then copying it made the
        // tree's build 6% slower over the real corpus's distinct bodies.
        let columns = || {
            let nfa = aho_corasick::nfa::noncontiguous::Builder::new()
                .match_kind(aho_corasick::MatchKind::Standard)
                .build(pieces)
                .ok()?;
            Columns::new(&nfa, pieces)
        };
        let automaton = if pieces.len() > MULTI_MAX_AC {
            MultiAutomaton::Trie(PieceTrie::build(pieces))
        } else if let Some(c) = (estimate <= dense_budget).then(columns).flatten() {
            MultiAutomaton::Dfa(c)
        } else {
            MultiAutomaton::Nfa(Box::new(
                aho_corasick::nfa::contiguous::Builder::new()
                    .match_kind(aho_corasick::MatchKind::Standard)
                    .build(pieces)
                    .ok()?,
            ))
        };
        let prefixes = first_grams(pieces).unwrap_or_default();
        let skip = if let Some(set) = PrefixSet::new(&prefixes) {
            Some(Skip::Prefixes(Box::new(set)))
        } else if pieces.len() > MULTI_MAX_SKIP {
            None
        } else {
            aho_corasick::packed::Config::new()
                .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
                .builder()
                .extend(pieces)
                .build()
                .map(Skip::Teddy)
        };
        Some(Multi {
            automaton,
            len: pieces.iter().map(|p| p.len() as u32).collect(),
            piece: ids,
            skip,
        })
    }

    fn memory_usage(&self) -> usize {
        self.piece.len() * 8
            + self.skip.as_ref().map_or(0, |s| s.memory_usage())
            + match &self.automaton {
                MultiAutomaton::Dfa(d) => d.memory_usage(),
                MultiAutomaton::Nfa(n) => aho_corasick::automaton::Automaton::memory_usage(&**n),
                MultiAutomaton::Trie(t) => t.memory_usage(),
            }
    }

    /// Records every occurrence of the pieces in `path`.
    fn scan(&self, path: &[u8], occ: &mut Occurrences) {
        match &self.automaton {
            MultiAutomaton::Dfa(d) => self.scan_with(d, path, occ),
            MultiAutomaton::Nfa(n) => self.scan_with(&**n, path, occ),
            MultiAutomaton::Trie(t) => {
                occ.state = 1;
                occ.len = 0;
                occ.spill.clear();
                t.scan(path, |id, start| {
                    if occ.len == MAX_HITS {
                        occ.state = 2;
                        return false;
                    }
                    occ.push((self.piece[id], start as u32));
                    true
                });
                if occ.state == 1 {
                    occ.finish();
                }
            }
        }
    }

    #[inline]
    fn scan_with<A: PieceAutomaton>(&self, a: &A, path: &[u8], occ: &mut Occurrences) {
        occ.state = 1;
        occ.len = 0;
        occ.spill.clear();
        let Some(mut sid) = a.start() else {
            occ.state = 2;
            return;
        };
        let mut at = 0;
        if let Some(skip) = &self.skip {
            let start = sid;
            // A short path's possible starts, found once.
            let starts = match skip {
                Skip::Prefixes(p) => p.starts64(path),
                Skip::Teddy(_) => None,
            };
            while at < path.len() {
                if sid == start {
                    // No piece is under way: skip to the first place where one may start
                    // (none starts before it).
                    let next = match starts {
                        // `at < path.len() <= 64`.
                        Some(w) => Some(w & (u64::MAX << at))
                            .filter(|&w| w != 0)
                            .map(|w| w.trailing_zeros() as usize),
                        None => skip.find(path, at),
                    };
                    match next {
                        None => break,
                        Some(i) => at = i,
                    }
                }
                sid = a.next(sid, path[at]);
                at += 1;
                if a.is_match(sid) && !self.record(a, sid, at, occ) {
                    return;
                }
            }
            occ.finish();
            return;
        }
        let pre = a.prefilter();
        while at < path.len() {
            (sid, at) = a.run(sid, path, at);
            if !a.is_special(sid) {
                // The end of the path, in an ordinary state.
                break;
            }
            if a.is_match(sid) {
                if !self.record(a, sid, at, occ) {
                    return;
                }
            } else if let Some(pre) = pre {
                // PERF: back in the start state (the only other special state when there
                // is a prefilter): skip to where a piece may start, as Aho-Corasick's own
                // overlapping search does (d-wildcards: the scan was 45% of a decision).
                let span = aho_corasick::Span::from(at..path.len());
                match pre.find_in(path, span).into_option() {
                    None => break,
                    Some(i) => at = i,
                }
            }
        }
        occ.finish();
    }

    /// Records the occurrences of the pieces that match state `sid` reports, ending at `end`;
    /// false (and the scan given up) past [`MAX_HITS`].
    #[inline]
    fn record<A: PieceAutomaton>(
        &self,
        a: &A,
        sid: A::State,
        end: usize,
        occ: &mut Occurrences,
    ) -> bool {
        for i in 0..a.match_len(sid) {
            let id = a.match_id(sid, i);
            if occ.len == MAX_HITS {
                occ.state = 2;
                return false;
            }
            let start = end - self.len[id] as usize;
            occ.push((self.piece[id], start as u32));
        }
        true
    }
}

/// What [`Multi`]'s scan needs of an automaton of the pieces: [`Columns`] (a DFA) or
/// aho-corasick's contiguous NFA (sets too large for the dense budget).
trait PieceAutomaton {
    type State: Copy + Eq;
    /// The unanchored start state.
    fn start(&self) -> Option<Self::State>;
    /// The state after `s` reads `b`.
    fn next(&self, s: Self::State, b: u8) -> Self::State;
    /// Steps from `s` through `path[at..]` until it enters a special state (a match, or the
    /// start state when there is a prefilter); returns that state and the index after the
    /// byte that entered it, or the last state and `path.len()`.
    fn run(&self, s: Self::State, path: &[u8], at: usize) -> (Self::State, usize);
    fn is_special(&self, s: Self::State) -> bool;
    fn is_match(&self, s: Self::State) -> bool;
    /// The prefilter to skip with from the start state.
    fn prefilter(&self) -> Option<&aho_corasick::automaton::Prefilter>;
    /// The number of pieces that end in state `s`.
    fn match_len(&self, s: Self::State) -> usize;
    /// The automaton's pattern id of the `i`-th piece that ends in state `s`.
    fn match_id(&self, s: Self::State, i: usize) -> usize;
}

impl PieceAutomaton for Columns {
    type State = u32;
    #[inline]
    fn start(&self) -> Option<u32> {
        Some(Columns::start(self))
    }
    #[inline]
    fn next(&self, s: u32, b: u8) -> u32 {
        Columns::next(self, s, b)
    }
    #[inline]
    fn run(&self, s: u32, path: &[u8], at: usize) -> (u32, usize) {
        Columns::run(self, s, path, at)
    }
    #[inline]
    fn is_special(&self, s: u32) -> bool {
        Columns::is_special(self, s)
    }
    #[inline]
    fn is_match(&self, s: u32) -> bool {
        Columns::is_match(self, s)
    }
    #[inline]
    fn prefilter(&self) -> Option<&aho_corasick::automaton::Prefilter> {
        Columns::prefilter(self)
    }
    #[inline]
    fn match_len(&self, s: u32) -> usize {
        self.matches(s).len()
    }
    #[inline]
    fn match_id(&self, s: u32, i: usize) -> usize {
        self.matches(s)[i] as usize
    }
}

impl PieceAutomaton for aho_corasick::nfa::contiguous::NFA {
    type State = aho_corasick::automaton::StateID;
    #[inline]
    fn start(&self) -> Option<Self::State> {
        use aho_corasick::automaton::Automaton as _;
        self.start_state(aho_corasick::Anchored::No).ok()
    }
    #[inline]
    fn next(&self, s: Self::State, b: u8) -> Self::State {
        use aho_corasick::automaton::Automaton as _;
        self.next_state(aho_corasick::Anchored::No, s, b)
    }
    #[inline]
    fn run(&self, s: Self::State, path: &[u8], at: usize) -> (Self::State, usize) {
        run_ordinary(self, s, path, at)
    }
    #[inline]
    fn is_special(&self, s: Self::State) -> bool {
        aho_corasick::automaton::Automaton::is_special(self, s)
    }
    #[inline]
    fn is_match(&self, s: Self::State) -> bool {
        aho_corasick::automaton::Automaton::is_match(self, s)
    }
    #[inline]
    fn prefilter(&self) -> Option<&aho_corasick::automaton::Prefilter> {
        aho_corasick::automaton::Automaton::prefilter(self)
    }
    #[inline]
    fn match_len(&self, s: Self::State) -> usize {
        aho_corasick::automaton::Automaton::match_len(self, s)
    }
    #[inline]
    fn match_id(&self, s: Self::State, i: usize) -> usize {
        aho_corasick::automaton::Automaton::match_pattern(self, s, i).as_usize()
    }
}

/// Steps the automaton from `sid` through `path[at..]` until it enters a special state (a
/// match, or the start state when there is a prefilter); returns that state and the index
/// after the byte that entered it, or the last state and `path.len()`.
// PERF: a tight loop of its own: inlined in the scan, the automaton's bounds and the path
// were reloaded from the stack on every byte (d-wildcards walks most of its paths here).
#[inline(never)]
fn run_ordinary<A: aho_corasick::automaton::Automaton>(
    a: &A,
    mut sid: aho_corasick::automaton::StateID,
    path: &[u8],
    at: usize,
) -> (aho_corasick::automaton::StateID, usize) {
    let mut bytes = path[at..].iter();
    for &b in bytes.by_ref() {
        sid = a.next_state(aho_corasick::Anchored::No, sid, b);
        if a.is_special(sid) {
            break;
        }
    }
    (sid, path.len() - bytes.len())
}

/// The radix tree engine (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    /// The first bytes of the children of nodes with more than 8 children, as 256-bit sets.
    wide: Vec<Wide>,
    /// Label bytes after the eighth.
    labels: Vec<u8>,
    /// Per node with keys: open Allow, open Disallow, `$` Allow, `$` Disallow.
    keys: Vec<[u64; 4]>,
    rest: Vec<RestNode>,
    pieces: Vec<Piece>,
    multi: Option<Multi>,
    /// Every searched piece in one scan of the path ([`BucketScan`]), where they are few
    /// enough and the processor can. Then `multi` has pieces only if the scan has more than
    /// [`FEW_SETS`](crate::bytescan::FEW_SETS) sets (for paths longer than its window).
    buckets: Option<BucketScan>,
    /// With `buckets`: per piece tree node (as `rest`), its children by bucket.
    bucket_nodes: Vec<BucketNode>,
    /// Where a path's first segment leads, for the walk to start there (see [`Jumps`]).
    jumps: Option<Jumps>,
    /// Every marked node's string in one [`PrefixTable`], where they are few and short and
    /// the processor can: then it replaces the walk.
    table: Option<Table>,
    precedence: Precedence,
}

/// The strings of the nodes that [`Tree::mark`] has work for (keys or activations), in a
/// [`PrefixTable`]: the nodes a path's walk would mark are those whose string is a prefix of
/// the path.
// PERF: the walk is a chain of dependent loads and branches, one per node, that differs from
// one path to the next (the processor mispredicts where it stops); the table compares every
// string at once, and what follows is one short loop over the matches. `speed`, pinned, 3
// alternations against the walk: b-shop 102-108 -> 87-88 ns per URL (7 rows), a-tiny
// 47.7-48.6 -> 45.5-45.8, 30 strings of 13 to 16 bytes (8 rows) 40.9 -> 39.8 (medians);
// past 8 rows the walk is kept (see `TABLE_ROWS`).
#[derive(Clone, Debug)]
struct Table {
    strings: PrefixTable,
    /// Bit `i` when string `i`'s node has keys; its keys (as [`Tree::keys`]) in `keys[i]`
    /// (and zero in a last entry, past the strings').
    keyed: u64,
    /// Bit `i` when string `i`'s node has `$` keys.
    anchored: u64,
    keys: Box<[[u64; 4]]>,
    /// Bit `i` when string `i`'s node activates a piece tree: (its root, the string's length)
    /// in `rest[i]`.
    activates: u64,
    rest: Box<[(u32, u32)]>,
}

impl Table {
    /// The table of the marked nodes of `nodes` (breadth-first, root first, their keys in
    /// `keys`), if [`PrefixTable::build`] takes them.
    fn build(nodes: &[Node], labels: &[u8], keys: &[[u64; 4]]) -> Option<Table> {
        let mut marked: Vec<usize> = (0..nodes.len())
            .filter(|&i| nodes[i].keys != 0 || nodes[i].rest != 0)
            .collect();
        if marked.len() > crate::bytescan::TABLE_STRINGS || !crate::bytescan::has_table_features() {
            return None;
        }
        let mut strings: Vec<Vec<u8>> = vec![Vec::new(); nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            if i == 0 {
                strings[0] = label(n, labels);
            }
            let start = n.child_start as usize;
            for c in start..start + usize::from(n.child_len) {
                let mut s = strings[i].clone();
                s.extend_from_slice(&label(&nodes[c], labels));
                strings[c] = s;
            }
        }
        marked.sort_by_key(|&i| strings[i].len());
        let ordered: Vec<&[u8]> = marked.iter().map(|&i| &strings[i][..]).collect();
        let mut table = Table {
            strings: PrefixTable::build(&ordered)?,
            keyed: 0,
            anchored: 0,
            // One more, zero: see `fold_table`.
            keys: vec![[0; 4]; marked.len() + 1].into(),
            activates: 0,
            rest: vec![(0, 0); marked.len()].into(),
        };
        for (bit, &i) in marked.iter().enumerate() {
            let n = &nodes[i];
            if let Some(k) = (n.keys as usize).checked_sub(1) {
                table.keys[bit] = keys[k];
                table.keyed |= 1 << bit;
                if keys[k][2] != 0 || keys[k][3] != 0 {
                    table.anchored |= 1 << bit;
                }
            }
            if let Some(root) = n.rest.checked_sub(1) {
                table.rest[bit] = (root, strings[i].len() as u32);
                table.activates |= 1 << bit;
            }
        }
        Some(table)
    }

    /// Heap bytes held.
    fn memory_usage(&self) -> usize {
        self.strings.memory_usage()
            + std::mem::size_of_val(&*self.keys)
            + std::mem::size_of_val(&*self.rest)
    }
}

/// The search of the piece trees after a [`BucketScan`]: [`Tree::bucket_kids`] and
/// [`Tree::bucket_child`] for the scan's instructions (`$features`, the scan's search
/// `$first`, hits of type `$hits`), written once for AVX-512 and AVX2 (each function's target
/// features must be known where it is compiled, so the two are two sets of functions).
macro_rules! bucket_search {
    ($features:literal, $kids:ident, $child:ident, $hits:ident, $first:ident) => {
        /// [`Tree::eval_kids`] for [`Tree::fold_bucketed`], `hits` the scan of `path`: the
        /// children of rest node `node` whose piece may occur in the path, by bucket (rather than
        /// by priority: each is pruned on its own), then those with no bucket; and so on below
        /// each child whose piece is found, from a list of the nodes still to search (a child
        /// that does not fit is searched at once, by [`Tree::eval_deep`]).
        // PERF: one loop over a list, rather than a recursion (a call per node below, with nine
        // arguments, part of them on the stack): d-wildcards 251.5 -> 232.8 ns per URL, b-shop
        // 140.2 -> 137.8 (`speed`, pinned, medians of 5 alternations, AVX2).
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        #[allow(clippy::too_many_arguments)]
        fn $kids<const S: usize, const W: usize>(
            &self,
            scan: &BucketScan,
            hits: &crate::bytescan::$hits<S>,
            node: u32,
            path: &[u8],
            from: usize,
            best: &mut [u64; 2],
        ) {
            let present = hits.present();
            let mut todo = Todo {
                nodes: [(node, from as u32); KIDS_TODO],
                len: 1,
            };
            while todo.len > 0 {
                todo.len -= 1;
                let (node, from) = todo.nodes[todo.len];
                let from = from as usize;
                let bn = &self.bucket_nodes[node as usize];
                // PERF: the first word, then the second apart (for `W` = 2), rather than one
                // loop over the words: d-wildcards 156 -> 163 ns per URL with the loop
                // (`speed`, pinned); with the child's search then inlined in that loop,
                // 232.2 -> 251.4.
                let mut m = bn.mask[0] & present[0];
                while m != 0 {
                    let bucket = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let k = (bn.mask[0] & ((1 << bucket) - 1)).count_ones() as usize;
                    self.$child::<S>(scan, hits, bn.kids[k], bucket, path, from, best, &mut todo);
                }
                if W > 1 {
                    // The buckets of the second word, after the children of the first's.
                    let before = bn.mask[0].count_ones() as usize;
                    let mut m = bn.mask[1] & present[1];
                    while m != 0 {
                        let bit = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let k = before + (bn.mask[1] & ((1 << bit) - 1)).count_ones() as usize;
                        let c = bn.kids[k];
                        self.$child::<S>(scan, hits, c, 64 + bit, path, from, best, &mut todo);
                    }
                }
                for &c in &bn.plain {
                    // `$`-anchored leaves (of pieces longer than an `End`'s): only compared with
                    // the end of the path.
                    self.offer_anchored(&self.rest[c as usize], path, from, best);
                }
            }
        }

        /// [`Tree::bucket_kids`] for child `c`, whose piece is bucket `bucket`'s and may occur
        /// from `from`: where it is found, folds the keys of the patterns it ends and, unless it
        /// is a leaf, folds its [`End`]s and lists it in `todo`, or searches below it at once
        /// when `todo` is full.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        #[allow(clippy::too_many_arguments)]
        #[inline]
        fn $child<const S: usize>(
            &self,
            scan: &BucketScan,
            hits: &crate::bytescan::$hits<S>,
            c: u32,
            bucket: usize,
            path: &[u8],
            from: usize,
            best: &mut [u64; 2],
            todo: &mut Todo,
        ) {
            let child = &self.rest[c as usize];
            if u64::from(child.max_priority) < self.floor(best) {
                return;
            }
            if !self.offer_anchored(child, path, from, best) {
                return;
            }
            let piece = &self.pieces[child.piece as usize];
            let Some(at) = scan.$first(hits, bucket, &piece.bytes, path, from) else {
                return;
            };
            let Step::Descend(end) = self.offer_found(child, at, best) else {
                return;
            };
            if todo.len < KIDS_TODO {
                self.fold_ends(child, path, end, best);
                todo.nodes[todo.len] = (c, end as u32);
                todo.len += 1;
            } else {
                self.eval_deep(c, path, end, best, &mut Occurrences::new());
            }
        }
    };
}

/// How many piece tree nodes [`Tree::bucket_kids`] lists to search at once; one more is
/// searched on its own.
const KIDS_TODO: usize = 16;

/// The piece tree nodes whose children [`Tree::bucket_kids`] is still to search.
struct Todo {
    /// (node, where its children's pieces may start); the last one is searched first.
    nodes: [(u32, u32); KIDS_TODO],
    len: usize,
}

/// The label of the edge into `n`.
fn label(n: &Node, labels: &[u8]) -> Vec<u8> {
    let len = usize::from(n.label_len);
    let mut out = n.label.to_le_bytes()[..len.min(8)].to_vec();
    if len > 8 {
        let rest = n.label_rest as usize;
        out.extend_from_slice(&labels[rest..rest + len - 8]);
    }
    out
}

/// The nodes whose string is a path's first segment, or its first two, in at most 16 bytes
/// (`/wiki/`, `/cd/E54380_02/`), by that string: the walk of a path that starts with one
/// starts at its node, after the marks (keys and activations) of the nodes above it, which are
/// known in advance. The same nodes are reached, in the same order, as by the walk from the
/// root.
// PERF: the walk is a chain of dependent steps, one per node (load the node, pick the child by
// the next byte, load the child); a path's first segments are two words, a multiplication and
// two loads away from the node they lead to. Against the walk from the root (`speed`, pinned,
// 3 alternations, best-of medians): c-literal 59.3 -> 57.4 ns per URL (half its paths start
// with `/wiki/`, four nodes down), e-largest 66.4 -> 55.9, d-wildcards and a-tiny unchanged;
// with paths that start elsewhere, the walk ends after one or two nodes (e-largest 35 ns per
// URL, against 72 with its own).
#[derive(Clone, Debug)]
struct Jumps {
    /// Open addressing, one probe: an index into `jumps` (+1), 0 for none; a string whose slot
    /// is taken is left to the walk.
    // PERF: indices rather than the jumps themselves, which made e-largest's hot memory twice
    // as large (1.0 -> 2.1 MB; now 1.3 MB); a quarter of the slots or fewer are taken.
    slots: Box<[u32]>,
    jumps: Box<[Jump]>,
    /// `64 - log2(slots.len())`.
    shift: u32,
    /// The marked nodes above each jump's node (node, depth), each jump's in a run.
    marked: Box<[(u32, u32)]>,
    /// Jumps that need the path's second word are looked up too (two segments, or one longer
    /// than 8 bytes), when they are at least as many as the others; else only first segments
    /// of at most 8 bytes are kept, looked up in one word.
    // PERF: `speed`, pinned, 3 alternations, best-of medians: e-largest (5,005 jumps, most of
    // them two segments deep: `/cd/A57673_01/`) 65.7 -> 54.4 ns per URL with them, against
    // first segments only; c-literal (4 jumps, of which `/wiki/` is the one that counts) 54.8 ->
    // 57.6 ns when it looked for two segments too, d-wildcards (2 of its 22) 165.4 -> 169.1.
    two: bool,
}

/// One entry of [`Jumps`].
#[derive(Clone, Copy, Debug)]
struct Jump {
    /// The segments' bytes, little-endian, zero-padded, in two words.
    key: [u64; 2],
    node: u32,
    /// Where this jump's marked nodes start in `marked`.
    marked_start: u32,
    marked_len: u16,
    /// The segments' length (where the walk goes on).
    depth: u16,
}

/// The slot of the key `[low, high]` in a table of `2^(64 - shift)` slots.
#[inline]
fn jump_slot(key: [u64; 2], shift: u32) -> usize {
    (key[0]
        .wrapping_add(key[1].rotate_left(29))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        >> shift) as usize
}

/// A node met while [`Jumps::build`] goes down the tree: its index, its string (at most 16
/// bytes, little-endian) and that string's length, and the marked nodes above it.
struct Descent {
    node: u32,
    string: u128,
    len: usize,
    above: Vec<(u32, u32)>,
}

/// The slashes among the bytes of `word` (bit 7 of each byte that is `/`), exactly.
#[inline]
fn slashes(word: u64) -> u64 {
    const LO7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = word ^ (LO * u64::from(b'/'));
    // Bit 7 of a byte of `(x & 0x7F) + 0x7F | x` is set exactly when the byte of `x` is not 0.
    !(((x & LO7).wrapping_add(LO7)) | x | LO7)
}

impl Jumps {
    /// The jumps of the tree of `nodes` (labels past their 8th byte in `labels`); `None`
    /// when there is none.
    fn build(nodes: &[Node], labels: &[u8]) -> Option<Jumps> {
        // Depth first from the root, over strings of at most 16 bytes and two segments.
        let mut found: Vec<Descent> = Vec::new();
        let mut stack = vec![Descent {
            node: 0,
            string: 0,
            len: 0,
            above: Vec::new(),
        }];
        while let Some(d) = stack.pop() {
            let n = &nodes[d.node as usize];
            let bytes = d.string.to_le_bytes();
            // The slashes after the first byte: the ends of the segments so far.
            let ends = bytes[1..d.len.max(1)]
                .iter()
                .filter(|&&b| b == b'/')
                .count();
            let mut below = d.above.clone();
            if n.keys != 0 || n.rest != 0 {
                below.push((d.node, d.len as u32));
            }
            if ends < 2 {
                for c in n.child_start..n.child_start + u32::from(n.child_len) {
                    let child = &nodes[c as usize];
                    let l = usize::from(child.label_len);
                    if d.len + l > 16 {
                        continue;
                    }
                    let mut label = [0u8; 16];
                    label[..8].copy_from_slice(
                        &(child.label & (u64::MAX >> child.head_shift)).to_le_bytes(),
                    );
                    if l > 8 {
                        let at = child.label_rest as usize;
                        label[8..l].copy_from_slice(&labels[at..at + l - 8]);
                    }
                    stack.push(Descent {
                        node: c,
                        string: d.string | u128::from_le_bytes(label) << (8 * d.len),
                        len: d.len + l,
                        above: below.clone(),
                    });
                }
            }
            if d.len >= 2 && bytes[0] == b'/' && bytes[d.len - 1] == b'/' && ends <= 2 {
                found.push(d);
            }
        }
        let two = found
            .iter()
            .filter(|d| d.len > 8 || d.string.to_le_bytes()[1..d.len - 1].contains(&b'/'))
            .count();
        let two = 2 * two >= found.len();
        if !two {
            // First segments of at most 8 bytes: the key is one word.
            found.retain(|d| d.len <= 8 && !d.string.to_le_bytes()[1..d.len - 1].contains(&b'/'));
        }
        if found.is_empty() {
            return None;
        }
        let bits = (found.len() * 4)
            .next_power_of_two()
            .trailing_zeros()
            .max(4);
        let shift = 64 - bits;
        let mut slots = vec![0u32; 1 << bits];
        let mut jumps = Vec::new();
        // Marked runs, each once (most jumps share theirs: e-largest's the root's `/`).
        let mut runs: HashMap<Vec<(u32, u32)>, u32> = HashMap::new();
        let mut marked = Vec::new();
        for d in found {
            let key = [d.string as u64, (d.string >> 64) as u64];
            let slot = &mut slots[jump_slot(key, shift)];
            if *slot != 0 {
                continue;
            }
            let marked_start = *runs.entry(d.above.clone()).or_insert_with(|| {
                marked.extend_from_slice(&d.above);
                (marked.len() - d.above.len()) as u32
            });
            jumps.push(Jump {
                key,
                node: d.node,
                marked_start,
                // At most 17 nodes on a string of 16 bytes.
                marked_len: d.above.len() as u16,
                depth: d.len as u16,
            });
            *slot = jumps.len() as u32;
        }
        Some(Jumps {
            slots: slots.into_boxed_slice(),
            jumps: jumps.into_boxed_slice(),
            shift,
            marked: marked.into_boxed_slice(),
            two,
        })
    }

    /// The jump for `path`'s first two segments, or else its first, if there is one.
    #[inline]
    fn find(&self, path: &[u8]) -> Option<&Jump> {
        let low = load8(path);
        if !self.two {
            // The first `/` after the first byte (the zero-padding past the end of the path is
            // no `/`).
            let first = (slashes(low) & !0xFF).trailing_zeros() as usize / 8 + 1;
            if first > 8 {
                return None;
            }
            let key = low & (u64::MAX >> (64 - 8 * first));
            let jump = self.jump(jump_slot([key, 0], self.shift))?;
            return (jump.key[0] == key).then_some(jump);
        }
        let high = load8(path.get(8..).unwrap_or_default());
        // The ends of the first two segments: the first two `/` after the first byte (the
        // zero-padding past the end of the path is no `/`), as lengths (17 for none).
        let ends = [slashes(low) & !0xFF, slashes(high)];
        let at = |m: [u64; 2]| {
            if m[0] != 0 {
                m[0].trailing_zeros() as usize / 8 + 1
            } else {
                m[1].trailing_zeros() as usize / 8 + 9
            }
        };
        let first = at(ends);
        let rest = if ends[0] != 0 {
            [ends[0] & ends[0].wrapping_sub(1), ends[1]]
        } else {
            [0, ends[1] & ends[1].wrapping_sub(1)]
        };
        let second = at(rest);
        let probe = |len: usize| {
            let key = if len <= 8 {
                [low & (u64::MAX >> (64 - 8 * len)), 0]
            } else {
                [low, high & (u64::MAX >> (128 - 8 * len))]
            };
            let jump = self.jump(jump_slot(key, self.shift))?;
            (jump.key == key).then_some(jump)
        };
        if second <= 16 {
            if let Some(j) = probe(second) {
                return Some(j);
            }
        }
        if first <= 16 {
            probe(first)
        } else {
            None
        }
    }

    /// The jump in slot `slot`, if any.
    #[inline]
    fn jump(&self, slot: usize) -> Option<&Jump> {
        let i = self.slots[slot] as usize;
        i.checked_sub(1).map(|i| &self.jumps[i])
    }

    fn memory_usage(&self) -> usize {
        std::mem::size_of_val(&*self.slots)
            + std::mem::size_of_val(&*self.jumps)
            + std::mem::size_of_val(&*self.marked)
    }
}

/// One first piece and what ends there.
struct Item<'a> {
    first: &'a [u8],
    what: What<'a>,
}

enum What<'a> {
    /// A literal pattern: `$`-anchored or not.
    Literal { anchored: bool, key: u64, kind: u8 },
    /// A wildcard pattern: its pieces after the first `*`.
    Wild {
        rest: &'a [u8],
        anchored: bool,
        key: u64,
        kind: u8,
    },
}

/// Builds the radix tree's nodes from first pieces sorted in byte order (duplicates adjacent).
/// Returns the node of each input string.
struct RadixBuilder {
    nodes: Vec<BuildNode>,
    /// Children of each node, in creation (= byte) order.
    kids: Vec<Vec<u32>>,
    labels: Vec<u8>,
}

/// A node while the tree is built.
#[derive(Clone, Copy, Debug)]
struct BuildNode {
    label_start: u32,
    label_len: u32,
    keys: u32,
    rest: u32,
}

impl RadixBuilder {
    fn new() -> RadixBuilder {
        RadixBuilder {
            nodes: vec![BuildNode {
                label_start: 0,
                label_len: 0,
                keys: NONE,
                rest: NONE,
            }],
            kids: vec![Vec::new()],
            labels: Vec::new(),
        }
    }

    fn new_node(&mut self, label_start: u32, label_len: u32) -> u32 {
        self.nodes.push(BuildNode {
            label_start,
            label_len,
            keys: NONE,
            rest: NONE,
        });
        self.kids.push(Vec::new());
        (self.nodes.len() - 1) as u32
    }

    /// The nodes laid out breadth first, so that each node's children are consecutive: the
    /// order (old indices) and, for each old index, its new one.
    fn breadth_first(&self) -> (Vec<u32>, Vec<u32>) {
        let mut order: Vec<u32> = vec![0];
        let mut new_index = vec![0u32; self.nodes.len()];
        let mut i = 0;
        while i < order.len() {
            for &k in &self.kids[order[i] as usize] {
                new_index[k as usize] = order.len() as u32;
                order.push(k);
            }
            i += 1;
        }
        (order, new_index)
    }

    /// Inserts sorted strings; returns each one's node.
    fn build(&mut self, sorted: &[&[u8]]) -> Vec<u32> {
        // The path of the previous string: (node, depth at the node's end).
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        let mut prev: &[u8] = &[];
        let mut out = Vec::with_capacity(sorted.len());
        for &s in sorted {
            if !out.is_empty() && s == prev {
                out.push(stack.last().map_or(0, |t| t.0));
                continue;
            }
            let lcp = prev.iter().zip(s).take_while(|(a, b)| a == b).count();
            while stack.len() > 1 && stack[stack.len() - 2].1 >= lcp {
                stack.pop();
            }
            // Now stack[..len-1] ends at depth < lcp <= ... and the top may extend past lcp.
            let (top, top_depth) = *stack.last().unwrap_or(&(0, 0));
            let (parent, parent_depth) = if stack.len() >= 2 {
                stack[stack.len() - 2]
            } else {
                (NONE, 0)
            };
            let node_at_lcp = if top_depth == lcp {
                top
            } else if top_depth > lcp {
                // Split the edge into `top` at depth `lcp`: a new middle node takes the first
                // part of the label.
                let n = &self.nodes[top as usize];
                let cut = (lcp - parent_depth) as u32;
                let (start, len) = (n.label_start, n.label_len);
                let mid = self.new_node(start, cut);
                self.nodes[top as usize].label_start = start + cut;
                self.nodes[top as usize].label_len = len - cut;
                self.kids[mid as usize].push(top);
                if parent != NONE {
                    if let Some(slot) = self.kids[parent as usize].iter_mut().find(|c| **c == top) {
                        *slot = mid;
                    }
                }
                stack.pop();
                stack.push((mid, lcp));
                mid
            } else {
                top
            };
            if s.len() > lcp {
                let start = self.labels.len() as u32;
                self.labels.extend_from_slice(&s[lcp..]);
                let leaf = self.new_node(start, (s.len() - lcp) as u32);
                self.kids[node_at_lcp as usize].push(leaf);
                stack.push((leaf, s.len()));
                out.push(leaf);
            } else {
                out.push(node_at_lcp);
            }
            prev = s;
        }
        out
    }
}

impl Tree {
    /// Builds the tree of every pattern of `set`.
    pub(crate) fn build(set: &PatternSet, precedence: Precedence, dense_budget: usize) -> Tree {
        let mut items: Vec<Item<'_>> = set
            .pats()
            .iter()
            .map(|p| {
                let body = set.body(p);
                let first = &body[..p.first_len()];
                let what = if p.is_wild() {
                    What::Wild {
                        rest: &body[p.first_len() + 1..],
                        anchored: p.anchored(),
                        key: p.key,
                        kind: p.kind,
                    }
                } else {
                    What::Literal {
                        anchored: p.anchored(),
                        key: p.key,
                        kind: p.kind,
                    }
                };
                Item { first, what }
            })
            .collect();
        items.sort_by(|a, b| a.first.cmp(b.first));
        let firsts: Vec<&[u8]> = items.iter().map(|i| i.first).collect();
        let mut radix = RadixBuilder::new();
        let at = radix.build(&firsts);

        let mut keys: Vec<[u64; 4]> = Vec::new();
        let mut rest: Vec<RestNode> = Vec::new();
        let mut pieces: Vec<Piece> = Vec::new();
        let mut piece_ids: HashMap<&[u8], u32> = HashMap::new();
        // Children of rest nodes by piece, while building.
        let mut rest_child: HashMap<(u32, u32), u32> = HashMap::new();
        let new_rest = |rest: &mut Vec<RestNode>, piece: u32| {
            rest.push(RestNode {
                piece,
                children: Vec::new(),
                open: [0; 2],
                anchored: [0; 2],
                max_priority: 0,
                by_piece: Box::new([]),
                others: Box::new([]),
                ends: Box::new([]),
            });
            (rest.len() - 1) as u32
        };
        for (item, &node) in items.iter().zip(&at) {
            let n = &mut radix.nodes[node as usize];
            match item.what {
                What::Literal {
                    anchored,
                    key,
                    kind,
                } => {
                    if n.keys == NONE {
                        n.keys = keys.len() as u32;
                        keys.push([0; 4]);
                    }
                    let slot = &mut keys[n.keys as usize][kind as usize + 2 * anchored as usize];
                    *slot = (*slot).max(key);
                }
                What::Wild {
                    rest: pieces_bytes,
                    anchored,
                    key,
                    kind,
                } => {
                    if n.rest == NONE {
                        n.rest = new_rest(&mut rest, NONE);
                    }
                    let mut cur = n.rest;
                    // The high half of a 64-bit key.
                    let priority = key_priority(key) as u32;
                    rest[cur as usize].max_priority = rest[cur as usize].max_priority.max(priority);
                    for piece in pieces_bytes.split(|&b| b == b'*') {
                        let pid = *piece_ids.entry(piece).or_insert_with(|| {
                            pieces.push(Piece {
                                bytes: piece.into(),
                                multi: false,
                                bucket: NO_BUCKET,
                            });
                            (pieces.len() - 1) as u32
                        });
                        cur = match rest_child.get(&(cur, pid)) {
                            Some(&c) => c,
                            None => {
                                let c = new_rest(&mut rest, pid);
                                rest[cur as usize].children.push(c);
                                rest_child.insert((cur, pid), c);
                                c
                            }
                        };
                        let r = &mut rest[cur as usize];
                        r.max_priority = r.max_priority.max(priority);
                    }
                    let r = &mut rest[cur as usize];
                    let slot = if anchored {
                        &mut r.anchored[kind as usize]
                    } else {
                        &mut r.open[kind as usize]
                    };
                    *slot = (*slot).max(key);
                }
            }
        }
        // Every piece that a search may look for (not only compare with the end of the path)
        // in one bucket scan, when they are few enough (then there is no `Multi`).
        let buckets = {
            let mut searched = vec![false; pieces.len()];
            for r in &rest {
                if r.piece != NONE && r.is_searched() {
                    searched[r.piece as usize] = true;
                }
            }
            let ids: Vec<u32> = (0..pieces.len() as u32)
                .filter(|&i| searched[i as usize])
                .collect();
            let bytes: Vec<&[u8]> = ids.iter().map(|&i| &*pieces[i as usize].bytes).collect();
            // PERF: pieces that start with at most 4 distinct 3-byte strings (e-largest's
            // `/sp_common/`, `/dcommon/`, `/placeholder.html`, `/sptest/`) went to `Multi`'s
            // skip to those strings until the thirtieth session (e-largest 83 ns per URL, 86
            // with buckets, then); since the bucket search compares its candidates in one
            // masked comparison, the buckets are faster there too (e-largest 72.1 -> 69.7 ns;
            // over the corpus, `engines`, the tree 71.9 -> 69.8 ns per path).
            let scan = crate::bytescan::bucket_isa()
                .filter(|&isa| {
                    ids.len()
                        >= match isa {
                            BucketIsa::Avx512 => BUCKET_MIN_PIECES,
                            BucketIsa::Avx2 => BUCKET_MIN_PIECES_AVX2,
                        }
                })
                .and_then(|isa| BucketScan::build(&bytes, isa));
            if scan.is_some() {
                for (b, &i) in ids.iter().enumerate() {
                    pieces[i as usize].bucket = b as u8;
                }
            }
            scan
        };
        // PERF: a scan of many sets (d-wildcards' 67 pieces) comes with the `Multi` that the
        // tree would have without it, for paths longer than the scan's window: searched one
        // by one, d-wildcards' pieces took 584 ns per URL of 188 bytes, against 346.
        let many_sets = buckets.as_ref().is_some_and(|b| !b.has_few_sets());
        let mut bucket_nodes = Vec::new();
        // Order children by priority, highest first; the pieces of wide nodes' children go
        // into the shared scan.
        for i in 0..rest.len() {
            let mut children = std::mem::take(&mut rest[i].children);
            children.sort_by_key(|&c| std::cmp::Reverse(rest[c as usize].max_priority));
            let is_end = |c: u32| {
                let r = &rest[c as usize];
                r.open == [0; 2]
                    && r.is_leaf()
                    && (1..=8).contains(&pieces[r.piece as usize].bytes.len())
            };
            let (leaves, children): (Vec<u32>, Vec<u32>) =
                children.into_iter().partition(|&c| is_end(c));
            rest[i].ends = leaves
                .iter()
                .map(|&c| {
                    let r = &rest[c as usize];
                    let piece = &pieces[r.piece as usize];
                    End {
                        word: load8(&piece.bytes),
                        len: piece.bytes.len() as u32,
                        node: c,
                    }
                })
                .collect();
            // Pieces that are searched (not only compared with the end of the path, for `$`)
            // and longer than one byte (one byte is a `memchr`).
            let searched = |c: u32| {
                let r = &rest[c as usize];
                r.is_searched() && pieces[r.piece as usize].bytes.len() > 1
            };
            if buckets.is_some() {
                let mut kids: Vec<(u8, u32)> = Vec::new();
                let mut plain = Vec::new();
                for &c in &children {
                    match pieces[rest[c as usize].piece as usize].bucket {
                        NO_BUCKET => plain.push(c),
                        b => kids.push((b, c)),
                    }
                }
                kids.sort_unstable();
                let mut mask = [0u64; 2];
                for &(b, _) in &kids {
                    mask[usize::from(b) / 64] |= 1 << (b % 64);
                }
                bucket_nodes.push(BucketNode {
                    mask,
                    kids: kids.iter().map(|&(_, c)| c).collect(),
                    plain: plain.into(),
                });
                if !many_sets {
                    rest[i].children = children;
                    continue;
                }
            }
            let (wide, others): (Vec<u32>, Vec<u32>) =
                children.iter().copied().partition(|&c| searched(c));
            rest[i].children = children;
            if wide.len() > WIDE_CHILDREN {
                let mut by_piece = Vec::with_capacity(wide.len());
                for &c in &wide {
                    let piece = rest[c as usize].piece;
                    pieces[piece as usize].multi = true;
                    by_piece.push((piece, c));
                }
                by_piece.sort_unstable();
                rest[i].others = others.into();
                rest[i].by_piece = by_piece.into();
            }
        }
        let multi_ids: Vec<u32> = (0..pieces.len() as u32)
            .filter(|&i| pieces[i as usize].multi)
            .collect();
        let multi = if multi_ids.is_empty() {
            None
        } else {
            let bytes: Vec<&[u8]> = multi_ids
                .iter()
                .map(|&i| &*pieces[i as usize].bytes)
                .collect();
            let m = Multi::build(&bytes, multi_ids, dense_budget);
            if m.is_none() {
                for p in &mut pieces {
                    p.multi = false;
                }
            }
            m
        };
        let (order, new_index) = radix.breadth_first();
        let mut nodes = vec![Node::default(); order.len()];
        let mut wide: Vec<Wide> = Vec::new();
        let mut labels: Vec<u8> = Vec::new();
        for (new, &old) in order.iter().enumerate() {
            let b = radix.nodes[old as usize];
            let label =
                &radix.labels[b.label_start as usize..(b.label_start + b.label_len) as usize];
            let kids = &radix.kids[old as usize];
            let n = &mut nodes[new];
            let mut head = [0u8; 8];
            let h = label.len().min(8);
            head[..h].copy_from_slice(&label[..h]);
            n.label = u64::from_le_bytes(head);
            n.label_len = label.len() as u16;
            n.head_shift = (64 - 8 * label.len().min(8)) as u8;
            n.label_rest = labels.len() as u32;
            if label.len() > 8 {
                labels.extend_from_slice(&label[8..]);
            }
            n.keys = b.keys.wrapping_add(1);
            n.rest = b.rest.wrapping_add(1);
            n.child_start = kids.first().map_or(0, |&k| new_index[k as usize]);
            n.child_len = kids.len() as u16;
            let firsts: Vec<u8> = kids
                .iter()
                .map(|&k| radix.labels[radix.nodes[k as usize].label_start as usize])
                .collect();
            if kids.len() <= 8 {
                let mut packed = [firsts.first().copied().unwrap_or(0); 8];
                packed[..firsts.len()].copy_from_slice(&firsts);
                n.child_bytes = u64::from_le_bytes(packed);
            } else {
                // At most 256 children (one per first byte): positions fit in a byte.
                let mut set = Wide { position: [0; 256] };
                for (i, &b) in firsts.iter().enumerate() {
                    set.position[b as usize] = i as u8;
                }
                n.child_bytes = wide.len() as u64;
                wide.push(set);
            }
        }
        let table = Table::build(&nodes, &labels, &keys);
        let jumps = if table.is_some() {
            None
        } else {
            Jumps::build(&nodes, &labels)
        };
        Tree {
            nodes,
            wide,
            labels,
            keys,
            rest,
            pieces,
            multi,
            buckets,
            bucket_nodes,
            jumps,
            table,
            precedence,
        }
    }

    /// True when every searched piece is in one bucket scan ([`BucketScan`]) of at most
    /// [`FEW_SETS`](crate::bytescan::FEW_SETS) sets (24 pieces).
    pub(crate) fn has_few_buckets(&self) -> bool {
        self.buckets.as_ref().is_some_and(BucketScan::has_few_sets)
    }

    /// Heap bytes held (approximately).
    pub(crate) fn memory_usage(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.wide.capacity() * std::mem::size_of::<Wide>()
            + self.labels.capacity()
            + self.keys.capacity() * 32
            + self
                .rest
                .iter()
                .map(|r| {
                    std::mem::size_of::<RestNode>()
                        + r.children.capacity() * 4
                        + r.by_piece.len() * 8
                        + r.others.len() * 4
                        + std::mem::size_of_val(&*r.ends)
                })
                .sum::<usize>()
            + self.multi.as_ref().map_or(0, Multi::memory_usage)
            + self.buckets.as_ref().map_or(0, BucketScan::memory_usage)
            + self
                .bucket_nodes
                .iter()
                .map(|b| std::mem::size_of::<BucketNode>() + 4 * (b.kids.len() + b.plain.len()))
                .sum::<usize>()
            + self.jumps.as_ref().map_or(0, Jumps::memory_usage)
            + self.table.as_ref().map_or(0, Table::memory_usage)
            + self
                .pieces
                .iter()
                .map(|p| p.bytes.len() * 2 + std::mem::size_of::<Piece>())
                .sum::<usize>()
    }

    /// The lowest priority that can still change the verdict or the deciding rule.
    #[inline]
    fn floor(&self, best: &[u64; 2]) -> u64 {
        match self.precedence {
            Precedence::LongestMatch => key_priority(best[ALLOW]).max(key_priority(best[DISALLOW])),
            Precedence::FirstMatch => 0,
        }
    }

    /// Folds `key` of `kind` if it can change the verdict or the deciding rule.
    #[inline]
    fn offer(&self, best: &mut [u64; 2], kind: usize, key: u64) {
        best[kind] = best[kind].max(key);
    }

    /// Folds the keys of every pattern that matches `path` into `best`.
    #[inline]
    pub(crate) fn fold(&self, path: &[u8], best: &mut [u64; 2]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(table) = &self.table {
            // SAFETY: `table` exists only where the processor has the features of
            // `fold_table` (`PrefixTable::build` detected them).
            unsafe { self.fold_table(table, path, best) };
            return;
        }
        // Activations found on the walk: (piece tree root, depth); past the eighth, a piece tree
        // is searched as soon as the walk activates it.
        // PERF: the array is zeroed for every path; 16 entries cost 6 instructions per URL
        // more than 8 on every workload (a walk activates one or two piece trees there).
        let mut active = [(0u32, 0u32); 8];
        let mut n_active = 0;
        self.walk(path, best, &mut active, &mut n_active);
        self.search(path, best, &active[..n_active]);
    }

    /// [`Tree::fold`] with the [`Table`] in place of the walk.
    // PERF: one function with the table's comparison and the search inlined (AVX-512 code).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,popcnt")]
    fn fold_table(&self, table: &Table, path: &[u8], best: &mut [u64; 2]) {
        let found = table.strings.prefixes(path);
        // PERF: the first two keyed strings found (one or two on most paths) are folded
        // without a branch (the last entry of `keys` is zero: the index when none is left),
        // so that the processor does not guess how many there are (b-shop: 88.6 -> 80.0 ns
        // per URL, `speed`, pinned).
        let none = table.keys.len() - 1;
        let mut keyed = found & table.keyed;
        for _ in 0..2 {
            let k = &table.keys[(keyed.trailing_zeros() as usize).min(none)];
            keyed &= keyed.wrapping_sub(1);
            self.offer(best, ALLOW, k[0]);
            self.offer(best, DISALLOW, k[1]);
        }
        while keyed != 0 {
            let k = &table.keys[keyed.trailing_zeros() as usize];
            keyed &= keyed - 1;
            self.offer(best, ALLOW, k[0]);
            self.offer(best, DISALLOW, k[1]);
        }
        // `$` patterns: only the string as long as the path (at most one).
        let ending = found & table.anchored & table.strings.exactly(path.len());
        let k = &table.keys[(ending.trailing_zeros() as usize).min(none)];
        self.offer(best, ALLOW, k[2]);
        self.offer(best, DISALLOW, k[3]);
        let mut active = [(0u32, 0u32); 8];
        let mut n_active = 0;
        // Shortest first, as the walk meets them.
        let mut activated = found & table.activates;
        while activated != 0 {
            let (root, depth) = table.rest[activated.trailing_zeros() as usize];
            activated &= activated - 1;
            self.activate(root, path, depth as usize, best, &mut active, &mut n_active);
        }
        self.search(path, best, &active[..n_active]);
    }

    /// Marks (see [`Tree::mark`]) the nodes whose string is a prefix of `path`, from the root
    /// down.
    #[inline]
    fn walk(
        &self,
        path: &[u8],
        best: &mut [u64; 2],
        active: &mut [(u32, u32); 8],
        n_active: &mut usize,
    ) {
        let mut node = 0usize;
        let mut pos = 0usize;
        if let Some(jumps) = &self.jumps {
            if let Some(j) = jumps.find(path) {
                let start = j.marked_start as usize;
                for &(m, depth) in &jumps.marked[start..start + usize::from(j.marked_len)] {
                    let m = &self.nodes[m as usize];
                    self.mark(m, path, depth as usize, best, active, n_active);
                }
                node = j.node as usize;
                pos = usize::from(j.depth);
            }
        }
        loop {
            let n = &self.nodes[node];
            // PERF: the children's first cache lines are asked for while the byte picks one
            // (e-largest's 1 MB tree outgrows the first-level cache: 68.3 -> 66.8 ns per URL,
            // `speed`, pinned, 3 alternations; c-literal's 45 KB does not, and is unchanged).
            let kids = self.nodes.as_ptr().wrapping_add(n.child_start as usize);
            prefetch(kids);
            prefetch(kids.wrapping_add(2));
            // PERF: most nodes of a deep walk only branch (c-literal's `/wiki/...` paths go 8 to
            // 11 nodes down); `mark` is inlined now that a ninth activation's search is a cold
            // call of its own (`search_now`): it was a call with nine arguments at every node.
            // `speed`, pinned, 2 x 5 alternations, medians: c-literal 80.1 -> 79.0 and 83.0 ->
            // 81.3 ns per URL, e-largest 80.1 -> 77.9 and 81.9 -> 79.9, d-wildcards 163.8 ->
            // 165.2 and 163.4 -> 165.3, a-tiny and b-shop within 0.5 (their prefix table has
            // no walk).
            self.mark(n, path, pos, best, active, n_active);
            let Some(&b) = path.get(pos) else {
                break;
            };
            let Some(i) = n.child(b, &self.wide) else {
                break;
            };
            let child = n.child_start as usize + i;
            let c = &self.nodes[child];
            let len = c.label_len as usize;
            if path.len() - pos < len {
                break;
            }
            // The label's first 8 bytes in one masked comparison, the rest (rare) after.
            if (load8(&path[pos..]) ^ c.label) & (u64::MAX >> c.head_shift) != 0 {
                break;
            }
            if len > 8 {
                let rest = c.label_rest as usize;
                if !same(
                    &path[pos + 8..pos + len],
                    &self.labels[rest..rest + len - 8],
                ) {
                    break;
                }
            }
            pos += len;
            node = child;
        }
    }

    /// Searches the piece trees of the wildcard patterns activated on the walk (`active`:
    /// (piece tree root, depth), shallowest first).
    #[inline]
    fn search(&self, path: &[u8], best: &mut [u64; 2], active: &[(u32, u32)]) {
        if active.is_empty() {
            // PERF: no wildcard pattern activated (every path of a literal-only file): no
            // occurrence list to clear (zeroing its 256 bytes was ~40 instructions per URL
            // on c-literal).
            return;
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(scan) = &self.buckets {
            if path.len() <= crate::bytescan::BUCKET_WINDOW {
                if scan.isa() == BucketIsa::Avx2 {
                    self.search_avx2(scan, active, path, best);
                    return;
                }
                // SAFETY: `scan` exists only where the processor has the features of
                // `fold_bucketed` (`BucketScan::build` detected them: the scan is AVX-512's).
                unsafe {
                    if scan.has_few_sets() {
                        self.fold_bucketed::<{ crate::bytescan::FEW_SETS }, 1>(
                            scan, active, path, best,
                        );
                    } else {
                        self.fold_bucketed::<{ crate::bytescan::BUCKET_SETS }, 2>(
                            scan, active, path, best,
                        );
                    }
                }
                return;
            }
        }
        // Deeper activations first: their patterns have longer first pieces.
        // PERF: the occurrence list is made only for a piece tree with more than `End`s
        // (zeroing it, and the call to search the children, were ~80 of a-tiny's 674
        // instructions per URL, for its one `/*.pdf$`).
        let mut occ: Option<Occurrences> = None;
        for &(root, depth) in active.iter().rev() {
            let r = &self.rest[root as usize];
            if u64::from(r.max_priority) < self.floor(best) {
                continue;
            }
            self.fold_ends(r, path, depth as usize, best);
            if !r.children.is_empty() {
                let occ = occ.get_or_insert_with(Occurrences::new);
                self.eval_kids(r, path, depth as usize, best, occ, 0);
            }
        }
    }

    /// The search of the activated piece trees `active` when every searched piece is in
    /// [`Tree::buckets`] (`scan`) and `path` fits its window: one scan, then for each child the
    /// test of whether its piece may occur at all (most may not) before the search for it.
    // PERF: one function with the scan and the searches inlined (AVX-512 code): through
    // `eval_kids` and `try_child`, with the scan and each search a call, b-shop took ~25% longer.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,popcnt")]
    fn fold_bucketed<const S: usize, const W: usize>(
        &self,
        scan: &BucketScan,
        active: &[(u32, u32)],
        path: &[u8],
        best: &mut [u64; 2],
    ) {
        let mut hits = None;
        // Deeper activations first: their patterns have longer first pieces.
        for &(root, depth) in active.iter().rev() {
            let r = &self.rest[root as usize];
            if u64::from(r.max_priority) < self.floor(best) {
                continue;
            }
            self.fold_ends(r, path, depth as usize, best);
            if r.children.is_empty() {
                continue;
            }
            if hits.is_none() {
                hits = Some(scan.scan::<S>(path));
            }
            if let Some(hits) = &hits {
                self.bucket_kids::<S, W>(scan, hits, root, path, depth as usize, best);
            }
        }
    }

    /// [`Tree::search`] with an AVX2 bucket scan, of a path that fits its window.
    // PERF: a call of its own, out of line: with both sets' four calls in `search`, the tree's
    // fold was no longer inlined into the matcher's decision, and c-literal, which never
    // comes here, took 4 ns per URL more (`speed`, pinned).
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    fn search_avx2(
        &self,
        scan: &BucketScan,
        active: &[(u32, u32)],
        path: &[u8],
        best: &mut [u64; 2],
    ) {
        // SAFETY: an AVX2 scan exists only where the processor has the features of
        // `fold_bucketed_avx2` (`BucketScan::build` detected them).
        unsafe {
            if scan.has_few_sets() {
                self.fold_bucketed_avx2::<{ crate::bytescan::FEW_SETS }, 1>(
                    scan, active, path, best,
                );
            } else {
                self.fold_bucketed_avx2::<{ crate::bytescan::BUCKET_SETS }, 2>(
                    scan, active, path, best,
                );
            }
        }
    }

    /// [`Tree::fold_bucketed`] with AVX2 ([`BucketScan::scan_avx2`]). The scan's blocks are
    /// a local array that the hits borrow: with 16 vector registers they live in memory, and
    /// hits that held them would be copied (d-wildcards' 9 sets: 1,152 bytes, twice per path).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,popcnt")]
    fn fold_bucketed_avx2<const S: usize, const W: usize>(
        &self,
        scan: &BucketScan,
        active: &[(u32, u32)],
        path: &[u8],
        best: &mut [u64; 2],
    ) {
        let mut blocks = crate::bytescan::BucketHits2::<S>::blocks();
        // Taken by the scan, once.
        let mut room = Some(&mut blocks);
        let mut hits = None;
        // Deeper activations first: their patterns have longer first pieces.
        for &(root, depth) in active.iter().rev() {
            let r = &self.rest[root as usize];
            if u64::from(r.max_priority) < self.floor(best) {
                continue;
            }
            self.fold_ends(r, path, depth as usize, best);
            if r.children.is_empty() {
                continue;
            }
            if let Some(room) = room.take() {
                hits = Some(scan.scan_avx2::<S>(path, room));
            }
            if let Some(hits) = &hits {
                self.bucket_kids_avx2::<S, W>(scan, hits, root, path, depth as usize, best);
            }
        }
    }

    bucket_search!(
        "avx512f,avx512bw,avx512vbmi,gfni,popcnt",
        bucket_kids,
        bucket_child,
        BucketHits,
        first
    );

    bucket_search!(
        "avx2,bmi1,popcnt",
        bucket_kids_avx2,
        bucket_child_avx2,
        BucketHits2,
        first_avx2
    );

    /// What the walk does at node `n`, reached at depth `pos`: folds the keys of the literal
    /// patterns that end there (those with `$` when the path ends there too), and activates
    /// the wildcard patterns whose first piece ends there, in `active` while it has room.
    #[inline]
    fn mark(
        &self,
        n: &Node,
        path: &[u8],
        pos: usize,
        best: &mut [u64; 2],
        active: &mut [(u32, u32); 8],
        n_active: &mut usize,
    ) {
        if n.keys != 0 {
            let k = &self.keys[n.keys as usize - 1];
            self.offer(best, ALLOW, k[0]);
            self.offer(best, DISALLOW, k[1]);
            if pos == path.len() {
                self.offer(best, ALLOW, k[2]);
                self.offer(best, DISALLOW, k[3]);
            }
        }
        if n.rest != 0 {
            self.activate(n.rest - 1, path, pos, best, active, n_active);
        }
    }

    /// Activates the wildcard patterns of piece tree `root` at depth `pos`: in `active` while
    /// it has room, else searched at once.
    #[inline]
    fn activate(
        &self,
        root: u32,
        path: &[u8],
        pos: usize,
        best: &mut [u64; 2],
        active: &mut [(u32, u32); 8],
        n_active: &mut usize,
    ) {
        if *n_active < active.len() {
            active[*n_active] = (root, pos as u32);
            *n_active += 1;
        } else {
            self.search_now(root, path, pos, best);
        }
    }

    /// [`Tree::eval_rest`] with an occurrence list of its own, for a ninth activation (rare:
    /// kept out of the walk's code).
    #[cold]
    #[inline(never)]
    fn search_now(&self, root: u32, path: &[u8], pos: usize, best: &mut [u64; 2]) {
        self.eval_rest(root, path, pos, best, &mut Occurrences::new());
    }

    /// Searches the piece tree under `root` for the patterns activated at `from`.
    #[inline]
    fn eval_rest(
        &self,
        root: u32,
        path: &[u8],
        from: usize,
        best: &mut [u64; 2],
        occ: &mut Occurrences,
    ) {
        if u64::from(self.rest[root as usize].max_priority) >= self.floor(best) {
            self.eval_children(root, path, from, best, occ, 0);
        }
    }

    /// Searches the children of rest node `node`, whose pieces start at or after `from`, depth
    /// first. Past [`MAX_RECURSION`] levels (piece trees of hostile files can be thousands of
    /// pieces deep) the search goes on with an explicit stack on the heap.
    fn eval_children(
        &self,
        node: u32,
        path: &[u8],
        from: usize,
        best: &mut [u64; 2],
        occ: &mut Occurrences,
        depth: u32,
    ) {
        if depth >= MAX_RECURSION {
            self.eval_deep(node, path, from, best, occ);
            return;
        }
        let r = &self.rest[node as usize];
        self.fold_ends(r, path, from, best);
        self.eval_kids(r, path, from, best, occ, depth);
    }

    /// [`Tree::eval_children`] after the [`End`]s: the children of `r`.
    #[inline]
    fn eval_kids(
        &self,
        r: &RestNode,
        path: &[u8],
        from: usize,
        best: &mut [u64; 2],
        occ: &mut Occurrences,
        depth: u32,
    ) {
        if !r.by_piece.is_empty() {
            if occ.state == 0 {
                if let Some(m) = &self.multi {
                    m.scan(path, occ);
                }
            }
            if occ.state == 1 {
                // PERF: a node with hundreds of children (`/*thank*`, `/*polaris*`, ... at
                // www.sophos.com) tries only those whose piece occurs in the path.
                // PERF: the pieces found are copied out (trying a child needs `occ`), on the
                // stack up to `INLINE_HITS` (a heap Vec here was 6% of a d-wildcards decision).
                let mut try_piece = |piece: u32, occ: &mut Occurrences| {
                    let at = r.by_piece.partition_point(|&(p, _)| p < piece);
                    for &(p, c) in &r.by_piece[at..] {
                        if p != piece {
                            break;
                        }
                        self.try_and_descend(c, path, from, best, occ, depth);
                    }
                };
                if occ.len <= INLINE_HITS {
                    // The hits stay as they are (nothing scans again once `state` is 1): the
                    // first hit of each piece at or after `from`, by index.
                    let mut first = occ.first_hits(from);
                    while first != 0 {
                        let h = first.trailing_zeros() as usize;
                        first &= first - 1;
                        try_piece(occ.inline[h].0, occ);
                    }
                } else {
                    for piece in occ.spilled_pieces(from) {
                        try_piece(piece, occ);
                    }
                }
                for &c in &r.others {
                    self.try_and_descend(c, path, from, best, occ, depth);
                }
                return;
            }
        }
        for &c in &r.children {
            if let Step::Stop = self.try_and_descend(c, path, from, best, occ, depth) {
                break;
            }
        }
    }

    /// Folds the keys of `r`'s [`End`] children whose piece ends the path, at or after `from`.
    #[inline]
    fn fold_ends(&self, r: &RestNode, path: &[u8], from: usize, best: &mut [u64; 2]) {
        if r.ends.is_empty() {
            return;
        }
        let last = last8(path);
        for e in &r.ends {
            let len = e.len as usize;
            if path.len() >= from + len && ends_with_word(last, len, e.word) {
                let keys = self.rest[e.node as usize].anchored;
                self.offer(best, ALLOW, keys[ALLOW]);
                self.offer(best, DISALLOW, keys[DISALLOW]);
            }
        }
    }

    /// Tries child `c`, and searches its children where its piece was found.
    #[inline]
    fn try_and_descend(
        &self,
        c: u32,
        path: &[u8],
        from: usize,
        best: &mut [u64; 2],
        occ: &mut Occurrences,
        depth: u32,
    ) -> Step {
        match self.try_child(c, path, from, best, occ) {
            Step::Descend(at) => {
                self.eval_children(c, path, at, best, occ, depth + 1);
                Step::Next
            }
            step => step,
        }
    }

    /// [`Tree::eval_children`] with an explicit stack.
    #[cold]
    fn eval_deep(
        &self,
        node: u32,
        path: &[u8],
        from: usize,
        best: &mut [u64; 2],
        occ: &mut Occurrences,
    ) {
        // (node, next child, from)
        let mut stack = vec![(node, 0usize, from)];
        while let Some(top) = stack.last_mut() {
            let (node, i, from) = *top;
            let r = &self.rest[node as usize];
            if i == 0 {
                self.fold_ends(r, path, from, best);
            }
            let Some(&c) = r.children.get(i) else {
                stack.pop();
                continue;
            };
            top.1 += 1;
            match self.try_child(c, path, from, best, occ) {
                Step::Stop => top.1 = usize::MAX,
                Step::Next => {}
                Step::Descend(at) => stack.push((c, 0, at)),
            }
        }
    }

    /// The leftmost occurrence of piece `id` in `path` starting at or after `from`.
    #[inline]
    fn find(&self, id: u32, path: &[u8], from: usize, occ: &mut Occurrences) -> Option<usize> {
        let piece = &self.pieces[id as usize];
        if piece.multi {
            if occ.state == 0 {
                if let Some(m) = &self.multi {
                    m.scan(path, occ);
                }
            }
            if occ.state == 1 {
                return occ.first(id, from);
            }
        }
        let hay = path.get(from..)?;
        Some(from + crate::bytescan::find(hay, &piece.bytes)?)
    }

    /// Tries child `c` with its piece at or after `from`.
    #[inline]
    fn try_child(
        &self,
        c: u32,
        path: &[u8],
        from: usize,
        best: &mut [u64; 2],
        occ: &mut Occurrences,
    ) -> Step {
        let child = &self.rest[c as usize];
        if u64::from(child.max_priority) < self.floor(best) {
            // Children are ordered by priority: none after this one can matter either.
            return Step::Stop;
        }
        if !self.offer_anchored(child, path, from, best) {
            return Step::Next;
        }
        match self.find(child.piece, path, from, occ) {
            Some(at) => self.offer_found(child, at, best),
            None => Step::Next,
        }
    }

    /// The first half of trying `child` with its piece at or after `from`: folds its
    /// `$`-anchored keys when its piece ends the path there, and tells whether its piece must
    /// be searched (its patterns go on after it, or some end there without `$`).
    #[inline(always)]
    fn offer_anchored(
        &self,
        child: &RestNode,
        path: &[u8],
        from: usize,
        best: &mut [u64; 2],
    ) -> bool {
        let piece = &self.pieces[child.piece as usize];
        if child.anchored != [0; 2] && path.len() >= from + piece.bytes.len() && piece.ends(path) {
            self.offer(best, ALLOW, child.anchored[ALLOW]);
            self.offer(best, DISALLOW, child.anchored[DISALLOW]);
        }
        child.is_searched()
    }

    /// The second half: `child`'s piece was found at `at`; folds the keys of the patterns
    /// that end with it, and says whether to search its children, from the piece's end.
    #[inline(always)]
    fn offer_found(&self, child: &RestNode, at: usize, best: &mut [u64; 2]) -> Step {
        self.offer(best, ALLOW, child.open[ALLOW]);
        self.offer(best, DISALLOW, child.open[DISALLOW]);
        if child.is_leaf() {
            Step::Next
        } else {
            Step::Descend(at + self.pieces[child.piece as usize].bytes.len())
        }
    }
}

/// What to do after trying one child of a piece tree node.
enum Step {
    /// No later sibling can change the verdict.
    Stop,
    /// Go on with the next sibling.
    Next,
    /// The child's piece was found ending here: search its children from there.
    Descend(usize),
}

/// Piece trees deeper than this are searched with a heap stack instead of recursion.
const MAX_RECURSION: u32 = 32;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::RuleKind;
    use crate::testrng::Rng;

    /// Every string of `len` bytes over `alphabet`.
    fn strings(alphabet: &[u8], len: usize) -> Vec<Vec<u8>> {
        let mut out = vec![Vec::new()];
        for _ in 0..len {
            out = out
                .into_iter()
                .flat_map(|s| {
                    alphabet.iter().map(move |&b| {
                        let mut t = s.clone();
                        t.push(b);
                        t
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn last_word_shifted_to_a_piece_is_ends_with() {
        // A zero byte in the alphabet: the zero padding of short paths must never pass for
        // path bytes.
        let alphabet = [b'a', 0];
        let paths: Vec<Vec<u8>> = (0..=11).flat_map(|n| strings(&alphabet, n)).collect();
        for len in 1..=8 {
            for piece in strings(&alphabet, len) {
                let p = Piece {
                    bytes: piece.clone().into(),
                    multi: false,
                    bucket: NO_BUCKET,
                };
                for path in paths.iter().filter(|path| path.len() >= len) {
                    let want = path.ends_with(&piece);
                    assert_eq!(ends_with_word(last8(path), len, load8(&piece)), want);
                    assert_eq!(p.ends(path), want, "{path:?} {piece:?}");
                }
            }
        }
    }

    /// `len` strings picked from `parts` by `rng`, concatenated (cut to `max` bytes).
    fn join(rng: &mut Rng, parts: &[&str], len: usize, max: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for _ in 0..len {
            out.extend_from_slice(parts[rng.below(parts.len())].as_bytes());
        }
        out.truncate(max);
        out
    }

    /// An Allow or a Disallow, at random.
    fn random_kind(rng: &mut Rng) -> RuleKind {
        if rng.below(2) == 0 {
            RuleKind::Allow
        } else {
            RuleKind::Disallow
        }
    }

    /// The profile of test round `round` (every fourth legacy, the others Google's), the
    /// pattern set of `rules` under it, and its tree.
    fn build_for_round(
        round: usize,
        rules: &[(RuleKind, Vec<u8>)],
    ) -> (crate::profile::Profile, PatternSet, Tree) {
        let profile = if round % 4 == 3 {
            crate::profile::Profile::LEGACY
        } else {
            crate::profile::Profile::GOOGLE
        };
        let set = PatternSet::build(rules.iter().map(|(k, p)| (*k, &p[..])), &profile);
        let tree = Tree::build(&set, profile.precedence, 1 << 20);
        (profile, set, tree)
    }

    /// The table ([`Table`]), where it stands in for the walk, marks what the walk marks:
    /// random sets of up to 70 patterns (so some have more strings than a table takes),
    /// literal and wildcard, under both precedences, decide every path as the walk and as the
    /// set's own scan of its patterns.
    #[test]
    fn the_table_decides_as_the_walk() {
        let parts = [
            "/", "a", "b", "ab", "ba/", "%2F", "?", "x=", "\u{e9}", "\0", "aaaaaaaa",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut tables = 0;
        for round in 0..400 {
            let count = 1 + rng.below(70);
            let rules: Vec<(RuleKind, Vec<u8>)> = (0..count)
                .map(|_| {
                    let kind = random_kind(&mut rng);
                    let mut p = b"/".to_vec();
                    let n = rng.below(12);
                    p.extend(join(&mut rng, &parts, n, 70));
                    if rng.below(4) == 0 {
                        let at = rng.below(p.len() + 1);
                        p.insert(at, b'*');
                    }
                    if rng.below(5) == 0 {
                        p.push(b'$');
                    }
                    (kind, p)
                })
                .collect();
            let (profile, set, tree) = build_for_round(round, &rules);
            let mut walk = tree.clone();
            walk.table = None;
            tables += usize::from(tree.table.is_some());
            for _ in 0..60 {
                let mut path = b"/".to_vec();
                let n = rng.below(24);
                path.extend(join(&mut rng, &parts, n, 90));
                let (mut a, mut b, mut c) = (set.always, set.always, set.always);
                tree.fold(&path, &mut a);
                walk.fold(&path, &mut b);
                set.fold(&path, &mut c);
                // The same verdict and deciding rule (the keys folded may differ where one
                // was pruned: it could not change them).
                let v = |best| super::super::pattern::verdict(best, profile.precedence);
                assert_eq!(v(a), v(b), "{rules:?} {path:?}");
                assert_eq!(v(a), v(c), "{rules:?} {path:?}");
            }
        }
        if crate::bytescan::has_table_features() {
            assert!(tables > 100, "only {tables} sets had a table");
        }
    }

    /// A tree with enough searched pieces scans them in buckets wherever the processor can
    /// (with AVX-512, or else AVX2: [`BUCKET_MIN_PIECES_AVX2`]), and decides every path as the
    /// set's own scan of its patterns: random sets of 9 to 72 wildcard patterns over a small
    /// alphabet, paths on both sides of the scan's window and of its 32-byte blocks.
    #[test]
    fn a_tree_of_many_pieces_scans_them_in_buckets() {
        let parts = ["/", "a", "b", "ab", "ba/", "?", "x=", "\u{e9}", "cd"];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut bucketed = 0;
        for round in 0..200 {
            let count = 9 + rng.below(64);
            let rules: Vec<(RuleKind, Vec<u8>)> = (0..count)
                .map(|i| {
                    let kind = random_kind(&mut rng);
                    let mut p = b"/".to_vec();
                    let n = rng.below(3);
                    p.extend(join(&mut rng, &parts, n, 20));
                    // A distinct piece after the `*` (the pieces of a scan are distinct).
                    p.extend(format!("*{}{i}", ["q", "r=", "s/"][rng.below(3)]).bytes());
                    if rng.below(3) == 0 {
                        let n = rng.below(3);
                        p.push(b'*');
                        p.extend(join(&mut rng, &parts, n, 20));
                    }
                    if rng.below(5) == 0 {
                        p.push(b'$');
                    }
                    (kind, p)
                })
                .collect();
            let (profile, set, tree) = build_for_round(round, &rules);
            bucketed += usize::from(tree.buckets.is_some());
            for _ in 0..60 {
                let mut path = b"/".to_vec();
                let n = rng.below(40);
                path.extend(join(&mut rng, &parts, n, 160));
                if rng.below(2) == 0 {
                    // A piece of a rule, so that some match.
                    path.extend(
                        format!("{}{}", ["q", "r=", "s/"][rng.below(3)], rng.below(count)).bytes(),
                    );
                }
                let (mut a, mut c) = (set.always, set.always);
                tree.fold(&path, &mut a);
                set.fold(&path, &mut c);
                let v = |best| super::super::pattern::verdict(best, profile.precedence);
                assert_eq!(v(a), v(c), "{rules:?} {path:?}");
            }
        }
        if crate::bytescan::has_bucket_features() {
            assert!(bucketed > 100, "only {bucketed} trees scanned in buckets");
        } else {
            assert_eq!(bucketed, 0);
        }
    }

    /// A bucketed search whose list of nodes to search fills up ([`KIDS_TODO`]) searches the
    /// rest at once, and finds what they match: one piece tree node with 18 to 40 children,
    /// most of whose pieces are in the path, each with children of its own, decides every path
    /// as the set's own scan of its patterns.
    #[test]
    fn a_bucketed_search_with_more_children_found_than_its_list_holds() {
        let mut rng = Rng(0x51A7_E5D0_C0FF_EE11);
        let mut bucketed = 0;
        for round in 0..120 {
            let count = KIDS_TODO + 2 + rng.below(23);
            // `/*gN*...`: the root's children are the distinct `gN` (2 or 3 bytes).
            let piece = |i: usize| format!("g{i}");
            let tails = ["zz", "y/", "zz*q", "x", ""];
            let rules: Vec<(RuleKind, Vec<u8>)> = (0..count)
                .map(|i| {
                    let tail = tails[rng.below(tails.len())];
                    let star = if tail.is_empty() { "" } else { "*" };
                    let p = format!("/*{}{star}{tail}", piece(i));
                    (random_kind(&mut rng), p.into_bytes())
                })
                .collect();
            let (profile, set, tree) = build_for_round(round, &rules);
            bucketed += usize::from(tree.buckets.is_some());
            for _ in 0..40 {
                // Most of the pieces, in a random order, then some tails: under 128 bytes.
                let mut order: Vec<usize> = (0..count).collect();
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.below(i + 1));
                }
                let mut path = b"/".to_vec();
                for &i in &order[..count - rng.below(4)] {
                    path.extend(piece(i).bytes());
                }
                for _ in 0..rng.below(3) {
                    path.extend(["zz", "y/", "q", "x"][rng.below(4)].bytes());
                }
                let (mut a, mut c) = (set.always, set.always);
                tree.fold(&path, &mut a);
                set.fold(&path, &mut c);
                let v = |best| super::super::pattern::verdict(best, profile.precedence);
                assert_eq!(v(a), v(c), "{rules:?} {:?}", String::from_utf8_lossy(&path));
            }
        }
        if crate::bytescan::has_bucket_features() {
            assert!(bucketed > 60, "only {bucketed} trees scanned in buckets");
        }
    }
}
