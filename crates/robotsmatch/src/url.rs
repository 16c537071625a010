//! One split of a URL into scheme, host, port and the path and query, borrowing, without
//! allocating.
//!
//! Every part of robotsmatch that needs a piece of a URL takes it from [`split`]: the matcher
//! (the path it matches, through [`crate::canon::canonical_path`]), the command line's
//! `check` and `diff`, the web tester, the Python package and [`crate::cache::Origin`]. So the
//! host a URL is filed under and the path its rules are matched against come from one reading
//! of the URL and cannot disagree (issue 15: `http://example.com\private` had the host
//! `example.com` but the path `/`, so a site's `Disallow: /private` was never consulted).
//!
//! The boundaries (scheme, authority, path and query, fragment) are found in one pass: one
//! 16-byte scan for the first `#` or `\`, and before it Google's two short scans for `/`, `?` and
//! `;` (with a byte-by-byte reading when a `#` or `\` comes first). The host and port are read
//! from the authority only when asked for, so a decision, which needs only the path, pays
//! nothing for them.
//!
//! The reading is Google's `GetPathParamsQuery` (what [`crate::canon::path_and_query`]
//! documents), with what browsers do with `\`:
//!
//! - A leading `//` is skipped (a scheme-relative URL).
//! - `scheme://` is recognised only when its `://` comes before the first `/`, `?` or `;`.
//! - The authority runs to the first `/`, `?`, `;`, `#` or `\`. Without a scheme, the text
//!   before the first of those is skipped as Google skips it (`example.com/a` gives `/a`).
//! - The path and query run from there to the first `#` (the fragment is dropped); a `#`
//!   before the path means an empty path. An empty path is `/`; a path that starts with `?`
//!   or `;` gets a `/` in front (`http://a.com?x` gives `/?x`).
//! - Before the query, every `\` is read as `/`, as browsers read URLs of the web's schemes:
//!   `http://example.com\private` is host `example.com`, path `/private`, and
//!   `http://example.com/a\b?c\d` has the path `/a/b?c\d`. Google's library keeps the `\`
//!   (and ends the path at none): the README lists this difference.
//! - The host is the authority after its last `@`, without the port (a bracketed IPv6
//!   address is kept whole) and without one trailing dot. It is given only for an absolute
//!   URL: a scheme (a letter, then letters, digits, `+`, `-`, `.`) before `://`, and a host
//!   that is not empty.
//!
//! ```
//! use robotsmatch::url::split;
//!
//! let u = split(b"https://User@Example.COM:8443/a\\b?q=1#top");
//! assert_eq!(u.scheme(), Some(&b"https"[..]));
//! assert_eq!(u.host(), Some(&b"Example.COM"[..]));
//! assert!(u.host_eq_ignore_case(b"example.com"));
//! assert_eq!((u.port(), u.default_port(), u.non_default_port()), (Some(8443), Some(443), Some(8443)));
//! assert_eq!(u.path_and_query(), &b"/a/b?q=1"[..]);
//! assert_eq!(split(b"/bare/path?q").host(), None);
//! ```
#![forbid(unsafe_code)]

use std::borrow::Cow;
use std::ops::Range;

use crate::canon::canonicalize;

/// `url[start..end]` as `(start, end)`.
type Span = (usize, usize);

/// The host and port of an absolute URL, read once (see [`UrlParts::authority`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authority {
    /// Where the host is in the URL (case kept, no user information, no port, no trailing
    /// dot; an IPv6 address with its brackets).
    pub host: Range<usize>,
    /// The port written, when it is a number from 0 to 65535.
    pub port: Option<u16>,
    /// The scheme's default port: `http` 80, `https` 443, `ftp` 21.
    pub default_port: Option<u16>,
    /// A port is written but is not such a number (`:99999`, `:abc`).
    pub port_invalid: bool,
    /// The host has no ASCII upper-case letter (it can serve as a lookup key as it is).
    pub host_lowercase: bool,
}

impl Authority {
    /// The written port when it is not the scheme's default.
    pub fn non_default_port(&self) -> Option<u16> {
        self.port.filter(|&p| Some(p) != self.default_port)
    }
}

/// The default port of a scheme, ignoring case: `http` 80, `https` 443, `ftp` 21; `None` for
/// other schemes.
pub fn scheme_default_port(scheme: &[u8]) -> Option<u16> {
    // PERF: the spellings of nearly every URL first, compared whole.
    match scheme {
        b"https" => return Some(443),
        b"http" => return Some(80),
        _ => {}
    }
    if scheme.eq_ignore_ascii_case(b"http") {
        Some(80)
    } else if scheme.eq_ignore_ascii_case(b"https") {
        Some(443)
    } else if scheme.eq_ignore_ascii_case(b"ftp") {
        Some(21)
    } else {
        None
    }
}

/// A port as written after a host's `:`, when it is a number from 0 to 65535 (at most five
/// digits, nothing else).
fn parse_port(p: &[u8]) -> Option<u16> {
    if p.is_empty() || p.len() > 5 || !p.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = p.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    u16::try_from(n).ok()
}

/// A URL split into its parts, each borrowed from the URL. Made by [`split`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UrlParts<'a> {
    url: &'a [u8],
    /// Where the scheme Google's reading finds ends (the ':' of "://"), or 0 for none.
    scheme_end: usize,
    /// The authority after that "://": `url[auth.0..auth.1]`.
    auth: (usize, usize),
    /// The path and query: `url[path.0..path.1]`.
    path: (usize, usize),
    /// A `\` in the path before the query: [`UrlParts::path_and_query`] reads it as `/`.
    backslash: bool,
}

/// Splits `url` (an absolute URL, a scheme-relative one, or a bare path) into its parts,
/// borrowing, without allocating. See the [module docs](self) for the rules.
///
/// The boundaries (scheme, authority, path and query, fragment) come from one reading of the
/// URL; the host and port are read from the authority when asked for, so that a caller that
/// needs only the path (every decision) does not pay for them.
///
/// ```
/// use robotsmatch::url::split;
///
/// let u = split(b"http://example.com\\private");
/// assert_eq!(u.host(), Some(&b"example.com"[..]));
/// assert_eq!(u.path_and_query(), &b"/private"[..]);
/// assert_eq!(split(b"http://example.com?x=1").path_and_query(), &b"/?x=1"[..]);
/// assert_eq!(split(b"http://example.com#x/y").path_and_query(), &b"/"[..]);
/// ```
#[inline]
pub fn split(url: &[u8]) -> UrlParts<'_> {
    let start = if url.starts_with(b"//") { 2 } else { 0 };
    // PERF: most URLs hold neither '#' nor '\'. One scan finds the first of them; before
    // it, the boundaries are Google's two short scans for '/', '?' and ';' (the reading that
    // `canon::path_and_query` did before issue 15, which cost one memchr).
    let special =
        crate::bytescan::find2(&url[start..], b'#', b'\\').map_or(url.len(), |k| start + k);
    let Some(early) = early_path(url, start, special) else {
        // A '#' or '\' before any '/', '?' or ';' (rare): read byte by byte.
        return split_slowly(url, start);
    };
    let mut parts = UrlParts {
        url,
        scheme_end: 0,
        auth: (0, 0),
        path: (url.len(), url.len()),
        backslash: false,
    };
    let path_start = if early > start && url[early - 1..].starts_with(b"://") {
        let auth_start = early + 2;
        let auth_end = early_path(url, auth_start, special).unwrap_or(special);
        parts.scheme_end = early - 1;
        parts.auth = (auth_start, auth_end);
        auth_end
    } else {
        early
    };
    if path_start == special {
        if special == url.len() || url[special] == b'#' {
            // No path, or a fragment right after the authority: the path is empty.
            return parts;
        }
        // The '\' ends the authority and starts the path.
        parts.backslash = true;
    } else if special < url.len() && url[special] == b'\\' {
        // A '\' in the path or the query.
        parts.backslash = memchr::memchr(b'?', &url[path_start..special]).is_none();
    }
    let end = if special < url.len() && url[special] == b'\\' {
        memchr::memchr(b'#', &url[special..]).map_or(url.len(), |h| special + h)
    } else {
        special
    };
    parts.path = (path_start, end);
    parts
}

/// The host of an ordinary absolute URL, when it is its own lookup key, and its scheme's
/// default port: `http://` or `https://`, then a host of ASCII lower-case letters, digits, `.`,
/// `-` and `_` (not ending in `.`), then the end or one of `/`, `?`, `;`, `#`. What
/// [`UrlParts::authority`] of [`split`] gives for such a URL (no port, no user information,
/// nothing to lower-case), found with one short scan: a bulk job files nearly every URL of a
/// crawl log under its host this way. `None` for every other URL, which `split` reads.
///
/// ```
/// use robotsmatch::url::ordinary_host;
///
/// let url = b"https://www.example.com/a?b";
/// assert_eq!(ordinary_host(url).map(|(h, port)| (&url[h], port)), Some((&b"www.example.com"[..], 443)));
/// assert_eq!(ordinary_host(b"http://Example.com/"), None);
/// assert_eq!(ordinary_host(b"http://example.com:8080/"), None);
/// ```
#[inline]
pub fn ordinary_host(url: &[u8]) -> Option<(Range<usize>, u16)> {
    let (start, port) = if url.starts_with(b"https://") {
        (8, 443)
    } else if url.starts_with(b"http://") {
        (7, 80)
    } else {
        return None;
    };
    let end = crate::bytescan::first_not_host(&url[start..]).map_or(url.len(), |k| start + k);
    let ends_well = url
        .get(end)
        .is_none_or(|b| matches!(b, b'/' | b'?' | b';' | b'#'));
    (end > start && url[end - 1] != b'.' && ends_well).then_some((start..end, port))
}

/// The first '/', '?' or ';' of `url[from..to]`, as an index into `url`.
#[inline]
fn early_path(url: &[u8], from: usize, to: usize) -> Option<usize> {
    // PERF: 16 bytes at a time while the URL has them (the scheme and the authority of
    // nearly every URL); a byte loop cost ~5 instructions per byte of the authority.
    let mut at = from;
    while at < to {
        if at + 16 > url.len() {
            return url[at..to]
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b';'))
                .map(|i| at + i);
        }
        let (sep, _, _) = crate::bytescan::block16(url, at);
        let m = sep & low_bits(to - at);
        if m != 0 {
            return Some(at + m.trailing_zeros() as usize);
        }
        at += 16;
    }
    None
}

/// A mask of the lowest `n` bits (all 32 when `n >= 32`).
#[inline]
fn low_bits(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

/// The last `@` and the last `:` of `url[from..to]`, and whether any ASCII upper-case
/// letter is there: for an authority of up to 64 bytes with 16-byte blocks (the URL goes on
/// past it), else byte by byte.
#[inline]
fn authority_marks(url: &[u8], from: usize, to: usize) -> (Option<usize>, Option<usize>, bool) {
    let n = to - from;
    let blocks = n.div_ceil(16);
    if n <= 64 && from + blocks * 16 <= url.len() {
        let (mut a, mut c, mut u) = (0u64, 0u64, 0u64);
        for k in 0..blocks {
            let (x, y, z) = crate::bytescan::authority16(url, from + 16 * k);
            a |= u64::from(x) << (16 * k);
            c |= u64::from(y) << (16 * k);
            u |= u64::from(z) << (16 * k);
        }
        let keep = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let last = |m: u64| (m != 0).then(|| from + 63 - m.leading_zeros() as usize);
        return (last(a & keep), last(c & keep), u & keep != 0);
    }
    let (mut last_at, mut last_colon, mut upper) = (None, None, false);
    for (i, &b) in url[from..to].iter().enumerate() {
        match b {
            b'@' => last_at = Some(from + i),
            b':' => last_colon = Some(from + i),
            b'A'..=b'Z' => upper = true,
            _ => {}
        }
    }
    (last_at, last_colon, upper)
}

/// True when `scheme` is a scheme: a letter, then letters, digits, '+', '-' or '.'.
#[inline]
fn is_scheme(scheme: &[u8]) -> bool {
    // PERF: the two schemes of nearly every URL, compared whole.
    scheme == b"https"
        || scheme == b"http"
        || (scheme.first().is_some_and(u8::is_ascii_alphabetic)
            && scheme
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
}

/// [`split`] for a URL with a '#' or '\' before its first '/', '?' or ';': byte by byte,
/// as the module docs describe.
fn split_slowly(url: &[u8], start: usize) -> UrlParts<'_> {
    // 1. Google's "early path": the first '/', '?' or ';'; on the way, the first '#' and '\'.
    let (mut hash, mut backslash) = (usize::MAX, usize::MAX);
    let mut i = start;
    while i < url.len() {
        match url[i] {
            b'/' | b'?' | b';' => break,
            b'#' if hash == usize::MAX => hash = i,
            b'\\' if backslash == usize::MAX => backslash = i,
            _ => {}
        }
        i += 1;
    }
    let early = i;
    let mut parts = UrlParts {
        url,
        scheme_end: 0,
        auth: (0, 0),
        path: (url.len(), url.len()),
        backslash: false,
    };
    let path_start = if early > start && url[early - 1..].starts_with(b"://") {
        // 2. The authority: to the first '/', '?', ';', '#' or '\'.
        let auth_start = early + 2;
        let auth_end = url[auth_start..]
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b';' | b'#' | b'\\'))
            .map_or(url.len(), |k| auth_start + k);
        parts.scheme_end = early - 1;
        parts.auth = (auth_start, auth_end);
        // A '#' in the scheme or the authority: the path is empty.
        (hash == usize::MAX && url.get(auth_end) != Some(&b'#')).then_some(auth_end)
    } else {
        // No scheme: the path starts at the first '/', '?', ';' or '\', unless a '#' comes first.
        let p = early.min(backslash);
        (hash > p).then_some(p)
    };
    if let Some(p) = path_start.filter(|&p| p < url.len()) {
        // 3. The path and query: to the first '#'. A '\' before the '?' is read as '/'.
        let rest = &url[p..];
        let end = match memchr::memchr2(b'\\', b'#', rest) {
            None => rest.len(),
            Some(h) if rest[h] == b'#' => h,
            Some(b) => {
                parts.backslash = memchr::memchr(b'?', &rest[..b]).is_none();
                memchr::memchr(b'#', &rest[b..]).map_or(rest.len(), |h| b + h)
            }
        };
        parts.path = (p, p + end);
    }
    parts
}

impl<'a> UrlParts<'a> {
    /// The host's span and the port's, read from the authority: for an absolute URL (a
    /// valid scheme at the very start, a host that is not empty), else `None`.
    fn host_port(&self) -> Option<(Span, Option<Span>)> {
        self.host_port_case().map(|(host, port, _)| (host, port))
    }

    /// [`UrlParts::host_port`], and whether the host may hold an ASCII upper-case letter
    /// (false: it certainly holds none).
    #[inline]
    fn host_port_case(&self) -> Option<(Span, Option<Span>, bool)> {
        let url = self.url;
        // A scheme-relative "//" URL, whose scheme_end is 0 or whose bytes start with '/',
        // has no scheme.
        if !is_scheme(&url[..self.scheme_end]) {
            return None;
        }
        let (auth_start, auth_end) = self.auth;
        // One pass over the authority for its last '@' and ':' and any upper case.
        let (last_at, last_colon, upper) = authority_marks(url, auth_start, auth_end);
        let host_start = last_at.map_or(auth_start, |a| a + 1);
        let hostport = &url[host_start..auth_end];
        let (mut host_end, port) = if hostport.first() == Some(&b'[') {
            let close = host_start + memchr::memchr(b']', hostport)?;
            let port = (url.get(close + 1) == Some(&b':') && close + 1 < auth_end)
                .then_some((close + 2, auth_end));
            (close + 1, port)
        } else {
            match last_colon.filter(|&c| c >= host_start) {
                Some(c) => (c, Some((c + 1, auth_end))),
                None => (auth_end, None),
            }
        };
        if host_end > host_start && url[host_end - 1] == b'.' {
            host_end -= 1;
        }
        (host_end > host_start).then_some(((host_start, host_end), port, upper))
    }

    /// The host, the port and the scheme's default port, read from the authority once: what a
    /// bulk job needs to file a URL under its host without reading the URL again.
    ///
    /// ```
    /// use robotsmatch::url::split;
    ///
    /// let a = split(b"HTTP://Shop.Example:8080/cart").authority().unwrap();
    /// assert_eq!(&b"HTTP://Shop.Example:8080/cart"[a.host.clone()], b"Shop.Example");
    /// assert_eq!((a.port, a.default_port, a.port_invalid), (Some(8080), Some(80), false));
    /// assert!(split(b"http://a.example:99999/").authority().unwrap().port_invalid);
    /// ```
    pub fn authority(&self) -> Option<Authority> {
        let ((hs, he), port, upper) = self.host_port_case()?;
        let url = self.url;
        let default_port = scheme_default_port(&url[..self.scheme_end]);
        let (port, port_invalid) = match port {
            None => (None, false),
            Some((s, e)) => {
                let p = &url[s..e];
                let n = parse_port(p);
                // An empty port (`host:`) is no port, as for `port()`.
                (n, n.is_none() && !p.is_empty())
            }
        };
        Some(Authority {
            host: hs..he,
            port,
            default_port,
            port_invalid,
            host_lowercase: !upper || !url[hs..he].iter().any(u8::is_ascii_uppercase),
        })
    }

    /// The scheme as written (`https`, `HTTP`), for an absolute URL (one with a host);
    /// `None` otherwise.
    pub fn scheme(&self) -> Option<&'a [u8]> {
        self.host_port().map(|_| &self.url[..self.scheme_end])
    }

    /// The host as written (case kept, no user information, no port, no trailing dot; an
    /// IPv6 address with its brackets), for an absolute URL; `None` otherwise.
    pub fn host(&self) -> Option<&'a [u8]> {
        self.host_port().map(|((s, e), _)| &self.url[s..e])
    }

    /// Where [`UrlParts::host`] is in the URL, for a caller that keeps positions instead of
    /// slices.
    pub fn host_range(&self) -> Option<Range<usize>> {
        self.host_port().map(|((s, e), _)| s..e)
    }

    /// True when the URL has a host and it equals `other`, ignoring ASCII case (hosts are
    /// case-insensitive).
    pub fn host_eq_ignore_case(&self, other: &[u8]) -> bool {
        self.host().is_some_and(|h| h.eq_ignore_ascii_case(other))
    }

    /// True when the host has no ASCII upper-case letter, so that it can serve as a lookup
    /// key as it is (false when there is no host).
    pub fn host_is_lowercase(&self) -> bool {
        self.host()
            .is_some_and(|h| !h.iter().any(u8::is_ascii_uppercase))
    }

    /// The port as written after the host's `:` (possibly empty or not a number); `None`
    /// when no port is written or there is no host.
    pub fn port_str(&self) -> Option<&'a [u8]> {
        let (_, port) = self.host_port()?;
        port.map(|(s, e)| &self.url[s..e])
    }

    /// The port written in the URL, when it is a number from 0 to 65535 (`None` when none is
    /// written, it is empty or it is not such a number).
    pub fn port(&self) -> Option<u16> {
        parse_port(self.port_str()?)
    }

    /// The default port of the scheme, ignoring case: `http` 80, `https` 443, `ftp` 21;
    /// `None` for other schemes and for URLs without a scheme.
    pub fn default_port(&self) -> Option<u16> {
        scheme_default_port(self.scheme()?)
    }

    /// The written port when it is valid and not the scheme's default (`http://a:8080/`
    /// gives 8080, `http://a:80/` and `http://a/` give `None`): what tells two origins of one
    /// host apart.
    pub fn non_default_port(&self) -> Option<u16> {
        self.port().filter(|&p| Some(p) != self.default_port())
    }

    /// The path and query as written, without the fragment: empty, or starting with `/`, `?`,
    /// `;` or `\`. [`UrlParts::path_and_query`] is what rules are matched against.
    pub fn raw_path(&self) -> &'a [u8] {
        &self.url[self.path.0..self.path.1]
    }

    /// The path and query that rules are matched against: `/` for an empty path, a `/` put
    /// in front of a path that starts with `?` or `;`, every `\` before the query read as
    /// `/`. Borrowed from the URL unless one of those changes it.
    pub fn path_and_query(&self) -> Cow<'a, [u8]> {
        let p = self.raw_path();
        if p.is_empty() {
            return Cow::Borrowed(b"/");
        }
        if p[0] == b'/' && !self.backslash {
            return Cow::Borrowed(p);
        }
        let mut v = Vec::with_capacity(p.len() + 1);
        if p[0] != b'/' && p[0] != b'\\' {
            v.push(b'/');
        }
        let query = if p[0] == b'?' {
            0
        } else {
            memchr::memchr(b'?', p).unwrap_or(p.len())
        };
        v.extend(
            p[..query]
                .iter()
                .map(|&b| if b == b'\\' { b'/' } else { b }),
        );
        v.extend_from_slice(&p[query..]);
        Cow::Owned(v)
    }

    /// [`UrlParts::path_and_query`] in canonical percent-encoding
    /// ([`crate::canon::canonicalize`]): exactly what the matcher compares with the rules.
    /// Borrowed from the URL when nothing changes.
    pub fn canonical_path(&self) -> Cow<'a, [u8]> {
        match self.path_and_query() {
            Cow::Borrowed(p) => canonicalize(p),
            Cow::Owned(v) => match canonicalize(&v) {
                Cow::Borrowed(_) => Cow::Owned(v),
                Cow::Owned(c) => Cow::Owned(c),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(b: &[u8]) -> String {
        String::from_utf8_lossy(b).into_owned()
    }

    /// (scheme, host, port as written, path and query)
    fn parts(url: &str) -> (Option<String>, Option<String>, Option<String>, String) {
        let u = split(url.as_bytes());
        (
            u.scheme().map(s),
            u.host().map(s),
            u.port_str().map(s),
            s(&u.path_and_query()),
        )
    }

    fn some(x: &str) -> Option<String> {
        Some(x.to_string())
    }

    /// Whenever `ordinary_host` answers, `split` reads the same host, with no port, nothing to
    /// lower-case and the same default port; it answers for ordinary URLs.
    #[test]
    fn ordinary_hosts_are_what_split_reads() {
        let parts = [
            "http://",
            "https://",
            "HTTP://",
            "a",
            "example.com",
            ".",
            "-",
            "_",
            "Z",
            ":",
            "80",
            "@",
            "/",
            "?",
            ";",
            "#",
            "\\",
            "%41",
            "[::1]",
            " ",
            "é",
            "~",
        ];
        let mut x: u64 = 9309;
        let mut answered = 0;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut url = String::from(["http://", "https://", ""][(x >> 61) as usize % 3]);
            for k in 0..(x % 10) {
                url.push_str(parts[(x >> (k * 5)) as usize % parts.len()]);
            }
            let u = url.as_bytes();
            if let Some((host, port)) = ordinary_host(u) {
                answered += 1;
                let a = split(u)
                    .authority()
                    .expect("an ordinary URL has an authority");
                assert_eq!(a.host, host, "{url:?}");
                assert_eq!((a.port, a.default_port), (None, Some(port)), "{url:?}");
                assert!(a.host_lowercase && !a.port_invalid, "{url:?}");
            }
        }
        assert!(answered > 1_000, "{answered}");
        for url in [
            "https://www.example.com",
            "http://a-b.example_1.org/x",
            "https://a.b?q",
            "http://a#f",
        ] {
            assert!(ordinary_host(url.as_bytes()).is_some(), "{url}");
        }
        for url in [
            "http://a.",
            "http://",
            "http://a:1/",
            "http://u@a/",
            "http://A/",
            "http://a\\b",
        ] {
            assert_eq!(ordinary_host(url.as_bytes()), None, "{url}");
        }
    }

    #[test]
    fn issue15_backslash_after_the_host_is_a_slash() {
        assert_eq!(
            parts("http://example.com\\private"),
            (some("http"), some("example.com"), None, "/private".into())
        );
        assert_eq!(
            split(b"http://example.com\\private\\x").path_and_query(),
            &b"/private/x"[..]
        );
        // Only before the query.
        assert_eq!(
            split(b"http://a.com/a\\b?c\\d#e\\f").path_and_query(),
            &b"/a/b?c\\d"[..]
        );
        assert_eq!(split(b"http://a.com\\?x\\").path_and_query(), &b"/?x\\"[..]);
        assert_eq!(split(b"http://a.com?x\\y").path_and_query(), &b"/?x\\y"[..]);
        // The port ends at the backslash too.
        assert_eq!(
            parts("https://a.com:8443\\p"),
            (some("https"), some("a.com"), some("8443"), "/p".into())
        );
        // Bare paths and text without a scheme read the same way.
        assert_eq!(split(b"/a\\b").path_and_query(), &b"/a/b"[..]);
        assert_eq!(
            split(b"example.com\\private").path_and_query(),
            &b"/private"[..]
        );
        assert_eq!(split(b"\\x").path_and_query(), &b"/x"[..]);
    }

    #[test]
    fn hosts_and_ports() {
        assert_eq!(
            parts("https://Example.COM/a"),
            (some("https"), some("Example.COM"), None, "/a".into())
        );
        assert_eq!(
            parts("http://user:pw@example.com:8080/x"),
            (some("http"), some("example.com"), some("8080"), "/x".into())
        );
        assert_eq!(
            parts("http://[::1]:81/"),
            (some("http"), some("[::1]"), some("81"), "/".into())
        );
        assert_eq!(parts("http://[::1]/").1, some("[::1]"));
        assert_eq!(
            parts("http://[::1/").1,
            None,
            "an unclosed bracket is no host"
        );
        assert_eq!(parts("http://example.com./x").1, some("example.com"));
        assert_eq!(parts("http://example.com:/x").2, some(""));
        assert_eq!(parts("http:///a"), (None, None, None, "/a".into()));
        assert_eq!(parts("1http://x/y"), (None, None, None, "/y".into()));
        assert_eq!(parts("ht_tp://x/y"), (None, None, None, "/y".into()));
        assert_eq!(parts("//x.com/y"), (None, None, None, "/y".into()));
        assert_eq!(parts("example.com/a"), (None, None, None, "/a".into()));
        assert_eq!(parts("mailto:a@b.c"), (None, None, None, "/".into()));
        // Hosts end where Google's path starts: at ';' too.
        assert_eq!(
            parts("http://example.com;x/y"),
            (some("http"), some("example.com"), None, "/;x/y".into())
        );
        // A '#' in the authority: the host is there, the path is empty.
        assert_eq!(
            parts("http://a.com#x/y"),
            (some("http"), some("a.com"), None, "/".into())
        );
    }

    #[test]
    fn ports_and_defaults() {
        let p = |u: &str| {
            let u = split(u.as_bytes());
            (u.port(), u.default_port(), u.non_default_port())
        };
        assert_eq!(p("http://a/"), (None, Some(80), None));
        assert_eq!(p("HTTPS://a:443/"), (Some(443), Some(443), None));
        assert_eq!(p("https://a:80/"), (Some(80), Some(443), Some(80)));
        assert_eq!(p("ftp://a/"), (None, Some(21), None));
        assert_eq!(p("gopher://a:70/"), (Some(70), None, Some(70)));
        assert_eq!(p("http://a:65536/"), (None, Some(80), None));
        assert_eq!(p("http://a:+80/"), (None, Some(80), None));
        assert_eq!(p("http://a:port/"), (None, Some(80), None));
        assert_eq!(p("/a"), (None, None, None));
        let u = split(b"http://MiXed.Example/");
        assert!(u.host_eq_ignore_case(b"mixed.example"));
        assert!(!u.host_is_lowercase());
        assert!(split(b"http://mixed.example/").host_is_lowercase());
        assert!(!split(b"/a").host_eq_ignore_case(b""));
        assert_eq!(split(b"http://u@h.com/").host_range(), Some(9..14));
    }

    #[test]
    fn paths_like_google() {
        let p = |u: &str| s(&split(u.as_bytes()).path_and_query());
        assert_eq!(p("http://www.example.com"), "/");
        assert_eq!(
            p("http://www.example.com/a/b?c=http://d.e/"),
            "/a/b?c=http://d.e/"
        );
        assert_eq!(
            p("http://www.example.com/a/b?c=d&e=f#fragment"),
            "/a/b?c=d&e=f"
        );
        assert_eq!(p("example.com?a"), "/?a");
        assert_eq!(p("example.com/a;b#c"), "/a;b");
        assert_eq!(p("a/b"), "/b");
        assert_eq!(p("//a/b/c"), "/b/c");
        assert_eq!(p("a#b://x/y"), "/", "a '#' in the scheme empties the path");
        assert_eq!(p(""), "/");
        assert_eq!(p("?"), "/?");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 5000, ..Default::default() })]

        /// The fast reading (Google's scans before the first '#' or '\\') and the byte-by-byte
        /// one agree on every URL.
        #[test]
        fn fast_and_slow_readings_agree(
            pieces in proptest::collection::vec(proptest::sample::select(&[
                "http", "HTTPS", "x+y", "1a", "://", ":/", "//", ":", "@", "u:p@", "a.b", ".",
                "[::1]", "]", ":80", "/", "/a", "?", "?q", "#", "#f", ";", "\\", "\\x", "%", " ",
            ][..]), 0..10),
        ) {
            let url = pieces.concat();
            let b = url.as_bytes();
            let start = if b.starts_with(b"//") { 2 } else { 0 };
            proptest::prop_assert_eq!(split(b), split_slowly(b, start), "{:?}", url);
        }

        /// The authority read 16 bytes at a time (and byte by byte near the URL's end) is the
        /// one a plain reading of the authority's bytes gives, for authorities of every
        /// length around the 16-byte blocks.
        #[test]
        fn authority_agrees_with_a_byte_reading(
            scheme in proptest::sample::select(&["http", "https", "HTTP", "ftp", "x-y", "1a", ""][..]),
            auth in proptest::collection::vec(proptest::sample::select(&[
                "a", "B", "ex", "AMPLE", ".", "-", "@", "u:p@", ":", ":80", ":443", ":99999",
                ":x", "[::1]", "[", "]", "%41", "\u{e9}",
            ][..]), 0..14),
            rest in proptest::sample::select(&[
                "", "/", "/a", "?q", "#f", "/0123456789abcdef0123", "/u@h:1/X", "?@:A", "#@:Z",
            ][..]),
        ) {
            let url = format!("{scheme}://{}{rest}", auth.concat());
            let b = url.as_bytes();
            let u = split(b);
            proptest::prop_assert_eq!(u.authority(), authority_by_bytes(&u), "{:?}", url);
        }
    }

    /// The authority as the memchr reading before the 16-byte blocks gave it.
    fn authority_by_bytes(u: &UrlParts<'_>) -> Option<Authority> {
        let url = u.url;
        let scheme = &url[..u.scheme_end];
        if !scheme.first().is_some_and(u8::is_ascii_alphabetic)
            || !scheme
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        {
            return None;
        }
        let (auth_start, auth_end) = u.auth;
        let auth = &url[auth_start..auth_end];
        let hs = auth
            .iter()
            .rposition(|&b| b == b'@')
            .map_or(auth_start, |a| auth_start + a + 1);
        let hostport = &url[hs..auth_end];
        let (mut he, port) = if hostport.first() == Some(&b'[') {
            let close = hs + hostport.iter().position(|&b| b == b']')?;
            let port = (url.get(close + 1) == Some(&b':') && close + 1 < auth_end)
                .then(|| &url[close + 2..auth_end]);
            (close + 1, port)
        } else {
            match hostport.iter().rposition(|&b| b == b':') {
                Some(c) => (hs + c, Some(&url[hs + c + 1..auth_end])),
                None => (auth_end, None),
            }
        };
        if he > hs && url[he - 1] == b'.' {
            he -= 1;
        }
        if he <= hs {
            return None;
        }
        let (port, port_invalid) = match port {
            None => (None, false),
            Some(p) => {
                let n = parse_port(p);
                (n, n.is_none() && !p.is_empty())
            }
        };
        let lower = scheme.to_ascii_lowercase();
        Some(Authority {
            host: hs..he,
            port,
            default_port: match &lower[..] {
                b"http" => Some(80),
                b"https" => Some(443),
                b"ftp" => Some(21),
                _ => None,
            },
            port_invalid,
            host_lowercase: !url[hs..he].iter().any(u8::is_ascii_uppercase),
        })
    }

    #[test]
    fn borrows_unless_the_path_changes() {
        assert!(matches!(
            split(b"http://a.com/x?y").path_and_query(),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            split(b"http://a.com").path_and_query(),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            split(b"http://a.com/x?y\\").path_and_query(),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            split(b"http://a.com\\x").path_and_query(),
            Cow::Owned(_)
        ));
        assert!(matches!(
            split(b"http://a.com/x").canonical_path(),
            Cow::Borrowed(_)
        ));
        assert_eq!(split(b"http://a.com\\%7ex").canonical_path(), &b"/~x"[..]);
    }
}
