//! The match runner's fault suite: engines that crash (at start and in the
//! middle of a game), hang, answer illegal, short or long turns lose with
//! the right reason (tests/fixtures/fake_engine.sh); engines that print
//! garbage or bytes that are not UTF-8 on stdout or stderr, or are slow to
//! start, play their games to the end like any other
//! (tests/fixtures/noisy_engine.sh wraps the random mover).

use crescendo::arena::Opening;
use crescendo::arena::{EngineConfig, EngineError, EngineProcess, GameResult, Termination};
use crescendo::chess::{Color, Rules};
use std::time::{Duration, Instant};

#[path = "support/arena.rs"]
mod arena_support;

use arena_support::{BIN, assert_lost_by, chess_game as game, fake, movetime, random, script};

fn noisy(mode: &str) -> EngineConfig {
    script("noisy_engine.sh", &[BIN, mode])
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

/// The noisy engine in `mode` plays a game as White and one as Black (the
/// random movers seeded `seeds`) to an end by the rules.
fn plays_to_the_end_as_either_colour(mode: &str, seeds: [u64; 2]) {
    let r = game(&noisy(mode), &random(seeds[0]), "30+0");
    assert_ended_by_the_rules(&r, "white");
    let r = game(&random(seeds[1]), &noisy(mode), "30+0");
    assert_ended_by_the_rules(&r, "black");
}

#[test]
fn output_that_is_not_utf8_on_stdout_is_not_a_crash() {
    plays_to_the_end_as_either_colour("stdout-latin1", [21, 22]);
}

#[test]
fn output_that_is_not_utf8_on_stderr_is_drained_to_the_end() {
    plays_to_the_end_as_either_colour("stderr-bytes", [23, 24]);
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
    assert_lost_by(&r, Color::White, Termination::Crash, "exited");
    // 1. e4 and Black's two moves were played before the crash.
    assert_eq!(r.record.moves.len(), 3);
}

#[test]
fn a_hang_forfeits_on_time_and_is_killed() {
    let started = Instant::now();
    let r = game(&random(28), &fake("hang"), "0.3+0");
    assert_lost_by(&r, Color::Black, Termination::TimeForfeit, "");
    // 0.3 s of clock, the margin, and the quit grace before the kill.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_hang_forfeits_under_movetime() {
    let opening = Opening::startpos(Rules::Italian);
    let r = arena_support::game(&random(5), &fake("hang"), &opening, &movetime(100));
    assert_lost_by(&r, Color::Black, Termination::TimeForfeit, "100 ms");
}

#[test]
fn illegal_short_and_long_turns_lose() {
    for (mode, moves_played, what) in [
        ("illegal", 0, "e2e5"),
        ("long", 0, "e2e4,d2d4"),
        ("short", 3, "d2d4"),
    ] {
        let r = game(&fake(mode), &random(29), "5+0");
        assert_lost_by(&r, Color::White, Termination::IllegalMove, what);
        assert_eq!(r.record.moves.len(), moves_played, "{mode}");
    }
    // As Black, after one move: the fault is Black's.
    let r = game(&random(2), &fake("illegal"), "5+0");
    assert_lost_by(&r, Color::Black, Termination::IllegalMove, "e2e5");
    assert_eq!(r.record.moves.len(), 1);
}
