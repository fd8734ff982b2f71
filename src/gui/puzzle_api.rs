//! The Puzzles tab's requests: `info`, `next` and `attempt`, each a JSON
//! body answered with JSON. The player's rating lives in the browser and
//! comes with every request; the server keeps nothing. Serving uses the
//! library's `pick` (the lichess window), judging its `judge` (the rules
//! core), rating its Glicko-2 `attempt`: no rule or formula is repeated
//! here or in the page.

use super::puzzle_set::PuzzleSet;
use crate::chess::notation::parse_uci;
use crate::chess::{Move, Position, has_legal_move};
use crate::puzzles::{self, Puzzle, Rating, Solve};
use serde::Deserialize;
use serde_json::{Value, json};

/// The most moves an attempt may name (no turn of a puzzle is longer).
const MAX_MOVES: usize = 64;
/// The most recently seen ids a `next` request may name.
const MAX_RECENT: usize = 100;
/// The ratings a player may bring: what Glicko-2 can start from without
/// a division by zero or a logarithm of zero.
const RATING_RANGE: (f64, f64) = (0.0, 4000.0);
const VOLATILITY_MAX: f64 = 1.0;

/// A refused request: the HTTP status and why.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub status: u16,
    pub error: String,
}

fn bad(error: impl Into<String>) -> Refusal {
    Refusal {
        status: 400,
        error: error.into(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NextRequest {
    player: Rating,
    #[serde(default = "any_rules")]
    rules: String,
    #[serde(default)]
    theme: Option<String>,
    /// Ids served lately, not to be served again while others fit.
    #[serde(default)]
    recent: Vec<String>,
}

fn any_rules() -> String {
    "any".to_string()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttemptRequest {
    player: Rating,
    id: String,
    /// The player's moves from the puzzle position, in UCI.
    moves: Vec<String>,
    /// The player gave up (asked for the solution): failed, whatever the
    /// moves.
    #[serde(default)]
    gave_up: bool,
}

/// Answers `route` (`info`, `next`, `attempt`) with `body`; `choice` is
/// a random number for `pick`.
pub fn answer(set: &PuzzleSet, route: &str, body: &[u8], choice: u64) -> Result<Value, Refusal> {
    let text = std::str::from_utf8(body).map_err(|_| bad("the request is not UTF-8"))?;
    match route {
        "info" => Ok(info(set)),
        "next" => next(set, &parse(text)?, choice),
        "attempt" => attempt(set, &parse(text)?),
        _ => Err(Refusal {
            status: 404,
            error: "no such puzzle request".to_string(),
        }),
    }
}

fn parse<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, Refusal> {
    serde_json::from_str(text).map_err(|e| bad(format!("bad request: {e}")))
}

/// What the tab offers: counts, themes, a new player's rating.
fn info(set: &PuzzleSet) -> Value {
    let themes: Vec<Value> = puzzles::THEMES
        .iter()
        .map(|t| {
            let n = set.all.iter().filter(|p| p.themes.iter().any(|x| x == t));
            json!({"name": t, "count": n.count()})
        })
        .collect();
    json!({
        "counts": {"italian": set.italian.len(), "scottish": set.scottish.len()},
        "themes": themes,
        "new_player": Rating::NEW,
    })
}

fn check_player(r: &Rating) -> Result<(), Refusal> {
    let (lo, hi) = RATING_RANGE;
    let ok = r.rating.is_finite()
        && (lo..=hi).contains(&r.rating)
        && r.deviation.is_finite()
        && r.deviation > 0.0
        && r.deviation <= puzzles::MAX_DEVIATION
        && r.volatility.is_finite()
        && r.volatility > 0.0
        && r.volatility <= VOLATILITY_MAX;
    if ok {
        Ok(())
    } else {
        Err(bad(format!(
            "player rating {}/{}/{}: expected a rating in {lo}..{hi}, a deviation in \
             0..{} and a volatility in 0..{VOLATILITY_MAX} (reset the rating)",
            r.rating,
            r.deviation,
            r.volatility,
            puzzles::MAX_DEVIATION
        )))
    }
}

/// What the page needs to set a puzzle up (not the solution).
fn public(p: &Puzzle) -> Value {
    json!({
        "id": p.id, "fen": p.fen, "rules": p.rules, "side": p.side.to_ascii_lowercase(),
        "turn_length": p.turn_length, "rating": p.rating, "deviation": p.deviation,
        "themes": p.themes,
    })
}

fn next(set: &PuzzleSet, req: &NextRequest, choice: u64) -> Result<Value, Refusal> {
    check_player(&req.player)?;
    let Some(pool) = set.under(&req.rules) else {
        return Err(bad(format!(
            "rules '{}' (expected italian, scottish or any)",
            req.rules
        )));
    };
    let theme = req.theme.as_deref().filter(|t| !t.is_empty());
    if let Some(t) = theme
        && !puzzles::THEMES.contains(&t)
    {
        return Err(bad(format!(
            "unknown theme '{t}' (expected one of {})",
            puzzles::THEMES.join(", ")
        )));
    }
    if req.recent.len() > MAX_RECENT {
        return Err(bad(format!("at most {MAX_RECENT} recent ids")));
    }
    let (rating, deviation) = (req.player.rating, req.player.deviation);
    let none = || Refusal {
        status: 404,
        error: format!(
            "no puzzle with theme '{}' under rules '{}'",
            theme.unwrap_or("any"),
            req.rules
        ),
    };
    // The recent puzzles are left out while others have the theme: the
    // window then widens past them as it widens past an empty band.
    let fresh: Vec<Puzzle> = pool
        .iter()
        .filter(|p| !req.recent.contains(&p.id))
        .cloned()
        .collect();
    let served = puzzles::pick(&fresh, rating, deviation, theme, choice)
        .or_else(|| puzzles::pick(pool, rating, deviation, theme, choice))
        .ok_or_else(none)?;
    Ok(json!({"puzzle": public(served.puzzle), "window": served.window}))
}

/// The player's moves as moves of the position, and whether the turn is
/// over after them (it ended, or no move is left: a stalemate mid-turn).
fn play_moves(pos: &Position, texts: &[String]) -> Result<(Vec<Move>, bool), Refusal> {
    if texts.len() > MAX_MOVES {
        return Err(bad(format!("at most {MAX_MOVES} moves")));
    }
    let mut p = pos.clone();
    let mut line = Vec::new();
    let mut ended = false;
    for (i, text) in texts.iter().enumerate() {
        let shown: String = text.chars().take(12).collect();
        if ended {
            return Err(bad(format!(
                "move {} '{shown}': the turn is over after {i} moves",
                i + 1
            )));
        }
        let mv = parse_uci(&p, text)
            .map_err(|e| bad(format!("move {} '{shown}': {}", i + 1, e.message)))?;
        ended = p.play(mv).turn_ended;
        line.push(mv);
    }
    Ok((line, ended || !has_legal_move(&p)))
}

fn attempt(set: &PuzzleSet, req: &AttemptRequest) -> Result<Value, Refusal> {
    check_player(&req.player)?;
    let Some(puzzle) = set.find(&req.id) else {
        let shown: String = req.id.chars().take(24).collect();
        return Err(Refusal {
            status: 404,
            error: format!("no puzzle '{shown}'"),
        });
    };
    // The set holds only records whose position and solution parsed, but
    // a failure here is still an answer, never a panic.
    let internal = |e: String| Refusal {
        status: 500,
        error: format!("puzzle {}: {e}", puzzle.id),
    };
    let pos = puzzle.position().map_err(internal)?;
    let solution = puzzle.solution(&pos).map_err(internal)?;
    let (moves, over) = play_moves(&pos, &req.moves)?;
    let verdict = if req.gave_up {
        None
    } else if !over {
        return Err(bad(format!(
            "the turn is not over after {} of {} moves: play on or give up",
            moves.len(),
            puzzle.turn_length
        )));
    } else {
        Some(puzzles::judge(&pos, &solution, &moves))
    };
    let solved = verdict.is_some_and(Solve::solved);
    let (player, rated) = puzzles::attempt(req.player, puzzle.glicko(), solved);
    let name = match verdict {
        None => "gave-up",
        Some(Solve::Solution) => "solution",
        Some(Solve::OtherMate) => "other-mate",
        Some(Solve::Wrong) => "wrong",
    };
    Ok(json!({
        "verdict": name,
        "solved": solved,
        "player": player,
        "change": ((player.rating - req.player.rating) * 100.0).round() / 100.0,
        "puzzle": {"id": puzzle.id, "rating": puzzle.rating, "rating_after": rated.rating},
        "solution_uci": puzzle.solution_uci,
        "solution_san": puzzle.solution_san,
    }))
}

#[cfg(test)]
#[path = "puzzle_api_tests.rs"]
mod tests;
