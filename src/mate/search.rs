//! The depth-first search over the moves of one turn.
//!
//! At each node: a table probe (proved "no mate" here before?), the move
//! budget bound of [`super::bounds`], then the legal moves from the rules
//! core. A move that gives check ends the search of its branch: under the
//! Italian rules it is the last move, under the Scottish rules it ends the
//! turn; either way the rules core says whether the opponent is mated. At the
//! last move only checking moves are tried, since nothing else can mate.

use super::bounds;
use super::tt::MateTable;
use crate::chess::movegen::{CheckInfo, generate_checks};
use crate::chess::status::is_mated;
use crate::chess::{Move, MoveKind, MoveList, Position, Role, legal_moves};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// How often (in nodes) a searcher looks at the clock, the stop flags and the
/// node budget: about a tenth of a millisecond of work.
const POLL: u64 = 1024;

/// What the searchers of one query share.
pub(crate) struct Shared<'a> {
    pub tt: &'a MateTable,
    /// Set from outside (the protocol's `stop`).
    pub stop: Option<&'a AtomicBool>,
    /// Set when some thread found a mate (and more are not wanted).
    pub done: AtomicBool,
    /// Nodes counted so far by all threads (flushed every [`POLL`] nodes).
    pub nodes: AtomicU64,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
}

impl Shared<'_> {
    fn should_stop(&self) -> bool {
        self.done.load(Ordering::Relaxed)
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.nodes.load(Ordering::Relaxed) >= self.node_limit
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The result of searching one node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Outcome {
    Mate,
    NoMate,
    /// A limit or a stop flag cut the search short: nothing is known.
    Aborted,
}

/// One thread's search state.
pub(crate) struct Searcher<'a> {
    shared: &'a Shared<'a>,
    /// Nodes not yet added to the shared count.
    unflushed: u64,
    /// The moves from the query position to the current node.
    pub line: Vec<Move>,
    /// With `Some`, every mating line is collected and the search goes on.
    pub all: Option<Vec<Vec<Move>>>,
    /// Rotates the move order (so helper threads explore differently).
    salt: usize,
    aborted: bool,
    /// Per ply: the children of the node being searched there.
    children: Vec<Vec<(u32, i32, Move, Position)>>,
    /// Piece options for the move budget bound.
    bound_cache: bounds::BoundCache,
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>, salt: usize) -> Searcher<'a> {
        Searcher {
            shared,
            unflushed: 0,
            line: Vec::new(),
            all: None,
            salt,
            aborted: false,
            children: Vec::new(),
            bound_cache: bounds::BoundCache::default(),
        }
    }

    /// Adds the remaining local nodes to the shared count.
    pub fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Searches `pos`, the position after `self.line`, which must have
    /// passed the table probe and the bound (see [`Searcher::enter`]). On
    /// `Mate` (and not collecting all lines) `self.line` holds the mating moves.
    pub fn search(&mut self, pos: &Position) -> Outcome {
        self.unflushed += 1;
        if self.unflushed >= POLL {
            self.flush();
            if self.shared.should_stop() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return Outcome::Aborted;
        }
        let left = pos.moves_left();
        if left == 1 {
            return self.last_move(pos);
        }
        let moves = legal_moves(pos);
        // The children that end the turn (Scottish checks) are tested at
        // once; the others are kept with their lower bound, searched most
        // promising first (fewest moves still needed, then nearest the enemy
        // king). The buffers are kept per ply, so no allocation per node.
        let ply = self.line.len();
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.children[ply]);
        children.clear();
        let mut found = false;
        let mut outcome = None;
        let last_two = (left == 2).then(|| bounds::LastTwo::new(pos));
        // Under the Scottish rules a checking move ends the turn and is
        // tested at once, so the filter does not apply to it.
        let scottish_checks =
            (left == 2 && pos.rules().check_ends_turn()).then(|| CheckInfo::new(pos));
        for &mv in moves.iter() {
            // The filter needs only the move, so it runs before the move is
            // played (and most moves are cut here).
            if let Some(f) = &last_two
                && !scottish_checks
                    .as_ref()
                    .is_some_and(|c| c.gives_check(pos, mv))
            {
                let role = match mv.kind() {
                    MoveKind::Promotion(role) => role,
                    _ => pos.piece_at(mv.from()).map_or(Role::Pawn, |p| p.role),
                };
                if !f.may_mate_after(
                    pos,
                    &mut self.bound_cache,
                    (mv.from(), mv.to()),
                    role,
                    mv.kind() == MoveKind::Castle,
                ) {
                    self.unflushed += 1;
                    continue;
                }
            }
            let mut child = pos.clone();
            let effect = child.play(mv);
            self.unflushed += 1;
            if effect.turn_ended {
                if effect.check && is_mated(&child) {
                    self.line.push(mv);
                    match self.all.as_mut() {
                        None => {
                            outcome = Some(Outcome::Mate);
                            break;
                        }
                        Some(lines) => lines.push(self.line.clone()),
                    }
                    self.line.pop();
                    found = true;
                }
                continue;
            }
            // Children with one move left are searched exactly at once by
            // `last_move`, which is cheaper than a table probe or the bound.
            let need = if left == 2 {
                1
            } else {
                if self.shared.tt.proved_none(child.key()) {
                    continue;
                }
                let need = bounds::lower_bound_with(&child, left - 1, &mut self.bound_cache);
                if need > left - 1 {
                    continue;
                }
                need
            };
            children.push((need, closeness(pos, mv), mv, child));
        }
        if outcome.is_none() {
            if left > 2 {
                children.sort_by_key(|c| (c.0, c.1));
            }
            if self.salt != 0 && !children.is_empty() {
                let k = self.salt % children.len();
                children.rotate_left(k);
            }
            for (_, _, mv, child) in &children {
                self.line.push(*mv);
                match self.search(child) {
                    Outcome::Mate => {
                        if self.all.is_none() {
                            outcome = Some(Outcome::Mate);
                            break;
                        }
                        found = true;
                    }
                    Outcome::Aborted => {
                        self.line.pop();
                        outcome = Some(Outcome::Aborted);
                        break;
                    }
                    Outcome::NoMate => {}
                }
                self.line.pop();
            }
        }
        self.children[ply] = children;
        if let Some(o) = outcome {
            return o;
        }
        if found {
            return Outcome::Mate;
        }
        self.shared.tt.store_none(pos.key());
        Outcome::NoMate
    }

    /// The last move of the turn: only a checking move can mate.
    fn last_move(&mut self, pos: &Position) -> Outcome {
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        let mut found = false;
        for &mv in checks.iter() {
            let mut child = pos.clone();
            child.play(mv);
            self.unflushed += 1;
            if is_mated(&child) {
                self.line.push(mv);
                match self.all.as_mut() {
                    None => return Outcome::Mate,
                    Some(lines) => lines.push(self.line.clone()),
                }
                self.line.pop();
                found = true;
            }
        }
        if found {
            Outcome::Mate
        } else {
            Outcome::NoMate
        }
    }

    /// Searches `pos` from scratch: table probe and bound first.
    pub fn enter(&mut self, pos: &Position) -> Outcome {
        if self.shared.tt.proved_none(pos.key()) || !bounds::may_mate(pos, pos.moves_left()) {
            return Outcome::NoMate;
        }
        self.search(pos)
    }
}

/// Twice the king distance from the move's destination to the enemy king,
/// less one for a capture: smaller is searched earlier.
fn closeness(pos: &Position, mv: Move) -> i32 {
    let eksq = pos.king_square(pos.side_to_move().other());
    let to = mv.to();
    let df = (to.file() as i32 - eksq.file() as i32).abs();
    let dr = (to.rank() as i32 - eksq.rank() as i32).abs();
    2 * df.max(dr) - i32::from(pos.color_bb(pos.side_to_move().other()).contains(to))
}

/// Move ordering: moves landing near the enemy king first, captures a little
/// earlier; `salt` rotates the order for helper threads.
pub(crate) fn order(pos: &Position, moves: &mut [Move], salt: usize) {
    let eksq = pos.king_square(pos.side_to_move().other());
    let enemy = pos.color_bb(pos.side_to_move().other());
    moves.sort_by_key(|mv| {
        let to = mv.to();
        let df = (to.file() as i32 - eksq.file() as i32).abs();
        let dr = (to.rank() as i32 - eksq.rank() as i32).abs();
        2 * df.max(dr) - i32::from(enemy.contains(to))
    });
    if salt != 0 && !moves.is_empty() {
        let k = salt % moves.len();
        moves.rotate_left(k);
    }
}
