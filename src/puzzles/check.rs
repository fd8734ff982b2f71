//! `puzzles check`: every field a record claims, recomputed.

use super::hard;
use super::record::{Puzzle, puzzle_id};
use super::themes::Themes;
use super::unique::solutions;
use crate::chess::{fen, notation};
use crate::mate::{MateTable, is_mating_line};

/// Verifies one record: id, FEN, turn length, the solution mates (the
/// rules core), its SAN, the count of distinct solutions (a complete
/// enumeration, within the budget of the stage that made it), and the
/// themes. The error says what is wrong.
pub fn verify(p: &Puzzle, tt: &MateTable) -> Result<(), String> {
    let pos = p.position()?;
    if pos.moves_made() != 0 {
        return Err("the position is not at a turn start".into());
    }
    let fen_text = fen::to_fen(&pos);
    if fen_text != p.fen {
        return Err(format!("fen prints back as '{fen_text}'"));
    }
    let id = puzzle_id(&p.fen, pos.rules());
    if id != p.id {
        return Err(format!("id {} (expected {id})", p.id));
    }
    if p.settings.rules != p.rules {
        return Err(format!(
            "settings.rules '{}' is not the record's rules '{}'",
            p.settings.rules, p.rules
        ));
    }
    if p.side != pos.side_to_move().name() {
        return Err(format!("side '{}' is not the side to move", p.side));
    }
    if p.turn_length != pos.turn_length() {
        return Err(format!(
            "turn_length {} (the position's is {})",
            p.turn_length,
            pos.turn_length()
        ));
    }
    let line = p.solution(&pos)?;
    if !is_mating_line(&pos, &line) {
        return Err("the solution does not mate".into());
    }
    let san = notation::san_line(&pos, &line);
    if san != p.solution_san {
        return Err(format!(
            "solution_san {:?} (expected {san:?})",
            p.solution_san
        ));
    }
    let sols = solutions(&pos, &line, hard::all_nodes(p), tt);
    match sols.distinct {
        None => return Err("solutions: unknown (the enumeration did not finish)".into()),
        Some(n) if n as u32 != p.solutions => {
            return Err(format!("solutions {} (counted {n})", p.solutions));
        }
        Some(_) => {}
    }
    let t = Themes::of(&pos, &line);
    if t.names() != p.themes {
        return Err(format!("themes {:?} (computed {:?})", p.themes, t.names()));
    }
    if (t.captures, t.pieces_used) != (p.captures, p.pieces_used) {
        return Err(format!(
            "captures/pieces_used {}/{} (computed {}/{})",
            p.captures, p.pieces_used, t.captures, t.pieces_used
        ));
    }
    if !(p.rating.is_finite() && p.deviation > 0.0 && p.volatility > 0.0) {
        return Err("rating, deviation or volatility out of range".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::chess::notation::parse_uci;
    use crate::puzzles::record;

    fn back_rank() -> Puzzle {
        let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian).unwrap();
        let mv = parse_uci(&pos, "a1a8").unwrap();
        record(
            &pos,
            &[mv],
            10,
            &[],
            (0, 0, "Novice", "Novice"),
            &MateTable::new(1),
        )
    }

    #[test]
    fn a_good_record_passes_and_corruptions_are_named() {
        let tt = MateTable::new(1);
        let good = back_rank();
        assert_eq!(verify(&good, &tt), Ok(()));
        let line = Puzzle::from_line(&good.to_line()).unwrap();
        assert_eq!(line, good, "the JSON line reads back");
        let mut bad = good.clone();
        bad.solution_uci = vec!["a1a7".into()];
        assert!(verify(&bad, &tt).unwrap_err().contains("does not mate"));
        let mut bad = good.clone();
        bad.solutions = 2;
        assert!(verify(&bad, &tt).unwrap_err().contains("solutions"));
        let mut bad = good.clone();
        bad.themes.push("promotion".into());
        assert!(verify(&bad, &tt).unwrap_err().contains("themes"));
        let mut bad = good.clone();
        bad.fen = "6k1/5ppp/8/8/8/8/8/R4K2 w - - 0 1".into();
        assert!(verify(&bad, &tt).unwrap_err().contains("id"));
        let mut bad = good;
        bad.solution_uci = vec!["a1a9".into()];
        assert!(verify(&bad, &tt).unwrap_err().contains("solution move 1"));
    }
}
