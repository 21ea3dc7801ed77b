//! A least-recently-used index bounded in bytes, not in entries: a page
//! of 2 KB and one of 200 KB weigh what they hold, so a bound holds
//! whatever the pages are like. The view cache keeps one for its memory
//! front and one for its folder.

use hashlink::LinkedHashMap;

/// Entries by key, least recently used first, with their weights.
pub struct ByteLru<V> {
    entries: LinkedHashMap<String, (V, u64)>,
    total: u64,
    bound: u64,
}

impl<V: Clone> ByteLru<V> {
    /// An empty index that holds `bound` bytes at most.
    pub fn new(bound: u64) -> ByteLru<V> {
        ByteLru {
            entries: LinkedHashMap::new(),
            total: 0,
            bound,
        }
    }

    /// The value of `key`, now the most recently used.
    pub fn get(&mut self, key: &str) -> Option<V> {
        let value = self.entries.get(key).map(|(v, _)| v.clone())?;
        self.entries.to_back(key);
        Some(value)
    }

    /// Keeps `value` of `weight` bytes as `key`'s, the most recently used;
    /// returns the keys removed to stay within the bound, least recently
    /// used first. An entry heavier than the whole bound is not kept (its
    /// own key is in the list).
    pub fn insert(&mut self, key: &str, value: V, weight: u64) -> Vec<String> {
        if let Some((_, old)) = self.entries.remove(key) {
            self.total -= old;
        }
        if weight > self.bound {
            return vec![key.to_string()];
        }
        self.entries.insert(key.to_string(), (value, weight));
        self.total += weight;
        let mut removed = Vec::new();
        while self.total > self.bound {
            let Some((gone, (_, w))) = self.entries.pop_front() else {
                break;
            };
            self.total -= w;
            removed.push(gone);
        }
        removed
    }

    /// Empties the index; returns every key it held.
    pub fn clear(&mut self) -> Vec<String> {
        self.total = 0;
        std::mem::take(&mut self.entries)
            .into_iter()
            .map(|(key, _)| key)
            .collect()
    }

    /// The bytes held.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_go_first_and_the_total_stays_bound() {
        let mut lru = ByteLru::new(10);
        assert!(lru.insert("a", 1, 4).is_empty());
        assert!(lru.insert("b", 2, 4).is_empty());
        assert_eq!(lru.get("a"), Some(1));
        assert_eq!(lru.insert("c", 3, 4), ["b"]);
        assert_eq!((lru.get("b"), lru.total()), (None, 8));
        assert_eq!(lru.insert("a", 9, 2), Vec::<String>::new());
        assert_eq!((lru.get("a"), lru.total()), (Some(9), 6));
        assert_eq!(lru.insert("huge", 0, 11), ["huge"]);
        assert_eq!(lru.insert("d", 4, 10), ["c", "a"]);
        assert_eq!(lru.total(), 10);
    }
}
