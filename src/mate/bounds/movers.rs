//! Which sets of our pieces can mate in this turn, by the mating pictures:
//! the restriction of the search's passes to the pictures that fit.
//!
//! A pass of the search ([`Few`](crate::mate::search)) lets at most `limit`
//! of our pieces move. At the end of a mating line of that pass the pieces
//! that moved, a set M of at most `limit` pieces, have set up a mating
//! picture while every other piece stood still; so the pictures' least cost
//! with only M moving (the others covering what they cover from where they
//! stand) is at most the moves of the turn. Such an M *fits*. Every piece
//! set that moves along the line, at every node of it, is a subset of M:
//! a pass may start moving a new piece only while the pieces moved so far,
//! with it, are inside some fitting set of at most `limit` pieces. A pass
//! with no fitting set at all has no mate and is not searched.
//!
//! A set fits under the pictures' relaxations (see [`super::pictures`]), so
//! "no fitting set holds these pieces" is a proof; the full search, which
//! alone decides "no mate", is not restricted.

use super::pictures::{PieceOptions, piece_options};
use crate::chess::{Position, Square};

/// Pieces of ours the sets are kept for (a mask of root pieces is a `u16`).
const MAX_PIECES: usize = 16;
/// The largest pass limit the sets are kept for.
pub(crate) const MAX_LIMIT: u32 = 3;
/// "Cannot".
const FAR: u8 = u8::MAX;
/// No piece of ours at the root.
const NO_ID: u8 = u8::MAX;

/// The fitting sets of one query's root (see the module text).
pub(crate) struct Movers {
    /// Per square: the index of our piece there at the root.
    id: [u8; 64],
    /// Per limit `l` (index `l - 1`): a bit per mask of root pieces, set
    /// when the mask is a subset of a fitting set of at most `l` pieces.
    allowed: [Vec<u64>; MAX_LIMIT as usize],
}

/// One piece's options as a table: per target mask, the fewest moves of an
/// option covering at least that mask, any option (`[1]`) or one that need
/// not be the last mover's (`[0]`).
pub(super) struct Least {
    by_mask: [[u8; 512]; 2],
}

impl Least {
    pub(super) fn of(options: &[(u16, u8, bool)], cap: u8) -> Least {
        Least::of_targets(options, cap, 9)
    }

    /// [`Least::of`] for masks of the first `bits` targets only (the
    /// entries of larger masks are not filled in).
    pub(super) fn of_targets(options: &[(u16, u8, bool)], cap: u8, bits: u32) -> Least {
        let size = 1usize << bits.min(9);
        let mut t = [[FAR; 512]; 2];
        t[0][0] = 0;
        t[1][0] = 0;
        for &(mask, cost, last) in options {
            if cost > cap {
                continue;
            }
            let m = mask as usize;
            t[1][m] = t[1][m].min(cost);
            if !last {
                t[0][m] = t[0][m].min(cost);
            }
        }
        // Superset closure: covering more also covers less. Per bit, each
        // block of masks without it takes the minimum with the block with
        // it, a slice at a time (which the compiler vectorizes).
        for table in &mut t {
            for bit in 0..bits.min(9) {
                let half = 1 << bit;
                for block in table[..size].chunks_exact_mut(2 * half) {
                    let (without, with) = block.split_at_mut(half);
                    for (a, &b) in without.iter_mut().zip(with.iter()) {
                        *a = (*a).min(b);
                    }
                }
            }
        }
        Least { by_mask: t }
    }

    /// The fewest moves covering `need`, the last mover's option allowed
    /// or not.
    #[inline]
    pub(super) fn get(&self, need: u16, last_allowed: bool) -> u8 {
        self.by_mask[usize::from(last_allowed)][need as usize]
    }
}

/// The options worth trying of a piece: within `cap`, not dominated by
/// another (covering at least as much for no more moves, no more bound to
/// be last), and "no option" (covering nothing, free).
fn useful(options: &[(u16, u8, bool)], cap: u8) -> Vec<(u16, u8, bool)> {
    let within: Vec<_> = options.iter().copied().filter(|o| o.1 <= cap).collect();
    let mut out = vec![(0, 0, false)];
    for (i, &(m, c, l)) in within.iter().enumerate() {
        let dominated = within.iter().enumerate().any(|(j, &(m2, c2, l2))| {
            j != i && m2 & m == m && c2 <= c && (!l2 || l) && ((m2, c2, l2) != (m, c, l) || j < i)
        });
        if !dominated {
            out.push((m, c, l));
        }
    }
    out
}

impl Movers {
    /// The fitting sets of `pos`'s turn (with its moves left) for passes of
    /// up to [`MAX_LIMIT`] pieces; `None` where the pictures do not model
    /// the turn or we have more than 16 pieces.
    pub(crate) fn of(pos: &Position) -> Option<Movers> {
        let started = std::time::Instant::now();
        let (full, pieces) = piece_options(pos)?;
        let n = pieces.len();
        if n > MAX_PIECES {
            return None;
        }
        let moves = pos.moves_left();
        let cap = moves.min(200) as u8;
        let mut id = [NO_ID; 64];
        for (i, p) in pieces.iter().enumerate() {
            id[p.from.index()] = i as u8;
        }
        let least: Vec<Least> = pieces.iter().map(|p| Least::of(&p.options, cap)).collect();
        let useful: Vec<_> = pieces.iter().map(|p| useful(&p.options, cap)).collect();
        let mut movers = Movers {
            id,
            allowed: std::array::from_fn(|_| vec![0; 1 << (MAX_PIECES - 6)]),
        };
        let k = (MAX_LIMIT as usize).min(n);
        let mut fitting: Vec<u16> = Vec::new();
        for set in 1u32..(1 << n) {
            let size = set.count_ones() as usize;
            if size > k {
                continue;
            }
            let set = set as u16;
            if fits(&pieces, &least, &useful, full, set, cap) {
                fitting.push(set);
            }
        }
        log::debug!(
            "mate movers: {n} pieces, fitting sets of 1/2/3: {}/{}/{} ({:?})",
            fitting.iter().filter(|s| s.count_ones() == 1).count(),
            fitting.iter().filter(|s| s.count_ones() == 2).count(),
            fitting.iter().filter(|s| s.count_ones() == 3).count(),
            started.elapsed()
        );
        for &set in &fitting {
            let size = set.count_ones();
            // Every subset of `set` (itself included) may move in passes
            // of `size` pieces or more.
            let mut sub = set;
            loop {
                for l in size..=MAX_LIMIT {
                    let bits = &mut movers.allowed[l as usize - 1];
                    bits[usize::from(sub) / 64] |= 1 << (sub % 64);
                }
                if sub == 0 {
                    break;
                }
                sub = (sub - 1) & set;
            }
        }
        Some(movers)
    }

    /// The root index of the piece on `sq` (which has not moved yet).
    #[inline]
    pub(crate) fn id(&self, sq: Square) -> Option<u8> {
        let i = self.id[sq.index()];
        (i != NO_ID).then_some(i)
    }

    /// May the pieces of `ids` (root indices) all move in a pass of `limit`?
    #[inline]
    pub(crate) fn allows(&self, limit: u32, ids: u16) -> bool {
        if limit > MAX_LIMIT || limit == 0 {
            return limit > MAX_LIMIT;
        }
        self.allowed[limit as usize - 1][usize::from(ids) / 64] & (1 << (ids % 64)) != 0
    }

    /// Can a pass of `limit` pieces mate at all?
    pub(crate) fn any(&self, limit: u32) -> bool {
        self.allows(limit, 0)
    }
}

/// Does some picture with only the pieces of `set` moving (the others
/// covering what they cover where they stand) cost at most `cap`? `set`
/// has at most three pieces.
fn fits(
    pieces: &[PieceOptions],
    least: &[Least],
    useful: &[Vec<(u16, u8, bool)>],
    full: u16,
    set: u16,
    cap: u8,
) -> bool {
    let mut still = 0;
    let mut members = [0usize; MAX_LIMIT as usize];
    let mut m = 0;
    for (i, p) in pieces.iter().enumerate() {
        if set & (1 << i) == 0 {
            still |= p.stay;
        } else {
            members[m] = i;
            m += 1;
        }
    }
    let need = full & !still;
    match &members[..m] {
        [a] => least[*a].get(need, true) <= cap,
        [a, b] => useful[*a].iter().any(|&(ma, ca, la)| {
            u32::from(ca) + u32::from(least[*b].get(need & !ma, !la)) <= u32::from(cap)
        }),
        [a, b, c] => useful[*a].iter().any(|&(ma, ca, la)| {
            useful[*b].iter().any(|&(mb, cb, lb)| {
                if la && lb {
                    return false;
                }
                let spent = u32::from(ca) + u32::from(cb);
                spent <= u32::from(cap)
                    && spent + u32::from(least[*c].get(need & !ma & !mb, !(la || lb)))
                        <= u32::from(cap)
            })
        }),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::pictures::tests::sparse_positions;
    use super::*;
    use crate::chess::status::mating_lines;
    use crate::chess::{Rules, fen};
    use crate::mate::search::{Outcome, Searcher};
    use crate::mate::{Budget, MateTable, shared_for};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    fn pos(f: &str) -> Position {
        fen::parse(f, Rules::Italian).expect("test FEN")
    }

    /// The root indices of the pieces that move along `line` from `pos`.
    fn moved_ids(pos: &Position, movers: &Movers, line: &[crate::chess::Move]) -> u16 {
        // Per square: the root index of our piece standing there now.
        let mut at = [NO_ID; 64];
        for sq in pos.color_bb(pos.side_to_move()) {
            at[sq.index()] = movers.id(sq).expect("a root piece");
        }
        let mut ids = 0;
        for mv in line {
            let i = at[mv.from().index()];
            assert_ne!(i, NO_ID, "a move of no piece of ours");
            ids |= 1 << i;
            at[mv.from().index()] = NO_ID;
            at[mv.to().index()] = i;
        }
        ids
    }

    /// The table is its definition: per target mask and per "last mover's
    /// option allowed", the fewest moves of an option within the cap
    /// covering at least that mask (FAR: none), on random options.
    #[test]
    fn least_is_the_cheapest_option_covering_each_mask() {
        let mut rng = StdRng::seed_from_u64(21);
        for _ in 0..300 {
            let bits = rng.random_range(0..=9u32);
            let cap = rng.random_range(0..12u8);
            let options: Vec<(u16, u8, bool)> = (0..rng.random_range(0..12))
                .map(|_| {
                    let mask = rng.random_range(0..1u16 << bits);
                    (mask, rng.random_range(0..15), rng.random_bool(0.3))
                })
                .collect();
            let least = Least::of_targets(&options, cap, bits);
            for need in 0..1u16 << bits {
                for last_allowed in [false, true] {
                    let expected = options
                        .iter()
                        .filter(|&&(m, c, l)| m & need == need && c <= cap && (last_allowed || !l))
                        .map(|o| o.1)
                        .chain((need == 0).then_some(0))
                        .min()
                        .unwrap_or(FAR);
                    assert_eq!(
                        least.get(need, last_allowed),
                        expected,
                        "{options:?} {need}"
                    );
                }
            }
        }
    }

    /// Brute force: every mating line of short sparse turns (all of them,
    /// no pruning) moves a set of pieces that fits, when it has at most
    /// three pieces; and the fitting sets do exclude some.
    #[test]
    fn every_mating_line_moves_a_fitting_set() {
        let (mut lines, mut excluded) = (0, 0);
        for (rules, seed) in [(Rules::Italian, 11), (Rules::Scottish, 12)] {
            for p in sparse_positions(rules, seed, 250, 7, 3..=4) {
                let Some(m) = Movers::of(&p) else { continue };
                excluded += (1..(1u16 << p.color_bb(p.side_to_move()).count()))
                    .filter(|s| s.count_ones() <= MAX_LIMIT && !m.allows(s.count_ones(), *s))
                    .count();
                mating_lines(&p, |line| {
                    lines += 1;
                    let ids = moved_ids(&p, &m, line);
                    let size = ids.count_ones();
                    assert!(
                        size > MAX_LIMIT || m.allows(size, ids) && m.any(size),
                        "{}: {line:?} moves a set that does not fit",
                        fen::to_fen(&p)
                    );
                    false
                });
            }
        }
        eprintln!("{lines} mating lines, {excluded} piece sets excluded");
        assert!(
            lines >= 200 && excluded >= 1000,
            "only {lines} lines and {excluded} sets excluded"
        );
    }

    /// Each pass restricted to the fitting sets finds a mate exactly when
    /// the unrestricted pass does, on longer turns (searched, not brute
    /// forced), and the restriction closes some passes at once.
    #[test]
    fn restricted_passes_find_the_same_mates() {
        let tt = MateTable::new(16);
        let (mut mates, mut nones, mut closed) = (0, 0, 0);
        for (rules, seed) in [(Rules::Italian, 13), (Rules::Scottish, 14)] {
            for p in sparse_positions(rules, seed, 300, 10, 5..=8) {
                let Some(m) = Movers::of(&p) else { continue };
                for limit in 1..=MAX_LIMIT {
                    closed += usize::from(!m.any(limit));
                    let run = |restricted: bool| {
                        tt.clear();
                        let budget = Budget::nodes(100_000);
                        let shared = shared_for(&budget, &tt);
                        let mut s = Searcher::new(&shared, 0);
                        let o = s.pass(&p, limit, restricted);
                        if o == Outcome::Mate {
                            let mut q = p.clone();
                            for &mv in &s.line {
                                q.play(mv);
                            }
                            assert!(
                                crate::chess::status::is_mated(&q),
                                "a line that does not mate"
                            );
                        }
                        o
                    };
                    let full = run(false);
                    if full == Outcome::Aborted {
                        continue;
                    }
                    let restricted = run(true);
                    assert_eq!(
                        restricted,
                        full,
                        "{} pass {limit}: restricted {restricted:?}, unrestricted {full:?}",
                        fen::to_fen(&p)
                    );
                    if full == Outcome::Mate {
                        mates += 1;
                    } else {
                        nones += 1;
                    }
                }
            }
        }
        eprintln!("{mates} passes with a mate, {nones} without, {closed} closed at once");
        assert!(
            mates >= 100 && nones >= 100 && closed >= 100,
            "only {mates} mates, {nones} nones, {closed} passes closed"
        );
    }

    #[test]
    fn a_lone_piece_cannot_mate_a_king_in_the_open() {
        // Rook, knight, pawn and king against a king on c3 with 11 moves
        // (sermate-public p100): its eight flights need more than one piece.
        let m = Movers::of(&pos("8/8/8/7N/7P/2k5/7K/7R w - - 0 11")).expect("modelled");
        assert!(!m.any(1));
    }
}
