//! The safe-turn benchmark: on each position of
//! `bench/data/net-safe-turns.txt` (most turns lose to a mate next turn,
//! a turn proved safe exists; `collect.rs` is the recipe), the engine plays
//! its turn at full strength with default settings and `go movetime`
//! (`SAFE_BENCH_MS`, default 1000), and the mate finder, with a generous
//! budget ([`PROOF_NODES`]), proves the turn played safe or not. Prints the
//! share proved safe and every failure (mated or undecided) with what the
//! turn cost. `SAFE_BENCH_ONLY=a,b,...` runs only those lines (numbers
//! from 1), `SAFE_BENCH_RULES=italian|scottish` one rule set.
//! `SAFE_BENCH_NODES=N` plays `go nodes N` instead of the movetime: the
//! same answers on a loaded machine (one thread, budget-monotone finder),
//! so two builds compare exactly.

use crescendo::chess::notation::parse_uci;
use crescendo::chess::{Position, Rules, fen};
use crescendo::mate::{Budget, MateTable, Verdict, find_mate};
use crescendo::search::levels::Style;
use crescendo::search::{Limits, Searcher, play};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Finder nodes that prove the played turn safe (or find the mate).
const PROOF_NODES: u64 = 50_000_000;
/// The engine's defaults (`Hash`, `Move Overhead`).
const HASH_MIB: usize = 16;
const MOVE_OVERHEAD: Duration = Duration::from_millis(10);

/// One benchmark position.
pub struct Case {
    pub number: usize,
    pub pos: Position,
    pub source: String,
}

/// The positions of the data file (checked: the stored safe turn is legal).
pub fn cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').collect();
        let [rules, fen_text, _, safe, source] = fields[..] else {
            panic!("line {}: rules|FEN|mated|safe turn|source", i + 1);
        };
        let rules = match rules {
            "scottish" => Rules::Scottish,
            _ => Rules::Italian,
        };
        let pos = fen::parse(fen_text, rules).expect("a valid FEN");
        let mut p = pos.clone();
        for uci in safe.split(',') {
            let mv = parse_uci(&p, uci).expect("the safe turn is legal");
            p.play(mv);
        }
        out.push(Case {
            number: i + 1,
            pos,
            source: source.to_string(),
        });
    }
    out
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

pub fn run() {
    let ms: u64 = env("SAFE_BENCH_MS")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let only: Option<Vec<usize>> =
        env("SAFE_BENCH_ONLY").map(|v| v.split(',').filter_map(|n| n.parse().ok()).collect());
    let rules = env("SAFE_BENCH_RULES");
    // A node budget instead of the clock: the same answers under any load.
    let nodes: Option<u64> = env("SAFE_BENCH_NODES").and_then(|v| v.parse().ok());
    let text = std::fs::read_to_string("bench/data/net-safe-turns.txt")
        .expect("run from the repository root");
    let stop = Arc::new(AtomicBool::new(false));
    let (mut safe, mut total, mut late) = (0, 0, 0);
    let mut worst = Duration::ZERO;
    let mut failures = Vec::new();
    let started = Instant::now();
    for case in cases(&text) {
        if only.as_ref().is_some_and(|o| !o.contains(&case.number)) {
            continue;
        }
        let name = if case.pos.rules() == Rules::Scottish {
            "scottish"
        } else {
            "italian"
        };
        if rules.as_ref().is_some_and(|r| r != name) {
            continue;
        }
        let limits = Limits {
            movetime: nodes.is_none().then(|| Duration::from_millis(ms)),
            nodes,
            move_overhead: MOVE_OVERHEAD,
            threads: 1,
            ..Limits::default()
        };
        let mut searcher = Searcher::new(HASH_MIB);
        let t = Instant::now();
        let result = play(
            &mut searcher,
            &case.pos,
            &limits,
            Style::default(),
            &stop,
            |_| {},
        );
        let took = t.elapsed();
        worst = worst.max(took);
        late += usize::from(took > Duration::from_millis(ms) - MOVE_OVERHEAD);
        let mut after = case.pos.clone();
        for &mv in &result.turn {
            after.play(mv);
        }
        let table = MateTable::new(64);
        let answer = find_mate(&after, &Budget::nodes(PROOF_NODES), &table);
        total += 1;
        let turn: Vec<String> = result.turn.iter().map(|m| m.to_string()).collect();
        match answer.verdict {
            Verdict::NoMate => safe += 1,
            ref v => failures.push(format!(
                "  line {} ({}, {name}): {} after {} | {} ms, {} nodes, score {:?} {}| {}",
                case.number,
                case.source,
                if matches!(v, Verdict::Mate(_)) {
                    "MATED"
                } else {
                    "unknown"
                },
                turn.join(","),
                took.as_millis(),
                result.nodes,
                result.score,
                result.notes.join("; "),
                fen::to_fen(&case.pos),
            )),
        }
    }
    println!(
        "safe turns: {safe}/{total} played turns proved safe ({:.1} %) at {ms} ms per turn; \
         {late} answered after movetime - Move Overhead, slowest {} ms; {:.0} s in all{}",
        100.0 * safe as f64 / total.max(1) as f64,
        worst.as_millis(),
        started.elapsed().as_secs_f64(),
        nodes.map_or(String::new(), |n| format!(" (go nodes {n}, not movetime)"))
    );
    for f in &failures {
        println!("{f}");
    }
}
