//! Numeric flags of the subcommands are range-checked like the protocol's
//! options: a value out of range is a clear error naming the flag and the
//! range (exit status 2), never an abort or a panic.

#[path = "support/cli.rs"]
mod cli;

use cli::{BIN, succeeds};

const FEN: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3";

fn refused(args: &[&str], flag: &str) {
    let stderr = cli::refused(args);
    assert!(
        stderr.contains(flag) && stderr.contains("out of range"),
        "{args:?}: {stderr}"
    );
}

#[test]
fn hash_threads_games_and_concurrency_are_range_checked() {
    for hash in ["0", "100000", "99999999", "17592186044415"] {
        refused(
            &["analyse", "--fen", FEN, "--depth", "1", "--hash", hash],
            "--hash",
        );
        refused(&["mate", "--fen", FEN, "--hash", hash], "--hash");
    }
    // 0 threads: both subcommands refuse it (mate used to take it as 1).
    refused(
        &["analyse", "--fen", FEN, "--depth", "1", "--threads", "0"],
        "--threads",
    );
    refused(&["mate", "--fen", FEN, "--threads", "0"], "--threads");
    refused(&["mate", "--fen", FEN, "--threads", "100000"], "--threads");
    let engines = [
        "match", "--engine", "cmd=a", "--engine", "cmd=b", "--tc", "1",
    ];
    for (flag, value) in [
        ("--games", "0"),
        ("--concurrency", "0"),
        ("--concurrency", "100000"),
    ] {
        let mut args = engines.to_vec();
        args.extend([flag, value]);
        refused(&args, flag);
    }
}

#[test]
fn the_largest_values_in_range_work() {
    let out = succeeds(&[
        "mate",
        "--fen",
        FEN,
        "--hash",
        "1024",
        "--threads",
        "256",
        "--json",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let record: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON record");
    // Several lines mate (Kf2 Kg1 Ra8#, Kf2 Rc1 Rc8#, ...); the threads
    // race, so any of them: three moves, the rook's last onto the back rank.
    assert_eq!(record["result"], "mate", "{text}");
    let line = record["line"].as_array().expect("line");
    assert_eq!(line.len(), 3, "{text}");
    assert!(line[2].as_str().is_some_and(|m| m.ends_with('8')), "{text}");
}

#[test]
fn errors_name_the_real_cause() {
    let engine = format!("cmd={BIN}");
    // Either time flag will do, so the message names both.
    let e = cli::refused(&["match", "--engine", &engine, "--engine", &engine]);
    assert!(e.contains("--tc") && e.contains("--movetime"), "{e}");
    // A missing working directory, not the (existing) program.
    let e = cli::refused(&[
        "match",
        "--engine",
        &engine,
        "dir=/nonexistent",
        "--engine",
        &engine,
        "--tc",
        "1",
    ]);
    assert!(e.contains("working directory /nonexistent"), "{e}");
    assert!(!e.contains(&format!("{BIN}:")), "{e}");
    // One bad byte: the file, the line and the column.
    let path = std::env::temp_dir().join(format!("crescendo-cli-bad-{}.txt", std::process::id()));
    let mut bytes = format!("{FEN}\n").into_bytes();
    bytes.extend_from_slice(b"6k1/5\xffpp/8/8/8/8/8/R5K1 w - - 0 3\n");
    std::fs::write(&path, bytes).unwrap();
    let file = path.to_str().unwrap();
    for sub in [
        vec!["mate", "--file", file],
        vec!["analyse", "--file", file, "--depth", "1"],
    ] {
        let e = cli::refused(&sub);
        assert!(
            e.contains(&format!("{file}: line 2: byte 0xff at column 6")),
            "{sub:?}: {e}"
        );
    }
    let _ = std::fs::remove_file(&path);
}

/// `mate` is parsed by its own parser first (see `parse_command_line`):
/// what it does not accept reaches the full parser, so help and errors read
/// as they do for every subcommand.
#[test]
fn mate_help_and_errors_come_from_the_full_parser() {
    let out = succeeds(&["mate", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.starts_with("Mate in this turn") && help.contains("Usage: crescendo mate"),
        "{help}"
    );
    let e = cli::refused(&["mate", "--fen", FEN, "--bogus"]);
    assert!(
        e.contains("'--bogus'") && e.contains("Usage: crescendo mate"),
        "{e}"
    );
    // Parsed by mate's own parser, the flags reach the subcommand: under
    // the Scottish rules the first check (Ra8#) ends the turn.
    let out = succeeds(&["mate", "--fen", FEN, "--rules", "scottish", "--json"]);
    assert_eq!(cli::json_of(&out)["san"], serde_json::json!(["Ra8#"]));
}

/// `mate` searches turns of up to 100 moves on the main thread and longer
/// ones on a thread with the search stack: the finder recurses once per
/// move, and the longest turn the engine reads overflowed the main thread.
/// Both sides of the line, and the longest turn, with a budget that takes
/// the search deep, complete (and `--all` too).
#[test]
fn mate_searches_turns_of_every_length() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0";
    for (n, all) in [(100, false), (101, false), (10_000, false), (10_000, true)] {
        let fen = format!("{start} {n}");
        let mut args = vec!["mate", "--fen", &fen, "--nodes", "200000", "--json"];
        if all {
            args.push("--all");
        }
        let out = succeeds(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        let last = text.lines().last().unwrap_or_default();
        let record: serde_json::Value = serde_json::from_str(last).expect("a JSON record");
        assert!(
            ["mate", "unknown"].contains(&record["result"].as_str().unwrap_or_default()),
            "{n}: {last}"
        );
    }
}
