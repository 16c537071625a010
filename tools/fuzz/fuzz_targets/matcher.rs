//! Raw bytes as (flags, robots.txt, agent and URLs): every engine decides exactly as the
//! reference matcher (verdict and deciding rule), and so do the selective readers that skip
//! the full parse (`build_from_bytes`, `decide_once`).
//!
//! The input's first byte picks the engine (low 3 bits), the legacy profile (bit 3) and a
//! `User-agent: *` line put before the body (bit 4); the second is the lazy DFA's wildcard
//! limit. The rest is the robots.txt body, up to a `0xFF` byte; after it, the agent's line and
//! up to 8 URLs, one a line. Besides those URLs, each of the body's first 8 `Allow` /
//! `Disallow` values is decided as a path, and again with a byte after it (a match and a near
//! miss).
//!
//! An earlier version derived the input with `Arbitrary`: its bodies were a few bytes (median
//! 4 over the corpus, which the real seeds were cut down to), and a replay of its corpus with
//! `-print_coverage=1` showed that no input had ever built a radix tree. Here a seed file is
//! the body, whole but for its first two bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotsmatch::canon::canonical_path;
use robotsmatch::{EngineChoice, MatcherBuilder, Profile, Robots, Tier};

/// The URLs to decide: those after the body, then paths made of the body's rule values.
fn urls(body: &[u8], after: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = after
        .split(|&b| b == b'\n')
        .skip(1)
        .take(8)
        .map(<[u8]>::to_vec)
        .collect();
    let values = body.split(|&b| b == b'\n').filter_map(|line| {
        let colon = line.iter().position(|&b| b == b':')?;
        let key = line[..colon].trim_ascii().to_ascii_lowercase();
        (key == b"allow" || key == b"disallow").then(|| line[colon + 1..].trim_ascii())
    });
    for value in values.take(8) {
        let path: Vec<u8> = value
            .iter()
            .copied()
            .filter(|&b| b != b'*' && b != b'$' && b != b'#')
            .collect();
        let url = [&b"https://example.com"[..], &path].concat();
        out.push([&url[..], b"x"].concat());
        out.push(url);
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let [flags, lazy_max_wildcards, rest @ ..] = data else {
        return;
    };
    // The radix tree (with the bucket scan and the prefix table where the processor has them)
    // is forced, and also reached as `Auto`'s hot engine: with the default tier, a matcher
    // asked a few URLs stays cold.
    let (engine, tier) = match flags % 8 {
        0 => (EngineChoice::Auto, Tier::Auto),
        1 => (EngineChoice::Lazy, Tier::Auto),
        2 => (EngineChoice::Dense, Tier::Auto),
        3 => (EngineChoice::Split, Tier::Auto),
        4 => (EngineChoice::Direct, Tier::Auto),
        5 => (EngineChoice::Tree, Tier::Auto),
        6 => (EngineChoice::Auto, Tier::Hot),
        _ => (EngineChoice::Reference, Tier::Auto),
    };
    let profile = if flags & 8 != 0 {
        Profile::LEGACY
    } else {
        Profile::GOOGLE
    };
    let (text, after) = match rest.iter().position(|&b| b == 0xFF) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let body = if flags & 16 != 0 {
        [&b"User-agent: *\n"[..], text].concat()
    } else {
        text.to_vec()
    };
    let agent_line = after.split(|&b| b == b'\n').next().unwrap_or_default();
    let agent = match String::from_utf8_lossy(agent_line).into_owned() {
        a if a.is_empty() => "Googlebot".to_string(),
        a => a,
    };
    let agent = agent.as_str();
    let robots = Robots::parse(&body);
    let m = MatcherBuilder::new()
        .profile(profile)
        .engine(engine)
        .tier(tier)
        .lazy_max_wildcards(usize::from(*lazy_max_wildcards))
        .build(&robots, agent);
    let selective = MatcherBuilder::new().profile(profile);
    let scanned = selective.build_from_bytes(&body, agent);
    for url in urls(&body, after) {
        let d = m.decide(&url);
        let r = m.reference().decide(&canonical_path(&url));
        let show = || String::from_utf8_lossy(&url).into_owned();
        assert_eq!(d.is_allowed(), r.allowed, "{}", show());
        assert_eq!(d.rule(), r.rule.map(|i| m.rule(i)), "{}", show());
        let s = scanned.decide(&url);
        assert_eq!(
            (s.is_allowed(), s.rule()),
            (d.is_allowed(), d.rule()),
            "{}",
            show()
        );
        let once = selective.decide_once(&body, agent, &url);
        assert_eq!(
            (once.is_allowed(), once.rule()),
            (d.is_allowed(), d.rule()),
            "{}",
            show()
        );
    }
});
