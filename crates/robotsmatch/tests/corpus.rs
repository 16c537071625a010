//! Differential test over real data: real robots.txt files against real URLs of their hosts
//! and URLs derived from their rules, for several crawlers, robotsmatch vs Google's library.
//!
//! By default it reads the sample in `corpora/sample` (see its README). The whole corpus, from
//! the repository's root (the variable is read from the test's directory, so make it absolute):
//! `ROBOTSMATCH_CORPUS=$PWD/../shared/corpora cargo test --release -p robotsmatch --test main corpus -- --nocapture`.
//!
//! Where canonicalisation cannot matter (no `%` and no byte >= 0x80 in the URL or the file,
//! the file within the 500 KiB parse limit, the path not `/robots.txt`), the URL has no `\`
//! and Google's cut-down reading of the `user-agent` lines chooses the same groups as the
//! whole product tokens (issue 15), the verdicts and the deciding lines must be identical.
//! Elsewhere differences are counted by cause and printed.
//! On every URL, the compiled matcher must equal the reference matcher.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use robotsmatch::canon::canonical_path;
use robotsmatch::{Matcher, MatcherBuilder, ParseConfig, Robots, Tier};

use crate::oracle::{workspace, Oracle};

const AGENTS: &[&str] = &["Googlebot", "GPTBot", "RobotsmatchTestbot"];
/// Rule-derived URLs per file (fewer for big files, which the oracle re-parses per URL).
const DERIVED_PER_FILE: usize = 120;
const DERIVED_PER_BIG_FILE: usize = 24;
/// Log URLs per host and agent in the full run.
const LOG_URLS_PER_HOST: usize = 2000;

fn host_of(url: &[u8]) -> Option<String> {
    let s = std::str::from_utf8(url).ok()?;
    let rest = &s[s.find("://")? + 3..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let auth = auth.rsplit('@').next()?;
    let (host, port) = match auth.rsplit_once(':') {
        Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty() => (h, Some(p)),
        _ => (auth, None),
    };
    let host = host.to_ascii_lowercase();
    Some(match port {
        Some(p) if p != "80" && p != "443" => format!("{host}_{p}"),
        _ => host,
    })
}

fn read_lines(path: &Path) -> Vec<Vec<u8>> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    BufReader::new(reader)
        .split(b'\n')
        .map(|l| {
            let mut l = l.unwrap();
            if l.last() == Some(&b'\r') {
                l.pop();
            }
            l
        })
        .filter(|l| !l.is_empty())
        .collect()
}

/// URLs made from a file's rules so that rules match, almost match, and miss.
fn derived_urls(host: &str, robots: &Robots, max: usize) -> Vec<Vec<u8>> {
    // A few fixed paths, so files without rules are exercised too.
    let mut out: Vec<Vec<u8>> = ["/", "/index.html", "/search?q=robots", "/a/b/c.pdf"]
        .iter()
        .map(|p| format!("https://{host}{p}").into_bytes())
        .collect();
    'rules: for group in robots.groups() {
        for rule in group.rules() {
            let p = rule.pattern();
            if p.is_empty() {
                continue;
            }
            let plain: Vec<u8> = p
                .iter()
                .copied()
                .filter(|&b| b != b'*' && b != b'$')
                .collect();
            let filled: Vec<u8> = p
                .iter()
                .flat_map(|&b| match b {
                    b'*' => b"x/y".to_vec(),
                    b'$' => Vec::new(),
                    b => vec![b],
                })
                .collect();
            for path in [
                plain.clone(),
                filled,
                [&plain[..], b"x"].concat(),
                [&plain[..], b"/a.html"].concat(),
                [&plain[..], b"?q=1"].concat(),
                plain[..plain.len().saturating_sub(1)].to_vec(),
            ] {
                let mut url = format!("https://{host}").into_bytes();
                if path.first() != Some(&b'/') {
                    url.push(b'/');
                }
                url.extend_from_slice(&path);
                out.push(url);
                if out.len() >= max {
                    break 'rules;
                }
            }
        }
    }
    out
}

/// The groups Google's library chooses for `agent` (a name of letters only): those whose
/// `user-agent` values, cut to their leading letters, `-` and `_`, equal it; else the `*` groups.
/// The groups Google's library applies to `agent`: it cuts each `user-agent` name at the first
/// byte that is not a letter, `-` or `_` (also used by `generated.rs`).
pub(crate) fn google_groups(robots: &Robots, agent: &str) -> Vec<usize> {
    let groups = robots.groups();
    let named: Vec<usize> = (0..groups.len())
        .filter(|&i| {
            groups[i]
                .agents()
                .iter()
                .any(|a| !a.is_wildcard() && a.google_token().eq_ignore_ascii_case(agent))
        })
        .collect();
    if !named.is_empty() {
        return named;
    }
    (0..groups.len())
        .filter(|&i| groups[i].is_wildcard())
        .collect()
}

fn sensitive(b: &[u8]) -> bool {
    b.iter().any(|&c| c == b'%' || c >= 0x80)
}

#[derive(Default)]
struct Tally {
    files: usize,
    decisions: usize,
    strict: usize,
    strict_fail: Vec<String>,
    engine_vs_reference: Vec<String>,
    /// cause -> (compared, differing)
    loose: BTreeMap<&'static str, (usize, usize)>,
    examples: BTreeMap<&'static str, Vec<String>>,
}

#[test]
fn real_files_agree_with_google() {
    let (robots_dir, url_files, full) = match std::env::var_os("ROBOTSMATCH_CORPUS") {
        Some(dir) => {
            // Issue 17: a relative path is read from the workspace root (cargo runs tests from
            // the crate's folder), and a missing folder is named.
            let given = PathBuf::from(dir);
            let root = workspace().canonicalize().unwrap_or_else(|_| workspace());
            let dir = if given.is_absolute() {
                given.clone()
            } else {
                root.join(&given)
            };
            for sub in ["urls", "robots"] {
                assert!(
                    dir.join(sub).is_dir(),
                    "ROBOTSMATCH_CORPUS={}: no folder {} (a relative path is read from the workspace root {})",
                    given.display(),
                    dir.join(sub).display(),
                    root.display()
                );
            }
            let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("urls"))
                .expect("corpus urls dir")
                .map(|e| e.unwrap().path())
                .filter(|p| p.to_string_lossy().ends_with(".txt.gz"))
                .collect();
            files.sort();
            (dir.join("robots"), files, true)
        }
        None => {
            let s = workspace().join("corpora/sample");
            (s.join("robots"), vec![s.join("urls.txt")], false)
        }
    };
    let mut by_host: HashMap<String, Vec<Vec<u8>>> = HashMap::new();
    for f in &url_files {
        for url in read_lines(f) {
            if let Some(h) = host_of(&url) {
                by_host.entry(h).or_default().push(url);
            }
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&robots_dir)
        .expect("robots dir")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() > 100,
        "too few robots files in {}",
        robots_dir.display()
    );

    let mut oracle = Oracle::start().expect("oracle");
    let mut t = Tally::default();
    for path in &files {
        let host = path.file_stem().unwrap().to_string_lossy().into_owned();
        let body = std::fs::read(path).unwrap();
        let robots = Robots::parse(&body);
        let over_limit = body.len() > ParseConfig::DEFAULT_MAX_BYTES;
        let file_sensitive = sensitive(&body[..body.len().min(ParseConfig::DEFAULT_MAX_BYTES)]);
        let max_derived = if body.len() > 50_000 {
            DERIVED_PER_BIG_FILE
        } else {
            DERIVED_PER_FILE
        };
        let mut urls = derived_urls(&host, &robots, max_derived);
        if let Some(log) = by_host.get(&host) {
            let step = if full {
                (log.len() / LOG_URLS_PER_HOST).max(1)
            } else {
                1
            };
            urls.extend(log.iter().step_by(step).cloned());
        }
        if urls.is_empty() {
            continue;
        }
        t.files += 1;
        let url_refs: Vec<&[u8]> = urls.iter().map(|u| u.as_slice()).collect();
        for agent in AGENTS {
            let m = Matcher::new(&robots, *agent);
            // The cold tier decides first; the hot engine must agree with it everywhere.
            let hot = MatcherBuilder::new().tier(Tier::Hot).build(&robots, *agent);
            let token_cut = google_groups(&robots, agent) != m.selection().groups();
            let google = oracle
                .as_mut()
                .map(|o| o.ask_file(path, agent, &url_refs).expect("oracle"));
            for (i, url) in urls.iter().enumerate() {
                let d = m.decide(url);
                t.decisions += 1;
                let canonical = canonical_path(url);
                let r = m.reference().decide(&canonical);
                let h = hot.decide(url);
                let once = Matcher::decide_once(&body, *agent, url);
                if (once.is_allowed(), once.rule()) != (d.is_allowed(), d.rule()) {
                    t.engine_vs_reference.push(format!(
                        "{host} {agent} {} (decide_once)",
                        String::from_utf8_lossy(url)
                    ));
                }
                if (r.allowed, r.rule.map(|i| m.rule(i).line()))
                    != (d.is_allowed(), d.rule().map(|r| r.line()))
                    || (h.is_allowed(), h.rule()) != (d.is_allowed(), d.rule())
                {
                    t.engine_vs_reference
                        .push(format!("{host} {agent} {}", String::from_utf8_lossy(url)));
                }
                let Some(g) = google.as_ref().map(|g| g[i]) else {
                    continue;
                };
                let agree =
                    g.allowed == d.is_allowed() && d.rule().is_none_or(|r| r.line() == g.line);
                let cause = if canonical.as_ref() == b"/robots.txt" {
                    Some("path is /robots.txt (always allowed)")
                } else if over_limit {
                    Some("file over the 500 KiB parse limit")
                } else if token_cut {
                    Some("Google cuts a user-agent name (product token)")
                } else if url.contains(&b'\\') {
                    Some("URL has '\\' (read as '/')")
                } else if sensitive(url) {
                    Some("URL has % or non-ASCII (canonicalisation)")
                } else if file_sensitive {
                    Some("file has % or non-ASCII (canonicalisation)")
                } else {
                    None
                };
                match cause {
                    None => {
                        t.strict += 1;
                        if !agree {
                            t.strict_fail.push(format!(
                                "{host} {agent} {}: robotsmatch {} line {:?}, Google {} line {}",
                                String::from_utf8_lossy(url),
                                d.is_allowed(),
                                d.rule().map(|r| r.line()),
                                g.allowed,
                                g.line
                            ));
                        }
                    }
                    Some(c) => {
                        let e = t.loose.entry(c).or_default();
                        e.0 += 1;
                        if g.allowed != d.is_allowed() {
                            e.1 += 1;
                            let ex = t.examples.entry(c).or_default();
                            if ex.len() < 3 {
                                ex.push(format!(
                                    "{host} {agent} {} robotsmatch {} (line {:?}) Google {} (line {})",
                                    String::from_utf8_lossy(url),
                                    if d.is_allowed() { "allowed" } else { "disallowed" },
                                    d.rule().map(|r| r.line()),
                                    if g.allowed { "allowed" } else { "disallowed" },
                                    g.line
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "differential: {} files, {} decisions ({} agents); engine vs reference mismatches: {}",
        t.files,
        t.decisions,
        AGENTS.len(),
        t.engine_vs_reference.len()
    );
    if oracle.is_some() {
        eprintln!(
            "  where canonicalisation cannot matter: {} compared, {} differ from Google",
            t.strict,
            t.strict_fail.len()
        );
        for (cause, (n, diff)) in &t.loose {
            eprintln!("  {cause}: {n} compared, {diff} verdicts differ");
            for ex in t.examples.get(cause).into_iter().flatten() {
                eprintln!("    e.g. {ex}");
            }
        }
    }
    assert!(
        t.engine_vs_reference.is_empty(),
        "engine differs from reference: {:#?}",
        &t.engine_vs_reference[..t.engine_vs_reference.len().min(20)]
    );
    assert!(
        t.strict_fail.is_empty(),
        "{} differences from Google where canonicalisation cannot matter: {:#?}",
        t.strict_fail.len(),
        &t.strict_fail[..t.strict_fail.len().min(30)]
    );
}

/// www.reddit.com's rules decide through the lazy DFA, which learns the run of bytes that
/// follows a skip (`/comments/` after `/r/<name>`) and then passes over it. One matcher and
/// one cache decide thousands of URLs made of the pieces its rules care about, so that runs
/// are learnt, passed over, and missed by one byte (`/comment/`, `/commentz/`, a path that
/// ends inside the run); every verdict and deciding line agrees with the reference matcher
/// and with Google's library.
#[test]
fn reddit_walks_that_pass_over_runs_agree_with_google() {
    let path = workspace().join("corpora/sample/robots/www.reddit.com.txt");
    let body = std::fs::read(&path).expect("the sample's www.reddit.com.txt");
    let robots = Robots::parse(&body);
    let hot = MatcherBuilder::new()
        .tier(Tier::Hot)
        .build(&robots, "Googlebot");
    assert_eq!(hot.engine().as_str(), "lazy");
    let mut x: u64 = 0x5EED;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let pieces = [
        "/comments/",
        "/comment/",
        "/commentz/",
        "/comments",
        "/de/",
        "/es/",
        "/x/",
        ".rss",
        ".json",
        "?sort=new",
        "?feed=1",
        "/search",
        "/submit",
        "/",
        "t2_",
        "before=",
        ".i",
        "/wiki/",
        "/config/",
    ];
    let urls: Vec<Vec<u8>> = (0..6000)
        .map(|_| {
            let mut url = b"https://www.reddit.com/r/".to_vec();
            // Names and words long enough that skipping through them pays (the lazy DFA's
            // trial turns skipping, and with it the runs, off where skips are short).
            url.extend((0..6 + next(16)).map(|_| b"abcxyz"[next(6) as usize]));
            // As in Reddit's own URLs, `/comments/` usually follows the name: the run that
            // is learnt.
            if next(5) != 0 {
                url.extend_from_slice(b"/comments/");
            }
            for _ in 0..1 + next(6) {
                url.extend_from_slice(pieces[next(pieces.len() as u64) as usize].as_bytes());
                url.extend((0..next(24)).map(|_| b"abq_"[next(4) as usize]));
            }
            url
        })
        .collect();
    let refs: Vec<&[u8]> = urls.iter().map(|u| u.as_slice()).collect();
    let google = Oracle::start()
        .expect("oracle")
        .map(|mut o| o.ask_file(&path, "Googlebot", &refs).expect("oracle"));
    let mut cache = hot.create_cache();
    let mut disallowed = 0;
    for (i, url) in urls.iter().enumerate() {
        let d = hot.decide_with(&mut cache, url);
        let r = hot.reference().decide(&canonical_path(url));
        let text = String::from_utf8_lossy(url);
        assert_eq!(
            (d.is_allowed(), d.rule().map(|r| r.line())),
            (r.allowed, r.rule.map(|i| hot.rule(i).line())),
            "{text}: against the reference"
        );
        if let Some(g) = google.as_ref().map(|g| g[i]) {
            assert_eq!(d.is_allowed(), g.allowed, "{text}: against Google");
            if let Some(rule) = d.rule() {
                assert_eq!(rule.line(), g.line, "{text}: the deciding line");
            }
        }
        disallowed += usize::from(!d.is_allowed());
    }
    // Both verdicts are well represented (a generator that missed the rules would not test
    // the walk).
    assert!(
        (1000..5000).contains(&disallowed),
        "{disallowed} disallowed"
    );
}
