//! Move and turn notation: UCI long algebraic, SAN, turn text, PGN.

use super::bitboard::{Color, Role, Square};
use super::fen::{self, START_FEN};
use super::movegen::{CheckInfo, generate_king_safe, legal_moves};
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::status::{Status, is_mated, status};
use crate::record::{escape, wrap};
use std::fmt;

/// Why a move or a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub text: String,
    pub message: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", self.text, self.message)
    }
}

impl std::error::Error for MoveError {}

fn move_err(text: &str, message: impl Into<String>) -> MoveError {
    MoveError {
        text: text.to_string(),
        message: message.into(),
    }
}

/// Parses a UCI move (`e2e4`, `e7e8q`, `e1g1`) and checks it is legal now.
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let b = text.as_bytes();
    let shape_ok = (b.len() == 4 || b.len() == 5) && text.is_ascii();
    let from = shape_ok.then(|| Square::parse(&text[0..2])).flatten();
    let to = shape_ok.then(|| Square::parse(&text[2..4])).flatten();
    let (Some(from), Some(to)) = (from, to) else {
        return Err(move_err(
            text,
            "not a move in UCI notation (like e2e4 or e7e8q)",
        ));
    };
    let promotion = match b.get(4) {
        None => None,
        Some(&c) => match Role::from_char(c as char) {
            Some(r) if c.is_ascii_lowercase() && !matches!(r, Role::Pawn | Role::King) => Some(r),
            _ => {
                return Err(move_err(
                    text,
                    "the promotion letter must be one of q r b n",
                ));
            }
        },
    };
    let found = legal_moves(pos)
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion);
    found.ok_or_else(|| move_err(text, illegal_reason(pos, from, to, promotion)))
}

fn illegal_reason(pos: &Position, from: Square, to: Square, promotion: Option<Role>) -> String {
    let whose = pos.side_to_move().name();
    // A move that keeps the king safe but is not legal can only be a check
    // the Italian rules forbid before the turn's last move.
    let early_check = || {
        let mut ordinary = super::moves::MoveList::new();
        generate_king_safe(pos, &mut ordinary);
        ordinary
            .iter()
            .any(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
    };
    match pos.piece_at(from) {
        None => format!("illegal move: no piece on {from}"),
        Some(p) if p.color != pos.side_to_move() => format!("illegal move: {whose} is to move"),
        Some(_) if !pos.check_allowed() && early_check() => format!(
            "illegal move: it gives check with move {} of {} (Italian rules: only the last move of a turn may give check)",
            pos.moves_made() + 1,
            pos.turn_length()
        ),
        Some(_) if !pos.check_allowed() => {
            "illegal move (a move may give check only as the last move of the turn under the Italian rules, and the king may not be left in check)".to_string()
        }
        Some(_) => "illegal move".to_string(),
    }
}

/// Standard algebraic notation of a legal move: `Nf3`, `exd5`, `O-O`, `e8=Q+`.
/// A move that ends the turn with the opponent mated gets `#`.
pub fn san(pos: &Position, mv: Move) -> String {
    let mut out = san_without_suffix(pos, mv);
    let mut after = pos.clone();
    let effect = after.play(mv);
    if effect.check {
        out.push(if effect.turn_ended && is_mated(&after) {
            '#'
        } else {
            '+'
        });
    }
    out
}

fn san_without_suffix(pos: &Position, mv: Move) -> String {
    let (from, to) = (mv.from(), mv.to());
    let role = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
    match mv.kind() {
        MoveKind::Castle => return if to.file() == 6 { "O-O" } else { "O-O-O" }.to_string(),
        MoveKind::EnPassant => return format!("{}x{to}", file_char(from)),
        _ => {}
    }
    let capture = pos.piece_at(to).is_some();
    let mut out = String::new();
    if role == Role::Pawn {
        if capture {
            out.push(file_char(from));
            out.push('x');
        }
        out.push_str(&to.to_string());
        if let Some(p) = mv.promotion() {
            out.push('=');
            out.push(p.char().to_ascii_uppercase());
        }
        return out;
    }
    out.push(role.char().to_ascii_uppercase());
    out.push_str(&disambiguation(pos, mv, role));
    if capture {
        out.push('x');
    }
    out.push_str(&to.to_string());
    out
}

fn file_char(sq: Square) -> char {
    (b'a' + sq.file()) as char
}

fn disambiguation(pos: &Position, mv: Move, role: Role) -> String {
    let from = mv.from();
    let rivals: Vec<Square> = legal_moves(pos)
        .iter()
        .filter(|m| m.to() == mv.to() && m.from() != from)
        .filter(|m| pos.piece_at(m.from()).is_some_and(|p| p.role == role))
        .map(|m| m.from())
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|s| s.file() != from.file()) {
        file_char(from).to_string()
    } else if rivals.iter().all(|s| s.rank() != from.rank()) {
        ((b'1' + from.rank()) as char).to_string()
    } else {
        from.to_string()
    }
}

/// Parses a move in any notation the PGN reader accepts (SAN, long
/// algebraic, UCI; see [`super::move_reader`]) against the legal moves.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveError> {
    super::move_reader::read_move(pos, text).map_err(|r| move_err(text, r.to_string()))
}

/// Plays a sequence of moves, returning the SAN of each.
pub fn san_line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|&mv| {
            let s = san(&p, mv);
            p.play(mv);
            s
        })
        .collect()
}

/// A whole turn as text: `3. e4 Nf3 Bc4` (a turn resumed mid-way: `3... Bc4`).
pub fn turn_text(pos: &Position, moves: &[Move]) -> String {
    let dots = if pos.moves_made() == 0 { "." } else { "..." };
    let mut out = format!("{}{dots}", pos.turn_length());
    for s in san_line(pos, moves) {
        out.push(' ');
        out.push_str(&s);
    }
    out
}

/// Does `mv` give check in `pos`? (Exposed for move ordering and notation.)
pub fn gives_check(pos: &Position, mv: Move) -> bool {
    CheckInfo::new(pos).gives_check(pos, mv)
}

/// A game record: start position (with the rules), moves and tags (other
/// than Variant, Rules, FEN, SetUp, which the PGN text derives).
pub type GameRecord = crate::record::Record<Position, Move>;

impl GameRecord {
    /// The position after all the moves.
    pub fn end_position(&self) -> Position {
        self.start.after_moves(&self.moves)
    }

    /// The PGN text: seven-tag roster, `Variant`, `Rules`, `FEN`/`SetUp` when
    /// the game did not start from the start position, then one turn per number.
    pub fn to_pgn(&self) -> String {
        self.to_pgn_annotated(|_| String::new())
    }

    /// [`GameRecord::to_pgn`] with `note(k)` written after the k-th turn
    /// (from 0): NAG glyphs (`?`, `!`) join the turn's last move, the rest
    /// follows after a space.
    pub fn to_pgn_annotated(&self, note: impl Fn(usize) -> String) -> String {
        let result = self
            .tag("Result")
            .map(str::to_string)
            .unwrap_or_else(|| status(&self.end_position()).result().to_string());
        let mut out = String::new();
        for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
            let value = self.tag(name).unwrap_or("?");
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
        out.push_str(&format!("[Result \"{result}\"]\n"));
        out.push_str("[Variant \"Progressive\"]\n");
        out.push_str(&format!("[Rules \"{}\"]\n", self.start.rules().title()));
        let fen = fen::to_fen(&self.start);
        if fen != START_FEN {
            out.push_str(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n"));
        }
        let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
        for (k, v) in self
            .tags
            .iter()
            .filter(|(k, _)| !roster.contains(&k.as_str()))
        {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
        out.push('\n');
        let mut text = String::new();
        for (k, (pos, turn)) in split_turns(&self.start, &self.moves)
            .into_iter()
            .enumerate()
        {
            text.push_str(&turn_text(&pos, &turn));
            let note = note(k);
            if !note.is_empty() && !note.starts_with(['!', '?']) {
                text.push(' ');
            }
            text.push_str(&note);
            text.push(' ');
        }
        text.push_str(&result);
        out.push_str(&wrap(text.split(' '), 79));
        out.push('\n');
        out
    }
}

/// Splits a flat move list into turns: each with the position it starts from.
pub fn split_turns(start: &Position, moves: &[Move]) -> Vec<(Position, Vec<Move>)> {
    let mut turns = Vec::new();
    let mut pos = start.clone();
    let mut turn_start = pos.clone();
    let mut current = Vec::new();
    for &mv in moves {
        current.push(mv);
        if pos.play(mv).turn_ended {
            turns.push((turn_start, std::mem::take(&mut current)));
            turn_start = pos.clone();
        }
    }
    if !current.is_empty() {
        turns.push((turn_start, current));
    }
    turns
}

/// A status line for humans: `White to move, turn 5 (2 of 5 made)`.
pub fn describe(pos: &Position) -> String {
    let side = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    format!(
        "{side} to move, turn {} ({} of {} moves made), {} rules, status: {}",
        pos.turn_length(),
        pos.moves_made(),
        pos.turn_length(),
        pos.rules().title(),
        match status(pos) {
            Status::Ongoing => "ongoing".to_string(),
            s => format!("{} ({})", s.result(), s.reason()),
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    fn play_uci(pos: &mut Position, moves: &str) -> Vec<Move> {
        moves
            .split_whitespace()
            .map(|t| {
                let mv = parse_uci(pos, t).unwrap();
                pos.play(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn san_for_common_moves() {
        let mut pos = Position::startpos(Rules::Italian);
        play_uci(&mut pos, "e2e4 d7d5 c7c5");
        let exd5 = parse_uci(&pos, "e4d5").unwrap();
        assert_eq!(san(&pos, exd5), "exd5");
        assert_eq!(san(&pos, parse_uci(&pos, "g1f3").unwrap()), "Nf3");
    }

    #[test]
    fn uci_errors_are_clear() {
        let pos = Position::startpos(Rules::Italian);
        assert!(
            parse_uci(&pos, "e2e5")
                .unwrap_err()
                .message
                .contains("illegal")
        );
        assert!(parse_uci(&pos, "zz").unwrap_err().message.contains("UCI"));
        assert!(
            parse_uci(&pos, "e7e5")
                .unwrap_err()
                .message
                .contains("White is to move")
        );
        assert!(parse_uci(&pos, "e2e4k").is_err());
    }

    #[test]
    fn pgn_round_trips_with_one_turn_per_number() {
        let mut pos = Position::startpos(Rules::Italian);
        let start = pos.clone();
        let moves = play_uci(&mut pos, "e2e4 e7e5 d8h4 f1c4 d1f3 g1e2");
        let mut record = GameRecord::new(start);
        record.moves = moves.clone();
        let pgn = record.to_pgn();
        assert!(pgn.contains("[Variant \"Progressive\"]"));
        assert!(pgn.contains("[Rules \"Italian\"]"));
        assert!(pgn.contains("1. e4 2. e5 Qh4 3. Bc4 Qf3 Ne2"), "{pgn}");
        let back = crate::chess::pgn::read_one_game(&pgn, Rules::Italian).unwrap();
        assert_eq!(back.moves, moves);
    }
}
