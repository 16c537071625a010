//! The hostile files (see `hostile_cases`) as test cases: each parses, compiles and decides its
//! long URLs exactly as the reference matcher does. Their cost is measured by the `hostile`
//! tool, not here.

use robotsmatch::canon::canonical_path;
use robotsmatch::{Matcher, MatcherBuilder, Robots, Tier};
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
            for url in &case.urls {
                // The reference is slow on 10,000 rules in a debug build: check that file on a
                // shorter URL of the same shape.
                let url: &[u8] = if m.rules().len() > 1000 {
                    &url[..200]
                } else {
                    url
                };
                let d = m.decide(url);
                let r = m.reference().decide(&canonical_path(url));
                assert_eq!(d.is_allowed(), r.allowed, "{}", case.name);
                assert_eq!(d.rule(), r.rule.map(|i| m.rule(i)), "{}", case.name);
            }
        }
    }
}
