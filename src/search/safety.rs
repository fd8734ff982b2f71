//! The root safety net. In Progressive chess a turn after which the
//! opponent mates in its (longer) next turn loses at once, and the search,
//! a ply being one move, seldom sees the end of its own long turn, let alone
//! the opponent's turn after it. So the chosen turn is played out and the
//! mate finder asks whether the opponent then mates; if it does, beams over
//! the turn's moves propose alternative whole turns, and the first one the
//! finder clears is played. Two orders of candidates take turns: the best by
//! static score, and the best sheltered (the opponent needs the most moves
//! to mate after them), since the turns that save a game are mostly quiet
//! ones a score-ordered beam drops. A mate that refuted one turn is replayed
//! on every later one before any search. A turn the finder cannot decide
//! within its budget counts as safe: only a found mate condemns a turn.

use super::eval::evaluate_static;
use crate::chess::status::is_mated;
use crate::chess::{Move, Position, legal_moves};
use crate::mate::bounds::lower_bound;
use crate::mate::{self, MateTable, is_mating_line};
use rustc_hash::FxHashSet;
use std::cmp::Reverse;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Centipawns per move the opponent needs at least to mate, in the
/// shelter order.
const SHELTER_PER_MOVE: i32 = 600;
/// Centipawns per move of slack between the opponent's next turn and the
/// moves it needs at least to mate, in the score order.
const THREAT_PER_MOVE: i32 = 35;
/// Partial turns of the beam that may share their first move.
const PER_FIRST_MOVE: usize = 8;
/// Partial turns kept at each step of the beam.
const BEAM_WIDTH: usize = 12;
/// The whole net spends at most this many times the budget of one check.
const TOTAL_CHECKS: u64 = 8;
/// Turns searched (not refuted by a known mate) before the shelter-ordered
/// turns join the candidates.
const SHELTER_AFTER: usize = 3;
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
    /// Threads each check runs on (the finder races them on one table).
    pub threads: usize,
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
        let budget = mate::Budget {
            nodes: self.budget.nodes_per_check,
            deadline: self.budget.deadline,
            threads: self.budget.threads,
            stop: Some(self.stop),
        };
        let outcome = mate::find_mate(&after, &budget, self.table);
        self.nodes += outcome.nodes;
        match outcome.verdict {
            mate::Verdict::Mate(line) => {
                self.refutations.push(line);
                Safety::Mated
            }
            mate::Verdict::NoMate => Safety::Proved,
            mate::Verdict::Unknown => Safety::Unclear,
        }
    }

    /// The best alternative to `rejected` that the finder proves safe, or
    /// failing that the best one it could not decide. The turns come best
    /// first by score; once [`SHELTER_AFTER`] of them have needed a search
    /// (the cheap ones die on a known refutation), turns chosen for shelter
    /// take every other place.
    fn alternative(&mut self, pos: &Position, rejected: &[Move]) -> Verdict {
        if self.out_of_budget() {
            return Verdict::Lost;
        }
        let mut unclear = None;
        let mut searched = 0;
        let mut tried = FxHashSet::default();
        let mut queue: std::collections::VecDeque<_> = candidate_turns(pos, Order::Score).into();
        let mut sheltered = false;
        while let Some((score, turn)) = queue.pop_front() {
            if self.out_of_budget() || searched >= MAX_CANDIDATES {
                break;
            }
            if turn == rejected || !tried.insert(turn.clone()) {
                continue;
            }
            let before = self.nodes;
            let safety = self.check(pos, &turn);
            searched += usize::from(self.nodes > before);
            match safety {
                Safety::Proved => return Verdict::Replaced { turn, score },
                Safety::Unclear if unclear.is_none() => unclear = Some((turn, score)),
                _ => {}
            }
            if !sheltered && (searched >= SHELTER_AFTER || queue.is_empty()) {
                sheltered = true;
                let rest = std::mem::take(&mut queue).into();
                queue = interleave(candidate_turns(pos, Order::Shelter), rest).into();
            }
        }
        match unclear {
            Some((turn, score)) => Verdict::Replaced { turn, score },
            None => Verdict::Lost,
        }
    }
}

/// `a` and `b` taken in turns, one from each.
fn interleave<T>(a: Vec<T>, b: Vec<T>) -> Vec<T> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter(), b.into_iter());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return out,
            (x, y) => out.extend(x.into_iter().chain(y)),
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

/// What a list of candidate turns puts first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// The best static score (material, threats), like the search.
    Score,
    /// Shelter: the most moves the opponent needs at least to mate, then
    /// the static score. When the best-scoring turns all lose to mates, the
    /// turns that save the game are mostly quiet ones that no score-ordered
    /// beam keeps.
    Shelter,
}

/// Whole turns from `pos`, best first by `order`: a beam of [`BEAM_WIDTH`]
/// partial turns, each position inside the turn visited once.
pub fn candidate_turns(pos: &Position, order: Order) -> Vec<(i32, Vec<Move>)> {
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
                    done.push((turn_end_score(&child, order), line));
                } else {
                    next.push(Partial {
                        score: inner_score(&child, order),
                        pos: child,
                        moves: line,
                    });
                }
            }
        }
        next.sort_by_key(|p| Reverse(p.score));
        beam = diverse(next, BEAM_WIDTH);
    }
    done.sort_by_key(|d| Reverse(d.0));
    done
}

/// The best `width` partial turns of `sorted` (best first), at most
/// [`PER_FIRST_MOVE`] of them sharing a first move: a beam of one
/// capture's follow-ups would test one idea a dozen times, and a defence
/// usually starts differently.
fn diverse(sorted: Vec<Partial>, width: usize) -> Vec<Partial> {
    let mut kept: Vec<Partial> = Vec::with_capacity(width);
    let mut spare = Vec::new();
    for partial in sorted {
        if kept.len() == width {
            break;
        }
        let first = partial.moves[0];
        if kept.iter().filter(|p| p.moves[0] == first).count() < PER_FIRST_MOVE {
            kept.push(partial);
        } else {
            spare.push(partial);
        }
    }
    // Few first moves (a king in check): fill up with the rest.
    let room = width - kept.len();
    kept.extend(spare.into_iter().take(room));
    kept
}

/// The mover's score of a position inside its turn. The shelter is measured
/// as if the mover passed now: what the opponent would need to mate.
fn inner_score(pos: &Position, order: Order) -> i32 {
    match order {
        Order::Score => evaluate_static(pos),
        Order::Shelter => {
            let mut passed = pos.clone();
            passed.pass_turn();
            let moves = passed.moves_left();
            SHELTER_PER_MOVE * lower_bound(&passed, moves).min(moves + 1) as i32
                + evaluate_static(pos)
        }
    }
}

/// The mover's score of the position its turn ended in (the opponent to
/// move). A turn after which the mate finder's move-budget bound already
/// proves that the opponent cannot mate costs the finder nothing, and gets
/// a bonus.
fn turn_end_score(after: &Position, order: Order) -> i32 {
    if is_mated(after) {
        return MATES;
    }
    if legal_moves(after).is_empty() {
        return 0;
    }
    let moves = after.moves_left();
    let need = lower_bound(after, moves).min(moves + 1);
    let score = -evaluate_static(after);
    match order {
        Order::Score if need > moves => score + PROVED_SAFE_BONUS,
        Order::Score => score - THREAT_PER_MOVE * (moves + 1 - need) as i32,
        Order::Shelter => SHELTER_PER_MOVE * need as i32 + score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};
    use crate::mate::find_mate;
    use crate::search::searcher::tests::is_legal_turn;

    fn position(text: &str) -> Position {
        fen::parse(text, Rules::Italian).unwrap()
    }

    fn budget() -> SafetyBudget {
        SafetyBudget {
            nodes_per_check: 200_000,
            deadline: None,
            threads: 1,
        }
    }

    #[test]
    fn candidate_turns_are_legal_distinct_and_best_first() {
        let pos = position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 5");
        let turns = candidate_turns(&pos, Order::Score);
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
        let turns = candidate_turns(&pos, Order::Score);
        let mated = |c: &mut Checker, t: &[Move]| matches!(c.check(&pos, t), Safety::Mated);
        let Some((_, losing)) = turns.iter().find(|(_, t)| mated(&mut checker, t)) else {
            panic!("expected a candidate after which Black mates");
        };
        // A budget that proves most turns here either way.
        let generous = SafetyBudget {
            nodes_per_check: 4_000_000,
            deadline: None,
            threads: 1,
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
        let deep = find_mate(&after, &mate::Budget::default(), &table);
        assert_eq!(deep.verdict, mate::Verdict::NoMate);
        assert!(outcome.nodes > 0);
    }

    #[test]
    fn a_quiet_defence_is_found_when_the_best_scored_turns_lose() {
        // From a lost game: Black (4 moves) grabbed the rook on h1 and White
        // mated with 5. The best-scored turns all lose the same way; the
        // net, with a budget a game can afford, finds a turn that shelters
        // the king (and the finder proves it safe).
        let pos = position("rnbqkbnr/p1pppp1p/1p6/1N4p1/8/1P5N/P1PPPPPP/R1BQKB1R b KQkq - 0 4");
        let mut after = pos.clone();
        let mut grab = Vec::new();
        for uci in ["g5g4", "g4h3", "h3g2", "g2h1q"] {
            let mv = crate::chess::notation::parse_uci(&after, uci).unwrap();
            after.play(mv);
            grab.push(mv);
        }
        // On one thread, and on two racing on each check with the same
        // nodes per check, as `levels::play` gives them.
        for threads in [1, 2] {
            let stop = Arc::new(AtomicBool::new(false));
            let table = MateTable::new(16);
            let budget = SafetyBudget {
                threads,
                ..budget()
            };
            let outcome = secure(&pos, &grab, budget, &stop, &table);
            let Verdict::Replaced { turn, .. } = outcome.verdict else {
                panic!("{threads} threads: {:?}", outcome.verdict);
            };
            assert!(is_legal_turn(&pos, &turn));
            let mut saved = pos.clone();
            for &mv in &turn {
                saved.play(mv);
            }
            let deep = find_mate(&saved, &mate::Budget::default(), &table);
            assert_eq!(deep.verdict, mate::Verdict::NoMate, "{threads} threads");
            // Not a turn the score order would have offered early.
            let scored = candidate_turns(&pos, Order::Score);
            assert!(!scored.iter().take(8).any(|(_, t)| t == &turn));
        }
    }

    #[test]
    fn shelter_order_puts_the_safest_turns_first() {
        let pos = position("rnbqkbnr/p1pppp1p/1p6/1N4p1/8/1P5N/P1PPPPPP/R1BQKB1R b KQkq - 0 4");
        let need = |turn: &[Move]| {
            let mut after = pos.clone();
            for &mv in turn {
                after.play(mv);
            }
            lower_bound(&after, after.moves_left()).min(after.moves_left() + 1)
        };
        let sheltered = candidate_turns(&pos, Order::Shelter);
        let scored = candidate_turns(&pos, Order::Score);
        let mean =
            |turns: &[(i32, Vec<Move>)]| turns.iter().take(10).map(|(_, t)| need(t)).sum::<u32>();
        assert!(mean(&sheltered) > mean(&scored));
        for (_, turn) in sheltered.iter().chain(&scored) {
            assert!(is_legal_turn(&pos, turn), "{turn:?}");
        }
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
