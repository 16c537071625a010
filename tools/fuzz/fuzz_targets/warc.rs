//! Arbitrary bytes as a WARC file of robots.txt captures (gzip members or plain records), read
//! as a stream twice: keeping bodies whole, and cutting them at a small limit as the store
//! does (issue 16.4). Never panics; both readings find the same records, problems and counts,
//! each cut body is the start of the whole one; every offset reported lies inside the input.
//! Then the per-host choice with redirects and RFC 9309 status semantics on each result. The
//! input's `Debug` is the reproducer.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use robotsmatch::fetch::{FetchedRobots, Outcome};
use robotsmatch::ParseConfig;
use robotsmatch_bulk::warc;

#[derive(Arbitrary, Debug)]
struct Input {
    limit: u16,
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let data = &input.data[..];
    let limit = usize::from(input.limit % 4096);
    let mut whole = Vec::new();
    let mut problems = Vec::new();
    let counts = warc::read(data, &mut |c| whole.push(c), &mut |p| problems.push(p));
    for p in &problems {
        assert!((p.offset as usize) < data.len().max(1), "{p:?}");
    }
    let mut cut = Vec::new();
    let mut cut_problems = Vec::new();
    let cut_counts = warc::read_from(
        std::io::Cursor::new(data),
        limit,
        &mut |c| cut.push(c),
        &mut |p| cut_problems.push(p),
    )
    .expect("reading from memory cannot fail");
    assert_eq!(counts, cut_counts, "{input:?}");
    assert_eq!(problems, cut_problems, "{input:?}");
    assert_eq!(whole.len(), cut.len(), "{input:?}");
    for (w, c) in whole.iter().zip(&cut) {
        assert_eq!(
            (&w.target_uri, &w.date, w.status, &w.location, w.offset),
            (&c.target_uri, &c.date, c.status, &c.location, c.offset)
        );
        assert_eq!(&w.body[..w.body.len().min(limit)], &c.body[..], "{input:?}");
    }
    let mut chosen = warc::Captures::default();
    for c in cut {
        chosen.add(c);
    }
    let (hosts, _) = chosen.resolve();
    for h in &hosts {
        let outcome = Outcome::Response {
            status: h.capture.status,
            body: &h.capture.body,
            redirects: h.redirects.clone(),
        };
        let f = FetchedRobots::from_outcome(&outcome, &ParseConfig::new());
        let _ = f.reason().to_string();
    }
});
