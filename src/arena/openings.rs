//! Openings: the positions games start from.
//!
//! An opening is a root position (a FEN, or the start position) and moves
//! played from it. A file holds one per line: a progressive FEN, optionally
//! followed by `moves` and moves; or just moves from the start position, in
//! any notation the PGN reader accepts, with or without turn numbers, whole
//! turns comma-joined or not (`1. e4 2. e5 Qh4`, `e2e4 e7e5,d8h4`). A file
//! with tag pairs is read as PGN instead: each game is an opening (its `FEN`
//! tag the root). Random openings play random legal turns from the start
//! position.

use crate::chess::status::status;
use crate::chess::{Move, Position, Rules, fen, fen::START_FEN, legal_moves, pgn};
use crate::mate::{self, MateTable, Verdict};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The root position: the PGN's `FEN` tag when not the start position.
    pub root: Position,
    /// Moves played from the root before the engines take over.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The start position with no moves.
    pub fn startpos(rules: Rules) -> Opening {
        Opening {
            root: Position::startpos(rules),
            moves: Vec::new(),
        }
    }

    /// The position the engines start from.
    pub fn position(&self) -> Position {
        self.root.after_moves(&self.moves)
    }
}

/// Parses one opening line (see the module documentation).
pub fn parse_opening(line: &str, rules: Rules) -> Result<Opening, String> {
    let line = line.trim();
    let (root, moves_text) = if line.contains('/') {
        let (fen_text, moves) = match line.split_once(" moves") {
            Some((f, m)) => (f, m),
            None => (line, ""),
        };
        let root = fen::parse(fen_text.trim(), rules).map_err(|e| e.to_string())?;
        (root, moves)
    } else {
        (Position::startpos(rules), line)
    };
    let moves = pgn::read_moves(&root, moves_text).map_err(|e| match e.at {
        Some((turn, index)) => format!("turn {turn}, move {index}: '{}': {}", e.text, e.reason),
        None => format!("'{}': {}", e.text, e.reason),
    })?;
    let opening = Opening { root, moves };
    playable(opening)
}

/// The opening, unless its game is already over.
fn playable(opening: Opening) -> Result<Opening, String> {
    let pos = opening.position();
    // Turns only grow along the moves, so the last position is the test.
    fen::check_turn_length(pos.turn_length())?;
    if status(&pos).is_over() {
        return Err(format!("the game is already over: {}", status(&pos)));
    }
    Ok(opening)
}

/// Reads an openings file; an error names the file and line. Blank lines
/// and lines starting with `#` are skipped.
pub fn read_openings(path: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    let text = crate::lines::read_text_file(path)?;
    if text.lines().any(|l| l.trim_start().starts_with('[')) {
        return read_pgn_openings(path, &text, rules);
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_opening(line, rules).map_err(|e| format!("{path}:{}: {e}", i + 1))?);
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings in the file"));
    }
    Ok(out)
}

/// The games of a PGN file as openings; they must be played under `rules`.
fn read_pgn_openings(path: &str, text: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for game in pgn::read_games(text, rules) {
        if let Some(e) = game.error {
            return Err(format!("{path}: {e}"));
        }
        if game.start.rules() != rules {
            return Err(format!(
                "{path}: game {} (line {}) is played under the {} rules, the match under the {}",
                game.number,
                game.line,
                game.start.rules().title(),
                rules.title()
            ));
        }
        let opening = Opening {
            root: game.start,
            moves: game.moves,
        };
        out.push(playable(opening).map_err(|e| format!("{path}: game {}: {e}", game.number))?);
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings in the file"));
    }
    Ok(out)
}

/// Mate-finder nodes spent per random opening on "does the side to move
/// mate at once?" (short mates, the ones random play leaves, are found
/// within it).
const OPENING_MATE_NODES: u64 = 50_000;

/// Random legal play of the first `turns` turns from the start position,
/// each move drawn uniformly from the legal moves. Lines that end the game
/// (or get stuck) on the way are drawn again, and so are lines after which
/// the side to move mates in its turn: such an opening decides the game
/// before the engines play, and only adds noise to a match.
pub fn random_opening(rules: Rules, turns: u32, rng: &mut StdRng) -> Opening {
    let root = Position::startpos(rules);
    'again: loop {
        let mut pos = root.clone();
        let mut moves = Vec::new();
        let mut done = 0;
        while done < turns {
            let legal = legal_moves(&pos);
            let Some(&mv) = legal.as_slice().choose(rng) else {
                continue 'again;
            };
            moves.push(mv);
            done += pos.play(mv).turn_ended as u32;
        }
        if !status(&pos).is_over() && !mates_at_once(&pos) {
            return Opening { root, moves };
        }
    }
}

/// Does the side to move mate in this turn (as far as a small budget sees)?
fn mates_at_once(pos: &Position) -> bool {
    let table = MateTable::new(1);
    let budget = mate::Budget::nodes(OPENING_MATE_NODES);
    matches!(
        mate::find_mate(pos, &budget, &table).verdict,
        Verdict::Mate(_)
    )
}

/// The root FEN, for PGN tags and `position` commands.
pub fn root_fen(opening: &Opening) -> String {
    fen::to_fen(&opening.root)
}

/// Is the root the standard start position (so `position startpos` will do)?
pub fn is_startpos(opening: &Opening) -> bool {
    root_fen(opening) == START_FEN
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn lines_of_moves_in_any_notation() {
        let a = parse_opening("1. e4 2. e5 Qh4", Rules::Italian).unwrap();
        let b = parse_opening("e2e4 e7e5,d8h4", Rules::Italian).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.moves.len(), 3);
        assert_eq!(a.position().turn_length(), 3);
    }

    #[test]
    fn fen_with_and_without_moves() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2";
        let o = parse_opening(fen, Rules::Italian).unwrap();
        assert!(o.moves.is_empty());
        let o = parse_opening(&format!("{fen} moves e7e5 d8h4"), Rules::Italian).unwrap();
        assert_eq!(o.moves.len(), 2);
        assert!(!is_startpos(&o));
    }

    #[test]
    fn pgn_files_are_read_as_openings() {
        let path = std::env::temp_dir().join(format!("openings-{}.pgn", std::process::id()));
        let text = "[Event \"a\"]\n[Rules \"Italian\"]\n\n1. e4 {the king's pawn} 2. e5; Qh4 *\n\n[Event \"b\"]\n\n1. d2-d4 *\n";
        std::fs::write(&path, text).unwrap();
        let read = read_openings(path.to_str().unwrap(), Rules::Italian).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(
            read[0],
            parse_opening("e2e4 e7e5,d8h4", Rules::Italian).unwrap()
        );
        assert_eq!(read[1].moves.len(), 1);
        let e = read_openings(path.to_str().unwrap(), Rules::Scottish).unwrap_err();
        assert!(e.contains("Italian rules"), "{e}");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn bad_lines_are_refused() {
        let e = parse_opening("1. e4 2. e5 Qh5", Rules::Italian).unwrap_err();
        assert_eq!(
            e,
            "turn 2, move 2: 'Qh5': no such piece: no black queen can move to h5"
        );
        assert!(parse_opening("e2e5", Rules::Italian).is_err());
        assert!(parse_opening("8/8/8/8/8/8/8/8 w - - 0 1", Rules::Italian).is_err());
        // K v K: over before it starts.
        assert!(parse_opening("4k3/8/8/8/8/8/8/4K3 w - - 0 5", Rules::Italian).is_err());
    }

    #[test]
    fn random_openings_are_seeded_and_legal() {
        let mut a = StdRng::seed_from_u64(7);
        let mut b = StdRng::seed_from_u64(7);
        for _ in 0..5 {
            let x = random_opening(Rules::Italian, 3, &mut a);
            let y = random_opening(Rules::Italian, 3, &mut b);
            assert_eq!(x, y);
            assert_eq!(x.moves.len(), 6); // turns of 1, 2 and 3 moves
            assert_eq!(x.position().turn_length(), 4);
        }
    }

    #[test]
    fn random_openings_leave_no_mate_at_once() {
        let mut rng = StdRng::seed_from_u64(3);
        let table = MateTable::new(16);
        for _ in 0..20 {
            let pos = random_opening(Rules::Italian, 2, &mut rng).position();
            // Three moves to play: a search twenty times larger is exhaustive.
            let found = mate::find_mate(&pos, &mate::Budget::nodes(1_000_000), &table).verdict;
            assert_eq!(found, Verdict::NoMate, "{}", fen::to_fen(&pos));
        }
    }
}
