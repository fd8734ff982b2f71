//! Progressive perft cross-checked against a second, deliberately simple
//! implementation built on shakmaty (tests/support/reference.rs), and against
//! the independent reference table in shared/bench/progressive-perft.md.

#[path = "support/reference.rs"]
mod reference;

use crescendo::chess::{Position, Rules, fen, fen::START_FEN, legal_moves, perft};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use reference::{RefRules, reference_divide, reference_perft};
use std::process::Command;
use std::sync::Mutex;

fn ref_rules(rules: Rules) -> RefRules {
    match rules {
        Rules::Scottish => RefRules::Scottish,
        _ => RefRules::Italian,
    }
}

/// Ours against the reference implementation, field by field. `positions`
/// tells en-passant targets apart by ordinary-chess legality, as FEN writers
/// do (the reference's `positions_chess_ep`).
fn assert_same(text: &str, turns: u32, rules: Rules) -> perft::PerftCounts {
    let ours = perft::perft(&fen::parse(text, rules).unwrap(), turns);
    let theirs = reference_perft(text, turns, ref_rules(rules));
    let got = (ours.sequences, ours.positions, ours.stalemates, ours.mates);
    let want = (
        theirs.sequences,
        theirs.positions_chess_ep,
        theirs.stalemates,
        theirs.mates,
    );
    assert_eq!(got, want, "{rules} T={turns} {text}");
    ours
}

#[test]
fn start_position_first_two_turns_match_reference_and_table() {
    for rules in [Rules::Italian, Rules::Scottish] {
        let one = assert_same(START_FEN, 1, rules);
        assert_eq!((one.sequences, one.positions), (20, 20));
        let two = assert_same(START_FEN, 2, rules);
        assert_eq!(
            (two.sequences, two.positions, two.stalemates, two.mates),
            (8_902, 5_362, 0, 0)
        );
    }
}

/// Each T = 3 run of the reference takes about 4 GB: the tests that make one
/// take turns (`cargo test` runs tests in parallel), so that the suite fits
/// a machine with less than 8 GB.
static BIG_REFERENCE_RUN: Mutex<()> = Mutex::new(());

fn three_turns(rules: Rules, want: (u64, u64, u64, u64)) {
    // A failed run poisons the lock; the next one may still go.
    let _turn = BIG_REFERENCE_RUN
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let c = assert_same(START_FEN, 3, rules);
    assert_eq!(
        (c.sequences, c.positions, c.stalemates, c.mates),
        want,
        "{rules}"
    );
    // Every mode and thread count gives the same counts.
    let pos = fen::parse(START_FEN, rules).unwrap();
    assert_eq!(
        perft::perft_on(&pos, 3, 2),
        c,
        "{rules} --positions --threads 2"
    );
    for threads in [1, 2] {
        let bulk = perft::sequences(&pos, 3, threads);
        assert_eq!(bulk, c.without_positions(), "{rules} --threads {threads}");
    }
}

// Each T = 3 run of the reference takes about 4 GB and a minute of CPU:
// the `--ignored` tier (README, "Tests"; `.ci/run` runs it).
#[test]
#[ignore = "heavy: about 4 GB and a minute; cargo test --release -- --ignored"]
fn start_position_three_turns_italian_match_reference_and_table() {
    three_turns(Rules::Italian, (131_624_656, 8_057_975, 0, 15_216));
}

#[test]
#[ignore = "heavy: about 4 GB and a minute; cargo test --release -- --ignored"]
fn start_position_three_turns_scottish_match_reference_and_table() {
    three_turns(Rules::Scottish, (131_652_734, 8_058_970, 0, 15_572));
}

/// Positions from random progressive games, stopped anywhere in a turn.
fn random_positions(rules: Rules, count: usize, max_turn: u32, seed: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos(rules);
        let stop_turn = rng.random_range(1..=max_turn);
        let stop_made = rng.random_range(0..stop_turn);
        loop {
            if pos.turn_length() == stop_turn && pos.moves_made() == stop_made {
                out.push(fen::to_fen(&pos));
                break;
            }
            let moves = legal_moves(&pos);
            if moves.is_empty() || pos.turn_length() > stop_turn {
                break;
            }
            pos.play(moves.as_slice()[rng.random_range(0..moves.len())]);
        }
    }
    out
}

#[test]
fn random_game_positions_match_reference() {
    for (i, rules) in [Rules::Italian, Rules::Scottish].into_iter().enumerate() {
        for text in random_positions(rules, 40, 5, 7 + i as u64) {
            assert_same(&text, 1, rules);
        }
        // Two turns only where they add up to at most four moves, to keep the run short.
        let short = random_positions(rules, 60, 2, 100 + i as u64)
            .into_iter()
            .filter(|t| {
                let p = fen::parse(t, rules).unwrap();
                p.moves_left() + p.turn_length() < 4
            });
        for text in short.take(10) {
            assert_same(&text, 2, rules);
        }
    }
}

#[test]
fn hand_built_positions_match_reference() {
    let cases = [
        // Kiwipete with progressive turns: castling, pins, promotions.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 2",
        // Two en-passant targets open at once.
        "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6,e6 0 3",
        // Mid-turn with an own double step pending.
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1",
        // Mating chances and checks at turn start.
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 3",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 5 1",
        "4r1k1/8/8/8/8/8/P7/R3K3 w - - 0 3",
        "kr6/8/8/r6R/8/8/8/K7 w - - 0 3",
        // Promotions that check.
        "7k/1P6/8/8/8/8/6p1/K7 w - - 0 3",
        // Stalemates: at turn start (Italian: e7+ may not come first) ...
        "5kr1/8/4P3/8/8/5n2/8/7K w - - 0 2",
        // ... and after the only escape from check, hxg3.
        "4k3/b7/8/8/6p1/6n1/6PP/5n1K w - - 0 3",
    ];
    for rules in [Rules::Italian, Rules::Scottish] {
        for text in cases {
            assert_same(text, 1, rules);
        }
        // The stalemate cases (few pieces) also over two turns.
        let mut stalemates = 0;
        for text in &cases[cases.len() - 2..] {
            stalemates += assert_same(text, 1, rules).stalemates;
            stalemates += assert_same(text, 2, rules).stalemates;
        }
        assert!(stalemates > 0, "{rules}: the cases must include stalemates");
    }
}

#[test]
fn divide_matches_reference_by_first_move() {
    let text = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 2 1";
    for rules in [Rules::Italian, Rules::Scottish] {
        let mut ours: Vec<(String, u64)> = perft::divide(&fen::parse(text, rules).unwrap(), 2)
            .into_iter()
            .map(|(m, c)| (m.uci(), c.sequences))
            .collect();
        ours.sort();
        assert_eq!(ours, reference_divide(text, 2, ref_rules(rules)), "{rules}");
    }
}

// ---- the `crescendo perft` command ----------------------------------------

/// Runs `crescendo perft <args>`: (exit success, stdout, stderr).
fn perft_command(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .arg("perft")
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `crescendo perft <args> --json`: stdout must be exactly one JSON object.
fn perft_command_json(args: &[&str]) -> (String, serde_json::Value) {
    let mut all = args.to_vec();
    all.push("--json");
    let (ok, stdout, stderr) = perft_command(&all);
    assert!(ok, "{args:?}: {stderr}");
    assert_eq!(stdout.lines().count(), 1, "{args:?}: one line: {stdout}");
    let value: serde_json::Value =
        serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert!(value.is_object(), "{stdout}");
    (stdout.trim().to_string(), value)
}

/// The keys of a JSON object's text, in the order written (top level only).
fn top_level_keys(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let (mut depth, mut in_string, mut key) = (0, false, String::new());
    let mut expect_key = false;
    for c in text.chars() {
        match c {
            '"' if in_string => {
                in_string = false;
                if expect_key && depth == 1 {
                    keys.push(std::mem::take(&mut key));
                }
                expect_key = false;
            }
            _ if in_string => key.push(c),
            '"' => {
                in_string = true;
                key.clear();
            }
            '{' => {
                depth += 1;
                expect_key = true;
            }
            '}' => depth -= 1,
            ',' => expect_key = true,
            _ => {}
        }
    }
    keys
}

#[test]
fn perft_command_json_has_the_documented_keys_in_order() {
    // Without --positions the last move is counted in bulk: the same keys,
    // `positions` null, the other counts the same, on any thread count.
    for (mode, positions) in [(Some("--positions"), "5362"), (None, "null")] {
        for threads in ["1", "2"] {
            let mut args = vec!["--turns", "2", "--threads", threads];
            args.extend(mode);
            let (text, v) = perft_command_json(&args);
            assert_eq!(
                top_level_keys(&text),
                ["sequences", "positions", "stalemates", "seconds", "mates"],
                "{text}"
            );
            let head = format!(
                "{{\"sequences\":8902,\"positions\":{positions},\"stalemates\":0,\"seconds\":"
            );
            assert!(text.starts_with(&head), "{text}");
            assert!(v["seconds"].as_f64().is_some_and(|s| s >= 0.0), "{text}");
            assert_eq!(v["mates"], 0);
        }
    }
    let (ok, plain, _) = perft_command(&["--turns", "2"]);
    assert!(
        ok && plain.starts_with("sequences 8902\nstalemates 0\n"),
        "{plain}"
    );
    let (ok, plain, _) = perft_command(&["--turns", "2", "--positions", "--threads", "2"]);
    assert!(
        ok && plain.starts_with("sequences 8902\npositions 5362\n"),
        "{plain}"
    );
    for bad in ["0", "257", "x"] {
        let (ok, stdout, stderr) = perft_command(&["--threads", bad]);
        assert!(!ok && stdout.is_empty(), "--threads {bad}");
        assert!(stderr.contains("--threads"), "--threads {bad}: {stderr}");
    }
}

#[test]
fn perft_command_counts_from_the_middle_of_a_turn() {
    // Black's knight stands on a6, which its a7a5 passed over this turn.
    for text in [
        "r1bqkbnr/2pp1ppp/n7/pp2p3/P5P1/5N2/1PPPPPBP/RNBQK2R b KQkq a6 0 4 2",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1",
    ] {
        for rules in [Rules::Italian, Rules::Scottish] {
            let args = ["--fen", text, "--turns", "1", "--rules", rules.name()];
            let (_, v) = perft_command_json(&[&args[..], &["--positions"]].concat());
            let (_, bulk) = perft_command_json(&args);
            let want = reference_perft(text, 1, ref_rules(rules));
            assert_eq!(bulk["sequences"], want.sequences, "{rules} {text}");
            assert_eq!(bulk["stalemates"], want.stalemates, "{rules} {text}");
            assert_eq!(v["sequences"], want.sequences, "{rules} {text}");
            assert_eq!(v["positions"], want.positions_chess_ep, "{rules} {text}");
            assert_eq!(v["stalemates"], want.stalemates, "{rules} {text}");
        }
    }
}

#[test]
fn perft_command_divide_sums_to_the_total() {
    for (text, turns, rules) in [
        (START_FEN, "2", "italian"),
        // Mid-turn, with the mover's own double step pending.
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1",
            "1",
            "scottish",
        ),
    ] {
        let args = [
            "--fen", text, "--turns", turns, "--rules", rules, "--divide",
        ];
        // Bulk and --positions split alike.
        let (_, bulk) = perft_command_json(&args);
        let (json, v) =
            perft_command_json(&[&args[..], &["--positions", "--threads", "2"]].concat());
        assert_eq!(bulk["divide"], v["divide"], "{rules} {text}");
        for key in ["sequences", "stalemates", "mates"] {
            assert_eq!(bulk[key], v[key], "{rules} {key}");
        }
        let keys = top_level_keys(&json);
        assert_eq!(keys.last().map(String::as_str), Some("divide"), "{json}");
        let parts = v["divide"].as_object().expect("divide is an object");
        let sum: u64 = parts.values().map(|n| n.as_u64().unwrap()).sum();
        assert_eq!(v["sequences"].as_u64(), Some(sum), "{json}");
        let (_, whole) = perft_command_json(&[
            "--fen",
            text,
            "--turns",
            turns,
            "--rules",
            rules,
            "--positions",
        ]);
        for key in ["sequences", "positions", "stalemates", "mates"] {
            assert_eq!(v[key], whole[key], "{rules} {key}");
        }
        // Plain text: one `<move>: <n>` line per first move, then the totals.
        let (ok, plain, _) = perft_command(&args);
        assert!(ok);
        let lines: Vec<&str> = plain.lines().filter(|l| l.contains(": ")).collect();
        assert_eq!(lines.len(), parts.len(), "{plain}");
        let plain_sum: u64 = lines
            .iter()
            .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(plain_sum, sum);
        assert!(plain.contains(&format!("\nsequences {sum}\n")), "{plain}");
    }
}

#[test]
fn perft_command_chess_depth() {
    let (text, v) = perft_command_json(&["--chess", "--depth", "3"]);
    assert_eq!(top_level_keys(&text), ["nodes", "seconds"], "{text}");
    assert_eq!(v["nodes"], 8902);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (text, v) = perft_command_json(&["--chess", "--depth", "3", "--fen", kiwipete, "--divide"]);
    assert_eq!(v["nodes"], 97_862, "{text}");
    let parts = v["divide"].as_object().expect("divide is an object");
    assert_eq!(parts.len(), 48);
    let sum: u64 = parts.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(sum, 97_862);
    let (ok, plain, _) = perft_command(&["--chess", "--depth", "2"]);
    assert!(ok && plain.starts_with("nodes 400\n"), "{plain}");
}

#[test]
fn perft_command_rejects_a_malformed_fen_naming_the_field() {
    let cases = include_str!("data/bad_fens.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_once('\t').unwrap());
    for (field, fen) in cases {
        for json in [false, true] {
            let mut args = vec!["--fen", fen];
            if json {
                args.push("--json");
            }
            let (ok, stdout, stderr) = perft_command(&args);
            assert!(!ok, "{fen} must be rejected");
            assert!(stdout.is_empty(), "{fen}: {stdout}");
            assert!(
                stderr.contains(&format!("invalid FEN {field} field")),
                "{fen}: {stderr}"
            );
        }
    }
}

#[test]
fn perft_command_shards_add_up_and_resume_from_the_results_file() {
    let dir = std::env::temp_dir().join(format!("crescendo-perft-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("turns3.jsonl");
    let file = results.to_str().unwrap();
    let _ = std::fs::remove_file(&results);
    for rules in ["italian", "scottish"] {
        let base = ["--turns", "3", "--rules", rules];
        let (_, whole) = perft_command_json(&base);
        // Two shards of five, then all five: the first two are read back.
        let (text, part) =
            perft_command_json(&[&base[..], &["--shard", "1-2/5", "--results", file]].concat());
        assert_eq!(
            top_level_keys(&text),
            [
                "sequences",
                "positions",
                "stalemates",
                "seconds",
                "mates",
                "shard"
            ],
            "{text}"
        );
        assert_eq!(part["shard"], "1-2/5");
        let lines = std::fs::read_to_string(&results).unwrap().lines().count();
        let (_, all) =
            perft_command_json(&[&base[..], &["--shard", "all/5", "--results", file]].concat());
        let after = std::fs::read_to_string(&results).unwrap().lines().count();
        assert_eq!(after, lines + 3, "only the missing shards are counted");
        let (_, again) = perft_command_json(
            &[
                &base[..],
                &["--shard", "all/5", "--results", file, "--threads", "2"],
            ]
            .concat(),
        );
        let mut sum = 0;
        for k in 1..=5 {
            let shard = format!("{k}/5");
            let (_, one) = perft_command_json(&[&base[..], &["--shard", &shard]].concat());
            sum += one["sequences"].as_u64().unwrap();
        }
        for key in ["sequences", "stalemates", "mates"] {
            assert_eq!(all[key], whole[key], "{rules} {key}");
            assert_eq!(again[key], whole[key], "{rules} {key}");
        }
        assert_eq!(Some(sum), whole["sequences"].as_u64(), "{rules}");
        assert!(part["sequences"].as_u64() < whole["sequences"].as_u64());
        assert_eq!(all["positions"], serde_json::Value::Null);
    }
    for bad in [
        vec!["--shard", "0/3"],
        vec!["--shard", "4/3"],
        vec!["--shard", "1/3", "--positions"],
        vec!["--shard", "1/3", "--divide"],
        vec!["--results", file],
        vec!["--shard", "1/3", "--chess"],
    ] {
        let (ok, stdout, stderr) = perft_command(&bad);
        assert!(!ok && stdout.is_empty() && !stderr.is_empty(), "{bad:?}");
    }
    std::fs::write(&results, "not json\n").unwrap();
    let (ok, _, stderr) = perft_command(&["--shard", "1/3", "--results", file]);
    assert!(!ok && stderr.contains("line 1"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
