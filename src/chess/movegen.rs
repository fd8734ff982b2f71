//! Legal moves for the next move of the turn.
//!
//! The generator is fully legal in the chess sense (pins and checks are
//! resolved while generating, not by trying moves), then applies the rule
//! set's check restriction: under the Italian rules a move that would give
//! check is removed unless it is the last move of the turn.

use super::attacks;
use super::bitboard::{Bitboard, Color, Role, Square};
use super::moves::{Move, MoveKind, MoveList};
use super::position::{CASTLES, Position, castle_for};

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];

/// Every legal next move.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list
}

/// Fills `list` with every legal next move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    list.clear();
    generate_king_safe(pos, list);
    if !pos.check_allowed() {
        let checks = CheckInfo::new(pos);
        list.retain(|mv| !checks.gives_check(pos, mv));
    }
}

/// Moves that keep the mover's king safe, ignoring the rule set's check
/// restriction (the ordinary chess moves). Used for the Italian mate test.
pub fn generate_king_safe(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    let own = pos.color_bb(us);

    king_moves(pos, ksq, list);
    if checkers.more_than_one() {
        return;
    }
    let target = match checkers.single() {
        Some(checker) => attacks::between(ksq, checker) | checker.bb(),
        None => !own,
    };
    let pinned = pos.blockers_for(ksq, us.other()) & own;
    piece_moves(pos, ksq, pinned, target, list);
    pawn_moves(pos, ksq, pinned, target, list);
    if pos.moves_made() == 0 && pos.ep_squares().nonempty() {
        en_passant_moves(pos, ksq, list);
    }
    if checkers.is_empty() {
        castling_moves(pos, list);
    }
}

/// Does `pos` have any legal next move? (Cheaper callers may stop early; this
/// one simply generates.)
pub fn has_legal_move(pos: &Position) -> bool {
    !legal_moves(pos).is_empty()
}

fn king_moves(pos: &Position, ksq: Square, list: &mut MoveList) {
    let us = pos.side_to_move();
    let occ_without_king = pos.occupied() ^ ksq.bb();
    for to in attacks::king(ksq) & !pos.color_bb(us) {
        if !pos.is_attacked(to, us.other(), occ_without_king) {
            list.push(Move::new(ksq, to, MoveKind::Normal));
        }
    }
}

fn piece_moves(
    pos: &Position,
    ksq: Square,
    pinned: Bitboard,
    target: Bitboard,
    list: &mut MoveList,
) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in pos.pieces(us, role) {
            let mut dests = attacks::piece(role, from, occ) & target;
            if pinned.contains(from) {
                dests &= attacks::line(ksq, from);
            }
            for to in dests {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
        }
    }
}

fn push_pawn_move(from: Square, to: Square, list: &mut MoveList) {
    if to.rank() == 0 || to.rank() == 7 {
        for role in PROMOTIONS {
            list.push(Move::new(from, to, MoveKind::Promotion(role)));
        }
    } else {
        list.push(Move::new(from, to, MoveKind::Normal));
    }
}

fn pawn_moves(
    pos: &Position,
    ksq: Square,
    pinned: Bitboard,
    target: Bitboard,
    list: &mut MoveList,
) {
    let us = pos.side_to_move();
    let them = pos.color_bb(us.other());
    let empty = !pos.occupied();
    let third_rank = Bitboard::rank(if us == Color::White { 2 } else { 5 });
    for from in pos.pieces(us, Role::Pawn) {
        let allowed = if pinned.contains(from) {
            target & attacks::line(ksq, from)
        } else {
            target
        };
        let one = from.bb().forward(us) & empty;
        for to in one & allowed {
            push_pawn_move(from, to, list);
        }
        let two = (one & third_rank).forward(us) & empty & allowed;
        for to in two {
            list.push(Move::new(from, to, MoveKind::DoublePush));
        }
        for to in attacks::pawn(us, from) & them & allowed {
            push_pawn_move(from, to, list);
        }
    }
}

/// En passant on the first move of a turn, possibly against several pawns.
/// Rare enough to check each by replaying the occupancy change.
fn en_passant_moves(pos: &Position, ksq: Square, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = us.other();
    let occ = pos.occupied();
    for target in pos.ep_squares() {
        let victim = Square(target.0 ^ 8);
        if pos
            .piece_at(victim)
            .is_none_or(|p| p.color != them || p.role != Role::Pawn)
        {
            continue;
        }
        for from in attacks::pawn(them, target) & pos.pieces(us, Role::Pawn) {
            let after = (occ ^ from.bb() ^ victim.bb()) | target.bb();
            let attackers = pos.attackers(ksq, them, after) & !victim.bb();
            if attackers.is_empty() {
                list.push(Move::new(from, target, MoveKind::EnPassant));
            }
        }
    }
}

/// The en-passant targets on which a capture is legal in the chess sense
/// (the capturing side's king safe), at the start of a turn.
pub fn en_passant_targets(pos: &Position) -> Bitboard {
    let mut list = MoveList::new();
    let ksq = pos.king_square(pos.side_to_move());
    if pos.moves_made() == 0 && !pos.checkers().more_than_one() {
        en_passant_moves(pos, ksq, &mut list);
    }
    let mut targets = Bitboard::EMPTY;
    for mv in list.iter() {
        targets.set(mv.to());
    }
    targets
}

fn castling_moves(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let rights = pos.castling_rights();
    for c in CASTLES.iter().filter(|c| rights & c.right != 0) {
        if pos
            .piece_at(c.king_from)
            .is_none_or(|p| p.color != us || p.role != Role::King)
        {
            continue;
        }
        let path = attacks::between(c.king_from, c.rook_from);
        if (path & occ).nonempty() {
            continue;
        }
        let king_path = attacks::between(c.king_from, c.king_to) | c.king_to.bb();
        if king_path
            .into_iter()
            .any(|sq| pos.is_attacked(sq, us.other(), occ))
        {
            continue;
        }
        list.push(Move::new(c.king_from, c.king_to, MoveKind::Castle));
    }
}

/// What is needed to tell quickly whether a move gives check.
pub struct CheckInfo {
    enemy_king: Square,
    /// Squares from which each role would attack the enemy king.
    check_squares: [Bitboard; 6],
    /// Our pieces whose leaving a line uncovers a check by our slider.
    discoverers: Bitboard,
}

impl CheckInfo {
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = us.other();
        let eksq = pos.king_square(them);
        let occ = pos.occupied();
        let bishop = attacks::bishop(eksq, occ);
        let rook = attacks::rook(eksq, occ);
        CheckInfo {
            enemy_king: eksq,
            check_squares: [
                attacks::pawn(them, eksq),
                attacks::knight(eksq),
                bishop,
                rook,
                bishop | rook,
                Bitboard::EMPTY,
            ],
            discoverers: pos.blockers_for(eksq, us) & pos.color_bb(us),
        }
    }

    /// Does the legal move `mv` give check?
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        let from = mv.from();
        let to = mv.to();
        if self.discoverers.contains(from) && !attacks::line(from, self.enemy_king).contains(to) {
            return true;
        }
        match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => {
                let role = pos.piece_at(from).map_or(Role::King, |p| p.role);
                self.check_squares[role.index()].contains(to)
            }
            _ => self.gives_check_special(pos, mv),
        }
    }

    /// Promotions, en passant and castling: replay the occupancy change.
    fn gives_check_special(&self, pos: &Position, mv: Move) -> bool {
        let us = pos.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let occ = pos.occupied();
        let sliders = |occ: Bitboard| {
            let rq = pos.pieces(us, Role::Rook) | pos.pieces(us, Role::Queen);
            let bq = pos.pieces(us, Role::Bishop) | pos.pieces(us, Role::Queen);
            (attacks::rook(self.enemy_king, occ) & rq & !from.bb()).nonempty()
                || (attacks::bishop(self.enemy_king, occ) & bq & !from.bb()).nonempty()
        };
        match mv.kind() {
            MoveKind::Promotion(role) => {
                let after = (occ ^ from.bb()) | to.bb();
                attacks::piece(role, to, after).contains(self.enemy_king)
            }
            MoveKind::EnPassant => {
                let after = (occ ^ from.bb() ^ Square(to.0 ^ 8).bb()) | to.bb();
                self.check_squares[Role::Pawn.index()].contains(to) || sliders(after)
            }
            MoveKind::Castle => {
                let c = castle_for(from, to).expect("castling squares");
                let after =
                    (occ ^ c.king_from.bb() ^ c.rook_from.bb()) | c.king_to.bb() | c.rook_to.bb();
                attacks::rook(c.rook_to, after).contains(self.enemy_king)
            }
            _ => false,
        }
    }
}
