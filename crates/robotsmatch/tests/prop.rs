//! Property tests: for random rule sets and random paths, every engine agrees with the
//! reference matcher on the verdict and on the deciding rule.

use proptest::prelude::*;
use robotsmatch::canon::canonical_path;
use robotsmatch::{EngineChoice, Matcher, MatcherBuilder, Profile, Robots, Tier};

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
        // The hot engine that Auto picks, built at once whatever the size.
        b.clone().engine(EngineChoice::Auto).tier(Tier::Hot),
        b.clone().engine(EngineChoice::Lazy),
        b.clone().engine(EngineChoice::Dense),
        b.clone().engine(EngineChoice::Split),
        // The split layout with every wildcard pattern behind the literal prefilter.
        b.clone().engine(EngineChoice::Split).lazy_max_wildcards(0),
        b.clone().engine(EngineChoice::Tree),
        // The cold tier.
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
        if matchers[2].pattern_counts().0 > 0 {
            prop_assert_eq!(matchers[2].engine(), robotsmatch::Engine::Lazy);
        }
        let reference = matchers[0].reference();
        for path in paths {
            let canonical = canonical_path(path.as_bytes());
            let want = reference.decide(&canonical);
            let want_line = want.rule.map(|i| matchers[0].rule(i).line());
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

/// When the lazy DFA's cache thrashes, the engine gives up on that URL, and on every later URL
/// with that cache; the cold tier's direct scan decides them (as the reference matcher does),
/// and the decisions say so.
#[test]
fn cache_thrash_falls_back_to_the_direct_scan() {
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
        assert_eq!(d.rule(), r.rule.map(|i| m.rule(i)));
        let direct = d.engine() == robotsmatch::Engine::Direct;
        // Once given up, always: the cache is not walked again.
        assert!(
            direct || fell_back == 0,
            "the lazy DFA decided after giving up"
        );
        fell_back += usize::from(direct);
    }
    assert!(
        fell_back > 0,
        "the lazy DFA never gave up; the test does not test the fallback"
    );
}

/// The tree's special paths, each checked against the reference: piece tree nodes with many
/// children (their pieces found by one shared scan), more occurrences than that scan keeps,
/// piece trees deeper than the recursion limit, and an activation on every level of a deep
/// radix walk.
#[test]
fn tree_wide_deep_and_crowded_piece_trees_agree_with_the_reference() {
    let mut body = String::from("User-agent: *\n");
    for i in 0..40 {
        body.push_str(&format!("Disallow: /*/*/part{i}\n"));
        body.push_str(&format!("Allow: /*/*/part{i}/open$\n"));
        body.push_str(&format!("Disallow: *seg{}/*x{}\n", i % 7, i % 5));
    }
    // Deeper than the recursion limit: /*a*a*...*a*b.
    let deep: String = (0..80).map(|_| "*a").collect();
    body.push_str(&format!("Disallow: /{deep}*b\nAllow: /{deep}*c$\n"));
    // An activation on every level of the walk: /d/*z, /d/d/*z, ...
    for k in 1..24 {
        body.push_str(&format!("Disallow: {}*z{k}\n", "/d".repeat(k)));
    }
    let m = tree_matcher(&body);
    let mut paths: Vec<String> = Vec::new();
    for i in 0..45 {
        paths.push(format!("/a/b/part{i}"));
        paths.push(format!("/a/b/part{i}/open"));
        paths.push(format!("/x/part{i}/y/part{}", i + 1));
        paths.push(format!("/seg{}/q/x{}", i % 9, i % 6));
    }
    // Crowded: every piece occurs many times.
    paths.push("/part1".repeat(70) + "/open");
    paths.push("/part1".repeat(70));
    paths.push("/seg1x1".repeat(30));
    paths.push("/".to_string() + &"a".repeat(200) + "b");
    paths.push("/".to_string() + &"a".repeat(79) + "c");
    paths.push("/".to_string() + &"a".repeat(81) + "c");
    paths.push("/d".repeat(30) + "/z7");
    paths.push("/d".repeat(5) + "/z7");
    for p in &paths {
        let (got, want) = verdict_and_reference(&m, p);
        assert_eq!(got, want, "{p}");
    }
}

/// The tree's bucket scan (few searched pieces, paths of at most 128 bytes, on processors with
/// AVX-512 VBMI or AVX2; elsewhere this checks the plain search): a piece tree deeper than the
/// recursion limit with one repeated piece, pieces that share first bytes, `$`-anchored
/// leaves longer than a word, non-ASCII bytes, and paths on both sides of 64 and 128 bytes,
/// each against the reference.
#[test]
fn tree_bucketed_piece_trees_agree_with_the_reference() {
    let mut body = String::from("User-agent: *\n");
    let deep: String = (0..40).map(|_| "*a").collect();
    body.push_str(&format!("Disallow: /{deep}*b\nAllow: /{deep}*c$\n"));
    for rule in [
        "Disallow: /*?sort=*&page=",
        "Allow: /*?sort=",
        "Disallow: /*/print-version$",
        "Allow: /*/print-version-a*b$",
        "Disallow: /*%C3%A9t%C3%A9*",
        "Disallow: /*/s/*/s/",
        "Allow: /*/s/*/s/*/ok",
        "Disallow: /d*ab*abc*abcd$",
    ] {
        body.push_str(rule);
        body.push('\n');
    }
    let m = tree_matcher(&body);
    let mut paths: Vec<String> = vec![
        "/x?sort=1&page=2".into(),
        "/x?sort=1".into(),
        "/x/print-version".into(),
        "/x/print-version-a-b".into(),
        "/été/x".into(),
        "/s/s/s/ok".into(),
        "/a/s/b/s/c/ok".into(),
        "/dabcabcd".into(),
        "/dababcabcd".into(),
    ];
    for n in [
        30, 38, 39, 40, 41, 45, 62, 63, 64, 65, 126, 127, 128, 129, 200,
    ] {
        for end in ["b", "c", "", "ab", "ac"] {
            paths.push(format!("/{}{end}", "a".repeat(n)));
        }
        let filler = "x".repeat(n);
        paths.push(format!("/{filler}?sort=1&page=2"));
        paths.push(format!("/{filler}/print-version"));
        paths.push(format!("/{filler}/s/y/s/ok"));
        paths.push(format!("/d{filler}ab{filler}abc{filler}abcd"));
    }
    for p in &paths {
        let (got, want) = verdict_and_reference(&m, p);
        assert_eq!(got, want, "{p}");
    }
}

/// The tree's bucket scan of many pieces (up to 72, in up to 9 sets of 8 buckets; on
/// processors with AVX-512 VBMI or AVX2, elsewhere this checks the shared scan): piece tree nodes
/// whose children's pieces fall in both words of the scan's bit sets (buckets below and from
/// 64), paths on both sides of 64 and 128 bytes (longer ones are searched by the shared
/// Aho-Corasick scan instead), each against the reference.
#[test]
fn tree_bucket_scan_of_many_pieces_agrees_with_the_reference() {
    for parts in [30, 60, 69] {
        let mut body = String::from("User-agent: *\n");
        for i in 0..parts {
            body.push_str(&format!("Disallow: /*/*/part{i}/\n"));
            body.push_str(&format!("Allow: /*/*/part{i}/*open\n"));
        }
        let m = tree_matcher(&body);
        let mut paths = Vec::new();
        for i in 0..parts + 3 {
            for fill in [0, 20, 40, 50, 100, 110, 120, 140] {
                let f = "f".repeat(fill);
                paths.extend([
                    format!("/a/b/part{i}/{f}"),
                    format!("/a/b/part{i}/{f}open"),
                    format!("/a{f}/b/part{i}/x/open"),
                    format!("/a/part{i}/{f}"),
                    format!("/a/b/c/part{i}x/{f}open"),
                    format!("/{f}/a/b/part{}/part{i}/open", parts - 1 - i.min(parts - 1)),
                ]);
            }
        }
        let (allowed, disallowed) = agree_and_count(&m, &paths, &format!("{parts} parts"));
        assert!(
            allowed > 100 && disallowed > 100,
            "{allowed} allowed, {disallowed} disallowed"
        );
    }
}

/// A radix node with more than eight children keeps their first bytes as a 256-bit set and
/// finds a child's position from the bits set before it: children whose first bytes fall in
/// both words a canonical pattern can reach (ASCII below 64 and from 64; other bytes are
/// percent-encoded), with gaps, each found and checked against the reference.
#[test]
fn tree_radix_node_with_many_children_finds_each_child() {
    let firsts: Vec<char> =
        "!$'()+,-.0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"
            .chars()
            .collect();
    let mut body = String::from("User-agent: *\n");
    for (i, c) in firsts.iter().enumerate() {
        if i % 3 != 1 {
            body.push_str(&format!("Disallow: /x{c}{c}{c}\nAllow: /x{c}{c}{c}/open\n"));
        }
    }
    let m = tree_matcher(&body);
    let mut disallowed = 0;
    for c in &firsts {
        for p in [
            format!("/x{c}{c}{c}"),
            format!("/x{c}{c}{c}/open"),
            format!("/x{c}{c}{c}more"),
            format!("/x{c}{c}"),
            format!("/x{c}{c}|"),
        ] {
            let (got, want) = verdict_and_reference(&m, &p);
            assert_eq!(got, want, "{p}");
            disallowed += usize::from(!got.0);
        }
    }
    // Two of every three first bytes have rules, and each blocks two of its five paths.
    assert_eq!(
        disallowed,
        2 * firsts
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 3 != 1)
            .count()
    );
}

/// The tree keeps a path's first occurrences of the shared scan's pieces in place and moves
/// them to the heap, sorted, past that; paths with every count of occurrences around the
/// boundary (0 to 40, of four pieces in turn), each checked against the reference.
#[test]
fn tree_occurrences_in_place_and_on_the_heap_agree_with_the_reference() {
    let mut body = String::from("User-agent: *\n");
    for p in ["ab", "cd", "ef", "gh"] {
        body.push_str(&format!("Disallow: /*{p}*zz\nAllow: /*{p}*{p}*zz$\n"));
    }
    let m = tree_matcher(&body);
    let pieces = ["ab", "cd", "ef", "gh"];
    let mut paths = Vec::new();
    for k in 0..=40 {
        let run: String = (0..k).map(|i| pieces[i % 4]).collect::<Vec<_>>().join("-");
        paths.extend([
            format!("/{run}zz"),
            format!("/{run}-zz-q"),
            format!("/{run}"),
            format!("/zz{run}"),
        ]);
    }
    let (allowed, disallowed) = agree_and_count(&m, &paths, "");
    // Both verdicts occur on both sides of the boundary.
    assert!(
        allowed > 40 && disallowed > 40,
        "{allowed} allowed, {disallowed} disallowed"
    );
}

/// The tree's jumps over a path's first segment (`/a/`, `/abcdefg/`: at most 8 bytes) land
/// where the walk from the root would, after the same marks above: literal keys (`/`, `/a`),
/// `$` keys that must not apply above the end (`/a$`), and wildcard activations (`/*x`,
/// `/a*b`) at their depths. Every set of rules from a list that puts nodes on both sides of
/// segment ends, against every path over a small alphabet and a few longer ones.
#[test]
fn tree_first_segment_jumps_agree_with_the_reference() {
    let patterns = [
        "/",
        "/a",
        "/a$",
        "/a/",
        "/a/$",
        "/a/b",
        "/ab/",
        "/ab/*c",
        "/*x",
        "/a*b",
        "/*/",
        "/b/",
        "/abcdefg/",
        "/abcdefg/x",
        "/abcdefgh/",
        "/abcdef/",
        "/a/*b$",
        "/ab",
        // Ends of second segments (looked up when the tree has at least as many of them as
        // of first ones), past 8 bytes too.
        "/a/b/",
        "/a/x/",
        "/ab/x/",
        "/a/bb/$",
        "/b/a/*x",
        "/abcdefg/xb/",
        "/abcdefg/xbab/",
    ];
    let mut paths: Vec<String> = vec![String::from("/")];
    let alphabet = ['/', 'a', 'b', 'x'];
    let mut level = vec![String::from("/")];
    for _ in 0..5 {
        level = level
            .iter()
            .flat_map(|p| alphabet.iter().map(move |c| format!("{p}{c}")))
            .collect();
        paths.extend(level.iter().cloned());
    }
    for p in [
        "/abcdefg/",
        "/abcdefg/x",
        "/abcdefg/xb",
        "/abcdefgh/",
        "/abcdefgh/x",
        "/abcdef/",
        "/abcdefg/xb/",
        "/abcdefg/xb/a",
        "/abcdefg/xbab/",
        "/abcdefg/xbab/x",
        "/ab/x/bx",
    ] {
        paths.push(p.to_string());
    }
    let mut x: u64 = 9309;
    let mut jumped = 0;
    for _ in 0..300 {
        let mut rules = Vec::new();
        for p in patterns {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(3) {
                rules.push((x.is_multiple_of(2), p.to_string()));
            }
        }
        let m = tree_matcher(&robots_body(&rules));
        for p in &paths {
            let (got, want) = verdict_and_reference(&m, p);
            assert_eq!(got, want, "{rules:?} {p}");
        }
        jumped += usize::from(rules.iter().any(|r| r.1.ends_with('/')));
    }
    assert!(jumped > 100, "{jumped}");
}

/// A matcher of `body` for `bot` on the tree engine (asserted).
fn tree_matcher(body: &str) -> Matcher {
    let m = MatcherBuilder::new()
        .engine(EngineChoice::Tree)
        .build(&Robots::parse(body.as_bytes()), "bot");
    assert_eq!(m.engine(), robotsmatch::Engine::Tree);
    m
}

/// Asserts that `m` decides every path of `paths` as the reference does (`context` in the
/// message); returns how many it allowed and how many it disallowed.
fn agree_and_count(m: &Matcher, paths: &[String], context: &str) -> (usize, usize) {
    let mut allowed = 0;
    for p in paths {
        let (got, want) = verdict_and_reference(m, p);
        assert_eq!(got, want, "{context} {p}");
        allowed += usize::from(got.0);
    }
    (allowed, paths.len() - allowed)
}

/// Allowed, and the line of the deciding rule.
type Verdict = (bool, Option<u32>);

/// `m`'s verdict for `path`, and the reference matcher's.
fn verdict_and_reference(m: &Matcher, path: &str) -> (Verdict, Verdict) {
    let want = m.reference().decide(&canonical_path(path.as_bytes()));
    let got = m.decide(path);
    (
        (got.is_allowed(), got.rule().map(|r| r.line())),
        (want.allowed, want.rule.map(|i| m.rule(i).line())),
    )
}

/// The selective scan of `Matcher::from_bytes` keeps exactly the rules and groups that
/// `Matcher::new` of the full parse keeps.
fn same_as_full_parse(body: &[u8]) -> Result<(), TestCaseError> {
    let tight = robotsmatch::ParseConfig::new()
        .max_bytes(body.len() / 2)
        .max_line_len(12);
    for config in [robotsmatch::ParseConfig::new(), tight] {
        same_as_full_parse_with(body, &config)?;
    }
    Ok(())
}

fn same_as_full_parse_with(
    body: &[u8],
    config: &robotsmatch::ParseConfig,
) -> Result<(), TestCaseError> {
    let robots = Robots::parse_with(body, config);
    let agents = [
        robotsmatch::Agent::new("Googlebot"),
        robotsmatch::Agent::new("Googlebot-Image").with_fallback("Googlebot"),
        robotsmatch::Agent::new("AdsBot-Google").obeys_wildcard(false),
        robotsmatch::Agent::new("bot"),
    ];
    for profile in Profile::ALL {
        let b = MatcherBuilder::new()
            .profile(*profile)
            .parse_config(config.clone());
        for agent in &agents {
            let full = b.build(&robots, agent.clone());
            let scanned = b.build_from_bytes(body, agent.clone());
            prop_assert_eq!(full.selection(), scanned.selection());
            let a: Vec<_> = full.rules().collect();
            let s: Vec<_> = scanned.rules().collect();
            prop_assert_eq!(a, s, "{:?}", String::from_utf8_lossy(body));
            for path in [
                "/",
                "/a",
                "/a/b",
                "/a/",
                "/x/",
                "/bxc",
                "/x",
                "/n",
                "/h",
                "/robots.txt",
                "/a/b/c?d",
            ] {
                let once = b.decide_once(body, agent.clone(), path);
                let d = full.decide(path);
                prop_assert_eq!(
                    (once.is_allowed(), once.rule()),
                    (d.is_allowed(), d.rule()),
                    "decide_once {} {:?}",
                    path,
                    String::from_utf8_lossy(body)
                );
            }
        }
    }
    Ok(())
}

fn line_piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(
        &[
            "User-agent: *",
            "user-agent: googlebot",
            "User-Agent: Googlebot/2.1",
            "useragent: GoogleBot-Image",
            "User agent: AdsBot-Google",
            "User-agent: * foo",
            "User-agent: *bot",
            "User-agent: bot # comment",
            "Disallow: /a",
            "disalow: /b*c$",
            "Allow: /a/b",
            "Allow: /index.html",
            "Allow: /a/index.htm",
            "allow: /x/index.html?y",
            "Disallow /x",
            "Disallow /x /y",
            "Allow:",
            "Sitemap: http://s",
            "Crawl-delay: 5",
            "# only a comment",
            "",
            "   ",
            "Disallow: /n\0ul",
            "Allow: /h#ash",
            "junk line",
            ":novalue",
        ][..],
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn selective_scan_equals_full_parse(
        lines in prop::collection::vec(line_piece(), 0..24),
        ending in prop::sample::select(&["\n", "\r\n", "\r"][..]),
        bom in any::<bool>(),
    ) {
        let mut body = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        body.extend_from_slice(lines.join(ending).as_bytes());
        same_as_full_parse(&body)?;
    }
}

#[test]
fn selective_scan_equals_full_parse_on_the_sample_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpora/sample/robots");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the sample robots directory") {
        let body = std::fs::read(entry.expect("a directory entry").path()).expect("a file");
        same_as_full_parse(&body).unwrap_or_else(|e| panic!("{e}"));
        n += 1;
    }
    assert!(n > 100, "only {n} sample files");
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

/// Pieces that start with the same byte and contain each other, as real files write them
/// (`/*/sptest/`, `/*/sptest/saas/`, `/*/dcommon/`, ...).
const SHARED_START: &[&str] = &[
    "/sp",
    "/sptest/",
    "/sptest/saas/",
    "/dcommon/",
    "/d",
    "/sp_common/",
    "/x.html",
    "//",
    "/sp/sp",
];

/// Fragments of paths that make those pieces occur, overlap and almost occur.
const SHARED_FRAGMENTS: &[&str] = &[
    "/", "sp", "test", "/sptest/", "saas/", "_common/", "/d", "common/", "x.html", "/sp", "a",
    "%2F",
];

fn shared_rule() -> impl Strategy<Value = (bool, String)> {
    (
        any::<bool>(),
        prop::sample::select(SHARED_START),
        prop::option::of(prop::sample::select(&["$", "*x", "*/sp"][..])),
    )
        .prop_map(|(allow, piece, tail)| (allow, format!("/*{piece}{}", tail.unwrap_or(""))))
}

fn shared_path() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SHARED_FRAGMENTS), 0..40)
        .prop_map(|v| format!("/{}", v.concat()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// One node with more than three searched children puts their pieces in the tree's shared
    /// scan; when the pieces start with at most 4 distinct strings of 3 bytes, the scan
    /// skips to the next of those, else with few pieces to each leftmost occurrence with a
    /// SIMD search (Teddy). Paths long and short (both SIMD searches need a minimum length)
    /// must find every occurrence, overlapping ones included.
    #[test]
    fn tree_shared_scan_with_skips_equals_reference(
        rules in prop::collection::vec(shared_rule(), 4..14),
        paths in prop::collection::vec(shared_path(), 1..24),
    ) {
        // Without extra pieces, rule sets without `/*/d` and `/*//` (pieces of 2 bytes) have
        // pieces that start with `/sp`, `/dc` or `/x.` (`/sptest/`, `/sp_common/` and `/sp/sp`
        // share `/sp`): the scan skips to those. With 4 extra pieces (`/q0`, `sq1`, `pq2`,
        // `dq3`), more than 4 starts: it skips with Teddy (at most 16 pieces) or walks its
        // automaton. With 20, the shared scan has more than 16 pieces, and walks its
        // automaton (with or without a prefilter); on processors with AVX-512 VBMI, the
        // pieces are in a bucket scan instead, and the shared scan takes paths longer than
        // its window. With 80, more pieces than a bucket scan takes: the shared scan's
        // automaton walks every path. With 80 that all start with `/sp` (`/sp0q`, ...), the
        // shared scan skips to the pieces' starts on every path, on every processor.
        for (extra, same_start) in [(0, false), (4, false), (20, false), (80, false), (80, true)] {
            let mut rules = rules.clone();
            for (i, first) in (0..extra).zip(b"/spdx.".iter().cycle()) {
                let rule = if same_start {
                    format!("/*/sp{i}q")
                } else {
                    format!("/*{}q{i}", *first as char)
                };
                rules.push((i % 2 == 0, rule));
            }
            let body = robots_body(&rules);
            let robots = Robots::parse(body.as_bytes());
            let m = MatcherBuilder::new().engine(EngineChoice::Tree).build(&robots, "bot");
            for p in &paths {
                let (got, want) = verdict_and_reference(&m, p);
                prop_assert_eq!(got, want, "{}\n{}", body, p);
            }
        }
    }
}
