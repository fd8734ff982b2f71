//! What a search reports: progress after each iteration, the root lines,
//! and the turn it chose.

use super::score::Score;
use crate::chess::Move;
use std::time::Duration;

/// Progress reported after each completed iteration, one per MultiPV line.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// Which line (1 = best).
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation, a flat list of moves across turns.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }
}

/// One root line of the last completed iteration.
#[derive(Clone, Debug)]
pub struct Line {
    pub score: Score,
    /// The internal score (centipawns, or `±(MATE - plies)`).
    pub value: i32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The rest of the current turn to play; empty when the game is over.
    pub turn: Vec<Move>,
    pub score: Score,
    pub pv: Vec<Move>,
    /// Nodes of all threads (mate-finder nodes included).
    pub nodes: u64,
    pub depth: u32,
    /// The MultiPV lines of the last completed iteration, best first.
    pub lines: Vec<Line>,
    /// Remarks for `info string` lines (the safety net's "no safe turn").
    pub notes: Vec<String>,
    /// The opponent's reply we expect (`bestmove ... ponder ...`): a whole
    /// turn, or empty when none is known.
    pub ponder: Vec<Move>,
}
