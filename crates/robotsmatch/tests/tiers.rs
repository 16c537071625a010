//! The two tiers: a matcher starts cold, builds its hot engine once it has done enough work,
//! and decides the same way before, during and after the switch, from any number of threads.

use std::sync::Arc;

use robotsmatch::canon::canonical_path;
use robotsmatch::{Engine, Matcher, MatcherBuilder, Robots, Tier};

/// A file with literal and wildcard rules, enough to leave the cold tier.
fn body() -> String {
    let mut s = String::from("User-agent: *\n");
    for i in 0..40 {
        s.push_str(&format!(
            "Disallow: /dir{i}/\nAllow: /dir{i}/open{}\n",
            i % 7
        ));
    }
    s.push_str("Disallow: /*?*sort=\nDisallow: /*.pdf$\nAllow: /public/*.pdf$\n");
    s
}

fn urls() -> Vec<String> {
    (0..600)
        .map(|i| {
            format!(
                "https://example.com/dir{}/open{}/x{}{}",
                i % 50,
                i % 9,
                if i % 3 == 0 { ".pdf" } else { "" },
                if i % 5 == 0 { "?a=1&sort=up" } else { "" }
            )
        })
        .collect()
}

/// Every decision equals the reference matcher's (verdict and line).
fn check(m: &Matcher, url: &str, d: robotsmatch::Decision<'_>) {
    let r = m.reference().decide(&canonical_path(url.as_bytes()));
    assert_eq!(
        (d.is_allowed(), d.rule().map(|r| r.line())),
        (r.allowed, r.rule.map(|i| m.rule(i).line())),
        "{url} ({:?})",
        d.engine()
    );
}

#[test]
fn auto_tier_switches_once_the_matcher_is_hot() {
    let robots = Robots::parse(body().as_bytes());
    let m = Matcher::new(&robots, "Googlebot");
    assert!(!m.is_hot());
    assert_eq!(m.engine(), Engine::Direct);
    let mut engines = Vec::new();
    for round in 0..20 {
        for u in urls() {
            let d = m.decide(&u);
            check(&m, &u, d);
            engines.push(d.engine());
        }
        if round == 0 {
            assert_eq!(engines[0], Engine::Direct, "the first URL is decided cold");
        }
    }
    assert!(m.is_hot(), "12,000 decisions did not make the matcher hot");
    let hot = m.engine();
    assert_ne!(hot, Engine::Direct);
    assert_eq!(engines.last(), Some(&hot));
    // Once switched, it stays switched: no cold decision after the first hot one.
    let first_hot = engines.iter().position(|&e| e == hot).unwrap();
    assert!(engines[first_hot..].iter().all(|&e| e == hot));
}

#[test]
fn small_files_stay_cold_and_forced_tiers_hold() {
    let robots = Robots::parse(b"User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.x$\n");
    let m = Matcher::new(&robots, "bot");
    for _ in 0..50_000 {
        assert_eq!(m.decide("/a/c.x").engine(), Engine::Direct);
    }
    assert!(!m.is_hot());
    let robots = Robots::parse(body().as_bytes());
    let cold = MatcherBuilder::new().tier(Tier::Cold).build(&robots, "bot");
    let hot = MatcherBuilder::new().tier(Tier::Hot).build(&robots, "bot");
    assert!(hot.is_hot());
    for _ in 0..20 {
        for u in urls() {
            let (c, h) = (cold.decide(&u), hot.decide(&u));
            assert_eq!(c.engine(), Engine::Direct);
            assert_ne!(h.engine(), Engine::Direct);
            assert_eq!(
                (c.is_allowed(), c.rule()),
                (h.is_allowed(), h.rule()),
                "{u}"
            );
            check(&cold, &u, c);
        }
    }
    assert!(!cold.is_hot());
}

#[test]
fn threads_decide_while_the_hot_engine_is_built() {
    let robots = Robots::parse(body().as_bytes());
    for _ in 0..4 {
        let m = Arc::new(Matcher::new(&robots, "Googlebot"));
        let threads: Vec<_> = (0..4)
            .map(|t| {
                let m = Arc::clone(&m);
                std::thread::spawn(move || {
                    let mut cache = m.create_cache();
                    let mut seen = Vec::new();
                    for _ in 0..10 {
                        for u in urls() {
                            let d = if t % 2 == 0 {
                                m.decide_with(&mut cache, &u)
                            } else {
                                m.decide(&u)
                            };
                            check(&m, &u, d);
                            seen.push(d.engine());
                        }
                    }
                    seen
                })
            })
            .collect();
        let mut engines = Vec::new();
        for t in threads {
            engines.extend(t.join().expect("a deciding thread panicked"));
        }
        assert!(m.is_hot());
        assert!(engines.contains(&Engine::Direct));
        assert!(engines.contains(&m.engine()));
    }
}

/// `Allow: /` (and `/*`, the same once its `*` is dropped) matches every path, so the library
/// folds its key without matching it: every engine still reports such a rule as the deciding
/// one wherever no longer rule matches, with the priority of the pattern as written (`/*` is
/// longer than `/`), and a longer rule still wins over it.
#[test]
fn every_engine_decides_by_a_slash_rule_that_matches_every_path() {
    use robotsmatch::EngineChoice;
    let mut rest = String::new();
    for i in 0..12 {
        rest.push_str(&format!("Disallow: /d{i}/*.pdf$\nAllow: /*?*k{i}=\n"));
    }
    // (first rule lines, then per URL: allowed and the deciding line). The other rules start
    // on line 4 (`/d0/*.pdf$`) and line 5 (`/*?*k0=`), two lines per `i`.
    let files = [
        (
            "Allow: /\nDisallow: /$\n",
            [
                (true, 2),
                (true, 2),
                (true, 2),
                (false, 10),
                (true, 2),
                (true, 15),
                (false, 3),
            ],
        ),
        (
            "Allow: /\nDisallow: /*\n",
            [
                (false, 3),
                (false, 3),
                (false, 3),
                (false, 10),
                (false, 3),
                (true, 15),
                (false, 3),
            ],
        ),
    ];
    let urls = [
        "https://example.com/x/y?z",
        "https://example.com/x",
        "https://example.com/ab",
        "https://example.com/d3/a.pdf",
        "https://example.com/d3/a.pdfx",
        "https://example.com/q?a=1&k5=2",
        // `/$` is still a pattern: it matches `/` alone, and outranks `/`.
        "https://example.com/",
    ];
    for (head, want) in files {
        let body = format!("User-agent: *\n{head}{rest}");
        let robots = Robots::parse(body.as_bytes());
        for choice in [
            EngineChoice::Auto,
            EngineChoice::Direct,
            EngineChoice::Lazy,
            EngineChoice::Split,
            EngineChoice::Tree,
            EngineChoice::Dense,
            EngineChoice::Reference,
        ] {
            let m = MatcherBuilder::new()
                .engine(choice)
                .tier(Tier::Hot)
                .build(&robots, "Googlebot");
            for (url, (allowed, line)) in urls.iter().zip(want) {
                let d = m.decide(url);
                check(&m, url, d);
                assert_eq!(
                    (d.is_allowed(), d.rule().map(|r| r.line())),
                    (allowed, Some(line)),
                    "{head:?} {url} ({choice:?}, {:?})",
                    d.engine()
                );
            }
        }
    }
}
