//! Scripted conversations with the real `crescendo` binary over its pipes.

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove_of};

use crescendo::chess::notation::parse_uci;
use crescendo::chess::{Move, Position, Rules, fen, legal_moves};
use std::thread;
use std::time::{Duration, Instant};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The position after `moves` (UCI, single moves) from `start`.
fn after(start: &str, moves: &str) -> Position {
    let mut pos = fen::parse(start, Rules::Italian).unwrap();
    for m in moves.split_whitespace() {
        let mv = parse_uci(&pos, m).unwrap();
        pos.play(mv);
    }
    pos
}

#[test]
fn scottish_rules_cut_a_turn_short_at_check() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value progressive-scottish");
    let text = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3";
    e.send(&format!("position fen {text}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let mut pos = fen::parse(text, Rules::Scottish).unwrap();
    play_turn(&mut pos, &bestmove_of(&lines));
    assert!(crescendo::chess::status::is_mated(&pos), "{lines:?}");
    // A check in the middle of a list ends the turn there.
    e.send("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 3 moves a1a8 e8e7");
    assert_eq!(e.fen(), "R7/4k3/8/8/8/8/8/4K3 b - - 2 4 1");
    e.quit();
}

/// Plays a `bestmove` token on `pos`; it must be exactly the rest of the turn.
fn play_turn(pos: &mut Position, token: &str) {
    let moves: Vec<&str> = token.split(',').collect();
    for (i, m) in moves.iter().enumerate() {
        let mv: Move = parse_uci(pos, m).unwrap_or_else(|e| panic!("{token}: {e}"));
        let ended = pos.play(mv).turn_ended;
        let last = i + 1 == moves.len();
        assert!(
            ended == last || (last && legal_moves(pos).is_empty()),
            "{token}"
        );
    }
}

#[test]
fn handshake() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name Crescendo "));
    assert!(lines[1].starts_with("id author "));
    for name in [
        "UCI_Variant",
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Clear Hash",
        "Debug Log File",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(lines.iter().any(|l| l.starts_with(&prefix)), "{name}");
    }
    assert!(e.sync().is_empty());
    e.send("ucinewgame");
    assert!(e.sync().is_empty());
    let stderr = e.quit();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn options_round_trip() {
    let mut e = Engine::start();
    for line in [
        "setoption name Hash value 8",
        "setoption name hash value 32",
        "setoption name Threads value 2",
        "setoption name MultiPV value 1",
        "setoption name Move Overhead value 50",
        "setoption name Clear Hash",
        "setoption name UCI_Variant value progressive",
    ] {
        e.send(line);
        assert!(e.sync().is_empty(), "{line}");
    }
    e.send("setoption name UCI_Variant value progressive-scottish");
    let lines = e.display();
    assert!(lines.contains(&"Rules: Scottish".to_string()), "{lines:?}");
    e.send("setoption name UCI_Variant value progressive");
    assert!(e.display().contains(&"Rules: Italian".to_string()));
    e.quit();
}

#[test]
fn debug_log_file_copies_the_traffic() {
    let path = std::env::temp_dir().join(format!("crescendo-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut e = Engine::start();
    e.send(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    assert!(e.sync().is_empty());
    e.send("setoption name Debug Log File value <empty>");
    assert!(e.sync().is_empty());
    e.quit();
    let log = std::fs::read_to_string(&path).unwrap();
    assert!(
        log.contains(">> isready") && log.contains("<< readyok"),
        "{log}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn positions_from_start_and_fen_and_mid_turn() {
    let mut e = Engine::start();
    assert_eq!(e.fen(), START);
    e.send("position startpos moves e2e4 e7e5 d7d5");
    assert_eq!(e.fen(), fen::to_fen(&after(START, "e2e4 e7e5 d7d5")));
    // Mid-turn: White has made one of its three moves.
    e.send("position startpos moves e2e4 e7e5 d7d5 g1f3");
    let lines = e.display();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("turn length 3, moves made 1")),
        "{lines:?}"
    );
    let fen7 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1";
    e.send(&format!("position fen {fen7} moves d2d4"));
    assert_eq!(e.fen(), fen::to_fen(&after(fen7, "d2d4")));
    e.send("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 7");
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/8/R3K3 w - - 0 7");
    e.quit();
}

#[test]
fn whole_turn_tokens_mix_with_single_moves() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5,d7d5 g1f3,f1c4");
    let joined = e.fen();
    e.send("position startpos moves e2e4 e7e5 d7d5 g1f3 f1c4");
    assert_eq!(e.fen(), joined);
    // A GUI that appends the engine's bestmove token just works.
    let mut moves = Vec::new();
    let mut pos = Position::startpos(Rules::Italian);
    for _ in 0..4 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 2");
        let token = bestmove_of(&e.until("bestmove"));
        play_turn(&mut pos, &token);
        moves.push(token);
    }
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(e.fen(), fen::to_fen(&pos));
    e.quit();
}

#[test]
fn movetime_gives_a_legal_turn_in_time() {
    let mut e = Engine::start();
    for moves in ["", "e2e4 e7e5 d7d5", "e2e4 e7e5 d7d5 g1f3"] {
        e.send(&format!("position startpos moves {moves}"));
        let started = Instant::now();
        e.send("go movetime 100");
        let lines = e.until("bestmove");
        let took = started.elapsed();
        assert!(took < Duration::from_millis(400), "{took:?}");
        assert!(lines.iter().any(|l| l.starts_with("info depth ")));
        let mut pos = after(START, moves);
        play_turn(&mut pos, &bestmove_of(&lines));
    }
    e.quit();
}

#[test]
fn clock_search_gives_a_legal_turn() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    e.send("go wtime 1000 btime 1000 winc 10 binc 10");
    let mut pos = after(START, "e2e4");
    play_turn(&mut pos, &bestmove_of(&e.until("bestmove")));
    // Almost no time left: still a legal answer, at once.
    let started = Instant::now();
    e.send("go wtime 5 btime 5");
    let mut pos = after(START, "e2e4");
    play_turn(&mut pos, &bestmove_of(&e.until("bestmove")));
    assert!(started.elapsed() < Duration::from_millis(100));
    e.quit();
}

#[test]
fn stop_isready_and_quit_answer_within_50ms_while_searching() {
    let mut e = Engine::start();
    // A big table must not slow `quit` (its untouched pages cost nothing).
    e.send("setoption name Hash value 512");
    e.send("position startpos moves e2e4 e7e5 d7d5");
    e.send("go infinite");
    assert!(e.next().starts_with("info"));
    thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    e.send("isready");
    e.until("readyok");
    let ready = started.elapsed();
    // No bestmove before stop in infinite mode.
    let started = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    let stop = started.elapsed();
    eprintln!("isready latency {ready:?}, stop latency {stop:?}");
    assert!(ready < Duration::from_millis(50), "{ready:?}");
    assert!(stop < Duration::from_millis(50), "{stop:?}");
    let mut pos = after(START, "e2e4 e7e5 d7d5");
    play_turn(&mut pos, &bestmove_of(&lines));
    // Stop right after go: still a legal turn.
    e.send("go infinite");
    e.send("stop");
    let mut pos = after(START, "e2e4 e7e5 d7d5");
    play_turn(&mut pos, &bestmove_of(&e.until("bestmove")));
    // Quit while searching.
    e.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    let started = Instant::now();
    e.quit();
    let quit = started.elapsed();
    eprintln!("quit latency {quit:?}");
    assert!(quit < Duration::from_millis(50), "{quit:?}");
}

#[test]
fn fixed_depth_is_deterministic() {
    let mut runs = Vec::new();
    for _ in 0..2 {
        let mut e = Engine::start();
        e.send("position startpos moves e2e4 e7e5 d7d5");
        e.send("go depth 3");
        let lines = e.until("bestmove");
        let last_info = lines[lines.len() - 2].clone();
        let nodes = last_info
            .split(" nodes ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string();
        runs.push((nodes, bestmove_of(&lines)));
        e.quit();
    }
    assert_eq!(runs[0], runs[1]);
}

#[test]
fn go_mate_perft_and_bench() {
    let mut e = Engine::start();
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3");
    e.send("go mate");
    let lines = e.until("bestmove");
    assert!(lines[0].contains("score mate 1"), "{lines:?}");
    let mut pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Italian).unwrap();
    play_turn(&mut pos, &bestmove_of(&lines));
    assert!(crescendo::chess::status::is_mated(&pos));
    e.send("position startpos");
    e.send("go mate");
    assert_eq!(
        e.until("bestmove"),
        [
            "info string no mate in this turn (proved)",
            "bestmove (none)"
        ]
    );
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 6");
    e.send("go mate nodes 50");
    // The finder counts nodes in batches of about a thousand, so it may find
    // this mate within its first batch; otherwise the limit says "unknown".
    let lines = e.until("bestmove");
    if lines[0].contains("score mate 1") {
        let mut pos = fen::parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 6", Rules::Italian).unwrap();
        play_turn(&mut pos, &bestmove_of(&lines));
        assert!(crescendo::chess::status::is_mated(&pos), "{lines:?}");
    } else {
        assert_eq!(
            lines,
            [
                "info string no mate in this turn (unknown, limit reached)",
                "bestmove (none)"
            ]
        );
    }
    // A search finds the same mate and scores it as mate 1.
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.until("Nodes searched");
    assert_eq!(lines.len(), 21);
    assert_eq!(lines[20], "Nodes searched: 8902");
    let mut signature = Vec::new();
    for _ in 0..2 {
        e.send("bench 2");
        let lines = e.until("Nodes/second");
        let n = lines[lines.len() - 2].clone();
        assert!(n.starts_with("Nodes searched: "), "{lines:?}");
        signature.push(n);
    }
    assert_eq!(signature[0], signature[1]);
    e.quit();
}

#[test]
fn every_error_gives_one_line_and_keeps_the_state() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let kept = e.fen();
    let cases = [
        ("hello", "unknown command 'hello'"),
        ("isready please", "takes no arguments"),
        ("position", "expected 'startpos' or 'fen"),
        ("position fen", "FEN is missing"),
        ("position fen 8/8/8 w - - 0 1", "placement"),
        ("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 3 3", "moves-made"),
        ("position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "side"),
        ("position startpos moves e2e5", "entry 1 'e2e5'"),
        ("position startpos moves e2e4 zz", "entry 2 'zz'"),
        ("position startpos moves e2e4 e7e5,,d7d5", "empty move"),
        ("position startpos moves e2e4,e7e5", "turn ends"),
        ("position startpos moves e2e4 e7e8q", "entry 2"),
        ("position startpos e2e4", "unexpected 'e2e4'"),
        ("setoption name Bogus value 1", "unknown option 'Bogus'"),
        ("setoption name Hash value 0", "Hash must be from 1 to 1024"),
        (
            "setoption name Hash value 99999",
            "Hash must be from 1 to 1024",
        ),
        ("setoption name Threads value x", "whole number"),
        (
            "setoption name Move Overhead value -1",
            "Move Overhead must be",
        ),
        (
            "setoption name UCI_Variant value crazyhouse",
            "unknown UCI_Variant",
        ),
        ("setoption name UCI_Variant", "needs a value"),
        ("setoption Hash", "expected 'setoption name"),
        ("go depth", "needs a number"),
        ("go depth -3", "needs a number"),
        ("go nodes 0", "at least 1"),
        ("go sideways", "unknown parameter 'sideways'"),
        ("bench 0", "1 to 30"),
        ("debug maybe", "debug on"),
    ];
    for (line, needle) in cases {
        e.expect_error_during_search(line, needle);
        assert_eq!(e.fen(), kept, "{line}");
    }
    // Go when the game is over: the error, then bestmove (none).
    e.send("position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 2");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info string error: go: the game is over: 1-0 (checkmate)"));
    assert_eq!(lines[1], "bestmove (none)");
    // Go while searching.
    e.send("position startpos");
    e.send("go infinite");
    e.next();
    e.expect_error_during_search("go depth 1", "already running");
    e.expect_error_during_search("setoption name Hash value 4", "while searching");
    e.send("stop");
    e.until("bestmove");
    let stderr = e.quit();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A small deterministic generator (xorshift), so that failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SEEDS: [&str; 24] = [
    "uci",
    "isready",
    "ucinewgame",
    "d",
    "stop",
    "debug on",
    "position startpos",
    "position startpos moves e2e4 e7e5 d7d5 g1f3,f1c4",
    "position startpos moves e2e4 e7e5,d7d5 g1f3",
    "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1",
    "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3 moves g1f1",
    "position fen R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 2",
    "position fen 4k3/8/8/8/8/8/8/4K3 w - - 12 9",
    "setoption name Hash value 2",
    "setoption name UCI_Variant value progressive-scottish",
    "setoption name UCI_Variant value progressive",
    "setoption name Move Overhead value 0",
    "setoption name Clear Hash",
    "setoption name MultiPV value 3",
    "go depth 2",
    "go nodes 300",
    "go movetime 5",
    "go mate nodes 2000",
    "go perft 1",
];

/// A mutation of a seed line: tokens dropped, repeated, swapped or garbled.
fn mutate(rng: &mut Rng, line: &str) -> Vec<u8> {
    let mut tokens: Vec<String> = line.split(' ').map(String::from).collect();
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(tokens.len());
        match rng.below(6) {
            0 if tokens.len() > 1 => {
                tokens.remove(i);
            }
            1 => tokens.insert(i, tokens[i].clone()),
            2 => {
                let j = rng.below(tokens.len());
                tokens.swap(i, j);
            }
            3 => tokens[i] = (rng.next() % 100_000).to_string(),
            4 => {
                let mut chars: Vec<char> = tokens[i].chars().collect();
                if !chars.is_empty() {
                    let k = rng.below(chars.len());
                    chars[k] = char::from(b' ' + rng.below(95) as u8);
                }
                tokens[i] = chars.into_iter().collect();
            }
            _ => tokens[i] = "-".repeat(rng.below(5)),
        }
    }
    tokens.join(" ").into_bytes()
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    (0..rng.below(80))
        .map(|_| rng.next() as u8)
        .filter(|&b| b != b'\n')
        .collect()
}

/// Searches that mutations could make long (go infinite, bench, perft 9)
/// are replaced by short ones, and every search is stopped: the test is about
/// surviving garbage, not about waiting.
fn tame(rng: &mut Rng, line: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&line);
    let first = text.split_whitespace().next().unwrap_or("");
    if first == "go" || first == "bench" {
        SEEDS[19 + rng.below(5)].as_bytes().to_vec()
    } else {
        line
    }
}

#[test]
fn survives_random_and_mutated_garbage() {
    let mut e = Engine::start();
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut sent = 0;
    while sent < 3000 {
        let line = match rng.below(10) {
            0..=2 => random_bytes(&mut rng),
            3..=4 => SEEDS[rng.below(SEEDS.len())].as_bytes().to_vec(),
            _ => {
                let seed = SEEDS[rng.below(SEEDS.len())];
                mutate(&mut rng, seed)
            }
        };
        let line = tame(&mut rng, line);
        let is_go = line.starts_with(b"go");
        e.send_bytes(&line);
        if is_go {
            e.send("stop");
        }
        sent += 1;
        // Drain now and then so the pipe never fills.
        e.drain();
    }
    // The engine may lag behind the garbage (and the garbage holds `isready`
    // lines too): wait for a position no seed can produce, then `isready`.
    e.send("stop");
    e.send("setoption name UCI_Variant value progressive");
    e.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 17");
    e.send("d");
    let marker = "Fen: 4k3/8/8/8/8/8/8/3QK3 w - - 0 17";
    while e.next() != marker {}
    e.sync();
    e.send("position startpos");
    e.send("go depth 1");
    let mut pos = Position::startpos(Rules::Italian);
    play_turn(&mut pos, &bestmove_of(&e.until("bestmove")));
    assert!(e.silent_for(Duration::from_millis(20)));
    let stderr = e.quit();
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bench_subcommand_prints_its_figures_as_json() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args(["bench", "--depth", "3", "--mate-movetime", "20", "--json"])
        .output()
        .expect("crescendo runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(v["nodes"].as_u64().unwrap_or(0) > 0);
    assert_eq!(v["progressive_perft_sequences"], 8902);
    assert_eq!(v["mate_positions"], 60);
}

/// A lone queen against a king: few positions, astronomically many sequences.
const QUEEN: &str = "4k3/8/8/8/8/8/8/4KQ2 w - - 0";

#[test]
fn long_turns_neither_crash_nor_hang() {
    let mut e = Engine::start();
    e.expect_error_during_search(&format!("position fen {QUEEN} 10001"), "at most 10000");
    e.send(&format!("position fen {QUEEN} 10000"));
    e.expect_error_during_search("go perft 1", "more than 200 moves");
    e.send(&format!("position fen {QUEEN} 100"));
    e.expect_error_during_search("go perft 2", "more than 200 moves");
    // The mate finder recurses once per move: with helper threads too.
    let long_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 10000";
    e.send("setoption name Threads value 2");
    for go in ["go mate", "go movetime 100", "go infinite"] {
        e.send(&format!("position fen {long_start}"));
        e.send(go);
        if go == "go infinite" {
            thread::sleep(Duration::from_millis(300));
            e.send("stop");
        }
        let lines = e.until("bestmove");
        let mut pos = fen::parse(long_start, Rules::Italian).unwrap();
        play_turn(&mut pos, &bestmove_of(&lines));
    }
    assert!(e.sync().is_empty());
    let stderr = e.quit();
    assert!(!stderr.contains("overflow"), "{stderr}");
}

/// A depth limit bounds the work after the search too: the moves that
/// finish a turn of 9 999 (before: the depth-1 line at 0.7 s, then no
/// `bestmove` for ten minutes).
#[test]
fn go_depth_1_answers_on_a_turn_of_9999_moves() {
    let mut e = Engine::start();
    let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 9999";
    e.send(&format!("position fen {text}"));
    e.send("go depth 1");
    let lines = e.until("bestmove"); // each line within the harness's 30 s
    let mut pos = fen::parse(text, Rules::Italian).unwrap();
    play_turn(&mut pos, &bestmove_of(&lines));
    e.quit();
}

#[test]
fn perft_counts_beyond_64_bits_say_so() {
    let mut e = Engine::start();
    e.send(&format!("position fen {QUEEN} 20"));
    e.send("go perft 1");
    let lines = e.until("Nodes searched");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string perft overflow")),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap(),
        "Nodes searched: 18446744073709551615"
    );
    e.quit();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args(["perft", "--fen", &format!("{QUEEN} 20")])
        .output()
        .expect("crescendo runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("exceeds 64 bits"));
}

/// Sends `setup`, starts `go`, and checks that `stop` ends it within 50 ms
/// with a "perft stopped" line.
fn perft_stops_within_50ms(setup: &[&str], go: &str) {
    let mut e = Engine::start();
    for line in setup {
        e.send(line);
    }
    e.send(go);
    thread::sleep(Duration::from_millis(300));
    let (lines, latency) = e.timed("stop", "Nodes searched");
    eprintln!("{go}: stop latency {latency:?}");
    assert!(latency < Duration::from_millis(50), "{latency:?}");
    assert!(
        lines.contains(&"info string perft stopped".to_string()),
        "{lines:?}"
    );
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn stop_ends_a_perft_within_50ms() {
    perft_stops_within_50ms(&["position startpos"], "go perft 6");
}

#[test]
fn stop_ends_a_linear_progression_perft_within_50ms() {
    // Each first move of 7 turns takes seconds: stop must cut inside one.
    perft_stops_within_50ms(
        &["setoption name UCI_Variant value linear-progression"],
        "go perft 7",
    );
}

#[test]
fn ucinewgame_never_blocks_behind_a_running_job() {
    let mut e = Engine::start_variant("linear-progression");
    e.send("go perft 7");
    thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    e.send("ucinewgame");
    e.send("isready");
    let lines = e.until("readyok");
    let latency = started.elapsed();
    eprintln!("ucinewgame + isready latency {latency:?}");
    assert!(latency < Duration::from_millis(100), "{latency:?}");
    assert!(
        lines.contains(&"info string perft stopped".to_string()),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.quit();
    // The same with a search running.
    let mut e = Engine::start();
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    e.send("ucinewgame");
    let lines = e.until("bestmove");
    assert!(e.sync().is_empty());
    assert!(started.elapsed() < Duration::from_millis(100), "{lines:?}");
    e.quit();
}

#[test]
fn stop_is_fast_with_many_threads() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 64");
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let said = e.sync();
    if cores < 64 {
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("info string Threads 64: "), "{said:?}");
    }
    e.send("position startpos moves e2e4 e7e5 d7d5");
    for go in ["go infinite", "go mate infinite"] {
        e.send(go);
        thread::sleep(Duration::from_millis(300));
        let started = Instant::now();
        e.send("stop");
        e.until("bestmove");
        let latency = started.elapsed();
        eprintln!("{go}: stop latency with Threads 64: {latency:?}");
        assert!(latency < Duration::from_millis(50), "{go}: {latency:?}");
    }
    e.quit();
}

#[test]
fn a_weaker_level_shows_only_the_multipv_asked_for() {
    let mut e = Engine::start();
    e.send("setoption name Skill Level value 15");
    e.send("position startpos moves e2e4 e7e5 d7d5");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    assert!(infos.iter().all(|l| l.contains(" multipv 1 ")), "{lines:?}");
    e.send("setoption name MultiPV value 2");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.contains(" multipv 3 ")),
        "{lines:?}"
    );
    e.quit();
}
