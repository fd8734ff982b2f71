//! Hard puzzles (`generate --hard`): the top of the rating scale.
//!
//! An ordinary run keeps only mates its 300 000-node scan finds, so no
//! puzzle needs more than about rung 7 of the ladder (256 000 nodes) and
//! none rates above about 2 300 (bench/puzzles.md). The hard stage takes the
//! turn starts where that scan gives up (`unknown`: neither a mate nor a
//! proof of none) and scans them again on a fresh table with the ladder's
//! top budget; a mate found there becomes a puzzle by the same tests
//! (crushing, trivial, unique by a complete enumeration, here with a larger
//! budget) and the same ladder and Glicko-2 rating. The scan's fresh table
//! is the calibration's, so its nodes are the rating's tie-breaker and the
//! top rung solves every hard puzzle (the rating stays continuous, at most
//! about 2 830).
//!
//! The stage reads the game and touches neither its players nor its scan
//! table, so a hard run plays seed S's games move for move as the ordinary
//! run does: the hard puzzles of a game are the turn starts the ordinary run
//! skipped. Hard records carry `settings.hard`; a file holds the ordinary
//! and the hard puzzles of one generation side by side.

use super::calibrate::RUNGS;
use super::generate::{Reject, record};
use super::record::Puzzle;
use super::unique::{self, TRIVIAL_NODES};
use crate::chess::{Move, Position};
use crate::mate::MateTable;
use serde::{Deserialize, Serialize};

/// Nodes of the hard scan (fresh table): the ladder's top rung, 2 048 000.
pub const HARD_SCAN_NODES: u64 = TRIVIAL_NODES << (RUNGS - 1);
/// Nodes the enumeration of a hard puzzle's solutions may take (an
/// ordinary one's 4 000 000 leave too many hard ones `unknown`).
pub const HARD_ALL_NODES: u64 = 32_000_000;
// Deeper than the ordinary stage, or it would find nothing new.
const _: () = assert!(HARD_SCAN_NODES > super::generate::SCAN_NODES);
const _: () = assert!(HARD_ALL_NODES > unique::ALL_NODES);

/// The hard stage's settings (part of a hard record's `settings`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hard {
    /// Nodes of the scan, on a fresh table, where the ordinary scan gave up.
    pub scan_nodes: u64,
    /// Nodes of the enumeration of the solutions.
    pub all_nodes: u64,
}

impl Hard {
    /// The hard stage of this build.
    pub fn of_build() -> Hard {
        Hard {
            scan_nodes: HARD_SCAN_NODES,
            all_nodes: HARD_ALL_NODES,
        }
    }
}

/// Nodes `puzzles check` may spend enumerating a record's solutions: the
/// budget of the stage that made it.
pub fn all_nodes(p: &Puzzle) -> u64 {
    if p.settings.hard.is_some() {
        HARD_ALL_NODES
    } else {
        unique::ALL_NODES
    }
}

/// The hard scan of `pos` (a turn start the ordinary scan gave up on): the
/// mating line and the finder's nodes on a fresh `tt`, if it finds one.
pub fn scan(pos: &Position, tt: &MateTable) -> Option<(Vec<Move>, u64)> {
    match unique::find(pos, HARD_SCAN_NODES, tt) {
        (Some(line), nodes) => Some((line, nodes)),
        (None, _) => None,
    }
}

/// The hard puzzle at `pos`, where the hard scan found `line` in `nodes`
/// (fresh table), or why not. As [`super::make_puzzle`], with the hard
/// enumeration budget; the finder's nodes are the scan's.
pub fn make_hard_puzzle(
    pos: &Position,
    (line, nodes): (&[Move], u64),
    history: &[Move],
    source: (u64, u64, &str, &str),
    tt: &MateTable,
) -> Result<Puzzle, Reject> {
    if unique::crushing(pos) {
        return Err(Reject::Crushing);
    }
    if unique::trivial(pos, tt) {
        return Err(Reject::Trivial);
    }
    match unique::solutions(pos, line, HARD_ALL_NODES, tt).distinct {
        None => return Err(Reject::Unknown),
        Some(1) => {}
        Some(_) => return Err(Reject::Several),
    }
    let mut p = record(pos, line, nodes, history, source, tt);
    p.settings.hard = Some(Hard::of_build());
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::super::calibrate::ladder;
    use super::*;

    #[test]
    fn the_hard_scan_is_the_ladders_top_rung() {
        // So the top rung solves every hard puzzle and the tie-breaker
        // places it inside the ladder's steps.
        let top = ladder().last().map(|r| r.2);
        assert_eq!(top, Some(HARD_SCAN_NODES));
    }
}
