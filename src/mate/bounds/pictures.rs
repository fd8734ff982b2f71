//! Proofs of "no mate" by mating pictures, for the root of a query.
//!
//! In a mating turn only our side moves, so the enemy king stands where it
//! stands now and the enemy pieces stand where they stand now (or are
//! captured). A mating picture is where each of our pieces ends: one gives
//! the check, and every open flight is guarded (or, under the Italian rules,
//! excused: [`Targets::of`]). Each picture costs at least the sum of the
//! moves each piece needs to get to its end square; if no picture costs at
//! most the moves left, there is no mate, whatever the search would find.
//!
//! [`lower_bound`](super::lower_bound) asks the same question on the empty
//! board for every node. Here, once per query, the pieces' ways are the real
//! ones where they cannot be blocked, which is what makes sparse positions
//! with long turns expensive to search and cheap to prove:
//! - A pawn moves diagonally only to capture, and an enemy piece can only be
//!   captured where it stands now (the enemy does not move): most pawns in
//!   sparse positions keep their file.
//! - No check before the last move (Italian: a check only with the turn's
//!   last move; Scottish: a check ends the turn). A pawn or knight attacks
//!   the king from a square whatever stands between, so it may never stand
//!   on such a square before the last move: its way avoids them, and at most
//!   one piece (the last to move) ends on one. (Sliders' checks can be
//!   blocked, so they keep their empty-board ways.)
//! - A promoted pawn goes on from its promotion square as a queen (which
//!   covers all a rook or bishop would) or a knight.
//! - Our king never stands next to the enemy king, so its ways go round
//!   those squares; and a flight the Italian rules excuse (a king step off
//!   an enemy slider's line uncovering a check on our king) is a target
//!   like the others, covered by our king ending behind the enemy king on
//!   that line: the king's moves to get there are counted.
//! - Enemy pieces are obstacles: each picture is drawn in a scene, a set of
//!   the enemy pieces captured in the turn (every set is tried). The kept
//!   ones block our ways and our lines at the end, and the squares their
//!   pawns and knights attack are never our king's; each captured one must
//!   be landed on by one of our ways (more bits of the cover search), and a
//!   captured slider excuses no flight, nor a slider with a kept piece
//!   between it and our king ([`paths`](super::paths)).
//! - Every flight and target set is exact (no options merged for room).
//!
//! Everything else is relaxed as the empty-board bound relaxes it (our own
//! pieces do not block, captured pieces stand nowhere, two pieces may share
//! a square), so "no picture fits" is a proof; "some picture fits" proves
//! nothing and the search decides.

use super::order::Order;
use super::paths::{End, FAR, Placed, Scratch, cover_ends, ends_of, ends_of_placed, square_ends};
use super::squares::placed_picture_fits;
use super::targets::{Key, Targets, castling_bits, excusing_sliders, opponent_may_check_at_once};
use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Move, Position, Role, Square, en_passant_targets};

/// The nodes the order of the moves may search for the named boards, in
/// all the scenes of a query. A walk of the order is about a third of a
/// search node, and where the walks run out the search starts from
/// scratch: 200,000 cost sermate s125 and s006 a search's worth (27 and
/// 13 ms) before the search that decided; with 50,000 s105 and s061 pay a
/// short search instead (35,289 and 16,539 nodes).
const ORDER_NODES: u32 = 50_000;
/// Turns shorter than this are left to the search (cheap to search).
const MIN_MOVES: u32 = 4;
/// Positions with more of our pieces than this are left to the search (the
/// pictures are many and the search finds mates there fast).
const MAX_OURS: u32 = 8;
/// At most this many enemy pieces are counted as obstacles (every set of
/// them captured is a scene of its own); the others, the farthest from the
/// enemy king, are taken as transparent, as by the empty-board bound.
const MAX_COUNTED: usize = 7;
// The ways' sets of visits hold that many captured pieces.
const _: () = assert!(MAX_COUNTED <= super::paths::MAX_CAPTURED);

/// What the pictures say of the turn.
#[derive(Debug)]
pub(crate) enum Pictured {
    /// Proved: no picture fits, or no line reaches the boards they name.
    NoMate,
    /// A line of the turn reached a mating board they named.
    Mate(Vec<Move>),
    /// Nothing known: the search decides.
    Open,
}

/// Does no mating picture fit in the moves the side to move has left, or
/// does a line reach a mating board a picture names? ([`draw_pictures`]
/// and then [`Drawing::finish`]; for the tests.)
#[cfg(test)]
pub(super) fn mate_by_pictures(pos: &Position) -> Pictured {
    match draw_pictures(pos) {
        Drawn::Done(out) => out,
        Drawn::Boards(drawing) => drawing.finish(pos),
    }
}

/// The pictures drawn as far as they are cheap ([`draw_pictures`]).
pub(crate) enum Drawn {
    /// What they say.
    Done(Pictured),
    /// A scene's cheapest picture fits: the rest places our pieces.
    Boards(Drawing),
}

/// The pictures from the first scene whose cheapest picture fits on: our
/// pieces' squares, and the whole boards they name settled by the order of
/// the moves ([`Drawing::advance`]).
pub(crate) struct Drawing {
    counted: Vec<Square>,
    /// The scenes, from the first whose cheapest picture fits.
    sets: Vec<u32>,
    /// The next scene to draw.
    next: usize,
    /// A picture of the next scene is known to fit by the cover search
    /// (it stopped the pictures before: not searched again).
    next_fits: bool,
    /// The scenes whose takes were checked ([`takes_fit`]) and those the
    /// check cut (see [`TAKES_TRIAL`]).
    takes_tried: u32,
    takes_cut: u32,
    order: Order,
    /// The ways' buffers, kept from scene to scene.
    scratch: Box<Scratch>,
}

/// The takes of a scene (one end per piece covering every target and
/// taking every captured piece) are checked in every scene while they cut
/// at least one scene in [`TAKES_RARE`] of the first [`TAKES_TRIAL`]:
/// in some positions they cut almost every scene whose covers fit
/// (sermate s104: 90 of 95), in others almost none (s115: 5 of 61), where
/// they cost a seventh of the pictures and the squares search (which
/// checks the takes too, as a bound) decides as well. Whether they go on
/// depends on the position alone, so the answers and nodes stay the same
/// from run to run.
const TAKES_TRIAL: u32 = 16;
const TAKES_RARE: u32 = 8;

/// The pictures as far as no scene's cheapest picture fits: the enemy
/// pieces transparent first (one scene, the cheapest proof), then the
/// enemy pieces as obstacles. The first scene whose cheapest picture fits
/// stops them ([`Drawn::Boards`]): the rest costs more than a short search.
pub(crate) fn draw_pictures(pos: &Position) -> Drawn {
    if !pictured(pos) {
        return Drawn::Done(Pictured::Open);
    }
    if no_picture_fits(pos, &[]) {
        log::debug!("mate pictures: {:?}", Pictured::NoMate);
        return Drawn::Done(Pictured::NoMate);
    }
    let counted = counted_enemies(pos);
    let sets = scene_sets(pos.moves_left(), counted.len());
    let cut = sets
        .iter()
        .take_while(|&&c| scene_is_cut(pos, &counted, c))
        .count();
    if cut == sets.len() {
        log::debug!("mate pictures: {:?}", Pictured::NoMate);
        return Drawn::Done(Pictured::NoMate);
    }
    Drawn::Boards(Drawing {
        counted,
        sets,
        next: cut,
        next_fits: true,
        takes_tried: 0,
        takes_cut: 0,
        order: Order::new(ORDER_NODES),
        scratch: Scratch::new(),
    })
}

impl Drawing {
    /// Draws the scenes left, our pieces on their squares in at most
    /// `placed` of them; `None` when more are left.
    pub(crate) fn advance(&mut self, pos: &Position, mut placed: usize) -> Option<Pictured> {
        let moves = pos.moves_left();
        while let Some(&c) = self.sets.get(self.next) {
            let scene = Scene::new(pos, &self.counted, c);
            let known = std::mem::take(&mut self.next_fits);
            if !known && !covers_fit(pos, &scene, moves) {
                self.next += 1;
                continue;
            }
            // Each piece's ways with what they take, searched once for
            // the takes and the squares.
            let cap = moves.min(200) as u8;
            let scratch = &mut self.scratch;
            let pieces: Vec<PieceWays> = pos
                .color_bb(scene.us)
                .into_iter()
                .filter_map(|from| {
                    let role = pos.piece_at(from)?.role;
                    let placed = square_ends(scratch, &scene, role, from, cap);
                    Some(PieceWays { role, from, placed })
                })
                .collect();
            let rare =
                self.takes_tried >= TAKES_TRIAL && self.takes_cut * TAKES_RARE < self.takes_tried;
            // (Taking nothing, the covers are the whole picture.)
            let fits = known || scene.captured == 0 || rare || {
                let ways = pieces
                    .iter()
                    .map(|p| ends_of_placed(scratch, &p.placed, scene.full()))
                    .collect();
                let fit = takes_fit(&scene, ways, moves);
                self.takes_tried += 1;
                self.takes_cut += u32::from(!fit);
                fit
            };
            if !fits {
                self.next += 1;
                continue;
            }
            if placed == 0 {
                self.next_fits = true;
                return None;
            }
            placed -= 1;
            self.next += 1;
            let order = &mut self.order;
            if placed_picture_fits(pos, &scene, moves, pieces, &mut order.named)
                || !order.settle(pos)
            {
                let out = match order.mate.take() {
                    Some(line) => Pictured::Mate(line),
                    None => Pictured::Open,
                };
                log::debug!("mate pictures: {out:?}");
                return Some(out);
            }
        }
        log::debug!("mate pictures: {:?}", Pictured::NoMate);
        Some(Pictured::NoMate)
    }

    /// [`Drawing::advance`] to the end.
    pub(crate) fn finish(mut self, pos: &Position) -> Pictured {
        self.advance(pos, usize::MAX).unwrap_or(Pictured::Open)
    }
}

/// True is a proof that the side to move does not mate in this turn
/// ([`mate_by_pictures`]); false proves nothing. (For the tests.)
#[cfg(test)]
pub(super) fn no_mate_by_pictures(pos: &Position) -> bool {
    matches!(mate_by_pictures(pos), Pictured::NoMate)
}

/// Is `pos` one the pictures are drawn for?
fn pictured(pos: &Position) -> bool {
    pos.moves_left() >= MIN_MOVES
        && pos.color_bb(pos.side_to_move()).count() <= MAX_OURS
        && modelled(pos)
}

/// Are the pictures a sound model of `pos`'s turn? Castling moves two
/// pieces with one move; en passant captures where no enemy piece stands:
/// turns that may do either (rare in sparse positions) are left out. En
/// passant is only for the turn's first move, so a target no pawn of ours
/// may take then is no move of the turn (and most double steps of the
/// last turn leave one).
pub(super) fn modelled(pos: &Position) -> bool {
    let us = pos.side_to_move();
    pos.castling_rights() & castling_bits(us) == 0 && !may_take_en_passant(pos)
}

/// May the side to move take en passant (with the first move of its turn)?
/// (The rules core's own answer; the cheap test first, since this is asked
/// at every node.)
fn may_take_en_passant(pos: &Position) -> bool {
    pos.moves_made() == 0 && pos.ep_squares().nonempty() && en_passant_targets(pos).nonempty()
}

/// One of our pieces in the pictures: its square, the targets it covers if
/// it never moves, and its options (targets covered, fewest moves, must be
/// the last mover) as in the pictures' own search (the transparent scene).
pub(super) struct PieceOptions {
    pub(super) from: Square,
    pub(super) stay: u16,
    pub(super) options: Vec<(u16, u8, bool)>,
}

/// The pictures' pieces and the mask of all targets, for
/// [`super::movers`]; `None` where the pictures do not model the turn.
pub(super) fn piece_options(pos: &Position) -> Option<(u16, Vec<PieceOptions>)> {
    if !modelled(pos) {
        return None;
    }
    let scene = Scene::new(pos, &[], 0);
    let cap = pos.moves_left().min(200) as u8;
    let mut out = Vec::new();
    for from in pos.color_bb(scene.us) {
        let role = pos.piece_at(from)?.role;
        let stay = scene.cover(role, from);
        let options = ends_of(&scene, role, from, cap)
            .into_iter()
            .map(|e| (e.mask, e.cost, e.last))
            .collect();
        out.push(PieceOptions {
            from,
            stay,
            options,
        });
    }
    Some((scene.targets.full(), out))
}

/// Does no picture fit in any scene of the `counted` enemy pieces (the
/// others transparent)? (Our pieces' squares and the order of the moves
/// are [`Drawing::advance`]'s.)
pub(super) fn no_picture_fits(pos: &Position, counted: &[Square]) -> bool {
    scene_sets(pos.moves_left(), counted.len())
        .into_iter()
        .all(|c| scene_is_cut(pos, counted, c))
}

/// Every set of `counted` enemy pieces that may be captured in a turn of
/// `moves` (each capture is a move of its own), fewest first: a picture
/// fits as soon as one scene has one.
fn scene_sets(moves: u32, counted: usize) -> Vec<u32> {
    let mut sets: Vec<u32> = (0..1u32 << counted)
        .filter(|c| c.count_ones() <= moves)
        .collect();
    sets.sort_by_key(|c| c.count_ones());
    sets
}

/// Does no picture of the cheapest fit in the scene of the `counted`
/// pieces of the bits of `set` captured?
fn scene_is_cut(pos: &Position, counted: &[Square], set: u32) -> bool {
    let moves = pos.moves_left();
    !picture_fits(pos, &Scene::new(pos, counted, set), moves)
}

/// The enemy pieces (not the king) counted as obstacles: all of them, or
/// the [`MAX_COUNTED`] nearest to the enemy king.
fn counted_enemies(pos: &Position) -> Vec<Square> {
    let them = pos.side_to_move().other();
    let king = pos.king_square(them);
    let mut out: Vec<Square> = (pos.color_bb(them) & !king.bb()).collect();
    out.sort_by_key(|&s| {
        let (df, dr) = (
            s.file().abs_diff(king.file()),
            s.rank().abs_diff(king.rank()),
        );
        df.max(dr)
    });
    out.truncate(MAX_COUNTED);
    out
}

/// [`pictured`], for the tests.
#[cfg(test)]
pub(super) fn pictured_for_tests(pos: &Position) -> bool {
    pictured(pos)
}

/// The scenes of the counted enemy pieces without our pieces' squares,
/// for the tests.
#[cfg(test)]
pub(super) fn counted_for_tests(pos: &Position) -> bool {
    pictured(pos) && no_picture_fits(pos, &counted_enemies(pos))
}

/// One scene of the pictures: the enemy pieces captured in the turn (the
/// waypoints of our ways) and those kept (obstacles), with everything the
/// ways and the covers depend on.
pub(super) struct Scene {
    pub(super) us: Color,
    pub(super) king: Square,
    /// Squares from which our pawn / knight attacks the enemy king.
    pub(super) pawn_checks: Bitboard,
    pub(super) knight_checks: Bitboard,
    /// The counted enemy pieces kept to the end.
    pub(super) blockers: Bitboard,
    /// The enemy pieces a pawn may step onto diagonally (the captured and
    /// the uncounted ones).
    pub(super) prey: Bitboard,
    /// Squares our king never stands on: next to the enemy king, the kept
    /// pieces, and the squares their pawns and knights attack (no piece of
    /// ours can come between).
    pub(super) king_banned: Bitboard,
    /// Per square, the bit of the captured piece standing there (0: none).
    pub(super) visit: [u16; 64],
    /// How many counted pieces are captured (the bits of `visit`).
    pub(super) captured: usize,
    /// The king's square and every open flight, the excused ones too.
    targets: Targets,
    /// The targets' squares, and per square its target's bit (0: none):
    /// a cover's mask is read from the attacked targets alone (rather than
    /// by testing each of up to nine targets).
    target_squares: Bitboard,
    target_bit: [u16; 64],
    /// Per square: the flights excused when our king ends there (Italian:
    /// a king step off an enemy slider's line would uncover a check on it).
    pub(super) excuse: [u16; 64],
}

impl Scene {
    /// The scene in which the counted pieces of the bits of `set` are
    /// captured and the other counted pieces kept.
    pub(super) fn new(pos: &Position, counted: &[Square], set: u32) -> Scene {
        let us = pos.side_to_move();
        let them = us.other();
        let king = pos.king_square(them);
        let flights = attacks::king(king) & !pos.color_bb(them);
        let mut targets = Targets {
            squares: [king; 9],
            count: 1,
            key: Key::NONE,
        };
        for sq in flights {
            targets.squares[targets.count] = sq;
            targets.count += 1;
        }
        let (mut target_squares, mut target_bit) = (Bitboard::EMPTY, [0; 64]);
        for (i, &sq) in targets.as_slice().iter().enumerate() {
            target_squares.set(sq);
            target_bit[sq.index()] = 1 << i;
        }
        let (mut visit, mut captured, mut blockers) = ([0; 64], 0, Bitboard::EMPTY);
        for (i, &sq) in counted.iter().enumerate() {
            if set >> i & 1 == 1 {
                visit[sq.index()] = 1 << captured;
                captured += 1;
            } else {
                blockers.set(sq);
            }
        }
        let mut king_banned = attacks::king(king) | king.bb() | blockers;
        for sq in blockers {
            king_banned |= match pos.piece_at(sq).map(|p| p.role) {
                Some(Role::Pawn) => attacks::pawn(them, sq),
                Some(Role::Knight) => attacks::knight(sq),
                _ => Bitboard::EMPTY,
            };
        }
        let mut scene = Scene {
            us,
            king,
            pawn_checks: attacks::pawn(them, king),
            knight_checks: attacks::knight(king),
            blockers,
            prey: pos.color_bb(them) & !king.bb() & !blockers,
            king_banned,
            visit,
            captured,
            target_squares,
            target_bit,
            targets,
            excuse: [0; 64],
        };
        if !opponent_may_check_at_once(pos) {
            // Our king behind the enemy king on the slider's line, never
            // next to the enemy king: the flights off the line are excused
            // (as in `targets::excused_flights`, with the king's moves to
            // get there counted). A captured slider excuses nothing, and
            // the line must be free of kept pieces at the end.
            for s in excusing_sliders(pos, us, king) {
                if scene.visit[s.index()] != 0 {
                    continue;
                }
                let line = attacks::line(s, king);
                let off = scene.mask_of(flights & !line);
                for r in line {
                    let between = attacks::between(s, r);
                    if between.contains(king)
                        && !attacks::king(king).contains(r)
                        && (between & blockers).is_empty()
                    {
                        scene.excuse[r.index()] |= off;
                    }
                }
            }
        }
        scene
    }

    /// The mask of all the targets.
    pub(super) fn full(&self) -> u16 {
        self.targets.full()
    }

    /// The mask of the targets in `set`.
    fn mask_of(&self, set: Bitboard) -> u16 {
        let mut mask = 0;
        for t in set & self.target_squares {
            mask |= self.target_bit[t.index()];
        }
        mask
    }

    /// The targets a piece of `role` on `sq` covers at the end, through
    /// everything but the kept pieces (the pawn's: ours).
    pub(super) fn cover(&self, role: Role, sq: Square) -> u16 {
        self.cover_through(role, sq, self.blockers)
    }

    /// The targets a piece of `role` on `sq` covers at the end, its lines
    /// stopped by `occupied` (the pawn's: ours); our king also the flights
    /// it excuses there.
    pub(super) fn cover_through(&self, role: Role, sq: Square, occupied: Bitboard) -> u16 {
        let attacked = match role {
            Role::Pawn => attacks::pawn(self.us, sq),
            role => attacks::piece(role, sq, occupied),
        };
        let excused = if role == Role::King {
            self.excuse[sq.index()]
        } else {
            0
        };
        self.mask_of(attacked) | excused
    }
}

/// Does a picture fit: one way's end per piece covering every target and
/// taking every captured piece, at most one of them the last mover's, at
/// most `moves` in all?
fn picture_fits(pos: &Position, scene: &Scene, moves: u32) -> bool {
    // (Taking nothing, the covers are the whole picture.)
    covers_fit(pos, scene, moves)
        && (scene.captured == 0 || {
            let cap = moves.min(200) as u8;
            let ways = pos
                .color_bb(scene.us)
                .into_iter()
                .filter_map(|from| Some(ends_of(scene, pos.piece_at(from)?.role, from, cap)))
                .collect();
            takes_fit(scene, ways, moves)
        })
}

/// [`picture_fits`] with the covers alone (taking nothing): a bound on the
/// whole, and cheap, since the ways' squares do not depend on what they
/// take ([`cover_ends`]). In a scene it is the scene with the captured
/// pieces transparent.
fn covers_fit(pos: &Position, scene: &Scene, moves: u32) -> bool {
    let cap = moves.min(200) as u8;
    let mut covers: Vec<Vec<End>> = pos
        .color_bb(scene.us)
        .into_iter()
        .filter_map(|from| Some(cover_ends(scene, pos.piece_at(from)?.role, from, cap)))
        .collect();
    // (The order of the ways does not change the answer; the states stay
    // fewer while the ways with the fewest ends go first.)
    covers.sort_by_key(|w| w.len());
    fits_within(&covers, scene.targets.full(), 0, cap)
}

/// [`picture_fits`] with each piece's ends, the covers alone known to fit.
fn takes_fit(scene: &Scene, mut ways: Vec<Vec<End>>, moves: u32) -> bool {
    let full = scene.targets.full();
    let all = ((1u32 << scene.captured) - 1) as u16;
    let cap = moves.min(200) as u8;
    ways.sort_by_key(|w| w.len());
    fits_within(&ways, full, all, cap)
}

/// One of our pieces in a scene: its role, its square and the ends of its
/// ways ([`square_ends`]).
pub(super) struct PieceWays {
    pub(super) role: Role,
    pub(super) from: Square,
    pub(super) placed: Vec<Placed>,
}

/// Is there one end per way (or none: the piece adds nothing) covering
/// `full` and taking the captured pieces of `all` (0: the takes not
/// asked), at most one the last mover's, costing at most `cap` in all?
/// Each way's ends come cheapest first (as [`ends_of`] and
/// [`cover_ends`] give them). `full + 1` and `all + 1` are powers of two.
pub(super) fn fits_within<W: AsRef<[End]>>(ways: &[W], full: u16, all: u16, cap: u8) -> bool {
    debug_assert!(ways.iter().all(|w| w.as_ref().is_sorted_by_key(|e| e.cost)));
    let (mask_bits, take_bits) = ((full + 1).trailing_zeros(), (all + 1).trailing_zeros());
    // A state: (last mover's end used, targets covered, pieces taken).
    let index = |l: usize, mask: usize, taken: usize| (l << mask_bits | mask) << take_bits | taken;
    let goal = [
        index(0, full.into(), all.into()),
        index(1, full.into(), all.into()),
    ];
    // What the ways from i on may still cover and take: a state they
    // cannot complete is dropped.
    let mut later = vec![(0u16, 0u16); ways.len() + 1];
    for (i, w) in ways.iter().enumerate().rev() {
        let (m, v) = w
            .as_ref()
            .iter()
            .fold(later[i + 1], |(m, v), e| (m | e.mask, v | e.visits));
        later[i] = (m, v & all);
    }
    if later[0] != (full, all) {
        return false;
    }
    // best[state]: the least cost so far reaching it.
    let mut best = vec![FAR; 2 << (mask_bits + take_bits)];
    best[0] = 0;
    // The states reached so far (the table is mostly unreached).
    // (Room for the common case: grown one by one, these two were a tenth
    // of a sparse turn's allocations.)
    let mut reached = Vec::with_capacity(64);
    reached.push(0);
    // One way's updates, applied after it (each way ends once).
    let mut updates: Vec<(usize, u8)> = Vec::with_capacity(64);
    for (i, ends) in ways.iter().enumerate() {
        let (more_masks, more_takes) = later[i + 1];
        updates.clear();
        for &at in &reached {
            let base = best[at];
            let (l, mask, v) = (
                at >> (mask_bits + take_bits),
                (at >> take_bits) as u16 & full,
                at as u16 & all,
            );
            for e in ends.as_ref() {
                let cost = base.saturating_add(e.cost);
                if cost > cap {
                    break; // and every end after it
                }
                if e.last && l == 1 {
                    continue;
                }
                let (m, taken) = (mask | e.mask, v | (e.visits & all));
                if (m | more_masks) != full || (taken | more_takes) != all {
                    continue;
                }
                let j = index(usize::from(e.last) | l, m.into(), taken.into());
                if cost < best[j] {
                    updates.push((j, cost));
                }
            }
        }
        for &(j, cost) in &updates {
            if best[j] == FAR {
                reached.push(j);
            }
            best[j] = best[j].min(cost);
        }
        // A picture already fits (the ways after it may stay put).
        if goal.iter().any(|&g| best[g] <= cap) {
            return true;
        }
        // States the ways after this one cannot complete stay unexpanded.
        reached.retain(|&at| {
            let (mask, v) = ((at >> take_bits) as u16 & full, at as u16 & all);
            (mask | more_masks) == full && (v | more_takes) == all
        });
    }
    false
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::chess::status::brute_force_mate;
    use crate::chess::{Move, Rules, fen, legal_moves};
    use crate::mate::search::{Outcome, Searcher};
    use crate::mate::{Budget, MateTable, shared_for};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// The search alone (no pictures): mate, none, or undecided within
    /// `nodes`. It is checked against brute force in tests/mate.rs.
    pub(in crate::mate::bounds) fn searched(
        pos: &Position,
        tt: &MateTable,
        nodes: u64,
    ) -> Option<Option<Vec<Move>>> {
        let budget = Budget::nodes(nodes);
        let shared = shared_for(&budget, tt);
        let mut s = Searcher::new(&shared, 0);
        match s.enter_with_passes(pos) {
            Outcome::Mate => Some(Some(s.line)),
            Outcome::NoMate => Some(None),
            Outcome::Aborted => None,
        }
    }

    /// Checks a claim of "no mate" on `pos` (made by `what`): by brute
    /// force on turns of up to 4 moves, else by the search (300,000 nodes;
    /// undecided ones are skipped), counted in `brute` / `by_search`.
    pub(in crate::mate::bounds) fn check_claim(
        pos: &Position,
        tt: &MateTable,
        what: &str,
        brute: &mut u32,
        by_search: &mut u32,
    ) {
        let f = fen::to_fen(pos);
        if pos.moves_left() <= 4 {
            *brute += 1;
            assert!(
                brute_force_mate(pos).is_none(),
                "{f}: {what} excludes a mate"
            );
            return;
        }
        tt.clear();
        match searched(pos, tt, 300_000) {
            Some(Some(_)) => panic!("{f}: {what} excludes the search's mate"),
            Some(None) => *by_search += 1,
            None => {}
        }
    }

    /// The pictures' claim with the layer whose switch is `off` turned off
    /// (for [`check_layer`]).
    pub(in crate::mate::bounds) fn claim_without(
        off: &'static std::thread::LocalKey<std::cell::Cell<bool>>,
        pos: &Position,
    ) -> bool {
        off.set(true);
        let claim = no_mate_by_pictures(pos);
        off.set(false);
        claim
    }

    /// The claims only one layer of the pictures makes, checked: on 4,000
    /// sparse turns a seed (up to 10 pieces, turn lengths `ns`), under each
    /// of `seeds`' rule sets, the pictures with the layer and `without` it
    /// are compared; a layer never withdraws a claim, and each claim it
    /// adds goes to [`check_claim`]. Returns the claims checked by brute
    /// force and by the search.
    pub(in crate::mate::bounds) fn check_layer(
        layer: &str,
        without: fn(&Position) -> bool,
        seeds: [(Rules, u64); 2],
        ns: std::ops::RangeInclusive<u32>,
        tt: &MateTable,
    ) -> (u32, u32) {
        let (mut brute, mut by_search) = (0, 0);
        for (rules, seed) in seeds {
            for pos in sparse_positions(rules, seed, 4000, 10, ns.clone()) {
                let claim = super::super::no_mate_by_pictures(&pos);
                let before = without(&pos);
                let f = fen::to_fen(&pos);
                assert!(claim || !before, "{f}: {layer} withdraws a claim");
                if claim && !before {
                    check_claim(&pos, tt, layer, &mut brute, &mut by_search);
                }
            }
        }
        (brute, by_search)
    }

    /// Turn starts of random games with at most `max_pieces` pieces, each
    /// re-posed as a turn of `n` moves (drawn from `ns`), under `rules`.
    pub(in crate::mate::bounds) fn sparse_positions(
        rules: Rules,
        seed: u64,
        count: usize,
        max_pieces: u32,
        ns: std::ops::RangeInclusive<u32>,
    ) -> Vec<Position> {
        let repose = crate::mate::sleep::tests::as_turn_of;
        sparse_positions_as(rules, seed, count, max_pieces, ns, repose)
    }

    /// [`sparse_positions`] re-posed by `repose` (the position, the turn
    /// length).
    fn sparse_positions_as(
        rules: Rules,
        seed: u64,
        count: usize,
        max_pieces: u32,
        ns: std::ops::RangeInclusive<u32>,
        repose: fn(&Position, u32) -> Option<Position>,
    ) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::startpos(rules);
            for _ in 0..3000 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if pos.moves_made() == 0 && pos.occupied().count() <= max_pieces {
                    let n = rng.random_range(ns.clone());
                    out.extend(repose(&pos, n));
                    if rng.random_range(0..3) == 0 {
                        break;
                    }
                }
                pos.play(moves.as_slice()[rng.random_range(0..moves.len())]);
            }
        }
        out
    }

    /// Asserts that no position along the mating `line` from `pos` is
    /// claimed; returns how many were checked.
    pub(in crate::mate::bounds) fn check_along(pos: &Position, line: &[Move]) -> usize {
        let mut p = pos.clone();
        for &mv in line {
            assert!(
                !no_mate_by_pictures(&p),
                "{}: a mate excluded along {line:?}",
                fen::to_fen(pos)
            );
            p.play(mv);
        }
        line.len()
    }

    /// En passant (with the turn's first move only) keeps the pictures off
    /// only where a pawn of ours attacks a target: another target is no
    /// move of the turn.
    #[test]
    fn en_passant_unmodelled_only_where_a_pawn_may_take() {
        let pos = |f| fen::parse(f, Rules::Italian).expect("test FEN");
        // The pawn on e5 may take on d6 with the first move.
        assert!(!modelled(&pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 5")));
        // The pawn on h5 attacks no target.
        assert!(modelled(&pos("4k3/8/8/3p3P/8/8/8/4K3 w - d6 0 5")));
        // After the first move the field names our own double steps.
        assert!(modelled(&pos("4k3/8/8/3p4/4P3/8/8/4K3 w - e3 0 5 1")));
    }

    /// The claims of "no mate" on turns whose first move might take en
    /// passant but whose targets no pawn of ours attacks, by brute force.
    #[test]
    fn pictures_past_en_passant_targets_agree_with_brute_force() {
        let mut claims = 0;
        for (rules, seed) in [(Rules::Italian, 3), (Rules::Scottish, 4)] {
            // (The turn re-posed with its en-passant targets kept.)
            let repose = |pos: &Position, n: u32| {
                let f = fen::to_fen(pos);
                let fields: Vec<&str> = f.split_whitespace().collect();
                let text = format!("{} 0 {n}", fields[..4].join(" "));
                fen::parse(&text, pos.rules()).ok()
            };
            let turns = sparse_positions_as(rules, seed, 4000, 10, MIN_MOVES..=MIN_MOVES, repose);
            let with_targets = turns.into_iter().filter(|p| p.ep_squares().nonempty());
            claims += claims_checked_by_brute_force(with_targets);
        }
        assert!(claims >= 20, "only {claims} claims checked");
    }

    /// Checks every claim of "no mate" the pictures make on `turns` by
    /// brute force; returns how many were made.
    fn claims_checked_by_brute_force(turns: impl IntoIterator<Item = Position>) -> u32 {
        let mut claims = 0;
        for pos in turns {
            if no_mate_by_pictures(&pos) {
                claims += 1;
                assert!(
                    brute_force_mate(&pos).is_none(),
                    "{}: pictures exclude a mate",
                    fen::to_fen(&pos)
                );
            }
        }
        claims
    }

    /// Every claim of "no mate" on short turns is checked by brute force.
    #[test]
    fn pictures_agree_with_brute_force() {
        let mut claims = 0;
        for (rules, seed) in [(Rules::Italian, 1), (Rules::Scottish, 2)] {
            let turns = sparse_positions(rules, seed, 400, 7, MIN_MOVES..=MIN_MOVES);
            claims += claims_checked_by_brute_force(turns);
        }
        assert!(claims >= 100, "only {claims} claims checked");
    }

    /// The claims that only the enemy pieces as obstacles make (the pictures
    /// with every enemy piece transparent fit) are checked by brute force,
    /// on positions with several enemy pieces; the mates the search finds
    /// (every position along their lines) are never excluded, and counting
    /// obstacles never withdraws a claim.
    #[test]
    fn obstacles_agree_with_brute_force() {
        let tt = MateTable::new(16);
        let (mut claims, mut mates) = (0, 0);
        for (rules, seed) in [(Rules::Italian, 5), (Rules::Scottish, 6)] {
            for pos in sparse_positions(rules, seed, 1500, 10, MIN_MOVES..=MIN_MOVES) {
                let them = pos.side_to_move().other();
                if pos.color_bb(them).count() < 3 {
                    continue;
                }
                let f = fen::to_fen(&pos);
                let claim = no_mate_by_pictures(&pos);
                let transparent = pictured(&pos) && no_picture_fits(&pos, &[]);
                assert!(claim || !transparent, "{f}: obstacles withdraw a claim");
                if claim && !transparent {
                    claims += 1;
                    assert!(
                        brute_force_mate(&pos).is_none(),
                        "{f}: obstacles exclude a mate"
                    );
                }
                tt.clear();
                if let Some(Some(line)) = searched(&pos, &tt, 200_000) {
                    assert!(!claim, "{f}: obstacles exclude the search's mate");
                    mates += check_along(&pos, &line);
                }
            }
        }
        assert!(
            claims >= 40 && mates >= 300,
            "only {claims} obstacle claims and {mates} mating positions"
        );
    }

    /// Every claim of "no mate" on longer turns is checked by the search,
    /// and the search's mates (and every position along their lines) are
    /// never excluded.
    #[test]
    fn pictures_agree_with_the_search() {
        let tt = MateTable::new(16);
        let (mut claims, mut mates) = (0, 0);
        for (rules, seed) in [(Rules::Italian, 3), (Rules::Scottish, 4)] {
            for pos in sparse_positions(rules, seed, 1500, 12, MIN_MOVES..=9) {
                let claim = no_mate_by_pictures(&pos);
                tt.clear();
                let Some(mate) = searched(&pos, &tt, 200_000) else {
                    continue;
                };
                let f = fen::to_fen(&pos);
                if claim {
                    claims += 1;
                    assert!(mate.is_none(), "{f}: pictures exclude a mate");
                }
                if let Some(line) = mate {
                    mates += check_along(&pos, &line);
                }
            }
        }
        assert!(
            claims >= 300 && mates >= 300,
            "only {claims} claims and {mates} mating positions"
        );
    }

    /// The mates of the benchmark sets (along their lines) are never
    /// excluded, and their verdicts stay the same.
    #[test]
    fn pictures_keep_the_benchmark_mates() {
        let root = env!("CARGO_MANIFEST_DIR");
        let tt = MateTable::new(16);
        let mut checked = 0;
        for set in ["sermate-public.jsonl", "sermate-sparse.jsonl"] {
            let text = std::fs::read_to_string(format!("{root}/bench/data/{set}")).expect("set");
            for line in text.lines() {
                let v: serde_json::Value = serde_json::from_str(line).expect("json");
                let pos = fen::parse(v["fen"].as_str().expect("fen"), Rules::Italian).expect("fen");
                let mate = v.get("verdict").unwrap_or(&v["popeye_verdict"]) == "mate";
                if !no_mate_by_pictures(&pos) {
                    continue;
                }
                checked += 1;
                // p036 and p047 are Italian mates Popeye's orthodox verdict misses.
                let id = v["id"].as_str().expect("id");
                assert!(
                    !mate || id == "p036" || id == "p047",
                    "{set} {id}: a mate excluded"
                );
                tt.clear();
                assert_eq!(searched(&pos, &tt, u64::MAX), Some(None), "{set} {id}");
            }
        }
        assert!(checked >= 20, "only {checked} rows proved");
    }
}
