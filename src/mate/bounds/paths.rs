//! The ways of one of our pieces in a mating picture (see [`pictures`]):
//! every end square and role it can reach, with the fewest moves and the
//! captured enemy pieces it takes on the way.
//!
//! The enemy pieces do not move during our turn. Those a scene keeps (the
//! [`Scene`]'s blockers) stand where they stand now from the first move to
//! the last: nothing passes or lands on them, nor on the enemy king, a pawn
//! never steps onto them (diagonally it would capture them), and the
//! squares their knights and pawns attack are never our king's. Those a
//! scene captures are waypoints: somebody's way must take each (a move
//! onto it that can capture: not a pawn's straight step); before
//! that (and after, when the capturer has moved on) their squares count as
//! empty for every piece (a relaxation: the capture may come later than
//! this piece passes). Our own pieces never block (a relaxation too).
//!
//! [`pictures`]: super::pictures

use super::pictures::Scene;
use crate::chess::attacks;
use crate::chess::{Bitboard, Role, Square};

/// "Cannot".
pub(super) const FAR: u8 = u8::MAX;

/// One way's end: the targets covered there, the captured pieces taken on
/// the way (bits of [`Scene::visit`]), the moves, and whether the piece
/// must be the last to move (a pawn or knight ending on a checking square).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) struct End {
    pub(super) mask: u16,
    pub(super) visits: u16,
    pub(super) last: bool,
    pub(super) cost: u8,
}

impl End {
    /// Cheapest first; then not the last mover's; then covering and taking
    /// more: (cost, last, !mask, !visits) packed in one word (the sorts of
    /// the ends are a large share of the pictures' time).
    pub(super) fn order(&self) -> u64 {
        u64::from(self.cost) << 33
            | u64::from(self.last) << 32
            | u64::from(!self.mask) << 16
            | u64::from(!self.visits)
    }

    /// The end of an [`End::order`] (which packs every field).
    fn from_order(key: u64) -> End {
        End {
            mask: !(key >> 16) as u16,
            visits: !key as u16,
            last: key >> 32 & 1 == 1,
            cost: (key >> 33) as u8,
        }
    }
}

/// Sorts `ends` by [`End::order`]: the keys sorted as plain words (the
/// key is the whole end, so the ends come out as sorting them would put
/// them; comparing words is a fraction of recomputing the keys).
fn sort_ends(ends: &mut [End]) {
    let mut keys: Vec<u64> = ends.iter().map(End::order).collect();
    keys.sort_unstable();
    for (e, k) in ends.iter_mut().zip(keys) {
        *e = End::from_order(k);
    }
}

/// The roles a piece may have on its way: its own, and a promoted pawn's
/// queen (which covers all a rook or bishop would) or knight.
const FORMS: usize = 3;

/// The ends of our `role` on `from` within `cap` moves that no other end
/// beats: none covering and visiting as much at most as dear, not the last
/// mover's unless this one is. Cheapest first.
pub(super) fn ends_of(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<End> {
    let masks = usize::from(scene.full()) + 1;
    // Of the ends alike but for the cost (and square), the first found:
    // the cheapest, as the ways come fewest moves first. The visits found
    // so far per (last, mask).
    let mut alike = vec![0 as Visits; 2 * masks];
    let mut out: Vec<End> = Vec::with_capacity(64);
    let found = |way: Ways| {
        let seen = &mut alike[usize::from(way.last) * masks + usize::from(way.mask)];
        let fresh = way.visits & !*seen;
        *seen |= fresh;
        for_each_visit(fresh, |v| out.push(way.end(v)));
    };
    // (The ends found in one layer are alike but for the square, so their
    // order within it does not matter here.)
    if scene.captured == 0 {
        ways_without_visits(scene, role, from, cap, found);
    } else {
        ways(&mut Search::new(), scene, role, from, cap, found);
    }
    unbeaten(out)
}

/// The ends of our `role` on `from` within `cap` moves as covers alone
/// (taking nothing) that no other beats, cheapest first: as [`ends_of`]
/// with the visits dropped, in any scene (the squares a way reaches do not
/// depend on the pieces it takes, so the [`square_layers`] give them).
pub(super) fn cover_ends(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<End> {
    let mut out: Vec<End> = Vec::new();
    ways_without_visits(scene, role, from, cap, |way| out.push(way.end(0)));
    sort_ends(&mut out);
    unbeaten_covers(out)
}

/// [`ends_of`] from the piece's [`placed_ends`] in a scene of all targets
/// `full` (the ways searched once for both).
pub(super) fn ends_of_placed(scratch: &mut Scratch, placed: &[Placed], full: u16) -> Vec<End> {
    let masks = usize::from(full) + 1;
    let cell = |e: &End| usize::from(e.last) * masks + usize::from(e.mask);
    // As in `ends_of`: the first found of the ends alike but for the cost.
    let alike = &mut scratch.alike[..2 * masks];
    let mut out: Vec<End> = Vec::new();
    for p in placed {
        let seen = &mut alike[cell(&p.end)];
        let bit = 1 << p.end.visits;
        if *seen & bit == 0 {
            *seen |= bit;
            out.push(p.end);
        }
    }
    // (Left zero for the next piece.)
    for e in &out {
        alike[cell(e)] = 0;
    }
    unbeaten(out)
}

/// The ends of `out` (found fewest moves first) that no other beats,
/// cheapest first.
fn unbeaten(mut out: Vec<End>) -> Vec<End> {
    // Every beater of an end comes before it in this order.
    sort_ends(&mut out);
    if out.iter().all(|e| e.visits == 0) {
        return unbeaten_covers(out);
    }
    // The masks the ends have (few: one per square and role at most; a
    // mask has at most 9 targets).
    let mut id = [u16::MAX; 512];
    let mut distinct: Vec<u16> = Vec::new();
    for e in &out {
        if id[usize::from(e.mask)] == u16::MAX {
            id[usize::from(e.mask)] = distinct.len() as u16;
            distinct.push(e.mask);
        }
    }
    // The visits beaten so far per mask, for an end not the last mover's
    // and for one that is: each kept end adds its visits' subsets to every
    // mask it holds.
    let mut beaten = vec![[0 as Visits; 2]; distinct.len()];
    // The kept ends are gathered in place, in order, at the front.
    let mut kept = 0;
    for i in 0..out.len() {
        let e = out[i];
        let d = usize::from(id[usize::from(e.mask)]);
        if beaten[d][usize::from(e.last)] >> e.visits & 1 == 1 {
            continue;
        }
        out[kept] = e;
        kept += 1;
        let below = SUBSETS[usize::from(e.visits)];
        for (cell, &m) in beaten.iter_mut().zip(&distinct) {
            if m & e.mask == m {
                // A last mover's end beats only last movers' ends.
                cell[1] |= below;
                if !e.last {
                    cell[0] |= below;
                }
            }
        }
    }
    out.truncate(kept);
    out
}

/// The ends of `sorted` (in [`End::order`], taking nothing) that no other
/// beats: nothing to take (the transparent scene, the covers alone), so
/// the kept ends are few, and each end is compared with them.
fn unbeaten_covers(mut sorted: Vec<End>) -> Vec<End> {
    debug_assert!(sorted.iter().all(|e| e.visits == 0));
    // The kept ends are gathered in place, in order, at the front.
    let mut kept = 0;
    for i in 0..sorted.len() {
        let e = sorted[i];
        if !sorted[..kept]
            .iter()
            .any(|k| k.mask & e.mask == e.mask && (!k.last || e.last))
        {
            sorted[kept] = e;
            kept += 1;
        }
    }
    sorted.truncate(kept);
    sorted
}

/// Per visits v, the set of its subsets.
const SUBSETS: [Visits; 1 << MAX_CAPTURED] = {
    let mut out = [0; 1 << MAX_CAPTURED];
    let mut v = 0;
    while v < 1 << MAX_CAPTURED {
        let mut u = 0;
        while u < 1 << MAX_CAPTURED {
            if u & v == u {
                out[v] |= 1 << u;
            }
            u += 1;
        }
        v += 1;
    }
    out
};

/// One way's end with the square and role it ends on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placed {
    pub(super) end: End,
    pub(super) sq: Square,
    pub(super) role: Role,
}

/// Every end of our `role` on `from` within `cap` moves (covering a target
/// or taking a captured piece), the fewest moves per (role, square, visits,
/// last), fewest moves first.
#[cfg(test)]
pub(super) fn placed_ends(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<Placed> {
    let mut out = Vec::new();
    ways(&mut Search::new(), scene, role, from, cap, |way| {
        for_each_visit(way.visits, |v| {
            out.push(Placed {
                end: way.end(v),
                sq: way.sq,
                role: way.role,
            })
        });
    });
    out
}

/// [`placed_ends`] less those beaten on their own square: by an end there
/// in the same role, taking as much and not the last mover's unless this
/// one is, found before it (so no dearer) or with it (as dear) taking
/// more. No picture needs them: that end does all they do.
pub(super) fn square_ends(
    scratch: &mut Scratch,
    scene: &Scene,
    role: Role,
    from: Square,
    cap: u8,
) -> Vec<Placed> {
    // Per (role, square): the visits beaten for an end not the last
    // mover's (by such ends) and for one that is (by any).
    let Scratch { search, beaten, .. } = scratch;
    let cell_of = |role: Role, sq: Square| role.index() * 64 + sq.index();
    let mut out = Vec::with_capacity(64);
    ways(search, scene, role, from, cap, |way| {
        let cell = &mut beaten[cell_of(way.role, way.sq)];
        // Largest first: of the visits reached together, those taking
        // less than another are beaten by it.
        for_each_visit_down(way.visits, |v| {
            if cell[usize::from(way.last)] >> v & 1 == 1 {
                return;
            }
            let below = SUBSETS[usize::from(v)];
            cell[1] |= below;
            if !way.last {
                cell[0] |= below;
            }
            out.push(Placed {
                end: way.end(v),
                sq: way.sq,
                role: way.role,
            });
        });
    });
    // (Every cell set holds an end: left zero for the next piece.)
    for p in &out {
        beaten[cell_of(p.role, p.sq)] = [0; 2];
    }
    out
}

/// The ways' ends on one square in one role at one cost: every visits
/// first reached there then (none that covers nothing and takes nothing).
struct Ways {
    sq: Square,
    role: Role,
    mask: u16,
    visits: Visits,
    last: bool,
    cost: u8,
}

impl Ways {
    /// The end of the visits `v` (one of `self.visits`).
    fn end(&self, v: u16) -> End {
        End {
            mask: self.mask,
            visits: v,
            last: self.last,
            cost: self.cost,
        }
    }
}

/// The buffers of [`square_ends`] and [`ends_of_placed`], kept from one
/// call to the next: each call leaves them zero (clearing only what it
/// set), where zeroing them whole was a tenth of the pictures' time.
pub(super) struct Scratch {
    search: Search,
    /// Per (role, square): see [`square_ends`].
    beaten: [[Visits; 2]; 6 * 64],
    /// Per (last, targets covered): see [`ends_of_placed`].
    alike: [Visits; 2 << 9],
}

impl Scratch {
    pub(super) fn new() -> Box<Scratch> {
        Box::new(Scratch {
            search: Search::new(),
            beaten: [[0; 2]; 6 * 64],
            alike: [0; 2 << 9],
        })
    }
}

/// The buffers of [`ways`]: zero (and empty) between searches.
struct Search {
    /// The visits reached so far per (form, square), apart on a checking
    /// square (the last mover's ends).
    seen: [[Visits; 64]; FORMS],
    seen_last: [[Visits; 64]; FORMS],
    /// This layer's visits per (form, square, last).
    layer: [[Visits; 64]; 2 * FORMS],
    /// The cells of `layer` touched in this layer.
    touched: Vec<(usize, Square)>,
    /// The states that go on: (form, square, visits first reached).
    frontier: Vec<(usize, Square, Visits)>,
    /// The cells of `seen` and `seen_last` set (to clear).
    set: Vec<(usize, Square)>,
    /// See [`step_layer`].
    groups: Vec<Group>,
}

/// The steps of a layer's states alike in form and visits (not a
/// pawn's): the squares they reach, those of them checking.
struct Group {
    form: usize,
    visits: Visits,
    to: Bitboard,
    checking: Bitboard,
}

/// At most this many [`Group`]s a layer: a state unlike all of them has
/// its steps added one by one (as a pawn's are).
const GROUPS: usize = 16;

impl Search {
    fn new() -> Search {
        Search {
            seen: [[0; 64]; FORMS],
            seen_last: [[0; 64]; FORMS],
            layer: [[0; 64]; 2 * FORMS],
            touched: Vec::new(),
            frontier: Vec::new(),
            set: Vec::new(),
            groups: Vec::with_capacity(GROUPS),
        }
    }
}

/// Hands `out` the ends of our `role` on `from` within `cap` moves, fewest
/// moves first, per square and role.
fn ways(
    search: &mut Search,
    scene: &Scene,
    role: Role,
    from: Square,
    cap: u8,
    mut out: impl FnMut(Ways),
) {
    debug_assert!(scene.captured <= MAX_CAPTURED);
    // The targets covered per (form, square), found once (they do not
    // depend on the pieces taken on the way).
    let mut masks = [None; FORMS * 64];
    let mut end = |form: usize, sq: Square, visits: Visits, cost: u8, last: bool| {
        let r = form_role(role, form);
        let mask = *masks[form * 64 + sq.index()].get_or_insert_with(|| scene.cover(r, sq));
        // Covering nothing and taking nothing (visits 0) is no end.
        let visits = if mask == 0 { visits & !1 } else { visits };
        if visits != 0 {
            out(Ways {
                sq,
                role: r,
                mask,
                visits,
                last,
                cost,
            });
        }
    };
    // The moves do not depend on the pieces taken on the way, so the
    // search goes by layers over (form, square), each with the set of
    // visits first reached there in this layer: the states that go on, and
    // those on a checking square (the last mover's ends: a pawn or knight
    // never stands there before).
    let Search {
        seen,
        seen_last,
        layer,
        touched,
        frontier,
        set,
        groups,
    } = search;
    seen[0][from.index()] = 1;
    set.push((0, from));
    end(0, from, 1, 0, false);
    frontier.push((0usize, from, 1 as Visits));
    let mut d = 0;
    while !frontier.is_empty() && d < cap {
        d += 1;
        step_layer(scene, role, frontier, layer, touched, groups);
        frontier.clear();
        for &(cell, t) in touched.iter() {
            let (form, checking) = (cell / 2, cell % 2 == 1);
            let seen = if checking {
                &mut *seen_last
            } else {
                &mut *seen
            };
            let fresh = std::mem::take(&mut layer[cell][t.index()]) & !seen[form][t.index()];
            seen[form][t.index()] |= fresh;
            if fresh != 0 {
                set.push((form, t));
                end(form, t, fresh, d, checking);
                if !checking {
                    frontier.push((form, t, fresh));
                }
            }
        }
        touched.clear();
    }
    // (Every layer's cells were taken: `layer` is zero.)
    frontier.clear();
    for (form, sq) in set.drain(..) {
        seen[form][sq.index()] = 0;
        seen_last[form][sq.index()] = 0;
    }
}

/// One layer of [`ways`]: the visits every step from the `frontier`
/// brings per (form, square, last) into `layer`, and the cells touched,
/// in the order first touched, into `touched`.
///
/// A piece's steps from all the states of one form with the same visits
/// bring the same visits to every square (the taking of a captured piece
/// aside, which maps visits one by one: the same of a union as the union
/// of each), so their squares are gathered first, and each square gets
/// the visits once. (Per step, that was most of the ways' time.) Within a
/// form, the square alone tells whether a step checks, so a square is
/// touched first where it is first in a form's set of squares reached.
fn step_layer(
    scene: &Scene,
    role: Role,
    frontier: &[(usize, Square, Visits)],
    layer: &mut [[Visits; 64]; 2 * FORMS],
    touched: &mut Vec<(usize, Square)>,
    groups: &mut Vec<Group>,
) {
    let mut reached = [Bitboard::EMPTY; FORMS];
    let cell = |form: usize, checking: bool| 2 * form + usize::from(checking);
    for &(form, sq, visits) in frontier {
        let r = form_role(role, form);
        if r == Role::Pawn {
            steps(scene, r, form, sq, |form2, t, checking, takes| {
                let v2 = if takes {
                    with_visit(visits, scene.visit[t.index()])
                } else {
                    visits
                };
                if !reached[form2].contains(t) {
                    reached[form2].set(t);
                    touched.push((cell(form2, checking), t));
                }
                layer[cell(form2, checking)][t.index()] |= v2;
            });
            continue;
        }
        // (Every step of a piece may take, and keeps its form.)
        let (to, checking) = piece_steps(scene, r, sq);
        for t in to & !reached[form] {
            touched.push((cell(form, checking.contains(t)), t));
        }
        reached[form] |= to;
        let alike = groups
            .iter()
            .rposition(|g| g.form == form && g.visits == visits);
        match alike {
            Some(i) => {
                groups[i].to |= to;
                groups[i].checking |= checking;
            }
            None if groups.len() < GROUPS => groups.push(Group {
                form,
                visits,
                to,
                checking,
            }),
            None => add_steps(scene, layer, form, visits, to, checking),
        }
    }
    for g in groups.drain(..) {
        add_steps(scene, layer, g.form, g.visits, g.to, g.checking);
    }
}

/// Brings `visits` (taking each captured piece stepped onto) to the
/// squares `to` of a piece's steps in `form`, `checking` those that check.
fn add_steps(
    scene: &Scene,
    layer: &mut [[Visits; 64]; 2 * FORMS],
    form: usize,
    visits: Visits,
    to: Bitboard,
    checking: Bitboard,
) {
    for t in to {
        let v2 = with_visit(visits, scene.visit[t.index()]);
        layer[2 * form + usize::from(checking.contains(t))][t.index()] |= v2;
    }
}

/// [`ways`] with the visits left out (all of them the empty one): in a
/// scene that captures nothing (the transparent scene of the node
/// pictures, which reads the ways of every piece from every square it
/// reaches) the ways themselves, in any scene their covers
/// ([`cover_ends`]): the [`square_layers`]. Within a layer the ends come in
/// square order, not in the order first reached.
fn ways_without_visits(
    scene: &Scene,
    role: Role,
    from: Square,
    cap: u8,
    mut out: impl FnMut(Ways),
) {
    square_layers(scene, role, from, cap, |cost, form, squares, last| {
        let r = form_role(role, form);
        for sq in squares {
            let mask = scene.cover(r, sq);
            // Covering nothing (and taking nothing) is no end.
            if mask != 0 {
                out(Ways {
                    sq,
                    role: r,
                    mask,
                    visits: 1,
                    last,
                    cost,
                });
            }
        }
    });
}

/// The squares our `role` on `from` first stands on after each number of
/// moves up to `cap`, visits aside: `layer(moves, form, squares,
/// checking)`, the squares on a checking square apart (the last mover's
/// ends: a pawn or knight goes on from none). Whether a step checks
/// depends only on its form and square, so one set of squares seen per
/// form suffices.
fn square_layers(
    scene: &Scene,
    role: Role,
    from: Square,
    cap: u8,
    mut layer: impl FnMut(u8, usize, Bitboard, bool),
) {
    let mut seen = [Bitboard::EMPTY; FORMS];
    let mut frontier = [Bitboard::EMPTY; FORMS];
    seen[0] = from.bb();
    frontier[0] = from.bb();
    layer(0, 0, from.bb(), false);
    let mut d = 0;
    while frontier.iter().any(|f| f.nonempty()) && d < cap {
        d += 1;
        let mut reached = [[Bitboard::EMPTY; 2]; FORMS];
        for (form, squares) in frontier.iter().enumerate() {
            let r = form_role(role, form);
            for sq in *squares {
                if r == Role::Pawn {
                    steps(scene, r, form, sq, |form2, t, checking, _| {
                        reached[form2][usize::from(checking)].set(t);
                    });
                } else {
                    // (A square at a time for the pawn alone: a piece's
                    // steps are one set.)
                    let (to, checking) = piece_steps(scene, r, sq);
                    reached[form][0] |= to & !checking;
                    reached[form][1] |= checking;
                }
            }
        }
        for form in 0..FORMS {
            let [quiet, checking] = reached[form].map(|r| r & !seen[form]);
            seen[form] |= quiet | checking;
            layer(d, form, quiet, false);
            layer(d, form, checking, true);
            frontier[form] = quiet;
        }
    }
}

/// A set of visits (sets of captured pieces taken): bit v for the visits
/// `v`, so at most [`MAX_CAPTURED`] captured pieces.
type Visits = u128;

/// The most captured pieces a scene may have for [`Visits`].
pub(super) const MAX_CAPTURED: usize = 7;

/// `set` with the captured piece of bit `visit` (a power of two, or 0 for
/// none) taken too: every visits v becomes v | visit.
fn with_visit(set: Visits, visit: u16) -> Visits {
    if visit == 0 {
        return set;
    }
    // The visits that hold the bit already, by the bit's index.
    const HOLDING: [Visits; MAX_CAPTURED] = {
        let mut out = [0; MAX_CAPTURED];
        let mut j = 0;
        while j < MAX_CAPTURED {
            let mut v = 0;
            while v < 1 << MAX_CAPTURED {
                if v >> j & 1 == 1 {
                    out[j] |= 1 << v;
                }
                v += 1;
            }
            j += 1;
        }
        out
    };
    let holding = HOLDING[visit.trailing_zeros() as usize];
    set & holding | (set & !holding) << visit
}

/// Calls `f` with every visits in `set`, largest first (a set's supersets
/// before it).
fn for_each_visit_down(mut set: Visits, mut f: impl FnMut(u16)) {
    while set != 0 {
        let v = 127 - set.leading_zeros();
        f(v as u16);
        set &= !(1 << v);
    }
}

/// Calls `f` with every visits in `set`, smallest first.
fn for_each_visit(mut set: Visits, mut f: impl FnMut(u16)) {
    while set != 0 {
        f(set.trailing_zeros() as u16);
        set &= set - 1;
    }
}

/// The squares our `role` on `from` can stand on after at most `cap`
/// moves of its ways, per role it may have there (its own, a promoted
/// queen, a promoted knight): the fewest moves per square (`FAR`: never).
pub(super) fn reach_of(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<(Role, [u8; 64])> {
    let mut dist = [[FAR; 64]; FORMS];
    square_layers(scene, role, from, cap, |d, form, squares, _| {
        for t in squares {
            dist[form][t.index()] = d;
        }
    });
    let forms = if role == Role::Pawn { FORMS } else { 1 };
    (0..forms).map(|f| (form_role(role, f), dist[f])).collect()
}

/// The role of `form`: 0 the piece's own, 1 a promoted queen, 2 a promoted
/// knight.
fn form_role(role: Role, form: usize) -> Role {
    match form {
        0 => role,
        1 => Role::Queen,
        _ => Role::Knight,
    }
}

/// Hands `out` the squares one move of `role` (in `form`) takes from `sq`,
/// each with the form it has there and whether it then stands on a checking
/// square.
fn steps(
    scene: &Scene,
    role: Role,
    form: usize,
    sq: Square,
    mut out: impl FnMut(usize, Square, bool, bool),
) {
    match role {
        Role::Pawn => {
            let us = scene.us;
            let banned = walls(scene);
            if sq.relative_rank(us) == 7 {
                return;
            }
            let ahead = sq.forward(us);
            let takes = attacks::pawn(us, sq) & scene.prey;
            let mut to = takes;
            if !banned.contains(ahead) {
                to.set(ahead);
                if sq.relative_rank(us) == 1 && !banned.contains(ahead.forward(us)) {
                    to.set(ahead.forward(us));
                }
            }
            for t in to {
                // A straight step captures nothing: onto a captured piece's
                // square only after another piece took it and went on.
                let take = takes.contains(t);
                if t.relative_rank(us) == 7 {
                    out(1, t, false, take);
                    out(2, t, scene.knight_checks.contains(t), take);
                } else {
                    out(form, t, scene.pawn_checks.contains(t), take);
                }
            }
        }
        piece => {
            let (to, checking) = piece_steps(scene, piece, sq);
            for t in to {
                out(form, t, checking.contains(t), true);
            }
        }
    }
}

/// The squares one move of our `role` (not a pawn: its form never
/// changes, and every move may capture) takes from `sq`, and those of them
/// on a checking square.
fn piece_steps(scene: &Scene, role: Role, sq: Square) -> (Bitboard, Bitboard) {
    let banned = walls(scene);
    match role {
        Role::King => (attacks::king(sq) & !scene.king_banned, Bitboard::EMPTY),
        Role::Knight => {
            let to = attacks::knight(sq) & !banned;
            (to, to & scene.knight_checks)
        }
        slider => (
            attacks::piece(slider, sq, banned) & !banned,
            Bitboard::EMPTY,
        ),
    }
}

/// The squares no way of ours enters or passes: the kept enemy pieces,
/// and the enemy king (at the end our lines go through it: the king
/// cannot step back along them).
fn walls(scene: &Scene) -> Bitboard {
    scene.blockers | scene.king.bb()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Position, Rules};
    use crate::mate::bounds::pictures::tests::sparse_positions;

    /// An end of [`walked`]: role index, square index, visits, last
    /// mover's, moves.
    type WalkedEnd = (u8, usize, u16, bool, u8);

    /// The ways by the definition: a search over every (form, square,
    /// visits) state, the first reach of each the fewest moves; and per
    /// form the fewest moves to each square, whatever the visits (as
    /// [`reach_of`] gives them).
    fn walked(
        scene: &Scene,
        role: Role,
        from: Square,
        cap: u8,
    ) -> (Vec<WalkedEnd>, Vec<(Role, [u8; 64])>) {
        let nv = 1usize << scene.captured;
        let index = |form: usize, sq: Square, v: u16| (form * 64 + sq.index()) * nv + v as usize;
        let mut out = Vec::new();
        let mut end = |form: usize, sq: Square, v: u16, cost: u8, last: bool| {
            let r = form_role(role, form);
            let mask = scene.cover(r, sq);
            if mask != 0 || v != 0 {
                out.push((r.index() as u8, sq.index(), v, last, cost));
            }
        };
        let mut seen = vec![false; FORMS * 64 * nv];
        let mut seen_last = vec![false; FORMS * 64 * nv];
        let mut dist = [[FAR; 64]; FORMS];
        dist[0][from.index()] = 0;
        let mut frontier = vec![(0usize, from, 0u16)];
        seen[index(0, from, 0)] = true;
        end(0, from, 0, 0, false);
        let mut d = 0;
        while !frontier.is_empty() && d < cap {
            d += 1;
            let mut next = Vec::new();
            for &(form, sq, v) in &frontier {
                steps(
                    scene,
                    form_role(role, form),
                    form,
                    sq,
                    |form2, t, checking, takes| {
                        let v2 = if takes { v | scene.visit[t.index()] } else { v };
                        let seen = if checking { &mut seen_last } else { &mut seen };
                        if !std::mem::replace(&mut seen[index(form2, t, v2)], true) {
                            let cell = &mut dist[form2][t.index()];
                            *cell = (*cell).min(d);
                            end(form2, t, v2, d, checking);
                            if !checking {
                                next.push((form2, t, v2));
                            }
                        }
                    },
                );
            }
            frontier = next;
        }
        out.sort_unstable();
        let forms = if role == Role::Pawn { FORMS } else { 1 };
        let reach = (0..forms).map(|f| (form_role(role, f), dist[f])).collect();
        (out, reach)
    }

    /// [`placed_ends`] less those beaten on the same square in the same
    /// role, by comparing every pair: by an end taking as much, not the
    /// last mover's unless this one is, found before it or reached with
    /// it (same moves, same last mover's or not) taking more. Sorted.
    fn unbeaten_on_squares(
        scene: &Scene,
        role: Role,
        from: Square,
        cap: u8,
    ) -> Vec<(usize, usize, End)> {
        let all = placed_ends(scene, role, from, cap);
        let mut kept: Vec<(usize, usize, End)> = Vec::new();
        for (i, p) in all.iter().enumerate() {
            let e = p.end;
            let beaten = all.iter().enumerate().any(|(j, q)| {
                let k = q.end;
                j != i
                    && q.role == p.role
                    && q.sq == p.sq
                    && k.visits & e.visits == e.visits
                    && (!k.last || e.last)
                    && (j < i || k.cost == e.cost && k.last == e.last && k.visits != e.visits)
            });
            if !beaten {
                kept.push((p.role.index(), p.sq.index(), e));
            }
        }
        kept.sort_unstable();
        kept
    }

    /// One [`Ways`] as plain fields: square index, role index, targets,
    /// visits, last mover's, moves.
    type WaysFields = (usize, usize, u16, Visits, bool, u8);

    /// The ways as [`ways`] hands them, in its order.
    fn ways_in_order(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<WaysFields> {
        let mut out = Vec::new();
        ways(&mut Search::new(), scene, role, from, cap, |w| {
            out.push((
                w.sq.index(),
                w.role.index(),
                w.mask,
                w.visits,
                w.last,
                w.cost,
            ))
        });
        out
    }

    /// [`ways`] with the steps' visits brought one step at a time (as
    /// before [`step_layer`] gathered them): the same ways in the same
    /// order, which the squares search depends on.
    fn ways_step_by_step(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<WaysFields> {
        let mut out = Vec::new();
        let mut end = |form: usize, sq: Square, visits: Visits, cost: u8, last: bool| {
            let r = form_role(role, form);
            let mask = scene.cover(r, sq);
            let visits = if mask == 0 { visits & !1 } else { visits };
            if visits != 0 {
                out.push((sq.index(), r.index(), mask, visits, last, cost));
            }
        };
        let mut seen = [[0 as Visits; 64]; FORMS];
        let mut seen_last = [[0 as Visits; 64]; FORMS];
        seen[0][from.index()] = 1;
        end(0, from, 1, 0, false);
        let mut frontier = vec![(0usize, from, 1 as Visits)];
        let mut layer = [[0 as Visits; 64]; 2 * FORMS];
        let mut touched: Vec<(usize, Square)> = Vec::new();
        let mut d = 0;
        while !frontier.is_empty() && d < cap {
            d += 1;
            for &(form, sq, visits) in &frontier {
                let r = form_role(role, form);
                steps(scene, r, form, sq, |form2, t, checking, takes| {
                    let v2 = if takes {
                        with_visit(visits, scene.visit[t.index()])
                    } else {
                        visits
                    };
                    let cell = &mut layer[2 * form2 + usize::from(checking)][t.index()];
                    if *cell == 0 {
                        touched.push((2 * form2 + usize::from(checking), t));
                    }
                    *cell |= v2;
                });
            }
            frontier.clear();
            for &(cell, t) in &touched {
                let (form, checking) = (cell / 2, cell % 2 == 1);
                let seen = if checking { &mut seen_last } else { &mut seen };
                let fresh = std::mem::take(&mut layer[cell][t.index()]) & !seen[form][t.index()];
                seen[form][t.index()] |= fresh;
                if fresh != 0 {
                    end(form, t, fresh, d, checking);
                    if !checking {
                        frontier.push((form, t, fresh));
                    }
                }
            }
            touched.clear();
        }
        out
    }

    /// The ends no other end beats, by comparing every pair.
    fn unbeaten_pairwise(mut ends: Vec<End>) -> Vec<End> {
        ends.sort_unstable_by_key(|e| (e.cost, e.last, !e.mask, !e.visits));
        let mut kept: Vec<End> = Vec::new();
        for e in ends {
            let beaten = kept.iter().any(|k| {
                k.mask & e.mask == e.mask && k.visits & e.visits == e.visits && (!k.last || e.last)
            });
            if !beaten {
                kept.push(e);
            }
        }
        kept
    }

    /// The layered search over sets of visits finds every state's fewest
    /// moves, and the unbeaten ends are those of the pairwise comparison,
    /// in every scene of sparse positions (both rule sets, every set of up
    /// to four counted enemy pieces captured).
    #[test]
    fn the_ways_are_those_of_the_search_over_every_state() {
        let mut compared = 0;
        // (One scratch for all: each call leaves it as it found it.)
        let mut scratch = Scratch::new();
        for rules in [Rules::Italian, Rules::Scottish] {
            for pos in sparse_positions(rules, 11, 40, 12, 4..=9) {
                let pos: &Position = &pos;
                let us = pos.side_to_move();
                let king = pos.king_square(us.other());
                let counted: Vec<Square> = (pos.color_bb(us.other()) & !king.bb())
                    .into_iter()
                    .take(4)
                    .collect();
                let cap = pos.moves_left().min(200) as u8;
                for set in 0..1u32 << counted.len() {
                    let scene = Scene::new(pos, &counted, set);
                    for from in pos.color_bb(us) {
                        let Some(piece) = pos.piece_at(from) else {
                            continue;
                        };
                        let mut layered: Vec<_> = placed_ends(&scene, piece.role, from, cap)
                            .into_iter()
                            .map(|p| {
                                (
                                    p.role.index() as u8,
                                    p.sq.index(),
                                    p.end.visits,
                                    p.end.last,
                                    p.end.cost,
                                )
                            })
                            .collect();
                        layered.sort_unstable();
                        assert_eq!(
                            ways_in_order(&scene, piece.role, from, cap),
                            ways_step_by_step(&scene, piece.role, from, cap)
                        );
                        let (ends, reach) = walked(&scene, piece.role, from, cap);
                        assert_eq!(layered, ends);
                        assert_eq!(reach_of(&scene, piece.role, from, cap), reach);
                        let all: Vec<End> = placed_ends(&scene, piece.role, from, cap)
                            .into_iter()
                            .map(|p| p.end)
                            .collect();
                        // (An end covering nothing adds nothing to the covers.)
                        let covers = all
                            .iter()
                            .filter(|e| e.mask != 0)
                            .map(|&e| End { visits: 0, ..e })
                            .collect();
                        assert_eq!(
                            cover_ends(&scene, piece.role, from, cap),
                            unbeaten_pairwise(covers)
                        );
                        let ends = ends_of(&scene, piece.role, from, cap);
                        assert_eq!(ends, unbeaten_pairwise(all));
                        let placed = square_ends(&mut scratch, &scene, piece.role, from, cap);
                        assert_eq!(ends_of_placed(&mut scratch, &placed, scene.full()), ends);
                        let mut kept: Vec<_> = placed
                            .iter()
                            .map(|p| (p.role.index(), p.sq.index(), p.end))
                            .collect();
                        kept.sort_unstable();
                        assert_eq!(kept, unbeaten_on_squares(&scene, piece.role, from, cap));
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 2000, "only {compared} ways compared");
    }
}
