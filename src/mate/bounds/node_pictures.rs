//! The mating pictures as a bound at every node of a long turn's search.
//!
//! [`no_mate_by_pictures`](super::no_mate_by_pictures) proves "no mate" for
//! the query's root; its proof holds for any position of a turn (the enemy
//! pieces stand still, no check before the last move), so it holds for the
//! nodes inside the search as well: a node where no mating picture fits in
//! the moves left has no mate below it, whatever the empty-board bound says.
//! What makes it affordable at a node is that the pictures of the
//! transparent scene (every enemy piece taken as transparent, as the root's
//! first, cheapest proof does) depend only on the enemy pieces, which change
//! only with a capture: the ways of each of our pieces from each square
//! ([`ends_of`]) are computed once per set of enemy pieces and kept, and a
//! node costs one cover search over its pieces' current squares.
//!
//! Sound for the same reasons as the root's proof (see
//! [`super::pictures`]): every relaxation there is one here.

use super::movers::Least;
use super::paths::{End, FAR, ends_of};
use super::pictures::{Scene, modelled};
use crate::chess::{Bitboard, Position};

/// Nodes with more of our pieces than this are not tested (the pictures
/// are many, the cover search dear).
const MAX_OURS: u32 = 8;
/// Scenes (sets of enemy pieces) kept at once.
const SCENES: usize = 64;
/// The ways are computed to this many moves (every cost the search can
/// ask: a turn's moves left are compared to them).
const WAY_CAP: u8 = 200;

/// The pictures of one set of enemy pieces: the scene and the ways of each
/// role from each square, computed when first asked.
struct Kept {
    enemies: Bitboard,
    scene: Scene,
    ways: Vec<Option<Box<Way>>>,
}

/// The ways of one piece from one square: its ends, cheapest first, and
/// as a table (the fewest moves covering at least each target mask).
struct Way {
    ends: Vec<End>,
    least: Least,
}

impl Way {
    fn new(ends: Vec<End>) -> Way {
        let options: Vec<_> = ends.iter().map(|e| (e.mask, e.cost, e.last)).collect();
        Way {
            least: Least::of(&options, WAY_CAP),
            ends,
        }
    }
}

/// A searcher's pictures per node (see the module text).
#[derive(Default)]
pub(crate) struct NodePictures {
    scenes: Vec<Kept>,
    /// The next scene to replace when all [`SCENES`] are in use.
    next: usize,
    /// Nodes tested and nodes cut (for the debug log).
    pub(crate) tested: u64,
    pub(crate) cut: u64,
    /// Never cut (for the tests that compare the search without the bound).
    off: bool,
}

impl NodePictures {
    /// Nodes with fewer moves left are left to the other bounds (the
    /// filters of the last two moves are exact enough there).
    pub(crate) const MIN_MOVES: u32 = 3;

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
        self.tested += 1;
        let us = pos.side_to_move();
        let enemies = pos.color_bb(us.other());
        let i = match self.scenes.iter().position(|k| k.enemies == enemies) {
            Some(i) => i,
            None => self.insert(pos, enemies),
        };
        let kept = &mut self.scenes[i];
        // First fill the missing ways, then borrow them all.
        for from in pos.color_bb(us) {
            let Some(piece) = pos.piece_at(from) else {
                continue;
            };
            let slot = piece.role.index() * 64 + from.index();
            if kept.ways[slot].is_none() {
                let ends = ends_of(&kept.scene, piece.role, from, WAY_CAP);
                kept.ways[slot] = Some(Box::new(Way::new(ends)));
            }
        }
        let mut ways: [Option<&Way>; MAX_OURS as usize] = [None; MAX_OURS as usize];
        let mut n = 0;
        for from in pos.color_bb(us) {
            if let Some(piece) = pos.piece_at(from) {
                ways[n] = kept.ways[piece.role.index() * 64 + from.index()].as_deref();
                n += 1;
            }
        }
        let mut ways: Vec<&Way> = ways[..n].iter().flatten().copied().collect();
        let moves = pos.moves_left().min(u32::from(WAY_CAP)) as u8;
        let none = !covers_within(&mut ways, kept.scene.full(), moves);
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

    /// Adds the scene of `pos`'s enemy pieces (`enemies`), replacing the
    /// oldest when full; its index.
    fn insert(&mut self, pos: &Position, enemies: Bitboard) -> usize {
        let kept = Kept {
            enemies,
            scene: Scene::new(pos, &[], 0),
            ways: (0..6 * 64).map(|_| None).collect(),
        };
        if self.scenes.len() < SCENES {
            self.scenes.push(kept);
            self.scenes.len() - 1
        } else {
            let i = self.next;
            self.scenes[i] = kept;
            self.next = (i + 1) % SCENES;
            i
        }
    }
}

/// Is there one end per way (or none) covering `full`, at most one of them
/// the last mover's, within `cap` moves in all? (The pictures' cover search,
/// without captured pieces to take: the transparent scene.)
fn covers_within(ways: &mut [&Way], full: u16, cap: u8) -> bool {
    // The way with the most ends goes last: it is read from its table; the
    // others fewest ends first (the states reached grow slowest).
    ways.sort_unstable_by_key(|w| w.ends.len());
    let Some((last, first)) = ways.split_last() else {
        return full == 0;
    };
    let last = &last.least;
    // best[l][mask]: the least cost so far covering `mask`, with the last
    // mover's end used (l = 1) or not; the states reached, as l * 512 + mask.
    let mut best = [[FAR; 512]; 2];
    best[0][0] = 0;
    let mut reached = [0u16; 1024];
    let mut count = 1;
    for way in first {
        let mut next = best;
        let before = count;
        for r in 0..before {
            let (l, mask) = (usize::from(reached[r] >> 9), usize::from(reached[r] & 511));
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
                        reached[count] = (to << 9 | m) as u16;
                        count += 1;
                    }
                    next[to][m] = cost;
                }
            }
        }
        best = next;
    }
    reached[..count].iter().any(|&r| {
        let (l, mask) = (usize::from(r >> 9), r & 511);
        let need = full & !mask;
        u32::from(best[l][usize::from(mask)]) + u32::from(last.get(need, l == 0)) <= u32::from(cap)
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

    /// Every cut on short turns and inside them (3 or 4 moves left, both
    /// rule sets) is checked by brute force, and the brute force's mates
    /// are never cut.
    #[test]
    fn node_pictures_agree_with_brute_force() {
        let (mut cuts, mut mates, mut tested) = (0, 0, 0);
        for (rules, seed) in [(Rules::Italian, 21), (Rules::Scottish, 22)] {
            for (min_left, count) in [(3, 1500), (4, 250)] {
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
    /// kept from position to position of one turn.
    #[test]
    fn node_pictures_agree_with_the_root_pictures() {
        let (mut cuts, mut fits) = (0, 0);
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
            }
        }
        assert!(
            cuts >= 500 && fits >= 500,
            "only {cuts} cuts and {fits} fits"
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
