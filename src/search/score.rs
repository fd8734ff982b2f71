//! Scores: the reported [`Score`] (centipawns, or mate counted in turns)
//! and the internal values behind it (`±(MATE - plies)` for mates, stored
//! in the table relative to the node).

use crate::chess::{Move, Position};

/// A score for a side that mates at ply 0; mates `n` plies away score `MATE - n`.
pub const MATE: i32 = 30_000;
pub(super) const INFINITY: i32 = 32_000;
/// Scores beyond this are mates.
pub(super) const MATE_BOUND: i32 = MATE - 1000;
/// A score for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many turns of the winner: `Mate(1)` mates in this turn,
    /// `Mate(-1)`: the opponent mates in its next turn.
    Mate(i32),
}

impl Default for Score {
    fn default() -> Score {
        Score::Cp(0)
    }
}

/// Mate scores are stored relative to the node, not the root.
pub(super) fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

pub(super) fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The reported score: centipawns, or mate counted in the winner's turns.
pub(super) fn to_score(score: i32, root: &Position, pv: &[Move]) -> Score {
    if score.abs() < MATE_BOUND {
        return Score::Cp(score);
    }
    let plies = (MATE - score.abs()) as usize;
    let turn_ends = turn_ends_within(root, pv, plies);
    if score > 0 {
        Score::Mate(turn_ends.div_ceil(2).max(1) as i32)
    } else {
        Score::Mate(-((turn_ends / 2).max(1) as i32))
    }
}

/// How many turns end in the first `plies` moves from `root`: counted on the
/// pv, then (past its end) assuming full-length turns.
fn turn_ends_within(root: &Position, pv: &[Move], plies: usize) -> usize {
    let mut pos = root.clone();
    let mut ends = 0;
    let mut played = 0;
    for &mv in pv.iter().take(plies) {
        ends += pos.play(mv).turn_ended as usize;
        played += 1;
    }
    let mut left_in_turn = pos.moves_left() as usize;
    let mut length = pos.turn_length();
    while played < plies {
        let step = left_in_turn.min(plies - played);
        played += step;
        if step == left_in_turn {
            ends += 1;
            length = pos.rules().next_turn_length(length);
            left_in_turn = length as usize;
        } else {
            left_in_turn -= step;
        }
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    #[test]
    fn mate_scores_count_turns() {
        let pos = Position::startpos(Rules::Italian);
        assert_eq!(turn_ends_within(&pos, &[], 1), 1);
        assert_eq!(turn_ends_within(&pos, &[], 3), 2);
        assert_eq!(to_score(MATE - 1, &pos, &[]), Score::Mate(1));
        assert_eq!(to_score(MATE - 6, &pos, &[]), Score::Mate(2));
        assert_eq!(to_score(-(MATE - 3), &pos, &[]), Score::Mate(-1));
    }
}
