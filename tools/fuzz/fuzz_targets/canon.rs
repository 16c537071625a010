//! Canonicalisation is idempotent, and equivalent encodings of a string have the same
//! canonical form: re-encoding unreserved characters as `%xx` (either hex case) and flipping
//! the case of hex digits in escapes changes nothing. Read as a URL, the input's canonical path
//! is the same by every way of finding it: the one-pass locator, and the one that starts at
//! the end of an ordinary host.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotsmatch::canon::{
    canonicalize, is_canonical, path_and_query, with_canonical_path, with_canonical_path_after_host,
};
use robotsmatch::url::ordinary_host;

fuzz_target!(|data: (Vec<u8>, Vec<u8>)| {
    let (input, choices) = data;
    let want = canonicalize(&path_and_query(&input)).into_owned();
    assert_eq!(
        with_canonical_path(&input, |p| p.to_vec()),
        want,
        "{input:?}"
    );
    if let Some((host, _)) = ordinary_host(&input) {
        let after = with_canonical_path_after_host(&input, host.end, |p| p.to_vec());
        assert_eq!(after, want, "{input:?}");
    }
    let once = canonicalize(&input).into_owned();
    assert!(is_canonical(&once), "{input:?} -> {once:?}");
    assert_eq!(canonicalize(&once).as_ref(), once.as_slice(), "{input:?}");
    // An equivalent encoding of `once`, driven by `choices`.
    let mut other = Vec::new();
    let mut i = 0;
    let mut k = 0;
    while i < once.len() {
        let choice = choices.get(k).copied().unwrap_or(0);
        k += 1;
        let b = once[i];
        if b == b'%' && i + 2 < once.len() {
            // An escape: flip the hex case.
            let (h, l) = (once[i + 1], once[i + 2]);
            let case = |c: u8| {
                if choice & 1 == 1 {
                    c.to_ascii_lowercase()
                } else {
                    c
                }
            };
            other.extend_from_slice(&[b'%', case(h), case(l)]);
            i += 3;
        } else if (b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
            && choice & 2 == 2
        {
            let hex = if choice & 4 == 4 {
                format!("%{b:02x}")
            } else {
                format!("%{b:02X}")
            };
            other.extend_from_slice(hex.as_bytes());
            i += 1;
        } else {
            other.push(b);
            i += 1;
        }
    }
    assert_eq!(
        canonicalize(&other).as_ref(),
        once.as_slice(),
        "{input:?} / {other:?}"
    );
});
