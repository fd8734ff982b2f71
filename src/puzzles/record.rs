//! The puzzle record: one JSON object per line of a `.jsonl` file,
//! self-describing (`format` names the version; every field is plain data
//! a GUI can read without the engine). Documented in README.md ("Puzzles").

use super::glicko::Rating;
use super::settings::Settings;
use crate::chess::{Move, Position, Rules, fen, notation};
use serde::{Deserialize, Serialize};

/// The value of every record's `format` field.
pub const FORMAT: &str = "crescendo-puzzle-2";

/// A "mate in this turn" puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`puzzle_id`] of `fen` and `rules`.
    pub id: String,
    /// The generation settings (rules and every parameter but the seed).
    pub settings: Settings,
    /// The position at the start of the turn (progressive FEN).
    pub fen: String,
    /// `italian` or `scottish`.
    pub rules: String,
    /// `White` or `Black`: the side to move, which mates.
    pub side: String,
    /// Moves of the turn (under the Scottish rules a check ends it early).
    pub turn_length: u32,
    /// The solution, one UCI move each.
    pub solution_uci: Vec<String>,
    /// The same moves in SAN.
    pub solution_san: Vec<String>,
    /// Distinct solutions (distinct final positions): 1 in the shipped sets.
    pub solutions: u32,
    /// Glicko-2 rating (see README.md for the scale).
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Boolean themes (names in `themes::NAMES`).
    pub themes: Vec<String>,
    /// Captures in the solution.
    pub captures: u32,
    /// Distinct pieces of the mating side that move.
    pub pieces_used: u32,
    /// Where the position comes from.
    pub game: Source,
    /// How the initial rating was found.
    pub calibration: Calibration,
}

/// The game a puzzle was taken from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// `generate --seed`.
    pub seed: u64,
    /// The game's number in the seed's sequence (from 0).
    pub index: u64,
    /// The levels that played White and Black.
    pub white: String,
    pub black: String,
    /// PGN of the moves before the puzzle position, from the start position.
    pub pgn: String,
}

/// The rated attempts of the calibration ladder and the finder's nodes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub attempts: Vec<Attempt>,
    /// Nodes the mate finder took to find the mate (one thread, fresh table).
    pub nodes: u64,
    /// The Glicko-2 rating from the attempts alone, before the tie-breaker.
    pub glicko: f64,
}

/// One rung's try at the puzzle (`level` is the rung's name).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub level: String,
    /// The level's fixed rating.
    pub rating: f64,
    /// Mate-finder nodes the level may spend.
    pub nodes: u64,
    pub solved: bool,
}

impl Puzzle {
    /// The rules of the record (`None` when the field is not a Progressive
    /// rule set).
    pub fn parsed_rules(&self) -> Result<Rules, String> {
        match self.rules.parse::<Rules>() {
            Ok(r @ (Rules::Italian | Rules::Scottish)) => Ok(r),
            _ => Err(format!(
                "rules '{}' (expected italian or scottish)",
                self.rules
            )),
        }
    }

    /// The puzzle position.
    pub fn position(&self) -> Result<Position, String> {
        fen::parse(&self.fen, self.parsed_rules()?).map_err(|e| format!("fen: {e}"))
    }

    /// The solution as moves of the position (each checked legal in turn).
    pub fn solution(&self, pos: &Position) -> Result<Vec<Move>, String> {
        let mut p = pos.clone();
        let mut line = Vec::new();
        for (i, text) in self.solution_uci.iter().enumerate() {
            let mv = notation::parse_uci(&p, text)
                .map_err(|e| format!("solution move {} '{text}': {}", i + 1, e.message))?;
            p.play(mv);
            line.push(mv);
        }
        Ok(line)
    }

    /// The rating fields as a Glicko-2 rating.
    pub fn glicko(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// One JSON line (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a puzzle serialises")
    }

    /// Parses one JSON line (the format first, so that a record of another
    /// version is named as such and not as a missing field).
    pub fn from_line(text: &str) -> Result<Puzzle, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
        if v["format"] != FORMAT {
            return Err(format!("format {} (expected {FORMAT})", v["format"]));
        }
        serde_json::from_value(v).map_err(|e| format!("bad record: {e}"))
    }
}

/// The id of a position under a rule set: 16 hex digits of the FNV-1a hash
/// of `FEN|rules` (stable across builds and machines, so a resumed run
/// recognises the puzzles a file already has).
pub fn puzzle_id(fen_text: &str, rules: Rules) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in fen_text.bytes().chain(*b"|").chain(rules.name().bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Reads a `.jsonl` file of puzzles: `(line number, puzzle)`, or the first
/// bad line named.
pub fn read_file(path: &std::path::Path) -> Result<Vec<(usize, Puzzle)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let p =
            Puzzle::from_line(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        out.push((i + 1, p));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_depend_on_position_and_rules_only() {
        let f = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(puzzle_id(f, Rules::Italian), puzzle_id(f, Rules::Italian));
        assert_ne!(puzzle_id(f, Rules::Italian), puzzle_id(f, Rules::Scottish));
        assert_eq!(puzzle_id(f, Rules::Italian).len(), 16);
    }
}
