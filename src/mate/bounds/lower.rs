//! The lower bound of one position: the fewest moves the side to move
//! needs to mate (see the module text of [`super`]), as a cover problem
//! handed to [`super::cover`].

use super::cache::BoundCache;
use super::cover::{
    Cover, DFS_BUDGET, Recruits, add_who, coverable, gather, min_cover, min_cover_dp,
};
use super::reach::FAR;
use super::reach::WITHIN;
use super::targets::Targets;
use crate::chess::{Bitboard, Position, Role, Square};

/// Can the side to move possibly mate within `moves` moves? `false` is a
/// proof that it cannot; `true` means only that this bound does not exclude it.
pub(crate) fn may_mate(pos: &Position, moves: u32) -> bool {
    lower_bound(pos, moves) <= moves
}

/// A lower bound on the moves needed to mate (see the module text); values
/// above `cap` are reported as `cap + 1`. Uses a cache per thread: the
/// evaluation asks this of every position it scores, and a fresh cache each
/// time cost four fifths of its time.
pub(crate) fn lower_bound(pos: &Position, cap: u32) -> u32 {
    thread_local! {
        static CACHE: std::cell::RefCell<BoundCache> = std::cell::RefCell::default();
    }
    CACHE.with(|cache| match cache.try_borrow_mut() {
        Ok(mut cache) => lower_bound_with(pos, cap, &mut cache),
        // (Never re-entered today; a fresh cache keeps it correct if it is.)
        Err(_) => lower_bound_with(pos, cap, &mut BoundCache::default()),
    })
}

/// [`lower_bound`] with a cache of piece options kept between calls.
pub(crate) fn lower_bound_with(pos: &Position, cap: u32, cache: &mut BoundCache) -> u32 {
    lower_bound_movable(pos, cap, cache, Bitboard::ALL, 0)
}

/// Pieces of one side the cover search can hold.
pub(super) const MAX_MOVERS: u32 = 16;

/// [`lower_bound_with`] when only our pieces on `movable` and at most
/// `recruits` others may move (the pieces that do not move cover only what
/// they attack now).
pub(crate) fn lower_bound_movable(
    pos: &Position,
    cap: u32,
    cache: &mut BoundCache,
    movable: Bitboard,
    recruits: u32,
) -> u32 {
    let us = pos.side_to_move();
    if pos.color_bb(us).count() > MAX_MOVERS {
        // More pieces than a game can have (a FEN may set up 17): the
        // arrays below hold 16 movers, and 1 is a sound bound.
        return 1;
    }
    // Targets: bit 0 is the king's square, then the open flights.
    let targets = Targets::of(pos, cap);
    let (count, full) = (targets.count, targets.full());

    // For each piece: the targets it covers now and within the budget.
    let castling_slack = u32::from(targets.key.castling_slack);
    let index = cache.entry_index(targets.key, targets.as_slice());
    let (entry, scratch) = cache.entry_and_scratch(index);
    let level = (cap as usize).min(WITHIN - 1);
    let mut movers = [(Square(0), Role::Pawn); 16];
    let mut pieces = 0;
    let mut free: u16 = 0;
    let mut reachable: u16 = 0;
    // Movers that would be recruits (bit per mover index).
    let mut new_mask: u32 = 0;
    for from in pos.color_bb(us) {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let l = entry.within(piece.role, from);
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
            pieces += 1;
        }
    }
    if reachable != full {
        return cap + 1;
    }
    let limit = Recruits::limit(new_mask, recruits);
    let need = full & !free;
    if need == 0 {
        return 0;
    }
    // Castling moves king and rook with one move, so the per-piece counts may
    // exceed the moves made by one.
    let budget = (cap + castling_slack).min(FAR as u32 - 1) as u8;
    // Each piece ends on one square and covers what it attacks from there
    // (on an empty board): its options are (targets covered, moves to get
    // there). The answer is the minimum total cost over one option per
    // piece covering every target still needed.
    let best = if budget <= DFS_BUDGET {
        // (Kept from call to call: only the first `n` are read.)
        let flat = &mut scratch.flat;
        let mut starts = [0u16; 17];
        // Per budget and target: the movers with an option covering it
        // within that budget.
        let mut who = [[0u32; 9]; DFS_BUDGET as usize + 1];
        let mut n = 0;
        let mut overflow = false;
        for (p, &(from, role)) in movers[..pieces].iter().enumerate() {
            starts[p] = n as u16;
            match gather(
                entry,
                &mut scratch.restricted,
                flat,
                n,
                (role, from),
                need,
                budget,
            ) {
                Some(end) => {
                    add_who(&mut who, &flat[n..end], p);
                    n = end;
                }
                None => {
                    overflow = true;
                    break;
                }
            }
        }
        starts[pieces] = n as u16;
        if overflow {
            min_cover_dp(entry, &mut scratch.dp, movers, pieces, need, budget, limit)
        } else {
            for b in 1..=budget as usize {
                let (lower, this) = who.split_at_mut(b);
                for (w, &l) in this[0][..count].iter_mut().zip(&lower[b - 1][..count]) {
                    *w |= l;
                }
            }
            let problem = Cover {
                flat: &flat[..n],
                starts: &starts[..=pieces],
                who: &who,
                limit,
            };
            if coverable(&who[budget as usize], need, limit.free(0)) {
                min_cover(&problem, need, 0, budget)
            } else {
                FAR
            }
        }
    } else {
        min_cover_dp(entry, &mut scratch.dp, movers, pieces, need, budget, limit)
    };
    if best > budget {
        cap + 1
    } else {
        (best as u32).saturating_sub(castling_slack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    fn pos(f: &str) -> Position {
        fen::parse(f, Rules::Italian).expect("test FEN")
    }

    #[test]
    fn seventeen_pieces_of_one_side_get_a_sound_bound() {
        // Janko-Guid 22 has 17 black pieces; with Black to move and a large
        // budget every piece could move (the cover search holds 16).
        let pos = pos("rn1qkbnr/ppp2ppp/2n5/1B2p3/3Pp3/2N5/PPP2PPP/R1BbK1NR b KQkq - 0 6");
        assert_eq!(lower_bound(&pos, 20), 1);
    }

    #[test]
    fn lone_rook_cannot_mate_a_king_in_the_middle() {
        // K+R against a king on g2: eight flights and the check, no way.
        let p = pos("k7/2r5/8/8/8/8/6K1/8 b - - 0 12");
        assert!(!may_mate(&p, 12));
    }

    #[test]
    fn back_rank_mate_is_not_excluded() {
        // Ra1-a8 mates at once.
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(may_mate(&p, 1));
        assert_eq!(lower_bound(&p, 5), 1);
    }

    #[test]
    fn far_pieces_cannot_help_in_time() {
        // Knight on a1 needs several moves to cover anything near h8; with the
        // king free on h8's flights only the knight and king are there.
        let p = pos("7k/8/8/8/8/8/8/N3K3 w - - 0 2");
        assert!(!may_mate(&p, 2));
    }

    #[test]
    fn promotion_then_the_new_piece_counts_its_own_moves() {
        // e8=Q mates at once (the queen covers f7 and f8, the king g7 and h7).
        let p = pos("6k1/4P3/6K1/8/8/8/8/8 w - - 0 1");
        assert_eq!(lower_bound(&p, 3), 1);
    }

    #[test]
    fn italian_discovery_excuses_flights() {
        // The black king on e5 stands between its rook on e8 and the e-file
        // below: if our king stands on e1, a king step off the file would
        // uncover check and is not allowed as the first move. Our queen can
        // check from d4-ish; the bound must not count the excused flights.
        let it = pos("4r3/8/8/4k3/8/8/8/3QK3 w - - 0 3");
        let sc = fen::parse("4r3/8/8/4k3/8/8/8/3QK3 w - - 0 3", Rules::Scottish).unwrap();
        assert!(lower_bound(&it, 3) <= lower_bound(&sc, 3));
    }
}
