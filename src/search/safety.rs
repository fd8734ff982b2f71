//! The root safety net. In Progressive chess a turn after which the
//! opponent mates in its (longer) next turn loses at once, and the search,
//! a ply being one move, seldom sees the end of its own long turn, let alone
//! the opponent's turn after it. So the chosen turn is played out and the
//! mate finder asks whether the opponent then mates; if it does, a beam over
//! the turn's moves (static evaluation at each step) proposes alternative
//! whole turns, best first, and the first one the finder clears is played.
//! A turn the finder cannot decide within its budget counts as safe: only a
//! found mate condemns a turn.

use super::eval::evaluate;
use super::mate::{MateBudget, MateFound, mate_in_this_turn};
use crate::chess::status::is_mated;
use crate::chess::{Move, Position, legal_moves};
use crate::mate::bounds::lower_bound;
use crate::mate::{MateTable, is_mating_line};
use rustc_hash::FxHashSet;
use std::cmp::Reverse;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Partial turns kept at each step of the beam.
const BEAM_WIDTH: usize = 12;
/// The whole net spends at most this many times the budget of one check.
const TOTAL_CHECKS: u64 = 8;
/// Alternative turns checked at most.
const MAX_CANDIDATES: usize = 96;
/// Score of a turn that ends the game by mate (the finder missed it).
const MATES: i32 = 100_000;
/// Bonus of a turn after which the opponent provably has no mate.
const PROVED_SAFE_BONUS: i32 = 400;

/// How much the safety net may spend.
#[derive(Clone, Copy, Debug)]
pub struct SafetyBudget {
    /// Mate-finder nodes per checked turn.
    pub nodes_per_check: u64,
    /// Give up (keeping the best turn so far) at this instant.
    pub deadline: Option<Instant>,
}

/// What the safety net decided about a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The turn stands: no mate by the opponent was found after it.
    Safe,
    /// The turn lost to a mate; this turn, with its static score, is safe.
    Replaced { turn: Vec<Move>, score: i32 },
    /// The turn and every alternative checked lose to a mate.
    Lost,
}

/// The safety net's answer with the mate-finder nodes it took.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub verdict: Verdict,
    pub nodes: u64,
}

/// Checks `turn` (the rest of the current turn from `pos`) and, if the
/// opponent mates after it, looks for a safe alternative.
pub fn secure(
    pos: &Position,
    turn: &[Move],
    budget: SafetyBudget,
    stop: &Arc<AtomicBool>,
    table: &MateTable,
) -> Outcome {
    let mut checker = Checker {
        budget,
        stop,
        table,
        nodes: 0,
        refutations: Vec::new(),
    };
    let verdict = match checker.check(pos, turn) {
        Safety::Mated => checker.alternative(pos, turn),
        _ => Verdict::Safe,
    };
    Outcome {
        verdict,
        nodes: checker.nodes,
    }
}

struct Checker<'a> {
    budget: SafetyBudget,
    stop: &'a Arc<AtomicBool>,
    table: &'a MateTable,
    nodes: u64,
    /// The opponent's mates found so far, tried first on every later turn.
    refutations: Vec<Vec<Move>>,
}

impl Checker<'_> {
    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.nodes >= self.budget.nodes_per_check * TOTAL_CHECKS
            || self.budget.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Can the opponent mate after `turn`? A turn that ends the game (a
    /// mate, a stalemate) is safe.
    fn check(&mut self, pos: &Position, turn: &[Move]) -> Safety {
        let mut after = pos.clone();
        for &mv in turn {
            after.play(mv);
        }
        if legal_moves(&after).is_empty() {
            return Safety::Proved;
        }
        // A mate that refuted another turn often refutes this one too, and
        // replaying it costs nothing next to a search.
        if self
            .refutations
            .iter()
            .any(|line| is_mating_line(&after, line))
        {
            return Safety::Mated;
        }
        let budget = MateBudget {
            nodes: self.budget.nodes_per_check,
            deadline: self.budget.deadline,
        };
        let outcome = mate_in_this_turn(&after, budget, Some(self.stop), self.table);
        self.nodes += outcome.nodes;
        match outcome.found {
            MateFound::Mate(line) => {
                self.refutations.push(line);
                Safety::Mated
            }
            MateFound::NoMate => Safety::Proved,
            MateFound::Unknown => Safety::Unclear,
        }
    }

    /// The best alternative to `rejected` that the finder proves safe, or
    /// failing that the best one it could not decide.
    fn alternative(&mut self, pos: &Position, rejected: &[Move]) -> Verdict {
        if self.out_of_budget() {
            return Verdict::Lost;
        }
        let mut unclear = None;
        for (score, turn) in candidate_turns(pos).into_iter().take(MAX_CANDIDATES) {
            if self.out_of_budget() {
                break;
            }
            if turn == rejected {
                continue;
            }
            match self.check(pos, &turn) {
                Safety::Proved => return Verdict::Replaced { turn, score },
                Safety::Unclear if unclear.is_none() => unclear = Some((turn, score)),
                _ => {}
            }
        }
        match unclear {
            Some((turn, score)) => Verdict::Replaced { turn, score },
            None => Verdict::Lost,
        }
    }
}

/// The finder's answer about the position after a turn.
enum Safety {
    /// No mate by the opponent: proved.
    Proved,
    /// The budget ran out first.
    Unclear,
    /// The opponent mates.
    Mated,
}

/// A partial turn in the beam.
struct Partial {
    pos: Position,
    moves: Vec<Move>,
    score: i32,
}

/// Whole turns from `pos`, best first by the static score of the position
/// they end in (for the mover): a beam of [`BEAM_WIDTH`] partial turns,
/// each position inside the turn visited once.
pub fn candidate_turns(pos: &Position) -> Vec<(i32, Vec<Move>)> {
    let mut beam = vec![Partial {
        pos: pos.clone(),
        moves: Vec::new(),
        score: 0,
    }];
    let mut done = Vec::new();
    let mut seen = FxHashSet::default();
    while !beam.is_empty() {
        let mut next = Vec::new();
        for partial in &beam {
            let moves = legal_moves(&partial.pos);
            if moves.is_empty() {
                // Stuck inside the turn: a stalemate, a draw.
                done.push((0, partial.moves.clone()));
                continue;
            }
            for &mv in moves.iter() {
                let mut child = partial.pos.clone();
                let ended = child.play(mv).turn_ended;
                if !seen.insert(child.key()) {
                    continue;
                }
                let mut line = partial.moves.clone();
                line.push(mv);
                if ended {
                    done.push((turn_end_score(&child), line));
                } else {
                    let score = evaluate(&child);
                    next.push(Partial {
                        pos: child,
                        moves: line,
                        score,
                    });
                }
            }
        }
        next.sort_by_key(|p| Reverse(p.score));
        next.truncate(BEAM_WIDTH);
        beam = next;
    }
    done.sort_by_key(|d| Reverse(d.0));
    done
}

/// The mover's score of the position its turn ended in (the opponent to
/// move), with a bonus when the mate finder's move-budget bound already
/// proves that the opponent cannot mate in its turn: those turns are
/// checked first, and cost the finder nothing.
fn turn_end_score(after: &Position) -> i32 {
    if is_mated(after) {
        MATES
    } else if legal_moves(after).is_empty() {
        0
    } else {
        let moves = after.moves_left();
        let proved_safe = lower_bound(after, moves) > moves;
        -evaluate(after) + if proved_safe { PROVED_SAFE_BONUS } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};
    use crate::search::tests::is_legal_turn;

    fn position(text: &str) -> Position {
        fen::parse(text, Rules::Italian).unwrap()
    }

    fn budget() -> SafetyBudget {
        SafetyBudget {
            nodes_per_check: 200_000,
            deadline: None,
        }
    }

    #[test]
    fn candidate_turns_are_legal_distinct_and_best_first() {
        let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 5");
        let turns = candidate_turns(&pos);
        assert!(turns.len() > BEAM_WIDTH);
        for (_, turn) in &turns {
            assert!(is_legal_turn(&pos, turn), "{turn:?}");
        }
        let mut sorted = turns.clone();
        sorted.sort_by_key(|t| Reverse(t.0));
        assert_eq!(sorted, turns);
        let mut unique: Vec<_> = turns.iter().map(|t| t.1.clone()).collect();
        unique.sort_by_key(|t| format!("{t:?}"));
        unique.dedup();
        assert_eq!(unique.len(), turns.len());
    }

    #[test]
    fn a_turn_that_lets_the_opponent_mate_is_replaced() {
        // After random opening turns: White has 3 moves, Black then 4,
        // and most of White's turns let Black mate.
        let pos = position("rnbqkbnr/p1p1pppp/1p6/3p4/P7/8/1PPPPPPP/RNBQKBNR w KQkq d6 0 3");
        let stop = Arc::new(AtomicBool::new(false));
        let table = MateTable::new(16);
        let mut checker = Checker {
            budget: budget(),
            stop: &stop,
            table: &table,
            nodes: 0,
            refutations: Vec::new(),
        };
        let turns = candidate_turns(&pos);
        let mated = |c: &mut Checker, t: &[Move]| matches!(c.check(&pos, t), Safety::Mated);
        let Some((_, losing)) = turns.iter().find(|(_, t)| mated(&mut checker, t)) else {
            panic!("expected a candidate after which Black mates");
        };
        // A budget that proves most turns here either way.
        let generous = SafetyBudget {
            nodes_per_check: 4_000_000,
            deadline: None,
        };
        let outcome = secure(&pos, losing, generous, &stop, &table);
        let Verdict::Replaced { turn, .. } = outcome.verdict else {
            panic!("{:?}", outcome.verdict);
        };
        assert!(is_legal_turn(&pos, &turn));
        assert_ne!(&turn, losing);
        // Proved safe: an unlimited search finds no mate either.
        let mut after = pos.clone();
        for &mv in &turn {
            after.play(mv);
        }
        let deep = mate_in_this_turn(&after, MateBudget::nodes(u64::MAX), None, &table);
        assert_eq!(deep.found, MateFound::NoMate);
        assert!(outcome.nodes > 0);
    }

    #[test]
    fn a_safe_turn_is_kept() {
        let pos = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let stop = Arc::new(AtomicBool::new(false));
        let table = MateTable::new(1);
        let e4 = [crate::chess::notation::parse_uci(&pos, "e2e4").unwrap()];
        let outcome = secure(&pos, &e4, budget(), &stop, &table);
        assert_eq!(outcome.verdict, Verdict::Safe);
    }
}
