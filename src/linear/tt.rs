//! The search's transposition table: three plain words per entry (key,
//! packed best move, packed score/depth/bound), so that an empty table is
//! all zero bits and can come from lazily mapped memory (see
//! [`crate::memory`]): a large `Hash` costs nothing until used and `quit`
//! stays fast.

use super::moves::Move;
use super::square::Square;

pub use crate::bound::Bound;

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    pub best: Option<Move>,
}

/// Words per entry.
const WORDS: usize = 3;
/// Marks a used entry in the score word (an empty one is all zero).
const USED: u64 = 1 << 63;

/// A fixed-size table, one entry per slot, replaced unless a deeper entry of
/// the same position is there.
pub struct Tt {
    words: Vec<u64>,
    mask: usize,
}

impl Tt {
    /// A table of about `mib` MiB (at least one entry; a power of two).
    pub fn new(mib: usize) -> Tt {
        let wanted = (mib.max(1) << 20) / (8 * WORDS);
        let entries = 1usize << wanted.ilog2();
        Tt {
            words: crate::memory::zeroed_words(WORDS * entries),
            mask: entries - 1,
        }
    }

    /// Forgets everything (a fresh allocation: unused pages stay unmapped).
    pub fn clear(&mut self) {
        self.words = crate::memory::zeroed_words(self.words.len());
    }

    fn slot(&self, key: u64) -> usize {
        WORDS * (key as usize & self.mask)
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = self.slot(key);
        let data = self.words[i + 2];
        (data & USED != 0 && self.words[i] == key).then(|| Entry {
            score: data as u32 as i32,
            depth: (data >> 32) as u8,
            bound: match (data >> 40) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: unpack_move(self.words[i + 1]),
        })
    }

    /// Stores `entry` for `key`, unless a deeper entry of `key` is there.
    pub fn store(&mut self, key: u64, entry: Entry) {
        if self.probe(key).is_some_and(|old| old.depth > entry.depth) {
            return;
        }
        let bound = match entry.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let i = self.slot(key);
        self.words[i] = key;
        self.words[i + 1] = entry.best.map_or(0, pack_move);
        self.words[i + 2] =
            USED | bound << 40 | u64::from(entry.depth) << 32 | u64::from(entry.score as u32);
    }
}

/// A move as one word: the kind in bits 0-1 (0 is no move), a blocker flag
/// in bit 2, and up to four squares of 8 bits from bit 8.
fn pack_move(mv: Move) -> u64 {
    let sq = |s: Square, k: u32| (s.index() as u64) << (8 + 8 * k);
    match mv {
        Move::Drop { to, blocker } => 1 | sq(to, 0) | blocker.map_or(0, |b| 4 | sq(b, 1)),
        Move::Slide { from, to, blocker } => {
            2 | sq(from, 0) | sq(to, 1) | blocker.map_or(0, |(a, b)| 4 | sq(a, 2) | sq(b, 3))
        }
        Move::Pass => 3,
    }
}

fn unpack_move(word: u64) -> Option<Move> {
    let sq = |k: u32| Square::from_index((word >> (8 + 8 * k)) as u8);
    let blocker = word & 4 != 0;
    match word & 3 {
        1 => Some(Move::Drop {
            to: sq(0),
            blocker: blocker.then(|| sq(1)),
        }),
        2 => Some(Move::Slide {
            from: sq(0),
            to: sq(1),
            blocker: blocker.then(|| (sq(2), sq(3))),
        }),
        3 => Some(Move::Pass),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn moves_pack_and_unpack() {
        let moves = [
            Move::Pass,
            Move::Drop {
                to: square("a1"),
                blocker: None,
            },
            Move::Drop {
                to: square("p16"),
                blocker: Some(square("a16")),
            },
            Move::Slide {
                from: square("d4"),
                to: square("h8"),
                blocker: None,
            },
            Move::Slide {
                from: square("a1"),
                to: square("p16"),
                blocker: Some((square("p1"), square("a16"))),
            },
        ];
        for mv in moves {
            assert_eq!(unpack_move(pack_move(mv)), Some(mv));
        }
        assert_eq!(unpack_move(0), None);
    }

    #[test]
    fn stores_probes_and_keeps_the_deeper_entry() {
        let mut table = Tt::new(1);
        assert!(table.probe(42).is_none());
        let entry = |score, depth, bound| Entry {
            score,
            depth,
            bound,
            best: Some(Move::Pass),
        };
        table.store(42, entry(-17, 3, Bound::Lower));
        table.store(42, entry(5, 2, Bound::Exact));
        let e = table.probe(42).unwrap();
        assert_eq!(
            (e.score, e.depth, e.bound, e.best),
            (-17, 3, Bound::Lower, Some(Move::Pass))
        );
        table.store(42, entry(5, 3, Bound::Upper));
        assert_eq!(table.probe(42).unwrap().bound, Bound::Upper);
        assert!(table.probe(42 + (1 << 40)).is_none());
        table.clear();
        assert!(table.probe(42).is_none());
    }
}
