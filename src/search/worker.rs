//! One search thread: iterative deepening, alpha-beta over moves with the
//! side to move changing only at turn ends, quiescence over captures, the
//! mate check at turn starts, and the moves that finish a turn the search
//! did not see to its end.

use super::eval;
use super::limits::{Limits, MAX_DEPTH, ROOT_MATE_NODES, TREE_MATE_NODES};
use super::ordering;
use super::result::{Line, SearchInfo, SearchResult};
use super::root_moves;
use super::score::{INFINITY, MATE, MATE_BOUND, Score, score_from_tt, score_to_tt, to_score};
use super::searcher::{MATE_CACHE_SLOTS, Shared};
use super::time::TimePlan;
use super::tt::{Bound, Entry};
use crate::chess::status::{Undecided, is_dead_position, is_mated, ten_quiet_turns};
use crate::chess::{Move, Position, legal_moves};
use crate::mate::{self, Verdict};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Deepest ply the search can reach (main search plus quiescence).
const MAX_PLY: usize = 128;
/// Quiescence follows captures at most this many plies.
const MAX_QPLY: i32 = 6;
/// Nodes that depth 1 may use whatever the limits (a legal, sensible turn
/// even when stopped at once), and that a filler move may use.
const PROTECTED_NODES: u64 = 20_000;
/// Nodes a search under a node limit may spend past it: depth 1, a filler
/// move or a mate check under way is cut off there, so `go nodes N` stays
/// within `N` plus this (the turn is then finished without searching).
pub(super) const NODE_SLACK: u64 = 2_000;

/// How many nodes (the mate checks' included) pass between two looks at the
/// flags and the clock. A node with its evaluation costs tens of
/// microseconds, so polling is cheap next to it, and 64 nodes keep `stop`
/// well inside its 50 ms.
const POLL_NODES: u64 = 64;

/// The state of one search thread.
pub(super) struct Worker<'a> {
    shared: &'a Shared<'a>,
    /// 0: the main thread; helpers search the same tree out of step.
    id: usize,
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    node_limit: u64,
    /// Nodes the moves that finish the turn may still search (see
    /// `complete_turn`).
    filler_nodes_left: u64,
    /// The other threads' nodes at this thread's last poll (the main
    /// thread: the helpers'; a helper: everyone's reported so far, its own
    /// included); they count against the node limit.
    others_seen: u64,
    nodes: u64,
    /// Nodes not yet added to `helper_nodes` (helpers only).
    unreported: u64,
    /// Nodes since the flags and the clock were last looked at.
    since_poll: u64,
    /// The turn's own hard end ([`TimePlan::turn`]): past it nothing is
    /// protected, not even depth 1, and the tree's mate checks stop there.
    turn_end: Option<Instant>,
    /// The hard time limit has passed (seen at the last poll).
    out_of_time: bool,
    /// The turn's hard end has passed (seen at the last poll).
    past_turn_end: bool,
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
    /// The root moves to search (`go searchmoves`, legal ones only); empty: all.
    searchmoves: Vec<Move>,
    /// The turn length at the root (turns in the tree are counted from it).
    root_turn: u32,
    killers: Vec<[Move; 2]>,
    pv: Vec<Vec<Move>>,
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        shared: &'a Shared<'a>,
        limits: &Limits,
        plan: &TimePlan,
        id: usize,
    ) -> Worker<'a> {
        let unlimited = limits.infinite;
        let start = Instant::now();
        let since_start = |t: Instant| t.saturating_duration_since(start);
        Worker {
            shared,
            id,
            start,
            soft: plan.soft.map(since_start),
            hard: plan.hard.map(since_start),
            node_limit: if unlimited {
                u64::MAX
            } else {
                limits.nodes.unwrap_or(u64::MAX)
            },
            nodes: 0,
            others_seen: 0,
            filler_nodes_left: u64::MAX,
            unreported: 0,
            since_poll: 0,
            turn_end: plan.turn,
            out_of_time: false,
            past_turn_end: false,
            seldepth: 0,
            aborted: false,
            protected_until: 0,
            protect_time: false,
            root_mate_nodes: limits.root_mate_nodes.unwrap_or(ROOT_MATE_NODES),
            threads: limits.threads.max(1),
            tree_mate_nodes: limits.tree_mate_nodes.unwrap_or(TREE_MATE_NODES),
            excluded: Vec::new(),
            searchmoves: limits.searchmoves.clone(),
            root_turn: 0,
            killers: vec![[Move::NULL; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }

    /// The game already over, or a mate in this turn: the answer without a search.
    pub(super) fn root_checks(
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

    pub(super) fn run(
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
        let root_moves = root_moves::first_moves(root, &self.searchmoves).len();
        let multipv = limits.multipv.clamp(1, root_moves.max(1));
        let mut best: Option<(Vec<Line>, u32)> = None;
        for depth in 1..=max_depth {
            if depth == 1 {
                self.protect(PROTECTED_NODES);
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
        // The helpers' work is done (and under a node limit, their nodes
        // would count while the turn is finished).
        self.shared.halt.store(true, Ordering::Relaxed);
        let (lines, depth) = best.unwrap_or_default();
        let pv = lines.first().map(|l| l.pv.clone()).unwrap_or_default();
        let score = lines.first().map_or(Score::Cp(0), |l| l.score);
        let turn = self.complete_turn(root, &pv);
        self.result(turn, score, pv, depth, lines)
    }

    /// A helper thread: iterative deepening out of step with the main
    /// thread, filling the shared table, until halted.
    pub(super) fn run_helper(&mut self, root: &Position) {
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

    /// The tree's mate check of `pos` within `nodes`, and whether its
    /// answer holds (false when `stop` or the turn's end cut it short).
    fn mate_check(&mut self, pos: &Position, nodes: u64) -> (Verdict, bool) {
        // Where the search would stop: its hard limit, or inside depth 1's
        // protected nodes the turn's end.
        let protected = self.protect_time && self.spent() < self.protected_until;
        let hard = self.hard.filter(|_| !protected).map(|h| self.start + h);
        let deadline = match (hard, self.turn_end) {
            (Some(h), Some(t)) => Some(h.min(t)),
            (h, t) => h.or(t),
        };
        let budget = mate::Budget {
            stop: Some(self.shared.stop),
            deadline,
            ..mate::Budget::nodes(nodes.min(self.nodes_left()))
        };
        let outcome = mate::find_mate(pos, &budget, self.shared.mate);
        self.nodes += outcome.nodes;
        self.unreported += outcome.nodes;
        self.since_poll += outcome.nodes;
        let cut = self.shared.stop.load(Ordering::Relaxed)
            || deadline.is_some_and(|d| Instant::now() >= d);
        let holds = !cut || !matches!(outcome.verdict, Verdict::Unknown);
        (outcome.verdict, holds)
    }

    /// A mate in this turn, found within the root budget.
    fn root_mate(&mut self, root: &Position) -> Option<Vec<Move>> {
        // The search's whole hard limit: a mate in this turn wins the game,
        // while in the short turns that decide most games the search gets
        // two or three moves deep (bench/strength.md, eleventh session:
        // a quarter of the soft limit, ~20 ms at 1+0.05, missed mates that
        // need 30-250 ms, and gave about 60 Elo).
        let deadline = self.hard.map(|h| self.start + h);
        let budget = mate::Budget {
            nodes: (self.root_mate_nodes.saturating_mul(self.threads as u64)).min(self.node_limit),
            deadline,
            threads: self.threads,
            stop: Some(self.shared.stop),
        };
        let outcome = root_moves::find_mate(root, &self.searchmoves, &budget, self.shared.mate);
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
            notes: Vec::new(),
            ponder: Vec::new(),
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
    pub(super) fn complete_turn(&mut self, root: &Position, pv: &[Move]) -> Vec<Move> {
        // Without a clock the fillers' searches together may cost at most
        // what the search did (a turn of 9 999 moves after `go depth 1`
        // took minutes of 20 000-node fillers); past that they hurry.
        self.filler_nodes_left = match self.hard {
            Some(_) => u64::MAX,
            None => self.nodes.max(PROTECTED_NODES),
        };
        let mut pos = root.clone();
        let mut turn = Vec::new();
        let mut pending = pv.iter().copied();
        loop {
            let mut moves = legal_moves(&pos);
            if turn.is_empty() && !self.searchmoves.is_empty() {
                moves = root_moves::first_moves(&pos, &self.searchmoves);
            }
            if moves.is_empty() {
                return turn; // stuck: the turn ends here (a stalemate)
            }
            let from_pv = pending.next().filter(|mv| moves.contains(*mv));
            let mv = from_pv.unwrap_or_else(|| self.filler_move(&pos, &moves));
            // Past the first move the turn goes on freely (the fillers'
            // searches start at ply 0 but not at the root).
            self.searchmoves.clear();
            turn.push(mv);
            if pos.play(mv).turn_ended {
                return turn;
            }
        }
    }

    /// A move to continue a turn the main search did not see to its end:
    /// a short search that reaches the turn's end when few moves are left.
    fn filler_move(&mut self, pos: &Position, moves: &crate::chess::MoveList) -> Move {
        let hurry = self.shared.stop.load(Ordering::Relaxed)
            || self.aborted
            || self.out_of_time
            || self.nodes_left() == 0
            || self.filler_nodes_left == 0;
        self.aborted = false;
        if hurry {
            return self.quick_move(pos, moves);
        }
        let depth = (pos.moves_left() as i32 + 1).min(3);
        self.protect(PROTECTED_NODES.min(self.filler_nodes_left));
        let before = self.nodes;
        self.alphabeta(pos, depth, 0, -INFINITY, INFINITY);
        self.filler_nodes_left = self.filler_nodes_left.saturating_sub(self.nodes - before);
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

    /// Lets the next `nodes` nodes ignore the limits (not `stop`), but not
    /// past a node limit's slack.
    fn protect(&mut self, nodes: u64) {
        let cap = self.node_limit.saturating_add(NODE_SLACK);
        self.protected_until = self.spent().saturating_add(nodes).min(cap);
    }

    /// Nodes this search may still spend under its node limit (slack
    /// included; the helpers' nodes count too).
    fn nodes_left(&self) -> u64 {
        self.node_limit
            .saturating_add(NODE_SLACK)
            .saturating_sub(self.spent())
    }

    /// Nodes spent by the whole search, as this thread knows them: its own
    /// and the others' as last seen (the threads publish their counts every
    /// [`POLL_NODES`] nodes, so each one stops at a node limit within a few
    /// polls of the others).
    fn spent(&self) -> u64 {
        if self.id == 0 {
            self.nodes + self.others_seen
        } else {
            self.others_seen + self.unreported
        }
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
        let protected = self.spent() < self.protected_until;
        let limited = !protected && self.spent() >= self.node_limit
            || (!protected || !self.protect_time) && self.out_of_time
            || self.past_turn_end;
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
        // The turn's end binds even depth 1's protected nodes: where one
        // node costs tens of microseconds (a long turn's mate bounds in the
        // evaluation), those 20 000 nodes alone took 300 ms.
        self.past_turn_end |= self.turn_end.is_some_and(|t| Instant::now() >= t);
        self.out_of_time |= self.past_turn_end;
        if self.id > 0 {
            let helpers = self
                .shared
                .helper_nodes
                .fetch_add(self.unreported, Ordering::Relaxed)
                + self.unreported;
            self.unreported = 0;
            self.others_seen = helpers + self.shared.main_nodes.load(Ordering::Relaxed);
            if self.shared.halt.load(Ordering::Relaxed) {
                return true;
            }
        } else {
            self.shared.main_nodes.store(self.nodes, Ordering::Relaxed);
            self.others_seen = self.shared.helper_nodes.load(Ordering::Relaxed);
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
        if ply == 0 && !self.searchmoves.is_empty() {
            ordered.retain(|m| self.searchmoves.contains(m));
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
        if ply == 0 && !(self.excluded.is_empty() && self.searchmoves.is_empty()) {
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
                let (verdict, holds) = self.mate_check(pos, nodes);
                let len = match verdict {
                    Verdict::Mate(line) => line.len().min(255),
                    _ => 0, // none, or not proved within the budget
                };
                if holds {
                    // (A check cut short by `stop` or the clock proves nothing.)
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
