//! The last *two* moves of the last turn in bulk ([`Mode::Bulk`]).
//!
//! Both moves are the same side's, so the next-to-last move needs no
//! position of its own: its changes are applied to the piece sets only
//! ([`Board`]), and the last moves after it are counted there by popcount,
//! as the move generator's counter would count them on the made position.
//! Only where a mate is possible at all (some last move could give check)
//! is the next-to-last move made, and the checks tried, as in
//! [`super::last_move_in_bulk`]. Moves that need the position's own
//! bookkeeping (castling, en passant, a Scottish check that ends the turn)
//! are made as before. Proven against the walk that makes every move by the
//! tests below and in `super::tests`.
//!
//! [`Mode::Bulk`]: super::Mode::Bulk

use super::{Tally, Walk, mates_in_bulk};
use crate::chess::attacks;
use crate::chess::bitboard::{Bitboard, Color, Role, Square};
use crate::chess::movegen::{CheckInfo, legal_moves, shift};
use crate::chess::moves::{Move, MoveKind};
use crate::chess::position::{CASTLES, Position};

/// Is this the next-to-last move of the last turn, whose moves and the
/// last moves after them are counted here?
pub(super) fn is_two_node(pos: &Position, turns: u32) -> bool {
    turns == 1 && pos.moves_left() == 2
}

/// The counts of the last two moves from `pos` (a [`is_two_node`]): the
/// same as making every move, as [`Walk::count`] does elsewhere.
pub(super) fn last_two_in_bulk(walk: &mut Walk<'_>, part: u32, pos: &Position) -> Tally {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        return super::stuck(pos);
    }
    // A Scottish check ends the turn (and maybe the game) at once.
    let checks = pos.rules().check_ends_turn().then(|| CheckInfo::new(pos));
    let board = Board::new(pos);
    let mut tally = Tally::default();
    for &mv in moves.iter() {
        let special = matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant)
            || checks.as_ref().is_some_and(|c| c.gives_check(pos, mv));
        if special {
            tally.add(walk.child(part, pos, mv, 1));
            continue;
        }
        let (last_moves, may_check) = board.after(pos, mv).count_last_moves();
        if last_moves == 0 {
            // Stuck in mid-turn (never in check there): a stalemate.
            tally.stalemates = tally.stalemates.saturating_add(1);
            continue;
        }
        tally.sequences = tally.sequences.saturating_add(last_moves);
        if may_check {
            let mut child = pos.clone();
            child.play(mv);
            tally.mates = tally.mates.saturating_add(mates_in_bulk(&child));
        }
    }
    tally
}

/// The flight test of [`super::mates_in_bulk`]: after our checking move,
/// can the enemy king step to a square we do not attack, by a move that
/// gives no check? Such a move is legal under both rule sets (only checks
/// are ever restricted), so the check does not mate. Read off the piece
/// sets, without making the move; `false` proves nothing (the move is then
/// made and the mate asked of the rules core).
pub(super) struct KingEscapes {
    board: Board,
    enemy_king: Square,
}

impl KingEscapes {
    /// For the last moves of `pos`.
    pub(super) fn new(pos: &Position) -> KingEscapes {
        KingEscapes {
            board: Board::new(pos),
            enemy_king: pos.king_square(pos.side_to_move().other()),
        }
    }

    /// Does the enemy king have such an escape after `mv`?
    pub(super) fn after(&self, pos: &Position, mv: Move) -> bool {
        if matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant) {
            return false;
        }
        let king = self.enemy_king;
        let near = attacks::king(king);
        // Usually the king is boxed in by its own pieces.
        if (near & !self.board.them).is_empty() && !near.contains(mv.to()) {
            return false;
        }
        let ours = self.board.after(pos, mv);
        let theirs = ours.flipped();
        let without_king = (ours.own | ours.them) ^ king.bb();
        let our_king = ours.ours(Role::King).lsb();
        let diag = theirs.ours(Role::Bishop) | theirs.ours(Role::Queen);
        let ortho = theirs.ours(Role::Rook) | theirs.ours(Role::Queen);
        (near & !theirs.own).into_iter().any(|flight| {
            // Only a line through the king's old square can open onto ours:
            // the enemy's other pieces gave no check before the king moved.
            let occ = without_king | flight.bb();
            !theirs.attacked(flight, without_king)
                && (attacks::bishop(our_king, occ) & diag).is_empty()
                && (attacks::rook(our_king, occ) & ortho).is_empty()
        })
    }
}

/// The piece sets of a position whose side to move is about to make the
/// last move of its turn (no en passant then, never in check).
#[derive(Clone, Copy)]
struct Board {
    us: Color,
    own: Bitboard,
    them: Bitboard,
    /// By [`Role::index`], both colours.
    roles: [Bitboard; 6],
    castling: u8,
}

impl Board {
    fn new(pos: &Position) -> Board {
        let us = pos.side_to_move();
        Board {
            us,
            own: pos.color_bb(us),
            them: pos.color_bb(us.other()),
            roles: Role::ALL.map(|r| pos.role_bb(r)),
            castling: pos.castling_rights(),
        }
    }

    /// After the ordinary move `mv` (not castling or en passant) of `pos`,
    /// whose sets these are.
    fn after(&self, pos: &Position, mv: Move) -> Board {
        let (from, to) = (mv.from().bb(), mv.to().bb());
        let mut b = *self;
        if let Some(victim) = pos.piece_at(mv.to()) {
            b.them ^= to;
            b.roles[victim.role.index()] ^= to;
        }
        let moving = pos.piece_at(mv.from()).map_or(Role::Pawn, |p| p.role);
        b.own ^= from | to;
        b.roles[moving.index()] ^= from;
        b.roles[pos.role_after(mv).index()] |= to;
        b.castling = pos.castling_after(mv);
        b
    }

    /// The same sets seen by the other side.
    fn flipped(&self) -> Board {
        Board {
            us: self.us.other(),
            own: self.them,
            them: self.own,
            ..*self
        }
    }

    fn ours(&self, role: Role) -> Bitboard {
        self.roles[role.index()] & self.own
    }

    fn theirs(&self, role: Role) -> Bitboard {
        self.roles[role.index()] & self.them
    }

    /// Is `sq` attacked by the opponent with the board occupied by `occ`?
    fn attacked(&self, sq: Square, occ: Bitboard) -> bool {
        let diag = self.theirs(Role::Bishop) | self.theirs(Role::Queen);
        let ortho = self.theirs(Role::Rook) | self.theirs(Role::Queen);
        ((attacks::pawn(self.us, sq) & self.theirs(Role::Pawn))
            | (attacks::knight(sq) & self.theirs(Role::Knight))
            | (attacks::king(sq) & self.theirs(Role::King))
            | (attacks::bishop(sq, occ) & diag)
            | (attacks::rook(sq, occ) & ortho))
            .nonempty()
    }

    /// Pieces that alone stand between `king` and a slider in `diag`
    /// (bishop-wise) or `ortho` (rook-wise).
    fn blockers(king: Square, diag: Bitboard, ortho: Bitboard, occ: Bitboard) -> Bitboard {
        let snipers = (attacks::bishop(king, Bitboard::EMPTY) & diag)
            | (attacks::rook(king, Bitboard::EMPTY) & ortho);
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(king, s) & occ;
            if b.nonempty() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// The number of legal last moves (every move that keeps the king safe:
    /// the last move may check under both rule sets), and whether one of
    /// them may give check (`false` only if none does).
    fn count_last_moves(&self) -> (u64, bool) {
        let own = self.own;
        let occ = own | self.them;
        let ksq = self.ours(Role::King).lsb();
        let enemy_king = self.theirs(Role::King).lsb();
        let mut moves = 0u64;

        // What a check needs: the squares each role checks from, and our
        // pieces whose leaving a line uncovers a check (any move of one is
        // taken as a possible check).
        let (b_ek, r_ek) = (
            attacks::bishop(enemy_king, occ),
            attacks::rook(enemy_king, occ),
        );
        let check_from = |role: Role| match role {
            Role::Knight => attacks::knight(enemy_king),
            Role::Bishop => b_ek,
            Role::Rook => r_ek,
            _ => b_ek | r_ek,
        };
        let diag = self.ours(Role::Bishop) | self.ours(Role::Queen);
        let ortho = self.ours(Role::Rook) | self.ours(Role::Queen);
        let mut may_check = (Self::blockers(enemy_king, diag, ortho, occ) & own).nonempty();

        let occ_without_king = occ ^ ksq.bb();
        for to in attacks::king(ksq) & !own {
            if !self.attacked(to, occ_without_king) {
                moves += 1;
            }
        }

        let their_diag = self.theirs(Role::Bishop) | self.theirs(Role::Queen);
        let their_ortho = self.theirs(Role::Rook) | self.theirs(Role::Queen);
        let pinned = Self::blockers(ksq, their_diag, their_ortho, occ) & own;
        let pin_mask = |from: Square| {
            if pinned.contains(from) {
                attacks::line(ksq, from)
            } else {
                Bitboard::ALL
            }
        };
        for from in self.ours(Role::Knight) & !pinned {
            let dests = attacks::knight(from) & !own;
            moves += u64::from(dests.count());
            may_check |= (dests & check_from(Role::Knight)).nonempty();
        }
        for role in [Role::Bishop, Role::Rook, Role::Queen] {
            for from in self.ours(role) {
                let dests = attacks::piece(role, from, occ) & !own & pin_mask(from);
                moves += u64::from(dests.count());
                may_check |= (dests & check_from(role)).nonempty();
            }
        }

        let (moves_p, check_p) = self.pawn_moves(ksq, pinned, enemy_king);
        moves += moves_p;
        may_check |= check_p;

        for c in CASTLES.iter().filter(|c| self.castling & c.right != 0) {
            if !self.ours(Role::King).contains(c.king_from)
                || (attacks::between(c.king_from, c.rook_from) & occ).nonempty()
            {
                continue;
            }
            let king_path = attacks::between(c.king_from, c.king_to) | c.king_to.bb();
            if king_path.into_iter().any(|sq| self.attacked(sq, occ)) {
                continue;
            }
            moves += 1;
            let after =
                (occ ^ c.king_from.bb() ^ c.rook_from.bb()) | c.king_to.bb() | c.rook_to.bb();
            may_check |= attacks::rook(c.rook_to, after).contains(enemy_king);
        }
        (moves, may_check)
    }

    /// The pawns' moves (each promotion four), and whether one may check
    /// (any promotion is taken as a possible check).
    fn pawn_moves(&self, ksq: Square, pinned: Bitboard, enemy_king: Square) -> (u64, bool) {
        let us = self.us;
        let empty = !(self.own | self.them);
        let pawns = self.ours(Role::Pawn);
        let (up, third_rank) = match us {
            Color::White => (8i8, Bitboard::rank(2)),
            Color::Black => (-8i8, Bitboard::rank(5)),
        };
        let check_from = attacks::pawn(us.other(), enemy_king);
        let last_rank = Bitboard::RANK_1 | Bitboard::RANK_8;
        let tally = |dests: Bitboard| {
            let promotions = dests & last_rank;
            (
                u64::from((dests & !last_rank).count()) + 4 * u64::from(promotions.count()),
                (dests & check_from).nonempty() || promotions.nonempty(),
            )
        };
        let mut moves = 0;
        let mut may_check = false;
        let mut add = |(n, c): (u64, bool)| {
            moves += n;
            may_check |= c;
        };
        let free = pawns & !pinned;
        let single = shift(free, up) & empty;
        add(tally(single));
        add(tally(shift(single & third_rank, up) & empty));
        add(tally(shift(free & !Bitboard::FILE_A, up - 1) & self.them));
        add(tally(shift(free & !Bitboard::FILE_H, up + 1) & self.them));
        for from in pawns & pinned {
            let allowed = attacks::line(ksq, from);
            let one = from.bb().forward(us) & empty;
            add(tally(one & allowed));
            add(tally((one & third_rank).forward(us) & empty & allowed));
            add(tally(attacks::pawn(us, from) & self.them & allowed));
        }
        (moves, may_check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::chess::movegen::{count_legal, generate_checks};
    use crate::chess::moves::MoveList;

    /// The whole count of the last two (and three) moves against the walk
    /// that makes every move ([`Mode::Positions`](super::super::Mode)):
    /// random game positions of both rule sets with two or three moves
    /// left, and hand-built ones with pins, en passant on a two-move turn,
    /// castling, promotions that check, discovered checks, a check to
    /// escape, mates, Italian mates and stalemates.
    #[test]
    fn the_last_two_moves_in_bulk_count_what_every_move_made_counts() {
        use crate::chess::fen::parse;
        use crate::chess::perft::{perft, sequences};
        let hand_built = [
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 2",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2",
            "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6,e6 0 2",
            "r3k2r/pppq1ppp/2n1bn2/2bpp3/2BPP3/2N1BN2/PPPQ1PPP/R3K2R w KQkq - 0 6 4",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 4 2",
            "7k/1P6/8/8/8/8/6p1/K7 w - - 0 2",
            "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 5 3",
            "4k3/8/8/8/8/8/4r3/4K3 w - - 0 2",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 4 2",
            "kr6/8/8/r6R/8/8/8/K7 w - - 0 2",
            "5kr1/8/4P3/8/8/5n2/8/7K w - - 0 2",
            "4k3/b7/8/8/6p1/6n1/6PP/5n1K w - - 0 2",
            "6rk/6pp/8/6N1/8/8/8/R5K1 w - - 0 2",
            "3qk3/8/8/8/8/8/8/R3K2R w KQ - 0 2",
        ];
        let (mut checked, mut mates, mut stalemates) = (0, 0, 0);
        for (seed, rules) in [(31, Rules::Italian), (32, Rules::Scottish)] {
            let mut cases: Vec<Position> = crate::chess::random_game_positions(rules, 40, 6, seed)
                .into_iter()
                .filter(|p| (2..=3).contains(&p.moves_left()))
                .collect();
            cases.extend(hand_built.iter().map(|t| parse(t, rules).unwrap()));
            for pos in cases {
                let exact = perft(&pos, 1).without_positions();
                assert_eq!(sequences(&pos, 1, 1), exact, "{rules} {pos}");
                checked += 1;
                mates += exact.mates;
                stalemates += exact.stalemates;
            }
        }
        assert!(
            checked > 100 && mates > 0 && stalemates > 0,
            "{checked} {mates} {stalemates}"
        );
    }

    /// The flight test never claims an escape from a mate: every check of
    /// last-move positions of random games (both rule sets), made and asked
    /// of the rules core, and the test is not idle (it answers most checks).
    #[test]
    fn a_king_escape_on_the_sets_is_never_a_mate() {
        use crate::chess::status::is_mated;
        let (mut checks_seen, mut escapes, mut mates) = (0, 0, 0);
        for (seed, rules) in [(41, Rules::Italian), (42, Rules::Scottish)] {
            for pos in crate::chess::random_game_positions(rules, 80, 7, seed) {
                if !pos.is_last_move() {
                    continue;
                }
                let test = KingEscapes::new(&pos);
                let mut checks = MoveList::new();
                generate_checks(&pos, &mut checks);
                for &mv in checks.iter() {
                    let mut child = pos.clone();
                    child.play(mv);
                    let mated = is_mated(&child);
                    let escape = test.after(&pos, mv);
                    assert!(!(escape && mated), "{pos} {mv}");
                    checks_seen += 1;
                    escapes += escape as u32;
                    mates += mated as u32;
                }
            }
        }
        assert!(
            checks_seen > 200 && escapes * 2 > checks_seen,
            "{checks_seen} {escapes} {mates}"
        );
    }

    /// The counter on the piece sets against the move generator on the made
    /// position, after every next-to-last move of random game positions
    /// (both rule sets, every turn length): the same number of last moves,
    /// and a check among them only where a possible check is reported.
    #[test]
    fn the_last_moves_counted_on_the_sets_are_the_generators() {
        let (mut compared, mut with_checks) = (0, 0);
        for (seed, rules) in [(21, Rules::Italian), (22, Rules::Scottish)] {
            for mut pos in crate::chess::random_game_positions(rules, 60, 7, seed) {
                if pos.moves_left() < 2 {
                    continue;
                }
                // The same pieces with the next move the next-to-last one.
                while pos.moves_left() > 2 {
                    let Some(&mv) = legal_moves(&pos).iter().find(|m| {
                        let mut p = pos.clone();
                        !p.play(**m).turn_ended
                    }) else {
                        break;
                    };
                    pos.play(mv);
                }
                if pos.moves_left() != 2 {
                    continue;
                }
                let board = Board::new(&pos);
                for &mv in legal_moves(&pos).iter() {
                    if matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant) {
                        continue;
                    }
                    let mut child = pos.clone();
                    if child.play(mv).turn_ended {
                        continue;
                    }
                    let (n, may_check) = board.after(&pos, mv).count_last_moves();
                    assert_eq!(n, count_legal(&child), "{pos} {mv}");
                    let mut checks = MoveList::new();
                    generate_checks(&child, &mut checks);
                    assert!(may_check || checks.is_empty(), "{pos} {mv}");
                    compared += 1;
                    with_checks += !checks.is_empty() as u32;
                }
            }
        }
        assert!(
            compared > 2000 && with_checks > 50,
            "{compared} {with_checks}"
        );
    }
}
