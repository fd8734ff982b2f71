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
        if !Self::applies(pos) {
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
    // The way with the most ends goes last: it is read from its table.
    let Some(last) = (0..ways.len()).max_by_key(|&i| ways[i].ends.len()) else {
        return full == 0;
    };
    let n = ways.len();
    ways.swap(last, n - 1);
    let (first, last) = ways.split_at(n - 1);
    let last = &last[0].least;
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
