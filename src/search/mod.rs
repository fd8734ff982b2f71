//! Search: iterative-deepening alpha-beta over growing turns.
//!
//! A ply is one move. The side to move changes only at turn boundaries, so
//! the same side maximises for several plies in a row and scores are negated
//! only when a move ends the turn ([`MoveEffect::turn_ended`]). At the root,
//! a mate in this turn is looked for first ([`mate::mate_in_this_turn`]) and
//! played at once when found.
//!
//! [`MoveEffect::turn_ended`]: crate::chess::MoveEffect

pub mod bench;
pub mod eval;
pub mod mate;
mod ordering;
pub mod time;
pub mod tt;

use crate::chess::status::{is_dead_position, is_mated};
use crate::chess::{Move, Position, legal_moves};
use mate::{MateBudget, MateFound, mate_in_this_turn};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tt::{Bound, Entry, Tt};

/// A score for a side that mates at ply 0; mates `n` plies away score `MATE - n`.
pub const MATE: i32 = 30_000;
const INFINITY: i32 = 32_000;
/// Scores beyond this are mates.
const MATE_BOUND: i32 = MATE - 1000;
/// Deepest ply the search can reach (main search plus quiescence).
const MAX_PLY: usize = 128;
/// Deepest nominal depth of iterative deepening.
pub const MAX_DEPTH: u32 = 100;
/// Quiescence follows captures at most this many plies.
const MAX_QPLY: i32 = 6;
/// Nodes that depth 1 may use whatever the limits (a legal, sensible turn
/// even when stopped at once), and that a filler move may use.
const PROTECTED_NODES: u64 = 20_000;
/// Budget of the root mate check, in moves.
const ROOT_MATE_NODES: u64 = 200_000;
/// Budget of the mate check made for the ten-quiet-turns rule inside the tree.
const TREE_MATE_NODES: u64 = 2_000;

/// A player's clock for `go wtime/btime/winc/binc/movestogo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time: Duration,
    pub increment: Duration,
    /// Turns to the next time control, if the GUI says.
    pub movestogo: Option<u32>,
}

/// What bounds a search. All limits given apply; none given means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// The clock of the side to move.
    pub clock: Option<Clock>,
    /// Search until stopped (the other limits are ignored).
    pub infinite: bool,
    /// Subtracted from every time budget (the GUI's and the pipe's delay).
    pub move_overhead: Duration,
}

/// A score for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many turns of the winner: `Mate(1)` mates in this turn,
    /// `Mate(-1)`: the opponent mates in its next turn.
    Mate(i32),
}

/// Progress reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation, a flat list of moves across turns.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The rest of the current turn to play; empty when the game is over.
    pub turn: Vec<Move>,
    pub score: Score,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub depth: u32,
}

/// A searcher with a transposition table that persists between searches.
pub struct Searcher {
    tt: Tt,
}

impl Searcher {
    /// A searcher with a table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mib),
        }
    }

    /// Replaces the table by an empty one of `hash_mib` MiB.
    pub fn resize(&mut self, hash_mib: usize) {
        self.tt = Tt::new(hash_mib);
    }

    /// Empties the table (a new game, or `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches `pos` within `limits` or until `stop` is set, calling
    /// `on_info` after each completed iteration. Always returns a legal turn
    /// unless the game is over, even when stopped at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut worker = Worker::new(&mut self.tt, limits, stop);
        worker.run(pos, limits, on_info)
    }
}

/// Searches `pos` with a fresh 16 MiB table (see [`Searcher::search`]).
pub fn search(
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    on_info: impl FnMut(&SearchInfo),
) -> SearchResult {
    Searcher::new(16).search(pos, limits, stop, on_info)
}

/// The state of one search.
struct Worker<'a> {
    tt: &'a mut Tt,
    stop: &'a AtomicBool,
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    /// Set once a limit or `stop` ends the search; results after it are void.
    aborted: bool,
    /// Until the node count reaches this, limits and `stop` are ignored, so
    /// that depth 1 (or a filler move) gets a fair chance to finish.
    protected_until: u64,
    killers: Vec<[Move; 2]>,
    pv: Vec<Vec<Move>>,
}

impl<'a> Worker<'a> {
    fn new(tt: &'a mut Tt, limits: &Limits, stop: &'a AtomicBool) -> Worker<'a> {
        let budget = time::budget(limits);
        let unlimited = limits.infinite;
        Worker {
            tt,
            stop,
            start: Instant::now(),
            soft: budget.soft,
            hard: budget.hard,
            node_limit: if unlimited {
                u64::MAX
            } else {
                limits.nodes.unwrap_or(u64::MAX)
            },
            nodes: 0,
            seldepth: 0,
            aborted: false,
            protected_until: 0,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    fn run(
        &mut self,
        root: &Position,
        limits: &Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        if legal_moves(root).is_empty() {
            let score = if is_mated(root) {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            return self.result(Vec::new(), score, Vec::new(), 0);
        }
        if let Some(line) = self.root_mate(root) {
            let info = self.info(1, Score::Mate(1), line.clone());
            on_info(&info);
            return self.result(line.clone(), Score::Mate(1), line, 1);
        }
        let max_depth = if limits.infinite {
            MAX_DEPTH
        } else {
            limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
        };
        let mut best: Option<(Vec<Move>, i32, u32)> = None;
        for depth in 1..=max_depth {
            if depth == 1 {
                self.protected_until = self.nodes + PROTECTED_NODES;
            }
            self.seldepth = 0;
            let score = self.alphabeta(root, depth as i32, 0, -INFINITY, INFINITY);
            self.protected_until = 0; // deeper iterations obey every limit
            if self.aborted {
                if best.is_none() && !self.pv[0].is_empty() {
                    best = Some((self.pv[0].clone(), 0, 0)); // a partial depth 1
                }
                break;
            }
            let pv = self.pv[0].clone();
            let info = self.info(depth, to_score(score, root, &pv), pv.clone());
            on_info(&info);
            best = Some((pv, score, depth));
            if self.soft.is_some_and(|s| self.start.elapsed() >= s / 2)
                || score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth
            {
                break; // no time for a deeper iteration, or a forced mate is seen
            }
        }
        let (pv, score, depth) = best.unwrap_or_default();
        let turn = self.complete_turn(root, &pv);
        self.result(turn, to_score(score, root, &pv), pv, depth)
    }

    /// A mate in this turn, found within a small budget.
    fn root_mate(&mut self, root: &Position) -> Option<Vec<Move>> {
        let deadline = self.soft.map(|s| self.start + s / 4);
        let budget = MateBudget {
            nodes: ROOT_MATE_NODES.min(self.node_limit),
            deadline,
        };
        let outcome = mate_in_this_turn(root, budget, self.stop);
        self.nodes += outcome.nodes;
        match outcome.found {
            MateFound::Mate(line) => Some(line),
            _ => None,
        }
    }

    fn result(&self, turn: Vec<Move>, score: Score, pv: Vec<Move>, depth: u32) -> SearchResult {
        SearchResult {
            turn,
            score,
            pv,
            nodes: self.nodes,
            depth,
        }
    }

    fn info(&self, depth: u32, score: Score, pv: Vec<Move>) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            score,
            nodes: self.nodes,
            time: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pv,
        }
    }

    /// The rest of the current turn: the pv's moves up to the turn's end,
    /// then (if the pv stops short) the table's moves or a shallow search.
    fn complete_turn(&mut self, root: &Position, pv: &[Move]) -> Vec<Move> {
        let mut pos = root.clone();
        let mut turn = Vec::new();
        let mut pending = pv.iter().copied();
        loop {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                return turn; // stuck: the turn ends here (a stalemate)
            }
            let from_pv = pending.next().filter(|mv| moves.contains(*mv));
            let mv = from_pv.unwrap_or_else(|| self.filler_move(&pos, &moves));
            turn.push(mv);
            if pos.play(mv).turn_ended {
                return turn;
            }
        }
    }

    /// A move to continue a turn the main search did not see to its end.
    fn filler_move(&mut self, pos: &Position, moves: &crate::chess::MoveList) -> Move {
        if let Some(e) = self.tt.probe(pos.key())
            && moves.contains(e.mv)
        {
            return e.mv;
        }
        let hurry = self.stop.load(Ordering::Relaxed) || self.aborted;
        self.aborted = false;
        let (depth, nodes) = if hurry {
            (1, PROTECTED_NODES / 8)
        } else {
            (2, PROTECTED_NODES)
        };
        self.protected_until = self.nodes + nodes;
        self.alphabeta(pos, depth, 0, -INFINITY, INFINITY);
        let mv = self.pv[0].first().copied().unwrap_or(moves.as_slice()[0]);
        if moves.contains(mv) {
            mv
        } else {
            moves.as_slice()[0]
        }
    }

    /// Counts a node and tells whether the search must end now.
    #[inline]
    fn should_stop(&mut self) -> bool {
        self.nodes += 1;
        if self.aborted {
            return true;
        }
        if self.nodes < self.protected_until {
            return false;
        }
        if self.nodes >= self.node_limit
            || self.nodes.is_multiple_of(1024)
                && (self.stop.load(Ordering::Relaxed)
                    || self.hard.is_some_and(|h| self.start.elapsed() >= h))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The score of a position with no legal move, or of a drawn one.
    fn terminal(pos: &Position, ply: usize) -> i32 {
        if is_mated(pos) {
            -(MATE - ply as i32)
        } else {
            0 // stalemate (at the start of a turn or inside it)
        }
    }

    fn alphabeta(&mut self, pos: &Position, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 && self.should_stop() {
            return 0;
        }
        let moves = legal_moves(pos);
        if moves.is_empty() {
            return Self::terminal(pos, ply);
        }
        if ply > 0
            && let Some(score) = self.draw_or_quiet_mate(pos, ply)
        {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - MAX_QPLY as usize - 1 {
            return self.qsearch(pos, ply, alpha, beta, 0);
        }
        let tt_entry = self.tt.probe(pos.key());
        if ply > 0
            && let Some(score) = tt_entry.and_then(|e| tt_cutoff(e, depth, ply, alpha, beta))
        {
            return score;
        }
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.mv);
        let ordered = ordering::order(pos, &moves, tt_move, &self.killers[ply]);
        self.search_moves(pos, &ordered, depth, ply, alpha, beta)
    }

    /// The move loop of [`Self::alphabeta`]; stores the result in the table.
    fn search_moves(
        &mut self,
        pos: &Position,
        ordered: &[Move],
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        for &mv in ordered {
            let mut child = pos.clone();
            let effect = child.play(mv);
            let score = if effect.turn_ended {
                -self.alphabeta(&child, depth - 1, ply + 1, -beta, -alpha)
            } else {
                self.alphabeta(&child, depth - 1, ply + 1, alpha, beta)
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(ply, mv);
            }
            if alpha >= beta {
                if ordering::victim(pos, mv).is_none() {
                    self.add_killer(ply, mv);
                }
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(Entry {
            key: pos.key(),
            mv: best_move,
            score: score_to_tt(best, ply),
            depth: depth as i16,
            bound,
        });
        best
    }

    /// Dead positions are drawn; after ten quiet turns the game is drawn
    /// unless the side to move can mate in this turn (checked on a budget).
    fn draw_or_quiet_mate(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        if is_dead_position(pos) {
            return Some(0);
        }
        if pos.moves_made() > 0 || pos.quiet_turns() < 10 {
            return None;
        }
        let budget = MateBudget {
            nodes: TREE_MATE_NODES,
            deadline: None,
        };
        let outcome = mate_in_this_turn(pos, budget, self.stop);
        self.nodes += outcome.nodes;
        Some(match outcome.found {
            MateFound::Mate(line) => MATE - (ply + line.len()) as i32,
            _ => 0,
        })
    }

    /// Captures only, with "stand pat": the mover may also make quiet moves.
    fn qsearch(&mut self, pos: &Position, ply: usize, mut alpha: i32, beta: i32, qply: i32) -> i32 {
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }
        let moves = legal_moves(pos);
        if moves.is_empty() {
            return Self::terminal(pos, ply);
        }
        let stand = eval::evaluate(pos);
        if stand >= beta || qply >= MAX_QPLY {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        for mv in ordering::order_noisy(pos, &moves) {
            let mut child = pos.clone();
            let score = if child.play(mv).turn_ended {
                -self.qsearch(&child, ply + 1, -beta, -alpha, qply + 1)
            } else {
                self.qsearch(&child, ply + 1, alpha, beta, qply + 1)
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(ply, mv);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }
}

/// A table score usable at this node, if the stored bound allows a cutoff.
fn tt_cutoff(e: Entry, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    if (e.depth as i32) < depth {
        return None;
    }
    let score = score_from_tt(e.score, ply);
    match e.bound {
        Bound::Exact => Some(score),
        Bound::Lower if score >= beta => Some(score),
        Bound::Upper if score <= alpha => Some(score),
        _ => None,
    }
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The reported score: centipawns, or mate counted in the winner's turns.
fn to_score(score: i32, root: &Position, pv: &[Move]) -> Score {
    if score.abs() < MATE_BOUND {
        return Score::Cp(score);
    }
    let plies = (MATE - score.abs()) as usize;
    let turn_ends = turn_ends_within(root, pv, plies);
    if score > 0 {
        Score::Mate(turn_ends.div_ceil(2).max(1) as i32)
    } else {
        Score::Mate(-((turn_ends / 2).max(1) as i32))
    }
}

/// How many turns end in the first `plies` moves from `root`: counted on the
/// pv, then (past its end) assuming full-length turns.
fn turn_ends_within(root: &Position, pv: &[Move], plies: usize) -> usize {
    let mut pos = root.clone();
    let mut ends = 0;
    let mut played = 0;
    for &mv in pv.iter().take(plies) {
        ends += pos.play(mv).turn_ended as usize;
        played += 1;
    }
    let mut left_in_turn = pos.moves_left() as usize;
    let mut length = pos.turn_length() as usize;
    while played < plies {
        let step = left_in_turn.min(plies - played);
        played += step;
        if step == left_in_turn {
            ends += 1;
            length += 1;
            left_in_turn = length;
        } else {
            left_in_turn -= step;
        }
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn is_legal_turn(pos: &Position, turn: &[Move]) -> bool {
        let mut p = pos.clone();
        for (i, &mv) in turn.iter().enumerate() {
            if !legal_moves(&p).contains(mv) {
                return false;
            }
            if p.play(mv).turn_ended {
                return i + 1 == turn.len();
            }
        }
        legal_moves(&p).is_empty()
    }

    #[test]
    fn plays_a_mate_in_this_turn() {
        let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Italian).unwrap();
        let r = search(&pos, &depth(3), &AtomicBool::new(false), |_| {});
        assert_eq!(r.score, Score::Mate(1));
        assert!(is_legal_turn(&pos, &r.turn));
    }

    #[test]
    fn returns_a_whole_legal_turn_even_when_stopped_at_once() {
        let mut pos = Position::startpos(Rules::Italian);
        for m in ["e2e4", "e7e5", "d7d5"] {
            let mv = crate::chess::notation::parse_uci(&pos, m).unwrap();
            pos.play(mv);
        }
        let stopped = AtomicBool::new(true);
        let r = search(&pos, &Limits::default(), &stopped, |_| {});
        assert_eq!(r.turn.len(), 3);
        assert!(is_legal_turn(&pos, &r.turn));
    }

    #[test]
    fn fixed_depth_is_deterministic() {
        let pos = Position::startpos(Rules::Italian);
        let stop = AtomicBool::new(false);
        let a = search(&pos, &depth(4), &stop, |_| {});
        let b = search(&pos, &depth(4), &stop, |_| {});
        assert_eq!((a.nodes, a.turn), (b.nodes, b.turn));
    }

    #[test]
    fn sees_material_win() {
        // Black to move with two moves: the hanging white queen is taken.
        let pos = fen::parse("4k3/8/8/8/8/2r5/8/Q3K3 b - - 0 2", Rules::Italian).unwrap();
        let r = search(&pos, &depth(3), &AtomicBool::new(false), |_| {});
        assert!(is_legal_turn(&pos, &r.turn));
        assert!(
            r.turn.iter().any(|m| m.to().to_string() == "a1"),
            "{:?}",
            r.turn
        );
    }

    #[test]
    fn game_over_gives_an_empty_turn() {
        let pos = fen::parse("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 2", Rules::Italian).unwrap();
        let r = search(&pos, &depth(2), &AtomicBool::new(false), |_| {});
        assert!(r.turn.is_empty());
        assert_eq!(r.score, Score::Mate(0));
    }

    #[test]
    fn mate_scores_count_turns() {
        let pos = Position::startpos(Rules::Italian);
        assert_eq!(turn_ends_within(&pos, &[], 1), 1);
        assert_eq!(turn_ends_within(&pos, &[], 3), 2);
        assert_eq!(to_score(MATE - 1, &pos, &[]), Score::Mate(1));
        assert_eq!(to_score(MATE - 6, &pos, &[]), Score::Mate(2));
        assert_eq!(to_score(-(MATE - 3), &pos, &[]), Score::Mate(-1));
    }
}
