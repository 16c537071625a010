//! Any bytes: parsing, linting and compiling never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let robots = robotsmatch::Robots::parse(data);
    let _ = robotsmatch::lint::lint(data);
    for agent in ["Googlebot", "GPTBot", "x"] {
        let m = robotsmatch::Matcher::new(&robots, agent);
        let _ = m.decide("/");
    }
});
