//! Reach tables: how many moves a piece needs, on the empty board, to stand
//! on a square or to attack one. Computed once, shared by every bound.

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Role, Square};

/// "Cannot": larger than any turn we search.
pub(super) const FAR: u8 = 100;

/// For each piece role (knight, bishop, rook, queen, king) and squares `from`,
/// `target`: the fewest moves on an empty board from `from` to a square that
/// attacks `target` (0 when `from` already attacks it).
pub(super) struct Reach {
    pub(super) table: [[[u8; 64]; 64]; 5],
    /// [`pawn_reach_uncached`] per colour, `from` and `target`.
    pub(super) pawn: [[[u8; 64]; 64]; 2],
    /// Per role and `from`: the squares at each distance below [`RINGS`].
    pub(super) rings: [[[Bitboard; RINGS]; 64]; 5],
}

/// Distances with a ring in [`Reach`] (the largest finite one is 7).
pub(super) const RINGS: usize = 8;

/// The roles with distance tables (the pawn's way has a table of its own).
const TABLED: [Role; 5] = [
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

pub(super) fn slot(role: Role) -> usize {
    role.index() - 1
}

pub(super) fn reach() -> &'static Reach {
    &REACH
}

/// Built at compile time: every process that asks for a mate reads it, and
/// building it at run time was a tenth of a millisecond of each
/// one-position `crescendo mate` (its 48 KB written, then mapped again).
static REACH: Reach = Reach::build();

impl Reach {
    const fn build() -> Reach {
        let mut r = Reach {
            table: [[[FAR; 64]; 64]; 5],
            pawn: [[[FAR; 64]; 64]; 2],
            rings: [[[Bitboard::EMPTY; RINGS]; 64]; 5],
        };
        let mut from = 0;
        while from < 64 {
            let mut target = 0;
            while target < 64 {
                let (f, t) = (Square(from as u8), Square(target as u8));
                r.pawn[0][from][target] = pawn_reach_uncached(Color::White, f, t);
                r.pawn[1][from][target] = pawn_reach_uncached(Color::Black, f, t);
                target += 1;
            }
            from += 1;
        }
        let mut k = 0;
        while k < TABLED.len() {
            let role = TABLED[k];
            let mut attacked = [0u64; 64];
            let mut s = 0;
            while s < 64 {
                attacked[s] = attacks::on_empty_board(Color::White, role, Square(s as u8)).0;
                s += 1;
            }
            let mut from = 0;
            while from < 64 {
                let table = &mut r.table[k][from];
                // Breadth-first on the empty board, a ring at a time. A
                // square first reached with `d` moves is attacked after
                // `d - 1` (the path's last step is an attack, and attacks
                // are symmetric for these roles on an empty board, so no
                // shorter way attacks it); `from` itself after one.
                let (mut seen, mut ring, mut d) = (1u64 << from, 1u64 << from, 0u8);
                while ring != 0 {
                    if (d as usize) < RINGS {
                        r.rings[k][from][d as usize] = Bitboard(ring);
                    }
                    let mut next = 0u64;
                    let mut rest = ring;
                    while rest != 0 {
                        next |= attacked[rest.trailing_zeros() as usize];
                        rest &= rest - 1;
                    }
                    if d == 0 && next != 0 {
                        table[from] = 1;
                    }
                    ring = next & !seen;
                    seen |= ring;
                    let mut rest = ring;
                    while rest != 0 {
                        table[rest.trailing_zeros() as usize] = d;
                        rest &= rest - 1;
                    }
                    d += 1;
                }
                from += 1;
            }
            k += 1;
        }
        r
    }
}

/// Fewest moves of our pawn on `from` to stand on `to` as a pawn: one rank
/// a move, a file change costs a capture, and one double step from the
/// second rank while going straight.
pub(super) const fn pawn_steps(us: Color, from: Square, to: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    let ranks = to.relative_rank(us) as i32 - rank;
    let files = (to.file() as i32 - from.file() as i32).abs();
    if ranks < 0 || files > ranks || to.relative_rank(us) == 7 {
        return FAR;
    }
    let straight = ranks - files;
    let double = (rank == 1 && straight >= 2) as i32;
    (ranks - double) as u8
}

/// Moves of our pawn on `from` up to and including its promotion.
pub(super) const fn promotion_steps(us: Color, from: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    (7 - rank - (rank == 1) as i32) as u8
}

/// Moves of our pawn on `from` up to and including its promotion on `to`
/// (a file change costs a capture).
pub(super) fn promotion_steps_to(us: Color, from: Square, to: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    let ranks = 7 - rank;
    let files = (to.file() as i32 - from.file() as i32).abs();
    if files > ranks || to.relative_rank(us) != 7 {
        return FAR;
    }
    let double = i32::from(rank == 1 && ranks - files >= 2);
    (ranks - double) as u8
}

/// Fewest moves of our pawn on `from` before it attacks `target`, as a pawn
/// or after promoting (a lower bound).
#[inline]
pub(super) fn pawn_reach(us: Color, from: Square, target: Square) -> u8 {
    reach().pawn[us.index()][from.index()][target.index()]
}

/// The fewest moves a `role` of `us` on `from` needs, on an empty board, to
/// stand on a square attacking `target` (0: it attacks it from where it
/// stands); pawns count promotions. A lower bound on any board, which the
/// raid search ([`crate::search::raid`]) bounds its captures with.
pub(crate) fn attack_distance(us: Color, role: Role, from: Square, target: Square) -> u32 {
    match role {
        Role::Pawn => u32::from(pawn_reach(us, from, target)),
        _ => u32::from(reach().table[slot(role)][from.index()][target.index()]),
    }
}

/// [`pawn_reach`] computed from the rules of pawn moves.
const fn pawn_reach_uncached(us: Color, from: Square, target: Square) -> u8 {
    // The squares from which our pawn attacks `target`: those an enemy
    // pawn on `target` would attack.
    let mut best = promotion_steps(us, from);
    let mut rest = attacks::on_empty_board(us.other(), Role::Pawn, target).0;
    while rest != 0 {
        let steps = pawn_steps(us, from, Square(rest.trailing_zeros() as u8));
        if steps < best {
            best = steps;
        }
        rest &= rest - 1;
    }
    best
}

/// Distances of 15 or more count as 15 (none that large is finite here;
/// counting one as smaller is still sound).
pub(super) const WITHIN: usize = 16;

/// Of one piece: `[k]` is the set of targets (bit `i`: `targets[i]`) it
/// attacks after at most `k` moves, on the empty board.
pub(super) type TargetsWithin = [u16; WITHIN];

/// [`TargetsWithin`] of our `role` on `from` for `targets` (the enemy
/// king's square first), with our castling `slack`.
pub(super) fn targets_within(
    us: Color,
    slack: u8,
    targets: &[Square],
    role: Role,
    from: Square,
) -> TargetsWithin {
    let r = reach();
    let mut within = [0u16; WITHIN];
    for (i, &t) in targets.iter().enumerate() {
        let d = match role {
            Role::Pawn => pawn_reach(us, from, t),
            // Our king never gives check.
            Role::King if i == 0 => FAR,
            // Castling moves the king two squares with one move.
            Role::King => r.table[slot(Role::King)][from.index()][t.index()].saturating_sub(slack),
            role => r.table[slot(role)][from.index()][t.index()],
        };
        if d >= FAR {
            continue;
        }
        for l in within[(d as usize).min(WITHIN - 1)..].iter_mut() {
            *l |= 1 << i;
        }
    }
    within
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables agree with their definitions: the breadth-first
    /// distances to stand on a square, and the least of them over the
    /// squares attacking the target.
    #[test]
    fn reach_tables_are_their_definitions() {
        let r = reach();
        for role in TABLED {
            for from in Square::all() {
                let mut dist = [FAR; 64];
                dist[from.index()] = 0;
                for d in 1..FAR {
                    let mut grew = false;
                    let ring: Vec<Square> =
                        Square::all().filter(|s| dist[s.index()] == d - 1).collect();
                    for s in ring {
                        for t in attacks::piece(role, s, Bitboard::EMPTY) {
                            if dist[t.index()] == FAR {
                                dist[t.index()] = d;
                                grew = true;
                            }
                        }
                    }
                    if !grew {
                        break;
                    }
                }
                for (d, ring) in r.rings[slot(role)][from.index()].iter().enumerate() {
                    let mut want = Bitboard::EMPTY;
                    for s in Square::all().filter(|s| usize::from(dist[s.index()]) == d) {
                        want.set(s);
                    }
                    assert_eq!(*ring, want, "{role:?} {from:?} ring {d}");
                }
                for target in Square::all() {
                    let best = attacks::piece(role, target, Bitboard::EMPTY)
                        .map(|s| dist[s.index()])
                        .min()
                        .unwrap_or(FAR);
                    assert_eq!(
                        r.table[slot(role)][from.index()][target.index()],
                        best,
                        "{role:?} {from:?} attacks {target:?}"
                    );
                }
            }
        }
    }

    /// The pawn table agrees with its definition over the run-time
    /// attack tables: the fewest steps to a square attacking the target,
    /// or to promotion.
    #[test]
    fn pawn_reach_table_is_its_definition() {
        for us in Color::BOTH {
            for from in Square::all() {
                for target in Square::all() {
                    let want = attacks::pawn(us.other(), target)
                        .map(|s| pawn_steps(us, from, s))
                        .min()
                        .unwrap_or(FAR)
                        .min(promotion_steps(us, from));
                    assert_eq!(
                        pawn_reach(us, from, target),
                        want,
                        "{us:?} {from:?} {target:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn knight_reach_table() {
        let r = reach();
        let a1 = Square(0);
        // A knight on a1 attacks c2 and b3 already.
        assert_eq!(r.table[slot(Role::Knight)][0][Square::new(2, 1).index()], 0);
        // From a1 to attack h8 (attackers g6, f7): a1-b3-c5-e6... needs 3.
        assert!(r.table[slot(Role::Knight)][a1.index()][63] >= 3);
        // A bishop never reaches a square attacking the other colour.
        assert_eq!(r.table[slot(Role::Bishop)][0][1], FAR);
    }

    #[test]
    fn pawn_reach_counts_ranks_files_and_promotion() {
        let e2 = Square::new(4, 1);
        // e2 pawn attacks d3/f3 now.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(3, 2)), 0);
        // To attack e5 it must reach d4 or f4: two moves (one capture), no double step.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(4, 4)), 2);
        // To attack f5 from e2: e4 (double step) covers f5: one move.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(5, 4)), 1);
        // Behind it: only by promotion (5 moves from e2 with the double step).
        assert_eq!(pawn_reach(Color::White, e2, Square::new(4, 0)), 5);
    }

    #[test]
    fn promotion_steps_count_the_double_step_and_captures() {
        // Straight with the double step, one capture, out of reach.
        let (e2, e7) = (Square::new(4, 1), Square::new(4, 6));
        assert_eq!(promotion_steps_to(Color::White, e2, Square::new(4, 7)), 5);
        assert_eq!(promotion_steps_to(Color::White, e7, Square::new(3, 7)), 1);
        assert_eq!(promotion_steps_to(Color::White, e7, Square::new(2, 7)), FAR);
        assert_eq!(promotion_steps_to(Color::Black, e2, Square::new(4, 0)), 1);
    }
}
