//! The depth-first search over the moves of one turn.
//!
//! At each node: a table probe (proved "no mate" here before?), the move
//! budget bound of [`super::bounds`], then the legal moves from the rules
//! core. A move that gives check ends the search of its branch: under the
//! Italian rules it is the last move, under the Scottish rules it ends the
//! turn; either way the rules core says whether the opponent is mated. At the
//! last move only checking moves are tried, since nothing else can mate.
//!
//! Turns of five or more moves start with restricted passes (see [`Few`] and
//! [`Searcher::enter_with_passes`]): searches where only one, two or three
//! of our pieces may move, which find most mates quickly; they take turns
//! with the full search, which alone decides "no mate".
//!
//! A move decided at a node (searched or pruned) is not tried again below
//! its later siblings while the moves played commute with it: it sleeps
//! there ([`super::sleep`]).

use super::bounds;
use super::memo::BoundMemo;
use super::sleep::{SleepSet, Sleeper};
use super::tt::{Generation, MateTable};
use crate::chess::castle_for;
use crate::chess::status::is_mated;
use crate::chess::{Bitboard, Move, MoveEffect, MoveKind, MoveList, Position, Role, Square};
use crate::chess::{CheckInfo, generate_checks, generate_legal};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// How often (in nodes) a searcher flushes its node count and looks at the
/// clock, the stop flags and the node budget: about a tenth of a
/// millisecond of work in most positions.
pub(super) const POLL: u64 = 1024;
/// How often (in nodes) it looks at the clock and `stop` in between: in a
/// long turn with many pieces one node's bounds cost tens of microseconds,
/// and 1024 of them ran 10-20 ms past a deadline (more under load). The
/// node budget keeps its [`POLL`] steps, so node-limited answers stay.
const CLOCK_POLL: u64 = 64;

/// Restricted passes run for turns with at least this many moves left...
const PASS_MIN_MOVES: u32 = 5;
/// ...with up to this many moving pieces.
const PASS_MAX_PIECES: u32 = 3;
/// Is no pass left undecided (indexed by the passes' limits)?
fn none_open(open: &[bool; PASS_MAX_PIECES as usize + 1]) -> bool {
    open.iter().all(|&o| !o)
}
/// The node budget of each pass in the first round...
const PASS_FIRST_BUDGET: u64 = 2000;
/// ...and the full search's budget is this fraction of it. (The schedule
/// is the same under every limit of the query: the limit only says where
/// it stops, so a mate found within some node limit is found, the same way
/// and after the same nodes, within every larger one.)
const FULL_SHARE: u64 = 4;
/// The passes are restricted to the fitting sets of pieces
/// ([`bounds::Movers`]) from the round whose budget is this many times the
/// first's.
const MOVERS_AFTER: u64 = 4;
/// The passes go widest first (most pieces) from the round whose budget is
/// this many times the first's: a mate of fewer pieces is mostly found in
/// the rounds before, and the narrower pass, searched to its end first,
/// kept the wider one from a mate it would find within the same budget
/// (Janko-Guid 58: 216,259 -> 144,131 nodes; p087 421,413 -> 165,406;
/// dearer on p114 and p090, 99,190 -> 227,191 and 249,793 -> 362,824, rows
/// Popeye takes 17 and 22 s over; 7,374,908 -> 7,249,062 on the three
/// sets; every other row alike).
const WIDEST_FIRST_AFTER: u64 = 64;
/// The children are bounded by the mating pictures
/// ([`bounds::NodePictures`]) from the round whose budget is this many
/// times the first's.
const PICTURES_AFTER: u64 = 16;

/// Does the search of `pos` start with restricted passes?
pub(crate) fn uses_passes(pos: &Position) -> bool {
    pos.moves_left() >= PASS_MIN_MOVES
}

/// What the searchers of one query share.
pub(crate) struct Shared<'a> {
    pub tt: &'a MateTable,
    /// This query's generation in `tt`: only its own proofs are probed.
    pub generation: Generation,
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
    /// A node limit stops the search only once it is exceeded: a search
    /// that takes exactly `node_limit` nodes finishes.
    fn should_stop(&self) -> bool {
        self.done.load(Ordering::Relaxed)
            || self.nodes.load(Ordering::Relaxed) > self.node_limit
            || self.out_of_time()
    }

    /// `stop` was set, or the deadline has passed.
    fn out_of_time(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Has this query proved "no mate" for the position of `key`?
    #[inline]
    pub fn proved_none(&self, key: u64) -> bool {
        self.tt.proved_none(key, self.generation)
    }

    #[inline]
    pub fn store_none(&self, key: u64) {
        self.tt.store_none(key, self.generation);
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

/// What a move the pass allows needs before it is played: the pass
/// restriction after it, and its child's key if known without playing it
/// ([`Position::key_after`]).
#[derive(Clone, Copy)]
struct Ahead {
    next_few: Option<Few>,
    key: Option<u64>,
}

/// A child kept for searching: its lower bound, closeness to the enemy king,
/// the move, where its position is in the node's [`Slots`] ([`UNPLAYED`]:
/// played when searched) and the pass restriction after it.
type Child = (u32, i32, Move, u32, Option<Few>);

/// A child played only when it is searched.
const UNPLAYED: u32 = u32::MAX;

/// The positions of one node's children. A child is played in place, in
/// the next free slot, and the slot is kept if the child is (a position is
/// some 230 bytes, which a child built aside and then moved into an option,
/// a tuple and the children's vector cost three copies more). Kept per ply,
/// so the slots stay allocated.
#[derive(Default)]
struct Slots {
    positions: Vec<Position>,
    /// The slots of the kept children: `positions[..kept]`.
    kept: usize,
}

impl Slots {
    fn clear(&mut self) {
        self.kept = 0;
    }

    /// Plays `mv` from `parent` into the next free slot.
    fn play(&mut self, parent: &Position, mv: Move) -> MoveEffect {
        if self.positions.len() == self.kept {
            self.positions.push(parent.clone());
        } else {
            self.positions[self.kept].clone_from(parent);
        }
        self.positions[self.kept].play(mv)
    }

    /// The position in the next free slot (played by [`Slots::play`]).
    fn next(&self) -> &Position {
        &self.positions[self.kept]
    }

    /// Keeps the position in the next free slot; its index.
    fn keep(&mut self) -> u32 {
        self.kept += 1;
        (self.kept - 1) as u32
    }

    /// The `at`-th kept position.
    fn get(&self, at: u32) -> &Position {
        &self.positions[at as usize]
    }

    /// The child after `mv` in the next free slot, played there first
    /// unless `played` says it already is.
    fn lazy(&mut self, played: &mut bool, parent: &Position, mv: Move) -> &Position {
        if !*played {
            self.play(parent, mv);
            *played = true;
        }
        self.next()
    }
}

/// One thread's search state.
pub(crate) struct Searcher<'a> {
    shared: &'a Shared<'a>,
    /// Nodes not yet added to the shared count.
    unflushed: u64,
    /// The next look at the clock between flushes: when `unflushed`
    /// reaches this ([`CLOCK_POLL`]).
    clock_mark: u64,
    /// The moves from the query position to the current node.
    pub line: Vec<Move>,
    /// With `Some`, every mating line is collected and the search goes on.
    pub all: Option<Vec<Vec<Move>>>,
    /// Rotates the move order (so helper threads explore differently).
    salt: usize,
    aborted: bool,
    /// Nodes flushed to the shared count so far.
    local_nodes: u64,
    /// Stop (as aborted) when `local_nodes + unflushed` reaches this.
    budget_end: u64,
    /// Per ply: the legal moves of the node being searched there, and the
    /// checks of the last move. (Boxed and kept: a list is 520 bytes, which
    /// a node would otherwise clear and copy.)
    moves: Vec<Option<Box<MoveList>>>,
    checks: Option<Box<MoveList>>,
    /// Per ply: the children of the node being searched there, and the
    /// order they are searched in (indices into them).
    children: Vec<Vec<Child>>,
    /// Per ply: the positions of those children.
    slots: Vec<Slots>,
    order: Vec<Vec<u32>>,
    /// Per ply: what the moves of the node searched there need before
    /// they are played (`None`: the pass excludes the move), for turns
    /// with three moves left or more.
    ahead: Vec<Vec<Option<Ahead>>>,
    /// Piece options for the move budget bound.
    bound_cache: bounds::BoundCache,
    /// Per ply: the children's bounds, prepared once per node.
    child_bounds: Vec<bounds::ChildBounds>,
    /// While the children of a node with two moves left are searched: its
    /// filter, which their last moves use too.
    /// (Boxed: it is taken and put back for every last move.)
    parent_two: Option<Box<bounds::LastTwo>>,
    /// With `Some`: a restricted pass, where only a few pieces may move.
    pub few: Option<Few>,
    /// Recent bounds by table key; unused for short turns.
    bound_memo: BoundMemo,
    /// While the passes run: the sets of our pieces whose mating pictures
    /// fit, which the passes' moves stay inside (see [`bounds::Movers`]).
    movers: Option<Box<bounds::Movers>>,
    /// Per ply: the moves asleep at the node searched there ([`super::sleep`]).
    sleep: Vec<SleepSet>,
    /// Per ply: the children of that node decided so far.
    decided: Vec<Vec<Sleeper>>,
    /// Put decided moves to sleep (false only to test them).
    pub sleepers: bool,
    /// For long turns: the mating pictures as a bound at every node.
    pictures: Option<Box<bounds::NodePictures>>,
}

/// A restricted search pass: at most `limit` of our pieces may move during
/// the rest of the turn. Its "no mate" results are not proofs of "no mate"
/// (they are stored only under the pass's own keys, [`Few::key`]); a mate it
/// finds is a real mate. Mates usually take few pieces, so passes with a small
/// limit find them long before the full search would.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Few {
    pub limit: u32,
    /// The squares the pieces that moved in this pass stand on.
    pub moved: Bitboard,
    pub count: u32,
    /// The root indices ([`bounds::Movers::id`]) of the pieces that moved.
    /// (The position and `moved` determine them: the others stand on their
    /// root squares. So the table key need not hold them.)
    pub ids: u16,
}

impl Few {
    pub fn new(limit: u32) -> Few {
        Few {
            limit,
            moved: Bitboard::EMPTY,
            count: 0,
            ids: 0,
        }
    }

    /// The restriction after `mv`, if `mv` is allowed: at most `limit`
    /// pieces, and with `movers`, inside a set of pieces whose pictures fit.
    #[inline]
    fn after(self, mv: Move, movers: Option<&bounds::Movers>) -> Option<Few> {
        let mut f = self;
        let mut fits = true;
        let mut step = |from: Square, to: Square| {
            if f.moved.contains(from) {
                f.moved = (f.moved ^ from.bb()) | to.bb();
            } else {
                f.count += 1;
                f.moved |= to.bb();
                if let Some(m) = movers {
                    // An unmoved piece stands on its root square.
                    match m.id(from) {
                        Some(i) => {
                            f.ids |= 1 << i;
                            fits &= m.allows(f.limit, f.ids);
                        }
                        None => debug_assert!(false, "an unmoved piece off its root square"),
                    }
                }
            }
        };
        if mv.kind() == MoveKind::Castle {
            let c = castle_for(mv.from(), mv.to())?;
            step(c.king_from, c.king_to);
            step(c.rook_from, c.rook_to);
        } else {
            step(mv.from(), mv.to());
        }
        (f.count <= f.limit && fits).then_some(f)
    }

    /// The pieces that may still move: all while new ones may start.
    #[inline]
    fn movable(self) -> Bitboard {
        if self.count < self.limit {
            Bitboard::ALL
        } else {
            self.moved
        }
    }

    /// The table key of `key` under this restriction (a proof of "no mate"
    /// in a pass holds only for the same pieces and the same room for more).
    #[inline]
    fn key(self, key: u64) -> u64 {
        let mut z =
            self.moved.0 ^ u64::from(self.limit - self.count).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        key ^ (z ^ (z >> 31)) ^ 0x5A5A_5A5A_5A5A_5A5A
    }
}

impl<'a> Searcher<'a> {
    pub fn new(shared: &'a Shared<'a>, salt: usize) -> Searcher<'a> {
        Searcher {
            shared,
            unflushed: 0,
            clock_mark: CLOCK_POLL,
            line: Vec::new(),
            all: None,
            salt,
            aborted: false,
            local_nodes: 0,
            budget_end: u64::MAX,
            moves: Vec::new(),
            checks: None,
            children: Vec::new(),
            slots: Vec::new(),
            order: Vec::new(),
            ahead: Vec::new(),
            bound_cache: bounds::BoundCache::default(),
            child_bounds: Vec::new(),
            parent_two: None,
            few: None,
            bound_memo: BoundMemo::default(),
            movers: None,
            sleep: Vec::new(),
            decided: Vec::new(),
            sleepers: true,
            pictures: None,
        }
    }

    /// Adds the remaining local nodes to the shared count.
    pub fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.local_nodes += self.unflushed;
        self.unflushed = 0;
        self.clock_mark = CLOCK_POLL;
    }

    /// Searches `pos`, the position after `self.line`, which must have
    /// passed the table probe and the bound (see [`Searcher::enter`]). On
    /// `Mate` (and not collecting all lines) `self.line` holds the mating moves.
    pub fn search(&mut self, pos: &Position) -> Outcome {
        let ply = self.line.len();
        if self.sleep.len() <= ply + 1 {
            self.sleep.resize_with(ply + 2, SleepSet::default);
        }
        self.sleep[ply].clear();
        self.search_asleep(pos)
    }

    /// [`Searcher::search`] with the moves of `self.sleep` at this ply asleep.
    fn search_asleep(&mut self, pos: &Position) -> Outcome {
        self.unflushed += 1;
        if self.unflushed >= POLL {
            self.flush();
            if self.shared.should_stop() {
                self.aborted = true;
            }
        } else if self.unflushed >= self.clock_mark {
            self.clock_mark = self.unflushed + CLOCK_POLL;
            if self.shared.out_of_time() {
                self.aborted = true;
            }
        }
        if self.local_nodes + self.unflushed >= self.budget_end {
            self.aborted = true;
        }
        if self.aborted {
            return Outcome::Aborted;
        }
        let left = pos.moves_left();
        if left == 1 {
            return self.last_move(pos);
        }
        // The children that end the turn (Scottish checks) are tested at
        // once; the others are kept with their lower bound, searched most
        // promising first (fewest moves still needed, then nearest the enemy
        // king). The buffers are kept per ply, so no allocation per node.
        let ply = self.line.len();
        if self.children.len() <= ply {
            self.children.resize_with(ply + 1, Vec::new);
            self.slots.resize_with(ply + 1, Slots::default);
            self.order.resize_with(ply + 1, Vec::new);
            self.ahead.resize_with(ply + 1, Vec::new);
            self.moves.resize_with(ply + 1, || None);
        }
        let mut moves = self.moves[ply].take().unwrap_or_default();
        generate_legal(pos, &mut moves);
        let mut children = std::mem::take(&mut self.children[ply]);
        children.clear();
        let mut slots = std::mem::take(&mut self.slots[ply]);
        slots.clear();
        // (No sleepers while every mating line is wanted: the other orders
        // are other lines. Nor below a node with two moves left: its
        // children make the last move, which gives check, and a move never
        // gives check where it sleeps. It gave none where it was decided,
        // and a move independent of it gives it none: see the module text
        // of `sleep` and its test `independent_moves_commute_and_give_no_new_check`.)
        let sleeping = self.all.is_none() && self.sleepers && left > 2;
        if self.sleep.len() <= ply + 1 {
            self.sleep.resize_with(ply + 2, SleepSet::default);
        }
        if self.decided.len() <= ply {
            self.decided.resize_with(ply + 1, Vec::new);
        }
        let mut decided = std::mem::take(&mut self.decided[ply]);
        decided.clear();
        let mut decide = |mv: Move| {
            if sleeping && let Some(s) = Sleeper::of(pos, mv) {
                decided.push(s);
            }
        };
        if self.child_bounds.len() <= ply {
            self.child_bounds.resize_with(ply + 1, Default::default);
        }
        self.child_bounds[ply].reset();
        let mut found = false;
        let mut outcome = None;
        let last_two = (left == 2).then(|| bounds::LastTwo::new_cached(pos, &mut self.bound_cache));
        // Under the Scottish rules a checking move ends the turn and is
        // tested at once, so the filter does not apply to it.
        let scottish_checks =
            (left == 2 && pos.rules().check_ends_turn()).then(|| CheckInfo::new(pos));
        let few = self.few;
        // What each move of a longer turn needs before it is played, worked
        // out once: the pass restriction after it and its child's key.
        let mut ahead = std::mem::take(&mut self.ahead[ply]);
        ahead.clear();
        if left > 2 {
            // Most children are pruned by the memo or the table, and both
            // probes usually miss the cache: every child's are fetched at
            // once, so that the misses overlap.
            // In a pass the memo and the table are probed under the
            // pass's key of the child too.
            for &mv in moves.iter() {
                let next_few = match few {
                    None => None,
                    Some(f) => match f.after(mv, self.movers.as_deref()) {
                        Some(next) => Some(next),
                        None => {
                            ahead.push(None);
                            continue;
                        }
                    },
                };
                let key = pos.key_after(mv);
                ahead.push(Some(Ahead { next_few, key }));
                let Some(key) = key else {
                    continue;
                };
                self.shared.tt.prefetch(key);
                let memo_key = match next_few {
                    None => key,
                    Some(next) => {
                        let few_key = next.key(key);
                        self.shared.tt.prefetch(few_key);
                        few_key
                    }
                };
                self.bound_memo.prefetch(memo_key);
            }
        }
        for (i, &mv) in moves.iter().enumerate() {
            if self.sleep[ply].contains(mv) {
                continue;
            }
            let (next_few, key) = match ahead.get(i) {
                Some(None) => continue,
                Some(Some(a)) => (a.next_few, a.key),
                None => match few {
                    None => (None, None),
                    Some(f) => match f.after(mv, self.movers.as_deref()) {
                        Some(n) => (Some(n), None),
                        None => continue,
                    },
                },
            };
            // (Two moves left: a move ends the turn only as a Scottish check.)
            let ends_turn = scottish_checks
                .as_ref()
                .is_some_and(|c| c.gives_check(pos, mv));
            // The filter needs only the move, so it runs before the move is
            // played (and most moves are cut here).
            if let Some(f) = &last_two
                && !ends_turn
            {
                let role = pos.role_after(mv);
                let movable = next_few.map_or(Bitboard::ALL, Few::movable);
                if !f.may_mate_after_movable(
                    pos,
                    &mut self.bound_cache,
                    (mv.from(), mv.to()),
                    role,
                    mv.kind() == MoveKind::Castle,
                    movable,
                ) || !f.last_move_reaches(pos, &mut self.bound_cache, mv, role, movable)
                {
                    self.unflushed += 1;
                    decide(mv);
                    continue;
                }
            }
            // A child whose key is known without playing the move (the most
            // common) is looked up and bounded before it is played: most
            // children are pruned there.
            if let Some(key) = key {
                self.unflushed += 1;
                let mut played = false;
                let Some(need) =
                    self.child_need(pos, mv, key, &mut slots, &mut played, left, next_few)
                else {
                    decide(mv);
                    continue;
                };
                slots.lazy(&mut played, pos, mv);
                children.push((need, closeness(pos, mv), mv, slots.keep(), next_few));
                continue;
            }
            // A child with one move left is searched exactly at once by
            // `last_move`, which is cheaper than a table probe or the bound,
            // and in the order of the moves: it is played only then, each
            // into the same free slot ([`Slots`]).
            if left == 2 && !ends_turn {
                self.unflushed += 1;
                children.push((1, 0, mv, UNPLAYED, next_few));
                continue;
            }
            let effect = slots.play(pos, mv);
            self.unflushed += 1;
            if effect.turn_ended {
                if effect.check && is_mated(slots.next()) {
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
            debug_assert!(
                left > 2,
                "two moves left: only a Scottish check is played here"
            );
            let key = slots.next().key();
            let Some(need) = self.child_need(pos, mv, key, &mut slots, &mut true, left, next_few)
            else {
                decide(mv);
                continue;
            };
            children.push((need, closeness(pos, mv), mv, slots.keep(), next_few));
        }
        // The order of the children, as indices (cheaper to sort and
        // rotate than the children).
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        if outcome.is_none() {
            order.extend(0..children.len() as u32);
            if left > 2 {
                order.sort_by_key(|&i| {
                    let c = &children[i as usize];
                    (c.0, c.1)
                });
            }
            if self.salt != 0 && !order.is_empty() {
                let k = self.salt % order.len();
                order.rotate_left(k);
            }
            // (The children's last moves use this node's filter.)
            self.parent_two = last_two.filter(|_| !children.is_empty()).map(Box::new);
            for &i in &order {
                let (_, _, mv, at, next_few) = &children[i as usize];
                let child = if *at == UNPLAYED {
                    // (Played into the free slot after the kept ones.)
                    let effect = slots.play(pos, *mv);
                    debug_assert!(!effect.turn_ended, "a last move's child ends no turn");
                    slots.next()
                } else {
                    slots.get(*at)
                };
                let played = if sleeping {
                    Sleeper::of(pos, *mv)
                } else {
                    None
                };
                let (here, next) = self.sleep.split_at_mut(ply + 1);
                next[0].fill(&here[ply], &decided, played.as_ref());
                self.line.push(*mv);
                self.few = *next_few;
                let o = self.search_asleep(child);
                self.few = few;
                match o {
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
                    Outcome::NoMate => decided.extend(played),
                }
                self.line.pop();
            }
            self.parent_two = None;
        }
        self.moves[ply] = Some(moves);
        self.children[ply] = children;
        self.slots[ply] = slots;
        self.order[ply] = order;
        self.ahead[ply] = ahead;
        self.decided[ply] = decided;
        if let Some(o) = outcome {
            return o;
        }
        if found {
            return Outcome::Mate;
        }
        match few {
            None => self.shared.store_none(pos.key()),
            Some(f) => self.shared.store_none(f.key(pos.key())),
        }
        Outcome::NoMate
    }

    /// The bound of the child of `pos` after `mv` (its key `key`, `left - 1`
    /// moves left to it, the pass restriction `next_few`), or `None` when the
    /// memo, the table or the bound prunes it. The child is in the next
    /// free slot of `slots` if `played`; if not and the bound needs it, it
    /// is played there (and `played` set).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child_need(
        &mut self,
        pos: &Position,
        mv: Move,
        key: u64,
        slots: &mut Slots,
        played: &mut bool,
        left: u32,
        next_few: Option<Few>,
    ) -> Option<u32> {
        // The bound of a child met before (in an earlier round, or by
        // another move order) is remembered: the key covers the position
        // and the restriction. A remembered bound over the budget saves the
        // table probes too.
        let few_key = next_few.map_or(key, |f| f.key(key));
        let memo = self.bound_memo.get(few_key);
        if memo.is_some_and(|need| need > left - 1) {
            return None;
        }
        if self.shared.proved_none(key) || next_few.is_some() && self.shared.proved_none(few_key) {
            return None;
        }
        let need = match memo {
            Some(need) => need,
            None => {
                let (cap, movable, recruits) = (
                    left - 1,
                    next_few.map_or(Bitboard::ALL, |f| f.moved),
                    next_few.map_or(0, |f| f.limit - f.count),
                );
                let ply = self.line.len();
                let need = match self.child_bounds[ply].bound_from_parent(
                    pos,
                    mv,
                    cap,
                    &mut self.bound_cache,
                    movable,
                    recruits,
                ) {
                    Some(need) => need,
                    None => {
                        let child = slots.lazy(played, pos, mv);
                        bounds::lower_bound_movable(
                            child,
                            cap,
                            &mut self.bound_cache,
                            movable,
                            recruits,
                        )
                    }
                };
                let need = self.picture_need(pos, mv, slots, played, need, left);
                self.bound_memo.put(few_key, need);
                need
            }
        };
        (need < left).then_some(need)
    }

    /// `need` (the bound of the child after `mv`), or `left` when the
    /// child's mating pictures ([`bounds::NodePictures`]) prove it has no
    /// mate; the child is played into the next free slot of `slots` if it
    /// was not (`played`).
    fn picture_need(
        &mut self,
        pos: &Position,
        mv: Move,
        slots: &mut Slots,
        played: &mut bool,
        need: u32,
        left: u32,
    ) -> u32 {
        let Some(pictures) = self.pictures.as_mut() else {
            return need;
        };
        if need >= left || left - 1 < bounds::NodePictures::MIN_MOVES {
            return need;
        }
        if pictures.no_picture_fits_after(pos, mv, slots.lazy(played, pos, mv)) {
            left
        } else {
            need
        }
    }

    /// The last move of the turn: only a checking move can mate.
    fn last_move(&mut self, pos: &Position) -> Outcome {
        let mut checks = self.checks.take().unwrap_or_default();
        generate_checks(pos, &mut checks);
        // The filter of the node before (where the move that led here was
        // made), or, without one, a filter of this node (worth preparing
        // for more than one check).
        let first = self
            .line
            .last()
            .copied()
            .filter(|m| m.kind() != MoveKind::Castle)
            .and_then(|m| Some((m, pos.piece_at(m.to())?.role)));
        let parent = self.parent_two.take();
        let filter = match (&parent, first) {
            (Some(_), Some(_)) => None,
            _ => {
                (checks.len() > 1).then(|| bounds::LastOne::new_cached(pos, &mut self.bound_cache))
            }
        };
        let outcome = self.last_move_checks(
            pos,
            checks.as_slice(),
            parent.as_deref().zip(first),
            filter.as_ref(),
        );
        self.parent_two = parent;
        self.checks = Some(checks);
        outcome
    }

    /// [`Searcher::last_move`] over `checks`, each first tested by the
    /// filter of the node before (with the move made there) or `filter`.
    fn last_move_checks(
        &mut self,
        pos: &Position,
        checks: &[Move],
        parent: Option<(&bounds::LastTwo, (Move, Role))>,
        filter: Option<&bounds::LastOne>,
    ) -> Outcome {
        let mut found = false;
        // (No move sleeps here: it would not give check.)
        for &mv in checks.iter() {
            if self
                .few
                .is_some_and(|f| f.after(mv, self.movers.as_deref()).is_none())
            {
                continue;
            }
            self.unflushed += 1;
            // A check that leaves a flight or the king's square unattacked
            // even on the empty board does not mate: not played.
            let role = || pos.role_after(mv);
            let castle = mv.kind() == MoveKind::Castle;
            let pass = match (parent, filter) {
                (Some((f, (first, first_role))), _) => f.may_mate_after_two(
                    &mut self.bound_cache,
                    (first.from(), first.to()),
                    first_role,
                    (mv.from(), mv.to()),
                    role(),
                    castle,
                ),
                (None, Some(f)) => {
                    f.may_mate_after(&mut self.bound_cache, (mv.from(), mv.to()), role(), castle)
                }
                (None, None) => true,
            };
            if !pass {
                continue;
            }
            let mut child = pos.clone();
            child.play(mv);
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
    /// [`Searcher::enter`] for long turns: restricted passes ([`Few`]) and
    /// the full search take turns in rounds, each run stopped after a node
    /// budget that grows four-fold a round. A mate found by a pass is a real
    /// mate; the full search alone decides "no mate", and its proofs in the
    /// table carry over from round to round (so do the passes' own entries).
    /// A turn whose mate takes few pieces is solved by a pass long before the
    /// full search would find it; elsewhere the passes cost a bounded share.
    pub fn enter_with_passes(&mut self, pos: &Position) -> Outcome {
        if self.all.is_some() || !uses_passes(pos) {
            return self.enter(pos);
        }
        // Long searches revisit children (round after round): their bounds
        // are remembered.
        self.bound_memo.start();
        // A pass of as many pieces as we have is the full search again (the
        // same tree under other keys): not run.
        let ours = pos.color_bb(pos.side_to_move()).count();
        let mut open = [false; PASS_MAX_PIECES as usize + 1];
        for limit in 1..=PASS_MAX_PIECES {
            open[limit as usize] = ours > limit;
        }
        let mut budget = PASS_FIRST_BUDGET;
        let o = loop {
            if budget == PASS_FIRST_BUDGET * PICTURES_AFTER {
                self.bound_by_pictures();
            }
            if budget == PASS_FIRST_BUDGET * MOVERS_AFTER {
                // From the second round on the passes search only inside
                // the sets of pieces whose pictures fit (a pass with none
                // has no mate). Queries the first round decides do not pay
                // for the sets.
                let movers = bounds::Movers::of(pos);
                if let Some(m) = &movers {
                    for limit in 1..=PASS_MAX_PIECES {
                        open[limit as usize] &= m.any(limit);
                    }
                }
                log::debug!("mate passes open: {:?}", &open[1..]);
                self.movers = movers.map(Box::new);
            }
            if none_open(&open) {
                self.bound_by_pictures();
                // No pass left: the rounds would only restart the full
                // search, which runs to the end instead.
                break self.enter(pos);
            }
            if let Some(o) = self.round(pos, budget, &mut open) {
                break o;
            }
            budget = budget.saturating_mul(4);
        };
        self.movers = None;
        if let Some(p) = &self.pictures {
            log::debug!("mate node pictures: {} cut of {} tested", p.cut, p.tested);
        }
        o
    }

    /// From here on the children are bounded by the mating pictures too
    /// (queries decided before do not pay for their ways).
    fn bound_by_pictures(&mut self) {
        if self.pictures.is_none() {
            self.pictures = Some(Box::default());
        }
    }

    /// One round of [`Searcher::enter_with_passes`]: the passes still
    /// `open` (indexed by their limit) with `budget` nodes each, then the
    /// full search with its share (unless no pass is left open, when the
    /// caller runs it to the end). `None`: undecided in this round.
    fn round(
        &mut self,
        pos: &Position,
        budget: u64,
        open: &mut [bool; PASS_MAX_PIECES as usize + 1],
    ) -> Option<Outcome> {
        let narrowest_first = budget < PASS_FIRST_BUDGET * WIDEST_FIRST_AFTER;
        for i in 0..PASS_MAX_PIECES {
            let limit = if narrowest_first {
                1 + i
            } else {
                PASS_MAX_PIECES - i
            };
            if !open[limit as usize] {
                continue;
            }
            self.few = Some(Few::new(limit));
            let start = self.local_nodes + self.unflushed;
            let o = self.enter_budgeted(pos, budget);
            self.few = None;
            log::debug!(
                "mate pass {limit} budget {budget}: {o:?} after {} nodes",
                self.local_nodes + self.unflushed - start
            );
            match o {
                Some(Outcome::NoMate) => open[limit as usize] = false,
                Some(o) => return Some(o),
                None => {}
            }
            self.line.clear();
        }
        if none_open(open) {
            // The passes are all decided: the full search runs to the end
            // next (a budgeted run of it now would be cut short).
            return None;
        }
        let start = self.local_nodes + self.unflushed;
        let o = self.enter_budgeted(pos, budget / FULL_SHARE);
        log::debug!(
            "mate full budget {}: {o:?} after {} nodes",
            budget / FULL_SHARE,
            self.local_nodes + self.unflushed - start
        );
        if o.is_none() {
            self.line.clear();
        }
        o
    }

    /// One pass of `limit` pieces searched to the end, restricted to the
    /// fitting sets of pieces or not (for the tests of the restriction).
    #[cfg(test)]
    pub(crate) fn pass(&mut self, pos: &Position, limit: u32, restricted: bool) -> Outcome {
        self.movers = bounds::Movers::of(pos).filter(|_| restricted).map(Box::new);
        self.few = Some(Few::new(limit));
        let o = self.enter(pos);
        self.few = None;
        self.movers = None;
        o
    }

    /// The search without the pictures' bound at its nodes (for the tests
    /// that compare it with the bound).
    #[cfg(test)]
    pub(crate) fn without_node_pictures(&mut self) {
        self.pictures = Some(Box::new(bounds::NodePictures::off()));
    }

    /// [`Searcher::enter`] stopped after about `budget` more nodes: `None`
    /// when that budget (and not a limit of the query) stopped it.
    fn enter_budgeted(&mut self, pos: &Position, budget: u64) -> Option<Outcome> {
        self.budget_end = (self.local_nodes + self.unflushed).saturating_add(budget);
        let o = self.enter(pos);
        self.budget_end = u64::MAX;
        if o == Outcome::Aborted && !self.shared.should_stop() {
            self.aborted = false;
            return None;
        }
        Some(o)
    }

    pub fn enter(&mut self, pos: &Position) -> Outcome {
        if self.shared.proved_none(pos.key()) || !bounds::may_mate(pos, pos.moves_left()) {
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
