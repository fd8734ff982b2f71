//! Openings: the positions games start from.
//!
//! An opening is a root position (a FEN, or the start position) and moves
//! played from it. A file holds one per line: a progressive FEN, optionally
//! followed by `moves` and moves; or just moves from the start position, in
//! SAN or UCI, with or without turn numbers, whole turns comma-joined or not
//! (`1. e4 2. e5 Qh4`, `e2e4 e7e5,d8h4`). Random openings play random legal
//! turns from the start position.

use crate::chess::status::status;
use crate::chess::{Move, Position, Rules, fen, fen::START_FEN, legal_moves, notation};
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
        let mut pos = self.root.clone();
        for &mv in &self.moves {
            pos.play(mv);
        }
        pos
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
    let mut pos = root.clone();
    let mut moves = Vec::new();
    for token in moves_text.split([' ', '\t', ',']).filter(|t| !t.is_empty()) {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            break;
        }
        // Turn numbers `3.`, `3...` or `3.e4`.
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        let token = if digits > 0 && token[digits..].starts_with('.') {
            token[digits..].trim_start_matches('.')
        } else {
            token
        };
        if token.is_empty() {
            continue;
        }
        let mv = notation::parse_san(&pos, token).map_err(|e| e.to_string())?;
        pos.play(mv);
        moves.push(mv);
    }
    if status(&pos).is_over() {
        return Err(format!("the game is already over: {}", status(&pos)));
    }
    Ok(Opening { root, moves })
}

/// Reads an openings file; an error names the file and line. Blank lines
/// and lines starting with `#` are skipped.
pub fn read_openings(path: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
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
    fn bad_lines_are_refused() {
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
