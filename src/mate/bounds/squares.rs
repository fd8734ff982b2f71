//! One square, one piece: the mating pictures with our pieces' end squares.
//!
//! The pictures' cover search ([`super::pictures`]) adds up one end per
//! piece and forgets where each end is, so two of our pieces may end on
//! one square there, and a piece may stand on another's line. Here, for a
//! scene whose cheapest picture fits, the pictures are searched again with
//! every piece's end square: each of our pieces stands on one square at
//! the end, one piece a square (no piece of ours is taken in our turn), so
//! - two pieces never end on one square, and a piece that ends where
//!   another stands now makes that one move (at least one move);
//! - the lines of our sliders at the end stop at our other pieces' end
//!   squares (a guard or checker behind one of ours covers nothing there);
//! - at most one piece checks from a square next to the king or as a pawn
//!   or knight: nothing stands between such a checker and the king, so its
//!   check was never uncovered by another move and is the last move's (a
//!   double check has a slider's check uncovered by the last mover).
//!
//! Each piece's options are its ends per square (the fewest moves per
//! square, role, captured pieces taken and last mover: nothing merged
//! across squares, since an end on another square may be taken), staying
//! where it stands (no move, its square known), or going elsewhere (at
//! least one move; its square unknown, so it blocks no line and takes no
//! square: a relaxation). A branch and bound over the pieces, bounded by
//! the cover search over the pieces still to place (squares and lines
//! relaxed, so a lower bound), and at the leaves the covers redrawn with
//! the end squares as obstacles. The search gives up after [`STEPS`]
//! steps, answering "fits" (proves nothing), so a false "no picture fits"
//! is never the price of the limit.

use super::final_board::{FinalBoard, Mover};
use super::order::Named;
use super::paths::{FAR, Placed, reach_of};
use super::pictures::{PieceWays, Scene};
use crate::chess::attacks;
use crate::chess::{Bitboard, Position, Role, Square};

/// The branch and bound's steps per scene before it gives up. (A scene
/// whose pictures still fit after 20 000 steps mostly has a mate that the
/// search finds faster: sermate-sparse s005 took 10 ms here with 200 000,
/// 2 400 nodes in the search.)
const STEPS: u32 = 20_000;
/// The steps one board asked of the rules core counts for.
const BOARD_STEPS: u32 = 20;
/// Pictures with more pieces placed "elsewhere" are not asked of the
/// rules core (every pair of squares and more: too many boards).
const MAX_AWAY: usize = 2;

/// One option of a piece: where it ends (`None`: somewhere unknown), as
/// what, the targets covered there (lines through our pieces), the
/// captured pieces taken, the moves, and whether it must move last.
#[derive(Clone, Copy, Debug)]
struct Choice {
    sq: Option<Square>,
    role: Role,
    mask: u16,
    visits: u16,
    cost: u8,
    last: bool,
}

/// A piece's choices alike in the targets covered and the last mover's
/// end: the bound on the pieces after it is one per kind.
struct Kind {
    mask: u16,
    last: bool,
    /// Its choices, cheapest first: `Options::choices[start..end]`.
    start: u32,
    end: u32,
}

/// A piece's choices grouped by kind, the kinds by their cheapest.
struct Options {
    kinds: Vec<Kind>,
    choices: Vec<Choice>,
}

impl Options {
    /// `choices` (cheapest first) by kind, each kind's cheapest first.
    fn of(choices: &[Choice]) -> Options {
        // The kind of each (mask, last), in the order first met.
        let mut id = vec![u16::MAX; 2 << 9];
        let slot = |c: &Choice| usize::from(c.mask) << 1 | usize::from(c.last);
        let mut kinds: Vec<Kind> = Vec::new();
        let mut of_choice = Vec::with_capacity(choices.len());
        for c in choices {
            let k = &mut id[slot(c)];
            if *k == u16::MAX {
                *k = kinds.len() as u16;
                kinds.push(Kind {
                    mask: c.mask,
                    last: c.last,
                    start: 0,
                    end: 0,
                });
            }
            kinds[usize::from(*k)].end += 1;
            of_choice.push(*k);
        }
        let mut at = 0;
        for k in &mut kinds {
            (k.start, k.end, at) = (at, at, at + k.end);
        }
        // Placed in order, so each kind's stay cheapest first.
        let mut grouped = choices.to_vec();
        for (c, &k) in choices.iter().zip(&of_choice) {
            let k = &mut kinds[usize::from(k)];
            grouped[k.end as usize] = *c;
            k.end += 1;
        }
        Options {
            kinds,
            choices: grouped,
        }
    }

    fn of_kind(&self, k: &Kind) -> &[Choice] {
        &self.choices[k.start as usize..k.end as usize]
    }
}

/// Does a picture of `scene` fit in `moves` with one piece a square and
/// our lines stopped by our pieces (or did the search give up)? False is a
/// proof that no picture of the scene fits.
/// Pictures that name a whole board that mates are kept in `named` (and
/// count as not fitting here: the order of the moves decides them).
pub(super) fn placed_picture_fits(
    pos: &Position,
    scene: &Scene,
    moves: u32,
    pieces: Vec<PieceWays>,
    named: &mut Named,
) -> bool {
    placed_steps(pos, scene, moves, pieces, named).0
}

/// [`placed_picture_fits`] and the steps it took.
fn placed_steps(
    pos: &Position,
    scene: &Scene,
    moves: u32,
    pieces: Vec<PieceWays>,
    named: &mut Named,
) -> (bool, u32) {
    let cap = moves.min(200) as u8;
    let mut both: Vec<_> = pieces
        .into_iter()
        .map(|p| (choices(p.role, p.from, p.placed), (p.role, p.from)))
        .collect();
    both.sort_by_key(|b| b.0.len());
    let (pieces, froms): (Vec<_>, Vec<_>) = both.into_iter().unzip();
    // Where each piece may stand before the turn's last move: on its ways
    // within one move less than the turn.
    let movers: Vec<Mover> = froms
        .iter()
        .map(|&(role, from)| Mover {
            prev: squares_within(scene, role, from, cap.saturating_sub(1)),
            pawn: role == Role::Pawn,
        })
        .collect();
    let full = scene.full();
    let all = ((1u32 << scene.captured) - 1) as u16;
    // rest[i]: the least cost of the pieces from i on covering at least
    // each mask, with (1) or without (0) a last mover's end allowed.
    let mut rest = vec![[[FAR; 512]; 2]; pieces.len() + 1];
    // (No piece left: only the empty need is met, for nothing.)
    rest[pieces.len()][0][0] = 0;
    rest[pieces.len()][1][0] = 0;
    let options: Vec<Options> = pieces.iter().map(|p| Options::of(p)).collect();
    let mut takes = vec![0u16; pieces.len() + 1];
    for i in (0..pieces.len()).rev() {
        // (The search asks the bound of the pieces after the one it
        // places, so never `rest[0]`.)
        if i > 0 {
            rest[i] = suffix(&options[i], &rest[i + 1], full);
        }
        takes[i] = takes[i + 1] | pieces[i].iter().fold(0, |v, c| v | c.visits);
    }
    let mut dfs = Dfs {
        scene,
        pieces: &options,
        rest: &rest,
        takes: &takes,
        full,
        all,
        cap,
        steps: 0,
        chosen: Vec::with_capacity(pieces.len()),
        contacts: 0,
        board: FinalBoard::of(pos, scene),
        froms: &froms,
        movers: &movers,
        placed_of: Vec::with_capacity(froms.len()),
        away: Vec::new(),
        named,
    };
    let fit = dfs.fits(0, false, 0, 0, 0, Bitboard::EMPTY);
    (fit, dfs.steps)
}

/// The squares of `dist` (fewest moves per square) within `within` moves.
fn below(dist: &[u8; 64], within: u8) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (s, &d) in dist.iter().enumerate() {
        if d <= within {
            out.set(Square(s as u8));
        }
    }
    out
}

/// The squares our `role` on `from` may stand on within `within` moves
/// of its ways, in any role.
fn squares_within(scene: &Scene, role: Role, from: Square, within: u8) -> Bitboard {
    reach_of(scene, role, from, within)
        .iter()
        .fold(Bitboard::EMPTY, |b, (_, dist)| b | below(dist, within))
}

/// The options of our `role` on `from` with the ends `placed` of its ways
/// ([`square_ends`](super::paths::square_ends): none beaten on its own
/// square), cheapest first.
fn choices(role: Role, from: Square, placed: Vec<Placed>) -> Vec<Choice> {
    let mut out: Vec<Choice> = placed
        .into_iter()
        .map(|p| Choice {
            sq: Some(p.sq),
            role: p.role,
            mask: p.end.mask,
            visits: p.end.visits,
            cost: p.end.cost,
            last: p.end.last,
        })
        .collect();
    // Staying (if it covers nothing it is not among the ends) and going
    // anywhere else.
    let stays = out.iter().any(|c| c.sq == Some(from) && c.cost == 0);
    if !stays {
        out.push(Choice {
            sq: Some(from),
            role,
            mask: 0,
            visits: 0,
            cost: 0,
            last: false,
        });
    }
    out.push(Choice {
        sq: None,
        role,
        mask: 0,
        visits: 0,
        cost: 1,
        last: false,
    });
    out.sort_by_key(|c| c.cost);
    out
}

/// The least-cost table of one more piece with `options` before the
/// pieces of `after` (see `rest` in [`placed_picture_fits`]).
fn suffix(options: &Options, after: &[[u8; 512]; 2], full: u16) -> [[u8; 512]; 2] {
    // The cheapest option per (targets, last mover) is all that counts.
    let mut kinds: Vec<(u16, bool, u8)> = options
        .kinds
        .iter()
        .map(|k| (k.mask, k.last, options.of_kind(k)[0].cost))
        .collect();
    // Beaten kinds (another covers as much at most as dear, not the last
    // mover's unless this one is) never give the least: dropped, since
    // the table costs a pass over the kinds per mask.
    kinds.sort_unstable_by_key(|k| (k.2, k.1, !k.0));
    let mut kept: Vec<(u16, bool, u8)> = Vec::with_capacity(kinds.len());
    for k in kinds {
        if !kept.iter().any(|b| b.0 & k.0 == k.0 && (!b.1 || k.1)) {
            kept.push(k);
        }
    }
    let kinds = kept;
    let mut out = [[FAR; 512]; 2];
    let mut need = full;
    loop {
        for (allowed, row) in out.iter_mut().enumerate() {
            let mut best = FAR;
            for &(mask, last, cost) in &kinds {
                if cost >= best {
                    break; // (cheapest first: so is every kind after it)
                }
                if last && allowed == 0 {
                    continue;
                }
                let more = if last { 0 } else { allowed };
                best = best.min(cost.saturating_add(after[more][usize::from(need & !mask)]));
            }
            row[usize::from(need)] = best;
        }
        if need == 0 {
            break;
        }
        need = (need - 1) & full;
    }
    out
}

/// The branch and bound of [`placed_picture_fits`].
struct Dfs<'a> {
    scene: &'a Scene,
    /// Each piece's choices by kind.
    pieces: &'a [Options],
    rest: &'a [[[u8; 512]; 2]],
    takes: &'a [u16],
    full: u16,
    all: u16,
    cap: u8,
    steps: u32,
    /// The placed pieces' (role, end square) so far.
    chosen: Vec<(Role, Square)>,
    /// How many of them check from next to the king or as a pawn or
    /// knight (see [`Dfs::contact`]).
    contacts: u32,
    /// The board without our pieces, where the scene names every enemy
    /// piece: a picture placing all our pieces is asked of the rules core.
    board: Option<FinalBoard>,
    /// Each piece's role and square now (as `pieces`).
    froms: &'a [(Role, Square)],
    /// Each piece's squares before the last move (as `pieces`).
    movers: &'a [Mover],
    /// The pieces of `chosen` (indices of `pieces`).
    placed_of: Vec<usize>,
    /// The pieces placed "elsewhere" so far (indices of `pieces`).
    away: Vec<usize>,
    /// The mating boards named so far.
    named: &'a mut Named,
}

impl Dfs<'_> {
    /// Does a picture fit with pieces from `i` on still to place, the last
    /// mover's end used (`last`), the targets `mask` covered and the
    /// captured pieces `visits` taken for `cost` moves, our pieces standing
    /// on `used`?
    fn fits(
        &mut self,
        i: usize,
        last: bool,
        mask: u16,
        visits: u16,
        cost: u8,
        used: Bitboard,
    ) -> bool {
        self.steps += 1;
        if self.steps > STEPS {
            return true;
        }
        if i == self.pieces.len() {
            return visits == self.all && self.covers(used) && self.mates(cost);
        }
        let pieces = self.pieces;
        for kind in &pieces[i].kinds {
            if kind.last && last {
                continue;
            }
            // The moves this kind's choices may cost, the pieces after it
            // covering the rest.
            let need = usize::from(self.full & !(mask | kind.mask));
            let bound = self.rest[i + 1][usize::from(!(last || kind.last))][need];
            let Some(room) = self.cap.checked_sub(cost.saturating_add(bound)) else {
                continue;
            };
            for c in pieces[i].of_kind(kind) {
                if c.cost > room {
                    break;
                }
                if self.try_choice(i, c, (last, mask, visits, cost, used)) {
                    return true;
                }
            }
        }
        false
    }

    /// [`Self::fits`] with `c` chosen for piece `i` (as a contact checker
    /// or not, where both may be) after the choices `before` (`last`,
    /// `mask`, `visits`, `cost`, `used`).
    fn try_choice(&mut self, i: usize, c: &Choice, before: (bool, u16, u16, u8, Bitboard)) -> bool {
        let used = before.4;
        if let Some(sq) = c.sq
            && used.contains(sq)
        {
            return false;
        }
        let contact = c.sq.is_some_and(|sq| self.contact(c.role, sq, c.mask));
        // A queen made by promotion stands for a rook or bishop too:
        // next to the king and not on its line (a rook on a diagonal,
        // a bishop on a rank or file), that one covers flights without
        // checking, so is no contact checker.
        let promoted = c.role == Role::Queen && self.froms[i].0 == Role::Pawn;
        let mut ways = [(contact, c.mask), (false, 0)];
        let n_ways = match c.sq {
            Some(sq) if contact && promoted => {
                let beside = attacks::rook(self.scene.king, Bitboard::EMPTY).contains(sq);
                let other = if beside { Role::Bishop } else { Role::Rook };
                ways[1].1 = self.scene.cover(other, sq) & c.mask & !1;
                2
            }
            _ => 1,
        };
        for &(contact, c_mask) in &ways[..n_ways] {
            if contact && self.contacts > 0 {
                continue;
            }
            if self.fits_with(i, c, contact, c_mask, before) {
                return true;
            }
        }
        false
    }

    /// [`Self::fits`] with `c` chosen for piece `i`, covering `c_mask`, a
    /// contact checker or not, after the choices `before` (`last`, `mask`,
    /// `visits`, `cost`, `used`).
    fn fits_with(
        &mut self,
        i: usize,
        c: &Choice,
        contact: bool,
        c_mask: u16,
        before: (bool, u16, u16, u8, Bitboard),
    ) -> bool {
        let (last, mask, visits, cost, used) = before;
        let cost2 = cost.saturating_add(c.cost);
        let (last2, mask2, visits2) = (last || c.last, mask | c_mask, visits | c.visits);
        let need = usize::from(self.full & !mask2);
        let bound = self.rest[i + 1][usize::from(!last2)][need];
        if cost2.saturating_add(bound) > self.cap || self.all & !visits2 & !self.takes[i + 1] != 0 {
            return false;
        }
        let mut used2 = used;
        match c.sq {
            Some(sq) => {
                used2.set(sq);
                self.chosen.push((c.role, sq));
                self.placed_of.push(i);
            }
            None => self.away.push(i),
        }
        self.contacts += u32::from(contact);
        let fit = self.fits(i + 1, last2, mask2, visits2, cost2, used2);
        self.contacts -= u32::from(contact);
        if c.sq.is_some() {
            self.chosen.pop();
            self.placed_of.pop();
        } else {
            self.away.pop();
        }
        fit
    }

    /// Does our `role` on `sq` (covering `mask`) check the enemy king from
    /// a square next to it or by a pawn's or knight's attack? Nothing can
    /// stand between, so such a check was never uncovered: it is the last
    /// move's, and a turn has one last move.
    fn contact(&self, role: Role, sq: Square, mask: u16) -> bool {
        let checks = mask & 1 == 1;
        match role {
            Role::Pawn | Role::Knight => checks,
            Role::King => false,
            _ => checks && attacks::king(self.scene.king).contains(sq),
        }
    }

    /// Is the enemy mated on the board of the picture, where the picture
    /// names the whole board but for at most one piece placed elsewhere
    /// (every square tried for it)? Else true: nothing known.
    fn mates(&mut self, cost: u8) -> bool {
        let Some(board) = &self.board else {
            return true;
        };
        if self.away.len() > MAX_AWAY {
            return true;
        }
        // Each piece elsewhere was counted one move: it ends where its
        // ways reach within one move more than the moves to spare.
        let within = 1 + self.cap - cost;
        let away: Vec<(Vec<(Role, Bitboard)>, Mover)> = self
            .away
            .iter()
            .map(|&i| {
                let (role, from) = self.froms[i];
                let squares = reach_of(self.scene, role, from, within)
                    .into_iter()
                    .map(|(r, dist)| (r, below(&dist, within)))
                    .collect();
                (squares, self.movers[i])
            })
            .collect();
        let placed: Vec<Mover> = self.placed_of.iter().map(|&i| self.movers[i]).collect();
        let budget = (STEPS.saturating_sub(self.steps) / BOARD_STEPS).max(1);
        let (m, asked) = board.mates_with(&self.chosen, &placed, &away, budget, self.named);
        self.steps += asked * BOARD_STEPS;
        m
    }

    /// Do the placed pieces cover every target, their lines stopped by the
    /// kept enemy pieces and by each other?
    fn covers(&self, used: Bitboard) -> bool {
        let occupied = self.scene.blockers | used;
        let mut mask = 0;
        for &(role, sq) in &self.chosen {
            mask |= self.scene.cover_through(role, sq, occupied);
        }
        mask & self.full == self.full
    }
}

#[cfg(test)]
mod tests {
    use super::super::no_mate_by_pictures;
    use super::super::pictures::tests::{check_layer, searched};
    use super::super::pictures::{counted_for_tests, no_picture_fits, pictured_for_tests};
    use crate::chess::status::brute_force_mate;
    use crate::chess::{Position, Rules, fen};
    use crate::mate::MateTable;

    /// The claims the pictures make without our pieces' squares.
    fn unplaced(pos: &Position) -> bool {
        pictured_for_tests(pos) && no_picture_fits(pos, &[]) || counted_for_tests(pos)
    }

    /// The claims only our pieces' end squares make (the pictures without
    /// them fit) are checked by brute force on short turns (4 moves, up to
    /// 10 pieces) and by the search on longer ones (5-8 moves), both rule
    /// sets; the squares never withdraw a claim.
    #[test]
    fn placed_pictures_agree_with_brute_force_and_the_search() {
        let tt = MateTable::new(16);
        let seeds = [(Rules::Italian, 41), (Rules::Scottish, 42)];
        let (brute, n_searched) = check_layer("the squares", unplaced, seeds, 4..=8, &tt);
        eprintln!("{brute} claims by brute force, {n_searched} by the search");
        assert!(
            brute >= 20 && n_searched >= 60,
            "only {brute} and {n_searched} claims checked"
        );
    }

    /// Two knights, a bishop and the king against a king in the corner:
    /// in 4 moves the pictures fit only with two of our pieces on one
    /// square or on each other's lines (brute force: no mate); in 5 moves
    /// (Ng5 Kf4 Kg3 Nh3 Bd5#) a picture fits and the mate is found.
    #[test]
    fn placed_pictures_prune_a_shared_square_but_not_a_mate() {
        let short = fen::parse("8/3N4/8/4K3/4N3/8/B7/7k w - - 0 4", Rules::Italian).expect("fen");
        assert!(!unplaced(&short), "the pictures without squares fit");
        assert!(no_mate_by_pictures(&short), "the squares prove no mate");
        assert!(brute_force_mate(&short).is_none());
        let long = fen::parse("8/3N4/8/4K3/4N3/8/B7/7k w - - 0 5", Rules::Italian).expect("fen");
        assert!(!no_mate_by_pictures(&long), "a mate excluded");
        let tt = MateTable::new(16);
        assert!(matches!(searched(&long, &tt, 1_000_000), Some(Some(_))));
    }

    /// A rook and a pawn against a lone king (sermate-public p045): in 6
    /// moves the only pictures left check twice from next to the king
    /// (Rf5 and a new queen on h5), which no last move does; in 7 moves
    /// the mate (h2 h1=Q Kb4 Kc3 Kd4 Ke5 Rg7#) stays.
    #[test]
    fn placed_pictures_allow_one_contact_check() {
        let tt = MateTable::new(16);
        for (n, mate) in [(6, false), (7, true)] {
            let f = format!("8/5r2/8/k5K1/8/7p/8/8 b - - 0 {n}");
            let pos = fen::parse(&f, Rules::Italian).expect("fen");
            assert!(!unplaced(&pos), "{f}: the pictures without squares fit");
            assert_eq!(no_mate_by_pictures(&pos), !mate, "{f}");
            tt.clear();
            let found = searched(&pos, &tt, 5_000_000).expect("decided");
            assert_eq!(found.is_some(), mate, "{f}");
        }
    }

    /// A queen made by promotion stands for a rook too, which beside the
    /// king on a diagonal covers flights without checking: Kg4 Bf4 d7
    /// d8=R Rd7 Re7 Bg5# ends with the rook on e7 and the bishop's contact
    /// check, a picture the pictures keep. Where the new piece is a queen
    /// or checks, it is the one contact check (sermate-sparse s007, 10
    /// moves: no picture fits, and the search agrees).
    #[test]
    fn a_new_rook_beside_the_king_is_no_contact_check() {
        let tt = MateTable::new(16);
        let rook = fen::parse("8/8/3P1kp1/8/8/2p4K/7B/nr6 w - - 0 7", Rules::Italian).expect("fen");
        assert!(
            !no_mate_by_pictures(&rook),
            "the mate with a new rook excluded"
        );
        assert!(matches!(searched(&rook, &tt, 5_000_000), Some(Some(_))));
        let none = fen::parse(
            "8/1rb2nk1/8/1Pp2bp1/2P5/5rR1/K7/8 w - - 0 10",
            Rules::Italian,
        )
        .expect("fen");
        assert!(no_mate_by_pictures(&none), "s007: a picture fits");
        tt.clear();
        assert_eq!(
            searched(&none, &tt, 20_000_000),
            Some(None),
            "s007 has a mate"
        );
    }
}
