//! The Linear Progression search benchmark behind the protocol's `bench`
//! and `crescendo bench --variant linear-progression` (one source of truth
//! for the positions and the limits).

use super::limits::Limits;
use super::position::Position;
use super::search::{SearchResult, Searcher};
use crate::bench::BenchReport;
use std::sync::atomic::AtomicBool;

/// Nominal depth of `bench` (turns).
pub const BENCH_DEPTH: u32 = 4;

/// The positions of `bench`: the default board from the start, after the
/// drops, in the middle game and near the end; one with every option.
/// They carry their own board and options, so the `LP_*` options do not
/// change the signature.
pub const BENCH_POSITIONS: [&str; 6] = [
    "#6#/8/8/8/8/8/8/#6# w - 0 - -",
    "#6#/8/8/3w4/4b3/8/8/#6# w e4 0 - -",
    "#b5#/wbwwwwww/1b1w2w1/1b1wbbbb/1b1wb3/1b1w4/1bbw4/#b1w3# w b8 0 - -",
    "#b1b3#/wbwbwwww/wwwbwwbb/1b1bwwbb/1b1bww2/1bbbbbbb/1bbwww2/#b1www1# w d8 0 - -",
    "#6#/8/8/3w4/4b3/8/8/#6# w e4 0 equal,blockers a1,h8",
    "##4##/##4##/8/3wb3/3bw3/8/##4##/##4## w d4 0 - -",
];

/// Each of [`BENCH_POSITIONS`] searched to `depth` turns with a fresh
/// 16 MiB table and the endgame solver off. `on_position` sees each
/// position's index and result. Stops early (with the nodes so far) when
/// `stop` is set.
pub fn bench(
    depth: u32,
    stop: &AtomicBool,
    mut on_position: impl FnMut(usize, &SearchResult),
) -> BenchReport {
    crate::bench::run(&BENCH_POSITIONS, stop, |i, text| {
        let pos = match text.parse::<Position>() {
            Ok(pos) => pos,
            Err(e) => {
                // Cannot happen (a unit test parses them all); never panic
                // in the engine for it.
                log::error!("bench position {text} does not parse: {e}");
                return None;
            }
        };
        let limits = Limits {
            depth: Some(depth),
            // The solver would make the signature depend on the position's
            // phase rather than on `depth`.
            solve_empties: Some(0),
            ..Limits::default()
        };
        let result = Searcher::new(16).search(&pos, &limits, stop, &mut |_| {});
        on_position(i, &result);
        Some(result.nodes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_parse_and_are_ongoing() {
        for text in BENCH_POSITIONS {
            let pos: Position = text.parse().unwrap();
            assert!(!pos.is_over(), "{text}");
            assert_eq!(pos.to_string(), text);
        }
    }
}
