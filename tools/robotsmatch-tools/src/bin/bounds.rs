//! `bounds`: compiles every robots.txt file in a directory for a few crawlers, the hot engine
//! built at once, and prints the distribution of compile time and automaton memory, the
//! slowest and the largest, and the engines chosen. Exits 1 if any file takes more than 100 ms or 64 MiB.
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin bounds [DIR] [AGENT...]`
//! (default DIR `../shared/corpora/robots`, agents Googlebot, GPTBot and an unnamed bot).
//! Memory is the automaton and tables plus the lazy DFA cache after deciding up to 200 paths
//! derived from the file's rules (the cache grows as states are built).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use robotsmatch::{EngineChoice, MatcherBuilder, Robots, Tier};
use robotsmatch_tools::{quantile, rule_derived_paths};

const TIME_LIMIT: Duration = Duration::from_millis(100);
const MEMORY_LIMIT: usize = 64 << 20;

struct Row {
    file: String,
    agent: String,
    rules: usize,
    patterns: (usize, usize),
    engine: &'static str,
    compile: Duration,
    memory: usize,
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../shared/corpora/robots".into());
    let mut agents: Vec<String> = args.collect();
    if agents.is_empty() {
        agents = vec![
            "Googlebot".into(),
            "GPTBot".into(),
            "RobotsmatchTestbot".into(),
        ];
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("cannot read directory '{dir}': {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    // `ROBOTSMATCH_ENGINE=lazy|dense|auto` compares engines (default auto).
    let engine = match std::env::var("ROBOTSMATCH_ENGINE").as_deref() {
        Ok("lazy") => EngineChoice::Lazy,
        Ok("dense") => EngineChoice::Dense,
        _ => EngineChoice::Auto,
    };
    // The hot engine, built at once: its compile time and memory are the bounds (a matcher
    // starts cold and builds it only when it proves hot).
    let builder = MatcherBuilder::new().engine(engine).tier(Tier::Hot);
    let mut rows = Vec::new();
    let total = Instant::now();
    for path in &files {
        let body = std::fs::read(path)?;
        let parse_start = Instant::now();
        let robots = Robots::parse(&body);
        let parse_time = parse_start.elapsed();
        let paths = rule_derived_paths(&robots, 200);
        for agent in &agents {
            let start = Instant::now();
            let m = builder.build(&robots, agent.as_str());
            let compile = start.elapsed() + parse_time;
            let mut cache = m.create_cache();
            for p in &paths {
                m.decide_with(&mut cache, p);
            }
            rows.push(Row {
                file: path.file_name().unwrap().to_string_lossy().into_owned(),
                agent: agent.clone(),
                rules: m.rules().len(),
                patterns: m.pattern_counts(),
                engine: m.engine().as_str(),
                compile,
                memory: m.memory_usage() + cache.memory_usage(),
            });
        }
    }
    let mut times: Vec<Duration> = rows.iter().map(|r| r.compile).collect();
    times.sort();
    let mut mems: Vec<usize> = rows.iter().map(|r| r.memory).collect();
    mems.sort();
    let mut engines: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        *engines.entry(r.engine).or_default() += 1;
    }
    println!(
        "{} files x {} agents = {} matchers built in {:.1?} (parse + select + compile per matcher)",
        files.len(),
        agents.len(),
        rows.len(),
        total.elapsed()
    );
    println!("engines: {engines:?}");
    println!(
        "total memory {:.1} MiB over {} matchers",
        mems.iter().sum::<usize>() as f64 / (1 << 20) as f64,
        mems.len()
    );
    println!("quantile      compile        memory");
    for (label, q) in [
        ("p50", 0.5),
        ("p90", 0.9),
        ("p99", 0.99),
        ("p99.9", 0.999),
        ("max", 1.0),
    ] {
        println!(
            "{label:<8} {:>12.1?} {:>10.1} KiB",
            quantile(&times, q).unwrap_or_default(),
            quantile(&mems, q).unwrap_or_default() as f64 / 1024.0
        );
    }
    let show = |title: &str, rows: &mut Vec<&Row>| {
        println!("{title}");
        for r in rows.iter().take(5) {
            println!(
                "  {:>10.1?} {:>9.1} KiB  {:<7} {:>6} rules {:>6} patterns {:>5} wildcard  {} ({})",
                r.compile,
                r.memory as f64 / 1024.0,
                r.engine,
                r.rules,
                r.patterns.0,
                r.patterns.1,
                r.file,
                r.agent
            );
        }
    };
    let mut by_time: Vec<&Row> = rows.iter().collect();
    by_time.sort_by_key(|r| std::cmp::Reverse(r.compile));
    show("slowest:", &mut by_time);
    let mut by_mem: Vec<&Row> = rows.iter().collect();
    by_mem.sort_by_key(|r| std::cmp::Reverse(r.memory));
    show("largest:", &mut by_mem);
    let over: Vec<&Row> = rows
        .iter()
        .filter(|r| r.compile > TIME_LIMIT || r.memory > MEMORY_LIMIT)
        .collect();
    if over.is_empty() {
        println!("all within {TIME_LIMIT:?} and {} MiB", MEMORY_LIMIT >> 20);
        Ok(())
    } else {
        for r in &over {
            println!(
                "OVER LIMIT: {} ({}) {:?} {} bytes",
                r.file, r.agent, r.compile, r.memory
            );
        }
        std::process::exit(1);
    }
}
