//! Benchmark support: the workloads of `corpora/bench` and one adapter per robots.txt crate,
//! each deciding absolute URLs with that crate's own URL handling.
//!
//! Peers: `robotstxt` (a port of Google's C++ library; it re-parses the file for every URL by
//! design), `texting_robots`, `robotparser`, `cylon`, `fast-robots`.

use std::path::PathBuf;

use robotsmatch::Matcher;

/// One workload: a robots.txt file, a crawler and a URL set.
pub struct Workload {
    /// `a-tiny`, `b-shop`, ...
    pub name: &'static str,
    /// The robots.txt body.
    pub robots: Vec<u8>,
    /// The URLs (absolute).
    pub urls: Vec<String>,
    /// The crawler.
    pub agent: &'static str,
}

/// The workloads, in order (files in `corpora/bench`, URLs made by `gen-urls`).
pub const WORKLOADS: &[&str] = &["a-tiny", "b-shop", "c-literal", "d-wildcards", "e-largest"];

/// The directory of the workload files.
pub fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpora/bench")
}

/// Loads a workload by name.
pub fn load(name: &'static str) -> Workload {
    let dir = bench_dir();
    let robots = std::fs::read(dir.join(format!("{name}.txt"))).expect("workload robots.txt");
    let urls = std::fs::read_to_string(dir.join(format!("{name}.urls")))
        .expect("workload urls")
        .lines()
        .map(str::to_string)
        .collect();
    Workload {
        name,
        robots,
        urls,
        agent: "Googlebot",
    }
}

/// The verdicts of the reference matcher (Google's semantics) for every URL of a workload.
pub fn reference_verdicts(w: &Workload) -> Vec<bool> {
    let m = Matcher::from_bytes(&w.robots, w.agent);
    w.urls
        .iter()
        .map(|u| {
            let path = robotsmatch::canon::canonical_path(u.as_bytes());
            m.reference().decide(&path).allowed
        })
        .collect()
}

/// The path and query of an absolute URL, for crates that take paths only.
pub fn path_of(url: &str) -> &str {
    let rest = url.find("://").map_or(url, |i| &url[i + 3..]);
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    path.split('#').next().unwrap_or(path)
}

/// A robots.txt engine under test, built once for (file, agent).
pub trait Peer {
    /// The name used in benchmark ids.
    const NAME: &'static str;
    /// Parses and builds; `None` when the crate rejects the input.
    fn build(robots: &[u8], agent: &str) -> Option<Self>
    where
        Self: Sized;
    /// Decides one absolute URL.
    fn allowed(&self, url: &str) -> bool;

    /// The one-shot question: parse, (build) and decide one URL, the crate's fastest way.
    /// By default [`Peer::build`] then [`Peer::allowed`].
    fn once(robots: &[u8], agent: &str, url: &str) -> Option<bool>
    where
        Self: Sized,
    {
        Self::build(robots, agent).map(|p| p.allowed(url))
    }
}

/// robotsmatch.
pub struct RobotsMatch(Matcher);

impl Peer for RobotsMatch {
    const NAME: &'static str = "robotsmatch";
    fn build(robots: &[u8], agent: &str) -> Option<Self> {
        Some(RobotsMatch(Matcher::from_bytes(robots, agent)))
    }
    #[inline]
    fn allowed(&self, url: &str) -> bool {
        self.0.decide(url).is_allowed()
    }

    /// `Matcher::decide_once`: one pass over the file, no matcher built.
    fn once(robots: &[u8], agent: &str, url: &str) -> Option<bool> {
        Some(Matcher::decide_once(robots, agent, url).is_allowed())
    }
}

/// robotsmatch with a matcher built for the one-shot question (`Matcher::from_bytes`, then
/// `decide`): what a crawler pays to ask a few URLs of a file.
pub struct RobotsMatchBuilt(Matcher);

impl Peer for RobotsMatchBuilt {
    const NAME: &'static str = "robotsmatch-matcher";
    fn build(robots: &[u8], agent: &str) -> Option<Self> {
        Some(RobotsMatchBuilt(Matcher::from_bytes(robots, agent)))
    }
    #[inline]
    fn allowed(&self, url: &str) -> bool {
        self.0.decide(url).is_allowed()
    }
}

/// texting_robots.
pub struct TextingRobots(texting_robots::Robot);

impl Peer for TextingRobots {
    const NAME: &'static str = "texting_robots";
    fn build(robots: &[u8], agent: &str) -> Option<Self> {
        texting_robots::Robot::new(agent, robots)
            .ok()
            .map(TextingRobots)
    }
    #[inline]
    fn allowed(&self, url: &str) -> bool {
        self.0.allowed(url)
    }
}

/// robotstxt (Google's C++ library ported to Rust): parses the body for every URL.
pub struct GooglePort {
    body: String,
    agent: String,
}

impl Peer for GooglePort {
    const NAME: &'static str = "robotstxt";
    fn build(robots: &[u8], agent: &str) -> Option<Self> {
        Some(GooglePort {
            body: String::from_utf8_lossy(robots).into_owned(),
            agent: agent.to_string(),
        })
    }
    #[inline]
    fn allowed(&self, url: &str) -> bool {
        robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(
            &self.body,
            &self.agent,
            url,
        )
    }
}

/// robotparser (checks with `url::Url`, so every URL is parsed by the `url` crate).
pub struct RobotParser {
    robots: robotparser::model::RobotsTxt,
    agent: String,
}

impl Peer for RobotParser {
    const NAME: &'static str = "robotparser";
    fn build(robots: &[u8], agent: &str) -> Option<Self> {
        let origin = url::Url::parse("https://www.example.com/").ok()?.origin();
        let text = String::from_utf8_lossy(robots);
        let parsed = robotparser::parser::parse_robots_txt(origin, &text);
        Some(RobotParser {
            robots: parsed.get_result(),
            agent: agent.to_string(),
        })
    }
    #[inline]
    fn allowed(&self, url: &str) -> bool {
        use robotparser::service::RobotsTxtService;
        match url::Url::parse(url) {
            Ok(u) => self.robots.can_fetch(&self.agent, &u),
            Err(_) => true,
        }
    }
}

/// cylon (its compiler is async; driven here with a minimal executor).
pub struct CylonPeer(cylon::Cylon);

impl Peer for CylonPeer {
    const NAME: &'static str = "cylon";
    fn build(robots: &[u8], agent: &str) -> Option<Self> {
        let compiler = cylon::Compiler::new(agent);
        futures_executor::block_on(compiler.compile(robots))
            .ok()
            .map(CylonPeer)
    }
    #[inline]
    fn allowed(&self, url: &str) -> bool {
        self.0.allow(path_of(url))
    }
}

/// fast-robots (borrows the body; the adapter owns a leaked copy for the benchmark's life).
pub struct FastRobots {
    matcher: fast_robots::RobotsMatcher<'static>,
    agent: String,
}

impl Peer for FastRobots {
    const NAME: &'static str = "fast-robots";
    fn build(robots: &[u8], agent: &str) -> Option<Self> {
        let text: &'static str = Box::leak(
            String::from_utf8_lossy(robots)
                .into_owned()
                .into_boxed_str(),
        );
        let parsed: &'static fast_robots::RobotsTxt<'static> =
            Box::leak(Box::new(fast_robots::RobotsTxt::parse(text)));
        Some(FastRobots {
            matcher: parsed.matcher(),
            agent: agent.to_string(),
        })
    }
    #[inline]
    fn allowed(&self, url: &str) -> bool {
        self.matcher.is_allowed(&self.agent, path_of(url))
    }

    /// Parse and decide without building (or leaking) a matcher: fast-robots' one-shot call.
    fn once(robots: &[u8], agent: &str, url: &str) -> Option<bool> {
        Some(fast_robots_oneshot(
            &String::from_utf8_lossy(robots),
            agent,
            url,
        ))
    }
}

/// fast-robots one-shot: parse, build and decide without leaking.
pub fn fast_robots_oneshot(robots: &str, agent: &str, url: &str) -> bool {
    fast_robots::RobotsTxt::parse(robots).is_allowed(agent, path_of(url))
}

/// Builds `P` and its verdicts for every URL of `w`, catching panics (a crate that panics on a
/// workload is reported as unable to handle it).
pub fn verdicts<P: Peer>(w: &Workload, urls: &[String]) -> Option<(P, Vec<bool>)> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let p = P::build(&w.robots, w.agent)?;
        let v = urls.iter().map(|u| p.allowed(u)).collect();
        Some((p, v))
    }))
    .ok()
    .flatten()
}

/// A synthetic group of `n` rules: literal directory prefixes, or patterns with wildcards.
pub fn synthetic(n: usize, wildcard: bool) -> String {
    let mut s = String::from("User-agent: *\n");
    for i in 0..n {
        let kind = if i % 5 == 0 { "Allow" } else { "Disallow" };
        if wildcard {
            match i % 3 {
                0 => s.push_str(&format!("{kind}: /*/section{i}/*.pdf$\n")),
                1 => s.push_str(&format!("{kind}: /*?*param{i}=\n")),
                _ => s.push_str(&format!("{kind}: /dir{i}/*/page\n")),
            }
        } else {
            s.push_str(&format!("{kind}: /dir{i}/sub{}/\n", i % 7));
        }
    }
    s
}
