//! Conformance cases as data: `corpora/conformance/*.toml` (schema in its README).
//!
//! Every case runs on every engine (auto, lazy, dense) and on the reference matcher, in four
//! variants whose verdict must not change: as written, with CRLF line endings, with upper-case
//! keys, and with the bare path instead of the absolute URL. Unless the case is marked
//! `oracle-differs` (or uses a profile other than `google`), each variant also runs through
//! Google's C++ library. Failures are listed as `file/name [variant]: message`.
//!
//! `ROBOTSMATCH_CASES=text` runs only the cases whose `file/name` contains `text`.
//! `corpora/conformance/expected_failures.txt` lists cases known to fail (one `file/name` per
//! line); a listed case that passes is an error too.

use std::collections::{BTreeMap, BTreeSet};

use robotsmatch::agent::product_token;
use robotsmatch::canon::path_and_query;
use robotsmatch::{Profile, Robots};
use serde::Deserialize;

use crate::oracle::{workspace, Oracle};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    case: Vec<Case>,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    agent: String,
    url: String,
    verdict: Verdict,
    rule: RuleSpec,
    source: String,
    robots: String,
    #[serde(default)]
    profile: Option<String>,
    #[serde(default)]
    escaped: bool,
    #[serde(default, rename = "oracle-differs")]
    oracle_differs: Option<String>,
    /// The crawl-delay that applies to the crawler (seconds, or "none"); robotsmatch's answer
    /// only: Google ignores crawl-delay.
    #[serde(default, rename = "crawl-delay")]
    crawl_delay: Option<DelaySpec>,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(untagged)]
enum DelaySpec {
    Seconds(f64),
    None(String),
}

#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Allowed,
    Disallowed,
}

#[derive(Deserialize, Clone, Debug)]
#[serde(untagged)]
enum RuleSpec {
    None(String),
    Rule {
        line: u32,
        kind: String,
        pattern: String,
    },
}

/// Decodes the escapes of an `escaped = true` case: `\r \n \t \\ \xHH`.
fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b.get(i + 1) {
            Some(b'r') => out.push(b'\r'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let h = s.get(i + 2..i + 4).ok_or("short \\x escape")?;
                out.push(u8::from_str_radix(h, 16).map_err(|e| format!("bad \\x{h}: {e}"))?);
                i += 2;
            }
            other => return Err(format!("unknown escape \\{:?}", other.map(|&c| c as char))),
        }
        i += 2;
    }
    Ok(out)
}

/// The variants of a case: (label, robots, url). The verdict must be the same for all.
fn variants(case: &Case, robots: &[u8], url: &[u8]) -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let mut v = vec![("as-written", robots.to_vec(), url.to_vec())];
    if !robots.contains(&b'\r') {
        let mut crlf = Vec::with_capacity(robots.len() + 16);
        for &b in robots {
            if b == b'\n' {
                crlf.push(b'\r');
            }
            crlf.push(b);
        }
        v.push(("crlf", crlf, url.to_vec()));
    }
    if !case.escaped {
        let upper: Vec<u8> = robots
            .split(|&b| b == b'\n')
            .map(|line| match line.iter().position(|&b| b == b':') {
                Some(i) if !line[..i].contains(&b'#') => {
                    let mut l = line[..i].to_ascii_uppercase();
                    l.extend_from_slice(&line[i..]);
                    l
                }
                _ => line.to_vec(),
            })
            .collect::<Vec<_>>()
            .join(&b'\n');
        v.push(("upper-keys", upper, url.to_vec()));
    }
    if url.windows(3).any(|w| w == b"://") {
        v.push((
            "bare-path",
            robots.to_vec(),
            path_and_query(url).into_owned(),
        ));
    }
    v
}

fn load() -> Vec<(String, Case)> {
    let dir = workspace().join("corpora/conformance");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    paths.sort();
    let mut names = BTreeSet::new();
    let mut cases = Vec::new();
    for p in paths {
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).unwrap();
        let file: File = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        for case in file.case {
            assert!(
                names.insert(case.name.clone()),
                "duplicate case name {} (in {})",
                case.name,
                p.display()
            );
            cases.push((format!("{stem}/{}", case.name), case));
        }
    }
    cases
}

fn expected_failures() -> BTreeSet<String> {
    let p = workspace().join("corpora/conformance/expected_failures.txt");
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Runs one case; returns the failure messages.
fn run_case(id: &str, case: &Case, oracle: &mut Option<Oracle>) -> Vec<String> {
    let mut fails = Vec::new();
    if case.source.trim().is_empty() {
        fails.push(format!("{id}: empty source"));
    }
    let (robots, url) = if case.escaped {
        match (unescape(&case.robots), unescape(&case.url)) {
            (Ok(r), Ok(u)) => (r, u),
            (Err(e), _) | (_, Err(e)) => return vec![format!("{id}: {e}")],
        }
    } else {
        (
            case.robots.clone().into_bytes(),
            case.url.clone().into_bytes(),
        )
    };
    let profile_name = case.profile.as_deref().unwrap_or("google");
    let Some(profile) = Profile::from_name(profile_name) else {
        return vec![format!("{id}: unknown profile {profile_name}")];
    };
    let want_allowed = case.verdict == Verdict::Allowed;
    for (label, body, url) in variants(case, &robots, &url) {
        let parsed = Robots::parse(&body);
        for (n, builder) in crate::prop::builders(profile).into_iter().enumerate() {
            let m = builder.build(&parsed, case.agent.as_str());
            let d = m.decide(&url);
            let once = builder.decide_once(&body, case.agent.as_str(), &url);
            if (once.is_allowed(), once.rule()) != (d.is_allowed(), d.rule()) {
                fails.push(format!(
                    "{id} [{label}]: decide_once gives {:?}, the matcher {:?}",
                    (once.is_allowed(), once.rule()),
                    (d.is_allowed(), d.rule())
                ));
            }
            let engine_name = format!("builder {n}/{}", d.engine().as_str());
            if d.is_allowed() != want_allowed {
                fails.push(format!(
                    "{id} [{label}, {engine_name}]: verdict {} (rule {:?}), want {:?}",
                    if d.is_allowed() {
                        "allowed"
                    } else {
                        "disallowed"
                    },
                    d.rule().map(|r| r.to_string()),
                    case.verdict
                ));
            }
            match (&case.rule, d.rule()) {
                (RuleSpec::None(s), got) => {
                    if s != "none" {
                        fails.push(format!("{id}: rule must be a table or \"none\""));
                    } else if let Some(r) = got {
                        fails.push(format!(
                            "{id} [{label}, {engine_name}]: decided by line {} '{r}', want no rule",
                            r.line()
                        ));
                    }
                }
                (
                    RuleSpec::Rule {
                        line,
                        kind,
                        pattern,
                    },
                    got,
                ) => {
                    let want_pattern = if case.escaped {
                        unescape(pattern).unwrap_or_default()
                    } else {
                        pattern.clone().into_bytes()
                    };
                    let ok = got.is_some_and(|r| {
                        r.line() == *line
                            && r.kind().as_str() == kind
                            && r.pattern() == want_pattern
                    });
                    if !ok {
                        fails.push(format!(
                            "{id} [{label}, {engine_name}]: decided by {:?}, want line {line} {kind}: {pattern}",
                            got.map(|r| format!("line {} {}", r.line(), r))
                        ));
                    }
                }
            }
            if let Some(spec) = &case.crawl_delay {
                let got = m.selection().crawl_delay(&parsed).map(|d| d.seconds());
                let want = match spec {
                    DelaySpec::Seconds(s) => Some(*s),
                    DelaySpec::None(s) if s == "none" => None,
                    DelaySpec::None(s) => {
                        fails.push(format!(
                            "{id}: crawl-delay must be a number or \"none\", not {s:?}"
                        ));
                        None
                    }
                };
                if got != want {
                    fails.push(format!(
                        "{id} [{label}, {engine_name}]: crawl-delay {got:?}, want {want:?}"
                    ));
                }
            }
            let canonical = robotsmatch::canon::canonical_path(&url);
            let r = m.reference().decide(&canonical);
            if r.allowed != d.is_allowed() || r.rule.map(|i| m.rule(i)) != d.rule() {
                fails.push(format!(
                    "{id} [{label}, {engine_name}]: reference disagrees with engine"
                ));
            }
        }
        if case.oracle_differs.is_none() && profile == Profile::GOOGLE {
            if let Some(o) = oracle.as_mut() {
                let token = product_token(&case.agent);
                match o.ask(&body, token, &[url.as_slice()]) {
                    Ok(a) => {
                        let g = a[0];
                        if g.allowed != want_allowed {
                            fails.push(format!(
                                "{id} [{label}, Google]: Google says {} (line {}), case says {:?}",
                                if g.allowed { "allowed" } else { "disallowed" },
                                g.line,
                                case.verdict
                            ));
                        }
                        if let RuleSpec::Rule { line, .. } = &case.rule {
                            if g.line != *line {
                                fails.push(format!(
                                    "{id} [{label}, Google]: Google's matching line {}, case says {line}",
                                    g.line
                                ));
                            }
                        }
                    }
                    Err(e) => fails.push(format!("{id}: oracle: {e}")),
                }
            }
        }
    }
    fails
}

#[test]
fn conformance_cases() {
    let cases = load();
    let filter = std::env::var("ROBOTSMATCH_CASES").ok();
    let expected = expected_failures();
    let mut oracle = Oracle::start().expect("oracle");
    let mut failures: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let (mut run, mut differs, mut oracle_checked) = (0, 0, 0);
    let mut categories: BTreeMap<String, usize> = BTreeMap::new();
    for (id, case) in &cases {
        if filter.as_ref().is_some_and(|f| !id.contains(f.as_str())) {
            continue;
        }
        run += 1;
        if let Some(why) = &case.oracle_differs {
            differs += 1;
            let cat = why.split(':').next().unwrap_or(why).trim().to_string();
            *categories.entry(cat).or_default() += 1;
        } else if case.profile.as_deref().unwrap_or("google") == "google" && oracle.is_some() {
            oracle_checked += 1;
        }
        let f = run_case(id, case, &mut oracle);
        if !f.is_empty() {
            failures.insert(id.clone(), f);
        }
    }
    eprintln!(
        "conformance: {run} cases, {oracle_checked} checked against Google's library, \
         {differs} marked oracle-differs {categories:?}"
    );
    let mut problems = Vec::new();
    for (id, f) in &failures {
        if !expected.contains(id) {
            problems.extend(f.iter().cloned());
        }
    }
    for id in &expected {
        if !failures.contains_key(id) && cases.iter().any(|(i, _)| i == id) {
            problems.push(format!("{id}: listed in expected_failures.txt but passes"));
        }
    }
    assert!(
        filter.is_some() || cases.len() >= 200,
        "only {} conformance cases",
        cases.len()
    );
    assert!(
        problems.is_empty(),
        "{} failures:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn unescape_works() {
    assert_eq!(
        unescape(r"a\r\n\t\\\xEF\xbb").unwrap(),
        b"a\r\n\t\\\xEF\xBB"
    );
    assert!(unescape(r"\q").is_err());
}
