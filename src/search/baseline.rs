//! The baseline players of option `Baseline`: `random` (a random legal
//! turn) and `greedy` (the turn that ends with the best material, ignoring
//! the reply); both play a mate in this turn when the finder sees one.

use super::eval::{self, material};
use super::levels::{Baseline, Rng};
use super::limits::{Limits, ROOT_MATE_NODES};
use super::result::SearchResult;
use super::root_moves;
use super::score::Score;
use super::searcher::Searcher;
use super::time::TimePlan;
use crate::chess::{Move, Position, legal_moves};
use crate::mate;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// `random` or `greedy`: a mate in this turn if the finder sees one,
/// otherwise a random turn or the best-material turn.
pub(super) fn turn(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    plan: &TimePlan,
    baseline: Baseline,
    stop: &Arc<AtomicBool>,
    rng: &mut Rng,
) -> SearchResult {
    let mut result = SearchResult::default();
    if legal_moves(pos).is_empty() {
        return result;
    }
    // The baselines keep to the clock too (a forfeit would measure
    // nothing): half the time for the mate, the rest for the turn.
    let started = Instant::now();
    let deadline = plan.turn;
    let budget = mate::Budget {
        nodes: limits.root_mate_nodes.unwrap_or(ROOT_MATE_NODES),
        deadline: deadline.map(|d| started + d.saturating_duration_since(started) / 2),
        threads: 1,
        stop: Some(stop),
    };
    let first = &limits.searchmoves;
    let found = root_moves::find_mate(pos, first, &budget, searcher.mate_table());
    result.nodes = found.nodes;
    if let mate::Verdict::Mate(line) = found.verdict {
        result.score = Score::Mate(1);
        result.pv = line.clone();
        result.turn = line;
        return result;
    }
    result.turn = if baseline == Baseline::Greedy {
        let mut g = Greedy {
            us: pos.side_to_move(),
            nodes: 0,
            budget: limits.nodes.unwrap_or(GREEDY_NODES).min(GREEDY_NODES),
            stop,
            deadline,
            rng,
            seen: rustc_hash::FxHashSet::default(),
            first,
        };
        let mut line = Vec::new();
        let mut best = (i32::MIN, Vec::new());
        g.dfs(pos, &mut line, &mut best);
        result.nodes += g.nodes;
        best.1
    } else if first.is_empty() {
        random_turn(pos, rng)
    } else {
        let moves = root_moves::first_moves(pos, first);
        let mv = moves.as_slice()[rng.below(moves.len())];
        let mut p = pos.clone();
        if p.play(mv).turn_ended {
            vec![mv]
        } else {
            [vec![mv], random_turn(&p, rng)].concat()
        }
    };
    result.pv = result.turn.clone();
    result
}

/// Moves `greedy` may look at per turn.
const GREEDY_NODES: u64 = 200_000;

/// A random legal turn: random moves until the turn ends (or no move is left).
pub fn random_turn(pos: &Position, rng: &mut Rng) -> Vec<Move> {
    let mut p = pos.clone();
    let mut turn = Vec::new();
    loop {
        let moves = legal_moves(&p);
        if moves.is_empty() {
            return turn;
        }
        let mv = moves.as_slice()[rng.below(moves.len())];
        turn.push(mv);
        if p.play(mv).turn_ended {
            return turn;
        }
    }
}

/// The greedy baseline's search: every sequence of the rest of the turn
/// (each position inside the turn once), captures first, keeping the one
/// that ends with the best material balance for `us`.
struct Greedy<'a> {
    us: crate::chess::Color,
    nodes: u64,
    budget: u64,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    rng: &'a mut Rng,
    seen: rustc_hash::FxHashSet<u64>,
    /// The first moves allowed (`go searchmoves`; empty: any).
    first: &'a [Move],
}

impl Greedy<'_> {
    fn out_of_time(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn dfs(&mut self, pos: &Position, line: &mut Vec<Move>, best: &mut (i32, Vec<Move>)) {
        let moves = if line.is_empty() {
            root_moves::first_moves(pos, self.first)
        } else {
            legal_moves(pos)
        };
        if moves.is_empty() {
            // Stuck inside the turn: a draw, valued as even material.
            self.offer(0, line, best);
            return;
        }
        let mut order: Vec<(i32, u64, Move)> = moves
            .iter()
            .map(|&mv| {
                let gain = pos
                    .piece_at(mv.to())
                    .map_or(0, |p| eval::VALUES[p.role.index()]);
                (-gain, self.rng.next_u64(), mv)
            })
            .collect();
        order.sort_unstable_by_key(|o| (o.0, o.1));
        for (_, _, mv) in order {
            if self.nodes >= self.budget || (self.nodes.is_multiple_of(1024) && self.out_of_time())
            {
                if best.1.is_empty() {
                    // Out of budget before any full turn: finish this one.
                    let mut p = pos.clone();
                    let mut rest = line.clone();
                    rest.extend(random_turn_from(&mut p, mv));
                    let v = balance(&p, self.us);
                    self.offer(v, &rest, best);
                }
                return;
            }
            self.nodes += 1;
            let mut child = pos.clone();
            let effect = child.play(mv);
            line.push(mv);
            if effect.turn_ended {
                let v = balance(&child, self.us);
                self.offer(v, line, best);
            } else if self.seen.insert(child.key()) {
                self.dfs(&child, line, best);
            }
            line.pop();
        }
    }

    fn offer(&mut self, value: i32, line: &[Move], best: &mut (i32, Vec<Move>)) {
        if value > best.0 {
            *best = (value, line.to_vec());
        }
    }
}

/// Plays `first`, then the first legal move until the turn ends.
fn random_turn_from(p: &mut Position, first: Move) -> Vec<Move> {
    let mut turn = vec![first];
    if p.play(first).turn_ended {
        return turn;
    }
    loop {
        let moves = legal_moves(p);
        let Some(&mv) = moves.as_slice().first() else {
            return turn;
        };
        turn.push(mv);
        if p.play(mv).turn_ended {
            return turn;
        }
    }
}

fn balance(pos: &Position, us: crate::chess::Color) -> i32 {
    material(pos, us) - material(pos, us.other())
}
