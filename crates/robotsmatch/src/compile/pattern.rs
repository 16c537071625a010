//! The compact canonical form of one crawler's rules: what [`Matcher::new`](crate::Matcher::new)
//! builds, and the [`Engine::Direct`](super::Engine::Direct) engine that decides from it alone.
//!
//! Every rule's pattern is put in canonical percent-encoding and simplified (`**` is `*`; a
//! trailing `*` is dropped; `*$` at the end is no anchor; the priority is the canonical length
//! before that). The simplified bodies sit end to end in one byte buffer, and each pattern is a
//! fixed-size record: where its body is, the length of its first literal piece, whether it ends
//! in `$`, its kind and its key. Building this costs about as much as reading the rules (no
//! automaton, no allocation per rule), so a matcher that decides a handful of URLs never pays
//! for more.
//!
//! Deciding is a scan over the records: the first eight bytes of each pattern are compared with
//! the path's in one masked word comparison, which rejects most patterns without touching the
//! buffer; a pattern whose key cannot beat the best match of its kind found so far is skipped.
//! The hot engines (see [`super`]) are built from the same records.
#![forbid(unsafe_code)]

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use crate::canon::canonicalize_into;
use crate::parse::RuleKind;
use crate::profile::{Precedence, Profile};

/// Kind index into the per-kind maxima.
pub(crate) const ALLOW: usize = 0;
/// Kind index into the per-kind maxima.
pub(crate) const DISALLOW: usize = 1;

/// The index of `kind` into the per-kind maxima.
#[inline]
pub(crate) fn kind_index(kind: RuleKind) -> usize {
    match kind {
        RuleKind::Allow => ALLOW,
        RuleKind::Disallow => DISALLOW,
    }
}

/// The packed key of a match: `(priority << 32) | (u32::MAX - rule index)`, so that within a
/// kind the higher key is the longer pattern, and among equals the first in file order. Under
/// the first-match precedence the priority part is zero: the maximum is the first rule.
#[inline]
pub(crate) fn key(priority: usize, rule: usize, precedence: Precedence) -> u64 {
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

/// Decides from the per-kind maxima (0 = no match of that kind): `(allowed, deciding rule)`.
#[inline]
pub(crate) fn verdict(best: [u64; 2], precedence: Precedence) -> (bool, Option<usize>) {
    let [a, d] = best;
    if d == 0 {
        return (true, (a != 0).then(|| key_rule(a)));
    }
    let allow_wins = a != 0
        && match precedence {
            Precedence::LongestMatch => key_priority(a) >= key_priority(d),
            Precedence::FirstMatch => a > d,
        };
    if allow_wins {
        (true, Some(key_rule(a)))
    } else {
        (false, Some(key_rule(d)))
    }
}

/// One simplified pattern as the automata builders take it: literal pieces between wildcards
/// (the first may be empty when the pattern starts with `*`), and whether it ends in `$`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Simple {
    /// Literal pieces between wildcards.
    pub(crate) pieces: Vec<Vec<u8>>,
    /// Ends with `$`: must match the whole path.
    pub(crate) anchored: bool,
}

impl Simple {
    /// The number of `*` in the pattern.
    pub(crate) fn wildcards(&self) -> usize {
        self.pieces.len() - 1
    }
}

/// One pattern of the compact form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pat {
    /// The key folded when the pattern matches.
    pub(crate) key: u64,
    /// The first (up to) eight bytes of the body, little-endian, zero-padded.
    head: u64,
    /// Ones over the bytes of `head` that must match.
    head_mask: u64,
    /// Where the body starts in [`PatternSet::bytes`].
    start: u32,
    /// The body's length: literal pieces joined by single `*` (no `$`, no trailing `*`).
    len: u32,
    /// The length of the first literal piece (equal to `len` when there is no wildcard).
    first: u32,
    /// [`ALLOW`] or [`DISALLOW`].
    pub(crate) kind: u8,
    /// Ends with `$`.
    anchored: bool,
}

impl Pat {
    /// True when the pattern has a `*`.
    #[inline]
    pub(crate) fn is_wild(&self) -> bool {
        self.first < self.len
    }

    /// The length of the first literal piece.
    #[inline]
    pub(crate) fn first_len(&self) -> usize {
        self.first as usize
    }

    /// True when the pattern ends with `$`.
    #[inline]
    pub(crate) fn anchored(&self) -> bool {
        self.anchored
    }
}

/// The compact canonical form of one crawler's rules (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct PatternSet {
    pats: Vec<Pat>,
    bytes: Vec<u8>,
    /// Per kind: the best key among rules that match every path (0 = none).
    pub(crate) always: [u64; 2],
}

/// What a canonical pattern simplifies to.
enum Simplified<'a> {
    /// Matches nothing (empty pattern; or `$` alone: paths are never empty).
    Never,
    /// Matches every path (`*`, `*$`, ...).
    Always,
    /// `body` (no `**`, no trailing `*`) and whether it is anchored; `wild` false when `*` is
    /// literal (then the body is one piece whatever it holds).
    Pattern {
        body: &'a [u8],
        anchored: bool,
        wild: bool,
    },
}

/// Simplifies a canonical pattern: a trailing `*` on an unanchored pattern is dropped; `*$` at
/// the end is the same as no anchor; `$` is an anchor only as the last byte. Runs of `*` are
/// collapsed later, when the body is copied.
fn simplify<'a>(canonical: &'a [u8], profile: &Profile) -> Simplified<'a> {
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
            Simplified::Pattern {
                body,
                anchored,
                wild: false,
            }
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
    Simplified::Pattern {
        body,
        anchored,
        wild: true,
    }
}

/// Loads up to eight bytes of `s` as a little-endian word, zero-padded.
#[inline]
fn load8(s: &[u8]) -> u64 {
    if s.len() >= 8 {
        u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
    } else {
        let mut w = [0u8; 8];
        w[..s.len()].copy_from_slice(s);
        u64::from_le_bytes(w)
    }
}

/// Finds `needle` in `hay` (leftmost).
#[inline]
pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    crate::bytescan::find(hay, needle)
}

impl PatternSet {
    /// An empty set.
    pub(crate) fn new() -> PatternSet {
        PatternSet {
            pats: Vec::new(),
            bytes: Vec::new(),
            always: [0; 2],
        }
    }

    /// Compiles rules given as `(kind, pattern as written)` in file order.
    #[cfg(test)]
    pub(crate) fn build<'r>(
        rules: impl IntoIterator<Item = (RuleKind, &'r [u8])>,
        profile: &Profile,
    ) -> PatternSet {
        let rules = rules.into_iter();
        let mut set = PatternSet::new();
        set.pats.reserve(rules.size_hint().0);
        let mut canonical = Vec::new();
        for (i, (kind, pattern)) in rules.enumerate() {
            set.push(i, kind, pattern, profile, &mut canonical);
        }
        set
    }

    /// Adds rule `index` (its pattern as written); `scratch` is reused between calls.
    pub(crate) fn push(
        &mut self,
        index: usize,
        kind: RuleKind,
        pattern: &[u8],
        profile: &Profile,
        scratch: &mut Vec<u8>,
    ) {
        let canonical: &[u8] = if crate::canon::is_canonical(pattern) {
            pattern
        } else {
            canonicalize_into(pattern, scratch);
            scratch
        };
        let k = kind_index(kind);
        let precedence = profile.precedence;
        self.add(
            k,
            simplify(canonical, profile),
            key(canonical.len(), index, precedence),
        );
        if profile.index_html && kind == RuleKind::Allow {
            // Google: `Allow: /dir/index.html` also allows `/dir/` exactly, with the priority
            // of `/dir/$`.
            if let Some(slash) = memchr::memrchr(b'/', canonical) {
                if canonical[slash..].starts_with(b"/index.htm") {
                    let dir = &canonical[..=slash];
                    self.add(
                        k,
                        Simplified::Pattern {
                            body: dir,
                            anchored: true,
                            wild: true,
                        },
                        key(dir.len() + 1, index, precedence),
                    );
                }
            }
        }
    }

    fn add(&mut self, kind: usize, simplified: Simplified<'_>, key: u64) {
        let (body, anchored, wild) = match simplified {
            Simplified::Never => return,
            Simplified::Always => {
                self.always[kind] = self.always[kind].max(key);
                return;
            }
            Simplified::Pattern {
                body,
                anchored,
                wild,
            } => (body, anchored, wild),
        };
        let start = self.bytes.len();
        let first = if wild {
            match memchr::memchr(b'*', body) {
                None => {
                    self.bytes.extend_from_slice(body);
                    body.len()
                }
                Some(f) => {
                    // Copy with runs of `*` collapsed to one.
                    let mut prev_star = false;
                    for &b in body {
                        if b == b'*' && prev_star {
                            continue;
                        }
                        prev_star = b == b'*';
                        self.bytes.push(b);
                    }
                    f
                }
            }
        } else {
            self.bytes.extend_from_slice(body);
            body.len()
        };
        let len = self.bytes.len() - start;
        let head_len = first.min(8);
        let head = load8(&self.bytes[start..start + head_len]);
        let head_mask = if head_len == 8 {
            u64::MAX
        } else {
            (1u64 << (head_len * 8)) - 1
        };
        self.pats.push(Pat {
            key,
            head,
            head_mask,
            start: start as u32,
            len: len as u32,
            first: first as u32,
            kind: kind as u8,
            anchored,
        });
    }

    /// The patterns.
    pub(crate) fn pats(&self) -> &[Pat] {
        &self.pats
    }

    /// The number of patterns (not counting rules that match every path or none).
    pub(crate) fn len(&self) -> usize {
        self.pats.len()
    }

    /// The number of patterns with a `*`.
    pub(crate) fn wildcard_count(&self) -> usize {
        self.pats.iter().filter(|p| p.is_wild()).count()
    }

    /// The body of `p`: literal pieces joined by single `*`.
    #[inline]
    pub(crate) fn body(&self, p: &Pat) -> &[u8] {
        &self.bytes[p.start as usize..(p.start + p.len) as usize]
    }

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        self.pats.capacity() * std::mem::size_of::<Pat>() + self.bytes.capacity()
    }

    /// Does `p` match a prefix of `path` (all of it when anchored)? Each piece after a `*` is
    /// placed at its leftmost occurrence after the previous one, which finds a match whenever
    /// one exists; an anchored pattern's last piece must end the path.
    #[inline]
    pub(crate) fn is_match(&self, p: &Pat, path: &[u8]) -> bool {
        let body = self.body(p);
        let first = p.first as usize;
        if path.len() < first || path[..first] != body[..first] {
            return false;
        }
        if !p.is_wild() {
            return !p.anchored || path.len() == first;
        }
        let mut pos = first;
        let mut rest = &body[first + 1..];
        loop {
            match memchr::memchr(b'*', rest) {
                Some(i) => {
                    let piece = &rest[..i];
                    match find(&path[pos..], piece) {
                        Some(at) => pos += at + piece.len(),
                        None => return false,
                    }
                    rest = &rest[i + 1..];
                }
                None => {
                    return if p.anchored {
                        path.len() >= pos + rest.len() && path.ends_with(rest)
                    } else {
                        find(&path[pos..], rest).is_some()
                    };
                }
            }
        }
    }

    /// Folds the keys of every pattern that matches `path` into `best` (per kind, the maximum),
    /// starting from the rules that match every path.
    #[inline]
    pub(crate) fn fold(&self, path: &[u8], best: &mut [u64; 2]) {
        let head = load8(path);
        for p in &self.pats {
            if (head ^ p.head) & p.head_mask != 0 {
                continue;
            }
            let slot = best[p.kind as usize];
            if p.key > slot && self.is_match(p, path) {
                best[p.kind as usize] = p.key;
            }
        }
    }

    /// The patterns as the automata builders take them, identical ones merged (each keeping
    /// the best key), with their `(key, kind)`.
    pub(crate) fn simples(&self) -> (Vec<Simple>, Vec<(u64, u8)>) {
        let mut index: HashMap<(u8, Simple), usize> = HashMap::with_capacity(self.pats.len());
        let mut simples: Vec<Simple> = Vec::with_capacity(self.pats.len());
        let mut entries: Vec<(u64, u8)> = Vec::with_capacity(self.pats.len());
        for p in &self.pats {
            let body = self.body(p);
            let pieces: Vec<Vec<u8>> = if p.is_wild() {
                body.split(|&b| b == b'*').map(<[u8]>::to_vec).collect()
            } else {
                vec![body.to_vec()]
            };
            let simple = Simple {
                pieces,
                anchored: p.anchored,
            };
            match index.entry((p.kind, simple)) {
                Entry::Occupied(e) => {
                    let id = *e.get();
                    entries[id].0 = entries[id].0.max(p.key);
                }
                Entry::Vacant(e) => {
                    simples.push(e.key().1.clone());
                    entries.push((p.key, p.kind));
                    e.insert(simples.len() - 1);
                }
            }
        }
        (simples, entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(p: &str) -> Option<(Vec<String>, bool)> {
        let set = PatternSet::build([(RuleKind::Disallow, p.as_bytes())], &Profile::GOOGLE);
        if set.always[DISALLOW] != 0 {
            return Some((vec!["ALWAYS".into()], false));
        }
        let (simples, _) = set.simples();
        simples.first().map(|s| {
            (
                s.pieces
                    .iter()
                    .map(|p| String::from_utf8(p.clone()).unwrap())
                    .collect(),
                s.anchored,
            )
        })
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
        assert_eq!(pieces("/%7e*%41"), Some((v(&["/~", "A"]), false)));
    }

    #[test]
    fn find_agrees_with_memmem() {
        let hays: &[&[u8]] = &[b"", b"a", b"aaab", b"/x/abcabd/abcabc", b"%2F%2f"];
        let needles: &[&[u8]] = &[b"", b"a", b"ab", b"abc", b"abcabc", b"%2f", b"zz"];
        for h in hays {
            for n in needles {
                assert_eq!(find(h, n), memchr::memmem::find(h, n), "{h:?} {n:?}");
            }
        }
    }

    #[test]
    fn heads_reject_and_accept() {
        let set = PatternSet::build(
            [
                (RuleKind::Disallow, &b"/abcdefghij"[..]),
                (RuleKind::Allow, b"/ab"),
                (RuleKind::Disallow, b"*x"),
            ],
            &Profile::GOOGLE,
        );
        let mut best = set.always;
        set.fold(b"/abcdefghijk", &mut best);
        assert_eq!(verdict(best, Precedence::LongestMatch), (false, Some(0)));
        let mut best = set.always;
        set.fold(b"/ab", &mut best);
        assert_eq!(verdict(best, Precedence::LongestMatch), (true, Some(1)));
        let mut best = set.always;
        set.fold(b"/a", &mut best);
        assert_eq!(verdict(best, Precedence::LongestMatch), (true, None));
        let mut best = set.always;
        set.fold(b"/x", &mut best);
        assert_eq!(verdict(best, Precedence::LongestMatch), (false, Some(2)));
    }
}
