//! The move budget bound as it was before its speed-ups (commit 147b5d6),
//! kept for tests only: the current bounds ([`super`]) must give the same
//! values everywhere. The reach tables and the targets' rules (excused
//! flights, castling slack) are shared with the current bounds, which
//! test them on their own; what is kept here is the old cache, options and
//! cover search.
#![allow(dead_code)]

use super::reach::{
    FAR, TargetsWithin, WITHIN, pawn_steps, promotion_steps_to, reach, slot, targets_within,
};
use super::targets::Targets;
use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Position, Role, Square};

/// The fewest moves of `role` from `from` to stand on `to`, on the empty
/// board (the rings of the shared reach tables hold every finite distance).
fn empty_board_distance(role: Role, from: Square, to: Square) -> u8 {
    reach().rings[slot(role)][from.index()]
        .iter()
        .position(|ring| ring.contains(to))
        .map_or(FAR, |k| k as u8)
}

/// Can the side to move possibly mate within `moves` moves? `false` is a
/// proof that it cannot; `true` means only that this bound does not exclude it.
pub fn may_mate(pos: &Position, moves: u32) -> bool {
    lower_bound(pos, moves) <= moves
}

/// A quick filter for the second-last move: after it, can one more move
/// complete the mating picture? The same relaxation as [`lower_bound`] with
/// one move left, prepared once for a node with two moves left and then
/// asked for each of its moves (only the moved piece changes).
///
/// Sound by construction: the targets are a subset of every child's (the
/// flights only grow as enemy pieces are captured, and the excused flights
/// are taken for the larger radius of two moves), and each piece's cover is
/// over-estimated on the empty board: what a piece attacks now, or could
/// attack after one move (the union of its one-move options).
pub struct LastTwo {
    targets: [Square; 9],
    count: usize,
    castling_slack: u8,
    us: Color,
    /// Per square of ours: targets covered now, and within one move.
    now: [u16; 64],
    within: [u16; 64],
    ours: Bitboard,
    /// The [`BoundCache`] entry for these targets.
    key: (Square, u64, Color, u8),
}

impl LastTwo {
    /// Prepares the filter for `pos`, which has two moves left.
    pub fn new(pos: &Position) -> LastTwo {
        let us = pos.side_to_move();
        let t = Targets::of(pos, 2);
        let mut f = LastTwo {
            targets: t.squares,
            count: t.count,
            castling_slack: t.key.castling_slack,
            us,
            now: [0; 64],
            within: [0; 64],
            ours: pos.color_bb(us),
            key: (t.key.king, t.key.squares, us, t.key.castling_slack),
        };
        for from in pos.color_bb(us) {
            if let Some(piece) = pos.piece_at(from) {
                let (n, w) = f.cover(piece.role, from);
                f.now[from.index()] = n;
                f.within[from.index()] = w;
            }
        }
        f
    }

    /// The targets a piece covers from `from` now, and now or after one move.
    fn cover(&self, role: Role, from: Square) -> (u16, u16) {
        let w = targets_within(
            self.us,
            self.castling_slack,
            &self.targets[..self.count],
            role,
            from,
        );
        (w[0], w[1])
    }

    /// In `pos` (the node this filter was made for), after our piece moved
    /// `from`-`to` (becoming `role`; castling is not handled and always
    /// passes), may the last move still mate, when only the moved piece and
    /// our pieces on `movable` may make it (the others stay where they are)?
    pub fn may_mate_after_movable(
        &self,
        pos: &Position,
        cache: &mut BoundCache,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
        movable: Bitboard,
    ) -> bool {
        if castle {
            return true;
        }
        let full: u16 = (1 << self.count) - 1;
        let entry = cache.entry(self.key, &self.targets[..self.count]);
        let l = entry.levels(role, to);
        let (moved_now, moved_within) = (l[0], l[1]);
        let mut free = moved_now;
        for sq in self.ours & !from.bb() {
            free |= self.now[sq.index()];
        }
        let need = full & !free;
        if need == 0 {
            return true;
        }
        // One piece must cover the rest from one end square, in one move.
        let single = |entry: &mut CacheEntry, role: Role, sq: Square| {
            entry
                .options(role, sq)
                .iter()
                .any(|&(m, c)| c <= 1 && m & need == need)
        };
        if moved_within & need == need && single(entry, role, to) {
            return true;
        }
        (self.ours & movable & !from.bb()).into_iter().any(|sq| {
            self.within[sq.index()] & need == need
                && pos.piece_at(sq).is_some_and(|p| single(entry, p.role, sq))
        })
    }
}

/// A lower bound on the moves needed to mate (see the module text); values
/// above `cap` are reported as `cap + 1`. Uses a cache per thread: the
/// evaluation asks this of every position it scores, and a fresh cache each
/// time cost four fifths of its time.
pub fn lower_bound(pos: &Position, cap: u32) -> u32 {
    thread_local! {
        static CACHE: std::cell::RefCell<BoundCache> = std::cell::RefCell::default();
    }
    CACHE.with(|cache| match cache.try_borrow_mut() {
        Ok(mut cache) => lower_bound_with(pos, cap, &mut cache),
        // (Never re-entered today; a fresh cache keeps it correct if it is.)
        Err(_) => lower_bound_with(pos, cap, &mut BoundCache::default()),
    })
}

/// The options of one piece for the target set of a cache entry: each a set
/// of targets (bit `i` is target `i`) it may cover from one end square, and
/// the fewest moves to get there; only options no other one dominates.
type Options = Vec<(u16, u8)>;

/// Per-searcher memory for [`lower_bound_with`]: the options of each piece
/// (role and square) for the target sets met so far. The enemy king does not
/// move during our turn and its flights change only by captures, so a search
/// meets very few target sets and the options are computed once.
#[derive(Default)]
pub struct BoundCache {
    entries: Vec<CacheEntry>,
}

struct CacheEntry {
    /// The enemy king, the targets, our colour and the castling slack.
    key: (Square, u64, Color, u8),
    /// The targets in bit order: the king's square, then the flights.
    targets: [Square; 9],
    count: usize,
    /// Per role and square: the options, computed on first use.
    slots: Vec<Option<Options>>,
    /// Per role and square: `levels[k]` is the set of targets the piece
    /// attacks after at most `k` moves (on the empty board), computed on
    /// first use (see [`CacheEntry::levels`]).
    levels: Vec<Option<TargetsWithin>>,
}

impl BoundCache {
    /// Entries kept before the cache starts over.
    const MAX_ENTRIES: usize = 16;

    fn entry(&mut self, key: (Square, u64, Color, u8), targets: &[Square]) -> &mut CacheEntry {
        if let Some(i) = self.entries.iter().position(|e| e.key == key) {
            return &mut self.entries[i];
        }
        if self.entries.len() >= Self::MAX_ENTRIES {
            self.entries.clear();
        }
        let mut t = [Square(0); 9];
        t[..targets.len()].copy_from_slice(targets);
        self.entries.push(CacheEntry {
            key,
            targets: t,
            count: targets.len(),
            slots: vec![None; 6 * 64],
            levels: vec![None; 6 * 64],
        });
        let last = self.entries.len() - 1;
        &mut self.entries[last]
    }
}

impl CacheEntry {
    /// The targets (as a bit set over target indices) in `set`.
    fn mask_of(&self, set: Bitboard) -> u16 {
        let mut m = 0;
        for (i, &t) in self.targets[..self.count].iter().enumerate() {
            if set.contains(t) {
                m |= 1 << i;
            }
        }
        m
    }

    /// The targets our `role` on `from` covers within each number of moves.
    #[inline]
    fn levels(&mut self, role: Role, from: Square) -> &TargetsWithin {
        let (_, _, us, slack) = self.key;
        let targets = &self.targets[..self.count];
        self.levels[role.index() * 64 + from.index()]
            .get_or_insert_with(|| targets_within(us, slack, targets, role, from))
    }

    fn options(&mut self, role: Role, from: Square) -> &Options {
        let slot = role.index() * 64 + from.index();
        if self.slots[slot].is_none() {
            let opts = self.compute_options(role, from);
            self.slots[slot] = Some(opts);
        }
        self.slots[slot].as_ref().expect("just filled")
    }

    /// Every end square from which the piece attacks some target (on the
    /// empty board) with the moves to get there, reduced to the options no
    /// other one dominates (covers a superset at no higher cost).
    fn compute_options(&self, role: Role, from: Square) -> Options {
        let (eksq, _, us, slack) = self.key;
        let them = us.other();
        let mut raw: Options = Vec::new();
        let mut add = |mask: u16, cost: u8| {
            if mask == 0 || cost >= FAR {
                return;
            }
            match raw.iter_mut().find(|o| o.0 == mask) {
                Some(o) => o.1 = o.1.min(cost),
                None => raw.push((mask, cost)),
            }
        };
        let targets = &self.targets[..self.count];
        match role {
            Role::Pawn => {
                let mut squares = Bitboard::EMPTY;
                for &t in targets {
                    squares |= attacks::pawn(them, t);
                }
                // Nothing of ours can end on the enemy king's square.
                for sq in squares & !eksq.bb() {
                    let cost = pawn_steps(us, from, sq);
                    if cost > 0 {
                        add(self.mask_of(attacks::pawn(us, sq)), cost);
                    }
                }
                // After promoting on `q`, the new piece (a queen covers all a
                // rook or bishop would, at no more moves) goes on from there.
                for q in Bitboard::rank(if us == Color::White { 7 } else { 0 }) {
                    let promo = promotion_steps_to(us, from, q);
                    if promo >= FAR {
                        continue;
                    }
                    for role in [Role::Queen, Role::Knight] {
                        let mut squares = Bitboard::EMPTY;
                        for &t in targets {
                            squares |= attacks::piece(role, t, Bitboard::EMPTY);
                        }
                        for sq in squares & !eksq.bb() {
                            add(
                                self.mask_of(attacks::piece(role, sq, Bitboard::EMPTY)),
                                promo.saturating_add(empty_board_distance(role, q, sq)),
                            );
                        }
                    }
                }
            }
            _ => {
                let mut squares = Bitboard::EMPTY;
                for &t in targets {
                    squares |= attacks::piece(role, t, Bitboard::EMPTY);
                }
                if role == Role::King {
                    // Our king cannot end next to the enemy king.
                    squares &= !attacks::king(eksq);
                }
                for sq in squares & !eksq.bb() & !from.bb() {
                    let mut cost = empty_board_distance(role, from, sq);
                    if role == Role::King {
                        // Castling moves the king two squares with one move.
                        cost = cost.saturating_sub(slack);
                    }
                    add(
                        self.mask_of(attacks::piece(role, sq, Bitboard::EMPTY)),
                        cost,
                    );
                }
            }
        }
        let mut kept: Options = Vec::with_capacity(raw.len());
        for (i, &(m, c)) in raw.iter().enumerate() {
            let dominated = raw.iter().enumerate().any(|(j, &(m2, c2))| {
                j != i && m2 & m == m && c2 <= c && (m2 != m || c2 < c || j < i)
            });
            if !dominated {
                kept.push((m, c));
            }
        }
        // Cheapest first (the bound stops at the first over its budget).
        kept.sort_by_key(|o| o.1);
        kept
    }
}

/// [`lower_bound`] with a cache of piece options kept between calls.
pub fn lower_bound_with(pos: &Position, cap: u32, cache: &mut BoundCache) -> u32 {
    lower_bound_movable(pos, cap, cache, Bitboard::ALL, 0)
}

/// [`lower_bound_with`] when only our pieces on `movable` and at most
/// `recruits` others may move (the pieces that do not move cover only what
/// they attack now).
pub fn lower_bound_movable(
    pos: &Position,
    cap: u32,
    cache: &mut BoundCache,
    movable: Bitboard,
    recruits: u32,
) -> u32 {
    let us = pos.side_to_move();
    // Targets: bit 0 is the king's square, then the open flights.
    let t = Targets::of(pos, cap);
    let (targets, count) = (t.squares, t.count);
    let full: u16 = (1 << count) - 1;

    // For each piece: the targets it covers now and within the budget.
    let castling_slack = u32::from(t.key.castling_slack);
    let key = (t.key.king, t.key.squares, us, t.key.castling_slack);
    let entry = cache.entry(key, &targets[..count]);
    let level = (cap as usize).min(WITHIN - 1);
    let mut movers = [(Square(0), Role::Pawn); 16];
    // Per mover: the targets it covers within 1, 2 and 3 moves.
    let mut small = [[0u16; 4]; 16];
    let mut pieces = 0;
    let mut free: u16 = 0;
    let mut reachable: u16 = 0;
    // Movers that would be recruits (bit per mover index).
    let mut new_mask: u32 = 0;
    for from in pos.color_bb(us) {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let l = entry.levels(piece.role, from);
        let now = l[0];
        let fixed = !movable.contains(from);
        let later = if !fixed || recruits > 0 {
            l[level] & !now
        } else {
            0
        };
        free |= now;
        reachable |= now | later;
        if later != 0 {
            if fixed {
                new_mask |= 1 << pieces;
            }
            movers[pieces] = (from, piece.role);
            small[pieces] = [0, l[1], l[2], l[3]];
            pieces += 1;
        }
    }
    if reachable != full {
        return cap + 1;
    }
    // No limit when every candidate recruit may come.
    let limit = if new_mask.count_ones() <= recruits || recruits as usize >= MAX_LAYERS {
        Recruits::NONE
    } else {
        Recruits {
            new_mask,
            max: recruits,
        }
    };
    let need = full & !free;
    if need == 0 {
        return 0;
    }
    // Castling moves king and rook with one move, so the per-piece counts may
    // exceed the moves made by one.
    let budget = (cap + castling_slack).min(FAR as u32 - 1) as u8;
    // A quick necessary condition first: the same cover problem with each
    // piece covering everything it reaches within its moves (a superset of
    // what it covers from any one end square).
    if budget <= 3 && !levels_cover(&small[..pieces], need, 0, budget, limit) {
        return cap + 1;
    }
    // Each piece ends on one square and covers what it attacks from there
    // (on an empty board): its options are (targets covered, moves to get
    // there). The answer is the minimum total cost over one option per
    // piece covering every target still needed.
    let best = if budget <= DFS_BUDGET {
        // (No padding in the pairs: the array is cleared by one memset.)
        let mut flat = [(0u16, 0u16); MAX_FLAT];
        let mut starts = [0usize; 17];
        let mut within = [[0u16; DFS_BUDGET as usize + 1]; 16];
        let mut n = 0;
        let mut overflow = false;
        'pieces: for (p, &(from, role)) in movers[..pieces].iter().enumerate() {
            starts[p] = n;
            let w = &mut within[p];
            // The options are sorted by cost.
            for &(m, c) in entry.options(role, from).iter() {
                if c > budget {
                    break;
                }
                if m & need == 0 {
                    continue;
                }
                if n == MAX_FLAT {
                    overflow = true;
                    break 'pieces;
                }
                flat[n] = (m & need, u16::from(c));
                n += 1;
                w[c as usize] |= m & need;
            }
            for b in 1..w.len() {
                w[b] |= w[b - 1];
            }
        }
        starts[pieces] = n;
        if overflow {
            min_cover_dp(entry, movers, pieces, need, count, budget, limit)
        } else {
            min_cover(
                &flat[..n],
                &starts[..=pieces],
                &within[..pieces],
                need,
                0,
                budget,
                limit,
            )
        }
    } else {
        min_cover_dp(entry, movers, pieces, need, count, budget, limit)
    };
    if best > budget {
        cap + 1
    } else {
        (best as u32).saturating_sub(castling_slack)
    }
}

/// Can pieces not in `used`, piece `p` spending `c` moves to cover
/// `small[p][c]`, cover `uncovered` with at most `budget` moves in all?
/// (Every needed target costs a mover at least one move.)
/// At most `max` of the movers in `new_mask` may be used (a restricted search
/// pass: pieces that have not moved yet and would start moving).
#[derive(Clone, Copy)]
struct Recruits {
    new_mask: u32,
    max: u32,
}

impl Recruits {
    const NONE: Recruits = Recruits {
        new_mask: 0,
        max: 0,
    };

    /// May mover `p` be added to the movers in `used`?
    #[inline]
    fn allows(self, used: u32, p: usize) -> bool {
        self.new_mask & (1 << p) == 0 || (used & self.new_mask).count_ones() < self.max
    }
}

fn levels_cover(
    small: &[[u16; 4]],
    uncovered: u16,
    used: u32,
    budget: u8,
    limit: Recruits,
) -> bool {
    if uncovered == 0 {
        return true;
    }
    if budget == 0 {
        return false;
    }
    let t = uncovered & uncovered.wrapping_neg();
    small.iter().enumerate().any(|(p, l)| {
        used & (1 << p) == 0
            && limit.allows(used, p)
            && (1..=budget as usize).any(|c| {
                l[c] & t != 0
                    && (c == budget as usize && l[c] & uncovered == uncovered
                        || c < budget as usize
                            && levels_cover(
                                small,
                                uncovered & !l[c],
                                used | 1 << p,
                                budget - c as u8,
                                limit,
                            ))
            })
    })
}

/// Room for the options of all movers gathered for [`min_cover`].
const MAX_FLAT: usize = 256;

/// Budgets up to this are solved by [`min_cover`], larger ones by
/// [`min_cover_dp`].
const DFS_BUDGET: u8 = 3;

/// The least total cost of options, at most one per piece (piece `p` owns
/// `flat[starts[p]..starts[p + 1]]`, and `reach[p][b]` is the union of its
/// options costing at most `b`; pieces in `used` are taken), covering
/// `uncovered`, if it is at most `budget`; otherwise more than `budget`.
/// Branches on the lowest uncovered target: some chosen option covers it.
fn min_cover(
    flat: &[(u16, u16)],
    starts: &[usize],
    reach: &[[u16; DFS_BUDGET as usize + 1]],
    uncovered: u16,
    used: u32,
    budget: u8,
    limit: Recruits,
) -> u8 {
    if uncovered == 0 {
        return 0;
    }
    // Every uncovered target needs some free piece able to cover it.
    let mut avail = 0;
    for (p, r) in reach.iter().enumerate() {
        if used & (1 << p) == 0 && limit.allows(used, p) {
            avail |= r[budget as usize];
        }
    }
    if uncovered & !avail != 0 {
        return FAR;
    }
    let t = uncovered & uncovered.wrapping_neg();
    let mut best = FAR;
    for p in 0..starts.len() - 1 {
        if used & (1 << p) != 0 || !limit.allows(used, p) {
            continue;
        }
        for &(m, c) in &flat[starts[p]..starts[p + 1]] {
            let c = c as u8;
            // Only options strictly cheaper than the best so far matter.
            if m & t == 0 || c > budget || c >= best {
                continue;
            }
            let limit_left = budget.min(best - 1) - c;
            let rest = min_cover(
                flat,
                starts,
                reach,
                uncovered & !m,
                used | 1 << p,
                limit_left,
                limit,
            );
            if rest <= limit_left {
                best = c + rest;
            }
        }
    }
    best
}

/// [`min_cover`] for larger budgets: dynamic programming over the subsets
/// of the needed targets, packed into the low bits.
fn min_cover_dp(
    entry: &mut CacheEntry,
    movers: [(Square, Role); 16],
    pieces: usize,
    need: u16,
    count: usize,
    budget: u8,
    limit: Recruits,
) -> u8 {
    // Layer k: k recruits used so far (one layer when there is no limit).
    let layers = if limit.new_mask == 0 {
        1
    } else {
        limit.max as usize + 1
    };
    let mut need_bits = [0u16; 9];
    let mut width = 0;
    for (i, b) in need_bits.iter_mut().enumerate().take(count) {
        if need & (1 << i) != 0 {
            *b = 1 << i;
            width += 1;
        }
    }
    let packed = |m: u16| -> usize {
        let mut out = 0;
        let mut bit = 0;
        for &b in &need_bits[..count] {
            if b != 0 {
                if m & b != 0 {
                    out |= 1 << bit;
                }
                bit += 1;
            }
        }
        out
    };
    let all = (1usize << width) - 1;
    let mut best = [[u8::MAX; 512]; MAX_LAYERS];
    best[0][0] = 0;
    let mut next = [[u8::MAX; 512]; MAX_LAYERS];
    for (p, &(from, role)) in movers[..pieces].iter().enumerate() {
        let recruit = limit.new_mask & (1 << p) != 0;
        let mut opts = [(0u16, 0u8); 64];
        let mut n = 0;
        for &(m, c) in entry.options(role, from).iter() {
            if c > budget || m & need == 0 {
                continue;
            }
            let p = packed(m) as u16;
            match opts[..n].iter().position(|o| o.0 == p) {
                Some(i) => opts[i].1 = opts[i].1.min(c),
                None if n < opts.len() => {
                    opts[n] = (p, c);
                    n += 1;
                }
                None => {
                    // More distinct sets than room: fall back to covering
                    // everything at the cheapest of the rest (still a bound).
                    let o = &mut opts[n - 1];
                    o.0 = all as u16;
                    o.1 = o.1.min(c);
                }
            }
        }
        if n == 0 {
            continue;
        }
        for layer in 0..layers {
            next[layer][..=all].copy_from_slice(&best[layer][..=all]);
        }
        for (layer, from_layer) in best[..layers].iter().enumerate() {
            // A recruit moves up a layer; none beyond the limit.
            let to = layer + usize::from(recruit);
            if to >= layers {
                continue;
            }
            for (mask, &base) in from_layer[..=all].iter().enumerate() {
                if base == u8::MAX {
                    continue;
                }
                for &(c, k) in &opts[..n] {
                    let cost = base.saturating_add(k);
                    let m = mask | c as usize;
                    if cost <= budget && cost < next[to][m] {
                        next[to][m] = cost;
                    }
                }
            }
        }
        for layer in 0..layers {
            best[layer][..=all].copy_from_slice(&next[layer][..=all]);
        }
    }
    best[..layers]
        .iter()
        .map(|b| b[all])
        .min()
        .unwrap_or(u8::MAX)
}

/// Layers of [`min_cover_dp`]: restricted passes allow at most this many
/// recruits less one.
const MAX_LAYERS: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Move, MoveKind, Rules, fen, legal_moves};
    use crate::mate::bounds;
    use crate::mate::bounds::tests::towards_enemy_king;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Turn starts: Janko-Guid, sermate, random and aggressive games.
    fn positions() -> Vec<Position> {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut out = Vec::new();
        let jg = std::fs::read_to_string(format!("{root}/bench/data/janko-guid-60.csv"))
            .expect("janko-guid");
        for line in jg.lines().skip(1) {
            if let Some((_, f)) = line.split_once(',') {
                out.push(fen::parse(f, Rules::Italian).expect("janko fen"));
            }
        }
        let ser = std::fs::read_to_string(format!("{root}/bench/data/sermate-public.jsonl"))
            .expect("sermate");
        for line in ser.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            let f = v["fen"].as_str().expect("fen");
            for rules in [Rules::Italian, Rules::Scottish] {
                if let Ok(p) = fen::parse(f, rules) {
                    out.push(p);
                }
            }
        }
        let mut rng = StdRng::seed_from_u64(97);
        for rules in [Rules::Italian, Rules::Scottish] {
            for game in 0..60 {
                let greedy = game % 2 == 0;
                let mut pos = Position::startpos(rules);
                while pos.turn_length() <= 9 {
                    let moves = legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    if pos.moves_made() == 0 {
                        out.push(pos.clone());
                    }
                    let mv = if greedy {
                        towards_enemy_king(&pos, &moves, &mut rng)
                    } else {
                        moves.as_slice()[rng.random_range(0..moves.len())]
                    };
                    pos.play(mv);
                }
            }
        }
        out
    }

    /// At most 16 pieces of each colour (more overflow the movers' arrays
    /// in both implementations: Janko-Guid 22 has 17 black pieces).
    fn fits(p: &Position) -> bool {
        [Color::White, Color::Black]
            .iter()
            .all(|&c| p.color_bb(c).count() <= 16)
    }

    /// Walks `walks` random lines through the turn of each of
    /// [`positions`] (those that [`fit`](fits)): `step` looks at each node
    /// and picks the next move, or ends the line with `None`; a line also
    /// ends with its turn.
    fn random_lines(
        walks: usize,
        rng: &mut StdRng,
        mut step: impl FnMut(&Position, &mut StdRng) -> Option<Move>,
    ) {
        for start in positions().into_iter().filter(fits) {
            for _walk in 0..walks {
                let mut pos = start.clone();
                while let Some(mv) = step(&pos, rng) {
                    if pos.play(mv).turn_ended {
                        break;
                    }
                }
            }
        }
    }

    /// A random subset of `set`.
    fn subset(rng: &mut StdRng, set: Bitboard) -> Bitboard {
        set.into_iter()
            .filter(|_| rng.random_range(0..3) == 0)
            .fold(Bitboard::EMPTY, |b, s| b | s.bb())
    }

    /// [`bounds::ChildBounds`] gives every child of a node exactly the value
    /// of [`bounds::lower_bound_movable`] on the child, along random lines of
    /// each turn, with movable sets and recruit limits as the restricted
    /// passes make them (and random ones).
    #[test]
    fn child_bounds_match_the_full_bound() {
        let mut rng = StdRng::seed_from_u64(808);
        let mut cache = bounds::BoundCache::default();
        let mut full_cache = bounds::BoundCache::default();
        let mut child_bounds = bounds::ChildBounds::default();
        let mut checked = 0u64;
        let mut values = [0u64; 8];
        random_lines(3, &mut rng, |pos, rng| {
            let left = pos.moves_left();
            let moves = legal_moves(pos);
            if moves.is_empty() || left <= 2 {
                return None;
            }
            let ours = pos.color_bb(pos.side_to_move());
            for cap in [left - 1, rng.random_range(0..8)] {
                child_bounds.reset();
                // One restriction per node, as a pass has it: the
                // pieces moved so far and the room for more.
                let moved = subset(rng, ours);
                let room: u32 = rng.random_range(0..4);
                for &mv in moves.iter() {
                    let mut child = pos.clone();
                    if child.play(mv).turn_ended {
                        continue;
                    }
                    let (movable, recruits) = match rng.random_range(0..4) {
                        0 => (Bitboard::ALL, 0),
                        1 => (subset(rng, ours) | mv.to().bb(), rng.random_range(0..5)),
                        _ => {
                            let fresh = !moved.contains(mv.from());
                            let now = (moved & !mv.from().bb()) | mv.to().bb();
                            (now, room.saturating_sub(u32::from(fresh)))
                        }
                    };
                    let want = bounds::lower_bound_movable(
                        &child,
                        cap,
                        &mut full_cache,
                        movable,
                        recruits,
                    );
                    let got =
                        child_bounds.bound(pos, &child, mv, cap, &mut cache, movable, recruits);
                    assert_eq!(
                        got,
                        want,
                        "{} {mv:?} cap {cap} movable {:x} recruits {recruits}",
                        fen::to_fen(pos),
                        movable.0
                    );
                    values[(want as usize).min(7)] += 1;
                    checked += 1;
                }
            }
            Some(moves.as_slice()[rng.random_range(0..moves.len())])
        });
        eprintln!("{checked} checked, values {values:?}");
        assert!(checked > 100_000);
    }

    /// The bound and the last-two filter give exactly the values of the
    /// reference implementation, along random lines of each turn (with the
    /// caps, movable sets and recruit limits the search and the evaluation
    /// use, and some others).
    #[test]
    fn bound_matches_the_reference() {
        let mut rng = StdRng::seed_from_u64(2024);
        let mut new_cache = bounds::BoundCache::default();
        let mut old_cache = BoundCache::default();
        let mut checked = 0u64;
        let mut filtered = 0u64;
        let mut values = [0u64; 12];
        random_lines(6, &mut rng, |pos, rng| {
            let left = pos.moves_left();
            let ours = pos.color_bb(pos.side_to_move());
            let mut passed = pos.clone();
            passed.pass_turn();
            for p in [pos, &passed] {
                for cap in [0, 1, 2, 3, 4, 5, 6, 7, 9, 12, left, left + 1] {
                    let want = lower_bound_with(p, cap, &mut old_cache);
                    assert_eq!(
                        bounds::lower_bound_with(p, cap, &mut new_cache),
                        want,
                        "{} cap {cap}",
                        fen::to_fen(p)
                    );
                    assert_eq!(bounds::lower_bound(p, cap), want);
                    values[(want as usize).min(11)] += 1;
                    checked += 1;
                }
            }
            for _ in 0..4 {
                let movable = match rng.random_range(0..4) {
                    0 => Bitboard::EMPTY,
                    1 => Bitboard::ALL,
                    _ => subset(rng, ours),
                };
                let recruits = rng.random_range(0..5);
                for cap in [left, left.saturating_sub(1), rng.random_range(0..10)] {
                    let want = lower_bound_movable(pos, cap, &mut old_cache, movable, recruits);
                    let got =
                        bounds::lower_bound_movable(pos, cap, &mut new_cache, movable, recruits);
                    assert_eq!(
                        got,
                        want,
                        "{} cap {cap} movable {:x} recruits {recruits}",
                        fen::to_fen(pos),
                        movable.0
                    );
                    checked += 1;
                }
            }
            let moves = legal_moves(pos);
            if moves.is_empty() || left <= 1 {
                return None;
            }
            if left == 2 {
                let old = LastTwo::new(pos);
                let new = bounds::LastTwo::new(pos);
                let cached = bounds::LastTwo::new_cached(pos, &mut new_cache);
                for &mv in moves.iter() {
                    let movable = match rng.random_range(0..3) {
                        0 => Bitboard::ALL,
                        1 => mv.to().bb(),
                        _ => subset(rng, ours),
                    };
                    let args = (
                        (mv.from(), mv.to()),
                        pos.role_after(mv),
                        mv.kind() == MoveKind::Castle,
                    );
                    let want = old.may_mate_after_movable(
                        pos,
                        &mut old_cache,
                        args.0,
                        args.1,
                        args.2,
                        movable,
                    );
                    for (filter, which) in [(&new, "new"), (&cached, "cached")] {
                        let (squares, role, castle) = args;
                        let cache = &mut new_cache;
                        let got = filter
                            .may_mate_after_movable(pos, cache, squares, role, castle, movable);
                        assert_eq!(got, want, "{} {mv:?} ({which})", fen::to_fen(pos));
                    }
                    filtered += u64::from(want);
                    checked += 1;
                }
            }
            // Mostly towards the enemy king, sometimes anywhere.
            Some(if rng.random_range(0..3) == 0 {
                moves.as_slice()[rng.random_range(0..moves.len())]
            } else {
                towards_enemy_king(pos, &moves, rng)
            })
        });
        eprintln!("{checked} checked, {filtered} passed the filter, values {values:?}");
        assert!(checked > 100_000 && filtered > 1000);
    }
}
