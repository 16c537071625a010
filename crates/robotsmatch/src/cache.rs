//! [`RobotsCache`]: compiled robots.txt rules per origin, for crawlers that ask millions of
//! questions of thousands of hosts.
//!
//! - **Key**: the origin as RFC 9309 §2.3 scopes a robots.txt: scheme, host (lower case, a
//!   trailing dot dropped) and port, the default port filled in (`http` 80, `https` 443,
//!   `ftp` 21), so `https://Example.com/` and `https://example.com:443/x` share an entry.
//! - **Entries** hold a compiled [`Matcher`] for each configured agent, or
//!   the "allow all" / "disallow all" of an unavailable / unreachable file, with the
//!   [`Reason`] every decision carries.
//! - **Expiry**: 24 hours by default ([`CacheConfig::ttl`]); an unreachable result is retried
//!   sooner, after 1 hour by default ([`CacheConfig::unreachable_ttl`]). Time is passed in as
//!   `now: Instant`, so a caller (or a test) controls the clock. An expired entry is a miss.
//! - **Bounded**: least recently used entries are evicted when the cache's accounting exceeds
//!   [`CacheConfig::max_bytes`] (default 256 MiB). An entry is charged a fixed overhead plus its
//!   key; a distinct body is charged once for its compiled matchers
//!   ([`Matcher::memory_usage`]). Bodies are not kept after compiling.
//! - **Identical bodies compiled once**: bodies are keyed by a 128-bit hash; origins with the
//!   same file share one set of compiled matchers.
//! - **Threads**: `Send + Sync`. One mutex guards the maps; it is held for lookups and
//!   bookkeeping only, never while parsing or compiling (two threads that miss the same new
//!   body at once may both compile it; the first result is kept).
//!
//! A crawler loop:
//!
//! ```
//! use std::time::Instant;
//! use robotsmatch::cache::{CacheConfig, Origin, RobotsCache};
//! use robotsmatch::fetch::Outcome;
//! # fn http_get(url: &str) -> (u16, Vec<u8>) { (200, b"User-agent: *\nDisallow: /private\n".to_vec()) }
//! # let frontier = ["https://a.example/", "https://a.example/private/x"];
//! # let mut crawled = Vec::new();
//!
//! let cache = RobotsCache::new(CacheConfig::new().agents(&["MyBot"]));
//! for url in frontier {
//!     let now = Instant::now();
//!     let rules = match cache.get(url, now) {
//!         Some(rules) => rules,
//!         None => {
//!             let origin = Origin::from_url(url).ok_or("not an absolute URL")?;
//!             let (status, body) = http_get(&origin.robots_url());
//!             cache.insert(&origin, &Outcome::response(status, &body), now)
//!         }
//!     };
//!     let d = rules.decide(url);
//!     if d.is_allowed() { crawled.push(url) } else { eprintln!("skip {url}: {}", d.reason()) }
//! }
//! # assert_eq!(crawled, ["https://a.example/"]);
//! # Ok::<(), &'static str>(())
//! ```

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::Hash;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::agent::Agent;
use crate::canon::canonical_path;
use crate::fetch::{Availability, FetchDecision, Outcome, Reason};
use crate::matcher::{Matcher, MatcherBuilder};
use crate::parse::{ParseConfig, Robots};

/// The scope of one robots.txt: scheme, host and port (RFC 9309 §2.3).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of an absolute URL (`scheme://[user@]host[:port]/...`). `None` when the URL
    /// has no scheme or host, the port is not a number, or the scheme has no known default port
    /// and none is given.
    ///
    /// The scheme, host and port are those of [`crate::url::split`], the reading the matcher
    /// takes the path from: `https://example.com\private` is the origin
    /// `https://example.com`.
    pub fn from_url(url: &str) -> Option<Origin> {
        let parts = crate::url::split(url.as_bytes());
        let (scheme, host) = (parts.scheme()?, parts.host()?);
        let port = match parts.port_str() {
            Some(p) if !p.is_empty() => parts.port()?,
            _ => parts.default_port()?,
        };
        Some(Origin {
            scheme: String::from_utf8_lossy(scheme).to_ascii_lowercase(),
            host: String::from_utf8_lossy(host).to_ascii_lowercase(),
            port,
        })
    }

    /// The default port of a (lower-case) scheme: `http` 80, `https` 443, `ftp` 21.
    pub fn default_port(scheme: &str) -> Option<u16> {
        crate::url::scheme_default_port(scheme.as_bytes())
    }

    /// The scheme, lower case.
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The host, lower case.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port, the default filled in.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of this origin's robots.txt (the port written only when not the default).
    pub fn robots_url(&self) -> String {
        format!("{self}/robots.txt")
    }
}

impl fmt::Display for Origin {
    /// `scheme://host` with `:port` when it is not the scheme's default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        if Origin::default_port(&self.scheme) != Some(self.port) {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

/// The settings of a [`RobotsCache`].
#[derive(Clone, Debug)]
pub struct CacheConfig {
    ttl: Duration,
    unreachable_ttl: Duration,
    max_bytes: usize,
    agents: Vec<Agent>,
    builder: MatcherBuilder,
    parse: ParseConfig,
}

impl Default for CacheConfig {
    fn default() -> CacheConfig {
        CacheConfig::new()
    }
}

impl CacheConfig {
    /// The default time an entry stays fresh: 24 hours (RFC 9309 §2.4).
    pub const DEFAULT_TTL: Duration = Duration::from_secs(24 * 3600);
    /// The default time an unreachable result stays: 1 hour.
    pub const DEFAULT_UNREACHABLE_TTL: Duration = Duration::from_secs(3600);
    /// The default byte budget: 256 MiB.
    pub const DEFAULT_MAX_BYTES: usize = 256 << 20;
    /// The DFA table budget per body in the default builder
    /// ([`MatcherBuilder::dense_size_limit`], as in `classify`): a cache holds thousands of
    /// matchers.
    pub const DEFAULT_DENSE_SIZE_LIMIT: usize = 16 << 10;

    /// Defaults: 24 h, 1 h for unreachable results, 256 MiB, the agent `Googlebot`, the `google` profile with a 16 KiB DFA table budget per body.
    pub fn new() -> CacheConfig {
        CacheConfig {
            ttl: Self::DEFAULT_TTL,
            unreachable_ttl: Self::DEFAULT_UNREACHABLE_TTL,
            max_bytes: Self::DEFAULT_MAX_BYTES,
            agents: vec![Agent::new("Googlebot")],
            builder: MatcherBuilder::new().dense_size_limit(Self::DEFAULT_DENSE_SIZE_LIMIT),
            parse: ParseConfig::new(),
        }
    }

    /// How long an available or unavailable result stays fresh.
    pub fn ttl(mut self, ttl: Duration) -> CacheConfig {
        self.ttl = ttl;
        self
    }

    /// How long an unreachable result stays before it is retried.
    pub fn unreachable_ttl(mut self, ttl: Duration) -> CacheConfig {
        self.unreachable_ttl = ttl;
        self
    }

    /// The byte budget; least recently used entries are evicted above it.
    pub fn max_bytes(mut self, bytes: usize) -> CacheConfig {
        self.max_bytes = bytes;
        self
    }

    /// The crawlers each entry is compiled for (at least one; an empty list keeps the current
    /// agents). [`CachedRobots::decide_as`] takes an index into this list.
    pub fn agents<A: Into<Agent> + Clone>(mut self, agents: &[A]) -> CacheConfig {
        if !agents.is_empty() {
            self.agents = agents.iter().cloned().map(Into::into).collect();
        }
        self
    }

    /// The profile and engine limits.
    pub fn builder(mut self, builder: MatcherBuilder) -> CacheConfig {
        self.builder = builder;
        self
    }

    /// The parse limits (a body over the size limit is cut).
    pub fn parse_config(mut self, parse: ParseConfig) -> CacheConfig {
        self.parse = parse;
        self
    }
}

/// Compiled matchers for one distinct body, one per agent.
#[derive(Debug)]
struct Compiled {
    matchers: Vec<Matcher>,
    bytes: usize,
}

/// What decides for a cached origin.
#[derive(Debug)]
enum Decider {
    Compiled(Arc<Compiled>),
    All(bool),
}

/// The rules of one origin as cached: shared, immutable, `Send + Sync`.
#[derive(Debug)]
pub struct CachedRobots {
    origin: Origin,
    reason: Reason,
    decider: Decider,
    robots_txt_allowed: bool,
    fetched_at: Instant,
    expires_at: Instant,
    body: Option<BodyKey>,
}

impl CachedRobots {
    /// Decides `url` for the first configured agent.
    pub fn decide(&self, url: impl AsRef<[u8]>) -> FetchDecision<'_> {
        self.decide_as(0, url)
    }

    /// Decides `url` for the agent at `agent` in [`CacheConfig::agents`].
    ///
    /// # Panics
    /// When `agent` is not an index of the configured agents.
    pub fn decide_as(&self, agent: usize, url: impl AsRef<[u8]>) -> FetchDecision<'_> {
        match &self.decider {
            Decider::Compiled(c) => {
                let d = c.matchers[agent].decide(url);
                FetchDecision::new(d.is_allowed(), Some(d), &self.reason)
            }
            Decider::All(allowed) => {
                let robots_txt = self.robots_txt_allowed
                    && canonical_path(url.as_ref()).as_ref() == b"/robots.txt";
                FetchDecision::new(*allowed || robots_txt, None, &self.reason)
            }
        }
    }

    /// The compiled matcher for an agent, when a file was fetched.
    pub fn matcher(&self, agent: usize) -> Option<&Matcher> {
        match &self.decider {
            Decider::Compiled(c) => c.matchers.get(agent),
            Decider::All(_) => None,
        }
    }

    /// The origin.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// Why these rules apply.
    pub fn reason(&self) -> &Reason {
        &self.reason
    }

    /// Available, unavailable or unreachable.
    pub fn availability(&self) -> Availability {
        self.reason.availability()
    }

    /// When the result was inserted.
    pub fn fetched_at(&self) -> Instant {
        self.fetched_at
    }

    /// When it stops being fresh.
    pub fn expires_at(&self) -> Instant {
        self.expires_at
    }

    /// True when `now` is before the expiry.
    pub fn is_fresh(&self, now: Instant) -> bool {
        now < self.expires_at
    }
}

/// A 128-bit hash of a body (two halves) and its length: the key under which identical
/// robots.txt bodies share one compiled result (here and in the command line's host store).
pub type BodyKey = (u64, u64, usize);

/// The [`BodyKey`] of a body: POLYVAL (the universal hash of AES-GCM-SIV, RFC 8452) under a
/// key drawn at random once per process, and the length. Stable within a process only: use it
/// for in-memory maps, never on disk or between processes.
///
/// A crawled file is hostile input: it must not be able to share its key with another host's
/// body. POLYVAL makes two distinct bodies of the same length (`n` blocks of 16 bytes, the last
/// padded with zeros) collide only if the secret key is a root of their difference, a nonzero
/// polynomial of degree at most `n`: a chance of at most `n / 2^128` for bodies written without
/// knowledge of the key. The guarantee holds only while the key is secret, and unlike a
/// pseudorandom function's, a universal hash's outputs give its key away: never show a body
/// key to whoever writes bodies.
// PERF: it was SipHash-1-3 and foldhash (two 64-bit hashes, together about 2.7 instructions a
// byte); POLYVAL by carry-less multiplication, where the CPU has it, takes a fraction of that.
// Hashing was 20% of the instructions of classifying one URL per host of the real store.
pub fn body_key(body: &[u8]) -> BodyKey {
    use polyval::universal_hash::UniversalHash;
    use polyval::Polyval;
    // Built once: a new hasher computes the key's powers for its parallel blocks.
    static HASHER: std::sync::OnceLock<Polyval> = std::sync::OnceLock::new();
    let hasher = HASHER.get_or_init(|| Polyval::new(&random_key().into()));
    let mut h = hasher.clone();
    h.update_padded(body);
    let tag = h.finalize();
    let (lo, hi) = tag.split_at(8);
    let half = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    (half(lo), half(hi), body.len())
}

/// 16 bytes the authors of bodies cannot predict: std's `RandomState` draws its keys from the
/// operating system's generator, and its SipHash of two constants under them gives the bytes.
/// Never zero (under a zero key every body would hash to zero).
fn random_key() -> [u8; 16] {
    use std::hash::BuildHasher;
    let random = std::collections::hash_map::RandomState::new();
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&random.hash_one(0u8).to_le_bytes());
    key[8..].copy_from_slice(&random.hash_one(1u8).to_le_bytes());
    if key == [0; 16] {
        key[0] = 1;
    }
    key
}

/// Bytes charged to each entry besides its key: the entry, its map and LRU slots.
const ENTRY_OVERHEAD: usize = std::mem::size_of::<CachedRobots>()
    + std::mem::size_of::<Slot>()
    + 2 * std::mem::size_of::<Origin>()
    + 64;

struct Slot {
    entry: Arc<CachedRobots>,
    tick: u64,
    bytes: usize,
}

#[derive(Default)]
struct Inner {
    map: HashMap<Origin, Slot>,
    /// Least recently used first.
    lru: BTreeMap<u64, Origin>,
    /// Distinct bodies: compiled matchers and how many entries use them.
    bodies: HashMap<BodyKey, (Arc<Compiled>, usize)>,
    tick: u64,
    bytes: usize,
    stats: CacheStats,
}

/// Counters of a [`RobotsCache`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups that found a fresh entry.
    pub hits: u64,
    /// Lookups that found nothing.
    pub misses: u64,
    /// Lookups that found an expired entry (dropped; not counted as misses).
    pub expired: u64,
    /// Entries evicted to stay within the byte budget.
    pub evictions: u64,
    /// Bodies compiled.
    pub compiled: u64,
    /// Insertions whose body was already compiled for another entry.
    pub shared: u64,
}

/// A thread-safe, bounded, expiring cache of compiled robots.txt rules per [`Origin`]. See the
/// [module documentation](self).
pub struct RobotsCache {
    config: CacheConfig,
    inner: Mutex<Inner>,
}

impl fmt::Debug for RobotsCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RobotsCache")
            .field("entries", &self.len())
            .field("bytes", &self.memory_usage())
            .finish()
    }
}

impl RobotsCache {
    /// An empty cache.
    pub fn new(config: CacheConfig) -> RobotsCache {
        RobotsCache {
            config,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &CacheConfig {
        &self.config
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves the maps consistent (each update is
        // completed before anything that can panic), so a poisoned lock is still usable.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The fresh entry for `url`'s origin, or `None` (not cached, expired, or not a URL).
    pub fn get(&self, url: &str, now: Instant) -> Option<Arc<CachedRobots>> {
        self.get_origin(&Origin::from_url(url)?, now)
    }

    /// The fresh entry for an origin, or `None`. Marks it as recently used.
    pub fn get_origin(&self, origin: &Origin, now: Instant) -> Option<Arc<CachedRobots>> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(slot) = inner.map.get_mut(origin) else {
            inner.stats.misses += 1;
            return None;
        };
        if !slot.entry.is_fresh(now) {
            inner.stats.expired += 1;
            inner.remove(origin);
            return None;
        }
        inner.tick += 1;
        inner.lru.remove(&slot.tick);
        slot.tick = inner.tick;
        inner.lru.insert(slot.tick, origin.clone());
        inner.stats.hits += 1;
        Some(slot.entry.clone())
    }

    /// Records the outcome of fetching `origin`'s robots.txt at `now` (RFC 9309 §2.3, see
    /// [`crate::fetch`]), replacing any entry, and returns the new entry. Parsing and
    /// compiling happen outside the lock; a body already compiled for another origin is
    /// shared.
    pub fn insert(
        &self,
        origin: &Origin,
        outcome: &Outcome<'_>,
        now: Instant,
    ) -> Arc<CachedRobots> {
        let reason = Reason::of(outcome);
        let body = match (reason.availability(), outcome) {
            (Availability::Available, Outcome::Response { body, .. }) => Some(*body),
            _ => None,
        };
        let key = body.map(body_key);
        let mut compiled = key.and_then(|k| self.lock().bodies.get(&k).map(|(c, _)| c.clone()));
        let mut fresh = false;
        // A body already compiled for another origin is neither parsed nor compiled again.
        if let (Some(body), None) = (body, &compiled) {
            let robots = Robots::parse_with(body, &self.config.parse);
            let matchers: Vec<Matcher> = self
                .config
                .agents
                .iter()
                .map(|a| self.config.builder.build(&robots, a.clone()))
                .collect();
            let bytes = std::mem::size_of::<Compiled>()
                + matchers
                    .iter()
                    .map(|m| m.memory_usage() + std::mem::size_of::<Matcher>())
                    .sum::<usize>();
            compiled = Some(Arc::new(Compiled { matchers, bytes }));
            fresh = true;
        }
        let ttl = if reason.availability() == Availability::Unreachable {
            self.config.unreachable_ttl
        } else {
            self.config.ttl
        };
        let mut inner = self.lock();
        let inner = &mut *inner;
        let decider = match (key, compiled) {
            (Some(k), Some(c)) => {
                let slot = inner.bodies.entry(k).or_insert_with(|| {
                    inner.bytes += c.bytes;
                    (c, 0)
                });
                slot.1 += 1;
                if fresh {
                    inner.stats.compiled += 1;
                } else {
                    inner.stats.shared += 1;
                }
                Decider::Compiled(slot.0.clone())
            }
            // Unavailable allows everything; unreachable disallows everything.
            _ => Decider::All(reason.availability() == Availability::Unavailable),
        };
        let entry = Arc::new(CachedRobots {
            origin: origin.clone(),
            reason,
            decider,
            robots_txt_allowed: self.config.builder.get_profile().robots_txt_allowed,
            fetched_at: now,
            expires_at: now.checked_add(ttl).unwrap_or(now),
            body: key,
        });
        inner.remove(origin);
        inner.tick += 1;
        let bytes = ENTRY_OVERHEAD + origin.host.len() + origin.scheme.len();
        inner.bytes += bytes;
        inner.lru.insert(inner.tick, origin.clone());
        inner.map.insert(
            origin.clone(),
            Slot {
                entry: entry.clone(),
                tick: inner.tick,
                bytes,
            },
        );
        while inner.bytes > self.config.max_bytes {
            let Some((_, oldest)) = inner.lru.pop_first() else {
                break;
            };
            inner.remove(&oldest);
            inner.stats.evictions += 1;
        }
        entry
    }

    /// Drops the entry of an origin; true if there was one.
    pub fn remove(&self, origin: &Origin) -> bool {
        self.lock().remove(origin)
    }

    /// The number of entries (fresh or not yet noticed to be expired).
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    /// True when the cache holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of distinct compiled bodies held.
    pub fn body_count(&self) -> usize {
        self.lock().bodies.len()
    }

    /// The bytes charged by the cache's accounting (see the module documentation).
    pub fn memory_usage(&self) -> usize {
        self.lock().bytes
    }

    /// The counters so far.
    pub fn stats(&self) -> CacheStats {
        self.lock().stats
    }
}

impl Inner {
    fn remove(&mut self, origin: &Origin) -> bool {
        let Some(slot) = self.map.remove(origin) else {
            return false;
        };
        self.lru.remove(&slot.tick);
        self.bytes -= slot.bytes;
        if let Some(k) = slot.entry.body {
            if let Some(b) = self.bodies.get_mut(&k) {
                b.1 -= 1;
                if b.1 == 0 {
                    self.bytes -= b.0.bytes;
                    self.bodies.remove(&k);
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &[u8] = b"User-agent: *\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n";

    fn origin(url: &str) -> Origin {
        Origin::from_url(url).expect("origin")
    }

    /// Equal bodies share a key (whatever buffer holds them); a body changed in any one byte,
    /// or cut by one byte, does not, and neither of its two hashes agrees.
    #[test]
    fn body_key_separates_bodies_that_differ_anywhere() {
        let body: Vec<u8> = BODY.repeat(40);
        let key = body_key(&body);
        assert_eq!(key, body_key(&body.clone()));
        assert_eq!(key.2, body.len());
        for i in 0..body.len() {
            let mut other = body.clone();
            other[i] ^= 1;
            let k = body_key(&other);
            assert!(k.0 != key.0 && k.1 != key.1, "byte {i}");
        }
        let k = body_key(&body[..body.len() - 1]);
        assert!(k.0 != key.0 && k.1 != key.1);
    }

    /// The hash pads the last block with zeros, so a body and the same body with zero bytes
    /// added hash alike: the length in the key keeps them apart.
    #[test]
    fn body_key_separates_bodies_that_differ_by_trailing_zeros() {
        let body = BODY.to_vec();
        let mut padded = body.clone();
        padded.push(0);
        assert_ne!(body_key(&body), body_key(&padded));
        assert_ne!(body_key(b""), body_key(b"\0"));
    }

    #[test]
    fn origins() {
        let a = origin("https://Example.COM./x");
        assert_eq!(a, origin("https://example.com:443/y?z"));
        assert_eq!(a.to_string(), "https://example.com");
        assert_eq!(a.robots_url(), "https://example.com/robots.txt");
        assert_ne!(a, origin("http://example.com/"));
        assert_ne!(a, origin("https://example.com:8443/"));
        assert_eq!(
            origin("http://u:p@h.example:8080/").robots_url(),
            "http://h.example:8080/robots.txt"
        );
        assert_eq!(origin("http://[::1]:81/").host(), "[::1]");
        assert_eq!(Origin::from_url("/relative"), None);
        assert_eq!(Origin::from_url("gopher://h/"), None);
        assert_eq!(Origin::from_url("http://h:port/"), None);
        assert_eq!(Origin::from_url("http:///x"), None);
    }

    #[test]
    fn several_agents_and_reasons() {
        let cache = RobotsCache::new(CacheConfig::new().agents(&["Googlebot", "OtherBot"]));
        let now = Instant::now();
        let e = cache.insert(
            &origin("https://a.example/"),
            &Outcome::response(200, BODY),
            now,
        );
        assert!(e.decide("https://a.example/public").is_allowed());
        assert!(!e.decide("https://a.example/private").is_allowed());
        assert!(!e.decide_as(1, "https://a.example/public").is_allowed());
        assert_eq!(
            e.decide("/x").reason().to_string(),
            "robots.txt fetched (200)"
        );
        let down = cache.insert(
            &origin("https://b.example/"),
            &Outcome::response(503, b"oops"),
            now,
        );
        assert!(!down.decide_as(1, "/x").is_allowed());
        assert_eq!(
            down.decide("/x").reason().to_string(),
            "robots.txt unreachable (503)"
        );
        assert!(down.matcher(0).is_none());
        let gone = cache.insert(
            &origin("https://c.example/"),
            &Outcome::response(404, b""),
            now,
        );
        assert!(gone.decide("/private").is_allowed());
    }

    #[test]
    fn expiry_and_shorter_retry_for_unreachable() {
        let cache = RobotsCache::new(
            CacheConfig::new()
                .ttl(Duration::from_secs(100))
                .unreachable_ttl(Duration::from_secs(10)),
        );
        let t0 = Instant::now();
        cache.insert(
            &origin("http://ok.example/"),
            &Outcome::response(200, BODY),
            t0,
        );
        cache.insert(
            &origin("http://down.example/"),
            &Outcome::network_error("timed out"),
            t0,
        );
        let at = |s| t0 + Duration::from_secs(s);
        assert!(cache.get("http://ok.example/x", at(9)).is_some());
        assert!(cache.get("http://down.example/x", at(9)).is_some());
        assert!(cache.get("http://down.example/x", at(10)).is_none());
        assert!(cache.get("http://ok.example/x", at(99)).is_some());
        assert!(cache.get("http://ok.example/x", at(100)).is_none());
        assert_eq!(cache.len(), 0);
        assert_eq!(cache.memory_usage(), 0);
        let s = cache.stats();
        assert_eq!((s.hits, s.expired, s.misses), (3, 2, 0));
        assert!(cache.get("http://new.example/", at(0)).is_none());
        assert_eq!(cache.stats().misses, 1);
    }

    #[test]
    fn identical_bodies_compiled_once() {
        let cache = RobotsCache::new(CacheConfig::new());
        let now = Instant::now();
        for i in 0..50 {
            let e = cache.insert(
                &origin(&format!("https://h{i}.example/")),
                &Outcome::response(200, BODY),
                now,
            );
            assert!(!e.decide("/private/x").is_allowed());
        }
        cache.insert(
            &origin("https://z.example/"),
            &Outcome::response(200, b"User-agent: *\nDisallow: /z\n"),
            now,
        );
        let s = cache.stats();
        assert_eq!((s.compiled, s.shared), (2, 49));
        assert_eq!(cache.body_count(), 2);
        // Replacing and removing entries releases a body when its last user goes.
        cache.insert(
            &origin("https://z.example/"),
            &Outcome::response(404, b""),
            now,
        );
        assert_eq!(cache.body_count(), 1);
        for i in 0..50 {
            assert!(cache.remove(&origin(&format!("https://h{i}.example/"))));
        }
        assert_eq!(cache.body_count(), 0);
        assert_eq!(cache.len(), 1);
        assert_eq!(
            cache.memory_usage(),
            ENTRY_OVERHEAD + "z.example".len() + "https".len()
        );
    }

    #[test]
    fn bounded_by_bytes_under_many_hosts_least_recently_used_first() {
        let budget = 200_000;
        let cache = RobotsCache::new(CacheConfig::new().max_bytes(budget));
        let t = Instant::now();
        let keep = origin("https://keep.example/");
        cache.insert(
            &keep,
            &Outcome::response(200, b"User-agent: *\nDisallow: /keep\n"),
            t,
        );
        for i in 0..5000 {
            let body = format!("User-agent: *\nDisallow: /p{i}/*.php$\nAllow: /p{i}/ok\n");
            cache.insert(
                &origin(&format!("https://h{i}.example/")),
                &Outcome::response(200, body.as_bytes()),
                t,
            );
            assert!(
                cache.memory_usage() <= budget,
                "{} > {budget}",
                cache.memory_usage()
            );
            // Touch `keep` so it is never the least recently used.
            assert!(cache.get_origin(&keep, t).is_some(), "keep evicted at {i}");
        }
        let s = cache.stats();
        assert!(s.evictions > 4000, "{s:?}");
        assert_eq!(cache.len() as u64, 5001 - s.evictions);
        assert!(cache.get("https://h4999.example/", t).is_some());
        assert!(cache.get("https://h0.example/", t).is_none());
        // The accounting equals what the remaining entries and bodies are charged.
        let inner = cache.lock();
        let sum: usize = inner.map.values().map(|s| s.bytes).sum::<usize>()
            + inner.bodies.values().map(|b| b.0.bytes).sum::<usize>();
        assert_eq!(sum, inner.bytes);
        assert_eq!(inner.lru.len(), inner.map.len());
    }

    #[test]
    fn an_entry_larger_than_the_budget_is_returned_but_not_kept() {
        let cache = RobotsCache::new(CacheConfig::new().max_bytes(10));
        let e = cache.insert(
            &origin("https://a.example/"),
            &Outcome::response(200, BODY),
            Instant::now(),
        );
        assert!(!e.decide("/private").is_allowed());
        assert_eq!(cache.len(), 0);
        assert_eq!(cache.memory_usage(), 0);
    }

    #[test]
    fn concurrent_use() {
        let cache = RobotsCache::new(CacheConfig::new().max_bytes(1 << 20));
        let t = Instant::now();
        std::thread::scope(|s| {
            for thread in 0..4 {
                let cache = &cache;
                s.spawn(move || {
                    for i in 0..2000 {
                        let host = format!("https://h{}.example/", (i * 7 + thread) % 300);
                        let e = match cache.get(&host, t) {
                            Some(e) => e,
                            None => {
                                let body = format!("User-agent: *\nDisallow: /{}\n", i % 300 % 13);
                                let outcome = if i % 300 % 5 == 0 {
                                    Outcome::response(503, b"")
                                } else {
                                    Outcome::response(200, body.as_bytes())
                                };
                                cache.insert(&origin(&host), &outcome, t)
                            }
                        };
                        assert_eq!(e.origin(), &origin(&host));
                        let allowed = e.decide(format!("{host}zzz")).is_allowed();
                        assert_eq!(allowed, e.availability() != Availability::Unreachable);
                    }
                });
            }
        });
        let inner = cache.lock();
        let refs: usize = inner.bodies.values().map(|b| b.1).sum();
        let with_body = inner
            .map
            .values()
            .filter(|s| s.entry.body.is_some())
            .count();
        assert_eq!(refs, with_body);
        assert!(inner.bodies.len() <= 13);
    }

    #[test]
    fn send_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<RobotsCache>();
        assert_send_sync::<CachedRobots>();
    }
}
