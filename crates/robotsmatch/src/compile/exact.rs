//! Literal patterns ending in `$` (`Allow: /search/help$`): a hash map from the exact path to
//! the best key per kind. Part of the [`Engine::Split`](super::Engine::Split) layout.

use std::collections::HashMap;

use super::pattern::{ALLOW, DISALLOW};

/// Exact paths and their keys.
#[derive(Debug, Default)]
pub(crate) struct Exact {
    map: HashMap<Box<[u8]>, [u64; 2], foldhash::fast::FixedState>,
    /// Bit `n` is set when some exact path has length `n` (bit 63: length 63 or more), so most
    /// paths skip the hash lookup.
    lengths: u64,
}

impl Exact {
    /// Adds `path` with `key` for `kind`.
    pub(crate) fn insert(&mut self, path: Vec<u8>, key: u64, kind: usize) {
        self.lengths |= 1 << path.len().min(63);
        let slot = self.map.entry(path.into_boxed_slice()).or_default();
        slot[kind] = slot[kind].max(key);
    }

    /// True when no path was added.
    pub(crate) fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Heap bytes held (approximately).
    pub(crate) fn memory_usage(&self) -> usize {
        self.map.keys().map(|k| k.len() + 48).sum()
    }

    /// Folds the keys of `path` if it is one of the exact paths.
    #[inline]
    pub(crate) fn fold(&self, path: &[u8], best: &mut [u64; 2]) {
        if self.lengths & (1 << path.len().min(63)) != 0 {
            if let Some(keys) = self.map.get(path) {
                best[ALLOW] = best[ALLOW].max(keys[ALLOW]);
                best[DISALLOW] = best[DISALLOW].max(keys[DISALLOW]);
            }
        }
    }
}
