//! Squares, colours, directions and the 256-bit square set.
//!
//! Every board, whatever its size, uses the same 16 x 16 index space
//! (`index = rank * 16 + file`), so a square's index never depends on the
//! board width and a [`SquareSet`] is always four `u64` words.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::LinearError;

/// Largest number of files or ranks a board may have.
pub const MAX_SIDE: u8 = 16;

/// A square of the 16 x 16 index space: files a..p, ranks 1..16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1); `None` when
    /// either is 16 or more.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIDE && rank < MAX_SIDE {
            Some(Square(rank * MAX_SIDE + file))
        } else {
            None
        }
    }

    /// The square with the given index (`rank * 16 + file`).
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The index `rank * 16 + file`, in `0..256`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 for a.
    pub const fn file(self) -> u8 {
        self.0 % MAX_SIDE
    }

    /// The rank, 0 for rank 1.
    pub const fn rank(self) -> u8 {
        self.0 / MAX_SIDE
    }

    /// The neighbour one step in `dir`, if it stays inside the 16 x 16 space.
    pub fn step(self, dir: Direction) -> Option<Square> {
        let (df, dr) = dir.delta();
        let file = self.file().checked_add_signed(df)?;
        let rank = self.rank().checked_add_signed(dr)?;
        Square::new(file, rank)
    }

    /// Parses a square name such as `d4` or `p16`.
    pub fn parse(text: &str) -> Result<Square, LinearError> {
        let bad = || LinearError::new(format!("bad square '{text}': expected a..p and 1..16"));
        let mut chars = text.chars();
        let file_char = chars.next().ok_or_else(bad)?;
        if !('a'..='p').contains(&file_char) {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.starts_with('0') || digits.len() > 2 {
            return Err(bad());
        }
        let rank: u8 = digits.parse().map_err(|_| bad())?;
        if !(1..=MAX_SIDE).contains(&rank) {
            return Err(bad());
        }
        Ok(Square((rank - 1) * MAX_SIDE + (file_char as u8 - b'a')))
    }
}

impl std::str::FromStr for Square {
    type Err = LinearError;

    fn from_str(text: &str) -> Result<Square, LinearError> {
        Square::parse(text)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

pub use crate::color::Color;

/// One of the eight queen directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards rank 16.
    North,
    /// Towards rank 16 and file p.
    NorthEast,
    /// Towards file p.
    East,
    /// Towards rank 1 and file p.
    SouthEast,
    /// Towards rank 1.
    South,
    /// Towards rank 1 and file a.
    SouthWest,
    /// Towards file a.
    West,
    /// Towards rank 16 and file a.
    NorthWest,
}

impl Direction {
    /// All eight directions.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::NorthEast => Direction::SouthWest,
            Direction::East => Direction::West,
            Direction::SouthEast => Direction::NorthWest,
            Direction::South => Direction::North,
            Direction::SouthWest => Direction::NorthEast,
            Direction::West => Direction::East,
            Direction::NorthWest => Direction::SouthEast,
        }
    }

    /// (file step, rank step).
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction from `from` to `to` when they share a rank, file or
    /// diagonal and differ; `None` otherwise.
    pub fn between(from: Square, to: Square) -> Option<Direction> {
        let df = i16::from(to.file()) - i16::from(from.file());
        let dr = i16::from(to.rank()) - i16::from(from.rank());
        if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let delta = (df.signum() as i8, dr.signum() as i8);
        Direction::ALL.into_iter().find(|d| d.delta() == delta)
    }
}

/// A set of squares of the 16 x 16 index space, as 256 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub [u64; 4]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    /// Squares on file a (dropped after a shift towards file a wraps).
    const FILE_A: SquareSet = SquareSet([0x0001_0001_0001_0001; 4]);
    /// Squares on file p.
    const FILE_P: SquareSet = SquareSet([0x8000_8000_8000_8000; 4]);

    /// A set holding only `sq`.
    pub const fn single(sq: Square) -> SquareSet {
        let mut words = [0; 4];
        words[sq.index() / 64] = 1 << (sq.index() % 64);
        SquareSet(words)
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0[sq.index() / 64] >> (sq.index() % 64) & 1 != 0
    }

    /// Adds `sq`.
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() / 64] |= 1 << (sq.index() % 64);
    }

    /// Removes `sq`.
    pub fn remove(&mut self, sq: Square) {
        self.0[sq.index() / 64] &= !(1 << (sq.index() % 64));
    }

    /// Number of squares in the set.
    pub const fn len(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// Whether the set has no square.
    pub const fn is_empty(self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// The squares of the set in index order (a1, b1, ..., a2, ...).
    pub fn iter(self) -> SquareIter {
        SquareIter { set: self, word: 0 }
    }

    /// The set shifted one step in `dir`; squares leaving the 16 x 16
    /// space vanish (the file masks stop a shift from wrapping a square
    /// from file p onto file a of the next rank, or the reverse).
    pub fn shifted(self, dir: Direction) -> SquareSet {
        let (df, dr) = dir.delta();
        let amount = i32::from(dr) * i32::from(MAX_SIDE) + i32::from(df);
        let moved = if amount > 0 {
            self.shl(amount as u32)
        } else {
            self.shr(amount.unsigned_abs())
        };
        match df {
            1 => moved & !SquareSet::FILE_A,
            -1 => moved & !SquareSet::FILE_P,
            _ => moved,
        }
    }

    /// Squares reached by sliding from `self` in `dir` through squares of
    /// `through` (the start squares themselves excluded unless reached).
    pub fn slide(self, dir: Direction, through: SquareSet) -> SquareSet {
        let mut reached = SquareSet::EMPTY;
        let mut front = self.shifted(dir) & through;
        while !front.is_empty() {
            reached |= front;
            front = front.shifted(dir) & through & !reached;
        }
        reached
    }

    fn shl(self, n: u32) -> SquareSet {
        let w = self.0;
        let mut out = [0; 4];
        for i in 0..4 {
            out[i] = w[i] << n;
            if i > 0 {
                out[i] |= w[i - 1] >> (64 - n);
            }
        }
        SquareSet(out)
    }

    fn shr(self, n: u32) -> SquareSet {
        let w = self.0;
        let mut out = [0; 4];
        for i in 0..4 {
            out[i] = w[i] >> n;
            if i < 3 {
                out[i] |= w[i + 1] << (64 - n);
            }
        }
        SquareSet(out)
    }
}

impl BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(std::array::from_fn(|i| self.0[i] | rhs.0[i]))
    }
}

impl BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        SquareSet(std::array::from_fn(|i| self.0[i] & rhs.0[i]))
    }
}

impl Not for SquareSet {
    type Output = SquareSet;
    fn not(self) -> SquareSet {
        SquareSet(self.0.map(|w| !w))
    }
}

impl BitOrAssign for SquareSet {
    fn bitor_assign(&mut self, rhs: SquareSet) {
        *self = *self | rhs;
    }
}

impl BitAndAssign for SquareSet {
    fn bitand_assign(&mut self, rhs: SquareSet) {
        *self = *self & rhs;
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

/// Iterator over the squares of a [`SquareSet`].
pub struct SquareIter {
    set: SquareSet,
    word: usize,
}

impl Iterator for SquareIter {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        while self.word < 4 {
            let bits = self.set.0[self.word];
            if bits != 0 {
                self.set.0[self.word] = bits & (bits - 1);
                return Some(Square(
                    (self.word * 64 + bits.trailing_zeros() as usize) as u8,
                ));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for index in 0..=255u8 {
            let sq = Square::from_index(index);
            assert_eq!(Square::parse(&sq.to_string()).unwrap(), sq);
        }
        assert_eq!(Square::parse("p16").unwrap(), Square::new(15, 15).unwrap());
        for bad in ["", "q1", "a0", "a17", "a01", "4d", "a", "a1x"] {
            assert!(Square::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shifts_do_not_wrap_between_files_a_and_p() {
        let p1 = SquareSet::single(Square::parse("p1").unwrap());
        assert!(p1.shifted(Direction::East).is_empty());
        assert!(p1.shifted(Direction::NorthEast).is_empty());
        let a2 = SquareSet::single(Square::parse("a2").unwrap());
        assert!(a2.shifted(Direction::West).is_empty());
        assert!(a2.shifted(Direction::SouthWest).is_empty());
        let h8 = Square::parse("h8").unwrap();
        for dir in Direction::ALL {
            let moved: Vec<_> = SquareSet::single(h8).shifted(dir).iter().collect();
            assert_eq!(moved, vec![h8.step(dir).unwrap()]);
        }
    }

    #[test]
    fn iteration_is_in_index_order() {
        let set: SquareSet = ["c3", "a1", "p16", "b9"]
            .map(|s| Square::parse(s).unwrap())
            .into_iter()
            .collect();
        let names: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["a1", "c3", "b9", "p16"]);
        assert_eq!(set.len(), 4);
    }
}
