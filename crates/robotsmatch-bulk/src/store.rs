//! The robots store: which robots.txt applies to a host, compiled lazily and shared.
//!
//! A store is opened from
//! - one file, applied to every host ([`Store::open`] of a file);
//! - a directory of `<host>.txt` files (or `<host>/robots.txt`; a port is written
//!   `<host>_<port>.txt`) ([`Store::open`] of a directory). The directory is listed once; a
//!   file is read when its host is first seen;
//! - robots.txt captures in WARC files ([`Store::from_warc`], see [`crate::warc`]): one
//!   outcome per host, turned into rules with RFC 9309's status semantics
//!   ([`robotsmatch::fetch`]): a 2xx body is compiled like a file, an unavailable host allows
//!   everything and an unreachable one disallows everything, with the reason kept;
//! - bodies held in memory, host to body ([`Store::from_bodies`]), for embedders that have
//!   them already (a crawler's own fetches, a Spark broadcast).
//!
//! Host keys are lower case, with `_port` for a non-default port (see
//! [`crate::logline::host_key`]); for a URL on its scheme's default port, `<host>_<port>` is
//! tried after `<host>`. Keys are bytes, compared exactly (only ASCII letters are lower-cased):
//! a file named `\xff.txt` is the host `\xff` and no other. A robots.txt file is read up to
//! the parse limit + 1 byte (all the parser looks at), so `--robots /dev/zero` costs 500 KiB. A body is compiled when its host is first seen, and identical bodies
//! are compiled once (keyed by a 128-bit hash of the body), so memory grows with the distinct
//! bodies actually used, not with the hosts.
//!
//! A [`Store`] is a cheap handle (clone it freely; clones share everything). Classification
//! threads keep their own host tables in front of it (see [`crate::classify`]), so the shared
//! maps are locked only the first time a thread meets a host.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use robotsmatch::cache::{body_key, BodyKey};
use robotsmatch::fetch::{Availability, Outcome as FetchOutcome, Reason};
use robotsmatch::{Agent, Matcher, MatcherBuilder, ParseConfig};

use crate::error::{Error, ErrorKind};
use crate::keys::KeyTable;
use crate::warc;

/// The store's maps, keyed by host names and body hashes: foldhash, seeded per process (SipHash
/// was 8% of a job that meets every host once).
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The DFA table budget per robots.txt body in a store, in bytes
/// ([`MatcherBuilder::dense_size_limit`]): a store holds thousands of matchers at once, so it is
/// smaller than the library's default (1 MiB); the same budget as the library's `RobotsCache`.
pub const STORE_DENSE_SIZE_LIMIT: usize = robotsmatch::cache::CacheConfig::DEFAULT_DENSE_SIZE_LIMIT;

/// How a store compiles its bodies: for which crawler, with which limits.
#[derive(Clone, Debug)]
pub struct StoreConfig {
    agent: Agent,
    builder: MatcherBuilder,
    parse: ParseConfig,
}

impl StoreConfig {
    /// Rules for `agent` (a product token or a full user-agent string), the default profile
    /// and limits, and a DFA table budget of [`STORE_DENSE_SIZE_LIMIT`] per body.
    pub fn new(agent: impl Into<Agent>) -> StoreConfig {
        StoreConfig {
            agent: agent.into(),
            builder: MatcherBuilder::new().dense_size_limit(STORE_DENSE_SIZE_LIMIT),
            parse: ParseConfig::new(),
        }
    }

    /// The matcher builder (profile, engine, limits) used for every body.
    pub fn builder(mut self, builder: MatcherBuilder) -> StoreConfig {
        self.builder = builder;
        self
    }

    /// The parse limits used for every body.
    pub fn parse_config(mut self, parse: ParseConfig) -> StoreConfig {
        self.parse = parse;
        self
    }

    /// The crawler.
    pub fn agent(&self) -> &Agent {
        &self.agent
    }

    /// The matcher builder.
    pub fn get_builder(&self) -> &MatcherBuilder {
        &self.builder
    }

    /// The most bytes of a robots.txt body that are read: the parse limit + 1 (one byte more
    /// tells the parser that the file goes on past its limit).
    pub fn read_limit(&self) -> usize {
        self.parse.get_max_bytes().saturating_add(1)
    }

    fn compile(&self, body: &[u8]) -> Matcher {
        // PERF: only the crawler's groups are read (no `Robots` for the whole file).
        self.builder
            .clone()
            .parse_config(self.parse.clone())
            .build_from_bytes(body, self.agent.clone())
    }
}

/// One distinct robots.txt body, compiled for the crawler.
#[derive(Debug)]
pub struct Entry {
    matcher: Matcher,
    index: usize,
}

impl Entry {
    /// The compiled matcher.
    pub fn matcher(&self) -> &Matcher {
        &self.matcher
    }

    /// A dense index among the store's bodies (0, 1, 2, ...), for per-thread tables.
    pub fn index(&self) -> usize {
        self.index
    }
}

/// A host's rules when robots.txt was unavailable or unreachable: everything allowed or
/// disallowed, and why.
#[derive(Debug)]
pub struct AllRules {
    allowed: bool,
    reason: Reason,
}

impl AllRules {
    /// True for allow all (unavailable), false for disallow all (unreachable).
    pub fn allowed(&self) -> bool {
        self.allowed
    }

    /// Why (`robots.txt unreachable (503)`).
    pub fn reason(&self) -> &Reason {
        &self.reason
    }
}

/// What applies to a host that has an entry in the store.
#[derive(Clone, Debug)]
pub enum HostRules {
    /// A robots.txt body, compiled.
    Compiled(Arc<Entry>),
    /// Allow all or disallow all.
    All(Arc<AllRules>),
}

/// One host of a WARC or in-memory store: a body compiled on first use, or allow/disallow all.
struct HeldHost {
    /// The body of a 2xx capture (or an in-memory body).
    body: Option<Vec<u8>>,
    /// Allow all / disallow all, for the other outcomes.
    all: Option<Arc<AllRules>>,
    /// Available, unavailable or unreachable.
    availability: Availability,
}

/// Where the store's files come from.
enum Files {
    /// One file for every host.
    Single(Arc<Entry>),
    /// `<host>.txt` files: host key (lower case, `host` or `host_port`) to path.
    Dir(DirIndex),
    /// Captures from WARC files: host key to outcome.
    Warc(Map<Vec<u8>, HeldHost>),
    /// Bodies given in memory: host key to body.
    Bodies(Map<Vec<u8>, HeldHost>),
}

/// What reading WARC files found (see [`Store::from_warc`]).
#[derive(Clone, Debug, Default)]
pub struct WarcReport {
    /// The files read.
    pub files: usize,
    /// Records of every kind, summed over the files.
    pub counts: warc::Counts,
    /// Hosts in the store.
    pub hosts: usize,
    /// Response captures whose `WARC-Target-URI` has no host (skipped).
    pub no_host: Vec<warc::Capture>,
}

/// The robots store shared by all threads: a cheap handle, `Send + Sync`; clones share
/// everything (compiled bodies, the host map, errors).
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    files: Files,
    config: StoreConfig,
    /// Host key to rules, for hosts that have a file and were seen so far (None: unreadable).
    hosts: Mutex<Map<Vec<u8>, Option<HostRules>>>,
    /// Body hash to entry, set by the first thread that needs it; a thread that needs a body
    /// another is compiling waits for it instead of compiling it again.
    bodies: Mutex<Map<BodyKey, Arc<OnceLock<Arc<Entry>>>>>,
    /// Bodies compiled (equal to the distinct bodies: none is compiled twice).
    compilations: AtomicUsize,
    next_index: AtomicUsize,
    /// Bytes of the distinct bodies compiled.
    body_bytes: AtomicU64,
    /// Files that could not be read (their hosts count as without one).
    errors: Mutex<Vec<String>>,
    /// Whether any host key ends in `_<digits>` (a port): without one, a URL on its scheme's
    /// default port needs no second lookup.
    port_keys: bool,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("agent", &self.inner.config.agent)
            .field("files", &self.file_count())
            .field("compiled", &self.compiled_count())
            .finish()
    }
}

impl Store {
    fn with_files(files: Files, config: StoreConfig, next_index: usize, body_bytes: u64) -> Store {
        let port_keys = match &files {
            Files::Single(_) => false,
            Files::Dir(d) => d.keys().any(has_port),
            Files::Warc(h) | Files::Bodies(h) => h.keys().any(|k| has_port(k)),
        };
        Store {
            inner: Arc::new(Inner {
                files,
                config,
                hosts: Mutex::new(Map::default()),
                bodies: Mutex::new(Map::default()),
                compilations: AtomicUsize::new(usize::from(next_index > 0)),
                next_index: AtomicUsize::new(next_index),
                body_bytes: AtomicU64::new(body_bytes),
                errors: Mutex::new(Vec::new()),
                port_keys,
            }),
        }
    }

    /// Opens `path`: a robots.txt file for every host, or a directory of `<host>.txt` files
    /// (also `<host>/robots.txt`; a port as `<host>_<port>.txt`). A missing or unreadable
    /// path is an error naming it; a single file is read and compiled now, a directory's
    /// files when their hosts are first seen.
    pub fn open(path: &Path, config: StoreConfig) -> Result<Store, Error> {
        let meta =
            std::fs::metadata(path).map_err(|e| Error::new(ErrorKind::RobotsPath, path, e))?;
        if meta.is_dir() {
            let mut index = DirIndex::new(path);
            let list = |e| Error::new(ErrorKind::ListDir, path, e);
            for entry in std::fs::read_dir(path).map_err(list)? {
                let entry = entry.map_err(list)?;
                let name = entry.file_name();
                // Issue 16.6: the name's bytes as they are (a lossy conversion made every
                // name that is not UTF-8 the same key).
                let Some(bytes) = name_bytes(&name) else {
                    continue;
                };
                // PERF: the entry's type comes with the listing on most file systems; a stat
                // per file (`Path::is_file`) was 11% of a job that meets every host once.
                // Symbolic links (and file systems that do not say) are followed with a stat.
                let kind = entry.file_type().ok();
                let (is_file, is_dir) = match kind {
                    Some(t) if t.is_file() => (true, false),
                    Some(t) if t.is_dir() => (false, true),
                    _ => {
                        let meta = std::fs::metadata(entry.path()).ok();
                        (
                            meta.as_ref().is_some_and(|m| m.is_file()),
                            meta.as_ref().is_some_and(|m| m.is_dir()),
                        )
                    }
                };
                if let Some(host) = bytes.strip_suffix(b".txt") {
                    if is_file {
                        let key_len = host.len();
                        index.insert(name, key_len, false);
                    }
                } else if is_dir && path.join(&name).join("robots.txt").is_file() {
                    let key_len = bytes.len();
                    index.insert(name, key_len, true);
                }
            }
            Ok(Store::with_files(Files::Dir(index), config, 0, 0))
        } else {
            let body = read_limited(path, config.read_limit())
                .map_err(|e| Error::new(ErrorKind::RobotsFile, path, e))?;
            let entry = Arc::new(Entry {
                matcher: config.compile(&body),
                index: 0,
            });
            Ok(Store::with_files(
                Files::Single(entry),
                config,
                1,
                body.len() as u64,
            ))
        }
    }

    /// A store of bodies held in memory: host key (`example.com`, `example.com_8080`; compared
    /// ignoring case) to robots.txt body. Each body is compiled when its host is first seen;
    /// identical bodies once.
    ///
    /// ```
    /// use robotsmatch_bulk::{Store, StoreConfig};
    ///
    /// let store = Store::from_bodies(
    ///     [("shop.example", &b"User-agent: *\nDisallow: /cart\n"[..])],
    ///     StoreConfig::new("Googlebot"),
    /// );
    /// assert_eq!(store.file_count(), 1);
    /// ```
    pub fn from_bodies<K, B>(bodies: impl IntoIterator<Item = (K, B)>, config: StoreConfig) -> Store
    where
        K: AsRef<str>,
        B: Into<Vec<u8>>,
    {
        let map = bodies
            .into_iter()
            .map(|(host, body)| {
                (
                    host.as_ref().as_bytes().to_ascii_lowercase(),
                    HeldHost {
                        body: Some(body.into()),
                        all: None,
                        availability: Availability::Available,
                    },
                )
            })
            .collect();
        Store::with_files(Files::Bodies(map), config, 0, 0)
    }

    /// A store of fetch outcomes, host key to the outcome of fetching its robots.txt (RFC 9309
    /// status semantics: a 2xx body is compiled on first use, unavailable allows all,
    /// unreachable disallows all).
    pub fn from_outcomes<'a>(
        hosts: impl IntoIterator<Item = (String, FetchOutcome<'a>)>,
        config: StoreConfig,
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
                    host.into_bytes(),
                    HeldHost {
                        body,
                        all,
                        availability,
                    },
                )
            })
            .collect();
        Store::with_files(Files::Warc(map), config, 0, 0)
    }

    /// A store of the robots.txt captures in WARC files (see [`crate::warc`] for the format):
    /// per host the most recent capture, redirects followed within the input. Each file is
    /// streamed, each body cut at the parse limit + 1, and only the most recent capture of
    /// each URI is kept as they come (issue 16.4). A file that cannot be read, or that holds
    /// no WARC record at all, is an error naming it; a malformed record is passed to
    /// `on_problem` with its file, skipped and counted.
    pub fn from_warc<P: AsRef<Path>>(
        paths: &[P],
        config: StoreConfig,
        on_problem: &mut dyn FnMut(&Path, &warc::Problem),
    ) -> Result<(Store, WarcReport), Error> {
        let mut captures = warc::Captures::default();
        let mut report = WarcReport {
            files: paths.len(),
            ..WarcReport::default()
        };
        for path in paths {
            let path = path.as_ref();
            let failed = |e| Error::new(ErrorKind::WarcFile, path, e);
            let file = std::fs::File::open(path).map_err(failed)?;
            if file.metadata().map_err(failed)?.is_dir() {
                return Err(failed(std::io::Error::other("is a directory")));
            }
            let c = warc::read_from(
                file,
                config.read_limit(),
                &mut |c| captures.add(c),
                &mut |p| on_problem(path, &p),
            )
            .map_err(failed)?;
            if c.headers == 0 {
                let why = format!(
                    "no 'WARC/1.x' record could be read ({} malformed)",
                    c.malformed
                );
                return Err(Error::new(
                    ErrorKind::NoWarcRecord,
                    path,
                    std::io::Error::new(std::io::ErrorKind::InvalidData, why),
                ));
            }
            warc::add(&mut report.counts, c);
        }
        let (hosts, no_host) = captures.resolve();
        report.hosts = hosts.len();
        report.no_host = no_host;
        let outcomes = hosts.iter().map(|h| {
            let outcome = if h.too_many_redirects {
                FetchOutcome::TooManyRedirects {
                    redirects: h.redirects.clone(),
                }
            } else {
                FetchOutcome::Response {
                    status: h.capture.status,
                    body: if h.dangling_redirect {
                        &[]
                    } else {
                        &h.capture.body
                    },
                    redirects: h.redirects.clone(),
                }
            };
            (h.host.clone(), outcome)
        });
        Ok((Store::from_outcomes(outcomes, config), report))
    }

    /// How bodies are compiled.
    pub fn config(&self) -> &StoreConfig {
        &self.inner.config
    }

    /// For a WARC store, the availability of a host key's robots.txt (`None`: no capture, or
    /// not a WARC store).
    pub fn availability(&self, key: &[u8]) -> Option<Availability> {
        match &self.inner.files {
            Files::Warc(w) => w.get(key).map(|h| h.availability),
            _ => None,
        }
    }

    /// For a WARC store, how many hosts are available, unavailable, unreachable (`None` for
    /// other stores).
    pub fn availability_counts(&self) -> Option<[usize; 3]> {
        let Files::Warc(w) = &self.inner.files else {
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
        self.inner.config.builder.get_profile().robots_txt_allowed
    }

    /// The number of host files in a directory store (1 for a single file; hosts captured in a
    /// WARC store; hosts given to [`Store::from_bodies`]).
    pub fn file_count(&self) -> usize {
        match &self.inner.files {
            Files::Single(_) => 1,
            Files::Dir(d) => d.len(),
            Files::Warc(w) | Files::Bodies(w) => w.len(),
        }
    }

    /// The number of distinct bodies compiled so far.
    pub fn compiled_count(&self) -> usize {
        match &self.inner.files {
            Files::Single(_) => 1,
            _ => self
                .inner
                .bodies
                .lock()
                .map(|b| b.values().filter(|e| e.get().is_some()).count())
                .unwrap_or(0),
        }
    }

    /// How many times a body was compiled: [`Store::compiled_count`], as no body is compiled
    /// twice even when several threads meet it at once.
    pub fn compilations(&self) -> usize {
        self.inner.compilations.load(Ordering::Relaxed)
    }

    /// The bytes of the distinct bodies compiled so far.
    pub fn body_bytes(&self) -> u64 {
        self.inner.body_bytes.load(Ordering::Relaxed)
    }

    /// Heap memory of the compiled matchers (not counting per-thread caches).
    pub fn compiled_memory(&self) -> usize {
        match &self.inner.files {
            Files::Single(e) => e.matcher.memory_usage(),
            _ => self
                .inner
                .bodies
                .lock()
                .map(|b| {
                    b.values()
                        .filter_map(|e| e.get())
                        .map(|e| e.matcher.memory_usage())
                        .sum()
                })
                .unwrap_or(0),
        }
    }

    /// Files that could not be read, one message each (their hosts were treated as having no
    /// robots.txt).
    pub fn errors(&self) -> Vec<String> {
        self.inner
            .errors
            .lock()
            .map(|e| e.clone())
            .unwrap_or_default()
    }

    /// The rules for a host key (lower case, with `_port` for a non-default port), loading and
    /// compiling them on first use; for a URL on its scheme's default port (`default_port`),
    /// `<host>_<port>` is tried after `<host>`. `None`: the host has no robots.txt.
    pub fn rules_for(&self, host: &[u8], default_port: Option<u16>) -> Option<HostRules> {
        if let Some(e) = self.load(host) {
            return Some(e);
        }
        let port = default_port?;
        // PERF: most stores have no `_<port>` key; then every host without a file looked
        // itself up twice, and formatted the second key (50,560 times on a 200 MB cut of the
        // benchmark log: 1% of its instructions).
        if !self.inner.port_keys {
            return None;
        }
        let mut key = Vec::with_capacity(host.len() + 6);
        key.extend_from_slice(host);
        key.push(b'_');
        key.extend_from_slice(port.to_string().as_bytes());
        self.load(&key)
    }

    /// The entry for a host key, loading and compiling it on first use.
    fn load(&self, key: &[u8]) -> Option<HostRules> {
        let inner = &*self.inner;
        let dir = match &inner.files {
            Files::Single(e) => return Some(HostRules::Compiled(e.clone())),
            Files::Dir(d) => d,
            Files::Warc(held) | Files::Bodies(held) => {
                let host = held.get(key)?;
                if let Some(all) = &host.all {
                    return Some(HostRules::All(all.clone()));
                }
                if let Some(e) = inner.hosts.lock().ok()?.get(key) {
                    return e.clone();
                }
                let entry = HostRules::Compiled(self.entry_for(host.body.as_deref()?));
                if let Ok(mut hosts) = inner.hosts.lock() {
                    hosts.insert(key.to_vec(), Some(entry.clone()));
                }
                return Some(entry);
            }
        };
        let path = dir.get(key)?;
        if let Some(e) = inner.hosts.lock().ok()?.get(key) {
            return e.clone();
        }
        let entry = match read_limited(&path, inner.config.read_limit()) {
            Ok(body) => Some(HostRules::Compiled(self.entry_for(&body))),
            Err(e) => {
                if let Ok(mut errs) = inner.errors.lock() {
                    errs.push(format!(
                        "cannot read robots.txt file '{}': {e}",
                        path.display()
                    ));
                }
                None
            }
        };
        if let Ok(mut hosts) = inner.hosts.lock() {
            hosts.insert(key.to_vec(), entry.clone());
        }
        entry
    }

    fn entry_for(&self, body: &[u8]) -> Arc<Entry> {
        let inner = &*self.inner;
        let key = body_key(body);
        let cell = match inner.bodies.lock() {
            Ok(mut bodies) => bodies.entry(key).or_default().clone(),
            Err(_) => Arc::new(OnceLock::new()),
        };
        // Compiled outside the map's lock: other bodies are looked up and compiled meanwhile;
        // a thread that needs this body waits here for it.
        cell.get_or_init(|| {
            let matcher = inner.config.compile(body);
            inner.compilations.fetch_add(1, Ordering::Relaxed);
            inner
                .body_bytes
                .fetch_add(body.len() as u64, Ordering::Relaxed);
            Arc::new(Entry {
                matcher,
                index: inner.next_index.fetch_add(1, Ordering::Relaxed),
            })
        })
        .clone()
    }
}

/// Reads at most `limit` bytes of a file (issue 16.6: only the parse limit + 1 matter, and a
/// device such as `/dev/zero` never ends).
pub fn read_limited(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    // PERF: sized from the file's length (one read for most files, as `std::fs::read` does;
    // an empty Vec grew through several reads). A device has no length: it grows.
    let meta = file.metadata().ok();
    let size = meta.as_ref().map_or(0, |m| m.len()).min(limit as u64) as usize;
    // PERF: a regular file is read up to the length it had when it was opened: once that many
    // bytes are in, `take` ends the reading without another call to the system (reading to
    // the end asked once more: half of the store's read calls, 31,388 for the 15,345 files of
    // one URL per host). A file that grows meanwhile is read as it was; one that shrinks ends
    // at its end.
    let (capacity, take) = if size > 0 && meta.is_some_and(|m| m.is_file()) {
        (size, size)
    } else {
        (size.saturating_add(1).min(limit), limit)
    };
    let mut body = Vec::with_capacity(capacity);
    file.take(take as u64).read_to_end(&mut body)?;
    Ok(body)
}

/// A file name's bytes, exactly. On Unix any name; elsewhere names that are valid Unicode
/// (others cannot be a host key exactly and are skipped).
fn name_bytes(name: &std::ffi::OsStr) -> Option<&[u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        name.to_str().map(str::as_bytes)
    }
}

/// The `<host>.txt` files (and `<host>/robots.txt`) of a directory store: host key to file
/// name.
// PERF: a map of `Vec<u8>` keys to full paths took four allocations per file (the name, its
// bytes, the lower-case key, the joined path) and grew by rehashing every key: listing the
// 15,345 files of the real store took 13-15 ms before any URL was read (the whole of a job
// of a few URLs); this index takes about 10 ms, most of it the kernel's directory read.
struct DirIndex {
    dir: PathBuf,
    /// Lower-case host key to (index into `names`, `<host>/robots.txt` rather than
    /// `<host>.txt`).
    files: KeyTable<(usize, bool)>,
    /// The file (or directory) names, as listed.
    names: Vec<std::ffi::OsString>,
    /// The key being filed, lower-cased (reused from file to file).
    key: Vec<u8>,
}

impl DirIndex {
    fn new(dir: &Path) -> DirIndex {
        DirIndex {
            dir: dir.to_path_buf(),
            files: KeyTable::default(),
            names: Vec::new(),
            key: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.files.len()
    }

    /// Files the host named by the first `key_len` bytes of `name` (any case) to `name`; a
    /// later file of the same key replaces an earlier one.
    fn insert(&mut self, name: std::ffi::OsString, key_len: usize, nested: bool) {
        let Some(bytes) = name_bytes(&name) else {
            return;
        };
        self.key.clear();
        self.key.extend(
            bytes[..key_len.min(bytes.len())]
                .iter()
                .map(u8::to_ascii_lowercase),
        );
        let file = (self.names.len(), nested);
        self.names.push(name);
        *self.files.entry(&self.key, || file) = file;
    }

    /// The path of the file of a host key (lower case).
    fn get(&self, key: &[u8]) -> Option<PathBuf> {
        let &(name, nested) = self.files.get(key)?;
        let path = self.dir.join(&self.names[name]);
        Some(if nested {
            path.join("robots.txt")
        } else {
            path
        })
    }

    /// Every key.
    fn keys(&self) -> impl Iterator<Item = &[u8]> {
        self.files.iter().map(|(k, _)| k)
    }
}

/// Whether a host key ends in `_<digits>`, the form of a key for a non-default port.
fn has_port(key: &[u8]) -> bool {
    key.iter().rposition(|&b| b == b'_').is_some_and(|at| {
        let digits = &key[at + 1..];
        !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_store_compiles_identical_bodies_once_and_falls_back_to_the_default_port() {
        let body = &b"User-agent: *\nDisallow: /cart\n"[..];
        let store = Store::from_bodies(
            [
                ("Shop.example", body),
                ("other.example", body),
                ("port.example_443", &b"User-agent: *\nDisallow: /\n"[..]),
            ],
            StoreConfig::new("Googlebot"),
        );
        assert_eq!(store.file_count(), 3);
        let a = store.rules_for(b"shop.example", Some(443));
        let b = store.rules_for(b"other.example", None);
        match (a, b) {
            (Some(HostRules::Compiled(a)), Some(HostRules::Compiled(b))) => {
                assert!(Arc::ptr_eq(&a, &b));
                assert!(!a.matcher().decide("/cart").is_allowed());
            }
            _ => panic!("both hosts have a body"),
        }
        assert_eq!(store.compiled_count(), 1);
        assert_eq!(store.body_bytes(), body.len() as u64);
        assert!(store.rules_for(b"port.example", Some(80)).is_none());
        assert!(store.rules_for(b"port.example", Some(443)).is_some());
        assert!(store.rules_for(b"none.example", Some(443)).is_none());
        assert_eq!(store.compiled_count(), 2);
    }

    #[test]
    fn only_a_key_ending_in_an_underscore_and_digits_names_a_port() {
        for (key, port) in [
            (&b"port.example_443"[..], true),
            (b"a_1", true),
            (b"a_b_8080", true),
            (b"a_", false),
            (b"a_44x", false),
            (b"a_1.example", false),
            (b"a_1_", false),
            (b"example.com", false),
            (b"", false),
        ] {
            assert_eq!(has_port(key), port, "{}", String::from_utf8_lossy(key));
        }
        // A directory store with a port key looks it up for a URL on the default port.
        let dir = std::env::temp_dir().join(format!("robotsmatch-port-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("port.example_443.txt"),
            "User-agent: *\nDisallow: /\n",
        )
        .unwrap();
        let store = Store::open(&dir, StoreConfig::new("Googlebot")).unwrap();
        let found = store.rules_for(b"port.example", Some(443)).is_some();
        let other = store.rules_for(b"port.example", Some(80)).is_some();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(found);
        assert!(!other);
    }

    /// Threads that meet the same body at once compile it once: the others wait for it.
    #[test]
    fn a_body_met_by_many_threads_at_once_is_compiled_once() {
        let body = "User-agent: *\nDisallow: /a*b*c*d$\nDisallow: /e*f\n".repeat(50);
        let hosts: Vec<(String, String)> =
            (0..64).map(|i| (format!("h{i}"), body.clone())).collect();
        for _ in 0..20 {
            let store = Store::from_bodies(hosts.clone(), StoreConfig::new("x"));
            let barrier = std::sync::Barrier::new(8);
            std::thread::scope(|scope| {
                for t in 0..8 {
                    let (store, barrier) = (&store, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        assert!(store.rules_for(format!("h{t}").as_bytes(), None).is_some());
                    });
                }
            });
            assert_eq!((store.compiled_count(), store.compilations()), (1, 1));
        }
    }

    /// Keys ignore the case of file names: two files whose names differ only in case are one
    /// host (the one listed later wins), counted once; long and many keys are all found.
    #[test]
    fn directory_store_keys_are_lower_case_and_each_counted_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(
            root.join("Dup.example.txt"),
            "User-agent: *\nDisallow: /a\n",
        )
        .unwrap();
        std::fs::write(
            root.join("dup.EXAMPLE.txt"),
            "User-agent: *\nDisallow: /b\n",
        )
        .unwrap();
        let long = "x".repeat(200);
        for i in 0..300 {
            std::fs::write(
                root.join(format!("h{i}.{long}.txt")),
                "User-agent: *\nDisallow: /c\n",
            )
            .unwrap();
        }
        let listed = std::fs::read_dir(root).unwrap().count();
        let store = Store::open(root, StoreConfig::new("x")).unwrap();
        // (A file system that ignores case holds one of the two files.)
        assert_eq!(listed, 302 - usize::from(listed == 301));
        assert_eq!(store.file_count(), 301);
        let Some(HostRules::Compiled(e)) = store.rules_for(b"dup.example", None) else {
            panic!("dup.example has a file");
        };
        let m = e.matcher();
        assert_ne!(m.decide("/a").is_allowed(), m.decide("/b").is_allowed());
        for i in 0..300 {
            let host = format!("h{i}.{long}");
            assert!(store.rules_for(host.as_bytes(), None).is_some(), "{i}");
        }
        assert!(store.rules_for(b"h300.example", None).is_none());
    }

    /// A directory store indexes `<host>.txt` files and `<host>/robots.txt`, through symbolic
    /// links too (their type is not in the listing: they are followed), and nothing else.
    #[test]
    fn directory_store_indexes_files_host_dirs_and_links_to_them() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let body = "User-agent: *\nDisallow: /private\n";
        std::fs::write(root.join("Plain.example.txt"), body).unwrap();
        std::fs::create_dir(root.join("dir.example")).unwrap();
        std::fs::write(root.join("dir.example/robots.txt"), body).unwrap();
        std::fs::create_dir(root.join("empty.example")).unwrap();
        std::fs::create_dir(root.join("notafile.example.txt")).unwrap();
        std::fs::write(root.join("readme"), "not a host").unwrap();
        #[cfg(unix)]
        {
            let link = std::os::unix::fs::symlink;
            link(
                root.join("Plain.example.txt"),
                root.join("link.example.txt"),
            )
            .unwrap();
            link(root.join("dir.example"), root.join("linkdir.example")).unwrap();
            link(root.join("missing"), root.join("dangling.example.txt")).unwrap();
        }
        let store = Store::open(root, StoreConfig::new("x")).unwrap();
        let mut expect = vec!["dir.example", "plain.example"];
        if cfg!(unix) {
            expect.extend(["link.example", "linkdir.example"]);
        }
        assert_eq!(store.file_count(), expect.len());
        for host in expect {
            match store.rules_for(host.as_bytes(), None) {
                Some(HostRules::Compiled(e)) => {
                    assert!(!e.matcher().decide("/private").is_allowed(), "{host}");
                }
                _ => panic!("{host} has a robots.txt"),
            }
        }
        for host in [
            "empty.example",
            "notafile.example",
            "readme",
            "dangling.example",
        ] {
            assert!(store.rules_for(host.as_bytes(), None).is_none(), "{host}");
        }
    }

    #[test]
    fn missing_path_is_an_error_naming_it() {
        let e = Store::open(Path::new("no/such/store"), StoreConfig::new("x"))
            .err()
            .map(|e| (e.to_string(), e.io_kind()));
        assert_eq!(
            e,
            Some((
                "cannot read robots path 'no/such/store'".to_string(),
                std::io::ErrorKind::NotFound
            ))
        );
    }

    /// A regular file is read whole up to the limit, empty or not, in one pass or several
    /// (its length known from the file system); a device still reads to the limit.
    #[test]
    fn read_limited_reads_regular_files_whole_and_stops_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        for len in [0usize, 1, 4095, 4096, 4097, 70_000] {
            let body: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let p = dir.path().join(format!("f{len}"));
            std::fs::write(&p, &body).unwrap();
            assert_eq!(read_limited(&p, 1 << 20).unwrap(), body, "len {len}");
            let cut = read_limited(&p, 1000).unwrap();
            assert_eq!(cut, body[..len.min(1000)], "len {len} cut at 1000");
        }
        #[cfg(unix)]
        if Path::new("/dev/zero").exists() {
            assert_eq!(
                read_limited(Path::new("/dev/zero"), 5000).unwrap(),
                vec![0; 5000]
            );
        }
    }

    #[test]
    fn store_is_send_sync_and_cheap_to_clone() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Store>();
        send_sync::<HostRules>();
        let s = Store::from_bodies(
            [("a", "User-agent: *\nDisallow: /\n")],
            StoreConfig::new("x"),
        );
        let t = s.clone();
        assert!(t.rules_for(b"a", None).is_some());
        assert_eq!(s.compiled_count(), 1, "clones share compiled bodies");
    }
}
