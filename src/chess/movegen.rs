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

/// Where generated moves go: a [`MoveList`], or a [`MoveCounter`] that only
/// counts them (perft's bulk counting, by popcount, with no per-move work).
pub trait MoveSink {
    fn push(&mut self, mv: Move);

    /// Ordinary moves of the piece on `from` to each square of `dests`.
    #[inline(always)]
    fn push_set(&mut self, from: Square, dests: Bitboard) {
        for to in dests {
            self.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    /// Pawn moves to each square of `dests`, each made by the step `step`
    /// (promoting on the last rank).
    #[inline(always)]
    fn push_pawn_set(&mut self, dests: Bitboard, step: i8, kind: MoveKind) {
        for to in dests & !PROMOTION_RANKS {
            self.push(Move::new(Square((to.0 as i8 - step) as u8), to, kind));
        }
        for to in dests & PROMOTION_RANKS {
            let from = Square((to.0 as i8 - step) as u8);
            for role in PROMOTIONS {
                self.push(Move::new(from, to, MoveKind::Promotion(role)));
            }
        }
    }
}

const PROMOTION_RANKS: Bitboard = Bitboard(Bitboard::RANK_1.0 | Bitboard::RANK_8.0);

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }
}

/// Counts moves instead of listing them.
#[derive(Default)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_set(&mut self, _: Square, dests: Bitboard) {
        self.0 += dests.count() as u64;
    }
    #[inline(always)]
    fn push_pawn_set(&mut self, dests: Bitboard, _: i8, _: MoveKind) {
        self.0 += (dests & !PROMOTION_RANKS).count() as u64
            + 4 * (dests & PROMOTION_RANKS).count() as u64;
    }
}

/// The number of legal next moves (bulk counting where the rules allow it).
pub fn count_legal(pos: &Position) -> u64 {
    if pos.check_allowed() {
        let mut counter = MoveCounter::default();
        generate_king_safe(pos, &mut counter);
        counter.0
    } else {
        legal_moves(pos).len() as u64
    }
}

/// Every legal next move.
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    list
}

/// Fills `list` with every legal next move.
pub fn generate_legal(pos: &Position, list: &mut MoveList) {
    list.clear();
    if pos.check_allowed() {
        generate_king_safe(pos, list);
    } else {
        let checks = CheckInfo::new(pos);
        let mut sink = ByCheck::<false> {
            pos,
            checks: &checks,
            list,
        };
        generate_king_safe(pos, &mut sink);
    }
}

/// Moves that keep the mover's king safe, ignoring the rule set's check
/// restriction (the ordinary chess moves). Used for the Italian mate test.
pub fn generate_king_safe<S: MoveSink>(pos: &Position, list: &mut S) {
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

/// Does `pos` have any legal next move? Stops at the first one found: king
/// moves first (the only moves when in double check), then the others. Under
/// the Italian rules a move that gives check counts only on the last move.
pub fn has_legal_move(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    let own = pos.color_bb(us);
    let mut sink = AnyLegal {
        pos,
        restricted: !pos.check_allowed(),
        checks: None,
        found: false,
    };
    king_moves(pos, ksq, &mut sink);
    if sink.found || checkers.more_than_one() {
        return sink.found;
    }
    let target = match checkers.single() {
        Some(checker) => attacks::between(ksq, checker) | checker.bb(),
        None => !own,
    };
    let pinned = pos.blockers_for(ksq, us.other()) & own;
    piece_moves(pos, ksq, pinned, target, &mut sink);
    if sink.found {
        return true;
    }
    pawn_moves(pos, ksq, pinned, target, &mut sink);
    if sink.found {
        return true;
    }
    if pos.moves_made() == 0 && pos.ep_squares().nonempty() {
        en_passant_moves(pos, ksq, &mut sink);
    }
    if checkers.is_empty() && !sink.found {
        castling_moves(pos, &mut sink);
    }
    sink.found
}

/// Records whether any pushed move is legal under the rule set's check
/// restriction (the [`CheckInfo`] is built only when a move needs it).
struct AnyLegal<'a> {
    pos: &'a Position,
    /// Moves that give check are not allowed.
    restricted: bool,
    checks: Option<CheckInfo>,
    found: bool,
}

impl MoveSink for AnyLegal<'_> {
    #[inline]
    fn push(&mut self, mv: Move) {
        if self.found {
            return;
        }
        if !self.restricted {
            self.found = true;
            return;
        }
        let pos = self.pos;
        let checks = self.checks.get_or_insert_with(|| CheckInfo::new(pos));
        if !checks.gives_check(pos, mv) {
            self.found = true;
        }
    }

    #[inline]
    fn push_set(&mut self, from: Square, dests: Bitboard) {
        if self.found || dests.is_empty() {
            return;
        }
        if !self.restricted {
            self.found = true;
            return;
        }
        for to in dests {
            self.push(Move::new(from, to, MoveKind::Normal));
            if self.found {
                return;
            }
        }
    }
}

/// The legal next moves that give check, on the last move of the turn (or
/// any move under the Scottish rules), where giving check is allowed. The
/// generator's own walk, with each piece's destinations cut to the squares
/// that check (or, for a piece on a line to the enemy king, that uncover a
/// check); king steps are generated only for a king that can uncover one.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    debug_assert!(pos.check_allowed());
    list.clear();
    let us = pos.side_to_move();
    let ksq = pos.king_square(us);
    let checkers = pos.checkers();
    let checks = CheckInfo::new(pos);
    let mut sink = ByCheck::<true> {
        pos,
        checks: &checks,
        list,
    };
    if checks.discoverers.contains(ksq) {
        king_moves(pos, ksq, &mut sink);
    }
    if checkers.more_than_one() {
        return;
    }
    let own = pos.color_bb(us);
    let target = match checkers.single() {
        Some(checker) => attacks::between(ksq, checker) | checker.bb(),
        None => !own,
    };
    let pinned = pos.blockers_for(ksq, us.other()) & own;
    piece_moves(pos, ksq, pinned, target, &mut sink);
    pawn_moves(pos, ksq, pinned, target, &mut sink);
    if pos.moves_made() == 0 && pos.ep_squares().nonempty() {
        en_passant_moves(pos, ksq, &mut sink);
    }
    if checkers.is_empty() {
        castling_moves(pos, &mut sink);
    }
}

/// Keeps the pushed moves that give check (`CHECKS`) or those that give
/// none, taking a piece's ordinary moves by square sets: its role's check
/// squares, and off its line to the enemy king if it could uncover one.
struct ByCheck<'a, const CHECKS: bool> {
    pos: &'a Position,
    checks: &'a CheckInfo,
    list: &'a mut MoveList,
}

impl<const CHECKS: bool> MoveSink for ByCheck<'_, CHECKS> {
    #[inline]
    fn push(&mut self, mv: Move) {
        if self.checks.gives_check(self.pos, mv) == CHECKS {
            self.list.push(mv);
        }
    }

    #[inline]
    fn push_set(&mut self, from: Square, dests: Bitboard) {
        let role = self.pos.piece_at(from).map_or(Role::King, |p| p.role);
        let c = self.checks;
        let mut checking = dests & c.check_squares[role.index()];
        if c.discoverers.contains(from) {
            checking |= dests & !attacks::line(from, c.enemy_king);
        }
        let kept = if CHECKS { checking } else { dests & !checking };
        for to in kept {
            self.list.push(Move::new(from, to, MoveKind::Normal));
        }
    }
}

fn king_moves<S: MoveSink>(pos: &Position, ksq: Square, list: &mut S) {
    let us = pos.side_to_move();
    let occ_without_king = pos.occupied() ^ ksq.bb();
    for to in attacks::king(ksq) & !pos.color_bb(us) {
        if !pos.is_attacked(to, us.other(), occ_without_king) {
            list.push(Move::new(ksq, to, MoveKind::Normal));
        }
    }
}

fn piece_moves<S: MoveSink>(
    pos: &Position,
    ksq: Square,
    pinned: Bitboard,
    target: Bitboard,
    list: &mut S,
) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let own = pos.color_bb(us);
    let queens = pos.pieces(us, Role::Queen);
    // A pinned knight can never move; pinned sliders stay on the pin line.
    for from in pos.pieces(us, Role::Knight) & !pinned {
        list.push_set(from, attacks::knight(from) & target);
    }
    for from in (pos.pieces(us, Role::Bishop) | queens) & own {
        list.push_set(
            from,
            attacks::bishop(from, occ) & target & pin_mask(pinned, ksq, from),
        );
    }
    for from in (pos.pieces(us, Role::Rook) | queens) & own {
        list.push_set(
            from,
            attacks::rook(from, occ) & target & pin_mask(pinned, ksq, from),
        );
    }
}

#[inline(always)]
fn pin_mask(pinned: Bitboard, ksq: Square, from: Square) -> Bitboard {
    if pinned.contains(from) {
        attacks::line(ksq, from)
    } else {
        Bitboard::ALL
    }
}

fn push_pawn_move<S: MoveSink>(from: Square, to: Square, list: &mut S) {
    if to.rank() == 0 || to.rank() == 7 {
        for role in PROMOTIONS {
            list.push(Move::new(from, to, MoveKind::Promotion(role)));
        }
    } else {
        list.push(Move::new(from, to, MoveKind::Normal));
    }
}

/// Shifts a set by `delta` squares (positive: towards h8).
#[inline(always)]
pub(super) fn shift(bb: Bitboard, delta: i8) -> Bitboard {
    if delta >= 0 {
        Bitboard(bb.0 << delta)
    } else {
        Bitboard(bb.0 >> -delta)
    }
}

fn pawn_moves<S: MoveSink>(
    pos: &Position,
    ksq: Square,
    pinned: Bitboard,
    target: Bitboard,
    list: &mut S,
) {
    let us = pos.side_to_move();
    let them = pos.color_bb(us.other());
    let empty = !pos.occupied();
    let pawns = pos.pieces(us, Role::Pawn);
    let (up, third_rank) = match us {
        Color::White => (8i8, Bitboard::rank(2)),
        Color::Black => (-8i8, Bitboard::rank(5)),
    };
    // Unpinned pawns, all at once.
    let free = pawns & !pinned;
    let single = shift(free, up) & empty;
    list.push_pawn_set(single & target, up, MoveKind::Normal);
    let double = shift(single & third_rank, up) & empty & target;
    list.push_pawn_set(double, 2 * up, MoveKind::DoublePush);
    let west = shift(free & !Bitboard::FILE_A, up - 1) & them & target;
    list.push_pawn_set(west, up - 1, MoveKind::Normal);
    let east = shift(free & !Bitboard::FILE_H, up + 1) & them & target;
    list.push_pawn_set(east, up + 1, MoveKind::Normal);
    // Pinned pawns, one by one along their pin lines.
    for from in pawns & pinned {
        let allowed = target & attacks::line(ksq, from);
        let one = from.bb().forward(us) & empty;
        for to in one & allowed {
            push_pawn_move(from, to, list);
        }
        for to in (one & third_rank).forward(us) & empty & allowed {
            list.push(Move::new(from, to, MoveKind::DoublePush));
        }
        for to in attacks::pawn(us, from) & them & allowed {
            push_pawn_move(from, to, list);
        }
    }
}

/// En passant on the first move of a turn, possibly against several pawns.
/// Rare enough to check each by replaying the occupancy change.
fn en_passant_moves<S: MoveSink>(pos: &Position, ksq: Square, list: &mut S) {
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

fn castling_moves<S: MoveSink>(pos: &Position, list: &mut S) {
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
