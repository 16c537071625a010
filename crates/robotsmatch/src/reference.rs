//! The reference matcher: the semantics written for obviousness, not speed.
//!
//! It looks at one rule at a time, matches each pattern directly against the canonical path
//! (tracking the set of path positions a pattern prefix can reach, so `*` never backtracks),
//! and picks the winner by the profile's precedence. It shares only the canonicaliser with the
//! compiled engine. Tests cross-check the automaton against it on every corpus and on
//! generated input; the [`Matcher`](crate::Matcher) also falls back to it when the rules'
//! automaton cannot be built (where the lazy DFA gives up on a URL, the cold tier's direct
//! scan decides instead: this matcher's pass over the path for every byte of every pattern
//! is too slow for that).
#![forbid(unsafe_code)]

use crate::canon::canonicalize;
use crate::parse::RuleKind;
use crate::profile::{Precedence, Profile};

/// One rule prepared for reference matching.
#[derive(Clone, Debug)]
struct RefRule {
    kind: RuleKind,
    /// The pattern in canonical percent-encoding.
    canonical: Vec<u8>,
}

/// A naive matcher over a list of rules (already selected for one crawler), in file order.
#[derive(Clone, Debug)]
pub struct Reference {
    rules: Vec<RefRule>,
    profile: Profile,
}

/// The outcome of [`Reference::decide`]: the verdict and the index of the deciding rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefDecision {
    /// True when the URL may be fetched.
    pub allowed: bool,
    /// Index into the rules given to [`Reference::new`], if a rule decided.
    pub rule: Option<usize>,
}

impl Reference {
    /// Prepares `rules` (the rules that apply to one crawler, in file order), given as
    /// `(kind, pattern as written)`.
    pub fn new<'r>(
        rules: impl IntoIterator<Item = (RuleKind, &'r [u8])>,
        profile: Profile,
    ) -> Reference {
        let rules = rules
            .into_iter()
            .map(|(kind, pattern)| RefRule {
                kind,
                canonical: canonicalize(pattern).into_owned(),
            })
            .collect();
        Reference { rules, profile }
    }

    /// Decides a canonical path (see [`crate::canon::canonical_path`]).
    pub fn decide(&self, path: &[u8]) -> RefDecision {
        if self.profile.always_allows(path) {
            return RefDecision {
                allowed: true,
                rule: None,
            };
        }
        match self.profile.precedence {
            Precedence::FirstMatch => {
                match (0..self.rules.len()).find(|&i| self.priority(i, path).is_some()) {
                    Some(i) => RefDecision {
                        allowed: self.rules[i].kind == RuleKind::Allow,
                        rule: Some(i),
                    },
                    None => RefDecision {
                        allowed: true,
                        rule: None,
                    },
                }
            }
            Precedence::LongestMatch => {
                let allow = self.longest(RuleKind::Allow, path);
                let disallow = self.longest(RuleKind::Disallow, path);
                match (allow, disallow) {
                    (_, None) => RefDecision {
                        allowed: true,
                        rule: allow.map(|(i, _)| i),
                    },
                    (Some((a, pa)), Some((_, pd))) if pa >= pd => RefDecision {
                        allowed: true,
                        rule: Some(a),
                    },
                    (_, Some((d, _))) => RefDecision {
                        allowed: false,
                        rule: Some(d),
                    },
                }
            }
        }
    }

    /// The longest matching rule of `kind` (the first in file order among equals) and its
    /// priority. Under the first-match profile, the first matching rule of that kind.
    pub fn longest(&self, kind: RuleKind, path: &[u8]) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        for i in 0..self.rules.len() {
            if self.rules[i].kind != kind {
                continue;
            }
            if let Some(p) = self.priority(i, path) {
                if self.profile.precedence == Precedence::FirstMatch {
                    return Some((i, p));
                }
                if best.is_none_or(|(_, bp)| p > bp) {
                    best = Some((i, p));
                }
            }
        }
        best
    }

    /// The priority with which rule `i` matches `path`, if it does.
    fn priority(&self, i: usize, path: &[u8]) -> Option<usize> {
        let rule = &self.rules[i];
        let pat = &rule.canonical[..];
        if pat.is_empty() {
            // An empty pattern matches nothing (`Disallow:` allows everything).
            return None;
        }
        if matches(pat, path, self.profile.wildcards, self.profile.end_anchor) {
            return Some(pat.len());
        }
        if self.profile.index_html && rule.kind == RuleKind::Allow {
            // Google: `Allow: /dir/index.html` also allows `/dir/` exactly.
            let slash = pat.iter().rposition(|&b| b == b'/')?;
            if pat[slash..].starts_with(b"/index.htm") {
                let mut derived = pat[..=slash].to_vec();
                derived.push(b'$');
                if matches(&derived, path, true, true) {
                    return Some(derived.len());
                }
            }
        }
        None
    }
}

/// Does `pattern` match a prefix of `path`? With `wildcards`, `*` matches any sequence of
/// bytes; with `end_anchor`, a final `$` requires the match to end at the end of `path`.
/// Every other byte matches itself.
pub fn matches(pattern: &[u8], path: &[u8], wildcards: bool, end_anchor: bool) -> bool {
    let (pattern, anchored) = match pattern.split_last() {
        Some((b'$', rest)) if end_anchor => (rest, true),
        _ => (pattern, false),
    };
    // reach[i]: the pattern prefix consumed so far can match exactly path[..i].
    let n = path.len();
    let mut reach = vec![false; n + 1];
    reach[0] = true;
    for &c in pattern {
        let mut next = vec![false; n + 1];
        if c == b'*' && wildcards {
            let mut seen = false;
            for i in 0..=n {
                seen |= reach[i];
                next[i] = seen;
            }
        } else {
            for i in 0..n {
                if reach[i] && path[i] == c {
                    next[i + 1] = true;
                }
            }
        }
        reach = next;
        if !reach.contains(&true) {
            return false;
        }
    }
    if anchored {
        reach[n]
    } else {
        reach.contains(&true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direct_matching() {
        let m = |p: &str, s: &str| matches(p.as_bytes(), s.as_bytes(), true, true);
        assert!(m("/fish", "/fish.html"));
        assert!(!m("/fish", "/Fish"));
        assert!(m("/*.php$", "/a/b.php"));
        assert!(!m("/*.php$", "/a.php?x"));
        assert!(m("/*?*limit=", "/?sale=x&limit=1"));
        assert!(m("/*a*b$", "/xaxbxab"));
        assert!(m("/a$b", "/a$b"));
        assert!(!m("$", "/"));
        assert!(m("*", "/"));
        assert!(!matches(b"/*.php", b"/a.php", false, false));
        assert!(matches(b"/a*", b"/a*b", false, false));
    }
}
