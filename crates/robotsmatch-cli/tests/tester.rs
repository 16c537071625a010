//! The site owner's tester: `lint`, `test`, `diff`, `crawlers`, `check --agent all` and
//! `check --profile google,legacy`, run as the real binary, whole outputs and exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run robotsmatch")
}

fn run(args: &[&str]) -> Output {
    run_in(&root(), args)
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SHOP: &str = "corpora/examples/shop.txt";
const OLD: &str = "corpora/versions/arstechnica.com.2019.txt";
const NEW: &str = "corpora/versions/arstechnica.com.2024.txt";
const LOG: &str = "corpora/versions/arstechnica.com.urls";

/// Writes `files` into a new temporary directory.
fn files(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, body) in files {
        std::fs::write(dir.path().join(name), body).unwrap();
    }
    dir
}

/// The (line, code) pairs `lint --format json` reports for `body`, and the exit code.
fn lint_codes(body: &[u8]) -> (Vec<(u64, String)>, Option<i32>) {
    let dir = files(&[("robots.txt", body)]);
    let o = run_in(dir.path(), &["lint", "--format", "json", "robots.txt"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let codes = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["line"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (codes, o.status.code())
}

#[test]
fn lint_text_whole_output_and_exit_1_on_errors() {
    let dir = files(&[(
        "bad.txt",
        b"Disallow: /early\nUser-agent: *\nDisallow: private\nDisallow: /a$b\nDisallow: /tmp*\n\
          Crawl-delay: 10\n\nUser-agent: Googlebot\nDisallow: /private/\n",
    )]);
    let o = run_in(dir.path(), &["lint", "bad.txt"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let want = "\
bad.txt:1: error[rule-outside-group]: 'Disallow: /early' comes before any user-agent line: it applies to no crawler
    fix: add 'User-agent: *' (or the crawler's name) on a line above it
bad.txt:3: error[no-leading-slash]: 'Disallow: private' never matches: paths start with '/', and so must patterns
    fix: write 'Disallow: /private'
bad.txt:4: error[dollar-not-at-end]: '$' in 'Disallow: /a$b' is not at the end, so it is a literal '$', not an end anchor
    fix: put '$' only at the very end of a pattern (and use '*' for what lies between)
bad.txt:5: warning[trailing-star]: the trailing '*' in 'Disallow: /tmp*' has no effect: rules already match every URL that starts with the pattern
    fix: write 'Disallow: /tmp'
bad.txt:6: warning[ignored-directive]: Google ignores 'crawl-delay' (Bing and Yandex honour it): 'Crawl-delay: 10'
    fix: keep it for the crawlers that read it; Googlebot adjusts its rate to how fast the server answers
bad.txt:8: warning[wildcard-rules-lost]: the group for 'Googlebot' replaces the '*' group, so 2 restrictions of '*' no longer apply to it: line 4 'Disallow: /a$b', line 5 'Disallow: /tmp*'
    fix: copy the lost Disallow rules into the 'Googlebot' group (a crawler obeys only its most specific group)
3 errors, 3 warnings
";
    assert_eq!(out(&o), want);
}

#[test]
fn lint_clean_and_warnings_only_exit_0() {
    let dir = files(&[
        (
            "clean.txt",
            b"User-agent: *\nDisallow: /cart/\nAllow: /cart/help$\n\nSitemap: https://shop.example/sitemap.xml\n",
        ),
        ("warn.txt", b"User-agent: *\nDisallow: /cart\nCrawl-delay: 5\n"),
    ]);
    let o = run_in(dir.path(), &["lint", "clean.txt"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o), "0 errors, 0 warnings\n");
    let o = run_in(dir.path(), &["lint", "warn.txt"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).ends_with("0 errors, 1 warning\n"), "{}", out(&o));
}

#[test]
fn lint_json_and_errors() {
    let o = run(&["lint", "--format", "json", SHOP]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["file"], SHOP);
    assert_eq!(v["errors"], 0);
    assert_eq!(v["warnings"], 1);
    let f = &v["findings"][0];
    assert_eq!(f["code"], "wildcard-rules-lost");
    assert_eq!(f["line"], 11);
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["related"], serde_json::json!([3, 4, 5, 6]));
    assert!(f["fix"].as_str().unwrap().contains("Googlebot-Image"));

    let o = run(&["lint", "no/such/robots.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no/such/robots.txt"), "{}", err(&o));
    let o = run(&["lint", "--format", "xml", SHOP]);
    assert_eq!(o.status.code(), Some(2));
}

/// For a finding whose line depends on the data (the first line past the size limit).
const ANY_LINE: u64 = u64::MAX;

/// Every finding: a file that triggers it (at the given line) and a close one that does not.
#[test]
fn lint_every_finding_triggers_and_does_not() {
    let long_line = format!("User-agent: *\nDisallow: /{}\n", "a".repeat(17000));
    let mut big = b"User-agent: *\n".to_vec();
    while big.len() < 520 * 1024 {
        big.extend_from_slice(b"Disallow: /a/rather/long/path/that/is/blocked\n");
    }
    let utf16: Vec<u8> = b"\xFF\xFE"
        .iter()
        .copied()
        .chain("User-agent: *\nDisallow: /\n".bytes().flat_map(|b| [b, 0]))
        .collect();
    let mut elf = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00".to_vec();
    elf.extend_from_slice(b"\x02\x00\x3e\x00User-agent: *\nDisallow: /\n");
    let rules = |n: usize| -> Vec<u8> {
        let mut b = b"User-agent: *\n".to_vec();
        for i in 0..n {
            b.extend_from_slice(format!("Disallow: /p{i}/\n").as_bytes());
        }
        b
    };
    let cases: Vec<(&str, Vec<u8>, u64, Vec<u8>)> = vec![
        (
            "binary-file",
            elf,
            0,
            b"User-agent: *\nDisallow: /a\x00b\nDisallow: /\x1b[31m\n".to_vec(),
        ),
        (
            "checks-skipped",
            rules(1001),
            0,
            rules(1000),
        ),
        (
            "html-file",
            b"<!DOCTYPE html>\n<html><body>404</body></html>\n".to_vec(),
            0,
            b"User-agent: *\nDisallow: /<html>\n".to_vec(),
        ),
        (
            "utf16-file",
            utf16,
            0,
            b"User-agent: *\nDisallow: /x\n".to_vec(),
        ),
        (
            "file-too-large",
            big.clone(),
            ANY_LINE,
            big[..400 * 1024].to_vec(),
        ),
        ("no-rules", b"".to_vec(), 0, b"User-agent: *\nDisallow:\n".to_vec()),
        (
            "rule-outside-group",
            b"Disallow: /a\nUser-agent: *\nDisallow: /b\n".to_vec(),
            1,
            b"User-agent: *\nDisallow: /a\nDisallow: /b\n".to_vec(),
        ),
        (
            "missing-colon",
            b"User-agent: *\nDisallow /a\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /a\n".to_vec(),
        ),
        (
            "unparsable-line",
            b"User-agent: *\nDisallow /a /b\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /a\n# Disallow /a /b\n".to_vec(),
        ),
        (
            "misspelled-key",
            b"User-agent: *\nDisalow: /a\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /a\n".to_vec(),
        ),
        (
            "unknown-key",
            b"User-agent: *\nDisallow: /a\nClean-param: ref\n".to_vec(),
            3,
            b"User-agent: *\nDisallow: /a\n".to_vec(),
        ),
        (
            "line-too-long",
            long_line.into_bytes(),
            2,
            format!("User-agent: *\nDisallow: /{}\n", "a".repeat(16000)).into_bytes(),
        ),
        (
            "nul-byte",
            b"User-agent: *\nDisallow: /a\0b\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /a\n".to_vec(),
        ),
        (
            "user-agent-no-token",
            b"User-agent: *bot\nDisallow: /a\n".to_vec(),
            1,
            b"User-agent: bot\nDisallow: /a\n".to_vec(),
        ),
        (
            "star-in-user-agent",
            b"User-agent: Googlebot*\nDisallow: /a\n".to_vec(),
            1,
            b"User-agent: Googlebot\nDisallow: /a\n".to_vec(),
        ),
        (
            "google-cuts-user-agent",
            b"User-agent: Googlebot2\nDisallow: /a\n".to_vec(),
            1,
            b"User-agent: MJ12bot\nDisallow: /a\n".to_vec(),
        ),
        (
            "no-leading-slash",
            b"User-agent: *\nDisallow: admin/\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /admin/\nDisallow: *.pdf$\n".to_vec(),
        ),
        (
            "dollar-not-at-end",
            b"User-agent: *\nDisallow: /*.pdf$?\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /*.pdf$\n".to_vec(),
        ),
        (
            "trailing-star",
            b"User-agent: *\nDisallow: /private*\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /private\nDisallow: /*.pdf\n".to_vec(),
        ),
        (
            "duplicate-rule",
            b"User-agent: *\nDisallow: /a\nDisallow: /b\nDisallow: /a\n".to_vec(),
            4,
            b"User-agent: *\nDisallow: /a\nDisallow: /b\n\nUser-agent: x\nDisallow: /a\n".to_vec(),
        ),
        (
            "shadowed-rule",
            b"User-agent: *\nDisallow: /private/\nDisallow: /private/*\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /private/\nDisallow: /public/*.pdf\n".to_vec(),
        ),
        (
            "overridden-rule",
            b"User-agent: *\nDisallow: /*private*\nAllow: /private\n".to_vec(),
            3,
            b"User-agent: *\nDisallow: /*private*\nAllow: /private/page\n".to_vec(),
        ),
        (
            "allow-disallow-tie",
            b"User-agent: *\nAllow: /a*b\nDisallow: /*bc\n".to_vec(),
            2,
            b"User-agent: *\nAllow: /a*b\nDisallow: /*bcd\n".to_vec(),
        ),
        (
            "order-dependent",
            b"User-agent: *\nDisallow: /shop\nAllow: /shop/help\n".to_vec(),
            2,
            b"User-agent: *\nAllow: /shop/help\nDisallow: /shop\n".to_vec(),
        ),
        (
            "split-group",
            b"User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nUser-agent: googlebot\nDisallow: /c\n"
                .to_vec(),
            7,
            b"User-agent: Googlebot\nDisallow: /a\nDisallow: /c\n\nUser-agent: *\nDisallow: /b\n".to_vec(),
        ),
        (
            "slash-variant",
            b"User-agent: *\nDisallow: /admin\n\nUser-agent: Googlebot\nDisallow: /admin/\n"
                .to_vec(),
            2,
            b"User-agent: *\nDisallow: /admin/\n\nUser-agent: Googlebot\nDisallow: /admin/\n"
                .to_vec(),
        ),
        (
            "wildcard-rules-lost",
            b"User-agent: *\nDisallow: /cart/\n\nUser-agent: Googlebot\nDisallow: /tmp/\n".to_vec(),
            4,
            b"User-agent: *\nDisallow: /cart/\n\nUser-agent: Googlebot\nDisallow: /tmp/\nDisallow: /cart/\n"
                .to_vec(),
        ),
        (
            "ignored-directive",
            b"User-agent: *\nDisallow: /a\nHost: www.example.com\n".to_vec(),
            3,
            b"User-agent: *\nDisallow: /a\n".to_vec(),
        ),
        (
            "noindex-in-robots",
            b"User-agent: *\nNoindex: /drafts/\n".to_vec(),
            2,
            b"User-agent: *\nDisallow: /drafts/\n".to_vec(),
        ),
        (
            "staging-leak",
            b"User-agent: *\nDisallow: /\n".to_vec(),
            2,
            b"User-agent: BadBot\nDisallow: /\n".to_vec(),
        ),
    ];
    for (code, _, _) in robotsmatch::lint::CODES {
        assert!(
            cases.iter().any(|(c, _, _, _)| c == code),
            "no CLI case for the finding {code}"
        );
    }
    for (code, triggers, line, clean) in cases {
        let (found, status) = lint_codes(&triggers);
        assert!(
            found
                .iter()
                .any(|(l, c)| c == code && (*l == line || line == ANY_LINE)),
            "{code}: expected at line {line}, got {found:?}"
        );
        let error = robotsmatch::lint::CODES
            .iter()
            .any(|(c, sev, _)| *c == code && *sev == robotsmatch::lint::Severity::Error);
        if error {
            assert_eq!(status, Some(1), "{code} is an error");
        }
        let (found, _) = lint_codes(&clean);
        assert!(
            !found.iter().any(|(_, c)| c == code),
            "{code}: the clean file triggers it: {found:?}"
        );
    }
}

const EXPECT_PASS: &str = "\
# the shop's regression list
allow https://shop.example/
allow https://shop.example/cart/help
disallow https://shop.example/cart
disallow /checkout/step1

agent Googlebot-Image
allow /cart
disallow /account/settings
";

#[test]
fn test_passes_exit_0() {
    let dir = files(&[("shop.expect", EXPECT_PASS.as_bytes())]);
    let robots = root().join(SHOP);
    let o = run_in(
        dir.path(),
        &[
            "test",
            "--robots",
            robots.to_str().unwrap(),
            "--agent",
            "Googlebot",
            "shop.expect",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "6 passed, 0 failed\n");
}

const EXPECT_FAIL: &str = "\
allow /cart/help
allow /cart/checkout   # wrong on purpose
disallow /shoes?sort=price
disallow /shoes
agent AdsBot-Google
disallow /cart
";

#[test]
fn test_failures_exit_1() {
    let dir = files(&[("shop.expect", EXPECT_FAIL.as_bytes())]);
    let robots = root().join(SHOP);
    let o = run_in(
        dir.path(),
        &[
            "test",
            "--robots",
            robots.to_str().unwrap(),
            "--agent",
            "Googlebot",
            "shop.expect",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert_eq!(
        out(&o),
        "FAIL shop.expect:2: allow /cart/checkout (Googlebot): expected allowed, got disallowed (line 3: Disallow: /cart)\n\
         FAIL shop.expect:4: disallow /shoes (Googlebot): expected disallowed, got allowed (no rule matches)\n\
         FAIL shop.expect:6: disallow /cart (AdsBot-Google): expected disallowed, got allowed (no rule matches)\n\
         2 passed, 3 failed\n"
    );
}

#[test]
fn test_junit() {
    let dir = files(&[("shop.expect", b"allow /cart/help\ndisallow /x&y\n")]);
    let robots = root().join(SHOP);
    let o = run_in(
        dir.path(),
        &[
            "test",
            "--robots",
            robots.to_str().unwrap(),
            "--agent",
            "Googlebot",
            "--format",
            "junit",
            "shop.expect",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let want = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="robotsmatch test" tests="2" failures="1">
  <testsuite name="{}" tests="2" failures="1" errors="0">
    <testcase classname="shop.expect" name="line 1: allow /cart/help (Googlebot)"/>
    <testcase classname="shop.expect" name="line 2: disallow /x&amp;y (Googlebot)">
      <failure type="verdict" message="expected disallowed, got allowed (no rule matches)">shop.expect:2: expected disallowed, got allowed (no rule matches)</failure>
    </testcase>
  </testsuite>
</testsuites>
"#,
        robots.display()
    );
    assert_eq!(out(&o), want);
}

#[test]
fn test_bad_expectations_exit_2_naming_file_and_line() {
    let dir = files(&[
        ("bad.expect", b"allow /a\n\nblock /b\n"),
        ("noagent.expect", b"allow /a\n"),
    ]);
    let robots = root().join(SHOP);
    let robots = robots.to_str().unwrap();
    let o = run_in(
        dir.path(),
        &["test", "--robots", robots, "--agent", "x", "bad.expect"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("bad.expect:3: "), "{}", err(&o));
    assert!(o.stdout.is_empty());
    let o = run_in(dir.path(), &["test", "--robots", robots, "noagent.expect"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("noagent.expect:1: "), "{}", err(&o));
    let o = run_in(
        dir.path(),
        &["test", "--robots", robots, "--agent", "x", "missing.expect"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("missing.expect"), "{}", err(&o));
}

#[test]
fn diff_real_versions_over_a_real_log() {
    let o = run(&["diff", "--agent", "Googlebot", OLD, NEW, LOG]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let want = "\
old: corpora/versions/arstechnica.com.2019.txt (group '*': 39 rules for 'Googlebot')
new: corpora/versions/arstechnica.com.2024.txt (group '*': 28 rules for 'Googlebot')
urls                           890
unchanged                      881
allowed -> disallowed            9
disallowed -> allowed            0

allowed -> disallowed, by the new rule that blocks them:
         9  line 59: Disallow: */*comments=
            http://arstechnica.com/microsoft/news/2010/03/microsoft-shows-of-windows-phone-7-series-dev-tools-at-mix10.ars?comments=1#comments-bar
            http://arstechnica.com/science/news/2010/03/dois-and-their-discontents.ars?comments=1
            http://arstechnica.com/tech-policy/news/2010/03/europe-trashes-acta-as-obama-praises-it.ars?comments=1&amp;utm_source=rss&amp;utm_medium=rss&amp;utm_campaign=rss#comments-bar
";
    assert_eq!(out(&o), want);

    // GPTBot got a group of its own with `Disallow: /`: everything it could fetch is now blocked.
    let text = run(&["diff", "--agent", "GPTBot", OLD, NEW, LOG]);
    assert_eq!(text.status.code(), Some(1));
    assert!(out(&text).contains(
        "new: corpora/versions/arstechnica.com.2024.txt (group 'GPTBot': 1 rule for 'GPTBot')\n"
    ));
    let tsv = run(&[
        "diff", "--agent", "GPTBot", "--format", "tsv", OLD, NEW, LOG,
    ]);
    assert_eq!(tsv.status.code(), Some(1));
    let lines: Vec<String> = out(&tsv).lines().map(str::to_string).collect();
    let n = lines.len();
    assert!(n > 800, "{n}");
    assert!(out(&text).contains(&format!("allowed -> disallowed   {n:>10}\n")));
    assert!(lines
        .iter()
        .all(|l| l.starts_with("allowed\tdisallowed\t-\tline 15: Disallow: /\thttp")));
}

#[test]
fn diff_both_directions_tsv_and_no_change() {
    let dir = files(&[
        ("old.txt", b"User-agent: *\nDisallow: /a\nDisallow: /b\n"),
        ("new.txt", b"User-agent: *\nDisallow: /b\nDisallow: /c\n"),
        (
            "log.txt",
            b"https://x.example/a1\n/b\nnot a url\n/c?q\n/d\n\nhttps://x.example/a2\n",
        ),
    ]);
    let o = run_in(
        dir.path(),
        &[
            "diff", "--agent", "bot", "--format", "tsv", "old.txt", "new.txt", "log.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        out(&o),
        "disallowed\tallowed\tline 2: Disallow: /a\t-\thttps://x.example/a1\n\
         allowed\tdisallowed\t-\tline 3: Disallow: /c\t/c?q\n\
         disallowed\tallowed\tline 2: Disallow: /a\t-\thttps://x.example/a2\n"
    );
    assert!(err(&o).contains("1 log lines hold no URL"), "{}", err(&o));
    let o = run_in(
        dir.path(),
        &["diff", "--agent", "bot", "old.txt", "new.txt", "log.txt"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).ends_with(
            "allowed -> disallowed, by the new rule that blocks them:\n\
         \x20        1  line 3: Disallow: /c\n\
         \x20           /c?q\n\
         \n\
         disallowed -> allowed, by the old rule that blocked them:\n\
         \x20        2  line 2: Disallow: /a\n\
         \x20           https://x.example/a1\n\
         \x20           https://x.example/a2\n"
        ),
        "{}",
        out(&o)
    );
    let o = run_in(
        dir.path(),
        &["diff", "--agent", "bot", "old.txt", "old.txt", "log.txt"],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("allowed -> disallowed            0\n"));
    let o = run_in(
        dir.path(),
        &[
            "diff",
            "--agent",
            "bot",
            "old.txt",
            "new.txt",
            "missing.log",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("missing.log"), "{}", err(&o));
    let o = run_in(
        dir.path(),
        &["diff", "--agent", "all", "old.txt", "new.txt", "log.txt"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("--agent all is accepted by check only"),
        "{}",
        err(&o)
    );
}

/// Issue 14 item 5: `diff` matches `&amp;` as written, like `check` and `classify`;
/// `--decode-amp` reads it as `&`.
#[test]
fn diff_matches_amp_as_written_unless_decode_amp() {
    let dir = files(&[
        ("old.txt", b"User-agent: *\nDisallow: /private\n"),
        ("new.txt", b"User-agent: *\nDisallow: /*&offset=*\n"),
        (
            "log.txt",
            b"https://x.example/find/?from=list&amp;offset=0\n",
        ),
    ]);
    let args = [
        "diff", "--agent", "bot", "--format", "tsv", "old.txt", "new.txt", "log.txt",
    ];
    let o = run_in(dir.path(), &args);
    assert_eq!((o.status.code(), out(&o)), (Some(0), String::new()));
    let o = run_in(dir.path(), &[&args[..], &["--decode-amp"]].concat());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        out(&o),
        "allowed\tdisallowed\t-\tline 2: Disallow: /*&offset=*\thttps://x.example/find/?from=list&amp;offset=0\n"
    );
}

#[test]
fn crawlers_lists_the_catalog() {
    let o = run(&["crawlers"]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    for token in [
        "Googlebot-Image",
        "AdsBot-Google",
        "Storebot-Google",
        "GPTBot",
        "ClaudeBot",
        "PerplexityBot",
        "CCBot",
        "Google-Extended",
        "Applebot-Extended",
        "Bytespider",
    ] {
        assert!(text.contains(token), "{token}");
    }
    assert!(text.contains("Googlebot-Image        Googlebot  yes Google        Google Images\n"));
    assert!(text.contains("AdsBot-Google          -          no  Google"));
    let tsv = run(&["crawlers", "--format", "tsv"]);
    let json = run(&["crawlers", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let n = v.as_array().unwrap().len();
    assert_eq!(out(&tsv).lines().count(), n + 1);
    assert!(n >= 25);
}

#[test]
fn check_agent_all_one_line_per_crawler() {
    let o = run(&[
        "check", "--robots", SHOP, "--agent", "all", "--format", "tsv", "/cart",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    let crawlers = out(&run(&["crawlers", "--format", "tsv"])).lines().count() - 1;
    assert_eq!(text.lines().count(), crawlers);
    assert!(text.starts_with("Googlebot\tdisallowed\t3\tDisallow: /cart\t/cart\n"));
    // Its own group: the `*` rules do not apply.
    assert!(text.contains("\nGooglebot-Image\tallowed\t-\t-\t/cart\n"));
    // Ignores `*`.
    assert!(text.contains("\nAdsBot-Google\tallowed\t-\t-\t/cart\n"));
    assert!(text.contains("\nGPTBot\tdisallowed\t3\tDisallow: /cart\t/cart\n"));

    let o = run(&["check", "--robots", SHOP, "--agent", "all", "/cart"]);
    assert!(
        out(&o).contains("  AdsBot-Google          allowed     -  (no group (ignores '*'))\n"),
        "{}",
        out(&o)
    );
}

#[test]
fn check_catalog_fallback_and_wildcard() {
    let dir = files(&[(
        "r.txt",
        b"User-agent: *\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n",
    )]);
    let o = run_in(
        dir.path(),
        &[
            "check",
            "--robots",
            "r.txt",
            "--agent",
            "Googlebot-News",
            "--format",
            "tsv",
            "/a",
            "/b",
        ],
    );
    assert_eq!(
        out(&o),
        "allowed\t-\t-\t/a\ndisallowed\t5\tDisallow: /b\t/b\n"
    );
    let o = run_in(
        dir.path(),
        &[
            "check",
            "--robots",
            "r.txt",
            "--agent",
            "Googlebot-News",
            "/b",
        ],
    );
    assert!(out(&o).contains(
        "  group:     'User-agent: Googlebot' (line 4) (fallback: no group names 'Googlebot-News'); '*' groups ignored\n"
    ), "{}", out(&o));
    assert!(
        out(&o).contains(
            "  agent:     Googlebot-News (product token 'Googlebot-News', then 'Googlebot', profile google)\n"
        ),
        "{}",
        out(&o)
    );
    let o = run_in(
        dir.path(),
        &[
            "check",
            "--robots",
            "r.txt",
            "--agent",
            "AdsBot-Google",
            "/a",
        ],
    );
    assert!(out(&o).contains("  verdict:   allowed\n"));
    assert!(
        out(&o).contains("this crawler ignores '*' groups"),
        "{}",
        out(&o)
    );
}

/// Issue 15: whole product tokens (`AI2Bot` and `Ai2Bot-Dolma` are two crawlers, `MJ12bot`
/// is not `MJ`) and crawl-delays that belong to the user-agent lines above them (the rules of
/// Bingbot, msnbot and `*` stay one group).
const ISSUE15: &[u8] = b"User-agent: Ai2Bot-Dolma\nDisallow: /\n\nUser-agent: AI2Bot\nDisallow: /private/\n\n\
User-agent: MJ12bot\nCrawl-delay: 5\nDisallow: /search\n\n\
User-agent: Bingbot\nCrawl-delay: 1\nUser-agent: msnbot\nCrawl-delay: 2\nUser-agent: *\nDisallow: /login\n";

#[test]
fn issue15_check_explains_whole_tokens_and_crawl_delay() {
    let dir = files(&[("r.txt", ISSUE15)]);
    let o = run_in(
        dir.path(),
        &[
            "check",
            "--robots",
            "r.txt",
            "--agent",
            "AI2Bot/1.0",
            "https://example.com/public",
            r"http://example.com\private\x",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        r"https://example.com/public
  verdict:   allowed
  agent:     AI2Bot/1.0 (product token 'AI2Bot', profile google)
  group:     'User-agent: AI2Bot' (line 4); '*' groups ignored
  crawl-delay: none
  path:      /public
  rule:      none matches, so the URL is allowed
  runner-up: none
  engine:    direct
http://example.com\private\x
  verdict:   disallowed
  agent:     AI2Bot/1.0 (product token 'AI2Bot', profile google)
  group:     'User-agent: AI2Bot' (line 4); '*' groups ignored
  crawl-delay: none
  path:      /private/x
  rule:      line 5: Disallow: /private/
  runner-up: none
  engine:    direct
"
    );
    let o = run_in(
        dir.path(),
        &["check", "--robots", "r.txt", "--agent", "msnbot", "/login"],
    );
    assert!(out(&o).contains("\n  crawl-delay: 2 (line 14)\n  path:      /login\n  rule:      line 16: Disallow: /login\n"), "{}", out(&o));
    let json = |agent: &str| -> serde_json::Value {
        let o = run_in(
            dir.path(),
            &[
                "check", "--robots", "r.txt", "--agent", agent, "--format", "json", "/search",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        serde_json::from_slice(&o.stdout).expect("json")
    };
    let v = json("Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)");
    assert_eq!(v["token"], "MJ12bot");
    assert_eq!(
        v["group"]["user_agents"],
        serde_json::json!([{"value": "MJ12bot", "line": 7}])
    );
    assert_eq!(
        (v["crawl_delay"].clone(), v["crawl_delay_line"].clone()),
        (serde_json::json!(5.0), serde_json::json!(8))
    );
    assert_eq!(v["results"][0]["rule"]["line"], 9);
    let v = json("msnbot");
    assert_eq!(
        (v["crawl_delay"].clone(), v["crawl_delay_line"].clone()),
        (serde_json::json!(2.0), serde_json::json!(14))
    );
    let v = json("anybot");
    assert_eq!(v["group"]["kind"], "wildcard");
    assert_eq!(
        (v["crawl_delay"].clone(), v["crawl_delay_line"].clone()),
        (serde_json::Value::Null, serde_json::Value::Null)
    );
    let v = json("MJ");
    assert_eq!(v["group"]["kind"], "wildcard", "MJ is not MJ12bot");
}

#[test]
fn issue15_check_agent_all_shows_each_crawlers_group_and_delay() {
    let dir = files(&[("r.txt", ISSUE15)]);
    let o = run_in(
        dir.path(),
        &["check", "--robots", "r.txt", "--agent", "all", "/login"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    for row in [
        "  Bingbot                disallowed  line 16: Disallow: /login  (group 'Bingbot', crawl-delay 1)\n",
        "  MJ12bot                allowed     -  (group 'MJ12bot', crawl-delay 5)\n",
        "  AI2Bot                 allowed     -  (group 'AI2Bot')\n",
        "  GPTBot                 disallowed  line 16: Disallow: /login  (group '*')\n",
    ] {
        assert!(text.contains(row), "{row:?} in\n{text}");
    }
    let o = run_in(
        dir.path(),
        &[
            "check", "--robots", "r.txt", "--agent", "all", "--format", "json", "/login",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let rows = v["results"][0]["rows"].as_array().expect("rows");
    let row = |agent: &str| {
        rows.iter()
            .find(|r| r["agent"] == agent)
            .expect(agent)
            .clone()
    };
    assert_eq!(row("Bingbot")["crawl_delay"], 1.0);
    assert_eq!(row("MJ12bot")["crawl_delay"], 5.0);
    assert_eq!(row("GPTBot")["crawl_delay"], serde_json::Value::Null);
    assert_eq!(row("AI2Bot")["token"], "AI2Bot");
}

#[test]
fn issue15_test_and_diff_use_whole_tokens_and_one_url_parse() {
    let new = String::from_utf8_lossy(ISSUE15).replace("Disallow: /private/", "Disallow: /public");
    let dir = files(&[
        ("r.txt", ISSUE15),
        ("new.txt", new.as_bytes()),
        (
            "r.expect",
            b"agent AI2Bot\nallow /public\ndisallow /private/x\nagent MJ12bot\ndisallow /search?q=1\nallow /login\nagent MJ\ndisallow /login\n",
        ),
        ("log.txt", b"https://example.com/public\nhttps://example.com/private/x\nhttps://example.com\\public\n"),
    ]);
    let o = run_in(
        dir.path(),
        &[
            "test",
            "--robots",
            "r.txt",
            "--agent",
            "Googlebot",
            "r.expect",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    assert_eq!(out(&o), "5 passed, 0 failed\n");
    let o = run_in(
        dir.path(),
        &[
            "diff", "--agent", "AI2Bot", "--format", "tsv", "r.txt", "new.txt", "log.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert_eq!(
        out(&o),
        "allowed\tdisallowed\t-\tline 5: Disallow: /public\thttps://example.com/public\n\
         disallowed\tallowed\tline 5: Disallow: /private/\t-\thttps://example.com/private/x\n\
         allowed\tdisallowed\t-\tline 5: Disallow: /public\thttps://example.com\\public\n"
    );
}

#[test]
fn check_profiles_side_by_side() {
    let o = run(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "--profile",
        "google,legacy",
        "/cart/help",
        "/cart",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "/cart/help
  google  allowed     line 7: Allow: /cart/help$  (group '*')  <- profiles differ
  legacy  disallowed  line 3: Disallow: /cart  (group '*')  <- profiles differ
/cart
  google  disallowed  line 3: Disallow: /cart  (group '*')
  legacy  disallowed  line 3: Disallow: /cart  (group '*')
"
    );
    let o = run(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "--profile",
        "google,legacy",
        "--format",
        "tsv",
        "/a.pdf",
    ]);
    assert_eq!(
        out(&o),
        "google\tdisallowed\t6\tDisallow: /*.pdf$\t/a.pdf\tdiffers\n\
         legacy\tallowed\t-\t-\t/a.pdf\tdiffers\n"
    );
    let o = run(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "x",
        "--profile",
        "google,bing",
        "/",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// The README's walk-through, as printed there.
#[test]
fn readme_walk_through() {
    let o = run(&[
        "test",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "corpora/examples/shop.expect",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        out(&o),
        "FAIL corpora/examples/shop.expect:13: disallow https://shop.example/cart (Googlebot-Image): expected disallowed, got allowed (no rule matches)\n\
         8 passed, 1 failed\n"
    );
    let o = run(&["lint", SHOP]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).starts_with(
        "corpora/examples/shop.txt:11: warning[wildcard-rules-lost]: the group for 'Googlebot-Image' replaces the '*' group"
    ));
    let o = run(&[
        "check",
        "--robots",
        NEW,
        "--agent",
        "all",
        "--format",
        "json",
        "https://arstechnica.com/science/",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = v["results"][0]["rows"].as_array().unwrap();
    let verdict = |agent: &str| {
        rows.iter()
            .find(|r| r["agent"] == agent)
            .map(|r| r["verdict"].as_str().unwrap().to_string())
    };
    assert_eq!(verdict("GPTBot").as_deref(), Some("disallowed"));
    assert_eq!(verdict("ClaudeBot").as_deref(), Some("allowed"));
    assert_eq!(verdict("Google-Extended").as_deref(), Some("disallowed"));
}

/// A robots.txt whose patterns and user-agent hold terminal escapes: a title change (OSC),
/// a screen clear (CSI), a bell, a carriage return that would overwrite the line, and a C1
/// CSI (U+009B).
const ESCAPES: &[u8] = b"User-agent: evil\x1b[2Jbot\nDisallow: /x\n\nUser-agent: *\n\
Disallow: /a\x1b]0;pwned\x07\nDisallow: /b\x08\x08\x08FAKE\nDisallow: /c\xc2\x9b31m\n";

/// True when `s` holds a byte a terminal would obey: C0 controls but tab and line feed, DEL,
/// or a UTF-8 C1 control.
fn has_control(s: &[u8]) -> bool {
    s.iter()
        .any(|&b| (b < 0x20 && b != b'\t' && b != b'\n') || b == 0x7F)
        || s.windows(2)
            .any(|w| w[0] == 0xC2 && (0x80..0xA0).contains(&w[1]))
}

#[test]
fn issue16_terminal_escapes_never_reach_the_terminal() {
    let dir = files(&[
        ("robots.txt", ESCAPES),
        ("new.txt", b"User-agent: *\nAllow: /\n"),
        ("log.txt", b"/a\x1b]0;pwned\x07x\n/c\xc2\x9b31m\n"),
        ("list.expect", b"allow /a\x1b]0;pwned\x07\n"),
    ]);
    let urls = ["/a\x1b]0;pwned\x07x", "/c\u{9b}31m"];
    let mut runs: Vec<(&str, Output)> = Vec::new();
    for format in ["text", "tsv"] {
        let mut args = vec!["check", "--robots", "robots.txt", "--agent", "Googlebot"];
        args.extend(["--format", format]);
        args.extend(urls);
        runs.push(("check", run_in(dir.path(), &args)));
    }
    let mut args = vec!["check", "--robots", "robots.txt", "--agent", "all", "/x"];
    args.extend(urls);
    runs.push(("check --agent all", run_in(dir.path(), &args)));
    runs.push(("lint", run_in(dir.path(), &["lint", "robots.txt"])));
    runs.push((
        "test",
        run_in(
            dir.path(),
            &[
                "test",
                "--robots",
                "robots.txt",
                "--agent",
                "Googlebot",
                "list.expect",
            ],
        ),
    ));
    for format in ["text", "tsv"] {
        runs.push((
            "diff",
            run_in(
                dir.path(),
                &[
                    "diff",
                    "--agent",
                    "Googlebot",
                    "--format",
                    format,
                    "robots.txt",
                    "new.txt",
                    "log.txt",
                ],
            ),
        ));
    }
    for (what, o) in &runs {
        assert!(o.status.code().is_some_and(|c| c < 2), "{what}: {}", err(o));
        assert!(!has_control(&o.stdout), "{what}: {:?}", out(o));
        assert!(!has_control(&o.stderr), "{what}: {:?}", err(o));
    }
    // The escapes are shown, not dropped.
    let check_tsv = out(&runs[1].1);
    assert_eq!(
        check_tsv,
        "disallowed\t5\tDisallow: /a\\x1B]0;pwned\\x07\t/a\\x1B]0;pwned\\x07x\n\
         disallowed\t7\tDisallow: /c\\u{9B}31m\t/c\\u{9B}31m\n"
    );
    let lint = out(&runs[3].1);
    assert!(lint.contains("\\x1B[2J"), "{lint}");
    // JSON keeps its own escaping: valid, and the pattern intact.
    let o = run_in(
        dir.path(),
        &[
            "check",
            "--robots",
            "robots.txt",
            "--agent",
            "Googlebot",
            "--format",
            "json",
            urls[0],
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    assert_eq!(v["results"][0]["rule"]["pattern"], "/a\x1b]0;pwned\x07");
}

#[test]
fn issue16_empty_agent_is_an_error_everywhere() {
    let dir = files(&[
        ("robots.txt", b"User-agent: *\nDisallow: /a\n"),
        ("log.txt", b"https://x.example/a\n"),
        ("list.expect", b"allow /b\n"),
    ]);
    for agent in ["", "  "] {
        let runs = [
            vec!["check", "--robots", "robots.txt", "--agent", agent, "/a"],
            vec![
                "classify",
                "--robots",
                "robots.txt",
                "--agent",
                agent,
                "log.txt",
            ],
            vec![
                "test",
                "--robots",
                "robots.txt",
                "--agent",
                agent,
                "list.expect",
            ],
            vec![
                "diff",
                "--agent",
                agent,
                "robots.txt",
                "robots.txt",
                "log.txt",
            ],
        ];
        for args in runs {
            let o = run_in(dir.path(), &args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert_eq!(
                err(&o),
                "robotsmatch: --agent is empty: name a crawler (a product token such as Googlebot, a full user-agent string, or a catalog name)\n",
                "{args:?}"
            );
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
}

#[test]
fn issue17_check_warns_when_an_argument_is_not_a_url() {
    let o = run(&[
        "check",
        "--robots",
        SHOP,
        "--agent",
        "Googlebot",
        "--format",
        "tsv",
        "cart",
        "not a url",
        "",
        "/cart",
        "shop.example/cart",
        "https://shop.example",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // The verdicts stay Google's: the first three are read as the path '/'.
    assert_eq!(
        out(&o),
        "allowed\t-\t-\tcart\nallowed\t-\t-\tnot a url\nallowed\t-\t-\t\n\
         disallowed\t3\tDisallow: /cart\t/cart\n\
         disallowed\t3\tDisallow: /cart\tshop.example/cart\nallowed\t-\t-\thttps://shop.example\n"
    );
    let warning = |arg: &str| {
        format!("robotsmatch: warning: '{arg}' is neither a URL (scheme://host/path) nor a path starting with '/': it is decided as the path '/', as Google's library reads it\n")
    };
    assert_eq!(
        err(&o),
        [warning("cart"), warning("not a url"), warning("")].concat()
    );
}

#[test]
fn issue17_lint_binary_file_is_an_error() {
    let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
    elf.extend_from_slice(&[0u8; 56]);
    let dir = files(&[("robots.txt", &elf)]);
    let o = run_in(dir.path(), &["lint", "robots.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        out(&o),
        "robots.txt: error[binary-file]: the file is binary (an ELF executable), not text: crawlers find no rules in it\n    \
         fix: publish the plain-text robots.txt itself (check what the server sends for /robots.txt)\n1 error, 0 warnings\n"
    );
}
