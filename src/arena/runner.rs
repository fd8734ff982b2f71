//! A match: many games between two engines, played on `concurrency`
//! threads, each thread with its own pair of engine processes.
//!
//! Games come in pairs: game 2p and 2p+1 start from opening p with the
//! colours swapped, so that an unbalanced opening favours nobody. The first
//! engine ("A") has White in the even games. Results are gathered on the
//! calling thread, which keeps the score, writes the PGN as games finish (so
//! a stopped match loses nothing), and stops the match when the SPRT decides
//! or the stop flag is set from outside (Ctrl-C).

use super::engine::{EngineConfig, EngineError, EngineProcess};
use super::game::{MatchGame, MatchOpening, MatchRecord};
use super::referee::{GameResult, GameSettings, TimeControl};
use super::stats::{EloEstimate, Sprt, SprtDecision, Tally};
use crate::chess::Color;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Where the games start.
#[derive(Clone, Debug)]
pub enum OpeningSource {
    /// Every game from the start position.
    StartPosition,
    /// These openings in order, from the first again when they run out
    /// (all of the match's game).
    List(Vec<MatchOpening>),
    /// Random legal first `turns` turns, drawn with the match seed.
    Random { turns: u32 },
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine A (the one whose score is reported) and engine B.
    pub engines: [EngineConfig; 2],
    /// Games to play at most (fewer if the SPRT decides or the match is stopped).
    pub games: u32,
    /// Games played at once (each with its own two engine processes).
    pub concurrency: usize,
    pub time_control: TimeControl,
    /// See [`GameSettings::time_margin`].
    pub time_margin: Duration,
    /// The game and its rules.
    pub variant: MatchGame,
    pub openings: OpeningSource,
    /// Seeds the random openings.
    pub seed: u64,
    pub sprt: Option<Sprt>,
    /// Games are appended here as they finish.
    pub pgn: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
    /// Time for the `uci` handshake and `isready` answers.
    pub startup_timeout: Duration,
}

/// One finished game, as reported while the match runs.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based game number (the PGN `Round`).
    pub number: u32,
    /// 0-based opening pair.
    pub pair: u32,
    /// Which engine (0 = A, 1 = B) had White.
    pub white: usize,
    pub result: GameResult<MatchRecord>,
}

impl GameReport {
    /// Engine A's points in this game (None when unfinished).
    pub fn points_a(&self) -> Option<f64> {
        let a_color = if self.white == 0 {
            Color::White
        } else {
            Color::Black
        };
        self.result.outcome.points(a_color)
    }
}

/// The state of the SPRT.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SprtState {
    #[serde(flatten)]
    pub test: Sprt,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `H0` or `H1` once decided.
    pub result: Option<SprtDecision>,
}

/// The score so far, and at the end.
#[derive(Clone, Debug, Serialize)]
pub struct MatchSummary {
    /// Engine names, A first.
    pub engines: [String; 2],
    /// The game: `progressive` or `linear-progression`.
    pub variant: &'static str,
    /// The rules: `italian`, `scottish`, or for Linear Progression the
    /// board and the options on (`8x8`, `6x6 equal,blockers`).
    pub rules: String,
    /// The rules for people (`italian rules`, `Linear Progression 8x8`).
    #[serde(skip)]
    pub rules_text: String,
    pub time_control: String,
    pub seed: u64,
    /// Finished games (wins + draws + losses of A).
    pub games: u64,
    #[serde(flatten)]
    pub tally: Tally,
    pub points: f64,
    /// A's score fraction.
    pub score: f64,
    pub elo: Option<EloEstimate>,
    pub los: f64,
    pub sprt: Option<SprtState>,
    /// Games by how they ended (the PGN `Termination` reasons).
    pub terminations: BTreeMap<String, u64>,
    /// Games that were started but not finished.
    pub unfinished: u64,
    /// The match stopped before all games were played (Ctrl-C, SPRT, or an error).
    pub stopped_early: bool,
    /// Why the match could not go on, if it failed.
    pub error: Option<String>,
}

impl MatchSummary {
    fn new(config: &MatchConfig) -> MatchSummary {
        MatchSummary {
            engines: [
                config.engines[0].name.clone(),
                config.engines[1].name.clone(),
            ],
            variant: config.variant.name(),
            rules: config.variant.rules(),
            rules_text: config.variant.describe(),
            time_control: config.time_control.pgn(),
            seed: config.seed,
            games: 0,
            tally: Tally::default(),
            points: 0.0,
            score: 0.5,
            elo: None,
            los: 0.5,
            sprt: config.sprt.map(|test| {
                let (lower, upper) = test.bounds();
                SprtState {
                    test,
                    llr: 0.0,
                    lower,
                    upper,
                    result: None,
                }
            }),
            terminations: BTreeMap::new(),
            unfinished: 0,
            stopped_early: false,
            error: None,
        }
    }

    fn refresh(&mut self) {
        self.games = self.tally.games();
        self.points = self.tally.points();
        self.score = self.tally.score();
        self.elo = self.tally.elo();
        self.los = self.tally.los();
        if let Some(s) = &mut self.sprt {
            s.llr = s.test.llr(&self.tally);
            s.result = s.test.decision(s.llr);
        }
    }
}

/// A message from a worker thread.
enum Message {
    Game(Box<GameReport>),
    Failed(String),
}

/// Plays the match. `on_game` is called on this thread after each game with
/// the report and the summary so far. Returns the summary (also when stopped
/// early); `Err` only when the match cannot start (an engine that does not
/// start, a PGN file that cannot be opened).
pub fn run_match(
    config: &MatchConfig,
    stop: &AtomicBool,
    mut on_game: impl FnMut(&GameReport, &MatchSummary),
) -> Result<MatchSummary, String> {
    let mut pgn = match &config.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let openings = pair_openings(config);
    // Start the first worker's engines here: a bad command or a broken
    // handshake is an error of the whole match, reported before any game.
    let first = [
        start_engine(&config.engines[0], config)?,
        start_engine(&config.engines[1], config)?,
    ];
    let next = AtomicU32::new(0);
    let mut summary = MatchSummary::new(config);
    let (tx, rx) = mpsc::channel();
    let workers = config.concurrency.clamp(1, config.games.max(1) as usize);
    std::thread::scope(|scope| {
        let mut first = Some(first);
        for _ in 0..workers {
            let engines = match first.take() {
                Some([a, b]) => [Some(a), Some(b)],
                None => [None, None],
            };
            let tx = tx.clone();
            let (next, openings) = (&next, &openings);
            scope.spawn(move || worker(config, engines, next, openings, stop, tx));
        }
        drop(tx);
        let mut pending: HashMap<u32, f64> = HashMap::new();
        for message in rx {
            let report = match message {
                Message::Game(report) => report,
                Message::Failed(e) => {
                    summary.error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
            };
            match report.points_a() {
                Some(points) => {
                    summary.tally.add_game(points);
                    let reason = report.result.termination.reason().to_string();
                    *summary.terminations.entry(reason).or_default() += 1;
                    if let Some(first_half) = pending.remove(&report.pair) {
                        summary.tally.add_pair(first_half + points);
                    } else {
                        pending.insert(report.pair, points);
                    }
                }
                None => summary.unfinished += 1,
            }
            if let Some(file) = &mut pgn {
                let text = pgn_text(&report);
                if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                    summary
                        .error
                        .get_or_insert(format!("cannot write the PGN: {e}"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            summary.refresh();
            if summary.sprt.is_some_and(|s| s.result.is_some()) {
                stop.store(true, Ordering::Relaxed);
            }
            on_game(&report, &summary);
        }
    });
    summary.refresh();
    summary.stopped_early = summary.games < config.games as u64;
    Ok(summary)
}

/// The opening of each pair.
fn pair_openings(config: &MatchConfig) -> Vec<MatchOpening> {
    let pairs = config.games.div_ceil(2) as usize;
    match &config.openings {
        OpeningSource::StartPosition => vec![config.variant.start_opening()],
        OpeningSource::List(list) => list.iter().cycle().take(pairs).cloned().collect(),
        OpeningSource::Random { turns } => {
            let mut rng = StdRng::seed_from_u64(config.seed);
            (0..pairs)
                .map(|_| config.variant.random_opening(*turns, &mut rng))
                .collect()
        }
    }
}

/// Starts an engine and tells it the game and its rules (see
/// [`MatchGame::configure`]; options the user set are left alone).
fn start_engine(engine: &EngineConfig, config: &MatchConfig) -> Result<EngineProcess, String> {
    let mut e = EngineProcess::start(engine, config.startup_timeout)
        .map_err(|err| format!("engine {}: {err}", engine.name))?;
    let user_set = |name: &str| {
        engine
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    };
    let sent = config
        .variant
        .configure(&mut e, user_set)
        .map_err(|err| format!("engine {}: {err}", engine.name))?;
    if sent {
        e.confirm("the game's options", config.startup_timeout)
            .map_err(|err| format!("engine {}: {err}", engine.name))?;
    }
    Ok(e)
}

/// One worker: takes game numbers until none are left or the match stops.
fn worker(
    config: &MatchConfig,
    mut engines: [Option<EngineProcess>; 2],
    next: &AtomicU32,
    openings: &[MatchOpening],
    stop: &AtomicBool,
    tx: mpsc::Sender<Message>,
) {
    let settings = GameSettings {
        time_control: config.time_control,
        time_margin: config.time_margin,
    };
    while !stop.load(Ordering::Relaxed) {
        let game = next.fetch_add(1, Ordering::Relaxed);
        if game >= config.games {
            break;
        }
        if let Err(e) = prepare(config, &mut engines) {
            let _ = tx.send(Message::Failed(e));
            break;
        }
        let [Some(a), Some(b)] = &mut engines else {
            break; // prepare() filled both slots
        };
        let pair = game / 2;
        let white = (game % 2) as usize;
        let players = if white == 0 { [a, b] } else { [b, a] };
        let opening = &openings[pair as usize % openings.len()];
        let mut result = opening.play(players, &settings, stop);
        if let Some(color) = result.faulty {
            // An engine that broke the protocol or hung is replaced.
            let index = if color == Color::White {
                white
            } else {
                1 - white
            };
            if let Some(e) = engines[index].take() {
                e.kill();
            }
        }
        let names = [&config.engines[white].name, &config.engines[1 - white].name];
        add_tags(config, &mut result, game + 1, names);
        let report = GameReport {
            number: game + 1,
            pair,
            white,
            result,
        };
        if tx.send(Message::Game(Box::new(report))).is_err() {
            break;
        }
    }
    for e in engines.into_iter().flatten() {
        e.quit();
    }
}

/// Makes sure both engines run and are ready for a new game; an engine that
/// does not answer `isready` is replaced once.
fn prepare(config: &MatchConfig, engines: &mut [Option<EngineProcess>; 2]) -> Result<(), String> {
    for (slot, engine_config) in engines.iter_mut().zip(&config.engines) {
        if let Some(e) = slot {
            match e.new_game(config.startup_timeout) {
                Ok(()) => continue,
                Err(
                    err @ (EngineError::Timeout(_) | EngineError::Exited(_) | EngineError::Io(_)),
                ) => {
                    log::warn!("engine {}: {err}; restarting it", engine_config.name);
                    if let Some(e) = slot.take() {
                        e.kill();
                    }
                }
                Err(err) => return Err(format!("engine {}: {err}", engine_config.name)),
            }
        }
        let mut e = start_engine(engine_config, config)?;
        e.new_game(config.startup_timeout)
            .map_err(|err| format!("engine {}: {err}", engine_config.name))?;
        *slot = Some(e);
    }
    Ok(())
}

fn add_tags(
    config: &MatchConfig,
    result: &mut GameResult<MatchRecord>,
    round: u32,
    names: [&String; 2],
) {
    let tags = [
        ("Event", config.event.clone()),
        ("Site", "?".to_string()),
        ("Date", today()),
        ("Round", round.to_string()),
        ("White", names[0].clone()),
        ("Black", names[1].clone()),
        ("Result", result.outcome.pgn().to_string()),
        ("TimeControl", config.time_control.pgn()),
        ("Termination", result.termination.reason().to_string()),
        ("TerminationDetails", result.detail.clone()),
    ];
    result
        .record
        .set_tags(tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect());
}

fn pgn_text(report: &GameReport) -> String {
    let mut text = report.result.record.to_pgn();
    text.push('\n');
    text
}

/// Today's date as `YYYY.MM.DD` (UTC), without a date crate: days since
/// 1970 to the civil calendar (H. Hinnant's algorithm).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
        assert_eq!(&d[4..5], ".");
    }
}
