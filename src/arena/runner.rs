//! A match: many games between two engines, played on `concurrency`
//! threads, each thread with its own pair of engine processes.
//!
//! Games come in pairs: game 2p and 2p+1 start from opening p with the
//! colours swapped, so that an unbalanced opening favours nobody. The first
//! engine ("A") has White in the even games. Results are gathered on the
//! calling thread, which keeps the score, writes the PGN as games finish (so
//! a stopped match loses nothing), and stops the match when the SPRT decides
//! or the stop flag is set from outside (Ctrl-C).
//!
//! A run may be one shard of the match ([`Shard`]): it plays only its
//! pairs, each pair's opening drawn from the pair's own seed. With a
//! results file, each finished pair is appended as it ends, and the pairs
//! already there are skipped (resume).

use super::engine::{EngineConfig, EngineError, EngineProcess};
use super::game::{MatchGame, MatchOpening, MatchRecord};
use super::referee::{GameResult, GameSettings, TimeControl};
use super::results::{MatchSetup, PairRecord, ResultsFile, resume};
use super::shard::{Shard, pair_seed};
use super::stats::{EloEstimate, Sprt, SprtDecision, Tally};
use crate::chess::Color;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    /// Random legal first `turns` turns, each pair's drawn from its own
    /// seed ([`pair_seed`] of the match seed and the pair).
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
    /// `nodes=N` of engine A and B: it is sent `go nodes N` instead of the clock.
    pub nodes: [Option<u64>; 2],
    /// `tc=SECONDS[+INCREMENT]` of engine A and B: its own clock instead of
    /// `time_control`.
    pub tc: [Option<TimeControl>; 2],
    /// The part of the match this run plays.
    pub shard: Shard,
    /// Finished pairs are appended here, and the pairs already there skipped.
    pub results: Option<PathBuf>,
    /// No game is started once this file exists (games running finish).
    pub stop_file: Option<PathBuf>,
}

impl MatchConfig {
    /// The time control of engine `i` (0 is A): its `tc=`, else the match's.
    pub fn time_control_of(&self, i: usize) -> TimeControl {
        self.tc[i].unwrap_or(self.time_control)
    }
}

/// One finished game, as reported while the match runs.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based game number (the PGN `Round`).
    pub number: u32,
    /// 0-based opening pair.
    pub pair: u32,
    /// The pair's opening (see [`MatchOpening::text`]).
    pub opening: String,
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
    pub variant: String,
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
    /// The shard played (`2/4`); null for a whole match or a merge.
    pub shard: Option<String>,
}

impl MatchSummary {
    /// The empty summary of a match (of its shard `shard`, if one).
    pub fn from_setup(setup: &MatchSetup, shard: Option<Shard>) -> MatchSummary {
        MatchSummary {
            engines: [setup.engines[0].name.clone(), setup.engines[1].name.clone()],
            variant: setup.variant.clone(),
            rules: setup.rules.clone(),
            rules_text: setup.rules_text.clone(),
            time_control: setup.time_control.clone(),
            seed: setup.seed,
            games: 0,
            tally: Tally::default(),
            points: 0.0,
            score: 0.5,
            elo: None,
            los: 0.5,
            sprt: setup.sprt.map(|test| {
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
            shard: shard.filter(|s| !s.is_whole()).map(|s| s.to_string()),
        }
    }

    /// Has the SPRT decided?
    fn decided(&self) -> bool {
        self.sprt.is_some_and(|s| s.result.is_some())
    }

    /// The summary at the end of a run of `shard_games` games.
    fn finished(mut self, shard_games: u64) -> MatchSummary {
        self.refresh();
        self.stopped_early = self.games < shard_games;
        self
    }

    /// Recomputes the figures from the tally.
    pub(super) fn refresh(&mut self) {
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

/// The games of the pair `pair` (1 or 2: an odd `--games` leaves the last
/// pair one game), as 0-based game numbers.
fn pair_games(config: &MatchConfig, pair: u32) -> impl Iterator<Item = u32> {
    let games = config.games;
    (2 * pair..2 * pair + 2).filter(move |&g| g < games)
}

/// Plays the match (or its shard). `on_game` is called on this thread after
/// each game with the report and the summary so far. Returns the summary
/// (also when stopped early), which counts the pairs resumed from the
/// results file; `Err` only when the match cannot start (an engine that
/// does not start, a file that cannot be opened, a results file of another
/// match, an engine with no limit).
pub fn run_match(
    config: &MatchConfig,
    stop: &AtomicBool,
    mut on_game: impl FnMut(&GameReport, &MatchSummary),
) -> Result<MatchSummary, String> {
    check_limits(config)?;
    let setup = MatchSetup::new(config);
    let mut summary = MatchSummary::from_setup(&setup, Some(config.shard));
    let done_pairs = resume_pairs(config, &setup, &mut summary)?;
    let (schedule, shard_games) = schedule(config, &done_pairs);
    if schedule.is_empty() || summary.decided() {
        return Ok(summary.finished(shard_games));
    }
    let mut recorder = Recorder::open(config, setup)?;
    // Start the first worker's engines here: a bad command or a broken
    // handshake is an error of the whole match, reported before any game.
    let first = [
        start_engine(&config.engines[0], config)?,
        start_engine(&config.engines[1], config)?,
    ];
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let workers = config.concurrency.clamp(1, schedule.len());
    std::thread::scope(|scope| {
        let mut first = Some(first);
        for _ in 0..workers {
            let engines = match first.take() {
                Some([a, b]) => [Some(a), Some(b)],
                None => [None, None],
            };
            let tx = tx.clone();
            let (next, schedule) = (&next, &schedule);
            scope.spawn(move || worker(config, engines, next, schedule, stop, tx));
        }
        drop(tx);
        for message in rx {
            match message {
                Message::Game(report) => {
                    let report = recorder.record(*report, &mut summary, stop);
                    summary.refresh();
                    if summary.decided() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    on_game(&report, &summary);
                }
                Message::Failed(e) => fail(&mut summary, stop, e),
            }
        }
    });
    Ok(summary.finished(shard_games))
}

/// Every engine needs a limit: a clock, a move time or a node count.
fn check_limits(config: &MatchConfig) -> Result<(), String> {
    for (i, (engine, nodes)) in config.engines.iter().zip(config.nodes).enumerate() {
        if nodes.is_none() && config.time_control_of(i) == TimeControl::Untimed {
            return Err(format!(
                "engine {} has no limit: give --tc, --movetime, tc= or nodes=N",
                engine.name
            ));
        }
    }
    Ok(())
}

/// Counts the pairs of this shard already in the results file into
/// `summary` and returns their numbers.
fn resume_pairs(
    config: &MatchConfig,
    setup: &MatchSetup,
    summary: &mut MatchSummary,
) -> Result<HashSet<u32>, String> {
    let done: Vec<PairRecord> = match &config.results {
        Some(path) => resume(path, setup)?,
        None => Vec::new(),
    };
    let mut done_pairs = HashSet::new();
    for record in done.iter().filter(|r| config.shard.has_pair(r.pair)) {
        summary.add_record(record);
        done_pairs.insert(record.pair);
    }
    if !done_pairs.is_empty() {
        log::info!("resuming: {} pairs already played", done_pairs.len());
    }
    Ok(done_pairs)
}

/// The games of this shard still to play (0-based game numbers, pair by
/// pair) and the number of games of the whole shard.
fn schedule(config: &MatchConfig, done_pairs: &HashSet<u32>) -> (Vec<u32>, u64) {
    let pairs = config.games.div_ceil(2);
    let shard_games = config
        .shard
        .pairs(pairs)
        .flat_map(|p| pair_games(config, p))
        .count() as u64;
    let schedule = config
        .shard
        .pairs(pairs)
        .filter(|p| !done_pairs.contains(p))
        .flat_map(|p| pair_games(config, p))
        .collect();
    (schedule, shard_games)
}

/// Keeps the first error of the match and stops it.
fn fail(summary: &mut MatchSummary, stop: &AtomicBool, error: String) {
    summary.error.get_or_insert(error);
    stop.store(true, Ordering::Relaxed);
}

/// Where the finished games go: the summary's counts, the PGN file, and,
/// once both games of a pair are in, the results file.
struct Recorder<'a> {
    config: &'a MatchConfig,
    setup: MatchSetup,
    key: String,
    results: Option<ResultsFile>,
    pgn: Option<std::fs::File>,
    /// The finished games of each pair still in play.
    pending: HashMap<u32, Vec<GameReport>>,
}

impl<'a> Recorder<'a> {
    /// Opens the results file and the PGN (to append) when the match has them.
    fn open(config: &'a MatchConfig, setup: MatchSetup) -> Result<Recorder<'a>, String> {
        let results = match &config.results {
            Some(path) => Some(ResultsFile::open(path)?),
            None => None,
        };
        let pgn = match &config.pgn {
            Some(path) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(Recorder {
            config,
            key: setup.key(),
            setup,
            results,
            pgn,
            pending: HashMap::new(),
        })
    }

    /// Counts and writes one game; a write error is the match's error and
    /// stops it. Returns the report for `on_game`.
    fn record(
        &mut self,
        report: GameReport,
        summary: &mut MatchSummary,
        stop: &AtomicBool,
    ) -> GameReport {
        match report.points_a() {
            Some(points) => {
                summary.tally.add_game(points);
                let reason = report.result.termination.reason().to_string();
                *summary.terminations.entry(reason).or_default() += 1;
            }
            None => summary.unfinished += 1,
        }
        if let Some(file) = &mut self.pgn {
            let text = pgn_text(&report);
            if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                fail(summary, stop, format!("cannot write the PGN: {e}"));
            }
        }
        let pair = report.pair;
        let games = self.pending.entry(pair).or_default();
        games.push(report.clone());
        if games.len() == pair_games(self.config, pair).count() {
            let mut games = self.pending.remove(&pair).unwrap_or_default();
            games.sort_by_key(|g| g.number);
            if let Err(e) = self.finish_pair(&games, summary) {
                fail(summary, stop, e);
            }
        }
        report
    }

    /// A pair whose games all finished counts and is kept; one with an
    /// unfinished game is neither.
    fn finish_pair(
        &mut self,
        games: &[GameReport],
        summary: &mut MatchSummary,
    ) -> Result<(), String> {
        let points: Option<Vec<f64>> = games.iter().map(GameReport::points_a).collect();
        let Some(points) = points else {
            return Ok(());
        };
        if points.len() == 2 {
            summary.tally.add_pair(points.iter().sum());
        }
        match &mut self.results {
            Some(file) => file.append(&pair_record(self.config, &self.key, &self.setup, games)),
            None => Ok(()),
        }
    }
}

/// The results-file line of a finished pair (`games` in game order).
fn pair_record(
    config: &MatchConfig,
    key: &str,
    setup: &MatchSetup,
    games: &[GameReport],
) -> PairRecord {
    let a_result = |g: &GameReport| match g.points_a() {
        Some(p) if p > 0.75 => "1-0",
        Some(p) if p > 0.25 => "1/2-1/2",
        _ => "0-1",
    };
    PairRecord {
        pair: games[0].pair,
        opening: games[0].opening.clone(),
        results: games.iter().map(|g| a_result(g).to_string()).collect(),
        terminations: games
            .iter()
            .map(|g| g.result.termination.reason().to_string())
            .collect(),
        key: key.to_string(),
        rounds: games.iter().map(|g| g.number).collect(),
        white: games
            .iter()
            .map(|g| config.engines[g.white].name.clone())
            .collect(),
        details: games.iter().map(|g| g.result.detail.clone()).collect(),
        setup: setup.clone(),
    }
}

/// The opening of pair `pair`: a function of the match seed and the pair
/// alone, so that a shard plays the same openings as the whole match.
fn pair_opening(config: &MatchConfig, pair: u32) -> MatchOpening {
    match &config.openings {
        OpeningSource::StartPosition => config.variant.start_opening(),
        OpeningSource::List(list) => list[pair as usize % list.len()].clone(),
        OpeningSource::Random { turns } => {
            let mut rng = StdRng::seed_from_u64(pair_seed(config.seed, pair));
            config.variant.random_opening(*turns, &mut rng)
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

/// Has the stop file appeared?
fn stop_file_exists(config: &MatchConfig) -> bool {
    config.stop_file.as_ref().is_some_and(|p| p.exists())
}

/// One worker: takes games of the schedule until none are left, the match
/// stops, or the stop file appears.
fn worker(
    config: &MatchConfig,
    mut engines: [Option<EngineProcess>; 2],
    next: &AtomicUsize,
    schedule: &[u32],
    stop: &AtomicBool,
    tx: mpsc::Sender<Message>,
) {
    while !stop.load(Ordering::Relaxed) && !stop_file_exists(config) {
        let Some(&game) = schedule.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
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
        let nodes = [config.nodes[white], config.nodes[1 - white]];
        let settings = GameSettings {
            time_control: [
                config.time_control_of(white),
                config.time_control_of(1 - white),
            ],
            time_margin: config.time_margin,
            nodes,
        };
        let opening = pair_opening(config, pair);
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
        add_tags(config, &mut result, game + 1, names, settings.time_control);
        let report = GameReport {
            number: game + 1,
            pair,
            opening: opening.text(),
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
    time_control: [TimeControl; 2],
) {
    let mut tags = vec![
        ("Event", config.event.clone()),
        ("Site", "?".to_string()),
        ("Date", today()),
        ("Round", round.to_string()),
        ("White", names[0].clone()),
        ("Black", names[1].clone()),
        ("Result", result.outcome.pgn().to_string()),
    ];
    if time_control[0] == time_control[1] {
        tags.push(("TimeControl", time_control[0].pgn()));
    } else {
        // Each side's own clock (`tc=`), as cutechess-cli writes it.
        tags.push(("WhiteTimeControl", time_control[0].pgn()));
        tags.push(("BlackTimeControl", time_control[1].pgn()));
    }
    tags.push(("Termination", result.termination.reason().to_string()));
    tags.push(("TerminationDetails", result.detail.clone()));
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
