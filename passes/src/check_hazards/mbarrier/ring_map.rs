//! A map from ring keys to per-ring facts, kept as a vector sorted by key.
//!
//! A function has one ring, or a few, so every value and every state of
//! the mbarrier analysis holds maps of one to a few entries, and the
//! analysis clones, joins and drops them at every op. A `BTreeMap`
//! allocates a whole node for one entry and builds `collect`ed maps by
//! sorting; this map is one small vector, with the same order (ascending
//! keys) and the same results.

use std::ops::Index;

/// Ring key -> `T`, ascending by key, each key once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct RingMap<T>(Vec<(usize, T)>);

impl<T> Default for RingMap<T> {
    fn default() -> Self {
        RingMap(Vec::new())
    }
}

impl<T> RingMap<T> {
    /// No ring.
    pub(super) const EMPTY: RingMap<T> = RingMap(Vec::new());

    pub(super) fn new() -> Self {
        Self::default()
    }

    fn position(&self, key: usize) -> Result<usize, usize> {
        self.0.binary_search_by_key(&key, |(k, _)| *k)
    }

    pub(super) fn get(&self, key: &usize) -> Option<&T> {
        self.position(*key).ok().map(|i| &self.0[i].1)
    }

    pub(super) fn get_mut(&mut self, key: &usize) -> Option<&mut T> {
        self.position(*key).ok().map(|i| &mut self.0[i].1)
    }

    /// Sets `key` to `value`; gives back the value it replaces.
    pub(super) fn insert(&mut self, key: usize, value: T) -> Option<T> {
        match self.position(key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    pub(super) fn keys(&self) -> impl Iterator<Item = &usize> {
        self.0.iter().map(|(k, _)| k)
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = (&usize, &T)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = (&usize, &mut T)> {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }
}

impl<T> FromIterator<(usize, T)> for RingMap<T> {
    /// As `BTreeMap`'s: ascending keys; of equal keys, the last one.
    fn from_iter<I: IntoIterator<Item = (usize, T)>>(iter: I) -> Self {
        let mut entries: Vec<(usize, T)> = iter.into_iter().collect();
        if !entries.is_sorted_by(|a, b| a.0 < b.0) {
            entries.sort_by_key(|(k, _)| *k);
            // Keeps the last of equal keys (the sort is stable).
            entries.reverse();
            entries.dedup_by_key(|(k, _)| *k);
            entries.reverse();
        }
        RingMap(entries)
    }
}

impl<T> Index<&usize> for RingMap<T> {
    type Output = T;

    fn index(&self, key: &usize) -> &T {
        self.get(key).expect("a ring of the map")
    }
}

#[cfg(test)]
mod tests {
    use super::RingMap;

    #[test]
    fn sorted_like_a_btree_map() {
        let map: RingMap<i64> = [(5, 1), (2, 2), (5, 3), (9, 4)].into_iter().collect();
        let btree: std::collections::BTreeMap<usize, i64> =
            [(5, 1), (2, 2), (5, 3), (9, 4)].into_iter().collect();
        assert_eq!(
            map.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            btree.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>()
        );
        let mut map = map;
        assert_eq!(map.insert(3, 7), None);
        assert_eq!(map.insert(9, 8), Some(4));
        assert_eq!(map.keys().copied().collect::<Vec<_>>(), vec![2, 3, 5, 9]);
        assert_eq!(map[&9], 8);
        assert!(map.get(&4).is_none());
    }
}
