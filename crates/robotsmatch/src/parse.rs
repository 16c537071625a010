//! Parsing: any bytes to groups, rules, sitemaps, other directives and warnings.
//!
//! Parsing never fails. It follows Google's open-source robots.txt parser line for line where
//! that parser defines behaviour (line endings, byte-order marks, key spellings, a missing
//! colon, comments, the maximum line length) and records everything a crawler ignores as a
//! [`Warning`] with its line number, so that `lint` can explain it.
//!
//! The grouping rule is RFC 9309's: one or more consecutive `user-agent` lines followed by
//! rules form a group; a `user-agent` line after a rule starts the next group; `sitemap` and
//! unknown lines neither end a group nor start one; rules before the first `user-agent` belong
//! to no group and are ignored.
//!
//! Per-crawler data is not grouped that way: a `crawl-delay` or `request-rate` line (any line
//! kept as a [`Directive`]) belongs to the `user-agent` lines directly above it, the last run
//! of consecutive `user-agent` lines before it ([`Directive::user_agents`]). In
//! `User-agent: bingbot` / `Crawl-delay: 1` / `User-agent: msnbot` / `Crawl-delay: 2` /
//! `User-agent: *` / `Disallow: /x` the three lines form one group for the rules, but the
//! delay 1 is bingbot's, 2 is msnbot's, and `*` has none.
#![forbid(unsafe_code)]

use std::fmt;

use crate::bytescan::{find2_any, LineMasks};

/// Limits applied while parsing. The defaults are those of Google's crawler and library.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParseConfig {
    max_bytes: usize,
    max_line_len: usize,
}

impl ParseConfig {
    /// Google's crawler reads the first 500 KiB of a robots.txt file.
    pub const DEFAULT_MAX_BYTES: usize = 500 * 1024;
    /// Google's library keeps the first 16,663 bytes of a line (`2083 * 8 - 1`).
    pub const DEFAULT_MAX_LINE_LEN: usize = 2083 * 8 - 1;

    /// The default limits: 500 KiB per file, 16,663 bytes per line.
    pub fn new() -> ParseConfig {
        ParseConfig {
            max_bytes: Self::DEFAULT_MAX_BYTES,
            max_line_len: Self::DEFAULT_MAX_LINE_LEN,
        }
    }

    /// Sets how many bytes of a file are parsed. Bytes past the limit are ignored, and so is
    /// a line that the limit cuts in two (a cut `Disallow: /private` must not become
    /// `Disallow: /`). A [`WarningKind::FileTruncated`] records it.
    pub fn max_bytes(mut self, bytes: usize) -> ParseConfig {
        self.max_bytes = bytes;
        self
    }

    /// Sets how many bytes of one line are kept; the rest of the line is ignored.
    pub fn max_line_len(mut self, bytes: usize) -> ParseConfig {
        self.max_line_len = bytes.max(1);
        self
    }

    /// The maximum number of bytes parsed.
    pub fn get_max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// The maximum number of bytes kept per line.
    pub fn get_max_line_len(&self) -> usize {
        self.max_line_len
    }
}

impl Default for ParseConfig {
    fn default() -> ParseConfig {
        ParseConfig::new()
    }
}

/// The kind of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleKind {
    /// `Allow:`
    Allow,
    /// `Disallow:`
    Disallow,
}

impl RuleKind {
    /// `"allow"` or `"disallow"`.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Allow => "allow",
            RuleKind::Disallow => "disallow",
        }
    }

    /// `"Allow"` or `"Disallow"`, as the key is usually written.
    pub fn key(self) -> &'static str {
        match self {
            RuleKind::Allow => "Allow",
            RuleKind::Disallow => "Disallow",
        }
    }
}

impl fmt::Display for RuleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One `allow` or `disallow` line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    kind: RuleKind,
    pattern: Box<[u8]>,
    line: u32,
}

impl Rule {
    /// Makes a rule; `pattern` is the value as written in the file.
    pub fn new(kind: RuleKind, pattern: &[u8], line: u32) -> Rule {
        Rule {
            kind,
            pattern: pattern.into(),
            line,
        }
    }

    /// Allow or Disallow.
    pub fn kind(&self) -> RuleKind {
        self.kind
    }

    /// The pattern exactly as written (white space and comment removed).
    pub fn pattern(&self) -> &[u8] {
        &self.pattern
    }

    /// The pattern as text; bytes that are not UTF-8 show as U+FFFD.
    pub fn pattern_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.pattern)
    }

    /// The 1-based line number in the file.
    pub fn line(&self) -> u32 {
        self.line
    }
}

impl fmt::Display for Rule {
    /// Formats as `Allow: pattern` or `Disallow: pattern`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_ref().fmt(f)
    }
}

impl Rule {
    /// A borrowed view of the rule, the form a [`Matcher`](crate::Matcher) hands out.
    pub fn as_ref(&self) -> RuleRef<'_> {
        RuleRef {
            kind: self.kind,
            pattern: &self.pattern,
            line: self.line,
        }
    }
}

/// A rule borrowed from where it is stored: a [`Matcher`](crate::Matcher) keeps the rules it
/// applies in one buffer (no allocation per rule), and its decisions point into it.
///
/// It has the accessors of [`Rule`]; [`RuleRef::to_rule`] makes an owned copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleRef<'a> {
    kind: RuleKind,
    pattern: &'a [u8],
    line: u32,
}

impl<'a> RuleRef<'a> {
    /// Makes a view; `pattern` is the value as written in the file.
    pub fn new(kind: RuleKind, pattern: &'a [u8], line: u32) -> RuleRef<'a> {
        RuleRef {
            kind,
            pattern,
            line,
        }
    }

    /// Allow or Disallow.
    pub fn kind(&self) -> RuleKind {
        self.kind
    }

    /// The pattern exactly as written (white space and comment removed).
    pub fn pattern(&self) -> &'a [u8] {
        self.pattern
    }

    /// The pattern as text; bytes that are not UTF-8 show as U+FFFD.
    pub fn pattern_lossy(&self) -> std::borrow::Cow<'a, str> {
        String::from_utf8_lossy(self.pattern)
    }

    /// The 1-based line number in the file.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// An owned copy.
    pub fn to_rule(&self) -> Rule {
        Rule::new(self.kind, self.pattern, self.line)
    }
}

impl PartialEq<Rule> for RuleRef<'_> {
    fn eq(&self, other: &Rule) -> bool {
        *self == other.as_ref()
    }
}

impl fmt::Display for RuleRef<'_> {
    /// Formats as `Allow: pattern` or `Disallow: pattern`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.key(), self.pattern_lossy())
    }
}

/// One `user-agent` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserAgent {
    value: String,
    token: String,
    wildcard: bool,
    line: u32,
}

impl UserAgent {
    /// The value as written (non-UTF-8 bytes shown as U+FFFD).
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The product token that is compared with the crawler's: the value up to the first white
    /// space, `/`, `;`, `(`, `)` or `*` (`Googlebot/2.1` gives `Googlebot`; `MJ12bot`,
    /// `AI2Bot` and `360Spider` stay whole). Empty for `*` and for values that start with one
    /// of those characters.
    ///
    /// Google's library reads less: the leading run of letters, `-` and `_`, so that
    /// `MJ12bot` is `MJ` there ([`UserAgent::google_token`]).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The token Google's library compares instead: the leading run of ASCII letters, `-` and
    /// `_` (`MJ12bot` gives `MJ`, `Mail.RU_Bot` gives `Mail`, `360Spider` gives nothing). Used
    /// to explain where Google reads a file differently.
    pub fn google_token(&self) -> &str {
        let n = google_token(self.value.as_bytes()).len();
        if self.wildcard {
            ""
        } else {
            &self.value[..n]
        }
    }

    /// True for `*` (alone, or followed by white space).
    pub fn is_wildcard(&self) -> bool {
        self.wildcard
    }

    /// The 1-based line number.
    pub fn line(&self) -> u32 {
        self.line
    }
}

/// A group: consecutive `user-agent` lines and the rules that follow them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Group {
    agents: Vec<UserAgent>,
    rules: Vec<Rule>,
}

impl Group {
    /// The group's `user-agent` lines.
    pub fn agents(&self) -> &[UserAgent] {
        &self.agents
    }

    /// The group's rules, in file order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// True when one of the group's agents is `*`.
    pub fn is_wildcard(&self) -> bool {
        self.agents.iter().any(|a| a.wildcard)
    }

    /// True when one of the group's agent tokens equals `token`, ignoring ASCII case.
    pub fn names(&self, token: &str) -> bool {
        !token.is_empty()
            && self
                .agents
                .iter()
                .any(|a| !a.wildcard && a.token.eq_ignore_ascii_case(token))
    }
}

/// A `sitemap` line. Sitemaps belong to the file, not to a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sitemap {
    url: String,
    line: u32,
}

impl Sitemap {
    /// The URL as written.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The 1-based line number.
    pub fn line(&self) -> u32 {
        self.line
    }
}

/// What kind of directive a [`Directive`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectiveKind {
    /// `crawl-delay` (ignored by Google; honoured by some other crawlers).
    CrawlDelay,
    /// `host` (a Yandex extension; ignored by Google).
    Host,
    /// `request-rate` (an old extension).
    RequestRate,
    /// `noindex` in robots.txt (never supported by Google; ignored since 2019).
    Noindex,
    /// Any other key.
    Unknown,
}

/// A line with a key other than `user-agent`, `allow`, `disallow` or `sitemap`, kept as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    kind: DirectiveKind,
    key: String,
    value: String,
    line: u32,
    group: Option<usize>,
    /// `user-agent` lines this line belongs to, as indices into the group's agents.
    agents: (usize, usize),
}

impl Directive {
    /// What the key was recognised as.
    pub fn kind(&self) -> DirectiveKind {
        self.kind
    }

    /// The key as written.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The value as written.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The 1-based line number.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The index (into [`Robots::groups`]) of the group the line appeared in, if any.
    pub fn group(&self) -> Option<usize> {
        self.group
    }

    /// The `user-agent` lines the line belongs to: the run of consecutive `user-agent` lines
    /// directly above it (blank lines and comments between them do not count; any other line
    /// ends the run). Empty for a line before any `user-agent` line.
    ///
    /// ```
    /// use robotsmatch::Robots;
    ///
    /// let robots = Robots::parse(
    ///     b"User-agent: bingbot\nCrawl-delay: 1\nUser-agent: msnbot\nCrawl-delay: 2\n\
    ///       User-agent: *\nDisallow: /login\n",
    /// );
    /// assert_eq!(robots.groups().len(), 1); // one group for the rules, as Google groups them
    /// let delays = robots.directives();
    /// assert_eq!(delays[0].user_agents(&robots)[0].value(), "bingbot");
    /// assert_eq!(delays[1].user_agents(&robots)[0].value(), "msnbot");
    /// assert_eq!(delays[1].user_agents(&robots).len(), 1);
    /// ```
    pub fn user_agents<'r>(&self, robots: &'r Robots) -> &'r [UserAgent] {
        match self.group.and_then(|g| robots.groups.get(g)) {
            Some(g) => g.agents.get(self.agents.0..self.agents.1).unwrap_or(&[]),
            None => &[],
        }
    }
}

/// Something in the file that a crawler ignores or reads differently from how it looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    line: u32,
    kind: WarningKind,
}

impl Warning {
    /// The 1-based line number the warning is about.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// What is wrong.
    pub fn kind(&self) -> &WarningKind {
        &self.kind
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

/// The things the parser reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// An `allow` or `disallow` line before any `user-agent` line: it belongs to no group.
    RuleOutsideGroup,
    /// No `:` after the key; the line was read as `key value` (Google accepts this when the
    /// line is exactly two words).
    MissingColon,
    /// A line that is neither blank, a comment, nor `key: value`: it is ignored.
    Unparsable,
    /// A key that Google accepts as a spelling of a known key (`disalow`, `useragent`...).
    MisspelledKey {
        /// The key as written.
        written: String,
        /// The key it is read as.
        read_as: &'static str,
    },
    /// A key no crawler of the default profile uses.
    UnknownKey {
        /// The key as written.
        key: String,
    },
    /// A line longer than the maximum; the rest of it is ignored.
    LineTruncated {
        /// The line's length in bytes.
        len: usize,
        /// The number of bytes kept.
        kept: usize,
    },
    /// A NUL byte: Google's parser ends the line there.
    NulByte,
    /// The file is longer than the parse limit; this line and all after it are ignored.
    FileTruncated {
        /// The limit in bytes.
        limit: usize,
        /// The file's size in bytes.
        size: usize,
    },
    /// A `user-agent` value that has no product token (it starts with `/`, `;`, `(`, `)` or
    /// `*`, for example `*bot` or `/bot`): it matches no crawler.
    NoProductToken {
        /// The value as written.
        value: String,
    },
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::RuleOutsideGroup => {
                f.write_str("rule before any user-agent line: it applies to no crawler")
            }
            WarningKind::MissingColon => {
                f.write_str("missing ':' after the key; read as 'key value'")
            }
            WarningKind::Unparsable => f.write_str("not a 'key: value' line; ignored"),
            WarningKind::MisspelledKey { written, read_as } => {
                write!(f, "key '{written}' is read as '{read_as}'")
            }
            WarningKind::UnknownKey { key } => write!(f, "unknown key '{key}'; ignored"),
            WarningKind::LineTruncated { len, kept } => {
                write!(f, "line of {len} bytes; only the first {kept} are read")
            }
            WarningKind::NulByte => f.write_str("NUL byte: the rest of the line is ignored"),
            WarningKind::FileTruncated { limit, size } => write!(
                f,
                "file of {size} bytes is over the {limit}-byte limit; this line and the rest are ignored"
            ),
            WarningKind::NoProductToken { value } => write!(
                f,
                "user-agent '{value}' has no product token (it starts with '/', ';', '(', ')' or '*'); it matches no crawler"
            ),
        }
    }
}

/// A parsed robots.txt file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Robots {
    groups: Vec<Group>,
    sitemaps: Vec<Sitemap>,
    directives: Vec<Directive>,
    warnings: Vec<Warning>,
    lines: u32,
    size: usize,
    parsed: usize,
}

impl Robots {
    /// Parses `body` with the default [`ParseConfig`]. Never fails.
    ///
    /// ```
    /// let robots = robotsmatch::Robots::parse(b"User-agent: *\nDisallow: /private\n");
    /// assert_eq!(robots.groups().len(), 1);
    /// assert_eq!(robots.groups()[0].rules()[0].line(), 2);
    /// ```
    pub fn parse(body: &[u8]) -> Robots {
        Robots::parse_with(body, &ParseConfig::new())
    }

    /// Parses `body` with the given limits. Never fails.
    pub fn parse_with(body: &[u8], config: &ParseConfig) -> Robots {
        Parser::new(config).run(body)
    }

    /// The groups, in file order.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// The sitemap lines.
    pub fn sitemaps(&self) -> &[Sitemap] {
        &self.sitemaps
    }

    /// Other directives (`crawl-delay`, `host`, unknown keys...), in file order.
    pub fn directives(&self) -> &[Directive] {
        &self.directives
    }

    /// What the parser ignored or read differently, in line order.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The number of lines parsed.
    pub fn line_count(&self) -> u32 {
        self.lines
    }

    /// The size of the whole input in bytes.
    pub fn size(&self) -> usize {
        self.size
    }

    /// How many bytes were parsed (less than [`Robots::size`] when the file was over the limit).
    pub fn parsed_size(&self) -> usize {
        self.parsed
    }

    /// The total number of rules in all groups.
    pub fn rule_count(&self) -> usize {
        self.groups.iter().map(|g| g.rules.len()).sum()
    }
}

/// How a key was recognised.
pub(crate) enum Key<'a> {
    UserAgent,
    Rule(RuleKind),
    Sitemap,
    Other(DirectiveKind, &'a [u8]),
}

/// Recognises a key as Google does: a case-insensitive prefix match against the known names
/// and the misspellings Google tolerates. Returns the key and its canonical spelling.
fn classify_key(key: &[u8]) -> (Key<'_>, &'static str) {
    const SPELLINGS: &[(&str, &str)] = &[
        ("user-agent", "user-agent"),
        ("useragent", "user-agent"),
        ("user agent", "user-agent"),
        ("allow", "allow"),
        ("disallow", "disallow"),
        ("dissallow", "disallow"),
        ("dissalow", "disallow"),
        ("disalow", "disallow"),
        ("diasllow", "disallow"),
        ("disallaw", "disallow"),
        ("sitemap", "sitemap"),
        ("site-map", "sitemap"),
    ];
    // PERF: only the spellings that start with the key's first letter can match (this loop
    // was a tenth of reading a file when it tried all twelve).
    let first = key.first().map_or(0, |b| b.to_ascii_lowercase());
    for &(spelling, canonical) in SPELLINGS {
        if spelling.as_bytes()[0] == first && starts_with_ignore_case(key, spelling.as_bytes()) {
            let k = match canonical {
                "user-agent" => Key::UserAgent,
                "allow" => Key::Rule(RuleKind::Allow),
                "disallow" => Key::Rule(RuleKind::Disallow),
                _ => Key::Sitemap,
            };
            return (k, canonical);
        }
    }
    let kind = if key.eq_ignore_ascii_case(b"crawl-delay") {
        DirectiveKind::CrawlDelay
    } else if key.eq_ignore_ascii_case(b"host") {
        DirectiveKind::Host
    } else if key.eq_ignore_ascii_case(b"request-rate") {
        DirectiveKind::RequestRate
    } else if key.eq_ignore_ascii_case(b"noindex") {
        DirectiveKind::Noindex
    } else {
        DirectiveKind::Unknown
    };
    (Key::Other(kind, key), "")
}

fn starts_with_ignore_case(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// White space as C's `isspace` (and absl's `ascii_isspace`) define it.
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    // PERF: one shift and test, branch-free (as a `matches!` over six values, the line
    // readers' trimming cost about 10 instructions a byte).
    const SPACES: u64 = 1 << b' ' | 1 << b'\t' | 1 << b'\n' | 1 << 0x0B | 1 << 0x0C | 1 << b'\r';
    b <= b' ' && SPACES >> b & 1 != 0
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if is_space(*first) {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if is_space(*last) {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// The product token at the start of a `user-agent` value or a crawler's name: everything
/// up to the first white space, `/`, `;`, `(`, `)` or `*` (issue 15: `MJ12bot`, `AI2Bot`
/// and `360Spider` are whole names, never cut down to a prefix). A `*` ends it because it is
/// never part of a crawler's name: `Mediapartners-Google*` names `Mediapartners-Google`, as
/// Google reads it.
pub(crate) fn leading_token(value: &[u8]) -> &[u8] {
    let end = value
        .iter()
        .position(|&b| is_space(b) || matches!(b, b'/' | b';' | b'(' | b')' | b'*'))
        .unwrap_or(value.len());
    &value[..end]
}

/// The token Google's library reads at the start of a `user-agent` value: the leading run of
/// ASCII letters, `-` and `_`.
pub(crate) fn google_token(value: &[u8]) -> &[u8] {
    let end = value
        .iter()
        .position(|&b| !(b.is_ascii_alphabetic() || b == b'-' || b == b'_'))
        .unwrap_or(value.len());
    &value[..end]
}

/// Splits a line into key and value as Google's `GetKeyAndValueFrom` does. `Err(())` means the
/// line is not a key-value line; `Ok((key, value, had_colon))` otherwise.
fn split_key_value(line: &[u8], colon: Option<usize>) -> Result<(&[u8], &[u8], bool), ()> {
    let (sep, had_colon) = match colon {
        Some(i) => (i, true),
        None => {
            // Google accepts white space instead of the colon when the line is exactly two
            // words (the line has already been trimmed).
            let i = line
                .iter()
                .position(|&b| b == b' ' || b == b'\t')
                .ok_or(())?;
            let rest = &line[i..];
            let start = rest
                .iter()
                .position(|&b| b != b' ' && b != b'\t')
                .unwrap_or(rest.len());
            if rest[start..].iter().any(|&b| b == b' ' || b == b'\t') {
                return Err(());
            }
            (i, false)
        }
    };
    let key = trim(&line[..sep]);
    if key.is_empty() {
        return Err(());
    }
    Ok((key, trim(&line[sep + 1..]), had_colon))
}

/// The line masks of a text (see [`crate::bytescan::line_masks`]) over a span of 128 bytes
/// that moves forward 64 at a time: a line that fits in the span is read with bit arithmetic
/// alone.
struct Span<'a> {
    text: &'a [u8],
    /// Where the span starts (a multiple of 64).
    base: usize,
    eol: u128,
    cut: u128,
    colon: u128,
}

impl<'a> Span<'a> {
    fn new(text: &'a [u8]) -> Span<'a> {
        let mut s = Span {
            text,
            base: 0,
            eol: 0,
            cut: 0,
            colon: 0,
        };
        s.load(0);
        s
    }

    /// Makes the span start at `base` (a multiple of 64).
    fn load(&mut self, base: usize) {
        let (a, b) = if base == self.base + 64 && base != 0 {
            // Reuse the upper window.
            let a = LineMasks {
                eol: (self.eol >> 64) as u64,
                cut: (self.cut >> 64) as u64,
                colon: (self.colon >> 64) as u64,
            };
            (a, crate::bytescan::line_masks(self.text, base + 64))
        } else {
            (
                crate::bytescan::line_masks(self.text, base),
                crate::bytescan::line_masks(self.text, base + 64),
            )
        };
        self.base = base;
        self.eol = u128::from(a.eol) | u128::from(b.eol) << 64;
        self.cut = u128::from(a.cut) | u128::from(b.cut) << 64;
        self.colon = u128::from(a.colon) | u128::from(b.colon) << 64;
    }

    /// The first position in `from..to` of a byte in `bits` (`from >= base`, `to <= base +
    /// 128`).
    #[inline]
    fn first(&self, bits: u128, from: usize, to: usize) -> Option<usize> {
        if from >= to {
            return None;
        }
        // PERF: one 128-bit shift and a count, rather than a mask built from two shifts (this
        // function was a fifth of reading a file).
        let skip = (bits >> (from - self.base)).trailing_zeros() as usize;
        (skip < to - from).then_some(from + skip)
    }
}

/// Where, in a line, its content ends (`#` or NUL, within the line limit) and its first `:`
/// is, as found by [`for_each_line`]'s scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Marks {
    cut: Option<usize>,
    colon: Option<usize>,
}

/// What [`for_each_line`] read.
pub(crate) struct LinesRead {
    /// The number of lines.
    pub(crate) lines: u32,
    /// The bytes parsed (the byte-order mark included).
    pub(crate) parsed: usize,
    /// True when the file was over the limit (the line the limit cuts is dropped).
    pub(crate) truncated: bool,
}

/// The index of the first line end of `text`, `\n` or `\r`: where a line ends in a
/// robots.txt file as Google's parser reads it (LF, CR LF or a lone CR), and in the crawl logs
/// that `robotsmatch-bulk` reads. Fast on lines of a few dozen bytes, linear on any.
///
/// ```
/// use robotsmatch::parse::find_line_end;
///
/// assert_eq!(find_line_end(b"/a?b=1\r\n/c"), Some(6));
/// assert_eq!(find_line_end(b"no end"), None);
/// ```
#[inline]
pub fn find_line_end(text: &[u8]) -> Option<usize> {
    crate::bytescan::find_line_end(text)
}

/// Calls `f` with every line of `body` and its 1-based number, as Google's parser splits
/// them: LF, CR LF or CR endings; a (partial) UTF-8 byte-order mark skipped; only the whole
/// lines within `config`'s byte limit.
// PERF: inlined into each caller, so that the call of `f` for every line is inlined too (left
// to the compiler, a change elsewhere in the function could tip it into a call per line).
#[inline(always)]
pub(crate) fn for_each_line<'b>(
    body: &'b [u8],
    config: &ParseConfig,
    mut f: impl FnMut(u32, &'b [u8], Marks),
) -> LinesRead {
    // A UTF-8 byte-order mark, or any prefix of one, is skipped (Google does the same).
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let bom = body.iter().zip(BOM).take_while(|(a, b)| a == b).count();
    let mut text = &body[bom..];
    let mut truncated = false;
    if body.len() > config.max_bytes {
        // Parse whole lines only: drop the line the limit cuts in two.
        let limit = config.max_bytes.saturating_sub(bom);
        let head = &text[..limit.min(text.len())];
        let end = memchr::memrchr2(b'\n', b'\r', head).map_or(0, |i| i + 1);
        text = &text[..end];
        truncated = true;
    }
    // PERF: one SIMD pass finds line ends, comments and colons for every line, instead of
    // three `memchr` calls per line (measured: they were a third of reading a file).
    let mut span = Span::new(text);
    let mut line_no: u32 = 0;
    let mut pos = 0;
    loop {
        if pos >= span.base + 64 {
            span.load(pos & !63);
        }
        let limit = text.len().min(span.base + 128);
        let end = match span.first(span.eol, pos, limit) {
            Some(e) => e,
            None if limit == text.len() => text.len(),
            // A line longer than the span.
            None => find2_far(&text[limit..], b'\n', b'\r').map_or(text.len(), |i| limit + i),
        };
        line_no += 1;
        let kept = end.min(pos.saturating_add(config.max_line_len));
        let (cut, colon) = if kept <= span.base + 128 {
            let cut = span.first(span.cut, pos, kept);
            (cut, span.first(span.colon, pos, cut.unwrap_or(kept)))
        } else {
            let line = &text[pos..kept];
            let cut = find2_far(line, 0, b'#').map(|c| pos + c);
            let colon = find2_far(&text[pos..cut.unwrap_or(kept)], b':', b':').map(|c| pos + c);
            (cut, colon)
        };
        f(
            line_no,
            &text[pos..end],
            Marks {
                cut: cut.map(|c| c - pos),
                colon: colon.map(|c| c - pos),
            },
        );
        if end == text.len() {
            break;
        }
        pos = end + 1;
        if text[end] == b'\r' && text.get(pos) == Some(&b'\n') {
            pos += 1;
        }
        if pos == text.len() {
            // A final line ending does not start another (empty) line worth reporting, but
            // Google counts it; it is blank, so nothing is emitted for it.
            break;
        }
    }
    LinesRead {
        lines: line_no,
        parsed: bom + text.len(),
        truncated,
    }
}

/// One line as the parser reads it.
pub(crate) struct LineParts<'a> {
    /// The line's length when it was cut at the line limit.
    pub(crate) cut: Option<usize>,
    /// True when a NUL byte ended the line.
    pub(crate) nul: bool,
    pub(crate) content: Content<'a>,
}

/// What a line holds once cut, stripped of its comment and trimmed.
pub(crate) enum Content<'a> {
    /// Nothing (or only a comment).
    Blank,
    /// Not a `key: value` line.
    Unparsable,
    /// A key and its value.
    KeyValue {
        key: Key<'a>,
        /// The key as written.
        raw_key: &'a [u8],
        /// The key's canonical spelling (empty for keys other than the known four).
        canonical: &'static str,
        value: &'a [u8],
        had_colon: bool,
    },
}

/// [`find2_any`] out of line, for the rare paths of [`for_each_line`] (a line longer than its
/// window of masks).
// PERF: inlined there, the search made the line reader too large to be inlined into the parser,
// whose call per line then cost more than memchr's set-up saved.
#[inline(never)]
fn find2_far(s: &[u8], a: u8, b: u8) -> Option<usize> {
    find2_any(s, a, b)
}

/// Reads one line as Google's parser does: cut at the line limit, ended by a NUL byte,
/// stripped of its `#` comment and white space, split into key and value. `marks` are the
/// line's (from [`for_each_line`]).
#[inline]
pub(crate) fn split_line<'a>(line: &'a [u8], marks: Marks, config: &ParseConfig) -> LineParts<'a> {
    let mut cut = None;
    let mut kept = line;
    if line.len() > config.max_line_len {
        cut = Some(line.len());
        kept = &line[..config.max_line_len];
    }
    // The line ends at its first NUL or `#`, whichever comes first (a NUL after a `#` is
    // still reported).
    let mut nul = false;
    let mut content = kept;
    if let Some(i) = marks.cut {
        nul = kept[i] == 0 || kept[i..].contains(&0);
        content = &kept[..i];
    }
    // PERF: most lines are `Disallow: x`, `Allow: x` or `User-agent: x` as spelled: read them
    // without the general splitting (the same result: the key ends at the colon, has no white
    // space around it and is spelled as its canonical name).
    if let Some((key, canonical, value)) = usual_line(content, marks.colon) {
        return LineParts {
            cut,
            nul,
            content: Content::KeyValue {
                key,
                // (The key ends at the colon, spelled as its canonical name.)
                raw_key: &content[..canonical.len()],
                canonical,
                value,
                had_colon: true,
            },
        };
    }
    let start = content.iter().take_while(|&&b| is_space(b)).count();
    let trimmed = trim(content);
    let content = if trimmed.is_empty() {
        Content::Blank
    } else {
        match split_key_value(trimmed, marks.colon.map(|c| c - start)) {
            Err(()) => Content::Unparsable,
            Ok((raw_key, value, had_colon)) => {
                let (key, canonical) = classify_key(raw_key);
                Content::KeyValue {
                    key,
                    raw_key,
                    canonical,
                    value,
                    had_colon,
                }
            }
        }
    };
    LineParts { cut, nul, content }
}

/// The key, its canonical name and the value of a line's `content` (cut at its comment)
/// whose first colon is at `colon`, when the key is `allow`, `disallow` or `user-agent` (any
/// case) directly followed by the colon: the usual line, read without the general splitting.
#[inline(always)]
fn usual_line(content: &[u8], colon: Option<usize>) -> Option<(Key<'static>, &'static str, &[u8])> {
    let c = colon?;
    let (key, canonical) = exact_key(content, c)?;
    Some((key, canonical, trim(&content[c + 1..])))
}

/// The key of a line whose colon is at `colon` when the line starts with `allow`,
/// `disallow` or `user-agent` (any case) directly followed by the colon.
#[inline(always)]
fn exact_key(line: &[u8], colon: usize) -> Option<(Key<'static>, &'static str)> {
    // Every byte of the three names is a letter or `-`; `b | 0x20` equals a lower-case letter
    // only for that letter in either case, and equals `-` only for `-` and CR, which a line
    // never holds.
    let word = |at: usize| -> u64 {
        u64::from_le_bytes(line[at..at + 8].try_into().unwrap_or([0; 8])) | 0x2020_2020_2020_2020
    };
    match colon {
        5 => {
            let allow = if line.len() >= 8 {
                word(0) & 0xFF_FFFF_FFFF == u64::from_le_bytes(*b"allow\0\0\0")
            } else {
                line.iter()
                    .take(5)
                    .fold(0u64, |acc, &b| acc << 8 | u64::from(b | 0x20))
                    == u64::from_be_bytes([0, 0, 0, b'a', b'l', b'l', b'o', b'w'])
            };
            allow.then_some((Key::Rule(RuleKind::Allow), "allow"))
        }
        8 => (word(0) == u64::from_le_bytes(*b"disallow"))
            .then_some((Key::Rule(RuleKind::Disallow), "disallow")),
        10 => (word(0) == u64::from_le_bytes(*b"user-age")
            && line[8] | 0x20 == b'n'
            && line[9] | 0x20 == b't')
            .then_some((Key::UserAgent, "user-agent")),
        _ => None,
    }
}

/// The key and value of a `user-agent`, `allow` or `disallow` line (in any of the spellings
/// [`split_line`] reads); `None` for every other line, which the selective readers skip.
// PERF: inlined into the selective readers' closure per line, the usual line costs no call.
#[inline(always)]
pub(crate) fn key_value<'a>(
    line: &'a [u8],
    marks: Marks,
    config: &ParseConfig,
) -> Option<(Key<'a>, &'a [u8])> {
    // What the line holds before its comment, within the line limit (the marks are within it).
    let content = &line[..marks.cut.unwrap_or(line.len().min(config.max_line_len))];
    // PERF: the usual `Disallow: x` line (its key spelled as its name and directly followed by
    // the colon) without building the parser's whole view of the line (what `split_line`
    // returns is large; the selective readers keep only key and value).
    if line.len() <= config.max_line_len {
        if let Some((key, _, value)) = usual_line(content, marks.colon) {
            return Some((key, value));
        }
    }
    // PERF: blank lines, comments, `Sitemap:` and other keys end here: every spelling of the
    // three keys starts with `u`, `a` or `d` (a letter: `| 0x20` lower-cases it, and maps no
    // other byte to these three), and the key starts at the line's first byte that is not
    // white space.
    match content.iter().find(|&&b| !is_space(b)) {
        Some(&b) if matches!(b | 0x20, b'u' | b'a' | b'd') => key_value_slow(line, marks, config),
        _ => None,
    }
}

/// [`key_value`] for lines other than the usual spelling, out of line.
#[inline(never)]
fn key_value_slow<'a>(
    line: &'a [u8],
    marks: Marks,
    config: &ParseConfig,
) -> Option<(Key<'a>, &'a [u8])> {
    match split_line(line, marks, config).content {
        Content::KeyValue {
            key: key @ (Key::UserAgent | Key::Rule(_)),
            value,
            ..
        } => Some((key, value)),
        Content::KeyValue { .. } | Content::Blank | Content::Unparsable => None,
    }
}

/// Whether a `user-agent` value is the wildcard (Google: `*` alone, or followed by white
/// space), and its product token (empty for the wildcard).
#[inline]
pub(crate) fn user_agent_token(value: &[u8]) -> (bool, &[u8]) {
    let wildcard = value.first() == Some(&b'*') && value.get(1).is_none_or(|&b| is_space(b));
    if wildcard {
        (true, &[])
    } else {
        (false, leading_token(value))
    }
}

/// The parser's state while it walks the lines.
struct Parser<'c> {
    config: &'c ParseConfig,
    robots: Robots,
    /// True after a rule line: the next `user-agent` line starts a new group.
    after_rule: bool,
    /// True when the last line with content was a `user-agent` line: the next one continues
    /// its run.
    agent_run: bool,
    /// Where the current run of `user-agent` lines starts in the last group's agents.
    run_start: usize,
}

impl<'c> Parser<'c> {
    fn new(config: &'c ParseConfig) -> Parser<'c> {
        Parser {
            config,
            robots: Robots::default(),
            after_rule: false,
            agent_run: false,
            run_start: 0,
        }
    }

    fn run(mut self, body: &[u8]) -> Robots {
        self.robots.size = body.len();
        let config = self.config;
        let read = for_each_line(body, config, |n, line, marks| self.line(n, line, marks));
        self.robots.parsed = read.parsed;
        self.robots.lines = read.lines;
        if read.truncated {
            self.warn(
                read.lines + 1,
                WarningKind::FileTruncated {
                    limit: config.max_bytes,
                    size: body.len(),
                },
            );
        }
        self.robots
    }

    fn warn(&mut self, line: u32, kind: WarningKind) {
        self.robots.warnings.push(Warning { line, kind });
    }

    fn line(&mut self, n: u32, line: &[u8], marks: Marks) {
        let parts = split_line(line, marks, self.config);
        if let Some(len) = parts.cut {
            self.warn(
                n,
                WarningKind::LineTruncated {
                    len,
                    kept: self.config.max_line_len,
                },
            );
        }
        if parts.nul {
            self.warn(n, WarningKind::NulByte);
        }
        if let Content::Blank = parts.content {
            return;
        }
        // Any line with content other than `user-agent` ends a run of `user-agent` lines.
        let continues_run = std::mem::replace(&mut self.agent_run, false);
        let (kind, key, canonical, value, had_colon) = match parts.content {
            Content::Blank => return,
            Content::Unparsable => {
                self.warn(n, WarningKind::Unparsable);
                return;
            }
            Content::KeyValue {
                key,
                raw_key,
                canonical,
                value,
                had_colon,
            } => (key, raw_key, canonical, value, had_colon),
        };
        if !had_colon {
            self.warn(n, WarningKind::MissingColon);
        }
        if !canonical.is_empty() && !key.eq_ignore_ascii_case(canonical.as_bytes()) {
            self.warn(
                n,
                WarningKind::MisspelledKey {
                    written: lossy(key),
                    read_as: canonical,
                },
            );
        }
        match kind {
            Key::UserAgent => self.user_agent(n, value, continues_run),
            Key::Rule(kind) => self.rule(n, kind, value),
            Key::Sitemap => self.robots.sitemaps.push(Sitemap {
                url: lossy(value),
                line: n,
            }),
            Key::Other(kind, key) => {
                if kind == DirectiveKind::Unknown {
                    self.warn(n, WarningKind::UnknownKey { key: lossy(key) });
                }
                let group = self.robots.groups.len().checked_sub(1);
                let agents = self
                    .robots
                    .groups
                    .last()
                    .map_or((0, 0), |g| (self.run_start, g.agents.len()));
                self.robots.directives.push(Directive {
                    kind,
                    key: lossy(key),
                    value: lossy(value),
                    line: n,
                    group,
                    agents,
                });
            }
        }
    }

    fn user_agent(&mut self, n: u32, value: &[u8], continues_run: bool) {
        if self.robots.groups.is_empty() || self.after_rule {
            self.robots.groups.push(Group::default());
            self.after_rule = false;
        }
        self.agent_run = true;
        if !continues_run {
            self.run_start = self.robots.groups.last().map_or(0, |g| g.agents.len());
        }
        let (wildcard, token) = user_agent_token(value);
        if !wildcard && token.is_empty() {
            self.warn(
                n,
                WarningKind::NoProductToken {
                    value: lossy(value),
                },
            );
        }
        let agent = UserAgent {
            value: lossy(value),
            token: lossy(token),
            wildcard,
            line: n,
        };
        if let Some(group) = self.robots.groups.last_mut() {
            group.agents.push(agent);
        }
    }

    fn rule(&mut self, n: u32, kind: RuleKind, value: &[u8]) {
        match self.robots.groups.last_mut() {
            Some(group) => {
                group.rules.push(Rule::new(kind, value, n));
                self.after_rule = true;
            }
            None => self.warn(n, WarningKind::RuleOutsideGroup),
        }
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(r: &Robots) -> Vec<(u32, WarningKind)> {
        r.warnings()
            .iter()
            .map(|w| (w.line, w.kind.clone()))
            .collect()
    }

    #[test]
    fn groups_and_lines() {
        let r = Robots::parse(
            b"# hi\nUser-agent: a\nUser-agent: b\nDisallow: /x\nSitemap: http://s\nAllow: /y\n\
              User-agent: c\nCrawl-delay: 5\nDisallow: /z\n",
        );
        assert_eq!(r.groups().len(), 2);
        let g = &r.groups()[0];
        assert_eq!(g.agents().len(), 2);
        assert_eq!(g.rules().len(), 2);
        assert_eq!(g.rules()[1].line(), 6);
        assert_eq!(r.sitemaps()[0].line(), 5);
        assert_eq!(r.directives()[0].kind(), DirectiveKind::CrawlDelay);
        assert_eq!(r.directives()[0].group(), Some(1));
        assert!(r.warnings().is_empty(), "{:?}", r.warnings());
    }

    #[test]
    fn line_endings_and_bom() {
        let r =
            Robots::parse(b"\xEF\xBBUser-agent: *\r\nDisallow: /a\rDisallow: /b\n\nDisallow: /c");
        let lines: Vec<u32> = r.groups()[0].rules().iter().map(|r| r.line()).collect();
        assert_eq!(lines, vec![2, 3, 5]);
    }

    #[test]
    fn spellings_and_colon() {
        let r =
            Robots::parse(b"useragent: *\ndisalow: /a\nDisallow /b\nDisallow /c /d\nfoo: bar\n");
        let g = &r.groups()[0];
        assert_eq!(g.rules().len(), 2);
        assert_eq!(
            kinds(&r),
            vec![
                (
                    1,
                    WarningKind::MisspelledKey {
                        written: "useragent".into(),
                        read_as: "user-agent"
                    }
                ),
                (
                    2,
                    WarningKind::MisspelledKey {
                        written: "disalow".into(),
                        read_as: "disallow"
                    }
                ),
                (3, WarningKind::MissingColon),
                (4, WarningKind::Unparsable),
                (5, WarningKind::UnknownKey { key: "foo".into() }),
            ]
        );
    }

    #[test]
    fn rules_outside_groups_and_tokens() {
        let r = Robots::parse(
            b"Disallow: /a\nUser-agent: Googlebot/2.1\nUser-agent: * foo\nUser-agent: *bot\n",
        );
        assert_eq!(kinds(&r)[0], (1, WarningKind::RuleOutsideGroup));
        let a = r.groups()[0].agents();
        assert_eq!(a[0].token(), "Googlebot");
        assert!(a[1].is_wildcard());
        assert!(!a[2].is_wildcard());
        assert_eq!(a[2].token(), "");
    }

    #[test]
    fn limits() {
        let mut body = b"User-agent: *\nDisallow: /".to_vec();
        body.extend(std::iter::repeat_n(b'a', 100));
        body.extend_from_slice(b"\nDisallow: /private\n");
        let cfg = ParseConfig::new()
            .max_line_len(50)
            .max_bytes(body.len() - 5);
        let r = Robots::parse_with(&body, &cfg);
        let rules = r.groups()[0].rules();
        assert_eq!(rules.len(), 1, "the cut line must be dropped");
        assert_eq!(rules[0].pattern().len(), 50 - "Disallow: ".len());
        assert!(matches!(
            r.warnings().last().unwrap().kind(),
            WarningKind::FileTruncated { .. }
        ));
    }

    /// The SIMD line reader against a plain one: line ends, comment/NUL cuts and colons, for
    /// lines short and long, crossing the 64-byte windows and the 128-byte span.
    #[test]
    fn line_reader_agrees_with_a_plain_one() {
        let pieces: &[&[u8]] = &[
            b"\n",
            b"\r",
            b"\r\n",
            b"#",
            b"\0",
            b":",
            b"a",
            b"Disallow: /x",
        ];
        let mut x: u64 = 11;
        for round in 0..3000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mut body = Vec::new();
            for k in 0..(x % 40) {
                let p = pieces[((x >> (k % 60)) % pieces.len() as u64) as usize];
                body.extend_from_slice(p);
                if (x >> k).is_multiple_of(11) {
                    body.extend(std::iter::repeat_n(b'b', ((x >> 3) % 300) as usize));
                }
            }
            let config = if round % 2 == 0 {
                ParseConfig::new()
            } else {
                ParseConfig::new().max_line_len(20)
            };
            let mut got = Vec::new();
            for_each_line(&body, &config, |n, line, m| {
                got.push((n, line.to_vec(), m.cut, m.colon))
            });
            // The plain reader.
            let mut want = Vec::new();
            let mut pos = 0;
            let mut n = 0;
            loop {
                let end = body[pos..]
                    .iter()
                    .position(|&b| b == b'\n' || b == b'\r')
                    .map_or(body.len(), |i| pos + i);
                n += 1;
                let line = &body[pos..end];
                let kept = &line[..line.len().min(config.get_max_line_len())];
                let cut = kept.iter().position(|&b| b == b'#' || b == 0);
                let colon = kept[..cut.unwrap_or(kept.len())]
                    .iter()
                    .position(|&b| b == b':');
                want.push((n, line.to_vec(), cut, colon));
                if end == body.len() {
                    break;
                }
                pos = end + 1;
                if body[end] == b'\r' && body.get(pos) == Some(&b'\n') {
                    pos += 1;
                }
                if pos == body.len() {
                    break;
                }
            }
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&body));
        }
    }

    #[test]
    fn issue15_tokens_are_whole_names() {
        let r = Robots::parse(
            "User-agent: MJ12bot\nUser-agent: AI2Bot\nUser-agent: 360Spider\n\
             User-agent: jävla-fanbot\nUser-agent: Mediapartners-Google*\n\
             User-agent: Googlebot/2.1 (+http://x)\nUser-agent: Mail.RU_Bot;x\n\
             User-agent: crawler3(beta)\nDisallow: /\n"
                .as_bytes(),
        );
        let a = r.groups()[0].agents();
        let tokens: Vec<&str> = a.iter().map(|a| a.token()).collect();
        assert_eq!(
            tokens,
            [
                "MJ12bot",
                "AI2Bot",
                "360Spider",
                "jävla-fanbot",
                "Mediapartners-Google",
                "Googlebot",
                "Mail.RU_Bot",
                "crawler3"
            ]
        );
        let google: Vec<&str> = a.iter().map(|a| a.google_token()).collect();
        assert_eq!(
            google,
            [
                "MJ",
                "AI",
                "",
                "j",
                "Mediapartners-Google",
                "Googlebot",
                "Mail",
                "crawler"
            ]
        );
        assert!(r.warnings().is_empty(), "{:?}", r.warnings());
        assert!(r.groups()[0].names("mj12BOT"));
        assert!(
            !r.groups()[0].names("MJ"),
            "no match through a cut-down prefix"
        );
        assert!(!r.groups()[0].names("crawler"));
    }

    #[test]
    fn issue15_directives_belong_to_the_user_agent_lines_above() {
        let r = Robots::parse(
            b"Crawl-delay: 9\nUser-agent: bingbot\nCrawl-delay: 1\nRequest-rate: 1/5\n\
              User-agent: msnbot\n\n# comment\nUser-agent: slurp\nCrawl-delay: 2\n\
              User-agent: *\nDisallow: /login\nCrawl-delay: 3\nUser-agent: a\nSitemap: /s\n\
              User-agent: b\nHost: x\n",
        );
        assert_eq!(r.groups().len(), 2);
        let who = |i: usize| -> Vec<&str> {
            r.directives()[i]
                .user_agents(&r)
                .iter()
                .map(|a| a.value())
                .collect()
        };
        assert_eq!(who(0), Vec::<&str>::new(), "before any user-agent line");
        assert_eq!(who(1), ["bingbot"]);
        assert_eq!(
            who(2),
            ["bingbot"],
            "a directive does not end the run above it"
        );
        assert_eq!(
            who(3),
            ["msnbot", "slurp"],
            "blank lines and comments do not end it"
        );
        assert_eq!(who(4), ["*"], "rules do not end it either");
        assert_eq!(
            who(5),
            ["b"],
            "a sitemap line between user-agent lines ends it"
        );
        assert_eq!(r.directives()[5].group(), Some(1));
    }

    #[test]
    fn lines_longer_than_the_mask_window_keep_their_comment_nul_and_colon() {
        // The line reader's masks cover 64 to 128 bytes from where a line starts; longer lines
        // are searched for their end, `#`, NUL and colon another way. Every layout on both
        // sides of that limit (and of the 256 bytes where that search changes method).
        for n in (0..140).chain([190, 250, 255, 256, 257, 300, 700]) {
            let path = format!("/{}", "a".repeat(n));
            for tail in ["", "#c", "#c\0d", "\0x", " # c"] {
                for eol in ["\n", "\r\n", "\r"] {
                    for pad in [0, 7, 40] {
                        let body = format!(
                            "User-agent: *{eol}{}Disallow: {path}{tail}{eol}Allow: /z{eol}",
                            "#".repeat(pad) + if pad > 0 { eol } else { "" }
                        );
                        let r = Robots::parse(body.as_bytes());
                        let rules = r.groups()[0].rules();
                        let what = format!("n {n}, tail {tail:?}, eol {eol:?}, pad {pad}");
                        assert_eq!(rules.len(), 2, "{what}");
                        assert_eq!(rules[0].pattern(), path.as_bytes(), "{what}");
                        assert_eq!(rules[1].pattern(), b"/z", "{what}");
                        let nul = r.warnings().iter().any(|w| w.kind == WarningKind::NulByte);
                        assert_eq!(nul, tail.contains('\0'), "{what}");
                    }
                }
            }
        }
    }

    #[test]
    fn nul_ends_line() {
        let r = Robots::parse(b"User-agent: *\nDisallow: /a\0b\n");
        assert_eq!(r.groups()[0].rules()[0].pattern(), b"/a");
    }
}
