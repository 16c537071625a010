//! Arbitrary (robots.txt, agent, URL, engine, profile): every engine decides exactly as the
//! reference matcher (verdict and deciding rule), and so do the selective readers that skip
//! the full parse (`build_from_bytes`, `decide_once`). The input's `Debug` is the reproducer.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use robotsmatch::canon::canonical_path;
use robotsmatch::{EngineChoice, MatcherBuilder, Profile, Robots, Tier};

#[derive(Arbitrary, Debug)]
struct Input {
    robots: Vec<u8>,
    agent: String,
    urls: Vec<Vec<u8>>,
    engine: u8,
    legacy: bool,
    lazy_max_wildcards: u8,
}

fuzz_target!(|input: Input| {
    // The radix tree (with the bucket scan where the processor has it) is forced, and also
    // reached as `Auto`'s hot engine: with the default tier, a matcher asked at most 8 URLs
    // stays cold.
    let (engine, tier) = match input.engine % 8 {
        0 => (EngineChoice::Auto, Tier::Auto),
        1 => (EngineChoice::Lazy, Tier::Auto),
        2 => (EngineChoice::Dense, Tier::Auto),
        3 => (EngineChoice::Split, Tier::Auto),
        4 => (EngineChoice::Direct, Tier::Auto),
        5 => (EngineChoice::Tree, Tier::Auto),
        6 => (EngineChoice::Auto, Tier::Hot),
        _ => (EngineChoice::Reference, Tier::Auto),
    };
    let profile = if input.legacy {
        Profile::LEGACY
    } else {
        Profile::GOOGLE
    };
    let robots = Robots::parse(&input.robots);
    let m = MatcherBuilder::new()
        .profile(profile)
        .engine(engine)
        .tier(tier)
        .lazy_max_wildcards(input.lazy_max_wildcards as usize)
        .build(&robots, input.agent.as_str());
    let selective = MatcherBuilder::new().profile(profile);
    let scanned = selective.build_from_bytes(&input.robots, input.agent.as_str());
    for url in input.urls.iter().take(8) {
        let d = m.decide(url);
        let r = m.reference().decide(&canonical_path(url));
        assert_eq!(d.is_allowed(), r.allowed, "{input:?}");
        assert_eq!(d.rule(), r.rule.map(|i| m.rule(i)), "{input:?}");
        let s = scanned.decide(url);
        assert_eq!(
            (s.is_allowed(), s.rule()),
            (d.is_allowed(), d.rule()),
            "{input:?}"
        );
        let once = selective.decide_once(&input.robots, input.agent.as_str(), url);
        assert_eq!(
            (once.is_allowed(), once.rule()),
            (d.is_allowed(), d.rule()),
            "{input:?}"
        );
    }
});
