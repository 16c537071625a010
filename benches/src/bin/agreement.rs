//! `agreement`: for every workload and peer, how many URLs get a verdict other than Google's
//! semantics (robotsmatch's reference matcher), with a few examples.
//!
//! Usage: `cargo run --release -p robotsmatch-benches --bin agreement`

use robotsmatch_benches::*;

fn report<P: Peer>(w: &Workload, reference: &[bool]) {
    let n = if P::NAME == "robotstxt" && w.robots.len() > 10_000 {
        300
    } else {
        w.urls.len()
    };
    let Some((_, v)) = verdicts::<P>(w, &w.urls[..n]) else {
        println!("{} {}: cannot handle the file", w.name, P::NAME);
        return;
    };
    let differ: Vec<usize> = (0..n).filter(|&i| v[i] != reference[i]).collect();
    println!("{} {}: {} of {n} differ", w.name, P::NAME, differ.len());
    for &i in differ.iter().take(3) {
        println!(
            "    {} -> {} (Google: {})",
            w.urls[i],
            if v[i] { "allowed" } else { "disallowed" },
            if reference[i] {
                "allowed"
            } else {
                "disallowed"
            }
        );
    }
}

fn main() {
    for name in WORKLOADS {
        let w = load(name);
        let reference = reference_verdicts(&w);
        report::<RobotsMatch>(&w, &reference);
        report::<TextingRobots>(&w, &reference);
        report::<FastRobots>(&w, &reference);
        report::<RobotParser>(&w, &reference);
        report::<CylonPeer>(&w, &reference);
        report::<GooglePort>(&w, &reference);
    }
}
