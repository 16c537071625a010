//! Builds a test WARC of robots.txt captures, shaped like Common Crawl's robotstxt segments
//! (one gzip member per record), from a directory of real `<host>.txt` files, and a manifest
//! saying what each host should turn into.
//!
//! ```sh
//! cargo run --release -p robotsmatch-tools --bin make-warc -- \
//!     --robots corpora/sample/robots --hosts 150 --max-file-size 16384 --seed 9 \
//!     --out corpora/warc/sample.warc.gz --manifest corpora/warc/sample.manifest.tsv
//! ```
//!
//! Per host, chosen by a seeded generator (same seed and files, same bytes): a 200 with the
//! file (some chunked, some preceded by an older 503 capture that the 200 must beat), a 404, a
//! 410, a 503, a 429, a 500, an HTML page served with 200, a redirect http -> https whose
//! target is captured, a redirect whose target is not captured, and seven redirects in a row.
//! The file also holds a warcinfo record, request records, a record whose block is not HTTP,
//! and a gzip member cut in half (all to be skipped and reported).
//!
//! Manifest columns: host, scenario, expected availability (available, unavailable,
//! unreachable, none for hosts whose only record is broken), and whether the host's own file
//! decides (`file`) or not (`-`).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context};
use robotsmatch_tools::Rng;

struct Args {
    robots: PathBuf,
    out: PathBuf,
    manifest: Option<PathBuf>,
    hosts: usize,
    max_file_size: usize,
    seed: u64,
}

fn args() -> anyhow::Result<Args> {
    let mut a = Args {
        robots: PathBuf::from("corpora/sample/robots"),
        out: PathBuf::from("sample.warc.gz"),
        manifest: None,
        hosts: usize::MAX,
        max_file_size: usize::MAX,
        seed: 9,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().with_context(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--robots" => a.robots = value()?.into(),
            "--out" => a.out = value()?.into(),
            "--manifest" => a.manifest = Some(value()?.into()),
            "--hosts" => a.hosts = value()?.parse().context("--hosts")?,
            "--max-file-size" => a.max_file_size = value()?.parse().context("--max-file-size")?,
            "--seed" => a.seed = value()?.parse().context("--seed")?,
            _ => bail!(
                "usage: make-warc [--robots DIR] [--out FILE] [--manifest FILE] [--hosts N] \
                 [--max-file-size BYTES] [--seed N]"
            ),
        }
    }
    Ok(a)
}

fn gz(b: &[u8]) -> anyhow::Result<Vec<u8>> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(b)?;
    Ok(e.finish()?)
}

/// A WARC record: version line, headers, block, the two CRLFs that end it.
fn record(kind: &str, uri: &str, date: &str, n: usize, block: &[u8]) -> Vec<u8> {
    let content_type = match kind {
        "response" => "application/http; msgtype=response",
        "request" => "application/http; msgtype=request",
        _ => "application/warc-fields",
    };
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Date: {date}\r\n\
         WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-{n:012}>\r\n"
    );
    if !uri.is_empty() {
        r.push_str(&format!("WARC-Target-URI: {uri}\r\n"));
    }
    r.push_str(&format!(
        "Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    ));
    let mut r = r.into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn http(status: u16, headers: &[(&str, &str)], body: &[u8], chunked: bool) -> Vec<u8> {
    let reason = match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        404 => "Not Found",
        410 => "Gone",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Other",
    };
    let mut h = format!("HTTP/1.1 {status} {reason}\r\n");
    for (k, v) in headers {
        h.push_str(&format!("{k}: {v}\r\n"));
    }
    let mut out;
    if chunked {
        h.push_str("Transfer-Encoding: chunked\r\n\r\n");
        out = h.into_bytes();
        for chunk in body.chunks(1000) {
            out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
            out.extend_from_slice(chunk);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
    } else {
        h.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        out = h.into_bytes();
        out.extend_from_slice(body);
    }
    out
}

const HTML: &[u8] = b"<!DOCTYPE html>\n<html><head><title>Welcome</title></head>\n<body>\n\
<h1>Page not found</h1>\n<p>Disallow: this is prose, not a rule</p>\n</body></html>\n";

fn main() -> anyhow::Result<()> {
    let a = args()?;
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&a.robots)
        .with_context(|| format!("cannot list '{}'", a.robots.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    for name in names {
        let body = std::fs::read(a.robots.join(&name))
            .with_context(|| format!("cannot read '{}'", a.robots.join(&name).display()))?;
        if body.len() <= a.max_file_size && !name.contains('_') {
            files.push((name.trim_end_matches(".txt").to_string(), body));
        }
    }
    let mut rng = Rng::new(a.seed);
    // A seeded shuffle, then the first N.
    for i in (1..files.len()).rev() {
        let j = rng.below(i + 1);
        files.swap(i, j);
    }
    files.truncate(a.hosts);
    files.sort();

    let mut out: Vec<u8> = Vec::new();
    let mut manifest = String::from("host\tscenario\tavailability\tdecides\n");
    let mut n = 0usize;
    let push = |out: &mut Vec<u8>, rec: Vec<u8>| -> anyhow::Result<()> {
        out.extend_from_slice(&gz(&rec)?);
        Ok(())
    };
    let info = b"software: robotsmatch make-warc\r\nformat: WARC File Format 1.0\r\n";
    push(
        &mut out,
        record("warcinfo", "", "2024-06-01T00:00:00Z", n, info),
    )?;
    for (i, (host, body)) in files.iter().enumerate() {
        n += 1;
        let uri = format!("http://{host}/robots.txt");
        let date = format!("2024-06-{:02}T{:02}:00:00Z", 2 + i % 27, i % 24);
        let older = format!("2024-05-{:02}T00:00:00Z", 1 + i % 28);
        let request =
            format!("GET /robots.txt HTTP/1.1\r\nHost: {host}\r\nUser-Agent: CCBot/2.0\r\n\r\n");
        if i % 10 == 0 {
            push(
                &mut out,
                record("request", &uri, &date, n, request.as_bytes()),
            )?;
        }
        // The first hosts get the rare scenarios, so that a small file has each of them.
        let scenario = match i {
            0 => "truncated-gzip",
            1 => "not-http",
            2 => "too-many-redirects",
            3 => "429",
            4 => "500",
            5 => "410",
            6 => "redirect-uncaptured",
            7 => "older-503-then-200",
            _ => match rng.below(100) {
                0..=59 => "200",
                60..=67 => "200-chunked",
                68..=75 => "404",
                76..=81 => "503",
                82..=87 => "html-200",
                88..=93 => "redirect-https",
                _ => "older-503-then-200",
            },
        };
        let (availability, decides) = match scenario {
            "200" | "200-chunked" | "redirect-https" | "older-503-then-200" => {
                ("available", "file")
            }
            "html-200" => ("available", "-"),
            "404" | "410" | "redirect-uncaptured" | "too-many-redirects" => ("unavailable", "-"),
            "503" | "429" | "500" => ("unreachable", "-"),
            _ => ("none", "-"),
        };
        manifest.push_str(&format!("{host}\t{scenario}\t{availability}\t{decides}\n"));
        let text = [("Content-Type", "text/plain")];
        match scenario {
            "200" => push(
                &mut out,
                record("response", &uri, &date, n, &http(200, &text, body, false)),
            )?,
            "200-chunked" => push(
                &mut out,
                record("response", &uri, &date, n, &http(200, &text, body, true)),
            )?,
            "404" | "410" | "503" | "429" | "500" => {
                let status: u16 = scenario.parse()?;
                let page = format!("<html><body>{status}</body></html>\n");
                let html = [("Content-Type", "text/html")];
                push(
                    &mut out,
                    record(
                        "response",
                        &uri,
                        &date,
                        n,
                        &http(status, &html, page.as_bytes(), false),
                    ),
                )?
            }
            "html-200" => {
                let html = [("Content-Type", "text/html")];
                push(
                    &mut out,
                    record("response", &uri, &date, n, &http(200, &html, HTML, false)),
                )?
            }
            "redirect-https" => {
                let target = format!("https://{host}/robots.txt");
                let loc = [("Location", target.as_str())];
                push(
                    &mut out,
                    record("response", &uri, &date, n, &http(301, &loc, b"", false)),
                )?;
                push(
                    &mut out,
                    record(
                        "response",
                        &target,
                        &date,
                        n,
                        &http(200, &text, body, false),
                    ),
                )?;
            }
            "redirect-uncaptured" => {
                let loc = [("Location", "https://uncaptured.invalid/robots.txt")];
                push(
                    &mut out,
                    record("response", &uri, &date, n, &http(302, &loc, b"", false)),
                )?;
            }
            "too-many-redirects" => {
                for hop in 0..7 {
                    let from = if hop == 0 {
                        uri.clone()
                    } else {
                        format!("http://{host}/hop{hop}")
                    };
                    let to = format!("/hop{}", hop + 1);
                    let loc = [("Location", to.as_str())];
                    push(
                        &mut out,
                        record("response", &from, &date, n, &http(301, &loc, b"", false)),
                    )?;
                }
                let last = format!("http://{host}/hop7");
                push(
                    &mut out,
                    record(
                        "response",
                        &last,
                        &date,
                        n,
                        &http(200, &text, b"User-agent: *\nDisallow: /\n", false),
                    ),
                )?;
            }
            "older-503-then-200" => {
                push(
                    &mut out,
                    record("response", &uri, &date, n, &http(200, &text, body, false)),
                )?;
                // Written after the 200 but captured earlier: the 200 must still win.
                push(
                    &mut out,
                    record("response", &uri, &older, n, &http(503, &[], b"", false)),
                )?;
            }
            "not-http" => push(
                &mut out,
                record(
                    "response",
                    &uri,
                    &date,
                    n,
                    b"this block is not an HTTP response",
                ),
            )?,
            "truncated-gzip" => {
                let member = gz(&record(
                    "response",
                    &uri,
                    &date,
                    n,
                    &http(200, &text, body, false),
                ))?;
                out.extend_from_slice(&member[..member.len() / 2]);
            }
            _ => unreachable!("every scenario is written"),
        }
    }
    std::fs::write(&a.out, &out).with_context(|| format!("cannot write '{}'", a.out.display()))?;
    if let Some(m) = &a.manifest {
        std::fs::write(m, manifest).with_context(|| format!("cannot write '{}'", m.display()))?;
    }
    eprintln!(
        "make-warc: {} hosts, {} bytes -> {}",
        files.len(),
        out.len(),
        a.out.display()
    );
    Ok(())
}
