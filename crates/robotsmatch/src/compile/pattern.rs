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

use crate::bytescan::load8;
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
    /// The first (up to) eight bytes of the first literal piece, little-endian, zero-padded.
    head: u64,
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
    /// `min(first, 8)`: how many bytes of `head` the path's first eight must equal (an index
    /// into [`HEAD_MASKS`]).
    head_len: u8,
}

// A pattern record stays 32 bytes (`head_len` sits in what was padding): two per cache line
// in the direct engine's loop, and the cold memory figures count on it.
const _: () = assert!(std::mem::size_of::<Pat>() == 32);

/// Per number of leading bytes compared (0 to 8), the mask of those bytes in a little-endian
/// word; past 8, unused.
// PERF: computing the mask from the length (a comparison, two shifts, a subtraction) was a
// fifth of the direct engine's instructions per pattern looked at.
const HEAD_MASKS: [u64; 16] = {
    let mut masks = [u64::MAX; 16];
    let mut n = 0;
    while n < 8 {
        masks[n] = (1u64 << (8 * n)) - 1;
        n += 1;
    }
    masks
};

/// One rule as written: where its pattern is in [`PatternSet::bytes`], its line and kind.
#[derive(Clone, Copy, Debug)]
struct RuleMeta {
    start: u32,
    len: u32,
    line: u32,
    kind: RuleKind,
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

/// The compact canonical form of one crawler's rules (see the module docs): the rules as
/// written and their patterns, in one byte buffer.
#[derive(Clone, Debug)]
pub(crate) struct PatternSet {
    rules: Vec<RuleMeta>,
    pats: Vec<Pat>,
    /// The patterns as written, end to end; a canonical body that is not a prefix of its
    /// pattern as written follows it. Eight zero bytes end the buffer, so that the first
    /// eight bytes of any body can be read as one word.
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
    // Every canonical path starts with `/`, so an unanchored `/` (`Allow: /`, or `/*` once its
    // `*` is dropped) matches every path.
    // PERF: as a pattern, its match ended the lazy DFA's fast walk on the second byte of
    // every path (www.reddit.com's `Allow: /` decides 99.97% of its URLs).
    if body == b"/" && !anchored {
        return Simplified::Always;
    }
    Simplified::Pattern {
        body,
        anchored,
        wild: true,
    }
}

/// Does a simplified body (`first` bytes of literal prefix, then `*`-separated pieces; runs
/// of `*` allowed) match a prefix of `path` (all of it when `anchored`)? Each piece after a
/// `*` is placed at its leftmost occurrence after the previous one, which finds a match
/// whenever one exists; an anchored pattern's last piece must end the path.
#[inline]
fn body_matches(body: &[u8], first: usize, anchored: bool, path: &[u8]) -> bool {
    if path.len() < first {
        return false;
    }
    // PERF: most patterns differ from the path in their first bytes; look at two before
    // calling for a comparison.
    if first >= 2 && (path[1] != body[1] || path[0] != body[0]) {
        return false;
    }
    if path[..first] != body[..first] {
        return false;
    }
    rest_matches(body, first, anchored, path)
}

/// [`body_matches`] for a pattern whose first `min(first, 8)` bytes the caller found equal to
/// the path's (one masked word comparison): only the bytes of the first piece after the
/// eighth are compared, in words.
// PERF: the direct engine (every cold matcher) called `memcmp` for the first piece of every
// pattern whose head matched, bytes already compared included: 2% of the 1 GB log's time.
#[inline]
fn body_matches_after_head(body: &[u8], first: usize, anchored: bool, path: &[u8]) -> bool {
    if path.len() < first {
        return false;
    }
    if first > 8 && !crate::bytescan::same(&path[8..first], &body[8..first]) {
        return false;
    }
    rest_matches(body, first, anchored, path)
}

/// The rest of [`body_matches`]: the first piece (`first` bytes) matched the path's start.
#[inline]
fn rest_matches(body: &[u8], first: usize, anchored: bool, path: &[u8]) -> bool {
    if first == body.len() {
        return !anchored || path.len() == first;
    }
    let mut pos = first;
    let mut rest = &body[first + 1..];
    loop {
        // PERF: a pattern's pieces are a few bytes; `memchr`'s set-up (about 70 instructions
        // a call, 0.7% of a crawl log's) cost more than the search.
        match crate::bytescan::find2(rest, b'*', b'*') {
            Some(i) => {
                let piece = &rest[..i];
                match find(&path[pos..], piece) {
                    Some(at) => pos += at + piece.len(),
                    None => return false,
                }
                rest = &rest[i + 1..];
            }
            None => {
                return if anchored {
                    path.len() >= pos + rest.len() && path.ends_with(rest)
                } else {
                    find(&path[pos..], rest).is_some()
                };
            }
        }
    }
}

/// The priority with which a rule (`kind`, its pattern as written) matches the canonical
/// `path` under `profile`, if it does: what the compact form would fold, without storing
/// anything. `scratch` holds the canonical pattern when it is not the pattern as written.
pub(crate) fn rule_priority(
    kind: RuleKind,
    pattern: &[u8],
    profile: &Profile,
    path: &[u8],
    scratch: &mut Vec<u8>,
) -> Option<usize> {
    let canonical: &[u8] = if crate::canon::canonicalize_if_needed(pattern, scratch) {
        scratch
    } else {
        pattern
    };
    let simple = |s: Simplified<'_>| match s {
        Simplified::Never => false,
        Simplified::Always => true,
        Simplified::Pattern {
            body,
            anchored,
            wild,
        } => {
            let first = if wild {
                crate::bytescan::find2(body, b'*', b'*').unwrap_or(body.len())
            } else {
                body.len()
            };
            body_matches(body, first, anchored, path)
        }
    };
    if simple(simplify(canonical, profile)) {
        return Some(canonical.len());
    }
    if profile.index_html && kind == RuleKind::Allow {
        if let Some(slash) = index_html_slash(canonical) {
            let dir = &canonical[..=slash];
            let body = Simplified::Pattern {
                body: dir,
                anchored: true,
                wild: true,
            };
            if simple(body) {
                return Some(dir.len() + 1);
            }
        }
    }
    None
}

/// Google's `index.html` rule: when the last `/` of a canonical Allow pattern starts
/// `/index.htm`, that `/`'s index (the pattern also allows its directory, `pattern[..=slash]`,
/// exactly).
#[inline]
pub(crate) fn index_html_slash(canonical: &[u8]) -> Option<usize> {
    // PERF: the last `/` is a few bytes from the end: a plain loop from the end finds it before
    // `memrchr` has set up.
    let slash = canonical.iter().rposition(|&b| b == b'/')?;
    canonical[slash..]
        .starts_with(b"/index.htm")
        .then_some(slash)
}

/// Finds `needle` in `hay` (leftmost).
#[inline]
pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    crate::bytescan::find(hay, needle)
}

/// The buffers of a large [`PatternSet`] its thread dropped, kept for the next large set the
/// thread builds.
///
/// A matcher for a large file (e-largest's 155 KB: about 400 KiB of buffers) is built and
/// dropped by a crawler that asks it a few URLs. Given back to glibc's allocator, buffers of
/// that size are returned to the system (trimmed from the heap's top, or unmapped), and the
/// next build faults the same pages in again, zeroed by the kernel: measured with `oneshot` on
/// e-largest, 38 page faults per build and 185-206 us per build-and-decide, against 121-128 us
/// and none with the buffers kept here (115 us with glibc told to keep its top).
struct Spare {
    rules: Vec<RuleMeta>,
    pats: Vec<Pat>,
    bytes: Vec<u8>,
}

/// Sets holding at least this many bytes of buffers hand them on (below it, the allocator's
/// bins serve a new set without touching the system).
const SPARE_MIN: usize = 64 << 10;
/// Nor more than this: what one idle thread holds at most.
const SPARE_MAX: usize = 1 << 20;

std::thread_local! {
    static SPARE: std::cell::Cell<Option<Spare>> = const { std::cell::Cell::new(None) };
}

impl Drop for PatternSet {
    fn drop(&mut self) {
        if (SPARE_MIN..=SPARE_MAX).contains(&self.memory_usage()) {
            let spare = Spare {
                rules: std::mem::take(&mut self.rules),
                pats: std::mem::take(&mut self.pats),
                bytes: std::mem::take(&mut self.bytes),
            };
            // (During the thread's teardown there is no slot: the buffers are freed.)
            let _ = SPARE.try_with(|s| s.set(Some(spare)));
        }
    }
}

impl PatternSet {
    /// An empty set with room for `rules` rules of `bytes` bytes of patterns (in the buffers
    /// of the last large set the thread dropped, when this one is large too).
    pub(crate) fn with_capacity(rules: usize, bytes: usize) -> PatternSet {
        let bytes = bytes + 8;
        let per_rule = std::mem::size_of::<RuleMeta>() + std::mem::size_of::<Pat>();
        // (A spare larger than needed is fine: `finish` gives back more than half unused.)
        let spare = if rules * per_rule + bytes >= SPARE_MIN {
            SPARE.try_with(|s| s.take()).ok().flatten()
        } else {
            None
        };
        match spare {
            Some(Spare {
                rules: mut kept_rules,
                mut pats,
                bytes: mut buffer,
            }) => {
                kept_rules.clear();
                pats.clear();
                buffer.clear();
                // (Exact: `reserve` would double a smaller buffer; building every corpus body
                // and dropping it, that was 2% more cold memory.)
                kept_rules.reserve_exact(rules);
                pats.reserve_exact(rules);
                buffer.reserve_exact(bytes);
                PatternSet {
                    rules: kept_rules,
                    pats,
                    bytes: buffer,
                    always: [0; 2],
                }
            }
            // PERF: `Vec::new` then `reserve` took the growth path (~150 instructions of a
            // 4-line file's build).
            None => PatternSet {
                rules: Vec::with_capacity(rules),
                pats: Vec::with_capacity(rules),
                bytes: Vec::with_capacity(bytes),
                always: [0; 2],
            },
        }
    }

    /// Compiles rules given as `(kind, pattern as written)` in file order (line numbers 1, 2,
    /// ...).
    #[cfg(test)]
    pub(crate) fn build<'r>(
        rules: impl IntoIterator<Item = (RuleKind, &'r [u8])>,
        profile: &Profile,
    ) -> PatternSet {
        let mut set = PatternSet::with_capacity(0, 0);
        let mut canonical = Vec::new();
        for (i, (kind, pattern)) in rules.into_iter().enumerate() {
            set.push(kind, pattern, i as u32 + 1, profile, &mut canonical);
        }
        set.finish();
        set
    }

    /// Adds the next rule (its pattern as written, its line); `scratch` is reused between
    /// calls. Call [`PatternSet::finish`] after the last.
    pub(crate) fn push(
        &mut self,
        kind: RuleKind,
        pattern: &[u8],
        line: u32,
        profile: &Profile,
        scratch: &mut Vec<u8>,
    ) {
        let scanned = crate::bytescan::care_and_star(pattern, 0, pattern.len());
        self.push_scanned(kind, pattern, scanned, line, profile, scratch);
    }

    /// [`PatternSet::push`] given `(care, star)`: the index in `pattern` of its first byte that
    /// needs care ([`crate::bytescan::needs_care`]) and of its first `*`, as
    /// [`crate::bytescan::care_and_star`] finds them (where the pattern lies in its file, in
    /// one pass).
    #[inline]
    pub(crate) fn push_scanned(
        &mut self,
        kind: RuleKind,
        pattern: &[u8],
        (care, star): (Option<usize>, Option<usize>),
        line: u32,
        profile: &Profile,
        scratch: &mut Vec<u8>,
    ) {
        let index = self.rules.len();
        let raw = self.bytes.len();
        self.bytes.extend_from_slice(pattern);
        self.rules.push(RuleMeta {
            start: raw as u32,
            len: pattern.len() as u32,
            line,
            kind,
        });
        // The canonical form: the pattern itself when it is canonical (no copy), else one
        // made in `scratch`.
        let in_place = match care {
            None => true,
            Some(at) => !crate::canon::canonicalize_if_needed_from(pattern, at, scratch),
        };
        let canonical: &[u8] = if in_place { pattern } else { scratch };
        // The first `*` of the canonical form: the pattern's, or found in the copy.
        let star = if in_place {
            star
        } else {
            crate::bytescan::find2(canonical, b'*', b'*')
        };
        let k = kind_index(kind);
        let precedence = profile.precedence;
        let index_html = (profile.index_html && kind == RuleKind::Allow)
            .then(|| index_html_slash(canonical))
            .flatten();
        let priority = canonical.len();
        self.add(
            k,
            simplify(canonical, profile),
            key(priority, index, precedence),
            in_place.then_some(raw),
            star,
        );
        if let Some(slash) = index_html {
            // Google: `Allow: /dir/index.html` also allows `/dir/` exactly, with the priority
            // of `/dir/$`.
            let dir = &canonical[..=slash];
            self.add(
                k,
                Simplified::Pattern {
                    body: dir,
                    anchored: true,
                    wild: true,
                },
                key(dir.len() + 1, index, precedence),
                in_place.then_some(raw),
                star,
            );
        }
    }

    /// Ends the set (pads the buffer, see [`PatternSet::bytes`]).
    pub(crate) fn finish(&mut self) {
        self.bytes.extend_from_slice(&[0; 8]);
        // A matcher may live long: give back what a generous first guess reserved.
        if self.rules.capacity() > self.rules.len() + self.rules.len() / 2 + 8 {
            self.rules.shrink_to_fit();
            self.pats.shrink_to_fit();
        }
        if self.bytes.capacity() > self.bytes.len() + self.bytes.len() / 2 + 64 {
            self.bytes.shrink_to_fit();
        }
    }

    /// Adds a pattern. `raw` is where the canonical form starts in `bytes` when it is the
    /// pattern as written (a body that is a prefix of it is then not copied). `star` is the
    /// first `*` of the canonical form the body was cut from (the body is a prefix of it).
    // PERF: inlined into `push` (called once per rule; the call and the moves of its arguments
    // were about 30 instructions a rule).
    #[inline(always)]
    fn add(
        &mut self,
        kind: usize,
        simplified: Simplified<'_>,
        key: u64,
        raw: Option<usize>,
        star: Option<usize>,
    ) {
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
        // PERF: 16 bytes at a time; `memchr`'s set-up cost more than the search on a pattern.
        let star = star.filter(|&s| wild && s < body.len());
        // `**` runs must be collapsed, which a prefix of the pattern as written cannot do.
        let collapse = star.is_some_and(|s| body[s..].windows(2).any(|w| w == b"**"));
        let (start, len) = match raw {
            Some(at) if !collapse => (at, body.len()),
            // PERF: a canonical form that is not the pattern as written, copied whole.
            _ if !collapse => {
                let at = self.bytes.len();
                self.bytes.extend_from_slice(body);
                (at, body.len())
            }
            _ => {
                let at = self.bytes.len();
                let mut prev_star = false;
                for &b in body {
                    if b == b'*' && prev_star && wild {
                        continue;
                    }
                    prev_star = b == b'*';
                    self.bytes.push(b);
                }
                (at, self.bytes.len() - at)
            }
        };
        let first = star.unwrap_or(len);
        let h = first.min(8);
        // PERF: a word read whole and masked; copying up to eight bytes into a zeroed array
        // called memcpy and then stalled reading them back as one word.
        let head = match self.bytes[start..].first_chunk::<8>() {
            Some(word) => u64::from_le_bytes(*word) & HEAD_MASKS[h],
            None => self.bytes[start..start + h]
                .iter()
                .rev()
                .fold(0u64, |w, &b| w << 8 | u64::from(b)),
        };
        self.pats.push(Pat {
            key,
            head,
            start: start as u32,
            len: len as u32,
            first: first as u32,
            kind: kind as u8,
            anchored,
            head_len: h as u8,
        });
    }

    /// The number of rules.
    pub(crate) fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// Rule `i` as written.
    #[inline]
    pub(crate) fn rule(&self, i: usize) -> crate::parse::RuleRef<'_> {
        let r = self.rules[i];
        crate::parse::RuleRef::new(
            r.kind,
            &self.bytes[r.start as usize..(r.start + r.len) as usize],
            r.line,
        )
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
        self.pats.capacity() * std::mem::size_of::<Pat>()
            + self.rules.capacity() * std::mem::size_of::<RuleMeta>()
            + self.bytes.capacity()
    }

    /// Folds the keys of every pattern that matches `path` into `best` (per kind, the maximum).
    #[inline]
    ///
    /// Returns the work done, in units of about a nanosecond: one per pattern looked at, and
    /// for a wildcard pattern that had to be searched, one more per 8 bytes of path (hostile
    /// files of thousands of `/*a*b*...` patterns cost far more per pattern than real ones).
    pub(crate) fn fold(&self, path: &[u8], best: &mut [u64; 2]) -> u64 {
        let head = load8(path);
        let mut searched = 0u64;
        for p in &self.pats {
            // The first eight bytes of the body against the path's in one comparison.
            if (head ^ p.head) & HEAD_MASKS[usize::from(p.head_len & 15)] != 0 {
                continue;
            }
            let slot = best[p.kind as usize];
            if p.key > slot {
                searched += u64::from(p.is_wild());
                if body_matches_after_head(self.body(p), p.first as usize, p.anchored, path) {
                    best[p.kind as usize] = p.key;
                }
            }
        }
        self.pats.len() as u64 + 16 + searched * (1 + path.len() as u64 / 8)
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

    /// Builds a large set (3,000 rules under `/{dir}/`) through `with_capacity`, as the
    /// scanner does.
    fn large(dir: &str) -> PatternSet {
        let mut set = PatternSet::with_capacity(3000, 3000 * 16);
        let mut scratch = Vec::new();
        for i in 0..3000u32 {
            let pattern = format!("/{dir}/{i}*x$");
            set.push(
                RuleKind::Disallow,
                pattern.as_bytes(),
                i + 1,
                &Profile::GOOGLE,
                &mut scratch,
            );
        }
        set.finish();
        set
    }

    /// A large set built after another was dropped on the same thread takes over its
    /// buffers (the allocator would give them back to the system) and nothing of its rules:
    /// it decides as a set built from scratch does.
    #[test]
    fn a_large_set_reuses_the_buffers_of_the_last_one_dropped() {
        let first = large("a");
        assert!(first.memory_usage() >= SPARE_MIN);
        // (The byte buffer may move: `finish` shrank it, and the next set reserves its guess.)
        let at = (first.rules.as_ptr(), first.pats.as_ptr());
        drop(first);
        let second = large("b");
        assert_eq!(
            (second.rules.as_ptr(), second.pats.as_ptr()),
            at,
            "the dropped set's buffers are reused"
        );
        assert_eq!(second.rule_count(), 3000);
        let fresh = PatternSet::build(
            (0..3000)
                .map(|i| format!("/b/{i}*x$").into_bytes())
                .collect::<Vec<_>>()
                .iter()
                .map(|p| (RuleKind::Disallow, p.as_slice())),
            &Profile::GOOGLE,
        );
        for path in ["/a/1/x", "/b/1/x", "/b/2999yx", "/b/2999x/", "/a/b/1x"] {
            let (mut got, mut want) = ([0; 2], [0; 2]);
            second.fold(path.as_bytes(), &mut got);
            fresh.fold(path.as_bytes(), &mut want);
            assert_eq!(got, want, "{path}");
        }
        assert_eq!(second.rule(0).pattern(), b"/b/0*x$");
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

    /// The direct engine compares a first piece's bytes after the eighth only (the head word
    /// covered the others): for first pieces of every length to 20 (0: the pattern starts with
    /// `*`, no leading byte is compared), with and without a `*`
    /// piece or `$` after them, against paths that differ from the pattern at each byte,
    /// stop short of it at each length or go on past it, `fold` agrees with `body_matches`.
    #[test]
    fn first_pieces_of_every_length_against_body_matches() {
        let alphabet = b"/abcdefghijklmnopqrstu";
        for len in 0..=20 {
            let first = &alphabet[..len];
            for tail in ["", "*z", "$", "*z$"] {
                let pattern = [first, tail.as_bytes()].concat();
                let set = PatternSet::build([(RuleKind::Disallow, &pattern[..])], &Profile::GOOGLE);
                if len == 0 && !tail.starts_with('*') {
                    // An empty pattern, or `$` alone, matches nothing: no record.
                    assert!(set.pats().is_empty());
                    continue;
                }
                if pattern == b"/" {
                    // Matches every (canonical) path: no record, its key in `always`.
                    assert!(set.pats().is_empty() && set.always[DISALLOW] != 0);
                    continue;
                }
                let (body, anchored) = (set.body(&set.pats()[0]), set.pats()[0].anchored);
                let mut paths: Vec<Vec<u8>> = Vec::new();
                for cut in 0..=len {
                    paths.push(first[..cut].to_vec());
                }
                for at in 0..len {
                    let mut p = [first, b"z".as_slice()].concat();
                    p[at] = b'Z';
                    paths.push(p);
                }
                paths.push([first, b"z".as_slice()].concat());
                paths.push([first, b"yyz".as_slice()].concat());
                for path in &paths {
                    let mut best = set.always;
                    set.fold(path, &mut best);
                    let want = body_matches(body, len, anchored, path);
                    assert_eq!(
                        best[DISALLOW] != 0,
                        want,
                        "pattern {:?} path {:?}",
                        String::from_utf8_lossy(&pattern),
                        String::from_utf8_lossy(path)
                    );
                }
            }
        }
    }
}
