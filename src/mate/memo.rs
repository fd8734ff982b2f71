//! The searcher's memo of child bounds: long searches meet the same
//! children round after round (each round of the passes searches the
//! tree again), and a bound remembered saves the table probe and the
//! bound's own work. Direct-mapped by key, the latest bound kept.
//!
//! The memo starts small and doubles as it fills: a one-position
//! `crescendo mate` pays for every page it maps, and most queries store
//! far fewer bounds than the largest memo holds.

/// Entries at first, and at most (powers of two).
const FIRST: usize = 1 << 12;
const MOST: usize = 1 << 16;

/// Keys and bounds; empty (unused) until [`BoundMemo::start`].
#[derive(Default)]
pub(super) struct BoundMemo {
    slots: Vec<(u64, u32)>,
    /// Stores since the memo last doubled.
    stores: usize,
}

impl BoundMemo {
    /// Makes the memo usable (a no-op if it is).
    pub(super) fn start(&mut self) {
        if self.slots.is_empty() {
            self.slots = Self::mapped(FIRST);
        }
    }

    /// `len` empty slots, their pages mapped at once (one system call
    /// rather than a fault per page as the search first writes them).
    fn mapped(len: usize) -> Vec<(u64, u32)> {
        let slots = vec![(0, 0); len];
        crate::memory::populate(&slots);
        slots
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & self.slots.len().wrapping_sub(1)
    }

    /// Asks the processor to fetch the slot of `key`.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        if let Some(e) = self.slots.get(self.slot(key)) {
            crate::memory::prefetch(e);
        }
    }

    /// The bound remembered for `key`.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<u32> {
        match self.slots.get(self.slot(key)) {
            Some(&(k, need)) if k == key => Some(need),
            _ => None,
        }
    }

    /// Remembers `need` for `key` (nothing while the memo is unused). The
    /// memo doubles once it has taken as many stores as it has slots.
    pub(super) fn put(&mut self, key: u64, need: u32) {
        let slot = self.slot(key);
        let Some(e) = self.slots.get_mut(slot) else {
            return;
        };
        *e = (key, need);
        self.stores += 1;
        if self.stores > self.slots.len() && self.slots.len() < MOST {
            self.double();
        }
    }

    /// Twice the slots, every bound kept moved to its slot there.
    fn double(&mut self) {
        let wider = Self::mapped(self.slots.len() * 2);
        let old = std::mem::replace(&mut self.slots, wider);
        for (key, need) in old {
            if key != 0 {
                let slot = self.slot(key);
                self.slots[slot] = (key, need);
            }
        }
        self.stores = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unused_until_started() {
        let mut memo = BoundMemo::default();
        memo.put(7, 3);
        assert_eq!(memo.get(7), None);
        memo.start();
        memo.put(7, 3);
        assert_eq!(memo.get(7), Some(3));
        assert_eq!(memo.get(7 + FIRST as u64), None);
    }

    #[test]
    fn doubling_keeps_the_bounds_and_stops_at_the_most() {
        let mut memo = BoundMemo::default();
        memo.start();
        // Distinct slots at every size: each key is its own slot.
        let keys: Vec<u64> = (1..=FIRST as u64).collect();
        for &k in &keys {
            memo.put(k, (k % 7) as u32);
        }
        assert_eq!(memo.slots.len(), FIRST);
        memo.put(FIRST as u64 + 1, 5);
        assert_eq!(memo.slots.len(), 2 * FIRST);
        // Key FIRST + 1 took key 1's slot (key 1 is forgotten); the
        // doubling moved every other bound to its slot in the wider memo.
        assert!(
            keys[1..]
                .iter()
                .all(|&k| memo.get(k) == Some((k % 7) as u32))
        );
        assert_eq!(memo.get(FIRST as u64 + 1), Some(5));
        for k in 0..(4 * MOST) as u64 {
            memo.put(k | 1 << 40, 1);
        }
        assert_eq!(memo.slots.len(), MOST);
    }
}
