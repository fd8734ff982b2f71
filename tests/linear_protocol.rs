//! Linear Progression through the real `crescendo` binary: the protocol
//! (`UCI_Variant linear-progression`) and the `perft` subcommand.

#[path = "support/engine.rs"]
mod engine;

use crescendo::linear::{Color, Options, Position, Status, perft};
use engine::{Engine, bestmove_of};
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

const START: &str = "#6#/8/8/8/8/8/8/#6# w - 0 - -";
/// White to move and must pass.
const PASS: &str = "###1/####/####/wb## w - 0 - -";

/// Plays the engine against itself through `position ... moves` and `go`
/// until it answers `bestmove (none)`; checks every move and the result
/// with the library. Returns the number of moves played.
fn self_play(e: &mut Engine, start: Position, position_cmd: &str, go: &str) -> usize {
    let mut pos = start;
    let mut moves: Vec<String> = Vec::new();
    loop {
        e.send(&format!("{position_cmd} moves {}", moves.join(" ")));
        e.send(go);
        let lines = e.until("bestmove");
        let answer = bestmove_of(&lines);
        if answer == "(none)" {
            // The documented game-over answer: one error line, then
            // `bestmove (none)`, and only once the game is over.
            let Status::Over(result) = pos.status() else {
                panic!("bestmove (none) in an ongoing game {pos}: {lines:?}");
            };
            let why = format!("info string error: go: the game is over: {result}");
            assert_eq!(lines, [why, "bestmove (none)".to_string()]);
            assert_eq!(e.fen(), pos.to_string());
            assert_eq!(e.shown("Status:"), result.to_string());
            return moves.len();
        }
        assert!(!pos.is_over(), "a move {answer} after the end: {pos}");
        assert!(
            lines.iter().any(|l| l.starts_with("info depth ")
                && l.contains(" score ")
                && l.contains(" nodes ")
                && l.contains(" nps ")
                && l.contains(" time ")),
            "{lines:?}"
        );
        let mv = pos
            .parse_move(&answer)
            .unwrap_or_else(|err| panic!("engine move: {err}"));
        pos.play(mv);
        moves.push(answer);
        assert!(moves.len() < 400, "the game does not end");
    }
}

#[test]
fn a_full_game_to_the_end_with_the_right_result() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("ucinewgame");
    let n = self_play(
        &mut e,
        Position::new(&Options::default()),
        "position startpos",
        "go depth 2",
    );
    // Two drops, then token moves until the board is full.
    assert!(n > 2, "{n} moves");
    e.quit();
}

#[test]
fn a_full_game_with_every_option_from_a_fen() {
    let mut e = Engine::start_variant("linear-progression");
    let start = "#4#/6/6/6/6/#4# w - 0 equal,blockers -,-";
    let pos: Position = start.parse().unwrap();
    self_play(
        &mut e,
        pos,
        &format!("position fen {start}"),
        "go nodes 3000",
    );
    e.quit();
}

#[test]
fn options_round_trip() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("uci");
    let lines = e.until("uciok");
    for expected in [
        "option name UCI_Variant type combo default progressive var progressive var progressive-scottish var linear-progression",
        "option name LP_EqualMoves type check default false",
        "option name LP_Blockers type check default false",
        "option name LP_Board type string default 8x8",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    assert_eq!(e.fen(), START);
    // A rules option starts a new game at once in this variant.
    e.send("position startpos moves @d4 @e5");
    e.send("setoption name LP_Board value 6x6");
    e.send("setoption name LP_EqualMoves value true");
    assert_eq!(e.fen(), "#4#/6/6/6/6/#4# w - 0 equal -");
    assert_eq!(
        e.shown("Rules:"),
        "Linear Progression, board 6x6, equal moves on, blockers off"
    );
    // The same values again keep the position.
    e.send("position startpos moves @c3");
    e.send("setoption name lp_board value 6x6");
    assert_eq!(e.fen(), "#4#/6/6/2w3/6/#4# b c3 0 equal -");
    // Explicit rows; a board equal to a preset prints as the preset.
    e.send("setoption name LP_Board value #......#/8/8/8/8/8/8/#......#");
    e.send("setoption name LP_EqualMoves value false");
    e.send("setoption name LP_Blockers value true");
    e.send("ucinewgame");
    assert_eq!(e.fen(), "#6#/8/8/8/8/8/8/#6# w - 0 blockers -,-");
    assert_eq!(e.shown("Blockers:"), "White -, Black -");
    e.send("setoption name LP_Board value ..../..../..../....");
    assert_eq!(e.fen(), "4/4/4/4 w - 0 blockers -,-");
    // Options set under another variant apply when switching to this one.
    e.send("setoption name UCI_Variant value progressive");
    e.send("setoption name LP_Blockers value false");
    e.send("setoption name LP_Board value center-isle");
    e.send("setoption name UCI_Variant value linear-progression");
    assert_eq!(e.fen(), "#6#/8/8/3##3/3##3/8/8/#6# w - 0 - -");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn bad_input_gives_one_error_line_and_keeps_the_state() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("position startpos moves @d4 @e5");
    let fen = e.fen();
    let cases = [
        (
            "setoption name LP_Board value 3x3",
            "LP_Board: bad board size 3x3",
        ),
        (
            "setoption name LP_Board value 8x8-ish",
            "bad board '8x8-ish'",
        ),
        ("setoption name LP_Board value #..#/..../....", "3 rows"),
        ("setoption name LP_Board", "needs a value"),
        ("setoption name LP_Blockers value maybe", "true or false"),
        (
            "position fen #6#/8/8/8/8/8/8/#6# w - 0 -",
            "expected 6 fields",
        ),
        (
            "position fen #6#/8/8/8/8/8/8/#6# x - 0 - -",
            "bad side to move 'x'",
        ),
        (
            "position fen #6#/8/8/3q4/8/8/8/#6# w - 0 - -",
            "bad row '3q4'",
        ),
        ("position fen #6#/8/8/3w4/8/8/8/#6# w - 0 - -", "drop order"),
        (
            "position startpos moves @d4 @d4",
            "entry 2 '@d4': illegal move '@d4'",
        ),
        (
            "position startpos moves @d4 @e5 d4h8",
            "entry 3 'd4h8': illegal move",
        ),
        (
            "position startpos moves @d4 @e5 0000",
            "entry 3 '0000': illegal move",
        ),
        (
            "position startpos moves @z4",
            "entry 1 '@z4': bad move '@z4'",
        ),
        ("position startpos moves @d4 @e5 d4d6+a1a5", "illegal move"),
        ("go mate", "Progressive chess only"),
    ];
    for (line, needle) in cases {
        if line == "go mate" {
            // The error line, then the bestmove the GUI waits for.
            e.send(line);
            let out = e.until("bestmove");
            assert_eq!(out.len(), 2, "{out:?}");
            assert!(out[0].starts_with("info string error: ") && out[0].contains(needle));
            assert_eq!(out[1], "bestmove (none)");
            assert!(e.sync().is_empty());
        } else {
            e.expect_error(line, needle);
        }
        assert_eq!(e.fen(), fen, "after {line}");
    }
    assert_eq!(
        e.shown("Rules:"),
        "Linear Progression, board 8x8, equal moves off, blockers off"
    );
    e.quit();
}

#[test]
fn moves_of_every_kind() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("setoption name LP_Blockers value true");
    e.send("position startpos moves @d4+a1 @e5+h8 d4d6+a1b1");
    assert_eq!(e.fen(), "#6#/8/3w4/3wb3/3w4/8/8/#6# b d6 0 blockers b1,h8");
    let drawing = e.display().join("\n");
    assert!(drawing.contains(" 1 | # W . . . . . # |"), "{drawing}");
    assert!(drawing.contains(" 8 | # . . . . . . B |"), "{drawing}");
    // A position where the side to move must pass: `0000` is its move.
    // White's a1 may not enter Black's last token (rule 7); the empty d4
    // is out of reach.
    e.send(&format!("position fen {PASS}"));
    e.send("go depth 3");
    assert_eq!(bestmove_of(&e.until("bestmove")), "0000");
    e.send(&format!("position fen {PASS} moves 0000"));
    assert_eq!(e.fen(), "###1/####/####/wb## b - 1 - -");
    assert_eq!(e.shown("Turn:"), "Black to move (must pass: 0000)");
    e.send(&format!("position fen {PASS} moves 0000 0000"));
    assert_eq!(
        e.shown("Status:"),
        "1/2-1/2 (both passed: White 1, Black 1)"
    );
    e.quit();
}

#[test]
fn go_perft_counts_sequences() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.until("Nodes searched");
    assert_eq!(lines.len(), 61, "{lines:?}");
    assert!(lines.contains(&"@d4: 59".to_string()));
    assert_eq!(lines[60], "Nodes searched: 3540");
    e.send("position startpos moves @d4");
    e.send("go perft 1");
    assert_eq!(
        e.until("Nodes searched").last().unwrap(),
        "Nodes searched: 59"
    );
    e.quit();
}

#[test]
fn go_limits_and_stop() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("position startpos moves @d4 @e5");
    let started = Instant::now();
    e.send("go movetime 100");
    let lines = e.until("bestmove");
    let took = started.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
    let mut pos: Position = START.parse().unwrap();
    for m in ["@d4", "@e5"] {
        pos.play(pos.parse_move(m).unwrap());
    }
    pos.parse_move(&bestmove_of(&lines)).unwrap();
    e.send("go wtime 2000 btime 2000 winc 10 binc 10");
    pos.parse_move(&bestmove_of(&e.until("bestmove"))).unwrap();
    e.send("go nodes 5000");
    pos.parse_move(&bestmove_of(&e.until("bestmove"))).unwrap();
    // Infinite: no bestmove before stop, and then within 50 ms.
    e.send("go infinite");
    assert!(e.next().starts_with("info depth "));
    thread::sleep(Duration::from_millis(200));
    let (lines, stop) = e.timed("stop", "bestmove");
    eprintln!("stop latency {stop:?}");
    assert!(stop < Duration::from_millis(50), "{stop:?}");
    pos.parse_move(&bestmove_of(&lines)).unwrap();
    e.quit();
}

#[test]
fn bench_runs_the_linear_positions() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("bench 2");
    let lines = e.until("Nodes/second");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string bench position"))
            .count(),
        6,
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("Nodes searched: ")));
    e.quit();
}

/// `crescendo perft <args> --json`, parsed.
fn perft_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .arg("perft")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("{\"sequences\":"), "{text}");
    serde_json::from_str(text.trim()).unwrap()
}

#[test]
fn perft_subcommand_default_board() {
    for (turns, expected) in [(1, 60), (2, 3540), (3, 73256)] {
        let t = turns.to_string();
        let v = perft_json(&["--variant", "linear-progression", "--turns", &t]);
        assert_eq!(v["sequences"], expected, "T={turns}: {v}");
        assert_eq!(v["games_ended"], 0);
        assert_eq!(v["passes"], 0);
        assert!(v["seconds"].is_number());
    }
}

#[test]
fn perft_subcommand_divide_and_plain_output() {
    let out = Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args([
            "perft",
            "--variant",
            "linear-progression",
            "--turns",
            "2",
            "--divide",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 64, "{text}");
    assert_eq!(lines[0], "@b1: 59");
    assert_eq!(
        lines[60..63],
        ["sequences 3540", "games_ended 0", "passes 0"]
    );
    assert!(lines[63].starts_with("seconds "));
}

#[test]
fn perft_subcommand_agrees_with_the_library_for_each_option() {
    let cases: [(&[&str], Options, u32); 4] = [
        (
            &["--lp-blockers"],
            Options {
                blockers: true,
                ..Options::default()
            },
            2,
        ),
        (
            &["--lp-equal-moves", "--lp-board", "6x6"],
            Options {
                equal_moves: true,
                board: "6x6".parse().unwrap(),
                ..Options::default()
            },
            3,
        ),
        (
            &["--lp-board", "center-isle"],
            Options {
                board: "center-isle".parse().unwrap(),
                ..Options::default()
            },
            2,
        ),
        (
            &["--lp-board", "#4#/6/6/6/6/#4#"],
            Options {
                board: "6x6".parse().unwrap(),
                ..Options::default()
            },
            2,
        ),
    ];
    for (flags, options, turns) in cases {
        let t = turns.to_string();
        let mut args = vec!["--variant", "linear-progression", "--turns", &t];
        args.extend_from_slice(flags);
        let v = perft_json(&args);
        let expected = perft(&Position::new(&options), turns);
        assert_eq!(v["sequences"], expected.sequences, "{flags:?}");
        assert_eq!(v["games_ended"], expected.games_ended, "{flags:?}");
    }
    assert_eq!(
        perft_json(&["--variant", "linear-progression", "--lp-blockers"])["sequences"],
        240
    );
    // A position in the notation.
    let v = perft_json(&[
        "--variant",
        "linear-progression",
        "--fen",
        PASS,
        "--turns",
        "2",
    ]);
    assert_eq!(v["sequences"], 1);
    assert_eq!(v["passes"], 1);
    assert_eq!(v["games_ended"], 1);
}

#[test]
fn perft_subcommand_errors() {
    for args in [
        &["--variant", "linear-progression", "--lp-board", "3x3"][..],
        &["--lp-blockers"],
        &[
            "--variant",
            "linear-progression",
            "--fen",
            START,
            "--lp-blockers",
        ],
        &["--variant", "linear-progression", "--fen", "nonsense"],
        &["--variant", "linear-progression", "--turns", "0"],
        &["--variant", "checkers"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_crescendo"))
            .arg("perft")
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // The chess output is unchanged.
    let out = Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args(["perft", "--turns", "2", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["mates", "positions", "seconds", "sequences", "stalemates"]
    );
}

/// `crescendo <args>`: exit status, stdout, stderr.
fn crescendo(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bench_subcommand_signature_is_deterministic_and_the_protocols() {
    let args = [
        "bench",
        "--variant",
        "linear-progression",
        "--depth",
        "3",
        "--json",
    ];
    let runs: Vec<serde_json::Value> = (0..2)
        .map(|_| {
            let (code, stdout, stderr) = crescendo(&args);
            assert_eq!(code, Some(0), "{stderr}");
            serde_json::from_str(stdout.trim()).unwrap()
        })
        .collect();
    let nodes = runs[0]["nodes"].as_u64().unwrap();
    assert!(nodes > 0, "{}", runs[0]);
    assert_eq!(runs[1]["nodes"], nodes);
    assert_eq!(runs[0]["depth"], 3);
    assert!(runs[0]["nps"].as_u64().is_some());
    // One source of truth: the protocol's `bench` gives the same signature.
    let mut e = Engine::start_variant("linear-progression");
    e.send("bench 3");
    let lines = e.until("Nodes/second");
    assert!(
        lines.contains(&format!("Nodes searched: {nodes}")),
        "{nodes}: {lines:?}"
    );
    e.quit();
    // Plain output, and flags that do not apply.
    let (code, stdout, _) = crescendo(&args[..5]);
    assert_eq!(code, Some(0));
    assert!(stdout.starts_with(&format!("Nodes searched: {nodes}\nNodes/second: ")));
    for bad in [
        &["bench", "--variant", "linear-progression", "--lp-blockers"][..],
        &[
            "bench",
            "--variant",
            "linear-progression",
            "--rules",
            "scottish",
        ],
        &["bench", "--lp-equal-moves"],
    ] {
        let (code, stdout, stderr) = crescendo(bad);
        assert_eq!(code, Some(2), "{bad:?}");
        assert!(
            stdout.is_empty() && stderr.starts_with("crescendo: "),
            "{bad:?}: {stderr}"
        );
    }
}

/// The exact final square difference for the side to move, by plain
/// alpha-beta negamax over the library's legal moves to the end of the
/// game (small boards only).
fn exact_margin(pos: &Position, mut alpha: i32, beta: i32) -> i32 {
    match pos.status() {
        Status::Over(r) => {
            let (w, b) = (r.white as i32, r.black as i32);
            match pos.side_to_move() {
                Color::White => w - b,
                Color::Black => b - w,
            }
        }
        Status::Ongoing => {
            for mv in pos.legal_moves() {
                alpha = alpha.max(-exact_margin(&pos.after(mv), -beta, -alpha));
                if alpha >= beta {
                    break;
                }
            }
            alpha
        }
    }
}

/// Above any square difference.
const ALL: i32 = 1000;

#[test]
fn analyse_subcommand_on_linear_positions_with_a_bad_line() {
    // Small boards, so the solver proves each result and the test can
    // check it against a plain negamax.
    let solvable = [
        "2ww/bb2/wb1b/w3 w - 0 - -",
        "2ww/bbw1/wb1b/w3 b - 0 - -",
        "bw1w/bwbw/w1b1/4 b - 0 - -",
    ];
    let over = "4/4/4/wwbb w - 2 - -";
    let path =
        std::env::temp_dir().join(format!("crescendo-lp-analyse-{}.txt", std::process::id()));
    std::fs::write(
        &path,
        format!(
            "# Linear Progression positions\n{} id \"first\";\nnot a position\n{}\n\n{over}\n{START}\n{}\n",
            solvable[0], solvable[1], solvable[2]
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = crescendo(&[
        "analyse",
        "--variant",
        "linear-progression",
        "--file",
        path.to_str().unwrap(),
        "--nodes",
        "200000",
        "--json",
    ]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(":3: bad position 'not a position'"),
        "{stderr}"
    );
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 5, "{stdout}");
    // Every record has exactly the documented keys, in the documented order.
    let first_line = stdout.lines().next().unwrap();
    let keys = [
        "id", "fen", "status", "result", "best", "score", "solved", "margin", "depth", "nodes",
        "ms", "pv",
    ];
    let at: Vec<usize> = keys
        .iter()
        .map(|k| first_line.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{first_line}");
    assert!(
        records
            .iter()
            .all(|r| r.as_object().unwrap().len() == keys.len())
    );
    assert_eq!(records[0]["id"], "first");
    assert_eq!(records[1]["id"], 4);
    for (r, text) in [&records[0], &records[1], &records[4]]
        .into_iter()
        .zip(solvable)
    {
        let pos: Position = text.parse().unwrap();
        let exact = exact_margin(&pos, -ALL, ALL);
        assert_eq!(r["fen"], text);
        assert_eq!(r["status"], "ongoing");
        assert_eq!(r["solved"], true, "{r}");
        assert_eq!(r["margin"], exact, "{r}");
        let best = pos.parse_move(r["best"][0].as_str().unwrap()).unwrap();
        assert_eq!(-exact_margin(&pos.after(best), -ALL, ALL), exact, "{r}");
        let word = match exact.signum() {
            1 => "mate ",
            -1 => "mate -",
            _ => "cp 0",
        };
        assert!(r["score"].as_str().unwrap().starts_with(word), "{r}");
        // The pv replays legally.
        let mut p = pos;
        for mv in r["pv"].as_array().unwrap() {
            p.play(p.parse_move(mv.as_str().unwrap()).unwrap());
        }
    }
    let Status::Over(result) = over.parse::<Position>().unwrap().status() else {
        panic!("{over} is over");
    };
    assert_eq!(records[2]["status"], "both passed");
    assert_eq!(records[2]["result"], result.to_string()[..7]);
    assert_eq!(records[2]["best"], serde_json::json!([]));
    let start: Position = START.parse().unwrap();
    let first = records[3]["best"][0].as_str().unwrap();
    assert!(start.parse_move(first).is_ok(), "{}", records[3]);
    assert_eq!(records[3]["solved"], false);
    assert_eq!(records[3]["margin"], serde_json::Value::Null);

    // Plain output; the start position of the flags.
    let (code, stdout, stderr) = crescendo(&[
        "analyse",
        "--variant",
        "linear-progression",
        "--fen",
        solvable[0],
        "--nodes",
        "200000",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.starts_with("1: best ") && stdout.contains("(solved: the side to move "),
        "{stdout}"
    );
    let (code, stdout, _) = crescendo(&[
        "analyse",
        "--variant",
        "linear-progression",
        "--lp-board",
        "6x6",
        "--lp-blockers",
        "--depth",
        "2",
        "--json",
    ]);
    assert_eq!(code, Some(0));
    let r: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(r["fen"], "#4#/6/6/6/6/#4# w - 0 blockers -,-");
    let six: Position = r["fen"].as_str().unwrap().parse().unwrap();
    assert!(
        six.parse_move(r["best"][0].as_str().unwrap()).is_ok(),
        "{r}"
    );
    assert_eq!(r["depth"], 2);
    let (_, stdout, _) = crescendo(&["analyse", "--variant", "linear-progression", "--fen", over]);
    assert_eq!(stdout.trim(), format!("1: game over, {result}"));

    for bad in [
        &[
            "analyse",
            "--variant",
            "linear-progression",
            "--fen",
            START,
            "--lp-blockers",
        ][..],
        &[
            "analyse",
            "--variant",
            "linear-progression",
            "--rules",
            "scottish",
        ],
        &[
            "analyse",
            "--variant",
            "linear-progression",
            "--lp-board",
            "3x3",
        ],
        &[
            "analyse",
            "--variant",
            "linear-progression",
            "--fen",
            "#6#/8 w",
        ],
        &["analyse", "--lp-blockers", "--fen", START],
        &["analyse"],
    ] {
        let (code, stdout, stderr) = crescendo(bad);
        assert_eq!(code, Some(2), "{bad:?}");
        assert!(
            stdout.is_empty() && stderr.starts_with("crescendo: "),
            "{bad:?}: {stderr}"
        );
    }
}
