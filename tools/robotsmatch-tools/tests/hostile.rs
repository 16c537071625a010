//! The hostile files (see `hostile_cases`) as test cases: each parses, compiles and decides its
//! long URLs exactly as the reference matcher does. Their cost is measured by the `hostile`
//! tool, not here.

use robotsmatch::canon::canonical_path;
use robotsmatch::{Engine, Matcher, MatcherBuilder, Robots, Tier};
use robotsmatch_tools::hostile_cases;

#[test]
fn hostile_files_decide_like_the_reference() {
    for case in hostile_cases() {
        let robots = Robots::parse(&case.body);
        // Both tiers: the cold one that decides first, and the hot engine built at once.
        for m in [
            Matcher::new(&robots, "Googlebot"),
            MatcherBuilder::new()
                .tier(Tier::Hot)
                .build(&robots, "Googlebot"),
        ] {
            // One cache for all the URLs, as a crawler keeps (the lazy DFA's states pile up).
            let mut cache = m.create_cache();
            let mut last_engine = m.engine();
            for (i, url) in case.urls.iter().enumerate() {
                // The reference is slow on 10,000 rules in a debug build: check that file on a
                // shorter URL of the same shape.
                let url: &[u8] = if m.rules().len() > 1000 {
                    &url[..200]
                } else {
                    url
                };
                let d = m.decide_with(&mut cache, url);
                last_engine = d.engine();
                // Of many URLs (`dfa-state-blowup`: 320 of 2 KB), every 16th is checked.
                if case.urls.len() > 16 && i % 16 != 0 {
                    continue;
                }
                let r = m.reference().decide(&canonical_path(url));
                assert_eq!(d.is_allowed(), r.allowed, "{}", case.name);
                assert_eq!(d.rule(), r.rule.map(|i| m.rule(i)), "{}", case.name);
            }
            if case.name == "dfa-state-blowup" && m.engine() == Engine::Lazy {
                // Its states filled the lazy DFA's cache before serving 1,000 bytes each: the
                // DFA gave up, and the direct scan decides from then on.
                assert_eq!(last_engine, Engine::Direct, "{}", case.name);
            }
        }
    }
}
