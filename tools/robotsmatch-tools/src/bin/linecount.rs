//! `linecount`: counts the lines of a file with memchr over a memory map, and prints the time
//! and GB/s. The floor any log classifier is compared against.
//!
//! Usage: `cargo run --release -p robotsmatch-tools --bin linecount FILE`

use std::time::Instant;

fn main() -> anyhow::Result<()> {
    let path = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: linecount FILE"))?;
    let file = std::fs::File::open(&path)?;
    // SAFETY: the map is only read, and the benchmark log is not modified while it is counted
    // (the same contract as `classify`'s memory map).
    let map = unsafe { memmap2::Mmap::map(&file)? };
    let start = Instant::now();
    let lines = memchr::memchr_iter(b'\n', &map).count();
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{lines} lines, {} bytes in {secs:.3} s: {:.2} GB/s, {:.1} M lines/s",
        map.len(),
        map.len() as f64 / secs / 1e9,
        lines as f64 / secs / 1e6
    );
    Ok(())
}
