//! `crescendo analyse --pgn FILE`: every turn of every game of a PGN file
//! (see README, "Analysing games"): missed mates, turns that allow a mate,
//! the engine's best turn and the scores, as JSON lines (`--json`) or as an
//! annotated PGN (stdout, or `--out FILE`).

use super::CliResult;
use super::analyse::AnalyseArgs;
use super::print_json;
use crescendo::analysis::{Budget, Engine, TurnReport, final_status};
use crescendo::chess::notation::{san_line, turn_text};
use crescendo::chess::pgn::{Game, read_games};
use crescendo::chess::{Color, Move, Rules};
use crescendo::search::{Limits, Score};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// The search per position when no limit is given, in milliseconds.
pub const DEFAULT_MOVETIME_MS: u64 = 300;

/// A loss against the engine's best turn (both scored after the turn) of at
/// least this many centipawns earns `?`.
pub const MISTAKE_CP: i32 = 100;
/// A loss of at least this many centipawns earns `??`.
pub const BLUNDER_CP: i32 = 300;
/// A gain over the engine's score of at least this many centipawns earns `!`.
pub const GOOD_CP: i32 = 100;

/// A score as JSON: `{"cp": 35}` or `{"mate": 1}`.
#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
enum JsonScore {
    Cp(i32),
    Mate(i32),
}

impl From<Score> for JsonScore {
    fn from(s: Score) -> JsonScore {
        match s {
            Score::Cp(cp) => JsonScore::Cp(cp),
            Score::Mate(n) => JsonScore::Mate(n),
        }
    }
}

/// One turn as JSON; the field order is the documented key order.
#[derive(Serialize)]
struct TurnJson {
    game: usize,
    turn: u32,
    side: &'static str,
    played: Vec<String>,
    missed_mate: Option<Vec<String>>,
    allows_mate: Option<Vec<String>>,
    safe_turn: Option<Vec<String>>,
    best: Vec<String>,
    score_before: JsonScore,
    score_after: Option<JsonScore>,
    /// After the documented keys: the loss (score_before - score_after,
    /// centipawns), the played turn's loss against the engine's best turn
    /// (both searched after the turn), the NAG glyph, the played turn in
    /// SAN, whether it mates.
    loss: Option<i32>,
    loss_vs_best: Option<i32>,
    nag: &'static str,
    san: Vec<String>,
    mates: bool,
}

/// A game's closing object: its result checked against the rules.
#[derive(Serialize)]
struct GameJson {
    game: usize,
    turns: usize,
    result: Option<String>,
    /// `ongoing`, or why the game is over in its final position.
    #[serde(rename = "final")]
    final_status: &'static str,
    /// Why the claimed result contradicts the final position, if it does.
    result_error: Option<String>,
    ms: u64,
}

/// A game that could not be read past some move.
#[derive(Serialize)]
struct ErrorJson {
    game: usize,
    error: String,
}

fn uci(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.uci()).collect()
}

/// The NAG glyph of a turn by the documented thresholds (README).
fn nag(r: &TurnReport) -> &'static str {
    if r.mates {
        return "!";
    }
    if r.is_blunder() {
        return "??";
    }
    match r.loss_vs_best() {
        Some(l) if l >= BLUNDER_CP => "??",
        _ if r.missed_mate.is_some() => "?",
        Some(l) if l >= MISTAKE_CP => "?",
        Some(l) if l <= -GOOD_CP => "!",
        _ => "",
    }
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// The comment after a turn: what went wrong, the engine's line and scores.
fn comment(r: &TurnReport) -> String {
    let mut parts = Vec::new();
    if let Some(line) = &r.missed_mate {
        parts.push(format!("missed mate: {}", turn_text(&r.before, line)));
    }
    if let Some(line) = &r.allows_mate {
        let mut after = r.before.clone();
        for &mv in &r.played {
            after.play(mv);
        }
        parts.push(format!("allows mate: {}", turn_text(&after, line)));
        if let Some(safe) = &r.safe_turn {
            parts.push(format!("safe was {}", turn_text(&r.before, safe)));
        }
    }
    let after = |s: Option<Score>| s.map_or("?".to_string(), score_text);
    if r.missed_mate.is_none() && !r.best.is_empty() && r.best != r.played {
        parts.push(format!(
            "engine {}: {} ({} after it)",
            score_text(r.score_before),
            san_line(&r.before, &r.best).join(" "),
            after(r.score_after_best)
        ));
    } else {
        parts.push(format!("engine {}", score_text(r.score_before)));
    }
    parts.push(format!("{} after the turn", after(r.score_after)));
    format!("{{{}}}", parts.join("; "))
}

fn turn_json(game: usize, r: &TurnReport) -> TurnJson {
    TurnJson {
        game,
        turn: r.turn,
        side: match r.side {
            Color::White => "w",
            Color::Black => "b",
        },
        played: uci(&r.played),
        missed_mate: r.missed_mate.as_deref().map(uci),
        allows_mate: r.allows_mate.as_deref().map(uci),
        safe_turn: r.safe_turn.as_deref().map(uci),
        best: uci(&r.best),
        score_before: r.score_before.into(),
        score_after: r.score_after.map(JsonScore::from),
        loss: r.loss(),
        loss_vs_best: r.loss_vs_best(),
        nag: nag(r),
        san: san_line(&r.before, &r.played),
        mates: r.mates,
    }
}

/// The search limits the flags give (a default movetime when none).
fn limits(args: &AnalyseArgs) -> Limits {
    let movetime = match (args.depth, args.nodes, args.movetime) {
        (None, None, None) => Some(DEFAULT_MOVETIME_MS),
        (_, _, m) => m,
    };
    Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: movetime.map(Duration::from_millis),
        threads: crescendo::search::usable_threads(args.threads),
        ..Limits::default()
    }
}

/// A progress bar on stderr, only when it is a terminal and the file has
/// several games.
fn progress(games: &[Game]) -> Option<indicatif::ProgressBar> {
    if games.len() < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let turns: usize = games.iter().map(|g| g.turns().len()).sum();
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(turns as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} turns, {msg} (eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}

/// Runs `crescendo analyse --pgn`.
/// Games without a `Rules` tag are played under `rules`.
pub fn run(args: &AnalyseArgs, path: &str, rules: Rules) -> CliResult {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let games = read_games(&text, rules);
    if games.is_empty() {
        return Err(format!("{path}: no games in the file"));
    }
    let pgn_to_stdout = !args.json && args.out.is_none();
    let mut out_file = match &args.out {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("cannot write {p}: {e}"))?),
        None => None,
    };
    let bar = progress(&games);
    let mut engine = Engine::new(Budget::new(limits(args)), args.hash);
    let mut errors = Vec::new();
    for game in &games {
        if let Some(bar) = &bar {
            bar.set_message(format!("game {}/{}", game.number, games.len()));
        }
        let started = Instant::now();
        engine.clear(); // each game on its own
        let mut reports = Vec::new();
        engine.game(&game.start, &game.moves, |r| {
            if args.json {
                print_json(&turn_json(game.number, &r));
            }
            if let Some(bar) = &bar {
                bar.inc(1);
            }
            reports.push(r);
        });
        let result_error = match &game.error {
            Some(e) => {
                if args.json {
                    print_json(&ErrorJson {
                        game: game.number,
                        error: e.to_string(),
                    });
                }
                errors.push(e.to_string());
                None
            }
            None => {
                let status = final_status(&game.end_position());
                let result_error = game.result_contradiction(status);
                if args.json {
                    print_json(&GameJson {
                        game: game.number,
                        turns: reports.len(),
                        result: game.claimed_result().map(str::to_string),
                        final_status: status.reason(),
                        result_error: result_error.clone(),
                        ms: started.elapsed().as_millis() as u64,
                    });
                }
                result_error
            }
        };
        let annotated = annotated_pgn(game, &reports, result_error.as_deref());
        if pgn_to_stdout {
            println!("{annotated}");
        }
        if let Some(f) = &mut out_file {
            writeln!(f, "{annotated}").map_err(|e| format!("cannot write the PGN: {e}"))?;
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    super::game_errors(&errors, games.len(), "could not be read to the end")
}

/// The game with a NAG and a comment after every turn analysed.
fn annotated_pgn(game: &Game, reports: &[TurnReport], result_error: Option<&str>) -> String {
    let record = game.record();
    let last = reports.len().saturating_sub(1);
    let mut text = record.to_pgn_annotated(|k| {
        let Some(r) = reports.get(k) else {
            return String::new();
        };
        let mut note = format!("{} {}", nag(r), comment(r)).trim().to_string();
        if k == last
            && let Some(why) = result_error
        {
            note.push_str(&format!(" {{result: {why}}}"));
        }
        note
    });
    if let Some(e) = &game.error {
        text.push_str(&format!("{{not read past here: {e}}}\n"));
    }
    text
}
