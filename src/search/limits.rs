//! What bounds a search (`go`'s limits, the threads and lines, the mate
//! budgets), and the default budgets.

use crate::chess::Move;
use crate::clock::Clock;
use std::time::{Duration, Instant};

/// Deepest nominal depth of iterative deepening.
pub const MAX_DEPTH: u32 = 100;
/// Default budget of the root mate check, in mate-finder nodes.
pub const ROOT_MATE_NODES: u64 = 400_000;
/// Default budget of the safety net's check of a turn (does the opponent
/// mate after it?), in mate-finder nodes.
pub const SAFETY_NODES: u64 = 400_000;
/// Default budget of the mate check made at each turn start inside the tree
/// (does the side to move mate in its turn? then the previous turn lost).
pub const TREE_MATE_NODES: u64 = 1_000;
/// What bounds a search, and how it is run. All limits given apply; none
/// given means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// The clock of the side to move.
    pub clock: Option<Clock>,
    /// Search until stopped (the other limits are ignored).
    pub infinite: bool,
    /// Subtracted from every time budget (the GUI's and the pipe's delay).
    pub move_overhead: Duration,
    /// Search threads (0 or 1: one). Above 1: lazy SMP on the shared table.
    pub threads: usize,
    /// Root lines to search and report, best first (0 or 1: one).
    pub multipv: usize,
    /// Budget of the root "mate in this turn?" ([`ROOT_MATE_NODES`] if `None`).
    pub root_mate_nodes: Option<u64>,
    /// Budget of the mate check at turn starts in the tree ([`TREE_MATE_NODES`] if `None`).
    pub tree_mate_nodes: Option<u64>,
    /// Mate-finder nodes per turn the root safety net checks
    /// ([`SAFETY_NODES`] if `None`, 0: no safety net, and the search keeps
    /// the whole time budget).
    pub safety_nodes: Option<u64>,
    /// The turn's first move is one of these (`go searchmoves`); empty: any.
    pub searchmoves: Vec<Move>,
    /// When the turn's clock started (`ponderhit`, which comes before the
    /// search that answers it); `None`: when the search starts.
    pub started: Option<Instant>,
}
