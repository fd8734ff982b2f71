//! The targets of a mating turn: the enemy king's square and the flights it
//! must have covered at the end (its open neighbours, less those the
//! Italian rules excuse), with the key the bound cache files them under.

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Position, Role, Square};

/// Can the opponent check at once, with the first move of its next turn?
/// Under the Italian rules only if that turn has a single move (a check is
/// allowed only with a turn's last move); when it cannot, a flight whose
/// king step would uncover a check on our king is no escape, and the bounds
/// excuse it ([`excused_flights`]).
pub(super) fn opponent_may_check_at_once(pos: &Position) -> bool {
    pos.rules()
        .check_allowed(0, pos.rules().next_turn_length(pos.turn_length()))
}

/// Our castling rights' bits in [`Position::castling_rights`].
pub(super) fn castling_bits(us: Color) -> u8 {
    if us == Color::White { 3 } else { 12 }
}

/// 1 if we may still castle (castling moves king and rook with one move, so
/// the per-piece move counts may exceed the moves made by one), else 0.
pub(super) fn castling_slack(pos: &Position, us: Color) -> u8 {
    u8::from(pos.castling_rights() & castling_bits(us) != 0)
}

/// The key of a target set in the bound cache.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Key {
    /// The enemy king's square.
    pub(super) king: Square,
    /// The targets (the king's square and the flights) as a bitboard.
    pub(super) squares: u64,
    /// The side that mates.
    pub(super) us: Color,
    /// Its [`castling_slack`].
    pub(super) castling_slack: u8,
}

impl Key {
    /// The key of no target set (an entry or filter not yet used).
    pub(super) const NONE: Key = Key {
        king: Square(0),
        squares: 0,
        us: Color::White,
        castling_slack: 0,
    };
}

/// The targets of the side to move: bit `i` of a cover mask is
/// `squares[i]`, the king's square first, then the open flights.
#[derive(Clone, Copy)]
pub(super) struct Targets {
    pub(super) squares: [Square; 9],
    pub(super) count: usize,
    pub(super) key: Key,
}

impl Targets {
    pub(super) const NONE: Targets = Targets {
        squares: [Square(0); 9],
        count: 0,
        key: Key::NONE,
    };

    /// The targets in `pos` with the flights excused for `moves` moves left
    /// (our king may get that far).
    pub(super) fn of(pos: &Position, moves: u32) -> Targets {
        let us = pos.side_to_move();
        let them = us.other();
        let eksq = pos.king_square(them);
        let mut flights = attacks::king(eksq) & !pos.color_bb(them);
        if !opponent_may_check_at_once(pos) {
            flights &= !excused_flights(pos, us, eksq, moves);
        }
        let mut t = Targets {
            squares: [Square(0); 9],
            count: 1,
            key: Key {
                king: eksq,
                squares: flights.0 | eksq.bb().0,
                us,
                castling_slack: castling_slack(pos, us),
            },
        };
        t.squares[0] = eksq;
        for sq in flights {
            t.squares[t.count] = sq;
            t.count += 1;
        }
        t
    }

    #[inline]
    pub(super) fn as_slice(&self) -> &[Square] {
        &self.squares[..self.count]
    }

    /// The mask of every target.
    #[inline]
    pub(super) fn full(&self) -> u16 {
        (1 << self.count) - 1
    }
}

/// Flights that a king step may not take under the Italian rules because the
/// step could uncover a check on our king (a lower-bound relaxation: we only
/// ask whether our king could stand behind the enemy king on the line of an
/// enemy slider by the end of the turn, not next to the enemy king).
pub(super) fn excused_flights(pos: &Position, us: Color, eksq: Square, moves: u32) -> Bitboard {
    let ours = pos.king_square(us);
    let castle_bonus = u32::from(castling_slack(pos, us));
    let radius = moves + castle_bonus;
    let mut excused = Bitboard::EMPTY;
    for s in excusing_sliders(pos, us, eksq) {
        let line = attacks::line(s, eksq);
        // Our king ends behind the enemy king on the slider's line, never
        // next to it (kings never stand side by side).
        let behind = line.into_iter().any(|r| {
            attacks::between(s, r).contains(eksq)
                && chebyshev(eksq, r) >= 2
                && chebyshev(ours, r) <= radius
        });
        if behind {
            excused |= attacks::king(eksq) & !line;
        }
    }
    excused
}

/// The enemy sliders on a line through the enemy king (on an empty
/// board): the only pieces [`excused_flights`] looks at.
pub(super) fn excusing_sliders(pos: &Position, us: Color, eksq: Square) -> Bitboard {
    let them = us.other();
    let rq = pos.pieces(them, Role::Rook) | pos.pieces(them, Role::Queen);
    let bq = pos.pieces(them, Role::Bishop) | pos.pieces(them, Role::Queen);
    (attacks::rook(eksq, Bitboard::EMPTY) & rq) | (attacks::bishop(eksq, Bitboard::EMPTY) & bq)
}

#[inline]
fn chebyshev(a: Square, b: Square) -> u32 {
    let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    df.max(dr)
}
