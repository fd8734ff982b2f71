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
use super::generate::{Reject, record, unique_mate};
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
    unique_mate(pos, line, HARD_ALL_NODES, tt)?;
    let mut p = record(pos, line, nodes, history, source, tt);
    p.settings.hard = Some(Hard::of_build());
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::super::calibrate::ladder;
    use super::super::generate::{SCAN_NODES, game, hard_game};
    use super::*;
    use crate::chess::{Rules, fen};
    use crate::mate::{Budget, Verdict, find_mate};

    /// A turn start of game 387 of seed 1 (Italian) where the ordinary scan
    /// gives up: White mates in 7 (Bb5, d4, dxe5, Bd2, Bc3, Rc1, Ba5).
    /// (The finder grows stronger: a hard position of an older build may
    /// fall to the ordinary scan; `puzzles generate --hard` finds another.)
    const HARD: &str = "rn4nr/ppk5/5p2/4p1pp/b7/b7/1P1P1PPP/R1B1KBNR w KQ e6,g6,h6 0 7";

    #[test]
    fn where_the_scan_gives_up_the_hard_stage_makes_a_top_puzzle() {
        let pos = fen::parse(HARD, Rules::Italian).unwrap();
        let tt = MateTable::new(4);
        tt.clear();
        let ordinary = find_mate(&pos, &Budget::nodes(SCAN_NODES), &tt);
        assert_eq!(ordinary.verdict, Verdict::Unknown);
        let (line, nodes) = scan(&pos, &tt).expect("the hard scan finds the mate");
        assert!(nodes > SCAN_NODES, "{nodes}");
        let p = make_hard_puzzle(&pos, (&line, nodes), &[], (1, 159, "a", "b"), &tt).unwrap();
        assert_eq!(p.settings.hard, Some(Hard::of_build()));
        assert_eq!(p.solutions, 1);
        // Above every ordinary puzzle (they stop at about 2 300): the rungs
        // up to the scan's budget fail, the larger ones solve.
        assert!(p.rating > 2_300.0, "{}", p.rating);
        for a in &p.calibration.attempts {
            assert_eq!(a.solved, a.nodes >= nodes, "{}", a.level);
        }
        assert_eq!(super::super::verify(&p, &tt), Ok(()));
    }

    #[test]
    fn a_hard_game_is_the_ordinary_game_at_the_turns_it_skipped() {
        // Game 107 of seed 1 (Scottish) gives an ordinary puzzle and a hard
        // one (rated about 2 540), above every ordinary one (they stop at
        // about 2 300).
        let (hard, again) = (
            hard_game(Rules::Scottish, 1, 107),
            hard_game(Rules::Scottish, 1, 107),
        );
        assert_eq!(hard.puzzles, again.puzzles, "reproducible");
        assert!(hard.hard_scans > 0);
        let found = hard.puzzles.first().expect("a hard puzzle");
        assert!(found.rating > 2_300.0, "{}", found.rating);
        let ordinary = game(Rules::Scottish, 1, 107);
        assert!(!ordinary.puzzles.is_empty());
        for p in &ordinary.puzzles {
            assert_ne!(p.id, found.id);
            assert_eq!(p.settings.hard, None);
            // The same game: one position's moves begin the other's.
            let (a, b) = (moves(&p.game.pgn), moves(&found.game.pgn));
            let n = a.len().min(b.len());
            assert_eq!(a[..n], b[..n], "the same game");
        }
    }

    /// The moves of a PGN's movetext (numbers and the result dropped).
    fn moves(pgn: &str) -> Vec<String> {
        pgn.lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(str::split_whitespace)
            .filter(|t| !t.ends_with('.') && *t != "*")
            .map(String::from)
            .collect()
    }

    #[test]
    fn the_hard_scan_is_the_ladders_top_rung() {
        // So the top rung solves every hard puzzle and the tie-breaker
        // places it inside the ladder's steps.
        let top = ladder().last().map(|r| r.2);
        assert_eq!(top, Some(HARD_SCAN_NODES));
    }
}
