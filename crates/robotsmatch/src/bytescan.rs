//! Finding the first byte of a class in a path, 16 bytes at a time.
//!
//! Canonicalisation (see [`crate::canon`]) must look at every byte of every URL's path, but
//! almost no path needs a change: the scan for the first byte that might (a control byte,
//! space, `%`, DEL or a byte `>= 0x80`) is on the hot path of every decision. On x86_64 it uses
//! SSE2, which every x86_64 processor has; 8 to 15 bytes are read as two words; elsewhere, and
//! for shorter inputs, a byte loop. Two scans that every decision runs, [`path_stops`] and
//! [`PrefixSet::starts64`], take 32 bytes at a time with AVX2 where the processor has it
//! (detected at run time; std caches the answer).
//!
//! [`block16`] does the same for a whole URL at once: for 16 bytes it gives bitmasks of the
//! bytes that separate the authority from the path (`/`, `?`, `;`) and of those that stop a
//! clean path (`#`, and the bytes that need care), so that finding the path, the fragment and
//! the first byte to canonicalise is one pass plus bit arithmetic. For the `http://` and
//! `https://` URLs that are nearly all of them, three searches do it: [`first_sep_or_stop`] (the
//! end of the authority), [`first_path_stop`] (the first byte to look at in the path, passing
//! over runs of canonical escapes) and [`find2`] (the fragment). [`first_not_host`] finds the
//! end of a host name that is its own lookup key (a bulk job's hosts). [`care_and_star`] gives
//! a rule's first byte that needs care and its first `*` in one pass (building a matcher).
//!
//! [`BucketScan`] finds the pieces of wildcard patterns in a path, and [`PrefixTable`] which
//! of a set of strings start it, both with AVX-512 where the processor has it; the bucket scan
//! also with AVX2 (a function per set of instructions; the tree calls the one it was built
//! for).
//!
//! This is the crate's only `unsafe` code: SIMD loads and intrinsics, calls of the AVX2
//! functions after the detection, and a prefetch hint ([`prefetch`]), each block with its
//! proof, and tests that compare every variant the processor runs with byte loops.

/// True for the bytes [`first_care`] looks for: `<= 0x20`, `>= 0x7F`, or `%`.
#[inline]
pub(crate) fn needs_care(b: u8) -> bool {
    b <= 0x20 || b >= 0x7F || b == b'%'
}

/// The index of the first byte of `s` for which [`needs_care`] is true, if any.
#[inline]
pub(crate) fn first_care(s: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if s.len() >= 16 {
            return first_care_sse2(s);
        }
    }
    // PERF: rule patterns are mostly shorter than 16 bytes; a byte loop over each was 4% of
    // building a matcher from a large file.
    if let (true, Some(head), Some(tail)) =
        (s.len() < 16, s.first_chunk::<8>(), s.last_chunk::<8>())
    {
        let m = care8(u64::from_le_bytes(*head));
        if m != 0 {
            return Some(m.trailing_zeros() as usize / 8);
        }
        // The last eight bytes, without those the first word covered.
        let skip = (16 - s.len()) as u32 * 8;
        let m = care8(u64::from_le_bytes(*tail)) & u64::MAX.checked_shl(skip).unwrap_or(0);
        return (m != 0).then(|| s.len() - 8 + m.trailing_zeros() as usize / 8);
    }
    s.iter().position(|&b| needs_care(b))
}

/// The high bit of each byte of the little-endian word `w` for which [`needs_care`] is true,
/// exact up to the lowest such byte (a borrow can only set flags above a true one; each of the
/// four tests is exact up to its own lowest flag, so their union is exact up to its lowest).
#[inline]
fn care8(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let high = w & HIGHS;
    let low = w.wrapping_sub(ONES * 0x21) & !w & HIGHS;
    high | low | zero(w ^ (ONES * 0x7F)) | zero(w ^ (ONES * u64::from(b'%')))
}

/// [`first_care`] with SSE2, for `s.len() >= 16`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn first_care_sse2(s: &[u8]) -> Option<usize> {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    debug_assert!(s.len() >= 16);
    let n = s.len();
    // The bitmask of bytes that need care in the 16 bytes at `s[at..at + 16]`.
    let mask = |at: usize| -> u32 {
        assert!(at + 16 <= n);
        // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
        // available; the only memory access is the unaligned 16-byte load from
        // `s.as_ptr() + at`, which the assertion above keeps inside `s`.
        unsafe {
            let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
            // Unsigned comparisons: b <= 0x20 iff min(b, 0x20) == b; b >= 0x7F iff
            // max(b, 0x7F) == b.
            let low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x20)), v);
            let high = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x7F)), v);
            let pct = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'%' as i8));
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, high), pct)) as u32
        }
    };
    first_in_blocks(n, mask)
}

/// For the bytes `s[start..end]` (a rule's pattern where it lies in its file): the index, from
/// `start`, of the first byte for which [`needs_care`] is true, and of the first `*`. One pass
/// for both, 16 bytes of `s` at a time from `start` (bytes past `end` masked off), so a
/// pattern inside a larger buffer costs one block per 16 bytes; near the end of `s`, or off
/// x86_64, the slice alone is scanned.
// PERF: building a matcher scanned every pattern twice, once for the bytes that need care
// (a call of `first_care`) and once for its first `*` (`find2`): about 80 instructions a rule
// on e-largest.
#[inline]
pub(crate) fn care_and_star(s: &[u8], start: usize, end: usize) -> (Option<usize>, Option<usize>) {
    debug_assert!(start <= end && end <= s.len());
    let len = end - start;
    #[cfg(target_arch = "x86_64")]
    {
        // Up to 64 bytes (nearly every pattern): both masks gathered whole, then cut to the
        // pattern; no test per block.
        // (Checked: a `start` past `s` must reach the slice below, whose indexing panics,
        // not wrap around to a small index.)
        let blocks_end = start.checked_add(len.next_multiple_of(16));
        if len <= 64 && blocks_end.is_some_and(|e| e <= s.len()) {
            let (mut care, mut star) = (0u64, 0u64);
            let mut at = 0;
            while at < len {
                let (c, st) = care_star16_sse2(s, start + at);
                care |= u64::from(c) << at;
                star |= u64::from(st) << at;
                at += 16;
            }
            let keep = u64::MAX.checked_shr(64 - len as u32).unwrap_or(0);
            let first = |m: u64| (m != 0).then(|| m.trailing_zeros() as usize);
            return (first(care & keep), first(star & keep));
        }
    }
    let v = &s[start..end];
    (first_care(v), find2(v, b'*', b'*'))
}

/// The masks of the bytes that need care and of the `*` among the 16 at `s[at..at + 16]`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn care_star16_sse2(s: &[u8], at: usize) -> (u32, u32) {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    assert!(at + 16 <= s.len());
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // the only memory access is the unaligned 16-byte load from `s.as_ptr() + at`, which the
    // assertion above keeps inside `s`.
    unsafe {
        let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
        // As in `first_care_sse2`: unsigned comparisons through min and max.
        let low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x20)), v);
        let high = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x7F)), v);
        let pct = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'%' as i8));
        let care = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, high), pct)) as u32;
        let star = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'*' as i8))) as u32;
        (care, star)
    }
}

/// The first set bit over the 16-byte blocks of an input of `n >= 16` bytes, where `mask(at)`
/// is the bitmask of the 16 bytes at `at`: the blocks from the start, then the last 16 bytes
/// (overlapping, their already seen bits dropped).
#[inline]
fn first_in_blocks(n: usize, mask: impl Fn(usize) -> u32) -> Option<usize> {
    first_in_blocks_from(0, n, mask)
}

/// [`first_in_blocks`] from byte `start` (`start <= n`) instead of the first.
#[inline]
fn first_in_blocks_from(start: usize, n: usize, mask: impl Fn(usize) -> u32) -> Option<usize> {
    debug_assert!(n >= 16 && start <= n);
    let mut at = start;
    while at + 16 <= n {
        let m = mask(at);
        if m != 0 {
            return Some(at + m.trailing_zeros() as usize);
        }
        at += 16;
    }
    if at < n {
        let start = n - 16;
        let m = mask(start) >> (at - start);
        if m != 0 {
            return Some(at + m.trailing_zeros() as usize);
        }
    }
    None
}

/// The lanes of `v` whose byte is in `lo ..= lo + len - 1` (`len <= 128`): `b - lo - 128`
/// (wrapping) as a signed byte is below `-128 + len` exactly then.
#[cfg(target_arch = "x86_64")]
#[inline]
fn in_range(v: core::arch::x86_64::__m128i, lo: u8, len: i32) -> core::arch::x86_64::__m128i {
    use core::arch::x86_64::{_mm_cmpgt_epi8, _mm_set1_epi8, _mm_sub_epi8};
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // they only compute on registers.
    unsafe {
        let shifted = _mm_sub_epi8(v, _mm_set1_epi8((i32::from(lo) + 128) as u8 as i8));
        _mm_cmpgt_epi8(_mm_set1_epi8((-128 + len) as i8), shifted)
    }
}

/// The (separator, stop, percent) bitmasks of the 16 bytes at `s[at..at + 16]`
/// (`at + 16 <= s.len()`): separators are `/`, `?`, `;`; stops are `#`, `\\` and the bytes for
/// which [`needs_care`] is true; percent marks the `%` (also stops).
#[inline]
pub(crate) fn block16(s: &[u8], at: usize) -> (u32, u32, u32) {
    #[cfg(target_arch = "x86_64")]
    {
        block16_sse2(s, at)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut sep = 0;
        let mut stop = 0;
        let mut pct = 0;
        for (i, &b) in s[at..at + 16].iter().enumerate() {
            sep |= u32::from(matches!(b, b'/' | b'?' | b';')) << i;
            stop |= u32::from(matches!(b, b'#' | b'\\') || needs_care(b)) << i;
            pct |= u32::from(b == b'%') << i;
        }
        (sep, stop, pct)
    }
}

/// The bitmask of the `%` among the first 14 of the 16 bytes at `s[at..at + 16]`
/// (`at + 16 <= s.len()`) followed by two upper-case hex digits of which the first is `8` to
/// `F`: escapes of bytes `>= 0x80` already in canonical form (no such byte is unreserved),
/// which canonicalisation keeps as they are.
#[inline]
pub(crate) fn high_escapes16(s: &[u8], at: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        high_escapes16_sse2(s, at)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let w = &s[at..at + 16];
        let mut escape = 0;
        for i in 0..14 {
            let high = w[i] == b'%'
                && matches!(w[i + 1], b'8' | b'9' | b'A'..=b'F')
                && matches!(w[i + 2], b'0'..=b'9' | b'A'..=b'F');
            escape |= u32::from(high) << i;
        }
        escape
    }
}

/// [`high_escapes16`] with SSE2.
#[cfg(target_arch = "x86_64")]
#[inline]
fn high_escapes16_sse2(s: &[u8], at: usize) -> u32 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    assert!(at + 16 <= s.len());
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // the only memory access is the unaligned 16-byte load from `s.as_ptr() + at`, which the
    // assertion above keeps inside `s`.
    unsafe {
        let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
        let upper_af = in_range(v, b'A', 6);
        let hex = _mm_movemask_epi8(_mm_or_si128(in_range(v, b'0', 10), upper_af)) as u32;
        let high = _mm_movemask_epi8(_mm_or_si128(in_range(v, b'8', 2), upper_af)) as u32;
        let pct = _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'%' as i8))) as u32;
        pct & (high >> 1) & (hex >> 2) & 0x3FFF
    }
}

/// The first `a` or `b` in `s`, 16 bytes at a time: for the short haystacks of URLs, where
/// `memchr::memchr2`'s set-up cost more than its search (~170 instructions per URL).
#[inline]
pub(crate) fn find2(s: &[u8], a: u8, b: u8) -> Option<usize> {
    find2_from(s, 0, a, b)
}

/// [`find2`] in `s[from..]` (`from <= s.len()`), as an index into `s`: when `s` is 16 bytes
/// or longer, a rest shorter than 16 is looked at in the last 16 bytes of `s`, not a byte at a
/// time.
// PERF: the rest of a URL's path after an escape is often shorter than 16 bytes; the byte
// loop over it took about 10 instructions a byte.
#[inline]
pub(crate) fn find2_from(s: &[u8], from: usize, a: u8, b: u8) -> Option<usize> {
    if s.len() < 16 {
        return s[from..]
            .iter()
            .position(|&c| c == a || c == b)
            .map(|k| from + k);
    }
    first_in_blocks_from(from, s.len(), |at| eq2_16(s, at, a, b))
}

/// [`find2`] for a haystack of any length: `memchr::memchr2` past 256 bytes, where its set-up
/// pays for itself.
#[inline]
pub(crate) fn find2_any(s: &[u8], a: u8, b: u8) -> Option<usize> {
    if s.len() <= 256 {
        find2(s, a, b)
    } else {
        memchr::memchr2(a, b, s)
    }
}

/// The first line end (`\n` or `\r`) of `s`.
// PERF: for the lines of a crawl log, a few dozen bytes each; `memchr::memchr2` paid its set-up
// on every one (about 90 instructions per line of the benchmark log). The first 256 bytes are
// looked at 64 at a time (one test per 64 bytes; 16 or 32 at a time took more instructions on
// lines of 60-100 bytes), the rest with [`find2_any`].
#[inline]
pub(crate) fn find_line_end(s: &[u8]) -> Option<usize> {
    let eol = |at: usize| u64::from(eq2_16(s, at, b'\n', b'\r'));
    let mut at = 0;
    while at + 64 <= s.len() && at < 256 {
        let m = eol(at) | eol(at + 16) << 16 | eol(at + 32) << 32 | eol(at + 48) << 48;
        if m != 0 {
            return Some(at + m.trailing_zeros() as usize);
        }
        at += 64;
    }
    find2_any(&s[at..], b'\n', b'\r').map(|i| at + i)
}

/// The bitmask of the bytes equal to `a` or `b` among the 16 at `s[at..at + 16]`
/// (`at + 16 <= s.len()`).
#[inline]
fn eq2_16(s: &[u8], at: usize, a: u8, b: u8) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        assert!(at + 16 <= s.len());
        // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
        // available; the only memory access is the unaligned 16-byte load from
        // `s.as_ptr() + at`, which the assertion above keeps inside `s`.
        unsafe {
            let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
            let m = _mm_or_si128(
                _mm_cmpeq_epi8(v, _mm_set1_epi8(a as i8)),
                _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8)),
            );
            _mm_movemask_epi8(m) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut m = 0;
        for (i, &c) in s[at..at + 16].iter().enumerate() {
            m |= u32::from(c == a || c == b) << i;
        }
        m
    }
}

/// The most bytes a [`ByteSet`] holds.
pub(crate) const MAX_NEEDLES: usize = 8;

/// A set of at most [`MAX_NEEDLES`] bytes, each repeated 16 times for the comparisons of
/// [`ByteSet::first_in`]: the bytes that leave a lazy DFA state that loops on every other
/// (see `compile::dfa`).
#[derive(Clone, Debug)]
pub(crate) struct ByteSet {
    splat: [[u8; 16]; MAX_NEEDLES],
    len: usize,
}

impl ByteSet {
    /// The set of `bytes` (at most [`MAX_NEEDLES`]; `None` for more).
    pub(crate) fn new(bytes: &[u8]) -> Option<ByteSet> {
        if bytes.len() > MAX_NEEDLES {
            return None;
        }
        let mut splat = [[0u8; 16]; MAX_NEEDLES];
        for (s, &b) in splat.iter_mut().zip(bytes) {
            *s = [b; 16];
        }
        Some(ByteSet {
            splat,
            len: bytes.len(),
        })
    }

    /// The bytes of the set.
    pub(crate) fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        self.splat[..self.len].iter().map(|s| s[0])
    }

    /// The index of the first byte of `s[at..]` that is in the set, or `s.len()` when there
    /// is none.
    #[inline]
    pub(crate) fn first_in(&self, s: &[u8], at: usize) -> usize {
        let n = s.len();
        if at >= n {
            return n;
        }
        if n < 16 {
            return s[at..]
                .iter()
                .position(|&c| self.bytes().any(|b| b == c))
                .map_or(n, |p| at + p);
        }
        first_in_blocks_from(at, n, |i| self.mask16(s, i)).unwrap_or(n)
    }

    /// The bitmask of the bytes in the set among the 16 at `s[at..at + 16]`
    /// (`at + 16 <= s.len()`).
    #[inline]
    fn mask16(&self, s: &[u8], at: usize) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{
                __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
                _mm_setzero_si128,
            };
            assert!(at + 16 <= s.len());
            // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
            // available; the memory accesses are the unaligned 16-byte load from
            // `s.as_ptr() + at`, which the assertion above keeps inside `s`, and 16-byte loads
            // of the `[u8; 16]` arrays of `self.splat` (references, so valid and in bounds).
            unsafe {
                let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
                let mut m = _mm_setzero_si128();
                for splat in &self.splat[..self.len] {
                    let b = _mm_loadu_si128(splat.as_ptr().cast::<__m128i>());
                    m = _mm_or_si128(m, _mm_cmpeq_epi8(v, b));
                }
                _mm_movemask_epi8(m) as u32
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut m = 0;
            for (i, &c) in s[at..at + 16].iter().enumerate() {
                m |= u32::from(self.bytes().any(|b| b == c)) << i;
            }
            m
        }
    }
}

/// The most prefixes a [`PrefixSet`] holds.
pub(crate) const MAX_PREFIXES: usize = 4;

/// A set of at most [`MAX_PREFIXES`] strings of 3 bytes, each byte repeated 16 times for the
/// comparisons of [`PrefixSet::first_in`]: the first bytes of a few needles, to skip to where
/// one of them may start (16 positions per 3 loads and 3 comparisons a prefix).
#[derive(Clone, Debug)]
pub(crate) struct PrefixSet {
    /// `bytes[k][j]`: byte `j` of prefix `k`, 16 times.
    bytes: [[[u8; 16]; 3]; MAX_PREFIXES],
    len: usize,
    /// Every prefix starts with the same byte.
    shared_first: bool,
}

impl PrefixSet {
    /// The set of `prefixes` (`None` for none or more than [`MAX_PREFIXES`]).
    pub(crate) fn new(prefixes: &[[u8; 3]]) -> Option<PrefixSet> {
        if prefixes.is_empty() || prefixes.len() > MAX_PREFIXES {
            return None;
        }
        let mut set = PrefixSet {
            bytes: [[[0; 16]; 3]; MAX_PREFIXES],
            len: prefixes.len(),
            shared_first: prefixes.iter().all(|p| p[0] == prefixes[0][0]),
        };
        for (k, p) in prefixes.iter().enumerate() {
            for (j, &b) in p.iter().enumerate() {
                set.bytes[k][j] = [b; 16];
            }
        }
        Some(set)
    }

    /// True when a prefix of the set starts at `s[i..]` (`i + 3 <= s.len()`).
    #[inline]
    fn at(&self, s: &[u8], i: usize) -> bool {
        (0..self.len).any(|k| (0..3).all(|j| s[i + j] == self.bytes[k][j][0]))
    }

    /// The first index `i >= at` where a prefix of the set starts, or `s.len()` when there is
    /// none.
    #[inline]
    pub(crate) fn first_in(&self, s: &[u8], at: usize) -> usize {
        let n = s.len();
        if at + 3 > n {
            return n;
        }
        if n < 18 {
            return (at..=n - 3).find(|&i| self.at(s, i)).unwrap_or(n);
        }
        // Start positions `0..=n - 3`; the mask at `i` reads `s[i..i + 18]`.
        first_in_blocks_from(at, n - 2, |i| self.mask16(s, i)).unwrap_or(n)
    }

    /// Every position of `s` where a prefix of the set starts, as the bits of one word, when
    /// `s` is 18 to 64 bytes long (`None` otherwise).
    // PERF: e-largest's shared scan asked `first_in` again from each place where it came back
    // to its start state (1.4 calls per URL), each a loop over blocks ending where the path
    // does, a branch the processor mispredicts. Found once for the paths up to 64 bytes (87%
    // of them): the same instructions per URL (1,220 -> 1,221), and 88.9 -> 86.2 and 86.9 ->
    // 84.9 ns (`speed`, pinned, two sets of 6 alternations, medians).
    #[inline]
    pub(crate) fn starts64(&self, s: &[u8]) -> Option<u64> {
        let n = s.len();
        if !(18..=64).contains(&n) {
            return None;
        }
        #[cfg(target_arch = "x86_64")]
        if n >= 34 && has_avx2() {
            // SAFETY: the processor has AVX2 (detected), the only requirement of a
            // `#[target_feature(enable = "avx2")]` function beyond its safe signature.
            return Some(unsafe { self.starts64_avx2(s) });
        }
        Some(self.starts64_sse2(s))
    }

    /// [`PrefixSet::starts64`] in four blocks of 16 positions (`18 <= s.len() <= 64`).
    #[inline]
    fn starts64_sse2(&self, s: &[u8]) -> u64 {
        let n = s.len();
        let mut m = 0u64;
        for k in 0..4 {
            // The later blocks are moved back to end at `n` (overlapping): the bits they
            // share with an earlier block are the same.
            let at = (16 * k).min(n - 18);
            m |= u64::from(self.mask16(s, at)) << at;
        }
        m
    }

    /// [`PrefixSet::starts64`] with AVX2, in two blocks of 32 positions
    /// (`34 <= s.len() <= 64`).
    // PERF: e-largest's shared scan, for most of its paths: four blocks of 16 positions were
    // ~140 instructions per URL.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn starts64_avx2(&self, s: &[u8]) -> u64 {
        use core::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
            _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        };
        let n = s.len();
        assert!((34..=64).contains(&n));
        let mask32 = |at: usize| {
            assert!(at + 34 <= n);
            // SAFETY: AVX2 is enabled (this function's target feature); the loads are the
            // unaligned 32-byte loads from `s.as_ptr() + at + j` for `j < 3`, which the
            // assertion above keeps inside `s`.
            let load =
                |j: usize| unsafe { _mm256_loadu_si256(s.as_ptr().add(at + j).cast::<__m256i>()) };
            let (a, b, c) = (load(0), load(1), load(2));
            let splat = |p: &[[u8; 16]; 3], j: usize| _mm256_set1_epi8(p[j][0] as i8);
            let mut m = _mm256_setzero_si256();
            if self.shared_first {
                // One comparison of the first bytes serves every prefix (as in `mask16`).
                for p in &self.bytes[..self.len] {
                    let e = _mm256_and_si256(
                        _mm256_cmpeq_epi8(b, splat(p, 1)),
                        _mm256_cmpeq_epi8(c, splat(p, 2)),
                    );
                    m = _mm256_or_si256(m, e);
                }
                m = _mm256_and_si256(m, _mm256_cmpeq_epi8(a, splat(&self.bytes[0], 0)));
            } else {
                for p in &self.bytes[..self.len] {
                    let e = _mm256_and_si256(
                        _mm256_and_si256(
                            _mm256_cmpeq_epi8(a, splat(p, 0)),
                            _mm256_cmpeq_epi8(b, splat(p, 1)),
                        ),
                        _mm256_cmpeq_epi8(c, splat(p, 2)),
                    );
                    m = _mm256_or_si256(m, e);
                }
            }
            _mm256_movemask_epi8(m) as u32
        };
        // The second block is moved back to end at `n` (overlapping).
        let at = 32.min(n - 34);
        u64::from(mask32(0)) | u64::from(mask32(at)) << at
    }

    /// The bitmask of the positions `at..at + 16` where a prefix of the set starts
    /// (`at + 18 <= s.len()`).
    #[inline]
    fn mask16(&self, s: &[u8], at: usize) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{
                __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8,
                _mm_or_si128, _mm_setzero_si128,
            };
            assert!(at + 18 <= s.len());
            // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
            // available; the memory accesses are the unaligned 16-byte loads from
            // `s.as_ptr() + at + j` for `j < 3`, which the assertion above keeps inside `s`,
            // and 16-byte loads of the `[u8; 16]` arrays of `self.bytes` (references, so valid
            // and in bounds).
            unsafe {
                let load = |j: usize| _mm_loadu_si128(s.as_ptr().add(at + j).cast::<__m128i>());
                let (a, b, c) = (load(0), load(1), load(2));
                let mut m = _mm_setzero_si128();
                if self.shared_first {
                    // PERF: every prefix starts with the same byte (e-largest's `/sp`, `/dc`,
                    // `/pl`): one comparison of the first bytes serves them all. e-largest
                    // 1,221 -> 1,206 instructions per URL, 87.8 -> 86.9 ns (12 pinned pairs).
                    // The two loops stay apart: one loop testing `shared_first` inside gave
                    // 1,226.
                    let first = _mm_loadu_si128(self.bytes[0][0].as_ptr().cast::<__m128i>());
                    for p in &self.bytes[..self.len] {
                        let splat = |j: usize| _mm_loadu_si128(p[j].as_ptr().cast::<__m128i>());
                        let e =
                            _mm_and_si128(_mm_cmpeq_epi8(b, splat(1)), _mm_cmpeq_epi8(c, splat(2)));
                        m = _mm_or_si128(m, e);
                    }
                    m = _mm_and_si128(m, _mm_cmpeq_epi8(a, first));
                } else {
                    for p in &self.bytes[..self.len] {
                        let splat = |j: usize| _mm_loadu_si128(p[j].as_ptr().cast::<__m128i>());
                        let e = _mm_and_si128(
                            _mm_and_si128(_mm_cmpeq_epi8(a, splat(0)), _mm_cmpeq_epi8(b, splat(1))),
                            _mm_cmpeq_epi8(c, splat(2)),
                        );
                        m = _mm_or_si128(m, e);
                    }
                }
                _mm_movemask_epi8(m) as u32
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let mut m = 0;
            for i in 0..16 {
                m |= u32::from(self.at(s, at + i)) << i;
            }
            m
        }
    }
}

/// The bitmasks of `@`, of `:` and of ASCII upper-case letters among the 16 bytes at
/// `s[at..at + 16]` (`at + 16 <= s.len()`): what reading a URL's authority needs (the host
/// starts after the last `@`, the port after the last `:`, and a host without upper case is
/// already its own lookup key).
#[inline]
pub(crate) fn authority16(s: &[u8], at: usize) -> (u32, u32, u32) {
    #[cfg(target_arch = "x86_64")]
    {
        authority16_sse2(s, at)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut at_sign, mut colon, mut upper) = (0, 0, 0);
        for (i, &b) in s[at..at + 16].iter().enumerate() {
            at_sign |= u32::from(b == b'@') << i;
            colon |= u32::from(b == b':') << i;
            upper |= u32::from(b.is_ascii_uppercase()) << i;
        }
        (at_sign, colon, upper)
    }
}

/// [`authority16`] with SSE2.
#[cfg(target_arch = "x86_64")]
#[inline]
fn authority16_sse2(s: &[u8], at: usize) -> (u32, u32, u32) {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    assert!(at + 16 <= s.len());
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // the only memory access is the unaligned 16-byte load from `s.as_ptr() + at`, which the
    // assertion above keeps inside `s`.
    unsafe {
        let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
        let at_sign = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'@' as i8));
        let colon = _mm_cmpeq_epi8(v, _mm_set1_epi8(b':' as i8));
        let upper = in_range(v, b'A', 26);
        (
            _mm_movemask_epi8(at_sign) as u32,
            _mm_movemask_epi8(colon) as u32,
            _mm_movemask_epi8(upper) as u32,
        )
    }
}

/// [`block16`] with SSE2.
#[cfg(target_arch = "x86_64")]
#[inline]
fn block16_sse2(s: &[u8], at: usize) -> (u32, u32, u32) {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8,
    };
    assert!(at + 16 <= s.len());
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // the only memory access is the unaligned 16-byte load from `s.as_ptr() + at`, which the
    // assertion above keeps inside `s`.
    unsafe {
        let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
        let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        let sep = _mm_or_si128(_mm_or_si128(eq(b'/'), eq(b'?')), eq(b';'));
        let low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x20)), v);
        let high = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x7F)), v);
        let pct = eq(b'%');
        let stop = _mm_or_si128(
            _mm_or_si128(low, high),
            _mm_or_si128(_mm_or_si128(pct, eq(b'#')), eq(b'\\')),
        );
        (
            _mm_movemask_epi8(sep) as u32,
            _mm_movemask_epi8(stop) as u32,
            _mm_movemask_epi8(pct) as u32,
        )
    }
}

/// The index of the first byte of `s` that separates an authority from what follows it or
/// stops a clean path: `/`, `?`, `;`, `#`, `\\`, and the bytes for which [`needs_care`] is true
/// (the masks of [`block16`]).
#[inline]
pub(crate) fn first_sep_or_stop(s: &[u8]) -> Option<usize> {
    if s.len() < 16 {
        return s
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b';' | b'#' | b'\\') || needs_care(b));
    }
    first_in_blocks(s.len(), |at| {
        let (sep, stop, _) = block16(s, at);
        sep | stop
    })
}

/// The index of the first byte of `s` that stops a clean path: `#`, `\\`, or a byte for which
/// [`needs_care`] is true, except that the `%` of escapes of bytes `>= 0x80` already in
/// canonical form may be passed over (see [`high_escapes16`]) when a block holds two `%` or
/// more. A `%` found is the caller's to judge.
#[inline]
pub(crate) fn first_path_stop(s: &[u8]) -> Option<usize> {
    first_path_stop_from(s, 0)
}

/// [`first_path_stop`] in `s[from..]` (`from <= s.len()`), as an index into `s` (a rest
/// shorter than 16 bytes is looked at in the last 16 bytes of `s`, as in [`find2_from`]).
#[inline]
pub(crate) fn first_path_stop_from(s: &[u8], from: usize) -> Option<usize> {
    if s.len() < 16 {
        return s[from..]
            .iter()
            .position(|&b| matches!(b, b'#' | b'\\') || needs_care(b))
            .map(|k| from + k);
    }
    first_in_blocks_from(from, s.len(), |at| {
        let (stop, pct) = stops16(s, at);
        if pct.count_ones() >= 2 {
            // PERF: text in a non-Latin script is escape after escape (`%D7%99`); each stop
            // is a trip through the caller's loop.
            stop & !high_escapes16(s, at)
        } else {
            stop
        }
    })
}

/// The stops of [`first_path_stop_from`] in `s[from..]` when that is at most 64 bytes long
/// and `s` at least 16 (128 bytes where the processor has AVX2 and `s` is at least 32, or has
/// AVX-512 BW, with `s` of any length): `(base, low, high)`, bit `i` of
/// `low` for the byte `s[base + i]` and bit `i` of `high` for `s[base + 64 + i]`. A `%` that
/// [`first_path_stop_from`] passes over may be among them (the caller judges every `%`).
// PERF: a path's stops in one or two words, from a fixed number of blocks (the later ones
// moved back to end at the end of `s`, overlapping), rather than a loop over blocks whose
// number of turns (the path's length) the processor mispredicts. `speed`, pinned, 5
// alternations, medians: a-tiny 47.0 -> 44.5 ns per URL, c-literal 73.4 -> 72.8, e-largest
// 93.3 -> 91.9, b-shop the same (its lazy DFA's time dominates); 35 more instructions per URL
// on a-tiny.
#[inline]
pub(crate) fn path_stops(s: &[u8], from: usize) -> Option<(usize, u64, u64)> {
    let n = s.len();
    #[cfg(target_arch = "x86_64")]
    if n - from <= 128 && has_avx512bw() {
        // SAFETY: the processor has AVX-512 F and BW (detected), the only requirement of
        // `path_stops128_avx512` beyond its safe signature.
        return Some(unsafe { path_stops128_avx512(s, from) });
    }
    #[cfg(target_arch = "x86_64")]
    if n >= 32 && n - from <= 128 && has_avx2() {
        // SAFETY: the processor has AVX2 (detected), the only requirement of a
        // `#[target_feature(enable = "avx2")]` function beyond its safe signature.
        return Some(unsafe { path_stops128_avx2(s, from) });
    }
    if n < 16 || n - from > 64 {
        return None;
    }
    let (base, low) = path_stops64_sse2(s, from);
    Some((base, low, 0))
}

/// [`path_stops`] with AVX-512 BW, for a rest `s[from..]` of at most 128 bytes (and `s` of any
/// length): one or two masked loads from `from`, each class compared into a mask.
// PERF: against `path_stops128_avx2` (two or four 32-byte blocks, each class compared into a
// vector, then a `movemask`), `speed`, pinned, 3 alternations, medians: a-tiny 41.0 -> 39.0 ns
// per URL, b-shop 76.7 -> 74.0, c-literal 74.6 -> 71.1, e-largest 71.6 -> 71.3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn path_stops128_avx512(s: &[u8], from: usize) -> (usize, u64, u64) {
    use core::arch::x86_64::{
        _mm512_cmpeq_epi8_mask, _mm512_cmpge_epu8_mask, _mm512_cmple_epu8_mask,
        _mm512_maskz_loadu_epi8, _mm512_set1_epi8, _mm512_sub_epi8,
    };
    let rest = s.len() - from;
    assert!(from <= s.len() && rest <= 128);
    let block = |at: usize, count: usize| -> u64 {
        if count == 0 {
            return 0;
        }
        let k = u64::MAX >> (64 - count);
        // SAFETY: AVX-512 BW is enabled (this function's target feature). `at < s.len()` (the
        // block has `count >= 1` bytes), and the mask enables `count` bytes from `s[at]`, which
        // end at or before `s`'s end: no byte outside `s` is read (masked-off bytes are not
        // accessed).
        let v = unsafe { _mm512_maskz_loadu_epi8(k, s.as_ptr().add(at).cast()) };
        let eq = |c: u8| _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(c as i8));
        let pct = eq(b'%');
        let stop = _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x20))
            | _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0x7F))
            | pct
            | eq(b'#')
            | eq(b'\\');
        let stop = if pct.count_ones() >= 2 {
            // As `high_escapes16`: a `%`, then `8`-`9` or `A`-`F`, then a hex digit
            // (upper-case): an escape of a byte >= 0x80 already in canonical form.
            let in_range = |lo: u8, len: u8| {
                _mm512_cmple_epu8_mask(
                    _mm512_sub_epi8(v, _mm512_set1_epi8(lo as i8)),
                    _mm512_set1_epi8((len - 1) as i8),
                )
            };
            let upper_af = in_range(b'A', 6);
            let hex = in_range(b'0', 10) | upper_af;
            let high = in_range(b'8', 2) | upper_af;
            stop & !(pct & (high >> 1) & (hex >> 2))
        } else {
            stop
        };
        stop & k
    };
    let low = block(from, rest.min(64));
    let high = block(from + 64, rest.saturating_sub(64));
    (from, low, high)
}

/// The longest rest of a path [`path_stops`] takes on this processor: 128 bytes with AVX2 (or
/// AVX-512 BW), else 64.
#[cfg(test)]
fn path_window() -> usize {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() || has_avx512bw() {
        return 128;
    }
    64
}

/// True when the processor has AVX2 (detected once, then a load and a test).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx2() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// [`path_stops`] in four blocks of 16 bytes (`s.len() >= 16`, `s.len() - from <= 64`).
#[inline]
fn path_stops64_sse2(s: &[u8], from: usize) -> (usize, u64) {
    let n = s.len();
    let base = from.min(n - 16);
    let mut m = 0u64;
    for k in 0..4 {
        let at = (base + 16 * k).min(n - 16);
        let (stop, pct) = stops16(s, at);
        // Blocks overlap, and a `%` whose escape one block sees whole and another does not is
        // a stop in the word: the caller judges it.
        let stop = if pct.count_ones() >= 2 {
            stop & !high_escapes16(s, at)
        } else {
            stop
        };
        m |= u64::from(stop) << (at - base);
    }
    (base, m & (u64::MAX << (from - base)))
}

/// [`path_stops`] with AVX2, in blocks of 32 bytes (`s.len() >= 32`, `s.len() - from <= 128`):
/// two for a rest of up to 64 bytes, four for a longer one.
// PERF: the x86-64 baseline has only SSE2, hence the detection. Against four blocks of 16 for
// paths up to 64 bytes and a loop over blocks for longer ones (`speed`, pinned, 3 alternations,
// medians): a-tiny 634 -> 599 instructions per URL and 33.8 -> 32.1 ns with two blocks;
// c-literal, whose paths are longer than 64 bytes for 39% of its URLs, 62.1 -> 59.5 ns when
// three blocks took in up to 96 bytes (in one 128-bit word: a-tiny 645 instructions then).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn path_stops128_avx2(s: &[u8], from: usize) -> (usize, u64, u64) {
    let n = s.len();
    let block = |at: usize| {
        let (stop, pct) = stops32_avx2(s, at);
        if pct.count_ones() >= 2 {
            stop & !high_escapes32_avx2(s, at)
        } else {
            stop
        }
    };
    if n - from <= 64 {
        let base = from.min(n - 32);
        // The second block is moved back to end at the end of `s` (overlapping).
        let at = (base + 32).min(n - 32);
        let m = u64::from(block(base)) | u64::from(block(at)) << (at - base);
        return (base, m & (u64::MAX << (from - base)), 0);
    }
    // `from + 64 < n`: the first two blocks are whole.
    let mut m = u128::from(block(from)) | u128::from(block(from + 32)) << 32;
    for k in 2..4 {
        let at = (from + 32 * k).min(n - 32);
        m |= u128::from(block(at)) << (at - from);
    }
    (from, m as u64, (m >> 64) as u64)
}

/// The lanes of `v` whose byte is in `lo ..= lo + len - 1` (`len <= 128`), as [`in_range`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn in_range32(v: core::arch::x86_64::__m256i, lo: u8, len: i32) -> core::arch::x86_64::__m256i {
    use core::arch::x86_64::{_mm256_cmpgt_epi8, _mm256_set1_epi8, _mm256_sub_epi8};
    let shifted = _mm256_sub_epi8(v, _mm256_set1_epi8((i32::from(lo) + 128) as u8 as i8));
    _mm256_cmpgt_epi8(_mm256_set1_epi8((-128 + len) as i8), shifted)
}

/// The (stop, percent) bitmasks of [`block16`] for the 32 bytes at `s[at..at + 32]`
/// (`at + 32 <= s.len()`): `block16_sse2`'s classes, line for line, in 32 lanes (kept apart
/// rather than made generic: the intrinsics of each width are distinct functions).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn stops32_avx2(s: &[u8], at: usize) -> (u32, u32) {
    use core::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_max_epu8, _mm256_min_epu8,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    };
    assert!(at + 32 <= s.len());
    // SAFETY: the caller runs with AVX2 enabled (this function's target feature); the only
    // memory access is the unaligned 32-byte load from `s.as_ptr() + at`, which the assertion
    // above keeps inside `s`.
    let v = unsafe { _mm256_loadu_si256(s.as_ptr().add(at).cast::<__m256i>()) };
    let eq = |b: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8));
    let low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x20)), v);
    let high = _mm256_cmpeq_epi8(_mm256_max_epu8(v, _mm256_set1_epi8(0x7F)), v);
    let pct = eq(b'%');
    let stop = _mm256_or_si256(
        _mm256_or_si256(low, high),
        _mm256_or_si256(_mm256_or_si256(pct, eq(b'#')), eq(b'\\')),
    );
    (
        _mm256_movemask_epi8(stop) as u32,
        _mm256_movemask_epi8(pct) as u32,
    )
}

/// [`high_escapes16`] for the 32 bytes at `s[at..at + 32]` (`at + 32 <= s.len()`): the first
/// 30 positions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn high_escapes32_avx2(s: &[u8], at: usize) -> u32 {
    use core::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8,
    };
    assert!(at + 32 <= s.len());
    // SAFETY: as in `stops32_avx2`: AVX2 is enabled, and the 32-byte load at `s.as_ptr() + at`
    // stays inside `s` (the assertion above).
    let v = unsafe { _mm256_loadu_si256(s.as_ptr().add(at).cast::<__m256i>()) };
    let upper_af = in_range32(v, b'A', 6);
    let hex = _mm256_movemask_epi8(_mm256_or_si256(in_range32(v, b'0', 10), upper_af)) as u32;
    let high = _mm256_movemask_epi8(_mm256_or_si256(in_range32(v, b'8', 2), upper_af)) as u32;
    let pct = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b'%' as i8))) as u32;
    pct & (high >> 1) & (hex >> 2) & 0x3FFF_FFFF
}

/// The index of the first byte of `s` that is not an ASCII lower-case letter, a digit, `.`,
/// `-` or `_`: the end of a host name that is its own lookup key.
#[inline]
pub(crate) fn first_not_host(s: &[u8]) -> Option<usize> {
    let host =
        |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'_');
    if s.len() < 16 {
        return s.iter().position(|&b| !host(b));
    }
    first_in_blocks(s.len(), |at| !host16(s, at) & 0xFFFF)
}

/// The bitmask of the host bytes of [`first_not_host`] among the 16 at `s[at..at + 16]`
/// (`at + 16 <= s.len()`).
#[inline]
fn host16(s: &[u8], at: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        assert!(at + 16 <= s.len());
        // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always
        // available; the only memory access is the unaligned 16-byte load from
        // `s.as_ptr() + at`, which the assertion above keeps inside `s`.
        unsafe {
            let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
            let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
            let alnum = _mm_or_si128(in_range(v, b'a', 26), in_range(v, b'0', 10));
            let punct = _mm_or_si128(_mm_or_si128(eq(b'.'), eq(b'-')), eq(b'_'));
            _mm_movemask_epi8(_mm_or_si128(alnum, punct)) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut m = 0;
        for (i, &b) in s[at..at + 16].iter().enumerate() {
            let host =
                b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'_');
            m |= u32::from(host) << i;
        }
        m
    }
}

/// The (stop, percent) bitmasks of [`block16`], without the separators (whose unused mask the
/// compiler drops).
#[inline]
fn stops16(s: &[u8], at: usize) -> (u32, u32) {
    let (_, stop, pct) = block16(s, at);
    (stop, pct)
}

/// The leftmost occurrence of `needle` in `hay`, for short needles in short haystacks (every
/// real URL): the candidate positions are those where the needle's first and last bytes both
/// match, 64 at a time with AVX-512 ([`find_short`], haystacks of at most 128 bytes), else 16 at
/// a time, and only those are compared. Anything longer goes to `memchr::memmem`, whose worst
/// case is linear.
#[inline]
pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let n = needle.len();
    #[cfg(target_arch = "x86_64")]
    if hay.len() <= SHORT_HAY && n >= 2 && has_avx512bw() {
        // SAFETY: the processor has AVX-512 F and BW (detected), the only requirement of
        // `find_short` beyond its safe signature.
        return unsafe { find_short(hay, needle) };
    }
    if n <= 1 {
        return match needle.first() {
            None => Some(0),
            // PERF: memchr's set-up cost more than the search on a path's few dozen bytes.
            Some(&b) if hay.len() <= 1024 => find2(hay, b, b),
            Some(&b) => memchr::memchr(b, hay),
        };
    }
    if n > 64 || hay.len() > 1024 {
        return memchr::memmem::find(hay, needle);
    }
    let last_start = hay.len().checked_sub(n)?;
    #[cfg(target_arch = "x86_64")]
    {
        if hay.len() >= n + 15 {
            return find_sse2(hay, needle);
        }
    }
    let (first, last) = (needle[0], needle[n - 1]);
    (0..=last_start)
        .find(|&i| hay[i] == first && hay[i + n - 1] == last && hay[i..i + n] == *needle)
}

/// The longest haystack [`find_short`] takes: two blocks of 64 start positions.
#[cfg(target_arch = "x86_64")]
const SHORT_HAY: usize = 128;

/// True when the processor has AVX-512 F and BW, what [`find_short`], [`same_upto64`] and
/// `path_stops128_avx512` need (detected once, then cached by std).
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx512bw() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

/// [`find`] for a haystack of at most [`SHORT_HAY`] bytes and a needle of at least one byte
/// (`find` takes it for two or more: one byte, often found in the first few of the path, is
/// cheaper inline, without a call; d-wildcards 3% slower through this function), with
/// AVX-512 BW: per block of 64 start positions, two masked loads (where the needle's first
/// byte and where its last byte would be) give every candidate at once, and only those are
/// compared (in one masked comparison: the needle is no longer than the haystack).
// PERF: `find_sse2` (16 positions a block, then a last block overlapping) and `find2` run
// loops whose number of turns is the path's length: mispredicted from one path to the next.
// A file with one rule `/*&ref=` took 61.6 ns per URL of b-shop against 28.6 ns for `/zzz`
// (`speed`, pinned), and 49.4 ns with the same URLs sorted by length.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn find_short(hay: &[u8], needle: &[u8]) -> Option<usize> {
    use core::arch::x86_64::{_mm512_cmpeq_epi8_mask, _mm512_maskz_loadu_epi8, _mm512_set1_epi8};
    let (h, n) = (hay.len(), needle.len());
    assert!(h <= SHORT_HAY && n >= 1);
    let starts = h.checked_sub(n)? + 1;
    let (first, last) = (
        _mm512_set1_epi8(needle[0] as i8),
        _mm512_set1_epi8(needle[n - 1] as i8),
    );
    let mut at = 0;
    while at < starts {
        // The start positions `at..at + count` of this block.
        let count = (starts - at).min(64);
        let k = u64::MAX >> (64 - count);
        // SAFETY: AVX-512 BW is enabled (this function's target feature). The mask enables
        // `count` bytes from `hay[at]` and from `hay[at + n - 1]`; the last of them,
        // `hay[at + count - 1 + n - 1]`, is at most `hay[starts - 1 + n - 1] = hay[h - 1]`: no
        // byte outside `hay` is read (masked-off bytes are not accessed).
        let mut m = unsafe {
            let a = _mm512_maskz_loadu_epi8(k, hay.as_ptr().add(at).cast());
            let b = _mm512_maskz_loadu_epi8(k, hay.as_ptr().add(at + n - 1).cast());
            _mm512_cmpeq_epi8_mask(a, first) & _mm512_cmpeq_epi8_mask(b, last) & k
        };
        while m != 0 {
            let i = at + m.trailing_zeros() as usize;
            if same_upto64(&hay[i..i + n], needle) {
                return Some(i);
            }
            m &= m - 1;
        }
        at += 64;
    }
    None
}

/// [`find`] with SSE2, for `2 <= needle.len()` and `hay.len() >= needle.len() + 15`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn find_sse2(hay: &[u8], needle: &[u8]) -> Option<usize> {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let n = needle.len();
    let h = hay.len();
    assert!(n >= 2 && h >= n + 15);
    let last_start = h - n;
    // PERF: the needle's bytes broadcast once: built in `candidates`, they were built again
    // for every 16 positions (and spilled), ~24 instructions a block instead of ~12.
    // SAFETY: SSE2 is part of the x86_64 baseline.
    let (first, last) = unsafe {
        (
            _mm_set1_epi8(needle[0] as i8),
            _mm_set1_epi8(needle[n - 1] as i8),
        )
    };
    // Candidates among the 16 start positions `at..at + 16`, for `at + 16 <= last_start + 1`
    // (both callers below keep it: the loop by its condition, the last block by starting at
    // `last_start + 1 - 16`, which the assertion above keeps `>= 0`).
    let candidates = |at: usize| -> u32 {
        debug_assert!(at + 16 <= last_start + 1);
        // SAFETY: SSE2 is part of the x86_64 baseline. The two loads read `hay[at..at + 16]`
        // and `hay[at + n - 1..at + n + 15]`; with `at + 16 <= last_start + 1 = h - n + 1`,
        // `at + n + 15 <= h`, so both are inside `hay`. The brute-force tests of `find` run
        // every haystack length from `n + 15` up, and the debug assertion checks the bound.
        unsafe {
            let a = _mm_loadu_si128(hay.as_ptr().add(at).cast::<__m128i>());
            let b = _mm_loadu_si128(hay.as_ptr().add(at + n - 1).cast::<__m128i>());
            _mm_movemask_epi8(_mm_and_si128(
                _mm_cmpeq_epi8(a, first),
                _mm_cmpeq_epi8(b, last),
            )) as u32
        }
    };
    let verify = |i: usize| hay[i + 1..i + n - 1] == needle[1..n - 1];
    let mut at = 0;
    while at + 16 <= last_start + 1 {
        let mut m = candidates(at);
        while m != 0 {
            let i = at + m.trailing_zeros() as usize;
            if verify(i) {
                return Some(i);
            }
            m &= m - 1;
        }
        at += 16;
    }
    if at <= last_start {
        // The last 16 start positions, overlapping those already tried.
        let start = last_start + 1 - 16;
        let mut m = candidates(start) >> (at - start);
        while m != 0 {
            let i = at + m.trailing_zeros() as usize;
            if verify(i) {
                return Some(i);
            }
            m &= m - 1;
        }
    }
    None
}

/// The line masks of one 64-byte window of a text: bit `i` is byte `i` of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineMasks {
    /// Line ends: `\n` or `\r`.
    pub(crate) eol: u64,
    /// Where a line's content ends: `#` or NUL.
    pub(crate) cut: u64,
    /// `:`.
    pub(crate) colon: u64,
}

/// The line masks of `s[at..at + 64]` (bytes past the end of `s` count as none of them).
// PERF: always inlined into `Span::load`: a call (when a change elsewhere tipped the
// compiler's choice) cost about 80,000 instructions per matcher from e-largest.
#[inline(always)]
pub(crate) fn line_masks(s: &[u8], at: usize) -> LineMasks {
    let mut m = LineMasks::default();
    let end = (at + 64).min(s.len());
    let mut i = at;
    #[cfg(target_arch = "x86_64")]
    {
        // PERF: a whole window (every window of a file but its last) in four fixed blocks,
        // without the loop's variable shifts (measured: a quarter fewer instructions for
        // reading a file's lines).
        if end == at + 64 {
            let b: [(u32, u32, u32); 4] =
                core::array::from_fn(|k| line_masks16_sse2(s, at + 16 * k));
            let join = |f: fn(&(u32, u32, u32)) -> u32| {
                b.iter()
                    .rev()
                    .fold(0u64, |acc, x| acc << 16 | u64::from(f(x)))
            };
            return LineMasks {
                eol: join(|x| x.0),
                cut: join(|x| x.1),
                colon: join(|x| x.2),
            };
        }
        while i + 16 <= end {
            let (eol, cut, colon) = line_masks16_sse2(s, i);
            let shift = i - at;
            m.eol |= u64::from(eol) << shift;
            m.cut |= u64::from(cut) << shift;
            m.colon |= u64::from(colon) << shift;
            i += 16;
        }
    }
    while i < end {
        let bit = 1u64 << (i - at);
        match s[i] {
            b'\n' | b'\r' => m.eol |= bit,
            b'#' | 0 => m.cut |= bit,
            b':' => m.colon |= bit,
            _ => {}
        }
        i += 1;
    }
    m
}

/// The (eol, cut, colon) masks of the 16 bytes at `s[at..at + 16]`.
#[cfg(target_arch = "x86_64")]
#[inline]
fn line_masks16_sse2(s: &[u8], at: usize) -> (u32, u32, u32) {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    assert!(at + 16 <= s.len());
    // SAFETY: SSE2 is part of the x86_64 baseline, so these intrinsics are always available;
    // the only memory access is the unaligned 16-byte load from `s.as_ptr() + at`, which the
    // assertion above keeps inside `s`.
    unsafe {
        let v = _mm_loadu_si128(s.as_ptr().add(at).cast::<__m128i>());
        let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        (
            _mm_movemask_epi8(_mm_or_si128(eq(b'\n'), eq(b'\r'))) as u32,
            _mm_movemask_epi8(_mm_or_si128(eq(b'#'), eq(0))) as u32,
            _mm_movemask_epi8(eq(b':')) as u32,
        )
    }
}

/// `a == b` for slices of equal length, in words (labels and pieces are short; a call to
/// `memcmp` costs more than the comparison).
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    debug_assert_eq!(a.len(), b.len());
    let n = a.len().min(b.len());
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or([0; 8]));
    if n >= 8 {
        let mut i = 0;
        while i + 8 <= n {
            if word(a, i) != word(b, i) {
                return false;
            }
            i += 8;
        }
        // The last word overlaps bytes already compared.
        return word(a, n - 8) == word(b, n - 8);
    }
    let mut diff = 0;
    for i in 0..n {
        diff |= a[i] ^ b[i];
    }
    diff == 0
}

/// [`same`] for callers with AVX-512 F and BW: slices of at most 64 bytes are compared in one
/// masked comparison, without a loop; longer ones by [`same`].
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) fn same_upto64(a: &[u8], b: &[u8]) -> bool {
    use core::arch::x86_64::{_mm512_cmpneq_epi8_mask, _mm512_maskz_loadu_epi8};
    debug_assert_eq!(a.len(), b.len());
    let n = a.len().min(b.len());
    if n > 64 {
        return same(a, b);
    }
    let k = if n == 0 { 0 } else { u64::MAX >> (64 - n) };
    // SAFETY: AVX-512 BW is enabled (this function's target feature). The mask enables the
    // first `n` bytes from the start of each slice, and both are at least `n` bytes long: no
    // byte outside them is read (masked-off bytes are not accessed, and read as 0, even past
    // the end of a page). The test `same_upto64_agrees_with_eq` runs every length to 70: a
    // mask one byte short misses a difference in the last byte, and one too long compares
    // the bytes after two separate allocations, which differ.
    let (x, y) = unsafe {
        (
            _mm512_maskz_loadu_epi8(k, a.as_ptr().cast()),
            _mm512_maskz_loadu_epi8(k, b.as_ptr().cast()),
        )
    };
    _mm512_cmpneq_epi8_mask(x, y) == 0
}

/// Asks the processor to bring the cache line at `p` closer (a hint: no effect on what the
/// program computes, and no fault whatever the address).
#[inline]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and never faults, whatever the
    // address (Intel SDM, PREFETCHh: "does not affect program behavior"); SSE is part of the
    // x86_64 baseline.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Loads up to eight bytes of `s` as a little-endian word, zero-padded.
#[inline]
pub(crate) fn load8(s: &[u8]) -> u64 {
    if s.len() >= 8 {
        u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]])
    } else {
        let mut w = [0u8; 8];
        w[..s.len()].copy_from_slice(s);
        u64::from_le_bytes(w)
    }
}

/// How many sets of 8 buckets a [`BucketScan`] has at most.
// PERF: 9 sets (72 pieces) take d-wildcards' 67 searched pieces: its shared Aho-Corasick walk
// (a dependent load per byte of the path) was 40% of a decision; with buckets, 205 -> 148 ns
// per URL (`speed`, pinned).
pub(crate) const BUCKET_SETS: usize = 9;

/// How many sets a scan of few pieces holds its hits for ([`BucketHits`] of this many sets,
/// all cleared for every path; b-shop's 23 pieces fill 3): with room for all 9, b-shop's
/// decisions took 5 ns more.
pub(crate) const FEW_SETS: usize = 3;

/// How many pieces a [`BucketScan`] takes at most: one per bucket.
pub(crate) const BUCKET_PIECES: usize = 8 * BUCKET_SETS;

/// The longest path a [`BucketScan`] scans (two blocks of 64 bytes).
pub(crate) const BUCKET_WINDOW: usize = 128;

/// The bytes that the pieces of one set of 8 buckets allow in their three looked-up places: bit
/// `j` of `offsets[k][b & 0x7F]` is set when the piece of bucket `j` has byte `b` at offset
/// `k` from its [`gram_start`], or ends before it.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct BucketTables {
    offsets: [[u8; 128]; 3],
}

/// A Teddy-like search for a few pieces at once, with AVX-512 VBMI: each piece has a bucket
/// (a bit of a set of 8), and one pass over a path of at most [`BUCKET_WINDOW`] bytes gives,
/// for every position and set, the buckets whose piece's three looked-up bytes (its first
/// ones for a piece of at most 3 bytes, else the three that [`gram_start`] picks) are there,
/// and which buckets have such a candidate at all. A search for one piece is then a bit test
/// of those vectors, shifted to where the piece would start, and a comparison at each
/// candidate. The tables look bytes up by their low 7 bits, so a byte `>= 0x80` of a path may
/// make a false candidate (the comparison rejects it), never hide a true one: pieces whose
/// looked-up bytes are not all ASCII are not taken.
///
/// Where the processor has AVX2 but not AVX-512, the same scan runs 32 bytes at a time with
/// nibble tables instead ([`BucketScan::scan_avx2`], Teddy's lookup: a byte's bucket bits are
/// those of its low nibble's entry and its high nibble's). Each bucket holds one piece, so that
/// is exact per byte, bytes `>= 0x80` included.
#[derive(Clone, Debug)]
pub(crate) struct BucketScan {
    /// The AVX-512 tables, one per set (empty where the scan is AVX2's).
    sets: Box<[BucketTables]>,
    /// The AVX2 tables, one per set (empty where the scan is AVX-512's).
    nibbles: Box<[NibbleTables]>,
    /// Per bucket: where in its piece the three bytes looked up start ([`gram_start`]).
    gram_starts: [u8; BUCKET_PIECES],
}

/// The tables of one set of 8 buckets for [`BucketScan::scan_avx2`]: bit `j` of `lo[k][l]`
/// is set when the piece of bucket `j` has a byte whose low nibble is `l` at offset `k` from
/// its [`gram_start`], or ends before it; `hi[k][h]` the same for the high nibble. Each table
/// is 16 bytes written twice, once per 128-bit lane of a `vpshufb`.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct NibbleTables {
    lo: [[u8; 32]; 3],
    hi: [[u8; 32]; 3],
}

/// Which instructions a [`BucketScan`] runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BucketIsa {
    /// AVX-512 F, BW and VBMI, GFNI, POPCNT: [`BucketScan::scan`].
    Avx512,
    /// AVX2, BMI1, POPCNT: [`BucketScan::scan_avx2`].
    Avx2,
}

/// Where in `piece` (one of `pieces`) the three bytes that a [`BucketScan`] looks up start:
/// the first three that no other piece contains (else the first three that the fewest do).
/// Robots.txt pieces often share their start (`/section0/`, `/section3/`; `param1=`,
/// `param4=`): looked up by their first bytes, every `/se` of a path would be a candidate for
/// each of them, compared in vain. Later bytes are no better in general (`.html`'s `tml`
/// ends most of some sites' paths), so a piece whose first bytes are its own keeps them.
/// `holders` is [`gram_holders`] of the pieces.
fn gram_start(piece: &[u8], holders: &[[u8; 3]]) -> u8 {
    if piece.len() <= 3 {
        return 0;
    }
    // The other pieces that contain the gram at `k` (this one does).
    let shared = |k: usize| {
        let gram = [piece[k], piece[k + 1], piece[k + 2]];
        let from = holders.partition_point(|g| *g < gram);
        let to = holders.partition_point(|g| *g <= gram);
        (to - from).saturating_sub(1)
    };
    // A start of at most 255 bytes into the piece (later ones are not looked at).
    (0..=(piece.len() - 3).min(255))
        .min_by_key(|&k| (shared(k), k))
        .map_or(0, |k| k as u8)
}

/// The 3-byte strings of the distinct `pieces`, each once per piece that contains it, sorted:
/// how many pieces contain a string is the length of its run.
// PERF: counted once for all pieces: comparing each piece's grams with every other piece's
// was quadratic in the pieces, a fifth of the tree's build time over the corpus once scans
// took up to 72 pieces.
fn gram_holders(pieces: &[&[u8]]) -> Vec<[u8; 3]> {
    let mut distinct: Vec<&[u8]> = pieces.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut holders = Vec::new();
    let mut grams: Vec<[u8; 3]> = Vec::new();
    for p in distinct {
        grams.clear();
        grams.extend(p.windows(3).map(|w| [w[0], w[1], w[2]]));
        grams.sort_unstable();
        grams.dedup();
        holders.extend_from_slice(&grams);
    }
    holders.sort_unstable();
    holders
}

/// The result of a [`BucketScan`] of one path, with room for `S` sets of buckets.
#[cfg(target_arch = "x86_64")]
pub(crate) struct BucketHits<const S: usize> {
    /// Per set and 64-byte block of the path: per position, the buckets with a candidate
    /// there (zero past the path).
    blocks: [[core::arch::x86_64::__m512i; 2]; S],
    /// The length of the path scanned.
    len: usize,
    /// Bit `i % 64` of word `i / 64` when bucket `i` has a candidate in the path.
    present: [u64; 2],
}

#[cfg(target_arch = "x86_64")]
impl<const S: usize> BucketHits<S> {
    /// Bit `i % 64` of word `i / 64` when the piece of bucket `i` may occur in the path
    /// scanned (its looked-up bytes do somewhere): the pieces of the other buckets do not.
    #[inline]
    pub(crate) fn present(&self) -> [u64; 2] {
        self.present
    }
}

impl BucketScan {
    /// The scan of `pieces` (bucket `i` for `pieces[i]`) with the instructions `isa` (the
    /// best the processor has is [`bucket_isa`]'s: those of [`BucketScan::scan`], AVX-512 F, BW
    /// and VBMI, GFNI, POPCNT, else those of [`BucketScan::scan_avx2`]); `None` where the
    /// processor lacks them ([`has_bucket_avx512`], [`has_bucket_avx2`]: a scan exists only
    /// where its functions can run, which their callers' safety rests on), for more than
    /// [`BUCKET_PIECES`] pieces, an empty piece, or a piece whose three bytes at
    /// [`gram_start`] are not all ASCII (the AVX-512 tables look bytes up by their low 7 bits;
    /// both sets of instructions take the same pieces, so that a tree is the same on both).
    pub(crate) fn build(pieces: &[&[u8]], isa: BucketIsa) -> Option<BucketScan> {
        let can = match isa {
            BucketIsa::Avx512 => has_bucket_avx512(),
            BucketIsa::Avx2 => has_bucket_avx2(),
        };
        if !can || pieces.len() > BUCKET_PIECES || pieces.iter().any(|p| p.is_empty()) {
            return None;
        }
        let holders = gram_holders(pieces);
        let starts: Vec<u8> = pieces.iter().map(|p| gram_start(p, &holders)).collect();
        if pieces
            .iter()
            .zip(&starts)
            .any(|(p, &k)| p[usize::from(k)..].iter().take(3).any(|&b| b >= 0x80))
        {
            return None;
        }
        let count = pieces.len().div_ceil(8);
        let (mut sets, mut nibbles) = (Vec::new(), Vec::new());
        match isa {
            BucketIsa::Avx512 => {
                sets = vec![
                    BucketTables {
                        offsets: [[0; 128]; 3]
                    };
                    count
                ]
            }
            BucketIsa::Avx2 => {
                nibbles = vec![
                    NibbleTables {
                        lo: [[0; 32]; 3],
                        hi: [[0; 32]; 3]
                    };
                    count
                ]
            }
        }
        for (i, p) in pieces.iter().enumerate() {
            let bit = 1u8 << (i % 8);
            let gram = &p[usize::from(starts[i])..];
            for k in 0..3 {
                if let Some(set) = sets.get_mut(i / 8) {
                    let table = &mut set.offsets[k];
                    match gram.get(k) {
                        Some(&b) => table[usize::from(b)] |= bit,
                        None => table.iter_mut().for_each(|t| *t |= bit),
                    }
                }
                if let Some(set) = nibbles.get_mut(i / 8) {
                    for lane in [0, 16] {
                        match gram.get(k) {
                            Some(&b) => {
                                set.lo[k][lane + usize::from(b & 15)] |= bit;
                                set.hi[k][lane + usize::from(b >> 4)] |= bit;
                            }
                            None => {
                                set.lo[k][lane..lane + 16]
                                    .iter_mut()
                                    .for_each(|t| *t |= bit);
                                set.hi[k][lane..lane + 16]
                                    .iter_mut()
                                    .for_each(|t| *t |= bit);
                            }
                        }
                    }
                }
            }
        }
        let mut gram_starts = [0; BUCKET_PIECES];
        gram_starts[..starts.len()].copy_from_slice(&starts);
        Some(BucketScan {
            sets: sets.into(),
            nibbles: nibbles.into(),
            gram_starts,
        })
    }

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        std::mem::size_of_val(&*self.sets) + std::mem::size_of_val(&*self.nibbles)
    }

    /// The instructions this scan runs with.
    #[inline]
    pub(crate) fn isa(&self) -> BucketIsa {
        if self.nibbles.is_empty() {
            BucketIsa::Avx512
        } else {
            BucketIsa::Avx2
        }
    }

    /// True when the scan has at most [`FEW_SETS`] sets of 8 buckets, so that its hits fit
    /// the room of a scan of few pieces (`scan::<FEW_SETS>`); else they need
    /// `scan::<BUCKET_SETS>`.
    pub(crate) fn has_few_sets(&self) -> bool {
        self.sets.len().max(self.nibbles.len()) <= FEW_SETS
    }
}

#[cfg(target_arch = "x86_64")]
impl BucketScan {
    /// Scans `path` (at most [`BUCKET_WINDOW`] bytes) into hits with room for `S` sets (the
    /// scan has at most `S`): per 64-byte block, three loads (at offsets 0, 1 and 2; bytes
    /// past the path read as 0), per set a table lookup of each
    /// (`vpermi2b`: 128 entries) and their `and`. For callers that run with these features (a
    /// `BucketScan` exists only where the processor has them), so that it is inlined.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,popcnt")]
    // `blocks[s][b]`: the block index is the inner index of an array indexed by set first.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn scan<const S: usize>(&self, path: &[u8]) -> BucketHits<S> {
        use core::arch::x86_64::{
            __m512i, _mm512_and_si512, _mm512_gf2p8affine_epi64_epi8, _mm512_maskz_loadu_epi8,
            _mm512_maskz_mov_epi8, _mm512_permutex2var_epi8, _mm512_set1_epi64,
            _mm512_setzero_si512, _mm512_test_epi8_mask,
        };
        let n = path.len();
        assert!(n <= BUCKET_WINDOW && self.sets.len() <= S);
        let load = |start: usize| -> __m512i {
            let count = n.saturating_sub(start).min(64);
            if count == 0 {
                return _mm512_setzero_si512();
            }
            let k = u64::MAX >> (64 - count);
            // SAFETY: AVX-512 BW is enabled (this function's target feature). `start < n`, so
            // the pointer is inside `path`, and the mask enables the `count` bytes from it,
            // which end at or before `path`'s end: no byte outside `path` is read (masked-off
            // bytes are not accessed, and read as 0).
            unsafe { _mm512_maskz_loadu_epi8(k, path.as_ptr().add(start).cast::<i8>()) }
        };
        // Bucket `j`'s selector in byte `j` of every word: see the transposition below.
        let select = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
        let mut blocks = [[_mm512_setzero_si512(); 2]; S];
        let mut present = [0u64; 2];
        for b in 0..n.div_ceil(64) {
            let at = 64 * b;
            let valid = u64::MAX >> (64 - (n - at).min(64));
            let x = [load(at), load(at + 1), load(at + 2)];
            for (s, t) in self.sets.iter().enumerate() {
                let look = |k: usize| {
                    let table = t.offsets[k].as_ptr().cast::<__m512i>();
                    // SAFETY: `BucketTables` is 64-byte aligned and each table is 128 bytes at
                    // an offset that is a multiple of 128: both aligned 64-byte loads are
                    // inside it.
                    let (lo, hi) = unsafe {
                        (
                            core::arch::x86_64::_mm512_load_si512(table),
                            core::arch::x86_64::_mm512_load_si512(table.add(1)),
                        )
                    };
                    _mm512_permutex2var_epi8(lo, x[k], hi)
                };
                let v = _mm512_maskz_mov_epi8(
                    valid,
                    _mm512_and_si512(_mm512_and_si512(look(0), look(1)), look(2)),
                );
                blocks[s][b] = v;
                // Per word of `v` (8 positions), its 8x8 bit matrix transposed (GFNI: bit `i`
                // of byte `j` of the result is bit `j` of byte `7 - i` of the word): byte `j`
                // is nonzero when bucket `j` has a candidate in the word. Bit `8 * q + j` of
                // `m`: bucket `j` in the word `q`; then the union of the words.
                let t = _mm512_gf2p8affine_epi64_epi8(select, v, 0);
                let m = _mm512_test_epi8_mask(t, t);
                let m = m | m >> 32;
                let m = m | m >> 16;
                let m = m | m >> 8;
                present[s / 8] |= u64::from(m as u8) << (8 * (s % 8));
            }
        }
        BucketHits {
            blocks,
            len: n,
            present,
        }
    }

    /// The leftmost occurrence of `piece`, which is bucket `bucket`'s, starting at or after
    /// `from` in `path`, which `hits` holds the scan of: the candidates in one or two words,
    /// then a comparison of the piece at each, left to right.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) fn first<const S: usize>(
        &self,
        hits: &BucketHits<S>,
        bucket: usize,
        piece: &[u8],
        path: &[u8],
        from: usize,
    ) -> Option<usize> {
        use core::arch::x86_64::{_mm512_set1_epi8, _mm512_test_epi8_mask};
        let n = path.len();
        assert!(hits.len == n && bucket < self.sets.len() * 8);
        // Candidates are where the piece's looked-up bytes are, `skip` bytes after where it
        // would start: from `from + skip` (below `n <= 128`, or there are none).
        let skip = usize::from(self.gram_starts[bucket]);
        let lowest = from + skip;
        if lowest >= n {
            return None;
        }
        let bit = _mm512_set1_epi8((1u8 << (bucket % 8)) as i8);
        let set = &hits.blocks[bucket / 8];
        let low = _mm512_test_epi8_mask(set[0], bit);
        let high = if n > 64 {
            _mm512_test_epi8_mask(set[1], bit)
        } else {
            0
        };
        let mut m = (u128::from(low) | u128::from(high) << 64) & (u128::MAX << lowest);
        let len = piece.len();
        while m != 0 {
            let i = m.trailing_zeros() as usize - skip;
            // PERF: one masked comparison for a piece of at most 64 bytes: `same`'s byte
            // loop for pieces under 8 bytes (`sort=`, `&ref=`) left its loop at a different
            // count for each piece, a branch the processor missed.
            if n - i >= len && same_upto64(&path[i..i + len], piece) {
                return Some(i);
            }
            m &= m - 1;
        }
        None
    }
}

/// Per set and block of 32 positions of a path, per position, the buckets with a candidate
/// there: what [`BucketScan::scan_avx2`] writes.
#[cfg(target_arch = "x86_64")]
pub(crate) type Blocks2<const S: usize> = [[core::arch::x86_64::__m256i; 4]; S];

/// The result of a [`BucketScan::scan_avx2`] of one path, with room for `S` sets of buckets.
#[cfg(target_arch = "x86_64")]
pub(crate) struct BucketHits2<'a, const S: usize> {
    /// The blocks written (see [`Blocks2`]): block `b` starts at position `starts[b]` (zero
    /// past the last block).
    blocks: &'a Blocks2<S>,
    /// Where each block starts in the path: the last one moved back to end at the path's end,
    /// overlapping the one before, which gives the same bits for the positions both hold.
    starts: [u8; 4],
    /// The length of the path scanned.
    len: usize,
    /// Bit `i % 64` of word `i / 64` when bucket `i` has a candidate in the path.
    present: [u64; 2],
}

#[cfg(target_arch = "x86_64")]
impl<const S: usize> BucketHits2<'_, S> {
    /// Room for the blocks of a scan (zeros: the blocks a short path leaves are read as no
    /// candidate).
    #[inline]
    pub(crate) fn blocks() -> Blocks2<S> {
        // SAFETY: `__m256i` is 32 bytes of integer lanes, for which every bit pattern, all
        // zeros included, is a valid value; so is an array of them.
        unsafe { core::mem::zeroed::<Blocks2<S>>() }
    }

    /// As [`BucketHits::present`].
    #[inline]
    pub(crate) fn present(&self) -> [u64; 2] {
        self.present
    }
}

/// `v`'s 32 bytes moved down by `K` places (`K` < 16), zeros moving in at the top: bytes
/// `K..32` of `v` are bytes `0..32 - K` of the result.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx2")]
fn shift_down32<const K: i32>(v: core::arch::x86_64::__m256i) -> core::arch::x86_64::__m256i {
    use core::arch::x86_64::{_mm256_alignr_epi8, _mm256_permute2x128_si256};
    // The high lane moved to the low one, zeros above: what each lane's shift takes in.
    let above = _mm256_permute2x128_si256::<0x81>(v, v);
    _mm256_alignr_epi8::<K>(above, v)
}

#[cfg(target_arch = "x86_64")]
impl BucketScan {
    /// [`BucketScan::scan`] with AVX2, for a scan built for it ([`BucketIsa::Avx2`]): per
    /// block of 32 positions, the bytes at offsets 0, 1 and 2, split into nibbles, each looked
    /// up in a set's two tables (`vpshufb`), and the six lookups' `and`. A path of at least 32
    /// bytes is read in place (the last block moved back to end at its end, its bytes at
    /// offsets 1 and 2 shifted in from the block itself, zeros past the path); a shorter one
    /// is copied into 32 zeroed bytes first.
    ///
    /// The blocks are written in `blocks`, which the hits borrow (zeros, or a scan's: every
    /// block that this path does not fill must be zero).
    #[inline]
    #[target_feature(enable = "avx2,bmi1,popcnt")]
    pub(crate) fn scan_avx2<'a, const S: usize>(
        &self,
        path: &[u8],
        blocks: &'a mut Blocks2<S>,
    ) -> BucketHits2<'a, S> {
        use core::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_cmpgt_epi8, _mm256_extracti128_si256,
            _mm256_load_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi8,
            _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
            _mm_cvtsi128_si32, _mm_or_si128, _mm_srli_si128,
        };
        let n = path.len();
        assert!(n <= BUCKET_WINDOW && self.nibbles.len() <= S);
        let low4 = _mm256_set1_epi8(0x0F);
        let index = _mm256_setr_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        let mut starts = [0u8; 4];
        let mut present = [0u64; 2];
        let mut any = [_mm256_setzero_si256(); S];
        // A path shorter than a block is scanned in a copy padded with zeros.
        let mut buf = [0u8; 32];
        let src: &[u8] = if n >= 32 {
            path
        } else {
            buf[..n].copy_from_slice(path);
            &buf
        };
        let len = src.len();
        let load = |at: usize| {
            assert!(at + 32 <= len);
            // SAFETY: AVX is enabled (this function's target features), and the assertion
            // keeps the unaligned 32-byte load inside `src`.
            unsafe { _mm256_loadu_si256(src.as_ptr().add(at).cast::<__m256i>()) }
        };
        for b in 0..len.div_ceil(32) {
            // The last block moved back to end at the end (`len >= 32`).
            let at = (32 * b).min(len - 32);
            starts[b] = at as u8;
            let x0 = load(at);
            let x = if at + 34 <= len {
                [x0, load(at + 1), load(at + 2)]
            } else {
                [x0, shift_down32::<1>(x0), shift_down32::<2>(x0)]
            };
            // The positions of the block that are in the path.
            let valid =
                _mm256_cmpgt_epi8(_mm256_set1_epi8(n.saturating_sub(at).min(32) as i8), index);
            let lo = x.map(|v| _mm256_and_si256(v, low4));
            let hi = x.map(|v| _mm256_and_si256(_mm256_srli_epi16::<4>(v), low4));
            for (s, t) in self.nibbles.iter().enumerate() {
                let mut v = valid;
                for k in 0..3 {
                    // SAFETY: `NibbleTables` is 32-byte aligned, and each table is 32 bytes at
                    // an offset that is a multiple of 32: aligned loads inside it.
                    let (tl, th) = unsafe {
                        (
                            _mm256_load_si256(t.lo[k].as_ptr().cast::<__m256i>()),
                            _mm256_load_si256(t.hi[k].as_ptr().cast::<__m256i>()),
                        )
                    };
                    v = _mm256_and_si256(
                        v,
                        _mm256_and_si256(
                            _mm256_shuffle_epi8(tl, lo[k]),
                            _mm256_shuffle_epi8(th, hi[k]),
                        ),
                    );
                }
                blocks[s][b] = v;
                any[s] = _mm256_or_si256(any[s], v);
            }
        }
        for (s, v) in any.iter().enumerate().take(self.nibbles.len()) {
            // The `or` of the 32 bytes: the buckets with a candidate anywhere.
            let x = _mm_or_si128(
                core::arch::x86_64::_mm256_castsi256_si128(*v),
                _mm256_extracti128_si256::<1>(*v),
            );
            let x = _mm_or_si128(x, _mm_srli_si128::<8>(x));
            let x = _mm_or_si128(x, _mm_srli_si128::<4>(x));
            let x = _mm_or_si128(x, _mm_srli_si128::<2>(x));
            let x = _mm_or_si128(x, _mm_srli_si128::<1>(x));
            present[s / 8] |= u64::from(_mm_cvtsi128_si32(x) as u8) << (8 * (s % 8));
        }
        BucketHits2 {
            blocks,
            starts,
            len: n,
            present,
        }
    }

    /// [`BucketScan::first`] for the hits of [`BucketScan::scan_avx2`]: the candidates of the
    /// bucket in every block, then a comparison of the piece at each, left to right.
    #[inline]
    #[target_feature(enable = "avx2,bmi1,popcnt")]
    pub(crate) fn first_avx2<const S: usize>(
        &self,
        hits: &BucketHits2<'_, S>,
        bucket: usize,
        piece: &[u8],
        path: &[u8],
        from: usize,
    ) -> Option<usize> {
        use core::arch::x86_64::{
            _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_movemask_epi8, _mm256_set1_epi8,
        };
        let n = path.len();
        assert!(hits.len == n && bucket < self.nibbles.len() * 8);
        let skip = usize::from(self.gram_starts[bucket]);
        let lowest = from + skip;
        if lowest >= n {
            return None;
        }
        let bit = _mm256_set1_epi8((1u8 << (bucket % 8)) as i8);
        let set = &hits.blocks[bucket / 8];
        let mut m = 0u128;
        for (v, &at) in set.iter().zip(&hits.starts) {
            let found = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(*v, bit), bit));
            m |= u128::from(found as u32) << at;
        }
        // Positions from `lowest` and inside the path (`n >= 1` here).
        m &= (u128::MAX << lowest) & (u128::MAX >> (128 - n));
        let len = piece.len();
        while m != 0 {
            let i = m.trailing_zeros() as usize - skip;
            if n - i >= len && same(&path[i..i + len], piece) {
                return Some(i);
            }
            m &= m - 1;
        }
        None
    }
}

/// The instructions a [`BucketScan`] built now runs with: AVX-512's where the processor has
/// them, else AVX2's, else none (the tree searches without buckets).
#[inline]
pub(crate) fn bucket_isa() -> Option<BucketIsa> {
    if has_bucket_avx512() {
        Some(BucketIsa::Avx512)
    } else if has_bucket_avx2() {
        Some(BucketIsa::Avx2)
    } else {
        None
    }
}

/// True when the processor can run some [`BucketScan`] ([`bucket_isa`]).
#[inline]
pub(crate) fn has_bucket_features() -> bool {
    bucket_isa().is_some()
}

/// True when the processor has what [`BucketScan::scan`] needs (detected once, then cached by
/// std).
#[inline]
pub(crate) fn has_bucket_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("gfni")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// True when the processor has what [`BucketScan::scan_avx2`] needs (detected once, then
/// cached by std).
#[inline]
pub(crate) fn has_bucket_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The most strings a [`PrefixTable`] holds (one bit each in a word).
pub(crate) const TABLE_STRINGS: usize = 64;

/// The longest string a [`PrefixTable`] holds.
pub(crate) const TABLE_LEN: usize = 64;

/// The most rows a [`PrefixTable`] compares (see [`TableRow`]).
// PERF: a row costs about a nanosecond; the walk it replaces costs one or two dozen (b-shop's
// 32 strings fill 7 rows: 102-108 -> 87-88 ns per URL, `speed`, pinned, 3 alternations), but
// only a few for strings that paths leave early: 60 strings of 35 bytes (60 rows of one
// string) took a walk of 35 ns per URL to 87 ns.
pub(crate) const TABLE_ROWS: usize = 8;

/// One 64-byte row of a [`PrefixTable`]: 8 strings of at most 8 bytes, 4 of at most 16, 2 of
/// at most 32, or one of at most 64, each at the start of its slot.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct TableRow {
    bytes: [u8; 64],
    /// Bit `i` when byte `i` belongs to a string (the others are not compared).
    care: u64,
    /// Bit `j` when slot `j` holds a string.
    valid: u8,
    /// The bit, in the result of [`PrefixTable::prefixes`], of the string in slot 0.
    base: u8,
}

/// `SLOTS[k][q]`, for rows of slots of `2^k` words: bit `j` when the words of slot `j` are all
/// clear in `q` (bit `i` of `q` for word `i`: the words of the row that differ from the path's).
const SLOTS: [[u8; 256]; 4] = {
    let mut t = [[0u8; 256]; 4];
    let mut k = 0;
    while k < 4 {
        let words = 1 << k;
        let group = (1u32 << words) - 1;
        let mut q = 0;
        while q < 256 {
            let mut j = 0;
            while j < 8 / words {
                if (q as u32 >> (j * words)) & group == 0 {
                    t[k][q] |= 1 << j;
                }
                j += 1;
            }
            q += 1;
        }
        k += 1;
    }
    t
};

/// Which of up to [`TABLE_STRINGS`] strings of up to [`TABLE_LEN`] bytes are prefixes of a
/// path, all compared at once with AVX-512: a row of strings against the path's first bytes,
/// repeated per slot, is one comparison, and the slots without a difference are the strings
/// that match. The radix tree's walk asks the same question one node at a time, a chain of
/// dependent loads and branches that the processor mispredicts from one path to the next.
#[derive(Clone, Debug)]
pub(crate) struct PrefixTable {
    /// Rows of 8-byte slots, then of 16-, 32- and 64-byte slots.
    rows: Box<[TableRow]>,
    /// Where the rows of each slot width end in `rows`.
    ends: [usize; 4],
    /// `upto[n]`: the number of strings of at most `n` bytes, whose bits are the lowest (the
    /// strings are ordered by length).
    upto: [u8; TABLE_LEN + 1],
}

impl PrefixTable {
    /// The table of `strings` (bit `i` of [`PrefixTable::prefixes`] for `strings[i]`, which
    /// must be ordered by length); `None` for more than [`TABLE_STRINGS`], a string longer than
    /// [`TABLE_LEN`], more than [`TABLE_ROWS`] rows, or a processor without the features.
    pub(crate) fn build(strings: &[&[u8]]) -> Option<PrefixTable> {
        if strings.len() > TABLE_STRINGS
            || strings.iter().any(|s| s.len() > TABLE_LEN)
            || !strings.windows(2).all(|w| w[0].len() <= w[1].len())
            || !has_table_features()
        {
            return None;
        }
        let mut rows = Vec::new();
        let mut ends = [0; 4];
        for (k, end) in ends.iter_mut().enumerate() {
            // Slots of `width` bytes take the strings longer than the last width's.
            let width = 8 << k;
            let shortest = if k == 0 { 0 } else { (4 << k) + 1 };
            // In order: the bits of a row's slots follow each other.
            let members: Vec<usize> = (0..strings.len())
                .filter(|&i| (shortest..=width).contains(&strings[i].len()))
                .collect();
            for chunk in members.chunks(64 / width) {
                let mut row = TableRow {
                    bytes: [0; 64],
                    care: 0,
                    valid: 0,
                    base: chunk[0] as u8,
                };
                for (slot, &i) in chunk.iter().enumerate() {
                    let s = strings[i];
                    row.bytes[slot * width..slot * width + s.len()].copy_from_slice(s);
                    if !s.is_empty() {
                        row.care |= (u64::MAX >> (64 - s.len())) << (slot * width);
                    }
                    row.valid |= 1 << slot;
                }
                rows.push(row);
            }
            *end = rows.len();
        }
        if rows.len() > TABLE_ROWS {
            return None;
        }
        let mut upto = [0u8; TABLE_LEN + 1];
        for (n, count) in upto.iter_mut().enumerate() {
            *count = strings.iter().filter(|s| s.len() <= n).count() as u8;
        }
        Some(PrefixTable {
            rows: rows.into(),
            ends,
            upto,
        })
    }

    /// The bits of the strings of at most `n <= TABLE_LEN` bytes.
    #[inline]
    fn upto(&self, n: usize) -> u64 {
        ((1u128 << self.upto[n]) - 1) as u64
    }

    /// The bits of the strings exactly `n` bytes long.
    #[inline]
    pub(crate) fn exactly(&self, n: usize) -> u64 {
        match n {
            0 => self.upto(0),
            1..=TABLE_LEN => self.upto(n) & !self.upto(n - 1),
            _ => 0,
        }
    }

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        std::mem::size_of_val(&*self.rows)
    }
}

#[cfg(target_arch = "x86_64")]
impl PrefixTable {
    /// Bit `i` when string `i` of the table is a prefix of `path`. For callers that run with
    /// these features (a `PrefixTable` exists only where the processor has them).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni,popcnt")]
    pub(crate) fn prefixes(&self, path: &[u8]) -> u64 {
        use core::arch::x86_64::{
            __m512i, _mm512_broadcast_i32x4, _mm512_broadcast_i64x4, _mm512_broadcastq_epi64,
            _mm512_castsi512_si128, _mm512_castsi512_si256, _mm512_load_si512,
            _mm512_maskz_loadu_epi8, _mm512_maskz_mov_epi8, _mm512_setzero_si512,
            _mm512_test_epi64_mask, _mm512_xor_si512,
        };
        let count = path.len().min(TABLE_LEN);
        let p = if count == 0 {
            _mm512_setzero_si512()
        } else {
            // SAFETY: AVX-512 BW is enabled (this function's target feature). The mask enables
            // the first `count <= path.len()` bytes from the start of `path`: no byte outside
            // `path` is read (masked-off bytes are not accessed, and read as 0).
            unsafe { _mm512_maskz_loadu_epi8(u64::MAX >> (64 - count), path.as_ptr().cast()) }
        };
        // The path's first 8, 16, 32 and 64 bytes in every slot of those widths.
        let head = _mm512_castsi512_si128(p);
        let paths = [
            _mm512_broadcastq_epi64(head),
            _mm512_broadcast_i32x4(head),
            _mm512_broadcast_i64x4(_mm512_castsi512_si256(p)),
            p,
        ];
        // The words of a row that differ from the path's (in the bytes of its strings).
        let differ = |row: &TableRow, p: __m512i| {
            // SAFETY: `TableRow` is 64-byte aligned and starts with its 64 bytes: an aligned
            // 64-byte load inside it.
            let bytes = unsafe { _mm512_load_si512(row.bytes.as_ptr().cast()) };
            let x = _mm512_maskz_mov_epi8(row.care, _mm512_xor_si512(p, bytes));
            _mm512_test_epi64_mask(x, x)
        };
        let mut found = 0u64;
        let mut start = 0;
        for (k, &end) in self.ends.iter().enumerate() {
            for row in &self.rows[start..end] {
                let same = SLOTS[k][usize::from(differ(row, paths[k]))];
                found |= u64::from(same & row.valid) << row.base;
            }
            start = end;
        }
        // A string longer than the path is no prefix of it (bytes past the path read as 0).
        found & self.upto(count)
    }
}

/// True when the processor has what [`PrefixTable::prefixes`] needs (detected once, then cached
/// by std).
#[inline]
pub(crate) fn has_table_features() -> bool {
    // The features of `BucketScan::scan` too: the tree inlines both in one function.
    has_bucket_avx512()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn same_upto64_agrees_with_eq() {
        if !has_avx512bw() {
            eprintln!("same_upto64_agrees_with_eq: not run (no AVX-512 BW here)");
            return;
        }
        for len in 0..=70usize {
            // Boxed slices of exactly `len` bytes, each its own allocation.
            let a: Box<[u8]> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            for pos in 0..=len {
                let mut b = a.to_vec();
                if pos < len {
                    b[pos] ^= 0x20;
                }
                let b = b.into_boxed_slice();
                // SAFETY: AVX-512 F and BW were detected above.
                let got = unsafe { same_upto64(&a, &b) };
                assert_eq!(got, a == b, "len {len}, differing byte {pos}");
            }
        }
    }

    #[test]
    fn byte_set_first_in_agrees_with_bytes() {
        let needle_sets: [&[u8]; 4] = [b"/", b"./?&", b"\x00/.?b", b"abcdefgh"];
        for needles in needle_sets {
            for len in 0..70 {
                for pos in 0..len.max(1) {
                    for b in [b'/', b'.', b'?', b'&', 0, b'b', b'h', b'x', 0xFF] {
                        let mut s: Vec<u8> = (0..len).map(|i| b'i' + (i % 17) as u8).collect();
                        if pos < len {
                            s[pos] = b;
                        }
                        let set = ByteSet::new(needles).unwrap();
                        for at in 0..=len + 1 {
                            let want = (at..len).find(|&i| needles.contains(&s[i])).unwrap_or(len);
                            assert_eq!(
                                set.first_in(&s, at),
                                want,
                                "needles {needles:?} len {len} pos {pos} byte {b:#x} at {at}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn path_stops_holds_every_stop_and_nothing_else() {
        let parts: [&[u8]; 9] = [
            b"ab",
            b"%D7",
            b"%e5",
            b"%41",
            b"%",
            b"#",
            b"\\",
            b"\xc3\xa9",
            b" ",
        ];
        let mut x: u64 = 9309;
        let mut checked = [0usize; 4];
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut s = b"/x".to_vec();
            for k in 0..(x % 44) as usize {
                s.extend_from_slice(parts[(x >> (k + 5)) as usize % parts.len()]);
            }
            for from in 0..s.len() {
                // The dispatch, and each variant this processor runs, wherever it applies.
                let mut found = vec![(0, path_stops(&s, from))];
                if s.len() >= 16 && s.len() - from <= 64 {
                    let (base, low) = path_stops64_sse2(&s, from);
                    found.push((1, Some((base, low, 0))));
                }
                #[cfg(target_arch = "x86_64")]
                if has_avx2() && s.len() >= 32 && s.len() - from <= 128 {
                    // SAFETY: the processor has AVX2 (tested just above).
                    found.push((2, Some(unsafe { path_stops128_avx2(&s, from) })));
                }
                #[cfg(target_arch = "x86_64")]
                if has_avx512bw() && s.len() - from <= 128 {
                    // SAFETY: the processor has AVX-512 F and BW (tested just above).
                    found.push((3, Some(unsafe { path_stops128_avx512(&s, from) })));
                }
                for (variant, stops) in found {
                    let Some((base, low, high)) = stops else {
                        assert!(s.len() < 16 || s.len() - from > path_window());
                        continue;
                    };
                    checked[variant] += 1;
                    let mask = u128::from(low) | u128::from(high) << 64;
                    for (p, &b) in s.iter().enumerate() {
                        let bit = p >= base && p - base < 128 && mask & (1 << (p - base)) != 0;
                        let stop = matches!(b, b'#' | b'\\') || needs_care(b);
                        let high_escape = b == b'%'
                            && s.get(p + 1..p + 3).is_some_and(|h| {
                                h.iter().all(|c| matches!(c, b'0'..=b'9' | b'A'..=b'F'))
                                    && h[0] >= b'8'
                            });
                        let s_ = String::from_utf8_lossy(&s);
                        if p < from {
                            assert!(!bit, "{variant} {s_:?} from {from}: {p} before it");
                        } else if bit {
                            assert!(stop, "{variant} {s_:?} from {from}: {p} is no stop");
                        } else {
                            // Only the `%` of an escape of a byte >= 0x80 already canonical may
                            // be passed over.
                            assert!(
                                !stop || high_escape,
                                "{variant} {s_:?} from {from}: stop {p} missing"
                            );
                        }
                    }
                }
            }
        }
        // Each variant met many cases (AVX2 and AVX-512 only where the processor has them).
        assert!(checked[0] > 100_000 && checked[1] > 100_000, "{checked:?}");
        #[cfg(target_arch = "x86_64")]
        assert!(!has_avx2() || checked[2] > 100_000, "{checked:?}");
        #[cfg(target_arch = "x86_64")]
        assert!(!has_avx512bw() || checked[3] > 100_000, "{checked:?}");
    }

    #[test]
    fn prefix_set_first_in_agrees_with_bytes() {
        let sets: [&[[u8; 3]]; 4] = [
            &[*b"/sp"],
            &[*b"/sp", *b"/dc", *b"/pl"],
            &[*b"/sp", *b"/dc", *b"//x", *b"ab/"],
            &[[0xFF, 0, b'/'], [0, 0xFF, 0]],
        ];
        for prefixes in sets {
            let set = PrefixSet::new(prefixes).unwrap();
            for len in 0..70 {
                for pos in 0..len.max(1) {
                    for p in [b"/sp", b"//x", b"ab/", b"\x00\xff\x00", b"/dx", b"/pl"] {
                        let mut s: Vec<u8> = (0..len).map(|i| b'c' + (i % 17) as u8).collect();
                        // A prefix at `pos` (cut short at the end of `s`), and its first two
                        // bytes alone at `pos + 4`.
                        for (k, &v) in p.iter().enumerate().chain([(4, &p[0]), (5, &p[1])]) {
                            if pos + k < len {
                                s[pos + k] = v;
                            }
                        }
                        for at in 0..=len + 1 {
                            let want = (at..(len + 1).saturating_sub(3))
                                .find(|&i| prefixes.iter().any(|p| s[i..i + 3] == *p))
                                .unwrap_or(len);
                            assert_eq!(
                                set.first_in(&s, at),
                                want,
                                "prefixes {prefixes:?} s {s:?} at {at}"
                            );
                        }
                    }
                }
            }
        }
        // `starts64`: every start, for the lengths it takes.
        for prefixes in sets {
            let set = PrefixSet::new(prefixes).unwrap();
            for len in 0..80 {
                for pos in 0..len.max(1) {
                    let mut s: Vec<u8> = (0..len).map(|i| b'c' + (i % 17) as u8).collect();
                    for (k, &v) in b"/sp/dc/pl//xab/".iter().enumerate() {
                        if (pos + k) % len.max(1) < len {
                            s[(pos + k) % len] = v;
                        }
                    }
                    let want = (0..(len + 1).saturating_sub(3))
                        .filter(|&i| prefixes.iter().any(|p| s[i..i + 3] == *p))
                        .fold(0u128, |m, i| m | 1 << i);
                    let got = set.starts64(&s);
                    if (18..=64).contains(&len) {
                        assert_eq!(got.map(u128::from), Some(want), "{prefixes:?} {s:?}");
                        // Each variant this processor runs, wherever it applies.
                        let sse2 = set.starts64_sse2(&s);
                        assert_eq!(u128::from(sse2), want, "SSE2 {prefixes:?} {s:?}");
                        #[cfg(target_arch = "x86_64")]
                        if has_avx2() && len >= 34 {
                            // SAFETY: the processor has AVX2 (tested just above).
                            let avx2 = unsafe { set.starts64_avx2(&s) };
                            assert_eq!(u128::from(avx2), want, "AVX2 {prefixes:?} {s:?}");
                        }
                    } else {
                        assert_eq!(got, None);
                    }
                }
            }
        }
        assert!(PrefixSet::new(&[*b"abc"; MAX_PREFIXES + 1]).is_none());
        assert!(PrefixSet::new(&[]).is_none());
    }

    #[test]
    fn prefetch_never_faults() {
        // Hints only: addresses outside any allocation, null included, change nothing.
        let v = [7u8; 64];
        for p in [
            v.as_ptr(),
            v.as_ptr().wrapping_add(1 << 40),
            std::ptr::null(),
            usize::MAX as *const u8,
        ] {
            prefetch(p);
        }
        assert_eq!(v, [7u8; 64]);
    }

    #[test]
    fn simd_agrees_with_bytes() {
        for len in 0..80 {
            for pos in 0..len.max(1) {
                for b in 0..=255u8 {
                    let mut s: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if pos < len {
                        s[pos] = b;
                    }
                    let want = s.iter().position(|&c| needs_care(c));
                    assert_eq!(first_care(&s), want, "len {len} pos {pos} byte {b:#x}");
                }
            }
        }
        // Short inputs are read eight bytes at a time: a byte that borrows must not hide or
        // fake another below or above it.
        let special = [
            0u8, 0x1F, 0x20, 0x21, 0x22, b'%', b'&', b'$', 0x7E, 0x7F, 0x80, 0xFF, b'a',
        ];
        for len in 0..20 {
            for p1 in 0..len {
                for p2 in 0..len {
                    for &b1 in &special {
                        for &b2 in &special {
                            let mut s: Vec<u8> = (0..len).map(|i| b'A' + i as u8).collect();
                            s[p1] = b1;
                            s[p2] = b2;
                            let want = s.iter().position(|&c| needs_care(c));
                            assert_eq!(first_care(&s), want, "{s:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn care_and_star_agree_with_bytes() {
        // A window of every length at every offset of a buffer, one special byte (or `*`)
        // inside it, one just before and one just after (which must not count), so that the
        // blocks read past the window's end and the slice fallback near the buffer's end are
        // both covered.
        let special = [0u8, 0x20, 0x21, b'%', b'*', 0x7E, 0x7F, 0x80, 0xFF, b'a'];
        for total in [24usize, 40, 70] {
            for start in 0..total {
                for end in start..=total.min(start + 40) {
                    for pos in start..end.max(start + 1) {
                        for &b in &special {
                            let mut s: Vec<u8> =
                                (0..total).map(|i| b'A' + (i % 26) as u8).collect();
                            if pos < end {
                                s[pos] = b;
                            }
                            if start > 0 {
                                s[start - 1] = b'*';
                            }
                            if end < total {
                                s[end] = 0x80;
                            }
                            let v = &s[start..end];
                            let want = (
                                v.iter().position(|&c| needs_care(c)),
                                v.iter().position(|&c| c == b'*'),
                            );
                            assert_eq!(
                                care_and_star(&s, start, end),
                                want,
                                "total {total} window {start}..{end} pos {pos} byte {b:#x}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    #[should_panic]
    fn care_and_star_panics_on_a_range_past_the_input() {
        // A start near the top of the address range must not wrap around to a small index
        // (and read the wrong bytes): the slice fallback panics on it.
        let s = [b'a'; 32];
        let start = usize::MAX - 8;
        care_and_star(&s, start, start + 4);
    }

    #[test]
    fn line_ends_agree_with_bytes() {
        // Lengths across the 64-byte blocks and past the 256 bytes looked at that way, each
        // line end at every position, with a second one after it.
        for len in 0..300 {
            for end in [b'\n', b'\r'] {
                for at in 0..len {
                    let mut s = vec![b'a'; len];
                    s[at] = end;
                    if at + 3 < len {
                        s[at + 3] = b'\n';
                    }
                    assert_eq!(find_line_end(&s), Some(at), "len {len}, at {at}");
                    assert_eq!(find_line_end(&s[..at]), None, "len {at}");
                }
            }
            assert_eq!(find_line_end(&vec![0xFF; len]), None);
        }
    }

    #[test]
    fn host_ends_agree_with_bytes() {
        for len in 0..40 {
            for pos in 0..len.max(1) {
                for b in 0..=255u8 {
                    let mut s: Vec<u8> = (0..len).map(|i| b"ab.c-d_e0z9"[i % 11]).collect();
                    if pos < len {
                        s[pos] = b;
                    }
                    let host =
                        |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit() || b"._-".contains(&c);
                    let want = s.iter().position(|&c| !host(c));
                    assert_eq!(first_not_host(&s), want, "len {len} pos {pos} byte {b:#x}");
                }
            }
        }
    }

    #[test]
    fn path_stops_agree_with_bytes() {
        let parts: [&[u8]; 10] = [
            b"%D7", b"%99", b"%e5", b"%41", b"#", b"\\", b" ", b"\xC3", b"abcdefg", b"/?;",
        ];
        let mut x: u64 = 9309;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut s = Vec::new();
            for k in 0..(x % 16) {
                s.extend_from_slice(parts[(x >> (k * 4)) as usize % parts.len()]);
            }
            let stop = |b: u8| matches!(b, b'#' | b'\\') || needs_care(b);
            assert_eq!(
                first_sep_or_stop(&s),
                s.iter()
                    .position(|&b| matches!(b, b'/' | b'?' | b';') || stop(b)),
                "{s:?}"
            );
            // A stop may be passed over only as the `%` of a canonical escape of a high byte.
            let got = first_path_stop(&s);
            if let Some(g) = got {
                assert!(stop(s[g]), "{s:?}");
            }
            for i in (0..got.unwrap_or(s.len())).filter(|&i| stop(s[i])) {
                let high = s[i..].starts_with(b"%D7") || s[i..].starts_with(b"%99");
                assert!(high, "{s:?} {got:?}");
            }
            // The same from every start, the rest looked at within the whole of `s`.
            for from in 0..=s.len() {
                let got = first_path_stop_from(&s, from);
                if let Some(g) = got {
                    assert!(g >= from && stop(s[g]), "{s:?} from {from}");
                }
                for i in (from..got.unwrap_or(s.len())).filter(|&i| stop(s[i])) {
                    let high = s[i..].starts_with(b"%D7") || s[i..].starts_with(b"%99");
                    assert!(high, "{s:?} from {from}: {got:?}");
                }
            }
        }
    }

    #[test]
    fn blocks_agree_with_bytes() {
        let special = [
            b'/', b'?', b';', b'#', b'%', b' ', 0, 0x7F, 0x80, 0xFF, b'a', b':',
        ];
        for &b in &special {
            for &b2 in &special {
                for pos in 0..16 {
                    let mut s: Vec<u8> = (0..20).map(|i| b'a' + i as u8).collect();
                    s[pos + 2] = b;
                    s[17 - pos] = b2;
                    let (mut sep, mut stop, mut pct) = (0u32, 0u32, 0u32);
                    for (i, &c) in s[2..18].iter().enumerate() {
                        sep |= u32::from(matches!(c, b'/' | b'?' | b';')) << i;
                        stop |= u32::from(matches!(c, b'#' | b'\\') || needs_care(c)) << i;
                        pct |= u32::from(c == b'%') << i;
                    }
                    assert_eq!(block16(&s, 2), (sep, stop, pct), "{b:#x} {b2:#x} {pos}");
                }
            }
        }
    }

    #[test]
    fn escape_masks_agree_with_bytes() {
        // Random blocks over the bytes that make or break an escape, at every offset.
        let alphabet = b"%%%8977AFfG0a/#";
        let mut x: u64 = 11;
        for _ in 0..50_000 {
            let s: Vec<u8> = (0..20)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    alphabet[(x % alphabet.len() as u64) as usize]
                })
                .collect();
            let at = (x >> 40) as usize % 5;
            let mut escape = 0u32;
            for i in 0..14 {
                let k = at + i;
                if s[k] == b'%'
                    && matches!(s[k + 1], b'8' | b'9' | b'A'..=b'F')
                    && matches!(s[k + 2], b'0'..=b'9' | b'A'..=b'F')
                {
                    escape |= 1 << i;
                }
            }
            assert_eq!(
                high_escapes16(&s, at),
                escape,
                "{:?} at {at}",
                String::from_utf8_lossy(&s)
            );
        }
    }

    #[test]
    fn find2_agrees_with_memchr2() {
        for len in 0..70usize {
            for pos in 0..len.max(1) {
                for pos2 in [pos, len.saturating_sub(1), pos / 2] {
                    for (x, y) in [(b'#', b'\\'), (b'\\', b'#'), (b'#', b'z'), (b'a', b'#')] {
                        let mut s: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                        if pos < len {
                            s[pos] = x;
                            s[pos2] = y;
                        }
                        assert_eq!(
                            find2(&s, b'#', b'\\'),
                            memchr::memchr2(b'#', b'\\', &s),
                            "len {len} at {pos} {pos2}"
                        );
                        for from in 0..=len {
                            assert_eq!(
                                find2_from(&s, from, b'#', b'\\'),
                                memchr::memchr2(b'#', b'\\', &s[from..]).map(|k| from + k),
                                "len {len} at {pos} {pos2} from {from}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn authority_blocks_agree_with_bytes() {
        // Every byte value at every position, beside the bytes the masks look for.
        for b in 0..=255u8 {
            for pos in 0..16 {
                let mut s: Vec<u8> = b"xx@a:Zb[Q]c@:zA_yy".to_vec();
                s[pos + 2] = b;
                let (mut at_sign, mut colon, mut upper) = (0u32, 0u32, 0u32);
                for (i, &c) in s[2..18].iter().enumerate() {
                    at_sign |= u32::from(c == b'@') << i;
                    colon |= u32::from(c == b':') << i;
                    upper |= u32::from(c.is_ascii_uppercase()) << i;
                }
                assert_eq!(
                    authority16(&s, 2),
                    (at_sign, colon, upper),
                    "{b:#x} at {pos}"
                );
            }
        }
    }

    #[test]
    fn find_agrees_with_memmem() {
        let mut x: u64 = 7;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let h = (x % 90) as usize;
            let n = ((x >> 8) % 12) as usize;
            // A small alphabet, so that needles occur, and near misses too.
            let hay: Vec<u8> = (0..h)
                .map(|i| b"ab/"[((x >> (i % 50)) % 3) as usize])
                .collect();
            let needle: Vec<u8> = (0..n)
                .map(|i| b"ab/"[((x >> (20 + i)) % 3) as usize])
                .collect();
            assert_eq!(
                find(&hay, &needle),
                memchr::memmem::find(&hay, &needle),
                "{:?} in {:?}",
                String::from_utf8_lossy(&needle),
                String::from_utf8_lossy(&hay)
            );
        }
    }

    /// Every haystack length the SIMD searches take for needles of 2 to 20 bytes (from
    /// `n + 15` for `find_sse2`, to past `SHORT_HAY` for `find_short`), the needle at every
    /// place (the last one included) or nowhere: through `find` (which picks one by length and
    /// processor) and through each search on its own.
    #[test]
    fn find_finds_a_needle_at_every_place_of_every_length() {
        for n in 2..=20usize {
            let needle: Vec<u8> = (0..n).map(|i| b'a' + (i % 7) as u8).collect();
            for h in n..=n + 140 {
                let mut hay = vec![b'-'; h];
                let check = |hay: &[u8], want: Option<usize>, at: usize| {
                    assert_eq!(find(hay, &needle), want, "n {n} h {h} at {at}");
                    #[cfg(target_arch = "x86_64")]
                    {
                        if h >= n + 15 {
                            assert_eq!(find_sse2(hay, &needle), want, "sse2: n {n} h {h} at {at}");
                        }
                        if h <= SHORT_HAY && has_avx512bw() {
                            // SAFETY: AVX-512 F and BW were detected.
                            let got = unsafe { find_short(hay, &needle) };
                            assert_eq!(got, want, "short: n {n} h {h} at {at}");
                        }
                    }
                };
                check(&hay, None, h);
                for at in 0..=h - n {
                    hay.fill(b'-');
                    // A near miss just before (its last byte wrong) must not be taken.
                    if at >= n {
                        hay[at - n..at - 1].copy_from_slice(&needle[..n - 1]);
                    }
                    hay[at..at + n].copy_from_slice(&needle);
                    check(&hay, Some(at), at);
                }
            }
        }
    }

    /// `find_short` with needles of one byte and of more than 64 (compared by `same`), up to
    /// the haystack's whole length.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn find_short_takes_needles_of_any_length() {
        if !has_avx512bw() {
            eprintln!("find_short_takes_needles_of_any_length: not run (no AVX-512 BW here)");
            return;
        }
        let mut rng = crate::testrng::Rng(41);
        for _ in 0..20_000 {
            let h = rng.below(SHORT_HAY + 1);
            let hay: Vec<u8> = (0..h).map(|_| b"ab"[rng.below(2)]).collect();
            // One byte a quarter of the time, else up to the haystack's length (past 64 too).
            let n = if rng.below(4) == 0 {
                1
            } else {
                1 + rng.below(h.max(1))
            };
            // Cut from the haystack where it fits (so it occurs), else made up; half the time
            // with its last byte changed.
            let mut needle = if n <= h {
                let at = rng.below(h - n + 1);
                hay[at..at + n].to_vec()
            } else {
                vec![b'a'; n]
            };
            if rng.below(2) == 0 {
                needle[n - 1] = b'/';
            }
            // SAFETY: AVX-512 F and BW were detected above.
            let got = unsafe { find_short(&hay, &needle) };
            assert_eq!(
                got,
                memchr::memmem::find(&hay, &needle),
                "h {h} n {}",
                needle.len()
            );
        }
    }

    #[test]
    fn line_masks_agree_with_bytes() {
        let special = [b'\n', b'\r', b'#', 0, b':', b'a', b' '];
        let mut x: u64 = 3;
        for _ in 0..5_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 150) as usize;
            let s: Vec<u8> = (0..len)
                .map(|i| special[((x >> (i % 60)) % 7) as usize])
                .collect();
            for at in (0..len.max(1)).step_by(7) {
                let mut want = LineMasks::default();
                for (i, &b) in s.iter().enumerate().skip(at).take(64) {
                    let bit = 1u64 << (i - at);
                    match b {
                        b'\n' | b'\r' => want.eol |= bit,
                        b'#' | 0 => want.cut |= bit,
                        b':' => want.colon |= bit,
                        _ => {}
                    }
                }
                assert_eq!(line_masks(&s, at), want, "len {len} at {at}");
            }
        }
    }

    #[test]
    fn first_of_several() {
        let s = b"/abcdefghijklmnopqrstuv%41wxyz%2f\x80";
        assert_eq!(first_care(s), Some(23));
        assert_eq!(first_care(&s[24..]), Some(6));
        assert_eq!(first_care(b"/abcdefghijklmnopqrstuvwxyz0123456789"), None);
    }

    /// Every bucket's search against `find`, for pieces of one to five bytes from a small
    /// alphabet (so that they occur, overlap and share buckets' bytes), in paths of every
    /// length up to the window, from every position, with each set of instructions the
    /// processor has; bytes `>= 0x80` in paths alias ASCII ones in the AVX-512 tables and must
    /// not be found. Where the processor has neither, `build` must say so by returning `None`
    /// (and the tree then searches without buckets).
    #[test]
    fn bucket_scan_finds_what_find_finds() {
        let alphabet = b"ab/?\xE1";
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let isas: Vec<BucketIsa> = [
            has_bucket_avx512().then_some(BucketIsa::Avx512),
            has_bucket_avx2().then_some(BucketIsa::Avx2),
        ]
        .into_iter()
        .flatten()
        .collect();
        let (mut scans, mut wide) = (0, 0);
        for round in 0..600 {
            let count = 1 + (next() % BUCKET_PIECES as u64) as usize;
            let pieces: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let len = 1 + (next() % 5) as usize;
                    (0..len).map(|_| alphabet[(next() % 4) as usize]).collect()
                })
                .collect();
            let refs: Vec<&[u8]> = pieces.iter().map(|p| &p[..]).collect();
            if isas.is_empty() {
                // Neither set of instructions: no scan for either.
                assert!(!has_bucket_features());
                assert!(BucketScan::build(&refs, BucketIsa::Avx512).is_none());
                assert!(BucketScan::build(&refs, BucketIsa::Avx2).is_none());
                return;
            }
            let len = round % (BUCKET_WINDOW + 1);
            // `\xE1` is `a` in the AVX-512 tables' low 7 bits: a false candidate, never a hit.
            let path: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            #[cfg(target_arch = "x86_64")]
            for &isa in &isas {
                let scan = BucketScan::build(&refs, isa).expect("build refused ASCII pieces");
                assert_eq!(scan.isa(), isa);
                // Per scan (all sets, then few where they fit): what it says is present, and
                // its search for bucket `b` from `from`.
                type Search<'a> = Box<dyn Fn(usize, &[u8], usize) -> Option<usize> + 'a>;
                // Room for the AVX2 scans' blocks, which their hits borrow.
                let mut room_all = BucketHits2::<BUCKET_SETS>::blocks();
                let mut room_few = BucketHits2::<FEW_SETS>::blocks();
                let mut runs: Vec<([u64; 2], Search)> = Vec::new();
                let few = scan.has_few_sets();
                // SAFETY (every block below): `build` returned a scan for `isa`, so the
                // processor has the features of that scan's functions.
                match isa {
                    BucketIsa::Avx512 => {
                        let all = unsafe { scan.scan::<BUCKET_SETS>(&path) };
                        let (scan, path) = (&scan, &path);
                        runs.push((
                            all.present(),
                            Box::new(move |b, p, from| unsafe {
                                scan.first(&all, b, p, path, from)
                            }),
                        ));
                        if few {
                            let f = unsafe { scan.scan::<FEW_SETS>(path) };
                            runs.push((
                                f.present(),
                                Box::new(move |b, p, from| unsafe {
                                    scan.first(&f, b, p, path, from)
                                }),
                            ));
                        }
                        check_runs(&runs, &pieces, path, len);
                    }
                    BucketIsa::Avx2 => {
                        let all = unsafe { scan.scan_avx2::<BUCKET_SETS>(&path, &mut room_all) };
                        let (scan, path) = (&scan, &path);
                        runs.push((
                            all.present(),
                            Box::new(move |b, p, from| unsafe {
                                scan.first_avx2(&all, b, p, path, from)
                            }),
                        ));
                        if few {
                            let f = unsafe { scan.scan_avx2::<FEW_SETS>(path, &mut room_few) };
                            runs.push((
                                f.present(),
                                Box::new(move |b, p, from| unsafe {
                                    scan.first_avx2(&f, b, p, path, from)
                                }),
                            ));
                        }
                        check_runs(&runs, &pieces, path, len);
                    }
                }
                scans += 1;
                wide += usize::from(pieces.len() > 64);
            }
        }
        // Scans of more than 64 pieces (buckets in both words of `present`) were checked.
        assert!(
            scans > 0 && wide > 0,
            "{scans} scans, {wide} of more than 64 pieces"
        );
    }

    /// The checks of [`bucket_scan_finds_what_find_finds`] for one path's scans (`runs`: what
    /// each says is present, and its search).
    #[allow(clippy::type_complexity)]
    fn check_runs(
        runs: &[(
            [u64; 2],
            Box<dyn Fn(usize, &[u8], usize) -> Option<usize> + '_>,
        )],
        pieces: &[Vec<u8>],
        path: &[u8],
        len: usize,
    ) {
        for (present, search) in runs {
            assert_eq!(*present, runs[0].0, "{pieces:?} in {path:?}");
            for (b, piece) in pieces.iter().enumerate() {
                let occurs = find(path, piece).is_some();
                assert!(
                    !occurs || present[b / 64] & (1 << (b % 64)) != 0,
                    "bucket {b} ({piece:?}) not present in {path:?}"
                );
                for from in 0..=len + 1 {
                    let want = path
                        .get(from..)
                        .and_then(|h| find(h, piece))
                        .map(|i| from + i);
                    let got = search(b, piece, from);
                    assert_eq!(got, want, "piece {piece:?} in {path:?} from {from}");
                }
            }
        }
    }

    /// [`gram_start`] with [`gram_holders`] picks the first three bytes of a piece that the
    /// fewest other distinct pieces contain, as counting them piece by piece does.
    #[test]
    fn gram_start_picks_the_least_shared_gram() {
        let mut rng = crate::testrng::Rng(0x9E37_79B9_7F4A_7C15);
        let alphabet = b"/ab?=";
        for _ in 0..2000 {
            let count = 1 + rng.below(12);
            let pieces: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    let len = 1 + rng.below(9);
                    (0..len)
                        .map(|_| alphabet[rng.below(alphabet.len())])
                        .collect()
                })
                .collect();
            let refs: Vec<&[u8]> = pieces.iter().map(|p| &p[..]).collect();
            let holders = gram_holders(&refs);
            for &piece in &refs {
                let want = if piece.len() <= 3 {
                    0
                } else {
                    let shared = |k: usize| {
                        let gram = &piece[k..k + 3];
                        refs.iter()
                            .filter(|&&p| p != piece && p.windows(3).any(|w| w == gram))
                            .count()
                    };
                    (0..=piece.len() - 3)
                        .min_by_key(|&k| (shared(k), k))
                        .unwrap() as u8
                };
                assert_eq!(
                    gram_start(piece, &holders),
                    want,
                    "{piece:?} among {refs:?}"
                );
            }
        }
    }

    /// [`PrefixTable::prefixes`] against `starts_with`: strings of every slot width (0 to 64
    /// bytes, zero bytes included, which the path's padding must not pass for), paths shorter
    /// and longer than the 64 bytes loaded; a table is built exactly when its rows fit.
    #[test]
    fn a_prefix_table_finds_the_prefixes() {
        let mut rng = crate::testrng::Rng(0x2545_F491_4F6C_DD1D);
        let mut below = |n: usize| rng.below(n);
        let alphabet = [b'/', b'a', b'b', 0];
        let mut built = 0;
        for round in 0..600 {
            // Every other set short enough to fit in the rows.
            let count = 1 + below(if round % 2 == 0 { TABLE_STRINGS } else { 16 });
            let base: Vec<u8> = (0..TABLE_LEN + 20).map(|_| alphabet[below(2)]).collect();
            let mut strings: Vec<Vec<u8>> = (0..count)
                .map(|_| {
                    // Mostly prefixes of one string, so that many match.
                    let len = below(if round % 4 == 1 { 17 } else { TABLE_LEN + 1 });
                    let mut s = base[..len].to_vec();
                    if len > 0 && below(3) == 0 {
                        s[below(len)] = alphabet[below(4)];
                    }
                    s
                })
                .collect();
            strings.sort_by_key(Vec::len);
            let refs: Vec<&[u8]> = strings.iter().map(|s| &s[..]).collect();
            // Rows of 8 slots of 8 bytes, 4 of 16, 2 of 32, 1 of 64.
            let rows: usize = (0..4)
                .map(|k| {
                    let (shortest, width) = (if k == 0 { 0 } else { (4 << k) + 1 }, 8 << k);
                    let n = refs
                        .iter()
                        .filter(|s| (shortest..=width).contains(&s.len()));
                    n.count().div_ceil(8 >> k)
                })
                .sum();
            let Some(table) = PrefixTable::build(&refs) else {
                assert!(
                    !has_table_features() || rows > TABLE_ROWS,
                    "build refused {refs:?}"
                );
                continue;
            };
            assert!(rows <= TABLE_ROWS);
            built += 1;
            for _ in 0..40 {
                let len = below(TABLE_LEN + 20);
                let mut path = base[..len].to_vec();
                if len > 0 && below(2) == 0 {
                    path[below(len)] = alphabet[below(4)];
                }
                let want = refs
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| path.starts_with(s))
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                // SAFETY: the table exists, so the processor has the features.
                #[cfg(target_arch = "x86_64")]
                assert_eq!(unsafe { table.prefixes(&path) }, want, "{refs:?} {path:?}");
                let exact = refs
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.len() == path.len())
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                assert_eq!(table.exactly(path.len()), exact);
            }
        }
        assert!(
            built == 0 && !has_table_features() || built >= 150,
            "{built} built"
        );
        let too_many: Vec<&[u8]> = vec![b"/"; TABLE_STRINGS + 1];
        assert!(PrefixTable::build(&too_many).is_none());
        let too_long = [0u8; TABLE_LEN + 1];
        assert!(PrefixTable::build(&[&too_long[..]]).is_none());
        assert!(
            PrefixTable::build(&[&b"/ab"[..], &b"/a"[..]]).is_none(),
            "unordered"
        );
    }
}
