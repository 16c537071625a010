//! The robots store: which robots.txt applies to a host, compiled lazily and shared.
//!
//! `--robots FILE` applies one file to every host. `--robots DIR` holds `<host>.txt` files
//! (or `<host>/robots.txt`; a port is written `<host>_<port>.txt`); host names compare
//! case-insensitively. The directory is listed once at start; a file is read and compiled when
//! its host is first seen, and identical bodies are compiled once (keyed by a 128-bit hash of
//! the body), so memory grows with the distinct bodies actually used, not with the hosts.
//!
//! Each worker thread holds a [`View`]: its own map from host to compiled entry and its own
//! lazy-DFA caches, so the shared store is locked only the first time a thread meets a host.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use robotsmatch::{Agent, Cache, Decision, Matcher, MatcherBuilder, ParseConfig, Robots};

/// One distinct robots.txt body, compiled for the crawler.
pub struct Entry {
    /// The compiled matcher.
    pub matcher: Matcher,
    /// A dense index, for per-thread cache slots.
    pub index: usize,
}

/// Where the store's files come from.
enum Files {
    /// One file for every host.
    Single(Arc<Entry>),
    /// `<host>.txt` files: host key (lower case, `host` or `host_port`) to path.
    Dir(HashMap<String, PathBuf>),
}

/// The robots store shared by all threads.
pub struct Store {
    files: Files,
    builder: MatcherBuilder,
    parse: ParseConfig,
    agent: Agent,
    /// Host key to entry for hosts that have a file and were seen so far (None: unreadable).
    hosts: Mutex<HashMap<String, Option<Arc<Entry>>>>,
    /// Body hash to entry.
    bodies: Mutex<HashMap<(u64, u64, usize), Arc<Entry>>>,
    next_index: AtomicUsize,
    /// Files that could not be read (reported at the end; their hosts count as without one).
    errors: Mutex<Vec<String>>,
}

fn body_key(body: &[u8]) -> (u64, u64, usize) {
    let mut a = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut a);
    let mut b = std::collections::hash_map::DefaultHasher::new();
    0xA5A5_5A5Au32.hash(&mut b);
    body.hash(&mut b);
    (a.finish(), b.finish(), body.len())
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

    /// The number of host files in a directory store (1 for a single file).
    pub fn file_count(&self) -> usize {
        match &self.files {
            Files::Single(_) => 1,
            Files::Dir(d) => d.len(),
        }
    }

    /// The number of distinct bodies compiled so far.
    pub fn compiled_count(&self) -> usize {
        match &self.files {
            Files::Single(_) => 1,
            Files::Dir(_) => self.bodies.lock().map(|b| b.len()).unwrap_or(0),
        }
    }

    /// Heap memory of the compiled matchers (not counting per-thread caches).
    pub fn compiled_memory(&self) -> usize {
        match &self.files {
            Files::Single(e) => e.matcher.memory_usage(),
            Files::Dir(_) => self
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
    fn load(&self, key: &str) -> Option<Arc<Entry>> {
        let dir = match &self.files {
            Files::Single(e) => return Some(e.clone()),
            Files::Dir(d) => d,
        };
        let path = dir.get(key)?;
        if let Some(e) = self.hosts.lock().ok()?.get(key) {
            return e.clone();
        }
        let entry = match std::fs::read(path) {
            Ok(body) => Some(self.entry_for(&body)),
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
    hosts: HashMap<Vec<u8>, Option<Arc<Entry>>, foldhash::fast::RandomState>,
    caches: Vec<Option<Cache>>,
    key: String,
}

/// How a URL was decided.
pub enum Outcome<'a> {
    /// The host has no robots.txt: allowed.
    NoRobots,
    /// Decided by the host's robots.txt.
    Decided(Decision<'a>, &'a Entry),
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
        let Some(Some(entry)) = self.hosts.get(host) else {
            return Outcome::NoRobots;
        };
        let entry: &Entry = entry;
        if self.caches.len() <= entry.index {
            self.caches.resize_with(entry.index + 1, || None);
        }
        let cache = self.caches[entry.index].get_or_insert_with(|| entry.matcher.create_cache());
        Outcome::Decided(entry.matcher.decide_canonical_with(cache, path), entry)
    }

    fn lookup(&mut self, host: &[u8], default_port: Option<u16>) -> Option<Arc<Entry>> {
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
