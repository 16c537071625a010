//! Differential test over generated files: thousands of small robots.txt files made of the
//! syntax that real files get wrong (misspelt and oddly cased keys, a missing colon, tabs,
//! `\r` and `\r\n` line ends, comments and blank lines inside groups, rules before any
//! `user-agent`, `sitemap` and unknown lines between groups, `*` and `$` anywhere in a
//! pattern), decided for several crawlers against generated URLs, robotsmatch vs Google's
//! library.
//!
//! The generator stays where none of our deliberate differences from Google's library
//! (README, "Deliberate differences") can matter: no `%`, no byte >= 0x80 except a leading
//! byte-order mark, no `\` or NUL, and no `/robots.txt` path; a file where Google's cut-down
//! reading of the `user-agent` lines would choose other groups is left out (counted). There,
//! every verdict and deciding line must be Google's, and every engine must agree with the
//! reference matcher.

use robotsmatch::canon::canonical_path;
use robotsmatch::{Matcher, MatcherBuilder, Robots, Tier};

use crate::corpus::google_groups;
use crate::oracle::Oracle;

/// Files generated (each decided for every agent of [`AGENTS`] on [`URLS_PER_FILE`] URLs);
/// `ROBOTSMATCH_GENERATED_FILES` sets another count, `ROBOTSMATCH_GENERATED_SEED` another seed
/// (a number), for longer searches.
const FILES: usize = 3000;
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;
const URLS_PER_FILE: usize = 24;
/// The bytes of a line that Google's library keeps (and we do).
const GOOGLE_MAX_LINE: usize = 16_663;
/// URLs longer than this are not decided by the reference matcher (see the test).
const MAX_REFERENCE_URL: usize = 2000;
const AGENTS: &[&str] = &["Googlebot", "Googlebot-Image", "Otherbot"];

/// A xorshift generator (a fixed seed: every run tests the same files).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// A path (or pattern) of the bytes that patterns and URLs share, with `*` and `$` in
/// patterns only.
fn path(rng: &mut Rng, pattern: bool) -> String {
    const PIECES: &[&str] = &[
        "/", "/", "/", "a", "b", "ab", "x", "A", "?", "=", "&", ".", "-", "_", "~", ".html", "/a",
        "/b/", "/ab", "q=1", ";", "!", "'", "(", ")", ",", "+", "@", ":",
    ];
    let mut s = String::new();
    if !(pattern && rng.chance(12)) {
        s.push('/');
    }
    for _ in 0..rng.below(6) {
        if pattern && rng.chance(5) {
            s.push('*');
        } else if pattern && rng.chance(30) {
            s.push('$');
        } else {
            s.push_str(rng.pick(PIECES));
        }
    }
    if pattern && rng.chance(6) {
        s.push('$');
    }
    s
}

/// One generated robots.txt body, and the patterns it was made with.
fn body(rng: &mut Rng) -> (Vec<u8>, Vec<String>) {
    const UA_KEYS: &[&str] = &[
        "User-agent",
        "user-agent",
        "USER-AGENT",
        "User-Agent",
        "useragent",
        "user agent",
        "User_agent",
    ];
    const AGENT_VALUES: &[&str] = &[
        "*",
        "*",
        "Googlebot",
        "googlebot",
        "GOOGLEBOT",
        "Googlebot-Image",
        "Googlebot/2.1",
        "Googlebot (+http://www.google.com/bot.html)",
        "Googlebot-News",
        "Otherbot",
        "otherbot",
        "Other",
        "Google",
        "bot",
        "",
        "Googlebot Otherbot",
        // Google reads these as `Googlebot` (then the file is left out).
        "Googlebot2",
        "Googlebot.1",
    ];
    const ALLOW_KEYS: &[&str] = &["Allow", "allow", "ALLOW", "Alow", "Allowed"];
    const DISALLOW_KEYS: &[&str] = &[
        "Disallow",
        "disallow",
        "DISALLOW",
        "Dissallow",
        "Dissalow",
        "Disalow",
        "Diasllow",
        "Disallaw",
        "Disallowed",
        "Dis-allow",
    ];
    const SEPARATORS: &[&str] = &[":", ":", ": ", " : ", ":\t", "\t:", " ", "\t", "::", "="];
    const OTHER_LINES: &[&str] = &[
        "",
        "",
        "# a comment",
        "   ",
        "Sitemap: http://example.com/sitemap.xml",
        "Crawl-delay: 5",
        "Host: example.com",
        "Noindex: /a",
        "Foo: bar",
        "just words",
        ":",
        "Disallow",
        "User-agent",
        "Allow:",
        "Disallow:",
        "Disallow: # nothing",
    ];
    const ENDS: &[&str] = &["\n", "\n", "\n", "\r\n", "\r"];
    let mut lines: Vec<String> = Vec::new();
    let mut patterns: Vec<String> = Vec::new();
    let mut pattern = |rng: &mut Rng| {
        let mut p = path(rng, true);
        if rng.chance(300) && !p.contains('*') {
            // Past the `GOOGLE_MAX_LINE` bytes of a line that Google's library keeps (as we
            // do). Not after a `*`: Google's matcher then tracks every position of the path
            // through the whole pattern (about a second per URL of 8 KB, where ours take
            // 50 µs).
            p.push_str(&"ab".repeat(8330 + rng.below(8)));
            p.push_str(&path(rng, true));
        }
        patterns.push(p.clone());
        p
    };
    // The shape: groups of `user-agent` lines then rules, with other lines among them, and
    // now and then rules before any group or a random line order.
    const UA: u8 = 0;
    const ALLOW: u8 = 1;
    const DISALLOW: u8 = 2;
    const OTHER: u8 = 3;
    let mut kinds: Vec<u8> = Vec::new();
    if rng.chance(10) {
        kinds.push(DISALLOW);
    }
    for _ in 0..1 + rng.below(3) {
        for _ in 0..1 + rng.below(2) {
            // Now and then another line between two `user-agent` lines.
            let then: &[u8] = if rng.chance(8) { &[UA, OTHER] } else { &[UA] };
            kinds.extend_from_slice(then);
        }
        for _ in 0..1 + rng.below(6) {
            kinds.push([ALLOW, DISALLOW, DISALLOW, OTHER][rng.below(4)]);
        }
    }
    if rng.chance(10) {
        // Any order.
        for i in (1..kinds.len()).rev() {
            kinds.swap(i, rng.below(i + 1));
        }
    }
    for kind in kinds {
        let indent = if rng.chance(10) { " \t" } else { "" };
        // Keys as written most of the time; misspelt, or oddly separated, now and then.
        let key = |rng: &mut Rng, keys: &[&'static str]| {
            if rng.chance(3) {
                rng.pick(keys)
            } else {
                keys[0]
            }
        };
        let sep = if rng.chance(3) {
            rng.pick(SEPARATORS)
        } else {
            ": "
        };
        let line = match kind {
            UA => format!(
                "{indent}{}{sep}{}",
                key(rng, UA_KEYS),
                rng.pick(AGENT_VALUES)
            ),
            ALLOW => format!("{indent}{}{sep}{}", key(rng, ALLOW_KEYS), pattern(rng)),
            DISALLOW => format!("{indent}{}{sep}{}", key(rng, DISALLOW_KEYS), pattern(rng)),
            _ => rng.pick(OTHER_LINES).to_string(),
        };
        let comment = if rng.chance(8) { " # note" } else { "" };
        let trailing = if rng.chance(8) { " \t" } else { "" };
        lines.push(format!("{line}{comment}{trailing}"));
    }
    let mut out = Vec::new();
    if rng.chance(10) {
        out.extend_from_slice("\u{feff}".as_bytes());
    }
    for l in &lines {
        out.extend_from_slice(l.as_bytes());
        out.extend_from_slice(rng.pick(ENDS).as_bytes());
    }
    if rng.chance(4) {
        // No line end after the last line.
        while matches!(out.last(), Some(b'\n' | b'\r')) {
            out.pop();
        }
    }
    (out, patterns)
}

/// One generated URL (absolute, or a bare path), with or without a query and a fragment: half
/// of them on a path made from one of `patterns` (each `*` replaced by a few bytes, a `$` kept
/// out, or the path cut or extended), so that rules match often.
fn url(rng: &mut Rng, patterns: &[String]) -> Vec<u8> {
    const STARTS: &[&str] = &[
        "http://example.com",
        "https://example.com",
        "http://example.com:8080",
        "HTTP://EXAMPLE.COM",
        "https://user@example.com",
        "//example.com",
        "",
        "example.com",
        "ftp://example.com",
        "http:/example.com",
        "https:example.com",
        "http://[::1]:80",
        "http://example.com:",
        "http://a:b@example.com:81",
        "mailto:x@example.com",
    ];
    let start = rng.pick(STARTS);
    let mut u = start.to_string();
    if !patterns.is_empty() && rng.chance(2) {
        let p = &patterns[rng.below(patterns.len())];
        let mut made = String::new();
        for c in p.chars() {
            match c {
                '*' => made.push_str(rng.pick(&["", "a", "/b", "x/y", "?"])),
                '$' => {}
                c => made.push(c),
            }
        }
        if !made.starts_with('/') {
            made.insert(0, '/');
        }
        match rng.below(4) {
            0 => made.truncate(rng.below(made.len() + 1).max(1)),
            1 => made.push_str(&path(rng, false)),
            _ => {}
        }
        u.push_str(&made);
    } else if !(u.is_empty() || rng.chance(20)) || u.is_empty() {
        u.push_str(&path(rng, false));
    }
    if rng.chance(4) {
        u.push('?');
        u.push_str(rng.pick(&["", "a", "q=1", "a=b&c=d", "x/y"]));
    }
    if rng.chance(6) {
        u.push('#');
        u.push_str(rng.pick(&["", "top", "a/b", "x?y"]));
    }
    u.into_bytes()
}

#[test]
fn generated_files_agree_with_google() {
    let mut oracle = Oracle::start().expect("oracle");
    let setting = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let files = setting("ROBOTSMATCH_GENERATED_FILES").map_or(FILES, |n| n as usize);
    // A zero seed would stay zero.
    let mut rng = Rng(setting("ROBOTSMATCH_GENERATED_SEED").unwrap_or(SEED).max(1));
    let (mut decisions, mut compared, mut token_cut, mut disallowed) = (0usize, 0, 0, 0);
    let mut long_files = 0;
    let mut differ: Vec<String> = Vec::new();
    let mut engines: Vec<String> = Vec::new();
    for _ in 0..files {
        let (body, patterns) = body(&mut rng);
        let urls: Vec<Vec<u8>> = (0..URLS_PER_FILE)
            .map(|_| url(&mut rng, &patterns))
            .collect();
        let refs: Vec<&[u8]> = urls.iter().map(|u| u.as_slice()).collect();
        let robots = Robots::parse(&body);
        long_files += usize::from(
            body.split(|&b| b == b'\n' || b == b'\r')
                .any(|l| l.len() > GOOGLE_MAX_LINE),
        );
        for agent in AGENTS {
            let m = Matcher::new(&robots, *agent);
            let hot = MatcherBuilder::new().tier(Tier::Hot).build(&robots, *agent);
            let cut = google_groups(&robots, agent) != m.selection().groups();
            let google = oracle
                .as_mut()
                .map(|o| o.ask(&body, agent, &refs).expect("oracle"));
            for (i, u) in urls.iter().enumerate() {
                decisions += 1;
                let text = String::from_utf8_lossy(u);
                let d = m.decide(u);
                let h = hot.decide(u);
                // The reference matcher tracks every position of the path through every
                // pattern: a URL made from a 16 KB pattern took seconds in a debug build. Those
                // are left to the engines and Google.
                let r = (u.len() <= MAX_REFERENCE_URL).then(|| {
                    let r = m.reference().decide(&canonical_path(u));
                    (r.allowed, r.rule.map(|i| m.rule(i).line()))
                });
                let once = Matcher::decide_once(&body, *agent, u);
                let lines =
                    |d: &robotsmatch::Decision<'_>| (d.is_allowed(), d.rule().map(|r| r.line()));
                if lines(&h) != lines(&d)
                    || lines(&once) != lines(&d)
                    || r.is_some_and(|r| r != lines(&d))
                {
                    engines.push(format!("{body:?} {agent} {text}"));
                }
                disallowed += usize::from(!d.is_allowed());
                let Some(g) = google.as_ref().map(|g| g[i]) else {
                    continue;
                };
                if cut {
                    token_cut += 1;
                    continue;
                }
                compared += 1;
                let agree =
                    g.allowed == d.is_allowed() && d.rule().is_none_or(|r| r.line() == g.line);
                if !agree {
                    differ.push(format!(
                        "{:?} {agent} {text}: robotsmatch {} line {:?}, Google {} line {}",
                        String::from_utf8_lossy(&body),
                        d.is_allowed(),
                        d.rule().map(|r| r.line()),
                        g.allowed,
                        g.line
                    ));
                }
            }
        }
    }
    eprintln!(
        "generated: {files} files ({long_files} with a line over {GOOGLE_MAX_LINE} bytes), {decisions} decisions, {disallowed} disallowed; \
         {compared} compared with Google ({token_cut} left out: Google cuts a user-agent name), \
         {} differ; engine vs reference mismatches: {}",
        differ.len(),
        engines.len()
    );
    assert!(
        engines.is_empty(),
        "engines differ from the reference: {:#?}",
        &engines[..engines.len().min(20)]
    );
    assert!(
        differ.is_empty(),
        "{} differences from Google: {:#?}",
        differ.len(),
        &differ[..differ.len().min(30)]
    );
    assert!(long_files > 0 || files < 1000, "no line over the limit");
    // The generator reaches both verdicts often (one that never disallowed would test little).
    assert!(
        disallowed * 10 > decisions && disallowed * 10 < decisions * 9,
        "{disallowed} of {decisions} disallowed"
    );
}
