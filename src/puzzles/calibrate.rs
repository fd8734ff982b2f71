//! The initial rating of a puzzle: each level from Novice to Club
//! "attempts" it (its root mate finder, under the level's own budget), each
//! attempt a rated Glicko-2 game against a level of fixed rating; the
//! finder's nodes break the ties between puzzles the same levels solve.

use super::glicko::{self, Game, Rating};
use super::record::{Attempt, Calibration};
use super::unique::{FIND_NODES, TRIVIAL_NODES, find};
use crate::chess::Position;
use crate::mate::MateTable;
use crate::search::levels::{handicap, level_skill};

/// The levels that attempt every puzzle and their fixed ratings: one scale,
/// 250 points a level from Novice at 800 to Club at 1800.
pub const LEVEL_RATINGS: [(&str, f64); 5] = [
    ("Novice", 800.0),
    ("Beginner", 1050.0),
    ("Casual", 1300.0),
    ("Intermediate", 1550.0),
    ("Club", 1800.0),
];

/// The deviation given to the levels: anchors, known well.
pub const LEVEL_DEVIATION: f64 = 50.0;

/// The tie-breaker's whole range in points: a puzzle whose mate took the
/// finder nodes at the bottom of its band's range is rated up to half of it
/// below the band's Glicko rating, one at the top up to half above.
pub const TIE_BREAK_POINTS: f64 = 120.0;

/// A level's mate-finder budget: its root mate nodes (src/search/levels.rs).
pub fn level_nodes(level: &str) -> u64 {
    level_skill(level)
        .and_then(handicap)
        .map_or(crate::search::ROOT_MATE_NODES, |h| h.root_mate_nodes)
}

/// The levels' attempts, the Glicko-2 rating from them, and the rating with
/// the tie-breaker, for a puzzle whose mate the finder found in `nodes`.
pub fn calibrate(pos: &Position, nodes: u64, tt: &MateTable) -> (Calibration, Rating) {
    let attempts: Vec<Attempt> = LEVEL_RATINGS
        .iter()
        .map(|&(level, rating)| {
            let budget = level_nodes(level);
            Attempt {
                level: level.to_string(),
                rating,
                nodes: budget,
                solved: find(pos, budget, tt).0.is_some(),
            }
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
/// new puzzle's 1500/350/0.06; the puzzle wins when the level fails).
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

/// The rating with the tie-breaker: where `nodes` lies, on a log scale,
/// between the largest budget that failed (or the trivial cut-off) and the
/// smallest that solved (or the finder's own budget), moves the rating by
/// up to half of [`TIE_BREAK_POINTS`] either way.
pub fn rate(attempts: &[Attempt], nodes: u64) -> Rating {
    let base = rate_attempts(attempts);
    let low = attempts
        .iter()
        .filter(|a| !a.solved)
        .map(|a| a.nodes)
        .max()
        .unwrap_or(TRIVIAL_NODES)
        .max(TRIVIAL_NODES);
    let high = attempts
        .iter()
        .filter(|a| a.solved)
        .map(|a| a.nodes)
        .min()
        .unwrap_or(FIND_NODES);
    let offset = if high > low {
        let at = ((nodes.max(1) as f64).ln() - (low as f64).ln())
            / ((high as f64).ln() - (low as f64).ln());
        (at.clamp(0.0, 1.0) - 0.5) * TIE_BREAK_POINTS
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

    fn attempts(solved_from: usize) -> Vec<Attempt> {
        LEVEL_RATINGS
            .iter()
            .enumerate()
            .map(|(i, &(level, rating))| Attempt {
                level: level.into(),
                rating,
                nodes: level_nodes(level),
                solved: i >= solved_from,
            })
            .collect()
    }

    #[test]
    fn harder_puzzles_rate_higher_and_nodes_break_ties() {
        let ratings: Vec<f64> = (0..=5)
            .map(|k| rate_attempts(&attempts(k)).rating)
            .collect();
        for w in ratings.windows(2) {
            assert!(w[0] < w[1], "{ratings:?}");
        }
        let a = attempts(2);
        let (cheap, dear) = (rate(&a, 150_000), rate(&a, 190_000));
        assert!(cheap.rating < dear.rating);
        assert!((dear.rating - cheap.rating) < TIE_BREAK_POINTS);
        assert_eq!(level_nodes("Novice"), 10_000);
        assert_eq!(level_nodes("Club"), 400_000);
    }
}
