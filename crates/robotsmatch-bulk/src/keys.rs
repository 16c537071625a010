//! A hash table keyed by byte strings that live one after another in one buffer: one
//! allocation for all the keys instead of one per key, each key hashed once (its hash kept for
//! the table's growth). The directory store's index of files and the summary's per-host counts
//! are both such tables, filled with tens of thousands of host names at the start or the end of
//! a job, where those allocations and rehashes were most of the time.

use std::hash::BuildHasher;

/// Byte-string keys (in one buffer) to values.
#[derive(Clone, Debug)]
pub(crate) struct KeyTable<V> {
    table: hashbrown::HashTable<Slot<V>>,
    /// Every key, in the order it was inserted.
    keys: Vec<u8>,
    /// Seeded per table: the keys come from the input (host names), which cannot choose them
    /// to collide.
    hasher: foldhash::fast::RandomState,
}

#[derive(Clone, Debug)]
struct Slot<V> {
    hash: u64,
    /// The key is `keys[start..start + len]`.
    start: usize,
    len: usize,
    value: V,
}

impl<V> Default for KeyTable<V> {
    fn default() -> KeyTable<V> {
        KeyTable {
            table: hashbrown::HashTable::new(),
            keys: Vec::new(),
            hasher: foldhash::fast::RandomState::default(),
        }
    }
}

impl<V> KeyTable<V> {
    /// The number of keys.
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether there is no key.
    pub(crate) fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Makes room for `keys` more keys.
    pub(crate) fn reserve(&mut self, keys: usize) {
        self.table.reserve(keys, |s| s.hash);
    }

    /// The value of `key`.
    #[inline]
    pub(crate) fn get(&self, key: &[u8]) -> Option<&V> {
        let hash = self.hasher.hash_one(key);
        let keys = &self.keys;
        self.table
            .find(hash, |s| {
                s.hash == hash && &keys[s.start..s.start + s.len] == key
            })
            .map(|s| &s.value)
    }

    /// The value of `key`, made with `new` when the key is not there yet.
    #[inline]
    pub(crate) fn entry(&mut self, key: &[u8], new: impl FnOnce() -> V) -> &mut V {
        let hash = self.hasher.hash_one(key);
        let keys = &self.keys;
        let found = self.table.entry(
            hash,
            |s| s.hash == hash && &keys[s.start..s.start + s.len] == key,
            |s| s.hash,
        );
        let slot = match found {
            hashbrown::hash_table::Entry::Occupied(o) => o.into_mut(),
            hashbrown::hash_table::Entry::Vacant(v) => {
                let start = self.keys.len();
                self.keys.extend_from_slice(key);
                v.insert(Slot {
                    hash,
                    start,
                    len: key.len(),
                    value: new(),
                })
                .into_mut()
            }
        };
        &mut slot.value
    }

    /// Every key and its value, in no particular order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&[u8], &V)> {
        self.table
            .iter()
            .map(|s| (&self.keys[s.start..s.start + s.len], &s.value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table against a map: every key once, its counts summed, whatever its length (the
    /// empty key too) and however the inserts interleave.
    #[test]
    fn each_key_is_kept_once_with_its_value() {
        let mut table = KeyTable::<[u64; 2]>::default();
        let mut model = std::collections::BTreeMap::<Vec<u8>, [u64; 2]>::new();
        for round in 0..3u64 {
            for i in 0..3000u64 {
                let j = (i * 7919 + round * 13) % 3000;
                let key = format!("{j}.").repeat((j % 40) as usize).into_bytes();
                let add = [j % 3 + round, (j + round) % 2];
                let e = table.entry(&key, || [0, 0]);
                e[0] += add[0];
                e[1] += add[1];
                let m = model.entry(key).or_default();
                m[0] += add[0];
                m[1] += add[1];
            }
        }
        let mut got: Vec<(Vec<u8>, [u64; 2])> =
            table.iter().map(|(k, v)| (k.to_vec(), *v)).collect();
        got.sort();
        assert_eq!(got.len(), table.len());
        for (k, v) in &model {
            assert_eq!(table.get(k), Some(v));
        }
        assert_eq!(table.get(b"absent"), None);
        assert_eq!(got, model.into_iter().collect::<Vec<_>>());
    }
}
