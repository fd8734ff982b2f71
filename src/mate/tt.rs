//! The mate table: proofs of "no mate" keyed by position (the Zobrist key
//! covers the board, side, castling, en-passant squares, rules, turn length
//! and moves made, so "moves left" is part of the key).
//!
//! Only negative results are stored: a mate ends the search at once, while a
//! proof of "no mate" below a node is what transpositions (the same moves in
//! another order) and repeated questions from the game search can reuse. The
//! table is a flat array of atomics so that several threads share it without
//! locks; an entry is the 64-bit key with its low bits (implied by the
//! bucket) replaced by the generation of the query that stored it.
//!
//! Generations keep every query's work the same whatever the table holds:
//! inside a query only its own proofs are probed, and slots of earlier
//! queries count as empty when storing, so a warm table searches exactly as
//! a fresh one does (the same nodes, the same verdict). Earlier queries'
//! proofs answer only a repeated question (the query's own position). A
//! table reused across calls thus never turns a mate found in a fresh
//! table into `unknown` (a full table would otherwise evict the query's own
//! proofs, and earlier proofs, by pruning, would change the order of work).
//!
//! Each query uses only the first part of the table, which it doubles as
//! its own proofs fill it: the table is mapped lazily (`crate::memory`),
//! and a small query spread over a large table would touch a fresh page
//! for nearly every proof (page faults were half the time of a one-process
//! `crescendo mate` on the public set). The doublings depend on the
//! query's own stores only, so a warm table still searches as a fresh one.
//! The first part is small (128 KB) for the same reason: a query of a few
//! thousand nodes touched most pages of a 1 MB first part, twice each (a
//! read of a fresh page, then its first write), and a process that asks
//! one question pays for every page it touches.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Entries per bucket (consecutive, one cache line holds two buckets).
const BUCKET: usize = 4;

/// The key bits that hold the generation: the bucket index covers them (a
/// table has at least `1 << GEN_BITS` buckets), so no key bit is lost.
const GEN_BITS: u32 = 12;
const GEN_MASK: u64 = (1 << GEN_BITS) - 1;

/// The buckets a query starts with (128 KB).
const FIRST_BUCKETS: usize = 1 << GEN_BITS;

/// A query's part of the table doubles once its stores exceed this share
/// of the part's slots (few evictions from buckets of four below it).
const FILL_DIVISOR: usize = 8;

/// The mask of a query's first part in a table of bucket mask `mask`.
fn first_part(mask: usize) -> usize {
    FIRST_BUCKETS.min(mask + 1) - 1
}

/// One query's generation (1 ..= `GEN_MASK`; 0 marks an empty slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Generation(u64);

/// A shared, lock-free table of positions proved to have no mate in the
/// current turn.
pub struct MateTable {
    slots: Box<[AtomicU64]>,
    /// Bucket-index mask of the whole table (the number of buckets is a
    /// power of two).
    mask: usize,
    /// The bucket-index mask of the part the current query uses.
    part: AtomicUsize,
    /// The current query's stores so far (they double `part`).
    stores: AtomicUsize,
    /// Queries begun so far (see [`MateTable::begin`]).
    queries: AtomicU64,
    /// The bucket-index mask of the widest part used since the table was
    /// last cleared: no slot beyond it holds an entry.
    widest: AtomicUsize,
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
        .max(1 << GEN_BITS);
        let slots = crate::memory::zeroed_atomics(buckets * BUCKET);
        MateTable {
            slots,
            mask: buckets - 1,
            part: AtomicUsize::new(first_part(buckets - 1)),
            stores: AtomicUsize::new(0),
            queries: AtomicU64::new(0),
            widest: AtomicUsize::new(first_part(buckets - 1)),
        }
    }

    /// The generation of a new query. When the generations wrap round, the
    /// table is cleared (once every 4 095 queries), so that no entry of an
    /// old query passes for one of the new query's own.
    pub(crate) fn begin(&self) -> Generation {
        let n = self.queries.fetch_add(1, Ordering::Relaxed);
        let round = n % GEN_MASK;
        if round == 0 && n > 0 {
            self.clear();
        }
        self.part.store(first_part(self.mask), Ordering::Relaxed);
        self.stores.store(0, Ordering::Relaxed);
        Generation(round + 1)
    }

    /// Forgets every entry (needed only when memory matters: entries never
    /// become wrong). Only the widest part used since the last clear is
    /// written, so clearing a large table costs what the queries used of it.
    pub fn clear(&self) {
        let widest = self.widest.swap(first_part(self.mask), Ordering::Relaxed);
        for s in &self.slots[..(widest + 1) * BUCKET] {
            s.store(0, Ordering::Relaxed);
        }
    }

    /// The stored form of a key for the query of `generation` (never 0).
    #[inline]
    fn tag(key: u64, generation: Generation) -> u64 {
        key & !GEN_MASK | generation.0
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        self.bucket_in(key, self.part.load(Ordering::Relaxed))
    }

    /// The bucket of `key` in the part of the table with this mask.
    #[inline]
    fn bucket_in(&self, key: u64, mask: usize) -> &[AtomicU64] {
        let start = ((key as usize) & mask) * BUCKET;
        &self.slots[start..start + BUCKET]
    }

    /// The masks of every part a query may have used, smallest first.
    fn parts(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(first_part(self.mask)), move |&m| {
            (m < self.mask).then_some(m * 2 + 1)
        })
    }

    /// Has the query of `generation` proved that the position with this
    /// key has no mate?
    #[inline]
    pub(crate) fn proved_none(&self, key: u64, generation: Generation) -> bool {
        let tag = Self::tag(key, generation);
        self.bucket(key)
            .iter()
            .any(|s| s.load(Ordering::Relaxed) == tag)
    }

    /// Asks the processor to fetch the bucket of `key` (a probe soon after
    /// then finds it in the cache instead of waiting on memory).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key).as_ptr());
    }

    /// Has any query proved that the position with this key has no mate?
    #[inline]
    pub(crate) fn proved_ever(&self, key: u64) -> bool {
        // Stored in whatever part its query had then.
        self.parts().any(|mask| {
            self.bucket_in(key, mask).iter().any(|s| {
                let v = s.load(Ordering::Relaxed);
                v != 0 && (v ^ key) & !GEN_MASK == 0
            })
        })
    }

    /// Records the query's proof of "no mate" for the position with this key.
    #[inline]
    pub(crate) fn store_none(&self, key: u64, generation: Generation) {
        let part = self.part.load(Ordering::Relaxed);
        Self::put(
            self.bucket_in(key, part),
            Self::tag(key, generation),
            generation,
        );
        let stores = self.stores.fetch_add(1, Ordering::Relaxed) + 1;
        if part < self.mask && stores > (part + 1) * BUCKET / FILL_DIVISOR {
            self.grow(part, generation);
        }
    }

    /// Puts `tag` in `bucket`: in a slot that is empty for this query
    /// (empty, or an earlier query's) if there is one, else in a slot
    /// picked by high key bits (any choice is sound), as in a fresh table.
    fn put(bucket: &[AtomicU64], tag: u64, generation: Generation) {
        let victim = bucket
            .iter()
            .position(|s| {
                let v = s.load(Ordering::Relaxed);
                v & GEN_MASK != generation.0 || v == tag
            })
            .unwrap_or((tag >> 62) as usize % BUCKET);
        bucket[victim].store(tag, Ordering::Relaxed);
    }

    /// Doubles the query's part of the table from the mask `part`, moving
    /// the query's proofs whose keys now index the upper half. Another
    /// thread may store or look up meanwhile: a proof stored in the old
    /// place is then lost, which costs search, never soundness (a slot
    /// matches only its own key, and its bucket gives the key's low bits).
    fn grow(&self, part: usize, generation: Generation) {
        let wider = part * 2 + 1;
        if self
            .part
            .compare_exchange(part, wider, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return; // another thread grows it
        }
        self.widest.fetch_max(wider, Ordering::Relaxed);
        let high = part + 1;
        crate::memory::populate(&self.slots[high * BUCKET..(wider + 1) * BUCKET]);
        for i in 0..high {
            for slot in self.bucket_in(i as u64, part) {
                let v = slot.load(Ordering::Relaxed);
                // The bit that picks the half is a key bit kept in the tag.
                if v & GEN_MASK == generation.0 && (v as usize) & high != 0 {
                    Self::put(self.bucket_in((i | high) as u64, wider), v, generation);
                    let _ = slot.compare_exchange(v, 0, Ordering::Relaxed, Ordering::Relaxed);
                }
            }
        }
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
        let g = tt.begin();
        assert!(!tt.proved_none(12345, g));
        tt.store_none(12345, g);
        assert!(tt.proved_none(12345, g));
        assert!(!tt.proved_none(12346, g));
        tt.clear();
        assert!(!tt.proved_none(12345, g) && !tt.proved_ever(12345));
    }

    #[test]
    fn key_zero_is_storable() {
        let tt = MateTable::new(1);
        let g = tt.begin();
        assert!(!tt.proved_ever(0));
        tt.store_none(0, g);
        assert!(tt.proved_none(0, g) && tt.proved_ever(0));
    }

    #[test]
    fn a_later_query_sees_earlier_proofs_only_as_facts_about_its_root() {
        let tt = MateTable::new(1);
        let first = tt.begin();
        // Five keys of one bucket: the fifth evicts one of the first four.
        let keys: Vec<u64> = (1..=5u64).map(|i| i << 40 | 7).collect();
        for &k in &keys {
            tt.store_none(k, first);
        }
        assert_eq!(
            keys.iter().filter(|&&k| tt.proved_none(k, first)).count(),
            4
        );
        let second = tt.begin();
        assert_ne!(first, second);
        assert!(keys.iter().all(|&k| !tt.proved_none(k, second)));
        assert_eq!(keys.iter().filter(|&&k| tt.proved_ever(k)).count(), 4);
        // The second query fills the bucket as a fresh table would: its own
        // first four proofs all stay.
        let own: Vec<u64> = (11..=14u64).map(|i| i << 40 | 7).collect();
        for &k in &own {
            tt.store_none(k, second);
        }
        assert!(own.iter().all(|&k| tt.proved_none(k, second)));
    }

    #[test]
    fn generations_wrap_round_with_a_cleared_table() {
        let tt = MateTable::new(1);
        let first = tt.begin();
        tt.store_none(99, first);
        for _ in 1..GEN_MASK {
            assert_ne!(tt.begin(), first);
        }
        assert!(tt.proved_ever(99));
        assert_eq!(tt.begin(), first);
        assert!(!tt.proved_none(99, first) && !tt.proved_ever(99));
    }

    /// Keys spread over the whole key space, as Zobrist keys are.
    fn keys(n: u64, salt: u64) -> Vec<u64> {
        (0..n)
            .map(|i| {
                (i | salt << 40)
                    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    .rotate_left(29)
            })
            .collect()
    }

    #[test]
    fn a_query_keeps_its_proofs_as_its_part_of_the_table_doubles() {
        let tt = MateTable::new(16);
        let g = tt.begin();
        let first = tt.part.load(Ordering::Relaxed);
        assert_eq!(first, FIRST_BUCKETS - 1);
        // Enough proofs for three doublings, few enough for no eviction.
        let n = (8 * FIRST_BUCKETS * BUCKET / FILL_DIVISOR) as u64;
        let ks = keys(n, 1);
        for &k in &ks {
            tt.store_none(k, g);
        }
        assert_eq!(tt.part.load(Ordering::Relaxed), first * 8 + 7);
        let found: Vec<bool> = ks.iter().map(|&k| tt.proved_none(k, g)).collect();
        let kept = found.iter().filter(|&&f| f).count();
        assert!(kept as u64 >= n - n / 1000, "{kept} of {n} kept");
        assert!(keys(1000, 2).iter().all(|&k| !tt.proved_none(k, g)));
        // The next query starts small again, its own proofs only.
        let h = tt.begin();
        assert_eq!(tt.part.load(Ordering::Relaxed), first);
        assert!(ks.iter().take(1000).all(|&k| !tt.proved_none(k, h)));
        // An earlier query's root is found in whatever part it was stored.
        assert!(ks.iter().zip(&found).all(|(&k, &f)| tt.proved_ever(k) == f));
    }

    #[test]
    fn clearing_forgets_the_proofs_of_every_part_used() {
        let tt = MateTable::new(16);
        let g = tt.begin();
        // Proofs for three doublings: the widest part holds most of them.
        let ks = keys((8 * FIRST_BUCKETS * BUCKET / FILL_DIVISOR) as u64, 4);
        for &k in &ks {
            tt.store_none(k, g);
        }
        let widest = tt.part.load(Ordering::Relaxed);
        assert!(widest > FIRST_BUCKETS - 1);
        assert!(ks.iter().any(|&k| tt.proved_ever(k)));
        tt.clear();
        assert!(ks.iter().all(|&k| !tt.proved_ever(k)));
        assert!(tt.slots.iter().all(|s| s.load(Ordering::Relaxed) == 0));
        // The next clear writes the first part only, and still forgets.
        let h = tt.begin();
        tt.store_none(ks[0], h);
        tt.clear();
        assert!(!tt.proved_ever(ks[0]));
        assert_eq!(tt.widest.load(Ordering::Relaxed), FIRST_BUCKETS - 1);
    }

    #[test]
    fn a_small_table_never_grows() {
        let tt = MateTable::new(1);
        let g = tt.begin();
        for k in keys(100_000, 3) {
            tt.store_none(k, g);
        }
        assert_eq!(tt.part.load(Ordering::Relaxed), tt.mask);
    }
}
