//! The mate table: proofs of "no mate" keyed by position (the Zobrist key
//! covers the board, side, castling, en-passant squares, rules, turn length
//! and moves made, so "moves left" is part of the key).
//!
//! Only negative results are stored: a mate ends the search at once, while a
//! proof of "no mate" below a node is what transpositions (the same moves in
//! another order) and repeated questions from the game search can reuse. The
//! table is a flat array of atomics so that several threads share it without
//! locks; an entry is just the full 64-bit key.

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket (consecutive, one cache line holds two buckets).
const BUCKET: usize = 4;

/// A shared, lock-free table of positions proved to have no mate in the
/// current turn.
pub struct MateTable {
    slots: Box<[AtomicU64]>,
    /// Bucket-index mask (the number of buckets is a power of two).
    mask: usize,
}

impl MateTable {
    /// A table using about `megabytes` MB (at least one bucket).
    pub fn new(megabytes: usize) -> MateTable {
        let wanted = (megabytes.max(1) << 20) / (8 * BUCKET);
        let buckets = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
        .max(1);
        let slots = crate::memory::zeroed_atomics(buckets * BUCKET);
        MateTable {
            slots,
            mask: buckets - 1,
        }
    }

    /// Forgets every entry (needed only when memory matters: entries never
    /// become wrong).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.store(0, Ordering::Relaxed);
        }
    }

    /// The stored form of a key: 0 marks an empty slot.
    #[inline]
    fn tag(key: u64) -> u64 {
        key.max(1)
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let start = ((key as usize) & self.mask) * BUCKET;
        &self.slots[start..start + BUCKET]
    }

    /// Has the position with this key been proved to have no mate?
    #[inline]
    pub fn proved_none(&self, key: u64) -> bool {
        let tag = Self::tag(key);
        self.bucket(key)
            .iter()
            .any(|s| s.load(Ordering::Relaxed) == tag)
    }

    /// Records a proof of "no mate" for the position with this key.
    #[inline]
    pub fn store_none(&self, key: u64) {
        let tag = Self::tag(key);
        let bucket = self.bucket(key);
        // An empty slot if there is one, else a slot picked by high key bits
        // (old proofs are as good as new ones; any choice is sound).
        let victim = bucket
            .iter()
            .position(|s| {
                let v = s.load(Ordering::Relaxed);
                v == 0 || v == tag
            })
            .unwrap_or((key >> 62) as usize % BUCKET);
        bucket[victim].store(tag, Ordering::Relaxed);
    }
}

impl Default for MateTable {
    /// A 16 MB table.
    fn default() -> MateTable {
        MateTable::new(16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_keys() {
        let tt = MateTable::new(1);
        assert!(!tt.proved_none(12345));
        tt.store_none(12345);
        assert!(tt.proved_none(12345));
        assert!(!tt.proved_none(12346));
        tt.clear();
        assert!(!tt.proved_none(12345));
    }

    #[test]
    fn key_zero_is_storable() {
        let tt = MateTable::new(1);
        tt.store_none(0);
        assert!(tt.proved_none(0));
    }
}
