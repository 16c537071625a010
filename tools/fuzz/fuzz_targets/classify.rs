//! Arbitrary log bytes through `classify`'s per-line path (`robotsmatch_bulk`'s worker: clean
//! the line, find the URL field, its host key, the host's rules, canonicalise, decide): never
//! panics, whatever the line or the column format, and a URL of the host with a robots.txt is
//! decided as the matcher decides it alone.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use robotsmatch::Matcher;
use robotsmatch_bulk::logline::{self, LineFormat};
use robotsmatch_bulk::{Classifier, Outcome, Store, StoreConfig};

const BODY: &[u8] =
    b"User-agent: *\nDisallow: /cart\nAllow: /cart/help$\nDisallow: /*?*sort=\nDisallow: /*.pdf$\n";

fn store() -> &'static Store {
    static S: OnceLock<Store> = OnceLock::new();
    S.get_or_init(|| Store::from_bodies([("shop.example", BODY)], StoreConfig::new("Googlebot")))
}

fn matcher() -> &'static Matcher {
    static M: OnceLock<Matcher> = OnceLock::new();
    M.get_or_init(|| Matcher::from_bytes(BODY, "Googlebot"))
}

fuzz_target!(|data: (u8, u8, &[u8])| {
    let (column, delimiter, log) = data;
    let format = LineFormat {
        column: (column % 4) as usize,
        delimiter,
        decode_amp: column & 4 != 0,
    };
    let mut worker = Classifier::new(store()).line_format(format).worker();
    for (i, raw) in log.split(|&b| b == b'\n').enumerate() {
        let line = logline::clean_line(raw, i == 0);
        if let Ok(c) = worker.classify_line(line) {
            if let Outcome::Decided(d) = c.outcome {
                let alone = matcher().decide(c.url);
                assert_eq!(
                    (d.is_allowed(), d.rule().map(|r| r.line())),
                    (alone.is_allowed(), alone.rule().map(|r| r.line())),
                    "{:?}",
                    String::from_utf8_lossy(c.url)
                );
            }
        }
    }
    let _ = worker.take_summary();
});
