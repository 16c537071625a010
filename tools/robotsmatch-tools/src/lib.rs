//! Shared helpers for the developer tools in `src/bin`.

use robotsmatch::Robots;

/// Paths made from a file's rules so that rules match, almost match, and miss: each pattern
/// with `*` removed, with `*` filled, extended, and cut short by one byte.
pub fn rule_derived_paths(robots: &Robots, max: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for rule in robots.groups().iter().flat_map(|g| g.rules()) {
        let p = rule.pattern();
        let plain: Vec<u8> = p
            .iter()
            .copied()
            .filter(|&b| b != b'*' && b != b'$')
            .collect();
        let filled: Vec<u8> = p
            .iter()
            .flat_map(|&b| match b {
                b'*' => b"x/y".to_vec(),
                b'$' => Vec::new(),
                b => vec![b],
            })
            .collect();
        for mut path in [
            plain.clone(),
            filled,
            [&plain[..], b"/a.html?q=1"].concat(),
            plain[..plain.len().saturating_sub(1)].to_vec(),
        ] {
            if path.first() != Some(&b'/') {
                path.insert(0, b'/');
            }
            out.push(path);
            if out.len() >= max {
                return out;
            }
        }
    }
    out
}

/// The `q`-quantile (0..=1) of sorted values.
pub fn quantile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    Some(sorted[i])
}
