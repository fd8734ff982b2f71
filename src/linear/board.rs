//! Board shapes: a rectangle of 4 x 4 to 16 x 16 squares minus a set of
//! removed squares, and the board description text that names one.

use std::fmt;
use std::str::FromStr;

use super::LinearError;
use super::square::{Direction, MAX_SIDE, Square, SquareSet};

/// Smallest number of files or ranks a board may have.
pub const MIN_SIDE: u8 = 4;

/// A board shape: its rectangle and which of its squares are usable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    height: u8,
    usable: SquareSet,
}

impl Default for Board {
    /// The default board: 8 x 8 without its four corners (60 squares).
    fn default() -> Board {
        Board::without_corners(8, 8).expect("8x8 is a valid size")
    }
}

impl Board {
    /// A `width` x `height` rectangle minus the `removed` squares; fails
    /// when a side is outside 4..=16, a removed square lies outside the
    /// rectangle, or fewer than two squares stay usable (two drops).
    pub fn new(width: u8, height: u8, removed: SquareSet) -> Result<Board, LinearError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(LinearError::new(format!(
                "bad board size {width}x{height}: each side must be 4 to 16"
            )));
        }
        let rect = rectangle(width, height);
        if let Some(sq) = (removed & !rect).iter().next() {
            return Err(LinearError::new(format!(
                "removed square {sq} is outside the {width}x{height} board"
            )));
        }
        let usable = rect & !removed;
        if usable.len() < 2 {
            return Err(LinearError::new(format!(
                "board {width}x{height} has {} usable squares; it needs at least 2",
                usable.len()
            )));
        }
        Ok(Board {
            width,
            height,
            usable,
        })
    }

    /// A rectangle with its four corners removed.
    pub fn without_corners(width: u8, height: u8) -> Result<Board, LinearError> {
        let corners = corner_squares(width, height).into_iter().collect();
        Board::new(width, height, corners)
    }

    /// Number of files.
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Number of ranks.
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// The usable squares.
    pub const fn usable(&self) -> SquareSet {
        self.usable
    }

    /// Whether `sq` is a usable square of this board.
    pub const fn is_usable(&self, sq: Square) -> bool {
        self.usable.contains(sq)
    }

    /// Whether `sq` lies inside the rectangle (usable or removed).
    pub const fn contains(&self, sq: Square) -> bool {
        sq.file() < self.width && sq.rank() < self.height
    }

    /// The four corner squares of the rectangle: a1, the last file on
    /// rank 1, file a on the last rank, and the far corner.
    pub fn corners(&self) -> [Square; 4] {
        corner_squares(self.width, self.height)
    }

    /// Whether `sq` is one of the four corners of the rectangle.
    pub fn is_corner(&self, sq: Square) -> bool {
        self.corners().contains(&sq)
    }

    /// The neighbour of `sq` in `dir`, if it is inside the rectangle.
    pub fn step(&self, sq: Square, dir: Direction) -> Option<Square> {
        sq.step(dir).filter(|&next| self.contains(next))
    }

    /// The named preset this board equals, if any (see [`Board::from_str`]).
    fn preset_name(&self) -> Option<String> {
        let (w, h) = (self.width, self.height);
        if *self == Board::without_corners(w, h).ok()? {
            return Some(format!("{w}x{h}"));
        }
        if *self == corner_blocks(w, h).ok()? {
            return Some(format!("{w}x{h}-corner-blocks"));
        }
        (*self == center_isle()).then(|| "center-isle".to_string())
    }

    /// The explicit description: rows of `.` and `#`, top rank first.
    pub fn rows(&self) -> String {
        let rows: Vec<String> = (0..self.height)
            .rev()
            .map(|rank| {
                (0..self.width)
                    .map(|file| match Square::new(file, rank) {
                        Some(sq) if self.is_usable(sq) => '.',
                        _ => '#',
                    })
                    .collect()
            })
            .collect();
        rows.join("/")
    }
}

impl FromStr for Board {
    type Err = LinearError;

    /// Parses a board description: a preset (`8x8`, the default; any
    /// `WxH` for a rectangle without its corners, e.g. `10x10`;
    /// `WxH-corner-blocks` for a rectangle minus each 2 x 2 corner block;
    /// `center-isle` for the default minus the four centre squares), or
    /// explicit rows of `.` (usable) and `#` (removed), top rank first,
    /// separated by `/`, where a digit run `n` stands for `n` usable squares.
    fn from_str(text: &str) -> Result<Board, LinearError> {
        let text = text.trim();
        if text == "center-isle" {
            return Ok(center_isle());
        }
        if let Some(size) = text.strip_suffix("-corner-blocks") {
            let (w, h) = parse_size(size).ok_or_else(|| unknown_board(text))?;
            return corner_blocks(w, h);
        }
        if let Some((w, h)) = parse_size(text) {
            return Board::without_corners(w, h);
        }
        if text.contains('/') {
            let (width, height, removed) = parse_rows(text, |c| match c {
                '.' => Some(false),
                '#' => Some(true),
                _ => None,
            })?;
            let removed = removed
                .iter()
                .filter(|&&(_, r)| r)
                .map(|&(sq, _)| sq)
                .collect();
            return Board::new(width, height, removed);
        }
        Err(unknown_board(text))
    }
}

impl fmt::Display for Board {
    /// The preset name when the board is one, else the explicit rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(name) => f.write_str(&name),
            None => f.write_str(&self.rows()),
        }
    }
}

fn unknown_board(text: &str) -> LinearError {
    LinearError::new(format!(
        "bad board '{text}': expected 8x8, WxH, WxH-corner-blocks, center-isle, \
         or rows of '.' and '#' separated by '/'"
    ))
}

/// `WxH` with both numbers in 1..=99 (range checked by [`Board::new`]).
fn parse_size(text: &str) -> Option<(u8, u8)> {
    let (w, h) = text.split_once('x')?;
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(w)?, number(h)?))
}

/// A parsed grid: width, height and each square's state.
pub(crate) type Grid<T> = (u8, u8, Vec<(Square, T)>);

/// A grid of `/`-separated rows, top rank first; `cell` maps a character
/// to a square state, and a digit run stands for that many `.` cells.
pub(crate) fn parse_rows<T: Copy>(
    text: &str,
    cell: impl Fn(char) -> Option<T>,
) -> Result<Grid<T>, LinearError> {
    let rows: Vec<&str> = text.split('/').collect();
    let height = rows.len();
    if !(usize::from(MIN_SIDE)..=usize::from(MAX_SIDE)).contains(&height) {
        return Err(LinearError::new(format!(
            "bad board '{text}': {height} rows, expected 4 to 16"
        )));
    }
    let mut cells = Vec::new();
    let mut width = None;
    for (i, row) in rows.iter().enumerate() {
        let rank = (height - 1 - i) as u8;
        let states = expand_row(row, &cell)
            .ok_or_else(|| LinearError::new(format!("bad row '{row}' in '{text}'")))?;
        if *width.get_or_insert(states.len()) != states.len() {
            return Err(LinearError::new(format!(
                "bad row '{row}' in '{text}': {} squares, the first row has {}",
                states.len(),
                width.unwrap_or(0)
            )));
        }
        if states.len() > usize::from(MAX_SIDE) {
            return Err(LinearError::new(format!(
                "bad row '{row}' in '{text}': more than 16 squares"
            )));
        }
        for (file, state) in states.into_iter().enumerate() {
            let sq = Square::new(file as u8, rank).expect("file and rank below 16");
            cells.push((sq, state));
        }
    }
    Ok((width.unwrap_or(0) as u8, height as u8, cells))
}

/// One row's cell states, or `None` on a character `cell` rejects.
fn expand_row<T: Copy>(row: &str, cell: &impl Fn(char) -> Option<T>) -> Option<Vec<T>> {
    let empty = cell('.')?;
    let mut states = Vec::new();
    let mut run = 0usize;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            run = run * 10 + d as usize;
            if run > usize::from(MAX_SIDE) || run == 0 {
                return None;
            }
            continue;
        }
        states.extend(std::iter::repeat_n(empty, run));
        run = 0;
        states.push(cell(c)?);
    }
    states.extend(std::iter::repeat_n(empty, run));
    Some(states)
}

fn rectangle(width: u8, height: u8) -> SquareSet {
    (0..height)
        .flat_map(|rank| (0..width).filter_map(move |file| Square::new(file, rank)))
        .collect()
}

fn corner_squares(width: u8, height: u8) -> [Square; 4] {
    let (w, h) = (width.clamp(1, MAX_SIDE) - 1, height.clamp(1, MAX_SIDE) - 1);
    [(0, 0), (w, 0), (0, h), (w, h)].map(|(f, r)| Square::new(f, r).expect("inside 16x16"))
}

fn corner_blocks(width: u8, height: u8) -> Result<Board, LinearError> {
    let (w, h) = (width.saturating_sub(1), height.saturating_sub(1));
    let near = |x: u8, last: u8| x <= 1 || x + 1 >= last;
    let removed = rectangle(width.min(MAX_SIDE), height.min(MAX_SIDE))
        .iter()
        .filter(|sq| near(sq.file(), w) && near(sq.rank(), h))
        .collect();
    Board::new(width, height, removed)
}

fn center_isle() -> Board {
    let centre = ["d4", "e4", "d5", "e5"].map(|s| Square::parse(s).expect("valid name"));
    let removed = Board::default()
        .corners()
        .into_iter()
        .chain(centre)
        .collect();
    Board::new(8, 8, removed).expect("valid preset")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn presets_have_the_right_number_of_squares() {
        assert_eq!(board("8x8").usable().len(), 60);
        assert_eq!(Board::default(), board("8x8"));
        assert_eq!(board("center-isle").usable().len(), 56);
        assert_eq!(board("8x8-corner-blocks").usable().len(), 48);
        assert_eq!(board("10x10").usable().len(), 96);
        assert_eq!(board("16x4").usable().len(), 60);
        assert!(!board("8x8").is_usable(Square::parse("h8").unwrap()));
        assert!(!board("center-isle").is_usable(Square::parse("e5").unwrap()));
        assert!(!board("8x8-corner-blocks").is_usable(Square::parse("g7").unwrap()));
    }

    #[test]
    fn descriptions_round_trip() {
        for text in [
            "8x8",
            "center-isle",
            "8x8-corner-blocks",
            "10x10",
            "5x7",
            "..../.#../..../....",
        ] {
            assert_eq!(board(text).to_string(), text);
            assert_eq!(board(&board(text).rows()), board(text));
        }
        assert_eq!(board("4/4/4/4").to_string(), "..../..../..../....");
        assert_eq!(board("#6#/8/8/8/8/8/8/#6#"), board("8x8"));
        assert_eq!(board("#......#/8/8/8/8/8/8/#......#"), board("8x8"));
    }

    #[test]
    fn bad_descriptions_name_the_offending_text() {
        let cases = [
            ("3x3", "3x3"),
            ("17x8", "17x8"),
            ("9x9-corner", "9x9-corner"),
            ("..../..../..x./....", "..x."),
            ("..../..../.../....", "..."),
            ("..../..../....", "3 rows"),
            ("####/####/####/###.", "1 usable"),
            ("banana", "banana"),
        ];
        for (text, needle) in cases {
            let err = text.parse::<Board>().unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn corners_of_a_rectangle() {
        let names = board("5x4").corners().map(|s| s.to_string());
        assert_eq!(names, ["a1", "e1", "a4", "e4"]);
    }
}
