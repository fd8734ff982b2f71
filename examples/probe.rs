//! Times the search on a few positions with different turn-start mate budgets.
//!
//!     cargo run --release --example probe -- DEPTH TREE_NODES...
use crescendo::chess::{Rules, fen};
use crescendo::search::{Limits, Searcher};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 5",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 8",
];

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let depth = args[0] as u32;
    for &tree in &args[1..] {
        for f in FENS {
            let pos = fen::parse(f, Rules::Italian).unwrap();
            let limits = Limits {
                depth: Some(depth),
                tree_mate_nodes: Some(tree),
                ..Limits::default()
            };
            let t = Instant::now();
            let r =
                Searcher::new(16).search(&pos, &limits, &Arc::new(AtomicBool::new(false)), |_| {});
            let turn: Vec<String> = r.turn.iter().map(|m| m.to_string()).collect();
            println!(
                "tree {tree} depth {depth}: nodes {} ms {} turn {} score {:?}",
                r.nodes,
                t.elapsed().as_millis(),
                turn.join(","),
                r.score
            );
        }
    }
}
