//! Canonical percent-encoding of patterns and paths, and path extraction from URLs.
//!
//! RFC 9309 §2.2.2 compares a rule's path with the URL's path after putting both into one
//! percent-encoded form. This module defines that form (see [`canonicalize`]) and extracts the
//! part of a URL that rules are matched against (see [`path_and_query`], which takes it from
//! [`crate::url::split`]).
//!
//! The canonical form, applied byte by byte:
//!
//! | input                                   | output               |
//! |-----------------------------------------|----------------------|
//! | a byte `>= 0x80`, `<= 0x20` or `0x7F`   | `%XX` (upper-case)   |
//! | `%xx` of an unreserved character        | the character itself |
//! | `%xx` of any other byte                 | `%XX` (upper-case)   |
//! | a `%` not followed by two hex digits    | `%25`                |
//! | anything else                           | unchanged            |
//!
//! Unreserved characters are `A-Z a-z 0-9 - . _ ~` (RFC 3986 §2.3). Decoding only those keeps
//! encoded reserved characters distinct: `/a%2Fb` never equals `/a/b`, `%3F` never equals `?`.
//! Encoding a lone `%` as `%25` makes the form idempotent: canonicalising a canonical string
//! returns it unchanged.
//!
//! Both functions borrow their input when nothing has to change, which is the common case for
//! real URLs, so the hot path of a decision does not allocate.
#![forbid(unsafe_code)]

use std::borrow::Cow;

/// What [`canonicalize`] does with one byte that is not part of a `%XX` escape.
const ENCODE: u8 = 1;
/// The byte is `%`: it may start an escape.
const PERCENT: u8 = 2;

/// Per-byte class: 0 = keep, [`ENCODE`] = percent-encode, [`PERCENT`] = escape start.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = if i == b'%' as usize {
            PERCENT
        } else if i <= 0x20 || i >= 0x7F {
            ENCODE
        } else {
            0
        };
        i += 1;
    }
    t
};

/// Returns true for the RFC 3986 unreserved characters, whose escapes are decoded.
#[inline]
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// The value of one ASCII hex digit.
#[inline]
fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes the escape `%hh` starting at `s[i]` (which must be `%`), if it is one.
#[inline]
fn escape_at(s: &[u8], i: usize) -> Option<u8> {
    let hi = hex_val(*s.get(i + 1)?)?;
    let lo = hex_val(*s.get(i + 2)?)?;
    Some(hi << 4 | lo)
}

/// Returns true when the escape at `s[i]` is already in canonical form: upper-case hex of a
/// byte that is not unreserved.
#[inline]
fn escape_is_canonical(s: &[u8], i: usize) -> Option<bool> {
    let v = escape_at(s, i)?;
    let upper = !s[i + 1].is_ascii_lowercase() && !s[i + 2].is_ascii_lowercase();
    Some(upper && !is_unreserved(v))
}

/// Puts `input` into the canonical percent-encoded form described in the module docs.
///
/// Borrows `input` when it is already canonical.
///
/// ```
/// use robotsmatch::canon::canonicalize;
///
/// assert_eq!(canonicalize("/商品/".as_bytes()), &b"/%E5%95%86%E5%93%81/"[..]);
/// assert_eq!(canonicalize(b"/%e5%95%86%E5%93%81/"), &b"/%E5%95%86%E5%93%81/"[..]);
/// assert_eq!(canonicalize(b"/%7Euser"), &b"/~user"[..]);
/// assert_eq!(canonicalize(b"/a%2fb"), &b"/a%2Fb"[..]);
/// ```
pub fn canonicalize(input: &[u8]) -> Cow<'_, [u8]> {
    let Some(first) = first_change(input) else {
        return Cow::Borrowed(input);
    };
    let mut out = Vec::with_capacity(input.len() + 16);
    out.extend_from_slice(&input[..first]);
    canonicalize_from(input, first, &mut out);
    Cow::Owned(out)
}

/// Like [`canonicalize`], but appends to `out` (cleared first) instead of allocating.
pub fn canonicalize_into(input: &[u8], out: &mut Vec<u8>) {
    if !canonicalize_if_needed(input, out) {
        out.clear();
        out.extend_from_slice(input);
    }
}

/// Writes the canonical form of `input` into `out` (cleared first) and returns true, unless
/// `input` is already canonical: then returns false and leaves `out` alone. One scan where
/// [`is_canonical`] then [`canonicalize_into`] would read the unchanged prefix twice.
pub fn canonicalize_if_needed(input: &[u8], out: &mut Vec<u8>) -> bool {
    match crate::bytescan::first_care(input) {
        Some(care) => canonicalize_if_needed_from(input, care, out),
        None => false,
    }
}

/// [`canonicalize_if_needed`] for an input whose first byte that needs care
/// ([`crate::bytescan::needs_care`]) is known to be at `care`: the bytes before it are not
/// looked at again.
#[inline]
pub(crate) fn canonicalize_if_needed_from(input: &[u8], care: usize, out: &mut Vec<u8>) -> bool {
    let Some(first) = first_change_from(input, care) else {
        return false;
    };
    out.clear();
    out.extend_from_slice(&input[..first]);
    canonicalize_from(input, first, out);
    true
}

/// Returns true when [`canonicalize`] would return its input unchanged.
pub fn is_canonical(input: &[u8]) -> bool {
    first_change(input).is_none()
}

/// The index of the first byte that canonicalisation changes, if any.
#[inline]
fn first_change(input: &[u8]) -> Option<usize> {
    // PERF: most bytes need no change; a SIMD scan finds the next byte that might (this scan
    // was 29% of a decision as a byte loop). After a canonical escape, scan on.
    first_change_from(input, crate::bytescan::first_care(input)?)
}

/// [`first_change`] given the first byte of `input` that needs care, `i`.
#[inline]
fn first_change_from(input: &[u8], mut i: usize) -> Option<usize> {
    loop {
        match CLASS[input[i] as usize] {
            ENCODE => return Some(i),
            _ => match escape_is_canonical(input, i) {
                Some(true) => i += 3,
                _ => return Some(i),
            },
        }
        // PERF: after an escape, more may follow (`%C3%84`: non-ASCII text, which Wikipedia
        // rules are full of): the canonical escapes of bytes >= 0x80 are passed over 16 bytes
        // at a time rather than one trip through this loop each. That scan also stops at `#`
        // and `\\` (for a URL's path), which stay as they are here.
        loop {
            i += crate::bytescan::first_path_stop(&input[i..])?;
            if !matches!(input[i], b'#' | b'\\') {
                break;
            }
            i += 1;
        }
    }
}

/// Canonicalises `input[start..]`, appending to `out`.
fn canonicalize_from(input: &[u8], start: usize, out: &mut impl Out) {
    let mut i = start;
    while i < input.len() {
        let b = input[i];
        match CLASS[b as usize] {
            0 => {
                // PERF: copy the whole run of bytes kept as they are (a byte at a time, this
                // loop was half the cost of a URL with an early escape).
                let run = crate::bytescan::first_care(&input[i..]).unwrap_or(input.len() - i);
                out.extend_from_slice(&input[i..i + run]);
                i += run;
            }
            ENCODE => {
                push_escape(out, b);
                i += 1;
            }
            _ => match escape_at(input, i) {
                Some(v) if is_unreserved(v) => {
                    out.push(v);
                    i += 3;
                }
                Some(v) => {
                    push_escape(out, v);
                    i += 3;
                }
                None => {
                    push_escape(out, b'%');
                    i += 1;
                }
            },
        }
    }
}

/// Where canonical bytes are written: a `Vec`, or a buffer on the stack.
trait Out {
    fn push(&mut self, b: u8);
    fn extend_from_slice(&mut self, s: &[u8]);
}

impl Out for Vec<u8> {
    #[inline]
    fn push(&mut self, b: u8) {
        Vec::push(self, b);
    }
    #[inline]
    fn extend_from_slice(&mut self, s: &[u8]) {
        Vec::extend_from_slice(self, s);
    }
}

/// A buffer on the stack for a canonical path of up to [`STACK_PATH`] bytes.
struct StackPath {
    buf: [u8; STACK_PATH],
    len: usize,
}

/// The longest canonical path written on the stack (canonicalisation at most triples a
/// path, plus the `/` it may put in front).
const STACK_PATH: usize = 384;

impl Out for StackPath {
    #[inline]
    fn push(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }
    #[inline]
    fn extend_from_slice(&mut self, s: &[u8]) {
        self.buf[self.len..self.len + s.len()].copy_from_slice(s);
        self.len += s.len();
    }
}

/// Appends `%XX` (upper-case hex) for `b`.
#[inline]
fn push_escape(out: &mut impl Out, b: u8) {
    out.extend_from_slice(percent_encoding::percent_encode_byte(b).as_bytes());
}

/// Extracts what rules are matched against from an absolute URL or a bare path: the path,
/// params and query, without the fragment. An empty path is `/`.
///
/// This follows Google's `GetPathParamsQuery`: a leading `//` is skipped, `scheme://` is
/// recognised only before the first `/`, `?` or `;`, and a result starting with `?` or `;` gets
/// a `/` in front (`http://a.com?x` gives `/?x`). Text without any `/`, `?` or `;` after the
/// authority gives `/`. One difference, as browsers read URLs: a `\` ends the authority, and
/// every `\` before the query is read as `/` (`http://a.com\private` gives `/private`).
///
/// It is [`crate::url::split`]'s path, so it always agrees with the host that function gives.
///
/// ```
/// use robotsmatch::canon::path_and_query;
///
/// assert_eq!(path_and_query(b"https://example.com/a/b?c=d#frag"), &b"/a/b?c=d"[..]);
/// assert_eq!(path_and_query(b"https://example.com"), &b"/"[..]);
/// assert_eq!(path_and_query(b"http://example.com?x=1"), &b"/?x=1"[..]);
/// assert_eq!(path_and_query(b"/bare/path?q"), &b"/bare/path?q"[..]);
/// assert_eq!(path_and_query(b"http://example.com\\private"), &b"/private"[..]);
/// ```
pub fn path_and_query(url: &[u8]) -> Cow<'_, [u8]> {
    crate::url::split(url).path_and_query()
}

/// Where [`path_and_query`] of a URL is, and the first byte of it that canonicalisation
/// changes: found in one pass over the URL (see [`crate::bytescan::block16`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Located {
    /// The path is `/` (no path, or a `#` before it).
    Root,
    /// The URL holds a `\` before its fragment: [`crate::url::split`] reads it (rare).
    Slow,
    /// The path is `url[start..end]`, with a `/` in front when `slash`; `change` is the index in
    /// `url` of its first byte that canonicalisation changes.
    Span {
        start: usize,
        end: usize,
        slash: bool,
        change: Option<usize>,
    },
}

/// Finds [`path_and_query`] of `url` and its first byte to canonicalise, with the same rules,
/// 16 bytes at a time (see [`crate::bytescan::block16`]). A URL with a `\` before its
/// fragment is left to [`crate::url::split`], which reads `\` as browsers do.
#[inline]
fn locate(url: &[u8]) -> Located {
    // PERF: nearly every URL a crawler checks starts with `http://` or `https://`; for those
    // the authority ends at its first separator, and the path needs only its stops looked at
    // (instructions per URL: a-tiny 923 -> 818, c-literal 1,129 -> 946). A bare path (`/a?b`,
    // one `/` first: `locate_any` would find its path at its first byte) needs only those
    // stops (through `locate_any`, b-shop's URLs cut to their paths took 33.2 ns per URL
    // against one rule, 4 ns more than the same URLs whole).
    let fast = match url {
        [b'/', rest @ ..] if rest.first() != Some(&b'/') => locate_http_path(url, 0),
        _ => locate_http(url),
    };
    fast.unwrap_or_else(|| locate_any(url))
}

/// [`locate`] for a URL that starts with `http://` or `https://`, in three searches: the end of
/// the authority, the first byte of the path that is not already canonical, and the fragment
/// after it. `None` when the URL does not start so, or holds a `\` before its fragment (both
/// for [`locate_any`]).
#[inline]
fn locate_http(url: &[u8]) -> Option<Located> {
    use crate::bytescan::first_sep_or_stop;
    let host = if url.starts_with(b"https://") {
        8
    } else if url.starts_with(b"http://") {
        7
    } else {
        return None;
    };
    // The end of the authority: bytes that need care there (`%`, non-ASCII) change nothing.
    let mut i = host;
    let start = loop {
        let Some(k) = first_sep_or_stop(&url[i..]) else {
            return Some(Located::Root);
        };
        match url[i + k] {
            b'/' | b'?' | b';' => break i + k,
            b'#' => return Some(Located::Root),
            b'\\' => return None,
            _ => i += k + 1,
        }
    };
    locate_http_path(url, start)
}

/// The rest of [`locate_http`] once the authority ends at `start` (`url[start]` is `/`, `?` or
/// `;`); also a bare path's whole reading, from 0.
#[inline]
fn locate_http_path(url: &[u8], start: usize) -> Option<Located> {
    use crate::bytescan::{find2_from, first_path_stop_from, path_stops};
    let n = url.len();
    let slash = url[start] != b'/';
    let span = |end, change| {
        Some(Located::Span {
            start,
            end,
            slash,
            change,
        })
    };
    // The first byte that canonicalisation changes, or the end of the path.
    let stop = match path_stops(url, start) {
        // A short path (see `path_stops`): its stops in one word, or two.
        Some(words) => first_stop(url, words),
        None if n - start > 64 => long_path_stop(url, start),
        // A text shorter than 16 bytes: one stop at a time.
        None => {
            let mut i = start;
            loop {
                let Some(p) = first_path_stop_from(url, i) else {
                    break None;
                };
                match url[p] {
                    b'#' => break Some(Stop::Hash(p)),
                    b'\\' => break Some(Stop::Backslash),
                    b'%' if escape_is_canonical(url, p) == Some(true) => i = p + 3,
                    _ => break Some(Stop::Change(p)),
                }
            }
        }
    };
    let change = match stop {
        None => return span(n, None),
        Some(Stop::Change(p)) => p,
        Some(Stop::Hash(p)) => return span(p, None),
        Some(Stop::Backslash) => return None,
    };
    // After it, only the fragment and `\` matter.
    match find2_from(url, change, b'#', b'\\') {
        None => span(n, Some(change)),
        Some(k) if url[k] == b'#' => span(k, Some(change)),
        Some(_) => None,
    }
}

/// The first stop of a path that matters to [`locate_http_path`].
enum Stop {
    /// The first byte that canonicalisation changes.
    Change(usize),
    /// A `#`: the path ends there, and nothing before it changes.
    Hash(usize),
    /// A `\` before the fragment.
    Backslash,
}

/// The first stop that matters among the stops `(base, low, high)` of
/// [`crate::bytescan::path_stops`] (the `%` of an escape already canonical does not); `None`
/// when none does.
#[inline(always)]
fn first_stop(url: &[u8], (mut base, mut stops, mut high): (usize, u64, u64)) -> Option<Stop> {
    loop {
        if stops == 0 {
            if high == 0 {
                return None;
            }
            (base, stops, high) = (base + 64, high, 0);
            continue;
        }
        let p = base + stops.trailing_zeros() as usize;
        stops &= stops - 1;
        match url[p] {
            b'#' => return Some(Stop::Hash(p)),
            b'\\' => return Some(Stop::Backslash),
            // Its hex digits are not stops (they may lie in the next window of a long path).
            b'%' if escape_is_canonical(url, p) == Some(true) => {}
            _ => return Some(Stop::Change(p)),
        }
    }
}

/// [`first_stop`] for a path of more than 64 bytes that [`crate::bytescan::path_stops`] does
/// not take whole: its stops 64 bytes at a time.
// PERF: a call of its own (paths this long are rare; inlined, a-tiny's decisions were 2 ns
// slower). Before, such a path was looked at one stop at a time, a new search from each: 2 KB
// of escapes already canonical (`%25%2541%2F`, the hostile file `nested-percent-encoding`)
// took 4.9 us, and 2.1 us this way (`speed`, pinned, fastest of 3).
#[inline(never)]
fn long_path_stop(url: &[u8], start: usize) -> Option<Stop> {
    let n = url.len();
    let mut i = start;
    while i < n {
        // A window of 64 bytes (the last one of the rest, at most) in a text of more than 64:
        // `path_stops` takes it with any instructions.
        let end = n.min(i + 64);
        let Some(words) = crate::bytescan::path_stops(&url[..end], i) else {
            // (Not reached.) Everything before `i` is canonical: canonicalising from `i` on
            // is right.
            return Some(Stop::Change(i));
        };
        if let Some(stop) = first_stop(url, words) {
            return Some(stop);
        }
        i = end;
    }
    None
}

/// [`locate`] for any URL: one pass over it with the masks of [`crate::bytescan::block16`].
#[inline]
fn locate_any(url: &[u8]) -> Located {
    let skip = if url.starts_with(b"//") { 2 } else { 0 };
    let rest = &url[skip..];
    let n = rest.len();
    // Before the first separator (0), before the path (1), in the path (2).
    let mut phase = 0;
    let mut after_scheme = 0;
    let mut path_start = 0;
    // The first `#`, and the first byte that canonicalisation changes.
    let mut hash: Option<usize> = None;
    let mut change: Option<usize> = None;
    // Bytes before `done` were looked at (an escape already canonical moves it on by 3).
    let mut done = 0;
    while done < n && hash.is_none() {
        // The 16 bytes from `done` (or the last 16 of a longer input); `bit(i)` is `rest[at + i]`.
        let (at, (mut sep, mut stop)) = if done + 16 <= n {
            let (sep, mut stop, pct) = crate::bytescan::block16(rest, done);
            if pct.count_ones() >= 2 {
                // PERF: two escapes or more in 16 bytes (`%D7%99`: Hebrew, CJK, ... text):
                // those of bytes >= 0x80 already canonical are not stops; each cost a trip
                // through the loop below (Hebrew Wikipedia paths: 216 -> 123 ns per URL).
                stop &= !crate::bytescan::high_escapes16(rest, done);
            }
            (done, (sep, stop))
        } else if n >= 16 {
            let at = n - 16;
            let (sep, stop, _) = crate::bytescan::block16(rest, at);
            let keep = !((1u32 << (done - at)) - 1);
            (at, (sep & keep, stop & keep))
        } else {
            let mut sep = 0;
            let mut stop = 0;
            for (i, &b) in rest[done..].iter().enumerate() {
                sep |= u32::from(matches!(b, b'/' | b'?' | b';')) << (done + i);
                stop |= u32::from(matches!(b, b'#' | b'\\') || crate::bytescan::needs_care(b))
                    << (done + i);
            }
            (0, (sep, stop))
        };
        let block_end = at + 16;
        while phase < 2 && sep != 0 {
            let p = at + sep.trailing_zeros() as usize;
            sep &= sep - 1;
            if phase == 0 {
                // Google takes the first "://" if it starts before the first separator; its
                // `/` would itself be a separator, so it can only start just before it.
                after_scheme = if p > 0 && rest[p - 1..].starts_with(b"://") {
                    p + 2
                } else {
                    0
                };
                phase = 1;
            }
            if phase == 1 && p >= after_scheme {
                path_start = p;
                phase = 2;
            }
        }
        while stop != 0 {
            let p = at + stop.trailing_zeros() as usize;
            stop &= stop - 1;
            if rest[p] == b'#' {
                hash = Some(p);
                break;
            }
            if rest[p] == b'\\' {
                return Located::Slow;
            }
            if phase < 2 || change.is_some() || (phase == 2 && p < path_start) {
                continue;
            }
            if p < done {
                // Part of an escape already read.
                continue;
            }
            if rest[p] == b'%' && escape_is_canonical(rest, p) == Some(true) {
                done = done.max(p + 3);
            } else {
                change = Some(p);
            }
        }
        done = done.max(block_end.min(n));
    }
    if phase < 2 || hash.is_some_and(|h| h < path_start) {
        // No path, or a `#` in the authority: the path is empty.
        return Located::Root;
    }
    let end = hash.unwrap_or(n);
    Located::Span {
        start: skip + path_start,
        end: skip + end,
        slash: rest[path_start] != b'/',
        change: change.filter(|&c| c < end).map(|c| skip + c),
    }
}

/// Extracts the path and query of `url` and canonicalises it: the string rules are matched
/// against. Borrows from `url` when possible.
///
/// ```
/// use robotsmatch::canon::canonical_path;
///
/// assert_eq!(canonical_path("https://example.com/商品?q=%7e#x".as_bytes()),
///            &b"/%E5%95%86%E5%93%81?q=~"[..]);
/// ```
pub fn canonical_path(url: &[u8]) -> Cow<'_, [u8]> {
    match locate(url) {
        Located::Root => Cow::Borrowed(b"/"),
        Located::Slow => crate::url::split(url).canonical_path(),
        Located::Span {
            start,
            end,
            slash: false,
            change: None,
        } => Cow::Borrowed(&url[start..end]),
        Located::Span {
            start,
            end,
            slash,
            change,
        } => {
            let mut out = Vec::with_capacity(end - start + 16);
            write_canonical(url, start, end, slash, change, &mut out);
            Cow::Owned(out)
        }
    }
}

/// Writes the canonical path of `url[start..end]` (after a `/` when `slash`) into `out`.
fn write_canonical(
    url: &[u8],
    start: usize,
    end: usize,
    slash: bool,
    change: Option<usize>,
    out: &mut impl Out,
) {
    if slash {
        out.push(b'/');
    }
    let path = &url[start..end];
    match change {
        None => out.extend_from_slice(path),
        Some(c) => {
            out.extend_from_slice(&path[..c - start]);
            canonicalize_from(path, c - start, out);
        }
    }
}

/// Calls `f` with the canonical path of `url` (see [`canonical_path`]) without allocating
/// for paths that are already canonical or short: a path that needs a change is written into a
/// buffer on the stack (or, when it could be longer than 384 bytes, on the heap).
#[inline]
pub fn with_canonical_path<R>(url: &[u8], f: impl FnOnce(&[u8]) -> R) -> R {
    with_located(url, locate(url), f)
}

/// [`with_canonical_path`] for a URL whose host [`crate::url::ordinary_host`] found, given the
/// end of that host (`host.end` of the range it returned): the path is read from there, without
/// scanning the scheme and the authority again (what a bulk job that has already looked up the
/// host wants). The same path as [`with_canonical_path`] for that URL; when `host_end` is not
/// where an authority can end (not before a `/`, `?`, `;`, `#` or at the URL's end), the whole
/// URL is read as [`with_canonical_path`] reads it.
///
/// ```
/// use robotsmatch::canon::with_canonical_path_after_host;
/// use robotsmatch::url::ordinary_host;
///
/// let url = b"https://example.com/caf%c3%a9?q#top";
/// let (host, _port) = ordinary_host(url).unwrap();
/// let path = with_canonical_path_after_host(url, host.end, |p| p.to_vec());
/// assert_eq!(path, b"/caf%C3%A9?q");
/// ```
#[inline]
pub fn with_canonical_path_after_host<R>(
    url: &[u8],
    host_end: usize,
    f: impl FnOnce(&[u8]) -> R,
) -> R {
    let located = match url.get(host_end) {
        None if host_end == url.len() => Some(Located::Root),
        Some(b'#') => Some(Located::Root),
        Some(b'/' | b'?' | b';') => locate_http_path(url, host_end),
        _ => None,
    };
    with_located(url, located.unwrap_or_else(|| locate(url)), f)
}

/// Calls `f` with the canonical path of `url`, [`locate`]d as `located`.
#[inline]
fn with_located<R>(url: &[u8], located: Located, f: impl FnOnce(&[u8]) -> R) -> R {
    match located {
        Located::Root => f(b"/"),
        Located::Slow => f(&crate::url::split(url).canonical_path()),
        Located::Span {
            start,
            end,
            slash: false,
            change: None,
        } => f(&url[start..end]),
        Located::Span {
            start,
            end,
            slash,
            change,
        } => {
            // PERF: a path that needs a change is written on the stack when short enough
            // (paths full of lower-case escapes made this an allocation per URL).
            if (end - start) * 3 < STACK_PATH {
                let mut out = StackPath {
                    buf: [0; STACK_PATH],
                    len: 0,
                };
                write_canonical(url, start, end, slash, change, &mut out);
                f(&out.buf[..out.len])
            } else {
                let mut out = Vec::with_capacity((end - start) * 3 + 1);
                write_canonical(url, start, end, slash, change, &mut out);
                f(&out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> String {
        String::from_utf8(canonicalize(s.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(c("/plain/path?q=1"), "/plain/path?q=1");
        assert_eq!(c("/%41%42"), "/AB");
        assert_eq!(c("/%2f%3f%2F"), "/%2F%3F%2F");
        assert_eq!(c("/a b"), "/a%20b");
        assert_eq!(c("/é"), "/%C3%A9");
        assert_eq!(c("/%c3%a9"), "/%C3%A9");
        assert_eq!(c("/100%"), "/100%25");
        assert_eq!(c("/%zz"), "/%25zz");
        assert_eq!(c("/%4"), "/%254");
        assert_eq!(c("%%414"), "%25A4");
        assert_eq!(c("/\x7f\x00"), "/%7F%00");
        assert_eq!(c("/%7e%7E~"), "/~~~");
    }

    #[test]
    fn borrows_when_clean() {
        assert!(matches!(canonicalize(b"/a/b?c=%2F"), Cow::Borrowed(_)));
        assert!(matches!(canonicalize(b"/a%2f"), Cow::Owned(_)));
        assert!(matches!(
            canonical_path(b"http://x.org/a?b#c"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn idempotent_on_tricky_inputs() {
        for s in [
            "%%414",
            "%25%34%31",
            "%%%",
            "%2%41",
            "/%e5%95",
            "%7",
            "%%7e",
        ] {
            let once = canonicalize(s.as_bytes()).into_owned();
            let twice = canonicalize(&once).into_owned();
            assert_eq!(once, twice, "input {s:?}");
            assert!(is_canonical(&once));
        }
    }

    /// Canonicalisation against a plain byte-by-byte reading of the rules, on strings dense
    /// with escapes (the fast paths pass canonical ones over 16 bytes at a time).
    #[test]
    fn canonical_form_agrees_with_a_plain_reading() {
        fn plain(s: &[u8]) -> Vec<u8> {
            let hex = |c: Option<&u8>| c.and_then(|&c| (c as char).to_digit(16));
            let mut out = Vec::new();
            let mut i = 0;
            while i < s.len() {
                let b = s[i];
                match (b, hex(s.get(i + 1)), hex(s.get(i + 2))) {
                    (b'%', Some(h), Some(l)) => {
                        let v = (h * 16 + l) as u8;
                        if is_unreserved(v) {
                            out.push(v);
                        } else {
                            out.extend(format!("%{v:02X}").bytes());
                        }
                        i += 3;
                        continue;
                    }
                    (b'%', ..) => out.extend(b"%25"),
                    _ if b <= 0x20 || b >= 0x7F => out.extend(format!("%{b:02X}").bytes()),
                    _ => out.push(b),
                }
                i += 1;
            }
            out
        }
        let parts: [&[u8]; 14] = [
            b"%D7",
            b"%99",
            b"%d7",
            b"%41",
            b"%7e",
            b"%",
            b"%2",
            b"#",
            b"\\",
            b" ",
            b"\xC3",
            b"a",
            b"/",
            b"%E5%95%86",
        ];
        let mut x: u64 = 9309;
        for _ in 0..30_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut s = Vec::new();
            for k in 0..(x % 24) {
                s.extend_from_slice(parts[(x >> (k * 2 % 60)) as usize % parts.len()]);
            }
            let want = plain(&s);
            assert_eq!(canonicalize(&s).into_owned(), want, "{s:?}");
            assert_eq!(is_canonical(&s), want == s, "{s:?}");
        }
    }

    #[test]
    fn scan_agrees_with_the_class_table() {
        for b in 0..=255u8 {
            assert_eq!(
                crate::bytescan::needs_care(b),
                CLASS[b as usize] != 0,
                "{b:#x}"
            );
        }
    }

    #[test]
    fn into_matches_cow() {
        let mut buf = Vec::new();
        for s in ["/a", "/%41", "/é", "", "%"] {
            canonicalize_into(s.as_bytes(), &mut buf);
            assert_eq!(buf, canonicalize(s.as_bytes()).into_owned());
        }
    }

    /// Asserts that every way of finding `url`'s canonical path gives
    /// `canonicalize(path_and_query(url))` (from the end of its ordinary host too, when it has
    /// one), and returns that path.
    fn assert_located_paths_agree(url: &str) -> Vec<u8> {
        let u = url.as_bytes();
        let want = canonicalize(&path_and_query(u)).into_owned();
        assert_eq!(canonical_path(u).into_owned(), want, "{url:?}");
        assert_eq!(with_canonical_path(u, |p| p.to_vec()), want, "{url:?}");
        if let Some((host, _)) = crate::url::ordinary_host(u) {
            let after = with_canonical_path_after_host(u, host.end, |p| p.to_vec());
            assert_eq!(after, want, "{url:?}");
        }
        want
    }

    #[test]
    fn located_path_agrees_with_path_and_query() {
        let parts: &[&str] = &[
            "http:",
            "https://",
            "//",
            "/",
            "?",
            ";",
            "#",
            "%41",
            "%2f",
            "%e5",
            "%D7%99",
            "%D7",
            "%9c",
            "%C3%A4",
            "%7E",
            "%3A",
            "%8",
            "%",
            "a",
            "é",
            " ",
            "example.com",
            ":",
            "::",
            "\\",
            ".",
            "x",
        ];
        let mut x: u64 = 9309;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Most real URLs take `locate`'s fast path (bare paths, starting with `/`, too);
            // the others its general one.
            let mut url =
                String::from(["http://", "https://", "HTTP://", "", "/"][(x >> 59) as usize % 5]);
            let n = (x % 12) as usize;
            for k in 0..n {
                let r = (x >> (k * 5)) as usize;
                url.push_str(parts[r % parts.len()]);
                if r.is_multiple_of(7) {
                    // Long URLs cross the 64-byte windows.
                    url.push_str(&"abcdefghij".repeat(r % 9));
                }
            }
            let u = url.as_bytes();
            let want = assert_located_paths_agree(&url);
            // Any other end of the host never panics, and one where no authority can end
            // reads the whole URL.
            for end in 0..u.len() + 2 {
                let after = with_canonical_path_after_host(u, end, |p| p.to_vec());
                if end > u.len() || (end < u.len() && !matches!(u[end], b'/' | b'?' | b';' | b'#'))
                {
                    assert_eq!(after, want, "{url:?} {end}");
                }
            }
        }
    }

    #[test]
    fn long_paths_of_escapes_agree_with_path_and_query() {
        // Paths longer than `path_stops` takes whole, nearly all escapes already canonical,
        // so that the first change (if any) lies windows in, anywhere in a window, or an
        // escape straddles two.
        let canonical: &[&str] = &["%25", "%2F", "%D7%99", "%3A", "a", "/", "%C3%A4"];
        let other: &[&str] = &["%41", "%e5", "#", "\\", " ", "é", "%", "%2f", "%7E"];
        let mut x: u64 = 2026;
        for _ in 0..5_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut url = String::from(["http://example.com/", "/"][(x & 1) as usize]);
            let len = 100 + (x >> 8) as usize % 700;
            let mut r = x;
            while url.len() < len {
                r ^= r << 13;
                r ^= r >> 7;
                r ^= r << 17;
                url.push_str(canonical[(r >> 20) as usize % canonical.len()]);
            }
            if !x.is_multiple_of(4) {
                // One byte the canonical form changes (or a fragment, or a `\`), anywhere.
                let at = (x >> 32) as usize % url.len();
                let at = (at..url.len())
                    .find(|&i| url.is_char_boundary(i))
                    .unwrap_or(url.len());
                url.insert_str(at, other[(x >> 40) as usize % other.len()]);
            }
            assert_located_paths_agree(&url);
        }
    }

    #[test]
    fn paths_like_google() {
        let p = |s: &str| String::from_utf8(path_and_query(s.as_bytes()).into_owned()).unwrap();
        assert_eq!(p("http://www.example.com"), "/");
        assert_eq!(p("http://www.example.com/"), "/");
        assert_eq!(p("http://www.example.com/a"), "/a");
        assert_eq!(p("http://www.example.com/a/"), "/a/");
        assert_eq!(
            p("http://www.example.com/a/b?c=http://d.e/"),
            "/a/b?c=http://d.e/"
        );
        assert_eq!(
            p("http://www.example.com/a/b?c=d&e=f#fragment"),
            "/a/b?c=d&e=f"
        );
        assert_eq!(p("example.com"), "/");
        assert_eq!(p("example.com/"), "/");
        assert_eq!(p("example.com/a"), "/a");
        assert_eq!(p("example.com/a/"), "/a/");
        assert_eq!(p("example.com/a/b?c=d&e=f#fragment"), "/a/b?c=d&e=f");
        assert_eq!(p("a"), "/");
        assert_eq!(p("a/"), "/");
        assert_eq!(p("/a"), "/a");
        assert_eq!(p("a/b"), "/b");
        assert_eq!(p("example.com?a"), "/?a");
        assert_eq!(p("example.com/a;b#c"), "/a;b");
        assert_eq!(p("//a/b/c"), "/b/c");
        assert_eq!(p("http://a.com#x/y"), "/");
        assert_eq!(p(""), "/");
    }
}
