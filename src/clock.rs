//! What a `go` says about time, shared by both games' time plans
//! (`search/time.rs` for Progressive chess, `linear/time.rs`).

use std::time::Duration;

/// A player's clock for `go wtime/btime/winc/binc/movestogo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    /// Turns to the next time control, if the GUI says.
    pub movestogo: Option<u32>,
}

/// Never plan closer than this to the flag (on top of `Move Overhead`).
pub const SAFETY: Duration = Duration::from_millis(5);

/// The shortest time budget ever given: a search always gets to start.
pub const FLOOR: Duration = Duration::from_millis(1);
