//! Any bytes: parsing, linting and compiling never panic, in the cold tier for three crawlers
//! and with the hot engine built at once for one (the tree, its bucket scan, the lazy DFA:
//! whichever the automatic choice takes for the file).
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotsmatch::{MatcherBuilder, Tier};

fuzz_target!(|data: &[u8]| {
    let robots = robotsmatch::Robots::parse(data);
    let _ = robotsmatch::lint::lint(data);
    for agent in ["Googlebot", "GPTBot", "x"] {
        let m = robotsmatch::Matcher::new(&robots, agent);
        let _ = m.decide("/");
    }
    let hot = MatcherBuilder::new()
        .tier(Tier::Hot)
        .build(&robots, "Googlebot");
    // The root, and a path made of the input's own first bytes (its rules' pieces are there).
    let mut path = b"/".to_vec();
    path.extend(data.iter().take(200).filter(|&&b| b != b'\n' && b != b'#'));
    for p in [&b"/"[..], &path] {
        let d = hot.decide(p);
        let r = hot
            .reference()
            .decide(&robotsmatch::canon::canonical_path(p));
        assert_eq!(d.is_allowed(), r.allowed);
    }
});
