//! The GUI queries `legal` and `state` (protocol.md, "Queries for a GUI"):
//! the legal next moves and the whole game state, each as one JSON line.
//!
//! They are answered on the input thread, also while a search runs: they
//! replay the last accepted `position` command (a [`Record`]) rather than
//! asking the game behind the search thread, and cost a replay of the move
//! list, a move generation and a bounded status test.

use super::command::Start;
use super::options::Options;
use super::progressive::bounded_status;
use crate::Color;
use crate::Variant;
use crate::chess::notation::{GameRecord, parse_uci, san, split_turns};
use crate::chess::status::Status;
use crate::chess::{Move, Position, Rules, Square, fen, legal_moves};
use crate::linear;
use serde_json::{Value, json};

/// The last `position` command the engine accepted (or the start position
/// after `ucinewgame` and a change of game): what the queries describe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub start: Start,
    /// The entries as given: single moves or comma-joined turns.
    pub entries: Vec<String>,
}

impl Default for Record {
    fn default() -> Record {
        Record {
            start: Start::StartPos,
            entries: Vec::new(),
        }
    }
}

/// The reply to `legal`: `legal {"moves":[...]}`.
pub fn legal_line(options: &Options, record: &Record) -> Result<String, String> {
    let value = match options.variant {
        Variant::LinearProgression => {
            let (_, pos, _) = replay_linear(options, record)?;
            json!({ "moves": linear_moves(&pos) })
        }
        _ => {
            let (_, pos, _) = replay_chess(options, record)?;
            json!({ "moves": chess_moves(&pos) })
        }
    };
    Ok(format!("legal {value}"))
}

/// The reply to `state`: `state {...}`.
pub fn state_line(options: &Options, record: &Record) -> Result<String, String> {
    let value = match options.variant {
        Variant::LinearProgression => linear_state(options, record)?,
        _ => chess_state(options, record)?,
    };
    Ok(format!("state {value}"))
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The start position and every move of the record, flat.
fn replay_chess(
    options: &Options,
    record: &Record,
) -> Result<(Position, Position, Vec<Move>), String> {
    let rules = options.variant.rules().unwrap_or(Rules::Italian);
    let start = match &record.start {
        Start::StartPos => Position::startpos(rules),
        Start::Fen(text) => fen::parse(text, rules).map_err(|e| format!("position fen: {e}"))?,
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for entry in &record.entries {
        for text in entry.split(',') {
            let mv = parse_uci(&pos, text).map_err(|e| format!("position: {e}"))?;
            pos.play(mv);
            moves.push(mv);
        }
    }
    Ok((start, pos, moves))
}

/// One legal move of Progressive chess for a GUI.
fn chess_move_json(pos: &Position, mv: Move) -> Value {
    json!({
        "uci": mv.uci(),
        "san": san(pos, mv),
        "from": mv.from().to_string(),
        "to": mv.to().to_string(),
        "promotion": mv.promotion().map(|r| r.char().to_string()),
    })
}

fn chess_moves(pos: &Position) -> Vec<Value> {
    legal_moves(pos)
        .iter()
        .map(|&mv| chess_move_json(pos, mv))
        .collect()
}

/// The moves of one turn as `{"uci","san"}` objects.
fn turn_json(pos: &Position, moves: &[Move]) -> Vec<Value> {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|&mv| {
            let v = json!({ "uci": mv.uci(), "san": san(&p, mv) });
            p.play(mv);
            v
        })
        .collect()
}

/// The board as rows, rank 8 first: piece letters (White in capitals), `.` empty.
fn chess_rows(pos: &Position) -> Vec<String> {
    (0..8)
        .rev()
        .map(|rank| {
            (0..8)
                .map(|file| {
                    pos.piece_at(Square::new(file, rank))
                        .map_or('.', |p| p.char())
                })
                .collect()
        })
        .collect()
}

fn chess_state(options: &Options, record: &Record) -> Result<Value, String> {
    let (start, pos, moves) = replay_chess(options, record)?;
    let status = bounded_status(&pos);
    let turns = split_turns(&start, &moves);
    let turn_list: Vec<Value> = turns
        .iter()
        .map(|(p, m)| {
            json!({
                "number": p.turn_length(),
                "side": colour_name(p.side_to_move()),
                "from_move": p.moves_made(),
                "moves": turn_json(p, m),
            })
        })
        .collect();
    // The current turn's moves so far, and the last turn completed.
    let (current, last) = match turns.last() {
        Some((p, m)) if p.side_to_move() == pos.side_to_move() && pos.moves_made() > 0 => {
            let last = turns.len().checked_sub(2).map(|i| &turn_list[i]);
            (turn_json(p, m), last.cloned())
        }
        _ => (Vec::new(), turn_list.last().cloned()),
    };
    let winner = match status {
        Status::Checkmate { winner } | Status::ItalianMate { winner } => Some(colour_name(winner)),
        _ => None,
    };
    let mut game = GameRecord::new(start.clone());
    game.moves = moves.clone();
    game.tags
        .push(("Result".to_string(), status.result().to_string()));
    Ok(json!({
        "variant": options.variant.name(),
        "rules": pos.rules().name(),
        "fen": fen::to_fen(&pos),
        "start_fen": fen::to_fen(&start),
        "board": chess_rows(&pos),
        "side": colour_name(pos.side_to_move()),
        "turn": pos.turn_length(),
        "turn_length": pos.turn_length(),
        "moves_made": pos.moves_made(),
        "moves_left": pos.moves_left(),
        "in_check": pos.in_check(),
        "check_allowed": pos.check_allowed(),
        "status": status.reason(),
        "over": status.is_over(),
        "result": status.is_over().then(|| status.result()),
        "winner": winner,
        "current_turn": current,
        "last_turn": last,
        "turns": turn_list,
        "pgn": game.to_pgn(),
    }))
}

fn replay_linear(
    options: &Options,
    record: &Record,
) -> Result<(linear::Position, linear::Position, Vec<linear::Move>), String> {
    let start = match &record.start {
        Start::StartPos => linear::Position::new(&options.lp),
        Start::Fen(text) => text
            .parse::<linear::Position>()
            .map_err(|e| format!("position fen: {e}"))?,
    };
    let mut pos = start;
    let mut moves = Vec::new();
    for text in &record.entries {
        let mv = pos.parse_move(text).map_err(|e| format!("position: {e}"))?;
        pos.play(mv);
        moves.push(mv);
    }
    Ok((start, pos, moves))
}

/// One legal Linear Progression move for a GUI: its text and its parts.
fn linear_move_json(mv: linear::Move) -> Value {
    let text = mv.to_string();
    match mv {
        linear::Move::Pass => json!({ "move": text, "kind": "pass" }),
        linear::Move::Drop { to, blocker } => json!({
            "move": text, "kind": "drop", "to": to.to_string(),
            "blocker_to": blocker.map(|s| s.to_string()),
        }),
        linear::Move::Slide { from, to, blocker } => json!({
            "move": text, "kind": "slide", "from": from.to_string(), "to": to.to_string(),
            "blocker_from": blocker.map(|(a, _)| a.to_string()),
            "blocker_to": blocker.map(|(_, b)| b.to_string()),
        }),
    }
}

fn linear_moves(pos: &linear::Position) -> Vec<Value> {
    if pos.is_over() {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(linear_move_json)
        .collect()
}

/// The grid, top rank first: `w`/`b` tokens, `.` empty, `#` removed
/// (blockers are given apart, as they stand on top of a cell).
fn linear_rows(pos: &linear::Position) -> Vec<String> {
    let board = pos.board();
    (0..board.height())
        .rev()
        .map(|rank| {
            (0..board.width())
                .map(|file| match linear::Square::new(file, rank) {
                    Some(sq) if !board.is_usable(sq) => '#',
                    Some(sq) if pos.tokens(linear::Color::White).contains(sq) => 'w',
                    Some(sq) if pos.tokens(linear::Color::Black).contains(sq) => 'b',
                    _ => '.',
                })
                .collect()
        })
        .collect()
}

fn linear_state(options: &Options, record: &Record) -> Result<Value, String> {
    let (start, pos, moves) = replay_linear(options, record)?;
    let rules = pos.options();
    let (status, result, winner) = match pos.status() {
        linear::Status::Ongoing => ("ongoing", None, None),
        linear::Status::Over(r) => {
            let reason = match r.reason {
                linear::EndReason::BoardFull => "board full",
                linear::EndReason::BothPassed => "both passed",
            };
            (
                reason,
                Some(linear::result_token(&pos)),
                r.winner.map(colour_name),
            )
        }
    };
    let mut p = start;
    let turns: Vec<Value> = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let v = json!({
                "number": i + 1,
                "side": colour_name(p.side_to_move()),
                "from_move": 0,
                "moves": [{ "uci": mv.to_string(), "san": mv.to_string() }],
            });
            p.play(mv);
            v
        })
        .collect();
    let mut game = linear::GameRecord::new(start);
    game.moves = moves.clone();
    let blocker = |c| pos.blocker(c).map(|s: linear::Square| s.to_string());
    let board = pos.board();
    Ok(json!({
        "variant": options.variant.name(),
        "rules": "linear-progression",
        "fen": pos.to_string(),
        "start_fen": start.to_string(),
        "board": linear_rows(&pos),
        "lp": {
            "board": rules.board.to_string(),
            "width": board.width(),
            "height": board.height(),
            "equal_moves": rules.equal_moves,
            "blockers": rules.blockers,
            "blocker_white": blocker(linear::Color::White),
            "blocker_black": blocker(linear::Color::Black),
            "last_end": pos.last_end().map(|s| s.to_string()),
            "drop": pos.is_drop_turn(),
            "must_pass": !pos.is_over() && pos.legal_moves() == [linear::Move::Pass],
            "final_move": pos.is_final_move(),
            "white": pos.count(linear::Color::White),
            "black": pos.count(linear::Color::Black),
            "empty": pos.empty_squares().len(),
        },
        "side": colour_name(pos.side_to_move()),
        "turn": moves.len() + 1,
        "turn_length": 1,
        "moves_made": 0,
        "moves_left": if pos.is_over() { 0 } else { 1 },
        "in_check": false,
        "check_allowed": true,
        "status": status,
        "over": pos.is_over(),
        "result": result,
        "winner": winner,
        "current_turn": [],
        "last_turn": turns.last().cloned(),
        "turns": turns,
        "pgn": game.to_pgn(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(entries: &str) -> Record {
        Record {
            start: Start::StartPos,
            entries: entries.split_whitespace().map(String::from).collect(),
        }
    }

    fn state(options: &Options, entries: &str) -> Value {
        let line = state_line(options, &record(entries)).unwrap();
        serde_json::from_str(line.strip_prefix("state ").unwrap()).unwrap()
    }

    #[test]
    fn the_state_splits_the_game_into_turns() {
        let s = state(&Options::default(), "e2e4 e7e5,d8h4 g2g3");
        assert_eq!(s["side"], "white");
        assert_eq!(s["turn_length"], 3);
        assert_eq!(s["moves_made"], 1);
        assert_eq!(s["moves_left"], 2);
        assert_eq!(s["current_turn"][0]["san"], "g3");
        assert_eq!(s["last_turn"]["side"], "black");
        assert_eq!(s["last_turn"]["moves"][1]["san"], "Qh4");
        assert_eq!(s["turns"].as_array().unwrap().len(), 3);
        assert!(s["pgn"].as_str().unwrap().contains("1. e4 2. e5 Qh4 3. g3"));
    }

    #[test]
    fn legal_lists_uci_and_san() {
        let line = legal_line(&Options::default(), &record("")).unwrap();
        let v: Value = serde_json::from_str(line.strip_prefix("legal ").unwrap()).unwrap();
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 20);
        assert!(
            moves
                .iter()
                .any(|m| m["uci"] == "g1f3" && m["san"] == "Nf3" && m["from"] == "g1")
        );
    }
}
