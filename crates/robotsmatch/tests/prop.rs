//! Property tests: for random rule sets and random paths, every engine agrees with the
//! reference matcher on the verdict and on the deciding rule.

use proptest::prelude::*;
use robotsmatch::canon::canonical_path;
use robotsmatch::{EngineChoice, Matcher, MatcherBuilder, Profile, Robots};

/// Pieces rules and paths are made of: wildcards, anchors, escapes of reserved and unreserved
/// characters in both hex cases, raw non-ASCII, query characters.
const PIECES: &[&str] = &[
    "/",
    "a",
    "b",
    "ab",
    "*",
    "$",
    "?",
    "=",
    "&",
    ".",
    "%2F",
    "%2f",
    "%41",
    "%61",
    "é",
    "%C3%A9",
    "%c3%a9",
    "%",
    "~",
    "%7E",
    "x",
    ".php",
    "index.html",
    "/a",
    "/b",
    "**",
    " ",
];

fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(PIECES)
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..max).prop_map(|v| v.concat())
}

fn rule() -> impl Strategy<Value = (bool, String)> {
    (any::<bool>(), prop::option::of(Just("/")), text(6))
        .prop_map(|(allow, slash, rest)| (allow, format!("{}{}", slash.unwrap_or(""), rest)))
}

fn robots_body(rules: &[(bool, String)]) -> String {
    let mut s = String::from("User-agent: *\n");
    for (allow, p) in rules {
        s.push_str(if *allow { "Allow: " } else { "Disallow: " });
        s.push_str(p);
        s.push('\n');
    }
    s
}

/// The engine configurations every case runs on.
pub fn builders(profile: Profile) -> Vec<MatcherBuilder> {
    let b = MatcherBuilder::new().profile(profile);
    vec![
        b.clone().engine(EngineChoice::Auto),
        b.clone().engine(EngineChoice::Lazy),
        b.clone().engine(EngineChoice::Dense),
        b.clone().engine(EngineChoice::Split),
        // The split layout with every wildcard pattern behind the literal prefilter.
        b.clone().engine(EngineChoice::Split).lazy_max_wildcards(0),
        b.engine(EngineChoice::Direct),
    ]
}

fn check(body: &str, paths: &[String]) -> Result<(), TestCaseError> {
    let robots = Robots::parse(body.as_bytes());
    for profile in Profile::ALL {
        let matchers: Vec<Matcher> = builders(*profile)
            .iter()
            .map(|b| b.build(&robots, "bot"))
            .collect();
        if matchers[1].pattern_counts().0 > 0 {
            prop_assert_eq!(matchers[1].engine(), robotsmatch::Engine::Lazy);
        }
        let reference = matchers[0].reference();
        for path in paths {
            let canonical = canonical_path(path.as_bytes());
            let want = reference.decide(&canonical);
            let want_line = want.rule.map(|i| matchers[0].rules()[i].line());
            for m in &matchers {
                let got = m.decide(path);
                prop_assert_eq!(
                    (got.is_allowed(), got.rule().map(|r| r.line())),
                    (want.allowed, want_line),
                    "profile {} engine {:?} path {:?}\n{}",
                    profile.name,
                    m.engine(),
                    path,
                    body
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn automaton_equals_reference(
        rules in prop::collection::vec(rule(), 0..12),
        paths in prop::collection::vec(text(10).prop_map(|s| format!("/{s}")), 1..16),
    ) {
        check(&robots_body(&rules), &paths)?;
    }

    /// Paths built from the rules themselves, so that matches (and near misses) are common.
    #[test]
    fn automaton_equals_reference_on_rule_derived_paths(
        rules in prop::collection::vec(rule(), 1..10),
        suffixes in prop::collection::vec(text(3), 1..6),
    ) {
        let mut paths = Vec::new();
        for (_, p) in &rules {
            let base = p.replace(['*', '$'], "");
            for s in &suffixes {
                paths.push(format!("/{}{}", base.trim_start_matches('/'), s));
                paths.push(format!("{base}{s}"));
            }
            paths.push(p.clone());
        }
        check(&robots_body(&rules), &paths)?;
    }
}

/// When the lazy DFA's cache thrashes, the engine gives up on that URL, the reference matcher
/// decides it, and the decision says so.
#[test]
fn cache_thrash_falls_back_to_the_reference() {
    let mut body = String::from("User-agent: *\n");
    for i in 0..24 {
        body.push_str(&format!(
            "Disallow: /*{}*{}*{}$\n",
            (b'a' + i % 26) as char,
            i,
            (b'z' - i % 26) as char
        ));
    }
    let robots = Robots::parse(body.as_bytes());
    let m = MatcherBuilder::new()
        .engine(EngineChoice::Lazy)
        .cache_capacity(0)
        .build(&robots, "bot");
    let mut cache = m.create_cache();
    let mut x: u64 = 9309;
    let mut fell_back = 0;
    for _ in 0..50 {
        let mut url = String::from("/");
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            url.push(b"abcdefghijklmnopqrstuvwxyz0123456789"[(x % 36) as usize] as char);
        }
        let d = m.decide_with(&mut cache, &url);
        let r = m.reference().decide(url.as_bytes());
        assert_eq!(d.is_allowed(), r.allowed);
        assert_eq!(d.rule(), r.rule.map(|i| &m.rules()[i]));
        fell_back += usize::from(d.engine() == robotsmatch::Engine::Reference);
    }
    assert!(
        fell_back > 0,
        "the lazy DFA never gave up; the test does not test the fallback"
    );
}

/// A crawler name: what a product token may hold besides letters (digits, `-`, `_`, `.`).
fn crawler_name() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9_.-]{0,9}"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Issue 15: a name and the same name with a suffix of digits or letters never select each
    /// other's groups (`MJ12bot` is not `MJ`, `crawler3` is not `crawler`), whatever the order
    /// of the groups and the case of the names, and neither inherits the other's crawl-delay.
    #[test]
    fn a_name_and_its_suffixed_name_never_share_groups(
        name in crawler_name(),
        suffix in "[A-Za-z0-9]{1,4}",
        longer_first in any::<bool>(),
        upper in any::<bool>(),
    ) {
        let long = format!("{name}{suffix}");
        let written = |s: &str| if upper { s.to_ascii_uppercase() } else { s.to_string() };
        let short_group = format!("User-agent: {}\nCrawl-delay: 1\nDisallow: /short\n\n", written(&name));
        let long_group = format!("User-agent: {}/2.0\nCrawl-delay: 2\nDisallow: /long\n\n", written(&long));
        let body = if longer_first {
            format!("{long_group}{short_group}User-agent: *\nDisallow: /star\n")
        } else {
            format!("{short_group}{long_group}User-agent: *\nDisallow: /star\n")
        };
        let robots = Robots::parse(body.as_bytes());
        for (me, mine, other, delay) in [(&name, "/short", "/long", 1.0), (&long, "/long", "/short", 2.0)] {
            for agent in [me.clone(), format!("{me}/1.0"), format!("Mozilla/5.0 (compatible; {me}/1.0; +https://x.example/bot)")] {
                let m = Matcher::new(&robots, agent.as_str());
                prop_assert_eq!(m.agent().token(), me.as_str(), "token of {:?}", agent);
                prop_assert_eq!(m.selection().groups().len(), 1, "{:?} in\n{}", agent, body);
                let d = m.decide(format!("https://example.com{mine}/x"));
                prop_assert!(!d.is_allowed(), "{:?} must obey its own group\n{}", agent, body);
                prop_assert!(m.decide(format!("https://example.com{other}/x")).is_allowed(),
                    "{:?} must not obey the other name's group\n{}", agent, body);
                prop_assert!(m.decide("https://example.com/star").is_allowed(), "a named group shadows '*'");
                prop_assert_eq!(m.selection().crawl_delay(&robots).map(|d| d.seconds()), Some(delay));
            }
        }
    }
}
