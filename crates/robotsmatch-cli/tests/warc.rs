//! `classify --robots-warc`: the committed test WARC (`corpora/warc/sample.warc.gz`, made by
//! `make-warc` from `corpora/sample/robots`, with a manifest of what each host should become)
//! against the same hosts classified from the directory of files; malformed records; usage.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run robotsmatch")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const WARC: &str = "corpora/warc/sample.warc.gz";

/// host -> (scenario, availability, decides)
fn manifest() -> Vec<(String, String, String, String)> {
    let m =
        std::fs::read_to_string(root().join("corpora/warc/sample.manifest.tsv")).expect("manifest");
    m.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].into(), f[1].into(), f[2].into(), f[3].into())
        })
        .collect()
}

fn jsonl(o: &Output) -> Vec<serde_json::Value> {
    text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

#[test]
fn warc_store_matches_the_files_and_the_status_semantics() {
    let hosts = manifest();
    // Each scenario appears, so every status class is exercised.
    let scenarios: std::collections::BTreeSet<&str> = hosts.iter().map(|h| h.1.as_str()).collect();
    for s in [
        "200",
        "200-chunked",
        "404",
        "410",
        "429",
        "500",
        "503",
        "html-200",
        "redirect-https",
        "redirect-uncaptured",
        "too-many-redirects",
        "older-503-then-200",
        "not-http",
        "truncated-gzip",
    ] {
        assert!(scenarios.contains(s), "no host with scenario {s}");
    }
    // The sample log's URLs for these hosts, plus three URLs per host.
    let sample = std::fs::read_to_string(root().join("corpora/sample/urls.txt")).expect("urls");
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("log.txt");
    let mut lines: Vec<String> = Vec::new();
    for (host, ..) in &hosts {
        lines.extend(
            sample
                .lines()
                .filter(|u| u.split('/').nth(2) == Some(host.as_str()))
                .map(String::from),
        );
        for path in ["/", "/zz/private?q=1", "/robots.txt"] {
            lines.push(format!("https://{host}{path}"));
        }
    }
    std::fs::write(&log, lines.join("\n") + "\n").expect("write log");
    let log = log.to_str().expect("utf-8 path");

    let warc = run(&[
        "classify",
        "--robots-warc",
        WARC,
        "--agent",
        "Googlebot",
        "--format",
        "jsonl",
        log,
    ]);
    assert_eq!(warc.status.code(), Some(0), "{}", text(&warc.stderr));
    let files = run(&[
        "classify",
        "--robots",
        "corpora/sample/robots",
        "--agent",
        "Googlebot",
        "--format",
        "jsonl",
        log,
    ]);
    assert_eq!(files.status.code(), Some(0), "{}", text(&files.stderr));
    let (w, f) = (jsonl(&warc), jsonl(&files));
    assert_eq!(w.len(), lines.len());
    assert_eq!(f.len(), lines.len());
    let by_host: HashMap<&str, _> = hosts.iter().map(|h| (h.0.as_str(), h)).collect();
    let mut checked: HashMap<&str, usize> = HashMap::new();
    for (a, b) in w.iter().zip(&f) {
        let host = a["host"].as_str().expect("host");
        let (_, scenario, availability, decides) = by_host[host];
        let url = a["url"].as_str().expect("url");
        let what = format!("{scenario} {url}: {a}");
        match availability.as_str() {
            "available" if decides == "file" => {
                assert_eq!(a["verdict"], b["verdict"], "{what}");
                assert_eq!(a["rule"], b["rule"], "{what}");
                assert_eq!(a["robots"], true, "{what}");
            }
            "available" => {
                // An HTML page served as robots.txt has no rules.
                assert_eq!(a["verdict"], "allowed", "{what}");
                assert_eq!(a["rule"], serde_json::Value::Null, "{what}");
                assert_eq!(a["robots"], true, "{what}");
            }
            "unavailable" => {
                assert_eq!(a["verdict"], "allowed", "{what}");
                assert_eq!(a["availability"], "unavailable", "{what}");
                let reason = a["reason"].as_str().expect("reason");
                let expected = match scenario.as_str() {
                    "too-many-redirects" => "too many redirects (6)".to_string(),
                    "redirect-uncaptured" => {
                        "robots.txt unavailable (302): everything allowed".to_string()
                    }
                    s => format!("robots.txt unavailable ({s}): everything allowed"),
                };
                assert_eq!(reason, expected, "{what}");
            }
            "unreachable" => {
                let robots_txt = url.ends_with("/robots.txt");
                assert_eq!(
                    a["verdict"],
                    if robots_txt { "allowed" } else { "disallowed" },
                    "{what}"
                );
                assert_eq!(
                    a["reason"],
                    format!("robots.txt unreachable ({scenario})"),
                    "{what}"
                );
            }
            _ => {
                // The only record of the host was malformed: no robots.txt.
                assert_eq!(a["verdict"], "allowed", "{what}");
                assert_eq!(a["robots"], false, "{what}");
                assert_eq!(a.get("reason"), None, "{what}");
            }
        }
        *checked.entry(availability.as_str()).or_default() += 1;
    }
    for kind in ["available", "unavailable", "unreachable", "none"] {
        assert!(checked.get(kind).copied().unwrap_or(0) >= 3, "{checked:?}");
    }
    // The two broken records are reported with the file and their offsets, and counted.
    let err = text(&warc.stderr);
    assert_eq!(
        err.matches(&format!("robotsmatch: {WARC}: offset "))
            .count(),
        2,
        "{err}"
    );
    assert!(err.contains("bad gzip member"), "{err}");
    assert!(err.contains("not an HTTP response"), "{err}");
    assert!(err.contains(" 2 malformed records skipped; "), "{err}");
}

#[test]
fn summary_counts_hosts_by_availability() {
    let hosts = manifest();
    let count = |a: &str| hosts.iter().filter(|h| h.2 == a).count();
    let o = run(&[
        "classify",
        "--robots-warc",
        WARC,
        "--agent",
        "Googlebot",
        "--format",
        "summary",
        "corpora/sample/urls.txt",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let line = out
        .lines()
        .find(|l| l.starts_with("robots.txt "))
        .expect("robots.txt line");
    assert!(
        line.ends_with(&format!(
            "hosts captured: {} available, {} unavailable, {} unreachable",
            count("available"),
            count("unavailable"),
            count("unreachable")
        )),
        "{line}"
    );
}

fn record(uri: &str, date: &str, http: &str) -> String {
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: {date}\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
}

#[test]
fn malformed_records_are_skipped_not_fatal_and_the_newest_capture_wins() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = record(
        "https://a.example/robots.txt",
        "2024-02-01T00:00:00Z",
        "HTTP/1.1 200 OK\r\n\r\nUser-agent: *\nDisallow: /a\n",
    );
    let old = record(
        "https://a.example/robots.txt",
        "2024-01-01T00:00:00Z",
        "HTTP/1.1 503 Unavailable\r\n\r\n",
    );
    let bad = "WARC/1.0\r\nWARC-Type: response\r\nContent-Length: banana\r\n\r\nxx\r\n\r\n";
    let down = record(
        "http://b.example:8080/robots.txt",
        "2024-01-01T00:00:00Z",
        "HTTP/1.1 500 Oops\r\n\r\n",
    );
    let data = format!("{good}{bad}{old}{down}");
    let bad_at = good.len();
    let path = dir.path().join("plain.warc");
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(data.as_bytes()))
        .expect("write");
    let log = dir.path().join("log.txt");
    std::fs::write(
        &log,
        "https://a.example/a\nhttps://a.example/b\nhttp://b.example:8080/x\nhttp://b.example/x\n",
    )
    .expect("log");
    let p = path.to_str().expect("path");
    let o = run(&[
        "classify",
        "--robots-warc",
        p,
        "--agent",
        "Googlebot",
        log.to_str().expect("log"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "disallowed\t2\tDisallow: /a\thttps://a.example/a\n\
         allowed\t-\t-\thttps://a.example/b\n\
         disallowed\t-\t-\thttp://b.example:8080/x\n\
         allowed\t-\t-\thttp://b.example/x\n"
    );
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!(
            "robotsmatch: {p}: offset {bad_at}: invalid Content-Length 'banana' (record skipped)"
        )),
        "{err}"
    );

    // A missing WARC file: exit 2, named, before any output.
    let o = run(&[
        "classify",
        "--robots-warc",
        "no/such.warc.gz",
        "--agent",
        "Googlebot",
        "corpora/sample/urls.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("cannot read WARC file 'no/such.warc.gz'"),
        "{}",
        text(&o.stderr)
    );
    assert!(o.stdout.is_empty());
    // --robots and --robots-warc together: a usage error.
    let o = run(&[
        "classify",
        "--robots",
        "corpora/sample/robots",
        "--robots-warc",
        WARC,
        "--agent",
        "x",
        "corpora/sample/urls.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 16.4: a file that holds no WARC record is an error (exit 2) naming it, not "0 hosts,
/// everything allowed".
#[test]
fn issue16_file_without_warc_records_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, data) in [
        ("page.html", &b"<html><body>not a WARC</body></html>\n"[..]),
        ("empty.warc", b""),
        ("junk.warc.gz", b"\x1f\x8b\x08\x00garbage"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, data).expect("write");
        let p = path.to_str().expect("path");
        let o = run(&[
            "classify",
            "--robots-warc",
            p,
            "--agent",
            "Googlebot",
            "corpora/sample/urls.txt",
        ]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o.stderr));
        assert!(o.stdout.is_empty());
        let err = text(&o.stderr);
        assert!(
            err.contains(&format!("'{p}' holds no WARC record")),
            "{err}"
        );
    }
}

/// Issue 16.4: bodies are cut at the parse limit + 1 when read (the unit tests of
/// `robotsmatch_bulk::warc` check the cut itself), and only the newest capture of a host
/// counts: a WARC of large captures classifies as the cut body does.
#[test]
fn issue16_large_warc_bodies_classify_as_cut() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut body = String::from("User-agent: *\nDisallow: /a\n");
    while body.len() < 3 << 20 {
        body.push_str("Disallow: /zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\n");
    }
    body.push_str("Disallow: /beyond-the-limit\n");
    let mut data = Vec::new();
    for day in 1..=5 {
        let r = record(
            "https://a.example/robots.txt",
            &format!("2024-01-0{day}T00:00:00Z"),
            &format!("HTTP/1.1 200 OK\r\n\r\n{body}"),
        );
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(r.as_bytes()).expect("gzip");
        data.extend(e.finish().expect("gzip"));
    }
    let path = dir.path().join("big.warc.gz");
    std::fs::write(&path, &data).expect("write");
    let log = dir.path().join("log.txt");
    std::fs::write(
        &log,
        "https://a.example/a\nhttps://a.example/beyond-the-limit\n",
    )
    .expect("log");
    let o = run(&[
        "classify",
        "--robots-warc",
        path.to_str().expect("path"),
        "--agent",
        "Googlebot",
        log.to_str().expect("log"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "disallowed\t2\tDisallow: /a\thttps://a.example/a\n\
         allowed\t-\t-\thttps://a.example/beyond-the-limit\n"
    );
    assert!(
        text(&o.stderr).contains("5 records, 5 responses"),
        "{}",
        text(&o.stderr)
    );
}
