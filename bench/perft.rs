//! Ordinary-chess perft speed: Crescendo's move generator against
//! cozy-chess, measured in the same run. `cargo bench --bench perft`.
//!
//! Prints the leaf nodes per second of each and the ratio (ours / theirs);
//! medians of several runs, since these machines are noisy.

use crescendo::chess::{Rules, fen, perft};
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

fn main() {
    let runs = std::env::var("PERFT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    println!("| position | depth | nodes | crescendo Mnps | cozy-chess Mnps | ratio |");
    println!("|---|---|---|---|---|---|");
    let mut ratios = Vec::new();
    for (name, text, depth) in POSITIONS {
        let ours = fen::parse(text, Rules::Chess).expect("valid FEN");
        let theirs: cozy_chess::Board = text.parse().expect("valid FEN");
        let (mut ours_nps, mut theirs_nps) = (Vec::new(), Vec::new());
        let mut nodes = 0;
        for _ in 0..runs {
            let t = Instant::now();
            nodes = perft::chess_perft(&ours, depth);
            ours_nps.push(nodes as f64 / t.elapsed().as_secs_f64() / 1e6);
            let t = Instant::now();
            let check = cozy_perft(&theirs, depth);
            theirs_nps.push(check as f64 / t.elapsed().as_secs_f64() / 1e6);
            assert_eq!(nodes, check, "node counts differ on {name}");
        }
        let (a, b) = (median(ours_nps), median(theirs_nps));
        ratios.push(a / b);
        println!(
            "| {name} | {depth} | {nodes} | {a:.1} | {b:.1} | {:.2} |",
            a / b
        );
    }
    println!(
        "\nmedian ratio (crescendo / cozy-chess): {:.2}",
        median(ratios)
    );
}
