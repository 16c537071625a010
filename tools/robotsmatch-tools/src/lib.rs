//! Shared helpers for the developer tools in `src/bin`.

use robotsmatch::Robots;

/// Paths made from a file's rules so that rules match, almost match, and miss: each pattern
/// with `*` removed, with `*` filled, extended, and cut short by one byte.
pub fn rule_derived_paths(robots: &Robots, max: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for rule in robots.groups().iter().flat_map(|g| g.rules()) {
        let p = rule.pattern();
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
        for mut path in [
            plain.clone(),
            filled,
            [&plain[..], b"/a.html?q=1"].concat(),
            plain[..plain.len().saturating_sub(1)].to_vec(),
        ] {
            if path.first() != Some(&b'/') {
                path.insert(0, b'/');
            }
            out.push(path);
            if out.len() >= max {
                return out;
            }
        }
    }
    out
}

/// xorshift64*: a small, fast, seeded generator that gives the same sequence on every machine,
/// so generated corpora (`gen-urls`, `make-warc`) are reproducible from their seed.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; zero is mapped to a non-zero state).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    /// True with the given probability in percent.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
}

/// The arguments of the one-file timing tools (`speed`, `oneshot`): `ROBOTS URLS [AGENT]
/// [ROUNDS]`, with the files read.
pub struct TimingArgs {
    /// The robots.txt bytes.
    pub body: Vec<u8>,
    /// The URL file's bytes, one URL per line (see [`TimingArgs::urls`]).
    pub text: Vec<u8>,
    /// The crawler (default `Googlebot`).
    pub agent: String,
    /// How many rounds to time (default 20).
    pub rounds: usize,
}

impl TimingArgs {
    /// Reads the command line of the tool named `tool`.
    pub fn from_env(tool: &str) -> anyhow::Result<TimingArgs> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let [robots, urls, rest @ ..] = args.as_slice() else {
            anyhow::bail!("usage: {tool} ROBOTS URLS [AGENT] [ROUNDS]");
        };
        Ok(TimingArgs {
            body: std::fs::read(robots)?,
            text: std::fs::read(urls)?,
            agent: rest.first().map_or("Googlebot", |s| s.as_str()).to_string(),
            rounds: rest.get(1).map_or(Ok(20), |s| s.parse())?,
        })
    }

    /// The URLs: the non-empty lines of the URL file.
    pub fn urls(&self) -> Vec<&[u8]> {
        self.text
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect()
    }
}

/// The `q`-quantile (0..=1) of sorted values.
pub fn quantile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    Some(sorted[i])
}

/// The `*.txt` files of `dir` (sorted by name) and their distinct bodies (identical files
/// counted once, in name order): the corpus the whole-corpus tools measure. Returns the number
/// of files and the bodies.
pub fn distinct_bodies(dir: &str) -> anyhow::Result<(usize, Vec<Vec<u8>>)> {
    use anyhow::Context;
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list '{dir}'"))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    let mut seen = std::collections::HashSet::new();
    let mut bodies = Vec::new();
    for p in &names {
        let body = std::fs::read(p).with_context(|| format!("cannot read '{}'", p.display()))?;
        if seen.insert(robotsmatch::cache::body_key(&body)) {
            bodies.push(body);
        }
    }
    Ok((names.len(), bodies))
}

/// One hostile case: a name, the file, and URLs that make it work hard.
pub struct Case {
    /// A short name.
    pub name: &'static str,
    /// The robots.txt body.
    pub body: Vec<u8>,
    /// URLs (about 2 KB) that make the matcher work hard.
    pub urls: Vec<Vec<u8>>,
}

fn long_url(fill: &str) -> Vec<u8> {
    let mut u = b"https://example.com/".to_vec();
    while u.len() < 2048 {
        u.extend_from_slice(fill.as_bytes());
    }
    u.truncate(2048);
    u
}

/// The hostile cases: 10,000 rules each with several `*`; one 500 KiB line; 100,000
/// user-agent lines; backtracking bait (`/*a*a*a...$` against long runs of `a`); deeply nested
/// percent-encodings; NUL and control bytes; a UTF-16 file; 64 rules whose lazy DFA's states
/// multiply.
pub fn hostile_cases() -> Vec<Case> {
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

    // 64 rules of 6 to 16 short pieces over four letters (`Disallow: /bd*c*acd*...`), against
    // paths of those letters: every byte may move any rule on, and the lazy DFA's states
    // (sets of positions in all rules at once) multiply.
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut s = String::from("User-agent: *\n");
    for _ in 0..64 {
        let pieces: Vec<String> = (0..6 + next(11))
            .map(|_| {
                (0..1 + next(3))
                    .map(|_| (b'a' + next(4) as u8) as char)
                    .collect()
            })
            .collect();
        let end = if next(2) == 0 { "$" } else { "" };
        s.push_str(&format!("Disallow: /{}{end}\n", pieces.join("*")));
    }
    // Enough different bytes (640 KB) to fill the lazy DFA's 2 MiB cache.
    let urls = (0..320)
        .map(|_| {
            let letters: String = (0..64).map(|_| (b'a' + next(4) as u8) as char).collect();
            long_url(&letters)
        })
        .collect();
    v.push(Case {
        name: "dfa-state-blowup",
        body: s.into_bytes(),
        urls,
    });
    v
}

/// One file written to make `lint` work hard (issue 16): a name and the body, 500 KiB.
pub struct LintCase {
    /// A short name.
    pub name: &'static str,
    /// What the file holds, in a few words.
    pub what: &'static str,
    /// The robots.txt body, just under 500 KiB.
    pub body: Vec<u8>,
}

/// Lines from `line(0)`, `line(1)`, ... after `head`, as many as fit in 500 KiB.
fn fill_500k(head: &str, mut line: impl FnMut(usize) -> String) -> Vec<u8> {
    let mut s = head.to_string();
    for i in 0.. {
        let l = line(i);
        if s.len() + l.len() > 500 * 1024 {
            break;
        }
        s.push_str(&l);
    }
    s.into_bytes()
}

/// The files that made `lint` blow up before it had a work budget, each 500 KiB: the pairwise
/// checks on long wildcard patterns and on `$` patterns, and the checks that were quadratic in
/// the number of groups, user-agent lines or rules.
pub fn hostile_lint_cases() -> Vec<LintCase> {
    vec![
        LintCase {
            name: "stars",
            what: "412 rules /*a*a...*ab, 1 to 1,234 '*a'",
            body: fill_500k("User-agent: *\n", |i| {
                format!("Disallow: /{}b\n", "*a".repeat(3 * i + 1))
            }),
        },
        LintCase {
            name: "dollars",
            what: "999 rules /$...$a, 1 to 999 '$'",
            body: fill_500k("User-agent: *\n", |i| {
                format!("Disallow: /{}a\n", "$".repeat(i + 1))
            }),
        },
        LintCase {
            name: "groups",
            what: "1,000 '*' rules, then 16,000 named groups that drop them",
            body: {
                let mut head = String::from("User-agent: *\n");
                for i in 0..1000 {
                    head.push_str(&format!("Disallow: /w{i}/\n"));
                }
                fill_500k(&head, |i| format!("User-agent: bot{i}\nDisallow: /x\n"))
            },
        },
        LintCase {
            name: "trailing-stars",
            what: "33,000 rules, Disallow /aNNNN* against Allow /bNNNN of the same length",
            body: fill_500k("User-agent: *\n", |i| {
                if i % 2 == 0 {
                    format!("Disallow: /a{:04}*\n", i % 10_000)
                } else {
                    format!("Allow: /b{:04}\n", i % 10_000)
                }
            }),
        },
        LintCase {
            name: "user-agents",
            what: "25,000 user-agent lines abcN (Google reads each as 'abc')",
            body: {
                let mut b = fill_500k("", |i| format!("User-agent: abc{i}\n"));
                b.extend_from_slice(b"Disallow: /\n");
                b
            },
        },
        LintCase {
            name: "full-groups",
            what: "27 groups of 1,000 wildcard rules each",
            body: fill_500k("", |i| {
                if i % 1001 == 0 {
                    format!("User-agent: g{}\n", i / 1001)
                } else {
                    format!("Disallow: /*p{}*q\n", i % 1001)
                }
            }),
        },
    ]
}
