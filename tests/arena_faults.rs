//! The match runner's fault suite: engines that crash (at start and in the
//! middle of a game), hang, answer illegal, short or long turns lose with
//! the right reason (tests/fixtures/fake_engine.sh); engines that print
//! garbage or bytes that are not UTF-8 on stdout or stderr, or are slow to
//! start, play their games to the end like any other
//! (tests/fixtures/noisy_engine.sh wraps the random mover).

use crescendo::arena::{
    EngineConfig, EngineError, EngineProcess, GameResult, GameSettings, Opening, Outcome,
    Termination, TimeControl, play_game,
};
use crescendo::chess::{Color, Rules};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[path = "support/arena.rs"]
mod arena_support;

use arena_support::{BIN, random, start};

fn script(name: &str, args: &[&str]) -> EngineConfig {
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

fn fake(mode: &str) -> EngineConfig {
    script("fake_engine.sh", &[mode])
}

fn noisy(mode: &str) -> EngineConfig {
    script("noisy_engine.sh", &[BIN, mode])
}

fn game(white: &EngineConfig, black: &EngineConfig, tc: &str) -> GameResult {
    let (mut w, mut b) = (start(white), start(black));
    let settings = GameSettings {
        time_control: TimeControl::parse_clock(tc).unwrap(),
        time_margin: Duration::from_millis(50),
        nodes: [None, None],
    };
    let stop = AtomicBool::new(false);
    let result = play_game(
        [&mut w, &mut b],
        &Opening::startpos(Rules::Italian),
        &settings,
        &stop,
    );
    w.quit();
    b.quit();
    result
}

/// The game ended by the rules, not by anyone's fault.
fn assert_ended_by_the_rules(r: &GameResult, who: &str) {
    assert!(
        matches!(r.termination, Termination::Rules(_)) && r.faulty.is_none(),
        "{who}: {:?} {:?}: {}",
        r.termination,
        r.faulty,
        r.detail
    );
}

#[test]
fn output_that_is_not_utf8_on_stdout_is_not_a_crash() {
    let r = game(&noisy("stdout-latin1"), &random(21), "30+0");
    assert_ended_by_the_rules(&r, "white");
    let r = game(&random(22), &noisy("stdout-latin1"), "30+0");
    assert_ended_by_the_rules(&r, "black");
}

#[test]
fn output_that_is_not_utf8_on_stderr_is_drained_to_the_end() {
    let r = game(&noisy("stderr-bytes"), &random(23), "30+0");
    assert_ended_by_the_rules(&r, "white");
    let r = game(&random(24), &noisy("stderr-bytes"), "30+0");
    assert_ended_by_the_rules(&r, "black");
}

#[test]
fn garbage_lines_and_an_overlong_line_are_skipped() {
    let r = game(&noisy("garbage"), &random(25), "60+0");
    assert_ended_by_the_rules(&r, "white");
}

#[test]
fn a_slow_start_within_the_handshake_time_plays() {
    let started = Instant::now();
    let r = game(&random(26), &noisy("slow-start"), "30+0");
    assert_ended_by_the_rules(&r, "black");
    assert!(started.elapsed() >= Duration::from_millis(1500));
}

#[test]
fn a_crash_at_start_is_a_clear_error() {
    match EngineProcess::start(&fake("crash-at-start"), Duration::from_secs(10)) {
        Err(EngineError::Exited(status)) => assert!(status.contains('4'), "{status}"),
        Err(e) => panic!("expected an exit, got {e}"),
        Ok(_) => panic!("the engine started"),
    }
}

#[test]
fn a_crash_in_the_middle_of_a_game_loses() {
    let r = game(&fake("crash"), &random(27), "5+0");
    assert_eq!(r.termination, Termination::Crash);
    assert_eq!(r.faulty, Some(Color::White));
    assert_eq!(r.record.moves.len(), 3);
}

#[test]
fn a_hang_forfeits_on_time() {
    let started = Instant::now();
    let r = game(&random(28), &fake("hang"), "0.3+0");
    assert_eq!(r.termination, Termination::TimeForfeit);
    assert_eq!(r.faulty, Some(Color::Black));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn illegal_short_and_long_turns_lose() {
    for (mode, moves_played, what) in [
        ("illegal", 0, "e2e5"),
        ("long", 0, "e2e4,d2d4"),
        ("short", 3, "d2d4"),
    ] {
        let r = game(&fake(mode), &random(29), "5+0");
        assert_eq!(
            r.termination,
            Termination::IllegalMove,
            "{mode}: {}",
            r.detail
        );
        assert_eq!(r.outcome, Outcome::Win(Color::Black), "{mode}");
        assert_eq!(r.record.moves.len(), moves_played, "{mode}");
        assert!(r.detail.contains(what), "{mode}: {}", r.detail);
    }
}
