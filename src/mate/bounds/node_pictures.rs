//! The mating pictures as a bound at every node of a long turn's search.
//!
//! [`draw_pictures`](super::draw_pictures) proves "no mate" for
//! the query's root; its proof holds for any position of a turn (the enemy
//! pieces stand still, no check before the last move), so it holds for the
//! nodes inside the search as well: a node where no mating picture fits in
//! the moves left has no mate below it, whatever the empty-board bound says.
//! What makes it affordable at a node is that the pictures of the
//! transparent scene (every enemy piece taken as transparent, as the root's
//! first, cheapest proof does) depend only on the enemy pieces, which change
//! only with a capture: the ways of each of our pieces from each square
//! ([`ends_of`]) are computed once per set of enemy pieces and kept (a
//! pawn's per set of all of them, the others' per set of those next to the
//! enemy king and on its lines), and a node costs one cover search over
//! its pieces' current squares.
//!
//! Sound for the same reasons as the root's proof (see
//! [`super::pictures`]): every relaxation there is one here.

use super::movers::Least;
use super::paths::{End, FAR, ends_of};
use super::pictures::{Scene, modelled};
use crate::chess::attacks;
use crate::chess::{Bitboard, Move, MoveKind, Position, Role, Square};
use std::cell::OnceCell;

/// Nodes with more of our pieces than this are not tested (the pictures
/// are many, the cover search dear). With 9 the nodes of the unknown-rate
/// bench's first checks cost some 6 % more CPU and answer 6 more of its
/// 772 positions (37 -> 31 unknown), more than 6 % more nodes would; with
/// 10, 27 % more CPU for 11 more, what as many more nodes answer.
const MAX_OURS: u32 = 9;
/// Scenes (sets of enemy pieces) kept at once.
const SCENES: usize = 256;
/// The ways are computed to this many moves (every cost the search can
/// ask: a turn's moves left are compared to them).
const WAY_CAP: u8 = 200;

/// The pictures of one set of enemy pieces: the scene and the ways of each
/// role from each square, computed when first asked.
struct Kept {
    /// The enemy pieces the ways depend on ([`enemies_key`] or
    /// [`pieces_key`]).
    enemies: Bitboard,
    scene: Scene,
    ways: Vec<Option<Box<Way>>>,
}

/// The ways of one piece from one square: its ends, cheapest first, and
/// as a table (the fewest moves covering at least each target mask), made
/// when first read (most ways are only searched through).
struct Way {
    ends: Vec<End>,
    /// The scene's targets.
    full: u16,
    least: OnceCell<Least>,
}

impl Way {
    /// The way of `ends`, whose masks are of `full`'s targets.
    fn new(ends: Vec<End>, full: u16) -> Way {
        Way {
            ends,
            full,
            least: OnceCell::new(),
        }
    }

    fn least(&self) -> &Least {
        self.least.get_or_init(|| {
            let options: Vec<_> = self.ends.iter().map(|e| (e.mask, e.cost, e.last)).collect();
            Least::of_targets(&options, WAY_CAP, 16 - self.full.leading_zeros())
        })
    }
}

/// The states of a cover search (see [`states`]).
type States = Vec<(u16, u8)>;

/// A searcher's pictures per node (see the module text).
#[derive(Default)]
pub(crate) struct NodePictures {
    /// The scenes of our pawns' ways, per set of enemy pieces (a pawn's
    /// way depends on every enemy piece it may take).
    scenes: Ring,
    /// The scenes of our other pieces' ways, per set of the enemy pieces
    /// they depend on ([`pieces_key`]): far fewer, as most captures leave
    /// those alone.
    pieces: Ring,
    /// The cover search's states over the pieces of a node but the one
    /// on a square, kept for the next child that moves that piece: the
    /// node's key and the square (the siblings moving one piece share it).
    others: Option<(u64, Square, States)>,
    /// The states of [`NodePictures::no_picture_fits`] (kept for their
    /// allocation).
    scratch: States,
    /// Nodes tested and nodes cut (for the debug log).
    pub(crate) tested: u64,
    pub(crate) cut: u64,
    /// Never cut (for the tests that compare the search without the bound).
    off: bool,
}

impl NodePictures {
    /// Nodes with fewer moves left are left to the other bounds (the
    /// filters of the last two moves are exact enough there).
    pub(crate) const MIN_MOVES: u32 = 2;

    /// Is `pos` one this bound is asked for?
    pub(crate) fn applies(pos: &Position) -> bool {
        pos.moves_left() >= Self::MIN_MOVES
            && pos.color_bb(pos.side_to_move()).count() <= MAX_OURS
            && modelled(pos)
    }

    /// Does no mating picture fit in the moves `pos`'s side to move has
    /// left? True is a proof that it does not mate in this turn; false
    /// (also where the bound does not apply) proves nothing.
    pub(crate) fn no_picture_fits(&mut self, pos: &Position) -> bool {
        if self.off || !Self::applies(pos) {
            return false;
        }
        let full = self.scene(pos).full();
        let mut buf = std::mem::take(&mut self.scratch);
        let mut ways = self.ways_of(pos, None);
        let moves = pos.moves_left().min(u32::from(WAY_CAP)) as u8;
        // The way with the most ends goes last: it is read from its table.
        ways.sort_unstable_by_key(|w| w.ends.len());
        let none = match ways.split_last() {
            None => full != 0,
            Some((last, first)) => {
                states(first, moves, &mut buf);
                !completes(&buf, last.least(), full, moves)
            }
        };
        self.scratch = buf;
        self.count(none)
    }

    /// [`NodePictures::no_picture_fits`] for `child`, the child of `pos`
    /// after `mv`. Siblings that move the same piece and capture nothing
    /// share the cover search over the other pieces: each child then costs
    /// one look-up per state of it.
    pub(crate) fn no_picture_fits_after(
        &mut self,
        pos: &Position,
        mv: Move,
        child: &Position,
    ) -> bool {
        let us = pos.side_to_move();
        let same = mv.kind() != MoveKind::Castle
            && pos.color_bb(us.other()) == child.color_bb(us.other())
            && child.side_to_move() == us;
        let Some(role) = child.piece_at(mv.to()).map(|p| p.role).filter(|_| same) else {
            return self.no_picture_fits(child);
        };
        if self.off || !Self::applies(child) {
            return false;
        }
        let moves = child.moves_left().min(u32::from(WAY_CAP)) as u8;
        let from = mv.from();
        let full = self.scene(child).full();
        let states = match self.others.take() {
            Some((key, sq, states)) if key == pos.key() && sq == from => states,
            other => {
                let mut buf = other.map(|(_, _, states)| states).unwrap_or_default();
                let mut ways = self.ways_of(pos, Some(from));
                ways.sort_unstable_by_key(|w| w.ends.len());
                states(&ways, moves, &mut buf);
                buf
            }
        };
        let moved = self.way(child, role, mv.to());
        let none = !completes(&states, moved.least(), full, moves);
        self.others = Some((pos.key(), from, states));
        self.count(none)
    }

    fn count(&mut self, none: bool) -> bool {
        self.tested += 1;
        self.cut += u64::from(none);
        none
    }

    /// A bound that never cuts.
    #[cfg(test)]
    pub(crate) fn off() -> NodePictures {
        NodePictures {
            off: true,
            ..NodePictures::default()
        }
    }

    /// The scene of `pos`'s enemy pieces (for its targets).
    fn scene(&mut self, pos: &Position) -> &Scene {
        let i = self.scenes.of(pos, enemies_key(pos));
        &self.scenes.kept[i].scene
    }

    /// The ways of our `role` from `from` in `pos`'s scene, computed if new.
    fn way(&mut self, pos: &Position, role: Role, from: Square) -> &Way {
        let ring = if role == Role::Pawn {
            &mut self.scenes
        } else {
            &mut self.pieces
        };
        let key = ring_key(role, pos);
        let i = ring.of(pos, key);
        ring.kept[i].way(role, from)
    }

    /// The ways of our pieces in `pos`, but the one on `except`.
    fn ways_of(&mut self, pos: &Position, except: Option<Square>) -> Vec<&Way> {
        let us = pos.color_bb(pos.side_to_move());
        // (The bound applies to at most MAX_OURS pieces: an array, no
        // allocation.)
        debug_assert!(us.count() <= MAX_OURS);
        let mut pieces = [(Role::Pawn, Square(0)); MAX_OURS as usize];
        let mut n = 0;
        for sq in us {
            if Some(sq) != except
                && let Some(p) = pos.piece_at(sq)
                && n < pieces.len()
            {
                pieces[n] = (p.role, sq);
                n += 1;
            }
        }
        let pieces = &pieces[..n];
        // (Each ring is looked up once: computing the ways adds no scene.)
        let pawns = self.scenes.of(pos, enemies_key(pos));
        let others = self.pieces.of(pos, pieces_key(pos));
        for &(role, sq) in pieces {
            let ring = if role == Role::Pawn {
                &mut self.scenes.kept[pawns]
            } else {
                &mut self.pieces.kept[others]
            };
            ring.way(role, sq);
        }
        let (pawns, others) = (&self.scenes.kept[pawns], &self.pieces.kept[others]);
        pieces
            .iter()
            .filter_map(|&(role, sq)| {
                let kept = if role == Role::Pawn { pawns } else { others };
                kept.ways[role.index() * 64 + sq.index()].as_deref()
            })
            .collect()
    }
}

/// The key of `pos`'s scene for our pawns' ways: every enemy piece.
fn enemies_key(pos: &Position) -> Bitboard {
    pos.color_bb(pos.side_to_move().other())
}

/// The key of `pos`'s scene for our other pieces' ways: the enemy pieces
/// next to the enemy king (they make the flights) and on its lines (the
/// sliders that excuse flights). Nothing else of the transparent scene
/// reaches a knight's, bishop's, rook's, queen's or king's ways: the other
/// enemy pieces are only a pawn's prey.
fn pieces_key(pos: &Position) -> Bitboard {
    let them = pos.side_to_move().other();
    let king = pos.king_square(them);
    pos.color_bb(them) & (attacks::king(king) | attacks::queen(king, Bitboard::EMPTY))
}

/// The key of `pos`'s scene for our `role`'s ways.
fn ring_key(role: Role, pos: &Position) -> Bitboard {
    if role == Role::Pawn {
        enemies_key(pos)
    } else {
        pieces_key(pos)
    }
}

/// Scenes kept by key, the oldest replaced when all [`SCENES`] are in use.
#[derive(Default)]
struct Ring {
    kept: Vec<Kept>,
    next: usize,
}

impl Ring {
    /// The index of the scene of `key` (made from `pos` if new).
    fn of(&mut self, pos: &Position, key: Bitboard) -> usize {
        if let Some(i) = self.kept.iter().position(|k| k.enemies == key) {
            return i;
        }
        let kept = Kept {
            enemies: key,
            scene: Scene::new(pos, &[], 0),
            ways: (0..6 * 64).map(|_| None).collect(),
        };
        if self.kept.len() < SCENES {
            self.kept.push(kept);
            self.kept.len() - 1
        } else {
            let i = self.next;
            self.kept[i] = kept;
            self.next = (i + 1) % SCENES;
            i
        }
    }
}

impl Kept {
    /// The ways of our `role` from `from`, computed if new.
    fn way(&mut self, role: Role, from: Square) -> &Way {
        let slot = &mut self.ways[role.index() * 64 + from.index()];
        slot.get_or_insert_with(|| {
            let ends = ends_of(&self.scene, role, from, WAY_CAP);
            Box::new(Way::new(ends, self.scene.full()))
        })
    }
}

/// The cover search over `ways` (one end per way, or none; at most one of
/// them the last mover's; within `cap` moves in all): the states reached,
/// each as (last mover's end used, 1 bit; the targets covered, 9 bits) and
/// its least cost, into `out` (cleared first: a buffer kept from call to
/// call, where a list grown from one entry was reallocated half a dozen
/// times a call).
/// (The pictures' cover search without captured pieces to take: the
/// transparent scene.)
fn states(ways: &[&Way], cap: u8, out: &mut States) {
    let mut best = [[FAR; 512]; 2];
    best[0][0] = 0;
    // The states reached so far, their costs filled in at the end.
    out.clear();
    out.push((0, 0));
    for way in ways {
        let mut next = best;
        let before = out.len();
        for r in 0..before {
            let reached = out[r].0;
            let (l, mask) = (usize::from(reached >> 9), usize::from(reached & 511));
            let base = best[l][mask];
            for e in &way.ends {
                // (Cheapest first: the rest cost more.)
                let cost = base.saturating_add(e.cost);
                if cost > cap {
                    break;
                }
                if e.last && l == 1 {
                    continue;
                }
                let (to, m) = (usize::from(e.last) | l, mask | usize::from(e.mask));
                if cost < next[to][m] {
                    if next[to][m] == FAR {
                        out.push(((to << 9 | m) as u16, 0));
                    }
                    next[to][m] = cost;
                }
            }
        }
        best = next;
    }
    for (r, cost) in out.iter_mut() {
        *cost = best[usize::from(*r >> 9)][usize::from(*r & 511)];
    }
}

/// Does one more way (its table `least`) complete one of `states` to a
/// cover of `full` within `cap`?
fn completes(states: &[(u16, u8)], least: &Least, full: u16, cap: u8) -> bool {
    states.iter().any(|&(r, cost)| {
        let need = full & !(r & 511);
        u32::from(cost) + u32::from(least.get(need, r >> 9 == 0)) <= u32::from(cap)
    })
}

#[cfg(test)]
mod tests {
    use super::super::pictures::no_picture_fits;
    use super::super::pictures::tests::sparse_positions;
    use super::*;
    use crate::chess::status::{brute_force_mate, is_mated};
    use crate::chess::{Rules, fen, legal_moves};
    use crate::mate::search::{Outcome, Searcher};
    use crate::mate::{Budget, MateTable, shared_for};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Turn starts of 3 to `max_moves` moves and positions inside turns:
    /// after random moves (none ending the turn) with at least `min_left`
    /// moves left.
    fn inside_turns(
        rules: Rules,
        seed: u64,
        count: usize,
        max_pieces: u32,
        min_left: u32,
        max_moves: u32,
    ) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for p in sparse_positions(rules, seed, count, max_pieces, min_left..=max_moves) {
            let mut q = p.clone();
            out.push(p);
            while q.moves_left() > min_left && rng.random_range(0..3) > 0 {
                let moves = legal_moves(&q);
                if moves.is_empty() {
                    break;
                }
                let mut c = q.clone();
                if c.play(moves.as_slice()[rng.random_range(0..moves.len())])
                    .turn_ended
                {
                    break;
                }
                q = c;
            }
            if q.moves_made() > 0 {
                out.push(q);
            }
        }
        out
    }

    /// Every cut on short turns and inside them (2 to 4 moves left, both
    /// rule sets) is checked by brute force, and the brute force's mates
    /// are never cut.
    #[test]
    fn node_pictures_agree_with_brute_force() {
        let (mut cuts, mut mates, mut tested) = (0, 0, 0);
        for (rules, seed) in [(Rules::Italian, 21), (Rules::Scottish, 22)] {
            for (min_left, count) in [(2, 1000), (3, 1500), (4, 250)] {
                let seed = seed + 10 * u64::from(min_left);
                for pos in inside_turns(rules, seed, count, 8, min_left, min_left + 2) {
                    if pos.moves_left() > min_left || !NodePictures::applies(&pos) {
                        continue;
                    }
                    tested += 1;
                    let cut = NodePictures::default().no_picture_fits(&pos);
                    let mate = brute_force_mate(&pos);
                    let f = fen::to_fen(&pos);
                    if cut {
                        cuts += 1;
                        assert!(mate.is_none(), "{f}: the node pictures cut a mate");
                    }
                    mates += usize::from(mate.is_some());
                }
            }
        }
        eprintln!("{tested} positions, {cuts} cut, {mates} with a mate");
        assert!(
            cuts >= 1000 && mates >= 200,
            "only {cuts} cuts and {mates} mates in {tested} positions"
        );
    }

    /// The node's cover search decides exactly as the root's does for the
    /// transparent scene, on longer turns and inside them, with the scenes
    /// kept from position to position of one turn; and so does the search
    /// shared between siblings, for every child.
    #[test]
    fn node_pictures_agree_with_the_root_pictures() {
        let (mut cuts, mut fits, mut children, mut child_cuts) = (0, 0, 0, 0);
        for (rules, seed) in [(Rules::Italian, 23), (Rules::Scottish, 24)] {
            let mut pictures = NodePictures::default();
            let mut last_root = None;
            for pos in inside_turns(rules, seed, 2000, 12, 3, 11) {
                // One kept set of scenes per turn (as per query).
                let root = (pos.moves_made() == 0).then(|| pos.key());
                if root.is_some() && root != last_root {
                    pictures = NodePictures::default();
                    last_root = root;
                }
                let cut = pictures.no_picture_fits(&pos);
                let root_cut = NodePictures::applies(&pos) && no_picture_fits(&pos, &[]);
                assert_eq!(cut, root_cut, "{}", fen::to_fen(&pos));
                cuts += usize::from(cut);
                fits += usize::from(NodePictures::applies(&pos) && !cut);
                // Every child, by the cover search shared between siblings.
                for &mv in legal_moves(&pos).iter() {
                    let mut child = pos.clone();
                    if child.play(mv).turn_ended {
                        continue;
                    }
                    let shared = pictures.no_picture_fits_after(&pos, mv, &child);
                    let alone = NodePictures::default().no_picture_fits(&child);
                    assert_eq!(shared, alone, "{} {mv:?}", fen::to_fen(&pos));
                    children += 1;
                    child_cuts += usize::from(shared);
                }
            }
        }
        eprintln!("{cuts} cuts, {fits} fits; children: {child_cuts} cuts of {children}");
        assert!(
            cuts >= 500 && fits >= 500 && child_cuts >= 5000,
            "only {cuts} cuts and {fits} fits, {child_cuts} children cut"
        );
    }

    /// The search with the bound at its nodes answers as the search
    /// without it, on long sparse turns (both rule sets), and takes fewer
    /// nodes in all where it proves "no mate"; its mates are replayed.
    #[test]
    fn node_pictures_keep_the_search_verdicts() {
        let tt = MateTable::new(16);
        let (mut mates, mut nones, mut with_nodes, mut without_nodes) = (0, 0, 0, 0);
        for (rules, seed) in [(Rules::Italian, 25), (Rules::Scottish, 26)] {
            for pos in sparse_positions(rules, seed, 400, 10, 5..=10) {
                let run = |bounded: bool| {
                    tt.clear();
                    let budget = Budget::nodes(300_000);
                    let shared = shared_for(&budget, &tt);
                    let mut s = Searcher::new(&shared, 0);
                    if !bounded {
                        s.without_node_pictures();
                    }
                    let o = s.enter_with_passes(&pos);
                    s.flush();
                    if o == Outcome::Mate {
                        let mut q = pos.clone();
                        for &mv in &s.line {
                            q.play(mv);
                        }
                        assert!(is_mated(&q), "a line that does not mate");
                    }
                    (o, shared.nodes.load(std::sync::atomic::Ordering::Relaxed))
                };
                let (without, n0) = run(false);
                let (with, n1) = run(true);
                let f = fen::to_fen(&pos);
                match (without, with) {
                    (Outcome::Aborted, _) | (_, Outcome::Aborted) => {
                        assert!(
                            without == Outcome::Aborted || with != Outcome::NoMate,
                            "{f}: {with:?} with the bound, {without:?} without"
                        );
                        continue;
                    }
                    (a, b) => assert_eq!(a, b, "{f}"),
                }
                if with == Outcome::Mate {
                    mates += 1;
                } else {
                    nones += 1;
                    (with_nodes, without_nodes) = (with_nodes + n1, without_nodes + n0);
                }
            }
        }
        eprintln!(
            "{mates} mates, {nones} nones: {with_nodes} nodes with the bound, {without_nodes} without"
        );
        assert!(
            mates >= 100 && nones >= 100 && with_nodes < without_nodes,
            "{mates} mates, {nones} nones, {with_nodes} nodes with, {without_nodes} without"
        );
    }
}
