//! The game state: tokens, blockers, turn state, making moves, game end.

use super::LinearError;
use super::board::Board;
use super::moves::Move;
use super::square::{Color, Direction, Square, SquareSet};
use std::fmt;

/// The engine options that change the rules (all off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Rule 12: Black always moves last; if White fills the last empty
    /// square, Black makes one more move.
    pub equal_moves: bool,
    /// Rule 13: each player has one blocker.
    pub blockers: bool,
    /// Rule 14: the board shape (default: 8 x 8 without corners).
    pub board: Board,
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Rule 11: the last empty square was filled (and, under rule 12,
    /// Black made its extra move).
    BoardFull,
    /// Rule 10: both players passed in a row.
    BothPassed,
}

/// The result of a finished game, with the final counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// Who won (the side with more squares); `None`: a draw.
    pub winner: Option<Color>,
    /// Squares holding a White token.
    pub white: u32,
    /// Squares holding a Black token.
    pub black: u32,
    /// Why the game ended.
    pub reason: EndReason,
}

impl fmt::Display for GameResult {
    /// `1-0 (board full: White 33, Black 27)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let score = match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        };
        let reason = match self.reason {
            EndReason::BoardFull => "board full",
            EndReason::BothPassed => "both passed",
        };
        write!(
            f,
            "{score} ({reason}: White {}, Black {})",
            self.white, self.black
        )
    }
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a move (possibly the pass `0000`).
    Ongoing,
    /// The game is over.
    Over(GameResult),
}

/// A Linear Progression position: the board, every token and blocker, and
/// the turn state the rules need.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) tokens: [SquareSet; 2],
    /// Each colour's blocker square once placed (rule 13).
    pub(crate) blockers: [Option<Square>; 2],
    pub(crate) side: Color,
    /// Where the previous turn's drop or token move ended (rule 13).
    pub(crate) last_end: Option<Square>,
    /// Passes in a row just before this position (2 ends the game).
    pub(crate) passes: u8,
    pub(crate) equal_moves: bool,
    pub(crate) use_blockers: bool,
}

impl Position {
    /// The start position: empty board, White to drop.
    pub fn new(options: &Options) -> Position {
        Position {
            board: options.board,
            tokens: [SquareSet::EMPTY; 2],
            blockers: [None; 2],
            side: Color::White,
            last_end: None,
            passes: 0,
            equal_moves: options.equal_moves,
            use_blockers: options.blockers,
        }
    }

    /// The options this position is played under.
    pub fn options(&self) -> Options {
        Options {
            equal_moves: self.equal_moves,
            blockers: self.use_blockers,
            board: self.board,
        }
    }

    /// The board shape.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Squares holding a token of `colour`.
    pub fn tokens(&self, colour: Color) -> SquareSet {
        self.tokens[colour.index()]
    }

    /// Number of squares holding a token of `colour`.
    pub fn count(&self, colour: Color) -> u32 {
        self.tokens(colour).len()
    }

    /// The square of `colour`'s blocker, once placed.
    pub fn blocker(&self, colour: Color) -> Option<Square> {
        self.blockers[colour.index()]
    }

    /// Where the previous turn ended (`None` after a pass or at the start).
    pub fn last_end(&self) -> Option<Square> {
        self.last_end
    }

    /// Passes in a row just made (0, 1, or 2 when the game ended so).
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// Usable squares without a token; an empty square under a blocker
    /// still counts as empty (rule 13, settled).
    pub fn empty_squares(&self) -> SquareSet {
        self.board.usable() & !self.occupied()
    }

    /// Squares holding a token of either colour.
    pub fn occupied(&self) -> SquareSet {
        self.tokens[0] | self.tokens[1]
    }

    /// Squares holding a blocker.
    pub(crate) fn blocker_set(&self) -> SquareSet {
        self.blockers.iter().flatten().copied().collect()
    }

    /// Whether the side to move still has its drop to make (rule 4): a
    /// colour that has dropped always keeps a token (rule 7).
    pub fn is_drop_turn(&self) -> bool {
        self.tokens[self.side.index()].is_empty()
    }

    /// Whether this is Black's extra move of rule 12: the board is full,
    /// White filled it, and the move is exempt from rule 8.
    pub fn is_final_move(&self) -> bool {
        self.equal_moves && self.side == Color::Black && self.empty_squares().is_empty()
    }

    /// The game status; the result once over.
    pub fn status(&self) -> Status {
        let full = self.empty_squares().is_empty();
        let reason = if self.passes >= 2 {
            EndReason::BothPassed
        } else if full && !self.is_final_move() {
            EndReason::BoardFull
        } else {
            return Status::Ongoing;
        };
        let (white, black) = (self.count(Color::White), self.count(Color::Black));
        let winner = match white.cmp(&black) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        };
        Status::Over(GameResult {
            winner,
            white,
            black,
            reason,
        })
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.status() != Status::Ongoing
    }

    /// The position after `moves` (legal in turn, as [`Position::play`]
    /// requires).
    pub fn after_moves(&self, moves: &[Move]) -> Position {
        moves.iter().fold(*self, |pos, &mv| pos.after(mv))
    }

    /// Plays `mv`, which must be legal (see [`Position::play_checked`]).
    pub fn play(&mut self, mv: Move) {
        let me = self.side.index();
        match mv {
            Move::Pass => {
                self.passes += 1;
                self.last_end = None;
            }
            Move::Drop { to, blocker } => {
                self.tokens[me].insert(to);
                if blocker.is_some() {
                    self.blockers[me] = blocker;
                }
                self.last_end = Some(to);
                self.passes = 0;
            }
            Move::Slide { from, to, blocker } => {
                self.paint(from, to);
                if let Some((_, target)) = blocker {
                    self.blockers[me] = Some(target);
                }
                self.last_end = Some(to);
                self.passes = 0;
            }
        }
        self.side = self.side.other();
    }

    /// The position after `mv`, which must be legal.
    pub fn after(&self, mv: Move) -> Position {
        let mut next = *self;
        next.play(mv);
        next
    }

    /// Plays `mv` if it is legal; otherwise an error naming it.
    pub fn play_checked(&mut self, mv: Move) -> Result<(), LinearError> {
        if !self.legal_moves().contains(&mv) {
            return Err(LinearError::new(format!("illegal move '{mv}' in {self}")));
        }
        self.play(mv);
        Ok(())
    }

    /// Paints every square after `from` up to and including `to` in the
    /// side to move's colour (rules 5 and 6); `from` keeps its token.
    pub(crate) fn paint(&mut self, from: Square, to: Square) {
        let path = path(from, to);
        let (me, opp) = (self.side.index(), self.side.other().index());
        self.tokens[me] |= path;
        self.tokens[opp] &= !path;
    }

    /// A 64-bit hash of everything that decides the game from here on.
    pub fn key(&self) -> u64 {
        let mut h = splitmix(
            u64::from(self.side == Color::Black)
                | u64::from(self.passes) << 1
                | u64::from(self.equal_moves) << 3
                | u64::from(self.use_blockers) << 4,
        );
        for word in self.tokens[0].0.into_iter().chain(self.tokens[1].0) {
            h = splitmix(h ^ word);
        }
        if self.use_blockers {
            // The last end only matters to the blocker rule.
            let code = |sq: Option<Square>| sq.map_or(0, |s| s.index() as u64 + 1);
            let extra = code(self.blockers[0]) | code(self.blockers[1]) << 9;
            h = splitmix(h ^ extra ^ code(self.last_end) << 18);
        }
        h
    }
}

/// The squares after `from` up to and including `to`, on one line.
pub(crate) fn path(from: Square, to: Square) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    let Some(dir) = Direction::between(from, to) else {
        return set;
    };
    let mut sq = from;
    while sq != to {
        match sq.step(dir) {
            Some(next) => sq = next,
            None => break,
        }
        set.insert(sq);
    }
    set
}

/// The splitmix64 finaliser: a cheap, well-mixing 64-bit permutation.
pub(crate) fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
