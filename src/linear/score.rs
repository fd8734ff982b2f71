//! Scores: the reported [`Score`] (an estimate, or a proven result) and
//! the internal values behind it. Inside the search a score is in
//! centi-squares for the side to move; a finished game scores `WIN + 100 *
//! margin` (negated for a loss, 0 for a draw), so any proven win beats any
//! evaluation and bigger wins beat smaller ones.

use super::eval::{SQUARE, evaluate};
use super::position::{GameResult, Position, Status};
use super::square::Color;

/// Base of a finished game's score.
pub(super) const WIN: i32 = 1_000_000;
/// Above every score.
pub(super) const INF: i32 = 2 * WIN;
/// A search score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An estimate in centi-squares (100 = one square) for the side to move.
    Eval(i32),
    /// A proven result: the final square difference for the side to move
    /// (> 0 win, 0 draw, < 0 loss). Exact when the search solved the
    /// position ([`SearchResult::solved`]); otherwise a forced win or loss
    /// was found and the margin is that of the line found.
    Proven(i32),
}

impl Score {
    /// The protocol's score text: `cp <centi-squares>`, or for a proven
    /// result `mate <N>` (win) or `mate -<N>` (loss), N being the side to
    /// move's turns in a principal variation of `pv_len` turns; a proven
    /// draw is `cp 0`.
    pub fn uci(self, pv_len: usize) -> String {
        let own_turns = pv_len.div_ceil(2).max(1);
        match self {
            Score::Eval(cp) => format!("cp {cp}"),
            Score::Proven(0) => "cp 0".to_string(),
            Score::Proven(m) if m > 0 => format!("mate {own_turns}"),
            Score::Proven(_) => format!("mate -{own_turns}"),
        }
    }

    /// A proven result in words: `draw`, or `the side to move wins by <m>
    /// squares` (or `loses by`); `None` for an estimate.
    pub fn proven_text(self) -> Option<String> {
        match self {
            Score::Proven(0) => Some("draw".to_string()),
            Score::Proven(m) => Some(format!(
                "the side to move {} by {} squares",
                if m > 0 { "wins" } else { "loses" },
                m.abs()
            )),
            Score::Eval(_) => None,
        }
    }
}

/// A finished game's score for the side to move.
pub(super) fn final_score(pos: &Position, result: &GameResult) -> i32 {
    let margin = match pos.side_to_move() {
        Color::White => result.white as i32 - result.black as i32,
        Color::Black => result.black as i32 - result.white as i32,
    };
    margin.signum() * WIN + margin * SQUARE
}

/// The square margin of a finished-game score.
pub(super) fn margin_of(value: i32) -> i32 {
    (value - value.signum() * WIN) / SQUARE
}

/// The score of a position searched no further.
pub(super) fn static_score(pos: &Position) -> Score {
    match pos.status() {
        Status::Over(result) => Score::Proven(margin_of(final_score(pos, &result))),
        Status::Ongoing => Score::Eval(evaluate(pos)),
    }
}
