//! The transposition table, keyed on [`Position::key`](crate::chess::Position::key),
//! which covers the turn state (turn length and moves made) as well as the board.

use crate::chess::Move;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a beta cutoff).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

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
    const EMPTY: Entry = Entry {
        key: 0,
        mv: Move::NULL,
        score: 0,
        depth: -1,
        bound: Bound::Upper,
    };
}

/// A fixed-size table of entries, one per slot, replaced by depth.
pub struct Tt {
    entries: Vec<Entry>,
}

/// Size of an entry in bytes, for converting MiB into slots.
const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

impl Tt {
    /// A table of about `mib` MiB (rounded down to a power of two of slots).
    pub fn new(mib: usize) -> Tt {
        let wanted = (mib.max(1) << 20) / ENTRY_BYTES;
        let slots = 1usize << (usize::BITS - 1 - wanted.leading_zeros());
        Tt {
            entries: vec![Entry::EMPTY; slots],
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    /// Stores a result; a deeper result for the same position is kept.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let i = self.slot(entry.key);
        let old = &mut self.entries[i];
        if old.key != entry.key || entry.depth >= old.depth || entry.bound == Bound::Exact {
            let mv = if entry.mv.is_null() && old.key == entry.key {
                old.mv // keep a known best move when the new result has none
            } else {
                entry.mv
            };
            *old = Entry { mv, ..entry };
        }
    }

    /// How full the table is, in permille (sampled on the first 1000 slots).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.depth >= 0)
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
            score: 17,
            depth: 3,
            bound: Bound::Exact,
        });
        assert_eq!(tt.probe(42).map(|e| e.score), Some(17));
        tt.clear();
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.hashfull(), 0);
    }
}
