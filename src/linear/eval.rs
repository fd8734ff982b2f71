//! Static evaluation, in centi-squares from the side to move's view.
//!
//! The final score counts squares, so the base is the token difference.
//! The rest guesses how that difference will change:
//! - mobility: empty squares a side can paint next turn (a side that can
//!   reach no empty square must pass while the other fills the board);
//! - safety of long lines: own tokens no opposing line reaches cannot be
//!   repainted next turn, and exposed ones can;
//! - parity: who is due to fill the last empty square (rule 11/12);
//! - tempo: the side to move paints first.

use super::position::Position;
use super::square::{Color, Direction, SquareSet};

/// One square, in evaluation units.
pub const SQUARE: i32 = 100;

const MOBILITY: i32 = 12;
const SAFE_TOKEN: i32 = 18;
const PARITY: i32 = 20;
const TEMPO: i32 = 40;

/// The position's value for the side to move, in centi-squares (100 per
/// square). Exact counts are left to the search once the game is over.
pub fn evaluate(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    let opp = me.other();
    let (own, theirs) = (pos.tokens(me), pos.tokens(opp));
    let material = (own.len() as i32 - theirs.len() as i32) * SQUARE;
    let (my_reach, their_reach) = (reach(pos, me), reach(pos, opp));
    let empty = pos.empty_squares();
    let mobility = (my_reach & empty).len() as i32 - (their_reach & empty).len() as i32;
    let safe = (own & !their_reach).len() as i32 - (theirs & !my_reach).len() as i32;
    material + MOBILITY * mobility + SAFE_TOKEN * safe + parity(pos, empty) + TEMPO
}

/// Squares (empty or the opponent's) some token move of `colour` could
/// paint, ignoring rules 7 and 8: every line from an own token through
/// squares that are neither own nor walls.
pub(crate) fn reach(pos: &Position, colour: Color) -> SquareSet {
    let blockers = pos.blocker_set();
    let own = pos.tokens(colour);
    let through = pos.board().usable() & !blockers & !own;
    let starts = own & !blockers;
    let mut reached = SquareSet::EMPTY;
    for dir in Direction::ALL {
        reached |= starts.slide(dir, through);
    }
    reached
}

/// If every turn filled one square, the side to move fills the last one
/// when an odd number is left; under rule 12 Black always has the last
/// word.
fn parity(pos: &Position, empty: SquareSet) -> i32 {
    let last_is_mine = if pos.options().equal_moves {
        pos.side_to_move() == Color::Black
    } else {
        empty.len() % 2 == 1
    };
    if last_is_mine { PARITY } else { -PARITY }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn evaluation_is_material_first() {
        let ahead = pos("#6#/8/8/2www3/8/8/4b3/#6# w e2 0 - -");
        let behind = pos("#6#/8/8/2www3/8/8/4b3/#6# b c5 0 - -");
        assert!(evaluate(&ahead) > SQUARE, "{}", evaluate(&ahead));
        assert!(evaluate(&behind) < -SQUARE, "{}", evaluate(&behind));
    }

    #[test]
    fn reach_stops_at_walls_and_own_tokens() {
        let p = pos("3b/4/4/w1w1 w d4 0 - -");
        let names: Vec<String> = reach(&p, Color::White)
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            names,
            [
                "b1", "d1", "a2", "b2", "c2", "d2", "a3", "c3", "a4", "c4", "d4"
            ]
            .map(String::from)
        );
    }
}
