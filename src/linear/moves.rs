//! Move notation and the one-line position notation.
//!
//! Moves: `@d4` (drop), `@d4+a1` (drop and blocker corner), `d4h8` (token
//! move), `d4h8+a1a5` (token move, then blocker move), `0000` (pass).
//!
//! Positions: six space-separated fields,
//! `<grid> <side> <last> <passes> <options> <blockers>`, e.g. the start
//! `#6#/8/8/8/8/8/8/#6# w - 0 - -`; see the Linear Progression section of
//! `protocol.md`.

use std::fmt;
use std::str::FromStr;

use super::LinearError;
use super::board::{Board, parse_rows};
use super::position::Position;
use super::square::{Color, Square, SquareSet};

/// One turn of Linear Progression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A first turn (rule 4): a token dropped on `to`; with blockers
    /// (rule 13) also the corner where the player's blocker starts.
    Drop {
        /// The drop square.
        to: Square,
        /// The blocker's corner, with blockers only.
        blocker: Option<Square>,
    },
    /// A token move (rule 5) from an own square to `to`, then optionally
    /// the player's blocker from one square to another (rule 13).
    Slide {
        /// An own square the move starts from (it keeps its token).
        from: Square,
        /// The last square entered.
        to: Square,
        /// The blocker move `(from, to)`, if any.
        blocker: Option<(Square, Square)>,
    },
    /// No legal move (rule 10), written `0000`.
    Pass,
}

impl Move {
    /// Parses move text without checking legality (see
    /// [`Position::parse_move`] for that).
    pub fn parse(text: &str) -> Result<Move, LinearError> {
        let bad = |why: &str| LinearError::new(format!("bad move '{text}': {why}"));
        if text == "0000" {
            return Ok(Move::Pass);
        }
        let (main, extra) = match text.split_once('+') {
            Some((main, extra)) => (main, Some(extra)),
            None => (text, None),
        };
        if let Some(square) = main.strip_prefix('@') {
            let to = Square::parse(square).map_err(|e| bad(e.message()))?;
            let blocker = extra
                .map(Square::parse)
                .transpose()
                .map_err(|e| bad(e.message()))?;
            return Ok(Move::Drop { to, blocker });
        }
        let (from, to) = split_squares(main)
            .ok_or_else(|| bad("expected @<square>, <from><to>, <from><to>+<from><to> or 0000"))?;
        let blocker = match extra {
            Some(extra) => Some(split_squares(extra).ok_or_else(|| bad("bad blocker move"))?),
            None => None,
        };
        Ok(Move::Slide { from, to, blocker })
    }
}

/// Splits `d4h8` or `a10b12` into two squares.
fn split_squares(text: &str) -> Option<(Square, Square)> {
    let second = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_lowercase())?
        .0;
    let from = Square::parse(&text[..second]).ok()?;
    let to = Square::parse(&text[second..]).ok()?;
    Some((from, to))
}

impl FromStr for Move {
    type Err = LinearError;

    fn from_str(text: &str) -> Result<Move, LinearError> {
        Move::parse(text)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Pass => f.write_str("0000"),
            Move::Drop { to, blocker } => {
                write!(f, "@{to}")?;
                blocker.map_or(Ok(()), |corner| write!(f, "+{corner}"))
            }
            Move::Slide { from, to, blocker } => {
                write!(f, "{from}{to}")?;
                blocker.map_or(Ok(()), |(a, b)| write!(f, "+{a}{b}"))
            }
        }
    }
}

impl Position {
    /// Parses move text and checks it is legal here; the error names the
    /// move (and the position when the move is illegal).
    pub fn parse_move(&self, text: &str) -> Result<Move, LinearError> {
        let mv = Move::parse(text.trim())?;
        if self.legal_moves().contains(&mv) {
            Ok(mv)
        } else {
            Err(LinearError::new(format!("illegal move '{text}' in {self}")))
        }
    }
}

/// A grid cell of the position notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Empty,
    Removed,
    Token(Color),
}

fn cell_of(c: char) -> Option<Cell> {
    match c {
        '.' => Some(Cell::Empty),
        '#' => Some(Cell::Removed),
        'w' => Some(Cell::Token(Color::White)),
        'b' => Some(Cell::Token(Color::Black)),
        _ => None,
    }
}

impl fmt::Display for Position {
    /// `<grid> <side> <last> <passes> <options> <blockers>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let square = |sq: Option<Square>| sq.map_or("-".to_string(), |s| s.to_string());
        let options = match (self.equal_moves, self.use_blockers) {
            (false, false) => "-",
            (true, false) => "equal",
            (false, true) => "blockers",
            (true, true) => "equal,blockers",
        };
        let blockers = if self.use_blockers {
            format!("{},{}", square(self.blockers[0]), square(self.blockers[1]))
        } else {
            "-".to_string()
        };
        write!(
            f,
            "{} {} {} {} {} {}",
            self.grid(),
            self.side.letter(),
            square(self.last_end),
            self.passes,
            options,
            blockers
        )
    }
}

impl Position {
    /// The grid field: rows top rank first, `#` removed, `w`/`b` tokens,
    /// a digit run for that many empty squares.
    fn grid(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..self.board.height()).rev() {
            let mut row = String::new();
            let mut run = 0;
            for file in 0..self.board.width() {
                let sq = Square::new(file, rank).expect("board fits 16x16");
                let c = if !self.board.is_usable(sq) {
                    '#'
                } else if self.tokens[0].contains(sq) {
                    'w'
                } else if self.tokens[1].contains(sq) {
                    'b'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    row += &run.to_string();
                    run = 0;
                }
                row.push(c);
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        rows.join("/")
    }
}

impl FromStr for Position {
    type Err = LinearError;

    /// Parses `<grid> <side> <last> <passes> <options> <blockers>`.
    fn from_str(text: &str) -> Result<Position, LinearError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [grid, side, last, passes, options, blockers] = fields[..] else {
            return Err(LinearError::new(format!(
                "bad position '{text}': expected 6 fields \
                 (grid side last passes options blockers), found {}",
                fields.len()
            )));
        };
        let mut pos = parse_grid(grid)?;
        pos.side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(field_error("side to move", side, "expected w or b")),
        };
        pos.last_end = parse_optional_square(last, "last end")?;
        pos.passes = match passes {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            _ => return Err(field_error("passes", passes, "expected 0, 1 or 2")),
        };
        (pos.equal_moves, pos.use_blockers) = parse_options(options)?;
        pos.blockers = parse_blockers(blockers, pos.use_blockers)?;
        validate(&pos)?;
        Ok(pos)
    }
}

fn field_error(field: &str, value: &str, why: &str) -> LinearError {
    LinearError::new(format!("bad {field} '{value}': {why}"))
}

fn parse_grid(grid: &str) -> Result<Position, LinearError> {
    let (width, height, cells) = parse_rows(grid, cell_of)?;
    let mut removed = SquareSet::EMPTY;
    let mut tokens = [SquareSet::EMPTY; 2];
    for (sq, cell) in cells {
        match cell {
            Cell::Removed => removed.insert(sq),
            Cell::Token(colour) => tokens[colour.index()].insert(sq),
            Cell::Empty => {}
        }
    }
    let board = Board::new(width, height, removed)?;
    let mut pos = Position::new(&super::Options {
        board,
        ..Default::default()
    });
    pos.tokens = tokens;
    Ok(pos)
}

fn parse_optional_square(text: &str, field: &str) -> Result<Option<Square>, LinearError> {
    if text == "-" {
        return Ok(None);
    }
    Square::parse(text)
        .map(Some)
        .map_err(|e| field_error(field, text, e.message()))
}

fn parse_options(text: &str) -> Result<(bool, bool), LinearError> {
    let (mut equal, mut blockers) = (false, false);
    if text == "-" {
        return Ok((equal, blockers));
    }
    for name in text.split(',') {
        match name {
            "equal" if !equal => equal = true,
            "blockers" if !blockers => blockers = true,
            _ => {
                return Err(field_error(
                    "options",
                    text,
                    "expected -, equal, blockers or equal,blockers",
                ));
            }
        }
    }
    Ok((equal, blockers))
}

fn parse_blockers(text: &str, use_blockers: bool) -> Result<[Option<Square>; 2], LinearError> {
    if !use_blockers {
        return match text {
            "-" => Ok([None; 2]),
            _ => Err(field_error(
                "blockers",
                text,
                "expected - as the blockers option is off",
            )),
        };
    }
    let (white, black) = text.split_once(',').ok_or_else(|| {
        field_error(
            "blockers",
            text,
            "expected <white>,<black>, e.g. a1,- or -,-",
        )
    })?;
    Ok([
        parse_optional_square(white, "white blocker")?,
        parse_optional_square(black, "black blocker")?,
    ])
}

/// The cross-field checks: drops, blockers and the last end agree with
/// the tokens.
fn validate(pos: &Position) -> Result<(), LinearError> {
    let err = |why: String| Err(LinearError::new(format!("bad position '{pos}': {why}")));
    let dropped = Color::BOTH.map(|c| !pos.tokens(c).is_empty());
    let order_ok = matches!(
        (dropped, pos.side),
        ([false, false], Color::White) | ([true, false], Color::Black) | ([true, true], _)
    );
    if !order_ok {
        return err("the tokens and the side to move do not fit the drop order".into());
    }
    for colour in Color::BOTH {
        let blocker = pos.blocker(colour);
        if pos.use_blockers && blocker.is_some() != dropped[colour.index()] {
            return err(format!(
                "a blocker is placed exactly when its owner has dropped ({colour:?})"
            ));
        }
        if let Some(sq) = blocker
            && !pos.board.is_usable(sq)
            && !pos.board.is_corner(sq)
        {
            return err(format!(
                "blocker on {sq}, a removed square that is not a corner"
            ));
        }
    }
    if pos.blockers[0].is_some() && pos.blockers[0] == pos.blockers[1] {
        return err("both blockers on one square".into());
    }
    if let Some(sq) = pos.last_end
        && (pos.passes > 0 || !pos.tokens(pos.side.other()).contains(sq))
    {
        return err(format!(
            "last end {sq} must hold a token of the player who just moved, and no pass since"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::Options;

    fn error_of(text: &str) -> String {
        text.parse::<Position>().unwrap_err().to_string()
    }

    #[test]
    fn moves_print_and_parse_back() {
        for text in [
            "@d4",
            "@d4+a1",
            "d4h8",
            "d4h8+a1a5",
            "a10p16",
            "p16a1+a2a16",
            "0000",
        ] {
            assert_eq!(Move::parse(text).unwrap().to_string(), text);
        }
        let blockers = Options {
            blockers: true,
            ..Options::default()
        };
        let mut p = Position::new(&blockers);
        for text in ["@d4+a1", "@e5+h8", "d4d6+a1b1"] {
            p.play(p.parse_move(text).unwrap());
        }
        for mv in p.legal_moves() {
            assert_eq!(p.parse_move(&mv.to_string()).unwrap(), mv);
        }
    }

    #[test]
    fn bad_and_illegal_moves_name_the_move() {
        for text in [
            "", "d4", "d4h", "@q4", "@d4+", "d4h8+a1", "d4h8+a1a", "00000", "d0h8",
        ] {
            let err = Move::parse(text).unwrap_err().to_string();
            assert!(err.contains(&format!("'{text}'")), "{text}: {err}");
        }
        let start = Position::new(&Options::default());
        let err = start.parse_move("d4h8").unwrap_err().to_string();
        assert!(
            err.starts_with("illegal move 'd4h8' in #6#/8/8/8/8/8/8/#6# w"),
            "{err}"
        );
        assert!(start.parse_move("@a1").is_err() && start.parse_move("0000").is_err());
    }

    #[test]
    fn positions_print_and_parse_back() {
        let start = Position::new(&Options::default());
        assert_eq!(start.to_string(), "#6#/8/8/8/8/8/8/#6# w - 0 - -");
        for text in [
            "#6#/8/8/3w4/4b3/8/8/#6# w e4 0 - -",
            "#6#/8/8/3w4/4b3/8/8/#6# w - 1 equal -",
            "#6#/8/8/3w4/4b3/8/8/#6# b - 0 equal,blockers a1,h8",
            "#6#/8/8/3w4/8/8/8/#6# b d5 0 blockers d5,-",
            "4/4/4/w1b1 w - 2 - -",
            "#14#/16/16/16/16/16/16/16/16/16/16/16/16/16/16/#14# w - 0 - -",
        ] {
            assert_eq!(text.parse::<Position>().unwrap().to_string(), text);
        }
        let dotted: Position = "#......#/8/8/8/8/8/8/#......# w - 0 - -".parse().unwrap();
        assert_eq!(dotted, start);
    }

    #[test]
    fn bad_positions_name_the_offending_field() {
        let cases = [
            ("#6#/8/8/8/8/8/8/#6# w - 0 -", "found 5"),
            ("#6#/8/8/8/8/8/8/#6# x - 0 - -", "bad side to move 'x'"),
            ("#6#/8/8/8/8/8/8/#6# w z9 0 - -", "bad last end 'z9'"),
            ("#6#/8/8/8/8/8/8/#6# w - 3 - -", "bad passes '3'"),
            ("#6#/8/8/8/8/8/8/#6# w - 0 fast -", "bad options 'fast'"),
            ("#6#/8/8/8/8/8/8/#6# w - 0 - a1,h8", "bad blockers 'a1,h8'"),
            ("#6#/8/8/8/8/8/8/#6# w - 0 blockers a1", "bad blockers 'a1'"),
            ("#6#/8/8/3q4/8/8/8/#6# w - 0 - -", "bad row '3q4'"),
            ("#6#/8/8/3w5/8/8/8/#6# w - 0 - -", "bad row '3w5'"),
            ("#6#/8/8/3w4/8/8/8/#6# w - 0 - -", "drop order"),
            (
                "#6#/8/8/3w4/8/8/8/#6# b d5 0 blockers -,-",
                "blocker is placed",
            ),
            (
                "#6#/8/8/3w4/8/8/8/#6# b d5 0 blockers b2,h8",
                "blocker is placed",
            ),
            ("#6#/8/8/3w4/8/8/8/#6# b d5 0 blockers d5,-", ""),
            (
                "#6#/8/8/3##3/2w##b2/8/8/#6# w f4 0 blockers d4,a1",
                "not a corner",
            ),
            ("#6#/8/8/3w4/4b3/8/8/#6# w d5 0 - -", "last end d5"),
            ("#6#/8/8/3w4/4b3/8/8/#6# w e4 1 - -", "last end e4"),
            ("#6#/8/8/3w4/4b3/8/8/#6# w - 0 blockers a1,a1", "one square"),
            ("#6#/8/8/3w4/4b3/8/8/#6# w - 0 blockers a1,b1", ""),
        ];
        for (text, needle) in cases {
            match text.parse::<Position>() {
                Ok(_) => assert!(needle.is_empty(), "{text} parsed"),
                Err(e) => assert!(
                    !needle.is_empty() && e.to_string().contains(needle),
                    "{text}: {e}"
                ),
            }
        }
        assert!(error_of("banana").contains("expected 6 fields"));
    }
}
