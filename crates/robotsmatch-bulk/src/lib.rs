//! Bulk robots.txt classification: which URLs of a crawl log may a crawler fetch, on all
//! cores, against a robots.txt per host.
//!
//! # Example
//!
//! ```
//! use robotsmatch_bulk::{Classifier, LogPath, Store, StoreConfig};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let log = dir.path().join("log.txt");
//! # std::fs::write(&log, "https://shop.example/cart\nhttps://shop.example/\nnot a url\n")?;
//! // One robots.txt per host (a directory of `<host>.txt` files works the same way).
//! let store = Store::from_bodies(
//!     [("shop.example", "User-agent: *\nDisallow: /cart\n")],
//!     StoreConfig::new("Googlebot"),
//! );
//! let classifier = Classifier::new(&store).threads(2).count_rules(true);
//! // Counts only: `()` is the sink that keeps nothing per URL.
//! let report = classifier.count(&[LogPath::File(log.clone())])?;
//! let summary = &report.summary;
//! assert_eq!((summary.allowed, summary.disallowed, summary.malformed), (1, 1, 1));
//! assert_eq!(summary.top_rules(1)[0].rule, "Disallow: /cart");
//!
//! // Per URL: a sink fills one batch per chunk on the worker threads; the batches come back
//! // in input order.
//! let mut lines = Vec::new();
//! classifier.run(&[LogPath::File(log)], &Verdicts, |batch, _progress| {
//!     lines.extend(batch);
//!     Ok(())
//! })?;
//! assert_eq!(lines, ["disallowed https://shop.example/cart", "allowed https://shop.example/", "invalid"]);
//! # Ok(())
//! # }
//!
//! struct Verdicts;
//!
//! impl robotsmatch_bulk::Sink for Verdicts {
//!     type Batch = Vec<String>;
//!     fn batch(&self, _bytes: usize) -> Vec<String> {
//!         Vec::new()
//!     }
//!     fn url(&self, batch: &mut Vec<String>, url: &robotsmatch_bulk::Classified<'_>) {
//!         let verdict = if url.allowed { "allowed" } else { "disallowed" };
//!         batch.push(format!("{verdict} {}", String::from_utf8_lossy(url.text)));
//!     }
//!     fn invalid(&self, batch: &mut Vec<String>, _line: &robotsmatch_bulk::Invalid<'_>) {
//!         batch.push("invalid".into());
//!     }
//! }
//! ```
//!
//! # Modules, one per stage
//!
//! - [`store`]: which robots.txt applies to a host: a directory of `<host>.txt` files, one
//!   file for every host, WARC captures ([`warc`] reads them) or bodies in memory. Bodies are
//!   compiled when their host is first seen, identical bodies once.
//! - [`reader`]: logs (memory-mapped files, gzip, stdin) cut into chunks at line boundaries,
//!   processed on worker threads, results in input order.
//! - [`logline`]: one line: the URL field (whole line or a TSV/CSV column), its host key.
//! - [`classify`]: the [`Classifier`], its per-thread [`Worker`] and the [`Sink`] that
//!   receives each result.
//! - [`summary`]: counts per verdict, per host, per deciding rule, and the malformed lines.
//!
//! The decision for each URL is exactly [`robotsmatch::Matcher::decide`] with its host's
//! matcher; nothing is cached by URL.
#![deny(missing_docs)]

pub mod classify;
mod error;
mod keys;
pub mod logline;
pub mod reader;
pub mod store;
pub mod summary;
pub mod warc;

pub use classify::{Classified, Classifier, Invalid, Outcome, Progress, Report, Sink, Worker};
pub use error::Error;
pub use logline::{LineFormat, Malformed};
pub use reader::{LogPath, ReadConfig};
pub use store::{Store, StoreConfig};
pub use summary::Summary;

#[cfg(test)]
mod testoibits {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}
    fn assert_send<T: Send>() {}

    #[test]
    fn public_types_are_send_sync() {
        assert_send_sync::<Store>();
        assert_send_sync::<Classifier>();
        assert_send_sync::<Summary>();
        assert_send_sync::<Error>();
        assert_send::<Worker>();
    }
}
