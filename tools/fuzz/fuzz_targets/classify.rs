//! Arbitrary log bytes through `classify`'s per-line path (clean, extract the URL field, find
//! the host, canonicalise, decide): never panics, whatever the line or the column format.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use robotsmatch::canon::canonical_path;
use robotsmatch::Matcher;
use robotsmatch_bulk::logline::{self, LineFormat};

fn matcher() -> &'static Matcher {
    static M: OnceLock<Matcher> = OnceLock::new();
    M.get_or_init(|| {
        Matcher::from_bytes(
            b"User-agent: *\nDisallow: /cart\nAllow: /cart/help$\nDisallow: /*?*sort=\nDisallow: /*.pdf$\n",
            "Googlebot",
        )
    })
}

fuzz_target!(|data: (u8, u8, &[u8])| {
    let (column, delimiter, log) = data;
    let format = LineFormat {
        column: (column % 4) as usize,
        delimiter,
        decode_amp: column & 4 != 0,
    };
    for (i, raw) in log.split(|&b| b == b'\n').enumerate() {
        let line = logline::clean_line(raw, i == 0);
        if let Ok((_text, url)) = logline::extract(line, format) {
            if let Some((host, _port)) = logline::host_key(&url) {
                let _ = host.get(&url);
                let _ = matcher().decide(canonical_path(&url));
            }
        }
    }
});
