//! The fixed search benchmark behind the protocol's `bench` command and
//! `crescendo bench`: a few positions searched to a fixed depth with a fresh
//! table each. The node total is a signature of the search's behaviour (it
//! changes only when the search does); the speed is nodes per second.

use super::{Limits, SearchResult, Searcher};
use crate::chess::{Rules, fen};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Nominal depth of the benchmark.
pub const BENCH_DEPTH: u32 = 5;

/// The benchmark positions (played under the rule set asked for).
pub const BENCH_FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1",
    "8/5k2/2p5/3p4/3P4/2P5/5K2/8 w - - 0 8",
    "4k3/pp3ppp/8/8/8/8/PP3PPP/R3K3 w - - 0 6",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 5 2",
];

use crate::bench::BenchReport;

/// Runs the benchmark; `on_position` sees each position's index and result.
/// Stops early (with the nodes so far) when `stop` is set.
pub fn run(
    rules: Rules,
    depth: u32,
    stop: &Arc<AtomicBool>,
    mut on_position: impl FnMut(usize, &SearchResult),
) -> BenchReport {
    crate::bench::run(&BENCH_FENS, stop, |i, text| {
        let pos = fen::parse(text, rules).expect("bench positions are valid");
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let result = Searcher::new(16).search(&pos, &limits, stop, |_| {});
        on_position(i, &result);
        Some(result.nodes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_parse_under_both_rule_sets() {
        for rules in [Rules::Italian, Rules::Scottish] {
            for text in BENCH_FENS {
                assert!(fen::parse(text, rules).is_ok(), "{text}");
            }
        }
    }

    #[test]
    fn bench_signature_repeats() {
        let stop = Arc::new(AtomicBool::new(false));
        let a = run(Rules::Italian, 3, &stop, |_, _| {});
        let b = run(Rules::Italian, 3, &stop, |_, _| {});
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
    }
}
