//! Lint: the mistakes site owners make in robots.txt files, each with its line, a one-line
//! explanation and a suggested fix.
//!
//! [`lint`] turns the parser's [`Warning`](crate::Warning)s into findings and adds semantic
//! checks that compare rules with each other (a rule another rule always beats, an Allow and a
//! Disallow that tie, a named group that silently drops the `*` group's restrictions...).
//!
//! Severity: an [`Severity::Error`] is something that makes a rule or the whole file not do
//! what it says (a rule that never matches, a rule that is always overridden, a file that is
//! not readable as robots.txt, `Disallow: /` for every crawler); a [`Severity::Warning`] is
//! something that works for Google but is probably not meant, or that other crawlers read
//! differently.
//!
//! The pairwise checks are precise (no false positives): a rule is reported as overridden or
//! shadowed only when another rule provably matches every URL it matches. They compare rules
//! within one group; in groups of more than [`MAX_PAIRWISE`] rules they are skipped.
//!
//! Comparing patterns costs up to the product of their lengths, and a file can hold a thousand
//! rules of a thousand `*` or `$` each. So the rule-against-rule checks share one work budget
//! ([`LintConfig::work_budget`], at most 1.6 s on a 2-core machine): when it runs out, or when
//! the caller cancels ([`LintConfig::cancel_flag`]), the remaining comparisons are skipped and
//! a `checks-skipped` finding says which checks are incomplete where (issue 16). Everything
//! else lint does is linear in the size of the file.
//!
//! ```
//! let findings = robotsmatch::lint::lint(b"User-agent: *\nDisallow: private\n");
//! assert_eq!(findings[0].code, "no-leading-slash");
//! assert_eq!(findings[0].line, 2);
//! ```
#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::canon::canonicalize;
use crate::parse::{DirectiveKind, Robots, Rule, RuleKind, WarningKind};

/// Groups with more rules than this are not compared rule against rule (quadratic).
pub const MAX_PAIRWISE: usize = 1000;

/// The work units charged for considering one pair of rules: looking at their kinds and
/// priorities costs about as much as comparing ten pattern bytes (measured).
const PAIR_COST: u64 = 10;

/// The work units charged for setting up one [`covers`] search beyond its quick check (two
/// buffers), on top of the steps it takes (measured, as the others).
const COVERS_SETUP: u64 = 30;

/// The work units charged for setting up one [`overlap`] search beyond its quick check (the
/// alphabet of the two patterns, the set of states).
const OVERLAP_SETUP: u64 = 150;

/// At most this many related lines are listed in one finding (the rules a named group loses,
/// the rules a first rule hides), so that the output stays proportional to the file.
const MAX_RELATED: usize = 100;

/// How much [`lint_with`] may do, and when to stop.
///
/// Work is counted in units of about one byte comparison: a pair of rules considered costs
/// one, comparing two patterns costs up to the product of their lengths. The count does not
/// depend on the machine, so a file always gives the same findings.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
/// use robotsmatch::lint::{lint_with, LintConfig};
/// use robotsmatch::Robots;
///
/// let body = b"User-agent: *\nDisallow: /a\nDisallow: /a\n";
/// let cancel = Arc::new(AtomicBool::new(false));
/// let config = LintConfig::new().work_budget(1_000_000).cancel_flag(cancel.clone());
/// let report = lint_with(body, &Robots::parse(body), &config);
/// assert_eq!(report.findings[0].code, "duplicate-rule");
/// assert!(report.complete() && report.work <= 1_000_000);
/// ```
#[derive(Clone, Debug)]
pub struct LintConfig {
    budget: u64,
    cancel: Option<Arc<AtomicBool>>,
}

impl Default for LintConfig {
    fn default() -> LintConfig {
        LintConfig::new()
    }
}

impl LintConfig {
    /// The default budget: the worst 500 KiB files measured lint in 1.0 to 1.6 s with it on a
    /// shared 2-core machine (release build), where they took minutes without a budget; no
    /// real file of the corpus uses more than 4% of it.
    pub const DEFAULT_WORK_BUDGET: u64 = 2_000_000_000;

    /// The default budget, no cancellation.
    pub fn new() -> LintConfig {
        LintConfig {
            budget: Self::DEFAULT_WORK_BUDGET,
            cancel: None,
        }
    }

    /// Sets the work budget of the rule-against-rule checks, in units (see the type's docs).
    pub fn work_budget(mut self, units: u64) -> LintConfig {
        self.budget = units;
        self
    }

    /// Lint stops as soon as it sees `flag` set (checked between comparisons), as a server
    /// does once the request has been answered.
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> LintConfig {
        self.cancel = Some(flag);
        self
    }

    /// The work budget.
    pub fn get_work_budget(&self) -> u64 {
        self.budget
    }
}

/// What [`lint_with`] found, and how much of the work it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintReport {
    /// The findings, sorted by line (with a `checks-skipped` finding when checks were cut).
    pub findings: Vec<Finding>,
    /// The work done, in the units of [`LintConfig`].
    pub work: u64,
    /// True when the budget ran out and comparisons were skipped.
    pub budget_exhausted: bool,
    /// True when the cancel flag stopped lint.
    pub cancelled: bool,
}

impl LintReport {
    /// True when every check ran to the end (nothing skipped for the budget, a group's size
    /// or a cancellation).
    pub fn complete(&self) -> bool {
        !self.findings.iter().any(|f| f.code == "checks-skipped")
    }
}

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// A rule or the file does not do what it says.
    Error,
    /// Works, but probably not as meant, or other crawlers read it differently.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One problem found in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The 1-based line the finding is about; 0 for the whole file.
    pub line: u32,
    /// Error or warning.
    pub severity: Severity,
    /// A stable kebab-case identifier (`no-leading-slash`, `staging-leak`, ...).
    pub code: &'static str,
    /// What is wrong, in one line.
    pub message: String,
    /// The suggested fix, in one line.
    pub fix: String,
    /// Other lines involved (the rule that overrides this one, the lost rules...; at most 100).
    pub related: Vec<u32>,
}

impl fmt::Display for Finding {
    /// `line 3: error[no-leading-slash]: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}[{}]: {}",
            self.line, self.severity, self.code, self.message
        )
    }
}

/// Every finding code with its severity and a short description, for documentation and for
/// tools that filter findings.
pub const CODES: &[(&str, Severity, &str)] = &[
    (
        "html-file",
        Severity::Error,
        "the file is an HTML page, not robots.txt",
    ),
    (
        "utf16-file",
        Severity::Error,
        "the file is UTF-16; crawlers read UTF-8",
    ),
    (
        "binary-file",
        Severity::Error,
        "the file is binary (an executable, an image, an archive...), not text",
    ),
    (
        "file-too-large",
        Severity::Error,
        "over 500 KiB: rules past the limit are ignored",
    ),
    (
        "no-rules",
        Severity::Warning,
        "no Allow or Disallow rule at all",
    ),
    (
        "rule-outside-group",
        Severity::Error,
        "a rule before any user-agent line",
    ),
    ("missing-colon", Severity::Warning, "no ':' after the key"),
    (
        "unparsable-line",
        Severity::Warning,
        "not a key: value line",
    ),
    (
        "misspelled-key",
        Severity::Warning,
        "a misspelling Google tolerates",
    ),
    ("unknown-key", Severity::Warning, "a key crawlers ignore"),
    (
        "line-too-long",
        Severity::Error,
        "a line cut at Google's maximum length",
    ),
    ("nul-byte", Severity::Warning, "a NUL byte ends the line"),
    (
        "user-agent-no-token",
        Severity::Error,
        "a user-agent value that names no crawler",
    ),
    (
        "star-in-user-agent",
        Severity::Warning,
        "'*' inside a user-agent name is not a wildcard",
    ),
    (
        "google-cuts-user-agent",
        Severity::Warning,
        "Google's parser cuts the name at a digit or other character and so applies the group to another crawler",
    ),
    (
        "no-leading-slash",
        Severity::Error,
        "a pattern that starts with neither '/' nor '*' never matches",
    ),
    (
        "dollar-not-at-end",
        Severity::Error,
        "'$' before the end of a pattern is literal",
    ),
    (
        "trailing-star",
        Severity::Warning,
        "a trailing '*' has no effect",
    ),
    (
        "duplicate-rule",
        Severity::Warning,
        "the same rule twice in a group",
    ),
    (
        "shadowed-rule",
        Severity::Warning,
        "a rule of the same kind matches every URL this one matches, with a longer pattern",
    ),
    (
        "overridden-rule",
        Severity::Error,
        "a rule of the other kind always beats this one",
    ),
    (
        "allow-disallow-tie",
        Severity::Warning,
        "an Allow and a Disallow of equal length can both match",
    ),
    (
        "order-dependent",
        Severity::Warning,
        "first-match crawlers decide differently from longest-match ones",
    ),
    (
        "split-group",
        Severity::Warning,
        "a crawler named by several groups: Google merges them, first-group crawlers do not",
    ),
    (
        "slash-variant",
        Severity::Warning,
        "'/admin' where '/admin/' was probably meant",
    ),
    (
        "wildcard-rules-lost",
        Severity::Warning,
        "a named group drops restrictions that exist only under '*'",
    ),
    (
        "ignored-directive",
        Severity::Warning,
        "crawl-delay, host, request-rate: Google ignores them",
    ),
    (
        "noindex-in-robots",
        Severity::Error,
        "noindex in robots.txt is not supported",
    ),
    (
        "staging-leak",
        Severity::Error,
        "'Disallow: /' under '*' blocks the whole site",
    ),
    (
        "checks-skipped",
        Severity::Warning,
        "rule-against-rule checks not completed (a group over the size limit, the work budget spent, or lint cancelled): findings of those checks may be missing",
    ),
];

fn severity_of(code: &str) -> Severity {
    CODES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map_or(Severity::Warning, |&(_, s, _)| s)
}

/// Why a check did not run to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Budget,
    Cancelled,
}

/// The work budget of one lint run, and the checks it cut short.
struct Work<'c> {
    left: u64,
    used: u64,
    cancel: Option<&'c AtomicBool>,
    stop: Option<Stop>,
    /// What the budget or a cancellation cut short, in words (`"overridden-rule, ... in the
    /// group at line 3, from line 345 on"`), in the order found.
    skipped: Vec<String>,
    /// Groups not compared rule against rule for their size, in words.
    oversized: Vec<String>,
    /// The lines of the groups concerned, in the order found.
    related: Vec<u32>,
    /// The same lines, to find one in constant time (every group can be skipped once the
    /// budget is spent: a search of `related` made that quadratic in the groups).
    related_seen: HashSet<u32>,
}

impl<'c> Work<'c> {
    fn new(config: &'c LintConfig) -> Work<'c> {
        Work {
            left: config.budget,
            used: 0,
            cancel: config.cancel.as_deref(),
            stop: None,
            skipped: Vec::new(),
            oversized: Vec::new(),
            related: Vec::new(),
            related_seen: HashSet::new(),
        }
    }

    /// No limit (the public [`covers`] and [`overlap`]).
    fn unlimited() -> Work<'static> {
        Work {
            left: u64::MAX,
            used: 0,
            cancel: None,
            stop: None,
            skipped: Vec::new(),
            oversized: Vec::new(),
            related: Vec::new(),
            related_seen: HashSet::new(),
        }
    }

    /// Takes `units` from the budget; false (for good) once it is spent or lint is cancelled.
    fn charge(&mut self, units: u64) -> bool {
        if self.stop.is_some() {
            return false;
        }
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stop = Some(Stop::Cancelled);
            return false;
        }
        if units > self.left {
            self.stop = Some(Stop::Budget);
            return false;
        }
        self.left -= units;
        self.used += units;
        true
    }

    /// Records a check cut short by the budget or a cancellation.
    fn skip(&mut self, what: String, line: u32) {
        self.skipped.push(what);
        self.relate(line);
    }

    /// Records a group too large to compare rule against rule.
    fn oversized(&mut self, what: String, line: u32) {
        self.oversized.push(what);
        self.relate(line);
    }

    fn relate(&mut self, line: u32) {
        if line > 0 && self.related_seen.insert(line) {
            self.related.push(line);
        }
    }

    /// The `checks-skipped` finding, when anything was skipped.
    fn finding(&self, budget: u64) -> Option<Finding> {
        let list = |items: &[String]| -> String {
            let shown: Vec<&str> = items.iter().take(5).map(String::as_str).collect();
            match items.len() - shown.len() {
                0 => shown.join("; "),
                n => format!("{}; and {n} more", shown.join("; ")),
            }
        };
        let mut parts = Vec::new();
        if !self.oversized.is_empty() {
            parts.push(list(&self.oversized));
        }
        if !self.skipped.is_empty() {
            let why = match self.stop {
                Some(Stop::Cancelled) => "lint was cancelled before it finished".to_string(),
                _ => format!(
                    "lint spent its work budget ({budget} units, about one comparison of pattern bytes each) before it finished"
                ),
            };
            parts.push(format!("{why}: {}", list(&self.skipped)));
        }
        if parts.is_empty() {
            return None;
        }
        Some(Finding {
            line: 0,
            severity: severity_of("checks-skipped"),
            code: "checks-skipped",
            message: format!(
                "not every rule was compared with the others, so findings of these checks may be missing: {}; every other check is complete",
                parts.join("; ")
            ),
            fix: "lint the groups named here in smaller parts, or simplify patterns with many '*' or '$'; the findings reported are exact"
                .into(),
            related: self.related.clone(),
        })
    }
}

/// Collects findings.
struct Out<'c> {
    findings: Vec<Finding>,
    work: Work<'c>,
}

impl Out<'_> {
    fn push(&mut self, line: u32, code: &'static str, message: String, fix: String) {
        self.push_related(line, code, message, fix, Vec::new());
    }

    fn push_related(
        &mut self,
        line: u32,
        code: &'static str,
        message: String,
        fix: String,
        related: Vec<u32>,
    ) {
        self.findings.push(Finding {
            line,
            severity: severity_of(code),
            code,
            message,
            fix,
            related,
        });
    }
}

/// Lints a robots.txt body with the default [`LintConfig`]. Never fails; findings are
/// sorted by line.
///
/// ```
/// use robotsmatch::lint::{lint, Severity};
///
/// let f = lint(b"User-agent: *\nDisallow: /\n");
/// assert_eq!((f[0].code, f[0].severity), ("staging-leak", Severity::Error));
/// ```
pub fn lint(body: &[u8]) -> Vec<Finding> {
    lint_robots(body, &Robots::parse(body))
}

/// Lints a body that was already parsed (`robots` must be `body` parsed), with the default
/// [`LintConfig`].
pub fn lint_robots(body: &[u8], robots: &Robots) -> Vec<Finding> {
    lint_with(body, robots, &LintConfig::new()).findings
}

/// Lints a parsed body (`robots` must be `body` parsed) within `config`'s work budget,
/// stopping early if its cancel flag is set. Never fails.
pub fn lint_with(body: &[u8], robots: &Robots, config: &LintConfig) -> LintReport {
    let mut out = Out {
        findings: Vec::new(),
        work: Work::new(config),
    };
    if let Some((code, message, fix)) = unreadable(body) {
        out.push(0, code, message, fix);
    } else {
        checks(body, robots, &mut out);
    }
    if let Some(f) = out.work.finding(config.budget) {
        out.findings.push(f);
    }
    out.findings
        .sort_by(|a, b| (a.line, a.severity, a.code).cmp(&(b.line, b.severity, b.code)));
    LintReport {
        findings: out.findings,
        work: out.work.used,
        budget_exhausted: out.work.stop == Some(Stop::Budget),
        cancelled: out.work.stop == Some(Stop::Cancelled),
    }
}

/// A file no crawler reads as robots.txt: UTF-16, binary or HTML. The code, message and fix.
fn unreadable(body: &[u8]) -> Option<(&'static str, String, String)> {
    // A signature first (an executable full of NUL bytes is no UTF-16 text), then UTF-16,
    // then control bytes (which UTF-16 text is full of).
    let binary = |what: &str| {
        Some((
            "binary-file",
            format!("the file is binary ({what}), not text: crawlers find no rules in it"),
            "publish the plain-text robots.txt itself (check what the server sends for /robots.txt)"
                .into(),
        ))
    };
    if let Some(what) = binary_signature(body) {
        return binary(what);
    }
    if is_utf16(body) {
        return Some((
            "utf16-file",
            "the file is UTF-16: crawlers read it as UTF-8 bytes and find no rules".into(),
            "save the file as UTF-8 (plain ASCII is safest)".into(),
        ));
    }
    if is_control_heavy(body) {
        return binary("control bytes throughout");
    }
    if is_html(body) {
        return Some((
            "html-file",
            "the file is an HTML page, not robots.txt: crawlers find no rules in it".into(),
            "serve a plain-text robots.txt (Content-Type: text/plain), or a 404 if you have none"
                .into(),
        ));
    }
    None
}

/// Every check of a readable file.
fn checks(body: &[u8], robots: &Robots, out: &mut Out<'_>) {
    let lines = raw_lines(body);
    warnings(robots, &lines, out);
    if robots.rule_count() == 0 {
        let msg = if body.iter().all(|b| b.is_ascii_whitespace()) {
            "the file is empty: every crawler may fetch everything".to_string()
        } else {
            "the file has no Allow or Disallow rule: every crawler may fetch everything".to_string()
        };
        out.push(
            0,
            "no-rules",
            msg,
            "add 'User-agent: *' and the Disallow rules you need, or delete the file".into(),
        );
    }
    user_agents(robots, out);
    google_cuts(robots, out);
    directives(robots, out);
    // Each group's rules, canonical, prepared once for every comparison below.
    let prepared: Vec<Vec<Prepared<'_>>> = robots
        .groups()
        .iter()
        .map(|g| {
            g.rules()
                .iter()
                .filter(|r| !r.pattern().is_empty())
                .map(Prepared::new)
                .collect()
        })
        .collect();
    for (group, rules) in robots.groups().iter().zip(&prepared) {
        for rule in group.rules() {
            pattern_checks(rule, out);
        }
        let first_line = group.agents().first().map_or(0, |a| a.line());
        trailing_stars(rules, first_line, out);
        if group.rules().len() <= MAX_PAIRWISE {
            pairwise(rules, first_line, out);
        } else {
            out.work.oversized(
                format!(
                    "the group at line {first_line} has {} rules, over the {MAX_PAIRWISE} that are compared with each other (duplicate-rule, shadowed-rule, overridden-rule, allow-disallow-tie and order-dependent were not checked in it)",
                    group.rules().len()
                ),
                first_line,
            );
        }
    }
    slash_variants(robots, out);
    split_groups(robots, out);
    wildcard_lost(robots, &prepared, out);
    staging_leak(robots, out);
}

/// True for a UTF-16 file: a UTF-16 byte-order mark, or NUL bytes in every other position.
fn is_utf16(body: &[u8]) -> bool {
    if body.starts_with(b"\xFF\xFE") || body.starts_with(b"\xFE\xFF") {
        return true;
    }
    let head = &body[..body.len().min(512)];
    if head.len() < 8 {
        return false;
    }
    let even = head.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let half = head.len() / 2;
    even * 10 >= half * 9 || odd * 10 >= half * 9
}

/// What kind of binary file `body` is, when it starts with a known signature (an executable,
/// an image, an archive, a PDF).
fn binary_signature(body: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\x7FELF", "an ELF executable"),
        (b"MZ\x90\x00", "a Windows executable"),
        (b"\xCF\xFA\xED\xFE", "a Mach-O executable"),
        (b"\xCE\xFA\xED\xFE", "a Mach-O executable"),
        (b"\xCA\xFE\xBA\xBE", "a Mach-O or Java class file"),
        (b"\x00asm", "a WebAssembly module"),
        (b"\x1F\x8B", "gzip-compressed data"),
        (b"(\xB5/\xFD", "zstd-compressed data"),
        (b"BZh", "bzip2-compressed data"),
        (b"\xFD7zXZ\x00", "xz-compressed data"),
        (b"PK\x03\x04", "a ZIP archive"),
        (b"7z\xBC\xAF\x27\x1C", "a 7-Zip archive"),
        (b"%PDF-", "a PDF document"),
        (b"\x89PNG\r\n\x1A\n", "a PNG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"\xFF\xD8\xFF", "a JPEG image"),
        (b"RIFF", "a RIFF file (WebP, WAV, AVI)"),
    ];
    if let Some(&(_, what)) = MAGIC.iter().find(|(m, _)| body.starts_with(m)) {
        // `BZh` and `RIFF` are also words: only with binary bytes after them.
        if !matches!(
            what,
            "bzip2-compressed data" | "a RIFF file (WebP, WAV, AVI)"
        ) || body.iter().take(64).any(|&b| b < 0x09)
        {
            return Some(what);
        }
    }
    None
}

/// True when control bytes (other than tab, line ends and form feed) are more than one byte
/// in ten of the first 4 KiB. A stray NUL or escape in a text file is not enough (those are
/// `nul-byte` and ordinary lines).
fn is_control_heavy(body: &[u8]) -> bool {
    let head = &body[..body.len().min(4096)];
    let control = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C) || b == 0x7F)
        .count();
    head.len() >= 16 && control * 10 > head.len()
}

/// True when the file looks like an HTML page.
fn is_html(body: &[u8]) -> bool {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let head = &body[start..body.len().min(start + 2048)];
    let lower = head.to_ascii_lowercase();
    const TAGS: &[&[u8]] = &[b"<!doctype", b"<html", b"<head", b"<body", b"<?xml"];
    TAGS.iter().any(|t| lower.starts_with(t))
        || (head.first() == Some(&b'<')
            && TAGS
                .iter()
                .any(|t| memchr::memmem::find(&lower, t).is_some()))
        || memchr::memmem::find(&lower, b"<html").is_some()
            && memchr::memmem::find(&lower, b"</").is_some()
}

/// The file's lines as the parser numbers them (LF, CR LF or CR; a UTF-8 BOM skipped).
fn raw_lines(body: &[u8]) -> Vec<&[u8]> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let bom = body.iter().zip(BOM).take_while(|(a, b)| a == b).count();
    let text = &body[bom..];
    let mut lines = Vec::new();
    let mut pos = 0;
    while pos <= text.len() {
        let end = memchr::memchr2(b'\n', b'\r', &text[pos..]).map_or(text.len(), |i| pos + i);
        lines.push(&text[pos..end]);
        if end == text.len() {
            break;
        }
        pos = end + 1;
        if text[end] == b'\r' && text.get(pos) == Some(&b'\n') {
            pos += 1;
        }
        if pos == text.len() {
            break;
        }
    }
    lines
}

fn line_text(lines: &[&[u8]], n: u32) -> String {
    let raw = lines
        .get((n as usize).saturating_sub(1))
        .copied()
        .unwrap_or(b"");
    let raw = &raw[..raw.len().min(120)];
    String::from_utf8_lossy(raw)
        .trim()
        .chars()
        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
        .collect()
}

/// The parser's warnings as findings.
fn warnings(robots: &Robots, lines: &[&[u8]], out: &mut Out) {
    for w in robots.warnings() {
        let n = w.line();
        match w.kind() {
            WarningKind::RuleOutsideGroup => out.push(
                n,
                "rule-outside-group",
                format!(
                    "'{}' comes before any user-agent line: it applies to no crawler",
                    line_text(lines, n)
                ),
                "add 'User-agent: *' (or the crawler's name) on a line above it".into(),
            ),
            WarningKind::MissingColon => {
                let text = line_text(lines, n);
                let fixed = match text.split_once([' ', '\t']) {
                    Some((k, v)) => format!("{}: {}", k, v.trim()),
                    None => text.clone(),
                };
                out.push(
                    n,
                    "missing-colon",
                    format!("'{text}' has no ':' after the key; Google reads it, many crawlers do not"),
                    format!("write '{fixed}'"),
                )
            }
            WarningKind::Unparsable => out.push(
                n,
                "unparsable-line",
                format!(
                    "'{}' is not a 'key: value' line: crawlers ignore it",
                    line_text(lines, n)
                ),
                "write it as 'Key: value' (one value per line) or make it a '#' comment".into(),
            ),
            WarningKind::MisspelledKey { written, read_as } => out.push(
                n,
                "misspelled-key",
                format!(
                    "'{written}' is read as '{read_as}' by Google, but other crawlers may ignore the line"
                ),
                format!("spell the key '{}'", capitalize_key(read_as)),
            ),
            WarningKind::UnknownKey { key } => out.push(
                n,
                "unknown-key",
                format!("unknown key '{key}': crawlers ignore the line"),
                "check the spelling (User-agent, Allow, Disallow, Sitemap) or delete the line"
                    .into(),
            ),
            WarningKind::LineTruncated { len, kept } => out.push(
                n,
                "line-too-long",
                format!("the line is {len} bytes long; Google reads only the first {kept}"),
                "shorten the pattern (use '*' for the variable part)".into(),
            ),
            WarningKind::NulByte => out.push(
                n,
                "nul-byte",
                "a NUL byte: Google ignores the rest of the line".into(),
                "remove the NUL byte (save the file as plain UTF-8 text)".into(),
            ),
            WarningKind::FileTruncated { limit, size } => out.push(
                n,
                "file-too-large",
                format!(
                    "the file is {size} bytes; Google reads only the first {limit}, so the rules from this line on are ignored"
                ),
                "shrink the file under 500 KiB: merge rules with '*' patterns, drop duplicates"
                    .into(),
            ),
            WarningKind::NoProductToken { value } => out.push(
                n,
                "user-agent-no-token",
                format!(
                    "user-agent '{value}' does not start with a product token (it starts with '/', ';', '(', ')' or '*'): it matches no crawler"
                ),
                "name the crawler by its product token, for example 'User-agent: Googlebot', or use '*' alone"
                    .into(),
            ),
        }
    }
}

fn capitalize_key(key: &str) -> &'static str {
    match key {
        "user-agent" => "User-agent",
        "allow" => "Allow",
        "disallow" => "Disallow",
        "sitemap" => "Sitemap",
        _ => "",
    }
}

/// `*` inside a user-agent name.
fn user_agents(robots: &Robots, out: &mut Out) {
    for g in robots.groups() {
        for a in g.agents() {
            if !a.is_wildcard() && !a.token().is_empty() && a.value().contains('*') {
                out.push(
                    a.line(),
                    "star-in-user-agent",
                    format!(
                        "'*' in 'User-agent: {}' is not a wildcard: the line names the crawler '{}' only",
                        a.value(),
                        a.token()
                    ),
                    format!("write 'User-agent: {}'", a.token()),
                );
            }
        }
    }
}

/// A user-agent name that Google's parser cuts (at the first character other than a letter,
/// `-` or `_`) to the name of another crawler: Google's crawlers then obey the group under
/// that name, where robotsmatch reads the whole name (`Googlebot2` is not `Googlebot`).
/// Reported when the cut name is a catalog crawler's or another user-agent line's name.
fn google_cuts(robots: &Robots, out: &mut Out) {
    let agents: Vec<&crate::parse::UserAgent> = robots
        .groups()
        .iter()
        .flat_map(|g| g.agents())
        .filter(|a| !a.is_wildcard() && !a.token().is_empty())
        .collect();
    // Lower-case token -> the first line naming it; the catalog likewise (linear, not a
    // search per line: a file can hold 100,000 user-agent lines).
    let mut first: HashMap<String, &crate::parse::UserAgent> = HashMap::new();
    for a in &agents {
        first.entry(a.token().to_ascii_lowercase()).or_insert(a);
    }
    let catalog: HashMap<String, &'static str> = crate::catalog::crawlers()
        .iter()
        .map(|c| (c.token.to_ascii_lowercase(), c.token))
        .collect();
    for a in &agents {
        let cut = a.google_token();
        if cut.is_empty() || cut.eq_ignore_ascii_case(a.token()) {
            continue;
        }
        let key = cut.to_ascii_lowercase();
        let elsewhere = first.get(&key);
        let known = catalog.get(&key);
        let (name, related) = match (elsewhere, known) {
            (Some(b), _) => (b.token(), vec![b.line()]),
            (None, Some(c)) => (*c, Vec::new()),
            (None, None) => continue,
        };
        let named = match elsewhere {
            Some(b) => format!(", the crawler line {} names", b.line()),
            None => String::new(),
        };
        out.push_related(
            a.line(),
            "google-cuts-user-agent",
            format!(
                "Google's parser reads 'User-agent: {}' as '{name}' (it stops at the first character that is not a letter, '-' or '_'), so {name}{named} obeys this group at Google; robotsmatch reads the whole name '{}'",
                a.value(),
                a.token()
            ),
            format!(
                "if the group is meant for {name}, write 'User-agent: {name}'; if not, make sure its rules suit {name} too"
            ),
            related,
        );
    }
}

/// Directives Google ignores.
fn directives(robots: &Robots, out: &mut Out) {
    for d in robots.directives() {
        let n = d.line();
        match d.kind() {
            DirectiveKind::CrawlDelay => out.push(
                n,
                "ignored-directive",
                format!(
                    "Google ignores 'crawl-delay' (Bing and Yandex honour it): '{}: {}'",
                    d.key(),
                    d.value()
                ),
                "keep it for the crawlers that read it; Googlebot adjusts its rate to how fast the server answers"
                    .into(),
            ),
            DirectiveKind::Host => out.push(
                n,
                "ignored-directive",
                format!("'host' is a Yandex extension that Google ignores: '{}: {}'", d.key(), d.value()),
                "use redirects or rel=canonical to choose the preferred host".into(),
            ),
            DirectiveKind::RequestRate => out.push(
                n,
                "ignored-directive",
                format!("Google ignores 'request-rate': '{}: {}'", d.key(), d.value()),
                "delete the line, or keep it for the few crawlers that read it".into(),
            ),
            DirectiveKind::Noindex => out.push(
                n,
                "noindex-in-robots",
                format!(
                    "'noindex' in robots.txt is not supported (Google stopped reading it in 2019): '{}: {}'",
                    d.key(),
                    d.value()
                ),
                "use a <meta name=\"robots\" content=\"noindex\"> tag or an X-Robots-Tag header, and let the page be crawled"
                    .into(),
            ),
            _ => {}
        }
    }
}

/// Checks on one pattern by itself.
fn pattern_checks(rule: &Rule, out: &mut Out) {
    let p = rule.pattern();
    if p.is_empty() {
        return;
    }
    let text = rule.pattern_lossy();
    if p[0] != b'/' && p[0] != b'*' {
        let fix = if let Some(i) = text.find("://") {
            let path = text[i + 3..].find('/').map_or("/", |j| &text[i + 3 + j..]);
            format!("write the path only: '{}: {path}'", rule.kind().key())
        } else {
            format!("write '{}: /{text}'", rule.kind().key())
        };
        out.push(
            rule.line(),
            "no-leading-slash",
            format!("'{rule}' never matches: paths start with '/', and so must patterns"),
            fix,
        );
    }
    if let Some(i) = p.iter().position(|&b| b == b'$') {
        if i + 1 < p.len() {
            out.push(
                rule.line(),
                "dollar-not-at-end",
                format!(
                    "'$' in '{rule}' is not at the end, so it is a literal '$', not an end anchor"
                ),
                "put '$' only at the very end of a pattern (and use '*' for what lies between)"
                    .into(),
            );
        }
    }
}

/// Trailing `*`: no effect on which URLs a rule matches, but each adds 1 to its priority. It
/// is reported only when dropping it changes no verdict: no rule of the other kind that can
/// match the same URL has a priority the shorter pattern would lose (or win) against.
fn trailing_stars(rules: &[Prepared<'_>], group_line: u32, out: &mut Out) {
    // Each kind's rules by priority: only those in the range that matters are compared.
    let by_priority = |kind: RuleKind| -> Vec<(usize, &Prepared<'_>)> {
        let mut v: Vec<(usize, &Prepared<'_>)> = rules
            .iter()
            .filter(|r| r.rule.kind() == kind)
            .map(|r| (r.priority(), r))
            .collect();
        v.sort_by_key(|&(p, _)| p);
        v
    };
    let (allows, disallows) = (
        by_priority(RuleKind::Allow),
        by_priority(RuleKind::Disallow),
    );
    for me in rules {
        let rule = me.rule;
        let p = rule.pattern();
        if p.len() < 2 || !p.ends_with(b"*") || !matches!(p[0], b'/' | b'*') {
            continue;
        }
        let stars = p.iter().rev().take_while(|&&b| b == b'*').count();
        let (hi, lo) = (me.priority(), me.priority().saturating_sub(stars));
        // The other kind's priorities that the shorter pattern would lose (or win) against.
        let (others, range) = match rule.kind() {
            RuleKind::Allow => (&disallows, lo + 1..hi + 1),
            RuleKind::Disallow => (&allows, lo..hi),
        };
        let from = others.partition_point(|&(q, _)| q < range.start);
        let to = others.partition_point(|&(q, _)| q < range.end);
        let mut matters = Some(false);
        for (_, other) in &others[from..to] {
            if !out.work.charge(PAIR_COST) {
                matters = None;
                break;
            }
            match overlap_in(&me.canon, &other.canon, &mut out.work) {
                Some(false) => {}
                found => {
                    matters = found;
                    break;
                }
            }
        }
        let Some(matters) = matters else {
            out.work.skip(
                format!(
                    "trailing-star in the group at line {group_line}, from line {} on",
                    rule.line()
                ),
                group_line,
            );
            return;
        };
        if matters {
            continue;
        }
        let text = rule.pattern_lossy();
        let trimmed = text.trim_end_matches('*');
        let suggestion = if trimmed.is_empty() { "/" } else { trimmed };
        out.push(
            rule.line(),
            "trailing-star",
            format!("the trailing '*' in '{rule}' has no effect: rules already match every URL that starts with the pattern"),
            format!("write '{}: {suggestion}'", rule.kind().key()),
        );
    }
}

/// A rule prepared for comparison: its canonical pattern (`**` collapsed) and its priority.
struct Prepared<'r> {
    rule: &'r Rule,
    canon: Vec<u8>,
    priority: usize,
}

impl<'r> Prepared<'r> {
    fn new(rule: &'r Rule) -> Prepared<'r> {
        let canonical = canonicalize(rule.pattern());
        Prepared {
            rule,
            canon: collapse_stars(&canonical),
            priority: canonical.len(),
        }
    }

    /// The length of the pattern as written, in canonical percent-encoding.
    fn priority(&self) -> usize {
        self.priority
    }

    /// True when Google's `index.html` rule gives this Allow extra URLs.
    fn has_index_html(&self) -> bool {
        self.rule.kind() == RuleKind::Allow
            && crate::compile::pattern::index_html_slash(&self.canon).is_some()
    }
}

/// True when every URL that `inner` matches is matched by `outer` (a sufficient test: `outer`
/// must match the text of `inner`, where `inner`'s `*` can be matched only by a `*` of
/// `outer`). Both patterns canonical and non-empty.
pub fn covers(outer: &[u8], inner: &[u8]) -> bool {
    covers_in(outer, inner, &mut Work::unlimited()) == Some(true)
}

/// [`covers`] with its work charged to `work`; `None` when the budget ran out first.
fn covers_in(outer: &[u8], inner: &[u8], work: &mut Work<'_>) -> Option<bool> {
    if outer.is_empty() || inner.is_empty() {
        return Some(false);
    }
    // Every path starts with '/': these match every URL.
    if matches!(outer, b"/" | b"*" | b"/*") {
        return Some(true);
    }
    let outer_anchored = outer.last() == Some(&b'$');
    let (inner_text, inner_anchored) = match inner.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (inner, false),
    };
    // Quick rejection: the literal start of `outer` must start `inner` (an inner `*` cannot
    // stand for a literal byte).
    let lit = outer
        .iter()
        .position(|&b| b == b'*' || b == b'$')
        .unwrap_or(outer.len());
    if !work.charge(lit as u64 / 16 + 1) {
        return None;
    }
    if !inner_text.starts_with(&outer[..lit]) {
        return Some(false);
    }
    if outer_anchored && !inner_anchored {
        // `/a*$` is `/a`; anything else anchored matches a bounded set of URLs.
        let body = &outer[..outer.len() - 1];
        if !body.ends_with(b"*") {
            return Some(false);
        }
        return covers_in(body, inner, work);
    }
    if !work.charge(COVERS_SETUP + inner_text.len() as u64) {
        return None;
    }
    matches_in(outer, inner_text, work)
}

/// [`crate::reference::matches`] (wildcards and the end anchor on) with its work charged:
/// one unit per position of `text` for each byte of `pattern`. `None` when the budget ran out.
fn matches_in(pattern: &[u8], text: &[u8], work: &mut Work<'_>) -> Option<bool> {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) => (rest, true),
        _ => (pattern, false),
    };
    // reach[i]: the pattern prefix consumed so far can match exactly text[..i].
    let n = text.len();
    let mut reach = vec![false; n + 1];
    let mut next = vec![false; n + 1];
    reach[0] = true;
    // Positions before `low` are unreachable: each step scans from there.
    let mut low = 0;
    for &c in pattern {
        if !work.charge((n + 1 - low) as u64) {
            return None;
        }
        next[low..].fill(false);
        if c == b'*' {
            let mut seen = false;
            for i in low..=n {
                seen |= reach[i];
                next[i] = seen;
            }
        } else {
            for i in low..n {
                if reach[i] && text[i] == c {
                    next[i + 1] = true;
                }
            }
        }
        std::mem::swap(&mut reach, &mut next);
        match reach[low..].iter().position(|&r| r) {
            Some(i) => low += i,
            None => return Some(false),
        }
    }
    Some(if anchored {
        reach[n]
    } else {
        reach[low..].contains(&true)
    })
}

/// True when some URL is matched by both patterns (canonical, non-empty; `*` any sequence, a
/// final `$` the end of the URL).
pub fn overlap(p: &[u8], q: &[u8]) -> bool {
    overlap_in(p, q, &mut Work::unlimited()) == Some(true)
}

/// [`overlap`] with its work charged to `work`: one unit per letter tried in each state of
/// the product of the two patterns. `None` when the budget ran out first.
fn overlap_in(p: &[u8], q: &[u8], work: &mut Work<'_>) -> Option<bool> {
    if p.is_empty() || q.is_empty() {
        return Some(false);
    }
    let split = |s: &[u8]| -> (Vec<u8>, bool) {
        match s.split_last() {
            Some((b'$', rest)) => (rest.to_vec(), true),
            _ => (s.to_vec(), false),
        }
    };
    // Quick rejection: up to the first `*` of either, both patterns are literal, and the
    // URL must start with both.
    let literal = |s: &[u8]| {
        s.iter()
            .position(|&b| b == b'*')
            .unwrap_or(s.len() - usize::from(s.ends_with(b"$")))
    };
    let k = literal(p).min(literal(q));
    if !work.charge(k as u64 / 16 + 1) {
        return None;
    }
    if p[..k] != q[..k] {
        return Some(false);
    }
    if !work.charge(OVERLAP_SETUP + (p.len() + q.len()) as u64) {
        return None;
    }
    let (p, pa) = split(p);
    let (q, qa) = split(q);
    let mut alpha: Vec<u8> = p.iter().chain(&q).copied().filter(|&c| c != b'*').collect();
    alpha.sort_unstable();
    alpha.dedup();
    if let Some(other) = (1..=255u8).find(|c| *c != b'*' && !alpha.contains(c)) {
        alpha.push(other);
    }
    let step = |pat: &[u8], anchored: bool, i: usize, c: u8| -> Option<usize> {
        if i == pat.len() {
            (!anchored).then_some(i)
        } else if pat[i] == b'*' {
            Some(i)
        } else if pat[i] == c {
            Some(i + 1)
        } else {
            None
        }
    };
    // The states seen: a bit per state while that stays small, a set of the visited ones
    // otherwise (two 16 KiB patterns have 2^28 states; the budget bounds the visited ones).
    let width = q.len() + 1;
    let states = (p.len() + 1) * width;
    let mut bits = if states <= 1 << 23 {
        vec![0u64; states.div_ceil(64)]
    } else {
        Vec::new()
    };
    let mut set: HashSet<usize> = HashSet::new();
    let mut first_visit = |k: usize| -> bool {
        if bits.is_empty() {
            set.insert(k)
        } else if bits[k / 64] & (1 << (k % 64)) == 0 {
            bits[k / 64] |= 1 << (k % 64);
            true
        } else {
            false
        }
    };
    let mut stack = vec![(0usize, 0usize)];
    first_visit(0);
    let mut next: Vec<(usize, usize)> = Vec::new();
    while let Some((i, j)) = stack.pop() {
        if i == p.len() && j == q.len() {
            return Some(true);
        }
        if !work.charge(alpha.len() as u64 + 1) {
            return None;
        }
        next.clear();
        if i < p.len() && p[i] == b'*' {
            next.push((i + 1, j));
        }
        if j < q.len() && q[j] == b'*' {
            next.push((i, j + 1));
        }
        for &c in &alpha {
            if let (Some(a), Some(b)) = (step(&p, pa, i, c), step(&q, qa, j, c)) {
                next.push((a, b));
            }
        }
        for &(a, b) in &next {
            if first_visit(a * width + b) {
                stack.push((a, b));
            }
        }
    }
    Some(false)
}

fn is_literal(canon: &[u8]) -> bool {
    !canon.iter().any(|&b| b == b'*' || b == b'$')
}

/// The checks of [`pairwise`], named in a `checks-skipped` finding.
const PAIR_CHECKS: &str =
    "duplicate-rule, shadowed-rule, overridden-rule, allow-disallow-tie and order-dependent";

/// Rule-against-rule checks within one group (its rules prepared; `group_line` is its first
/// user-agent line). When the budget runs out, the rules not yet compared are named in a
/// `checks-skipped` finding.
fn pairwise(rules: &[Prepared<'_>], group_line: u32, out: &mut Out) {
    for r in 0..rules.len() {
        if pair_checks(rules, r, out).is_none() {
            out.work.skip(
                format!(
                    "{PAIR_CHECKS} in the group at line {group_line}, from line {} on",
                    rules[r].rule.line()
                ),
                group_line,
            );
            return;
        }
    }
    if order_dependent(rules, out).is_none() {
        out.work.skip(
            format!("order-dependent in the group at line {group_line}"),
            group_line,
        );
    }
}

/// Compares rule `ri` with the others of its group; `None` when the budget ran out first.
fn pair_checks(rules: &[Prepared<'_>], ri: usize, out: &mut Out) -> Option<()> {
    let r = &rules[ri];
    // A rule that never matches is reported by itself; comparing it says nothing more.
    if r.canon[0] != b'/' && r.canon[0] != b'*' {
        return Some(());
    }
    // Overridden by the other kind.
    if !r.has_index_html() {
        for s in rules {
            if !out.work.charge(PAIR_COST) {
                return None;
            }
            if s.rule.kind() == r.rule.kind() || !covers_in(&s.canon, &r.canon, &mut out.work)? {
                continue;
            }
            let wins = match s.rule.kind() {
                RuleKind::Allow => s.priority() >= r.priority(),
                RuleKind::Disallow => s.priority() > r.priority(),
            };
            if wins {
                let why = if s.priority() == r.priority() {
                    "of the same length, and Allow wins ties"
                } else {
                    "with a longer pattern"
                };
                out.push_related(
                    r.rule.line(),
                    "overridden-rule",
                    format!(
                        "'{}' never takes effect: '{}' (line {}) matches every URL it matches, {why}",
                        r.rule,
                        s.rule,
                        s.rule.line()
                    ),
                    format!(
                        "delete one of the two, or make '{}' longer than '{}'",
                        r.rule, s.rule
                    ),
                    vec![s.rule.line()],
                );
                return Some(());
            }
        }
    }
    // Shadowed by the same kind.
    if !r.has_index_html() {
        for (si, s) in rules.iter().enumerate() {
            if !out.work.charge(PAIR_COST) {
                return None;
            }
            if si == ri || s.rule.kind() != r.rule.kind() {
                continue;
            }
            if !(s.priority() > r.priority() || (s.priority() == r.priority() && si < ri)) {
                continue;
            }
            if !covers_in(&s.canon, &r.canon, &mut out.work)? {
                continue;
            }
            if s.canon == r.canon {
                out.push_related(
                    r.rule.line(),
                    "duplicate-rule",
                    format!(
                        "'{}' repeats line {} of the same group",
                        r.rule,
                        s.rule.line()
                    ),
                    format!("delete line {}", r.rule.line()),
                    vec![s.rule.line()],
                );
            } else {
                out.push_related(
                    r.rule.line(),
                    "shadowed-rule",
                    format!(
                        "'{}' never decides: '{}' (line {}) matches every URL it matches and is longer",
                        r.rule,
                        s.rule,
                        s.rule.line()
                    ),
                    "delete one of the two (they block or allow the same URLs)".into(),
                    vec![s.rule.line()],
                );
            }
            return Some(());
        }
    }
    if r.rule.kind() != RuleKind::Allow {
        return Some(());
    }
    // Ties, reported at the Allow (with the first Disallow it ties with).
    for d in rules {
        if !out.work.charge(PAIR_COST) {
            return None;
        }
        if d.rule.kind() != RuleKind::Disallow || d.priority() != r.priority() {
            continue;
        }
        if d.canon[0] != b'/' && d.canon[0] != b'*' {
            continue;
        }
        if !covers_in(&r.canon, &d.canon, &mut out.work)?
            && overlap_in(&r.canon, &d.canon, &mut out.work)?
        {
            out.push_related(
                r.rule.line(),
                "allow-disallow-tie",
                format!(
                    "'{}' and '{}' (line {}) have the same length and can match the same URL: Google lets Allow win the tie, other crawlers may not",
                    r.rule,
                    d.rule,
                    d.rule.line()
                ),
                "make the rule that should win longer (for example spell out more of the path)"
                    .into(),
                vec![d.rule.line()],
            );
            // One tie per Allow is enough to show the problem.
            break;
        }
    }
    Some(())
}

/// Pairs of literal rules of different kinds where the first in file order is a prefix of the
/// later one: Google picks the longer, first-match crawlers the first. Reported once per first
/// rule, at its line, with every later rule it hides from first-match crawlers. `None` when
/// the budget ran out first (nothing is reported then).
fn order_dependent(rules: &[Prepared<'_>], out: &mut Out) -> Option<()> {
    // first rule index -> later rule indices
    let mut pairs: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for (li, later) in rules.iter().enumerate() {
        if !is_literal(&later.canon) || !later.canon.starts_with(b"/") {
            continue;
        }
        if !out.work.charge(li as u64 + 1) {
            return None;
        }
        let first = rules[..li].iter().position(|f| {
            f.rule.kind() != later.rule.kind()
                && is_literal(&f.canon)
                && later.canon.starts_with(&f.canon)
                && (f.canon.len() < later.canon.len() || f.rule.kind() == RuleKind::Disallow)
        });
        if let Some(fi) = first {
            match index.get(&fi) {
                Some(&k) => pairs[k].1.push(li),
                None => {
                    index.insert(fi, pairs.len());
                    pairs.push((fi, vec![li]));
                }
            }
        }
    }
    for (fi, later) in pairs {
        let first = &rules[fi];
        let shown: Vec<String> = later
            .iter()
            .take(6)
            .map(|&i| format!("line {} '{}'", rules[i].rule.line(), rules[i].rule))
            .collect();
        let more = if later.len() > shown.len() {
            format!(" and {} more", later.len() - shown.len())
        } else {
            String::new()
        };
        let (n, what) = if later.len() == 1 {
            (String::new(), "a rule")
        } else {
            (format!("{} ", later.len()), "rules")
        };
        out.push_related(
            first.rule.line(),
            "order-dependent",
            format!(
                "'{}' comes before {n}{what} of the other kind that match inside it ({}{more}): Google lets the longer rule decide, crawlers that take the first match in file order (legacy) apply line {} instead",
                first.rule,
                shown.join(", "),
                first.rule.line()
            ),
            format!(
                "move line {} below the rules it contains, so that both conventions agree",
                first.rule.line()
            ),
            later
                .iter()
                .take(MAX_RELATED)
                .map(|&i| rules[i].rule.line())
                .collect(),
        );
    }
    Some(())
}

/// `**` is `*`.
fn collapse_stars(p: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(p.len());
    for &b in p {
        if !(b == b'*' && v.last() == Some(&b'*')) {
            v.push(b);
        }
    }
    v
}

/// `/admin` and `/admin/` both in the file, for rules of the same kind.
fn slash_variants(robots: &Robots, out: &mut Out) {
    let rules: Vec<&Rule> = robots.groups().iter().flat_map(|g| g.rules()).collect();
    // (kind, pattern) -> the first rule with it.
    let mut by_pattern: std::collections::HashMap<(RuleKind, &[u8]), &Rule> =
        std::collections::HashMap::new();
    for r in &rules {
        by_pattern.entry((r.kind(), r.pattern())).or_insert(r);
    }
    let mut done = std::collections::HashSet::new();
    for r in &rules {
        let p = r.pattern();
        if p.len() < 2 || !p.starts_with(b"/") || p.ends_with(b"/") || !is_literal(p) {
            continue;
        }
        let mut with_slash = p.to_vec();
        with_slash.push(b'/');
        if let Some(s) = by_pattern.get(&(r.kind(), with_slash.as_slice())) {
            if !done.insert(r.line()) {
                continue;
            }
            let text = r.pattern_lossy();
            out.push_related(
                r.line(),
                "slash-variant",
                format!(
                    "'{r}' also matches '{text}-old', '{text}.php', '{text}istrator'...; the file also has '{s}' (line {}), so '{text}/' was probably meant",
                    s.line()
                ),
                format!(
                    "write '{}: {text}/' (or '{}: {text}$' for the page itself)",
                    r.kind().key(),
                    r.kind().key()
                ),
                vec![s.line()],
            );
        }
    }
}

/// A crawler (or `*`) named by several groups: Google merges them; crawlers that use only the
/// first group naming them (the legacy profile, Python's robotparser) ignore the later ones.
fn split_groups(robots: &Robots, out: &mut Out) {
    let groups = robots.groups();
    // lower-case token or "*" -> (first group index, its line)
    let mut seen: HashMap<String, (usize, u32)> = HashMap::new();
    for (gi, g) in groups.iter().enumerate() {
        if g.rules().is_empty() {
            continue;
        }
        let mut reported_here = false;
        for a in g.agents() {
            let key = if a.is_wildcard() {
                "*".to_string()
            } else if a.token().is_empty() {
                continue;
            } else {
                a.token().to_ascii_lowercase()
            };
            match seen.get(&key) {
                Some((first, line)) if *first != gi && !reported_here => {
                    let name = if key == "*" {
                        "*".to_string()
                    } else {
                        a.token().to_string()
                    };
                    out.push_related(
                        a.line(),
                        "split-group",
                        format!(
                            "'{name}' is also named by the group at line {line}: Google merges the two groups, crawlers that obey only the first group naming them (legacy) ignore this one"
                        ),
                        format!("move these rules into the group at line {line}"),
                        vec![*line],
                    );
                    reported_here = true;
                }
                Some(_) => {}
                None => {
                    seen.insert(key, (gi, a.line()));
                }
            }
        }
    }
}

/// What [`wildcard_lost`] found for one set of chosen groups.
#[derive(Clone, Copy)]
enum Lost {
    /// The index of its report.
    Report(usize),
    /// Nothing lost (or nothing to say).
    Nothing,
    /// The budget ran out.
    Unchecked,
}

/// The `*` rules a set of chosen groups loses.
enum LostRules {
    /// These (a bit set over the `*` rules).
    Some(Vec<u64>),
    /// None, or the groups allow everything on purpose, or they include `*`.
    None,
    /// Too many comparisons: the number of the groups' own rules.
    Oversized(usize),
    /// The budget ran out.
    Unchecked,
}

/// The `*` Disallow rules (`wild`) that no Disallow rule of the `chosen` groups covers.
fn lost_rules(
    groups: &[crate::parse::Group],
    prepared: &[Vec<Prepared<'_>>],
    wild: &[&Prepared<'_>],
    chosen: &[usize],
    words: usize,
    out: &mut Out,
) -> LostRules {
    // A group naming the token together with '*' (`User-agent: *` and a name) keeps the
    // wildcard rules.
    if chosen.iter().any(|&i| groups[i].is_wildcard()) {
        return LostRules::None;
    }
    let named: Vec<&Prepared<'_>> = chosen.iter().flat_map(|&i| &prepared[i]).collect();
    // An explicit "allow everything" group (`Disallow:` or `Allow: /` only) is deliberate.
    let explicit_allow_all = chosen.iter().any(|&i| !groups[i].rules().is_empty())
        && named
            .iter()
            .all(|r| r.rule.kind() == RuleKind::Allow && (r.canon == b"/" || r.canon == b"/*"));
    if explicit_allow_all {
        return LostRules::None;
    }
    if wild.len().saturating_mul(named.len()) > MAX_PAIRWISE * MAX_PAIRWISE {
        return LostRules::Oversized(named.len());
    }
    let mut lost = vec![0u64; words];
    let mut any_lost = false;
    'wild: for (wi, w) in wild.iter().enumerate() {
        for n in &named {
            if !out.work.charge(PAIR_COST) {
                return LostRules::Unchecked;
            }
            if n.rule.kind() != RuleKind::Disallow {
                continue;
            }
            match covers_in(&n.canon, &w.canon, &mut out.work) {
                Some(true) => continue 'wild,
                Some(false) => {}
                None => return LostRules::Unchecked,
            }
        }
        lost[wi / 64] |= 1 << (wi % 64);
        any_lost = true;
    }
    if any_lost {
        LostRules::Some(lost)
    } else {
        LostRules::None
    }
}

/// A named group that drops the `*` group's restrictions. `prepared` holds each group's
/// rules, prepared.
fn wildcard_lost(robots: &Robots, prepared: &[Vec<Prepared<'_>>], out: &mut Out) {
    let groups = robots.groups();
    let wild: Vec<&Prepared<'_>> = groups
        .iter()
        .zip(prepared)
        .filter(|(g, _)| g.is_wildcard())
        .flat_map(|(_, rules)| rules)
        .filter(|r| r.rule.kind() == RuleKind::Disallow && matches!(r.canon[0], b'/' | b'*'))
        .collect();
    if wild.is_empty() {
        return;
    }
    // Distinct tokens in file order, with the line of their first mention, and the groups
    // that name each (a file can hold 100,000 user-agent lines: no search per line).
    let mut tokens: Vec<(String, u32)> = Vec::new();
    let mut chosen_by: HashMap<String, Vec<usize>> = HashMap::new();
    for (gi, g) in groups.iter().enumerate() {
        for a in g.agents() {
            if a.is_wildcard() || a.token().is_empty() {
                continue;
            }
            let key = a.token().to_ascii_lowercase();
            let chosen = chosen_by.entry(key).or_insert_with(|| {
                tokens.push((a.token().to_string(), a.line()));
                Vec::new()
            });
            if chosen.last() != Some(&gi) {
                chosen.push(gi);
            }
        }
    }
    // What a set of chosen groups loses depends on the set alone: it is worked out once per
    // set (a file can name 20,000 crawlers in one group). The lost rules as a bit set over
    // `wild`; each report: the lost rules, the tokens, the line of the first.
    let words = wild.len().div_ceil(64);
    let mut reports: Vec<(Vec<u64>, Vec<String>, u32)> = Vec::new();
    let mut outcome_of: HashMap<Vec<usize>, Lost> = HashMap::new();
    let mut unchecked = 0usize;
    let mut first_unchecked = 0u32;
    for (token, line) in tokens {
        let chosen = &chosen_by[&token.to_ascii_lowercase()];
        let outcome = match outcome_of.get(chosen) {
            Some(&known) => known,
            None => {
                let outcome = lost_rules(groups, prepared, &wild, chosen, words, out);
                let outcome = match outcome {
                    LostRules::Some(bits) => {
                        reports.push((bits, Vec::new(), line));
                        Lost::Report(reports.len() - 1)
                    }
                    LostRules::None => Lost::Nothing,
                    LostRules::Oversized(named) => {
                        out.work.oversized(
                            format!(
                                "wildcard-rules-lost for the group of '{token}' (line {line}): {} '*' rules against {named} of its own, over the {} comparisons made per group",
                                wild.len(),
                                MAX_PAIRWISE * MAX_PAIRWISE
                            ),
                            line,
                        );
                        Lost::Nothing
                    }
                    LostRules::Unchecked => Lost::Unchecked,
                };
                outcome_of.insert(chosen.clone(), outcome);
                outcome
            }
        };
        match outcome {
            Lost::Report(k) => reports[k].1.push(token),
            Lost::Nothing => {}
            Lost::Unchecked => {
                if unchecked == 0 {
                    first_unchecked = line;
                }
                unchecked += 1;
            }
        }
    }
    if unchecked > 0 {
        out.work.skip(
            format!(
                "wildcard-rules-lost for {unchecked} crawler name{} (the first at line {first_unchecked})",
                if unchecked == 1 { "" } else { "s" }
            ),
            first_unchecked,
        );
    }
    for (bits, tokens, line) in reports {
        let lost: Vec<&Prepared<'_>> = (0..wild.len())
            .filter(|&i| bits[i / 64] & (1 << (i % 64)) != 0)
            .map(|i| wild[i])
            .collect();
        let shown: Vec<String> = lost
            .iter()
            .take(8)
            .map(|w| format!("line {} '{}'", w.rule.line(), w.rule))
            .collect();
        let more = if lost.len() > shown.len() {
            format!(" and {} more", lost.len() - shown.len())
        } else {
            String::new()
        };
        let names = tokens.join("', '");
        let n = lost.len();
        let (plural, verb) = if n == 1 {
            ("", "applies")
        } else {
            ("s", "apply")
        };
        out.push_related(
            line,
            "wildcard-rules-lost",
            format!(
                "the group for '{names}' replaces the '*' group, so {n} restriction{plural} of '*' no longer {verb} to it: {}{more}",
                shown.join(", ")
            ),
            format!("copy the lost Disallow rules into the '{names}' group (a crawler obeys only its most specific group)"),
            lost.iter().take(MAX_RELATED).map(|w| w.rule.line()).collect(),
        );
    }
}

/// `Disallow: /` under `*` with no Allow: the whole site is blocked for every crawler that has
/// no group of its own.
fn staging_leak(robots: &Robots, out: &mut Out) {
    let wild: Vec<&Rule> = robots
        .groups()
        .iter()
        .filter(|g| g.is_wildcard())
        .flat_map(|g| g.rules())
        .collect();
    if wild
        .iter()
        .any(|r| r.kind() == RuleKind::Allow && !r.pattern().is_empty())
    {
        return;
    }
    if let Some(r) = wild.iter().find(|r| {
        r.kind() == RuleKind::Disallow && {
            let c = collapse_stars(&canonicalize(r.pattern()));
            c == b"/" || c == b"/*" || c == b"*"
        }
    }) {
        out.push(
            r.line(),
            "staging-leak",
            format!("'{r}' under 'User-agent: *' blocks the whole site for every crawler without a group of its own (a staging file published by mistake?)"),
            "if the site should be crawled, delete the line (or write 'Disallow:' to allow everything)".into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(body: &str) -> Vec<(u32, &'static str)> {
        lint(body.as_bytes())
            .into_iter()
            .map(|f| (f.line, f.code))
            .collect()
    }

    fn has(body: &str, code: &str) -> bool {
        lint(body.as_bytes()).iter().any(|f| f.code == code)
    }

    #[test]
    fn codes_are_documented() {
        for f in lint(b"Disallow: /x\nUser-agent: *\nDisalow: /\nfoo: bar\nDisallow /a\n") {
            assert!(CODES.iter().any(|(c, _, _)| *c == f.code), "{}", f.code);
        }
    }

    #[test]
    fn clean_file_has_no_findings() {
        let body = "User-agent: *\nDisallow: /cart/\nDisallow: /*?sort=\nAllow: /cart/help$\n\n\
                    User-agent: Googlebot\nDisallow: /cart/\nDisallow: /*?sort=\n\nSitemap: https://x.example/s.xml\n";
        assert_eq!(codes(body), vec![]);
    }

    #[test]
    fn file_level() {
        assert_eq!(
            codes("<!DOCTYPE html>\n<html><body>Not found</body></html>\n"),
            vec![(0, "html-file")]
        );
        let utf16: Vec<u8> = b"\xFF\xFEU\0s\0e\0r\0"
            .iter()
            .copied()
            .chain("-agent: *\n".bytes().flat_map(|b| [b, 0]))
            .collect();
        assert_eq!(lint(&utf16)[0].code, "utf16-file");
        assert_eq!(codes(""), vec![(0, "no-rules")]);
        assert_eq!(codes("User-agent: *\nCrawl-delay: 3\n")[0], (0, "no-rules"));
        assert!(!has("User-agent: *\nDisallow: /a\n", "no-rules"));
        let mut big = b"User-agent: *\n".to_vec();
        while big.len() < 520 * 1024 {
            big.extend_from_slice(b"Disallow: /some/long/path/to/block\n");
        }
        assert!(lint(&big).iter().any(|f| f.code == "file-too-large"));
        assert!(!has("User-agent: *\nDisallow: /a\n", "file-too-large"));
    }

    #[test]
    fn parser_warnings() {
        assert_eq!(
            codes("Disallow: /a\nUser-agent: *\nDisallow: /b\n"),
            vec![(1, "rule-outside-group")]
        );
        assert_eq!(
            codes("User-agent: *\nDisallow /b\n"),
            vec![(2, "missing-colon")]
        );
        let f = lint(b"User-agent: *\nDisallow /b\n");
        assert_eq!(f[0].fix, "write 'Disallow: /b'");
        assert_eq!(
            codes("User-agent: *\nDisallow /b /c\nDisallow: /d\n")[0],
            (2, "unparsable-line")
        );
        assert_eq!(
            codes("User-agent: *\nDisalow: /b\n"),
            vec![(2, "misspelled-key")]
        );
        assert_eq!(
            codes("User-agent: *\nDisallow: /b\nFoo: bar\n"),
            vec![(3, "unknown-key")]
        );
        assert_eq!(
            codes("User-agent: *\nDisallow: /b\0c\n"),
            vec![(2, "nul-byte")]
        );
        let long = format!("User-agent: *\nDisallow: /{}\n", "a".repeat(20000));
        assert_eq!(codes(&long), vec![(2, "line-too-long")]);
        assert_eq!(
            codes("User-agent: *bot\nDisallow: /b\n"),
            vec![(1, "user-agent-no-token")]
        );
    }

    #[test]
    fn user_agent_star() {
        assert_eq!(
            codes("User-agent: Mediapartners-Google*\nDisallow: /b\n"),
            vec![(1, "star-in-user-agent")]
        );
        assert!(!has("User-agent: * \nDisallow: /b\n", "star-in-user-agent"));
    }

    #[test]
    fn issue15_google_cuts_user_agent() {
        // Google reads 'Googlebot2' as 'Googlebot', a catalog crawler.
        let f = lint(b"User-agent: Googlebot2\nDisallow: /b\n");
        assert_eq!((f[0].line, f[0].code), (1, "google-cuts-user-agent"));
        assert_eq!(
            f[0].message,
            "Google's parser reads 'User-agent: Googlebot2' as 'Googlebot' (it stops at the first character that is not a letter, '-' or '_'), so Googlebot obeys this group at Google; robotsmatch reads the whole name 'Googlebot2'"
        );
        // ... or the name of another line of the file.
        let f =
            lint(b"User-agent: fetcher\nDisallow: /a\n\nUser-agent: fetcher2.0\nDisallow: /b\n");
        assert_eq!(
            (f[0].line, f[0].code, &f[0].related),
            (4, "google-cuts-user-agent", &vec![1])
        );
        // Names that Google cuts to nothing known are not reported, nor whole names.
        for body in [
            "User-agent: MJ12bot\nDisallow: /\n",
            "User-agent: 360Spider\nDisallow: /\n",
            "User-agent: AI2Bot\nDisallow: /\n\nUser-agent: Ai2Bot-Dolma\nDisallow: /\n",
            "User-agent: Googlebot/2.1\nDisallow: /\n",
        ] {
            assert!(!has(body, "google-cuts-user-agent"), "{body}");
        }
        // Distinct names Google would merge are no split group for robotsmatch.
        assert!(!has(
            "User-agent: Rule1TestBot\nDisallow: /1\n\nUser-agent: Rule2TestBot\nDisallow: /2\n",
            "split-group"
        ));
    }

    #[test]
    fn patterns() {
        assert_eq!(
            codes("User-agent: *\nDisallow: private\n"),
            vec![(2, "no-leading-slash")]
        );
        let f = lint(b"User-agent: *\nDisallow: https://x.example/a/b\n");
        assert_eq!(f[0].fix, "write the path only: 'Disallow: /a/b'");
        assert!(!has("User-agent: *\nDisallow: *.pdf\n", "no-leading-slash"));
        assert_eq!(
            codes("User-agent: *\nDisallow: /a$b\n"),
            vec![(2, "dollar-not-at-end")]
        );
        assert!(!has("User-agent: *\nDisallow: /a$\n", "dollar-not-at-end"));
        assert_eq!(
            codes("User-agent: *\nDisallow: /a*\n"),
            vec![(2, "trailing-star")]
        );
        assert!(!has("User-agent: *\nDisallow: /a*b\n", "trailing-star"));
        // `Allow: /*` (2) beats `Disallow: /a` (2) on a tie; `Allow: /` (1) would lose.
        assert!(!has(
            "User-agent: *\nAllow: /*\nDisallow: /a\n",
            "trailing-star"
        ));
        assert!(has(
            "User-agent: *\nAllow: /*\nDisallow: /ab\n",
            "trailing-star"
        ));
    }

    #[test]
    fn pairs() {
        assert_eq!(
            codes("User-agent: *\nDisallow: /a\nDisallow: /a\n"),
            vec![(3, "duplicate-rule")]
        );
        // `/a*` matches what `/a` matches, with a longer pattern: `/a` never decides.
        assert_eq!(
            codes("User-agent: *\nDisallow: /a\nDisallow: /a*\n"),
            vec![(2, "shadowed-rule"), (3, "trailing-star")]
        );
        assert!(!has(
            "User-agent: *\nDisallow: /a\nDisallow: /ab\n",
            "shadowed-rule"
        ));
        // The Allow is shorter than a Disallow that covers it: it never allows anything.
        assert_eq!(
            codes("User-agent: *\nDisallow: /*private\nAllow: /private\n"),
            vec![(3, "overridden-rule")]
        );
        // Equal length: Allow wins the tie for Google.
        assert_eq!(
            codes("User-agent: *\nDisallow: /*.php\nAllow: /a.php\n"),
            vec![(3, "allow-disallow-tie")]
        );
        assert_eq!(
            codes("User-agent: *\nDisallow: /\nAllow: /\n"),
            vec![(2, "overridden-rule"), (2, "order-dependent")]
        );
        assert!(!has(
            "User-agent: *\nDisallow: /*.php\nAllow: /ab.php\n",
            "overridden-rule"
        ));
        assert_eq!(
            codes("User-agent: *\nAllow: /a*\nDisallow: /*b\n"),
            vec![(2, "allow-disallow-tie")]
        );
        assert!(!has(
            "User-agent: *\nAllow: /ab\nDisallow: /cd\n",
            "allow-disallow-tie"
        ));
        assert_eq!(
            codes("User-agent: *\nDisallow: /cart\nAllow: /cart/help\n"),
            vec![(2, "order-dependent")]
        );
        assert!(!has(
            "User-agent: *\nAllow: /cart/help\nDisallow: /cart\n",
            "order-dependent"
        ));
    }

    #[test]
    fn split_group() {
        assert_eq!(
            codes("User-agent: a\nDisallow: /x\n\nUser-agent: *\nDisallow: /y\n\nUser-agent: A\nDisallow: /z\n"),
            vec![(1, "wildcard-rules-lost"), (7, "split-group")]
        );
        assert!(!has(
            "User-agent: a\nUser-agent: b\nDisallow: /x\n\nUser-agent: c\nDisallow: /y\n",
            "split-group"
        ));
    }

    #[test]
    fn slash_variant() {
        assert_eq!(
            codes("User-agent: *\nDisallow: /admin\nDisallow: /admin/\n"),
            vec![(2, "slash-variant")]
        );
        assert!(!has(
            "User-agent: *\nDisallow: /admin/\nDisallow: /adminx\n",
            "slash-variant"
        ));
    }

    #[test]
    fn lost_rules() {
        let body = "User-agent: *\nDisallow: /cart\nDisallow: /tmp\n\nUser-agent: Googlebot\nDisallow: /private/\n";
        let f = lint(body.as_bytes());
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].code, "wildcard-rules-lost");
        assert_eq!(f[0].line, 5);
        assert_eq!(f[0].related, vec![2, 3]);
        // The named group repeats (or covers) the restrictions: nothing is lost.
        assert!(!has(
            "User-agent: *\nDisallow: /cart\n\nUser-agent: Googlebot\nDisallow: /\n",
            "wildcard-rules-lost"
        ));
        // An explicit allow-everything group is deliberate.
        assert!(!has(
            "User-agent: *\nDisallow: /cart\n\nUser-agent: Mediapartners-Google\nDisallow:\n",
            "wildcard-rules-lost"
        ));
        // A group with only a crawl-delay loses everything.
        assert!(has(
            "User-agent: *\nDisallow: /cart\n\nUser-agent: Bingbot\nCrawl-delay: 5\n",
            "wildcard-rules-lost"
        ));
    }

    #[test]
    fn directives_and_leak() {
        assert_eq!(
            codes("User-agent: *\nDisallow: /a\nCrawl-delay: 5\nHost: x.example\n"),
            vec![(3, "ignored-directive"), (4, "ignored-directive")]
        );
        assert_eq!(
            codes("User-agent: *\nDisallow: /a\nNoindex: /b\n"),
            vec![(3, "noindex-in-robots")]
        );
        assert_eq!(
            codes("User-agent: *\nDisallow: /\n"),
            vec![(2, "staging-leak")]
        );
        assert!(!has(
            "User-agent: *\nDisallow: /\nAllow: /public/\n",
            "staging-leak"
        ));
        assert!(!has("User-agent: GPTBot\nDisallow: /\n", "staging-leak"));
    }

    /// A 500 KiB file of `lines` after `head`.
    fn file_500k(head: &str, line: impl Fn(usize) -> String) -> Vec<u8> {
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

    fn skipped(report: &LintReport) -> &Finding {
        report
            .findings
            .iter()
            .find(|f| f.code == "checks-skipped")
            .expect("a checks-skipped finding")
    }

    #[test]
    fn issue16_lint_budget_500k_file() {
        // The issue's files: rules `/*a*a...*ab` (minutes before the budget) and `/$...$a`
        // (n^3.3). The budget bounds the work, whatever the file; the output says what was
        // skipped, and where.
        let stars = file_500k("User-agent: *\n", |i| {
            format!("Disallow: /{}b\n", "*a".repeat(3 * i + 1))
        });
        let dollars = file_500k("User-agent: *\n", |i| {
            format!("Disallow: /{}a\n", "$".repeat(i + 1))
        });
        for body in [&stars, &dollars] {
            let config = LintConfig::new().work_budget(20_000_000);
            let report = lint_with(body, &Robots::parse(body), &config);
            assert!(report.work <= 20_000_000, "{}", report.work);
            assert!(report.budget_exhausted && !report.cancelled && !report.complete());
            let f = skipped(&report);
            assert_eq!(
                (f.line, f.severity, &f.related),
                (0, Severity::Warning, &vec![1])
            );
            assert!(
                f.message.contains("lint spent its work budget (20000000 units")
                    && f.message.contains(
                        "duplicate-rule, shadowed-rule, overridden-rule, allow-disallow-tie and order-dependent in the group at line 1, from line "
                    ),
                "{}",
                f.message
            );
            // The checks that are not pairwise still ran: `$` in the middle is reported on
            // every line of the dollar file.
            if body == &dollars {
                let n = report
                    .findings
                    .iter()
                    .filter(|f| f.code == "dollar-not-at-end")
                    .count();
                assert_eq!(n, Robots::parse(body).rule_count());
            }
        }
        // `lint` itself has the default budget (about a second on these files in a release
        // build: see tools/robotsmatch-tools lint-cost).
        assert_eq!(
            LintConfig::default().get_work_budget(),
            LintConfig::DEFAULT_WORK_BUDGET
        );
    }

    #[test]
    fn issue16_lint_is_linear_in_groups_and_user_agent_lines() {
        // 16,000 named groups that each drop 1,000 '*' rules: what a set of groups loses is
        // worked out once per set, so this costs 16,000 x 1,000 comparisons, not more.
        let mut head = String::from("User-agent: *\n");
        for i in 0..1000 {
            head.push_str(&format!("Disallow: /w{i}/\n"));
        }
        let groups = file_500k(&head, |i| format!("User-agent: bot{i}\nDisallow: /x\n"));
        let report = lint_with(&groups, &Robots::parse(&groups), &LintConfig::new());
        assert!(report.complete(), "{:?}", report.findings.last());
        let lost: Vec<&Finding> = report
            .findings
            .iter()
            .filter(|f| f.code == "wildcard-rules-lost")
            .collect();
        assert!(lost.len() > 10_000);
        // Related lines are capped, so the output stays proportional to the file.
        assert!(lost.iter().all(|f| f.related.len() == MAX_RELATED));
        // 25,000 user-agent lines: no comparison at all.
        let agents = file_500k("", |i| format!("User-agent: abc{i}\n"));
        let report = lint_with(&agents, &Robots::parse(&agents), &LintConfig::new());
        assert_eq!(report.work, 0);
        assert!(report.complete());
    }

    #[test]
    fn issue16_cancel_flag_stops_lint() {
        let mut body = b"User-agent: *\n".to_vec();
        for i in 0..400 {
            body.extend_from_slice(format!("Disallow: /{}b\n", "*a".repeat(i + 1)).as_bytes());
        }
        let flag = Arc::new(AtomicBool::new(true));
        let config = LintConfig::new().cancel_flag(flag);
        let report = lint_with(&body, &Robots::parse(&body), &config);
        assert!(report.cancelled && !report.budget_exhausted);
        assert_eq!(report.work, 0);
        assert!(skipped(&report)
            .message
            .contains("lint was cancelled before it finished"));
    }

    #[test]
    fn issue16_oversized_groups_are_reported() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..=MAX_PAIRWISE {
            body.push_str(&format!("Disallow: /p{i}/\n"));
        }
        let f = lint(body.as_bytes());
        let skip = f
            .iter()
            .find(|f| f.code == "checks-skipped")
            .expect("reported");
        assert!(skip
            .message
            .contains("the group at line 1 has 1001 rules, over the 1000"));
        assert_eq!(f.len(), 1, "{f:?}");
    }

    #[test]
    fn issue16_budgeted_matching_equals_the_reference() {
        // matches_in, covers and overlap are the old functions with their work counted: on
        // small random patterns they agree with the reference matcher (and never run out).
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let alphabet = b"/ab*$";
        for _ in 0..20_000 {
            let mut word = |min: usize| -> Vec<u8> {
                let len = min + next(7);
                let mut w = vec![b'/'];
                w.extend((1..len).map(|_| alphabet[next(alphabet.len())]));
                w
            };
            let (p, t) = (word(1), word(0));
            let text: Vec<u8> = t.iter().copied().filter(|&c| c != b'$').collect();
            let mut work = Work::unlimited();
            assert_eq!(
                matches_in(&p, &text, &mut work),
                Some(crate::reference::matches(&p, &text, true, true)),
                "{:?} {:?}",
                String::from_utf8_lossy(&p),
                String::from_utf8_lossy(&text)
            );
        }
    }

    #[test]
    fn issue17_binary_files_are_errors() {
        let mut elf = b"\x7fELF\x02\x01\x01\x00".to_vec();
        elf.extend_from_slice(&[0u8; 56]);
        elf.extend_from_slice(b"User-agent: *\nDisallow: /\n");
        let f = lint(&elf);
        assert_eq!(
            (f.len(), f[0].code, f[0].severity),
            (1, "binary-file", Severity::Error)
        );
        assert!(
            f[0].message.contains("an ELF executable"),
            "{}",
            f[0].message
        );
        assert_eq!(lint(b"\x1f\x8b\x08\x00\x00\x00")[0].code, "binary-file");
        let mut noise: Vec<u8> = (0..2048u32).map(|i| (i * 7 % 32) as u8).collect();
        noise.extend_from_slice(b"User-agent: *\n");
        assert!(lint(&noise)[0].message.contains("control bytes throughout"));
        // Text with a stray NUL or escape byte is text; so are words that start like magic.
        assert!(!has("User-agent: *\nDisallow: /a\0b\n", "binary-file"));
        assert!(!has("User-agent: *\nDisallow: /\x1b[31m\n", "binary-file"));
        assert!(!has(
            "BZh is not bzip2\nUser-agent: *\nDisallow: /a\n",
            "binary-file"
        ));
        assert!(!has("RIFF\nUser-agent: *\nDisallow: /a\n", "binary-file"));
    }

    #[test]
    fn overlap_and_covers() {
        assert!(overlap(b"/a*", b"/*b"));
        assert!(!overlap(b"/ab", b"/cd"));
        assert!(!overlap(b"/a$", b"/ab"));
        assert!(overlap(b"/a$", b"/a"));
        assert!(overlap(b"/*.php$", b"/x"));
        assert!(covers(b"/*.php", b"/a.php"));
        assert!(covers(b"/a", b"/a/b*c$"));
        assert!(!covers(b"/a/b", b"/a"));
        assert!(!covers(b"/a$", b"/a"));
        assert!(covers(b"/a*$", b"/ab"));
        assert!(!covers(b"/*a", b"/b*"));
        assert!(covers(b"/", b"*/format"));
    }
}
