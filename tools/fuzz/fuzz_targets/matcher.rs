//! Arbitrary (robots.txt, agent, URL, engine, profile): every engine decides exactly as the
//! reference matcher (verdict and deciding rule), and so do the selective readers that skip
//! the full parse (`build_from_bytes`, `decide_once`). The input's `Debug` is the reproducer.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use robotsmatch::canon::canonical_path;
use robotsmatch::{EngineChoice, MatcherBuilder, Profile, Robots};

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
    let engine = match input.engine % 6 {
        0 => EngineChoice::Auto,
        1 => EngineChoice::Lazy,
        2 => EngineChoice::Dense,
        3 => EngineChoice::Split,
        4 => EngineChoice::Direct,
        _ => EngineChoice::Reference,
    };
    let profile = if input.legacy { Profile::LEGACY } else { Profile::GOOGLE };
    let robots = Robots::parse(&input.robots);
    let m = MatcherBuilder::new()
        .profile(profile)
        .engine(engine)
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
        assert_eq!((s.is_allowed(), s.rule()), (d.is_allowed(), d.rule()), "{input:?}");
        let once = selective.decide_once(&input.robots, input.agent.as_str(), url);
        assert_eq!((once.is_allowed(), once.rule()), (d.is_allowed(), d.rule()), "{input:?}");
    }
});
