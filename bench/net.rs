//! The root safety net on turns that lost games: for each line of
//! `bench/data/net-lost-turns.txt` (`FEN|turn` in UCI, the loser's last turn
//! of a game full strength lost at 1+0.05, after which the opponent mated),
//! does the net find a turn that the mate finder then proves safe, within
//! the budget a game gives it? Prints the count; `NET_BENCH_MS` sets the
//! deadline per position (default 100), `NET_BENCH_NODES` the nodes per
//! checked turn (default the engine's 200 000).
//!
//! Then the safe-turn benchmark ([`safe`]); `NET_BENCH=lost` or
//! `NET_BENCH=safe` runs only one of the two. `cargo bench --bench net --
//! collect ...` runs the recipe of the safe-turn positions ([`collect`]).

#[path = "net/collect.rs"]
mod collect;
#[path = "net/safe.rs"]
mod safe;

use crescendo::chess::notation::parse_uci;
use crescendo::chess::{Rules, fen};
use crescendo::mate::{Budget, MateTable, Verdict, find_mate};
use crescendo::search::safety::{SafetyBudget, Verdict as Net, secure};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().is_some_and(|a| a == "collect") {
        return collect::run(&args[1..]);
    }
    let only = std::env::var("NET_BENCH").unwrap_or_default();
    if only != "safe" {
        lost_turns();
    }
    if only != "lost" {
        safe::run();
    }
}

fn lost_turns() {
    let ms = env("NET_BENCH_MS", 100);
    let nodes = env("NET_BENCH_NODES", crescendo::search::SAFETY_NODES);
    let text = std::fs::read_to_string("bench/data/net-lost-turns.txt")
        .expect("run from the repository root");
    let stop = Arc::new(AtomicBool::new(false));
    let (mut saved, mut total, mut spent) = (0, 0, 0u64);
    let started = Instant::now();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (fen_text, turn_text) = line.split_once('|').expect("FEN|turn");
        let pos = fen::parse(fen_text, Rules::Italian).expect("a valid FEN");
        let mut after = pos.clone();
        let mut turn = Vec::new();
        for uci in turn_text.split(',') {
            let mv = parse_uci(&after, uci).expect("a legal move");
            after.play(mv);
            turn.push(mv);
        }
        let table = MateTable::new(16);
        let budget = SafetyBudget {
            nodes_per_check: nodes,
            deadline: Some(Instant::now() + Duration::from_millis(ms)),
            rescue: None,
            threads: 1,
            max_nodes: None,
            breadth: Default::default(),
        };
        let outcome = secure(&pos, &turn, budget, &stop, &table);
        spent += outcome.nodes;
        total += 1;
        if let Net::Replaced { turn, .. } = outcome.verdict {
            let mut safe = pos.clone();
            for &mv in &turn {
                safe.play(mv);
            }
            let budget = Budget::nodes(20_000_000);
            if find_mate(&safe, &budget, &table).verdict == Verdict::NoMate {
                saved += 1;
            }
        }
    }
    println!(
        "safety net: {saved}/{total} lost turns replaced by a turn proved safe \
         ({ms} ms, {nodes} nodes per check; {spent} nodes, {:.1} s in all)",
        started.elapsed().as_secs_f64()
    );
}
