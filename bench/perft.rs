//! Ordinary-chess perft speed: Crescendo against cozy-chess, measured in the
//! same run. `cargo bench --bench perft`.
//!
//! Crescendo is timed twice: the command itself (`crescendo perft --chess
//! --depth D --fen F --json`, the release binary spawned, its own node count
//! and time read back; the wall time with process start-up is shown too)
//! and the library call `chess_perft` in this process. cozy-chess runs in
//! this process. Prints leaf nodes per second and the ratio of the command
//! to cozy-chess; medians of several runs (`PERFT_RUNS`, default 5), since
//! these machines are noisy.

use crescendo::chess::{Rules, fen, perft};
use std::process::Command;
use std::time::Instant;

const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
        return nodes;
    }
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy_perft(&child, depth - 1);
        }
        false
    });
    nodes
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// `crescendo perft --chess --depth D --fen F --json`: (nodes, its own
/// seconds, wall seconds with process start-up).
fn command_perft(text: &str, depth: u32) -> (u64, f64, f64) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .args([
            "perft",
            "--chess",
            "--depth",
            &depth.to_string(),
            "--fen",
            text,
            "--json",
        ])
        .output()
        .expect("the crescendo binary runs");
    let wall = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let nodes = v["nodes"].as_u64().expect("nodes");
    let secs = v["seconds"].as_f64().expect("seconds");
    (nodes, secs, wall)
}

fn main() {
    let runs = std::env::var("PERFT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    println!(
        "| position | depth | nodes | command Mnps | command Mnps (wall) | library Mnps | cozy-chess Mnps | ratio (command / cozy) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut ratios = Vec::new();
    for (name, text, depth) in POSITIONS {
        let ours = fen::parse(text, Rules::Chess).expect("valid FEN");
        let theirs: cozy_chess::Board = text.parse().expect("valid FEN");
        let (mut command, mut wall, mut library, mut cozy) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut nodes = 0;
        for _ in 0..runs {
            let (n, secs, wall_secs) = command_perft(text, depth);
            command.push(n as f64 / secs / 1e6);
            wall.push(n as f64 / wall_secs / 1e6);
            let t = Instant::now();
            nodes = perft::chess_perft(&ours, depth);
            library.push(nodes as f64 / t.elapsed().as_secs_f64() / 1e6);
            let t = Instant::now();
            let check = cozy_perft(&theirs, depth);
            cozy.push(check as f64 / t.elapsed().as_secs_f64() / 1e6);
            assert_eq!(n, check, "the command's node count differs on {name}");
            assert_eq!(nodes, check, "node counts differ on {name}");
        }
        let (c, w, l, z) = (median(command), median(wall), median(library), median(cozy));
        ratios.push(c / z);
        println!(
            "| {name} | {depth} | {nodes} | {c:.1} | {w:.1} | {l:.1} | {z:.1} | {:.2} |",
            c / z
        );
    }
    println!(
        "\nmedian ratio (crescendo perft command / cozy-chess): {:.2}",
        median(ratios)
    );
}
