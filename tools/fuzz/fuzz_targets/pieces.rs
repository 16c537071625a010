//! Wildcard-heavy rule sets built from fuzzer-chosen pieces, and URLs built from the same
//! pieces: the radix tree (with its bucket scan where the processor has AVX-512 VBMI, 3 to 72
//! searched pieces, or AVX2, 9 to 72; paths up to 128 bytes), the automatic choice built hot and the lazy DFA
//! decide exactly as the reference matcher (verdict and deciding rule). Arbitrary bytes (the
//! `matcher` target) almost never make three wildcard patterns whose pieces share no start,
//! so that target never reached the bucket scan.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use robotsmatch::canon::canonical_path;
use robotsmatch::{EngineChoice, MatcherBuilder, Tier};

#[derive(Arbitrary, Debug)]
struct Rule {
    allow: bool,
    /// The pattern is `/` then these pieces joined by `*`.
    pieces: Vec<String>,
    dollar: bool,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rules: Vec<Rule>,
    /// Each URL's path: `/`, then per part a piece of the rules (by index) and filler bytes.
    urls: Vec<Vec<(u8, String)>>,
    engine: u8,
}

/// A piece as a pattern can hold it: no line end, comment, `*` or `$`.
fn clean(piece: &str) -> String {
    piece
        .chars()
        .filter(|c| !matches!(c, '\n' | '\r' | '#' | '*' | '$'))
        .take(24)
        .collect()
}

fuzz_target!(|input: Input| {
    let mut body = String::from("User-agent: *\n");
    let mut pieces: Vec<String> = Vec::new();
    for r in input.rules.iter().take(48) {
        let ps: Vec<String> = r.pieces.iter().take(5).map(|p| clean(p)).collect();
        pieces.extend(ps.iter().filter(|p| !p.is_empty()).cloned());
        let kind = if r.allow { "Allow" } else { "Disallow" };
        let end = if r.dollar { "$" } else { "" };
        body.push_str(&format!("{kind}: /{}{end}\n", ps.join("*")));
    }
    let (engine, tier) = match input.engine % 3 {
        0 => (EngineChoice::Tree, Tier::Auto),
        1 => (EngineChoice::Auto, Tier::Hot),
        _ => (EngineChoice::Lazy, Tier::Auto),
    };
    let m = MatcherBuilder::new()
        .engine(engine)
        .tier(tier)
        .build_from_bytes(body.as_bytes(), "Googlebot");
    for parts in input.urls.iter().take(8) {
        let mut url = String::from("https://example.com/");
        for (i, filler) in parts.iter().take(8) {
            if !pieces.is_empty() {
                url.push_str(&pieces[usize::from(*i) % pieces.len()]);
            }
            url.extend(filler.chars().filter(|&c| c != '#').take(40));
        }
        let d = m.decide(url.as_bytes());
        let r = m.reference().decide(&canonical_path(url.as_bytes()));
        assert_eq!(d.is_allowed(), r.allowed, "{body}\n{url}");
        assert_eq!(d.rule(), r.rule.map(|i| m.rule(i)), "{body}\n{url}");
    }
});
