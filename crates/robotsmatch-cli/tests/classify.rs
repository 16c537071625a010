//! `classify` tests: the real binary on small logs, whole outputs compared; every bad-input
//! case; determinism across threads, chunk sizes and input paths; the real-data sample
//! against the library one URL at a time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_robotsmatch"));
    cmd.args(args).current_dir(root());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn robotsmatch");
    if let Some(input) = stdin {
        let mut s = child.stdin.take().unwrap();
        s.write_all(input).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A robots directory with three hosts: one plain file, one `<host>/robots.txt`, one port.
fn robots_dir(dir: &Path) -> PathBuf {
    let d = dir.join("robots");
    std::fs::create_dir_all(d.join("sub.example.org")).unwrap();
    std::fs::write(
        d.join("shop.example.txt"),
        "User-agent: *\nDisallow: /cart\nAllow: /cart/help$\n",
    )
    .unwrap();
    std::fs::write(
        d.join("sub.example.org/robots.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    std::fs::write(
        d.join("port.example_8080.txt"),
        "User-agent: Googlebot\nDisallow: /p\n",
    )
    .unwrap();
    std::fs::write(d.join("SOURCES.tsv"), "not a robots file\n").unwrap();
    d
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

const LOG: &str = "https://shop.example/cart
https://SHOP.example/cart/help
https://shop.example/cart/help?x=1&amp;y=2
http://sub.example.org/anything
http://port.example:8080/p/1
http://port.example/p/1
https://nofile.example/cart
";

const LOG_TSV: &str = "disallowed\t2\tDisallow: /cart\thttps://shop.example/cart
allowed\t3\tAllow: /cart/help$\thttps://SHOP.example/cart/help
disallowed\t2\tDisallow: /cart\thttps://shop.example/cart/help?x=1&amp;y=2
disallowed\t2\tDisallow: /\thttp://sub.example.org/anything
disallowed\t2\tDisallow: /p\thttp://port.example:8080/p/1
allowed\t-\t-\thttp://port.example/p/1
allowed\t-\t-\thttps://nofile.example/cart
";

#[test]
fn tsv_whole_output_with_store_directory() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.txt");
    std::fs::write(&log, LOG).unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "Googlebot",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), LOG_TSV);
    assert_eq!(err(&o), "");
}

#[test]
fn bad_input_lines_are_invalid_counted_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.txt");
    // BOM, CRLF, blank lines, spaces, raw non-ASCII, a line that is no URL, no final newline.
    let mut text =
        b"\xEF\xBB\xBFhttps://shop.example/cart\r\n\r\n   https://shop.example/a b  \r\n".to_vec();
    text.extend_from_slice(
        "https://shop.example/caf\u{e9}\nnot a url\n\t\nhttps://shop.example/cart".as_bytes(),
    );
    std::fs::write(&log, &text).unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "Googlebot",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "disallowed\t2\tDisallow: /cart\thttps://shop.example/cart\n\
         invalid\t-\t-\t\n\
         allowed\t-\t-\thttps://shop.example/a b\n\
         allowed\t-\t-\thttps://shop.example/caf\u{e9}\n\
         invalid\t-\t-\tnot a url\n\
         invalid\t-\t-\t \n\
         disallowed\t2\tDisallow: /cart\thttps://shop.example/cart\n"
    );
    let e = err(&o);
    assert!(e.contains("1 malformed lines"), "{e}");
    assert!(
        e.contains("log.txt:5: no scheme://host URL: not a url"),
        "{e}"
    );
}

#[test]
fn many_malformed_lines_are_summarised() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.txt");
    let text: String = (0..25).map(|i| format!("junk {i}\n")).collect();
    std::fs::write(&log, text).unwrap();
    let o = run(
        &["classify", "--robots", p(&robots), "--agent", "x", p(&log)],
        None,
    );
    // Issue 17.5: no line holds a URL: an input error, after the whole output.
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        out(&o).lines().count(),
        25,
        "one output line per input line"
    );
    let e = err(&o);
    assert!(e.contains("25 malformed lines"), "{e}");
    assert!(e.contains("log.txt:10: "), "{e}");
    assert!(!e.contains("log.txt:11: "), "{e}");
    assert!(e.contains("... and 15 more"), "{e}");
}

#[test]
fn jsonl_summary_and_only() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.txt");
    std::fs::write(&log, LOG).unwrap();
    let base = ["classify", "--robots", p(&robots), "--agent", "Googlebot"];

    let o = run(&[&base[..], &["--format", "jsonl", p(&log)]].concat(), None);
    assert_eq!(o.status.code(), Some(0));
    let rows: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[0]["verdict"], "disallowed");
    assert_eq!(rows[0]["host"], "shop.example");
    assert_eq!(rows[0]["rule"]["line"], 2);
    assert_eq!(rows[0]["rule"]["kind"], "disallow");
    assert_eq!(rows[0]["robots"], true);
    assert_eq!(rows[6]["robots"], false);
    assert_eq!(rows[6]["rule"], serde_json::Value::Null);

    let o = run(&[&base[..], &["--only", "allowed", p(&log)]].concat(), None);
    assert_eq!(
        out(&o),
        "allowed\t3\tAllow: /cart/help$\thttps://SHOP.example/cart/help\n\
         allowed\t-\t-\thttp://port.example/p/1\n\
         allowed\t-\t-\thttps://nofile.example/cart\n"
    );

    let o = run(
        &[&base[..], &["--format", "summary", p(&log)]].concat(),
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let s = out(&o);
    let has = |words: &[&str]| {
        s.lines().any(|l| {
            l.split_whitespace()
                .take(words.len())
                .eq(words.iter().copied())
        })
    };
    assert!(has(&["urls", "7"]), "{s}");
    assert!(has(&["disallowed", "4", "57.1%"]), "{s}");
    assert!(has(&["no", "robots", "2", "28.6%"]), "{s}");
    assert!(has(&["3", "1", "2", "shop.example"]), "{s}");
    assert!(s.contains("shop.example:2  Disallow: /cart"), "{s}");
    assert!(s.contains("URLs/s"), "{s}");
}

#[test]
fn columns_and_delimiters() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.csv");
    std::fs::write(
        &log,
        "id,url,status\n1,\"https://shop.example/cart\",200\n2,https://shop.example/x,404\n3\n",
    )
    .unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--column",
            "2",
            "--delimiter",
            ",",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "invalid\t-\t-\tid,url,status\n\
         disallowed\t2\tDisallow: /cart\thttps://shop.example/cart\n\
         allowed\t-\t-\thttps://shop.example/x\n\
         invalid\t-\t-\t3\n"
    );
    assert!(err(&o).contains("log.csv:4: no such column"), "{}", err(&o));
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[test]
fn gzip_stdin_and_multi_member() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    // Two gzip members, split in the middle of a line.
    let (a, b) = LOG.as_bytes().split_at(40);
    let gz = dir.path().join("log.gz");
    std::fs::write(&gz, [gzip(a), gzip(b)].concat()).unwrap();
    let args = ["classify", "--robots", p(&robots), "--agent", "Googlebot"];
    let o = run(&[&args[..], &[p(&gz)]].concat(), None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), LOG_TSV);
    // The same from stdin, plain and gzip.
    let o = run(&[&args[..], &["-"]].concat(), Some(LOG.as_bytes()));
    assert_eq!(out(&o), LOG_TSV);
    let o = run(&[&args[..], &["-"]].concat(), Some(&gzip(LOG.as_bytes())));
    assert_eq!(out(&o), LOG_TSV);
}

#[test]
fn truncated_gzip_keeps_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let mut text = String::new();
    for i in 0..20000 {
        text.push_str(&format!("https://shop.example/cart/{i}\n"));
    }
    let full = gzip(text.as_bytes());
    let gz = dir.path().join("cut.gz");
    std::fs::write(&gz, &full[..full.len() / 2]).unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--chunk-size",
            "4096",
            p(&gz),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("cut.gz: truncated gzip stream"),
        "{}",
        err(&o)
    );
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() > 1000,
        "output before the cut is kept: {}",
        lines.len()
    );
    for (i, l) in lines.iter().enumerate() {
        let want = format!("disallowed\t2\tDisallow: /cart\thttps://shop.example/cart/{i}");
        // The last line may be cut by the truncation; every other must be whole and in order.
        if i + 1 < lines.len() {
            assert_eq!(*l, want);
        }
    }
}

#[test]
fn missing_paths_exit_2_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "no/such.log",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no/such.log"), "{}", err(&o));
    assert!(o.stdout.is_empty());
    let o = run(
        &["classify", "--robots", "no/robots/dir", "--agent", "x", "-"],
        Some(b""),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no/robots/dir"), "{}", err(&o));
}

#[test]
fn broken_pipe_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("big.txt");
    let text: String = (0..300_000)
        .map(|i| format!("https://shop.example/cart/{i}\n"))
        .collect();
    std::fs::write(&log, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(["classify", "--robots", p(&robots), "--agent", "x", p(&log)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe, like `| head -1`.
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = [0u8; 64];
    std::io::Read::read(&mut stdout, &mut buf).unwrap();
    drop(stdout);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), "");
}

/// The same log, byte-identical output for 1, 2 and 8 threads, chunk sizes from 1 KiB to
/// 64 MiB, memory-mapped or read.
#[test]
fn output_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let robots = root().join("corpora/sample/robots");
    let log = root().join("corpora/sample/urls.txt");
    let base = [
        "classify",
        "--robots",
        p(&robots),
        "--agent",
        "Googlebot",
        p(&log),
    ];
    let reference = run(
        &[&base[..], &["--threads", "1", "--chunk-size", "67108864"]].concat(),
        None,
    );
    assert_eq!(reference.status.code(), Some(0), "{}", err(&reference));
    assert!(reference.stdout.len() > 100_000);
    for threads in ["1", "2", "8"] {
        for chunk in ["1024", "65536", "67108864"] {
            for mmap in [true, false] {
                let mut args = [&base[..], &["--threads", threads, "--chunk-size", chunk]].concat();
                if !mmap {
                    args.push("--no-mmap");
                }
                let o = run(&args, None);
                assert!(
                    o.stdout == reference.stdout,
                    "threads {threads} chunk {chunk} mmap {mmap} differs"
                );
            }
        }
    }
    let _ = dir;
}

/// `classify_mmap_and_read_agree`: the memory-mapped path (unsafe) and the read path give the
/// same bytes on a log whose chunks end mid-way through multi-byte characters.
#[test]
fn classify_mmap_and_read_agree() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("utf8.txt");
    let text: String = (0..5000)
        .map(|i| format!("https://shop.example/caf\u{e9}/\u{5546}{i}\n"))
        .collect();
    std::fs::write(&log, text).unwrap();
    let a = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--chunk-size",
            "1000",
            p(&log),
        ],
        None,
    );
    let b = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--chunk-size",
            "1000",
            "--no-mmap",
            p(&log),
        ],
        None,
    );
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(out(&a).lines().count(), 5000);
}

/// The corpus named by `ROBOTSMATCH_CORPUS`: a relative path is read from the workspace root
/// (where the README's commands run), not from this crate's folder, where `cargo test` runs
/// the test; a missing `robots` or `urls` folder is named in the panic (issue 17.1).
fn corpus_dir(value: &std::ffi::OsStr) -> PathBuf {
    let given = PathBuf::from(value);
    let dir = if given.is_absolute() {
        given.clone()
    } else {
        workspace().join(&given)
    };
    for sub in ["robots", "urls"] {
        let path = dir.join(sub);
        assert!(
            path.is_dir(),
            "ROBOTSMATCH_CORPUS={}: no folder {} (a relative path is read from the workspace root {})",
            given.display(),
            path.display(),
            workspace().display()
        );
    }
    dir
}

/// The workspace root, without the `..` of [`root`] (for messages).
fn workspace() -> PathBuf {
    root().canonicalize().unwrap_or_else(|_| root())
}

#[test]
fn issue17_relative_corpus_is_read_from_the_workspace_root() {
    // `corpora` is relative to the root, not to crates/robotsmatch-cli where the test runs.
    let dir = std::panic::catch_unwind(|| corpus_dir(std::ffi::OsStr::new("corpora/sample")));
    // corpora/sample has robots/ but its URLs are one file, not a urls/ folder: the panic
    // names the missing folder, resolved from the root.
    let message = dir
        .err()
        .and_then(|e| e.downcast_ref::<String>().cloned())
        .expect("a panic naming the missing folder");
    let expected = workspace().join("corpora/sample").join("urls");
    assert!(
        message.contains(&format!("no folder {}", expected.display())),
        "{message}"
    );
    assert!(
        message.starts_with("ROBOTSMATCH_CORPUS=corpora/sample:"),
        "{message}"
    );
    // A corpus laid out as the real one, given relative to the root, is found.
    std::fs::create_dir_all(workspace().join("target")).unwrap();
    let tmp = tempfile::tempdir_in(workspace().join("target")).unwrap();
    std::fs::create_dir_all(tmp.path().join("robots")).unwrap();
    std::fs::create_dir_all(tmp.path().join("urls")).unwrap();
    let relative = tmp.path().strip_prefix(workspace()).unwrap();
    assert_eq!(
        corpus_dir(relative.as_os_str()),
        workspace().join(relative),
        "resolved from the root"
    );
}

/// Every verdict of `classify` over real URLs equals the library's, one URL at a time: the
/// sample in `corpora/sample` by default, the whole corpus with
/// `ROBOTSMATCH_CORPUS=../shared/corpora cargo test --release -p robotsmatch-cli --test classify real_`
/// (a relative path is read from the workspace root).
#[test]
fn real_urls_agree_with_one_url_at_a_time() {
    let (robots_dir, logs) = match std::env::var_os("ROBOTSMATCH_CORPUS") {
        Some(value) => {
            let dir = corpus_dir(&value);
            let urls = dir.join("urls");
            let mut logs: Vec<PathBuf> = std::fs::read_dir(&urls)
                .unwrap_or_else(|e| panic!("cannot list {}: {e}", urls.display()))
                .map(|e| e.unwrap().path())
                .filter(|p| p.to_string_lossy().ends_with(".txt.gz"))
                .collect();
            logs.sort();
            (dir.join("robots"), logs)
        }
        None => (
            root().join("corpora/sample/robots"),
            vec![root().join("corpora/sample/urls.txt")],
        ),
    };
    let mut args = vec![
        "classify",
        "--robots",
        p(&robots_dir),
        "--agent",
        "Googlebot",
        "--format",
        "jsonl",
    ];
    args.extend(logs.iter().map(|l| p(l)));
    let o = run(&args, None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // The input lines, decompressed, in order.
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for log in &logs {
        let raw = std::fs::read(log).unwrap();
        let text = if raw.starts_with(&[0x1f, 0x8b]) {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&raw[..]), &mut v)
                .unwrap();
            v
        } else {
            raw
        };
        let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&text).to_vec();
        let mut t = &text[..];
        if t.last() == Some(&b'\n') {
            t = &t[..t.len() - 1];
        }
        lines.extend(
            t.split(|&b| b == b'\n')
                .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec()),
        );
    }
    let stdout = out(&o);
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), lines.len(), "one output line per input line");
    let mut matchers: std::collections::HashMap<String, Option<robotsmatch::Matcher>> =
        Default::default();
    let (mut with_robots, mut invalid) = (0, 0);
    for (line, row) in lines.iter().zip(&rows) {
        if row["verdict"] == "invalid" {
            invalid += 1;
            continue;
        }
        // Matched as written: `&amp;` is not decoded without --decode-amp.
        let url = String::from_utf8_lossy(line).trim().to_string();
        let host = row["host"].as_str().unwrap_or("").to_string();
        let m = matchers.entry(host.clone()).or_insert_with(|| {
            let port = if url.starts_with("https:") {
                "443"
            } else {
                "80"
            };
            std::fs::read(robots_dir.join(format!("{host}.txt")))
                .or_else(|_| std::fs::read(robots_dir.join(format!("{host}_{port}.txt"))))
                .ok()
                .map(|body| {
                    robotsmatch::MatcherBuilder::new()
                        .dense_size_limit(16 << 10)
                        .build(&robotsmatch::Robots::parse(&body), "Googlebot")
                })
        });
        let (allowed, rule_line) = match m {
            Some(m) => {
                with_robots += 1;
                let d = m.decide(url.as_bytes());
                (d.is_allowed(), d.rule().map(|r| r.line() as u64))
            }
            None => (true, None),
        };
        assert_eq!(
            row["verdict"],
            if allowed { "allowed" } else { "disallowed" },
            "{url}"
        );
        assert_eq!(row["rule"]["line"].as_u64(), rule_line, "{url}");
    }
    eprintln!(
        "{} lines: {with_robots} decided by a robots.txt, {invalid} invalid",
        rows.len()
    );
    assert!(with_robots > 1000, "{with_robots}");
}

/// Classification does not depend on the order in which hosts are first seen (compilation is
/// lazy and shared): the log reversed gives the reversed output, line for line.
#[test]
fn host_order_does_not_matter() {
    let dir = tempfile::tempdir().unwrap();
    let robots = root().join("corpora/sample/robots");
    let text = std::fs::read_to_string(root().join("corpora/sample/urls.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let reversed: String = lines.iter().rev().map(|l| format!("{l}\n")).collect();
    let log = dir.path().join("reversed.txt");
    std::fs::write(&log, reversed).unwrap();
    let base = [
        "classify",
        "--robots",
        p(&robots),
        "--agent",
        "Googlebot",
        "--chunk-size",
        "4096",
    ];
    let forward = run(
        &[&base[..], &[p(&root().join("corpora/sample/urls.txt"))]].concat(),
        None,
    );
    let backward = run(&[&base[..], &[p(&log)]].concat(), None);
    assert_eq!(forward.status.code(), Some(0));
    assert_eq!(backward.status.code(), Some(0));
    let f = out(&forward);
    let b = out(&backward);
    let mut f_lines: Vec<&str> = f.lines().collect();
    f_lines.reverse();
    assert_eq!(f_lines, b.lines().collect::<Vec<_>>());
    assert_eq!(f_lines.len(), lines.len());
}

/// Issue 15: the host ended at `\` but the path reader did not stop there, so
/// `http://shop.example\cart` was decided on the path `/` under shop.example's file: allowed,
/// failing open. Host and path now come from one reading, `\` read as `/`.
#[test]
fn issue15_backslash_after_the_host_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.txt");
    std::fs::write(
        &log,
        "http://shop.example\\cart\nhttps://port.example:8080\\p\nhttp://sub.example.org\\x\n",
    )
    .unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "Googlebot",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "disallowed\t2\tDisallow: /cart\thttp://shop.example\\cart\n\
         disallowed\t2\tDisallow: /p\thttps://port.example:8080\\p\n\
         disallowed\t2\tDisallow: /\thttp://sub.example.org\\x\n"
    );
}

/// Issue 14 item 5: `&amp;` is matched as written by default, as `check` and Google's library
/// match it (on the real www.meetup.com robots.txt Google's library allows
/// `.../?from=list&amp;offset=0`, no matching line, and disallows `.../?from=list&offset=0` by
/// `Disallow: /*&offset=*`); `--decode-amp` reads it as `&` for scraped link lists. The URL
/// is printed as written either way.
#[test]
fn issue14_amp_is_matched_as_written_unless_decode_amp() {
    let dir = tempfile::tempdir().unwrap();
    let robots = dir.path().join("robots");
    std::fs::create_dir_all(&robots).unwrap();
    let body = "User-agent: *\nDisallow: /*?offset=*\nDisallow: /*&offset=*\n";
    std::fs::write(robots.join("www.meetup.com.txt"), body).unwrap();
    let escaped = "http://www.meetup.com/find/events/?from=list&amp;offset=0";
    let plain = "http://www.meetup.com/find/events/?from=list&offset=0";
    let log = dir.path().join("links.txt");
    std::fs::write(&log, format!("{escaped}\n{plain}\n")).unwrap();
    let base = ["classify", "--robots", p(&robots), "--agent", "Googlebot"];

    let o = run(&[&base[..], &[p(&log)]].concat(), None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        format!("allowed\t-\t-\t{escaped}\ndisallowed\t3\tDisallow: /*&offset=*\t{plain}\n")
    );
    // The same verdicts as `check` on the same file.
    let file = robots.join("www.meetup.com.txt");
    let check = run(
        &[
            "check",
            "--robots",
            p(&file),
            "--agent",
            "Googlebot",
            "--format",
            "tsv",
            escaped,
            plain,
        ],
        None,
    );
    assert_eq!(out(&check), out(&o));

    let o = run(&[&base[..], &["--decode-amp", p(&log)]].concat(), None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        format!(
            "disallowed\t3\tDisallow: /*&offset=*\t{escaped}\ndisallowed\t3\tDisallow: /*&offset=*\t{plain}\n"
        )
    );
    let o = run(
        &[&base[..], &["--decode-amp", "--format", "jsonl", p(&log)]].concat(),
        None,
    );
    let first: serde_json::Value = serde_json::from_str(out(&o).lines().next().unwrap()).unwrap();
    assert_eq!(first["url"], escaped);
    assert_eq!(first["verdict"], "disallowed");
}

/// Regression: a host's file for the default port (`<host>_443.txt`) applies to its https URLs
/// whatever the order in which http and https URLs of the host come, and on any thread count
/// (the per-thread host table used to key the host without its default port, so the first
/// scheme seen decided for both).
#[test]
fn default_port_file_applies_whatever_the_scheme_order() {
    let dir = tempfile::tempdir().unwrap();
    let robots = dir.path().join("robots");
    std::fs::create_dir_all(&robots).unwrap();
    std::fs::write(
        robots.join("tls.example_443.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    let log = dir.path().join("log.txt");
    std::fs::write(
        &log,
        "http://tls.example/a\nhttps://tls.example/a\nhttp://tls.example/b\n",
    )
    .unwrap();
    for threads in ["1", "2"] {
        let o = run(
            &[
                "classify",
                "--robots",
                p(&robots),
                "--agent",
                "x",
                "--threads",
                threads,
                p(&log),
            ],
            None,
        );
        assert_eq!(
            out(&o),
            "allowed\t-\t-\thttp://tls.example/a\n\
             disallowed\t2\tDisallow: /\thttps://tls.example/a\n\
             allowed\t-\t-\thttp://tls.example/b\n"
        );
    }
}

/// Issue 16: a port that is not a number from 0 to 65535 used to fall back to the host's
/// default-port file (`shop.example:99999` was decided by `shop.example.txt`); such a line is
/// now invalid, and says why.
#[test]
fn issue16_invalid_ports_are_invalid_lines() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.txt");
    std::fs::write(
        &log,
        "http://shop.example:99999/cart\nhttp://shop.example:abc/cart\nhttp://shop.example:/cart\nhttp://shop.example:80/cart\n",
    )
    .unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "Googlebot",
            p(&log),
        ],
        None,
    );
    assert_eq!(
        out(&o),
        "invalid\t-\t-\thttp://shop.example:99999/cart\n\
         invalid\t-\t-\thttp://shop.example:abc/cart\n\
         disallowed\t2\tDisallow: /cart\thttp://shop.example:/cart\n\
         disallowed\t2\tDisallow: /cart\thttp://shop.example:80/cart\n"
    );
    let e = err(&o);
    assert!(
        e.contains("log.txt:1: invalid port: http://shop.example:99999/cart"),
        "{e}"
    );
    assert!(
        e.contains("log.txt:2: invalid port: http://shop.example:abc/cart"),
        "{e}"
    );
}

/// Runs the binary, killing it after `secs` seconds (a regression must fail, not hang).
fn run_deadline(args: &[&str], stdin: Option<Vec<u8>>, secs: u64) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_robotsmatch"));
    cmd.args(args).current_dir(root());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn robotsmatch");
    let writer = stdin.map(|input| {
        let mut s = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = s.write_all(&input);
        })
    });
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let o = child.wait_with_output();
        let _ = tx.send(());
        o
    });
    if rx
        .recv_timeout(std::time::Duration::from_secs(secs))
        .is_err()
    {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        panic!("robotsmatch {args:?} did not finish within {secs} s");
    }
    if let Some(w) = writer {
        let _ = w.join();
    }
    waiter.join().unwrap().unwrap()
}

/// Issue 16.2: a truncated gzip read with the default chunk size (1 MiB) classifies every
/// complete line before the cut (up to 1 MiB of them used to be dropped), and the message
/// says how many lines were classified; exit 2.
#[test]
fn issue16_truncated_gzip_classifies_every_complete_line() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let mut text = String::new();
    for i in 0..150_000 {
        text.push_str(&format!(
            "https://shop.example/cart/{i}/{}\n",
            i * 7919 % 100_003
        ));
    }
    let full = gzip(text.as_bytes());
    let cut = &full[..full.len() / 2];
    let gz = dir.path().join("cut.gz");
    std::fs::write(&gz, cut).unwrap();
    let mut decoded = Vec::new();
    let _ = std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(cut), &mut decoded);
    let complete = decoded.iter().filter(|&&b| b == b'\n').count();
    assert!(complete > 10_000);
    let o = run(
        &["classify", "--robots", p(&robots), "--agent", "x", p(&gz)],
        None,
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let got = out(&o);
    assert_eq!(
        got.lines().count(),
        complete,
        "every complete line, and no cut one"
    );
    for (i, l) in got.lines().enumerate() {
        let want = format!(
            "disallowed\t2\tDisallow: /cart\thttps://shop.example/cart/{i}/{}",
            i * 7919 % 100_003
        );
        assert_eq!(l, want);
    }
    let e = err(&o);
    assert!(e.contains("cut.gz: truncated gzip stream after"), "{e}");
    assert!(e.contains("every complete line before it was read"), "{e}");
    assert!(
        e.contains(&format!("({complete} lines of it classified)")),
        "{e}"
    );
}

/// Issue 16.3: a line without a newline on stdin is `invalid` once past --max-log-line
/// (only its first 256 bytes are shown), and the next line is classified.
#[test]
fn issue16_line_longer_than_the_limit_is_invalid_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let mut input = b"https://shop.example/cart\n".to_vec();
    input.extend(std::iter::repeat_n(b'a', 5 << 20));
    input.extend_from_slice(b"\nhttps://shop.example/cart/help\n");
    for extra in [&["--max-log-line", "1000"][..], &[]] {
        let args = [
            &["classify", "--robots", p(&robots), "--agent", "x"][..],
            extra,
            &["-"],
        ]
        .concat();
        let o = run_deadline(&args, Some(input.clone()), 120);
        // The default limit (1 MiB) is below the 5 MiB line too.
        let want_long = "a".repeat(256);
        assert_eq!(
            out(&o),
            format!(
                "disallowed\t2\tDisallow: /cart\thttps://shop.example/cart\n\
                 invalid\t-\t-\t{want_long}\n\
                 allowed\t3\tAllow: /cart/help$\thttps://shop.example/cart/help\n"
            )
        );
        let e = err(&o);
        assert!(
            e.contains("<stdin>:2: line longer than the limit: aaa"),
            "{e}"
        );
        assert_eq!(o.status.code(), Some(0), "{e}");
    }
    // A limit above the line: it is read whole (and is no URL).
    let o = run_deadline(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--max-log-line",
            "8000000",
            "-",
        ],
        Some(input),
        120,
    );
    assert!(
        err(&o).contains("<stdin>:2: no scheme://host URL"),
        "{}",
        err(&o)
    );
}

/// Issue 16.6: a log whose lines end with a lone CR is one URL per line (it was one URL).
#[test]
fn issue16_cr_only_log_is_one_url_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("mac.txt");
    std::fs::write(
        &log,
        "https://shop.example/cart\rhttps://shop.example/x\rhttps://nofile.example/cart\r",
    )
    .unwrap();
    for extra in [&[][..], &["--no-mmap"]] {
        let args = [
            &["classify", "--robots", p(&robots), "--agent", "x"][..],
            extra,
            &[p(&log)],
        ]
        .concat();
        let o = run(&args, None);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert_eq!(
            out(&o),
            "disallowed\t2\tDisallow: /cart\thttps://shop.example/cart\n\
             allowed\t-\t-\thttps://shop.example/x\n\
             allowed\t-\t-\thttps://nofile.example/cart\n"
        );
    }
}

/// Issue 16.6: `--robots /dev/zero` reads the parse limit + 1 byte, not forever (classify,
/// check, diff).
#[test]
fn issue16_robots_file_is_read_up_to_the_limit() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let o = run_deadline(
        &["classify", "--robots", "/dev/zero", "--agent", "x", "-"],
        Some(b"https://shop.example/cart\n".to_vec()),
        60,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "allowed\t-\t-\thttps://shop.example/cart\n");
    // The other commands that parse a robots.txt read it the same way.
    let o = run_deadline(
        &[
            "check",
            "--robots",
            "/dev/zero",
            "--agent",
            "x",
            "--format",
            "tsv",
            "/a",
        ],
        None,
        60,
    );
    assert_eq!(out(&o), "allowed\t-\t-\t/a\n", "{}", err(&o));
    let o = run_deadline(
        &["diff", "--agent", "x", "/dev/zero", "/dev/zero", "-"],
        Some(b"/a\n".to_vec()),
        60,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // lint reads far more (it reports the size of a large file) but not without end.
    let o = run_deadline(&["lint", "/dev/zero"], None, 60);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(out(&o).starts_with("/dev/zero: error["), "{}", out(&o));
    assert!(
        err(&o).contains("lint reads its first 64 MiB"),
        "{}",
        err(&o)
    );
}

/// Issue 16.6: `--threads 20000` is capped, with a warning, and gives the same output.
#[test]
fn issue16_threads_are_capped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.txt");
    std::fs::write(&log, LOG).unwrap();
    let o = run_deadline(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "Googlebot",
            "--threads",
            "20000",
            p(&log),
        ],
        None,
        60,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), LOG_TSV);
    let e = err(&o);
    assert!(
        e.contains("warning: --threads 20000 is more than this machine can use; using "),
        "{e}"
    );
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--threads",
            "0",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("--threads must be at least 1"),
        "{}",
        err(&o)
    );
}

/// Issue 16.6: store keys are the file names' bytes: a file named `\xff.txt` is the host
/// `\xff` only (a lossy conversion made it apply to every host that is not UTF-8).
#[cfg(unix)]
#[test]
fn issue16_host_file_names_keep_their_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    std::fs::write(
        robots.join(std::ffi::OsStr::from_bytes(b"\xff.txt")),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    let log = dir.path().join("log.txt");
    std::fs::write(
        &log,
        b"http://\xff/x\nhttp://\xfe/x\nhttp://\xef\xbf\xbd/x\n",
    )
    .unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--format",
            "jsonl",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let verdicts: Vec<String> = out(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {}", v["verdict"], v["robots"])
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            "\"disallowed\" true",
            "\"allowed\" false",
            "\"allowed\" false"
        ]
    );
}

/// Issue 16.6: the summary's MB/s counts the text read (after gzip decompression), and is
/// given for stdin too.
#[test]
fn issue16_summary_speed_counts_decompressed_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let text =
        "https://shop.example/cart/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n".repeat(200_000);
    let zipped = gzip(text.as_bytes());
    assert!(zipped.len() * 50 < text.len());
    let gz = dir.path().join("log.gz");
    std::fs::write(&gz, &zipped).unwrap();
    let args = [
        "classify",
        "--robots",
        p(&robots),
        "--agent",
        "x",
        "--format",
        "summary",
    ];
    for log in [p(&gz), "-"] {
        let stdin = (log == "-").then_some(zipped.as_slice());
        let o = run(&[&args[..], &[log]].concat(), stdin);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let s = out(&o);
        let line = s
            .lines()
            .find(|l| l.starts_with("elapsed"))
            .unwrap_or_default();
        // "elapsed  0.123 s 1234 URLs/s, 45.6 MB/s, 2 threads"
        let words: Vec<&str> = line.split_whitespace().collect();
        let secs: f64 = words[1].parse().unwrap();
        let mbs: f64 = words[5].parse().unwrap();
        let implied = mbs * 1e6 * secs;
        // Rounding of both figures aside, the bytes are the text's, not the gzip file's.
        assert!(
            implied > text.len() as f64 * 0.5 && implied < text.len() as f64 * 1.5,
            "{line}: {implied} bytes implied, text {} bytes, gzip {}",
            text.len(),
            zipped.len()
        );
    }
}

/// Issue 17.3: CSV fields as RFC 4180 reads them: a quoted field holds the delimiter, `""`
/// is a quote.
#[test]
fn issue17_csv_quoted_delimiters_and_doubled_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    std::fs::write(
        robots.join("1.bp.blogspot.com.txt"),
        "User-agent: *\nDisallow: /*,-2010\n",
    )
    .unwrap();
    let log = dir.path().join("log.csv");
    std::fs::write(
        &log,
        "1,\"http://1.bp.blogspot.com/_x/S7TBbWLnNbI/AAAAAAAAB5w/March-31,-2010---UFC-Fight-Night.gif\",x\n\
         2,\"https://shop.example/cart?q=\"\"a,b\"\"\",y\n\
         3, \"https://shop.example/x\" ,z\n\
         4,\"unclosed,https://shop.example/cart\n",
    )
    .unwrap();
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--column",
            "2",
            "--delimiter",
            ",",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "disallowed\t2\tDisallow: /*,-2010\thttp://1.bp.blogspot.com/_x/S7TBbWLnNbI/AAAAAAAAB5w/March-31,-2010---UFC-Fight-Night.gif\n\
         disallowed\t2\tDisallow: /cart\thttps://shop.example/cart?q=\"a,b\"\n\
         allowed\t-\t-\thttps://shop.example/x\n\
         invalid\t-\t-\t4,\"unclosed,https://shop.example/cart\n"
    );
}

/// Issue 17.4: a store without robots files, or whose files match none of the log's hosts,
/// is said on stderr (the verdicts stay: every URL allowed).
#[test]
fn issue17_wrong_store_warns() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("README"), "no robots here\n").unwrap();
    let log = dir.path().join("log.txt");
    std::fs::write(&log, LOG).unwrap();
    let o = run(
        &["classify", "--robots", p(&empty), "--agent", "x", p(&log)],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 7);
    assert!(out(&o).lines().all(|l| l.starts_with("allowed\t-\t-\t")));
    let e = err(&o);
    assert!(
        e.contains(&format!(
            "warning: robots directory '{}' holds no robots.txt files",
            p(&empty)
        )),
        "{e}"
    );
    assert_eq!(e.matches("warning").count(), 1, "{e}");

    let other = dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("elsewhere.example.txt"),
        "User-agent: *\nDisallow: /\n",
    )
    .unwrap();
    let o = run(
        &["classify", "--robots", p(&other), "--agent", "x", p(&log)],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let e = err(&o);
    assert!(
        e.contains(&format!(
            "warning: none of the 7 URLs' hosts has a robots.txt in '{}' (1 files), so",
            p(&other)
        )),
        "{e}"
    );
    // A store that matches: no warning.
    let robots = robots_dir(dir.path());
    let o = run(
        &["classify", "--robots", p(&robots), "--agent", "x", p(&log)],
        None,
    );
    assert_eq!(err(&o), "");
}

/// Issue 17.5: a TSV log given without --column is all invalid: said, with the column to
/// use, and exit 2; a log mostly invalid gets the hint with exit 0.
#[test]
fn issue17_mostly_invalid_log_suggests_column() {
    let dir = tempfile::tempdir().unwrap();
    let robots = robots_dir(dir.path());
    let log = dir.path().join("log.tsv");
    std::fs::write(
        &log,
        "2024-01-01\t200\thttps://shop.example/cart\n2024-01-01\t404\thttps://shop.example/x\n",
    )
    .unwrap();
    let o = run(
        &["classify", "--robots", p(&robots), "--agent", "x", p(&log)],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(out(&o).lines().count(), 2);
    let e = err(&o);
    assert!(
        e.contains("warning: 2 of 2 lines (100%) hold no usable URL (2 no scheme://host URL)"),
        "{e}"
    );
    assert!(
        e.contains("hint: the lines look like tab-separated fields with the URL in column 3: try --column 3"),
        "{e}"
    );
    // With --column 3: no hint, exit 0.
    let o = run(
        &[
            "classify",
            "--robots",
            p(&robots),
            "--agent",
            "x",
            "--column",
            "3",
            p(&log),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), "");
    // Mostly invalid, some URLs: the warning, exit 0.
    let csv = dir.path().join("log.csv");
    std::fs::write(
        &csv,
        "a,https://shop.example/1\nb,https://shop.example/2\nhttps://shop.example/3\n",
    )
    .unwrap();
    let o = run(
        &["classify", "--robots", p(&robots), "--agent", "x", p(&csv)],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let e = err(&o);
    assert!(
        e.contains("warning: 2 of 3 lines (67%) hold no usable URL"),
        "{e}"
    );
    assert!(e.contains("try --column 2 --delimiter ,"), "{e}");
}

/// Issue 17.8: --only with --format summary is a usage error (the summary counts every URL),
/// before any work.
#[test]
fn issue17_only_with_summary_is_a_usage_error() {
    let o = run(
        &[
            "classify",
            "--robots",
            "corpora/sample/robots",
            "--agent",
            "x",
            "--format",
            "summary",
            "--only",
            "disallowed",
            "corpora/sample/urls.txt",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert!(
        err(&o).contains("--only filters the URLs printed by --format tsv and jsonl"),
        "{}",
        err(&o)
    );
}
