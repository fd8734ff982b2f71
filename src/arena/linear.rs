//! Linear Progression in the match runner: its openings and its referee
//! (the [`Refereed`] implementation). Every rule is decided by
//! [`crate::linear`]; this file only translates.

use super::referee::{Outcome, Refereed, RulesEnd, Start, Termination, position_command};
use crate::chess::Color;
use crate::linear::{self, GameRecord, Move, Options, Position, Status};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// Where a Linear Progression game starts: a root position and moves
/// played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearOpening {
    /// The root position (the record's `FEN` when not the start position).
    pub root: Position,
    /// Moves from the root.
    pub moves: Vec<Move>,
}

impl LinearOpening {
    /// The start position of `options`, no moves.
    pub fn start(options: &Options) -> LinearOpening {
        LinearOpening {
            root: Position::new(options),
            moves: Vec::new(),
        }
    }

    /// The position the engines start from.
    pub fn position(&self) -> Position {
        self.root.after_moves(&self.moves)
    }
}

/// Parses one opening line: a position in the notation, optionally
/// followed by `moves` and moves; or moves from the start position of
/// `options`. Moves are separated by spaces (or commas); move numbers
/// (`1.`, `1...`) are skipped, so a record's movetext can be pasted. The
/// position must be played under `options` (the match's rules), and the
/// game must not be over.
pub fn parse_linear_opening(line: &str, options: &Options) -> Result<LinearOpening, String> {
    let line = line.trim();
    let (root, moves_text) = if line.contains('/') {
        let (pos_text, moves) = match line.split_once(" moves") {
            Some((p, m)) => (p, m),
            None => (line, ""),
        };
        let root: Position = pos_text.trim().parse().map_err(|e| format!("{e}"))?;
        if root.options() != *options {
            return Err(format!(
                "the position's rules ({}) are not the match's ({}): give the matching --lp-* flags",
                rules_text(&root.options()),
                rules_text(options)
            ));
        }
        (root, moves)
    } else {
        (Position::new(options), line)
    };
    let mut pos = root;
    let mut moves = Vec::new();
    for token in moves_text.split([' ', '\t', ',']).filter(|t| !t.is_empty()) {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            break;
        }
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && digits < token.len() && token[digits..].chars().all(|c| c == '.') {
            continue; // a move number
        }
        let mv = pos.parse_move(token).map_err(|e| e.to_string())?;
        pos.play(mv);
        moves.push(mv);
    }
    if let Status::Over(result) = pos.status() {
        return Err(format!("the game is already over: {result}"));
    }
    Ok(LinearOpening { root, moves })
}

/// Reads a file of openings (see [`parse_linear_opening`]); an error names
/// the file and line. Blank lines and comment lines
/// ([`linear::is_comment_line`]) are skipped.
pub fn read_linear_openings(path: &str, options: &Options) -> Result<Vec<LinearOpening>, String> {
    let text = crate::lines::read_text_file(path)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || linear::is_comment_line(line) {
            continue;
        }
        let opening =
            parse_linear_opening(line, options).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings in the file"));
    }
    Ok(out)
}

/// Random legal play of the first `turns` turns (one move each) from the
/// start position of `options`, each move drawn uniformly from the legal
/// moves. A line that ends the game on the way is drawn again (a board
/// too small for `turns` gives up after many tries and keeps the start).
pub fn random_linear_opening(options: &Options, turns: u32, rng: &mut StdRng) -> LinearOpening {
    let root = Position::new(options);
    for _ in 0..1000 {
        let mut pos = root;
        let mut moves = Vec::new();
        for _ in 0..turns {
            let legal = pos.legal_moves();
            let Some(&mv) = legal.as_slice().choose(rng) else {
                break;
            };
            pos.play(mv);
            moves.push(mv);
            if pos.is_over() {
                break;
            }
        }
        if !pos.is_over() {
            return LinearOpening { root, moves };
        }
    }
    log::warn!("no random opening of {turns} turns that leaves the game open: using the start");
    LinearOpening::start(options)
}

/// The rules in words, e.g. `8x8` or `6x6 equal,blockers` (the board, then
/// the options field of the position notation when any is on).
pub fn rules_text(options: &Options) -> String {
    match (options.equal_moves, options.blockers) {
        (false, false) => options.board.to_string(),
        (true, false) => format!("{} equal", options.board),
        (false, true) => format!("{} blockers", options.board),
        (true, true) => format!("{} equal,blockers", options.board),
    }
}

/// The arena's colour (White/Black) of a Linear Progression colour.
/// Linear Progression as the referee plays it.
pub struct LinearGame {
    root: Position,
    pos: Position,
    moves: Vec<Move>,
}

impl Refereed for LinearGame {
    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    fn turn_number(&self) -> u32 {
        // One move per turn; turns counted from the root.
        self.moves.len() as u32 + 1
    }

    fn position_command(&self) -> String {
        // The engines were given the match's rules as LP_* options, so a
        // root equal to their start position is `startpos`.
        let head = if self.root == Position::new(&self.root.options()) {
            "position startpos".to_string()
        } else {
            format!("position fen {}", self.root)
        };
        position_command(&head, self.moves.iter().map(Move::to_string))
    }

    fn rules_end(&self) -> Option<RulesEnd> {
        let Status::Over(result) = self.pos.status() else {
            return None;
        };
        let outcome = match result.winner {
            Some(Color::White) => Outcome::Win(Color::White),
            Some(Color::Black) => Outcome::Win(Color::Black),
            None => Outcome::Draw,
        };
        Some(RulesEnd {
            outcome,
            termination: Termination::LinearRules(result.reason),
            note: format!(" (White {}, Black {})", result.white, result.black),
        })
    }

    fn play_token(&mut self, token: &str) -> Result<(), String> {
        if token.is_empty() || token == "(none)" {
            return Err("no move, but the game is not over".into());
        }
        let mv = self.pos.parse_move(token).map_err(|e| e.to_string())?;
        self.pos.play(mv);
        self.moves.push(mv);
        Ok(())
    }

    type Record = GameRecord;

    fn into_record(self) -> GameRecord {
        GameRecord {
            moves: self.moves,
            ..GameRecord::new(self.root)
        }
    }
}

/// Linear Progression games start from a [`LinearOpening`]; both engines
/// must have been told the rules (`UCI_Variant` and the `LP_*` options).
impl Start for LinearOpening {
    type Game = LinearGame;

    fn game(&self) -> LinearGame {
        LinearGame {
            root: self.root,
            pos: self.position(),
            moves: self.moves.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn opening_lines() {
        let options = Options::default();
        let a = parse_linear_opening("@d4 @e5 d4d6", &options).unwrap();
        let b = parse_linear_opening("1. @d4 @e5 2. d4d6", &options).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.moves.len(), 3);
        let c = parse_linear_opening("#6#/8/8/3w4/4b3/8/8/#6# w e4 0 - - moves d5d7", &options)
            .unwrap();
        assert_eq!(c.moves.len(), 1);
        assert_eq!(c.position().side_to_move(), Color::Black);
        assert!(parse_linear_opening("@d4 @d4", &options).is_err());
        assert!(parse_linear_opening("4/4/4/wwbb w - 2 - -", &options).is_err());
        let e = parse_linear_opening("4/4/4/w1b1 w - 0 - -", &options).unwrap_err();
        assert!(e.contains("not the match's (8x8)"), "{e}");
        let four: Options = Options {
            board: "4/4/4/4".parse().unwrap(),
            ..Options::default()
        };
        assert!(parse_linear_opening("4/4/4/wwbb w - 2 - -", &four).is_err());
        assert!(parse_linear_opening("4/4/4/w1b1 w - 0 - -", &four).is_ok());
    }

    #[test]
    fn random_openings_are_seeded_legal_and_open() {
        let options = Options {
            blockers: true,
            ..Options::default()
        };
        let (mut a, mut b) = (StdRng::seed_from_u64(5), StdRng::seed_from_u64(5));
        for _ in 0..5 {
            let x = random_linear_opening(&options, 4, &mut a);
            assert_eq!(x, random_linear_opening(&options, 4, &mut b));
            assert_eq!(x.moves.len(), 4);
            let mut pos = x.root;
            for &mv in &x.moves {
                pos.play_checked(mv).unwrap();
            }
            assert!(!pos.is_over());
        }
        assert_eq!(rules_text(&options), "8x8 blockers");
    }
}
