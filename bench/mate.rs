//! Mate-finder speed: `cargo bench --bench mate`.
//!
//! Janko-Guid 60 (Italian, every position has a mate) and the Popeye-timed
//! sermate set (120 positions, m = 3..12). Each position is solved with a
//! fresh (cleared) table, several times; the median time counts. Prints a
//! markdown table: totals, the sermate total against Popeye's CPU time, the
//! worst per-position ratio to Popeye, and the 2-thread speedup on the
//! hardest positions of both sets.
//!
//! Environment: `MATE_BENCH_RUNS` (default 3) runs per position,
//! `MATE_BENCH_HARD` (default 8) hardest positions per set for the thread
//! measurement, `MATE_BENCH_THREADS` (default 2).

use crescendo::chess::{Position, Rules, fen};
use crescendo::mate::{self, MateTable, Verdict};
use std::time::Duration;

struct Case {
    id: String,
    pos: Position,
    /// Popeye's CPU time, for the sermate set.
    popeye: Option<Duration>,
    popeye_mate: bool,
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn janko() -> Vec<Case> {
    include_str!("data/janko-guid-60.csv")
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .filter_map(|(id, f)| {
            let pos = fen::parse(f, Rules::Italian).ok()?;
            Some(Case {
                id: id.to_string(),
                pos,
                popeye: None,
                popeye_mate: true,
            })
        })
        .collect()
}

fn sermate() -> Vec<Case> {
    include_str!("data/sermate-public.jsonl")
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            let pos = fen::parse(v["fen"].as_str()?, Rules::Italian).ok()?;
            Some(Case {
                id: v["id"].as_str()?.to_string(),
                pos,
                popeye: Some(Duration::from_secs_f64(v["popeye_cpu_s"].as_f64()?)),
                popeye_mate: v["popeye_verdict"] == "mate",
            })
        })
        .collect()
}

/// The median time of `runs` solves with a cleared table, checking the verdict.
fn time_case(case: &Case, tt: &MateTable, threads: usize, runs: usize) -> Duration {
    let budget = mate::Budget {
        threads,
        ..mate::Budget::default()
    };
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            tt.clear();
            let r = mate::find_mate(&case.pos, &budget, tt);
            match &r.verdict {
                Verdict::Mate(_) => {}
                Verdict::NoMate => assert!(!case.popeye_mate, "{}: mate missed", case.id),
                Verdict::Unknown => panic!("{}: unknown without limits", case.id),
            }
            r.elapsed
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let runs = env("MATE_BENCH_RUNS", 3);
    let hard = env("MATE_BENCH_HARD", 8);
    let threads = env("MATE_BENCH_THREADS", 2);
    let tt = MateTable::new(64);
    println!(
        "| set | positions | total ms (1 thread) | Popeye ms | Popeye / ours | worst position vs Popeye | slowest position |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut hardest: Vec<(Duration, &Case)> = Vec::new();
    let sets = [("janko-guid-60", janko()), ("sermate-public", sermate())];
    for (name, cases) in &sets {
        let mut total = Duration::ZERO;
        let mut popeye = Duration::ZERO;
        let mut worst: Option<(f64, &str)> = None;
        let mut slowest: Vec<(Duration, &Case)> = Vec::new();
        for case in cases {
            let t = time_case(case, &tt, 1, runs);
            total += t;
            if let Some(p) = case.popeye {
                popeye += p;
                let ratio = t.as_secs_f64() / p.as_secs_f64();
                if worst.is_none_or(|w| ratio > w.0) {
                    worst = Some((ratio, &case.id));
                }
            }
            slowest.push((t, case));
        }
        slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
        let (pop, ratio, worst) = match worst {
            Some((w, id)) => (
                format!("{:.0}", ms(popeye)),
                format!("{:.1}x", popeye.as_secs_f64() / total.as_secs_f64()),
                format!("{id}: {w:.2}x Popeye's time"),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "| {name} | {} | {:.0} | {pop} | {ratio} | {worst} | {}: {:.0} ms |",
            cases.len(),
            ms(total),
            slowest[0].1.id,
            ms(slowest[0].0)
        );
        hardest.extend(slowest.into_iter().take(hard));
    }
    let (mut one, mut many) = (Duration::ZERO, Duration::ZERO);
    for (t, case) in &hardest {
        one += *t;
        many += time_case(case, &tt, threads, runs);
    }
    println!();
    println!("| hardest positions | 1 thread ms | {threads} threads ms | speedup |");
    println!("|---|---|---|---|");
    println!(
        "| {} ({hard} per set) | {:.0} | {:.0} | {:.2}x |",
        hardest.len(),
        ms(one),
        ms(many),
        one.as_secs_f64() / many.as_secs_f64()
    );
    println!();
    println!("Medians of {runs} runs per position, table cleared before each solve.");
}
