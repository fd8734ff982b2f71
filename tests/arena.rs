//! The match runner against real processes: misbehaving fake engines
//! (tests/fixtures/fake_engine.sh) lose with the right reason, and a match
//! between two random movers (`crescendo random-engine`) writes a PGN that
//! parses back and replays legally to its recorded results; the same for
//! Linear Progression (`--variant linear-progression`).

use crescendo::arena::{
    EngineConfig, GameResult, GameSettings, LinearOpening, Opening, Outcome, Termination,
    TimeControl, play_game, play_linear_game,
};
use crescendo::chess::notation::{self, GameRecord};
use crescendo::chess::status::{Undecided, status_with};
use crescendo::chess::{Color, Rules};
use crescendo::linear;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[path = "support/arena.rs"]
mod arena_support;

use arena_support::{BIN, random, start};

fn fixture() -> String {
    format!(
        "{}/tests/fixtures/fake_engine.sh",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn fake(mode: &str) -> EngineConfig {
    EngineConfig {
        name: format!("fake-{mode}"),
        cmd: "bash".into(),
        args: vec![fixture(), mode.into()],
        ..EngineConfig::default()
    }
}

fn settings(tc: &str) -> GameSettings {
    GameSettings {
        time_control: TimeControl::parse_clock(tc).unwrap(),
        time_margin: Duration::from_millis(50),
        nodes: [None; 2],
    }
}

/// Plays one game from the start position, `white` against `black`.
fn game(white: &EngineConfig, black: &EngineConfig, tc: &str) -> crescendo::arena::GameResult {
    let (mut w, mut b) = (start(white), start(black));
    let stop = AtomicBool::new(false);
    let result = play_game(
        [&mut w, &mut b],
        &Opening::startpos(Rules::Italian),
        &settings(tc),
        &stop,
    );
    w.quit();
    b.quit();
    result
}

#[test]
fn an_illegal_turn_loses() {
    let r = game(&fake("illegal"), &random(1), "5+0");
    assert_eq!(r.outcome, Outcome::Win(Color::Black));
    assert_eq!(r.termination, Termination::IllegalMove);
    assert_eq!(r.faulty, Some(Color::White));
    assert!(r.detail.contains("e2e5"), "{}", r.detail);
    assert!(r.record.moves.is_empty());
    // The same as Black: the fault is Black's.
    let r = game(&random(2), &fake("illegal"), "5+0");
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert_eq!(r.termination, Termination::IllegalMove);
    assert_eq!(r.record.moves.len(), 1);
}

#[test]
fn a_crash_loses() {
    let r = game(&fake("crash"), &random(3), "5+0");
    assert_eq!(r.outcome, Outcome::Win(Color::Black));
    assert_eq!(r.termination, Termination::Crash);
    assert!(r.detail.contains("exited"), "{}", r.detail);
    // 1. e4 and Black's two moves were played before the crash.
    assert_eq!(r.record.moves.len(), 3);
}

#[test]
fn an_engine_that_never_answers_forfeits_on_time_and_is_killed() {
    let started = Instant::now();
    let r = game(&random(4), &fake("hang"), "0.3+0");
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert_eq!(r.termination, Termination::TimeForfeit);
    assert_eq!(r.faulty, Some(Color::Black));
    // 0.3 s of clock, the margin, and the quit grace before the kill.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn an_engine_that_never_answers_forfeits_under_movetime() {
    let (mut w, mut b) = (start(&random(5)), start(&fake("hang")));
    let settings = GameSettings {
        time_control: TimeControl::MoveTime(Duration::from_millis(100)),
        time_margin: Duration::from_millis(50),
        nodes: [None; 2],
    };
    let stop = AtomicBool::new(false);
    let r = play_game(
        [&mut w, &mut b],
        &Opening::startpos(Rules::Italian),
        &settings,
        &stop,
    );
    assert_eq!(r.termination, Termination::TimeForfeit);
    assert!(r.detail.contains("100 ms"), "{}", r.detail);
    w.quit();
    b.kill();
}

/// Splits a PGN file into its games.
fn pgn_games(text: &str) -> Vec<String> {
    let mut games = Vec::new();
    for chunk in text.split("\n\n[Event ") {
        let chunk = chunk.trim();
        if chunk.is_empty() {
            continue;
        }
        if chunk.starts_with("[Event ") {
            games.push(chunk.to_string());
        } else {
            games.push(format!("[Event {chunk}"));
        }
    }
    games
}

/// One game of a match PGN, read by the crate's PGN reader (every move
/// replayed by the rules core).
fn read_record(text: &str) -> Result<GameRecord, String> {
    crescendo::chess::pgn::read_one_game(text, Rules::Italian).map(|g| g.record())
}

fn tag<'a>(record: &'a GameRecord, name: &str) -> &'a str {
    record
        .tags
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or("")
}

fn run_match(extra: &[&str], pgn: &std::path::Path) -> (std::process::Output, serde_json::Value) {
    let out = Command::new(BIN)
        .arg("match")
        .args([
            "--engine",
            &format!("cmd={BIN}"),
            "args=random-engine --seed 11",
            "name=R1",
        ])
        .args([
            "--engine",
            &format!("cmd={BIN}"),
            "args=random-engine --seed 12",
            "name=R2",
        ])
        .args(["--pgn", pgn.to_str().unwrap(), "--json"])
        .args(extra)
        .output()
        .expect("crescendo match runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let json = serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null);
    (out, json)
}

fn temp_pgn(name: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("crescendo-arena-{}-{name}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_match_of_random_movers_replays_legally() {
    for rules in ["italian", "scottish"] {
        let pgn = temp_pgn(rules);
        let (out, json) = run_match(
            &[
                "--games",
                "6",
                "--concurrency",
                "2",
                "--tc",
                "5+0.05",
                "--random-openings",
                "2",
                "--seed",
                "9",
                "--rules",
                rules,
            ],
            &pgn,
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert_eq!(json["games"], 6, "{json}");
        assert_eq!(json["engines"][0], "R1");
        let w = json["wins"].as_u64().unwrap();
        let d = json["draws"].as_u64().unwrap();
        let l = json["losses"].as_u64().unwrap();
        assert_eq!(w + d + l, 6);
        let pairs: u64 = json["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(pairs, 3);
        assert_eq!(stderr.matches("Game ").count(), 6, "{stderr}");

        let records = replay_pgn(&pgn, rules, 6, false);
        assert!(
            records.iter().all(|r| r.moves.len() >= 3),
            "the openings are recorded"
        );
        let _ = std::fs::remove_file(&pgn);
    }
}

/// Reads the match PGN back and replays every game: every move was legal
/// (parse_pgn checks), and a game ended by the rules is over in its end
/// position for the recorded reason and with the recorded result. With
/// `allow_time_forfeit`, a game may also end by time (the loser is the side
/// to move); no other fault is allowed.
fn replay_pgn(
    pgn: &std::path::Path,
    rules: &str,
    expected: usize,
    allow_time_forfeit: bool,
) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(pgn).unwrap();
    let games = pgn_games(&text);
    assert_eq!(games.len(), expected, "{text}");
    let mut rounds = Vec::new();
    let mut records = Vec::new();
    for g in &games {
        let record = read_record(g).unwrap_or_else(|e| panic!("{e}\n{g}"));
        assert_eq!(record.start.rules().name(), rules);
        rounds.push(tag(&record, "Round").parse::<usize>().unwrap());
        let end = record.end_position();
        if allow_time_forfeit && tag(&record, "Termination") == "time forfeit" {
            let winner = match end.side_to_move() {
                Color::White => "0-1",
                Color::Black => "1-0",
            };
            assert_eq!(tag(&record, "Result"), winner, "{g}");
        } else {
            // As the referee decides: undecided within its budget is a draw.
            let mates =
                |p: &_| crescendo::mate::mates_this_turn(p, crescendo::mate::QUIET_TEST_NODES);
            let status = status_with(&end, mates, Undecided::Drawn);
            assert!(status.is_over(), "{g}");
            assert_eq!(tag(&record, "Result"), status.result(), "{g}");
            assert_eq!(tag(&record, "Termination"), status.reason(), "{g}");
        }
        records.push(record);
    }
    rounds.sort();
    assert_eq!(rounds, (1..=expected).collect::<Vec<_>>());
    records
}

#[test]
fn a_short_match_between_two_crescendo_processes() {
    let pgn = temp_pgn("crescendo");
    let out = Command::new(BIN)
        .arg("match")
        .args(["--engine", &format!("cmd={BIN}"), "name=A", "option.Hash=8"])
        .args(["--engine", &format!("cmd={BIN}"), "name=B", "option.Hash=8"])
        .args(["--games", "2", "--concurrency", "2", "--tc", "1+0.02"])
        .args(["--random-openings", "2", "--seed", "3", "--json"])
        .args(["--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(json["games"], 2, "{json}\n{stderr}");
    // A load spike may cost a game on time; nothing else may go wrong.
    replay_pgn(&pgn, "italian", 2, true);
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn analyse_reports_a_bad_line_and_goes_on() {
    let path = std::env::temp_dir().join(format!("crescendo-analyse-{}.epd", std::process::id()));
    std::fs::write(
        &path,
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 id \"back rank\";\nnot a fen\n\n4k3/8/8/8/8/8/8/4K3 w - - 0 5\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .args([
            "analyse",
            "--file",
            path.to_str().unwrap(),
            "--depth",
            "2",
            "--json",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(":2: invalid FEN"), "{stderr}");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], "back rank");
    assert_eq!(lines[0]["best"], serde_json::json!(["a1a8"]));
    assert_eq!(lines[0]["score"], "mate 1");
    assert_eq!(lines[0]["mate_in_turn"], true);
    assert_eq!(lines[1]["id"], 4);
    assert_eq!(lines[1]["status"], "dead position");
    let _ = std::fs::remove_file(&path);

    let out = Command::new(BIN)
        .args([
            "analyse",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ])
        .args(["--nodes", "2000"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("1: best "), "{text}");
}

#[test]
fn faults_are_counted_and_tagged_and_sprt_stops_the_match() {
    let pgn = temp_pgn("faults");
    let out = Command::new(BIN)
        .arg("match")
        .args([
            "--engine",
            "cmd=bash",
            &format!("arg={}", fixture()),
            "arg=illegal",
        ])
        .args([
            "--engine",
            &format!("cmd={BIN}"),
            "args=random-engine --seed 3",
        ])
        .args([
            "--games", "200", "--tc", "5+0", "--sprt", "elo0=0", "elo1=10",
        ])
        .args(["--pgn", pgn.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    let games = json["games"].as_u64().unwrap();
    assert!((4..200).contains(&games), "{json}");
    assert_eq!(json["losses"].as_u64(), Some(games), "{json}");
    assert_eq!(json["terminations"]["illegal move"].as_u64(), Some(games));
    assert_eq!(json["sprt"]["result"], "H0", "{json}");
    assert!(json["sprt"]["llr"].as_f64().unwrap() <= json["sprt"]["lower"].as_f64().unwrap());
    assert_eq!(json["engines"][0], "bash"); // named after the command by default
    let text = std::fs::read_to_string(&pgn).unwrap();
    let first = read_record(&pgn_games(&text)[0]).unwrap();
    assert_eq!(tag(&first, "Termination"), "illegal move");
    assert_eq!(tag(&first, "Result"), "0-1");
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn bad_command_lines_fail_clearly() {
    let cases: [&[&str]; 4] = [
        &[
            "--engine",
            "cmd=/nonexistent/engine",
            "--engine",
            "cmd=x",
            "--tc",
            "1",
        ],
        &["--engine", "cmd=a", "--tc", "1"],
        &["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "1+x"],
        &[
            "--engine", "cmd=a", "--engine", "cmd=b", "--tc", "1", "--sprt", "elo0=5", "elo1=0",
        ],
    ];
    for args in cases {
        let out = Command::new(BIN).arg("match").args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("crescendo: "), "{stderr}");
    }
}

// ---------------------------------------------------------------------------
// Linear Progression matches.

/// A Crescendo engine process switched to Linear Progression by its options
/// (as `crescendo match` does it), with a small table.
fn crescendo_lp(name: &str) -> EngineConfig {
    EngineConfig {
        name: name.into(),
        cmd: BIN.into(),
        options: vec![
            ("UCI_Variant".into(), "linear-progression".into()),
            ("Hash".into(), "8".into()),
        ],
        ..EngineConfig::default()
    }
}

/// One Linear Progression game from the default start position.
fn lp_game(white: &EngineConfig, black: &EngineConfig) -> GameResult<linear::GameRecord> {
    let (mut w, mut b) = (start(white), start(black));
    let stop = AtomicBool::new(false);
    let result = play_linear_game(
        [&mut w, &mut b],
        &LinearOpening::start(&linear::Options::default()),
        &settings("5+0.05"),
        &stop,
    );
    w.quit();
    b.quit();
    result
}

#[test]
fn an_illegal_or_malformed_linear_move_loses() {
    // As White: the fault is on the first move, nothing is recorded.
    let r = lp_game(&fake("illegal"), &crescendo_lp("C"));
    assert_eq!(r.outcome, Outcome::Win(Color::Black));
    assert_eq!(r.termination, Termination::IllegalMove);
    assert_eq!(r.faulty, Some(Color::White));
    assert!(
        r.detail.contains("bestmove 'e2e5': illegal move 'e2e5'"),
        "{}",
        r.detail
    );
    assert!(r.record.moves.is_empty());
    // As Black, after the engine's legal drop.
    let r = lp_game(&crescendo_lp("C"), &fake("malformed"));
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert_eq!(r.termination, Termination::IllegalMove);
    assert_eq!(r.faulty, Some(Color::Black));
    assert!(
        r.detail
            .contains("(Black), turn 2: bestmove 'zz9': bad move 'zz9'"),
        "{}",
        r.detail
    );
    assert_eq!(r.record.moves.len(), 1);
    assert!(matches!(r.record.moves[0], linear::Move::Drop { .. }));
}

/// Reads a Linear Progression match's records back and replays every game
/// with the rules core (the reader checks each move): a game ended by the
/// rules is over in its end position, with the recorded result and
/// reason. With `allow_time_forfeit`, a game may also end by time (the
/// loser is the side to move); no other fault is allowed.
fn replay_lp_records(
    path: &std::path::Path,
    options: &linear::Options,
    expected: usize,
    allow_time_forfeit: bool,
) -> Vec<linear::GameRecord> {
    let text = std::fs::read_to_string(path).unwrap();
    let games = pgn_games(&text);
    assert_eq!(games.len(), expected, "{text}");
    let mut records = Vec::new();
    for g in &games {
        assert!(g.contains("[Variant \"Linear Progression\"]"), "{g}");
        let record = linear::parse_record(g).unwrap_or_else(|e| panic!("{e}\n{g}"));
        assert_eq!(record.start.options(), *options, "{g}");
        let end = record.end_position();
        let tag = |name: &str| record.tag(name).unwrap_or("").to_string();
        match end.status() {
            linear::Status::Over(result) => {
                assert_eq!(tag("Result"), linear::result_token(&end), "{g}");
                let reason = match result.reason {
                    linear::EndReason::BoardFull => "board full",
                    linear::EndReason::BothPassed => "both passed",
                };
                assert_eq!(tag("Termination"), reason, "{g}");
                let counts = format!("(White {}, Black {})", result.white, result.black);
                assert!(tag("TerminationDetails").ends_with(&counts), "{g}");
            }
            linear::Status::Ongoing => {
                assert!(allow_time_forfeit, "{g}");
                assert_eq!(tag("Termination"), "time forfeit", "{g}");
                let winner = match end.side_to_move() {
                    linear::Color::White => "0-1",
                    linear::Color::Black => "1-0",
                };
                assert_eq!(tag("Result"), winner, "{g}");
            }
        }
        records.push(record);
    }
    records
}

#[test]
fn a_linear_progression_match_between_two_crescendo_processes() {
    let pgn = temp_pgn("lp-random");
    let out = Command::new(BIN)
        .arg("match")
        .args(["--variant", "linear-progression"])
        .args(["--lp-board", "6x6", "--lp-blockers"])
        .args(["--engine", &format!("cmd={BIN}"), "name=A", "option.Hash=8"])
        .args(["--engine", &format!("cmd={BIN}"), "name=B", "option.Hash=8"])
        .args(["--games", "2", "--tc", "2+0.02"])
        .args(["--random-openings", "3", "--seed", "5", "--json"])
        .args(["--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(json["games"], 2, "{json}\n{stderr}");
    assert_eq!(json["variant"], "linear-progression");
    assert_eq!(json["rules"], "6x6 blockers");
    let options = linear::Options {
        board: "6x6".parse().unwrap(),
        blockers: true,
        ..linear::Options::default()
    };
    let records = replay_lp_records(&pgn, &options, 2, true);
    // Both games of the pair start with the same three random moves.
    assert_eq!(records[0].moves[..3], records[1].moves[..3]);
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn a_linear_progression_match_from_an_openings_file() {
    let openings = std::env::temp_dir().join(format!("crescendo-lp-{}.txt", std::process::id()));
    std::fs::write(
        &openings,
        "# a comment line\n#4#/6/6/2w3/3b2/#4# w d2 0 equal - moves c3c6\n\n1. @c3 @d4\n",
    )
    .unwrap();
    let pgn = temp_pgn("lp-file");
    let out = Command::new(BIN)
        .arg("match")
        .args(["--variant", "linear-progression"])
        .args(["--lp-board", "6x6", "--lp-equal-moves"])
        .args(["--engine", &format!("cmd={BIN}"), "name=A", "option.Hash=8"])
        .args(["--engine", &format!("cmd={BIN}"), "name=B", "option.Hash=8"])
        .args(["--games", "4", "--movetime", "20"])
        .args(["--openings", openings.to_str().unwrap()])
        .args(["--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&openings);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("Results of A vs B (movetime 20ms, Linear Progression 6x6 equal, seed "),
        "{stdout}"
    );
    assert!(stdout.contains("Games: 4,"), "{stdout}");
    let options = linear::Options {
        board: "6x6".parse().unwrap(),
        equal_moves: true,
        ..linear::Options::default()
    };
    let mut records = replay_lp_records(&pgn, &options, 4, true);
    records.sort_by_key(|r| r.tag("Round").unwrap().parse::<u32>().unwrap());
    let text = std::fs::read_to_string(&pgn).unwrap();
    // The first pair starts from the position (recorded as FEN), the
    // second from the start position (no FEN).
    for r in &records[..2] {
        assert_eq!(r.start.to_string(), "#4#/6/6/2w3/3b2/#4# w d2 0 equal -");
        assert_eq!(r.moves[0].to_string(), "c3c6");
    }
    for r in &records[2..] {
        assert_eq!(r.start, linear::Position::new(&options));
        assert_eq!(r.moves[0].to_string(), "@c3");
        assert_eq!(r.moves[1].to_string(), "@d4");
    }
    assert_eq!(text.matches("[FEN ").count(), 2, "{text}");
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn bad_linear_progression_match_command_lines_fail_clearly() {
    let openings =
        std::env::temp_dir().join(format!("crescendo-lp-bad-{}.txt", std::process::id()));
    std::fs::write(&openings, "@d4 @d4\n").unwrap();
    let path = format!("--openings={}", openings.display());
    let engines = ["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "1"];
    let file = openings.display().to_string();
    let cases: [(&[&str], &str); 5] = [
        (
            &["--variant", "linear-progression", "--rules", "scottish"],
            "--rules is for --variant progressive",
        ),
        (
            &["--variant", "linear-progression", "--lp-board", "3x3"],
            "--lp-board: bad board size 3x3",
        ),
        (
            &["--lp-blockers"],
            "--lp-* flags need --variant linear-progression",
        ),
        (
            &["--variant", "linear-progression", &path],
            &format!("{file}:1: illegal move '@d4'"),
        ),
        (
            &["--variant", "linear-progression", "--lp-blockers", &path],
            &format!("{file}:1: illegal move '@d4'"),
        ),
    ];
    for (args, needle) in cases {
        let out = Command::new(BIN)
            .arg("match")
            .args(engines)
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("crescendo: {needle}")),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_file(&openings);
}

#[test]
fn a_linear_progression_match_of_random_movers_replays_legally() {
    // Random movers answer at once, so many games cover the rules' corners
    // (passes, blockers, the extra move of equal moves) in little time.
    for flags in [
        &["--lp-equal-moves", "--lp-blockers"][..],
        &["--lp-board", "5x4"],
    ] {
        let pgn = temp_pgn("lp-random-movers");
        let mut args = vec!["--variant", "linear-progression", "--games", "10"];
        args.extend_from_slice(flags);
        args.extend_from_slice(&["--tc", "5+0.05", "--random-openings", "1", "--seed", "4"]);
        let (out, json) = run_match(&args, &pgn);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert_eq!(json["games"], 10, "{json}");
        assert_eq!(json["variant"], "linear-progression");
        let options = linear::Options {
            board: if flags.contains(&"5x4") { "5x4" } else { "8x8" }
                .parse()
                .unwrap(),
            equal_moves: flags.contains(&"--lp-equal-moves"),
            blockers: flags.contains(&"--lp-blockers"),
        };
        let records = replay_lp_records(&pgn, &options, 10, false);
        assert!(
            records.iter().all(|r| r.moves.len() >= 2),
            "the drops are recorded"
        );
        let _ = std::fs::remove_file(&pgn);
    }
}

#[test]
fn a_silent_linear_engine_forfeits_on_time_and_faults_feed_the_sprt() {
    let (mut w, mut b) = (start(&random_lp(6)), start(&fake("hang")));
    let settings = GameSettings {
        time_control: TimeControl::MoveTime(Duration::from_millis(100)),
        time_margin: Duration::from_millis(50),
        nodes: [None; 2],
    };
    let stop = AtomicBool::new(false);
    let r = play_linear_game(
        [&mut w, &mut b],
        &LinearOpening::start(&linear::Options::default()),
        &settings,
        &stop,
    );
    assert_eq!(r.outcome, Outcome::Win(Color::White));
    assert_eq!(r.termination, Termination::TimeForfeit);
    assert_eq!(r.faulty, Some(Color::Black));
    assert!(
        r.detail
            .contains("(Black), turn 2: no answer within 100 ms"),
        "{}",
        r.detail
    );
    assert_eq!(r.record.moves.len(), 1);
    w.quit();
    b.kill();

    // A match against an engine that never moves legally: every game is
    // lost by `illegal move`, and the SPRT stops the match early.
    let out = Command::new(BIN)
        .arg("match")
        .args(["--variant", "linear-progression"])
        .args([
            "--engine",
            "cmd=bash",
            &format!("arg={}", fixture()),
            "arg=malformed",
        ])
        .args([
            "--engine",
            &format!("cmd={BIN}"),
            "args=random-engine --seed 3",
        ])
        .args([
            "--games", "200", "--tc", "5+0", "--sprt", "elo0=0", "elo1=10", "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    let games = json["games"].as_u64().unwrap();
    assert!((4..200).contains(&games), "{json}");
    assert_eq!(json["losses"].as_u64(), Some(games), "{json}");
    assert_eq!(json["terminations"]["illegal move"].as_u64(), Some(games));
    assert_eq!(json["sprt"]["result"], "H0", "{json}");
}

/// The random mover, switched to Linear Progression by its options.
fn random_lp(seed: u64) -> EngineConfig {
    let mut config = random(seed);
    config
        .options
        .push(("UCI_Variant".into(), "linear-progression".into()));
    config
}

/// `crescendo analyse ARGS --json`: its records.
fn analyse_json(args: &[&str]) -> Vec<serde_json::Value> {
    let out = Command::new(BIN)
        .arg("analyse")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Plays a record's `best` turn in `fen`: is the opponent mated after it?
fn mates_after(fen: &str, record: &serde_json::Value) -> bool {
    let mut pos = crescendo::chess::fen::parse(fen, Rules::Italian).unwrap();
    let moves = record["best"].as_array().unwrap();
    assert!(!moves.is_empty(), "{record}");
    for (i, text) in moves.iter().enumerate() {
        let mv = notation::parse_uci(&pos, text.as_str().unwrap()).unwrap();
        let ended = pos.play(mv).turn_ended;
        assert_eq!(ended, i + 1 == moves.len(), "{record}");
    }
    crescendo::chess::status::is_mated(&pos)
}

#[test]
fn analyse_gives_multipv_lines_best_first() {
    // White to play a turn of three moves, no mate in it.
    let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    for threads in ["1", "2"] {
        let lines = analyse_json(&[
            "--fen",
            fen,
            "--depth",
            "2",
            "--multipv",
            "3",
            "--threads",
            threads,
        ]);
        assert_eq!(lines.len(), 3, "{lines:?}");
        let mut firsts = Vec::new();
        let mut scores = Vec::new();
        for (k, record) in lines.iter().enumerate() {
            assert_eq!(record["multipv"], k + 1, "{record}");
            assert_eq!(
                record["mate_in_turn"].as_bool().unwrap(),
                mates_after(fen, record),
                "{record}"
            );
            firsts.push(record["best"][0].clone());
            let score = record["score"].as_str().unwrap();
            scores.push(score.strip_prefix("cp ").unwrap().parse::<i32>().unwrap());
        }
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "distinct first moves: {lines:?}");
        // Line 1 is what `go` plays (the safety net may have replaced the
        // search's best turn); the others keep the search's order.
        assert!(scores[1..].windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    }
    // The mate in this turn is the one line when there is one.
    let mate = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3";
    let lines = analyse_json(&["--fen", mate, "--depth", "2", "--multipv", "3"]);
    assert_eq!(lines[0]["mate_in_turn"], true);
    assert!(mates_after(mate, &lines[0]));
}

#[test]
fn analyse_plays_the_turn_that_go_plays() {
    let fen = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
    // At depth 2 the search's best turn here loses to a mate: the safety
    // net of `go` replaces it.
    let record = &analyse_json(&["--fen", fen, "--depth", "2"])[0];
    let best: Vec<&str> = record["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let mut engine = std::process::Command::new(BIN)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = engine.stdin.as_mut().unwrap();
        writeln!(stdin, "position fen {fen}\ngo depth 2").unwrap();
        stdin.flush().unwrap();
    }
    let stdout = engine.stdout.take().unwrap();
    let bestmove = std::io::BufRead::lines(std::io::BufReader::new(stdout))
        .map_while(Result::ok)
        .find(|l| l.starts_with("bestmove "))
        .unwrap();
    let _ = engine.kill();
    let _ = engine.wait();
    assert_eq!(bestmove, format!("bestmove {}", best.join(",")));
}

#[test]
fn a_rejected_engine_option_fails_the_match_at_startup() {
    for (option, expected) in [
        ("option.Hash=0", "engine A: rejected option Hash=0: "),
        ("option.Foo=1", "engine A: rejected option Foo=1: "),
    ] {
        let out = Command::new(BIN)
            .arg("match")
            .args(["--engine", &format!("cmd={BIN}"), "name=A", option])
            .args(["--engine", &format!("cmd={BIN}"), "name=B"])
            .args(["--games", "2", "--movetime", "20"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!stderr.contains("Game 1/"), "no game may start: {stderr}");
    }
}

#[test]
fn elo_is_over_finished_pairs_and_has_no_interval_from_one_sample() {
    let out = Command::new(BIN)
        .arg("match")
        .args(["--engine", &format!("cmd={BIN}"), "name=A"])
        .args(["arg=random-engine", "arg=--seed", "arg=1"])
        .args(["--engine", &format!("cmd={BIN}"), "name=B"])
        .args(["arg=random-engine", "arg=--seed", "arg=2"])
        .args(["--games", "3", "--movetime", "20", "--json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(json["games"], 3, "{json}");
    // The third game has no partner: the model stays the pairs' one.
    assert_eq!(json["elo"]["pentanomial"], true, "{json}");
    // One finished pair is one sample: no interval (not `+/- 0`).
    assert!(json["elo"]["margin"].is_null(), "{json}");
}
