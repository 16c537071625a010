//! CLI tests: run the real binary and compare whole outputs and exit codes.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn robotsmatch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run robotsmatch")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SHOP: &str = "corpora/examples/shop.txt";

#[test]
fn check_tsv_whole_output() {
    let o = robotsmatch(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "--format",
        "tsv",
        "https://shop.example/cart",
        "https://shop.example/cart/help",
        "https://shop.example/shoes?color=red&sort=price",
        "https://shop.example/manual.pdf?download=1",
        "/public/guide.pdf",
        "/robots.txt",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "disallowed\t3\tDisallow: /cart\thttps://shop.example/cart\n\
         allowed\t7\tAllow: /cart/help$\thttps://shop.example/cart/help\n\
         disallowed\t5\tDisallow: /*?*sort=\thttps://shop.example/shoes?color=red&sort=price\n\
         allowed\t-\t-\thttps://shop.example/manual.pdf?download=1\n\
         allowed\t8\tAllow: /public/*.pdf$\t/public/guide.pdf\n\
         allowed\t-\t-\t/robots.txt\n"
    );
}

/// Every `--engine` value decides as the default does (the same verdicts and deciding lines),
/// and the engine named is the one that decided.
#[test]
fn check_every_engine_decides_the_same() {
    let urls = [
        "https://shop.example/cart",
        "https://shop.example/cart/help",
        "https://shop.example/shoes?color=red&sort=price",
        "https://shop.example/manual.pdf?download=1",
        "/public/guide.pdf",
    ];
    let run = |engine: &str, format: &str, urls: &[&str]| {
        let mut args = vec![
            "check",
            "--robots",
            SHOP,
            "--agent",
            "Googlebot",
            "--engine",
            engine,
            "--format",
            format,
        ];
        args.extend_from_slice(urls);
        let o = robotsmatch(&args);
        assert_eq!(o.status.code(), Some(0), "{engine}: {}", stderr(&o));
        stdout(&o)
    };
    let expected = run("auto", "tsv", &urls);
    for engine in ["tree", "lazy", "dense", "split", "direct", "reference"] {
        assert_eq!(run(engine, "tsv", &urls), expected, "--engine {engine}");
        let text = run(engine, "text", &urls[..1]);
        assert!(
            text.contains(&format!("engine:    {engine}\n")),
            "--engine {engine}: {text}"
        );
    }
}

#[test]
fn check_named_group_replaces_wildcard() {
    // Googlebot-Image has its own group: the `*` restrictions do not apply to it.
    let o = robotsmatch(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Mozilla/5.0 (compatible; Googlebot-Image/1.0)",
        "--format",
        "tsv",
        "/cart",
        "/account/settings",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "allowed\t-\t-\t/cart\ndisallowed\t13\tDisallow: /account/\t/account/settings\n"
    );
}

#[test]
fn check_text_explains() {
    let o = robotsmatch(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "/cart/help",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let want = "/cart/help
  verdict:   allowed
  agent:     Googlebot (product token 'Googlebot', profile google)
  group:     'User-agent: *' (line 2) (no group names 'Googlebot')
  crawl-delay: none
  path:      /cart/help
  rule:      line 7: Allow: /cart/help$
  runner-up: line 3: Disallow: /cart (length 5 < 11: the longest match wins)
  engine:    direct
";
    assert_eq!(stdout(&o), want);
}

#[test]
fn check_json_is_valid() {
    let o = robotsmatch(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "--format",
        "json",
        "/cart",
        "/x",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["results"][0]["verdict"], "disallowed");
    assert_eq!(v["results"][0]["rule"]["line"], 3);
    assert_eq!(v["results"][1]["rule"], serde_json::Value::Null);
    assert_eq!(v["group"]["kind"], "wildcard");
}

#[test]
fn check_legacy_profile() {
    let o = robotsmatch(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "--profile",
        "legacy",
        "--format",
        "tsv",
        "/cart/help",
        "/a.pdf",
    ]);
    assert_eq!(o.status.code(), Some(0));
    // First match in file order: `Disallow: /cart` (line 3) comes before the Allow; `$` and
    // `*` are literal, so `/*.pdf$` does not match.
    assert_eq!(
        stdout(&o),
        "disallowed\t3\tDisallow: /cart\t/cart/help\nallowed\t-\t-\t/a.pdf\n"
    );
}

#[test]
fn check_errors_exit_2_and_name_the_file() {
    let o = robotsmatch(&["check", "--robots", "no/such/file.txt", "--agent", "x", "/"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.txt"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());

    let o = robotsmatch(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "x",
        "--profile",
        "bing",
        "/",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown profile 'bing'"),
        "{}",
        stderr(&o)
    );

    let o = robotsmatch(&["check", "--robots", SHOP, "--agent", "x"]);
    assert_eq!(o.status.code(), Some(2), "missing URL is a usage error");

    let o = robotsmatch(&[
        "check", "--robots", SHOP, "--agent", "x", "--format", "xml", "/",
    ]);
    assert_eq!(o.status.code(), Some(2));
}
