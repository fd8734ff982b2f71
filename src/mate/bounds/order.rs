//! The order of the moves: is one of the named final boards reached at all?
//!
//! The pictures relax the order of a turn's moves: a slider's check on the
//! way may be blocked, a capture may come before or after a piece passes.
//! Where [`super::final_board`] names whole boards that mate, the rules
//! core is asked whether some legal line of the turn ends on one of them,
//! as Popeye's intelligent mode does with each of its pictures: a search
//! over our legal moves from the position now, cut wherever the moves
//! left cannot bring every piece of ours onto a square of its role on some
//! board, or take the enemy pieces some board has not. Each cut is a lower
//! bound, so "no line reaches a board" is a proof that no mating line ends
//! on one. The search gives up after a number of nodes (answering
//! "reached": nothing known).
//!
//! The lower bound of one board: each of our pieces needs at least the
//! fewest moves to the nearest square of its role there (as that role or,
//! a pawn, promoted), and the turn at least one move per enemy piece still
//! to take. On its ways a piece never enters nor passes a kept enemy piece
//! (the enemy does not move, and a kept piece is never taken); our king
//! never steps onto a square a kept enemy king, knight or pawn attacks
//! (those attacks cannot be blocked), and our knight never stops on a
//! square checking the enemy king before its last move (no check before a
//! turn's last move, under both rules). Over several boards, the least of
//! their bounds.

use crate::chess::attacks;
use crate::chess::status::is_mated;
use crate::chess::{Bitboard, Color, Move, Position, Role, Square, legal_moves};
use rustc_hash::FxHashSet;

/// "Cannot".
const FAR: u8 = u8::MAX;

/// At most this many mating boards are kept for the order of the moves;
/// one more and the pictures give up (nothing known).
const MAX_NAMED: usize = 256;

/// The boards the pictures named that mate (each once), for the order of
/// the moves ([`super::order`]) to ask whether some line reaches one.
#[derive(Default)]
pub(super) struct Named {
    boards: Vec<Position>,
    keys: Vec<u64>,
}

impl Named {
    /// Keeps `board`; false when there is no room.
    pub(super) fn add(&mut self, board: Position) -> bool {
        if self.keys.contains(&board.key()) {
            return true;
        }
        if self.boards.len() == MAX_NAMED {
            return false;
        }
        self.keys.push(board.key());
        self.boards.push(board);
        true
    }
}

/// The order of the moves over the boards the pictures name, a scene at a
/// time: the boards of one scene are asked together (one search, its
/// failures shared), the nodes shared by all scenes.
pub(super) struct Order {
    pub(super) named: Named,
    nodes_left: u32,
    /// The mating line found, where a line reached a board.
    pub(super) mate: Option<Vec<Move>>,
}

impl Order {
    pub(super) fn new(nodes: u32) -> Order {
        Order {
            named: Named::default(),
            nodes_left: nodes,
            mate: None,
        }
    }

    /// Settles the boards named since the last call: true when no line of
    /// `start`'s turn reaches one of them; false when one does (its line
    /// kept in `mate`) or the search gave up.
    pub(super) fn settle(&mut self, start: &Position) -> bool {
        if self.named.boards.is_empty() {
            return true;
        }
        #[cfg(test)]
        if tests::OFF.get() {
            return false;
        }
        #[cfg(test)]
        tests::SETTLED.with_borrow_mut(|s| {
            if let Some(s) = s {
                s.push((start.clone(), self.named.boards.clone()));
            }
        });
        let (reached, nodes) = reaches_any(start, &self.named.boards, self.nodes_left);
        log::debug!(
            "order of the moves: {} boards, reached {:?} after {nodes} nodes",
            self.named.boards.len(),
            reached.as_ref().map(Option::is_some)
        );
        self.nodes_left = self.nodes_left.saturating_sub(nodes);
        self.named = Named::default();
        match reached {
            Some(None) => true,
            Some(Some(line)) => {
                self.mate = Some(line);
                false
            }
            None => false,
        }
    }
}

/// Is one of the mating boards `goals` (our pieces placed, the captured
/// enemy pieces gone) the end of some legal line of `start`'s turn?
/// `None` when the search gave up after `limit` nodes, else the line that
/// reaches one (a mating line: the board is asked of the rules core), if
/// any; also returns the nodes used.
pub(super) fn reaches_any(
    start: &Position,
    goals: &[Position],
    limit: u32,
) -> (Option<Option<Vec<Move>>>, u32) {
    let us = start.side_to_move();
    let mut fewest = [[FAR; 64]; 6];
    let mut kept_sets: Vec<Bitboard> = Vec::new();
    let mut ends = Vec::with_capacity(goals.len());
    let mut never_taken = Bitboard::ALL;
    for goal in goals {
        let table = fewest_moves(goal, us);
        for (all, one) in fewest.iter_mut().zip(&table) {
            for (a, &o) in all.iter_mut().zip(one) {
                *a = (*a).min(o);
            }
        }
        let kept = goal.color_bb(us.other());
        never_taken &= kept;
        if !kept_sets.contains(&kept) {
            kept_sets.push(kept);
        }
        ends.push(End {
            theirs: kept,
            ours: Role::ALL.map(|r| goal.pieces(us, r)),
        });
    }
    // The enemy pieces every goal takes, with the ways of our pieces to
    // them through the pieces every goal keeps.
    let promotes = goals.iter().any(|g| {
        (g.color_bb(us) & !g.pieces(us, Role::Pawn) & !g.pieces(us, Role::King)).nonempty()
    });
    let kept_by_some = kept_sets.iter().fold(Bitboard::EMPTY, |a, &k| a | k);
    let takes = (start.color_bb(us.other()) & !kept_by_some)
        .into_iter()
        .map(|x| (x, to_square(x, never_taken & !x.bb())))
        .collect();
    let mut walk = Walk {
        us,
        fewest,
        kept_sets,
        never_taken,
        takes,
        promotes,
        ends,
        failed: FxHashSet::default(),
        line: Vec::new(),
        nodes: 0,
        limit,
    };
    let found = !goals.is_empty() && {
        let sum = walk.pieces_part(start);
        walk.search(start, sum)
    };
    let out = (walk.nodes <= limit).then(|| found.then_some(walk.line));
    (out, walk.nodes)
}

/// Where the pieces stand on one goal board.
struct End {
    theirs: Bitboard,
    ours: [Bitboard; 6],
}

/// The search of [`reaches_any`].
struct Walk {
    us: Color,
    /// Per role and square: the fewest moves of our piece of that role
    /// there to a square of some goal it may end on ([`fewest_moves`]).
    fewest: [[u8; 64]; 6],
    /// The goals' sets of enemy pieces (each once).
    kept_sets: Vec<Bitboard>,
    /// The enemy pieces every goal keeps: taking one reaches none.
    never_taken: Bitboard,
    /// The enemy pieces every goal takes: per square, the fewest moves of
    /// our pieces of each role from each square to it ([`to_square`]).
    takes: Vec<(Square, [[u8; 64]; 6])>,
    /// Has some goal a piece of ours other than the king and pawns (one a
    /// pawn may be promoted to)?
    promotes: bool,
    ends: Vec<End>,
    /// The nodes (key and moves left) from which no goal is in reach.
    failed: FxHashSet<u64>,
    /// The moves from the start to the node searched.
    line: Vec<Move>,
    nodes: u32,
    limit: u32,
}

impl Walk {
    /// Does a line from `pos` reach a goal? `sum` is its pieces' part of
    /// the bound ([`Walk::pieces_part`]); the other part is the enemy
    /// pieces still to capture, one move each.
    fn search(&mut self, pos: &Position, sum: u32) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            // Given up: "reached" is the answer that proves nothing.
            return true;
        }
        let left = pos.moves_left();
        if sum + self.detour(pos) > left {
            return false;
        }
        let memo = pos.key() ^ u64::from(left).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        if self.failed.contains(&memo) {
            return false;
        }
        let theirs = pos.color_bb(self.us.other());
        for mv in legal_moves(pos).iter().copied() {
            let (from, to) = (mv.from(), mv.to());
            if self.never_taken.contains(to) {
                continue;
            }
            let Some(piece) = pos.piece_at(from) else {
                continue;
            };
            // The bound after the move, from the mover's change alone.
            let before = self.fewest[piece.role.index()][from.index()];
            let after = self.fewest[pos.role_after(mv).index()][to.index()];
            if after == FAR {
                continue;
            }
            let sum2 = sum - u32::from(before) + u32::from(after);
            let Some(prey) = self.prey(theirs & !to.bb()) else {
                continue;
            };
            if sum2.max(prey) + 1 > left {
                continue;
            }
            let mut child = pos.clone();
            let effect = child.play(mv);
            if effect.turn_ended {
                if effect.check && self.at_goal(&child) && is_mated(&child) {
                    self.line.push(mv);
                    return true;
                }
                continue;
            }
            self.line.push(mv);
            if self.search(&child, sum2) {
                return true;
            }
            self.line.pop();
        }
        if self.nodes <= self.limit {
            self.failed.insert(memo);
        }
        false
    }

    /// The fewest moves beyond the pieces' part of the bound that taking
    /// the enemy pieces every goal takes costs: a piece that takes one on
    /// `x` goes there first and then to its goal's square, so the least
    /// over our pieces of that detour (none for a pawn that can get
    /// there or be promoted: its goal squares are a promoted piece's too),
    /// the most over the pieces still to take.
    fn detour(&self, pos: &Position) -> u32 {
        #[cfg(test)]
        if !tests::DETOUR.get() {
            return 0;
        }
        let theirs = pos.color_bb(self.us.other());
        let mut most = 0u8;
        for (x, to_x) in &self.takes {
            if !theirs.contains(*x) {
                continue;
            }
            let mut least = FAR;
            for sq in pos.color_bb(self.us) {
                let Some(piece) = pos.piece_at(sq) else {
                    continue;
                };
                let r = piece.role.index();
                let d = if piece.role == Role::Pawn {
                    // Promoted, it may take anything.
                    let ahead = x
                        .relative_rank(self.us)
                        .checked_sub(sq.relative_rank(self.us));
                    match ahead {
                        _ if self.promotes => 0,
                        Some(a) if a >= 1 && x.file().abs_diff(sq.file()) <= a => 0,
                        _ => FAR,
                    }
                } else {
                    let fewest = &self.fewest[r];
                    to_x[r][sq.index()]
                        .saturating_add(fewest[x.index()])
                        .saturating_sub(fewest[sq.index()])
                };
                least = least.min(d);
            }
            most = most.max(least);
        }
        u32::from(most)
    }

    /// The fewest enemy pieces among `theirs` still to take to stand as on
    /// some goal; `None` where a goal's piece is gone from every goal.
    fn prey(&self, theirs: Bitboard) -> Option<u32> {
        self.kept_sets
            .iter()
            .filter(|&&k| k & theirs == k)
            .map(|&k| (theirs & !k).count())
            .min()
    }

    /// A lower bound on the moves from `pos` to a goal: the fewest moves
    /// of each piece of ours to a square of its role.
    fn pieces_part(&self, pos: &Position) -> u32 {
        let mut sum = 0u32;
        for role in Role::ALL {
            for sq in pos.pieces(self.us, role) {
                sum += u32::from(self.fewest[role.index()][sq.index()]);
            }
        }
        sum
    }

    /// Do our pieces and the enemy's stand as on a goal (a queen of the
    /// goal may be a rook or bishop: see [`fewest_moves`])?
    fn at_goal(&self, pos: &Position) -> bool {
        let theirs = pos.color_bb(self.us.other());
        let ours = |r: Role| pos.pieces(self.us, r);
        self.ends.iter().any(|e| {
            let goal = |r: Role| e.ours[r.index()];
            let queens = goal(Role::Queen);
            e.theirs == theirs
                && [Role::Pawn, Role::Knight, Role::King]
                    .iter()
                    .all(|&r| ours(r) == goal(r))
                && ours(Role::Queen) & !queens == Bitboard::EMPTY
                && ours(Role::Rook) & !(goal(Role::Rook) | queens) == Bitboard::EMPTY
                && ours(Role::Bishop) & !(goal(Role::Bishop) | queens) == Bitboard::EMPTY
                && ours(Role::Queen) | ours(Role::Rook) | ours(Role::Bishop)
                    == queens | goal(Role::Rook) | goal(Role::Bishop)
        })
    }
}

/// Per role and square, the fewest moves of our piece (`us`) of that role
/// there to a square of `goal` it may end on: a square of its role on the
/// goal, or for a pawn a promoted piece's (the moves to the last rank).
/// A queen of the goal may stand for a rook or bishop made by promotion
/// (the pictures place a promoted queen for both, as it covers all they
/// would), so a rook or bishop may end on its square too.
/// The enemy pieces of the goal stand throughout (they never move and are
/// not captured), so they are the obstacles, the squares their king,
/// knights and pawns attack are never our king's, and the squares from
/// which a knight checks are never a stop of our knights' (but an end);
/// everything else is relaxed.
fn fewest_moves(goal: &Position, us: Color) -> [[u8; 64]; 6] {
    let mut out = [[FAR; 64]; 6];
    let them = us.other();
    let walls = goal.color_bb(them);
    let king = goal.king_square(them);
    let mut attacked = attacks::king(king);
    for sq in goal.pieces(them, Role::Knight) {
        attacked |= attacks::knight(sq);
    }
    for sq in goal.pieces(them, Role::Pawn) {
        attacked |= attacks::pawn(them, sq);
    }
    let queens = goal.pieces(us, Role::Queen);
    for role in Role::ALL {
        let mut ends = goal.pieces(us, role);
        if matches!(role, Role::Rook | Role::Bishop) {
            ends |= queens;
        }
        out[role.index()] = match role {
            Role::Pawn => continue,
            Role::King => flood(role, ends, walls, attacked),
            Role::Knight => flood(
                role,
                ends,
                walls | (attacks::knight(king) & !ends),
                Bitboard::EMPTY,
            ),
            _ => flood(role, ends, walls, Bitboard::EMPTY),
        };
    }
    let pawns = goal.pieces(us, Role::Pawn);
    let promoted = (goal.color_bb(us) & !pawns & !goal.pieces(us, Role::King)).nonempty();
    for from in Square::all() {
        let rank = from.relative_rank(us);
        if rank == 0 || rank == 7 {
            continue;
        }
        let mut best = FAR;
        // A pawn move goes one rank forward, two from its first rank.
        let steps = |ranks: u8| ranks - u8::from(rank == 1 && ranks >= 2);
        for to in pawns {
            let r = to.relative_rank(us);
            if r >= rank && from.file().abs_diff(to.file()) <= r - rank {
                best = best.min(steps(r - rank));
            }
        }
        if promoted {
            best = best.min(steps(7 - rank));
        }
        out[Role::Pawn.index()][from.index()] = best;
    }
    out
}

/// Per role (not the pawn's: left `FAR`) and square, the fewest moves of
/// our piece there to `x`, never entering nor passing `walls`.
fn to_square(x: Square, walls: Bitboard) -> [[u8; 64]; 6] {
    let mut out = [[FAR; 64]; 6];
    for role in Role::ALL {
        if role != Role::Pawn {
            out[role.index()] = flood(role, x.bb(), walls, Bitboard::EMPTY);
        }
    }
    out
}

/// The fewest moves of a `role` (not a pawn) from every square to one of
/// `ends`, `walls` never entered nor passed and `avoid` never entered (the
/// moves are reversible, so a flood from the ends; a piece standing on a
/// square of `avoid` now may still leave it).
fn flood(role: Role, ends: Bitboard, walls: Bitboard, avoid: Bitboard) -> [u8; 64] {
    let step = |sq: Square| match role {
        Role::King => attacks::king(sq),
        r => attacks::piece(r, sq, walls),
    };
    let mut out = [FAR; 64];
    let mut frontier = ends & !walls & !avoid;
    let mut seen = frontier;
    let mut d = 0u8;
    while frontier.nonempty() {
        for sq in frontier {
            out[sq.index()] = d;
        }
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= step(sq);
        }
        frontier = next & !walls & !avoid & !seen;
        seen |= frontier;
        d += 1;
    }
    for sq in avoid & !walls {
        let best = step(sq)
            .into_iter()
            .map(|n| out[n.index()])
            .min()
            .unwrap_or(FAR);
        out[sq.index()] = best.saturating_add(1);
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::no_mate_by_pictures;
    use super::super::pictures::tests::{check_layer, claim_without, searched, sparse_positions};
    use super::super::{Pictured, mate_by_pictures};
    use crate::chess::{Position, Rules, fen};
    use crate::mate::{MateTable, is_mating_line};
    use std::cell::{Cell, RefCell};

    /// A start the order of the moves settled, and the boards named.
    pub(super) type Settled = (Position, Vec<Position>);

    thread_local! {
        /// The pictures without the order of the moves (for the tests):
        /// every named board counts as reached.
        pub(in crate::mate::bounds) static OFF: Cell<bool> = const { Cell::new(false) };
        /// The detour part of the walk's bound in use ([`super::Walk::detour`]).
        pub(super) static DETOUR: Cell<bool> = const { Cell::new(true) };
        /// Where `Some`, every settled start and its named boards.
        pub(super) static SETTLED: RefCell<Option<Vec<Settled>>> = const { RefCell::new(None) };
    }

    /// The detour part of the bound cuts no line that reaches a named
    /// board: on the boards the pictures name in random sparse positions
    /// (both rule sets, 4-10 moves), the walk with it and without it
    /// (no node limit) reach a board alike; and it cuts nodes.
    #[test]
    fn the_detour_cuts_no_line_to_a_named_board() {
        let (mut walks, mut reached, mut cut) = (0, 0, 0);
        for (rules, seed) in [(Rules::Italian, 65), (Rules::Scottish, 66)] {
            for pos in sparse_positions(rules, seed, 1500, 10, 4..=10) {
                SETTLED.set(Some(Vec::new()));
                mate_by_pictures(&pos);
                let settled = SETTLED.take().unwrap_or_default();
                for (start, boards) in settled {
                    let (with, n_with) = super::reaches_any(&start, &boards, u32::MAX);
                    DETOUR.set(false);
                    let (without, n_without) = super::reaches_any(&start, &boards, u32::MAX);
                    DETOUR.set(true);
                    let f = fen::to_fen(&start);
                    let (with, without) = (with.map(|l| l.is_some()), without.map(|l| l.is_some()));
                    assert_eq!(with, without, "{f}: {} boards", boards.len());
                    assert!(n_with <= n_without, "{f}: {n_with} > {n_without} nodes");
                    walks += 1;
                    reached += u32::from(with == Some(true));
                    cut += u32::from(n_with < n_without);
                }
            }
        }
        eprintln!("{walks} walks, {reached} reached a board, the detour cut nodes in {cut}");
        assert!(
            walks >= 200 && reached >= 20 && cut >= 20,
            "only {walks} walks, {reached} reached, {cut} cut"
        );
    }

    /// The pictures' claim without the order of the moves.
    fn without(pos: &Position) -> bool {
        claim_without(&OFF, pos)
    }

    /// The claims only the order of the moves makes (every named board
    /// reached without it) are checked by brute force on 4-move turns and
    /// by the search on 5-8 moves (up to 10 pieces, both rule sets); the
    /// order never withdraws a claim.
    #[test]
    fn the_order_of_the_moves_agrees_with_brute_force_and_the_search() {
        let tt = MateTable::new(16);
        let seeds = [(Rules::Italian, 61), (Rules::Scottish, 62)];
        let (brute, n_searched) = check_layer("the order", without, seeds, 4..=8, &tt);
        eprintln!("{brute} claims by brute force, {n_searched} by the search");
        assert!(
            brute >= 20 && n_searched >= 50,
            "only {brute} and {n_searched} claims checked"
        );
    }

    /// A line that reaches a named board is a mate the rules core accepts,
    /// and where the search finds a mate the pictures never claim none.
    #[test]
    fn a_line_to_a_named_board_is_a_mate() {
        let tt = MateTable::new(16);
        let (mut lines, mut mates) = (0, 0);
        for (rules, seed) in [(Rules::Italian, 63), (Rules::Scottish, 64)] {
            for pos in sparse_positions(rules, seed, 1500, 10, 4..=8) {
                let f = fen::to_fen(&pos);
                let pictured = mate_by_pictures(&pos);
                if let Pictured::Mate(line) = &pictured {
                    assert!(is_mating_line(&pos, line), "{f}: {line:?}");
                    lines += 1;
                }
                tt.clear();
                if let Some(Some(_)) = searched(&pos, &tt, 100_000) {
                    assert!(
                        !matches!(pictured, Pictured::NoMate),
                        "{f}: a mate excluded"
                    );
                    mates += 1;
                }
            }
        }
        eprintln!("{lines} mating lines to named boards, {mates} mates of the search");
        assert!(
            lines >= 50 && mates >= 200,
            "only {lines} lines and {mates} mates"
        );
    }

    /// Sermate s115: the pictures name boards where Black's rook, having
    /// taken the pawns on f5 and e5, checks the white king on c5 with the
    /// black king on a5 (an Italian mate: the king's steps off the fifth
    /// rank uncover the queen's check). No line gets there: whatever takes
    /// e5 checks along the fifth rank before the last move.
    #[test]
    fn a_capture_that_checks_before_the_last_move_reaches_no_board() {
        let pos = fen::parse(
            "4k3/8/8/2K1PP1Q/2P5/4R3/4Rr2/1b6 b - - 0 11",
            Rules::Italian,
        )
        .expect("fen");
        assert!(!without(&pos), "the pictures without the order prove it");
        assert!(no_mate_by_pictures(&pos), "the order proves no mate");
        let tt = MateTable::new(16);
        assert_eq!(
            searched(&pos, &tt, 10_000_000),
            Some(None),
            "the search agrees"
        );
    }
}
