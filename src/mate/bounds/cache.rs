//! The position cache of the bounds: per target set met recently, each
//! piece's cover within each number of moves and its cover options, kept
//! between calls (a search meets few target sets, the evaluation many).

use super::cover::{MAX_FLAT, MAX_LAYERS};
use super::reach::{
    FAR, TargetsWithin, WITHIN, pawn_steps, promotion_steps_to, reach, slot, targets_within,
};
use super::targets::Key;
use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Role, Square};

/// The options of one piece for the target set of a cache entry: each a set
/// of targets (bit `i` is target `i`) it may cover from one end square, and
/// the fewest moves to get there; only options no other one dominates,
/// cheapest first.
pub(super) type Options = [(u16, u8)];

/// Per-searcher memory for [`lower_bound_with`](super::lower::lower_bound_with): the options of each piece
/// (role and square) for the target sets met recently. The enemy king does
/// not move during our turn and its flights change only by captures, so a
/// search meets few target sets; the evaluation meets many, so the entries
/// are found by a hash of the key (two ways per set, the least recently used
/// one replaced) and their memory is reused.
#[derive(Default)]
pub(crate) struct BoundCache {
    /// `WAYS * SETS` entries once used (allocated on demand).
    entries: Vec<Option<Box<CacheEntry>>>,
    /// Counts lookups, for the replacement.
    tick: u32,
    /// Counts the entries made (each gets its number).
    generation: u64,
    /// Working memory of [`min_cover_dp`](super::cover::min_cover_dp) and [`lower_bound_movable`](super::lower_bound_movable).
    scratch: Option<Box<Scratch>>,
}

/// Buffers reused from call to call (not cleared: each call writes what it
/// reads).
pub(super) struct Scratch {
    /// [`min_cover_dp`](super::cover::min_cover_dp)'s table per layer, indexed by target set.
    pub(super) dp: [[u8; 512]; MAX_LAYERS],
    /// The options gathered for [`min_cover`](super::cover::min_cover) (and room to copy a whole
    /// [`Restricted`] after the last).
    pub(super) flat: [(u16, u8); MAX_FLAT + RESTRICTED],
    /// Recently gathered options of one mover (see [`Restricted`]), found by
    /// a hash of what they depend on.
    pub(super) restricted: Box<[Restricted; RESTRICTED_SLOTS]>,
}

/// The options of one mover as [`lower_bound_movable`](super::lower_bound_movable) gathers them for
/// [`min_cover`](super::cover::min_cover): those within the budget, restricted to the targets still
/// needed, without the dominated ones. Siblings in the search differ in one
/// piece, so the others' lists are met again and again.
#[derive(Clone, Copy)]
pub(super) struct Restricted {
    /// The cache entry's generation (0: never used)...
    pub(super) generation: u64,
    /// ...and the role, square, needed targets and budget ([`Restricted::what`]).
    pub(super) what: u32,
    pub(super) len: u8,
    pub(super) options: [(u16, u8); RESTRICTED],
}

/// Room in a [`Restricted`] (longer lists are not kept).
pub(super) const RESTRICTED: usize = 15;
/// [`Restricted`] lists kept (a power of two).
pub(super) const RESTRICTED_SLOTS: usize = 1024;

impl Restricted {
    const EMPTY: Restricted = Restricted {
        generation: 0,
        what: 0,
        len: 0,
        options: [(0, 0); RESTRICTED],
    };

    #[inline]
    pub(super) fn what(role: Role, from: Square, need: u16, budget: u8) -> u32 {
        (role.index() as u32) << 28
            | (from.index() as u32) << 20
            | u32::from(need) << 4
            | u32::from(budget)
    }

    #[inline]
    pub(super) fn slot(generation: u64, what: u32) -> usize {
        let h = (generation as u32 ^ what.rotate_left(7)).wrapping_mul(0x9E37_79B9);
        (h >> (32 - RESTRICTED_SLOTS.trailing_zeros())) as usize
    }
}

pub(super) struct CacheEntry {
    key: Key,
    /// Which use of this memory (see [`BoundCache::generation`]).
    pub(super) generation: u64,
    /// The targets in bit order: the king's square, then the flights.
    targets: [Square; 9],
    count: usize,
    /// The tick of the last lookup.
    used: u32,
    /// Per role and square (bit `role * 64 + square`): are the options and
    /// the targets within computed?
    options_done: [u64; 6],
    within_done: [u64; 6],
    /// Per role and square: where its options are in `arena` (start, len).
    spans: [(u32, u32); 6 * 64],
    arena: Vec<(u16, u8)>,
    /// Per role and square: the targets the piece attacks within each
    /// number of moves, computed on first use (see [`CacheEntry::within`]).
    within: [TargetsWithin; 6 * 64],
    /// Per role (the pawn's: ours) and square: the targets a piece there
    /// attacks on the empty board; computed per role on first use.
    cover: [[u16; 64]; 6],
    /// Per role: the squares with a nonzero `cover`.
    cover_any: [Bitboard; 6],
    cover_done: u8,
    /// Per piece role (not the pawn): the end squares with the same cover,
    /// grouped (the cover and the squares), computed with `cover`.
    groups: [Vec<(u16, Bitboard)>; 6],
    /// For the queen and the knight, per group: the fewest moves from each
    /// square of our promotion rank to one of its squares; computed on first
    /// use (bit `role` of `promo_done`).
    promo_dist: [Vec<[u8; 8]>; 6],
    promo_done: u8,
    /// [`CacheEntry::compute_options`]'s working memory: the candidate
    /// options, and each target set's place among them (`u16::MAX`: none;
    /// restored after each use).
    raw: Vec<(u16, u8)>,
    place: Vec<u16>,
}

impl BoundCache {
    /// Sets of entries (a power of two), and entries per set.
    const SETS: usize = 32;
    const WAYS: usize = 2;

    /// The entry for `key` (with these targets), made if needed.
    /// [`BoundCache::entry_index`], first trying the entry at `hint` (where this
    /// key was found last time), and updating the hint.
    #[inline]
    pub(super) fn entry_hinted(
        &mut self,
        key: Key,
        targets: &[Square],
        hint: &std::cell::Cell<usize>,
    ) -> &mut CacheEntry {
        let i = hint.get();
        if let Some(Some(e)) = self.entries.get(i)
            && e.key == key
        {
            self.tick = self.tick.wrapping_add(1);
            let e = self.entries[i].as_mut().expect("entry made");
            e.used = self.tick;
            return e;
        }
        let i = self.entry_index(key, targets);
        hint.set(i);
        self.entries[i].as_mut().expect("entry made")
    }

    /// The index of the entry for `key`, first trying `hint` (where it was
    /// last time), which is updated.
    #[inline]
    pub(super) fn entry_index_hinted(
        &mut self,
        key: Key,
        targets: &[Square],
        hint: &mut usize,
    ) -> usize {
        let i = *hint;
        if let Some(Some(e)) = self.entries.get_mut(i)
            && e.key == key
        {
            self.tick = self.tick.wrapping_add(1);
            e.used = self.tick;
            return i;
        }
        *hint = self.entry_index(key, targets);
        *hint
    }

    pub(super) fn entry_index(&mut self, key: Key, targets: &[Square]) -> usize {
        if self.entries.is_empty() {
            self.entries.resize_with(Self::SETS * Self::WAYS, || None);
        }
        self.tick = self.tick.wrapping_add(1);
        // (The targets include the king's square.)
        let h = (key.squares.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (key.us.index() as u64) << 1
            ^ u64::from(key.castling_slack))
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let set = ((h >> 40) as usize & (Self::SETS - 1)) * Self::WAYS;
        // Replace an empty entry, else the least recently used.
        let mut victim = set;
        let mut empty = false;
        let mut oldest = 0;
        for i in set..set + Self::WAYS {
            match &mut self.entries[i] {
                Some(e) if e.key == key => {
                    e.used = self.tick;
                    return i;
                }
                Some(e) => {
                    let age = self.tick.wrapping_sub(e.used);
                    if !empty && age >= oldest {
                        oldest = age;
                        victim = i;
                    }
                }
                None => {
                    if !empty {
                        empty = true;
                        victim = i;
                    }
                }
            }
        }
        let slot = &mut self.entries[victim];
        let e = slot.get_or_insert_with(CacheEntry::boxed);
        e.reset(key, targets);
        self.generation += 1;
        e.generation = self.generation;
        e.used = self.tick;
        victim
    }

    /// The entry at `i` and the working memory.
    pub(super) fn entry_and_scratch(&mut self, i: usize) -> (&mut CacheEntry, &mut Scratch) {
        let scratch = self.scratch.get_or_insert_with(|| {
            Box::new(Scratch {
                dp: [[u8::MAX; 512]; MAX_LAYERS],
                flat: [(0, 0); MAX_FLAT + RESTRICTED],
                restricted: Box::new([Restricted::EMPTY; RESTRICTED_SLOTS]),
            })
        });
        (self.entries[i].as_mut().expect("entry made"), scratch)
    }
}

impl CacheEntry {
    fn boxed() -> Box<CacheEntry> {
        Box::new(CacheEntry {
            key: Key::NONE,
            generation: 0,
            targets: [Square(0); 9],
            count: 0,
            used: 0,
            options_done: [0; 6],
            within_done: [0; 6],
            spans: [(0, 0); 6 * 64],
            arena: Vec::new(),
            within: [[0; WITHIN]; 6 * 64],
            cover: [[0; 64]; 6],
            cover_any: [Bitboard::EMPTY; 6],
            cover_done: 0,
            groups: Default::default(),
            promo_dist: Default::default(),
            promo_done: 0,
            raw: Vec::new(),
            place: vec![u16::MAX; 512],
        })
    }

    /// Makes this the (empty) entry of `key`.
    fn reset(&mut self, key: Key, targets: &[Square]) {
        self.key = key;
        self.targets = [Square(0); 9];
        self.targets[..targets.len()].copy_from_slice(targets);
        self.count = targets.len();
        self.options_done = [0; 6];
        self.within_done = [0; 6];
        self.arena.clear();
        self.cover_done = 0;
        self.promo_done = 0;
    }

    /// The targets our `role` on `from` covers within each number of moves.
    #[inline]
    pub(super) fn within(&mut self, role: Role, from: Square) -> &TargetsWithin {
        let slot = role.index() * 64 + from.index();
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        if self.within_done[word] & bit == 0 {
            self.within[slot] = self.compute_within(role, from);
            self.within_done[word] |= bit;
        }
        &self.within[slot]
    }

    #[cold]
    #[inline(never)]
    fn compute_within(&self, role: Role, from: Square) -> TargetsWithin {
        let (us, slack) = (self.key.us, self.key.castling_slack);
        targets_within(us, slack, &self.targets[..self.count], role, from)
    }

    /// The targets a piece of `role` (the pawn: ours) attacks from each
    /// square on the empty board, and the squares where that is any.
    fn cover(&mut self, role: Role) -> (&[u16; 64], Bitboard) {
        let bit = 1u8 << role.index();
        if self.cover_done & bit == 0 {
            let us = self.key.us;
            let mut cover = [0u16; 64];
            let mut any = Bitboard::EMPTY;
            for (i, &t) in self.targets[..self.count].iter().enumerate() {
                // Attack sets are symmetric on an empty board (the pawn's
                // with the colours swapped).
                let from = match role {
                    Role::Pawn => attacks::pawn(us.other(), t),
                    role => attacks::piece(role, t, Bitboard::EMPTY),
                };
                any |= from;
                for sq in from {
                    cover[sq.index()] |= 1 << i;
                }
            }
            self.cover[role.index()] = cover;
            self.cover_any[role.index()] = any;
            self.cover_done |= bit;
            if role != Role::Pawn {
                // The end squares: not the enemy king's, nor (for our king)
                // next to it.
                let eksq = self.key.king;
                let mut squares = any & !eksq.bb();
                if role == Role::King {
                    squares &= !attacks::king(eksq);
                }
                let groups = &mut self.groups[role.index()];
                groups.clear();
                for sq in squares {
                    let m = cover[sq.index()];
                    match groups.iter_mut().find(|g| g.0 == m) {
                        Some(g) => g.1.set(sq),
                        None => groups.push((m, sq.bb())),
                    }
                }
            }
        }
        (&self.cover[role.index()], self.cover_any[role.index()])
    }

    /// Fills `promo_dist` for `role`.
    fn promotion_distances(&mut self, role: Role) {
        let bit = 1u8 << role.index();
        if self.promo_done & bit != 0 {
            return;
        }
        self.cover(role);
        let us = self.key.us;
        let rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
        let rings = &reach().rings[slot(role)];
        let dists = &mut self.promo_dist[role.index()];
        dists.clear();
        for &(_, squares) in &self.groups[role.index()] {
            let mut d = [FAR; 8];
            for (i, q) in rank.into_iter().enumerate() {
                if let Some(k) = rings[q.index()]
                    .iter()
                    .position(|&ring| (ring & squares).nonempty())
                {
                    d[i] = k as u8;
                }
            }
            dists.push(d);
        }
        self.promo_done |= bit;
    }

    #[inline]
    pub(super) fn options(&mut self, role: Role, from: Square) -> &Options {
        let slot = role.index() * 64 + from.index();
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        if self.options_done[word] & bit == 0 {
            self.add_options(role, from);
        }
        let (start, len) = self.spans[slot];
        &self.arena[start as usize..(start + len) as usize]
    }

    /// Computes the options of `role` on `from` into the arena.
    #[cold]
    #[inline(never)]
    fn add_options(&mut self, role: Role, from: Square) {
        let slot = role.index() * 64 + from.index();
        let start = self.arena.len();
        self.compute_options(role, from);
        self.spans[slot] = (start as u32, (self.arena.len() - start) as u32);
        self.options_done[slot / 64] |= 1u64 << (slot % 64);
    }

    /// Appends to the arena every end square from which the piece attacks
    /// some target (on the empty board) with the moves to get there, reduced
    /// to the options no other one dominates (covers a superset at no higher
    /// cost), cheapest first (in the order first met among equals).
    fn compute_options(&mut self, role: Role, from: Square) {
        let (eksq, us, slack) = (self.key.king, self.key.us, self.key.castling_slack);
        let r = reach();
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        let mut place = std::mem::take(&mut self.place);
        let mut add = |mask: u16, cost: u8| {
            if mask == 0 || cost >= FAR {
                return;
            }
            match place[mask as usize] {
                u16::MAX => {
                    place[mask as usize] = raw.len() as u16;
                    raw.push((mask, cost));
                }
                i => {
                    let o = &mut raw[i as usize];
                    o.1 = o.1.min(cost);
                }
            }
        };
        match role {
            Role::Pawn => {
                let (cover, squares) = self.cover(Role::Pawn);
                // Nothing of ours can end on the enemy king's square.
                for sq in squares & !eksq.bb() {
                    let cost = pawn_steps(us, from, sq);
                    if cost > 0 {
                        add(cover[sq.index()], cost);
                    }
                }
                // After promoting on `q`, the new piece (a queen covers all a
                // rook or bishop would, at no more moves) goes on from there:
                // per group of end squares with the same cover, the fewest
                // moves over the promotion squares. (Square by square, every
                // group is met first at the first promotion square within
                // reach, the queen's groups before the knight's, in the
                // groups' order: the options' order is the same.)
                let rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
                let mut promo = [FAR; 8];
                for (i, q) in rank.into_iter().enumerate() {
                    promo[i] = promotion_steps_to(us, from, q);
                }
                for role in [Role::Queen, Role::Knight] {
                    self.promotion_distances(role);
                    for (g, &(m, _)) in self.groups[role.index()].iter().enumerate() {
                        let to_group = &self.promo_dist[role.index()][g];
                        let cost = promo
                            .iter()
                            .zip(to_group)
                            .map(|(&p, &d)| p.saturating_add(d))
                            .min()
                            .unwrap_or(FAR);
                        add(m, cost);
                    }
                }
            }
            _ => {
                // Per group of end squares with the same cover: the fewest
                // moves to any of them (not counting `from` itself). (The
                // options come in another order than square by square among
                // equal costs; a piece has at most 63 options, fewer than
                // the room in [`min_cover_dp`](super::cover::min_cover_dp), so nothing depends on it.)
                self.cover(role);
                let rings = &r.rings[slot(role)][from.index()];
                for &(m, squares) in &self.groups[role.index()] {
                    let squares = squares & !from.bb();
                    if squares.is_empty() {
                        continue;
                    }
                    let Some(d) = rings[1..]
                        .iter()
                        .position(|&ring| (ring & squares).nonempty())
                    else {
                        continue;
                    };
                    let mut cost = d as u8 + 1;
                    if role == Role::King {
                        // Castling moves the king two squares with one move.
                        cost = cost.saturating_sub(slack);
                    }
                    add(m, cost);
                }
            }
        }
        for &(m, _) in &raw {
            place[m as usize] = u16::MAX;
        }
        self.place = place;
        // Cheapest first (the bound stops at the first over its budget),
        // among equal costs in the order met. An option is dominated by
        // another with a superset (the sets in `raw` are distinct) at no
        // higher cost; if that one is dominated too, so is it by the one
        // dominating that. So only the options kept at lower costs and the
        // options of the same cost need to be looked at.
        raw.sort_by_key(|o| o.1);
        let start = self.arena.len();
        let mut i = 0;
        while i < raw.len() {
            let c = raw[i].1;
            let j = i + raw[i..].iter().take_while(|o| o.1 == c).count();
            let kept = self.arena.len();
            for a in i..j {
                let m = raw[a].0;
                let dominated = self.arena[start..kept].iter().any(|o| o.0 & m == m)
                    || raw[i..j]
                        .iter()
                        .enumerate()
                        .any(|(b, o)| i + b != a && o.0 & m == m);
                if !dominated {
                    self.arena.push((m, c));
                }
            }
            i = j;
        }
        self.raw = raw;
    }
}
