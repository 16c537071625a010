//! `gen-urls`: a deterministic (seeded) URL set for a benchmark workload.
//!
//! The URLs are made so that the file's rules actually match: paths instantiated from the
//! rules that apply to the agent (wildcards filled, `$` honoured or broken), near misses (one
//! byte changed, case flipped, cut short), random deeper paths, query strings, percent-encoded
//! segments (both hex cases, encoded reserved characters) and raw non-ASCII segments. The mean
//! length is kept between 60 and 90 bytes.
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin gen-urls -- ROBOTS COUNT SEED [AGENT] > URLS`

use std::io::Write;

use robotsmatch::{Matcher, Robots};
use robotsmatch_tools::Rng;

const WORDS: &[&str] = &[
    "search",
    "help",
    "products",
    "item",
    "shop",
    "cart",
    "checkout",
    "account",
    "img",
    "files",
    "user",
    "profile",
    "2024",
    "news",
    "article",
    "wiki",
    "docs",
    "video",
    "collections",
    "sale",
    "public",
    "category",
    "blog",
    "tag",
    "page",
    "static",
    "media",
    "en",
    "de",
    "about",
];
const EXTENSIONS: &[&str] = &["", "", "", ".html", ".php", ".pdf", ".json", ".jpg", "/"];
const QUERIES: &[&str] = &[
    "q=robots",
    "sort=price",
    "page=1",
    "page=2",
    "color=red&size=m",
    "utm_source=news",
    "id=12345",
    "ref=home",
    "filter=new&order=asc",
    "sessionid=abc123",
];
const ENCODED: &[&str] = &[
    "%2F",
    "%2f",
    "%20",
    "%C3%A9t%C3%A9",
    "%c3%a9",
    "%7Euser",
    "%3F",
    "%E5%95%86%E5%93%81",
];
const RAW: &[&str] = &[
    "caf\u{e9}",
    "\u{5546}\u{54c1}",
    "stra\u{df}e",
    "\u{43c}\u{43e}\u{441}\u{43a}\u{432}\u{430}",
];

fn segment(rng: &mut Rng) -> String {
    let w = *rng.pick(WORDS);
    if rng.chance(60) {
        format!("{w}-{}", rng.below(1000))
    } else {
        w.to_string()
    }
}

fn random_path(rng: &mut Rng, depth: usize) -> String {
    let mut p = String::new();
    for _ in 0..depth {
        p.push('/');
        p.push_str(&segment(rng));
    }
    let ext: &str = rng.pick::<&str>(EXTENSIONS);
    p.push_str(ext);
    p
}

fn from_rule(rng: &mut Rng, pattern: &str) -> String {
    let mut p = String::new();
    let body = pattern.strip_suffix('$');
    let anchored = body.is_some();
    for c in body.unwrap_or(pattern).chars() {
        if c == '*' {
            for _ in 0..rng.below(3) {
                p.push_str(&segment(rng));
                if rng.chance(50) {
                    p.push('/');
                }
            }
        } else {
            p.push(c);
        }
    }
    if !p.starts_with('/') {
        p.insert(0, '/');
    }
    // Honour `$` most of the time; otherwise extend (a near miss for `$` rules).
    if !anchored || rng.chance(30) {
        if rng.chance(90) {
            let depth = 2 + rng.below(3);
            p.push_str(&random_path(rng, depth));
        }
        if rng.chance(30) && !p.contains('?') {
            p.push('?');
            let q: &str = rng.pick::<&str>(QUERIES);
            p.push_str(q);
        }
    }
    p
}

fn near_miss(rng: &mut Rng, mut p: String) -> String {
    match rng.below(3) {
        0 if p.len() > 2 => {
            p.pop();
        }
        1 => p = p.to_uppercase(),
        _ => {
            let mut b = p.into_bytes();
            let i = b.len() / 2;
            if b[i].is_ascii_alphabetic() {
                b[i] ^= 0x20;
            }
            p = String::from_utf8_lossy(&b).into_owned();
        }
    }
    p
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [robots, count, seed, rest @ ..] = args.as_slice() else {
        anyhow::bail!("usage: gen-urls ROBOTS COUNT SEED [AGENT]");
    };
    let agent = rest.first().map_or("Googlebot", |s| s.as_str());
    let count: usize = count.parse()?;
    let mut rng = Rng::new(seed.parse::<u64>()?);
    let body = std::fs::read(robots)?;
    let m = Matcher::new(&Robots::parse(&body), agent);
    let patterns: Vec<String> = m
        .rules()
        .map(|r| r.pattern_lossy().into_owned())
        .filter(|p| !p.is_empty())
        .collect();
    let host = "https://www.example.com";
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut total = 0usize;
    let mut allowed = 0usize;
    for _ in 0..count {
        let kind = rng.below(100);
        let path = if !patterns.is_empty() && kind < 40 {
            let p = rng.pick(&patterns).clone();
            from_rule(&mut rng, &p)
        } else if !patterns.is_empty() && kind < 55 {
            let p = rng.pick(&patterns).clone();
            let p = from_rule(&mut rng, &p);
            near_miss(&mut rng, p)
        } else if kind < 85 {
            let depth = 4 + rng.below(4);
            let mut p = random_path(&mut rng, depth);
            if rng.chance(35) {
                p.push('?');
                let q: &str = rng.pick::<&str>(QUERIES);
                p.push_str(q);
            }
            p
        } else {
            let depth = 2 + rng.below(3);
            let head = random_path(&mut rng, depth);
            let odd = if kind < 95 {
                *rng.pick(ENCODED)
            } else {
                *rng.pick(RAW)
            };
            let tail = random_path(&mut rng, 1);
            format!("{head}/{odd}{tail}")
        };
        let url = format!("{host}{path}");
        total += url.len();
        allowed += m.decide(&url).is_allowed() as usize;
        writeln!(out, "{url}")?;
    }
    out.flush()?;
    eprintln!(
        "{count} URLs, mean length {:.1} bytes, {allowed} allowed, {} disallowed ({} rules for {agent})",
        total as f64 / count.max(1) as f64,
        count - allowed,
        m.rules().len()
    );
    Ok(())
}
