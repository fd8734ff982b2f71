//! One Linear Progression search: iterative deepening negamax with
//! alpha-beta (principal variation search) over turns, the table, move
//! ordering by history, and the exact endgame solve.

use super::eval::evaluate;
use super::limits::Limits;
use super::movegen::Moves;
use super::moves::Move;
use super::position::{Position, Status, path, splitmix};
use super::score::{INF, Score, WIN, final_score, margin_of, static_score};
use super::search::{SearchInfo, SearchResult};
use super::square::SquareSet;
use super::tt::{Bound, Entry, Tt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The depth that means "to the end of the game": every leaf is a
/// finished game, and a table entry of this depth is exact at any depth.
const SOLVE_DEPTH: i32 = 200;
/// Deepest iteration when no depth is given.
const MAX_DEPTH: u32 = 64;
/// How often (in nodes) the clock and the stop flag are read.
pub(super) const POLL_NODES: u64 = 128;
/// With blockers, the blocker moves searched below the root come from this
/// many best-ordered token moves only (a turn has up to ~20 blocker moves
/// per token move, which would swamp the search).
const BLOCKER_EXPANSIONS: usize = 3;
/// In an exact solve, moves are ordered by evaluating the position after
/// each while at least this many squares are empty.
const FASTEST_FIRST_EMPTIES: u32 = 7;
/// Iterations run before an exact solve.
const SOLVE_AFTER_DEPTH: u32 = 4;

/// The state of one search.
pub(super) struct Worker<'a> {
    pub(super) table: &'a mut Tt,
    pub(super) history: &'a mut [i32],
    pub(super) stop: &'a AtomicBool,
    pub(super) start: Instant,
    pub(super) deadline: Option<Instant>,
    pub(super) node_limit: Option<u64>,
    pub(super) nodes: u64,
    pub(super) aborted: bool,
    pub(super) noise: i32,
    pub(super) seed: u64,
    /// The root moves to search (`go searchmoves`); empty: all. A
    /// restricted root is not stored in the table (its result holds for
    /// these moves only), so its best move is kept here.
    pub(super) root_moves: Vec<Move>,
    pub(super) root_best: Option<Move>,
}

impl Worker<'_> {
    /// Iterative deepening, then the exact solve when it applies.
    pub(super) fn iterate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let legal = if self.root_moves.is_empty() {
            pos.legal_moves()
        } else {
            self.root_moves.clone()
        };
        let mut result = SearchResult {
            best_move: legal.first().copied(),
            score: static_score(pos),
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: legal.first().copied().into_iter().collect(),
            solved: false,
        };
        if legal.len() <= 1 {
            return result;
        }
        let empties = pos.empty_squares().len();
        let default_solve = if pos.options().blockers { 8 } else { 14 };
        let solve_limit = limits.solve_empties.unwrap_or(default_solve);
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).max(1);
        let solve = empties <= solve_limit && max_depth >= empties;
        // The game cannot last longer than this many more turns: each
        // turn but passes (two end the game) and Black's rule-12 move
        // fills a square.
        let longest = 2 * empties + 3;
        // Before a solve, a few iterations give a fallback move and fill
        // the table with good first moves.
        let iterations = if solve {
            max_depth.min(SOLVE_AFTER_DEPTH)
        } else {
            max_depth.min(longest)
        };
        for depth in 1..=iterations {
            let value = self.negamax(pos, depth as i32, -INF, INF, 0);
            if self.aborted {
                break;
            }
            self.record(pos, &mut result, depth, value, false);
            info(&self.info(&result));
        }
        if solve && !self.aborted {
            self.solve(pos, &mut result, longest, info);
        }
        result.nodes = self.nodes;
        result.time = self.start.elapsed();
        result
    }

    /// The exact endgame solve: first win/draw/loss with a null window
    /// around a draw (much cheaper), then the exact margin inside the
    /// half it proved.
    fn solve(
        &mut self,
        pos: &Position,
        result: &mut SearchResult,
        depth: u32,
        info: &mut dyn FnMut(&SearchInfo),
    ) {
        let sign = self.negamax(pos, SOLVE_DEPTH, -1, 1, 0);
        if self.aborted {
            return;
        }
        // Fail-soft: a win scores at least `sign`, a loss at most `sign`.
        self.record(pos, result, depth, sign, sign == 0);
        info(&self.info(result));
        let exact = match sign.signum() {
            1 => self.negamax(pos, SOLVE_DEPTH, sign - 1, INF, 0),
            -1 => self.negamax(pos, SOLVE_DEPTH, -INF, sign + 1, 0),
            _ => return,
        };
        if !self.aborted {
            self.record(pos, result, depth, exact, true);
            info(&self.info(result));
        }
    }

    /// Stores a completed iteration's outcome in `result`.
    fn record(
        &mut self,
        pos: &Position,
        result: &mut SearchResult,
        depth: u32,
        value: i32,
        solved: bool,
    ) {
        let pv = match self.root_best.filter(|_| !self.root_moves.is_empty()) {
            Some(mv) => {
                let rest = self.principal_variation(&pos.after(mv), depth.max(1) as usize - 1);
                [vec![mv], rest].concat()
            }
            None => self.principal_variation(pos, depth.max(1) as usize),
        };
        result.best_move = pv.first().copied().or(result.best_move);
        result.pv = pv;
        result.depth = depth;
        result.solved = solved;
        result.score = if solved || value.abs() >= WIN {
            Score::Proven(margin_of(value))
        } else {
            Score::Eval(value)
        };
        result.nodes = self.nodes;
        result.time = self.start.elapsed();
    }

    fn info(&self, result: &SearchResult) -> SearchInfo {
        SearchInfo {
            depth: result.depth,
            score: result.score,
            nodes: self.nodes,
            time: self.start.elapsed(),
            pv: result.pv.clone(),
            solved: result.solved,
        }
    }

    /// Raises `aborted` once a limit is hit; the clock and the shared flag
    /// are read only every [`POLL_NODES`] nodes as they cost more.
    fn check_limits(&mut self) {
        if self.node_limit.is_some_and(|limit| self.nodes >= limit) {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(POLL_NODES) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
    }

    /// Negamax alpha-beta (PVS). `depth` counts turns; at
    /// [`SOLVE_DEPTH`] it never decreases, so only finished games score.
    fn negamax(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: u32) -> i32 {
        if self.aborted {
            return 0;
        }
        self.nodes += 1;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        if let Status::Over(result) = pos.status() {
            return final_score(pos, &result);
        }
        if depth <= 0 {
            return evaluate(pos) + self.noise(pos.key());
        }
        let key = pos.key();
        let entry = self.probe(key);
        if let Some(e) = entry.filter(|e| ply > 0 && i32::from(e.depth) >= depth) {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cut {
                return e.score;
            }
        }
        let exact = depth >= SOLVE_DEPTH;
        let mut moves = self.ordered_moves(pos, entry.and_then(|e| e.best), ply == 0 || exact);
        let restricted = ply == 0 && !self.root_moves.is_empty();
        if restricted {
            // Every allowed move, also one that the ordering merged with
            // an equivalent slide.
            let mut allowed: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|mv| self.root_moves.contains(mv))
                .collect();
            let missing: Vec<Move> = (self.root_moves.iter().copied())
                .filter(|mv| !allowed.contains(mv))
                .collect();
            allowed.extend(missing);
            moves = allowed;
        }
        let child_depth = if exact { depth } else { depth - 1 };
        let (original_alpha, mut best, mut best_move) = (alpha, -INF, moves[0]);
        for (i, &mv) in moves.iter().enumerate() {
            let child = pos.after(mv);
            let mut score = if i == 0 {
                -self.negamax(&child, child_depth, -beta, -alpha, ply + 1)
            } else {
                -self.negamax(&child, child_depth, -alpha - 1, -alpha, ply + 1)
            };
            if i > 0 && score > alpha && score < beta {
                score = -self.negamax(&child, child_depth, -beta, -alpha, ply + 1);
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                (best, best_move) = (score, mv);
                alpha = alpha.max(score);
                if alpha >= beta {
                    self.reward(mv, depth.min(20));
                    break;
                }
            }
        }
        if restricted {
            self.root_best = Some(best_move);
            return best;
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(key, best, depth, bound, best_move);
        best
    }

    /// The moves to search, best guess first: the table move, then by
    /// squares gained plus history. `full` lists every legal move with
    /// blockers (root and exact solve); otherwise blocker moves come from
    /// the best few token moves. Without blockers, moves that paint the
    /// same squares (so reach the same board) are searched once.
    fn ordered_moves(&self, pos: &Position, table_move: Option<Move>, full: bool) -> Vec<Move> {
        let blockers = pos.options().blockers && !pos.is_drop_turn();
        let mut scored = if blockers || pos.is_drop_turn() {
            let mut moves = Vec::with_capacity(64);
            pos.generate(
                &mut moves,
                if full { Moves::All } else { Moves::TokensOnly },
            );
            moves
                .iter()
                .map(|&mv| (self.order_score(pos, mv), mv))
                .collect()
        } else {
            self.distinct_slides(pos)
        };
        if full && !blockers && pos.empty_squares().len() >= FASTEST_FIRST_EMPTIES {
            // Near the root of a solve, a better order pays for an
            // evaluation per move: the opponent's worst replies first.
            for (score, mv) in &mut scored {
                *score = -evaluate(&pos.after(*mv));
            }
        }
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let mut moves: Vec<Move> = scored.into_iter().map(|(_, mv)| mv).collect();
        if blockers && !full {
            let table_slide = table_move.map(without_blocker);
            let expand: Vec<Move> = moves
                .iter()
                .enumerate()
                .filter(|&(i, &mv)| i < BLOCKER_EXPANSIONS || Some(mv) == table_slide)
                .map(|(_, &mv)| mv)
                .collect();
            for mv in expand {
                pos.push_blocker_variants(mv, &mut moves);
            }
        }
        if let Some(i) = table_move.and_then(|t| moves.iter().position(|&m| m == t)) {
            moves[..=i].rotate_right(1);
        }
        moves
    }

    /// Without blockers: the token moves with their order scores, one per
    /// set of painted squares. The board after a move is determined by
    /// that set (the last end matters only to blockers), so a move ending
    /// on an own token or one painting the same squares from elsewhere is
    /// searched once.
    fn distinct_slides(&self, pos: &Position) -> Vec<(i32, Move)> {
        let opp = pos.tokens(pos.side_to_move().other());
        let mut effects: Vec<([u64; 4], Move)> = Vec::with_capacity(64);
        pos.for_each_slide(|from, to, painted, ends_on_own| {
            if !ends_on_own {
                effects.push((
                    painted.0,
                    Move::Slide {
                        from,
                        to,
                        blocker: None,
                    },
                ));
            }
        });
        if effects.is_empty() {
            return vec![(0, Move::Pass)];
        }
        // A stable sort keeps the generation order among equals.
        effects.sort_by_key(|&(effect, _)| effect);
        effects.dedup_by_key(|&mut (effect, _)| effect);
        effects
            .into_iter()
            .map(|(effect, mv)| {
                let painted = SquareSet(effect);
                let gain = painted.len() + (painted & opp).len();
                (gain as i32 * 1000 + self.history_of(mv), mv)
            })
            .collect()
    }

    /// Squares the move gains (a capture swings two), plus history.
    fn order_score(&self, pos: &Position, mv: Move) -> i32 {
        match mv {
            Move::Slide { from, to, blocker } => {
                let painted = path(from, to);
                let opp = pos.tokens(pos.side_to_move().other());
                let gain = (painted & pos.empty_squares()).len() + 2 * (painted & opp).len();
                gain as i32 * 1000 + self.history_of(mv) - i32::from(blocker.is_some())
            }
            // Central drops first: they see the most lines.
            Move::Drop { to, .. } => {
                let (w, h) = (pos.board().width() as i32, pos.board().height() as i32);
                -((2 * to.file() as i32 - w + 1).abs() + (2 * to.rank() as i32 - h + 1).abs())
            }
            Move::Pass => 0,
        }
    }

    fn history_of(&self, mv: Move) -> i32 {
        match mv {
            Move::Slide { from, to, .. } => self.history[from.index() * 256 + to.index()].min(999),
            _ => 0,
        }
    }

    fn reward(&mut self, mv: Move, depth: i32) {
        if let Move::Slide { from, to, .. } = mv {
            let slot = &mut self.history[from.index() * 256 + to.index()];
            *slot = (*slot + depth * depth).min(1 << 20);
        }
    }

    fn noise(&self, key: u64) -> i32 {
        if self.noise == 0 {
            return 0;
        }
        let span = 2 * self.noise as u64 + 1;
        (splitmix(key ^ self.seed) % span) as i32 - self.noise
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.table.probe(key)
    }

    /// Always replaces, except a deeper entry of the same position.
    fn store(&mut self, key: u64, score: i32, depth: i32, bound: Bound, best: Move) {
        let entry = Entry {
            score,
            depth: depth.clamp(0, 255) as u8,
            bound,
            best: Some(best),
        };
        self.table.store(key, entry);
    }

    /// The table's best moves from `pos`, checked for legality.
    fn principal_variation(&self, pos: &Position, max_len: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut current = *pos;
        while pv.len() < max_len {
            let Some(mv) = self.probe(current.key()).and_then(|e| e.best) else {
                break;
            };
            if !current.legal_moves().contains(&mv) {
                break;
            }
            pv.push(mv);
            current.play(mv);
        }
        pv
    }
}

fn without_blocker(mv: Move) -> Move {
    match mv {
        Move::Slide { from, to, .. } => Move::Slide {
            from,
            to,
            blocker: None,
        },
        other => other,
    }
}
