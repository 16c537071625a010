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
    out.clear();
    let first = first_change(input).unwrap_or(input.len());
    out.extend_from_slice(&input[..first]);
    canonicalize_from(input, first, out);
}

/// Returns true when [`canonicalize`] would return its input unchanged.
pub fn is_canonical(input: &[u8]) -> bool {
    first_change(input).is_none()
}

/// True when the 8 bytes of `w` hold a byte that may need canonicalisation: `>= 0x7F`,
/// `<= 0x20`, or `%`.
#[inline]
fn word_needs_care(w: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(LO) & !v & HI != 0;
    // High bit set: >= 0x80. With no high bit set, subtracting 0x21 from each byte borrows
    // exactly for the bytes below 0x21; 0x7F and '%' are found by comparing for equality.
    w & HI != 0
        || w.wrapping_sub(LO * 0x21) & !w & HI != 0
        || has_zero(w ^ (LO * 0x7F))
        || has_zero(w ^ (LO * b'%' as u64))
}

/// The index of the first byte that canonicalisation changes, if any.
#[inline]
fn first_change(input: &[u8]) -> Option<usize> {
    let mut i = 0;
    // PERF: most paths need no change; test 8 bytes at a time and look closer only at a word
    // that holds a candidate byte (measured: this scan was 29% of a decision).
    while i + 8 <= input.len() {
        let w = u64::from_le_bytes(input[i..i + 8].try_into().unwrap_or([0; 8]));
        if word_needs_care(w) {
            break;
        }
        i += 8;
    }
    while i < input.len() {
        match CLASS[input[i] as usize] {
            0 => i += 1,
            ENCODE => return Some(i),
            _ => match escape_is_canonical(input, i) {
                Some(true) => i += 3,
                _ => return Some(i),
            },
        }
    }
    None
}

/// Canonicalises `input[start..]`, appending to `out`.
fn canonicalize_from(input: &[u8], start: usize, out: &mut Vec<u8>) {
    let mut i = start;
    while i < input.len() {
        let b = input[i];
        match CLASS[b as usize] {
            0 => {
                out.push(b);
                i += 1;
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

/// Appends `%XX` (upper-case hex) for `b`.
#[inline]
fn push_escape(out: &mut Vec<u8>, b: u8) {
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
    crate::url::split(url).canonical_path()
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

    #[test]
    fn word_scan_agrees_with_bytes() {
        // Every byte value in every position of a word, against the per-byte table.
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut w = *b"/abcdefg";
                w[pos] = b;
                let word = word_needs_care(u64::from_le_bytes(w));
                let bytes = w.iter().any(|&c| CLASS[c as usize] != 0);
                assert_eq!(word, bytes, "byte {b:#x} at {pos}");
            }
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
