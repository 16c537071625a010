//! `robotsmatch::url::split` against the functions it replaced (issue 15): wherever a URL has
//! no `\`, the split gives the path Google's reading gave (`canon::path_and_query` before),
//! the host key `classify` built (`logline::host_key`) and the origin `RobotsCache` used
//! (`Origin::from_url`). The old functions are copied here verbatim as the reference.

use std::borrow::Cow;

use proptest::prelude::*;
use robotsmatch::cache::Origin;
use robotsmatch::canon::{canonical_path, canonicalize, path_and_query};
use robotsmatch::url::{split, UrlParts};
use robotsmatch::{Matcher, Robots};

/// `canon::path_and_query` before issue 15 (Google's `GetPathParamsQuery`).
fn old_path_and_query(url: &[u8]) -> Cow<'_, [u8]> {
    let search_start = if url.starts_with(b"//") { 2 } else { 0 };
    let rest = &url[search_start..];
    let early_path = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b';'))
        .unwrap_or(rest.len());
    let after_scheme = if early_path > 0 && rest[early_path - 1..].starts_with(b"://") {
        early_path + 2
    } else {
        0
    };
    let tail = &rest[after_scheme..];
    let Some(path_start) = tail.iter().position(|&b| matches!(b, b'/' | b'?' | b';')) else {
        return Cow::Borrowed(b"/");
    };
    let hash = memchr_hash(rest);
    let path_start_abs = after_scheme + path_start;
    if let Some(h) = hash {
        if h < path_start_abs {
            return Cow::Borrowed(b"/");
        }
    }
    let end = hash.unwrap_or(rest.len());
    let path = &rest[path_start_abs..end];
    if path[0] == b'/' {
        Cow::Borrowed(path)
    } else {
        let mut v = Vec::with_capacity(path.len() + 1);
        v.push(b'/');
        v.extend_from_slice(path);
        Cow::Owned(v)
    }
}

fn memchr_hash(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'#')
}

/// `logline::host_key` of the command line before issue 15: the lookup key of a URL's host
/// (lower case, `_port` for a non-default port) and the scheme's default port.
fn old_host_key(url: &[u8]) -> Option<(Vec<u8>, Option<u16>)> {
    if !url.first()?.is_ascii_alphabetic() {
        return None;
    }
    let sep = url
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    if !url[sep..].starts_with(b"://") {
        return None;
    }
    let scheme = &url[..sep];
    let auth_start = sep + 3;
    let rest = &url[auth_start..];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#' | b'\\'))
        .unwrap_or(rest.len());
    let mut start = auth_start;
    let auth_end = auth_start + end;
    if let Some(at) = url[start..auth_end].iter().rposition(|&b| b == b'@') {
        start += at + 1;
    }
    let auth = &url[start..auth_end];
    let (host_len, port) = if auth.first() == Some(&b'[') {
        let close = auth.iter().position(|&b| b == b']')?;
        (close + 1, auth[close + 1..].strip_prefix(b":"))
    } else {
        match auth.iter().rposition(|&b| b == b':') {
            Some(i) => (i, Some(&auth[i + 1..])),
            None => (auth.len(), None),
        }
    };
    let mut host_end = start + host_len;
    if host_end > start && url[host_end - 1] == b'.' {
        host_end -= 1;
    }
    if host_end == start {
        return None;
    }
    let host = &url[start..host_end];
    let default_port = if scheme.eq_ignore_ascii_case(b"http") {
        Some(80)
    } else if scheme.eq_ignore_ascii_case(b"https") {
        Some(443)
    } else {
        None
    };
    let port = port
        .filter(|p| !p.is_empty() && p.iter().all(u8::is_ascii_digit))
        .and_then(|p| std::str::from_utf8(p).ok()?.parse::<u16>().ok())
        .filter(|&p| Some(p) != default_port);
    let mut h = host.to_ascii_lowercase();
    if let Some(p) = port {
        h.extend_from_slice(format!("_{p}").as_bytes());
    }
    Some((h, if port.is_some() { None } else { default_port }))
}

/// The same key built from the split: what `classify` is to call (see the issue 15 report),
/// with the scheme's default port `default` (the split's [`UrlParts::default_port`]).
fn new_host_key(u: &UrlParts<'_>, default: Option<u16>) -> Option<(Vec<u8>, Option<u16>)> {
    let mut h = u.host()?.to_ascii_lowercase();
    let port = u.port().filter(|&p| Some(p) != default);
    if let Some(p) = port {
        h.extend_from_slice(format!("_{p}").as_bytes());
    }
    Some((h, if port.is_some() { None } else { default }))
}

/// `Origin::from_url` before issue 15, as (scheme, host, port).
fn old_origin(url: &str) -> Option<(String, String, u16)> {
    let sep = url.find("://")?;
    let scheme = &url[..sep];
    if scheme.is_empty()
        || !scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let rest = &url[sep + 3..];
    let auth = &rest[..rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len())];
    let auth = auth.rsplit_once('@').map_or(auth, |(_, a)| a);
    let (host, port) = if auth.starts_with('[') {
        let close = auth.find(']')?;
        (&auth[..=close], auth[close + 1..].strip_prefix(':'))
    } else {
        match auth.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (auth, None),
        }
    };
    let host = host.strip_suffix('.').unwrap_or(host);
    if host.is_empty() {
        return None;
    }
    let scheme = scheme.to_ascii_lowercase();
    let port = match port {
        Some(p) if !p.is_empty() => p.parse().ok()?,
        _ => Origin::default_port(&scheme)?,
    };
    Some((scheme, host.to_ascii_lowercase(), port))
}

/// The authority as the old host functions read it: from `://` to the first `/`, `?`, `#`.
fn old_authority(url: &str) -> &str {
    match url.find("://") {
        Some(i) => {
            let rest = &url[i + 3..];
            &rest[..rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len())]
        }
        None => "",
    }
}

/// Pieces URLs are made of: schemes valid and not, separators, user information, hosts in
/// both cases, IPv6, ports (default, other, empty, not a number), paths, queries,
/// fragments, `;`, and `\` (which the old functions read differently).
const PIECES: &[&str] = &[
    "http",
    "https",
    "HTTPS",
    "ftp",
    "gopher",
    "x+y.z",
    "1h",
    "h_t",
    "://",
    ":/",
    "//",
    ":",
    "@",
    "user:pw@",
    "Example.COM",
    "a.b",
    ".",
    "[::1]",
    "[",
    "]",
    ":80",
    ":443",
    ":8080",
    ":21",
    ":",
    ":x",
    "/",
    "/a",
    "/b/",
    "?",
    "?q=1",
    "&",
    "=",
    "#",
    "#f",
    ";",
    ";p",
    "%2F",
    "é",
    "\\",
    "*",
    " ",
    "www",
];

fn url_text() -> impl Strategy<Value = String> {
    let start =
        prop::sample::select(&["http://", "https://", "HTTP://", "ftp://", "", "//", "/"][..]);
    (
        start,
        prop::collection::vec(prop::sample::select(PIECES), 0..10),
    )
        .prop_map(|(s, v)| format!("{s}{}", v.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// Without a `\`, the split's path, host key and origin are the old functions' (except
    /// where issue 15 changed them on purpose: `;` now ends the host as it starts the path,
    /// and `ftp` has its default port 21 in the host key too, as `Origin` had).
    #[test]
    fn split_equals_the_old_functions_without_backslash(url in url_text()) {
        let b = url.as_bytes();
        let u = split(b);
        let old_path = old_path_and_query(b);
        if !url.contains('\\') {
            prop_assert_eq!(u.path_and_query(), old_path.clone(), "path of {:?}", url);
            prop_assert_eq!(path_and_query(b), old_path.clone());
            prop_assert_eq!(canonical_path(b), canonicalize(&old_path).into_owned());
            if !old_authority(&url).contains(';') {
                // The old key knew no default port for ftp; the split gives 21 (tested below).
                let ftp = u.scheme().is_some_and(|s| s.eq_ignore_ascii_case(b"ftp"));
                let default = if ftp { None } else { u.default_port() };
                prop_assert_eq!(new_host_key(&u, default), old_host_key(b), "host key of {:?}", url);
                if !ftp {
                    prop_assert_eq!(u.non_default_port(), u.port().filter(|&p| Some(p) != u.default_port()));
                }
                let new_origin = Origin::from_url(&url)
                    .map(|o| (o.scheme().to_string(), o.host().to_string(), o.port()));
                prop_assert_eq!(new_origin, old_origin(&url), "origin of {:?}", url);
            }
        }
        // Always: the host never swallows the path, the path is a suffix of what follows it.
        if let Some(r) = u.host_range() {
            prop_assert!(r.end <= b.len() - u.raw_path().len() || u.raw_path().is_empty());
        }
        prop_assert!(u.path_and_query().starts_with(b"/"));
        prop_assert!(!u.path_and_query().split(|&c| c == b'?').next().unwrap_or(b"").contains(&b'\\'));
    }

    /// The matcher decides on the split's path: a rule on the path after a `\` applies.
    #[test]
    fn matcher_uses_the_split_path(seg in "[a-z]{1,8}", sep in prop::sample::select(&["/", "\\"][..])) {
        let robots = Robots::parse(format!("User-agent: *\nDisallow: /{seg}\n").as_bytes());
        let m = Matcher::new(&robots, "bot");
        let url = format!("http://example.com{sep}{seg}/x");
        prop_assert!(!m.decide(&url).is_allowed(), "{} must be disallowed", url);
    }
}

#[test]
fn issue15_host_and_path_from_one_parse() {
    // The issue's URL: host example.com, path /private (Google's reading gave /).
    let u = split(br"http://example.com\private");
    assert_eq!(u.host(), Some(&b"example.com"[..]));
    assert_eq!(u.path_and_query(), &b"/private"[..]);
    assert_eq!(
        old_path_and_query(br"http://example.com\private"),
        &b"/"[..]
    );
    let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n");
    let m = Matcher::new(&robots, "Googlebot");
    assert!(!m.decide(r"http://example.com\private").is_allowed());
    assert!(!m
        .decide(r"http://example.com\private\page.html")
        .is_allowed());
    let o = Origin::from_url(r"https://Example.com\private").expect("origin");
    assert_eq!((o.host(), o.port()), ("example.com", 443));
}

#[test]
fn deliberate_changes_from_the_old_host_functions() {
    // ';' ends the host as it starts Google's path: one reading for both.
    let u = split(b"http://example.com;x/y");
    assert_eq!(u.host(), Some(&b"example.com"[..]));
    assert_eq!(u.path_and_query(), &b"/;x/y"[..]);
    assert_eq!(
        old_host_key(b"http://example.com;x/y").map(|k| k.0),
        Some(b"example.com;x".to_vec())
    );
    // ftp's default port is 21 in the host key too (RobotsCache's Origin always had it).
    let ftp = split(b"ftp://h:21/");
    assert_eq!(
        new_host_key(&ftp, ftp.default_port()),
        Some((b"h".to_vec(), Some(21)))
    );
    assert_eq!(old_host_key(b"ftp://h:21/"), Some((b"h_21".to_vec(), None)));
}
