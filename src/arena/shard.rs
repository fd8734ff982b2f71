//! Shards: a match cut into N parts that machines play independently.
//!
//! Pair p belongs to shard `p mod N` (numbered 1..N for people), so every
//! shard plays early pairs first and a match stopped early (SPRT, stop
//! file) leaves the shards about equally far. What a pair plays (its
//! opening, its colours) is a function of the match seed and the pair's
//! index alone ([`pair_seed`]), never of the pairs played before it on the
//! same machine: N shards together are exactly the unsharded match.

use std::fmt;
use std::str::FromStr;

/// Shard `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// The whole match (shard 1/1).
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Does pair `pair` (0-based) belong to this shard?
    pub fn has_pair(self, pair: u32) -> bool {
        self.has(u64::from(pair))
    }

    /// Does item `index` (0-based: a pair, a puzzle generation's game)
    /// belong to this shard?
    pub fn has(self, index: u64) -> bool {
        index % u64::from(self.count) == u64::from(self.index)
    }

    /// This shard's first item at or after `index`.
    pub fn first_from(self, index: u64) -> u64 {
        let (n, k) = (u64::from(self.count), u64::from(self.index));
        index + (k + n - index % n) % n
    }

    /// Items between two of this shard's (N).
    pub fn step(self) -> u64 {
        u64::from(self.count)
    }

    /// The pairs of this shard among the first `pairs`, in order.
    pub fn pairs(self, pairs: u32) -> impl Iterator<Item = u32> {
        (self.index..pairs).step_by(self.count as usize)
    }

    /// Is this the whole match?
    pub fn is_whole(self) -> bool {
        self.count == 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `K/N`, 1 <= K <= N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard: expected K/N with 1 <= K <= N, got '{text}'");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u32 = k.trim().parse().map_err(|_| bad())?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k > n {
            return Err(bad());
        }
        if k == 0 {
            return Err(format!(
                "--shard: shards are numbered from 1, got '{text}' \
                 (a 0-based index such as JOB_COMPLETION_INDEX needs 1 added)"
            ));
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }
}

/// The seed of pair `pair` of the match seeded `seed`.
pub fn pair_seed(seed: u64, pair: u32) -> u64 {
    index_seed(seed, u64::from(pair))
}

/// The seed of item `index` (a pair, a game) of a run seeded `seed`: two
/// rounds of SplitMix64, so that neighbouring items (and neighbouring run
/// seeds) get unrelated streams, whichever shard or machine plays them.
pub fn index_seed(seed: u64, index: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ index)
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_pairs() {
        let shards: Vec<Shard> = (1..=4).map(|k| format!("{k}/4").parse().unwrap()).collect();
        let mut seen = vec![0; 23];
        for s in &shards {
            for p in s.pairs(23) {
                assert!(s.has_pair(p));
                seen[p as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
        assert_eq!(shards[1].pairs(10).collect::<Vec<_>>(), [1, 5, 9]);
        assert_eq!(shards[1].to_string(), "2/4");
        assert!(Shard::WHOLE.is_whole() && Shard::WHOLE.pairs(3).count() == 3);
        let s = shards[2]; // 3/4: items 2, 6, 10, ...
        assert_eq!([0, 2, 3, 6, 7].map(|i| s.first_from(i)), [2, 2, 6, 6, 10]);
        assert!(s.has(10) && !s.has(11) && s.step() == 4);
    }

    #[test]
    fn bad_shards_are_refused() {
        for text in ["0/4", "5/4", "1/0", "1", "a/b", "-1/4"] {
            assert!(text.parse::<Shard>().is_err(), "{text}");
        }
        assert!("0/4".parse::<Shard>().unwrap_err().contains("from 1"));
    }

    #[test]
    fn pair_seeds_depend_on_the_pair_and_the_seed() {
        assert_eq!(pair_seed(7, 3), pair_seed(7, 3));
        assert_ne!(pair_seed(7, 3), pair_seed(7, 4));
        assert_ne!(pair_seed(7, 3), pair_seed(8, 3));
    }
}
