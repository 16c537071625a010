//! Arbitrary bytes as a WARC file of robots.txt captures (gzip members or plain records), then
//! the per-host choice with redirects, then RFC 9309 status semantics on each result: never
//! panics, and every offset reported lies inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotsmatch::fetch::{FetchedRobots, Outcome};
use robotsmatch::ParseConfig;
use robotsmatch_bulk::warc;

fuzz_target!(|data: &[u8]| {
    let mut captures = Vec::new();
    let mut problems = Vec::new();
    warc::read(data, &mut |c| captures.push(c), &mut |p| problems.push(p));
    for p in &problems {
        assert!((p.offset as usize) < data.len().max(1), "{p:?}");
    }
    let (hosts, _) = warc::resolve(captures);
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
