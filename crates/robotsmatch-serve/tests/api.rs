//! The JSON API over real HTTP: a server on an ephemeral loopback port, a minimal HTTP/1.1
//! client, every endpoint and every error path. Verdicts are compared with the library's
//! `Matcher` on the example file and on real files of the sample corpus.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use robotsmatch::catalog::{self, agent_for};
use robotsmatch::{Matcher, MatcherBuilder, Profile, Robots, SelectionKind};
use robotsmatch_serve::{serve_on, Limits};
use serde_json::{json, Value};

/// Starts a server with `limits` on 127.0.0.1:0 in a background thread; returns its address.
fn start(limits: Limits) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("tokio runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind 127.0.0.1:0");
            tx.send(listener.local_addr().expect("local addr"))
                .expect("send addr");
            serve_on(listener, limits).await.expect("serve");
        });
    });
    rx.recv_timeout(Duration::from_secs(30))
        .expect("server started")
}

fn server() -> SocketAddr {
    static ADDR: std::sync::OnceLock<SocketAddr> = std::sync::OnceLock::new();
    *ADDR.get_or_init(|| start(Limits::default()))
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: body is not JSON ({e}): {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// The `error` message of a JSON error reply.
    fn error(&self) -> String {
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "error replies are JSON"
        );
        let v = self.json();
        v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no 'error' string in {v}"))
            .to_string()
    }
}

/// One HTTP/1.1 request with `Connection: close`; reads the whole reply.
fn request(addr: SocketAddr, method: &str, path: &str, ctype: Option<&str>, body: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(t) = ctype {
        head.push_str(&format!("Content-Type: {t}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading everything: ignore a reset while writing.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n").expect("chunk size");
        let size = usize::from_str_radix(std::str::from_utf8(&b[..eol]).unwrap().trim(), 16)
            .expect("hex chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 4 + size..];
    }
}

fn post(addr: SocketAddr, path: &str, body: &Value) -> Reply {
    request(
        addr,
        "POST",
        path,
        Some("application/json"),
        body.to_string().as_bytes(),
    )
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    let p = repo().join(rel);
    String::from_utf8_lossy(&std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .into_owned()
}

#[test]
fn page_and_assets_are_served_with_their_types_and_a_strict_csp() {
    let addr = server();
    for (path, ctype, needle) in [
        ("/", "text/html", "<script src=\"/app.js\" defer></script>"),
        ("/index.html", "text/html", "role=\"tablist\""),
        ("/app.css", "text/css", ":focus-visible"),
        ("/app.js", "text/javascript", "/api/check"),
    ] {
        let r = request(addr, "GET", path, None, b"");
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap_or("").starts_with(ctype),
            "{path}: {:?}",
            r.header("content-type")
        );
        let csp = r.header("content-security-policy").unwrap_or("");
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
        let text = String::from_utf8_lossy(&r.body);
        assert!(text.contains(needle), "{path} lacks {needle}");
        // Nothing is loaded from elsewhere: no absolute src/href, no inline script or style.
        for bad in [
            "src=\"http",
            "href=\"http",
            "src=\"//",
            "href=\"//",
            "<style",
            "style=\"",
        ] {
            assert!(!text.contains(bad), "{path} contains {bad}");
        }
    }
    let html = String::from_utf8_lossy(&request(addr, "GET", "/", None, b"").body).into_owned();
    assert_eq!(
        html.matches("<script").count(),
        1,
        "only the one external script"
    );
    // Every form control has a label.
    for id in [
        "crawler",
        "agent-text",
        "profile",
        "urls",
        "robots",
        "robots-file",
        "old",
        "new",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "control {id}");
        assert!(
            html.contains(&format!("<label for=\"{id}\"")),
            "label for {id}"
        );
    }
}

#[test]
fn crawlers_is_the_library_catalog() {
    let r = request(server(), "GET", "/api/crawlers", None, b"");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let list = r.json();
    let list = list.as_array().expect("array");
    let catalog = catalog::crawlers();
    assert_eq!(list.len(), catalog.len());
    for (j, c) in list.iter().zip(catalog) {
        assert_eq!(j["token"], c.token);
        assert_eq!(j["fallbacks"], json!(c.fallbacks));
        assert_eq!(j["obeys_wildcard"], c.obeys_wildcard);
        assert_eq!(j["operator"], c.operator);
    }
    assert!(list.iter().any(|c| c["token"] == "Googlebot-Image"));
}

/// Paths derived from a file's rules (matches and near misses) plus real URLs.
fn urls_for(robots: &Robots, real: &[String]) -> Vec<String> {
    let mut urls: Vec<String> = real.to_vec();
    for g in robots.groups() {
        for r in g.rules() {
            let p = r.pattern_lossy().replace('*', "x").replace('$', "");
            urls.push(p.clone());
            urls.push(format!("{p}/more?q=1"));
            if p.len() > 1 {
                urls.push(p[..p.len() - 1].to_string());
            }
        }
    }
    urls.push("/robots.txt".into());
    urls.truncate(2000);
    urls
}

/// Asserts that /api/check decides every URL as the library does, with the same rule and
/// group, for `agent` under `profile`.
fn assert_check_matches_library(
    name: &str,
    text: &str,
    agent: &str,
    profile: Profile,
    urls: &[String],
) {
    let r = post(
        server(),
        "/api/check",
        &json!({"robots": text, "agent": agent, "urls": urls, "profile": profile.name}),
    );
    assert_eq!(
        r.status,
        200,
        "{name} {agent}: {}",
        String::from_utf8_lossy(&r.body)
    );
    let j = r.json();
    let robots = Robots::parse(text.as_bytes());
    let m: Matcher = MatcherBuilder::new()
        .profile(profile)
        .build(&robots, agent_for(agent));
    assert_eq!(j["agent"]["token"], m.agent().token());
    assert_eq!(j["profile"], profile.name);
    let kind = match m.selection().kind() {
        SelectionKind::Named(_) => "named",
        SelectionKind::Wildcard => "wildcard",
        SelectionKind::None => "none",
    };
    assert_eq!(j["group"]["kind"], kind, "{name} {agent}");
    assert_eq!(j["group"]["rules"], m.rules().len(), "{name} {agent}");
    assert_eq!(
        j["group"]["ranges"].as_array().map(Vec::len),
        Some(m.selection().groups().len())
    );
    let results = j["results"].as_array().expect("results");
    assert_eq!(results.len(), urls.len());
    let mut allowed = 0;
    for (res, url) in results.iter().zip(urls) {
        let d = m.decide(url);
        allowed += usize::from(d.is_allowed());
        assert_eq!(res["url"], url.as_str());
        assert_eq!(res["allowed"], d.is_allowed(), "{name} {agent} {url}");
        assert_eq!(
            res["verdict"],
            if d.is_allowed() {
                "allowed"
            } else {
                "disallowed"
            }
        );
        match d.rule() {
            Some(rule) => {
                assert_eq!(res["rule"]["line"], rule.line(), "{name} {agent} {url}");
                assert_eq!(res["rule"]["kind"], rule.kind().as_str());
                assert_eq!(res["rule"]["pattern"], rule.pattern_lossy().as_ref());
                // The deciding line lies in a range of the chosen group.
                let line = u64::from(rule.line());
                assert!(j["group"]["ranges"].as_array().unwrap().iter().any(|g| {
                    g["start"].as_u64().unwrap() <= line && line <= g["end"].as_u64().unwrap()
                }));
            }
            None => assert!(res["rule"].is_null(), "{name} {agent} {url}"),
        }
    }
    assert_eq!(j["counts"]["allowed"], allowed);
    assert_eq!(j["counts"]["disallowed"], urls.len() - allowed);
    let delay = m.selection().crawl_delay(&robots);
    assert_eq!(
        j["crawl_delay"],
        json!(delay.map(|d| d.seconds())),
        "{name} {agent}"
    );
    assert_eq!(
        j["crawl_delay_line"],
        json!(delay.map(|d| d.line())),
        "{name} {agent}"
    );
}

/// Issue 15: whole product tokens, each crawler's own crawl-delay, and one reading of a URL
/// with a `\` after the host.
#[test]
fn issue15_whole_tokens_crawl_delay_and_backslash_like_the_library() {
    let text =
        "User-agent: Ai2Bot-Dolma\nDisallow: /\n\nUser-agent: AI2Bot\nDisallow: /private/\n\n\
                User-agent: MJ12bot\nCrawl-delay: 5\nDisallow: /search\n\n\
                User-agent: Bingbot\nCrawl-delay: 1\nUser-agent: msnbot\nCrawl-delay: 2\n\
                User-agent: *\nDisallow: /login\n";
    let urls: Vec<String> = [
        "https://example.com/public",
        "https://example.com/private/x",
        "http://example.com\\private\\x",
        "https://example.com:8443\\login",
        "/search?q=1",
        "/login",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for agent in [
        "AI2Bot",
        "Ai2Bot-Dolma",
        "Mozilla/5.0 (compatible) AI2Bot (+https://www.allenai.org/crawler)",
        "MJ12bot",
        "MJ",
        "msnbot",
        "Bingbot",
        "anybot",
    ] {
        for profile in [Profile::GOOGLE, Profile::LEGACY] {
            assert_check_matches_library("issue 15", text, agent, profile, &urls);
        }
    }
    let ask = |agent: &str| {
        post(
            server(),
            "/api/check",
            &json!({"robots": text, "agent": agent, "urls": urls}),
        )
        .json()
    };
    let j = ask("AI2Bot");
    assert_eq!(j["group"]["token"], "AI2Bot");
    assert_eq!(j["results"][0]["verdict"], "allowed");
    assert_eq!(j["results"][2]["path"], "/private/x");
    assert_eq!(j["results"][2]["verdict"], "disallowed");
    let j = ask("msnbot");
    assert_eq!(
        (j["crawl_delay"].clone(), j["crawl_delay_line"].clone()),
        (json!(2.0), json!(14))
    );
    assert_eq!(
        j["results"][3]["verdict"], "disallowed",
        "the login path after '\\'"
    );
    assert_eq!(ask("anybot")["crawl_delay"], Value::Null);
    assert_eq!(ask("MJ")["group"]["kind"], "wildcard");
    // diff reads the same URL the same way.
    let new = text.replace("Disallow: /private/", "Disallow: /public");
    let d = post(
        server(),
        "/api/diff",
        &json!({"old": text, "new": new, "agent": "AI2Bot", "urls": ["https://example.com\\public", "http://example.com\\private\\x"]}),
    )
    .json();
    assert_eq!(d["counts"]["allowed_to_disallowed"], 1);
    assert_eq!(d["counts"]["disallowed_to_allowed"], 1);
    assert_eq!(d["counts"]["invalid"], 0);
}

#[test]
fn check_decides_the_example_like_the_library() {
    let text = read("corpora/examples/shop.txt");
    let robots = Robots::parse(text.as_bytes());
    let urls = urls_for(
        &robots,
        &[
            "https://shop.example/cart".into(),
            "https://shop.example/cart/help".into(),
            "https://shop.example/shoes?color=red&sort=price".into(),
            "/public/guide.pdf".into(),
            "/guide.pdf".into(),
        ],
    );
    for agent in [
        "Googlebot",
        "Googlebot-Image",
        "GPTBot",
        "AdsBot-Google",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "SomeUnknownBot/1.0",
    ] {
        for profile in [Profile::GOOGLE, Profile::LEGACY] {
            assert_check_matches_library("shop.txt", &text, agent, profile, &urls);
        }
    }
    // The example's own point: Googlebot-Image obeys its own group, so /cart is allowed.
    let r = post(
        server(),
        "/api/check",
        &json!({"robots": text, "agent": "Googlebot-Image", "urls": ["/cart"]}),
    )
    .json();
    assert_eq!(r["group"]["token"], "Googlebot-Image");
    assert_eq!(r["results"][0]["verdict"], "allowed");
}

#[test]
fn check_decides_real_sample_files_like_the_library() {
    let dir = repo().join("corpora/sample/robots");
    let real: Vec<String> = read("corpora/sample/urls.txt")
        .lines()
        .take(300)
        .map(str::to_string)
        .collect();
    // The sample files with the most rules, and a few with none.
    let mut files: Vec<(usize, PathBuf)> = std::fs::read_dir(&dir)
        .expect("corpora/sample/robots")
        .map(|e| e.expect("entry").path())
        .map(|p| {
            let n = Robots::parse(&std::fs::read(&p).unwrap()).rule_count();
            (n, p)
        })
        .collect();
    files.sort();
    let picked: Vec<&PathBuf> = files
        .iter()
        .rev()
        .take(6)
        .chain(files.iter().take(2))
        .map(|(_, p)| p)
        .collect();
    for p in picked {
        let text = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
        let robots = Robots::parse(text.as_bytes());
        let urls = urls_for(&robots, &real);
        let name = p.file_name().unwrap().to_string_lossy();
        for agent in ["Googlebot", "GPTBot", "bingbot"] {
            assert_check_matches_library(&name, &text, agent, Profile::GOOGLE, &urls);
        }
    }
}

#[test]
fn lint_gives_the_library_findings() {
    for rel in [
        "corpora/examples/shop.txt",
        "corpora/versions/arstechnica.com.2019.txt",
    ] {
        let text = read(rel);
        let r = post(server(), "/api/lint", &json!({"robots": text}));
        assert_eq!(r.status, 200);
        let j = r.json();
        let expected = robotsmatch::lint::lint(text.as_bytes());
        let got = j["findings"].as_array().expect("findings");
        assert_eq!(got.len(), expected.len(), "{rel}");
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g["line"], e.line);
            assert_eq!(g["code"], e.code);
            assert_eq!(g["severity"], e.severity.as_str());
            assert_eq!(g["message"], e.message.as_str());
        }
        let errors = expected
            .iter()
            .filter(|f| f.severity == robotsmatch::lint::Severity::Error)
            .count();
        assert_eq!(j["errors"], errors);
        assert_eq!(j["warnings"], expected.len() - errors);
    }
    // A file with a known mistake on a known line.
    let j = post(
        server(),
        "/api/lint",
        &json!({"robots": "User-agent: *\nDisallow: private\n"}),
    )
    .json();
    assert!(j["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["code"] == "no-leading-slash" && f["line"] == 2));
}

#[test]
fn diff_reports_what_the_library_decides_on_both_versions() {
    let old = read("corpora/versions/arstechnica.com.2019.txt");
    let new = read("corpora/versions/arstechnica.com.2024.txt");
    let mut urls: Vec<String> = read("corpora/versions/arstechnica.com.urls")
        .lines()
        .map(str::to_string)
        .collect();
    urls.push("https://arstechnica.com//science/x?comments=1".into()); // a path starting '//'
    urls.push("/science/x?comments=1#frag".into()); // a bare path, a fragment
    urls.push("   ".into()); // blank: skipped, not counted
    urls.push("not a url".into()); // invalid: counted apart
    let r = post(
        server(),
        "/api/diff",
        &json!({"old": old, "new": new, "agent": "Googlebot", "urls": urls}),
    );
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let j = r.json();
    let (mo, mn) = (
        Matcher::new(&Robots::parse(old.as_bytes()), agent_for("Googlebot")),
        Matcher::new(&Robots::parse(new.as_bytes()), agent_for("Googlebot")),
    );
    let valid: Vec<&String> = urls
        .iter()
        .filter(|u| !u.trim().is_empty() && u.trim() != "not a url")
        .collect();
    let changed: Vec<&&String> = valid
        .iter()
        .filter(|u| mo.is_allowed(u.trim()) != mn.is_allowed(u.trim()))
        .collect();
    let to_dis = changed.iter().filter(|u| !mn.is_allowed(u.trim())).count();
    assert!(!changed.is_empty(), "the two versions differ on this log");
    assert_eq!(j["counts"]["urls"], valid.len());
    assert_eq!(j["counts"]["invalid"], 1);
    assert_eq!(j["invalid"][0]["url"], "not a url");
    assert_eq!(j["counts"]["allowed_to_disallowed"], to_dis);
    assert_eq!(j["counts"]["disallowed_to_allowed"], changed.len() - to_dis);
    assert_eq!(j["counts"]["unchanged"], valid.len() - changed.len());
    let got = j["changed"].as_array().expect("changed");
    assert_eq!(got.len(), changed.len());
    for (g, u) in got.iter().zip(&changed) {
        assert_eq!(g["url"], u.trim());
        let (a, b) = (mo.decide(u.trim()), mn.decide(u.trim()));
        assert_eq!(
            g["old_verdict"],
            if a.is_allowed() {
                "allowed"
            } else {
                "disallowed"
            }
        );
        assert_eq!(g["new_rule"]["line"], json!(b.rule().map(|r| r.line())));
        assert_eq!(g["old_rule"]["line"], json!(a.rule().map(|r| r.line())));
    }
    let by_rule: u64 = j["by_rule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["count"].as_u64().unwrap())
        .sum();
    assert_eq!(by_rule as usize, changed.len());
    // The same file twice changes nothing.
    let j = post(
        server(),
        "/api/diff",
        &json!({"old": old, "new": old, "agent": "Googlebot", "urls": urls, "profile": "legacy"}),
    )
    .json();
    assert_eq!(j["counts"]["unchanged"], valid.len());
    assert_eq!(j["changed"], json!([]));
}

/// Asserts a JSON error reply with `status` whose message contains `needle`.
fn expect_error(r: &Reply, status: u16, needle: &str) {
    let msg = r.error();
    assert_eq!(r.status, status, "{msg}");
    assert!(msg.contains(needle), "'{msg}' should mention '{needle}'");
}

#[test]
fn bad_input_is_a_400_that_names_the_field() {
    let addr = server();
    let ok_check =
        json!({"robots": "User-agent: *\nDisallow: /a\n", "agent": "Googlebot", "urls": ["/a"]});
    let ok_diff = json!({"old": "", "new": "", "agent": "Googlebot", "urls": ["/a"]});
    let ok_lint = json!({"robots": ""});
    for (path, ok) in [
        ("/api/check", &ok_check),
        ("/api/diff", &ok_diff),
        ("/api/lint", &ok_lint),
    ] {
        assert_eq!(post(addr, path, ok).status, 200, "{path}");
        // Not JSON, not an object.
        let r = request(
            addr,
            "POST",
            path,
            Some("application/json"),
            b"{\"robots\": ",
        );
        expect_error(&r, 400, "not valid JSON");
        expect_error(&post(addr, path, &json!(["x"])), 400, "JSON object");
        // An unknown field.
        let mut v = ok.clone();
        v["robot"] = json!("x");
        expect_error(&post(addr, path, &v), 400, "unknown field 'robot'");
        // Each field missing, and each field of the wrong type.
        for field in ok.as_object().unwrap().keys() {
            let mut v = ok.clone();
            v.as_object_mut().unwrap().remove(field);
            expect_error(
                &post(addr, path, &v),
                400,
                &format!("missing field '{field}'"),
            );
            let mut v = ok.clone();
            v[field] = json!(42);
            expect_error(
                &post(addr, path, &v),
                400,
                &format!("field '{field}' must be"),
            );
        }
        // No JSON content type: 415.
        let r = request(
            addr,
            "POST",
            path,
            Some("text/plain"),
            ok.to_string().as_bytes(),
        );
        expect_error(&r, 415, "application/json");
        let r = request(addr, "POST", path, None, ok.to_string().as_bytes());
        expect_error(&r, 415, "application/json");
    }
    for (path, ok) in [("/api/check", &ok_check), ("/api/diff", &ok_diff)] {
        let mut v = ok.clone();
        v["urls"] = json!(["/a", 7]);
        expect_error(
            &post(addr, path, &v),
            400,
            "field 'urls' entry 2 must be a string",
        );
        let mut v = ok.clone();
        v["profile"] = json!("bing");
        expect_error(&post(addr, path, &v), 400, "unknown profile 'bing'");
        let mut v = ok.clone();
        v["profile"] = json!(true);
        expect_error(
            &post(addr, path, &v),
            400,
            "field 'profile' must be a string",
        );
        let mut v = ok.clone();
        v["agent"] = json!("  ");
        expect_error(&post(addr, path, &v), 400, "field 'agent' is empty");
        let mut v = ok.clone();
        v["agent"] = json!("all");
        expect_error(&post(addr, path, &v), 400, "field 'agent'");
        // The same request with a valid profile passes.
        let mut v = ok.clone();
        v["profile"] = json!("legacy");
        assert_eq!(post(addr, path, &v).status, 200);
    }
    // A JSON content type with parameters is accepted.
    let r = request(
        addr,
        "POST",
        "/api/lint",
        Some("application/json; charset=utf-8"),
        ok_lint.to_string().as_bytes(),
    );
    assert_eq!(r.status, 200);
}

#[test]
fn unknown_paths_are_404_and_wrong_methods_405_in_json() {
    let addr = server();
    for path in ["/nope", "/api", "/api/checks", "/app.js/x"] {
        expect_error(&request(addr, "GET", path, None, b""), 404, "no such page");
    }
    expect_error(
        &request(addr, "POST", "/api/nope", Some("application/json"), b"{}"),
        404,
        "no such page",
    );
    for path in ["/api/check", "/api/lint", "/api/diff"] {
        let r = request(addr, "GET", path, None, b"");
        expect_error(&r, 405, "method not allowed");
        assert_eq!(r.header("allow"), Some("POST"));
    }
    for (method, path) in [
        ("POST", "/api/crawlers"),
        ("DELETE", "/"),
        ("PUT", "/app.js"),
    ] {
        let r = request(addr, method, path, Some("application/json"), b"{}");
        expect_error(&r, 405, "method not allowed");
        assert!(r.header("allow").unwrap_or("").contains("GET"));
    }
}

#[test]
fn over_a_limit_is_a_413() {
    let addr = server();
    let limits = Limits::default();
    let big = "# x\n".repeat(limits.max_robots_bytes / 4 + 1);
    expect_error(
        &post(addr, "/api/lint", &json!({"robots": big})),
        413,
        "field 'robots' is",
    );
    expect_error(
        &post(
            addr,
            "/api/check",
            &json!({"robots": big, "agent": "Googlebot", "urls": ["/"]}),
        ),
        413,
        "field 'robots' is",
    );
    for field in ["old", "new"] {
        let mut v = json!({"old": "", "new": "", "agent": "Googlebot", "urls": ["/"]});
        v[field] = json!(big);
        expect_error(
            &post(addr, "/api/diff", &v),
            413,
            &format!("field '{field}' is"),
        );
    }
    // Just under the robots.txt limit is accepted (lint reports it as too large to parse).
    let under = "#".repeat(limits.max_robots_bytes);
    let r = post(addr, "/api/lint", &json!({"robots": under}));
    assert_eq!(r.status, 200);
    assert!(r.json()["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["code"] == "file-too-large"));
    // The URL count: the limit passes, one more is refused.
    let mut urls: Vec<String> = (0..limits.max_urls).map(|i| format!("/p{i}")).collect();
    let ok = post(
        addr,
        "/api/check",
        &json!({"robots": "User-agent: *\nDisallow: /p1\n", "agent": "Googlebot", "urls": urls}),
    );
    assert_eq!(ok.status, 200);
    assert_eq!(ok.json()["counts"]["urls"], limits.max_urls);
    urls.push("/one-more".into());
    for path in ["/api/check", "/api/diff"] {
        let v = json!({"robots": "", "old": "", "new": "", "agent": "Googlebot", "urls": urls});
        let mut v = v.as_object().unwrap().clone();
        if path == "/api/check" {
            v.remove("old");
            v.remove("new");
        } else {
            v.remove("robots");
        }
        expect_error(
            &post(addr, path, &Value::Object(v)),
            413,
            "field 'urls' has 10001 entries",
        );
    }
    // One URL too long, the agent too long.
    let long = format!("/{}", "a".repeat(limits.max_url_bytes));
    expect_error(
        &post(
            addr,
            "/api/check",
            &json!({"robots": "", "agent": "Googlebot", "urls": ["/", long]}),
        ),
        413,
        "field 'urls' entry 2 is",
    );
    expect_error(
        &post(
            addr,
            "/api/check",
            &json!({"robots": "", "agent": long, "urls": ["/"]}),
        ),
        413,
        "field 'agent' is",
    );
    // The whole body.
    let body = vec![b' '; limits.max_body_bytes + 1];
    let r = request(addr, "POST", "/api/lint", Some("application/json"), &body);
    expect_error(&r, 413, "request body is larger than");
}

#[test]
fn work_over_the_time_limit_is_a_503() {
    let addr = start(Limits {
        time_limit: Duration::ZERO,
        ..Limits::default()
    });
    let rules: String = (0..5000)
        .map(|i| format!("Disallow: /*a{i}*b$\n"))
        .collect();
    let urls: Vec<String> = (0..10_000).map(|i| format!("/a{i}/x/b")).collect();
    let r = post(
        addr,
        "/api/check",
        &json!({"robots": format!("User-agent: *\n{rules}"), "agent": "Googlebot", "urls": urls}),
    );
    expect_error(&r, 503, "time limit");
    // The page itself has no time limit.
    assert_eq!(request(addr, "GET", "/", None, b"").status, 200);
}

#[test]
fn issue16_a_body_that_does_not_arrive_is_a_408() {
    let addr = start(Limits {
        body_timeout: Duration::from_millis(300),
        ..Limits::default()
    });
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // The head says 100 bytes; 10 come, then nothing.
    s.write_all(
        b"POST /api/lint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"robots\":",
    )
    .unwrap();
    let mut raw = String::new();
    let _ = s.read_to_string(&mut raw);
    assert!(raw.starts_with("HTTP/1.1 408 "), "{raw}");
    assert!(
        raw.contains(r#"{"error":"the request body did not arrive within 300 ms"}"#),
        "{raw}"
    );
}

#[test]
fn issue16_an_empty_agent_is_refused_with_the_command_line_s_message() {
    let r = post(
        server(),
        "/api/check",
        &json!({"robots": "", "agent": " ", "urls": ["/"]}),
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        r.error(),
        "field 'agent' is empty: name a crawler (a product token such as Googlebot, a full user-agent string, or a catalog name)"
    );
}
