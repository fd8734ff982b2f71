//! Incremental child bounds: [`ChildBounds`] gives the children of one node
//! the value of [`lower_bound_movable`](super::lower_bound_movable) from what they share with it.

use super::cache::{BoundCache, CacheEntry, RESTRICTED, RESTRICTED_SLOTS, Restricted};
use super::cover::{Cover, DFS_BUDGET, MAX_FLAT, Recruits, add_who, coverable, gather, min_cover};
use super::lower::MAX_MOVERS;
use super::reach::{FAR, WITHIN};
use super::targets::{
    Targets, castling_bits, castling_slack, excusing_sliders, opponent_may_check_at_once,
};
use crate::chess::attacks;
use crate::chess::{Bitboard, Move, MoveKind, Position, Role, Square};

/// [`lower_bound_movable`](super::lower_bound_movable) for the children of one node, which differ from
/// it in one moved piece. What they share is prepared once, on the first
/// child asked about: the targets, the cache entry, each of our pieces'
/// cover now and within the cap, and the cover problem of the pieces as they
/// stand (their options and per-target masks for [`min_cover`]). A child
/// then costs its moved piece's levels and options, a pass over the kept
/// pieces and the cover search, where the moved piece's old options are
/// taken as used.
///
/// The values are those of [`lower_bound_movable`](super::lower_bound_movable) on the child: a move
/// that is not castling or en passant, captures nothing next to the enemy
/// king nor an enemy slider on its lines, moves our king only when no such
/// slider could excuse a flight, and leaves our castling slack as it was
/// keeps the targets (the enemy king's open neighbours), the excused
/// flights and the cache key; the other pieces keep their squares, so their
/// levels and options are the parent's. The prepared options are restricted
/// to the targets not covered now by two pieces (a superset of every child's
/// needed targets, since one moved piece uncovers only what it alone
/// covered): the cover search's value is the same with options that cover
/// more than needed, and does not depend on the order of the movers (the
/// moved piece comes first here). Other moves, more than [`MAX_MOVERS`]
/// pieces and budgets beyond [`DFS_BUDGET`] take [`lower_bound_movable`](super::lower_bound_movable)
/// itself.
pub(crate) struct ChildBounds {
    /// Prepared (for the node since the last [`ChildBounds::reset`])?
    ready: bool,
    /// May children take the prepared way?
    fast: bool,
    cap: u32,
    /// The targets (and their cache key).
    targets: Targets,
    full: u16,
    level: usize,
    budget: u8,
    castling_slack: u32,
    /// Our castling rights' bits.
    rights: u8,
    /// Squares where a capture changes the targets (next to the enemy king)
    /// or the excused flights (an enemy slider they look at).
    unsettled: Bitboard,
    /// Do the excused flights stay when our king moves (none are looked
    /// for, or no enemy slider could excuse one)?
    king_settled: bool,
    /// Where the cache entry was found last.
    hint: usize,
    /// Our pieces.
    pieces: [OurPiece; MAX_MOVERS as usize],
    len: usize,
    /// Pieces with a mover index (the moved piece gets the next one).
    movers: usize,
    /// Per square: the index in `pieces` of our piece there.
    at: [u8; 64],
    ours: Bitboard,
    /// The mover indices in use.
    all_movers: u32,
    /// The targets our pieces cover now, and within the cap: by at least
    /// one and by at least two of them.
    once_now: u16,
    twice_now: u16,
    once_upto: u16,
    twice_upto: u16,
    /// The movers' options (see [`Prepared`]), made on the first child
    /// that needs a cover search.
    prepared: Option<Box<Prepared>>,
    prepared_ok: bool,
}

/// One of our pieces as [`ChildBounds`] prepared it.
#[derive(Clone, Copy)]
struct OurPiece {
    square: Square,
    role: Role,
    /// The targets it covers now, and within the cap.
    now: u16,
    upto: u16,
    /// Its mover index ([`NOT_MOVER`]: none; it covers nothing more within
    /// the cap than it does now).
    mover: u8,
}

impl OurPiece {
    const NONE: OurPiece = OurPiece {
        square: Square(0),
        role: Role::Pawn,
        now: 0,
        upto: 0,
        mover: NOT_MOVER,
    };
}

/// "Not a mover" in [`OurPiece::mover`].
const NOT_MOVER: u8 = u8::MAX;

/// The cover problem of a node's children without the moved piece: every
/// mover's options (`flat`, `starts`) and the per-cost target masks (`who`,
/// prefixed over costs).
struct Prepared {
    /// More options than `flat` holds: the children take the full way.
    overflow: bool,
    /// The movers' options end here; a child appends its moved piece's.
    n: usize,
    flat: [(u16, u8); FRONT + MAX_FLAT + RESTRICTED],
    starts: [u16; MAX_MOVERS as usize + 2],
    who: [[u32; 9]; DFS_BUDGET as usize + 1],
}

/// Room before the movers' options in [`Prepared::flat`] for the moved
/// piece's, which come first (mover 0): the cover search tries the pieces in
/// their order, and the moved piece is the likeliest to be in a cheap cover.
const FRONT: usize = 64;

impl Default for ChildBounds {
    fn default() -> ChildBounds {
        ChildBounds {
            ready: false,
            fast: false,
            cap: 0,
            targets: Targets::NONE,
            full: 0,
            level: 0,
            budget: 0,
            castling_slack: 0,
            rights: 0,
            unsettled: Bitboard::ALL,
            king_settled: false,
            hint: usize::MAX,
            pieces: [OurPiece::NONE; MAX_MOVERS as usize],
            len: 0,
            movers: 0,
            at: [0; 64],
            ours: Bitboard::EMPTY,
            all_movers: 0,
            once_now: 0,
            twice_now: 0,
            once_upto: 0,
            twice_upto: 0,
            prepared: None,
            prepared_ok: false,
        }
    }
}

impl ChildBounds {
    /// Forgets the node prepared for: the next child asked about belongs to
    /// a new one.
    #[inline]
    pub(crate) fn reset(&mut self) {
        self.ready = false;
    }

    /// [`lower_bound_movable`](super::lower_bound_movable)`(child, cap, cache, movable, recruits)`, where
    /// `child` is `parent` after `mv`, with the turn not ended (the same
    /// side still to move). Every child asked about between two
    /// [`ChildBounds::reset`]s must come from the same `parent`. (The finder
    /// takes [`ChildBounds::bound_from_parent`]; the tests compare this.)
    #[cfg(test)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn bound(
        &mut self,
        parent: &Position,
        child: &Position,
        mv: Move,
        cap: u32,
        cache: &mut BoundCache,
        movable: Bitboard,
        recruits: u32,
    ) -> u32 {
        self.bound_from_parent(parent, mv, cap, cache, movable, recruits)
            .unwrap_or_else(|| super::lower_bound_movable(child, cap, cache, movable, recruits))
    }

    /// `ChildBounds::bound` without the child: `None` when it takes
    /// [`lower_bound_movable`](super::lower_bound_movable) on the child (see the type's text).
    pub(crate) fn bound_from_parent(
        &mut self,
        parent: &Position,
        mv: Move,
        cap: u32,
        cache: &mut BoundCache,
        movable: Bitboard,
        recruits: u32,
    ) -> Option<u32> {
        let (from, to) = (mv.from(), mv.to());
        let role = match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => parent.piece_at(from).map(|p| p.role),
            MoveKind::Promotion(role) => Some(role),
            MoveKind::Castle | MoveKind::EnPassant => None,
        };
        if !self.ready || self.cap != cap {
            self.prepare(parent, cap, cache);
        }
        if !self.fast
            || role? == Role::King && !self.king_settled
            || self.unsettled.contains(to) && parent.piece_at(to).is_some()
            || u32::from(parent.castling_after(mv) & self.rights != 0) != self.castling_slack
        {
            return None;
        }
        let role = role?;
        let index =
            cache.entry_index_hinted(self.targets.key, self.targets.as_slice(), &mut self.hint);
        let (entry, scratch) = cache.entry_and_scratch(index);
        // The moved piece on `to`, then the others as the parent has them.
        let l = entry.within(role, to);
        let moved_now = l[0];
        let moved_fixed = !movable.contains(to);
        let moved_later = if !moved_fixed || recruits > 0 {
            l[self.level] & !moved_now
        } else {
            0
        };
        // The others' cover: a target is still covered now (or within the
        // cap) without the moved piece if two pieces cover it or one other
        // than it.
        let piece = self.at[from.index()] as usize;
        let OurPiece {
            now: old_now,
            upto: old_upto,
            mover: old_mover,
            ..
        } = self.pieces[piece];
        let old_bit = if old_mover == NOT_MOVER {
            0
        } else {
            1u32 << old_mover
        };
        let free = moved_now | self.twice_now | (self.once_now & !old_now);
        let others_now = self.twice_now | (self.once_now & !old_now);
        // The movers kept (bits of mover indices), and those that would be
        // recruits.
        let (reachable, keep, mut new_mask): (u16, u32, u32);
        if movable == Bitboard::ALL || recruits > 0 {
            // Every other piece may move.
            reachable = moved_now | moved_later | self.twice_upto | (self.once_upto & !old_upto);
            keep = self.all_movers & !old_bit;
            new_mask = 0;
            if movable != Bitboard::ALL {
                for sq in self.ours & !movable & !from.bb() {
                    let mover = self.pieces[self.at[sq.index()] as usize].mover;
                    if mover != NOT_MOVER {
                        new_mask |= 1 << mover;
                    }
                }
            }
        } else {
            // Only the other pieces on `movable` may move.
            let mut r = moved_now | moved_later | others_now;
            let mut k = 0u32;
            for sq in self.ours & movable & !from.bb() {
                let other = self.pieces[self.at[sq.index()] as usize];
                r |= other.upto;
                if other.mover != NOT_MOVER {
                    k |= 1 << other.mover;
                }
            }
            reachable = r;
            keep = k;
            new_mask = 0;
        }
        if reachable != self.full {
            return Some(cap + 1);
        }
        let moved = self.movers;
        // (Mover indices in the cover problem: the moved piece 0, the others
        // one up.)
        new_mask <<= 1;
        if moved_later != 0 && moved_fixed {
            new_mask |= 1;
        }
        let limit = Recruits::limit(new_mask, recruits);
        let need = self.full & !free;
        if need == 0 {
            return Some(0);
        }
        let budget = self.budget;
        if !self.prepared_ok {
            self.prepared_ok = true;
            self.build(entry, &mut scratch.restricted);
        }
        let prep = self.prepared.as_deref_mut().filter(|p| !p.overflow)?;
        // The movers not kept (the moved piece's old self among them) count
        // as used from the start: the search never takes them, and they are
        // no recruits. The moved piece is mover 0, the others follow.
        let used = !(keep << 1) & ((2 << moved) - 2);
        let mut who = prep.who;
        let mut start = FRONT;
        if moved_later != 0 {
            // (More options than the room in front: the full way.)
            let end = gather(
                entry,
                &mut scratch.restricted,
                &mut scratch.flat,
                0,
                (role, to),
                need,
                budget,
            )
            .filter(|&end| end <= FRONT)?;
            start = FRONT - end;
            prep.flat[start..FRONT].copy_from_slice(&scratch.flat[..end]);
            // (Cheapest first: a target counts from the least cost
            // covering it on.)
            let mut seen = 0u16;
            for &(m, c) in &scratch.flat[..end] {
                let mut bits = m & !seen;
                seen |= m;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    for row in &mut who[c as usize..=budget as usize] {
                        row[i] |= 1;
                    }
                    bits &= bits - 1;
                }
            }
        }
        prep.starts[0] = start as u16;
        let problem = Cover {
            flat: &prep.flat[..prep.n],
            starts: &prep.starts[..=moved + 1],
            who: &who,
            limit,
        };
        let best = if coverable(&who[budget as usize], need, !used & limit.free(used)) {
            min_cover(&problem, need, used, budget)
        } else {
            FAR
        };
        Some(if best > budget {
            cap + 1
        } else {
            (best as u32).saturating_sub(self.castling_slack)
        })
    }

    /// Gathers the movers' options, restricted to the targets not covered
    /// now by two of our pieces.
    #[cold]
    #[inline(never)]
    fn build(&mut self, entry: &mut CacheEntry, restricted: &mut [Restricted; RESTRICTED_SLOTS]) {
        let prep = self.prepared.get_or_insert_with(|| {
            Box::new(Prepared {
                overflow: false,
                n: 0,
                flat: [(0, 0); FRONT + MAX_FLAT + RESTRICTED],
                starts: [0; MAX_MOVERS as usize + 2],
                who: [[0; 9]; DFS_BUDGET as usize + 1],
            })
        });
        let (mut once, mut twice) = (0u16, 0u16);
        for p in &self.pieces[..self.len] {
            twice |= once & p.now;
            once |= p.now;
        }
        let wanted = self.full & !twice;
        prep.overflow = false;
        prep.who = [[0; 9]; DFS_BUDGET as usize + 1];
        let mut n = 0;
        let (_, flat) = prep.flat.split_at_mut(FRONT);
        let flat: &mut [(u16, u8); MAX_FLAT + RESTRICTED] = flat.try_into().expect("sizes");
        for p in &self.pieces[..self.len] {
            if p.mover == NOT_MOVER {
                continue;
            }
            prep.starts[p.mover as usize + 1] = (FRONT + n) as u16;
            match gather(
                entry,
                restricted,
                flat,
                n,
                (p.role, p.square),
                wanted,
                self.budget,
            ) {
                Some(end) => {
                    add_who(&mut prep.who, &flat[n..end], p.mover as usize + 1);
                    n = end;
                }
                None => {
                    prep.overflow = true;
                    return;
                }
            }
        }
        prep.starts[self.movers + 1] = (FRONT + n) as u16;
        prep.n = FRONT + n;
        for b in 1..=self.budget as usize {
            let (lower, this) = prep.who.split_at_mut(b);
            for (w, &l) in this[0].iter_mut().zip(&lower[b - 1]) {
                *w |= l;
            }
        }
    }

    /// Prepares for the children of `pos` with `cap` moves left to them.
    #[cold]
    #[inline(never)]
    fn prepare(&mut self, pos: &Position, cap: u32, cache: &mut BoundCache) {
        self.ready = true;
        self.cap = cap;
        self.fast = false;
        self.prepared_ok = false;
        let us = pos.side_to_move();
        self.rights = castling_bits(us);
        self.castling_slack = u32::from(castling_slack(pos, us));
        let budget = (cap + self.castling_slack).min(FAR as u32 - 1) as u8;
        if pos.color_bb(us).count() > MAX_MOVERS || budget > DFS_BUDGET {
            return;
        }
        self.fast = true;
        self.budget = budget;
        // (As in `lower_bound_movable`.)
        self.targets = Targets::of(pos, cap);
        let eksq = self.targets.key.king;
        self.unsettled = attacks::king(eksq);
        self.king_settled = true;
        if !opponent_may_check_at_once(pos) {
            let sliders = excusing_sliders(pos, us, eksq);
            self.unsettled |= sliders;
            self.king_settled = sliders.is_empty();
        }
        self.full = self.targets.full();
        self.level = (cap as usize).min(WITHIN - 1);
        let index =
            cache.entry_index_hinted(self.targets.key, self.targets.as_slice(), &mut self.hint);
        let (entry, _) = cache.entry_and_scratch(index);
        self.len = 0;
        self.movers = 0;
        self.ours = pos.color_bb(us);
        (
            self.once_now,
            self.twice_now,
            self.once_upto,
            self.twice_upto,
        ) = (0, 0, 0, 0);
        for from in pos.color_bb(us) {
            let Some(piece) = pos.piece_at(from) else {
                continue;
            };
            let l = entry.within(piece.role, from);
            let (now, upto) = (l[0], l[self.level]);
            let mover = if upto & !now != 0 {
                self.movers += 1;
                (self.movers - 1) as u8
            } else {
                NOT_MOVER
            };
            self.pieces[self.len] = OurPiece {
                square: from,
                role: piece.role,
                now,
                upto,
                mover,
            };
            self.at[from.index()] = self.len as u8;
            self.len += 1;
            self.twice_now |= self.once_now & now;
            self.once_now |= now;
            self.twice_upto |= self.once_upto & upto;
            self.once_upto |= upto;
        }
        self.all_movers = (1 << self.movers) - 1;
    }
}
