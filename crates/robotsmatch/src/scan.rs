//! Selective parsing: from the bytes of a robots.txt straight to what one crawler obeys,
//! without building a [`Robots`](crate::Robots).
//!
//! A crawler that fetched one file and has a few URLs to check, or a bulk job meeting a host
//! for the first time, needs only the groups that apply to one crawler. Both functions here
//! read the file once, line by line exactly as the parser does (the same line ends, limits,
//! comment and key rules, through the parser's own functions), and look only at the rules of
//! groups that name one of the crawler's tokens or `*`; no allocation per line, no strings
//! for `user-agent` values, no warnings. The choice among those groups is
//! [`agent::select`](crate::agent::select)'s.
//!
//! - [`scan`] puts those rules into the compact form a [`Matcher`](crate::Matcher) starts
//!   from ([`Matcher::from_bytes`](crate::Matcher::from_bytes)).
//! - [`decide_once`] keeps nothing but the best match of each kind per class of groups while
//!   it reads, and decides one path ([`Matcher::decide_once`](crate::Matcher::decide_once)).
//!
//! Tests check both against the full parse and the matcher on every sample file, on random
//! files, on the conformance cases and on the corpus.
#![forbid(unsafe_code)]

use crate::agent::{Agent, Selection};
use crate::compile::PatternSet;
use crate::parse::{self, Key, ParseConfig, RuleKind, RuleRef};
use crate::profile::Profile;

/// What one crawler obeys in a file: the selection, and the rules of the selected groups in
/// their compact form.
pub(crate) struct Scanned {
    pub(crate) selection: Selection,
    pub(crate) patterns: PatternSet,
}

/// Per group: which of the crawler's tokens it names (bit `i` for token `i`, at most 64), and
/// whether it is a `*` group.
#[derive(Clone, Copy, Default)]
struct GroupFlags {
    named: u64,
    wildcard: bool,
}

/// The scratch vectors of [`scan`], kept per thread between calls.
#[derive(Default)]
struct Buffers {
    groups: Vec<GroupFlags>,
    rule_group: Vec<u32>,
    scratch: Vec<u8>,
}

/// [`Buffers`] above this many bytes are not kept (one huge file must not pin its memory).
const MAX_KEPT_BUFFERS: usize = 64 << 10;

std::thread_local! {
    // PERF: a matcher for a small file is a handful of allocations; these three were
    // allocated and freed by every `Matcher::from_bytes`.
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::new(Buffers::default());
}

/// Reads `body` and keeps what `agent` obeys under `profile` (see the module docs).
///
/// The rules of every group that names one of the crawler's tokens or `*` go straight into
/// the compact form as they are read; in the common case (a file whose only candidate groups
/// are the ones finally chosen) that is the result. Otherwise the chosen groups' rules are
/// copied into a new compact form.
pub(crate) fn scan(body: &[u8], config: &ParseConfig, agent: &Agent, profile: &Profile) -> Scanned {
    let tokens = agent.tokens();
    let mut bufs = BUFFERS
        .try_with(|b| std::mem::take(&mut *b.borrow_mut()))
        .unwrap_or_default();
    let Buffers {
        groups,
        // The group of each rule kept.
        rule_group,
        scratch,
    } = &mut bufs;
    groups.clear();
    rule_group.clear();
    let mut after_rule = false;
    // A rough size: one rule per 24 bytes of file, and room for a small file's few rules
    // (PERF: growing the vectors was 4 of the 10 allocations of a 4-line file's matcher).
    let rules = body.len() / 24 + 8;
    // The patterns as written take less than the file, and copies in canonical form are rare
    // (PERF: half the file was too little for files of rules only, and growing the buffer
    // copied it; `finish` gives back what is left unused).
    let mut patterns = PatternSet::with_capacity(rules, body.len());
    parse::for_each_line(body, config, |n, line, marks| {
        let Some((key, value)) = parse::key_value(line, marks, config) else {
            return;
        };
        match key {
            Key::UserAgent => {
                if groups.is_empty() || after_rule {
                    groups.push(GroupFlags::default());
                    after_rule = false;
                }
                let (wildcard, token) = parse::user_agent_token(value);
                let g = groups.last_mut().expect("a group was just made");
                if wildcard {
                    g.wildcard = true;
                } else if !token.is_empty() {
                    let token = as_parsed(token);
                    for (i, t) in tokens.iter().enumerate().take(64) {
                        if token.eq_ignore_ascii_case(t.as_bytes()) {
                            g.named |= 1 << i;
                        }
                    }
                }
            }
            Key::Rule(kind) => {
                let Some(g) = groups.last() else {
                    return;
                };
                after_rule = true;
                if g.named != 0 || g.wildcard {
                    // The pattern is read where it lies in the file (whole 16-byte blocks).
                    // `key_value` returns a slice of the line, itself a slice of `body`; were
                    // it not, the range would not lie in `body`, and `care_and_star` panics on
                    // such a range (a check here cost 2% of building e-largest's matcher).
                    let at = value.as_ptr() as usize - body.as_ptr() as usize;
                    let scanned = crate::bytescan::care_and_star(body, at, at + value.len());
                    patterns.push_scanned(kind, value, scanned, n, profile, scratch);
                    rule_group.push((groups.len() - 1) as u32);
                }
            }
            Key::Sitemap | Key::Other(..) => {}
        }
    });
    // The same choice as `agent::select` (tokens past the 64th have no flag: never chosen).
    let selection = crate::agent::choose(
        groups.len(),
        agent,
        profile.merge_groups,
        |g, t| t < 64 && groups[g].named & (1 << t) != 0,
        |g| groups[g].wildcard,
    );
    let chosen = selection.groups();
    let kept = |g: u32| chosen.binary_search(&(g as usize)).is_ok();
    if !rule_group.iter().all(|&g| kept(g)) {
        let mut only = PatternSet::with_capacity(rule_group.len(), 0);
        for (i, &g) in rule_group.iter().enumerate() {
            if kept(g) {
                let r = patterns.rule(i);
                only.push(r.kind(), r.pattern(), r.line(), profile, scratch);
            }
        }
        patterns = only;
    }
    patterns.finish();
    let held = bufs.groups.capacity() * std::mem::size_of::<GroupFlags>()
        + bufs.rule_group.capacity() * 4
        + bufs.scratch.capacity();
    if held <= MAX_KEPT_BUFFERS {
        let _ = BUFFERS.try_with(|b| *b.borrow_mut() = bufs);
    }
    Scanned {
        selection,
        patterns,
    }
}

/// A `user-agent` line's product `token` as the parser reads it: as UTF-8, invalid sequences
/// replaced. It names a crawler token `t` when the two are equal with ASCII case ignored
/// (`as_parsed(token).eq_ignore_ascii_case(t.as_bytes())`); read once per line, compared with
/// each of the crawler's tokens.
// PERF: an ASCII token (nearly all) is itself as UTF-8, so it is borrowed as it is: the lossy
// reading was 2% of the instructions of classifying one URL per host.
#[inline]
fn as_parsed(token: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if token.is_ascii() {
        std::borrow::Cow::Borrowed(token)
    } else {
        std::borrow::Cow::Owned(String::from_utf8_lossy(token).into_owned().into_bytes())
    }
}

/// How a rule's `value` compares with `path` as far as its bytes are plain: printable ASCII
/// other than `%`, `*` and `$`, which canonicalisation keeps and which match only themselves.
enum Plain {
    /// The first difference, at this index, comes before any byte that is not plain.
    Differs(usize),
    /// `value` is not empty, all plain, and a prefix of `path`: it matches.
    Prefix,
    /// A byte that is not plain comes first (or `value` is empty): it takes the long way.
    Other,
}

/// Compares a rule's `value` with `path` (see [`Plain`]).
#[inline]
fn plain_prefix(value: &[u8], path: &[u8]) -> Plain {
    for (i, &c) in value.iter().enumerate() {
        // (`bytescan::needs_care` plus `*` and `$`, written out: through that function the
        // compiler gave e-largest's `decide_once` 5% more instructions, measured.)
        if c <= 0x20 || c >= 0x7F || matches!(c, b'%' | b'*' | b'$') {
            return Plain::Other;
        }
        if path.get(i) != Some(&c) {
            return Plain::Differs(i);
        }
    }
    if value.is_empty() {
        Plain::Other
    } else {
        Plain::Prefix
    }
}

/// The best match per kind in one class of groups (the groups naming one token, or `*`):
/// `(key, rule)` with the key of [`key`](crate::compile::pattern::key) (the line standing for
/// the rule's index: both grow in file order).
type Best<'b> = [(u64, Option<RuleRef<'b>>); 2];

/// Decides `path` (canonical) for `agent` while reading `body` once, keeping nothing but the
/// best match of each kind per class of groups: the one-shot decision (see
/// [`Matcher::decide_once`](crate::Matcher::decide_once)). Returns the verdict and the
/// deciding rule, borrowed from `body`.
pub(crate) fn decide_once<'b>(
    body: &'b [u8],
    config: &ParseConfig,
    agent: &Agent,
    profile: &Profile,
    path: &[u8],
) -> (bool, Option<RuleRef<'b>>) {
    let tokens = agent.tokens();
    let n = tokens.len().min(64);
    // Classes 0..n: the groups naming token i; class n: the `*` groups.
    // PERF: no allocation for the usual one to three tokens.
    let empty: Best<'b> = [(0, None), (0, None)];
    let mut small_best = [empty; 4];
    let mut small_first = [None; 4];
    let mut small_seen = [false; 4];
    let (mut big_best, mut big_first, mut big_seen) = (Vec::new(), Vec::new(), Vec::new());
    let (best, first_group, seen): (&mut [Best<'b>], &mut [Option<usize>], &mut [bool]) = if n < 4 {
        (&mut small_best, &mut small_first, &mut small_seen)
    } else {
        big_best.resize(n + 1, empty);
        big_first.resize(n + 1, None);
        big_seen.resize(n + 1, false);
        (&mut big_best, &mut big_first, &mut big_seen)
    };
    // (Under a profile that does not merge groups, only the first group of each class counts.)
    let mut groups = 0usize;
    let mut current = GroupFlags::default();
    let mut after_rule = false;
    let mut scratch = Vec::new();
    parse::for_each_line(body, config, |line_no, line, marks| {
        let Some((key, value)) = parse::key_value(line, marks, config) else {
            return;
        };
        match key {
            Key::UserAgent => {
                if groups == 0 || after_rule {
                    groups += 1;
                    current = GroupFlags::default();
                    after_rule = false;
                }
                let (wildcard, token) = parse::user_agent_token(value);
                if wildcard {
                    current.wildcard = true;
                    seen[n] = true;
                    first_group[n].get_or_insert(groups);
                } else if !token.is_empty() {
                    let token = as_parsed(token);
                    for (i, t) in tokens.iter().enumerate().take(n) {
                        if token.eq_ignore_ascii_case(t.as_bytes()) {
                            current.named |= 1 << i;
                            seen[i] = true;
                            first_group[i].get_or_insert(groups);
                        }
                    }
                }
            }
            Key::Rule(kind) => {
                if groups == 0 {
                    return;
                }
                after_rule = true;
                if current.named == 0 && !current.wildcard {
                    return;
                }
                // PERF: most rules differ from the path within their first few bytes; when
                // the rule's bytes up to the first difference are plain (canonicalisation
                // keeps them, and they match only themselves), that says no match before any
                // other work. An Allow rule ending in `index.html` may also match its
                // directory (under profiles that read it so): a prefix of the rule up to its
                // last `/`, which holds the differing byte when a `/` follows it (the rules of
                // the largest real files are mostly Allow rules: checking them all cost a
                // fifth of the pass). A rule all plain and a prefix of the path matches, as
                // long as it is.
                let priority = match plain_prefix(value, path) {
                    Plain::Differs(i)
                        if kind == RuleKind::Disallow
                            || !profile.index_html
                            // (The crate's short search: `contains` would pay memchr's
                            // set-up for a `/` mostly a few bytes on.)
                            || crate::bytescan::find2(&value[i..], b'/', b'/').is_some() =>
                    {
                        return;
                    }
                    Plain::Prefix => value.len(),
                    Plain::Differs(_) | Plain::Other => {
                        match crate::compile::pattern::rule_priority(
                            kind,
                            value,
                            profile,
                            path,
                            &mut scratch,
                        ) {
                            Some(p) => p,
                            None => return,
                        }
                    }
                };
                let k =
                    crate::compile::pattern::key(priority, line_no as usize, profile.precedence);
                let kind_i = crate::compile::pattern::kind_index(kind);
                let rule = RuleRef::new(kind, value, line_no);
                for c in 0..=n {
                    let member = if c == n {
                        current.wildcard
                    } else {
                        current.named & (1 << c) != 0
                    };
                    if !member {
                        continue;
                    }
                    if !profile.merge_groups && first_group[c] != Some(groups) {
                        continue;
                    }
                    let slot = &mut best[c][kind_i];
                    if k > slot.0 {
                        *slot = (k, Some(rule));
                    }
                }
            }
            Key::Sitemap | Key::Other(..) => {}
        }
    });
    // The class `agent::select` would choose: the first token some group names, else `*`.
    let chosen = (0..n)
        .find(|&i| seen[i])
        .or((seen[n] && agent.get_obeys_wildcard()).then_some(n));
    let Some(c) = chosen else {
        return (true, None);
    };
    let [a, d] = best[c];
    match crate::compile::pattern::verdict([a.0, d.0], profile.precedence) {
        (allowed, None) => (allowed, None),
        (true, Some(_)) => (true, a.1),
        (false, Some(_)) => (false, d.1),
    }
}

#[cfg(test)]
mod tests {
    use super::as_parsed;

    /// Whether `token` names the crawler token `t`, as `scan` and `decide_once` compare them.
    fn names(token: &[u8], t: &str) -> bool {
        as_parsed(token).eq_ignore_ascii_case(t.as_bytes())
    }

    /// The direct comparison of ASCII tokens and the lossy reading of the others agree with
    /// the parser's: ASCII case ignored, other characters exact, invalid UTF-8 read as U+FFFD.
    #[test]
    fn tokens_compare_as_the_parser_compares_them() {
        assert!(names(b"GoogleBot", "Googlebot"));
        assert!(!names(b"Googlebot-News", "Googlebot"));
        assert!(!names(b"Googlebo", "Googlebot"));
        assert!(names("Bót".as_bytes(), "BóT"));
        assert!(!names("BÓt".as_bytes(), "Bót"));
        assert!(names(b"Bot\xFF", "bot\u{FFFD}"));
        assert!(!names(b"Bot\xFF", "Bot"));
    }
}
