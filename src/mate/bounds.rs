//! A sound lower bound on the moves the side to move needs to mate.
//!
//! At the end of a mating turn the enemy king (which does not move during our
//! turn) is in check, and every square next to it is either held by one of
//! its own pieces or attacked by us. Under the Italian rules one more escape
//! is closed: a king step that would uncover a check on our king is not
//! allowed either, so flights where that is possible are excused.
//!
//! Each target square (the king's square and its open flights) must be
//! attacked by one of our pieces at the end. A piece that attacks a target at
//! the end has made at least as many moves as it needs on an empty board to
//! reach a square attacking it (its real path is also a path on the empty
//! board; blockers only make it longer). A piece's moves serve all the targets
//! it covers, and different pieces' moves are different moves, so the turn
//! needs at least
//!     min over assignments of targets to pieces of
//!     sum over pieces of (max over its targets of its distance),
//! less one if we may still castle (castling moves the rook too). Nothing else
//! is assumed: enemy pieces only disappear during our turn (so their squares
//! now are a superset of their squares at the end), and squares our pieces
//! stand on are flights like empty ones.

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Position, Role, Square};
use std::sync::OnceLock;

/// "Cannot": larger than any turn we search.
const FAR: u8 = 100;

/// For each piece role (knight, bishop, rook, queen, king) and squares `from`,
/// `target`: the fewest moves on an empty board from `from` to a square that
/// attacks `target` (0 when `from` already attacks it).
struct Reach {
    table: [[[u8; 64]; 64]; 5],
    /// The fewest moves from `from` to stand on a square, same layout.
    dist: [[[u8; 64]; 64]; 5],
}

fn slot(role: Role) -> usize {
    role.index() - 1
}

fn reach() -> &'static Reach {
    static REACH: OnceLock<Box<Reach>> = OnceLock::new();
    REACH.get_or_init(|| {
        let mut r = Box::new(Reach {
            table: [[[FAR; 64]; 64]; 5],
            dist: [[[FAR; 64]; 64]; 5],
        });
        for role in [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            for from in Square::all() {
                // Breadth-first distances on the empty board.
                let mut dist = [FAR; 64];
                dist[from.index()] = 0;
                let mut frontier = from.bb();
                let mut d = 0;
                while frontier.nonempty() {
                    d += 1;
                    let mut next = Bitboard::EMPTY;
                    for s in frontier {
                        for t in attacks::piece(role, s, Bitboard::EMPTY) {
                            if dist[t.index()] == FAR {
                                dist[t.index()] = d;
                                next.set(t);
                            }
                        }
                    }
                    frontier = next;
                }
                r.dist[slot(role)][from.index()] = dist;
                for target in Square::all() {
                    // Attack sets are symmetric for these roles on an empty board.
                    let best = attacks::piece(role, target, Bitboard::EMPTY)
                        .map(|s| dist[s.index()])
                        .min()
                        .unwrap_or(FAR);
                    r.table[slot(role)][from.index()][target.index()] = best;
                }
            }
        }
        r
    })
}

/// Fewest moves of our pawn on `from` to stand on `to` as a pawn: one rank
/// a move, a file change costs a capture, and one double step from the
/// second rank while going straight.
fn pawn_steps(us: Color, from: Square, to: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    let ranks = to.relative_rank(us) as i32 - rank;
    let files = (to.file() as i32 - from.file() as i32).abs();
    if ranks < 0 || files > ranks || to.relative_rank(us) == 7 {
        return FAR;
    }
    let straight = ranks - files;
    let double = i32::from(rank == 1 && straight >= 2);
    (ranks - double) as u8
}

/// Moves of our pawn on `from` up to and including its promotion.
fn promotion_steps(us: Color, from: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    (7 - rank - i32::from(rank == 1)) as u8
}

/// Fewest moves of our pawn on `from` before it attacks `target`, as a pawn
/// or after promoting (a lower bound).
fn pawn_reach(us: Color, from: Square, target: Square) -> u8 {
    let direct = attacks::pawn(us.other(), target)
        .map(|s| pawn_steps(us, from, s))
        .min()
        .unwrap_or(FAR);
    direct.min(promotion_steps(us, from))
}

/// Flights that a king step may not take under the Italian rules because the
/// step could uncover a check on our king (a lower-bound relaxation: we only
/// ask whether our king could stand behind the enemy king on the line of an
/// enemy slider by the end of the turn).
fn excused_flights(pos: &Position, us: Color, eksq: Square, moves: u32) -> Bitboard {
    let them = us.other();
    let ours = pos.king_square(us);
    let castle_bonus =
        u32::from(pos.castling_rights() & if us == Color::White { 3 } else { 12 } != 0);
    let radius = moves + castle_bonus;
    let rq = pos.pieces(them, Role::Rook) | pos.pieces(them, Role::Queen);
    let bq = pos.pieces(them, Role::Bishop) | pos.pieces(them, Role::Queen);
    let sliders =
        (attacks::rook(eksq, Bitboard::EMPTY) & rq) | (attacks::bishop(eksq, Bitboard::EMPTY) & bq);
    let mut excused = Bitboard::EMPTY;
    for s in sliders {
        let line = attacks::line(s, eksq);
        let behind = line
            .into_iter()
            .any(|r| attacks::between(s, r).contains(eksq) && chebyshev(ours, r) <= radius);
        if behind {
            excused |= attacks::king(eksq) & !line;
        }
    }
    excused
}

#[inline]
fn chebyshev(a: Square, b: Square) -> u32 {
    let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    df.max(dr)
}

/// Can the side to move possibly mate within `moves` moves? `false` is a
/// proof that it cannot; `true` means only that this bound does not exclude it.
pub fn may_mate(pos: &Position, moves: u32) -> bool {
    lower_bound(pos, moves) <= moves
}

/// A lower bound on the moves needed to mate (see the module text); values
/// above `cap` are reported as `cap + 1`.
pub fn lower_bound(pos: &Position, cap: u32) -> u32 {
    let us = pos.side_to_move();
    let them = us.other();
    let eksq = pos.king_square(them);
    let cap8 = cap.min(FAR as u32 - 1) as u8;
    let mut flights = attacks::king(eksq) & !pos.color_bb(them);
    let first_move_may_check = pos
        .rules()
        .check_allowed(0, pos.rules().next_turn_length(pos.turn_length()));
    if !first_move_may_check {
        flights &= !excused_flights(pos, us, eksq, cap);
    }
    // Targets: bit 0 is the king's square, then the open flights.
    let mut targets = [Square(0); 9];
    targets[0] = eksq;
    let mut count = 1;
    for f in flights {
        targets[count] = f;
        count += 1;
    }
    let full: u16 = (1 << count) - 1;
    let r = reach();

    // For each piece: the set it covers at each cost 0..=cap (monotone).
    let castling_slack =
        u32::from(pos.castling_rights() & if us == Color::White { 3 } else { 12 } != 0);
    let mut movers = [(Square(0), Role::Pawn); 16];
    let max_level = cap8.min(7) as usize;
    let mut pieces = 0;
    let mut free: u16 = 0;
    let mut reachable: u16 = 0;
    for from in pos.color_bb(us) {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let mut cover = [0u16; 8];
        for (i, &t) in targets[..count].iter().enumerate() {
            let d = match piece.role {
                Role::Pawn => pawn_reach(us, from, t),
                // Our king never gives check.
                Role::King if i == 0 => FAR,
                // Castling moves the king two squares with one move.
                Role::King => r.table[slot(Role::King)][from.index()][t.index()]
                    .saturating_sub(castling_slack as u8),
                role => r.table[slot(role)][from.index()][t.index()],
            };
            // Costs above 7 count as 7 (a smaller bound, still sound).
            if u32::from(d) <= cap {
                let level = (d as usize).min(max_level);
                for c in cover[level..=max_level].iter_mut() {
                    *c |= 1 << i;
                }
            }
        }
        free |= cover[0];
        reachable |= cover[max_level];
        if cover[max_level] & !cover[0] != 0 {
            movers[pieces] = (from, piece.role);
            pieces += 1;
        }
    }
    if reachable != full {
        return cap + 1;
    }
    let need = full & !free;
    if need == 0 {
        return 0;
    }
    // Castling moves king and rook with one move, so the per-piece counts may
    // exceed the moves made by one.
    let budget = (cap + castling_slack).min(FAR as u32 - 1) as u8;
    // Each piece ends on one square and covers what it attacks from there
    // (on an empty board): its options are (targets covered, moves to get
    // there). The minimum total over one option per piece, by dynamic
    // programming on the targets still needed, packed into the low bits.
    let packed = |set: Bitboard| -> usize {
        let mut out = 0;
        let mut bit = 0;
        for (i, &t) in targets[..count].iter().enumerate() {
            if need & (1 << i) != 0 {
                if set.contains(t) {
                    out |= 1 << bit;
                }
                bit += 1;
            }
        }
        out
    };
    let need_bb: Bitboard = targets[..count]
        .iter()
        .enumerate()
        .filter(|(i, _)| need & (1 << i) != 0)
        .fold(Bitboard::EMPTY, |b, (_, &t)| b | t.bb());
    let width = need.count_ones();
    let all = (1usize << width) - 1;
    let mut best = [u8::MAX; 512];
    best[0] = 0;
    for &(from, role) in movers[..pieces].iter() {
        let mut options: [(usize, u8); 64] = [(0, 0); 64];
        let mut n_options = 0;
        let mut add = |mask: usize, cost: u8| {
            if mask == 0 || cost > budget {
                return;
            }
            match options[..n_options].iter_mut().find(|o| o.0 == mask) {
                Some(o) => o.1 = o.1.min(cost),
                None => {
                    options[n_options] = (mask, cost);
                    n_options += 1;
                }
            }
        };
        match role {
            Role::Pawn => {
                let mut squares = Bitboard::EMPTY;
                for t in need_bb {
                    squares |= attacks::pawn(them, t);
                }
                // Nothing of ours can end on the enemy king's square.
                for sq in squares & !eksq.bb() {
                    let cost = pawn_steps(us, from, sq);
                    if cost > 0 {
                        add(packed(attacks::pawn(us, sq)), cost);
                    }
                }
                // A promoted piece may cover anything (a weaker but sound option).
                add(all, promotion_steps(us, from));
            }
            _ => {
                let mut squares = Bitboard::EMPTY;
                for t in need_bb {
                    squares |= attacks::piece(role, t, Bitboard::EMPTY);
                }
                if role == Role::King {
                    // Our king cannot end next to the enemy king.
                    squares &= !attacks::king(eksq);
                }
                let dist = &r.dist[slot(role)][from.index()];
                for sq in squares & !eksq.bb() {
                    let mut cost = dist[sq.index()];
                    if role == Role::King {
                        cost = cost.saturating_sub(castling_slack as u8);
                    }
                    if sq != from && cost > 0 {
                        add(
                            packed(attacks::piece(role, sq, Bitboard::EMPTY)),
                            cost.max(1),
                        );
                    }
                }
            }
        }
        let mut next = best;
        for (mask, &base) in best.iter().enumerate().take(all + 1) {
            if base == u8::MAX {
                continue;
            }
            for &(c, k) in &options[..n_options] {
                let cost = base.saturating_add(k);
                let m = mask | c;
                if cost <= budget && cost < next[m] {
                    next[m] = cost;
                }
            }
        }
        best = next;
    }
    match best[all] {
        u8::MAX => cap + 1,
        b => (b as u32).saturating_sub(castling_slack),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    fn pos(f: &str) -> Position {
        fen::parse(f, Rules::Italian).expect("test FEN")
    }

    #[test]
    fn knight_reach_table() {
        let r = reach();
        let a1 = Square(0);
        // A knight on a1 attacks c2 and b3 already.
        assert_eq!(r.table[slot(Role::Knight)][0][Square::new(2, 1).index()], 0);
        // From a1 to attack h8 (attackers g6, f7): a1-b3-c5-e6... needs 3.
        assert!(r.table[slot(Role::Knight)][a1.index()][63] >= 3);
        // A bishop never reaches a square attacking the other colour.
        assert_eq!(r.table[slot(Role::Bishop)][0][1], FAR);
    }

    #[test]
    fn pawn_reach_counts_ranks_files_and_promotion() {
        let e2 = Square::new(4, 1);
        // e2 pawn attacks d3/f3 now.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(3, 2)), 0);
        // To attack e5 it must reach d4 or f4: two moves (one capture), no double step.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(4, 4)), 2);
        // To attack f5 from e2: e4 (double step) covers f5: one move.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(5, 4)), 1);
        // Behind it: only by promotion (5 moves from e2 with the double step).
        assert_eq!(pawn_reach(Color::White, e2, Square::new(4, 0)), 5);
    }

    #[test]
    fn lone_rook_cannot_mate_a_king_in_the_middle() {
        // K+R against a king on g2: eight flights and the check, no way.
        let p = pos("k7/2r5/8/8/8/8/6K1/8 b - - 0 12");
        assert!(!may_mate(&p, 12));
    }

    #[test]
    fn back_rank_mate_is_not_excluded() {
        // Ra1-a8 mates at once.
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(may_mate(&p, 1));
        assert_eq!(lower_bound(&p, 5), 1);
    }

    #[test]
    fn far_pieces_cannot_help_in_time() {
        // Knight on a1 needs several moves to cover anything near h8; with the
        // king free on h8's flights only the knight and king are there.
        let p = pos("7k/8/8/8/8/8/8/N3K3 w - - 0 2");
        assert!(!may_mate(&p, 2));
    }

    #[test]
    fn italian_discovery_excuses_flights() {
        // The black king on e5 stands between its rook on e8 and the e-file
        // below: if our king stands on e1, a king step off the file would
        // uncover check and is not allowed as the first move. Our queen can
        // check from d4-ish; the bound must not count the excused flights.
        let it = pos("4r3/8/8/4k3/8/8/8/3QK3 w - - 0 3");
        let sc = fen::parse("4r3/8/8/4k3/8/8/8/3QK3 w - - 0 3", Rules::Scottish).unwrap();
        assert!(lower_bound(&it, 3) <= lower_bound(&sc, 3));
    }
}
