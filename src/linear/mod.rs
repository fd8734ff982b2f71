//! Linear Progression: board shapes, positions, moves, rules and a search.
//!
//! The rules are those of `shared/rules/linear-progression.md`, with the
//! choices and text formats documented in the Linear Progression section of
//! `protocol.md` (the API in `docs/linear-progression.md`). This module tree
//! shares with the chess code only the crate's neutral types ([`Color`],
//! [`crate::clock::Clock`], [`crate::bench::BenchReport`]), so the two games
//! stand apart. Its files carry the chess side's names for the same
//! concepts: `moves.rs`, `movegen.rs`, `position.rs`, `search.rs`, `tt.rs`,
//! `eval.rs`, `time.rs`, `bench.rs`, `perft.rs`.
//!
//! A quick tour:
//! - [`Board`] is a board shape, parsed from a description such as `8x8`.
//! - [`Options`] picks the board and the optional rules; [`Position::new`]
//!   gives the start position, [`Position::from_str`] parses the one-line
//!   position notation and `Display` prints it.
//! - [`Position::legal_moves`], [`Position::play`], [`Position::status`]
//!   and [`Position::parse_move`] run a game; [`Move`] prints as `@d4`,
//!   `d4h8`, `d4h8+a1a5` or `0000`.
//! - [`perft`] counts move sequences; [`search`] finds a good move.
//! - [`GameRecord`] is a played game as PGN-like text ([`parse_record`]
//!   reads it back).
//!
//! [`Position::from_str`]: std::str::FromStr::from_str

mod bench;
mod board;
mod eval;
mod limits;
mod movegen;
mod moves;
mod perft;
mod position;
mod record;
mod score;
mod search;
mod square;
pub mod time;
mod tt;
mod worker;

use std::fmt;

pub use bench::{BENCH_DEPTH, BENCH_POSITIONS, bench};
pub use board::Board;
pub use eval::evaluate;
pub use limits::Limits;
pub use moves::Move;
pub use perft::{PerftResult, perft, perft_divide, perft_until_stopped};
pub use position::{EndReason, GameResult, Options, Position, Status};
pub use record::{GameRecord, parse_record, result_token};
pub use score::Score;
pub use search::{SearchInfo, SearchResult, Searcher, search};
pub use square::{Color, Direction, Square, SquareSet};

/// Whether a line of a file of positions (`crescendo analyse --file`,
/// `crescendo match --openings`) is a comment: it starts with `#` and its
/// first word has no `/`. A grid always has a `/` (a board has at least 4
/// rows) and may itself start with `#` (a removed corner), so the chess
/// files' rule "a line starting with `#`" would skip positions.
pub fn is_comment_line(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with('#') && !line.split_whitespace().next().unwrap_or("").contains('/')
}

/// An error in Linear Progression text (board, position or move) or a move
/// that is illegal in the position; the message names the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearError {
    message: String,
}

impl LinearError {
    pub(crate) fn new(message: impl Into<String>) -> LinearError {
        LinearError {
            message: message.into(),
        }
    }

    /// The message, e.g. `bad square 'q9': expected a..p and 1..16`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for LinearError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LinearError {}

#[cfg(test)]
mod tests {
    #[test]
    fn comment_lines_are_told_from_grids() {
        assert!(super::is_comment_line("# openings"));
        assert!(super::is_comment_line("#"));
        assert!(super::is_comment_line("#note: 8x8"));
        assert!(!super::is_comment_line("#6#/8/8/8/8/8/8/#6# w - 0 - -"));
        assert!(!super::is_comment_line("4/4/4/4 w - 0 - -"));
        assert!(!super::is_comment_line("@d4 @e5"));
    }
}
