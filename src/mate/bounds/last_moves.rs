//! Last-move filters: near the end of a turn, a cheap test of each move
//! before it is played. [`LastTwo`] asks at the second-last move whether one
//! more move can still complete the mating picture, [`LastOne`] at the last
//! move whether it does; both over-estimate cover on the empty board, so a
//! rejected move never mates.

use super::cache::{BoundCache, CacheEntry};
use super::reach::targets_within;
use super::targets::{Targets, castling_bits, excusing_sliders, opponent_may_check_at_once};
use crate::chess::attacks;
use crate::chess::{
    Bitboard, CASTLES, CastleSquares, Color, Move, MoveKind, Position, Role, Square,
};

/// A quick filter for the second-last move: after it, can one more move
/// complete the mating picture? The same relaxation as [`lower_bound`](super::lower_bound) with
/// one move left, prepared once for a node with two moves left and then
/// asked for each of its moves (only the moved piece changes).
///
/// Sound by construction: the targets are a subset of every child's (the
/// flights only grow as enemy pieces are captured, and the excused flights
/// are taken for the larger radius of two moves), and each piece's cover is
/// over-estimated on the empty board: what a piece attacks now, or could
/// attack after one move (the union of its one-move options).
pub(crate) struct LastTwo {
    /// The targets, and the [`BoundCache`] entry's key for them.
    targets: Targets,
    us: Color,
    /// Per square of ours: targets covered now, and within one move.
    now: [u16; 64],
    within: [u16; 64],
    /// The targets covered now by at least one and by at least two of our
    /// pieces.
    once: u16,
    twice: u16,
    /// The targets covered now by at least three of our pieces (for
    /// [`LastTwo::may_mate_after_two`]).
    thrice: u16,
    ours: Bitboard,
    /// Where the [`BoundCache`] entry for the targets was last found.
    hint: std::cell::Cell<usize>,
    /// For the needed target sets met last (`u16::MAX`: none): our pieces
    /// that cover the whole set from one end square within one move.
    singles: [std::cell::Cell<(u16, Bitboard)>; SINGLES],
    /// The next entry of `singles` to replace.
    next_single: std::cell::Cell<usize>,
    /// [`LastTwo::last_move_reaches`] asks the real board too (false only
    /// to test that it cuts more).
    real_board: bool,
}

/// Entries of [`LastTwo::singles`].
const SINGLES: usize = 4;

impl LastTwo {
    /// Prepares the filter for `pos`, which has two moves left, computing
    /// the pieces' cover itself (the tests compare it with
    /// [`LastTwo::new_cached`], which the finder takes).
    #[cfg(test)]
    pub(crate) fn new(pos: &Position) -> LastTwo {
        LastTwo::prepare(pos, None, 2)
    }

    /// `LastTwo::new` whose last-move test counts the others' cover on the
    /// empty board only.
    #[cfg(test)]
    pub(crate) fn on_empty_board(pos: &Position) -> LastTwo {
        LastTwo {
            real_board: false,
            ..LastTwo::new(pos)
        }
    }

    /// `LastTwo::new` taking the pieces' cover from the levels kept in
    /// `cache` (the same values).
    pub(crate) fn new_cached(pos: &Position, cache: &mut BoundCache) -> LastTwo {
        LastTwo::prepare(pos, Some(cache), 2)
    }

    /// The filter with the flights excused for `moves` moves left.
    fn prepare(pos: &Position, cache: Option<&mut BoundCache>, moves: u32) -> LastTwo {
        let us = pos.side_to_move();
        let mut f = LastTwo {
            targets: Targets::of(pos, moves),
            us,
            now: [0; 64],
            within: [0; 64],
            once: 0,
            twice: 0,
            thrice: 0,
            ours: pos.color_bb(us),
            hint: std::cell::Cell::new(usize::MAX),
            singles: Default::default(),
            next_single: std::cell::Cell::new(0),
            real_board: true,
        };
        for e in &f.singles {
            e.set((u16::MAX, Bitboard::EMPTY));
        }
        let mut entry = cache.map(|c| f.entry(c));
        for from in pos.color_bb(us) {
            if let Some(piece) = pos.piece_at(from) {
                let (n, w) = match entry.as_mut() {
                    Some(e) => {
                        let l = e.within(piece.role, from);
                        (l[0], l[1])
                    }
                    None => f.cover(piece.role, from),
                };
                f.now[from.index()] = n;
                f.within[from.index()] = w;
                f.thrice |= f.twice & n;
                f.twice |= f.once & n;
                f.once |= n;
            }
        }
        f
    }

    /// The [`BoundCache`] entry of the targets.
    #[inline]
    fn entry<'c>(&self, cache: &'c mut BoundCache) -> &'c mut CacheEntry {
        cache.entry_hinted(self.targets.key, self.targets.as_slice(), &self.hint)
    }

    /// The targets a piece covers from `from` now, and now or after one move.
    fn cover(&self, role: Role, from: Square) -> (u16, u16) {
        let slack = self.targets.key.castling_slack;
        let w = targets_within(self.us, slack, self.targets.as_slice(), role, from);
        (w[0], w[1])
    }

    /// In `pos` (the node this filter was made for), after our piece moved
    /// `from`-`to` (becoming `role`; castling is not handled and always
    /// passes), may the last move still mate? (For the tests: the finder
    /// always passes its movable pieces.)
    #[cfg(test)]
    pub(crate) fn may_mate_after(
        &self,
        pos: &Position,
        cache: &mut BoundCache,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
    ) -> bool {
        self.may_mate_after_movable(pos, cache, (from, to), role, castle, Bitboard::ALL)
    }

    /// `LastTwo::may_mate_after` when only the moved piece and our pieces
    /// on `movable` may make the last move (the others stay where they are).
    pub(crate) fn may_mate_after_movable(
        &self,
        pos: &Position,
        cache: &mut BoundCache,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
        movable: Bitboard,
    ) -> bool {
        if castle {
            return true;
        }
        let full = self.targets.full();
        let entry = self.entry(cache);
        let l = entry.within(role, to);
        let (moved_now, moved_within) = (l[0], l[1]);
        // What the others cover now: each target covered by two, or by one
        // other than the moved piece.
        let free = moved_now | self.stood_still(from, None);
        let need = full & !free;
        if need == 0 {
            return true;
        }
        // One piece must cover the rest from one end square, in one move.
        let single = |entry: &mut CacheEntry, role: Role, sq: Square| {
            // (The options are sorted by cost.)
            entry
                .options(role, sq)
                .iter()
                .take_while(|&&(_, c)| c <= 1)
                .any(|&(m, _)| m & need == need)
        };
        if moved_within & need == need && single(entry, role, to) {
            return true;
        }
        // Which of our pieces could do it depends only on `need` (and
        // siblings mostly share it).
        let singles = match self.singles.iter().find(|e| e.get().0 == need) {
            Some(e) => e.get().1,
            None => {
                let mut singles = Bitboard::EMPTY;
                for sq in self.ours {
                    if self.within[sq.index()] & need == need
                        && pos.piece_at(sq).is_some_and(|p| single(entry, p.role, sq))
                    {
                        singles.set(sq);
                    }
                }
                let i = self.next_single.get();
                self.singles[i].set((need, singles));
                self.next_single.set((i + 1) % SINGLES);
                singles
            }
        };
        (singles & movable & !from.bb()).nonempty()
    }

    /// The targets covered here by our pieces other than the one on `x`
    /// and the one on `y` (if any), which move: a target stays covered if
    /// three cover it, two not both of them, or one neither.
    #[inline]
    fn stood_still(&self, x: Square, y: Option<Square>) -> u16 {
        let x_now = self.now[x.index()];
        match y {
            None => self.twice | (self.once & !x_now),
            Some(y) => {
                let y_now = self.now[y.index()];
                self.thrice | (self.twice & !(x_now & y_now)) | (self.once & !(x_now | y_now))
            }
        }
    }

    /// After `mv` passed [`LastTwo::may_mate_after_movable`]: may the last
    /// move still complete the picture as a move on the real board? The
    /// others' cover is taken as there (on the empty board, without the
    /// pieces that moved), but the piece of the last move leaves its square
    /// (it no longer covers from there) and must reach its end square past
    /// the pieces standing after `mv`. In the middlegame most end squares
    /// of the empty board are behind pieces: of the positions with one
    /// move left that the empty-board test let through, most had no check
    /// completing the picture.
    ///
    /// Sound: in a mate after `mv` and a last move of piece P to `d`, every
    /// target is attacked, on the empty board too, by P from `d` or by a
    /// piece that stood still (the counts of [`LastTwo::may_mate_after_two`],
    /// which holds the same); and `d` is a destination of P in the position
    /// after `mv` (a pawn's push onto an empty square, its capture onto an
    /// enemy piece; a promotion's piece covers at most what a queen or a
    /// knight does). Castling as the last move is tested as its king and
    /// rook land (see [`LastMoveBoard::castling_covers`]; a king or rook
    /// that may castle let every move through: sermate p090 and p033,
    /// positions with castling rights, took 329,586 and 317,083 nodes,
    /// now 111,127 and 159,351). Our king moving last must uncover a
    /// check (it passed whenever the others covered the rest on the empty
    /// board). En passant, and castling as the second-last move, always
    /// pass.
    ///
    /// A piece that passes there is asked again on the real board
    /// ([`RealBoard`]): the others' cover through the pieces standing, the
    /// flights as the enemy pieces and our king's square leave them, and a
    /// capture next to the enemy king guarded. Of the moves the empty
    /// board's cover let through on the Italian unknowns, most left a
    /// flight open on the real board (the king escaped or took the checker).
    pub(crate) fn last_move_reaches(
        &self,
        pos: &Position,
        cache: &mut BoundCache,
        mv: Move,
        role: Role,
        movable: Bitboard,
    ) -> bool {
        if matches!(mv.kind(), MoveKind::Castle | MoveKind::EnPassant) {
            return true;
        }
        let (from, to) = (mv.from(), mv.to());
        let full = self.targets.full();
        let own = (self.ours ^ from.bb()) | to.bb();
        let enemy = pos.color_bb(self.us.other()) & !to.bb();
        let board = LastMoveBoard {
            us: self.us,
            king: self.targets.squares[0],
            own,
            enemy,
            ep: pos.ep_squares(),
            castles: pos.castling_after(mv) & castling_bits(self.us),
        };
        // The others' cover on the real board, worked out when a piece
        // passes on the empty board's.
        let real = std::cell::OnceCell::new();
        let real = || real.get_or_init(|| RealBoard::after(pos, board, mv, role));
        let entry = self.entry(cache);
        // The moved piece moves again: the others' cover is this node's
        // without it.
        let need = full & !self.stood_still(from, None);
        if (need == 0 || board.reaches(entry, role, to, need))
            && (!self.real_board || real().last_move_mates(role, to))
        {
            return true;
        }
        // Another piece moves last: neither it nor the moved piece covers
        // from where it stood.
        let moved_now = entry.within(role, to)[0];
        // Castling last: the king and a rook move. The others' cover leaves
        // out the moved piece and the king, not the rook (it is counted
        // from where it stood as well as from where it lands: more than it
        // covers, so the test stays sound).
        for c in CASTLES.iter().filter(|c| board.castles & c.right != 0) {
            if movable.contains(c.king_from) && movable.contains(c.rook_from) {
                let need = full & !(moved_now | self.stood_still(from, Some(c.king_from)));
                if board.castling_covers(entry, c, need)
                    && (!self.real_board || real().castling_checks(c))
                {
                    return true;
                }
            }
        }
        for sq in self.ours & movable & !from.bb() {
            let need = full & !(moved_now | self.stood_still(from, Some(sq)));
            if need != 0 && self.within[sq.index()] & need != need {
                continue;
            }
            let Some(p) = pos.piece_at(sq) else {
                continue;
            };
            if (need == 0 || board.reaches(entry, p.role, sq, need))
                && (!self.real_board || real().last_move_mates(p.role, sq))
            {
                return true;
            }
        }
        false
    }

    /// The last-move filter of [`LastOne`], from the filter of the node two
    /// moves before the end: after the move `first` made there (from-to,
    /// the piece becoming `first_role`; not castling), may the last move
    /// `from`-`to` (becoming `role`; castling always passes) mate? The
    /// targets are this node's (a subset of the end position's, as for
    /// [`LastOne`]); the others' cover comes from the counts kept here,
    /// without the two moved pieces.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn may_mate_after_two(
        &self,
        cache: &mut BoundCache,
        (x, x_to): (Square, Square),
        first_role: Role,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
    ) -> bool {
        if castle {
            return true;
        }
        let full = self.targets.full();
        let entry = self.entry(cache);
        let last = entry.within(role, to)[0];
        let free = if from == x_to {
            // The same piece moves twice: the others are this node's.
            last | self.stood_still(x, None)
        } else {
            let first = entry.within(first_role, x_to)[0];
            last | first | self.stood_still(x, Some(from))
        };
        free & full == full
    }
}

/// The board a last move is made on, after the second-last: our pieces,
/// theirs, and what the last move may do beyond ordinary moves.
#[derive(Clone, Copy)]
struct LastMoveBoard {
    us: Color,
    /// The enemy king's square.
    king: Square,
    own: Bitboard,
    enemy: Bitboard,
    /// En-passant targets (a superset: taken as capturable).
    ep: Bitboard,
    /// Our castling rights left after the second-last move.
    castles: u8,
}

impl LastMoveBoard {
    /// Can our `role` on `sq` make a move after which it covers (on the
    /// empty board) every target of `need`?
    fn reaches(&self, entry: &mut CacheEntry, role: Role, sq: Square, need: u16) -> bool {
        let occ = self.own | self.enemy;
        // With the king's square to cover, the piece gives the check itself
        // (no piece that stands still attacks it even on the empty board),
        // so its line to the king must be open on the real board.
        let stays = occ & !sq.bb();
        let checks = need & 1 != 0;
        let covers = |role: Role, d: Square| {
            entry.within(role, d)[0] & need == need
                && (!checks || (attacks::between(d, self.king) & stays).is_empty())
        };
        any_end(self.us, role, sq, (self.own, self.enemy), self.ep, covers)
    }

    /// Does castling `c` cover (on the empty board) every target of `need`
    /// with its king and rook where they land?
    fn castling_covers(&self, entry: &mut CacheEntry, c: &CastleSquares, need: u16) -> bool {
        let cover = entry.within(Role::Rook, c.rook_to)[0] | entry.within(Role::King, c.king_to)[0];
        need & !cover == 0
    }
}

/// Does an end of the last move of our `role` on `sq` pass `covers` (the
/// role it ends in, its square)? Its destinations past our pieces and
/// theirs: a pawn's pushes and captures (onto their pieces and `ep`),
/// promoting to a queen or a knight (which cover the most); the others'
/// moves not onto our own.
fn any_end(
    us: Color,
    role: Role,
    sq: Square,
    (own, enemy): (Bitboard, Bitboard),
    ep: Bitboard,
    mut covers: impl FnMut(Role, Square) -> bool,
) -> bool {
    let occ = own | enemy;
    match role {
        Role::Pawn => {
            let mut dests = attacks::pawn(us, sq) & (enemy | ep);
            let one = sq.bb().forward(us) & !occ;
            dests |= one;
            if sq.relative_rank(us) == 1 {
                dests |= one.forward(us) & !occ;
            }
            dests.any(|d| {
                if d.relative_rank(us) == 7 {
                    covers(Role::Queen, d) || covers(Role::Knight, d)
                } else {
                    covers(Role::Pawn, d)
                }
            })
        }
        _ => (attacks::piece(role, sq, occ) & !own).any(|d| covers(role, d)),
    }
}

/// The board after the second-last move, for the last move made on it:
/// the enemy king's targets and our pieces' cover as the real board has
/// them, where [`LastTwo`] takes the empty board's.
///
/// Sound for a last move of piece P from `s` to `d` (not castling, which
/// is tested apart, nor en passant, nor a move of our king, which mates
/// only by uncovering a check, [`RealBoard::uncovers_check`]): in the end
/// position every target is attacked by P from `d` or by another piece,
/// each through the final board less the enemy king (a flight behind the
/// king on a line is attacked too), and the final board holds every piece
/// of this one but P on `s` (`d` only blocks more; a capture there leaves
/// it occupied).
/// The flights are this board's empty squares next to the enemy king or
/// ours there (a capture on `d` only adds one); a flight is excused when
/// stepping to it may uncover a check on our king (Italian rules), which
/// our king's square here and the lines without P decide (P on `d` may
/// only block such a line, which would excuse less).
struct RealBoard {
    /// The pieces (`own`, `enemy`), the enemy king and en passant (a pawn
    /// that may take en passant always passes).
    board: LastMoveBoard,
    our_king: Square,
    pawns: Bitboard,
    knights: Bitboard,
    /// Bishops and queens; rooks and queens.
    diagonal: Bitboard,
    straight: Bitboard,
    /// The enemy sliders on a line through their king (on the empty
    /// board), when a flight may be excused at all.
    excusing: Bitboard,
}

impl RealBoard {
    /// `board`, the board of `pos` after our move `mv` (not castling nor
    /// en passant), whose piece becomes `role`, with our pieces by role.
    fn after(pos: &Position, board: LastMoveBoard, mv: Move, role: Role) -> RealBoard {
        let us = board.us;
        let (from, to) = (mv.from().bb(), mv.to().bb());
        let ours = |r: Role| {
            let b = pos.pieces(us, r) & !from;
            if r == role { b | to } else { b }
        };
        let queens = ours(Role::Queen);
        let excusing = if opponent_may_check_at_once(pos) {
            Bitboard::EMPTY
        } else {
            excusing_sliders(pos, us, board.king) & !to
        };
        RealBoard {
            board,
            our_king: if role == Role::King {
                mv.to()
            } else {
                pos.king_square(us)
            },
            pawns: ours(Role::Pawn),
            knights: ours(Role::Knight),
            diagonal: ours(Role::Bishop) | queens,
            straight: ours(Role::Rook) | queens,
            excusing,
        }
    }

    /// May our `role` on `sq`, moving last, mate? (Our king only by
    /// uncovering a check: [`RealBoard::uncovers_check`].)
    fn last_move_mates(&self, role: Role, sq: Square) -> bool {
        if role == Role::King {
            return self.uncovers_check(sq);
        }
        let all = self.board.own | self.board.enemy;
        if role == Role::Pawn
            && (attacks::pawn(self.board.us, sq) & self.board.ep & !all).nonempty()
        {
            return true;
        }
        // The board without the piece and the enemy king.
        let occ = all & !sq.bb() & !self.board.king.bb();
        let near = self.unexcused(occ);
        let targets = (near & !self.board.enemy) | self.board.king.bb();
        let need = targets & !self.others_cover(targets, sq, occ);
        let covers = |role: Role, d: Square| {
            // A capture next to the enemy king opens a flight, on the
            // piece itself: the others must guard it.
            if (near & self.board.enemy).contains(d)
                && self.others_cover(d.bb(), sq, occ).is_empty()
            {
                return false;
            }
            let cover = match role {
                Role::Pawn => attacks::pawn(self.board.us, d),
                _ => attacks::piece(role, d, occ | d.bb()),
            };
            need & !cover == Bitboard::EMPTY
        };
        any_end(
            self.board.us,
            role,
            sq,
            (self.board.own, self.board.enemy),
            Bitboard::EMPTY,
            covers,
        )
    }

    /// Does castling `c`, moving last, give check? Only a slider can: the
    /// rook where it lands, or one the king or rook uncovers (the enemy
    /// king is not in check before the last move, see
    /// [`RealBoard::uncovers_check`], and nothing else moves).
    fn castling_checks(&self, c: &CastleSquares) -> bool {
        let moved = (c.king_from.bb() | c.rook_from.bb()) ^ (c.king_to.bb() | c.rook_to.bb());
        let occ = (self.board.own | self.board.enemy) ^ moved;
        let straight = (self.straight & !c.rook_from.bb()) | c.rook_to.bb();
        self.sliders_check(occ, straight)
    }

    /// Can our king, stepping off `sq` (not castling), uncover a check?
    /// It gives none itself, and the enemy king is not in check before the
    /// last move (a check before it is not allowed, or ends the turn): a
    /// slider of ours must see the enemy king through `sq` and nothing
    /// else.
    fn uncovers_check(&self, sq: Square) -> bool {
        let occ = (self.board.own | self.board.enemy) & !sq.bb();
        self.sliders_check(occ, self.straight)
    }

    /// Does one of our sliders (our bishops and queens, and `straight`,
    /// our rooks and queens) attack the enemy king through `occ`?
    fn sliders_check(&self, occ: Bitboard, straight: Bitboard) -> bool {
        let king = self.board.king;
        ((attacks::bishop(king, occ) & self.diagonal) | (attacks::rook(king, occ) & straight))
            .nonempty()
    }

    /// The squares next to the enemy king it may step to, if empty or ours,
    /// without uncovering a check on our king (through `occ`): the exact
    /// form, on this board, of the rule [`excused_flights`] relaxes for
    /// our king anywhere within the moves left.
    ///
    /// [`excused_flights`]: super::targets::excused_flights
    fn unexcused(&self, occ: Bitboard) -> Bitboard {
        let mut flights = attacks::king(self.board.king);
        for s in self.excusing {
            // Stepping off the slider's line uncovers a check if nothing
            // else stands between it and our king behind the enemy king.
            let between = attacks::between(s, self.our_king);
            if between.contains(self.board.king) && (between & occ).is_empty() {
                flights &= attacks::line(s, self.board.king);
            }
        }
        flights
    }

    /// The squares of `targets` attacked through `occ` by our pieces other
    /// than the one on `sq`.
    fn others_cover(&self, targets: Bitboard, sq: Square, occ: Bitboard) -> Bitboard {
        let others = !sq.bb();
        let mut covered = Bitboard::EMPTY;
        for t in targets {
            let attackers = (attacks::pawn(self.board.us.other(), t) & self.pawns)
                | (attacks::knight(t) & self.knights)
                | (attacks::king(t) & self.our_king.bb())
                | (attacks::bishop(t, occ) & self.diagonal)
                | (attacks::rook(t, occ) & self.straight);
            if (attackers & others).nonempty() {
                covered.set(t);
            }
        }
        covered
    }
}

/// A filter for the last move: after it, does every target (the enemy
/// king's square and its open flights, as [`LastTwo`] takes them for one
/// move left) stand attacked on the empty board? If not, the enemy king is
/// not in check or has a flight, so the move does not mate.
///
/// Sound like [`LastTwo`]: the targets are a subset of the child's (a
/// capture only opens flights; the excused flights are taken for our king
/// anywhere within one move, and for the enemy sliders now), and a piece
/// attacks on the empty board all it attacks on the real one (a slider's
/// line through the king includes the square behind it, which the king
/// may not step to either).
pub(crate) struct LastOne(LastTwo);

impl LastOne {
    /// Prepares the filter for `pos`, which has one move left, taking the
    /// pieces' cover from the levels kept in `cache`.
    pub(crate) fn new_cached(pos: &Position, cache: &mut BoundCache) -> LastOne {
        LastOne(LastTwo::prepare(pos, Some(cache), 1))
    }

    /// In `pos` (the node this filter was made for), after our piece moved
    /// `from`-`to` (becoming `role`; castling always passes), may the
    /// opponent be mated?
    pub(crate) fn may_mate_after(
        &self,
        cache: &mut BoundCache,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
    ) -> bool {
        if castle {
            return true;
        }
        let f = &self.0;
        let full = f.targets.full();
        let entry = f.entry(cache);
        let moved_now = entry.within(role, to)[0];
        // What the others cover: each target covered by two, or by one
        // other than the moved piece.
        let free = moved_now | f.stood_still(from, None);
        free & full == full
    }
}
