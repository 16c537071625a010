//! Classification: every URL of logs (or of a batch in memory) against a [`Store`], on all
//! cores, results handed to a [`Sink`] and out in input order.
//!
//! - [`Classifier`] holds the store and the settings (line format, threads, chunk size).
//!   [`Classifier::run`] reads logs through [`crate::reader`]; each worker thread fills one
//!   [`Sink::Batch`] per chunk, and the batches come back in input order on the calling
//!   thread. [`Classifier::count`] only counts. [`Classifier::classify_many`] does the same
//!   for URLs held in memory (an Arrow array, a vector).
//! - [`Worker`] is one thread's state: its host table (a hash of the host key, computed once
//!   per URL, finds the host's rules, its lazy-DFA cache and its counters in one probe, with
//!   no allocation), and buffers reused for every URL. An embedder that classifies URLs one
//!   at a time (a crawler's frontier) keeps a worker per thread and calls
//!   [`Worker::classify_url`].
//!
//! Decisions are exactly those of [`robotsmatch::Matcher::decide`] with the host's matcher;
//! nothing is cached by URL (each URL is decided, however often it repeats).

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use robotsmatch::canon::{canonical_path, canonicalize_if_needed, canonicalize_into};
use robotsmatch::url::UrlParts;
use robotsmatch::{Cache, Decision, RuleRef};

use crate::logline::{self, CsvFields, LineFormat, Malformed};
use crate::reader::{self, Chunk, Line, LogError, LogPath, ReadConfig};
use crate::store::{AllRules, Entry, HostRules, Store};
use crate::summary::{MalformedLine, RuleTally, Summary, MALFORMED_KEPT, MALFORMED_TEXT_KEPT};

/// How a URL was decided.
#[derive(Clone, Copy, Debug)]
pub enum Outcome<'a> {
    /// The host has no robots.txt: allowed.
    NoRobots,
    /// Decided by the host's robots.txt.
    Decided(Decision<'a>),
    /// The host's robots.txt was unavailable (allow all) or unreachable (disallow all).
    All(&'a AllRules),
}

/// One classified URL, as a [`Sink`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct Classified<'a> {
    /// The URL as written in the log (CSV quotes removed).
    pub text: &'a [u8],
    /// The URL as matched (`&amp;` decoded when [`LineFormat::decode_amp`] is set).
    pub url: &'a [u8],
    /// The host key (lower case, `_port` for a non-default port).
    pub host: &'a [u8],
    /// The verdict.
    pub allowed: bool,
    /// How it was decided.
    pub outcome: Outcome<'a>,
}

impl<'a> Classified<'a> {
    /// The deciding rule, if a rule decided.
    pub fn rule(&self) -> Option<RuleRef<'a>> {
        match self.outcome {
            Outcome::Decided(d) => d.rule(),
            _ => None,
        }
    }

    /// True when the host has a robots.txt that was parsed (not for allow/disallow all).
    pub fn has_robots(&self) -> bool {
        matches!(self.outcome, Outcome::Decided(_))
    }
}

/// A line (or a URL given directly) without a usable URL.
#[derive(Clone, Copy, Debug)]
pub struct Invalid<'a> {
    /// The line as read (without its line end); for [`Malformed::TooLong`], its first
    /// [`reader::LINE_PREFIX`] bytes.
    pub line: &'a [u8],
    /// Why.
    pub reason: Malformed,
}

/// What a classification does with each result. Its methods run on the worker threads, each
/// filling a batch for one chunk of input; the batches are handed back in input order (by
/// [`Classifier::run`] to its `consume`, by [`Classifier::classify_many`] as a vector).
///
/// `()` is the sink that only counts (the [`Summary`] is always kept).
///
/// ```
/// use robotsmatch_bulk::{Classified, Invalid, Sink};
///
/// /// Collects the disallowed URLs.
/// struct Disallowed;
///
/// impl Sink for Disallowed {
///     type Batch = Vec<String>;
///     fn batch(&self, _bytes: usize) -> Vec<String> {
///         Vec::new()
///     }
///     fn url(&self, batch: &mut Vec<String>, url: &Classified<'_>) {
///         if !url.allowed {
///             batch.push(String::from_utf8_lossy(url.text).into_owned());
///         }
///     }
///     fn invalid(&self, _batch: &mut Vec<String>, _line: &Invalid<'_>) {}
/// }
/// ```
pub trait Sink: Sync {
    /// What one chunk of input produces.
    type Batch: Send;
    /// An empty batch, for a chunk of `size` bytes of a log ([`Classifier::run`]) or for
    /// `size` URLs ([`Classifier::classify_many`]): a capacity hint.
    fn batch(&self, size: usize) -> Self::Batch;
    /// One URL's result.
    fn url(&self, batch: &mut Self::Batch, url: &Classified<'_>);
    /// A line without a usable URL (blank lines included).
    fn invalid(&self, batch: &mut Self::Batch, line: &Invalid<'_>);
    /// A missing input of [`Classifier::classify_many`] (a null in an Arrow array). Never
    /// called for logs. Does nothing unless overridden.
    fn missing(&self, batch: &mut Self::Batch) {
        let _ = batch;
    }
}

impl Sink for () {
    type Batch = ();
    #[inline]
    fn batch(&self, _bytes: usize) {}
    #[inline]
    fn url(&self, _batch: &mut (), _url: &Classified<'_>) {}
    #[inline]
    fn invalid(&self, _batch: &mut (), _line: &Invalid<'_>) {}
}

/// How far a run has come, given to `consume` with each batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Input bytes processed.
    pub bytes: u64,
    /// Lines processed.
    pub lines: u64,
    /// URLs classified (lines without a URL not counted).
    pub urls: u64,
}

/// What a run leaves besides its batches.
#[derive(Debug)]
pub struct Report {
    /// The counts, hosts, rules and malformed lines.
    pub summary: Summary,
    /// Logs that ended badly (every complete line before the cut was classified; the
    /// message says how many).
    pub errors: Vec<LogError>,
    /// Bytes of log text read (after gzip decompression), over all logs.
    pub bytes: u64,
    /// The number of worker threads used.
    pub threads: usize,
    /// Entries in the workers' host tables (each thread has its own: a host seen by both
    /// threads counts twice).
    pub table_entries: usize,
    /// Heap bytes of the workers' host tables.
    pub table_memory: usize,
    /// Heap bytes of the workers' lazy-DFA caches (one per thread and body used).
    pub cache_memory: usize,
}

/// Classifies logs or batches of URLs against a store. Cheap to build; `Send + Sync`.
///
/// ```
/// use robotsmatch_bulk::{Classifier, Store, StoreConfig};
///
/// let store = Store::from_bodies(
///     [("shop.example", "User-agent: *\nDisallow: /cart\n")],
///     StoreConfig::new("Googlebot"),
/// );
/// let mut worker = Classifier::new(&store).worker();
/// let c = worker.classify_url(b"https://shop.example/cart/1").map_err(|e| e.as_str())?;
/// assert!(!c.allowed);
/// assert_eq!(c.rule().map(|r| r.line()), Some(2));
/// let c = worker.classify_url(b"https://elsewhere.example/cart").map_err(|e| e.as_str())?;
/// assert!(c.allowed && !c.has_robots());
/// # Ok::<(), &'static str>(())
/// ```
#[derive(Clone, Debug)]
pub struct Classifier {
    store: Store,
    format: LineFormat,
    read: ReadConfig,
    count_rules: bool,
    count_hosts: bool,
}

impl Classifier {
    /// A classifier over `store`: whole lines are URLs, one thread per core, 1 MiB chunks,
    /// plain files memory-mapped, hosts counted, rules not.
    pub fn new(store: &Store) -> Classifier {
        Classifier {
            store: store.clone(),
            format: LineFormat::default(),
            read: ReadConfig::default(),
            count_rules: false,
            count_hosts: true,
        }
    }

    /// Where the URL is in a line, and whether `&amp;` is decoded.
    pub fn line_format(mut self, format: LineFormat) -> Classifier {
        self.format = format;
        self
    }

    /// Worker threads: at least 1, at most [`reader::max_threads`] (more are run as that
    /// many; [`Classifier::thread_count`] tells).
    pub fn threads(mut self, threads: usize) -> Classifier {
        self.read.threads = threads.clamp(1, reader::max_threads());
        self
    }

    /// The longest log line kept, in bytes ([`ReadConfig::max_line`], default
    /// [`reader::DEFAULT_MAX_LINE`]): a longer line is [`Malformed::TooLong`], and only its
    /// first [`reader::LINE_PREFIX`] bytes are read into memory or reported.
    pub fn max_line(mut self, bytes: usize) -> Classifier {
        self.read.max_line = bytes.max(1);
        self
    }

    /// The largest chunk of a log handed to a thread, in bytes (the results do not depend on
    /// it).
    pub fn chunk_size(mut self, bytes: usize) -> Classifier {
        self.read.chunk_size = bytes.max(1);
        self
    }

    /// Memory-map plain files (the default) or read them.
    pub fn mmap(mut self, mmap: bool) -> Classifier {
        self.read.mmap = mmap;
        self
    }

    /// Count how many URLs each rule decided (for [`Summary::top_rules`]); off by default (it
    /// costs a hash lookup per URL decided by a rule).
    pub fn count_rules(mut self, count: bool) -> Classifier {
        self.count_rules = count;
        self
    }

    /// Count the URLs allowed and disallowed per host (for [`Summary::hosts`]); on by
    /// default. The counts cost nothing per URL; the summary's map of every host seen costs
    /// memory at the end (about 100 bytes per host).
    pub fn count_hosts(mut self, count: bool) -> Classifier {
        self.count_hosts = count;
        self
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The worker threads used.
    pub fn thread_count(&self) -> usize {
        self.read.threads
    }

    /// A worker: one thread's state, for classifying URLs one at a time.
    pub fn worker(&self) -> Worker {
        Worker::new(self)
    }

    /// Classifies every line of `logs` (plain or gzip files, or stdin; see [`crate::reader`]),
    /// each worker thread filling `sink`'s batches; `consume` receives the batches in input
    /// order on the calling thread, with the progress so far. Returns the summary and the
    /// logs that ended badly. An error from `consume` (a closed pipe) stops the run and is
    /// returned; so is a log that cannot be opened (use [`reader::check_logs`] first).
    pub fn run<S, C>(&self, logs: &[LogPath], sink: &S, mut consume: C) -> io::Result<Report>
    where
        S: Sink,
        C: FnMut(S::Batch, &Progress) -> io::Result<()>,
    {
        let mut progress = Progress::default();
        let mut line_base = vec![0u64; logs.len()];
        let mut malformed: Vec<MalformedLine> = Vec::new();
        let finished = reader::run(
            logs,
            &self.read,
            || self.worker(),
            |worker, chunk| worker.classify_chunk(chunk, sink),
            |out: ChunkOut<S::Batch>, bytes| {
                let base = line_base[out.log];
                line_base[out.log] += out.lines;
                for (index, reason, text) in out.malformed {
                    if malformed.len() < MALFORMED_KEPT {
                        malformed.push(MalformedLine {
                            log: out.log,
                            line: base + index + 1,
                            reason,
                            text,
                        });
                    }
                }
                progress.bytes += bytes;
                progress.lines += out.lines;
                progress.urls += out.urls;
                consume(out.batch, &progress)
            },
        )?;
        let mut summary = Summary::default();
        let mut errors = finished.errors;
        for e in &mut errors {
            let lines = line_base.get(e.log).copied().unwrap_or(0);
            e.message
                .push_str(&format!(" ({lines} lines of it classified)"));
        }
        let (mut table_entries, mut table_memory, mut cache_memory) = (0, 0, 0);
        for mut worker in finished.workers {
            table_entries += worker.hosts_seen();
            table_memory += worker.table_memory();
            cache_memory += worker.cache_memory();
            worker.add_summary_to(&mut summary);
            drop(worker);
        }
        summary.malformed_lines = malformed;
        Ok(Report {
            summary,
            errors,
            bytes: progress.bytes,
            threads: self.read.threads,
            table_entries,
            table_memory,
            cache_memory,
        })
    }

    /// Classifies every line of `logs`, keeping only the counts (see [`Classifier::run`]).
    pub fn count(&self, logs: &[LogPath]) -> io::Result<Report> {
        self.run(logs, &(), |(), _| Ok(()))
    }

    /// Classifies `n` URLs held in memory on all threads: `input(i)` gives the `i`-th URL and,
    /// optionally, its host key (`None` for a missing input, given to [`Sink::missing`]). A
    /// URL is taken as it is (no trimming, no columns); without a host key it needs
    /// `scheme://host`. `workers` (one per thread; made when missing, kept warm for the next
    /// call, and given this classifier's line format and counting each time) hold the
    /// counts: take them with [`Worker::take_summary`]. `start` is the position of input 0
    /// in a larger input classified in several calls (0 otherwise): a rule's example host is
    /// the host of the first URL it decided, by position. Returns the batches in input order;
    /// [`Sink::batch`] is given the number of URLs of each.
    pub fn classify_many<'a, S, F>(
        &self,
        workers: &mut Vec<Worker>,
        start: u64,
        n: usize,
        input: F,
        sink: &S,
    ) -> Vec<S::Batch>
    where
        S: Sink,
        F: Fn(usize) -> Option<(&'a [u8], Option<&'a [u8]>)> + Sync,
    {
        let threads = self.read.threads.max(1);
        while workers.len() < threads {
            workers.push(self.worker());
        }
        // Workers kept from an earlier call keep their warm tables but take this
        // classifier's settings (line format, what to count).
        for w in workers.iter_mut() {
            w.format = self.format;
            w.count_rules = self.count_rules;
            w.count_hosts = self.count_hosts;
        }
        // Ranges of at least 4096 URLs, about 8 per thread, so that both cores stay busy.
        let range = (n / (threads * 8)).clamp(4096, 1 << 16);
        let ranges = n.div_ceil(range);
        let results: Vec<Mutex<Option<S::Batch>>> = (0..ranges).map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        let run_range = |worker: &mut Worker| loop {
            let r = next.fetch_add(1, Ordering::Relaxed);
            if r >= ranges {
                break;
            }
            let (first, end) = (r * range, ((r + 1) * range).min(n));
            let mut batch = sink.batch(end - first);
            for i in first..end {
                // 1-based, as a malformed line's number.
                worker.pos = start + i as u64 + 1;
                match input(i) {
                    None => sink.missing(&mut batch),
                    Some((url, host)) => match worker.classify(Field::Url(url), host, None) {
                        Ok(c) => sink.url(&mut batch, &c),
                        Err(reason) => sink.invalid(&mut batch, &Invalid { line: url, reason }),
                    },
                }
            }
            if let Ok(mut slot) = results[r].lock() {
                *slot = Some(batch);
            }
        };
        if threads == 1 || ranges <= 1 {
            if let Some(worker) = workers.first_mut() {
                run_range(worker);
            }
        } else {
            std::thread::scope(|scope| {
                for worker in workers.iter_mut().take(threads) {
                    scope.spawn(|| run_range(worker));
                }
            });
        }
        results
            .into_iter()
            .filter_map(|m| m.into_inner().ok().flatten())
            .collect()
    }
}

/// What a worker makes of one chunk.
struct ChunkOut<B> {
    batch: B,
    log: usize,
    lines: u64,
    urls: u64,
    /// (line index in the chunk, reason, text) of its first malformed lines.
    malformed: Vec<(u64, Malformed, Vec<u8>)>,
}

/// The text a URL comes from.
#[derive(Clone, Copy)]
enum Field<'a> {
    /// A log line (cleaned of its line end): the URL is found per [`LineFormat`].
    Line(&'a [u8]),
    /// A URL given as it is.
    Url(&'a [u8]),
}

/// What applies to a host, as a worker keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Local {
    /// No robots.txt.
    None,
    /// The body with this index (the store's [`Entry::index`]) in the worker's body slots.
    Body(u32),
    /// Allow or disallow all: this index in the worker's list.
    All(u32),
}

/// Host keys up to this many bytes are held in the table entry itself.
const INLINE_KEY: usize = 32;

/// `key_len` of an empty entry.
const EMPTY: u32 = u32::MAX;

/// One host in a worker's table: one cache line, the key inline when it fits (97.7% of the
/// real store's host names do), so that a lookup touches this line only.
#[repr(C, align(64))]
#[derive(Clone)]
struct HostEntry {
    /// The key, zero-padded, when it is at most [`INLINE_KEY`] bytes; else the start of its
    /// bytes in the table's arena (little-endian, in the first 8 bytes).
    key: [u8; INLINE_KEY],
    /// [`EMPTY`] for a free entry.
    key_len: u32,
    /// The scheme's default port (0: none), part of the key: `<host>_<port>` is tried for it.
    default_port: u16,
    rules: Local,
    /// URLs allowed and disallowed since the last summary.
    counts: [u64; 2],
}

const FREE: HostEntry = HostEntry {
    key: [0; INLINE_KEY],
    key_len: EMPTY,
    default_port: 0,
    rules: Local::None,
    counts: [0, 0],
};

/// A key prepared for probing: zero-padded when short, so that comparing it with an entry is
/// one fixed-size comparison.
struct Probe<'k> {
    key: &'k [u8],
    padded: [u8; INLINE_KEY],
    default_port: u16,
    hash: u64,
}

/// A worker's table of the hosts it has seen: open addressing with linear probing over
/// entries of one cache line each (at most three quarters full), so that finding a host costs
/// one hash of its key (foldhash, seeded per table) and, in a shuffled log of many hosts, one
/// cache miss.
struct HostTable {
    /// A power of two long.
    entries: Vec<HostEntry>,
    len: usize,
    /// The keys longer than [`INLINE_KEY`], one after the other.
    long_keys: Vec<u8>,
    hasher: foldhash::fast::RandomState,
}

impl HostTable {
    fn new() -> HostTable {
        HostTable {
            entries: free_entries(256),
            len: 0,
            long_keys: Vec::new(),
            hasher: foldhash::fast::RandomState::default(),
        }
    }

    #[inline]
    fn hash(&self, key: &[u8], default_port: u16) -> u64 {
        let mut h = self.hasher.build_hasher();
        h.write(key);
        h.write_u16(default_port);
        h.finish()
    }

    #[inline]
    fn probe<'k>(&self, key: &'k [u8], default_port: u16) -> Probe<'k> {
        self.probe_hashed(key, default_port, self.hash(key, default_port))
    }

    /// [`HostTable::probe`] with the key's hash already computed (by [`HostTable::hash`]).
    #[inline]
    fn probe_hashed<'k>(&self, key: &'k [u8], default_port: u16, hash: u64) -> Probe<'k> {
        let padded = if key.len() <= INLINE_KEY {
            pad32(key)
        } else {
            [0u8; INLINE_KEY]
        };
        Probe {
            key,
            padded,
            default_port,
            hash,
        }
    }

    /// The index of the entry for the probe's key, or of the free entry where it would go.
    #[inline(always)]
    fn find(&self, probe: &Probe<'_>) -> Result<usize, usize> {
        let mask = self.entries.len() - 1;
        let mut i = probe.hash as usize & mask;
        loop {
            let e = &self.entries[i];
            if e.key_len == EMPTY {
                return Err(i);
            }
            if e.key_len as usize == probe.key.len()
                && e.default_port == probe.default_port
                && if probe.key.len() <= INLINE_KEY {
                    e.key == probe.padded
                } else {
                    self.key(e) == probe.key
                }
            {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The host and default port of `url` when it is an ordinary URL (`url::ordinary_host`),
    /// with the table's hash of that key.
    // PERF: always inlined: as a call of its own (two callers), the job took 3% more
    // instructions.
    #[inline(always)]
    fn read(&self, url: &[u8]) -> Ordinary {
        let (host, port) = robotsmatch::url::ordinary_host(url)?;
        let hash = self.hash(&url[host.clone()], port);
        Some(Read { host, port, hash })
    }

    /// Starts loading the entry where a probe for the key of `hash` would begin, so that the
    /// lookup of a URL a few lines ahead does not wait for memory.
    #[inline]
    fn prefetch(&self, hash: u64) {
        let i = hash as usize & (self.entries.len() - 1);
        prefetch_read(&self.entries[i]);
    }

    /// The next line of `lines`, and the ordinary host of the line when the whole line is an
    /// ordinary URL (`url::ordinary_host`), its table entry prefetched. The worker reuses that
    /// reading when it finds the line's URL is the whole line; for any other line layout
    /// nothing is prefetched.
    ///
    /// It is written into `slot` (the worker's ring of lines ahead), not returned.
    // PERF: returned, the line and its reading went through a temporary that was copied into
    // the ring with 16-byte loads right after being written with 8-byte stores: the loads
    // could not be forwarded from the stores and waited for them (12% of `classify_chunk`'s
    // samples on the 1 GB log, one thread).
    #[inline]
    fn next_prefetched<'a>(
        &self,
        lines: &mut reader::Lines<'a>,
        slot: &mut Option<(Line<'a>, Ordinary)>,
    ) {
        let Some(line) = lines.next() else {
            *slot = None;
            return;
        };
        let ordinary = self.read(line.text);
        if let Some(read) = &ordinary {
            self.prefetch(read.hash);
        }
        // The log's bytes a few lines on: under a busy neighbour's memory traffic, the line
        // scan's loads of the mapped log were where the job waited.
        prefetch_address(line.text.as_ptr().wrapping_add(LOG_AHEAD));
        *slot = Some((line, ordinary));
    }

    /// Fills the free entry `at` that [`HostTable::find`] returned; returns the entry's index
    /// (which changes when the table grows).
    fn insert(&mut self, at: usize, probe: &Probe<'_>, rules: Local) -> usize {
        let key = if probe.key.len() <= INLINE_KEY {
            probe.padded
        } else {
            let mut start = [0u8; INLINE_KEY];
            start[..8].copy_from_slice(&(self.long_keys.len() as u64).to_le_bytes());
            self.long_keys.extend_from_slice(probe.key);
            start
        };
        self.entries[at] = HostEntry {
            key,
            key_len: probe.key.len() as u32,
            default_port: probe.default_port,
            rules,
            counts: [0, 0],
        };
        self.len += 1;
        if self.len * 4 <= self.entries.len() * 3 {
            return at;
        }
        self.grow();
        self.find(probe).unwrap_or(at)
    }

    fn grow(&mut self) {
        let size = self.entries.len() * 2;
        let old = std::mem::replace(&mut self.entries, free_entries(size));
        let mask = self.entries.len() - 1;
        for e in old.into_iter().filter(|e| e.key_len != EMPTY) {
            let mut i = self.hash(self.key(&e), e.default_port) as usize & mask;
            while self.entries[i].key_len != EMPTY {
                i = (i + 1) & mask;
            }
            self.entries[i] = e;
        }
    }

    fn key<'a>(&'a self, e: &'a HostEntry) -> &'a [u8] {
        entry_key(e, &self.long_keys)
    }

    /// Heap bytes held.
    fn memory_usage(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<HostEntry>() + self.long_keys.capacity()
    }
}

/// The key of an occupied entry of a table whose long keys are `long_keys`.
fn entry_key<'a>(e: &'a HostEntry, long_keys: &'a [u8]) -> &'a [u8] {
    let len = e.key_len as usize;
    if len <= INLINE_KEY {
        &e.key[..len]
    } else {
        let mut start = [0u8; 8];
        start.copy_from_slice(&e.key[..8]);
        let start = u64::from_le_bytes(start) as usize;
        &long_keys[start..start + len]
    }
}

/// `size` free entries, their memory advised to be backed by huge pages where it spans whole
/// ones.
// PERF: a real log's table (65,817 hosts: 8 MiB) spans 2,048 pages of 4 KiB, more than the
// processor's TLB holds, so a lookup also waited for a page walk (`perf` put most of the
// time of reading lines ahead on the prefetch instruction, which waits for the walk).
fn free_entries(size: usize) -> Vec<HostEntry> {
    let mut entries = Vec::with_capacity(size);
    let bytes = size * std::mem::size_of::<HostEntry>();
    // (Advised before the entries are written, so the kernel backs them with huge pages as
    // it first maps them; advised later, they would wait for a background collapse.)
    advise_huge_pages(entries.as_ptr() as usize, bytes);
    entries.resize(size, FREE);
    entries
}

/// The size of a huge page (x86_64 and most others).
const HUGE_PAGE: usize = 2 << 20;

/// The whole huge pages within `bytes` from `addr`, as a range of addresses (empty when
/// there are none).
fn huge_pages_within(addr: usize, bytes: usize) -> std::ops::Range<usize> {
    let start = addr.next_multiple_of(HUGE_PAGE);
    let end = (addr + bytes) / HUGE_PAGE * HUGE_PAGE;
    start..end.max(start)
}

/// Asks the kernel to back the whole huge pages within the allocation of `bytes` at `addr`
/// with huge pages (Linux transparent huge pages in `madvise` mode; elsewhere, or when the
/// kernel declines, nothing changes).
fn advise_huge_pages(addr: usize, bytes: usize) {
    let range = huge_pages_within(addr, bytes);
    if range.is_empty() {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: `madvise` reads and writes no memory of the program: MADV_HUGEPAGE only tells
    // the kernel how to back pages (it keeps their contents, and it cannot make them invalid).
    // The range is page-aligned and lies within an allocation the caller owns
    // (`huge_pages_within` never leaves it: see its test), so no other allocation's pages are
    // advised. Its result is ignored: a refusal (THP off, EINVAL) leaves the memory as it was.
    unsafe {
        libc::madvise(
            range.start as *mut libc::c_void,
            range.end - range.start,
            libc::MADV_HUGEPAGE,
        );
    }
}

/// How many lines ahead of the one being classified the host table entry is prefetched.
const PREFETCH_LINES: usize = 2;

/// `key` (at most 32 bytes) zero-padded to 32 bytes, built in registers from whole-word loads.
// PERF: copying the key into a zeroed array with `copy_from_slice` wrote it with stores of
// several sizes, and reading the array back as two 16-byte words then could not be forwarded
// from those stores: a stall on every URL (a seventh of the worker's own time in the
// 1 GB job's profile).
#[inline]
fn pad32(key: &[u8]) -> [u8; INLINE_KEY] {
    let n = key.len();
    debug_assert!(n <= INLINE_KEY);
    // Two words: the first bytes, and the last ones shifted down so that the bytes after
    // the first word come out at the bottom, zeros above.
    let (lo, hi): (u128, u128) =
        if let (Some(first), Some(last)) = (key.first_chunk::<16>(), key.last_chunk::<16>()) {
            // `last` holds key[n-16..n]; key[16..n] starts at its byte 32 - n.
            let last = u128::from_le_bytes(*last);
            let hi = if n == 16 { 0 } else { last >> ((32 - n) * 8) };
            (u128::from_le_bytes(*first), hi)
        } else if let (Some(first), Some(last)) = (key.first_chunk::<8>(), key.last_chunk::<8>()) {
            let last = u64::from_le_bytes(*last);
            let rest = if n == 8 { 0 } else { last >> ((16 - n) * 8) };
            (
                u128::from(u64::from_le_bytes(*first)) | u128::from(rest) << 64,
                0,
            )
        } else {
            let mut w = 0u64;
            for (i, &b) in key.iter().enumerate() {
                w |= u64::from(b) << (8 * i);
            }
            (u128::from(w), 0)
        };
    let mut out = [0u8; INLINE_KEY];
    out[..16].copy_from_slice(&lo.to_le_bytes());
    out[16..].copy_from_slice(&hi.to_le_bytes());
    out
}

/// Asks the processor to bring the cache line of `value` closer, without waiting for it.
#[inline]
fn prefetch_read<T>(value: &T) {
    prefetch_address((value as *const T).cast::<u8>());
}

/// How far past the start of the line read ahead the log is prefetched, in bytes (about 16
/// lines of the benchmark log).
// PERF: the 1 GB log, one thread, pinned, builds alternating (medians of the per-round
// ratios to the build without it). On a busy machine (14 rounds, no prefetch 3.78 s): 512
// bytes ahead 0.90x, 1,024 bytes 0.85x. On a quieter one: 1,024 bytes 0.93x (12 pairs) and
// 0.99x (8 rounds), 512 bytes 0.91x and 1.02x, 2,048 bytes 1.01x, 4,096 bytes 1.09x (farther
// lines share fewer pages with the ones being read; a prefetch into a page not yet mapped
// is dropped). It helps when memory is contended and costs nothing measurable otherwise.
const LOG_AHEAD: usize = 1024;

/// Asks the processor to bring the cache line at `address` closer, without waiting for it.
#[inline]
fn prefetch_address(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint: it reads nothing into the program, never faults
        // and has no effect on memory or on the program's results, whatever the address (one
        // past a mapping or not mapped at all included: the hint is dropped). SSE (which has
        // the instruction) is part of the x86_64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

/// What `url::ordinary_host` read of a text, when it is an ordinary URL.
type Ordinary = Option<Read>;

/// An ordinary URL's host as read for the host table (ahead, for the prefetch, or when the
/// URL is classified).
struct Read {
    /// The host's range in the text.
    host: std::ops::Range<usize>,
    /// The scheme's default port.
    port: u16,
    /// The host table's hash of the host and port (computed once, for the prefetch and the
    /// lookup).
    hash: u64,
}

/// One body as a worker holds it: the shared entry and this thread's lazy-DFA cache (boxed,
/// so that the slots of 10,000 bodies take 160 KiB and stay in cache).
struct BodySlot {
    entry: Arc<Entry>,
    cache: Box<Cache>,
}

/// How often a rule decided, in one worker.
struct RuleHit {
    count: u64,
    /// The position of the first URL it decided.
    first: u64,
    /// That URL's host.
    host: Vec<u8>,
}

/// Counters of one worker.
#[derive(Default)]
struct Counts {
    lines: u64,
    allowed: u64,
    disallowed: u64,
    no_robots: u64,
    unavailable: u64,
    unreachable: u64,
    blank: u64,
    malformed: u64,
    /// Inputs without a URL, by [`Malformed::index`].
    reasons: [u64; Malformed::ALL.len()],
}

/// Buffers reused for every URL, so that the common path allocates nothing.
#[derive(Default)]
struct Buffers {
    /// A CSV field without its doubled quotes.
    text: Vec<u8>,
    /// The URL with `&amp;` decoded.
    url: Vec<u8>,
    /// A host key that had to be built.
    host: Vec<u8>,
    /// A path that had to be canonicalised.
    path: Vec<u8>,
    /// A CSV field without its doubled quotes, when it was also quoted the lenient way.
    unquoted: Vec<u8>,
    /// The CSV reader, made on the first line with a quote.
    csv: Option<CsvFields>,
}

/// One thread's state: its host table, its lazy-DFA caches, its counters, buffers. Make one
/// per thread with [`Classifier::worker`]; `Send`, not shared.
pub struct Worker {
    store: Store,
    format: LineFormat,
    count_rules: bool,
    count_hosts: bool,
    robots_txt_allowed: bool,
    table: HostTable,
    /// By the store's entry index.
    bodies: Vec<Option<BodySlot>>,
    alls: Vec<Arc<AllRules>>,
    counts: Counts,
    /// (body index, rule line) to its hits.
    rules: HashMap<(u32, u32), RuleHit, foldhash::fast::RandomState>,
    /// Position of the URL being classified (chunk and line, or index), for the first-seen
    /// example of each rule.
    pos: u64,
    /// (position, reason, text) of the first malformed lines since they were last taken.
    malformed: Vec<(u64, Malformed, Vec<u8>)>,
    bufs: Buffers,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("format", &self.format)
            .field("hosts_seen", &self.table.len)
            .field("lines", &self.counts.lines)
            .finish()
    }
}

impl Worker {
    fn new(classifier: &Classifier) -> Worker {
        Worker {
            store: classifier.store.clone(),
            format: classifier.format,
            count_rules: classifier.count_rules,
            count_hosts: classifier.count_hosts,
            robots_txt_allowed: classifier.store.robots_txt_allowed(),
            table: HostTable::new(),
            bodies: Vec::new(),
            alls: Vec::new(),
            counts: Counts::default(),
            rules: HashMap::default(),
            pos: 0,
            malformed: Vec::new(),
            bufs: Buffers::default(),
        }
    }

    /// Classifies one URL as given (an absolute URL; `&amp;` decoded if the classifier's
    /// line format says so). Counted in the summary.
    pub fn classify_url<'w>(&'w mut self, url: &'w [u8]) -> Result<Classified<'w>, Malformed> {
        self.pos += 1;
        self.classify(Field::Url(url), None, None)
    }

    /// Classifies one URL whose host key is known (`example.com`, `example.com_8080`; see
    /// [`crate::logline::host_key`]); the URL may then be a bare path. Counted in the summary.
    pub fn classify_url_of<'w>(
        &'w mut self,
        url: &'w [u8],
        host: &'w [u8],
    ) -> Result<Classified<'w>, Malformed> {
        self.pos += 1;
        self.classify(Field::Url(url), Some(host), None)
    }

    /// Classifies one log line (without its line end), finding the URL per the classifier's
    /// line format. Counted in the summary.
    pub fn classify_line<'w>(&'w mut self, line: &'w [u8]) -> Result<Classified<'w>, Malformed> {
        self.pos += 1;
        self.classify(Field::Line(line), None, None)
    }

    /// The counts since the last call (or since the worker was made), which it resets; host
    /// tables and caches are kept.
    pub fn take_summary(&mut self) -> Summary {
        let mut summary = Summary::default();
        self.add_summary_to(&mut summary);
        summary
    }

    /// Moves the counts since the last summary into `summary`, as
    /// `summary.merge(self.take_summary())` would, without a map of hosts of this worker's
    /// own: a host already in `summary` costs a lookup, not an allocation.
    // PERF: the 1 GB log's two workers each built a map of 65,000 hosts, then one was merged
    // into the other: 41-50 ms on one thread after the parallel work (workers dropped
    // included); adding both into one map took 26-36 ms, and 23 ms once the map was faster
    // (16 + 7 ms); in one pass over the table into the summary's own table 13 ms (8 + 5 ms).
    pub fn add_summary_to(&mut self, summary: &mut Summary) {
        let c = std::mem::take(&mut self.counts);
        let mut part = Summary {
            lines: c.lines,
            allowed: c.allowed,
            disallowed: c.disallowed,
            no_robots: c.no_robots,
            unavailable: c.unavailable,
            unreachable: c.unreachable,
            blank: c.blank,
            malformed: c.malformed,
            reasons: c.reasons,
            ..Summary::default()
        };
        for (pos, reason, text) in self.malformed.drain(..) {
            part.malformed_lines.push(MalformedLine {
                log: 0,
                line: pos,
                reason,
                text,
            });
        }
        if self.count_hosts {
            let table = &mut self.table;
            if summary.hosts.is_empty() {
                // (Into a table that holds hosts already, most are the same: no reserve,
                // which would double its size.)
                summary.hosts.reserve(table.len);
            }
            // One pass: each entry read, added and reset while its line is in cache.
            let long_keys = &table.long_keys;
            for e in table.entries.iter_mut() {
                if e.key_len != EMPTY && e.counts != [0, 0] {
                    summary.add_host(entry_key(e, long_keys), e.counts);
                    e.counts = [0, 0];
                }
            }
        }
        for ((body, line), hit) in self.rules.drain() {
            let Some(Some(slot)) = self.bodies.get(body as usize) else {
                continue;
            };
            let m = slot.entry.matcher();
            // The rules are in file order, so their lines grow: a binary search by line.
            let (mut lo, mut hi) = (0, m.rule_count());
            while lo < hi {
                let mid = (lo + hi) / 2;
                if m.rule(mid).line() < line {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if lo == m.rule_count() || m.rule(lo).line() != line {
                continue;
            }
            let i = lo;
            part.add_rule(
                (body as usize, line),
                RuleTally {
                    count: hit.count,
                    host: hit.host,
                    line,
                    rule: m.rule(i).to_string(),
                    first: hit.first,
                },
            );
        }
        summary.merge(part);
    }

    /// Heap memory of this worker's host table, in bytes (per host seen: one entry, a slot
    /// or two, the key's bytes).
    pub fn table_memory(&self) -> usize {
        self.table.memory_usage()
    }

    /// Heap memory of this worker's lazy-DFA caches (one per body it used), in bytes.
    pub fn cache_memory(&self) -> usize {
        self.bodies
            .iter()
            .flatten()
            .map(|b| b.cache.memory_usage() + std::mem::size_of::<Cache>())
            .sum::<usize>()
            + self.bodies.capacity() * std::mem::size_of::<Option<BodySlot>>()
    }

    /// The number of distinct hosts in this worker's table.
    pub fn hosts_seen(&self) -> usize {
        self.table.len
    }

    /// Classifies the lines of one chunk into a new batch.
    fn classify_chunk<S: Sink>(&mut self, chunk: &Chunk<'_>, sink: &S) -> ChunkOut<S::Batch> {
        let mut batch = sink.batch(chunk.data.len());
        let lines_before = self.counts.lines;
        let urls_before = self.counts.allowed + self.counts.disallowed;
        let base = chunk.seq << 32;
        // PERF: the host table of a real log (65,817 hosts: 8 MiB) does not stay in cache, and
        // waiting for its entry was a fifth of the time of a one-thread job. The entry of the
        // URL two lines ahead is prefetched while this one is decided.
        let mut lines = chunk.lines();
        // A ring of the next lines: `ahead[index % AHEAD]` is the line being classified.
        // (A power of two: the ring index is a mask.)
        const AHEAD: usize = (PREFETCH_LINES + 1).next_power_of_two();
        let mut ahead: [Option<(Line<'_>, Ordinary)>; AHEAD] = Default::default();
        for slot in &mut ahead[..PREFETCH_LINES] {
            self.table.next_prefetched(&mut lines, slot);
        }
        let mut index = 0usize;
        loop {
            self.table
                .next_prefetched(&mut lines, &mut ahead[(index + PREFETCH_LINES) % AHEAD]);
            let Some((line, ordinary)) = ahead[index % AHEAD].take() else {
                break;
            };
            self.pos = base | index as u64;
            index += 1;
            if line.too_long {
                // Issue 16.3: never parsed; only its first bytes were kept.
                self.counts.lines += 1;
                let reason = Malformed::TooLong;
                note_invalid(
                    &mut self.counts,
                    &mut self.malformed,
                    self.pos,
                    reason,
                    line.text,
                );
                sink.invalid(
                    &mut batch,
                    &Invalid {
                        line: line.text,
                        reason,
                    },
                );
                continue;
            }
            match self.classify(Field::Line(line.text), None, ordinary) {
                Ok(c) => sink.url(&mut batch, &c),
                Err(reason) => sink.invalid(
                    &mut batch,
                    &Invalid {
                        line: line.text,
                        reason,
                    },
                ),
            }
        }
        let malformed = self
            .malformed
            .drain(..)
            .map(|(pos, reason, text)| (pos & u64::from(u32::MAX), reason, text))
            .collect();
        ChunkOut {
            batch,
            log: chunk.log,
            lines: self.counts.lines - lines_before,
            urls: self.counts.allowed + self.counts.disallowed - urls_before,
            malformed,
        }
    }

    /// Classifies one input: finds the URL and its host, looks the host up (once per thread in
    /// the store), decides, counts. `read` is `url::ordinary_host` of the field's whole text
    /// when the caller has already read it (`None`: not read, or not ordinary).
    // PERF: always inlined (and `HostTable::find` in it), so that in `classify_chunk` the
    // outcome goes straight to the sink (for counts only, nowhere) instead of through a
    // returned struct: 3.4% fewer instructions for summary and 2.7% for tsv on a 200 MB cut of
    // the benchmark log (callgrind, one thread); in time, within the noise of this machine.
    #[inline(always)]
    fn classify<'w>(
        &'w mut self,
        field: Field<'w>,
        given_host: Option<&'w [u8]>,
        read: Ordinary,
    ) -> Result<Classified<'w>, Malformed> {
        let Worker {
            store,
            format,
            count_rules,
            count_hosts,
            robots_txt_allowed,
            table,
            bodies,
            alls,
            counts,
            rules,
            pos,
            malformed,
            bufs,
        } = self;
        counts.lines += 1;
        let source = match field {
            Field::Line(line) | Field::Url(line) => line,
        };
        let text: &'w [u8] = match find_url(
            field,
            *format,
            &mut bufs.csv,
            &mut bufs.text,
            &mut bufs.unquoted,
        ) {
            Ok(text) => text,
            Err(reason) => {
                note_invalid(counts, malformed, *pos, reason, source);
                return Err(reason);
            }
        };
        let url: &'w [u8] = if format.decode_amp && logline::has_amp_entity(text) {
            logline::decode_amp_into(text, &mut bufs.url);
            &bufs.url
        } else {
            text
        };
        // PERF: nearly every URL of a crawl log is `http(s)://host/...` with a host that is its
        // own key; one short scan finds it, and the matcher finds the path (a 200 MB cut of the
        // benchmark log, one thread: 1,915 -> 1,620 instructions per line). Every other URL is
        // split in full.
        let ordinary = match given_host {
            Some(_) => None,
            // The reading made ahead, for the prefetch, when the URL is the whole line.
            None if read.is_some() && std::ptr::eq(url, source) => read,
            None => table.read(url),
        };
        // Issue 15: host and path from one reading of the URL (`\` after the authority is a
        // `/` for both). `parts` is `None` for an ordinary URL, whose host ends at `host_end`.
        let mut host_end = 0;
        // The host table's hash of the key, when the ordinary reading computed it.
        let mut hash = None;
        let (host, default_port, parts) = match (given_host, ordinary) {
            (Some(host), _) => (
                host,
                scheme_default_port(url),
                Some(robotsmatch::url::split(url)),
            ),
            (None, Some(read)) => {
                host_end = read.host.end;
                hash = Some(read.hash);
                (&url[read.host], Some(read.port), None)
            }
            (None, None) => {
                let parts = robotsmatch::url::split(url);
                let Some(auth) = parts.authority() else {
                    note_invalid(counts, malformed, *pos, Malformed::NotAUrl, source);
                    return Err(Malformed::NotAUrl);
                };
                if auth.port_invalid {
                    note_invalid(counts, malformed, *pos, Malformed::BadPort, source);
                    return Err(Malformed::BadPort);
                }
                let (built, default_port) = logline::build_key(url, &auth, &mut bufs.host);
                let host = if built {
                    &bufs.host[..]
                } else {
                    &url[auth.host.clone()]
                };
                (host, default_port, Some(parts))
            }
        };
        let probe = match hash {
            Some(hash) => table.probe_hashed(host, default_port.unwrap_or(0), hash),
            None => table.probe(host, default_port.unwrap_or(0)),
        };
        let index = match table.find(&probe) {
            Ok(index) => index,
            Err(slot) => {
                let rules = resolve(store, bodies, alls, host, default_port);
                table.insert(slot, &probe, rules)
            }
        };
        let entry = &mut table.entries[index];
        let (allowed, outcome) = match entry.rules {
            Local::None => {
                counts.no_robots += 1;
                (true, Outcome::NoRobots)
            }
            Local::All(k) => {
                let all: &'w AllRules = &alls[k as usize];
                let allowed = all.allowed()
                    || (*robots_txt_allowed
                        && match &parts {
                            Some(parts) => match_path(parts, &mut bufs.path) == b"/robots.txt",
                            None => canonical_path(url).as_ref() == b"/robots.txt",
                        });
                if allowed {
                    counts.unavailable += 1;
                } else {
                    counts.unreachable += 1;
                }
                (allowed, Outcome::All(all))
            }
            Local::Body(b) => match bodies.get_mut(b as usize) {
                Some(Some(slot)) => {
                    let m = slot.entry.matcher();
                    let d = match &parts {
                        Some(parts) => m.decide_canonical_with(
                            &mut slot.cache,
                            match_path(parts, &mut bufs.path),
                        ),
                        // PERF: the path read from the host's end (the authority is not
                        // scanned again).
                        None => m.decide_after_host_with(&mut slot.cache, url, host_end),
                    };
                    if *count_rules {
                        if let Some(rule) = d.rule() {
                            rules
                                .entry((b, rule.line()))
                                .and_modify(|h| {
                                    h.count += 1;
                                    if *pos < h.first {
                                        h.first = *pos;
                                        h.host = host.to_vec();
                                    }
                                })
                                .or_insert_with(|| RuleHit {
                                    count: 1,
                                    first: *pos,
                                    host: host.to_vec(),
                                });
                        }
                    }
                    (d.is_allowed(), Outcome::Decided(d))
                }
                // A body slot is made before its index is stored in the table.
                _ => {
                    counts.no_robots += 1;
                    (true, Outcome::NoRobots)
                }
            },
        };
        if *count_hosts {
            entry.counts[usize::from(!allowed)] += 1;
        }
        if allowed {
            counts.allowed += 1;
        } else {
            counts.disallowed += 1;
        }
        Ok(Classified {
            text,
            url,
            host,
            allowed,
            outcome,
        })
    }
}

/// The path rules are matched against, borrowed when already canonical (the common case):
/// the same as `robotsmatch::canon::canonical_path`, without its allocation. Only a host with
/// rules needs it.
#[inline]
fn match_path<'w>(parts: &UrlParts<'w>, buf: &'w mut Vec<u8>) -> &'w [u8] {
    match parts.path_and_query() {
        Cow::Borrowed(p) => {
            if canonicalize_if_needed(p, buf) {
                buf
            } else {
                p
            }
        }
        Cow::Owned(p) => {
            canonicalize_into(&p, buf);
            buf
        }
    }
}

/// The URL field of an input (a quoted CSV field is unquoted into `buf`, or `unquoted`), or
/// why there is none.
#[inline]
fn find_url<'a>(
    field: Field<'a>,
    format: LineFormat,
    csv: &mut Option<CsvFields>,
    buf: &'a mut Vec<u8>,
    unquoted: &'a mut Vec<u8>,
) -> Result<&'a [u8], Malformed> {
    match field {
        Field::Url(url) => Ok(url),
        // PERF: a whole-line URL with nothing to trim or unquote (nearly every line of a URL
        // list) is the line itself; the general path below cost ~95 instructions per line.
        Field::Line(line)
            if format.column == 0
                && line
                    .first()
                    .is_some_and(|&b| !b.is_ascii_whitespace() && b != b'"')
                && line.last().is_some_and(|b| !b.is_ascii_whitespace()) =>
        {
            Ok(line)
        }
        Field::Line(line) => {
            if logline::trim(line).is_empty() {
                return Err(Malformed::Blank);
            }
            match logline::field_in(line, format, csv, buf) {
                Ok(Cow::Borrowed(text)) => Ok(text),
                Ok(Cow::Owned(text)) => {
                    *unquoted = text;
                    Ok(&unquoted[..])
                }
                Err(reason) => Err(reason),
            }
        }
    }
}

/// Counts an input without a URL, keeping the first few.
#[cold]
fn note_invalid(
    counts: &mut Counts,
    malformed: &mut Vec<(u64, Malformed, Vec<u8>)>,
    pos: u64,
    reason: Malformed,
    text: &[u8],
) {
    counts.reasons[reason.index()] += 1;
    if reason == Malformed::Blank {
        counts.blank += 1;
    } else {
        counts.malformed += 1;
        if malformed.len() < MALFORMED_KEPT {
            // Issue 16.3: a prefix is enough for the report (a malformed line can be long).
            malformed.push((
                pos,
                reason,
                text[..text.len().min(MALFORMED_TEXT_KEPT)].to_vec(),
            ));
        }
    }
}

/// The default port of a URL's scheme: 80 for `http://`, 443 for `https://`.
fn scheme_default_port(url: &[u8]) -> Option<u16> {
    let scheme = &url[..url.iter().position(|&b| b == b':')?];
    if scheme.eq_ignore_ascii_case(b"http") {
        Some(80)
    } else if scheme.eq_ignore_ascii_case(b"https") {
        Some(443)
    } else {
        None
    }
}

/// What applies to a host the worker has not seen: asked of the store, and a body slot (with
/// this thread's cache) made for its body if it is new to the worker.
#[cold]
fn resolve(
    store: &Store,
    bodies: &mut Vec<Option<BodySlot>>,
    alls: &mut Vec<Arc<AllRules>>,
    host: &[u8],
    default_port: Option<u16>,
) -> Local {
    match store.rules_for(host, default_port) {
        None => Local::None,
        Some(HostRules::All(all)) => {
            alls.push(all);
            Local::All((alls.len() - 1) as u32)
        }
        Some(HostRules::Compiled(entry)) => {
            let i = entry.index();
            if bodies.len() <= i {
                bodies.resize_with(i + 1, || None);
            }
            if bodies[i].is_none() {
                let cache = Box::new(entry.matcher().create_cache());
                bodies[i] = Some(BodySlot { entry, cache });
            }
            Local::Body(i as u32)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::StoreConfig;

    fn store() -> Store {
        Store::from_bodies(
            [
                (
                    "shop.example",
                    &b"User-agent: *\nDisallow: /cart\nAllow: /cart/help$\n"[..],
                ),
                ("port.example_8080", b"User-agent: *\nDisallow: /p\n"),
                ("tls.example_443", b"User-agent: *\nDisallow: /\n"),
                ("amp.example", b"User-agent: *\nDisallow: /*&offset=*\n"),
            ],
            StoreConfig::new("Googlebot"),
        )
    }

    fn verdict(w: &mut Worker, url: &str) -> Result<(bool, Option<u32>), Malformed> {
        w.classify_url(url.as_bytes())
            .map(|c| (c.allowed, c.rule().map(|r| r.line())))
    }

    /// Ordinary URLs take the short reading (`ordinary_host`, the matcher finding the path);
    /// the same URLs written otherwise are split in full. Both must give the host, the path
    /// and so the verdict and rule.
    #[test]
    fn ordinary_urls_decide_like_their_other_spellings() {
        let store = store();
        let mut w = Classifier::new(&store).worker();
        let paths = [
            "",
            "/",
            "/cart",
            "/cart/help",
            "/cart/help?x",
            "/%63art",
            "/cart%2Fhelp",
            "/cart#x",
            "?cart",
            ";cart",
            "/cart/h%65lp",
            "/cart/help#",
            "/\\cart",
            "/c\\art",
        ];
        for host in ["shop.example", "tls.example", "amp.example", "none.example"] {
            for path in paths {
                let ordinary = format!("https://{host}{path}");
                let want = verdict(&mut w, &ordinary);
                let upper = format!("https://{}{path}", host.to_uppercase());
                let port = format!("https://{host}:443{path}");
                let user = format!("HTTPS://user@{host}{path}");
                for other in [upper, port, user] {
                    assert_eq!(verdict(&mut w, &other), want, "{ordinary} vs {other}");
                }
            }
        }
        assert_eq!(
            verdict(&mut w, "https://shop.example/%63art"),
            Ok((false, Some(2)))
        );
        assert_eq!(
            verdict(&mut w, "https://tls.example?x"),
            Ok((false, Some(2)))
        );
    }

    /// The host read ahead of a line (for the prefetch) is reused only when the line's URL is
    /// the whole line: a URL taken from a later column is read on its own.
    #[test]
    fn host_read_ahead_is_reused_only_for_whole_line_urls() {
        let store = store();
        let whole = b"https://shop.example/cart\nhttps://shop.example/x\nhttps://tls.example/\n";
        let mut w = Classifier::new(&store).worker();
        w.classify_chunk(&Chunk::new(whole, true), &());
        let s = w.take_summary();
        assert_eq!((s.lines, s.allowed, s.disallowed), (3, 1, 2));
        // Column 1 is an ordinary URL of another host, of another length.
        let columns = b"http://a.example/\thttps://shop.example/cart\nhttp://a.example/\thttps://tls.example/\n";
        let format = LineFormat {
            column: 2,
            ..LineFormat::default()
        };
        let mut w = Classifier::new(&store).line_format(format).worker();
        w.classify_chunk(&Chunk::new(columns, true), &());
        let s = w.take_summary();
        assert_eq!((s.lines, s.allowed, s.disallowed), (2, 0, 2));
    }

    #[test]
    fn worker_decides_like_the_matcher_of_each_host() {
        let store = store();
        let mut w = Classifier::new(&store).worker();
        assert_eq!(
            verdict(&mut w, "https://shop.example/cart"),
            Ok((false, Some(2)))
        );
        assert_eq!(
            verdict(&mut w, "https://SHOP.example/cart/help"),
            Ok((true, Some(3)))
        );
        assert_eq!(
            verdict(&mut w, "http://port.example:8080/p/1"),
            Ok((false, Some(2)))
        );
        assert_eq!(verdict(&mut w, "http://port.example/p/1"), Ok((true, None)));
        assert_eq!(
            verdict(&mut w, "https://nofile.example/cart"),
            Ok((true, None))
        );
        assert_eq!(verdict(&mut w, "not a url"), Err(Malformed::NotAUrl));
        let s = w.take_summary();
        assert_eq!(
            (s.allowed, s.disallowed, s.no_robots, s.malformed),
            (3, 2, 2, 1)
        );
        assert_eq!(s.host_count(), 4);
        assert_eq!(s.malformed_lines[0].text, b"not a url");
        let again = w.take_summary();
        assert_eq!(
            (again.urls(), again.host_count()),
            (0, 0),
            "counts are reset"
        );
    }

    /// Regression (found while moving the store): the host table is keyed by host and
    /// default port, so `http://h/` (tries `h`, `h_80`) and `https://h/` (tries `h`, `h_443`)
    /// are looked up separately whatever order a thread meets them in.
    #[test]
    fn default_port_fallback_does_not_depend_on_which_scheme_came_first() {
        let store = store();
        for order in [["http", "https"], ["https", "http"]] {
            let mut w = Classifier::new(&store).worker();
            let mut got = Vec::new();
            for scheme in order {
                got.push((
                    scheme,
                    verdict(&mut w, &format!("{scheme}://tls.example/x")),
                ));
            }
            got.sort_by_key(|g| g.0);
            assert_eq!(
                got,
                vec![("http", Ok((true, None))), ("https", Ok((false, Some(2))))]
            );
        }
    }

    /// Issue 14 item 5: `&amp;` is matched as written unless decoding is asked for.
    #[test]
    fn amp_is_literal_unless_decoding_is_asked_for() {
        let store = store();
        let url = "http://amp.example/find/?from=list&amp;offset=0";
        let mut w = Classifier::new(&store).worker();
        assert_eq!(verdict(&mut w, url), Ok((true, None)));
        let decoding = LineFormat {
            decode_amp: true,
            ..LineFormat::default()
        };
        let mut w = Classifier::new(&store).line_format(decoding).worker();
        assert_eq!(verdict(&mut w, url), Ok((false, Some(2))));
        let c = w.classify_url(url.as_bytes()).map_err(|e| e.as_str());
        assert_eq!(c.map(|c| c.text), Ok(url.as_bytes()), "printed as written");
    }

    /// The huge pages advised lie within the table's allocation, and the table keeps what
    /// is written to it.
    #[test]
    fn huge_pages_advised_lie_within_the_allocation() {
        const MB: usize = 1 << 20;
        for addr in [0, 4096, 2 * MB - 16, 2 * MB, 2 * MB + 16, 7 * MB + 4096] {
            for bytes in [
                0,
                64,
                MB,
                2 * MB - 1,
                2 * MB,
                2 * MB + 4096,
                8 * MB,
                9 * MB + 64,
            ] {
                let r = huge_pages_within(addr, bytes);
                assert!(r.start <= r.end);
                if !r.is_empty() {
                    assert!(
                        r.start >= addr && r.end <= addr + bytes,
                        "{addr} {bytes} {r:?}"
                    );
                    assert_eq!(r.start % HUGE_PAGE, 0);
                    assert_eq!(r.end % HUGE_PAGE, 0);
                }
                // Every whole huge page inside is in the range.
                let whole = (addr + bytes).saturating_sub(addr.next_multiple_of(HUGE_PAGE));
                assert_eq!(r.len(), whole / HUGE_PAGE * HUGE_PAGE, "{addr} {bytes}");
            }
        }
        // An advised table keeps what is written to it.
        let mut entries = free_entries(1 << 16);
        assert!(entries.iter().all(|e| e.key_len == EMPTY));
        entries[12345].key_len = 7;
        assert_eq!(entries.iter().filter(|e| e.key_len != EMPTY).count(), 1);
    }

    /// `pad32` gives every key of up to 32 bytes, wherever it starts, zero-padded.
    #[test]
    fn pad32_is_the_key_zero_padded() {
        let text: Vec<u8> = (1..=40u8).map(|b| b.wrapping_mul(37) | 1).collect();
        for start in 0..8 {
            for n in 0..=INLINE_KEY {
                let key = &text[start..start + n];
                let mut want = [0u8; INLINE_KEY];
                want[..n].copy_from_slice(key);
                assert_eq!(pad32(key), want, "start {start}, length {n}");
            }
        }
    }

    /// Keys longer than the inline part live in the arena; keys that differ only past it, or
    /// only by default port, are different entries.
    #[test]
    fn long_keys_and_ports_are_distinct_entries() {
        let store = store();
        let mut w = Classifier::new(&store).worker();
        let long = "a".repeat(40);
        let urls = [
            format!("https://{long}.example/"),
            format!("https://{long}.exampl/"),
            format!("http://{long}.example/"),
            "https://abcdefghijklmnopqrstuvwxyz012345/".to_string(),
            "https://abcdefghijklmnopqrstuvwxyz01234/".to_string(),
            "https://abcdefghijklmnopqrstuvwxyz0123456/".to_string(),
        ];
        for _ in 0..3 {
            for u in &urls {
                assert_eq!(verdict(&mut w, u), Ok((true, None)));
            }
        }
        assert_eq!(w.hosts_seen(), 6);
        let s = w.take_summary();
        let mut hosts: Vec<(String, u64)> = s
            .hosts()
            .map(|h| (String::from_utf8_lossy(h.host).into_owned(), h.urls()))
            .collect();
        hosts.sort();
        assert_eq!(
            hosts,
            vec![
                (format!("{long}.exampl"), 3),
                (format!("{long}.example"), 6),
                ("abcdefghijklmnopqrstuvwxyz01234".to_string(), 3),
                ("abcdefghijklmnopqrstuvwxyz012345".to_string(), 3),
                ("abcdefghijklmnopqrstuvwxyz0123456".to_string(), 3),
            ]
        );
        assert_eq!(std::mem::size_of::<HostEntry>(), 64);
    }

    #[test]
    fn many_hosts_grow_the_table_and_keep_every_entry() {
        let store = store();
        let mut w = Classifier::new(&store).worker();
        for round in 0..2 {
            for i in 0..5000 {
                let (allowed, _) =
                    verdict(&mut w, &format!("https://h{i}.example/cart")).unwrap_or_default();
                assert!(allowed, "round {round} host {i}");
            }
            assert_eq!(
                verdict(&mut w, "https://shop.example/cart"),
                Ok((false, Some(2)))
            );
        }
        assert_eq!(w.hosts_seen(), 5001);
        let s = w.take_summary();
        assert_eq!(s.host_count(), 5001);
        assert!(s.hosts().all(|h| h.urls() == 2));
    }

    #[test]
    fn many_in_memory_urls_equal_one_at_a_time_for_any_thread_count() {
        let store = store();
        let urls: Vec<String> = (0..20_000)
            .map(|i| match i % 5 {
                0 => format!("https://shop.example/cart/{i}"),
                1 => "https://shop.example/cart/help".to_string(),
                2 => format!("http://port.example:8080/p{i}"),
                3 => format!("https://h{}.example/", i % 300),
                _ => format!("junk {i}"),
            })
            .collect();
        struct Verdicts;
        impl Sink for Verdicts {
            type Batch = Vec<Option<bool>>;
            fn batch(&self, n: usize) -> Self::Batch {
                Vec::with_capacity(n)
            }
            fn url(&self, b: &mut Self::Batch, url: &Classified<'_>) {
                b.push(Some(url.allowed));
            }
            fn invalid(&self, b: &mut Self::Batch, _: &Invalid<'_>) {
                b.push(None);
            }
        }
        let mut one = Classifier::new(&store).worker();
        let want: Vec<Option<bool>> = urls
            .iter()
            .map(|u| one.classify_url(u.as_bytes()).ok().map(|c| c.allowed))
            .collect();
        let want_summary = one.take_summary();
        for threads in [1, 2, 3] {
            let c = Classifier::new(&store).threads(threads).count_rules(true);
            let mut workers = Vec::new();
            let got: Vec<Option<bool>> = c
                .classify_many(
                    &mut workers,
                    0,
                    urls.len(),
                    |i| Some((urls[i].as_bytes(), None)),
                    &Verdicts,
                )
                .concat();
            assert_eq!(got, want, "threads {threads}");
            let mut s = Summary::default();
            for w in &mut workers {
                s.merge(w.take_summary());
            }
            // The same job moved into one summary worker by worker gives the same summary.
            let mut again = Vec::new();
            c.classify_many(
                &mut again,
                0,
                urls.len(),
                |i| Some((urls[i].as_bytes(), None)),
                &Verdicts,
            );
            let mut moved = Summary::default();
            for w in &mut again {
                w.add_summary_to(&mut moved);
            }
            let hosts = |s: &Summary| {
                let mut h: Vec<(Vec<u8>, u64, u64)> = s
                    .hosts()
                    .map(|t| (t.host.to_vec(), t.allowed, t.disallowed))
                    .collect();
                h.sort();
                h
            };
            let rules = |s: &Summary| {
                s.top_rules(usize::MAX)
                    .iter()
                    .map(|t| (t.count, t.host.clone(), t.line, t.rule.clone()))
                    .collect::<Vec<_>>()
            };
            let malformed = |s: &Summary| {
                s.malformed_lines
                    .iter()
                    .map(|m| (m.line, m.text.clone()))
                    .collect::<Vec<_>>()
            };
            assert!(!hosts(&s).is_empty());
            assert_eq!(hosts(&moved), hosts(&s), "threads {threads}");
            assert_eq!(rules(&moved), rules(&s), "threads {threads}");
            assert_eq!(malformed(&moved), malformed(&s), "threads {threads}");
            assert_eq!(
                (
                    moved.lines,
                    moved.allowed,
                    moved.disallowed,
                    moved.malformed
                ),
                (s.lines, s.allowed, s.disallowed, s.malformed)
            );
            assert_eq!(
                (s.allowed, s.disallowed, s.malformed),
                (
                    want_summary.allowed,
                    want_summary.disallowed,
                    want_summary.malformed
                )
            );
            // The first malformed inputs (every fifth is junk), by their 1-based index.
            let lines: Vec<u64> = s.malformed_lines.iter().map(|m| m.line).collect();
            assert_eq!(lines, (0..10).map(|k| 5 * k + 5).collect::<Vec<u64>>());
            assert_eq!(s.malformed_lines[0].text, b"junk 4");
            assert_eq!(want_summary.malformed_lines[0].line, 5);
            // Three rules decided 4000 URLs each; ties are ordered by host, then line.
            let top: Vec<(u64, &[u8], u32)> = s
                .top_rules(5)
                .iter()
                .map(|t| (t.count, &t.host[..], t.line))
                .collect();
            assert_eq!(
                top,
                vec![
                    (4000, &b"port.example_8080"[..], 2),
                    (4000, &b"shop.example"[..], 2),
                    (4000, &b"shop.example"[..], 3)
                ]
            );
        }
    }
}
