//! `lint-cost`: what `lint` costs on the files written to hurt it, and on real files.
//!
//! For each hostile lint case (500 KiB each, `robotsmatch_tools::hostile_lint_cases`): the
//! median time of 3 runs, the work units used (of the default budget) and whether checks were
//! skipped. Given a directory of real robots.txt files, also the distribution of lint time and
//! work over them, and the files on which checks were skipped.
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin lint-cost [-- [--write DIR] [ROBOTS_DIR]]`
//! (`--write DIR` also writes the hostile files out, to time another `robotsmatch lint` on them).

use std::time::{Duration, Instant};

use robotsmatch::lint::{lint_with, LintConfig};
use robotsmatch::Robots;
use robotsmatch_tools::{hostile_lint_cases, quantile};

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut write = None;
    if args.first().is_some_and(|a| a == "--write") {
        anyhow::ensure!(
            args.len() >= 2,
            "usage: lint-cost [--write DIR] [ROBOTS_DIR]"
        );
        write = Some(std::path::PathBuf::from(args.remove(1)));
        args.remove(0);
    }
    let dir = args.first().cloned();
    let config = LintConfig::new();
    println!(
        "budget: {} units (LintConfig::DEFAULT_WORK_BUDGET)\n",
        config.get_work_budget()
    );
    println!("| case | size | lint (median of 3) | work units | findings | checks skipped |");
    println!("|---|---|---|---|---|---|");
    for case in hostile_lint_cases() {
        if let Some(dir) = &write {
            std::fs::create_dir_all(dir)?;
            std::fs::write(dir.join(format!("lint-{}.txt", case.name)), &case.body)?;
        }
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..3 {
            let t = Instant::now();
            let report = lint_with(&case.body, &Robots::parse(&case.body), &config);
            times.push(t.elapsed());
            last = Some(report);
        }
        times.sort();
        let report = last.expect("three runs");
        println!(
            "| {} ({}) | {} KiB | {:.2?} | {} | {} | {} |",
            case.name,
            case.what,
            case.body.len() / 1024,
            times[1],
            report.work,
            report.findings.len(),
            if report.complete() { "no" } else { "yes" }
        );
    }
    let Some(dir) = dir else {
        return Ok(());
    };
    let mut rows: Vec<(Duration, u64, String, bool)> = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let body = std::fs::read(&path)?;
        let t = Instant::now();
        let report = lint_with(&body, &Robots::parse(&body), &config);
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        rows.push((t.elapsed(), report.work, name, report.complete()));
    }
    let mut times: Vec<Duration> = rows.iter().map(|r| r.0).collect();
    let mut work: Vec<u64> = rows.iter().map(|r| r.1).collect();
    times.sort();
    work.sort();
    println!("\n{} real files in {dir}\n", rows.len());
    println!("| quantile | lint time | work units |");
    println!("|---|---|---|");
    for (label, q) in [
        ("p50", 0.5),
        ("p90", 0.9),
        ("p99", 0.99),
        ("p99.9", 0.999),
        ("max", 1.0),
    ] {
        println!(
            "| {label} | {:.2?} | {} |",
            quantile(&times, q).unwrap_or_default(),
            quantile(&work, q).unwrap_or_default()
        );
    }
    let slowest = rows
        .iter()
        .max_by_key(|r| r.0)
        .map(|r| r.2.clone())
        .unwrap_or_default();
    let costliest = rows
        .iter()
        .max_by_key(|r| r.1)
        .map(|r| r.2.clone())
        .unwrap_or_default();
    println!("\nslowest: {slowest}; most work: {costliest}");
    let skipped: Vec<&str> = rows.iter().filter(|r| !r.3).map(|r| r.2.as_str()).collect();
    println!(
        "files with checks skipped: {} {:?}",
        skipped.len(),
        &skipped[..skipped.len().min(20)]
    );
    Ok(())
}
