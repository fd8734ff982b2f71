//! "Can the side to move mate in this turn?" — the ONE place the engine asks.
//!
//! This is a node-limited exhaustive search of the rest of the turn, with the
//! same definition as [`crate::chess::status::brute_force_mate`] plus two
//! safe shortcuts: on the last move of a turn only checking moves are tried
//! (a mate needs a check), and a position inside the turn already shown to
//! lead to no mate is not searched again (moves of a turn commute heavily).
//! The fast finder of `src/mate/` replaces the body of [`mate_in_this_turn`].

use crate::chess::movegen::CheckInfo;
use crate::chess::status::is_mated;
use crate::chess::{Move, Position, legal_moves};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How much work a mate search may do.
#[derive(Clone, Copy, Debug)]
pub struct MateBudget {
    /// Moves played at most.
    pub nodes: u64,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
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

/// Searches for a mate by the side to move within its current turn.
pub fn mate_in_this_turn(pos: &Position, budget: MateBudget, stop: &AtomicBool) -> MateOutcome {
    let mut finder = Finder {
        budget,
        stop,
        nodes: 0,
        refuted: HashSet::new(),
    };
    let mut line = Vec::new();
    let found = match finder.dfs(pos, &mut line) {
        Some(true) => MateFound::Mate(line),
        Some(false) => MateFound::NoMate,
        None => MateFound::Unknown,
    };
    MateOutcome {
        found,
        nodes: finder.nodes,
    }
}

struct Finder<'a> {
    budget: MateBudget,
    stop: &'a AtomicBool,
    nodes: u64,
    /// Keys of positions inside the turn from which no mate exists.
    refuted: HashSet<u64>,
}

impl Finder<'_> {
    /// `Some(true)`: mate found (in `line`); `Some(false)`: none; `None`: out of budget.
    fn dfs(&mut self, pos: &Position, line: &mut Vec<Move>) -> Option<bool> {
        let last = pos.is_last_move();
        let checks = (last || pos.rules().check_ends_turn()).then(|| CheckInfo::new(pos));
        for &mv in legal_moves(pos).iter() {
            let gives_check = checks.as_ref().is_some_and(|c| c.gives_check(pos, mv));
            if last && !gives_check {
                continue; // the turn would end without check: no mate
            }
            if self.out_of_budget() {
                return None;
            }
            let mut child = pos.clone();
            let effect = child.play(mv);
            line.push(mv);
            if effect.turn_ended {
                if effect.check && is_mated(&child) {
                    return Some(true);
                }
            } else if !self.refuted.contains(&child.key()) {
                match self.dfs(&child, line) {
                    Some(true) => return Some(true),
                    Some(false) => {
                        self.refuted.insert(child.key());
                    }
                    None => return None,
                }
            }
            line.pop();
        }
        Some(false)
    }

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget.nodes {
            return true;
        }
        // Looking at the clock and the flag costs little next to a move
        // generation, but there is no need to do it on every node.
        self.nodes.is_multiple_of(256)
            && (self.stop.load(Ordering::Relaxed)
                || self.budget.deadline.is_some_and(|d| Instant::now() >= d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::status::brute_force_mate;
    use crate::chess::{Rules, fen};

    fn unlimited() -> MateBudget {
        MateBudget {
            nodes: u64::MAX,
            deadline: None,
        }
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
        let stop = AtomicBool::new(false);
        for (text, rules, expected) in cases {
            let pos = fen::parse(text, rules).unwrap();
            let reference = brute_force_mate(&pos).is_some();
            assert_eq!(reference, expected, "{text}");
            let out = mate_in_this_turn(&pos, unlimited(), &stop);
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
    fn a_tiny_budget_gives_unknown() {
        let pos = fen::parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 3", Rules::Italian).unwrap();
        let budget = MateBudget {
            nodes: 5,
            deadline: None,
        };
        let out = mate_in_this_turn(&pos, budget, &AtomicBool::new(false));
        assert_eq!(out.found, MateFound::Unknown);
    }
}
