use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read(&args[1]).unwrap();
    let urls: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    for (name, f) in [
        (
            "path_and_query",
            (|u: &[u8]| robotsmatch::canon::path_and_query(u).len()) as fn(&[u8]) -> usize,
        ),
        ("canonical_path", |u: &[u8]| {
            robotsmatch::canon::canonical_path(u).len()
        }),
        ("is_canonical", |u: &[u8]| {
            robotsmatch::canon::is_canonical(u) as usize
        }),
        ("memchr#", |u: &[u8]| memchr::memchr(b'#', u).unwrap_or(0)),
    ] {
        let mut best = f64::MAX;
        let mut sum = 0;
        for _ in 0..50 {
            let t = Instant::now();
            for u in &urls {
                sum += f(std::hint::black_box(u));
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name}: {:.1} ns/URL ({sum})",
            best * 1e9 / urls.len() as f64
        );
    }
}
