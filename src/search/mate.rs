//! "Can the side to move mate in this turn?" — the ONE place the engine asks.
//!
//! Every question goes to the exact finder of [`crate::mate`] through this
//! module: the root's "do I mate now?", the tree's "does the side to move at
//! this turn start mate?" (a turn after which the opponent mates is lost),
//! the ten-quiet-turns rule, `go mate`, and the opponent's threat (the mover
//! passes). Callers pass a [`MateTable`] they own, so that proofs of "no
//! mate" are reused across calls, and a stop flag that ends the search.

use crate::chess::{Move, Position};
use crate::mate::{MateLimits, MateTable, Verdict, find_mate};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How much work a mate search may do.
#[derive(Clone, Copy, Debug)]
pub struct MateBudget {
    /// Nodes searched at most (about: the finder counts in small batches).
    pub nodes: u64,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
}

impl MateBudget {
    /// A budget of `nodes` nodes and no deadline.
    pub const fn nodes(nodes: u64) -> MateBudget {
        MateBudget {
            nodes,
            deadline: None,
        }
    }
}

/// What a mate search found out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateFound {
    /// The rest of the turn that mates.
    Mate(Vec<Move>),
    /// Proved: no sequence of this turn mates.
    NoMate,
    /// The budget ran out (or the search was stopped) first.
    Unknown,
}

/// The answer of [`mate_in_this_turn`] with the work it took.
#[derive(Clone, Debug)]
pub struct MateOutcome {
    pub found: MateFound,
    pub nodes: u64,
}

fn limits(budget: MateBudget, stop: Option<&Arc<AtomicBool>>, threads: usize) -> MateLimits {
    MateLimits {
        nodes: (budget.nodes != u64::MAX).then_some(budget.nodes),
        movetime: budget
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now())),
        threads,
        stop: stop.cloned(),
    }
}

fn outcome(result: crate::mate::MateResult) -> MateOutcome {
    MateOutcome {
        found: match result.verdict {
            Verdict::Mate(line) => MateFound::Mate(line),
            Verdict::NoMate => MateFound::NoMate,
            Verdict::Unknown => MateFound::Unknown,
        },
        nodes: result.nodes,
    }
}

/// Searches for a mate by the side to move within its current turn, on one
/// thread, reading and extending `table`.
pub fn mate_in_this_turn(
    pos: &Position,
    budget: MateBudget,
    stop: Option<&Arc<AtomicBool>>,
    table: &MateTable,
) -> MateOutcome {
    mate_with_threads(pos, budget, stop, table, 1)
}

/// [`mate_in_this_turn`] with the root moves split between `threads` threads.
pub fn mate_with_threads(
    pos: &Position,
    budget: MateBudget,
    stop: Option<&Arc<AtomicBool>>,
    table: &MateTable,
    threads: usize,
) -> MateOutcome {
    if budget.deadline.is_some_and(|d| Instant::now() >= d) || budget.nodes == 0 {
        return MateOutcome {
            found: MateFound::Unknown,
            nodes: 0,
        };
    }
    outcome(find_mate(pos, &limits(budget, stop, threads), table))
}

/// The opponent's threat: the side to move passes the rest of its turn and
/// the opponent's mate in its next (longer) turn is searched.
pub fn opponent_threat(
    pos: &Position,
    budget: MateBudget,
    stop: Option<&Arc<AtomicBool>>,
    table: &MateTable,
) -> MateOutcome {
    outcome(crate::mate::opponent_threat(
        pos,
        &limits(budget, stop, 1),
        table,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::status::{brute_force_mate, is_mated};
    use crate::chess::{Rules, fen};

    fn unlimited() -> MateBudget {
        MateBudget::nodes(u64::MAX)
    }

    fn replay_mates(pos: &Position, line: &[Move]) -> bool {
        let mut p = pos.clone();
        let mut last = None;
        for &mv in line {
            last = Some(p.play(mv));
        }
        last.is_some_and(|e| e.turn_ended && e.check) && is_mated(&p)
    }

    #[test]
    fn agrees_with_the_reference_search() {
        let cases = [
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian, true),
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Italian, true),
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Scottish, true),
            ("6k1/5p1p/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian, false),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 2", Rules::Italian, false),
            (crate::chess::START_FEN, Rules::Italian, false),
        ];
        let table = MateTable::new(1);
        for (text, rules, expected) in cases {
            let pos = fen::parse(text, rules).unwrap();
            let reference = brute_force_mate(&pos).is_some();
            assert_eq!(reference, expected, "{text}");
            let out = mate_in_this_turn(&pos, unlimited(), None, &table);
            match out.found {
                MateFound::Mate(line) => {
                    assert!(expected, "{text}");
                    assert!(replay_mates(&pos, &line), "{text}: {line:?}");
                }
                MateFound::NoMate => assert!(!expected, "{text}"),
                MateFound::Unknown => panic!("unlimited search gave up"),
            }
        }
    }

    #[test]
    fn a_set_stop_flag_gives_unknown() {
        let pos = fen::parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 3", Rules::Italian).unwrap();
        let stop = Arc::new(AtomicBool::new(true));
        let out = mate_in_this_turn(&pos, MateBudget::nodes(0), Some(&stop), &MateTable::new(1));
        assert_eq!(out.found, MateFound::Unknown);
    }

    #[test]
    fn the_opponent_threat_is_seen() {
        // White to move, one move left; if White passes, Black mates with Ra1.
        let pos = fen::parse("r5k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Rules::Italian).unwrap();
        let out = opponent_threat(&pos, unlimited(), None, &MateTable::new(1));
        assert!(matches!(out.found, MateFound::Mate(_)), "{:?}", out.found);
    }
}
