//! The robots store: which robots.txt applies to a host, compiled lazily and shared.
//!
//! `--robots FILE` applies one file to every host. `--robots DIR` holds `<host>.txt` files
//! (or `<host>/robots.txt`; a port is written `<host>_<port>.txt`); host names compare
//! case-insensitively. The directory is listed once at start; a file is read and compiled when
//! its host is first seen, and identical bodies are compiled once (keyed by a 128-bit hash of
//! the body), so memory grows with the distinct bodies actually used, not with the hosts.
//!
//! `--robots-warc FILE...` builds the store from robots.txt captures (see [`crate::warc`]):
//! one outcome per host, turned into rules with RFC 9309's status semantics
//! ([`robotsmatch::fetch`]): a 2xx body is compiled like a file (lazily, shared by body), an
//! unavailable host allows everything and an unreachable one disallows everything, with the
//! reason kept for the output.
//!
//! Each worker thread holds a [`View`]: its own map from host to compiled entry and its own
//! lazy-DFA caches, so the shared store is locked only the first time a thread meets a host.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use robotsmatch::cache::{body_key, BodyKey};
use robotsmatch::fetch::{Availability, Outcome as FetchOutcome, Reason};
use robotsmatch::{Agent, Cache, Decision, Matcher, MatcherBuilder, ParseConfig, Robots};

/// One distinct robots.txt body, compiled for the crawler.
pub struct Entry {
    /// The compiled matcher.
    pub matcher: Matcher,
    /// A dense index, for per-thread cache slots.
    pub index: usize,
}

/// A host's rules when robots.txt was unavailable or unreachable: everything allowed or
/// disallowed, and why.
pub struct AllRules {
    /// True for allow all (unavailable), false for disallow all (unreachable).
    pub allowed: bool,
    /// Why (`robots.txt unreachable (503)`).
    pub reason: Reason,
}

/// What applies to a host that has an entry.
#[derive(Clone)]
pub enum HostRules {
    /// A robots.txt body, compiled.
    Compiled(Arc<Entry>),
    /// Allow all or disallow all.
    All(Arc<AllRules>),
}

/// One host of a WARC store: its fetch outcome (a 2xx body compiled on first use).
pub struct WarcHost {
    /// The body of a 2xx capture.
    body: Option<Vec<u8>>,
    /// Allow all / disallow all, for the other outcomes.
    all: Option<Arc<AllRules>>,
    /// Available, unavailable or unreachable.
    pub availability: Availability,
}

/// Where the store's files come from.
enum Files {
    /// One file for every host.
    Single(Arc<Entry>),
    /// `<host>.txt` files: host key (lower case, `host` or `host_port`) to path.
    Dir(HashMap<String, PathBuf>),
    /// Captures from WARC files: host key to outcome.
    Warc(HashMap<String, WarcHost>),
}

/// The robots store shared by all threads.
pub struct Store {
    files: Files,
    builder: MatcherBuilder,
    parse: ParseConfig,
    agent: Agent,
    /// Host key to entry for hosts that have a file and were seen so far (None: unreadable).
    hosts: Mutex<HashMap<String, Option<HostRules>>>,
    /// Body hash to entry.
    bodies: Mutex<HashMap<BodyKey, Arc<Entry>>>,
    next_index: AtomicUsize,
    /// Files that could not be read (reported at the end; their hosts count as without one).
    errors: Mutex<Vec<String>>,
}

impl Store {
    /// Opens `path` (a file or a directory). A missing or unreadable path is an error naming it.
    pub fn open(
        path: &Path,
        agent: Agent,
        builder: MatcherBuilder,
        parse: ParseConfig,
    ) -> anyhow::Result<Store> {
        use anyhow::Context;
        let meta = std::fs::metadata(path)
            .with_context(|| format!("cannot read robots path '{}'", path.display()))?;
        let store = |files| Store {
            files,
            builder: builder.clone(),
            parse: parse.clone(),
            agent: agent.clone(),
            hosts: Mutex::new(HashMap::new()),
            bodies: Mutex::new(HashMap::new()),
            next_index: AtomicUsize::new(1),
            errors: Mutex::new(Vec::new()),
        };
        if meta.is_dir() {
            let mut index = HashMap::new();
            let entries = std::fs::read_dir(path)
                .with_context(|| format!("cannot list robots directory '{}'", path.display()))?;
            for entry in entries {
                let entry = entry.with_context(|| format!("cannot list '{}'", path.display()))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                let p = entry.path();
                if let Some(host) = name.strip_suffix(".txt") {
                    if p.is_file() {
                        index.insert(host.to_ascii_lowercase(), p);
                    }
                } else if p.join("robots.txt").is_file() {
                    index.insert(name.to_ascii_lowercase(), p.join("robots.txt"));
                }
            }
            Ok(store(Files::Dir(index)))
        } else {
            let body = std::fs::read(path)
                .with_context(|| format!("cannot read robots.txt file '{}'", path.display()))?;
            let entry = Arc::new(Entry {
                matcher: builder.build(&Robots::parse_with(&body, &parse), agent.clone()),
                index: 0,
            });
            Ok(store(Files::Single(entry)))
        }
    }

    /// A store of WARC captures: host key to the outcome of fetching its robots.txt.
    pub fn from_outcomes<'a>(
        hosts: impl IntoIterator<Item = (String, FetchOutcome<'a>)>,
        agent: Agent,
        builder: MatcherBuilder,
        parse: ParseConfig,
    ) -> Store {
        let map = hosts
            .into_iter()
            .map(|(host, outcome)| {
                // Only the status decides here: a 2xx body is parsed when its host is first
                // met in the log, like a file of a directory store.
                let reason = Reason::of(&outcome);
                let availability = reason.availability();
                let (body, all) = match (availability, &outcome) {
                    (Availability::Available, FetchOutcome::Response { body, .. }) => {
                        (Some(body.to_vec()), None)
                    }
                    _ => (
                        None,
                        Some(Arc::new(AllRules {
                            allowed: availability == Availability::Unavailable,
                            reason,
                        })),
                    ),
                };
                (
                    host,
                    WarcHost {
                        body,
                        all,
                        availability,
                    },
                )
            })
            .collect();
        Store {
            files: Files::Warc(map),
            builder,
            parse,
            agent,
            hosts: Mutex::new(HashMap::new()),
            bodies: Mutex::new(HashMap::new()),
            next_index: AtomicUsize::new(1),
            errors: Mutex::new(Vec::new()),
        }
    }

    /// For a WARC store, the availability of a host key's robots.txt (`None`: no capture, or
    /// not a WARC store).
    pub fn availability(&self, key: &str) -> Option<Availability> {
        match &self.files {
            Files::Warc(w) => w.get(key).map(|h| h.availability),
            _ => None,
        }
    }

    /// For a WARC store, how many hosts are available, unavailable, unreachable.
    pub fn availability_counts(&self) -> Option<[usize; 3]> {
        let Files::Warc(w) = &self.files else {
            return None;
        };
        let mut n = [0; 3];
        for h in w.values() {
            n[h.availability as usize] += 1;
        }
        Some(n)
    }

    /// True when the profile always allows `/robots.txt`.
    pub fn robots_txt_allowed(&self) -> bool {
        self.builder.get_profile().robots_txt_allowed
    }

    /// The number of host files in a directory store (1 for a single file; hosts captured in a
    /// WARC store).
    pub fn file_count(&self) -> usize {
        match &self.files {
            Files::Single(_) => 1,
            Files::Dir(d) => d.len(),
            Files::Warc(w) => w.len(),
        }
    }

    /// The number of distinct bodies compiled so far.
    pub fn compiled_count(&self) -> usize {
        match &self.files {
            Files::Single(_) => 1,
            Files::Dir(_) | Files::Warc(_) => self.bodies.lock().map(|b| b.len()).unwrap_or(0),
        }
    }

    /// Heap memory of the compiled matchers (not counting per-thread caches).
    pub fn compiled_memory(&self) -> usize {
        match &self.files {
            Files::Single(e) => e.matcher.memory_usage(),
            Files::Dir(_) | Files::Warc(_) => self
                .bodies
                .lock()
                .map(|b| b.values().map(|e| e.matcher.memory_usage()).sum())
                .unwrap_or(0),
        }
    }

    /// Files that could not be read.
    pub fn errors(&self) -> Vec<String> {
        self.errors.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// The entry for a host key, loading and compiling it on first use.
    fn load(&self, key: &str) -> Option<HostRules> {
        let dir = match &self.files {
            Files::Single(e) => return Some(HostRules::Compiled(e.clone())),
            Files::Dir(d) => d,
            Files::Warc(w) => {
                let host = w.get(key)?;
                if let Some(all) = &host.all {
                    return Some(HostRules::All(all.clone()));
                }
                if let Some(e) = self.hosts.lock().ok()?.get(key) {
                    return e.clone();
                }
                let entry = HostRules::Compiled(self.entry_for(host.body.as_deref()?));
                if let Ok(mut hosts) = self.hosts.lock() {
                    hosts.insert(key.to_string(), Some(entry.clone()));
                }
                return Some(entry);
            }
        };
        let path = dir.get(key)?;
        if let Some(e) = self.hosts.lock().ok()?.get(key) {
            return e.clone();
        }
        let entry = match std::fs::read(path) {
            Ok(body) => Some(HostRules::Compiled(self.entry_for(&body))),
            Err(e) => {
                if let Ok(mut errs) = self.errors.lock() {
                    errs.push(format!(
                        "cannot read robots.txt file '{}': {e}",
                        path.display()
                    ));
                }
                None
            }
        };
        if let Ok(mut hosts) = self.hosts.lock() {
            hosts.insert(key.to_string(), entry.clone());
        }
        entry
    }

    fn entry_for(&self, body: &[u8]) -> Arc<Entry> {
        let key = body_key(body);
        if let Some(e) = self.bodies.lock().ok().and_then(|b| b.get(&key).cloned()) {
            return e;
        }
        // Compile outside the lock; if another thread compiled the same body meanwhile, keep
        // the first.
        let entry = Arc::new(Entry {
            matcher: self
                .builder
                .build(&Robots::parse_with(body, &self.parse), self.agent.clone()),
            index: self.next_index.fetch_add(1, Ordering::Relaxed),
        });
        match self.bodies.lock() {
            Ok(mut b) => b.entry(key).or_insert(entry).clone(),
            Err(_) => entry,
        }
    }
}

/// A worker thread's view of the store: its own host map and lazy-DFA caches.
pub struct View<'s> {
    store: &'s Store,
    // PERF: looked up once per URL; foldhash is several times faster than SipHash here and
    // still seeded per process.
    hosts: HashMap<Vec<u8>, Option<HostRules>, foldhash::fast::RandomState>,
    caches: Vec<Option<Cache>>,
    key: String,
}

/// How a URL was decided.
pub enum Outcome<'a> {
    /// The host has no robots.txt: allowed.
    NoRobots,
    /// Decided by the host's robots.txt.
    Decided(Decision<'a>, &'a Entry),
    /// Robots.txt was unavailable (allowed) or unreachable (disallowed).
    All(bool, &'a AllRules),
}

impl<'s> View<'s> {
    /// A new, empty view.
    pub fn new(store: &'s Store) -> View<'s> {
        View {
            store,
            hosts: HashMap::default(),
            caches: Vec::new(),
            key: String::new(),
        }
    }

    /// Decides `path` (a canonical path) for a URL of `host` (lower case, with `_port` for a
    /// non-default port; `default_port` is the scheme's, tried as `host_port` after `host`).
    pub fn decide(&mut self, host: &[u8], default_port: Option<u16>, path: &[u8]) -> Outcome<'_> {
        if !self.hosts.contains_key(host) {
            let entry = self.lookup(host, default_port);
            self.hosts.insert(host.to_vec(), entry);
        }
        let entry: &Entry = match self.hosts.get(host) {
            Some(Some(HostRules::Compiled(e))) => e,
            Some(Some(HostRules::All(all))) => {
                let allowed =
                    all.allowed || (path == b"/robots.txt" && self.store.robots_txt_allowed());
                return Outcome::All(allowed, all);
            }
            _ => return Outcome::NoRobots,
        };
        if self.caches.len() <= entry.index {
            self.caches.resize_with(entry.index + 1, || None);
        }
        let cache = self.caches[entry.index].get_or_insert_with(|| entry.matcher.create_cache());
        Outcome::Decided(entry.matcher.decide_canonical_with(cache, path), entry)
    }

    fn lookup(&mut self, host: &[u8], default_port: Option<u16>) -> Option<HostRules> {
        self.key.clear();
        self.key.push_str(&String::from_utf8_lossy(host));
        if let Some(e) = self.store.load(&self.key) {
            return Some(e);
        }
        if let Some(port) = default_port {
            self.key.push_str(&format!("_{port}"));
            return self.store.load(&self.key);
        }
        None
    }
}
