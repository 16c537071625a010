//! `engines`: the engines side by side on every distinct real robots.txt body: build time and
//! decide time over paths derived from each file's rules (matches and near misses), and the
//! cold tier's decide time. What the automatic engine choice and the cold-to-hot threshold are
//! measured with.
//!
//! ```sh
//! cargo run --release -p robotsmatch-tools --bin engines -- ../shared/corpora/robots [AGENT]
//! ```

use std::time::Instant;

use robotsmatch::{EngineChoice, Matcher, MatcherBuilder, Robots, Tier};

/// Paths derived from a matcher's rules: each pattern with `*` filled and `$` dropped, plus a
/// suffix, a query, and a near miss.
fn derived(m: &Matcher) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for r in m.rules() {
        let p: Vec<u8> = r
            .pattern()
            .iter()
            .filter(|&&b| b != b'$')
            .map(|&b| if b == b'*' { b'x' } else { b })
            .collect();
        if p.is_empty() {
            continue;
        }
        let mut a = p.clone();
        a.extend_from_slice(b"/index.html?utm_source=x");
        let mut b = p.clone();
        if let Some(last) = b.last_mut() {
            *last ^= 1;
        }
        out.push(p);
        out.push(a);
        out.push(b);
    }
    out.push(b"/".to_vec());
    out.push(b"/some/random/page.html".to_vec());
    out
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../shared/corpora/robots".to_string());
    let agent = args.next().unwrap_or_else(|| "Googlebot".to_string());
    let (_, bodies) = robotsmatch_tools::distinct_bodies(&dir)?;
    let configs: Vec<(&str, MatcherBuilder)> = vec![
        ("cold", MatcherBuilder::new().tier(Tier::Cold)),
        ("auto-hot", MatcherBuilder::new().tier(Tier::Hot)),
        ("tree", MatcherBuilder::new().engine(EngineChoice::Tree)),
        ("split", MatcherBuilder::new().engine(EngineChoice::Split)),
        ("lazy", MatcherBuilder::new().engine(EngineChoice::Lazy)),
    ];
    // Per config: build seconds, decide seconds, decisions; per size class too.
    let mut build = vec![0f64; configs.len()];
    let mut decide = vec![0f64; configs.len()];
    let mut n = 0usize;
    let mut by_size: Vec<[f64; 10]> = vec![[0.0; 10]; 6];
    let mut by_wild: Vec<[f64; 10]> = vec![[0.0; 10]; 5];
    let mut wild_paths = [0usize; 5];
    let mut patterns_total = 0usize;
    // (tree decide - split decide, file index, patterns, wildcards) for files with 33+ wildcards.
    let mut worst: Vec<(f64, usize, usize, usize)> = Vec::new();
    // Cold work units (patterns checked + 16 per decision, as the matcher counts them).
    let mut units = 0f64;
    for (bi, body) in bodies.iter().enumerate() {
        let robots = Robots::parse(body);
        let probe = MatcherBuilder::new()
            .tier(Tier::Cold)
            .build(&robots, agent.as_str());
        let (pats, wild) = probe.pattern_counts();
        let wclass = match wild {
            0 => 0,
            1..=4 => 1,
            5..=32 if pats <= 128 => 2,
            33..=64 if pats <= 128 => 3,
            _ => 4,
        };
        if pats <= 8 {
            continue;
        }
        patterns_total += pats;
        let paths = derived(&probe);
        n += paths.len();
        units += (paths.len() * (pats + 16)) as f64;
        wild_paths[wclass] += paths.len();
        let class = (pats as f64).log10().floor() as usize;
        let mut answers: Option<Vec<bool>> = None;
        let mut file_decide = vec![0f64; configs.len()];
        for (i, (_, b)) in configs.iter().enumerate() {
            let t = Instant::now();
            let m = b.build(&robots, agent.as_str());
            let bt = t.elapsed().as_secs_f64();
            let mut cache = m.create_cache();
            // Warm once (lazy DFA states), then time.
            let got: Vec<bool> = paths
                .iter()
                .map(|p| m.decide_with(&mut cache, p).is_allowed())
                .collect();
            let t = Instant::now();
            for p in &paths {
                std::hint::black_box(m.decide_with(&mut cache, p).is_allowed());
            }
            let dt = t.elapsed().as_secs_f64();
            match &answers {
                None => answers = Some(got),
                Some(a) => assert_eq!(a, &got, "engines disagree"),
            }
            build[i] += bt;
            decide[i] += dt;
            file_decide[i] = dt;
            by_size[class.min(5)][2 * i] += bt;
            by_size[class.min(5)][2 * i + 1] += dt;
            by_wild[wclass][2 * i] += bt;
            by_wild[wclass][2 * i + 1] += dt;
        }
        if wild > 32 {
            worst.push((file_decide[2] - file_decide[3], bi, pats, wild));
        }
    }
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (d, i, p, w) in worst.iter().take(8) {
        let first =
            String::from_utf8_lossy(&bodies[*i][..bodies[*i].len().min(60)]).replace('\n', " ");
        println!(
            "tree slower by {:.1} ms: body {i}, {p} patterns, {w} wildcards: {first}",
            d * 1e3
        );
    }
    println!(
        "{} distinct bodies; those with more than 8 patterns: {} patterns, {} derived paths",
        bodies.len(),
        patterns_total,
        n
    );
    println!("| engine | build total | build ns/pattern | decide ns/path |");
    println!("|---|---|---|---|");
    for (i, (name, _)) in configs.iter().enumerate() {
        println!(
            "| {name} | {:.3} s | {:.0} | {:.1} |",
            build[i],
            build[i] * 1e9 / patterns_total.max(1) as f64,
            decide[i] * 1e9 / n.max(1) as f64
        );
    }
    println!(
        "cold tier: {:.2} ns per work unit (pattern checked); tree build: {:.0} units per pattern",
        decide[0] * 1e9 / units,
        build[2] * 1e9 / patterns_total.max(1) as f64 / (decide[0] * 1e9 / units)
    );
    println!("\nby pattern count (10^k): build s / decide s per engine");
    for (k, row) in by_size.iter().enumerate() {
        let cells: Vec<String> = (0..configs.len())
            .map(|i| format!("{:.3}/{:.3}", row[2 * i], row[2 * i + 1]))
            .collect();
        println!("10^{k}: {}", cells.join("  "));
    }
    println!("\nby wildcard patterns: build ms / decide ns per path, per engine");
    for (k, row) in by_wild.iter().enumerate() {
        let cells: Vec<String> = (0..configs.len())
            .map(|i| {
                format!(
                    "{}: {:.0}/{:.0}",
                    configs[i].0,
                    row[2 * i] * 1e3,
                    row[2 * i + 1] * 1e9 / wild_paths[k].max(1) as f64
                )
            })
            .collect();
        println!(
            "{} ({} paths): {}",
            [
                "0",
                "1-4",
                "5-32 (<= 128 patterns)",
                "33-64 (<= 128 patterns)",
                "5+ among more than 128 patterns, or 65+"
            ][k],
            wild_paths[k],
            cells.join("  ")
        );
    }
    Ok(())
}
