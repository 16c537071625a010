//! `check --fetch` against a loopback HTTP server written here (std only, 127.0.0.1, a free
//! port): every status class of RFC 9309 §2.3, redirect chains, the redirect limit, a slow
//! server, an oversized body and a refused connection. Nothing leaves this machine.
#![cfg(feature = "fetch")]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A canned answer.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    delay: Duration,
    /// Send this many bytes of the body, then wait `delay` before the rest (instead of
    /// waiting before the answer).
    stall_after: Option<usize>,
}

fn reply(status: u16, body: &[u8]) -> Reply {
    Reply {
        status,
        headers: Vec::new(),
        body: body.to_vec(),
        delay: Duration::ZERO,
        stall_after: None,
    }
}

fn redirect(to: &str) -> Reply {
    let mut r = reply(301, b"moved");
    r.headers.push(("Location".into(), to.into()));
    r
}

/// A server on 127.0.0.1:0 answering each request with `route(path)`; returns the base URL
/// and the requests seen (request line and user-agent).
fn serve(route: impl Fn(&str) -> Reply + Send + 'static) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let _ = answer(stream, &route, &log);
        }
    });
    (base, seen)
}

fn answer(
    stream: TcpStream,
    route: &impl Fn(&str) -> Reply,
    log: &Mutex<Vec<String>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    let mut agent = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("user-agent:") {
            agent = v.trim().to_string();
        }
    }
    let path = request.split(' ').nth(1).unwrap_or("").to_string();
    log.lock().expect("log").push(format!("{path} {agent}"));
    let r = route(&path);
    if r.stall_after.is_none() {
        std::thread::sleep(r.delay);
    }
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {} X\r\nContent-Length: {}\r\nConnection: close\r\n",
        r.status,
        r.body.len()
    )?;
    for (k, v) in &r.headers {
        write!(out, "{k}: {v}\r\n")?;
    }
    out.write_all(b"\r\n")?;
    if let Some(n) = r.stall_after {
        out.write_all(&r.body[..n])?;
        out.flush()?;
        std::thread::sleep(r.delay);
        out.write_all(&r.body[n..])?;
    } else {
        out.write_all(&r.body)?;
    }
    out.flush()
}

fn robotsmatch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(args)
        .output()
        .expect("run robotsmatch")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const BODY: &[u8] = b"User-agent: *\nDisallow: /private\nAllow: /private/ok\n";

/// `check --fetch BASE/private/x --format tsv BASE/private/x EXTRA...`: (stdout, stderr).
/// (The fetched URL is checked by itself only when no other URL is given.)
fn check_tsv(base: &str, extra: &[&str]) -> (String, String) {
    let url = format!("{base}/private/x");
    let mut args = vec![
        "check",
        "--fetch",
        &url,
        "--agent",
        "Googlebot",
        "--format",
        "tsv",
        &url,
    ];
    args.extend_from_slice(extra);
    let o = robotsmatch(&args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    (text(&o.stdout), text(&o.stderr))
}

#[test]
fn fetched_200_whole_text_output_and_user_agent() {
    let (base, seen) = serve(|p| match p {
        "/robots.txt" => reply(200, BODY),
        _ => reply(404, b""),
    });
    let url = format!("{base}/private/x");
    let o = robotsmatch(&["check", "--fetch", &url, "--agent", "Googlebot"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let expected = format!(
        "fetch:       {base}/robots.txt\n  status:    200\n  final url: {base}/robots.txt\n  \
         bytes:     {}\n  reason:    robots.txt fetched (200)\n\n\
         {base}/private/x\n  verdict:   disallowed\n  \
         agent:     Googlebot (product token 'Googlebot', profile google)\n  \
         group:     'User-agent: *' (line 1) (no group names 'Googlebot')\n  \
         crawl-delay: none\n  \
         path:      /private/x\n  rule:      line 2: Disallow: /private\n  runner-up: none\n  \
         engine:    direct\n",
        BODY.len()
    );
    assert_eq!(text(&o.stdout), expected);
    let seen = seen.lock().expect("seen").clone();
    assert_eq!(seen.len(), 1);
    let ua = seen[0]
        .strip_prefix("/robots.txt ")
        .expect("asked for /robots.txt");
    assert!(
        ua.starts_with(&format!("robotsmatch/{} (+", env!("CARGO_PKG_VERSION"))),
        "{ua}"
    );
}

#[test]
fn three_redirects_are_followed() {
    let (base, seen) = serve(|p| match p {
        "/robots.txt" => redirect("/r1"),
        "/r1" => redirect("r2"),
        "/r2" => redirect("/r3.txt"),
        "/r3.txt" => reply(200, BODY),
        _ => reply(500, b""),
    });
    let (out, err) = check_tsv(&base, &["/private/ok", "/public"]);
    assert_eq!(
        out,
        "disallowed\t2\tDisallow: /private\t".to_string()
            + &base
            + "/private/x\nallowed\t3\tAllow: /private/ok\t/private/ok\nallowed\t-\t-\t/public\n"
    );
    assert!(
        err.contains(&format!(
            "  redirects: 3: {base}/robots.txt -> {base}/r1 -> {base}/r2 -> {base}/r3.txt\n"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("  final url: {base}/r3.txt\n")),
        "{err}"
    );
    assert!(
        err.contains("  reason:    robots.txt fetched (200)\n"),
        "{err}"
    );
    assert_eq!(seen.lock().expect("seen").len(), 4);
}

#[test]
fn six_redirects_are_too_many_and_allow_everything() {
    let (base, seen) = serve(|p| match p {
        "/robots.txt" => redirect("/r1"),
        "/r6" => redirect("/final.txt"),
        "/final.txt" => reply(200, b"User-agent: *\nDisallow: /\n"),
        p if p.starts_with("/r") => {
            let n: u32 = p[2..].parse().unwrap_or(99);
            redirect(&format!("/r{}", n + 1))
        }
        _ => reply(500, b""),
    });
    let (out, err) = check_tsv(&base, &["/public"]);
    assert_eq!(
        out,
        format!("allowed\t-\t-\t{base}/private/x\nallowed\t-\t-\t/public\n")
    );
    assert!(
        err.contains("  reason:    too many redirects (6)\n"),
        "{err}"
    );
    assert!(err.contains("  redirects: 6: "), "{err}");
    // The 7th URL is never asked for.
    let seen = seen.lock().expect("seen").clone();
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert!(!seen.iter().any(|s| s.starts_with("/final.txt")));
}

#[test]
fn five_redirects_are_still_followed() {
    let (base, _) = serve(|p| match p {
        "/robots.txt" => redirect("/r1"),
        // robots.txt, r1, r2, r3, r4: five redirects.
        "/r4" => redirect("/final.txt"),
        "/final.txt" => reply(200, BODY),
        p if p.starts_with("/r") => {
            let n: u32 = p[2..].parse().unwrap_or(99);
            redirect(&format!("/r{}", n + 1))
        }
        _ => reply(500, b""),
    });
    let (out, err) = check_tsv(&base, &[]);
    assert_eq!(
        out,
        format!("disallowed\t2\tDisallow: /private\t{base}/private/x\n")
    );
    assert!(err.contains("  redirects: 5: "), "{err}");
    assert!(
        err.contains(&format!("  final url: {base}/final.txt\n")),
        "{err}"
    );
}

#[test]
fn unreachable_with_every_catalog_crawler() {
    let (base, _) = serve(|_| reply(503, b""));
    let url = format!("{base}/page");
    let o = robotsmatch(&[
        "check", "--fetch", &url, "--agent", "all", "--format", "tsv",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let catalog = robotsmatch(&["crawlers", "--format", "tsv"]);
    let crawlers = text(&catalog.stdout).lines().skip(1).count();
    assert!(crawlers > 10, "{}", text(&catalog.stdout));
    assert_eq!(out.lines().count(), crawlers, "{out}");
    for line in out.lines() {
        assert!(
            line.ends_with(&format!("\tdisallowed\t-\t-\t{url}")),
            "{line}"
        );
    }
}

#[test]
fn every_status_class() {
    for (status, verdict, reason) in [
        (
            404,
            "allowed",
            "robots.txt unavailable (404): everything allowed",
        ),
        (
            410,
            "allowed",
            "robots.txt unavailable (410): everything allowed",
        ),
        (
            403,
            "allowed",
            "robots.txt unavailable (403): everything allowed",
        ),
        (429, "disallowed", "robots.txt unreachable (429)"),
        (500, "disallowed", "robots.txt unreachable (500)"),
        (503, "disallowed", "robots.txt unreachable (503)"),
    ] {
        // The body would disallow /private: only a 2xx body counts.
        let (base, _) = serve(move |_| reply(status, BODY));
        let (out, err) = check_tsv(&base, &["/robots.txt"]);
        assert_eq!(
            out,
            format!("{verdict}\t-\t-\t{base}/private/x\nallowed\t-\t-\t/robots.txt\n"),
            "{status}"
        );
        assert!(err.contains(&format!("  status:    {status}\n")), "{err}");
        assert!(err.contains(&format!("  reason:    {reason}\n")), "{err}");

        let url = format!("{base}/page");
        let o = robotsmatch(&["check", "--fetch", &url, "--agent", "Googlebot"]);
        let out = text(&o.stdout);
        assert!(
            out.contains(&format!("\n  verdict:   {verdict}: {reason}\n")),
            "{out}"
        );
        assert!(out.contains("\n  rule:      -\n"), "{out}");

        let o = robotsmatch(&[
            "check",
            "--fetch",
            &url,
            "--agent",
            "Googlebot",
            "--format",
            "json",
        ]);
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        assert_eq!(doc["fetch"]["status"], status);
        assert_eq!(doc["fetch"]["reason"], reason);
        assert_eq!(doc["results"][0]["verdict"], verdict);
        assert_eq!(doc["results"][0]["reason"], reason);
    }
}

#[test]
fn slow_server_beyond_the_timeout_is_unreachable() {
    let (base, _) = serve(|_| {
        let mut r = reply(200, b"User-agent: *\nAllow: /\n");
        r.delay = Duration::from_secs(4);
        r
    });
    let (out, err) = check_tsv(&base, &["--timeout", "1"]);
    assert_eq!(out, format!("disallowed\t-\t-\t{base}/private/x\n"));
    assert!(
        err.contains("  reason:    robots.txt unreachable (timed out after 1 s)\n"),
        "{err}"
    );
}

#[test]
fn oversized_body_is_cut_at_the_parse_limit() {
    let (base, _) = serve(|_| {
        let mut body = b"User-agent: *\nDisallow: /private\n".to_vec();
        while body.len() < 600 * 1024 {
            body.extend_from_slice(b"# filler filler filler filler filler filler filler\n");
        }
        body.extend_from_slice(b"Disallow: /late\n");
        reply(200, &body)
    });
    let (out, err) = check_tsv(&base, &["/late"]);
    assert_eq!(
        out,
        format!("disallowed\t2\tDisallow: /private\t{base}/private/x\nallowed\t-\t-\t/late\n")
    );
    assert!(
        err.contains("  bytes:     more than 512000 (cut at --max-robots-size)\n"),
        "{err}"
    );
    // With a larger limit the late rule is read.
    let (out, _) = check_tsv(&base, &["/late", "--max-robots-size", "1000000"]);
    assert!(out.ends_with("\tDisallow: /late\t/late\n"), "{out}");
    assert!(out.contains("\ndisallowed\t"), "{out}");
}

#[test]
fn refused_connection_is_unreachable() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let base = format!("http://127.0.0.1:{port}");
    let (out, err) = check_tsv(&base, &[]);
    assert_eq!(out, format!("disallowed\t-\t-\t{base}/private/x\n"));
    assert!(err.contains("  status:    none\n"), "{err}");
    assert!(
        err.contains("  reason:    robots.txt unreachable (network error: "),
        "{err}"
    );
}

#[test]
fn usage_errors() {
    let o = robotsmatch(&["check", "--fetch", "/relative", "--agent", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--fetch needs an absolute URL"),
        "{}",
        text(&o.stderr)
    );
    let o = robotsmatch(&["check", "--fetch", "ftp://h/x", "--agent", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--fetch needs an http or https URL"));
    let o = robotsmatch(&[
        "check",
        "--fetch",
        "http://h/",
        "--robots",
        "f",
        "--agent",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = robotsmatch(&["check", "--agent", "x", "/a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--robots"), "{}", text(&o.stderr));
}

#[test]
fn issue16_body_timeout_says_so() {
    let (base, _) = serve(|_| {
        let mut r = reply(200, b"User-agent: *\nAllow: /\n# and more to come\n");
        r.stall_after = Some(14);
        r.delay = Duration::from_secs(4);
        r
    });
    let (out, err) = check_tsv(&base, &["--timeout", "1"]);
    assert_eq!(out, format!("disallowed\t-\t-\t{base}/private/x\n"));
    assert!(
        err.contains("  reason:    robots.txt unreachable (timed out after 1 s while reading the body of the 200 response, 14 bytes in)\n"),
        "{err}"
    );
}

#[test]
fn issue16_redirect_to_a_file_url_is_not_followed() {
    let (base, seen) = serve(|p| match p {
        "/robots.txt" => redirect("file:///etc/passwd"),
        _ => reply(404, b""),
    });
    let (out, err) = check_tsv(&base, &[]);
    // A redirect that cannot be followed: unavailable, everything allowed (RFC 9309 as the
    // README's table says), with the reason in words.
    assert_eq!(out, format!("allowed\t-\t-\t{base}/private/x\n"));
    assert!(
        err.contains("  reason:    robots.txt unavailable (301): everything allowed\n  note:      the redirect to 'file:///etc/passwd' was not followed: only http and https URLs are\n"),
        "{err}"
    );
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn issue16_javascript_location_is_not_read_as_a_path() {
    let (base, seen) = serve(|p| match p {
        "/robots.txt" => redirect("javascript:alert(1)"),
        _ => reply(200, b"User-agent: *\nDisallow: /\n"),
    });
    let (out, err) = check_tsv(&base, &[]);
    assert_eq!(out, format!("allowed\t-\t-\t{base}/private/x\n"));
    assert!(
        err.contains("  note:      the redirect to 'javascript:alert(1)' was not followed: only http and https URLs are\n"),
        "{err}"
    );
    // Nothing was asked for but /robots.txt (before: /javascript:alert(1)).
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(seen[0].starts_with("/robots.txt "), "{seen:?}");
}

#[test]
fn issue17_fetch_warns_about_urls_of_other_origins() {
    let (base, _) = serve(|p| match p {
        "/robots.txt" => reply(200, BODY),
        _ => reply(404, b""),
    });
    let (out, err) = check_tsv(
        &base,
        &[
            "/private/y",
            "https://other.example/private/z",
            "http://other.example/",
        ],
    );
    assert_eq!(
        out,
        format!(
            "disallowed\t2\tDisallow: /private\t{base}/private/x\n\
             disallowed\t2\tDisallow: /private\t/private/y\n\
             disallowed\t2\tDisallow: /private\thttps://other.example/private/z\n\
             allowed\t-\t-\thttp://other.example/\n"
        )
    );
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(
        warnings,
        [
            format!("robotsmatch: warning: 'https://other.example/private/z' is not on the origin of the fetched file ({base}/robots.txt): it is decided against that file anyway; fetch its own robots.txt (https://other.example/robots.txt) to decide it"),
            format!("robotsmatch: warning: 'http://other.example/' is not on the origin of the fetched file ({base}/robots.txt): it is decided against that file anyway; fetch its own robots.txt (http://other.example/robots.txt) to decide it"),
        ]
    );
}
