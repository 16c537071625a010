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
//! ```
//! let findings = robotsmatch::lint::lint(b"User-agent: *\nDisallow: private\n");
//! assert_eq!(findings[0].code, "no-leading-slash");
//! assert_eq!(findings[0].line, 2);
//! ```
#![forbid(unsafe_code)]

use std::fmt;

use crate::canon::canonicalize;
use crate::parse::{DirectiveKind, Group, Robots, Rule, RuleKind, WarningKind};
use crate::reference::matches;

/// Groups with more rules than this are not compared rule against rule (quadratic).
pub const MAX_PAIRWISE: usize = 1000;

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
    /// Other lines involved (the rule that overrides this one, the lost rules...).
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
];

fn severity_of(code: &str) -> Severity {
    CODES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map_or(Severity::Warning, |&(_, s, _)| s)
}

/// Collects findings.
struct Out {
    findings: Vec<Finding>,
}

impl Out {
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

/// Lints a robots.txt body. Never fails; findings are sorted by line.
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

/// Lints a body that was already parsed (`robots` must be `body` parsed).
pub fn lint_robots(body: &[u8], robots: &Robots) -> Vec<Finding> {
    let mut out = Out {
        findings: Vec::new(),
    };
    if is_utf16(body) {
        out.push(
            0,
            "utf16-file",
            "the file is UTF-16: crawlers read it as UTF-8 bytes and find no rules".into(),
            "save the file as UTF-8 (plain ASCII is safest)".into(),
        );
        return out.findings;
    }
    if is_html(body) {
        out.push(
            0,
            "html-file",
            "the file is an HTML page, not robots.txt: crawlers find no rules in it".into(),
            "serve a plain-text robots.txt (Content-Type: text/plain), or a 404 if you have none"
                .into(),
        );
        return out.findings;
    }
    let lines = raw_lines(body);
    warnings(robots, &lines, &mut out);
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
    user_agents(robots, &mut out);
    google_cuts(robots, &mut out);
    directives(robots, &mut out);
    for group in robots.groups() {
        for rule in group.rules() {
            pattern_checks(rule, &mut out);
        }
        trailing_stars(group, &mut out);
        if group.rules().len() <= MAX_PAIRWISE {
            pairwise(group, &mut out);
        }
    }
    slash_variants(robots, &mut out);
    split_groups(robots, &mut out);
    wildcard_lost(robots, &mut out);
    staging_leak(robots, &mut out);
    out.findings
        .sort_by(|a, b| (a.line, a.severity, a.code).cmp(&(b.line, b.severity, b.code)));
    out.findings
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
    for a in &agents {
        let cut = a.google_token();
        if cut.is_empty() || cut.eq_ignore_ascii_case(a.token()) {
            continue;
        }
        let elsewhere = agents.iter().find(|b| b.token().eq_ignore_ascii_case(cut));
        let known = crate::catalog::crawlers()
            .iter()
            .find(|c| c.token.eq_ignore_ascii_case(cut));
        let (name, related) = match (elsewhere, known) {
            (Some(b), _) => (b.token(), vec![b.line()]),
            (None, Some(c)) => (c.token, Vec::new()),
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
fn trailing_stars(group: &Group, out: &mut Out) {
    let rules: Vec<Prepared<'_>> = group
        .rules()
        .iter()
        .filter(|r| !r.pattern().is_empty())
        .map(Prepared::new)
        .collect();
    for me in &rules {
        let rule = me.rule;
        let p = rule.pattern();
        if p.len() < 2 || !p.ends_with(b"*") || !matches!(p[0], b'/' | b'*') {
            continue;
        }
        let stars = p.iter().rev().take_while(|&&b| b == b'*').count();
        let (hi, lo) = (me.priority(), me.priority().saturating_sub(stars));
        let matters = rules.iter().any(|other| {
            if other.rule.kind() == rule.kind() {
                return false;
            }
            let q = other.priority();
            let in_range = match rule.kind() {
                RuleKind::Allow => lo < q && q <= hi,
                RuleKind::Disallow => lo <= q && q < hi,
            };
            in_range && overlap(&me.canon, &other.canon)
        });
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
            && self
                .canon
                .iter()
                .rposition(|&b| b == b'/')
                .is_some_and(|s| self.canon[s..].starts_with(b"/index.htm"))
    }
}

/// True when every URL that `inner` matches is matched by `outer` (a sufficient test: `outer`
/// must match the text of `inner`, where `inner`'s `*` can be matched only by a `*` of
/// `outer`). Both patterns canonical and non-empty.
pub fn covers(outer: &[u8], inner: &[u8]) -> bool {
    if outer.is_empty() || inner.is_empty() {
        return false;
    }
    // Every path starts with '/': these match every URL.
    if matches!(outer, b"/" | b"*" | b"/*") {
        return true;
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
    if !inner_text.starts_with(&outer[..lit]) {
        return false;
    }
    if outer_anchored && !inner_anchored {
        // `/a*$` is `/a`; anything else anchored matches a bounded set of URLs.
        let body = &outer[..outer.len() - 1];
        return body.ends_with(b"*") && covers(body, inner);
    }
    matches(outer, inner_text, true, true)
}

/// True when some URL is matched by both patterns (canonical, non-empty; `*` any sequence, a
/// final `$` the end of the URL).
pub fn overlap(p: &[u8], q: &[u8]) -> bool {
    if p.is_empty() || q.is_empty() {
        return false;
    }
    let split = |s: &[u8]| -> (Vec<u8>, bool) {
        match s.split_last() {
            Some((b'$', rest)) => (rest.to_vec(), true),
            _ => (s.to_vec(), false),
        }
    };
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
    let width = q.len() + 1;
    let mut seen = vec![false; (p.len() + 1) * width];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((i, j)) = stack.pop() {
        if i == p.len() && j == q.len() {
            return true;
        }
        let mut next: Vec<(usize, usize)> = Vec::new();
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
        for (a, b) in next {
            if !seen[a * width + b] {
                seen[a * width + b] = true;
                stack.push((a, b));
            }
        }
    }
    false
}

fn is_literal(canon: &[u8]) -> bool {
    !canon.iter().any(|&b| b == b'*' || b == b'$')
}

/// Rule-against-rule checks within one group.
fn pairwise(group: &Group, out: &mut Out) {
    let rules: Vec<Prepared<'_>> = group
        .rules()
        .iter()
        .filter(|r| !r.pattern().is_empty())
        .map(Prepared::new)
        .collect();
    for (ri, r) in rules.iter().enumerate() {
        // A rule that never matches is reported by itself; comparing it says nothing more.
        if r.canon[0] != b'/' && r.canon[0] != b'*' {
            continue;
        }
        let mut reported = false;
        // Overridden by the other kind.
        if !r.has_index_html() {
            for s in &rules {
                if s.rule.kind() == r.rule.kind() || !covers(&s.canon, &r.canon) {
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
                            r.rule,
                            s.rule
                        ),
                        vec![s.rule.line()],
                    );
                    reported = true;
                    break;
                }
            }
        }
        if reported {
            continue;
        }
        // Shadowed by the same kind.
        if !r.has_index_html() {
            for (si, s) in rules.iter().enumerate() {
                if si == ri || s.rule.kind() != r.rule.kind() || !covers(&s.canon, &r.canon) {
                    continue;
                }
                if !(s.priority() > r.priority() || (s.priority() == r.priority() && si < ri)) {
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
                reported = true;
                break;
            }
        }
        if reported || r.rule.kind() != RuleKind::Allow {
            continue;
        }
        // Ties, reported at the Allow (with the first Disallow it ties with).
        for d in &rules {
            if d.rule.kind() != RuleKind::Disallow {
                continue;
            }
            if d.canon[0] != b'/' && d.canon[0] != b'*' {
                continue;
            }
            if d.priority() == r.priority()
                && !covers(&r.canon, &d.canon)
                && overlap(&r.canon, &d.canon)
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
                    "make the rule that should win longer (for example spell out more of the path)".into(),
                    vec![d.rule.line()],
                );
                // One tie per Allow is enough to show the problem.
                break;
            }
        }
    }
    order_dependent(&rules, out);
}

/// Pairs of literal rules of different kinds where the first in file order is a prefix of the
/// later one: Google picks the longer, first-match crawlers the first. Reported once per first
/// rule, at its line, with every later rule it hides from first-match crawlers.
fn order_dependent(rules: &[Prepared<'_>], out: &mut Out) {
    // first rule index -> later rule indices
    let mut pairs: Vec<(usize, Vec<usize>)> = Vec::new();
    for (li, later) in rules.iter().enumerate() {
        if !is_literal(&later.canon) || !later.canon.starts_with(b"/") {
            continue;
        }
        let first = rules[..li].iter().position(|f| {
            f.rule.kind() != later.rule.kind()
                && is_literal(&f.canon)
                && later.canon.starts_with(&f.canon)
                && (f.canon.len() < later.canon.len() || f.rule.kind() == RuleKind::Disallow)
        });
        if let Some(fi) = first {
            match pairs.iter_mut().find(|(f, _)| *f == fi) {
                Some((_, v)) => v.push(li),
                None => pairs.push((fi, vec![li])),
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
            later.iter().map(|&i| rules[i].rule.line()).collect(),
        );
    }
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
    // (lower-case token or "*", first group index, its line)
    let mut seen: Vec<(String, usize, u32)> = Vec::new();
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
            match seen.iter().find(|(k, _, _)| *k == key) {
                Some((_, first, line)) if *first != gi && !reported_here => {
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
                None => seen.push((key, gi, a.line())),
            }
        }
    }
}

/// Groups chosen, lost rule lines, tokens, line of the first token.
type LostReport = (Vec<usize>, Vec<u32>, Vec<String>, u32);

/// A named group that drops the `*` group's restrictions.
fn wildcard_lost(robots: &Robots, out: &mut Out) {
    let groups = robots.groups();
    let wild: Vec<Prepared<'_>> = groups
        .iter()
        .filter(|g| g.is_wildcard())
        .flat_map(|g| g.rules())
        .filter(|r| {
            r.kind() == RuleKind::Disallow && matches!(r.pattern().first(), Some(b'/' | b'*'))
        })
        .map(Prepared::new)
        .collect();
    if wild.is_empty() {
        return;
    }
    // Distinct tokens in file order, with the line of their first mention.
    let mut tokens: Vec<(String, u32)> = Vec::new();
    for g in groups {
        for a in g.agents() {
            if !a.is_wildcard()
                && !a.token().is_empty()
                && !tokens
                    .iter()
                    .any(|(t, _)| t.eq_ignore_ascii_case(a.token()))
            {
                tokens.push((a.token().to_string(), a.line()));
            }
        }
    }
    // (groups, lost lines) -> tokens and first line
    let mut reports: Vec<LostReport> = Vec::new();
    for (token, line) in tokens {
        let chosen: Vec<usize> = (0..groups.len())
            .filter(|&i| groups[i].names(&token))
            .collect();
        if chosen.iter().any(|&i| groups[i].is_wildcard()) {
            continue;
        }
        let named: Vec<Prepared<'_>> = chosen
            .iter()
            .flat_map(|&i| groups[i].rules())
            .filter(|r| !r.pattern().is_empty())
            .map(Prepared::new)
            .collect();
        // An explicit "allow everything" group (`Disallow:` or `Allow: /` only) is deliberate.
        let explicit_allow_all = chosen.iter().any(|&i| !groups[i].rules().is_empty())
            && named
                .iter()
                .all(|r| r.rule.kind() == RuleKind::Allow && (r.canon == b"/" || r.canon == b"/*"));
        if explicit_allow_all {
            continue;
        }
        if wild.len().saturating_mul(named.len()) > MAX_PAIRWISE * MAX_PAIRWISE {
            // Too many comparisons; say nothing rather than guess.
            continue;
        }
        let lost: Vec<u32> = wild
            .iter()
            .filter(|w| {
                !named
                    .iter()
                    .any(|n| n.rule.kind() == RuleKind::Disallow && covers(&n.canon, &w.canon))
            })
            .map(|w| w.rule.line())
            .collect();
        if lost.is_empty() {
            continue;
        }
        match reports
            .iter_mut()
            .find(|(g, l, _, _)| *g == chosen && *l == lost)
        {
            Some(rep) => rep.2.push(token),
            None => reports.push((chosen, lost, vec![token], line)),
        }
    }
    for (_, lost, tokens, line) in reports {
        let shown: Vec<String> = wild
            .iter()
            .filter(|w| lost.contains(&w.rule.line()))
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
            lost,
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
