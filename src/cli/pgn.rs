//! `crescendo pgn --check FILE`: reads every game of a PGN file with the
//! rules core and checks each result against its final position, without
//! searching. Exits non-zero naming the first game, turn and move that
//! could not be read, or the first contradicted result.

use super::{CliResult, parse_rules};
use clap::Args;
use crescendo::analysis::final_status;
use crescendo::chess::Rules;
use crescendo::chess::pgn::read_games;
use serde::Serialize;

#[derive(Args, Debug)]
pub struct PgnArgs {
    /// The PGN file to validate.
    #[arg(long, value_name = "FILE")]
    pub check: String,
    /// Rule set of games without a Rules tag: italian (the default) or scottish.
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// Print one JSON object per game.
    #[arg(long)]
    pub json: bool,
}

/// One game's verdict; the field order is the documented key order.
#[derive(Serialize)]
struct GameCheck {
    game: usize,
    line: usize,
    turns: usize,
    moves: usize,
    result: Option<String>,
    #[serde(rename = "final")]
    final_status: &'static str,
    /// The first move that could not be read, or the contradicted result.
    error: Option<String>,
}

/// Runs `crescendo pgn --check`.
pub fn run(args: &PgnArgs) -> CliResult {
    let path = &args.check;
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let games = read_games(&text, args.rules.unwrap_or(Rules::Italian));
    if games.is_empty() {
        return Err(format!("{path}: no games in the file"));
    }
    let mut bad = Vec::new();
    for game in &games {
        let status = final_status(&game.end_position());
        let error = match &game.error {
            Some(e) => Some(e.to_string()),
            None => game
                .result_contradiction(status)
                .map(|why| format!("game {} (line {}): {why}", game.number, game.line)),
        };
        let check = GameCheck {
            game: game.number,
            line: game.line,
            turns: game.turns().len(),
            moves: game.moves.len(),
            result: game.claimed_result().map(str::to_string),
            final_status: status.reason(),
            error: error.clone(),
        };
        if args.json {
            super::print_json(&check);
        } else {
            println!(
                "game {} (line {}): {} turns, {} moves, result {}, final position {}: {}",
                check.game,
                check.line,
                check.turns,
                check.moves,
                check.result.as_deref().unwrap_or("none"),
                check.final_status,
                error.as_deref().unwrap_or("ok")
            );
        }
        bad.extend(error);
    }
    super::game_errors(&bad, games.len(), "have errors").map_err(|e| format!("{path}: {e}"))
}
