//! The transposition table, keyed on [`Position::key`](crate::chess::Position::key),
//! which covers the turn state (turn length and moves made) as well as the board.
//!
//! Shared between search threads without locks: each slot holds two atomic
//! words, the key XOR the data and the data, so a torn write (two threads
//! storing at once) reads back as a miss, never as a wrong entry.

use crate::chess::Move;
use std::sync::atomic::{AtomicU64, Ordering};

pub use crate::bound::Bound;

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub mv: Move,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
}

impl Entry {
    /// Packs everything but the key: move 16 bits, score 32, depth 8 (+1,
    /// so that 0 means empty), bound 2.
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let depth = (self.depth.clamp(-1, 254) + 1) as u64;
        u64::from(self.mv.bits()) | u64::from(self.score as u32) << 16 | depth << 48 | bound << 56
    }

    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: Move::from_bits(data as u16),
            score: (data >> 16) as u32 as i32,
            depth: ((data >> 48) & 0xff) as i16 - 1,
            bound: match (data >> 56) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        }
    }
}

/// A fixed-size table of entries, one per slot, replaced by depth. Slot `i`
/// is the pair of words `2i` (the key XOR the data) and `2i + 1` (the data).
pub struct Tt {
    words: Box<[AtomicU64]>,
    /// Slot-index mask (the number of slots is a power of two).
    mask: usize,
}

impl Tt {
    /// A table of about `mib` MiB (rounded down to a power of two of slots).
    pub fn new(mib: usize) -> Tt {
        let wanted = (mib.max(1) << 20) / 16;
        let n = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Tt {
            words: crate::memory::zeroed_atomics(2 * n),
            mask: n - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        // A fresh allocation rather than writing zeros: pages the search
        // never used stay unmapped.
        self.words = crate::memory::zeroed_atomics(self.words.len());
    }

    /// The (check, data) words of `key`'s slot.
    #[inline]
    fn slot(&self, key: u64) -> (&AtomicU64, &AtomicU64) {
        let i = 2 * ((key as usize) & self.mask);
        (&self.words[i], &self.words[i + 1])
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let (check, data) = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        let check = check.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key).then(|| Entry::unpack(key, data))
    }

    /// Stores a result; a deeper result for the same position is kept.
    #[inline]
    pub fn store(&self, entry: Entry) {
        let (check, slot_data) = self.slot(entry.key);
        let old = self.probe(entry.key);
        let mut entry = entry;
        if let Some(old) = old {
            if entry.depth < old.depth && entry.bound != Bound::Exact {
                return;
            }
            if entry.mv.is_null() {
                entry.mv = old.mv; // keep a known best move
            }
        }
        let data = entry.pack();
        slot_data.store(data, Ordering::Relaxed);
        check.store(entry.key ^ data, Ordering::Relaxed);
    }

    /// How full the table is, in permille (sampled on the first 1000 slots).
    pub fn hashfull(&self) -> u32 {
        let sample = (self.mask + 1).min(1000);
        let used = (0..sample)
            .filter(|&i| self.words[2 * i + 1].load(Ordering::Relaxed) != 0)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut tt = Tt::new(1);
        assert!(tt.probe(42).is_none());
        tt.store(Entry {
            key: 42,
            mv: Move::NULL,
            score: -17,
            depth: 3,
            bound: Bound::Lower,
        });
        let e = tt.probe(42).unwrap();
        assert_eq!((e.score, e.depth, e.bound), (-17, 3, Bound::Lower));
        tt.clear();
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.hashfull(), 0);
    }
}
