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
//!
//! A second table follows the net further: a turn its first check leaves
//! undecided is checked again with `ESCALATION` times the nodes, up to
//! `MAX_ESCALATION` times the first check (what `safety.rs` does without a
//! deadline; with one, while time remains), each check with a fresh table.
//! It gives the positions still unknown after each step and the CPU time
//! of the whole ladder.

use crescendo::chess::{Rules, fen, pgn, status};
use crescendo::mate::{Budget, MateTable, Verdict, find_mate};
use crescendo::search::safety::{ESCALATION, MAX_ESCALATION};
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
    /// With the net's escalation: the checks made (the first and those
    /// while the answer stayed unknown, one per step of the ladder), the
    /// last answer, and the nodes of all the checks.
    checks: usize,
    last: Verdict,
    ladder_nodes: u64,
    /// CPU seconds of the first check, and of all the checks.
    secs: f64,
    ladder_secs: f64,
}

/// The distinct positions after each of the engine's complete turns whose
/// game goes on, each asked with the budgets of `steps` in turn while the
/// answer is unknown (the first is the first check's). (The two games of an opening, the
/// colours swapped, are often the same game: each position counts once.)
fn ask_all(path: &str, rules: Rules, steps: &[u64]) -> Vec<Asked> {
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
            let started = Instant::now();
            let table = MateTable::new(16);
            let answer = find_mate(&after, &Budget::nodes(steps[0]), &table);
            let secs = started.elapsed().as_secs_f64();
            let (mut checks, mut last, mut ladder_nodes) =
                (1, answer.verdict.clone(), answer.nodes);
            while last == Verdict::Unknown && checks < steps.len() {
                let again = find_mate(&after, &Budget::nodes(steps[checks]), &MateTable::new(16));
                checks += 1;
                last = again.verdict;
                ladder_nodes += again.nodes;
            }
            out.push(Asked {
                fen: fen::to_fen(&after),
                verdict: answer.verdict,
                nodes: answer.nodes,
                checks,
                last,
                ladder_nodes,
                secs,
                ladder_secs: started.elapsed().as_secs_f64(),
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
    // The net's ladder: the first check, then ESCALATION times more each
    // time, up to MAX_ESCALATION times the first.
    let mut steps = vec![nodes];
    while steps[steps.len() - 1] * ESCALATION <= nodes * MAX_ESCALATION {
        steps.push(steps[steps.len() - 1] * ESCALATION);
    }
    let mut asked = Vec::new();
    for set in ["nodes", "movetime"] {
        for rules in [Rules::Italian, Rules::Scottish] {
            let path = format!("bench/data/selfplay-{set}-{rules}.pgn");
            asked.push((set, rules, ask_all(&path, rules, &steps)));
        }
    }
    println!("budget: {nodes} mate-finder nodes per position, one thread, fresh table");
    println!();
    println!(
        "| games | rules | positions | mate | none | unknown | median nodes | total nodes | seconds |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for (set, rules, asked) in &asked {
        first_row(set, *rules, asked);
    }
    println!();
    println!("the net's escalation: an unknown checked again with {steps:?} nodes");
    println!();
    let heads: Vec<String> = steps.iter().map(|n| format!("unknown after {n}")).collect();
    println!(
        "| games | rules | positions | {} | mate | none | total nodes | seconds |",
        heads.join(" | ")
    );
    println!(
        "|---|---|---|{}---|---|---|---|",
        "---|".repeat(steps.len())
    );
    for (set, rules, asked) in &asked {
        ladder_row(set, *rules, asked, &steps);
    }
    let steps = &steps;
    let unknown: Vec<String> = asked
        .iter()
        .flat_map(|(set, rules, asked)| {
            asked
                .iter()
                .filter(|a| a.verdict == Verdict::Unknown)
                .map(move |a| {
                    let last = match &a.last {
                        Verdict::Mate(_) => "mate".to_string(),
                        Verdict::NoMate => "none".to_string(),
                        Verdict::Unknown => "unknown".to_string(),
                    };
                    format!(
                        "{set} {rules} {} ({} nodes; {last} at {} nodes)",
                        a.fen,
                        a.nodes,
                        steps[a.checks - 1]
                    )
                })
        })
        .collect();
    println!();
    println!("unknown at {nodes} nodes: {}", unknown.len());
    for line in unknown {
        println!("  {line}");
    }
}

/// Prints one row of the first check's table.
fn first_row(set: &str, rules: Rules, asked: &[Asked]) {
    let count = |f: fn(&Verdict) -> bool| asked.iter().filter(|a| f(&a.verdict)).count();
    let mates = count(|v| matches!(v, Verdict::Mate(_)));
    let none = count(|v| *v == Verdict::NoMate);
    let unknowns = count(|v| *v == Verdict::Unknown);
    let mut spent: Vec<u64> = asked.iter().map(|a| a.nodes).collect();
    spent.sort_unstable();
    let median = spent.get(spent.len() / 2).copied().unwrap_or(0);
    let total: u64 = spent.iter().sum();
    let secs: f64 = asked.iter().map(|a| a.secs).sum();
    println!(
        "| {set} | {rules} | {} | {} | {} | {} | {median} | {total} | {secs:.1} |",
        asked.len(),
        share(mates, asked.len()),
        share(none, asked.len()),
        share(unknowns, asked.len()),
    );
}

/// Prints one row of the escalation's table: the positions still unknown
/// after each step, the last answers, and what the whole ladder cost.
fn ladder_row(set: &str, rules: Rules, asked: &[Asked], steps: &[u64]) {
    let open: Vec<String> = (0..steps.len())
        .map(|i| {
            // Unknown after step i: asked at step i and still unknown, or
            // asked past it.
            let n = asked
                .iter()
                .filter(|a| a.checks > i + 1 || a.checks == i + 1 && a.last == Verdict::Unknown)
                .count();
            share(n, asked.len())
        })
        .collect();
    let mates = asked
        .iter()
        .filter(|a| matches!(a.last, Verdict::Mate(_)))
        .count();
    let none = asked.iter().filter(|a| a.last == Verdict::NoMate).count();
    let total: u64 = asked.iter().map(|a| a.ladder_nodes).sum();
    let secs: f64 = asked.iter().map(|a| a.ladder_secs).sum();
    println!(
        "| {set} | {rules} | {} | {} | {mates} | {none} | {total} | {secs:.1} |",
        asked.len(),
        open.join(" | ")
    );
}
