//! `hostile`: robots.txt files written to hurt a matcher, and what they cost robotsmatch.
//!
//! For each case: parse + compile time, the matcher's memory, the engine chosen, and the median
//! time to decide a 2 KB URL (and that the decision equals the reference matcher's). With
//! `--write DIR` the files are also written out (the test suite keeps a copy in
//! `corpora/hostile`).
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin hostile [-- --write DIR]`

use std::time::{Duration, Instant};

use robotsmatch::canon::canonical_path;
use robotsmatch::{Matcher, Robots};

/// One hostile case: a name, the file, and URLs that make it work hard.
pub struct Case {
    name: &'static str,
    body: Vec<u8>,
    urls: Vec<Vec<u8>>,
}

fn long_url(fill: &str) -> Vec<u8> {
    let mut u = b"https://example.com/".to_vec();
    while u.len() < 2048 {
        u.extend_from_slice(fill.as_bytes());
    }
    u.truncate(2048);
    u
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();

    let mut s = String::from("User-agent: *\n");
    for i in 0..10_000 {
        s.push_str(&format!("Disallow: /*a{i}*b*c{}*d$\n", i % 97));
    }
    v.push(Case {
        name: "10k-wildcard-rules",
        body: s.into_bytes(),
        urls: vec![
            long_url("a1b/c2/"),
            long_url("a17/b/c17/d"),
            long_url("xyz/"),
        ],
    });

    let mut s = b"User-agent: *\nDisallow: /".to_vec();
    s.extend(std::iter::repeat_n(b'a', 500 * 1024));
    s.push(b'\n');
    v.push(Case {
        name: "500KiB-line",
        body: s,
        urls: vec![long_url("a"), long_url("ab")],
    });

    let mut s = String::new();
    for i in 0..100_000 {
        s.push_str(&format!("User-agent: bot{i}x\n"));
    }
    s.push_str("User-agent: *\nDisallow: /private\n");
    v.push(Case {
        name: "100k-user-agents",
        body: s.into_bytes(),
        urls: vec![long_url("private/"), long_url("public/")],
    });

    let mut s = String::from("User-agent: *\n");
    for k in 1..=16 {
        s.push_str(&format!("Disallow: /{}$\n", "*a".repeat(k)));
        s.push_str(&format!("Allow: /{}b\n", "*a".repeat(k)));
    }
    v.push(Case {
        name: "backtracking-bait",
        body: s.into_bytes(),
        urls: vec![long_url("a"), [long_url("a"), b"b".to_vec()].concat()],
    });

    let mut s = String::from("User-agent: *\n");
    for depth in 1..=50 {
        s.push_str(&format!(
            "Disallow: /{}41{}\n",
            "%25".repeat(depth),
            "%2F".repeat(depth)
        ));
    }
    v.push(Case {
        name: "nested-percent-encoding",
        body: s.into_bytes(),
        urls: vec![long_url("%25%2541%2F"), long_url("%41")],
    });

    let mut s = b"User-agent: *\n".to_vec();
    for b in 0u8..32 {
        s.extend_from_slice(b"Disallow: /ctl");
        s.push(b);
        s.extend_from_slice(b"x\n");
    }
    s.extend_from_slice(b"Disallow: /nul\0/ignored\nAllow: /\x7f\x01\xff\xfe\n");
    v.push(Case {
        name: "nul-and-control-bytes",
        body: s,
        urls: vec![long_url("ctl%01x/"), long_url("nul/")],
    });

    let text = "User-agent: *\r\nDisallow: /private\r\n";
    let mut s = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        s.extend_from_slice(&u.to_le_bytes());
    }
    v.push(Case {
        name: "utf16-file",
        body: s,
        urls: vec![long_url("private/")],
    });
    v
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = match args.as_slice() {
        [flag, dir] if flag == "--write" => Some(std::path::PathBuf::from(dir)),
        [] => None,
        _ => anyhow::bail!("usage: hostile [--write DIR]"),
    };
    println!("| case | size | compile | memory | engine | decide (2 KB URL, median) | agrees with reference |");
    println!("|---|---|---|---|---|---|---|");
    for case in cases() {
        if let Some(dir) = &write {
            std::fs::create_dir_all(dir)?;
            std::fs::write(dir.join(format!("{}.txt", case.name)), &case.body)?;
        }
        let start = Instant::now();
        let m = Matcher::new(&Robots::parse(&case.body), "Googlebot");
        let compile = start.elapsed();
        let mut cache = m.create_cache();
        let mut times = Vec::new();
        let mut agrees = true;
        let mut engine = m.engine();
        for url in &case.urls {
            for _ in 0..21 {
                let t = Instant::now();
                let d = m.decide_with(&mut cache, url);
                times.push(t.elapsed());
                engine = d.engine();
                let want = m.reference().decide(&canonical_path(url));
                agrees &= want.allowed == d.is_allowed();
            }
        }
        println!(
            "| {} | {} KiB | {:.2?} | {:.1} KiB | {} | {:.2?} | {} |",
            case.name,
            case.body.len() / 1024,
            compile,
            (m.memory_usage() + cache.memory_usage()) as f64 / 1024.0,
            engine.as_str(),
            median(times),
            if agrees { "yes" } else { "NO" }
        );
    }
    Ok(())
}
