//! The search: iterative deepening negamax with alpha-beta (principal
//! variation search), a transposition table, move ordering, and an exact
//! endgame solver once few empty squares remain.
//!
//! Scores inside the search are centi-squares for the side to move. A
//! finished game scores `WIN + 100 * margin` (negated for a loss, 0 for a
//! draw), so any proven win beats any evaluation and bigger wins beat
//! smaller ones.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::eval::{SQUARE, evaluate};
use super::movegen::Moves;
use super::moves::Move;
use super::position::{GameResult, Position, Status, path, splitmix};
use super::square::SquareSet;
use super::tt::{Bound, Entry, Tt};

/// Base of a finished game's score.
const WIN: i32 = 1_000_000;
/// Above every score.
const INF: i32 = 2 * WIN;
/// The depth that means "to the end of the game": every leaf is a
/// finished game, and a table entry of this depth is exact at any depth.
const SOLVE_DEPTH: i32 = 200;
/// Deepest iteration when no depth is given.
const MAX_DEPTH: u32 = 64;
/// How often (in nodes) the clock and the stop flag are read.
const POLL_NODES: u64 = 128;
/// With blockers, the blocker moves searched below the root come from this
/// many best-ordered token moves only (a turn has up to ~20 blocker moves
/// per token move, which would swamp the search).
const BLOCKER_EXPANSIONS: usize = 3;
/// In an exact solve, moves are ordered by evaluating the position after
/// each while at least this many squares are empty.
const FASTEST_FIRST_EMPTIES: u32 = 7;
/// Iterations run before an exact solve.
const SOLVE_AFTER_DEPTH: u32 = 4;

/// Limits of one search; all optional. The search stops at whichever is
/// hit first, or when the `stop` flag is raised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in turns.
    pub depth: Option<u32>,
    /// Node budget (the search stops once it is spent).
    pub nodes: Option<u64>,
    /// Time for this move, counted from the call.
    pub movetime: Option<Duration>,
    /// Absolute time to answer by.
    pub deadline: Option<Instant>,
    /// Evaluation noise amplitude in centi-squares (0: none), to weaken play.
    pub noise: u32,
    /// Seed of the noise; the same seed gives the same games.
    pub seed: u64,
    /// Solve exactly when at most this many empty squares remain (default
    /// 14 without blockers, 8 with; 0 turns the solver off). A depth limit
    /// below the number of empty squares also skips the solver.
    pub solve_empties: Option<u32>,
}

impl Limits {
    /// A strength level from 0 (weakest) to 20 (full strength): the depth
    /// limit grows (none at 20), the noise shrinks (none at 20) and the
    /// endgame solver starts earlier (off at 0, the default at 20).
    pub fn skill(level: u32, seed: u64) -> Limits {
        let level = level.min(20);
        Limits {
            depth: (level < 20).then_some(1 + level / 3),
            noise: (20 - level) * 10,
            seed,
            solve_empties: (level < 20).then_some(level / 2),
            ..Limits::default()
        }
    }
}

/// A search score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An estimate in centi-squares (100 = one square) for the side to move.
    Eval(i32),
    /// A proven result: the final square difference for the side to move
    /// (> 0 win, 0 draw, < 0 loss). Exact when the search solved the
    /// position ([`SearchResult::solved`]); otherwise a forced win or loss
    /// was found and the margin is that of the line found.
    Proven(i32),
}

impl Score {
    /// The protocol's score text: `cp <centi-squares>`, or for a proven
    /// result `mate <N>` (win) or `mate -<N>` (loss), N being the side to
    /// move's turns in a principal variation of `pv_len` turns; a proven
    /// draw is `cp 0`.
    pub fn uci(self, pv_len: usize) -> String {
        let own_turns = pv_len.div_ceil(2).max(1);
        match self {
            Score::Eval(cp) => format!("cp {cp}"),
            Score::Proven(0) => "cp 0".to_string(),
            Score::Proven(m) if m > 0 => format!("mate {own_turns}"),
            Score::Proven(_) => format!("mate -{own_turns}"),
        }
    }

    /// A proven result in words: `draw`, or `the side to move wins by <m>
    /// squares` (or `loses by`); `None` for an estimate.
    pub fn proven_text(self) -> Option<String> {
        match self {
            Score::Proven(0) => Some("draw".to_string()),
            Score::Proven(m) => Some(format!(
                "the side to move {} by {} squares",
                if m > 0 { "wins" } else { "loses" },
                m.abs()
            )),
            Score::Eval(_) => None,
        }
    }
}

/// Progress report after each completed iteration (and the solve).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth of the completed iteration, in turns.
    pub depth: u32,
    /// Its score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Whether the endgame solver proved the score exactly.
    pub solved: bool,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is already over.
    pub best_move: Option<Move>,
    /// Score of the deepest completed iteration.
    pub score: Score,
    /// Depth of the deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Whether the endgame solver proved the score exactly.
    pub solved: bool,
}

/// Searches `pos` with a fresh 16 MiB table (so the answer depends only on
/// the arguments, apart from time limits), calling `info` after each
/// iteration. See [`Searcher::search`].
pub fn search(
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    Searcher::new(16).search(pos, limits, stop, info)
}

/// A search with its transposition table and move-ordering history, kept
/// between searches of one game.
pub struct Searcher {
    table: Tt,
    /// Cutoff counts per (from, to) square pair.
    history: Vec<i32>,
}

impl Searcher {
    /// A searcher with a table of about `hash_mb` MiB (at least 1).
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            table: Tt::new(hash_mb),
            history: vec![0; 256 * 256],
        }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.fill(0);
    }

    /// Finds a move for `pos` within `limits`, or until `stop` is raised
    /// (read every 128 nodes, well under a millisecond). `info` hears of
    /// each completed iteration. Without a time limit or `stop`, the answer
    /// is a function of the position, the limits and the earlier searches
    /// of this searcher.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let deadline = match (limits.deadline, limits.movetime) {
            (Some(d), Some(t)) => Some(d.min(start + t)),
            (d, t) => d.or_else(|| t.map(|t| start + t)),
        };
        let mut worker = Worker {
            table: &mut self.table,
            history: &mut self.history,
            stop,
            start,
            deadline,
            node_limit: limits.nodes,
            nodes: 0,
            aborted: false,
            noise: limits.noise as i32,
            seed: limits.seed,
        };
        worker.iterate(pos, limits, info)
    }
}

/// The state of one search.
struct Worker<'a> {
    table: &'a mut Tt,
    history: &'a mut [i32],
    stop: &'a AtomicBool,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    aborted: bool,
    noise: i32,
    seed: u64,
}

impl Worker<'_> {
    /// Iterative deepening, then the exact solve when it applies.
    fn iterate(
        &mut self,
        pos: &Position,
        limits: &Limits,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let legal = pos.legal_moves();
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
        let pv = self.principal_variation(pos, depth.max(1) as usize);
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
        let moves = self.ordered_moves(pos, entry.and_then(|e| e.best), ply == 0 || exact);
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

/// A finished game's score for the side to move.
fn final_score(pos: &Position, result: &GameResult) -> i32 {
    let margin = match pos.side_to_move() {
        super::Color::White => result.white as i32 - result.black as i32,
        super::Color::Black => result.black as i32 - result.white as i32,
    };
    margin.signum() * WIN + margin * SQUARE
}

/// The square margin of a finished-game score.
fn margin_of(value: i32) -> i32 {
    (value - value.signum() * WIN) / SQUARE
}

/// The score of a position searched no further.
fn static_score(pos: &Position) -> Score {
    match pos.status() {
        Status::Over(result) => Score::Proven(margin_of(final_score(pos, &result))),
        Status::Ongoing => Score::Eval(evaluate(pos)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::{Color, Options};

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    fn quiet(pos: &Position, limits: &Limits) -> SearchResult {
        search(pos, limits, &AtomicBool::new(false), &mut |_| {})
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Plain minimax over every legal move: the final square margin for
    /// the side to move.
    fn minimax(pos: &Position) -> i32 {
        if let Status::Over(r) = pos.status() {
            let margin = r.white as i32 - r.black as i32;
            return if pos.side_to_move() == Color::White {
                margin
            } else {
                -margin
            };
        }
        pos.legal_moves()
            .iter()
            .map(|&mv| -minimax(&pos.after(mv)))
            .max()
            .unwrap()
    }

    fn next_random(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random games on `board` stopped with `empties` empty squares left.
    fn endgames(board: &str, options: Options, empties: u32, count: usize) -> Vec<Position> {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let mut found = Vec::new();
        while found.len() < count {
            let mut p = Position::new(&Options {
                board: board.parse().unwrap(),
                ..options
            });
            while p.empty_squares().len() > empties && !p.is_over() {
                let moves = p.legal_moves();
                p.play(moves[next_random(&mut seed) as usize % moves.len()]);
            }
            if !p.is_over() {
                found.push(p);
            }
        }
        found
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        for (equal_moves, blockers) in [(false, false), (true, false), (false, true), (true, true)]
        {
            let options = Options {
                equal_moves,
                blockers,
                ..Options::default()
            };
            // Plain minimax over every blocker move is slow: fewer empties.
            let empties = if blockers { 2 } else { 5 };
            for p in endgames("5x5", options, empties, 6) {
                let result = quiet(&p, &Limits::default());
                assert!(result.solved, "{p}");
                assert_eq!(result.score, Score::Proven(minimax(&p)), "{p}");
                let best = result.best_move.unwrap();
                assert_eq!(-minimax(&p.after(best)), minimax(&p), "{p}: {best}");
            }
        }
    }

    #[test]
    fn a_depth_limited_search_is_deterministic_and_legal() {
        let p = pos("#6#/8/2b5/3w4/8/8/8/#6# w c6 0 - -");
        let (a, b) = (quiet(&p, &depth(3)), quiet(&p, &depth(3)));
        assert_eq!(
            (a.best_move, a.score, a.nodes, &a.pv),
            (b.best_move, b.score, b.nodes, &b.pv)
        );
        assert_eq!(a.depth, 3);
        assert!(p.legal_moves().contains(&a.best_move.unwrap()));
        let mut q = p;
        for &mv in &a.pv {
            q.play_checked(mv).unwrap();
        }
    }

    #[test]
    fn search_stops_on_the_flag_and_the_node_limit() {
        let start = Position::new(&Options::default());
        let raised = AtomicBool::new(true);
        let result = search(&start, &Limits::default(), &raised, &mut |_| {});
        assert!(result.best_move.is_some() && result.nodes <= POLL_NODES);
        let limited = quiet(
            &start,
            &Limits {
                nodes: Some(5000),
                ..Limits::default()
            },
        );
        assert!(limited.nodes <= 5000 && limited.best_move.is_some());
        let timed = Limits {
            movetime: Some(Duration::from_millis(30)),
            ..Limits::default()
        };
        let clock = Instant::now();
        quiet(
            &start.after(Move::Drop {
                to: "d4".parse().unwrap(),
                blocker: None,
            }),
            &timed,
        );
        assert!(clock.elapsed() < Duration::from_millis(500));
    }

    #[test]
    fn search_reports_each_iteration_and_handles_finished_games() {
        let p = pos("#6#/8/2b5/3w4/8/8/8/#6# w c6 0 - -");
        let mut depths = Vec::new();
        search(&p, &depth(3), &AtomicBool::new(false), &mut |i| {
            depths.push(i.depth)
        });
        assert_eq!(depths, [1, 2, 3]);
        let over = pos("wb#./bb#./###./4 w - 2 - -");
        let result = quiet(&over, &depth(3));
        assert_eq!((result.best_move, result.score), (None, Score::Proven(-2)));
    }

    #[test]
    fn a_shallow_search_beats_random_play() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        for game in 0..4 {
            let engine = if game % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mut p = Position::new(&Options {
                board: "6x6".parse().unwrap(),
                ..Options::default()
            });
            while !p.is_over() {
                let mv = if p.side_to_move() == engine {
                    quiet(
                        &p,
                        &Limits {
                            depth: Some(2),
                            solve_empties: Some(8),
                            ..Limits::default()
                        },
                    )
                    .best_move
                    .unwrap()
                } else {
                    let moves = p.legal_moves();
                    moves[next_random(&mut seed) as usize % moves.len()]
                };
                p.play(mv);
            }
            let Status::Over(r) = p.status() else {
                unreachable!()
            };
            let (mine, theirs) = if engine == Color::White {
                (r.white, r.black)
            } else {
                (r.black, r.white)
            };
            assert!(mine > theirs, "game {game}: {p}");
        }
    }

    #[test]
    fn blocker_games_search_and_noise_changes_nothing_but_the_choice() {
        let options = Options {
            blockers: true,
            ..Options::default()
        };
        let mut p = Position::new(&options);
        for _ in 0..4 {
            let result = quiet(&p, &depth(2));
            p.play_checked(result.best_move.unwrap()).unwrap();
        }
        assert_eq!(p.blocker_set().len(), 2);
        let noisy = Limits {
            noise: 300,
            seed: 7,
            ..depth(2)
        };
        let mv = quiet(&p, &noisy).best_move.unwrap();
        assert_eq!(quiet(&p, &noisy).best_move.unwrap(), mv);
        assert!(p.legal_moves().contains(&mv));
    }
}
