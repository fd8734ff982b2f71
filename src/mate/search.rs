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
use crate::chess::movegen::CheckInfo;
use crate::chess::status::is_mated;
use crate::chess::{Move, Position, legal_moves};
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
        let moves = legal_moves(pos);
        let checks = pos.check_allowed().then(|| CheckInfo::new(pos));
        // The children that end the turn are tested at once; the others are
        // kept with their lower bound, searched most promising first (fewest
        // moves still needed, then nearest the enemy king).
        let mut children: Vec<(u32, i32, Move, Position)> = Vec::new();
        let mut found = false;
        for &mv in moves.iter() {
            let gives = checks.as_ref().is_some_and(|c| c.gives_check(pos, mv));
            if !gives && left == 1 {
                continue;
            }
            let mut child = pos.clone();
            let effect = child.play(mv);
            self.unflushed += 1;
            if effect.turn_ended {
                if effect.check && is_mated(&child) {
                    self.line.push(mv);
                    match self.all.as_mut() {
                        None => return Outcome::Mate,
                        Some(lines) => lines.push(self.line.clone()),
                    }
                    self.line.pop();
                    found = true;
                }
                continue;
            }
            if self.shared.tt.proved_none(child.key()) {
                continue;
            }
            let need = bounds::lower_bound(&child, left - 1);
            if need > left - 1 {
                continue;
            }
            children.push((need, closeness(pos, mv), mv, child));
        }
        children.sort_by_key(|c| (c.0, c.1));
        if self.salt != 0 && !children.is_empty() {
            let k = self.salt % children.len();
            children.rotate_left(k);
        }
        for (_, _, mv, child) in &children {
            self.line.push(*mv);
            match self.search(child) {
                Outcome::Mate => {
                    if self.all.is_none() {
                        return Outcome::Mate;
                    }
                    found = true;
                }
                Outcome::Aborted => {
                    self.line.pop();
                    return Outcome::Aborted;
                }
                Outcome::NoMate => {}
            }
            self.line.pop();
        }
        if found {
            return Outcome::Mate;
        }
        self.shared.tt.store_none(pos.key());
        Outcome::NoMate
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
