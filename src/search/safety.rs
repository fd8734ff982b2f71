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
//! on every later one before any search. A turn counts as safe only when
//! the finder proves it: an undecided turn gets more budget while time
//! remains, or a proved-safe alternative is played; when every turn
//! checked is mated, the one whose mate was hardest to find is played.

use super::breadth::Breadth;
use super::eval::evaluate_static;
use super::root_moves;
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
/// Without a deadline, the whole net spends at most this many times the
/// budget of one first check.
const TOTAL_CHECKS: u64 = 16;
/// An undecided turn's next check has this many times the nodes.
pub const ESCALATION: u64 = 4;
/// Without a deadline a check grows to at most this many times the first.
pub const MAX_ESCALATION: u64 = 16;
/// Undecided alternatives kept for more budget.
const MAX_ESCALATED: usize = 4;
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
    /// Mate-finder nodes of a turn's first check; a turn left undecided is
    /// checked again with [`ESCALATION`] times more while time remains.
    pub nodes_per_check: u64,
    /// Give up (keeping the best turn so far) at this instant. With a
    /// deadline the net is driven by time alone; without one (`go nodes`,
    /// `go depth`, tests) it spends at most [`TOTAL_CHECKS`] first checks'
    /// nodes, and a check grows to [`MAX_ESCALATION`] times the first.
    pub deadline: Option<Instant>,
    /// Once the search's turn is proved to lose, the net looks for a safe
    /// one until this instant instead (if later than `deadline`): a turn
    /// played into a mate ends the game, and the clock's reserve is worth
    /// less than that. `None`: `deadline` holds throughout.
    pub rescue: Option<Instant>,
    /// Threads each check runs on (the finder races them on one table).
    pub threads: usize,
    /// Mate-finder nodes the whole net may spend at most (what `go nodes`
    /// leaves it); `None`: only the limits above.
    pub max_nodes: Option<u64>,
    /// Grows the score beam's width and the candidates checked at most
    /// with the turn's time.
    pub breadth: Breadth,
}

/// What the safety net decided about a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The turn stands: proved safe (the opponent cannot mate after it).
    Safe,
    /// The turn stands undecided: no mate found after it, and no turn was
    /// proved safe in the time (or budget) there was.
    Undecided,
    /// The turn lost to a mate (or stayed undecided while this one was
    /// proved safe); this turn, with its static score, is played instead.
    /// `proved`: the finder proved it safe (else it is the best undecided).
    Replaced {
        turn: Vec<Move>,
        score: i32,
        proved: bool,
    },
    /// Every turn checked loses to a mate; `turn` (maybe the given one)
    /// makes the opponent's mate hardest: the finder needed `mate_nodes`
    /// nodes to find it. `checked`: the turns found mated.
    Lost {
        turn: Vec<Move>,
        mate_nodes: u64,
        checked: usize,
    },
}

impl Verdict {
    /// The `info string` line for a position without a safe turn.
    pub fn note(&self) -> Option<String> {
        match self {
            Verdict::Lost {
                mate_nodes,
                checked,
                ..
            } => Some(format!(
                "no safe turn: all {checked} turns checked lose to a mate; \
                 playing the hardest to find ({mate_nodes} nodes)"
            )),
            _ => None,
        }
    }
}

/// The safety net's answer with the mate-finder nodes it took.
#[derive(Clone, Debug)]
pub struct Secured {
    pub verdict: Verdict,
    pub nodes: u64,
    /// The opponent's mating lines found, each after some turn checked.
    pub refutations: Vec<Vec<Move>>,
}

/// Checks `turn` (the rest of the current turn from `pos`) and, unless the
/// finder proves it safe, looks for a safe alternative. The ranking: proved
/// safe > undecided > mated. An undecided turn first gets more budget
/// (the search chose it, and most such turns are safe), in up to half the
/// time left; then alternatives are checked, and the undecided ones among
/// them (the given turn first) get more budget round by round until one is
/// proved safe or time runs out.
pub fn secure(
    pos: &Position,
    turn: &[Move],
    budget: SafetyBudget,
    stop: &Arc<AtomicBool>,
    table: &MateTable,
) -> Secured {
    secure_within(pos, turn, &[], &[], budget, stop, table)
}

/// [`secure`] with the alternatives' first move among `first_moves`
/// (`go searchmoves`; empty: any), and `preferred` turns (with their
/// scores, best first: the planner's turns ranked by the opponent's
/// reply) checked before the beams' alternatives.
pub fn secure_within(
    pos: &Position,
    turn: &[Move],
    first_moves: &[Move],
    preferred: &[(i32, Vec<Move>)],
    budget: SafetyBudget,
    stop: &Arc<AtomicBool>,
    table: &MateTable,
) -> Secured {
    let mut checker = Checker {
        budget,
        first_moves,
        preferred,
        stop,
        table,
        nodes: 0,
        refutations: Vec::new(),
    };
    let mut chosen = Candidate {
        turn: turn.to_vec(),
        score: 0,
        safety: Safety::Unclear,
        spent: 0,
    };
    // Half the time left, at most, for the search's own choice.
    let half = budget.deadline.map(|d| {
        let now = Instant::now();
        now + d.saturating_duration_since(now) / 2
    });
    checker.settle(pos, &mut chosen, half);
    checker.budget.deadline = net_deadline(&checker.budget, chosen.safety);
    let verdict = match chosen.safety {
        Safety::Proved => Verdict::Safe,
        _ => checker.alternative(pos, chosen),
    };
    Secured {
        verdict,
        nodes: checker.nodes,
        refutations: checker.refutations,
    }
}

/// The net's deadline once the search's own turn is settled: the rescue's
/// when that turn is proved to lose.
fn net_deadline(budget: &SafetyBudget, chosen: Safety) -> Option<Instant> {
    match (budget.deadline, budget.rescue) {
        (Some(d), Some(r)) if chosen == Safety::Mated => Some(d.max(r)),
        (d, _) => d,
    }
}

/// A whole turn the net has looked at.
struct Candidate {
    turn: Vec<Move>,
    score: i32,
    safety: Safety,
    /// Nodes of its last check (for a mated turn: what finding the mate took).
    spent: u64,
}

struct Checker<'a> {
    budget: SafetyBudget,
    /// The first moves an alternative may start with (empty: any).
    first_moves: &'a [Move],
    /// Alternatives checked first, best first.
    preferred: &'a [(i32, Vec<Move>)],
    stop: &'a Arc<AtomicBool>,
    table: &'a MateTable,
    nodes: u64,
    /// The opponent's mates found so far, tried first on every later turn.
    refutations: Vec<Vec<Move>>,
}

impl Checker<'_> {
    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.budget.max_nodes.is_some_and(|max| self.nodes >= max)
            || match self.budget.deadline {
                Some(d) => Instant::now() >= d,
                None => self.nodes >= self.budget.nodes_per_check.saturating_mul(TOTAL_CHECKS),
            }
    }

    /// May a check of `nodes` grow by [`ESCALATION`]? Without a deadline
    /// only up to [`MAX_ESCALATION`] times the first check.
    fn may_grow(&self, nodes: u64) -> bool {
        self.budget.deadline.is_some()
            || nodes.saturating_mul(ESCALATION)
                <= self.budget.nodes_per_check.saturating_mul(MAX_ESCALATION)
    }

    /// Checks `cand` with the first budget, then while it stays undecided
    /// with [`ESCALATION`] times more each time, until `until` (or the
    /// net's own limits).
    fn settle(&mut self, pos: &Position, cand: &mut Candidate, until: Option<Instant>) {
        let mut nodes = self.budget.nodes_per_check;
        self.examine(pos, cand, nodes, until);
        while cand.safety == Safety::Unclear
            && !self.out_of_budget()
            && until.is_none_or(|h| Instant::now() < h)
            && self.may_grow(nodes)
        {
            nodes = nodes.saturating_mul(ESCALATION);
            self.examine(pos, cand, nodes, until);
        }
    }

    /// Checks `cand` with `nodes` (until `deadline` if sooner than the
    /// net's) and records the answer.
    fn examine(
        &mut self,
        pos: &Position,
        cand: &mut Candidate,
        nodes: u64,
        deadline: Option<Instant>,
    ) {
        let before = self.nodes;
        cand.safety = self.check(pos, &cand.turn, nodes, deadline);
        cand.spent = self.nodes - before;
    }

    /// Can the opponent mate after `turn`? A turn that ends the game (a
    /// mate, a stalemate) is safe.
    fn check(
        &mut self,
        pos: &Position,
        turn: &[Move],
        nodes: u64,
        deadline: Option<Instant>,
    ) -> Safety {
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
        let deadline = match (deadline, self.budget.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let left = self
            .budget
            .max_nodes
            .map_or(u64::MAX, |max| max.saturating_sub(self.nodes));
        let budget = mate::Budget {
            nodes: nodes.min(left),
            deadline,
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

    /// The best alternative to `chosen` (not proved safe) that the finder
    /// proves safe; failing that the best undecided turn (`chosen` first);
    /// failing that the turn whose mate was hardest to find. The turns come
    /// best first by score; once [`SHELTER_AFTER`] of them have needed a
    /// search (the cheap ones die on a known refutation), turns chosen for
    /// shelter take every other place.
    fn alternative(&mut self, pos: &Position, chosen: Candidate) -> Verdict {
        let mut unclear: Vec<Candidate> = Vec::new();
        let mut mated: Vec<Candidate> = Vec::new();
        let rejected = chosen.turn.clone();
        match chosen.safety {
            Safety::Unclear => unclear.push(chosen),
            _ => mated.push(chosen),
        }
        let mut searched = 0;
        let mut tried = FxHashSet::default();
        let mut queue: std::collections::VecDeque<_> = if self.out_of_budget() {
            Default::default()
        } else {
            let beamed = beam(
                pos,
                Order::Score,
                self.first_moves,
                self.budget.deadline,
                self.budget.breadth,
            );
            self.preferred.iter().cloned().chain(beamed).collect()
        };
        let mut sheltered = false;
        while let Some((score, turn)) = queue.pop_front() {
            if self.out_of_budget() || searched >= self.budget.breadth.count(MAX_CANDIDATES) {
                break;
            }
            if turn == rejected || !tried.insert(turn.clone()) {
                continue;
            }
            let mut cand = Candidate {
                turn,
                score,
                safety: Safety::Unclear,
                spent: 0,
            };
            self.examine(pos, &mut cand, self.budget.nodes_per_check, None);
            searched += usize::from(cand.spent > 0);
            match cand.safety {
                Safety::Proved => return replaced(cand, true),
                Safety::Unclear => unclear.push(cand),
                Safety::Mated => mated.push(cand),
            }
            if !sheltered && (searched >= SHELTER_AFTER || queue.is_empty()) {
                sheltered = true;
                let rest = std::mem::take(&mut queue).into();
                let normal = Breadth::default();
                let deadline = self.budget.deadline;
                let shelter = beam(pos, Order::Shelter, self.first_moves, deadline, normal);
                queue = interleave(shelter, rest).into();
            }
        }
        // More budget, round by round, for the undecided turns, best first.
        unclear.truncate(MAX_ESCALATED);
        let mut nodes = self.budget.nodes_per_check;
        while !unclear.is_empty() && !self.out_of_budget() && self.may_grow(nodes) {
            nodes = nodes.saturating_mul(ESCALATION);
            for i in 0..unclear.len() {
                if self.out_of_budget() {
                    break;
                }
                self.examine(pos, &mut unclear[i], nodes, None);
                if unclear[i].safety == Safety::Proved {
                    let cand = unclear.swap_remove(i);
                    return if cand.turn == rejected {
                        Verdict::Safe
                    } else {
                        replaced(cand, true)
                    };
                }
            }
            unclear.retain(|c| c.safety == Safety::Unclear);
        }
        if let Some(best) = unclear.into_iter().next() {
            return if best.turn == rejected {
                Verdict::Undecided
            } else {
                replaced(best, false)
            };
        }
        let checked = mated.len();
        let hardest = mated
            .into_iter()
            .max_by_key(|c| (c.spent, c.score))
            .expect("the given turn at least");
        Verdict::Lost {
            turn: hardest.turn,
            mate_nodes: hardest.spent,
            checked,
        }
    }
}

fn replaced(cand: Candidate, proved: bool) -> Verdict {
    Verdict::Replaced {
        turn: cand.turn,
        score: cand.score,
        proved,
    }
}

/// `a` and `b` taken in turns, one from each.
pub(crate) fn interleave<T>(a: Vec<T>, b: Vec<T>) -> Vec<T> {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    candidate_turns_from(pos, order, &[])
}

/// [`candidate_turns`] starting with one of `first_moves` (empty: any).
pub fn candidate_turns_from(
    pos: &Position,
    order: Order,
    first_moves: &[Move],
) -> Vec<(i32, Vec<Move>)> {
    beam(pos, order, first_moves, None, Breadth::default())
}

/// [`candidate_turns_from`] that stops at `deadline` with the turns
/// completed so far: in long turns the shelter beam's bounds take tens of
/// milliseconds on a loaded machine, past the net's deadline (so it is
/// looked at before each partial turn is expanded, not only each step).
/// The score beam is `breadth` times [`BEAM_WIDTH`] wide; the shelter beam
/// (a move-budget bound per child) is kept narrow by its callers.
pub(super) fn beam(
    pos: &Position,
    order: Order,
    first_moves: &[Move],
    deadline: Option<Instant>,
    breadth: Breadth,
) -> Vec<(i32, Vec<Move>)> {
    let width = breadth.count(BEAM_WIDTH);
    let mut beam = vec![Partial {
        pos: pos.clone(),
        moves: Vec::new(),
        score: 0,
    }];
    let mut done = Vec::new();
    let mut seen = FxHashSet::default();
    while !beam.is_empty() && deadline.is_none_or(|d| Instant::now() < d) {
        let mut next = Vec::new();
        for partial in &beam {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let moves = legal_moves(&partial.pos);
            if moves.is_empty() {
                // Stuck inside the turn: a stalemate, a draw.
                done.push((0, partial.moves.clone()));
                continue;
            }
            for &mv in moves.iter() {
                if partial.moves.is_empty() && !root_moves::allows(first_moves, mv) {
                    continue;
                }
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
        beam = diverse(next, width);
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
            rescue: None,
            threads: 1,
            max_nodes: None,
            breadth: Breadth::default(),
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
            first_moves: &[],
            preferred: &[],
            budget: budget(),
            stop: &stop,
            table: &table,
            nodes: 0,
            refutations: Vec::new(),
        };
        let turns = candidate_turns(&pos, Order::Score);
        let mated =
            |c: &mut Checker, t: &[Move]| matches!(c.check(&pos, t, 200_000, None), Safety::Mated);
        let Some((_, losing)) = turns.iter().find(|(_, t)| mated(&mut checker, t)) else {
            panic!("expected a candidate after which Black mates");
        };
        // A budget that proves most turns here either way.
        let generous = SafetyBudget {
            nodes_per_check: 4_000_000,
            deadline: None,
            rescue: None,
            threads: 1,
            max_nodes: None,
            breadth: Breadth::default(),
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

    /// Positions of the issue "never walk into the opponent's next turn"
    /// (Scottish rules): after a turn that full strength played, the side
    /// to move mates in this turn; main's net answered "unknown" there
    /// within its 400 000 nodes (the mates take 128 000 to 960 000).
    const MATED_AFTER: [&str; 4] = [
        "1n1r4/5k1p/6n1/p1p3pB/4p3/8/PPP2KPP/R1B3NR w - a6 0 9",
        "rn1k2nr/p1p2p1p/1p3p2/3p4/8/3P4/PPP1PPP1/R1B1KB1q w Q - 0 7",
        "1n1qkbnr/P2p1ppp/8/4p3/8/4P1P1/PPPK1P1P/RNB2BNb b k - 0 6",
        "7R/2kpp1pp/8/3b4/1n1P4/8/p1P4P/R3K3 w Q - 0 9",
    ];

    /// The issue's positions before a turn that lost to a mate next turn
    /// (the engine to move, Scottish rules).
    const BEFORE_LOSS: [&str; 4] = [
        "rnb2b1r/p1pp1k1p/1p6/8/3PP3/8/PPPK1qP1/3R4 w - - 0 7",
        "8/3k4/1B6/3B4/3P1N2/8/P1K5/8 b - d3 0 10",
        "Q7/1ppkp2p/4pn2/p7/8/4P3/PPP2K1P/RNB3NR b - - 0 8",
        "8/p3p1k1/1p2N3/3B1PP1/8/8/RP1PP1K1/2B5 b - - 0 10",
    ];

    fn scottish(text: &str) -> Position {
        fen::parse(text, Rules::Scottish).unwrap()
    }

    /// The net's default budget, without a deadline (as `go depth` has it).
    fn default_budget() -> SafetyBudget {
        SafetyBudget {
            nodes_per_check: crate::search::SAFETY_NODES,
            deadline: None,
            rescue: None,
            threads: 1,
            max_nodes: None,
            breadth: Breadth::default(),
        }
    }

    /// Only a turn proved to lose gets the rescue's time, never less than
    /// the usual end, and no deadline (`go nodes`, `go depth`) stays none.
    #[test]
    fn only_a_lost_turn_gets_the_rescue_time() {
        let now = Instant::now();
        let (usual, rescue) = (
            now + std::time::Duration::from_millis(100),
            now + std::time::Duration::from_millis(400),
        );
        let budget = SafetyBudget {
            deadline: Some(usual),
            rescue: Some(rescue),
            ..default_budget()
        };
        assert_eq!(net_deadline(&budget, Safety::Mated), Some(rescue));
        assert_eq!(net_deadline(&budget, Safety::Unclear), Some(usual));
        assert_eq!(net_deadline(&budget, Safety::Proved), Some(usual));
        let early = SafetyBudget {
            rescue: Some(now),
            ..budget
        };
        assert_eq!(net_deadline(&early, Safety::Mated), Some(usual));
        let untimed = SafetyBudget {
            deadline: None,
            ..budget
        };
        assert_eq!(net_deadline(&untimed, Safety::Mated), None);
    }

    fn played(pos: &Position, turn: &[Move]) -> Position {
        let mut after = pos.clone();
        for &mv in turn {
            after.play(mv);
        }
        after
    }

    #[test]
    fn the_issues_mates_are_found_not_left_undecided() {
        let stop = Arc::new(AtomicBool::new(false));
        for text in MATED_AFTER {
            let after = scottish(text);
            let table = MateTable::new(16);
            let mut checker = Checker {
                first_moves: &[],
                preferred: &[],
                budget: default_budget(),
                stop: &stop,
                table: &table,
                nodes: 0,
                refutations: Vec::new(),
            };
            // The empty turn: does the side to move at `after` mate?
            let mut cand = Candidate {
                turn: Vec::new(),
                score: 0,
                safety: Safety::Unclear,
                spent: 0,
            };
            checker.settle(&after, &mut cand, None);
            assert_eq!(cand.safety, Safety::Mated, "{text}");
        }
    }

    #[test]
    fn an_undecided_turn_is_not_safe_while_budget_remains() {
        // The first check (a small budget) leaves the mate undecided; the
        // net keeps checking instead of calling the turn safe.
        let stop = Arc::new(AtomicBool::new(false));
        let after = scottish(MATED_AFTER[0]);
        let table = MateTable::new(16);
        let small = SafetyBudget {
            nodes_per_check: 100_000,
            ..default_budget()
        };
        let mut checker = Checker {
            first_moves: &[],
            preferred: &[],
            budget: small,
            stop: &stop,
            table: &table,
            nodes: 0,
            refutations: Vec::new(),
        };
        assert_eq!(checker.check(&after, &[], 100_000, None), Safety::Unclear);
        let mut cand = Candidate {
            turn: Vec::new(),
            score: 0,
            safety: Safety::Unclear,
            spent: 0,
        };
        let table = MateTable::new(16);
        checker.table = &table;
        checker.settle(&after, &mut cand, None);
        assert_eq!(cand.safety, Safety::Mated);
    }

    #[test]
    fn from_the_issues_positions_no_turn_walks_into_a_mate_that_could_be_avoided() {
        // The net gets the best-scored turn; what it plays is either proved
        // safe by an unlimited finder, or it says that no turn it checked is
        // safe (and plays a legal turn).
        let stop = Arc::new(AtomicBool::new(false));
        for text in BEFORE_LOSS {
            let pos = scottish(text);
            let table = MateTable::new(16);
            let first = candidate_turns(&pos, Order::Score)[0].1.clone();
            // About what a few seconds of a game give the net.
            let budget = SafetyBudget {
                nodes_per_check: 1_000_000,
                ..default_budget()
            };
            let outcome = secure(&pos, &first, budget, &stop, &table);
            let (turn, proved) = match &outcome.verdict {
                Verdict::Safe => (first.clone(), true),
                Verdict::Replaced { turn, proved, .. } => (turn.clone(), *proved),
                Verdict::Undecided => (first.clone(), false),
                lost @ Verdict::Lost { turn, .. } => {
                    assert!(lost.note().unwrap().starts_with("no safe turn: "));
                    assert!(is_legal_turn(&pos, turn), "{text}");
                    continue;
                }
            };
            assert!(is_legal_turn(&pos, &turn), "{text}");
            // A turn proved safe is safe; an undecided one (the budget ran
            // out everywhere) is at least not mated within a large budget.
            let budget = mate::Budget {
                nodes: if proved { u64::MAX } else { 20_000_000 },
                ..mate::Budget::default()
            };
            let deep = find_mate(&played(&pos, &turn), &budget, &table);
            if proved {
                assert_eq!(deep.verdict, mate::Verdict::NoMate, "{text}");
            } else {
                assert!(!matches!(deep.verdict, mate::Verdict::Mate(_)), "{text}");
            }
        }
    }

    #[test]
    fn the_lone_king_has_no_safe_turn_and_the_net_says_so() {
        // 8/3k4/1B6/3B4/3P1N2/8/P1K5/8 b: every one of Black's ten-move
        // turns (a king walk, perhaps taking pieces) ends in a position
        // where White mates with eleven: each distinct end is proved.
        let pos = scottish(BEFORE_LOSS[1]);
        let mut positions = Vec::new();
        let mut inner = FxHashSet::default();
        let mut ends = FxHashSet::default();
        let mut stack = vec![pos.clone()];
        while let Some(p) = stack.pop() {
            for &mv in legal_moves(&p).iter() {
                let mut child = p.clone();
                if child.play(mv).turn_ended {
                    if ends.insert(child.key()) {
                        positions.push(child);
                    }
                } else if inner.insert(child.key()) {
                    stack.push(child);
                }
            }
        }
        assert!(!positions.is_empty());
        let table = MateTable::new(16);
        for end in &positions {
            let answer = find_mate(end, &mate::Budget::default(), &table);
            assert!(
                matches!(answer.verdict, mate::Verdict::Mate(_)),
                "{}",
                fen::to_fen(end)
            );
        }
        let stop = Arc::new(AtomicBool::new(false));
        let first = candidate_turns(&pos, Order::Score)[0].1.clone();
        let outcome = secure(&pos, &first, default_budget(), &stop, &table);
        let note = outcome.verdict.note().expect("no safe turn");
        assert!(note.starts_with("no safe turn: "), "{note}");
    }

    #[test]
    fn the_beams_stop_at_the_deadline() {
        // A long endgame turn, where the shelter beam's bounds are slow on
        // a loaded machine: with the deadline past, no step is expanded.
        let pos = position("b7/3n4/4k3/8/8/2p4p/N1K4P/8 w - - 0 11");
        for order in [Order::Score, Order::Shelter] {
            let normal = Breadth::default();
            assert!(beam(&pos, order, &[], Some(Instant::now()), normal).is_empty());
            assert!(!beam(&pos, order, &[], None, normal).is_empty());
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
