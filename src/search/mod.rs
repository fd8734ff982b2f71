//! Search: iterative-deepening alpha-beta over growing turns.
//!
//! A ply is one move. The side to move changes only at turn boundaries, so
//! the same side maximises for several plies in a row and scores are negated
//! only when a move ends the turn ([`MoveEffect::turn_ended`]). At the root,
//! a mate in this turn is looked for first ([`mate::find_mate`]) and
//! played at once when found.
//!
//! [`MoveEffect::turn_ended`]: crate::chess::MoveEffect

pub mod bench;
pub mod eval;
pub mod levels;
mod ordering;
pub mod safety;
pub mod time;
pub mod tt;

use crate::chess::status::{Undecided, is_dead_position, is_mated, ten_quiet_turns};
use crate::chess::{Move, Position, legal_moves};
use crate::mate::{self, MateTable, Verdict};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

/// How many nodes (the mate checks' included) pass between two looks at the
/// flags and the clock. A node with its evaluation costs tens of
/// microseconds, so polling is cheap next to it, and 64 nodes keep `stop`
/// well inside its 50 ms.
const POLL_NODES: u64 = 64;
/// Default budget of the root mate check, in mate-finder nodes.
pub const ROOT_MATE_NODES: u64 = 400_000;
/// Default budget of the safety net's check of a turn (does the opponent
/// mate after it?), in mate-finder nodes.
pub const SAFETY_NODES: u64 = 400_000;
/// Part of the time budget the search uses when the safety net runs after
/// it, in percent.
pub(crate) const SEARCH_TIME_SHARE: u32 = 60;
/// Default budget of the mate check made at each turn start inside the tree
/// (does the side to move mate in its turn? then the previous turn lost).
pub const TREE_MATE_NODES: u64 = 1_000;
/// Slots of the cache of turn-start mate verdicts (a power of two).
const MATE_CACHE_SLOTS: usize = 1 << 16;
/// Size of the mate finder's table of "no mate" proofs, in MB.
const MATE_TABLE_MB: usize = 16;
/// Stack of each search thread: the recursion follows long turns.
pub const STACK_BYTES: usize = 64 << 20;

/// The threads a search (or `go mate`) should run when `requested` are
/// asked for: no more than the machine's hardware threads. More only
/// time-slice the same cores, and each must be scheduled once more before
/// the search can answer `stop` (Threads 64 on 2 cores: 100-300 ms, 256:
/// up to 830 ms, against the protocol's 50 ms).
pub fn usable_threads(requested: usize) -> usize {
    let hardware = std::thread::available_parallelism().map_or(1, |n| n.get());
    requested.clamp(1, hardware)
}

pub use crate::clock::Clock;

/// What bounds a search, and how it is run. All limits given apply; none
/// given means "until stopped".
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
    /// Search threads (0 or 1: one). Above 1: lazy SMP on the shared table.
    pub threads: usize,
    /// Root lines to search and report, best first (0 or 1: one).
    pub multipv: usize,
    /// Budget of the root "mate in this turn?" ([`ROOT_MATE_NODES`] if `None`).
    pub root_mate_nodes: Option<u64>,
    /// Budget of the mate check at turn starts in the tree ([`TREE_MATE_NODES`] if `None`).
    pub tree_mate_nodes: Option<u64>,
    /// Mate-finder nodes per turn the root safety net checks
    /// ([`SAFETY_NODES`] if `None`, 0: no safety net, and the search keeps
    /// the whole time budget).
    pub safety_nodes: Option<u64>,
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

/// Progress reported after each completed iteration, one per MultiPV line.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// Which line (1 = best).
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation, a flat list of moves across turns.
    pub pv: Vec<Move>,
}

impl Default for Score {
    fn default() -> Score {
        Score::Cp(0)
    }
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-3)) as u64
    }
}

/// One root line of the last completed iteration.
#[derive(Clone, Debug)]
pub struct Line {
    pub score: Score,
    /// The internal score (centipawns, or `±(MATE - plies)`).
    pub value: i32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The rest of the current turn to play; empty when the game is over.
    pub turn: Vec<Move>,
    pub score: Score,
    pub pv: Vec<Move>,
    /// Nodes of all threads (mate-finder nodes included).
    pub nodes: u64,
    pub depth: u32,
    /// The MultiPV lines of the last completed iteration, best first.
    pub lines: Vec<Line>,
}

/// A searcher with a transposition table and a mate table that persist
/// between searches.
pub struct Searcher {
    tt: Tt,
    mate: MateTable,
    /// Turn-start verdicts of the tree's mate checks: the key's high bits
    /// and, in the low byte, the mating line's length (0: none found).
    mate_cache: Box<[AtomicU64]>,
}

impl Searcher {
    /// A searcher with a table of `hash_mib` MiB.
    pub fn new(hash_mib: usize) -> Searcher {
        Searcher {
            tt: Tt::new(hash_mib),
            mate: MateTable::new(MATE_TABLE_MB),
            mate_cache: crate::memory::zeroed_atomics(MATE_CACHE_SLOTS),
        }
    }

    /// Replaces the table by an empty one of `hash_mib` MiB.
    pub fn resize(&mut self, hash_mib: usize) {
        self.tt = Tt::new(hash_mib);
        self.clear();
    }

    /// Empties the tables (a new game, or `Clear Hash`).
    pub fn clear(&mut self) {
        // Fresh allocations rather than zeros written over the old ones:
        // pages no search uses stay unmapped.
        self.tt.clear();
        self.mate = MateTable::new(MATE_TABLE_MB);
        self.mate_cache = crate::memory::zeroed_atomics(MATE_CACHE_SLOTS);
    }

    /// The mate finder's table (for `go mate` and the baselines).
    pub fn mate_table(&self) -> &MateTable {
        &self.mate
    }

    /// What the workers of one search share.
    fn shared<'a>(&'a self, stop: &'a Arc<AtomicBool>) -> Shared<'a> {
        Shared {
            tt: &self.tt,
            mate: &self.mate,
            mate_cache: &self.mate_cache,
            stop,
            halt: AtomicBool::new(false),
            helper_nodes: AtomicU64::new(0),
        }
    }

    /// The rest of the current turn along `pv`, continued by short searches
    /// where `pv` stops before the turn's end; they end by `deadline` (after
    /// it, the moves are chosen without searching).
    pub fn complete_turn(
        &mut self,
        pos: &Position,
        pv: &[Move],
        deadline: Option<Instant>,
        stop: &Arc<AtomicBool>,
    ) -> Vec<Move> {
        let shared = self.shared(stop);
        let limits = Limits {
            movetime: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            safety_nodes: Some(0), // the whole time is the fillers'
            ..Limits::default()
        };
        Worker::new(&shared, &limits, 0).complete_turn(pos, pv)
    }

    /// Searches `pos` within `limits` or until `stop` is set, calling
    /// `on_info` after each completed iteration. Always returns a legal turn
    /// unless the game is over, even when stopped at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let shared = self.shared(stop);
        let mut main = Worker::new(&shared, limits, 0);
        if let Some(result) = main.root_checks(pos, &mut on_info) {
            return result;
        }
        let threads = limits.threads.max(1);
        if threads == 1 {
            return main.run(pos, limits, on_info);
        }
        std::thread::scope(|scope| {
            let shared = &shared;
            for id in 1..threads {
                let spawned = std::thread::Builder::new()
                    .name(format!("helper {id}"))
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(shared, limits, id);
                        w.run_helper(pos);
                    });
                if let Err(e) = spawned {
                    log::warn!("cannot start search helper {id}: {e}");
                }
            }
            let mut result = main.run(pos, limits, on_info);
            shared.halt.store(true, Ordering::Relaxed);
            result.nodes += shared.helper_nodes.load(Ordering::Relaxed);
            result
        })
    }
}

/// Searches `pos` with fresh tables (see [`Searcher::search`]).
pub fn search(
    pos: &Position,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
    on_info: impl FnMut(&SearchInfo),
) -> SearchResult {
    Searcher::new(16).search(pos, limits, stop, on_info)
}

/// What the threads of one search share.
struct Shared<'a> {
    tt: &'a Tt,
    mate: &'a MateTable,
    mate_cache: &'a [AtomicU64],
    /// Set from outside (`stop`).
    stop: &'a Arc<AtomicBool>,
    /// Set when the main thread is done: the helpers end.
    halt: AtomicBool,
    /// Nodes counted by the helpers (added every 1024 nodes).
    helper_nodes: AtomicU64,
}

/// The state of one search thread.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    /// 0: the main thread; helpers search the same tree out of step.
    id: usize,
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    node_limit: u64,
    nodes: u64,
    /// Nodes not yet added to `helper_nodes` (helpers only).
    unreported: u64,
    /// Nodes since the flags and the clock were last looked at.
    since_poll: u64,
    /// The hard time limit has passed (seen at the last poll).
    out_of_time: bool,
    seldepth: usize,
    /// Set once a limit or `stop` ends the search; results after it are void.
    aborted: bool,
    /// Until the node count reaches this, limits and `stop` are ignored, so
    /// that depth 1 (or a filler move) gets a fair chance to finish.
    protected_until: u64,
    /// The protection covers the clock too (depth 1 only; a filler search
    /// obeys the clock, or a long turn's fillers could overrun it).
    protect_time: bool,
    root_mate_nodes: u64,
    /// Threads of the search: the root's mate check races them all.
    threads: usize,
    tree_mate_nodes: u64,
    /// Root moves not to search (the lines already found in this iteration).
    excluded: Vec<Move>,
    /// The turn length at the root (turns in the tree are counted from it).
    root_turn: u32,
    killers: Vec<[Move; 2]>,
    pv: Vec<Vec<Move>>,
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, limits: &Limits, id: usize) -> Worker<'a> {
        let budget = time::budget(limits);
        let unlimited = limits.infinite;
        let share = |t: Duration| match limits.safety_nodes {
            Some(0) => t,
            _ => t * SEARCH_TIME_SHARE / 100,
        };
        Worker {
            shared,
            id,
            start: Instant::now(),
            soft: budget.soft.map(share),
            hard: budget.hard.map(share),
            node_limit: if unlimited || id > 0 {
                u64::MAX
            } else {
                limits.nodes.unwrap_or(u64::MAX)
            },
            nodes: 0,
            unreported: 0,
            since_poll: 0,
            out_of_time: false,
            seldepth: 0,
            aborted: false,
            protected_until: 0,
            protect_time: false,
            root_mate_nodes: limits.root_mate_nodes.unwrap_or(ROOT_MATE_NODES),
            threads: limits.threads.max(1),
            tree_mate_nodes: limits.tree_mate_nodes.unwrap_or(TREE_MATE_NODES),
            excluded: Vec::new(),
            root_turn: 0,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    /// The game already over, or a mate in this turn: the answer without a search.
    fn root_checks(
        &mut self,
        root: &Position,
        on_info: &mut impl FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        if legal_moves(root).is_empty() {
            let score = if is_mated(root) {
                Score::Mate(0)
            } else {
                Score::Cp(0)
            };
            return Some(self.result(Vec::new(), score, Vec::new(), 0, Vec::new()));
        }
        let line = self.root_mate(root)?;
        let info = self.info(1, 1, Score::Mate(1), line.clone());
        on_info(&info);
        let lines = vec![Line {
            score: Score::Mate(1),
            value: MATE - line.len() as i32,
            pv: line.clone(),
        }];
        Some(self.result(line.clone(), Score::Mate(1), line, 1, lines))
    }

    fn run(
        &mut self,
        root: &Position,
        limits: &Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let max_depth = if limits.infinite {
            MAX_DEPTH
        } else {
            limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
        };
        let root_moves = legal_moves(root).len();
        let multipv = limits.multipv.clamp(1, root_moves.max(1));
        let mut best: Option<(Vec<Line>, u32)> = None;
        for depth in 1..=max_depth {
            if depth == 1 {
                self.protected_until = self.nodes + PROTECTED_NODES;
                self.protect_time = true;
            }
            self.seldepth = 0;
            let mut lines: Vec<Line> = Vec::new();
            self.excluded.clear();
            for k in 0..multipv {
                let value = self.alphabeta(root, depth as i32, 0, -INFINITY, INFINITY);
                if self.aborted || self.pv[0].is_empty() {
                    break;
                }
                let pv = self.pv[0].clone();
                self.excluded.push(pv[0]);
                lines.push(Line {
                    score: to_score(value, root, &pv),
                    value,
                    pv,
                });
                if k == 0 {
                    self.protected_until = 0; // only the first line is protected
                }
            }
            self.excluded.clear();
            self.protected_until = 0; // deeper iterations obey every limit
            self.protect_time = false;
            if self.aborted {
                if best.is_none() && !self.pv[0].is_empty() {
                    let pv = self.pv[0].clone();
                    best = Some((
                        vec![Line {
                            score: Score::Cp(0),
                            value: 0,
                            pv,
                        }],
                        0,
                    ));
                }
                if lines.is_empty() {
                    break;
                }
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.value));
            for (i, l) in lines.iter().enumerate() {
                let info = self.info(depth, i + 1, l.score, l.pv.clone());
                on_info(&info);
            }
            let top = lines[0].value;
            let complete = !self.aborted;
            if complete || best.as_ref().is_none_or(|b| b.1 == 0) {
                best = Some((lines, depth));
            }
            if !complete
                || self.soft.is_some_and(|s| self.start.elapsed() >= s / 2)
                || top.abs() >= MATE_BOUND && (MATE - top.abs()) as u32 <= depth
            {
                break; // no time for a deeper iteration, or a forced mate is seen
            }
        }
        let (lines, depth) = best.unwrap_or_default();
        let pv = lines.first().map(|l| l.pv.clone()).unwrap_or_default();
        let score = lines.first().map_or(Score::Cp(0), |l| l.score);
        let turn = self.complete_turn(root, &pv);
        self.result(turn, score, pv, depth, lines)
    }

    /// A helper thread: iterative deepening out of step with the main
    /// thread, filling the shared table, until halted.
    fn run_helper(&mut self, root: &Position) {
        let first = 1 + (self.id % 2) as u32;
        for depth in first..=MAX_DEPTH {
            self.alphabeta(root, depth as i32, 0, -INFINITY, INFINITY);
            if self.aborted {
                break;
            }
        }
        self.shared
            .helper_nodes
            .fetch_add(self.unreported, Ordering::Relaxed);
    }

    fn mate_check(&mut self, pos: &Position, nodes: u64) -> Verdict {
        let budget = mate::Budget {
            stop: Some(self.shared.stop),
            ..mate::Budget::nodes(nodes)
        };
        let outcome = mate::find_mate(pos, &budget, self.shared.mate);
        self.nodes += outcome.nodes;
        self.unreported += outcome.nodes;
        self.since_poll += outcome.nodes;
        outcome.verdict
    }

    /// A mate in this turn, found within the root budget.
    fn root_mate(&mut self, root: &Position) -> Option<Vec<Move>> {
        let deadline = self.soft.map(|s| self.start + s / 4);
        let budget = mate::Budget {
            nodes: (self.root_mate_nodes.saturating_mul(self.threads as u64)).min(self.node_limit),
            deadline,
            threads: self.threads,
            stop: Some(self.shared.stop),
        };
        let outcome = mate::find_mate(root, &budget, self.shared.mate);
        self.nodes += outcome.nodes;
        match outcome.verdict {
            Verdict::Mate(line) => Some(line),
            _ => None,
        }
    }

    fn result(
        &self,
        turn: Vec<Move>,
        score: Score,
        pv: Vec<Move>,
        depth: u32,
        lines: Vec<Line>,
    ) -> SearchResult {
        SearchResult {
            turn,
            score,
            pv,
            nodes: self.nodes,
            depth,
            lines,
        }
    }

    fn info(&self, depth: u32, multipv: usize, score: Score, pv: Vec<Move>) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: self.seldepth as u32,
            multipv,
            score,
            nodes: self.nodes + self.shared.helper_nodes.load(Ordering::Relaxed),
            time: self.start.elapsed(),
            hashfull: self.shared.tt.hashfull(),
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

    /// A move to continue a turn the main search did not see to its end:
    /// a short search that reaches the turn's end when few moves are left.
    fn filler_move(&mut self, pos: &Position, moves: &crate::chess::MoveList) -> Move {
        let hurry = self.shared.stop.load(Ordering::Relaxed) || self.aborted || self.out_of_time;
        self.aborted = false;
        if hurry {
            return self.quick_move(pos, moves);
        }
        let (depth, nodes) = ((pos.moves_left() as i32 + 1).min(3), PROTECTED_NODES);
        self.protected_until = self.nodes + nodes;
        self.alphabeta(pos, depth, 0, -INFINITY, INFINITY);
        let searched = !self.aborted;
        self.aborted = false;
        let mv = self.pv[0].first().copied().unwrap_or(Move::NULL);
        if searched && moves.contains(mv) {
            return mv;
        }
        match self.shared.tt.probe(pos.key()) {
            Some(e) if moves.contains(e.mv) => e.mv,
            _ if moves.contains(mv) => mv,
            _ => moves.as_slice()[0],
        }
    }

    /// A move chosen without searching, for a turn that must be finished at
    /// once after `stop` (a search there, with its mate checks, could take
    /// longer than the 50 ms `stop` allows): the table's move if it has one,
    /// else the most valuable capture, else the first legal move.
    fn quick_move(&self, pos: &Position, moves: &crate::chess::MoveList) -> Move {
        if let Some(e) = self
            .shared
            .tt
            .probe(pos.key())
            .filter(|e| moves.contains(e.mv))
        {
            return e.mv;
        }
        let value = |mv: Move| pos.piece_at(mv.to()).map_or(0, |p| p.role.index() + 1);
        moves
            .iter()
            .copied()
            .max_by_key(|&mv| value(mv))
            .unwrap_or(Move::NULL)
    }

    /// Counts a node and tells whether the search must end now. `stop` ends
    /// it at once; the node and time limits wait for the protected nodes
    /// (a sensible turn even with almost no time).
    #[inline]
    fn should_stop(&mut self) -> bool {
        self.nodes += 1;
        self.unreported += 1;
        if self.aborted {
            return true;
        }
        self.since_poll += 1;
        let stopped = self.since_poll >= POLL_NODES && self.poll();
        let protected = self.nodes < self.protected_until;
        let limited = !protected && self.nodes >= self.node_limit
            || (!protected || !self.protect_time) && self.out_of_time;
        self.aborted = stopped || limited;
        self.aborted
    }

    /// Looks at the flags and the clock (every [`POLL_NODES`] nodes, counting
    /// the mate checks' nodes, which cost as much as the search's own; a
    /// test on `nodes` alone skipped polls whenever a check's count jumped
    /// over a multiple). True when `stop` (or, in a helper, the main
    /// thread's halt) says to end now.
    fn poll(&mut self) -> bool {
        self.since_poll = 0;
        self.out_of_time |= self.hard.is_some_and(|h| self.start.elapsed() >= h);
        if self.id > 0 {
            self.shared
                .helper_nodes
                .fetch_add(self.unreported, Ordering::Relaxed);
            self.unreported = 0;
            if self.shared.halt.load(Ordering::Relaxed) {
                return true;
            }
        }
        self.shared.stop.load(Ordering::Relaxed)
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
        if ply == 0 {
            self.root_turn = pos.turn_length();
        } else if self.should_stop() {
            return 0;
        }
        let moves = legal_moves(pos);
        if moves.is_empty() {
            return Self::terminal(pos, ply);
        }
        if ply > 0
            && let Some(score) = self.turn_start(pos, ply, depth)
        {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - MAX_QPLY as usize - 1 {
            return self.qsearch(pos, ply, alpha, beta, 0);
        }
        let tt_entry = self.shared.tt.probe(pos.key());
        if ply > 0
            && let Some(score) = tt_entry.and_then(|e| tt_cutoff(e, depth, ply, alpha, beta))
        {
            return score;
        }
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.mv);
        let mut ordered = ordering::order(pos, &moves, tt_move, &self.killers[ply]);
        if ply == 0 && !self.excluded.is_empty() {
            ordered.retain(|m| !self.excluded.contains(m));
        }
        if self.id > 0 && ply == 0 && ordered.len() > 1 {
            let k = self.id % ordered.len();
            ordered[..].rotate_left(k.min(2)); // helpers start elsewhere
        }
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
        if ply == 0 && !self.excluded.is_empty() {
            return best; // a partial root: not a result for the table
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(Entry {
            key: pos.key(),
            mv: best_move,
            score: score_to_tt(best, ply),
            depth: depth as i16,
            bound,
        });
        best
    }

    /// At the start of a turn inside the tree: dead positions are drawn; a
    /// side to move that mates in this turn (found within the tree budget)
    /// has won, so the turn that led here lost; after ten quiet turns the
    /// game is drawn unless the side to move mates. `None`: search on.
    ///
    /// The mate finder is asked at the start of the turn right after the
    /// root's turn (the opponent's reply: is our turn lost?) wherever it is
    /// reached, and at later turn starts only with `depth` 2 or more left
    /// (where the subtree below costs more than the question).
    fn turn_start(&mut self, pos: &Position, ply: usize, depth: i32) -> Option<i32> {
        if pos.moves_made() > 0 {
            return None;
        }
        if is_dead_position(pos) {
            return Some(0);
        }
        let reply = pos.turn_length() <= self.root_turn + 1;
        let asked = self.tree_mate_nodes > 0 && (reply || depth >= 2);
        if asked || pos.quiet_turns() >= 10 {
            let key = pos.key();
            let slot = &self.shared.mate_cache[key as usize & (MATE_CACHE_SLOTS - 1)];
            let cached = slot.load(Ordering::Relaxed);
            let len = if cached != 0 && cached & !0xff == key & !0xff {
                (cached & 0xff) as usize
            } else {
                let nodes = self.tree_mate_nodes.max(100);
                let len = match self.mate_check(pos, nodes) {
                    Verdict::Mate(line) => line.len().min(255),
                    _ => 0, // none, or not proved within the budget
                };
                if !self.shared.stop.load(Ordering::Relaxed) {
                    // (A check cut short by `stop` proves nothing.)
                    slot.store(key & !0xff | len as u64, Ordering::Relaxed);
                }
                len
            };
            if len > 0 {
                return Some(MATE - (ply + len) as i32);
            }
        }
        // Here a length 0 stands for "no mate" and "undecided" alike (the
        // cache keeps no difference): the tree takes both for a draw.
        ten_quiet_turns(pos, |_| None, Undecided::Drawn).then_some(0)
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
        if qply > 0
            && let Some(score) = self.turn_start(pos, ply, 0)
        {
            return score;
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
    let mut length = pos.turn_length();
    while played < plies {
        let step = left_in_turn.min(plies - played);
        played += step;
        if step == left_in_turn {
            ends += 1;
            length = pos.rules().next_turn_length(length);
            left_in_turn = length as usize;
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

    /// Is `turn` a whole legal turn from `pos` (or one cut short by having no move left)?
    pub(super) fn is_legal_turn(pos: &Position, turn: &[Move]) -> bool {
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
        let r = search(&pos, &depth(3), &Arc::new(AtomicBool::new(false)), |_| {});
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
        let stopped = Arc::new(AtomicBool::new(true));
        let r = search(&pos, &Limits::default(), &stopped, |_| {});
        assert_eq!(r.turn.len(), 3);
        assert!(is_legal_turn(&pos, &r.turn));
    }

    #[test]
    fn fixed_depth_is_deterministic() {
        let pos = Position::startpos(Rules::Italian);
        let stop = Arc::new(AtomicBool::new(false));
        let a = search(&pos, &depth(4), &stop, |_| {});
        let b = search(&pos, &depth(4), &stop, |_| {});
        assert_eq!((a.nodes, a.turn), (b.nodes, b.turn));
    }

    #[test]
    fn fixed_nodes_and_multipv_are_deterministic_at_one_thread() {
        let pos = fen::parse(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2",
            Rules::Italian,
        )
        .unwrap();
        let limits = Limits {
            nodes: Some(30_000),
            multipv: 3,
            ..Limits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let a = search(&pos, &limits, &stop, |_| {});
        let b = search(&pos, &limits, &stop, |_| {});
        assert_eq!((a.nodes, &a.turn), (b.nodes, &b.turn));
        assert_eq!(a.lines.len(), 3);
        assert!(a.lines.windows(2).all(|w| w[0].value >= w[1].value));
        assert!(is_legal_turn(&pos, &a.turn));
    }

    #[test]
    fn two_threads_give_a_legal_turn() {
        let pos = Position::startpos(Rules::Italian);
        let limits = Limits {
            depth: Some(4),
            threads: 2,
            ..Limits::default()
        };
        let r = search(&pos, &limits, &Arc::new(AtomicBool::new(false)), |_| {});
        assert!(is_legal_turn(&pos, &r.turn));
    }

    #[test]
    fn avoids_a_turn_after_which_the_opponent_mates() {
        // White (one move) must stop Ra1#-style mates: Black has two moves
        // next turn and mates on the back rank unless White makes luft or
        // guards the first rank.
        let pos = fen::parse("r5k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Rules::Italian).unwrap();
        let r = search(&pos, &depth(2), &Arc::new(AtomicBool::new(false)), |_| {});
        let mut p = pos.clone();
        for &mv in &r.turn {
            p.play(mv);
        }
        let table = MateTable::new(1);
        let threat = mate::find_mate(&p, &mate::Budget::default(), &table);
        assert_eq!(threat.verdict, Verdict::NoMate, "{:?}", r.turn);
    }

    #[test]
    fn sees_material_win() {
        // Black to move with two moves: the hanging white queen is taken.
        let pos = fen::parse("4k3/8/8/8/8/2r5/8/Q3K3 b - - 0 2", Rules::Italian).unwrap();
        let r = search(&pos, &depth(3), &Arc::new(AtomicBool::new(false)), |_| {});
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
        let r = search(&pos, &depth(2), &Arc::new(AtomicBool::new(false)), |_| {});
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
