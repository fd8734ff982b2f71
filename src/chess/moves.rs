//! A move and a fixed-capacity move list.

use super::bitboard::{Role, Square};
use std::fmt;

/// What kind of move a [`Move`] is, beyond from and to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal,
    DoublePush,
    Castle,
    EnPassant,
    Promotion(Role),
}

/// A move in 16 bits: from (6), to (6), kind (4). Castling is written as the
/// king's move (`e1g1`), as in UCI.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_DOUBLE: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_EP: u16 = 3;
const KIND_PROMO: u16 = 4; // + role index - 1 for N, B, R, Q: 4..=7

impl Move {
    /// The null move (`0000`), never legal; a placeholder.
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::DoublePush => KIND_DOUBLE,
            MoveKind::Castle => KIND_CASTLE,
            MoveKind::EnPassant => KIND_EP,
            MoveKind::Promotion(role) => KIND_PROMO + role as u16 - 1,
        };
        Move(from.0 as u16 | (to.0 as u16) << 6 | k << 12)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 63) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 6) & 63) as u8)
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_DOUBLE => MoveKind::DoublePush,
            KIND_CASTLE => MoveKind::Castle,
            KIND_EP => MoveKind::EnPassant,
            4 => MoveKind::Promotion(Role::Knight),
            5 => MoveKind::Promotion(Role::Bishop),
            6 => MoveKind::Promotion(Role::Rook),
            _ => MoveKind::Promotion(Role::Queen),
        }
    }

    /// The role a pawn promotes to, if this is a promotion.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// The raw 16 bits (for hashing into tables).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move whose [`Move::bits`] are `bits` (for reading tables back).
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// UCI long algebraic: `e2e4`, `e7e8q`, `e1g1`.
    pub fn uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// Room for every legal move of any position (chess has at most 218; a few
/// extra en-passant captures fit too).
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }
    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = mv;
        self.len += 1;
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
    /// Keeps only the moves for which `keep` is true (order preserved).
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[n] = mv;
                n += 1;
            }
        }
        self.len = n;
    }
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_packs_and_unpacks() {
        let e7 = Square::parse("e7").unwrap();
        let e8 = Square::parse("e8").unwrap();
        for kind in [
            MoveKind::Normal,
            MoveKind::DoublePush,
            MoveKind::Castle,
            MoveKind::EnPassant,
            MoveKind::Promotion(Role::Knight),
            MoveKind::Promotion(Role::Bishop),
            MoveKind::Promotion(Role::Rook),
            MoveKind::Promotion(Role::Queen),
        ] {
            let mv = Move::new(e7, e8, kind);
            assert_eq!((mv.from(), mv.to(), mv.kind()), (e7, e8, kind));
        }
        assert_eq!(
            Move::new(e7, e8, MoveKind::Promotion(Role::Queen)).uci(),
            "e7e8q"
        );
    }
}
