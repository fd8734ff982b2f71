//! How often the mate finder answers `unknown` where play needs an answer:
//! every position right after one of the engine's own turns (the opponent
//! to move) in the self-play games of `bench/data/selfplay-*.pgn`, asked
//! "does the side to move mate in this turn?" at the safety net's budget
//! (`SAFETY_NODES` mate-finder nodes, one thread, a fresh table, as each of
//! the net's first checks). Prints, per rule set, the share answered mate /
//! none / unknown and the nodes per answer (median, total), then the
//! positions left unknown. `UNKNOWN_BENCH_NODES` sets the budget.
//!
//! The games (recipe in bench/mate.md, "Unknown rate"), `crescendo match`
//! self-play with `--random-openings 2 --seed 16`, in two sets:
//! - `nodes`: both engines `nodes=100000` (no clock, so no time forfeits on
//!   a loaded machine; deterministic), 160 games per rule set;
//! - `movetime`: `--movetime 200`, 40 games per rule set (longer games,
//!   nearer play on a clock; 7 of the 80 were lost on time to the load).
//!
//! The first two turns of each game are the random opening, not the
//! engine's, and are skipped.

use crescendo::chess::{Rules, fen, pgn, status};
use crescendo::mate::{Budget, MateTable, Verdict, find_mate};
use std::collections::HashSet;
use std::time::Instant;

/// The random opening turns at the start of every game (`--random-openings`).
const OPENING_TURNS: usize = 2;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What the finder said about one position.
struct Asked {
    fen: String,
    verdict: Verdict,
    nodes: u64,
}

/// The distinct positions after each of the engine's complete turns whose
/// game goes on, each asked at `nodes`. (The two games of an opening, the
/// colours swapped, are often the same game: each position counts once.)
fn ask_all(path: &str, rules: Rules, nodes: u64) -> Vec<Asked> {
    let text = std::fs::read_to_string(path).expect("run from the repository root");
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for game in pgn::read_games(&text, rules) {
        assert!(game.error.is_none(), "{path} game {}", game.number);
        for (start, moves) in game.turns().into_iter().skip(OPENING_TURNS) {
            let mut after = start;
            for &mv in &moves {
                after.play(mv);
            }
            // A turn the record stops inside, or one that ended the game
            // (mate, stalemate, dead position). Ten quiet turns are no end
            // here: the draw waits for exactly the answer asked for.
            let over = status::status_with(&after, |_| Some(true), status::Undecided::GameGoesOn);
            if after.moves_made() != 0 || over.is_over() || !seen.insert(fen::to_fen(&after)) {
                continue;
            }
            let table = MateTable::new(16);
            let answer = find_mate(&after, &Budget::nodes(nodes), &table);
            out.push(Asked {
                fen: fen::to_fen(&after),
                verdict: answer.verdict,
                nodes: answer.nodes,
            });
        }
    }
    out
}

fn share(part: usize, all: usize) -> String {
    format!("{part} ({:.1} %)", 100.0 * part as f64 / all.max(1) as f64)
}

fn main() {
    let nodes = env("UNKNOWN_BENCH_NODES", crescendo::search::SAFETY_NODES);
    println!("budget: {nodes} mate-finder nodes per position, one thread, fresh table");
    println!();
    println!(
        "| games | rules | positions | mate | none | unknown | median nodes | total nodes | seconds |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut unknown = Vec::new();
    for set in ["nodes", "movetime"] {
        for rules in [Rules::Italian, Rules::Scottish] {
            let path = format!("bench/data/selfplay-{set}-{rules}.pgn");
            unknown.extend(report(set, rules, &path, nodes));
        }
    }
    println!();
    println!("unknown at {nodes} nodes: {}", unknown.len());
    for line in unknown {
        println!("  {line}");
    }
}

/// Prints one row of the table; returns the positions left unknown.
fn report(set: &str, rules: Rules, path: &str, nodes: u64) -> Vec<String> {
    let started = Instant::now();
    let asked = ask_all(path, rules, nodes);
    let secs = started.elapsed().as_secs_f64();
    let count = |f: fn(&Verdict) -> bool| asked.iter().filter(|a| f(&a.verdict)).count();
    let mates = count(|v| matches!(v, Verdict::Mate(_)));
    let none = count(|v| *v == Verdict::NoMate);
    let unknowns = count(|v| *v == Verdict::Unknown);
    let mut spent: Vec<u64> = asked.iter().map(|a| a.nodes).collect();
    spent.sort_unstable();
    let median = spent.get(spent.len() / 2).copied().unwrap_or(0);
    let total: u64 = spent.iter().sum();
    println!(
        "| {set} | {rules} | {} | {} | {} | {} | {median} | {total} | {secs:.1} |",
        asked.len(),
        share(mates, asked.len()),
        share(none, asked.len()),
        share(unknowns, asked.len()),
    );
    asked
        .into_iter()
        .filter(|a| a.verdict == Verdict::Unknown)
        .map(|a| format!("{set} {rules} {} ({} nodes)", a.fen, a.nodes))
        .collect()
}
