//! A simple static evaluation: material, mobility and pawn advance.
//!
//! A placeholder to be tuned by matches (issue 5 asks for terms built for
//! this game: the opponent's next, longer turn, series-mate danger, ...).

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Position, Role};

/// Piece values in centipawns, indexed by [`Role::index`] (king: 0).
pub const VALUES: [i32; 6] = [100, 300, 320, 500, 900, 0];

/// Centipawns per attacked square not occupied by an own piece, by role.
const MOBILITY: [i32; 6] = [0, 4, 4, 2, 1, 0];

/// The score of `pos` for the side to move, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    side_score(pos, us) - side_score(pos, us.other())
}

fn side_score(pos: &Position, color: Color) -> i32 {
    let occ = pos.occupied();
    let own = pos.color_bb(color);
    let mut score = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for sq in pos.pieces(color, role) {
            let reach: Bitboard = attacks::piece(role, sq, occ) & !own;
            score += VALUES[role.index()] + MOBILITY[role.index()] * reach.count() as i32;
        }
    }
    for sq in pos.pieces(color, Role::Pawn) {
        // Pawns near promotion matter more when whole turns can push them.
        let rank = sq.relative_rank(color) as i32;
        score += VALUES[Role::Pawn.index()] + rank * rank * 2;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    #[test]
    fn start_position_is_balanced_and_material_counts() {
        assert_eq!(evaluate(&Position::startpos(Rules::Italian)), 0);
        let up_a_rook = fen::parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Rules::Italian).unwrap();
        assert!(evaluate(&up_a_rook) > 400);
    }
}
