//! The position: pieces plus the turn state of Progressive chess.
//!
//! Moves are applied in place by [`Position::play`]; callers that need to go
//! back keep a copy (the struct is small, and copying beats undo bookkeeping
//! with several en-passant squares and turn counters to restore).

use super::attacks;
use super::bitboard::{Bitboard, Color, Piece, Role, Square};
use super::moves::{Move, MoveKind};
use super::rules::Rules;
use super::zobrist;

/// Castling right bits.
pub const WHITE_OO: u8 = 1;
pub const WHITE_OOO: u8 = 2;
pub const BLACK_OO: u8 = 4;
pub const BLACK_OOO: u8 = 8;

/// The rights that survive a move touching each square.
const CASTLING_KEEP: [u8; 64] = {
    let mut t = [15u8; 64];
    t[0] = 15 & !WHITE_OOO; // a1
    t[7] = 15 & !WHITE_OO; // h1
    t[4] = 15 & !(WHITE_OO | WHITE_OOO); // e1
    t[56] = 15 & !BLACK_OOO; // a8
    t[63] = 15 & !BLACK_OO; // h8
    t[60] = 15 & !(BLACK_OO | BLACK_OOO); // e8
    t
};

/// A castling move's squares: king from/to, rook from/to.
#[derive(Clone, Copy, Debug)]
pub struct CastleSquares {
    pub right: u8,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
}

/// The four castlings: white short, white long, black short, black long.
pub const CASTLES: [CastleSquares; 4] = [
    CastleSquares {
        right: WHITE_OO,
        king_from: Square(4),
        king_to: Square(6),
        rook_from: Square(7),
        rook_to: Square(5),
    },
    CastleSquares {
        right: WHITE_OOO,
        king_from: Square(4),
        king_to: Square(2),
        rook_from: Square(0),
        rook_to: Square(3),
    },
    CastleSquares {
        right: BLACK_OO,
        king_from: Square(60),
        king_to: Square(62),
        rook_from: Square(63),
        rook_to: Square(61),
    },
    CastleSquares {
        right: BLACK_OOO,
        king_from: Square(60),
        king_to: Square(58),
        rook_from: Square(56),
        rook_to: Square(59),
    },
];

/// The castling whose king move is `from`-`to`, if any.
pub fn castle_for(from: Square, to: Square) -> Option<&'static CastleSquares> {
    CASTLES
        .iter()
        .find(|c| c.king_from == from && c.king_to == to)
}

/// A Progressive chess position, including where we are inside the turn.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    board: [Option<Piece>; 64],
    side: Color,
    castling: u8,
    /// With `moves_made == 0`: the squares open to an en-passant capture on
    /// this first move. Later in the turn: the squares the mover's own double
    /// steps passed over, which become the opponent's targets at turn end.
    ep: Bitboard,
    quiet_turns: u32,
    turn_length: u32,
    moves_made: u32,
    rules: Rules,
    /// Pieces giving check to the side to move (only ever non-empty at the
    /// start of a turn: no move may leave its own king in check).
    checkers: Bitboard,
    key: u64,
}

/// What playing one move did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveEffect {
    /// The move gave check.
    pub check: bool,
    /// The move completed the turn (or, under the Scottish rules, cut it short by check).
    pub turn_ended: bool,
    /// The move captured a piece.
    pub capture: Option<Role>,
}

impl Position {
    /// An empty board; used by the FEN parser, which fills it in.
    pub(crate) fn empty(rules: Rules) -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [None; 64],
            side: Color::White,
            castling: 0,
            ep: Bitboard::EMPTY,
            quiet_turns: 0,
            turn_length: 1,
            moves_made: 0,
            rules,
            checkers: Bitboard::EMPTY,
            key: 0,
        }
    }

    /// The standard start position under `rules`.
    pub fn startpos(rules: Rules) -> Position {
        super::fen::parse(super::fen::START_FEN, rules).expect("the start FEN is valid")
    }

    // ---- accessors -------------------------------------------------------

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }
    #[inline]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }
    /// See the field documentation: targets at turn start, own passed squares later.
    #[inline]
    pub fn ep_squares(&self) -> Bitboard {
        self.ep
    }
    #[inline]
    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }
    #[inline]
    pub fn turn_length(&self) -> u32 {
        self.turn_length
    }
    #[inline]
    pub fn moves_made(&self) -> u32 {
        self.moves_made
    }
    /// Moves still to make in this turn.
    #[inline]
    pub fn moves_left(&self) -> u32 {
        self.turn_length - self.moves_made
    }
    /// Is the next move the last one of the turn?
    #[inline]
    pub fn is_last_move(&self) -> bool {
        self.moves_made + 1 == self.turn_length
    }
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.nonempty()
    }
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }
    #[inline]
    pub fn role_bb(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }
    /// May the next move give check under the rules?
    #[inline]
    pub fn check_allowed(&self) -> bool {
        self.rules.check_allowed(self.moves_made, self.turn_length)
    }

    /// The same position under other rules (the key follows).
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self.key = self.compute_key();
        self
    }

    // ---- attacks ---------------------------------------------------------

    /// Pieces of `by` attacking `sq` with the board occupied by `occ`.
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let them = self.by_color[by.index()];
        let rq = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bq = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        ((attacks::pawn(by.other(), sq) & self.by_role[Role::Pawn.index()])
            | (attacks::knight(sq) & self.by_role[Role::Knight.index()])
            | (attacks::king(sq) & self.by_role[Role::King.index()])
            | (attacks::rook(sq, occ) & rq)
            | (attacks::bishop(sq, occ) & bq))
            & them
    }

    /// The pieces of `us` other than the king that the opponent attacks,
    /// each with its square and attackers.
    pub fn attacked_pieces(&self, us: Color) -> impl Iterator<Item = (Square, Role, Bitboard)> {
        let occ = self.occupied();
        self.color_bb(us).into_iter().filter_map(move |sq| {
            let role = self.piece_at(sq)?.role;
            let attackers = self.attackers(sq, us.other(), occ);
            (role != Role::King && attackers.nonempty()).then_some((sq, role, attackers))
        })
    }

    /// Is `sq` attacked by `by`?
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        self.attackers(sq, by, occ).nonempty()
    }

    /// Pieces of either colour that alone stand between `ksq` and a slider of
    /// `slider_color` on a line to it. For our own king these are our pinned
    /// pieces (and enemy blockers); for the enemy king, our discoverers.
    #[inline]
    pub fn blockers_for(&self, ksq: Square, slider_color: Color) -> Bitboard {
        let occ = self.occupied();
        let snipers = ((attacks::rook(ksq, Bitboard::EMPTY)
            & (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]))
            | (attacks::bishop(ksq, Bitboard::EMPTY)
                & (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()])))
            & self.by_color[slider_color.index()];
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(ksq, s) & occ;
            if b.nonempty() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    // ---- placement -------------------------------------------------------

    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let bb = sq.bb();
        self.by_role[piece.role.index()] |= bb;
        self.by_color[piece.color.index()] |= bb;
        self.board[sq.index()] = Some(piece);
        self.key ^= zobrist::piece(piece, sq);
    }

    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board[sq.index()]?;
        let bb = sq.bb();
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.board[sq.index()] = None;
        self.key ^= zobrist::piece(piece, sq);
        Some(piece)
    }

    /// Sets the turn state (used by the FEN parser). Recomputes key and checkers.
    pub(crate) fn set_state(
        &mut self,
        side: Color,
        castling: u8,
        ep: Bitboard,
        quiet_turns: u32,
        turn_length: u32,
        moves_made: u32,
    ) {
        self.side = side;
        self.castling = castling;
        self.ep = ep;
        self.quiet_turns = quiet_turns;
        self.turn_length = turn_length;
        self.moves_made = moves_made;
        self.checkers = self.attackers(self.king_square(side), side.other(), self.occupied());
        self.key = self.compute_key();
    }

    /// The Zobrist key from scratch (the incremental one must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(p) = self.board[sq.index()] {
                key ^= zobrist::piece(p, sq);
            }
        }
        key ^ self.state_key()
    }

    /// [`Self::state_key`] without the rule-set part, which no move changes.
    #[inline]
    fn state_key_fast(&self) -> u64 {
        let mut key = zobrist::side(self.side)
            ^ zobrist::castling(self.castling)
            ^ zobrist::turn(self.turn_length, self.moves_made);
        for sq in self.ep {
            key ^= zobrist::en_passant(sq);
        }
        key
    }

    fn state_key(&self) -> u64 {
        let rules = if self.rules == Rules::Scottish {
            zobrist::SCOTTISH
        } else {
            0
        };
        self.state_key_fast() ^ rules
    }

    // ---- making moves ----------------------------------------------------

    /// The position after `moves` (legal in turn, as [`Position::play`]
    /// requires).
    pub fn after_moves(&self, moves: &[Move]) -> Position {
        let mut pos = self.clone();
        for &mv in moves {
            pos.play(mv);
        }
        pos
    }

    /// Plays a legal move (as produced by the move generator) and advances the
    /// turn state. Playing an illegal move leaves the position meaningless.
    pub fn play(&mut self, mv: Move) -> MoveEffect {
        let us = self.side;
        let them = us.other();
        let from = mv.from();
        let to = mv.to();
        let old_state = self.state_key_fast();
        let moving = self.board[from.index()].expect("a legal move starts on a piece");

        let first_move = self.moves_made == 0;
        if first_move {
            // The opponent's targets were open to this move only.
            self.ep = Bitboard::EMPTY;
        }

        let mut capture = None;
        match mv.kind() {
            MoveKind::Castle => {
                let c = castle_for(from, to).expect("castling squares");
                self.remove(c.king_from);
                self.remove(c.rook_from);
                self.put(c.king_to, moving);
                self.put(
                    c.rook_to,
                    Piece {
                        color: us,
                        role: Role::Rook,
                    },
                );
            }
            MoveKind::EnPassant => {
                let victim = Square(to.0 ^ 8); // the square behind the target
                capture = self.remove(victim).map(|p| p.role);
                self.remove(from);
                self.put(to, moving);
            }
            kind => {
                capture = self.remove(to).map(|p| p.role);
                self.remove(from);
                let placed = match kind {
                    MoveKind::Promotion(role) => Piece { color: us, role },
                    _ => moving,
                };
                self.put(to, placed);
                if kind == MoveKind::DoublePush {
                    self.ep.set(Square((from.0 + to.0) / 2));
                }
            }
        }

        self.castling &= CASTLING_KEEP[from.index()] & CASTLING_KEEP[to.index()];
        let resets = capture.is_some() || moving.role == Role::Pawn;
        if resets {
            self.quiet_turns = 0;
        } else if first_move {
            // Saturates: a FEN may start the count anywhere in `u32`.
            self.quiet_turns = self.quiet_turns.saturating_add(1);
        }
        self.moves_made += 1;

        // Italian rules forbid check before the last move, so mid-turn there is
        // no check to look for; otherwise find it now.
        let may_check = self.rules.check_ends_turn() || self.moves_made == self.turn_length;
        let checkers = if may_check {
            self.attackers(self.king_square(them), us, self.occupied())
        } else {
            Bitboard::EMPTY
        };
        let check = checkers.nonempty();
        let turn_ended =
            self.moves_made == self.turn_length || (check && self.rules.check_ends_turn());
        if turn_ended {
            self.ep = self.surviving_double_steps(us);
            self.side = them;
            self.turn_length = self.rules.next_turn_length(self.turn_length);
            self.moves_made = 0;
            self.checkers = checkers;
        } else {
            // A legal move never leaves the mover in check: a check at the
            // start of the turn has been escaped.
            self.checkers = Bitboard::EMPTY;
        }
        self.key ^= old_state ^ self.state_key_fast();
        MoveEffect {
            check,
            turn_ended,
            capture,
        }
    }

    /// The role of the piece `mv` leaves on its destination: the promoted
    /// role, or the moving piece's (a pawn if `from` is empty).
    #[inline]
    pub fn role_after(&self, mv: Move) -> Role {
        match mv.kind() {
            MoveKind::Promotion(role) => role,
            _ => self.board[mv.from().index()].map_or(Role::Pawn, |p| p.role),
        }
    }

    /// The castling rights [`Position::play`] leaves after `mv`.
    #[inline]
    pub fn castling_after(&self, mv: Move) -> u8 {
        self.castling & CASTLING_KEEP[mv.from().index()] & CASTLING_KEEP[mv.to().index()]
    }

    /// The key [`Position::play`] would give after `mv` when the move is
    /// simple in every way the key sees: not castling or en passant, the
    /// castling rights stay, the turn goes on, and the rules do not end a
    /// turn with check (so no move before the last ends it). Otherwise
    /// `None`. Lets a search look its child up in its tables before playing
    /// the move.
    #[inline]
    pub fn key_after(&self, mv: Move) -> Option<u64> {
        let (from, to) = (mv.from(), mv.to());
        if self.rules.check_ends_turn()
            || self.moves_made + 1 >= self.turn_length
            || self.castling_after(mv) != self.castling
        {
            return None;
        }
        let moving = self.board[from.index()]?;
        let placed = match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => moving,
            MoveKind::Promotion(role) => Piece {
                color: moving.color,
                role,
            },
            MoveKind::Castle | MoveKind::EnPassant => return None,
        };
        // (As `play`: the first move clears the opponent's targets, a double
        // step adds the square it passed.)
        let mut ep = if self.moves_made == 0 {
            Bitboard::EMPTY
        } else {
            self.ep
        };
        if mv.kind() == MoveKind::DoublePush {
            ep.set(Square((from.0 + to.0) / 2));
        }
        let mut state = zobrist::turn(self.turn_length, self.moves_made + 1);
        for sq in ep {
            state ^= zobrist::en_passant(sq);
        }
        let mut old = zobrist::turn(self.turn_length, self.moves_made);
        for sq in self.ep {
            old ^= zobrist::en_passant(sq);
        }
        let captured = self.board[to.index()].map_or(0, |p| zobrist::piece(p, to));
        Some(
            self.key
                ^ zobrist::piece(moving, from)
                ^ zobrist::piece(placed, to)
                ^ captured
                ^ old
                ^ state,
        )
    }

    /// Our double steps of this turn that stay open to the opponent: the pawn
    /// still stands where it arrived, and the square it passed over is empty.
    fn surviving_double_steps(&self, us: Color) -> Bitboard {
        let pawns = self.pieces(us, Role::Pawn);
        let occ = self.occupied();
        let mut open = Bitboard::EMPTY;
        for sq in self.ep {
            if pawns.contains(sq.forward(us)) && !occ.contains(sq) {
                open.set(sq);
            }
        }
        open
    }

    /// Passes the rest of the turn: the opponent starts its next turn. Used to
    /// ask what the opponent threatens; the opponent's en-passant chances are
    /// those our double steps left so far.
    pub fn pass_turn(&mut self) {
        let old_state = self.state_key();
        let us = self.side;
        self.ep = if self.moves_made == 0 {
            Bitboard::EMPTY
        } else {
            self.surviving_double_steps(us)
        };
        self.side = us.other();
        self.turn_length = self.rules.next_turn_length(self.turn_length);
        self.moves_made = 0;
        self.checkers = Bitboard::EMPTY;
        self.key ^= old_state ^ self.state_key();
    }

    /// An exact, compact identity of the position for hash sets: occupancy,
    /// the pieces in square order (4 bits each, 32 pieces at most) and the
    /// turn state. Equal keys mean equal positions (quiet counter excluded).
    pub fn exact_key(&self) -> [u64; 4] {
        let mut codes = [0u64; 2];
        for (i, sq) in self.occupied().enumerate() {
            let p = self.board[sq.index()].map_or(0, |p| p.color.index() * 6 + p.role.index() + 1);
            codes[i / 16] |= (p as u64) << (4 * (i % 16));
        }
        let ep_bits = (self.ep.0 >> 16) & 0xff | ((self.ep.0 >> 40) & 0xff) << 8;
        let state = ep_bits
            | (self.castling as u64) << 16
            | (self.side.index() as u64) << 20
            | (self.rules as u64) << 21
            | (self.moves_made as u64 & 0xffff) << 24
            | (self.turn_length as u64 & 0xff_ffff) << 40;
        [self.occupied().0, codes[0], codes[1], state]
    }

    /// Replaces the en-passant squares (the key follows).
    pub(crate) fn set_ep(&mut self, ep: Bitboard) {
        self.key ^= self.state_key();
        self.ep = ep;
        self.key ^= self.state_key();
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::{Rules, fen, legal_moves};

    #[test]
    fn incremental_key_matches_the_full_computation_along_random_games() {
        for (seed, rules) in [(3, Rules::Italian), (4, Rules::Scottish), (5, Rules::Chess)] {
            for pos in crate::chess::random_game_positions(rules, 60, 24, seed) {
                assert_eq!(pos.key(), pos.compute_key(), "{pos}");
            }
        }
    }

    #[test]
    fn key_after_a_move_is_the_played_key() {
        let mut quiet = 0;
        for (seed, rules) in [(6, Rules::Italian), (7, Rules::Scottish), (8, Rules::Chess)] {
            for pos in crate::chess::random_game_positions(rules, 60, 24, seed) {
                for &mv in legal_moves(&pos).iter() {
                    let mut child = pos.clone();
                    child.play(mv);
                    if let Some(key) = pos.key_after(mv) {
                        assert_eq!(key, child.key(), "{pos} {mv:?}");
                        quiet += 1;
                    }
                }
            }
        }
        assert!(quiet > 10_000, "{quiet}");
    }

    #[test]
    fn escaping_check_clears_it_for_the_rest_of_the_turn() {
        // White escapes Qd1+ with Kxd1; the other pieces must move again after.
        let mut p = fen::parse(
            "rnbBkbnr/ppp2ppp/8/3p4/5P2/8/PP2P1PP/RN1qKBNR w KQkq - 0 5",
            Rules::Italian,
        )
        .expect("valid FEN");
        let mv = crate::chess::notation::parse_uci(&p, "e1d1").expect("legal");
        p.play(mv);
        assert!(!p.in_check());
        assert!(legal_moves(&p).len() > 10);
    }
}
