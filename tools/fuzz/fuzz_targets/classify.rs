//! Arbitrary log bytes through `classify`'s per-line path (`robotsmatch_bulk`'s worker: the
//! reader's line splitting, the URL field (RFC 4180 CSV), its host key, the host's rules,
//! canonicalise, decide): never panics, whatever the line or the column format; a field exists
//! exactly when csv-core finds the column; and a URL of the host with a robots.txt is decided
//! as the matcher decides it alone.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use robotsmatch::Matcher;
use robotsmatch_bulk::logline::{self, CsvFields, LineFormat};
use robotsmatch_bulk::reader::Chunk;
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
    // Lines as the reader cuts them (LF, CR LF, a lone CR; a long line marked).
    for line in Chunk::new(log, true).max_line(4096).lines() {
        if line.too_long {
            continue;
        }
        // A field is what csv-core reads (with the quick path for simple quoted fields).
        // Except on an empty line: csv-core reads no record there, `field` one empty field
        // (as splitting at the delimiter does; classify counts the line as blank either way,
        // and csv-core only ever sees lines with a quote).
        if format.column > 0 && !line.text.is_empty() {
            let mut csv = CsvFields::new(format.delimiter);
            let mut want = Vec::new();
            let got = logline::field(line.text, format);
            if csv.field_into(line.text, format.column, &mut want) {
                assert!(got.is_ok(), "{:?}", String::from_utf8_lossy(line.text));
            } else {
                assert!(got.is_err(), "{:?}", String::from_utf8_lossy(line.text));
            }
        }
        if let Ok(c) = worker.classify_line(line.text) {
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
