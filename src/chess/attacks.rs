//! Attack tables: leapers, pawns, and magic-bitboard sliders (no PEXT).
//!
//! Every table is computed at compile time by `const fn`s, so lookups are
//! plain array indexing with no lazy initialisation on the hot path. The
//! magic numbers were found offline by the usual sparse random search; a
//! unit test re-checks that each one indexes its square without a harmful
//! collision.

use super::bitboard::{Bitboard, Color, Role, Square};

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

/// The squares one of `steps` away from `sq`.
const fn step(sq: usize, steps: &[(i8, i8)]) -> u64 {
    let mut attacks = 0u64;
    let mut i = 0;
    while i < steps.len() {
        let (f, r) = ((sq % 8) as i8 + steps[i].0, (sq / 8) as i8 + steps[i].1);
        if on_board(f, r) {
            attacks |= 1 << (r * 8 + f);
        }
        i += 1;
    }
    attacks
}

const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = step(sq, steps);
        sq += 1;
    }
    table
}

/// Squares a piece of `role` on `sq` attacks on the empty board (a pawn of
/// `color`), for tables built at compile time; at run time [`piece`] and
/// [`pawn`] look the same up.
pub(crate) const fn on_empty_board(color: Color, role: Role, sq: Square) -> Bitboard {
    let s = sq.index();
    Bitboard(match role {
        Role::Pawn => step(s, &PAWN_STEPS[color.index()]),
        Role::Knight => step(s, &KNIGHT_STEPS),
        Role::Bishop => slide(s, 0, &BISHOP_DIRS),
        Role::Rook => slide(s, 0, &ROOK_DIRS),
        Role::Queen => slide(s, 0, &ROOK_DIRS) | slide(s, 0, &BISHOP_DIRS),
        Role::King => step(s, &KING_STEPS),
    })
}

/// A pawn's captures, per colour.
const PAWN_STEPS: [[(i8, i8); 2]; 2] = [[(1, 1), (-1, 1)], [(1, -1), (-1, -1)]];

const fn pawn_table() -> [[u64; 64]; 2] {
    [step_table(&PAWN_STEPS[0]), step_table(&PAWN_STEPS[1])]
}

/// Ray attacks from `sq` in `dirs`, each ray stopping at the first blocker.
const fn slide(sq: usize, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy matters for a slider on `sq` (board edges excluded).
const fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    const fn index(&self, occ: u64) -> usize {
        self.offset + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

const fn magics(numbers: &[u64; 64], dirs: &[(i8, i8); 4]) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = 0;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic {
            mask,
            magic: numbers[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const fn table_size(dirs: &[(i8, i8); 4]) -> usize {
    let mut size = 0;
    let mut sq = 0;
    while sq < 64 {
        size += 1 << relevant_mask(sq, dirs).count_ones();
        sq += 1;
    }
    size
}

const fn slider_table<const N: usize>(magics: &[Magic; 64], dirs: &[(i8, i8); 4]) -> [u64; N] {
    let mut table = [0u64; N];
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Carry-Rippler walk over every subset of the mask.
        let mut sub = 0u64;
        loop {
            table[m.index(sub)] = slide(sq, sub, dirs);
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

const ROOK_MAGICS: [u64; 64] = [
    0xa80004000801220,
    0x10c0100040002000,
    0x100102000410009,
    0xb0021000c100008,
    0x4080080080040002,
    0x200019004080200,
    0x400080a10112684,
    0x20800a4d00062080,
    0x2091800020804000,
    0x44401000200040,
    0x1001002000401108,
    0x1001800801100081,
    0x1000500080010,
    0x1000808002000400,
    0x404000482100108,
    0x3000182610002,
    0x440848002c00420,
    0x2010890040010021,
    0x8800110020044300,
    0x208010100201000,
    0x1222020004102008,
    0x808002000400,
    0x20040400094a9008,
    0x420000804401,
    0x40002880004680,
    0x200240100040,
    0x20008180201001,
    0x1080080800c1000,
    0x104040080800800,
    0x4800020080040080,
    0x2000200840108,
    0xa1000100006082,
    0x8004400088800260,
    0x100804000802008,
    0x10008010802002,
    0xc801000800800,
    0xc51800402800800,
    0x2800200800400,
    0x820804000110,
    0x4003808042000401,
    0x208020c0018000,
    0x4400402010004009,
    0x22100400a800e000,
    0xe020021400a0013,
    0x10a0080100110005,
    0x4010002004040,
    0x24080102040010,
    0x4154089108420014,
    0x182400080002380,
    0x400110802100,
    0x100080200480,
    0x100a000820401200,
    0x8081004020801002,
    0x2000408100200,
    0x3223a1008010c00,
    0x831c014200,
    0x4200208009001041,
    0xc001004000881021,
    0x1008200100100841,
    0x82240920032,
    0x4002000804201102,
    0xb821000804000201,
    0x4080c208102100a4,
    0x2020900418c0ca2,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x2a840401840308,
    0x2048404004000,
    0x1088508106020000,
    0x604040484000420,
    0x1002021004380001,
    0x8041048240000a30,
    0x4084044104103110,
    0x81004044200840,
    0x4424110a1010901,
    0x42820841040080,
    0x1001080204002c09,
    0x14804a1041815,
    0x4820210041001,
    0x1810403400040,
    0x80240410420a084,
    0x410120201010900,
    0x240048504280200,
    0x9402000490040325,
    0x200300101c098030,
    0x4002840400800,
    0x2010402110140,
    0x40320100a060,
    0x42000061046000,
    0x188300084684808,
    0x10101108021022,
    0x8724048021090c00,
    0x502c0202c4080010,
    0x8082248020020,
    0x1020084008400,
    0x891004002082001,
    0xa021004248200,
    0x110200012a8402,
    0x2042208430203904,
    0xc08620816111880,
    0x2045004410100,
    0x800120180180080,
    0x140010012c10040,
    0x50100840402400,
    0x808020080004801,
    0x4820341020100,
    0x1a01242010c080,
    0x2018620210012008,
    0x80210400220a0400,
    0x20014200820801,
    0x10008810041c400,
    0x20040880205a01,
    0x1081011102e420,
    0x810604810b0208,
    0x621004210094,
    0x200210802105811,
    0x8008008058080200,
    0x5800400084040010,
    0x9002022880,
    0x9000883001021010,
    0x804a828404040006,
    0x2010121801002800,
    0x4012020084010846,
    0x8002421202020200,
    0x6104040020841000,
    0x205048804,
    0x808008041102480,
    0x2305904002040440,
    0x810404282020204,
    0x588200102002100,
];

const ROOK_SIZE: usize = table_size(&ROOK_DIRS);
const BISHOP_SIZE: usize = table_size(&BISHOP_DIRS);
static ROOK_MAGIC: [Magic; 64] = magics(&ROOK_MAGICS, &ROOK_DIRS);
static BISHOP_MAGIC: [Magic; 64] = magics(&BISHOP_MAGICS, &BISHOP_DIRS);
static ROOK_TABLE: [u64; ROOK_SIZE] = slider_table(&magics(&ROOK_MAGICS, &ROOK_DIRS), &ROOK_DIRS);
static BISHOP_TABLE: [u64; BISHOP_SIZE] =
    slider_table(&magics(&BISHOP_MAGICS, &BISHOP_DIRS), &BISHOP_DIRS);
static KNIGHT: [u64; 64] = step_table(&KNIGHT_STEPS);
static KING: [u64; 64] = step_table(&KING_STEPS);
static PAWN: [[u64; 64]; 2] = pawn_table();

/// Squares strictly between two squares on a line, and the full line through them.
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let dirs = [&ROOK_DIRS, &BISHOP_DIRS];
                let mut k = 0;
                while k < 2 {
                    let d = dirs[k];
                    if slide(a, 0, d) & (1 << b) != 0 {
                        between[a][b] = slide(a, 1 << b, d) & slide(b, 1 << a, d);
                        line[a][b] = (slide(a, 0, d) & slide(b, 0, d)) | (1 << a) | (1 << b);
                    }
                    k += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ROOK_TABLE[ROOK_MAGIC[sq.index()].index(occ.0)])
}

#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(BISHOP_TABLE[BISHOP_MAGIC[sq.index()].index(occ.0)])
}

#[inline(always)]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | bishop(sq, occ)
}

/// Squares attacked by a non-pawn piece of `role` on `sq`.
#[inline(always)]
pub fn piece(role: Role, sq: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occ),
        Role::Rook => rook(sq, occ),
        Role::Queen => queen(sq, occ),
        Role::King => king(sq),
        Role::Pawn => Bitboard::EMPTY,
    }
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The whole line through `a` and `b` (both included) if they share one, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_board_attacks_match_the_tables() {
        for sq in (0..64).map(Square) {
            for color in Color::BOTH {
                assert_eq!(on_empty_board(color, Role::Pawn, sq), pawn(color, sq));
            }
            for role in [
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
            ] {
                assert_eq!(
                    on_empty_board(Color::White, role, sq),
                    piece(role, sq, Bitboard::EMPTY),
                    "{role:?} {sq:?}"
                );
            }
        }
    }

    #[test]
    fn magic_lookups_match_ray_walks() {
        // Every subset of every mask, for both sliders.
        for sq in 0..64 {
            for (magic, dirs, is_rook) in [
                (ROOK_MAGIC[sq], &ROOK_DIRS, true),
                (BISHOP_MAGIC[sq], &BISHOP_DIRS, false),
            ] {
                let mut sub = 0u64;
                loop {
                    let occ = Bitboard(sub | 0x8100_0000_0000_0081);
                    let got = if is_rook {
                        rook(Square(sq as u8), occ)
                    } else {
                        bishop(Square(sq as u8), occ)
                    };
                    assert_eq!(got.0, slide(sq, occ.0, dirs), "square {sq}");
                    sub = sub.wrapping_sub(magic.mask) & magic.mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn leaper_and_line_tables() {
        let e4 = Square::parse("e4").unwrap();
        assert_eq!(knight(e4).count(), 8);
        assert_eq!(king(Square(0)).count(), 3);
        assert_eq!(
            pawn(Color::White, e4),
            Square::parse("d5").unwrap().bb() | Square::parse("f5").unwrap().bb()
        );
        let a1 = Square(0);
        let h8 = Square(63);
        assert_eq!(between(a1, h8).count(), 6);
        assert_eq!(line(a1, h8).count(), 8);
        assert!(between(a1, Square::parse("b3").unwrap()).is_empty());
    }
}
