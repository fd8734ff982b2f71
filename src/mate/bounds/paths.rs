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
use crate::chess::{Role, Square};
use rustc_hash::FxHashSet;

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

/// The roles a piece may have on its way: its own, and a promoted pawn's
/// queen (which covers all a rook or bishop would) or knight.
const FORMS: usize = 3;

/// The ends of our `role` on `from` within `cap` moves, the cheapest per
/// (mask, visits, last).
pub(super) fn ends_of(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<End> {
    // Of the ends alike but for the cost, the first found (the cheapest:
    // they come fewest moves first); the others are beaten below anyway,
    // and they are most of them.
    let mut alike = FxHashSet::default();
    let mut out: Vec<End> = placed_ends(scene, role, from, cap)
        .into_iter()
        .map(|p| p.end)
        .filter(|e| alike.insert((e.mask, e.visits, e.last)))
        .collect();
    // Only the ends no other end beats: one covering and visiting as much
    // at most as dear, not the last mover's unless this one is.
    out.sort_unstable_by_key(|e| (e.cost, e.last, !e.mask, !e.visits));
    let mut kept: Vec<End> = Vec::new();
    for e in out {
        let beaten = kept.iter().any(|k| {
            k.mask & e.mask == e.mask && k.visits & e.visits == e.visits && (!k.last || e.last)
        });
        if !beaten {
            kept.push(e);
        }
    }
    kept
}

/// One way's end with the square and role it ends on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placed {
    pub(super) end: End,
    pub(super) sq: Square,
    pub(super) role: Role,
}

/// Every end of our `role` on `from` within `cap` moves (covering a target
/// or taking a captured piece), the fewest moves per (role, square, visits,
/// last), in the order found (fewest moves first).
pub(super) fn placed_ends(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<Placed> {
    let nv = 1usize << scene.captured;
    let index = |form: usize, sq: Square, v: u16| (form * 64 + sq.index()) * nv + v as usize;
    // Every end where first reached (the search goes by layers, so first
    // is fewest): the states that go on, and those on a checking square
    // (the last mover's ends: a pawn or knight never stands there before).
    let mut out = Vec::new();
    // The targets covered per (form, square), found once (they do not
    // depend on the pieces taken on the way).
    let mut masks = [None; FORMS * 64];
    let mut end = |form: usize, sq: Square, v: u16, cost: u8, last: bool| {
        let r = form_role(role, form);
        let mask = *masks[form * 64 + sq.index()].get_or_insert_with(|| {
            let mut mask = scene.cover(r, sq);
            if r == Role::King {
                mask |= scene.excuse[sq.index()];
            }
            mask
        });
        if mask != 0 || v != 0 {
            out.push(Placed {
                end: End {
                    mask,
                    visits: v,
                    last,
                    cost,
                },
                sq,
                role: r,
            });
        }
    };
    let mut seen = vec![false; FORMS * 64 * nv];
    let mut seen_last = vec![false; FORMS * 64 * nv];
    let mut frontier = vec![(0usize, from, 0u16)];
    seen[index(0, from, 0)] = true;
    end(0, from, 0, 0, false);
    let mut d = 0;
    while !frontier.is_empty() && d < cap {
        d += 1;
        let mut next = Vec::new();
        for &(form, sq, v) in &frontier {
            let r = form_role(role, form);
            steps(scene, r, form, sq, |form2, t, checking, takes| {
                let v2 = if takes { v | scene.visit[t.index()] } else { v };
                let i = index(form2, t, v2);
                let seen = if checking { &mut seen_last } else { &mut seen };
                if !seen[i] {
                    seen[i] = true;
                    end(form2, t, v2, d, checking);
                    if !checking {
                        next.push((form2, t, v2));
                    }
                }
            });
        }
        frontier = next;
    }
    out
}

/// The squares our `role` on `from` can stand on after at most `cap`
/// moves of its ways, per role it may have there (its own, a promoted
/// queen, a promoted knight): the fewest moves per square (`FAR`: never).
pub(super) fn reach_of(scene: &Scene, role: Role, from: Square, cap: u8) -> Vec<(Role, [u8; 64])> {
    let mut dist = [[FAR; 64]; FORMS];
    dist[0][from.index()] = 0;
    let mut frontier = vec![(0usize, from)];
    let mut d = 0;
    while !frontier.is_empty() && d < cap {
        d += 1;
        let mut next = Vec::new();
        for &(form, sq) in &frontier {
            steps(
                scene,
                form_role(role, form),
                form,
                sq,
                |form2, t, checking, _| {
                    if dist[form2][t.index()] == FAR {
                        dist[form2][t.index()] = d;
                        // A pawn or knight checking stops there (the last move).
                        if !checking {
                            next.push((form2, t));
                        }
                    }
                },
            );
        }
        frontier = next;
    }
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
    let banned = scene.blockers | scene.king.bb();
    match role {
        Role::King => {
            for t in attacks::king(sq) & !scene.king_banned {
                out(form, t, false, true);
            }
        }
        Role::Knight => {
            for t in attacks::knight(sq) & !banned {
                out(form, t, scene.knight_checks.contains(t), true);
            }
        }
        Role::Pawn => {
            let us = scene.us;
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
        slider => {
            // Nothing passes the enemy king either (at the end our lines
            // go through it: the king cannot step back along them).
            for t in attacks::piece(slider, sq, banned) & !banned {
                out(form, t, false, true);
            }
        }
    }
}
