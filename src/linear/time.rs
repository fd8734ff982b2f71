//! How long to think about one turn of Linear Progression.

use super::position::Position;
use super::square::Color;
use crate::clock::{Clock, FLOOR, SAFETY};
use std::time::Duration;

/// At most this many own turns are planned for when the GUI gives no
/// `movestogo`: the real number can be 30 on the default board, but the
/// early turns are cheap and the endgame solve wants a bigger share.
const MAX_TURNS_TO_GO: u32 = 20;

/// The time the search of `pos` may use: the smaller of `movetime` and the
/// share of the side to move's clock, each less `overhead`; `None` when
/// neither is given. The search stops hard at its limit (there is no soft
/// limit between iterations), so one turn never takes more than a third of
/// the clock.
pub fn budget(
    pos: &Position,
    movetime: Option<Duration>,
    clocks: [Option<Clock>; 2],
    overhead: Duration,
) -> Option<Duration> {
    let movetime = movetime.map(|t| t.saturating_sub(overhead).max(FLOOR));
    let clock = match pos.side_to_move() {
        Color::White => clocks[0],
        Color::Black => clocks[1],
    };
    let share = clock.map(|clock| {
        let usable = clock.time.saturating_sub(overhead + SAFETY);
        // Each of our turns but a pass fills at least one empty square.
        let own_turns_left = pos.empty_squares().len() / 2 + 1;
        let turns = clock
            .movestogo
            .unwrap_or(own_turns_left.min(MAX_TURNS_TO_GO))
            .max(1);
        let share = usable / turns + clock.increment * 3 / 4;
        share.min(usable / 3).max(FLOOR)
    });
    match (movetime, share) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    }
}
