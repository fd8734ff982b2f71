//! Static evaluation built for Progressive chess, from the side to move's
//! point of view. The side to move has `m` moves left in its turn; then the
//! opponent gets a longer turn. The terms:
//!
//! - material, with long-range pieces worth a little more than in chess
//!   (long turns let them strike from afar);
//! - hanging material: what the opponent attacks and can take in its next,
//!   longer turn, less what the mover can still rescue with its moves left;
//! - king exposure: the mate finder's move-budget bound
//!   (`mate::bounds::lower_bound`) says how many moves the opponent
//!   needs at least to mate; a bound within its next turn is danger;
//! - passed pawns against the moves they need to promote (a free pawn that
//!   a whole turn can push home is almost a queen);
//! - a little mobility.

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Position, Role};
use crate::mate::bounds::lower_bound;

/// Piece values in centipawns, indexed by [`Role::index`] (king: 0).
pub const VALUES: [i32; 6] = [100, 300, 330, 500, 1000, 0];

/// Centipawns per attacked square not occupied by an own piece, by role.
const MOBILITY: [i32; 6] = [0, 3, 3, 2, 1, 0];

/// Per move of slack in the opponent's mate bound (its next turn length
/// minus the moves it needs at least), at most [`DANGER_CAP`].
const DANGER_PER_MOVE: i32 = 35;
const DANGER_CAP: i32 = 300;

/// Part of a hanging piece's value counted when the mover can still move it.
const RESCUED_PERCENT: i32 = 15;
/// Part of a hanging piece's value counted when it cannot be rescued.
const LOST_PERCENT: i32 = 70;

/// The score of `pos` for the side to move, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let next = pos.rules().next_turn_length(pos.turn_length());
    evaluate_static(pos) - danger(pos, next) + our_chances(pos, next + 1) / 2
}

/// [`evaluate`] without the two mate-bound terms (king exposure, our
/// chances): a tenth of the cost, for scoring thousands of turns.
pub fn evaluate_static(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let them = us.other();
    let left = pos.moves_left();
    let next = pos.rules().next_turn_length(pos.turn_length());
    side_score(pos, us, left) - side_score(pos, them, next) - hanging(pos, us, left)
}

/// Material, mobility and pawns of `color`, which has `moves` moves in its
/// coming (or current) turn.
fn side_score(pos: &Position, color: Color, moves: u32) -> i32 {
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let mut score = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in pos.pieces(color, role) {
            let reach: Bitboard = attacks::piece(role, sq, occ) & !own;
            score += VALUES[role.index()] + MOBILITY[role.index()] * reach.count() as i32;
        }
    }
    let their_pawns = pos.pieces(color.other(), Role::Pawn);
    for sq in pos.pieces(color, Role::Pawn) {
        let rank = sq.relative_rank(color) as i32;
        score += VALUES[Role::Pawn.index()] + rank * rank * 2;
        if is_passed(sq, color, their_pawns) {
            let steps = (7 - rank - i32::from(rank == 1)).max(1) as u32;
            let path_clear = front_span(sq, color) & occ == Bitboard::EMPTY;
            score += if path_clear && steps <= moves {
                // Promotes in this (or its next) turn unless stopped.
                (VALUES[Role::Queen.index()] - VALUES[Role::Pawn.index()]) * 3 / 5
            } else {
                20 + rank * rank * 6
            };
        }
    }
    score
}

/// The ranks beyond `sq` as a pawn of `color` sees them (towards its
/// promotion).
fn ranks_ahead(sq: crate::chess::Square, color: Color) -> Bitboard {
    let mut ahead = Bitboard::EMPTY;
    for r in 0..8u8 {
        let beyond = match color {
            Color::White => r > sq.rank(),
            Color::Black => r < sq.rank(),
        };
        if beyond {
            ahead |= Bitboard::rank(r);
        }
    }
    ahead
}

/// The squares in front of a pawn on its file.
fn front_span(sq: crate::chess::Square, color: Color) -> Bitboard {
    Bitboard::file(sq.file()) & ranks_ahead(sq, color)
}

fn is_passed(sq: crate::chess::Square, color: Color, their_pawns: Bitboard) -> bool {
    let f = sq.file();
    let mut files = Bitboard::file(f);
    if f > 0 {
        files |= Bitboard::file(f - 1);
    }
    if f < 7 {
        files |= Bitboard::file(f + 1);
    }
    (files & ranks_ahead(sq, color) & their_pawns).is_empty()
}

/// What the opponent can take in its next turn: each piece of `us` it
/// attacks (undefended, or by something cheaper) is a gain for it; `left`
/// moves of ours can rescue as many pieces, the most valuable first.
fn hanging(pos: &Position, us: Color, left: u32) -> i32 {
    let occ = pos.occupied();
    let mut gains: [i32; 16] = [0; 16];
    let mut n = 0;
    for (sq, role, attackers) in pos.attacked_pieces(us) {
        let value = VALUES[role.index()];
        let defended = pos.attackers(sq, us, occ).nonempty();
        let cheapest = attackers
            .into_iter()
            .filter_map(|a| pos.piece_at(a))
            .map(|p| {
                if p.role == Role::King {
                    2000
                } else {
                    VALUES[p.role.index()]
                }
            })
            .min()
            .unwrap_or(0);
        let gain = if !defended {
            value
        } else {
            (value - cheapest).max(0)
        };
        if gain > 0 && n < gains.len() {
            gains[n] = gain;
            n += 1;
        }
    }
    let gains = &mut gains[..n];
    gains.sort_unstable_by(|a, b| b.cmp(a));
    gains
        .iter()
        .enumerate()
        .map(|(i, &g)| {
            let pct = if (i as u32) < left {
                RESCUED_PERCENT
            } else {
                LOST_PERCENT
            };
            g * pct / 100
        })
        .sum()
}

/// How close the opponent is to a series-mate in its next turn of `next`
/// moves: the slack between its turn and the bound on the moves it needs.
fn danger(pos: &Position, next: u32) -> i32 {
    let mut passed = pos.clone();
    passed.pass_turn();
    let need = lower_bound(&passed, next);
    if need > next {
        return 0;
    }
    (DANGER_PER_MOVE * (1 + next - need) as i32).min(DANGER_CAP)
}

/// How close the side to move is to a series-mate in its next turn of
/// `moves` moves (the same measure as [`danger`], for the other side).
fn our_chances(pos: &Position, moves: u32) -> i32 {
    let need = lower_bound(pos, moves);
    if need > moves {
        return 0;
    }
    (DANGER_PER_MOVE * (1 + moves - need) as i32).min(DANGER_CAP)
}

/// Material only (pawns 1, knights 3, ...), for the greedy baseline.
pub fn material(pos: &Position, color: Color) -> i32 {
    [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
    ]
    .iter()
    .map(|&r| pos.pieces(color, r).count() as i32 * VALUES[r.index()])
    .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    #[test]
    fn start_position_is_close_to_balanced_and_material_counts() {
        let start = evaluate(&Position::startpos(Rules::Italian));
        assert!(start.abs() < 80, "{start}");
        let up_a_rook = fen::parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Rules::Italian).unwrap();
        assert!(evaluate(&up_a_rook) > 400);
    }

    #[test]
    fn a_hanging_queen_costs() {
        // White to move, last move of the turn; the queen on d4 is attacked
        // by the rook and cannot be saved by a move still to come.
        let safe = fen::parse("3rk3/8/8/8/8/8/8/Q3K3 w - - 0 3 2", Rules::Italian).unwrap();
        let hanging = fen::parse("3rk3/8/8/8/3Q4/8/8/4K3 w - - 0 3 2", Rules::Italian).unwrap();
        assert!(evaluate(&safe) > evaluate(&hanging) + 100);
    }

    #[test]
    fn a_free_passed_pawn_is_worth_a_lot() {
        let free = fen::parse("4k3/8/8/P7/8/8/8/4K3 w - - 0 5", Rules::Italian).unwrap();
        let blocked = fen::parse("4k3/8/n7/P7/8/8/8/4K3 w - - 0 5", Rules::Italian).unwrap();
        assert!(evaluate(&free) > evaluate(&blocked) + 300);
    }
}
