//! The match runner against real processes: a match between two random
//! movers (`crescendo random-engine`) writes a PGN that parses back and
//! replays legally to its recorded results, faults are counted and feed
//! the SPRT; the same for Linear Progression (`--variant
//! linear-progression`), whose misbehaving engines lose with the right
//! reason (the Progressive chess faults are tests/arena_faults.rs).

use crescendo::arena::{EngineConfig, GameResult, LinearOpening, Termination};
use crescendo::chess::notation::{self, GameRecord};
use crescendo::chess::status::{Undecided, status_with};
use crescendo::chess::{Color, Rules};
use crescendo::linear;
use std::process::Output;

#[path = "support/arena.rs"]
mod arena_support;
#[path = "support/cli.rs"]
mod cli;

use arena_support::{BIN, assert_lost_by, clock, fake, movetime, random};
use cli::{fixture, json_lines, json_of, run, succeeds};

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
    record.tag(name).unwrap_or("")
}

/// The words of a command line (no word has a space).
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// `crescendo match` between two random movers R1 and R2 (seeds 11 and
/// 12) writing `pgn`, with `extra`: its output and JSON summary.
fn run_match(extra: &[&str], pgn: &std::path::Path) -> (Output, serde_json::Value) {
    let engine = format!("cmd={BIN}");
    let mut args = vec!["match", "--engine", &engine, "args=random-engine --seed 11"];
    args.extend([
        "name=R1",
        "--engine",
        &engine,
        "args=random-engine --seed 12",
    ]);
    args.extend(["name=R2", "--pgn", pgn.to_str().unwrap(), "--json"]);
    args.extend_from_slice(extra);
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let json = serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null);
    (out, json)
}

/// `crescendo match` between two Crescendo processes A and B (8 MB tables)
/// with `extra`, which must succeed.
fn crescendo_match(extra: &[&str]) -> Output {
    let engine = format!("cmd={BIN}");
    let mut args = vec!["match", "--engine", &engine, "name=A", "option.Hash=8"];
    args.extend(["--engine", &engine, "name=B", "option.Hash=8"]);
    args.extend_from_slice(extra);
    succeeds(&args)
}

/// A match of up to 200 games against the fake engine in `mode`, which
/// never moves legally, with `extra`: every game is lost by `illegal move`
/// and the SPRT stops the match early, accepting H0. Its JSON summary.
fn sprt_stops_a_match_against(mode: &str, extra: &[&str]) -> serde_json::Value {
    let (script, mode) = (
        format!("arg={}", fixture("fake_engine.sh")),
        format!("arg={mode}"),
    );
    let random = format!("cmd={BIN}");
    let mut args = vec!["match", "--engine", "cmd=bash", &script, &mode];
    args.extend(["--engine", &random, "args=random-engine --seed 3"]);
    args.extend(words("--games 200 --tc 5+0 --sprt elo0=0 elo1=10 --json"));
    args.extend_from_slice(extra);
    let json = json_of(&succeeds(&args));
    let games = json["games"].as_u64().unwrap();
    assert!((4..200).contains(&games), "{json}");
    assert_eq!(json["losses"].as_u64(), Some(games), "{json}");
    assert_eq!(json["terminations"]["illegal move"].as_u64(), Some(games));
    assert_eq!(json["sprt"]["result"], "H0", "{json}");
    json
}

/// A scratch file of these tests named `name`, holding `text`.
fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("crescendo-arena-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
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
        let mut args = words("--games 6 --concurrency 2 --tc 5+0.05 --random-openings 2");
        args.extend(["--seed", "9", "--rules", rules]);
        let (out, json) = run_match(&args, &pgn);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert_eq!(json["games"], 6, "{json}");
        assert_eq!(json["engines"][0], "R1");
        let w = json["wins"].as_u64().unwrap();
        let d = json["draws"].as_u64().unwrap();
        let l = json["losses"].as_u64().unwrap();
        assert_eq!(w + d + l, 6);
        assert_eq!(cli::pentanomial_pairs(&json), 3);
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
    let mut args = words("--games 2 --concurrency 2 --tc 1+0.02 --random-openings 2 --seed 3");
    args.extend(["--json", "--pgn", pgn.to_str().unwrap()]);
    let out = crescendo_match(&args);
    let json = json_of(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(json["games"], 2, "{json}\n{stderr}");
    // A load spike may cost a game on time; nothing else may go wrong.
    replay_pgn(&pgn, "italian", 2, true);
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn analyse_reports_a_bad_line_and_goes_on() {
    let path = temp_file(
        "analyse.epd",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 id \"back rank\";\nnot a fen\n\n4k3/8/8/8/8/8/8/4K3 w - - 0 5\n",
    );
    let out = run(&[
        "analyse",
        "--file",
        path.to_str().unwrap(),
        "--depth",
        "2",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(":2: invalid FEN"), "{stderr}");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], "back rank");
    assert_eq!(lines[0]["best"], serde_json::json!(["a1a8"]));
    assert_eq!(lines[0]["score"], "mate 1");
    assert_eq!(lines[0]["mate_in_turn"], true);
    assert_eq!(lines[1]["id"], 4);
    assert_eq!(lines[1]["status"], "dead position");
    let _ = std::fs::remove_file(&path);

    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let out = succeeds(&["analyse", "--fen", start, "--nodes", "2000"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("1: best "), "{text}");
}

#[test]
fn faults_are_counted_and_tagged_and_sprt_stops_the_match() {
    let pgn = temp_pgn("faults");
    let json = sprt_stops_a_match_against("illegal", &["--pgn", pgn.to_str().unwrap()]);
    assert!(json["sprt"]["llr"].as_f64().unwrap() <= json["sprt"]["lower"].as_f64().unwrap());
    assert_eq!(json["engines"][0], "bash"); // named after the command by default
    let text = std::fs::read_to_string(&pgn).unwrap();
    let first = read_record(&pgn_games(&text)[0]).unwrap();
    assert_eq!(tag(&first, "Termination"), "illegal move");
    assert_eq!(tag(&first, "Result"), "0-1");
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn tc_gives_one_engine_its_own_clock() {
    // A at 2+0.1 by its tc=, B at the match's 1+0.05: each clock starts at
    // its own base, the go line carries both, and the reports say so.
    let engine = format!("cmd={BIN}");
    let pgn = temp_pgn("own-clock");
    let args = [
        "match",
        "--engine",
        &engine,
        "args=random-engine --seed 11",
        "name=R1",
        "tc=2+0.1",
        "--engine",
        &engine,
        "args=random-engine --seed 12",
        "name=R2",
        "--tc",
        "1+0.05",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
    ];
    let out = std::process::Command::new(BIN)
        .args(args)
        .env("RUST_LOG", "trace")
        .output()
        .unwrap();
    cli::assert_success(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Game 1: R1 has White; game 2: R2 has White. Their first go lines.
    assert!(
        stderr.contains("< go wtime 2000 btime 1000 winc 100 binc 50"),
        "{stderr}"
    );
    assert!(
        stderr.contains("< go wtime 1000 btime 2000 winc 50 binc 100"),
        "{stderr}"
    );
    let json = json_of(&out);
    assert_eq!(json["time_control"], "2+0.1 vs 1+0.05", "{json}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<GameRecord> = pgn_games(&text)
        .iter()
        .map(|g| read_record(g).unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(tag(&games[0], "WhiteTimeControl"), "2+0.1");
    assert_eq!(tag(&games[0], "BlackTimeControl"), "1+0.05");
    assert_eq!(tag(&games[1], "WhiteTimeControl"), "1+0.05");
    assert_eq!(tag(&games[0], "TimeControl"), "");
    let _ = std::fs::remove_file(&pgn);

    // tc= for both engines needs no --tc; a bad tc= names itself.
    let both = [
        "match",
        "--engine",
        &engine,
        "args=random-engine --seed 11",
        "tc=1",
        "--engine",
        &engine,
        "args=random-engine --seed 12",
        "tc=0.5+0.1",
        "--games",
        "2",
        "--json",
    ];
    assert_eq!(json_of(&succeeds(&both))["time_control"], "1 vs 0.5+0.1");
    let bad = [
        "match", "--engine", "cmd=a", "tc=5+x", "--engine", "cmd=b", "--tc", "1",
    ];
    let stderr = cli::refused(&bad);
    assert!(
        stderr.contains("tc must be SECONDS[+INCREMENT]"),
        "{stderr}"
    );
    assert!(stderr.contains("'5+x'"), "{stderr}");
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
        let stderr = cli::refused(&[&["match"], args].concat());
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
    let opening = LinearOpening::start(&linear::Options::default());
    arena_support::game(white, black, &opening, &clock("5+0.05"))
}

#[test]
fn an_illegal_or_malformed_linear_move_loses() {
    // As White: the fault is on the first move, nothing is recorded.
    let r = lp_game(&fake("illegal"), &crescendo_lp("C"));
    let illegal = "bestmove 'e2e5': illegal move 'e2e5'";
    assert_lost_by(&r, Color::White, Termination::IllegalMove, illegal);
    assert!(r.record.moves.is_empty());
    // As Black, after the engine's legal drop.
    let r = lp_game(&crescendo_lp("C"), &fake("malformed"));
    let bad = "(Black), turn 2: bestmove 'zz9': bad move 'zz9'";
    assert_lost_by(&r, Color::Black, Termination::IllegalMove, bad);
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
    let mut args = words("--variant linear-progression --lp-board 6x6 --lp-blockers --games 2");
    args.extend(words("--tc 2+0.02 --random-openings 3 --seed 5 --json"));
    args.extend(["--pgn", pgn.to_str().unwrap()]);
    let out = crescendo_match(&args);
    let json = json_of(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
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
    let openings = temp_file(
        "lp-openings.txt",
        "# a comment line\n#4#/6/6/2w3/3b2/#4# w d2 0 equal - moves c3c6\n\n1. @c3 @d4\n",
    );
    let pgn = temp_pgn("lp-file");
    let mut args = words("--variant linear-progression --lp-board 6x6 --lp-equal-moves");
    args.extend(["--games", "4", "--movetime", "20"]);
    args.extend([
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let out = crescendo_match(&args);
    let _ = std::fs::remove_file(&openings);
    let stdout = String::from_utf8_lossy(&out.stdout);
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
    let openings = temp_file("lp-bad.txt", "@d4 @d4\n");
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
        let stderr = cli::refused(&[&["match"], &engines[..], args].concat());
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
    let opening = LinearOpening::start(&linear::Options::default());
    let r = arena_support::game(&random_lp(6), &fake("hang"), &opening, &movetime(100));
    let silent = "(Black), turn 2: no answer within 100 ms";
    assert_lost_by(&r, Color::Black, Termination::TimeForfeit, silent);
    assert_eq!(r.record.moves.len(), 1);

    // A match against an engine that never moves legally: every game is
    // lost by `illegal move`, and the SPRT stops the match early.
    sprt_stops_a_match_against("malformed", &["--variant", "linear-progression"]);
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
    json_lines(&succeeds(&[&["analyse"], args, &["--json"]].concat()))
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
        let engine = format!("cmd={BIN}");
        let mut args = vec!["match", "--engine", &engine, "name=A", option];
        args.extend([
            "--engine",
            &engine,
            "name=B",
            "--games",
            "2",
            "--movetime",
            "20",
        ]);
        let stderr = cli::refused(&args);
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!stderr.contains("Game 1/"), "no game may start: {stderr}");
    }
}

#[test]
fn elo_is_over_finished_pairs_and_has_no_interval_from_one_sample() {
    let engine = format!("cmd={BIN}");
    let mut args = vec!["match", "--engine", &engine, "name=A"];
    args.extend(["arg=random-engine", "arg=--seed", "arg=1"]);
    args.extend(["--engine", &engine, "name=B"]);
    args.extend(["arg=random-engine", "arg=--seed", "arg=2"]);
    args.extend(words("--games 3 --movetime 20 --json"));
    let json = json_of(&succeeds(&args));
    assert_eq!(json["games"], 3, "{json}");
    // The third game has no partner: the model stays the pairs' one.
    assert_eq!(json["elo"]["pentanomial"], true, "{json}");
    // One finished pair is one sample: no interval (not `+/- 0`).
    assert!(json["elo"]["margin"].is_null(), "{json}");
}
