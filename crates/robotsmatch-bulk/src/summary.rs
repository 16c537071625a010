//! The summary of a classification: verdict counts, the hosts seen, the deciding rules, the
//! first malformed lines.
//!
//! Each worker thread counts on its own (per-host counts live in its host table, so counting
//! costs no lookup); the summaries are merged at the end. Everything in it is independent of
//! the thread count and of how the input was cut into chunks.

use std::collections::HashMap;

use crate::keys::KeyTable;
use crate::logline::Malformed;

/// How many malformed lines a summary keeps in full (the first ones, in input order).
pub const MALFORMED_KEPT: usize = 10;

/// How many bytes of a malformed line a summary keeps (a malformed line can be as long as the
/// reader's line limit).
pub const MALFORMED_TEXT_KEPT: usize = 256;

/// Counts of a classification, and the hosts and rules behind them.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Lines read (or URLs given).
    pub lines: u64,
    /// URLs allowed (including those of hosts without robots.txt).
    pub allowed: u64,
    /// URLs disallowed.
    pub disallowed: u64,
    /// URLs allowed because their host has no robots.txt.
    pub no_robots: u64,
    /// URLs allowed because their host's robots.txt was unavailable (WARC store).
    pub unavailable: u64,
    /// URLs disallowed because their host's robots.txt was unreachable (WARC store).
    pub unreachable: u64,
    /// Blank lines.
    pub blank: u64,
    /// Lines without a usable URL (no `scheme://host`, or no such column).
    pub malformed: u64,
    /// The first [`MALFORMED_KEPT`] malformed lines, in input order.
    pub malformed_lines: Vec<MalformedLine>,
    /// Inputs without a URL by reason ([`Malformed::index`]): see [`Summary::invalid_by`].
    pub(crate) reasons: [u64; Malformed::ALL.len()],
    /// Host key to its counts (allowed, disallowed).
    // PERF: a map of `Vec<u8>` keys allocated every host's key on its own: moving the 65,817
    // hosts of the 1 GB benchmark log's worker into it took 15 ms after the parallel work, and
    // the second worker's 7 ms more (2 threads); into this table, read in one pass, 8 and 5 ms.
    pub(crate) hosts: KeyTable<[u64; 2]>,
    /// (body index, rule line) to its tally.
    pub(crate) rules: HashMap<(usize, u32), RuleTally, foldhash::fast::RandomState>,
}

/// A malformed line, where it is, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedLine {
    /// The index of its log in the list given (0 for URLs given directly).
    pub log: usize,
    /// Its 1-based line number in that log (the 1-based index for URLs given directly).
    pub line: u64,
    /// Why it has no usable URL.
    pub reason: Malformed,
    /// The line as read (without its line end), at most its first [`MALFORMED_TEXT_KEPT`]
    /// bytes.
    pub text: Vec<u8>,
}

/// How many URLs of one host were allowed and disallowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostTally<'a> {
    /// The host key (lower case, `_port` for a non-default port).
    pub host: &'a [u8],
    /// URLs allowed.
    pub allowed: u64,
    /// URLs disallowed.
    pub disallowed: u64,
}

impl HostTally<'_> {
    /// Allowed plus disallowed.
    pub fn urls(&self) -> u64 {
        self.allowed + self.disallowed
    }
}

/// How many URLs one rule decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleTally {
    /// URLs decided by the rule.
    pub count: u64,
    /// The host of the first URL (in input order) it decided; other hosts may share the body.
    pub host: Vec<u8>,
    /// The rule's line in its file.
    pub line: u32,
    /// The rule as text (`Disallow: /cart`).
    pub rule: String,
    /// The position of that first URL (for merging).
    pub(crate) first: u64,
}

impl Summary {
    /// URLs classified: allowed plus disallowed.
    pub fn urls(&self) -> u64 {
        self.allowed + self.disallowed
    }

    /// Lines without a URL: blank plus malformed.
    pub fn invalid(&self) -> u64 {
        self.blank + self.malformed
    }

    /// Lines without a URL for this reason (blank lines are [`Malformed::Blank`]).
    pub fn invalid_by(&self, reason: Malformed) -> u64 {
        self.reasons[reason.index()]
    }

    /// The number of distinct hosts seen (0 when hosts were not counted:
    /// [`crate::Classifier::count_hosts`]).
    pub fn host_count(&self) -> usize {
        self.hosts.len()
    }

    /// Every host seen, in no particular order.
    pub fn hosts(&self) -> impl Iterator<Item = HostTally<'_>> {
        self.hosts.iter().map(|(host, c)| HostTally {
            host,
            allowed: c[0],
            disallowed: c[1],
        })
    }

    /// The `n` hosts with the most URLs (ties by host name).
    pub fn top_hosts(&self, n: usize) -> Vec<HostTally<'_>> {
        let order =
            |a: &HostTally<'_>, b: &HostTally<'_>| b.urls().cmp(&a.urls()).then(a.host.cmp(b.host));
        let mut hosts: Vec<HostTally<'_>> = self.hosts().collect();
        // PERF: sorting every host for the ten printed took 81 M instructions on one thread
        // after the parallel work (a 200 MB cut of the benchmark log, 67,127 hosts); host names
        // are distinct, so the order is total and selecting the first `n` gives the same list.
        if n < hosts.len() {
            hosts.select_nth_unstable_by(n, order);
            hosts.truncate(n);
        }
        hosts.sort_by(order);
        hosts
    }

    /// The `n` rules that decided the most URLs (ties by example host, then line). Empty unless
    /// rules were counted ([`crate::Classifier::count_rules`]).
    pub fn top_rules(&self, n: usize) -> Vec<&RuleTally> {
        let mut rules: Vec<&RuleTally> = self.rules.values().collect();
        rules.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(a.host.cmp(&b.host))
                .then(a.line.cmp(&b.line))
        });
        rules.truncate(n);
        rules
    }

    /// Adds `other` to this summary (malformed lines are kept in input order).
    pub fn merge(&mut self, mut other: Summary) {
        // Add the smaller tables into the larger ones.
        if self.hosts.len() < other.hosts.len() {
            std::mem::swap(&mut self.hosts, &mut other.hosts);
        }
        if self.rules.len() < other.rules.len() {
            std::mem::swap(&mut self.rules, &mut other.rules);
        }
        self.lines += other.lines;
        self.allowed += other.allowed;
        self.disallowed += other.disallowed;
        self.no_robots += other.no_robots;
        self.unavailable += other.unavailable;
        self.unreachable += other.unreachable;
        self.blank += other.blank;
        self.malformed += other.malformed;
        for (a, b) in self.reasons.iter_mut().zip(other.reasons) {
            *a += b;
        }
        if !other.malformed_lines.is_empty() {
            self.malformed_lines.extend(other.malformed_lines);
            self.malformed_lines.sort_by_key(|m| (m.log, m.line));
            self.malformed_lines.truncate(MALFORMED_KEPT);
        }
        for (host, &counts) in other.hosts.iter() {
            self.add_host(host, counts);
        }
        for (key, tally) in other.rules {
            self.add_rule(key, tally);
        }
    }

    /// Adds a rule's tally: counts add up, the example host is the one seen first.
    pub(crate) fn add_rule(&mut self, key: (usize, u32), tally: RuleTally) {
        match self.rules.get_mut(&key) {
            Some(t) => {
                t.count += tally.count;
                if tally.first < t.first {
                    t.first = tally.first;
                    t.host = tally.host;
                }
            }
            None => {
                self.rules.insert(key, tally);
            }
        }
    }

    /// Adds a host's counts (allowed, disallowed).
    pub(crate) fn add_host(&mut self, host: &[u8], counts: [u64; 2]) {
        let c = self.hosts.entry(host, || [0, 0]);
        c[0] += counts[0];
        c[1] += counts[1];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(count: u64, host: &str, first: u64) -> RuleTally {
        RuleTally {
            count,
            host: host.as_bytes().to_vec(),
            line: 2,
            rule: "Disallow: /x".into(),
            first,
        }
    }

    #[test]
    fn merge_adds_counts_and_keeps_the_first_example_and_malformed_lines_in_order() {
        let mut a = Summary {
            allowed: 2,
            malformed: 1,
            malformed_lines: vec![MalformedLine {
                log: 0,
                line: 9,
                reason: Malformed::NotAUrl,
                text: b"late".to_vec(),
            }],
            ..Summary::default()
        };
        a.add_host(b"a.example", [2, 0]);
        a.add_rule((1, 2), tally(3, "late.example", 50));
        let mut b = Summary {
            disallowed: 1,
            malformed: 1,
            malformed_lines: vec![MalformedLine {
                log: 0,
                line: 3,
                reason: Malformed::Blank,
                text: b"early".to_vec(),
            }],
            ..Summary::default()
        };
        b.add_host(b"a.example", [0, 1]);
        b.add_host(b"b.example", [5, 0]);
        b.add_rule((1, 2), tally(4, "early.example", 7));
        a.merge(b);
        assert_eq!((a.urls(), a.malformed), (3, 2));
        assert_eq!(
            a.malformed_lines.iter().map(|m| m.line).collect::<Vec<_>>(),
            vec![3, 9]
        );
        let top = a.top_hosts(10);
        assert_eq!(top[0].host, b"b.example");
        assert_eq!((top[1].allowed, top[1].disallowed), (2, 1));
        let rules = a.top_rules(10);
        assert_eq!(rules.len(), 1);
        assert_eq!(
            (rules[0].count, &rules[0].host[..]),
            (7, &b"early.example"[..])
        );
    }

    /// `top_hosts` selects before it sorts: the list must be the first `n` of the whole
    /// order (most URLs first, ties by host name), whatever `n` and however many ties.
    #[test]
    fn top_hosts_is_the_head_of_the_full_order() {
        let mut s = Summary::default();
        for i in 0..500u64 {
            // Few distinct counts: many ties, broken by the name.
            let (allowed, disallowed) = ((i * 7919) % 5, (i * 104_729) % 3);
            s.add_host(
                format!("h{:03}.example", (i * 37) % 500).as_bytes(),
                [allowed, disallowed],
            );
        }
        let mut all: Vec<(u64, Vec<u8>)> = s.hosts().map(|h| (h.urls(), h.host.to_vec())).collect();
        all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for n in [0, 1, 2, 10, 137, 499, 500, 501, 10_000] {
            let top: Vec<(u64, Vec<u8>)> = s
                .top_hosts(n)
                .iter()
                .map(|h| (h.urls(), h.host.to_vec()))
                .collect();
            assert_eq!(top, all[..n.min(all.len())], "n = {n}");
        }
    }
}
