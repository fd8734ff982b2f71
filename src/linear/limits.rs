//! What bounds a Linear Progression search, and the strength levels.

use super::moves::Move;
use std::time::{Duration, Instant};

/// Limits of one search; all optional. The search stops at whichever is
/// hit first, or when the `stop` flag is raised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in turns.
    pub depth: Option<u32>,
    /// Node budget (the search stops once it is spent).
    pub nodes: Option<u64>,
    /// Time for this move, counted from the call.
    pub movetime: Option<Duration>,
    /// Absolute time to answer by.
    pub deadline: Option<Instant>,
    /// Evaluation noise amplitude in centi-squares (0: none), to weaken play.
    pub noise: u32,
    /// Seed of the noise; the same seed gives the same games.
    pub seed: u64,
    /// Solve exactly when at most this many empty squares remain (default
    /// 14 without blockers, 8 with; 0 turns the solver off). A depth limit
    /// below the number of empty squares also skips the solver.
    pub solve_empties: Option<u32>,
    /// The move is one of these (`go searchmoves`; the illegal ones are
    /// left out); empty: any.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    /// A strength level from 0 (weakest) to 20 (full strength): the depth
    /// limit grows (none at 20), the noise shrinks (none at 20) and the
    /// endgame solver starts earlier (off at 0, the default at 20).
    pub fn skill(level: u32, seed: u64) -> Limits {
        let level = level.min(20);
        Limits {
            depth: (level < 20).then_some(1 + level / 3),
            noise: (20 - level) * 10,
            seed,
            solve_empties: (level < 20).then_some(level / 2),
            ..Limits::default()
        }
    }
}
