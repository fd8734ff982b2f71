//! The initial rating of a puzzle: a ladder of fixed players, the mate
//! finder under budgets from tiny to large, each rated on one scale,
//! "attempts" it; each attempt is a rated Glicko-2 game (the puzzle wins
//! when the rung fails), and the finder's nodes break the ties between
//! puzzles the same rungs solve.
//!
//! Why a ladder and not the playing levels: the levels' root mate budgets
//! (10 000 to 400 000 nodes) solve almost every kept mate (a mate the
//! 2 000-node finder misses usually needs 2 000-50 000 nodes), so rating
//! by them put 98 % of the puzzles in 800-1199 (bench/puzzles.md). The
//! ladder doubles the budget at every rung from the triviality cut-off to
//! the finder's own budget, so every kept puzzle fails the lowest rung and
//! is solved by the highest, and the rungs in between separate the easy
//! from the hard.

use super::glicko::{self, Game, Rating};
use super::record::{Attempt, Calibration};
use super::unique::{FIND_NODES, TRIVIAL_NODES, find};
use crate::chess::Position;
use crate::mate::MateTable;

/// Rungs of the ladder: rung k is the finder with [`TRIVIAL_NODES`] * 2^k
/// nodes (2 000 to 2 048 000), rated [`LADDER_BASE`] + k * [`LADDER_STEP`].
pub const RUNGS: usize = 11;
/// The rating of rung 0 (the triviality cut-off: no kept puzzle is solved
/// by it).
pub const LADDER_BASE: f64 = 800.0;
/// Points per rung, that is per doubling of the finder's nodes.
pub const LADDER_STEP: f64 = 250.0;
/// The deviation given to the rungs: anchors, known well.
pub const LEVEL_DEVIATION: f64 = 50.0;

/// The ladder: name, fixed rating, finder nodes, for every rung.
pub fn ladder() -> Vec<(String, f64, u64)> {
    (0..RUNGS)
        .map(|k| {
            (
                format!("rung {k}"),
                LADDER_BASE + LADDER_STEP * k as f64,
                TRIVIAL_NODES << k,
            )
        })
        .collect()
}

/// The rungs' attempts, the Glicko-2 rating from them, and the rating with
/// the tie-breaker, for a puzzle whose mate the finder found in `nodes`.
pub fn calibrate(pos: &Position, nodes: u64, tt: &MateTable) -> (Calibration, Rating) {
    let attempts: Vec<Attempt> = ladder()
        .into_iter()
        .map(|(level, rating, budget)| Attempt {
            level,
            rating,
            nodes: budget,
            solved: find(pos, budget, tt).0.is_some(),
        })
        .collect();
    let rating = rate(&attempts, nodes);
    (
        Calibration {
            glicko: rate_attempts(&attempts).rounded().rating,
            attempts,
            nodes,
        },
        rating,
    )
}

/// The Glicko-2 rating from the attempts alone (one rating period from a
/// new puzzle's 1500/350/0.06; the puzzle wins when the rung fails).
pub fn rate_attempts(attempts: &[Attempt]) -> Rating {
    let games: Vec<Game> = attempts
        .iter()
        .map(|a| Game {
            opponent: Rating {
                rating: a.rating,
                deviation: LEVEL_DEVIATION,
                volatility: 0.06,
            },
            score: if a.solved { 0.0 } else { 1.0 },
        })
        .collect();
    glicko::update(Rating::NEW, &games, glicko::TAU)
}

/// The rating with the tie-breaker. The Glicko rating of the attempts is a
/// step per rung; `nodes` places the puzzle inside its step: where it lies,
/// on a log scale, between the largest budget that failed (or the trivial
/// cut-off) and the smallest that solved (or the finder's own budget). At
/// the middle the rating is the Glicko rating; at either end, the midpoint
/// between it and the Glicko rating of the neighbouring result (one rung
/// fewer solving at the top, one more at the bottom), linear in between.
/// So the rating rises continuously with the finder's nodes.
pub fn rate(attempts: &[Attempt], nodes: u64) -> Rating {
    let base = rate_attempts(attempts);
    let failed = attempts
        .iter()
        .filter(|a| !a.solved)
        .max_by_key(|a| a.nodes);
    let solved = attempts.iter().filter(|a| a.solved).min_by_key(|a| a.nodes);
    let low = failed.map_or(TRIVIAL_NODES, |a| a.nodes).max(TRIVIAL_NODES);
    let high = solved.map_or(FIND_NODES, |a| a.nodes);
    // The neighbours: the hardest rung that failed solving it (easier),
    // the easiest rung that solved failing it (harder).
    let flipped = |which: Option<&Attempt>| {
        which.map_or(base.rating, |w| {
            let turned: Vec<Attempt> = attempts
                .iter()
                .map(|a| Attempt {
                    solved: if a == w { !a.solved } else { a.solved },
                    ..a.clone()
                })
                .collect();
            rate_attempts(&turned).rating
        })
    };
    let offset = if high > low {
        let at = ((nodes.max(1) as f64).ln() - (low as f64).ln())
            / ((high as f64).ln() - (low as f64).ln());
        let at = at.clamp(0.0, 1.0) - 0.5;
        if at > 0.0 {
            at * (flipped(solved) - base.rating)
        } else {
            at * (base.rating - flipped(failed))
        }
    } else {
        0.0
    };
    Rating {
        rating: base.rating + offset,
        ..base
    }
    .rounded()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attempts of a finder that needs `nodes`: a rung solves when its
    /// budget is at least that (the finder is budget-monotone).
    fn attempts(nodes: u64) -> Vec<Attempt> {
        ladder()
            .into_iter()
            .map(|(level, rating, budget)| Attempt {
                level,
                rating,
                nodes: budget,
                solved: budget >= nodes,
            })
            .collect()
    }

    #[test]
    fn the_ladder_runs_from_the_trivial_cut_off_past_the_finders_budget() {
        let l = ladder();
        assert_eq!(l.len(), RUNGS);
        assert_eq!(l[0].2, TRIVIAL_NODES);
        assert!(l[RUNGS - 1].2 >= FIND_NODES);
        for w in l.windows(2) {
            assert_eq!(w[1].2, 2 * w[0].2, "a rung doubles the budget");
            assert_eq!(w[1].1 - w[0].1, LADDER_STEP);
        }
    }

    #[test]
    fn ratings_rise_with_the_nodes_continuously_and_spread_over_the_ladder() {
        // Nodes from just above the cut-off to the finder's budget, 8 a
        // doubling: the rating never falls, never jumps by more than a
        // fraction of a rung, and its range spans most of the ladder's.
        let mut nodes = TRIVIAL_NODES + 1;
        let mut last: Option<f64> = None;
        let (mut lowest, mut highest) = (f64::MAX, f64::MIN);
        while nodes <= FIND_NODES {
            let r = rate(&attempts(nodes), nodes).rating;
            if let Some(prev) = last {
                assert!(r >= prev, "{nodes} nodes: {r} after {prev}");
                assert!(r - prev < LADDER_STEP / 4.0, "{nodes} nodes: {prev} -> {r}");
            }
            last = Some(r);
            lowest = lowest.min(r);
            highest = highest.max(r);
            nodes = (nodes as f64 * 2f64.powf(0.125)).ceil() as u64;
        }
        let span = LADDER_STEP * (RUNGS - 1) as f64;
        assert!(highest - lowest > span * 0.6, "{lowest}..{highest}");
    }

    #[test]
    fn more_rungs_solving_rate_lower_and_nodes_break_ties() {
        let ratings: Vec<f64> = (0..RUNGS)
            .map(|k| rate_attempts(&attempts(TRIVIAL_NODES << k)).rating)
            .collect();
        for w in ratings.windows(2) {
            assert!(w[0] < w[1], "{ratings:?}");
        }
        let a = attempts(20_000);
        let (cheap, dear) = (rate(&a, 17_000), rate(&a, 31_000));
        assert!(cheap.rating < dear.rating);
        assert!((dear.rating - cheap.rating) < LADDER_STEP);
    }
}
