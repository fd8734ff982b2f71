//! The game record of a Linear Progression game: a PGN-like text with the
//! rules in tags and the moves in the move notation (protocol.md, "Linear
//! Progression game records"). `crescendo match` writes it; [`parse_record`]
//! reads it back, checking every move with the rules.

use super::LinearError;
use super::moves::Move;
use super::position::{Options, Position, Status};
use super::square::Color;
use crate::record::{escape, wrap};

/// One game: where it started (the root carries the board and the
/// options), its moves, and its tags other than those the record derives
/// from `start` (`Variant`, `Board`, `EqualMoves`, `Blockers`, `SetUp`,
/// `FEN`).
pub type GameRecord = crate::record::Record<Position, Move>;

/// The tags derived from the start position: written by
/// [`GameRecord::to_pgn`] itself, not kept in [`GameRecord::tags`].
const DERIVED: [&str; 6] = ["Variant", "Board", "EqualMoves", "Blockers", "SetUp", "FEN"];

/// The Seven Tag Roster of PGN, written first and in this order.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

impl GameRecord {
    /// The position after all the moves (which must be legal, as they are
    /// in a record built by play or by [`parse_record`]).
    pub fn end_position(&self) -> Position {
        self.start.after_moves(&self.moves)
    }

    /// The record as text: the roster, `Variant`, `Board`, `EqualMoves`,
    /// `Blockers`, `SetUp`/`FEN` when the root is not the start position of
    /// those rules, the other tags, a blank line, then the moves numbered
    /// by White's turns (`1. @d4 @e5 2. d4d6 e5e3 ...`) and the result.
    pub fn to_pgn(&self) -> String {
        let end = self.end_position();
        let result = self
            .tag("Result")
            .map(str::to_string)
            .unwrap_or_else(|| result_token(&end).to_string());
        let mut out = String::new();
        for name in &ROSTER[..6] {
            let value = self.tag(name).unwrap_or("?");
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
        out.push_str(&format!("[Result \"{result}\"]\n"));
        let options = self.start.options();
        out.push_str("[Variant \"Linear Progression\"]\n");
        out.push_str(&format!("[Board \"{}\"]\n", options.board));
        out.push_str(&format!("[EqualMoves \"{}\"]\n", options.equal_moves));
        out.push_str(&format!("[Blockers \"{}\"]\n", options.blockers));
        if self.start != Position::new(&options) {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{}\"]\n", self.start));
        }
        for (k, v) in self
            .tags
            .iter()
            .filter(|(k, _)| !ROSTER.contains(&k.as_str()) && !DERIVED.contains(&k.as_str()))
        {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
        out.push('\n');
        let mut words = Vec::new();
        let mut pos = self.start;
        let mut number = 1;
        for (i, &mv) in self.moves.iter().enumerate() {
            match pos.side_to_move() {
                Color::White => words.push(format!("{number}.")),
                Color::Black if i == 0 => words.push(format!("{number}...")),
                Color::Black => {}
            }
            words.push(mv.to_string());
            if pos.side_to_move() == Color::Black {
                number += 1;
            }
            pos.play(mv);
        }
        words.push(result);
        out.push_str(&wrap(words.iter().map(String::as_str), 79));
        out.push('\n');
        out
    }
}

/// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
pub fn result_token(pos: &Position) -> &'static str {
    match pos.status() {
        Status::Ongoing => "*",
        Status::Over(r) => match r.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        },
    }
}

fn unescape(v: &str) -> String {
    v.replace("\\\"", "\"").replace("\\\\", "\\")
}

fn parse_bool(name: &str, value: &str) -> Result<bool, LinearError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(LinearError::new(format!(
            "bad tag {name} '{value}': expected true or false"
        ))),
    }
}

/// Reads one game record back: the tags, then the moves, each checked to
/// be legal when played. Move numbers (`3.`, `3...`) are skipped; a result
/// token (`1-0`, `0-1`, `1/2-1/2`, `*`) ends the moves. The rules come
/// from `FEN` when given (which must then agree with `Board`,
/// `EqualMoves` and `Blockers` if those are given), else from those tags
/// (defaults: `8x8`, `false`, `false`).
pub fn parse_record(text: &str) -> Result<GameRecord, LinearError> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| LinearError::new(format!("bad tag line '{line}'")))?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| LinearError::new(format!("bad tag line '{line}'")))?;
            tags.push((name.to_string(), unescape(value)));
        } else {
            movetext.push_str(line);
            movetext.push(' ');
        }
    }
    let get = |k: &str| tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    if let Some(variant) = get("Variant")
        && variant != "Linear Progression"
    {
        return Err(LinearError::new(format!(
            "bad tag Variant '{variant}': expected Linear Progression"
        )));
    }
    let mut options = Options::default();
    if let Some(board) = get("Board") {
        options.board = board.parse()?;
    }
    if let Some(value) = get("EqualMoves") {
        options.equal_moves = parse_bool("EqualMoves", value)?;
    }
    if let Some(value) = get("Blockers") {
        options.blockers = parse_bool("Blockers", value)?;
    }
    let start = match get("FEN") {
        Some(fen) => {
            let start: Position = fen.parse()?;
            let named = ["Board", "EqualMoves", "Blockers"]
                .iter()
                .any(|k| get(k).is_some());
            if named && start.options() != options {
                return Err(LinearError::new(format!(
                    "the FEN '{fen}' and the Board, EqualMoves and Blockers tags disagree"
                )));
            }
            start
        }
        None => Position::new(&options),
    };
    let mut record = GameRecord::new(start);
    let mut pos = start;
    for token in movetext.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            break;
        }
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && token[digits..].chars().all(|c| c == '.') && digits < token.len() {
            continue; // a move number
        }
        let mv = pos.parse_move(token)?;
        pos.play(mv);
        record.moves.push(mv);
    }
    record.tags = tags
        .into_iter()
        .filter(|(k, _)| !DERIVED.contains(&k.as_str()))
        .collect();
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays `moves` (legal) from `start`.
    fn record(start: Position, moves: &[&str]) -> GameRecord {
        let mut r = GameRecord::new(start);
        let mut pos = start;
        for text in moves {
            let mv = pos.parse_move(text).unwrap();
            pos.play(mv);
            r.moves.push(mv);
        }
        r
    }

    #[test]
    fn records_print_and_read_back() {
        let blockers = Options {
            blockers: true,
            ..Options::default()
        };
        let mut r = record(Position::new(&blockers), &["@d4+a1", "@e5+h8", "d4d6+a1b1"]);
        r.tags = vec![
            ("Event".into(), "Test \"quoted\"".into()),
            ("Termination".into(), "unterminated".into()),
        ];
        let text = r.to_pgn();
        assert!(text.contains("[Variant \"Linear Progression\"]\n[Board \"8x8\"]\n[EqualMoves \"false\"]\n[Blockers \"true\"]\n[Termination"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        assert!(
            text.ends_with("\n1. @d4+a1 @e5+h8 2. d4d6+a1b1 *\n"),
            "{text}"
        );
        let back = parse_record(&text).unwrap();
        assert_eq!((back.start, &back.moves), (r.start, &r.moves));
        assert_eq!(back.tag("Event"), Some("Test \"quoted\""));
        assert_eq!(back.tag("Termination"), Some("unterminated"));
        assert_eq!(back.tag("Round"), Some("?"));
        assert_eq!(back.to_pgn(), text);

        // From a position with Black to move, to the end of the game.
        let start: Position = "4/4/4/w1b1 b - 0 - -".parse().unwrap();
        let mut pos = start;
        let mut moves = Vec::new();
        while !pos.is_over() {
            let mv = pos.legal_moves()[0];
            moves.push(mv.to_string());
            pos.play(mv);
        }
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        let r = record(start, &moves);
        let text = r.to_pgn();
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"4/4/4/w1b1 b - 0 - -\"]\n"),
            "{text}"
        );
        assert!(
            text.contains(&format!("\n\n1... {} 2. ", moves[0])),
            "{text}"
        );
        assert!(text.trim_end().ends_with(result_token(&pos)), "{text}");
        assert_ne!(result_token(&pos), "*");
        let back = parse_record(&text).unwrap();
        assert_eq!((back.start, &back.moves), (r.start, &r.moves));
        assert_eq!(back.end_position(), pos);
    }

    #[test]
    fn bad_records_are_refused() {
        let start = Position::new(&Options::default());
        let good = record(start, &["@d4", "@e5"]).to_pgn();
        assert!(parse_record(&good.replace("@e5", "@d4")).is_err());
        assert!(parse_record(&good.replace("@e5", "@z5")).is_err());
        assert!(parse_record(&good.replace("Linear Progression", "Chess")).is_err());
        assert!(parse_record(&good.replace("[Blockers \"false\"]", "[Blockers \"no\"]")).is_err());
        let with_fen = good.replace(
            "[Blockers \"false\"]",
            "[Blockers \"false\"]\n[FEN \"4/4/4/4 w - 0 - -\"]",
        );
        let e = parse_record(&with_fen).unwrap_err().to_string();
        assert!(e.contains("disagree"), "{e}");
    }
}
