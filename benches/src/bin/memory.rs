//! `memory`: heap bytes held by a built matcher, for robotsmatch and every peer, on the
//! workloads and on synthetic rule sets of 10 to 10,000 rules. Measured with a counting global
//! allocator: live bytes after building minus live bytes before (the robots.txt body itself is
//! not counted; a peer that borrows the body is charged nothing for it). robotsmatch is measured
//! as built (the cold tier, where every matcher starts) and with its hot engine built at once.
//!
//! Usage: `cargo run --release -p robotsmatch-benches --bin memory`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use robotsmatch::{MatcherBuilder, Tier};
use robotsmatch_benches::*;

/// The system allocator, counting live bytes.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every method forwards to `System` with the same arguments and only adds bookkeeping
// on an atomic counter, so `System`'s guarantees hold unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: same layout as given to us, per GlobalAlloc's contract.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new as isize - layout.size() as isize, Ordering::Relaxed);
        // SAFETY: forwarded unchanged; `ptr` and `layout` satisfy realloc's contract by ours.
        unsafe { System.realloc(ptr, layout, new) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Measures the live bytes that `build` adds, on a thread of its own, with a first build
/// of the same input kept alive meanwhile. So per-thread scratch (robotsmatch's scanner keeps
/// its buffers per thread, as a peer may) is not charged to the matcher, and neither is the
/// reuse of a dropped matcher's buffers (robotsmatch keeps those of the last large matcher a
/// thread dropped, and a matcher built in them allocates nothing).
fn measured<T>(build: impl Fn() -> Option<T> + Send + Sync) -> Option<isize> {
    std::thread::scope(|s| {
        s.spawn(|| {
            let first = build()?;
            let before = LIVE.load(Ordering::Relaxed);
            let second = build()?;
            let after = LIVE.load(Ordering::Relaxed);
            drop((first, second));
            Some(after - before)
        })
        .join()
        .expect("measurement thread")
    })
}

fn held<P: Peer>(robots: &[u8]) -> Option<isize> {
    measured(|| P::build(robots, "Googlebot"))
}

/// robotsmatch's matcher with its hot engine built at once (`Tier::Hot`): what a matcher that
/// has decided enough URLs holds (the default `Tier::Auto` starts as the cold column).
fn held_hot(robots: &[u8]) -> isize {
    measured(|| {
        Some(
            MatcherBuilder::new()
                .tier(Tier::Hot)
                .build_from_bytes(robots, "Googlebot"),
        )
    })
    .expect("robotsmatch builds every input")
}

fn kib(x: Option<isize>) -> String {
    x.map_or("n/a".into(), |b| format!("{:.1} KiB", b as f64 / 1024.0))
}

fn row(label: &str, robots: &[u8]) {
    println!(
        "| {label} | {} | {} | {} | {} | {} | {} |",
        kib(held::<RobotsMatch>(robots)),
        kib(Some(held_hot(robots))),
        kib(held::<TextingRobots>(robots)),
        kib(held::<FastRobots>(robots)),
        kib(held::<RobotParser>(robots)),
        kib(held::<CylonPeer>(robots)),
    );
}

fn main() {
    println!(
        "| input | robotsmatch (as built: cold) | robotsmatch (hot) | texting_robots | fast-robots | robotparser | cylon |"
    );
    println!("|---|---|---|---|---|---|---|");
    for name in WORKLOADS {
        let w = load(name);
        row(name, &w.robots);
    }
    for wildcard in [false, true] {
        for n in [10usize, 100, 1000, 10_000] {
            let body = synthetic(n, wildcard);
            row(
                &format!(
                    "{n} {} rules",
                    if wildcard { "wildcard" } else { "literal" }
                ),
                body.as_bytes(),
            );
        }
    }
}
