//! Sleep sets: moves the search need not try again after a move that does
//! not touch them.
//!
//! In a turn only our side moves, so most pairs of moves commute: from a
//! node Q, playing b then s reaches the position s then b reaches. Once the
//! child Q+s is decided (searched to "no mate", or pruned by a sound bound,
//! the table or a filter), every line from Q+b that plays s is a line from
//! Q+s in another order, so s *sleeps* below Q+b: it is not generated
//! there, nor below Q+b's children while they leave it alone (the classic
//! partial-order reduction; the table caught these transpositions only
//! after generating and counting them, one node each).
//!
//! When is it sound? Take the actual line Q, y1..yk, s, rest, where s was
//! decided at Q and every yj is [`Sleeper::independent`] of s. Then Q, s,
//! y1..yk, rest is a legal line from Q+s reaching the same positions from
//! its (k+2)-th move on, so a mate on the first is a mate on the second,
//! which Q+s's decision excludes. Moving s to the front step by step needs,
//! at each step (a position R, a move y, R+y and R+s both legal and not in
//! check; R+s no check, as s did not end the turn where it was decided):
//! - s and y touch disjoint squares (from, to and the squares passed): each
//!   is then still a legal move of the piece after the other (neither
//!   lands on, captures on, or blocks the other's squares; a pawn's step
//!   stays free, a pawn's capture keeps its victim), and the two orders
//!   reach the same position (the castling rights, the en passant squares
//!   of the turn and the key are sums over the moves);
//! - R+y+s is neither a check on their king nor on ours. Occupied squares
//!   only block lines and captures only remove enemy attackers, so a new
//!   attack there that neither R+y nor R+s has is a line to a king through
//!   squares one of the moves emptied, from a piece the other moved or
//!   unblocked: a square of y (from or to) and a square of s on the same
//!   ray from that king. Moves with such squares are not independent.
//!
//! King moves (they move the rays), castling (two pieces, and squares that
//! must not be attacked) and en passant (a capture off the destination)
//! are independent of nothing. A move whose child ended the turn (a
//! Scottish check) is never a sleeper: another order need not end there.
//! The search collects no sleepers while it lists every mating line (the
//! other orders are other lines).

use crate::chess::attacks;
use crate::chess::{Bitboard, Move, MoveKind, Position, Role, Square};

/// A decided move with what its independence test needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sleeper {
    mv: Move,
    /// From, to and the squares between.
    touched: Bitboard,
    /// Per king (ours: bits 0-7, theirs: 8-15) the rays (directions) from
    /// it that hold the move's from or to square.
    rays: u32,
}

/// No ray: the squares share no line (or are one square).
const NO_RAY: u8 = 8;

/// Per pair of squares (king, other): the direction (0-7) of the ray from
/// the king that holds the other square, or [`NO_RAY`].
static RAYS: [[u8; 64]; 64] = rays();

const fn rays() -> [[u8; 64]; 64] {
    let mut t = [[NO_RAY; 64]; 64];
    let mut k = 0;
    while k < 64 {
        let mut sq = 0;
        while sq < 64 {
            let df = (sq % 8) as i32 - (k % 8) as i32;
            let dr = (sq / 8) as i32 - (k / 8) as i32;
            if sq != k && (df == 0 || dr == 0 || df == dr || df == -dr) {
                let d = (df.signum() + 1) * 3 + dr.signum() + 1;
                // 0..=8 without the centre (4).
                t[k][sq] = if d > 4 { d - 1 } else { d } as u8;
            }
            sq += 1;
        }
        k += 1;
    }
    t
}

/// The ray bit of `sq` seen from the king on `k` (`shift` 0 or 8).
#[inline]
fn ray_bit(k: Square, sq: Square, shift: u32) -> u32 {
    let d = RAYS[k.index()][sq.index()];
    if d == NO_RAY {
        0
    } else {
        1 << (shift + u32::from(d))
    }
}

impl Sleeper {
    /// `mv` of `pos` as a possible sleeper; `None` for moves independent of
    /// nothing (king moves, castling, en passant).
    #[inline]
    pub(super) fn of(pos: &Position, mv: Move) -> Option<Sleeper> {
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.king_square(us), pos.king_square(us.other()));
        let (from, to) = (mv.from(), mv.to());
        if from == ours || matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant) {
            return None;
        }
        debug_assert!(pos.piece_at(from).is_some_and(|p| p.role != Role::King));
        let mut rays = 0;
        for sq in [from, to] {
            rays |= ray_bit(ours, sq, 0) | ray_bit(theirs, sq, 8);
        }
        Some(Sleeper {
            mv,
            touched: from.bb() | to.bb() | attacks::between(from, to),
            rays,
        })
    }

    /// Do the two moves commute in every position of a line that keeps the
    /// kings where they are (see the module text)?
    #[inline]
    pub(super) fn independent(&self, other: &Sleeper) -> bool {
        (self.touched & other.touched).is_empty() && self.rays & other.rays == 0
    }
}

/// The moves asleep at one node of the search.
#[derive(Debug)]
pub(super) struct SleepSet {
    moves: Vec<Sleeper>,
    /// Their from squares...
    from: Bitboard,
    /// ...and per from square their destinations: a quick membership test.
    to: [Bitboard; 64],
}

impl Default for SleepSet {
    fn default() -> Self {
        SleepSet {
            moves: Vec::new(),
            from: Bitboard::EMPTY,
            to: [Bitboard::EMPTY; 64],
        }
    }
}

impl SleepSet {
    pub(super) fn clear(&mut self) {
        for sq in self.from {
            self.to[sq.index()] = Bitboard::EMPTY;
        }
        self.moves.clear();
        self.from = Bitboard::EMPTY;
    }

    fn push(&mut self, s: Sleeper) {
        self.from |= s.mv.from().bb();
        self.to[s.mv.from().index()] |= s.mv.to().bb();
        self.moves.push(s);
    }

    /// Is `mv` asleep here?
    #[inline]
    pub(super) fn contains(&self, mv: Move) -> bool {
        self.to[mv.from().index()].contains(mv.to())
            // (A promotion shares its squares with the other promotions.)
            && (!matches!(mv.kind(), MoveKind::Promotion(_)) || self.moves.iter().any(|s| s.mv == mv))
    }

    /// The sleep set below the child after `played` (`None`: a move
    /// independent of nothing) of a node whose own sleep set is `parent`
    /// and whose children `decided` are decided: those independent of it.
    pub(super) fn fill(
        &mut self,
        parent: &SleepSet,
        decided: &[Sleeper],
        played: Option<&Sleeper>,
    ) {
        self.clear();
        let Some(p) = played else { return };
        for s in parent.moves.iter().chain(decided) {
            if s.independent(p) {
                self.push(*s);
            }
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::chess::{CheckInfo, MoveList, Rules, fen, generate_king_safe, legal_moves};
    use crate::mate::search::{Outcome, Searcher};
    use crate::mate::{Budget, MateTable, is_mating_line, shared_for};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn pos(f: &str) -> Position {
        fen::parse(f, Rules::Italian).expect("test FEN")
    }

    fn sleeper(p: &Position, uci: &str) -> Sleeper {
        let mv = legal_moves(p)
            .iter()
            .copied()
            .find(|m| m.to_string() == uci)
            .expect("a legal move");
        Sleeper::of(p, mv).expect("a sleeper")
    }

    #[test]
    fn moves_far_apart_commute_and_moves_on_one_kings_ray_do_not() {
        let p = pos("4k3/8/8/8/8/8/6PP/RN2K2R w - - 0 5");
        // The g- and h-pawns: no shared square or ray.
        assert!(sleeper(&p, "g2g3").independent(&sleeper(&p, "h2h3")));
        // The rook passes the knight's destination.
        assert!(!sleeper(&p, "a1a4").independent(&sleeper(&p, "b1a3")));
        assert!(sleeper(&p, "a1a4").independent(&sleeper(&p, "h2h3")));
        // Rook and knight leave the ray west of our king together.
        assert!(!sleeper(&p, "a1a4").independent(&sleeper(&p, "b1c3")));
        // Our king's rays: the pawn on e3 (north) and the pawn on d2
        // (north-west) are on different ones.
        let q = pos("4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 5");
        assert!(sleeper(&q, "e3e4").independent(&sleeper(&q, "d2d3")));
        // Two blockers of the a5 bishop's diagonal to our king: either may
        // leave it, not both.
        let r = pos("4k3/8/8/b7/8/2N5/3P4/4K3 w - - 0 5");
        assert!(!sleeper(&r, "c3e4").independent(&sleeper(&r, "d2d3")));
        // Their king's ray: the rook comes to the e-file behind the knight
        // that leaves it; together (not alone) they would give check.
        let t = pos("4k3/8/8/4N3/8/8/8/R6K w - - 0 5");
        assert!(!sleeper(&t, "a1e1").independent(&sleeper(&t, "e5c4")));
        assert!(sleeper(&t, "a1b1").independent(&sleeper(&t, "e5c4")));
    }

    #[test]
    fn the_ray_table_follows_the_lines_and_splits_them_at_the_king() {
        for k in Square::all() {
            for sq in Square::all() {
                let on_line = k != sq && attacks::line(k, sq).nonempty();
                assert_eq!(RAYS[k.index()][sq.index()] != NO_RAY, on_line);
                for other in Square::all() {
                    // Two squares are on one ray when one is between the
                    // king and the other (or they are on the same side of
                    // it on one line).
                    let same = on_line
                        && other != k
                        && attacks::line(k, sq).contains(other)
                        && !attacks::between(sq, other).contains(k);
                    assert_eq!(
                        on_line && RAYS[k.index()][sq.index()] == RAYS[k.index()][other.index()],
                        same,
                        "{k:?} {sq:?} {other:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn king_moves_castling_and_en_passant_are_no_sleepers() {
        let p = pos("4k3/8/8/8/8/8/PP4PP/R3K2R w KQ - 0 5");
        let king = legal_moves(&p)
            .iter()
            .copied()
            .filter(|m| m.from() == p.king_square(p.side_to_move()))
            .count();
        assert!(king > 0);
        for mv in legal_moves(&p).iter() {
            let is_king = mv.from() == p.king_square(p.side_to_move());
            assert_eq!(Sleeper::of(&p, *mv).is_none(), is_king, "{mv}");
        }
    }

    /// The turn start `pos` re-posed as a turn of `n` moves (castling and
    /// en passant rights dropped).
    pub(in crate::mate) fn as_turn_of(pos: &Position, n: u32) -> Option<Position> {
        let f = fen::to_fen(pos);
        let fields: Vec<&str> = f.split_whitespace().collect();
        let text = format!("{} {} {} - 0 {n}", fields[0], fields[1], fields[2]);
        fen::parse(&text, pos.rules()).ok()
    }

    /// Positions of random games (any point of a turn), with a turn length
    /// from `ns` where a turn starts.
    fn game_positions(
        rules: Rules,
        seed: u64,
        count: usize,
        ns: std::ops::RangeInclusive<u32>,
    ) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = Position::startpos(rules);
            for _ in 0..60 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if pos.moves_made() == 0 && rng.random_range(0..4) == 0 {
                    out.extend(as_turn_of(&pos, rng.random_range(ns.clone())));
                }
                // Captures and moves towards the enemy king more often:
                // kings out, lines open, as in the games the finder serves.
                let k = pos.king_square(pos.side_to_move().other());
                let pick = (0..3)
                    .map(|_| moves.as_slice()[rng.random_range(0..moves.len())])
                    .min_by_key(|m| {
                        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).abs();
                        d(m.to().file(), k.file()).max(d(m.to().rank(), k.rank()))
                            - 2 * i32::from(pos.piece_at(m.to()).is_some())
                    })
                    .expect("three picks");
                pos.play(pick);
            }
        }
        out
    }

    /// The lemma the sleep sets rest on, on every pair of independent
    /// moves of many positions inside turns: from R with y and s legal and
    /// ending neither the turn nor in check, s is still a legal move after
    /// y, the result is no check on either king, and both orders reach the
    /// same position.
    #[test]
    fn independent_moves_commute_and_give_no_new_check() {
        let mut pairs = 0;
        for (rules, seed) in [(Rules::Italian, 21), (Rules::Scottish, 22)] {
            for root in game_positions(rules, seed, 120, 6..=8) {
                // Positions inside the turn too.
                let mut r = root;
                for depth in 0..4 {
                    let moves = legal_moves(&r);
                    if moves.is_empty() || r.moves_left() < 3 {
                        break;
                    }
                    let checks = CheckInfo::new(&r);
                    let quiet: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| !checks.gives_check(&r, *m))
                        .collect();
                    for &y in &quiet {
                        let Some(sy) = Sleeper::of(&r, y) else {
                            continue;
                        };
                        let mut ry = r.clone();
                        ry.play(y);
                        let mut safe = MoveList::new();
                        generate_king_safe(&ry, &mut safe);
                        let after_y = CheckInfo::new(&ry);
                        for &s in &quiet {
                            let Some(ss) = Sleeper::of(&r, s) else {
                                continue;
                            };
                            if s == y || !ss.independent(&sy) {
                                continue;
                            }
                            pairs += 1;
                            let f = fen::to_fen(&r);
                            assert!(safe.iter().any(|m| *m == s), "{f}: {s} not legal after {y}");
                            assert!(!after_y.gives_check(&ry, s), "{f}: {y} {s} give check");
                            let mut rys = ry.clone();
                            rys.play(s);
                            let mut rs = r.clone();
                            rs.play(s);
                            rs.play(y);
                            assert_eq!(rs.key(), rys.key(), "{f}: {y} {s} and {s} {y} differ");
                        }
                    }
                    let pick = quiet.get(depth % quiet.len().max(1)).copied();
                    match pick {
                        Some(m) => {
                            r.play(m);
                        }
                        None => break,
                    }
                }
            }
        }
        eprintln!("{pairs} independent pairs checked");
        assert!(pairs >= 100_000, "only {pairs} pairs");
    }

    /// The finder with and without sleep sets gives the same verdict on
    /// turns of 4-7 moves from random games (passes and full search, both
    /// rule sets), and every mate line with them is a mate.
    #[test]
    fn sleep_sets_change_no_verdict() {
        let tt = MateTable::new(16);
        let (mut mates, mut nones, mut saved) = (0, 0, 0i64);
        for (rules, seed) in [(Rules::Italian, 23), (Rules::Scottish, 24)] {
            for p in game_positions(rules, seed, 300, 4..=7) {
                let run = |sleepers: bool| {
                    tt.clear();
                    let budget = Budget::nodes(200_000);
                    let shared = shared_for(&budget, &tt);
                    let mut s = Searcher::new(&shared, 0);
                    s.sleepers = sleepers;
                    let o = s.enter_with_passes(&p);
                    s.flush();
                    if o == Outcome::Mate {
                        assert!(
                            is_mating_line(&p, &s.line),
                            "{}: {:?}",
                            fen::to_fen(&p),
                            s.line
                        );
                    }
                    (o, shared.nodes.load(std::sync::atomic::Ordering::Relaxed))
                };
                let (without, n0) = run(false);
                let (with, n1) = run(true);
                if without == Outcome::Aborted || with == Outcome::Aborted {
                    continue;
                }
                assert_eq!(with, without, "{}", fen::to_fen(&p));
                saved += n0 as i64 - n1 as i64;
                match with {
                    Outcome::Mate => mates += 1,
                    _ => nones += 1,
                }
            }
        }
        eprintln!("{mates} mates, {nones} none, {saved} nodes saved");
        assert!(
            mates >= 50 && nones >= 50,
            "only {mates} mates, {nones} none"
        );
    }
}
