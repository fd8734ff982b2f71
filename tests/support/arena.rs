//! Engines and games for the match runner's tests (`#[path =
//! "support/arena.rs"] mod arena_support;`): the built-in random mover and
//! the fixture scripts, started and made ready, and one game between two.

#![allow(dead_code)] // each test file uses part of it

use crescendo::arena::{
    EngineConfig, EngineProcess, GameResult, GameSettings, Outcome, Start, Termination,
    TimeControl, play_game,
};
use crescendo::chess::Color;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_crescendo");

/// The hidden `random-engine` subcommand with `seed`.
pub fn random(seed: u64) -> EngineConfig {
    EngineConfig {
        name: format!("random-{seed}"),
        cmd: BIN.into(),
        args: vec!["random-engine".into(), "--seed".into(), seed.to_string()],
        ..EngineConfig::default()
    }
}

/// The fixture script tests/fixtures/NAME with `args`, run by bash.
pub fn script(name: &str, args: &[&str]) -> EngineConfig {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let mut all = vec![path];
    all.extend(args.iter().map(|a| a.to_string()));
    EngineConfig {
        name: format!("{name} {}", args.last().unwrap_or(&"")),
        cmd: "bash".into(),
        args: all,
        ..EngineConfig::default()
    }
}

/// The misbehaving fake engine (tests/fixtures/fake_engine.sh) in `mode`.
pub fn fake(mode: &str) -> EngineConfig {
    script("fake_engine.sh", &[mode])
}

/// Starts `config` and waits until it is ready for a game.
pub fn start(config: &EngineConfig) -> EngineProcess {
    let mut e = EngineProcess::start(config, Duration::from_secs(10)).expect("engine starts");
    e.new_game(Duration::from_secs(10))
        .expect("engine is ready");
    e
}

/// The clock `tc` (`5+0.05`) with a 50 ms margin, no node limits.
pub fn clock(tc: &str) -> GameSettings {
    with_time(TimeControl::parse_clock(tc).unwrap())
}

/// `ms` milliseconds per turn with a 50 ms margin, no node limits.
pub fn movetime(ms: u64) -> GameSettings {
    with_time(TimeControl::MoveTime(Duration::from_millis(ms)))
}

fn with_time(time_control: TimeControl) -> GameSettings {
    GameSettings {
        time_control: [time_control; 2],
        time_margin: Duration::from_millis(50),
        nodes: [None; 2],
    }
}

/// Starts `white` and `black`, plays one game from `opening`, and quits
/// both (an engine that does not exit is killed after the quit grace).
pub fn game<S: Start>(
    white: &EngineConfig,
    black: &EngineConfig,
    opening: &S,
    settings: &GameSettings,
) -> GameResult<<S::Game as crescendo::arena::Refereed>::Record> {
    let (mut w, mut b) = (start(white), start(black));
    let stop = AtomicBool::new(false);
    let result = play_game([&mut w, &mut b], opening, settings, &stop);
    w.quit();
    b.quit();
    result
}

/// [`game`] of Progressive chess from the Italian start position under the
/// clock `tc`.
pub fn chess_game(white: &EngineConfig, black: &EngineConfig, tc: &str) -> GameResult {
    let opening = crescendo::arena::Opening::startpos(crescendo::chess::Rules::Italian);
    game(white, black, &opening, &clock(tc))
}

/// `loser`'s engine lost the game by its own fault, `termination`, and the
/// detail sentence says so with `detail` in it.
pub fn assert_lost_by<R>(r: &GameResult<R>, loser: Color, termination: Termination, detail: &str) {
    assert_eq!(r.outcome, Outcome::Win(loser.other()), "{}", r.detail);
    assert_eq!(r.termination, termination, "{}", r.detail);
    assert_eq!(r.faulty, Some(loser), "{}", r.detail);
    assert!(r.detail.contains(detail), "{}", r.detail);
}
