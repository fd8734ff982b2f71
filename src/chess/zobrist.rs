//! Zobrist keys, generated at compile time from a fixed seed.

use super::bitboard::{Color, Piece, Square};

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut t = [0u64; N];
    let mut i = 0;
    while i < N {
        t[i] = splitmix(seed.wrapping_mul(0x1000_0000_01b3) ^ (i as u64).wrapping_mul(0x9e37));
        i += 1;
    }
    t
}

static PIECE_SQUARE: [u64; 12 * 64] = table(1);
static CASTLING: [u64; 16] = table(2);
static EN_PASSANT: [u64; 64] = table(3);
/// Black to move.
pub const SIDE: u64 = 0x6f5b_3a1e_8c2d_4417;
/// The Scottish rules (turn ends differ, so the same placement has another future).
pub const SCOTTISH: u64 = 0x2c8e_5d3f_a617_9b03;

#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[(piece.color.index() * 6 + piece.role.index()) * 64 + sq.index()]
}

#[inline]
pub fn castling(rights: u8) -> u64 {
    CASTLING[rights as usize & 15]
}

#[inline]
pub fn en_passant(sq: Square) -> u64 {
    EN_PASSANT[sq.index()]
}

#[inline]
pub fn side(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => SIDE,
    }
}

static TURN_LENGTH: [u64; 256] = table(4);
static MOVES_MADE: [u64; 256] = table(5);

/// The key part for the turn's length and the moves made in it (tables for
/// the lengths real games reach, a hash beyond).
#[inline]
pub fn turn(turn_length: u32, moves_made: u32) -> u64 {
    if turn_length < 256 {
        TURN_LENGTH[turn_length as usize] ^ MOVES_MADE[moves_made as usize]
    } else {
        splitmix(0x7475_726e ^ ((turn_length as u64) << 20) ^ moves_made as u64)
    }
}
