//! Accepting a solve: any move order of the solution, and any other
//! sequence that mates (the player found a mate; lichess too accepts any
//! mate in one).

use super::unique::final_key;
use crate::chess::{Move, Position};
use crate::mate::is_mating_line;

/// The verdict on a player's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solve {
    /// The solution, in its own or another move order.
    Solution,
    /// Another sequence that mates: solved too.
    OtherMate,
    /// Not a mate (illegal, too short or too long, or no mate at the end).
    Wrong,
}

impl Solve {
    /// Does the attempt count as solved?
    pub fn solved(self) -> bool {
        self != Solve::Wrong
    }
}

/// Judges `attempt` in `pos` against `solution` (the rules core decides
/// what mates).
pub fn judge(pos: &Position, solution: &[Move], attempt: &[Move]) -> Solve {
    if !is_mating_line(pos, attempt) {
        Solve::Wrong
    } else if final_key(pos, attempt) == final_key(pos, solution) {
        Solve::Solution
    } else {
        Solve::OtherMate
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;
    use crate::chess::{Rules, fen};

    fn line(pos: &Position, moves: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        moves
            .iter()
            .map(|m| {
                let mv = parse_uci(&p, m).unwrap();
                p.play(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn any_order_and_any_other_mate_is_solved() {
        let pos = fen::parse("k7/pp6/8/8/8/8/8/R3K3 w - - 0 4", Rules::Italian).unwrap();
        let solution = line(&pos, &["e1d2", "d2e3", "a1d1", "d1d8"]);
        let reordered = line(&pos, &["a1d1", "e1d2", "d2e3", "d1d8"]);
        let other = line(&pos, &["e1f2", "f2g3", "a1d1", "d1d8"]);
        let wrong = line(&pos, &["e1f2", "f2g3", "a1d1", "d1d7"]);
        assert_eq!(judge(&pos, &solution, &reordered), Solve::Solution);
        assert_eq!(judge(&pos, &solution, &other), Solve::OtherMate);
        assert_eq!(judge(&pos, &solution, &wrong), Solve::Wrong);
        assert_eq!(judge(&pos, &solution, &solution[..3]), Solve::Wrong);
        assert!(Solve::OtherMate.solved() && !Solve::Wrong.solved());
    }
}
