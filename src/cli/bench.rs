//! `crescendo bench`: the engine's own speed figures in one run.
//!
//! - the search benchmark of the protocol's `bench` (node signature and
//!   nodes per second);
//! - ordinary-chess perft from the start position (leaf nodes per second);
//! - progressive perft, two turns from the start;
//! - the mate finder on the 60 Janko-Guid positions (solved, seconds).
//!
//! Ratios against reference implementations need crates the engine does not
//! ship; `cargo bench` measures those (bench/perft.rs, bench/mate.rs).
//!
//! With `--variant linear-progression`, only the Linear Progression search
//! benchmark runs: the protocol's `bench` in that variant (the same
//! positions and limits, from [`crescendo::linear::bench`]).

use super::{CliResult, LpArgs, Variant, game_rules, parse_rules};
use clap::Args;
use crescendo::chess::{Rules, fen, fen::START_FEN, perft};
use crescendo::mate::{self, MateTable, Verdict};
use crescendo::search::bench;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The Janko-Guid set, built into the binary so `bench` runs anywhere.
const JANKO_GUID: &str = include_str!("../../bench/data/janko-guid-60.csv");

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The game: progressive (Progressive chess, the default) or
    /// linear-progression.
    #[arg(long, default_value_t = Variant::Progressive)]
    pub variant: Variant,
    /// Search depth of the search benchmark (default 5 moves for
    /// Progressive chess, 4 turns for Linear Progression).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: Option<u32>,
    /// Rule set of the search benchmark: italian (the default) or scottish.
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// Time limit per mate position, in milliseconds (default 2000).
    #[arg(long)]
    pub mate_movetime: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    // Accepted so that a misplaced flag gets a clear error rather than
    // clap's "unexpected argument": the bench positions carry their rules.
    #[command(flatten)]
    pub lp: LpArgs,
}

/// Runs `crescendo bench`.
pub fn run(args: &BenchArgs) -> CliResult {
    if args.variant == Variant::LinearProgression {
        return run_linear(args);
    }
    match game_rules(args.variant, args.rules, &args.lp)? {
        Some(rules) => run_progressive(args, rules),
        None => run_linear(args),
    }
}

/// The Linear Progression search benchmark: the node signature and speed.
fn run_linear(args: &BenchArgs) -> CliResult {
    if args.lp.any() {
        return Err(
            "the Linear Progression bench positions carry their own boards and options: \
             give no --lp-* flag"
                .into(),
        );
    }
    if args.rules.is_some() || args.mate_movetime.is_some() {
        return Err("--rules and --mate-movetime are for --variant progressive".into());
    }
    let depth = args.depth.unwrap_or(crescendo::linear::BENCH_DEPTH);
    let stop = AtomicBool::new(false);
    let search = crescendo::linear::bench(depth, &stop, |_, _| {});
    if args.json {
        let v = serde_json::json!({
            "variant": "linear-progression",
            "depth": depth,
            "positions": crescendo::linear::BENCH_POSITIONS.len(),
            "nodes": search.nodes,
            "nps": search.nps(),
            "search_seconds": search.elapsed.as_secs_f64(),
        });
        println!("{v}");
    } else {
        println!("Nodes searched: {}", search.nodes);
        println!("Nodes/second: {}", search.nps());
    }
    Ok(())
}

fn run_progressive(args: &BenchArgs, rules: Rules) -> CliResult {
    let depth = args.depth.unwrap_or(bench::BENCH_DEPTH);
    let mate_movetime = args.mate_movetime.unwrap_or(2000);
    let stop = Arc::new(AtomicBool::new(false));
    let search = bench::run(rules, depth, &stop, |_, _| {});

    let chess = fen::parse(START_FEN, Rules::Chess).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let perft_nodes = perft::chess_perft(&chess, 5);
    let perft_secs = started.elapsed().as_secs_f64().max(1e-6);

    let start = fen::parse(START_FEN, Rules::Italian).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let sequences = perft::perft(&start, 2).sequences;
    let progressive_secs = started.elapsed().as_secs_f64();

    let (solved, total, mate_secs) = mate_bench(Duration::from_millis(mate_movetime))?;

    if args.json {
        let v = serde_json::json!({
            "nodes": search.nodes,
            "nps": search.nps(),
            "search_seconds": search.elapsed.as_secs_f64(),
            "perft_nodes": perft_nodes,
            "perft_nps": (perft_nodes as f64 / perft_secs) as u64,
            "progressive_perft_sequences": sequences,
            "progressive_perft_seconds": progressive_secs,
            "mate_solved": solved,
            "mate_positions": total,
            "mate_seconds": mate_secs,
        });
        println!("{v}");
    } else {
        println!("Nodes searched: {}", search.nodes);
        println!("Nodes/second: {}", search.nps());
        println!(
            "Chess perft 5 nodes/second: {:.0}",
            perft_nodes as f64 / perft_secs
        );
        println!("Progressive perft 2: {sequences} sequences in {progressive_secs:.3} s");
        println!("Janko-Guid mates: {solved}/{total} in {mate_secs:.3} s");
    }
    Ok(())
}

/// Solves the built-in Janko-Guid set: (solved, positions, seconds).
fn mate_bench(movetime: Duration) -> Result<(usize, usize, f64), String> {
    let tt = MateTable::new(64);
    let started = Instant::now();
    let (mut solved, mut total) = (0, 0);
    for line in JANKO_GUID.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let Some((_, text)) = line.split_once(',') else {
            return Err(format!("bad line in the Janko-Guid data: {line}"));
        };
        total += 1;
        // One position of the set has 17 black pieces; the FEN parser takes it.
        let Ok(pos) = fen::parse(text, Rules::Italian) else {
            continue;
        };
        tt.clear();
        let budget = mate::Budget {
            deadline: Some(Instant::now() + movetime),
            ..mate::Budget::default()
        };
        if matches!(
            mate::find_mate(&pos, &budget, &tt).verdict,
            Verdict::Mate(_)
        ) {
            solved += 1;
        }
    }
    Ok((solved, total, started.elapsed().as_secs_f64()))
}
