//! The cover search: given each piece's options (a set of targets it may
//! cover from one end square, and the moves to get there), the least total
//! cost of at most one option per piece covering every target still needed.
//! A depth-first search for small budgets, dynamic programming over target
//! subsets for larger ones.

use super::cache::{CacheEntry, RESTRICTED, RESTRICTED_SLOTS, Restricted};
use super::reach::FAR;
use crate::chess::{Role, Square};

/// Appends to `flat` from `n` the options of our `role` on `from` for
/// [`min_cover`]: those within `budget`, restricted to the targets in `need`,
/// without the ones a cheaper (or equal) option of the same piece covers
/// too. Returns where they end, or `None` when `flat` is full. Kept lists
/// are found in `restricted` (siblings in the search differ in one piece, so
/// the others' lists are met again and again).
#[inline]
pub(super) fn gather(
    entry: &mut CacheEntry,
    restricted: &mut [Restricted; RESTRICTED_SLOTS],
    flat: &mut [(u16, u8); MAX_FLAT + RESTRICTED],
    mut n: usize,
    (role, from): (Role, Square),
    need: u16,
    budget: u8,
) -> Option<usize> {
    let start = n;
    let what = Restricted::what(role, from, need, budget);
    let slot = Restricted::slot(entry.generation, what);
    let kept = &mut restricted[slot];
    if kept.generation == entry.generation && kept.what == what {
        let len = kept.len as usize;
        if n + len > MAX_FLAT {
            return None;
        }
        // (A copy of fixed size is cheaper; `flat` has the room.)
        flat[n..n + RESTRICTED].copy_from_slice(&kept.options);
        return Some(n + len);
    }
    let mut union = 0u16;
    // The options are sorted by cost; an option whose needed targets a
    // cheaper (or equal) one of the same piece covers too is never needed.
    for &(m, c) in entry.options(role, from).iter() {
        if c > budget {
            break;
        }
        let m = m & need;
        // (Only an option within the union of those kept so far may be
        // dominated.)
        if m == 0 || m & !union == 0 && flat[start..n].iter().any(|o| o.0 & m == m) {
            continue;
        }
        union |= m;
        if n == MAX_FLAT {
            return None;
        }
        flat[n] = (m, c);
        n += 1;
    }
    if n - start <= RESTRICTED {
        kept.generation = entry.generation;
        kept.what = what;
        kept.len = (n - start) as u8;
        kept.options
            .copy_from_slice(&flat[start..start + RESTRICTED]);
    }
    Some(n)
}

/// Adds mover `p` with its gathered `options` (cheapest first) to the
/// per-cost target masks: a target counts at the least cost covering it
/// (the prefix over costs, done after, gives it to the higher budgets).
#[inline]
pub(super) fn add_who(
    who: &mut [[u32; 9]; DFS_BUDGET as usize + 1],
    options: &[(u16, u8)],
    p: usize,
) {
    let mut seen = 0u16;
    for &(m, c) in options {
        let mut bits = m & !seen;
        seen |= m;
        while bits != 0 {
            who[c as usize][bits.trailing_zeros() as usize] |= 1 << p;
            bits &= bits - 1;
        }
    }
}

/// At most `max` of the movers in `new_mask` may be used (a restricted search
/// pass: pieces that have not moved yet and would start moving).
#[derive(Clone, Copy)]
pub(super) struct Recruits {
    pub(super) new_mask: u32,
    pub(super) max: u32,
}

impl Recruits {
    pub(super) const NONE: Recruits = Recruits {
        new_mask: 0,
        max: 0,
    };

    /// At most `recruits` of the movers in `new_mask`; no limit when every
    /// candidate recruit may come (or more than [`min_cover_dp`] has layers
    /// for).
    pub(super) fn limit(new_mask: u32, recruits: u32) -> Recruits {
        if new_mask.count_ones() <= recruits || recruits as usize >= MAX_LAYERS {
            Recruits::NONE
        } else {
            Recruits {
                new_mask,
                max: recruits,
            }
        }
    }

    /// The movers that may be added to those in `used`.
    #[inline]
    pub(super) fn free(self, used: u32) -> u32 {
        if (used & self.new_mask).count_ones() < self.max {
            u32::MAX
        } else {
            !self.new_mask
        }
    }
}

/// Room for the options of all movers gathered for [`min_cover`].
pub(super) const MAX_FLAT: usize = 256;

/// Budgets up to this are solved by [`min_cover`], larger ones by
/// [`min_cover_dp`] (whose cost does not grow with the budget, about 47k
/// instructions a call). Branching on the most constrained target, the
/// depth-first search is cheaper up to here too (Janko-Guid 60 at 6: 4.63 G
/// instructions, at 9: 4.58 G, at 12: 4.59 G).
pub(super) const DFS_BUDGET: u8 = 9;

/// The cover problem of [`min_cover`]: piece `p` owns the options
/// `flat[starts[p]..starts[p + 1]]` (cheapest first), and `who[b][i]` holds
/// the pieces with an option covering target `i` at a cost of at most `b`.
pub(super) struct Cover<'a> {
    pub(super) flat: &'a [(u16, u8)],
    pub(super) starts: &'a [u16],
    pub(super) who: &'a [[u32; 9]; DFS_BUDGET as usize + 1],
    pub(super) limit: Recruits,
}

/// Has every target in `uncovered` a piece in `free` among its pieces `who`?
#[inline]
pub(super) fn coverable(who: &[u32; 9], uncovered: u16, free: u32) -> bool {
    let mut rest = uncovered;
    while rest != 0 {
        if who[rest.trailing_zeros() as usize] & free == 0 {
            return false;
        }
        rest &= rest - 1;
    }
    true
}

/// The least total cost of options, at most one per piece (pieces in `used`
/// are taken), covering `uncovered` (not empty), if it is at most `budget`;
/// otherwise more than `budget`. Branches on the lowest uncovered target:
/// some chosen option covers it. Every target in `uncovered` must have a
/// free piece able to cover it within `budget` ([`coverable`]), which the
/// caller checks (saving the call when it fails).
pub(super) fn min_cover(problem: &Cover, uncovered: u16, used: u32, budget: u8) -> u8 {
    let free = !used & problem.limit.free(used);
    // Branch on the target with the fewest pieces able to cover it (some
    // chosen option covers every target, so any target gives an exact
    // search; the most constrained one gives the smallest).
    let row = &problem.who[budget as usize];
    let mut ti = uncovered.trailing_zeros() as usize;
    let mut fewest = (row[ti] & free).count_ones();
    let mut rest = uncovered & (uncovered - 1);
    while rest != 0 && fewest > 1 {
        let i = rest.trailing_zeros() as usize;
        let k = (row[i] & free).count_ones();
        if k < fewest {
            fewest = k;
            ti = i;
        }
        rest &= rest - 1;
    }
    let t = 1u16 << ti;
    let mut best = FAR;
    let mut candidates = problem.who[budget as usize][ti] & free;
    while candidates != 0 {
        let p = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let options = &problem.flat[problem.starts[p] as usize..problem.starts[p + 1] as usize];
        for &(m, c) in options {
            // Only options strictly cheaper than the best so far matter.
            if c > budget || c >= best {
                break;
            }
            if m & t == 0 {
                continue;
            }
            let left = budget.min(best - 1) - c;
            let others = uncovered & !m;
            let rest = if others == 0 {
                0
            } else if left == 1 {
                one_option(problem, others, used | 1 << p)
            } else {
                let used = used | 1 << p;
                let free = !used & problem.limit.free(used);
                if coverable(&problem.who[left as usize], others, free) {
                    min_cover(problem, others, used, left)
                } else {
                    FAR
                }
            };
            if rest <= left {
                best = c + rest;
            }
        }
    }
    best
}

/// [`min_cover`] with a budget of one move: 1 if one free piece covers
/// all of `uncovered` (not empty) with an option of one move, else more
/// (two options would cost two).
#[inline]
fn one_option(problem: &Cover, uncovered: u16, used: u32) -> u8 {
    let mut candidates = !used & problem.limit.free(used);
    let mut rest = uncovered;
    while rest != 0 {
        candidates &= problem.who[1][rest.trailing_zeros() as usize];
        if candidates == 0 {
            return FAR;
        }
        rest &= rest - 1;
    }
    while candidates != 0 {
        let p = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let options = &problem.flat[problem.starts[p] as usize..problem.starts[p + 1] as usize];
        for &(m, c) in options {
            if c > 1 {
                break;
            }
            if m & uncovered == uncovered {
                return 1;
            }
        }
    }
    FAR
}

/// [`min_cover`] for larger budgets: dynamic programming over the subsets
/// of the needed targets (`dp[layer][set]`: the least cost covering `set`;
/// only the subsets of `need` are used, each cleared here). Each piece
/// updates the table in place, larger sets and higher layers first, so every
/// update reads an entry this piece has not changed (it may be used once).
pub(super) fn min_cover_dp(
    entry: &mut CacheEntry,
    dp: &mut [[u8; 512]; MAX_LAYERS],
    movers: [(Square, Role); 16],
    pieces: usize,
    need: u16,
    budget: u8,
    limit: Recruits,
) -> u8 {
    // Layer k: k recruits used so far (one layer when there is no limit).
    let layers = if limit.new_mask == 0 {
        1
    } else {
        limit.max as usize + 1
    };
    let mut set = need;
    loop {
        for table in dp[..layers].iter_mut() {
            table[set as usize] = u8::MAX;
        }
        if set == 0 {
            break;
        }
        set = (set - 1) & need;
    }
    dp[0][0] = 0;
    for (p, &(from, role)) in movers[..pieces].iter().enumerate() {
        let recruit = usize::from(limit.new_mask & (1 << p) != 0);
        let mut opts = [(0u16, 0u8); 64];
        let mut n = 0;
        for &(m, c) in entry.options(role, from).iter() {
            if c > budget || m & need == 0 {
                continue;
            }
            let m = m & need;
            match opts[..n].iter().position(|o| o.0 == m) {
                Some(i) => opts[i].1 = opts[i].1.min(c),
                None if n < opts.len() => {
                    opts[n] = (m, c);
                    n += 1;
                }
                None => {
                    // More distinct sets than room: fall back to covering
                    // everything at the cheapest of the rest (still a bound).
                    let o = &mut opts[n - 1];
                    o.0 = need;
                    o.1 = o.1.min(c);
                }
            }
        }
        if n == 0 {
            continue;
        }
        for layer in (0..layers).rev() {
            // A recruit moves up a layer; none beyond the limit.
            let to = layer + recruit;
            if to >= layers {
                continue;
            }
            let mut set = need;
            loop {
                let base = dp[layer][set as usize];
                if base != u8::MAX {
                    for &(c, k) in &opts[..n] {
                        let cost = base.saturating_add(k);
                        let m = (set | c) as usize;
                        if cost <= budget && cost < dp[to][m] {
                            dp[to][m] = cost;
                        }
                    }
                }
                if set == 0 {
                    break;
                }
                set = (set - 1) & need;
            }
        }
    }
    dp[..layers]
        .iter()
        .map(|b| b[need as usize])
        .min()
        .unwrap_or(u8::MAX)
}

/// Layers of [`min_cover_dp`]: restricted passes allow at most this many
/// recruits less one.
pub(super) const MAX_LAYERS: usize = 5;
