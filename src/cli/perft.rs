//! `crescendo perft`: progressive perft, ordinary-chess perft with `--chess`,
//! or Linear Progression perft with `--variant linear-progression`.

use super::{CliResult, LpArgs, Variant, game_rules, parse_rules};
use clap::Args;
use crescendo::chess::{Rules, fen, fen::START_FEN, perft};
use crescendo::linear;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game: progressive (Progressive chess, the default) or
    /// linear-progression.
    #[arg(long, default_value_t = Variant::Progressive)]
    pub variant: Variant,
    /// Start position (progressive FEN, or Linear Progression position
    /// notation); defaults to the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Turns to enumerate, the current (possibly partly played) turn first.
    #[arg(long, default_value_t = 1)]
    pub turns: u32,
    /// Rule set: italian or scottish.
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// Ordinary chess perft (alternating single moves) on the same move generator.
    #[arg(long)]
    pub chess: bool,
    /// Plies for `--chess`.
    #[arg(long, default_value_t = 1)]
    pub depth: u32,
    /// Split the count by first move.
    #[arg(long)]
    pub divide: bool,
    /// Count `positions` too, exactly: every last move is made and every
    /// end position kept (several times slower, memory growing with the
    /// positions). Without it the last move of the last turn is counted in
    /// bulk and `positions` is not counted (`null` with --json).
    #[arg(long)]
    pub positions: bool,
    /// Counting threads (1 to 256) for progressive perft; the counts do not
    /// depend on it.
    #[arg(long, default_value_t = 1, value_parser = |s: &str| crescendo::limits::parse_in::<usize>(s, crescendo::limits::THREADS))]
    pub threads: usize,
    /// Count only these shards of the sequences (progressive, without
    /// --positions or --divide): `K/N`, `K-L/N` or `all/N`, from 1. The
    /// counts of all N shards add up to the whole count.
    #[arg(long, value_parser = |s: &str| s.parse::<perft::ShardRange>())]
    pub shard: Option<perft::ShardRange>,
    /// With --shard: a file of finished shards (one JSON line each). A shard
    /// found there is not counted again; each counted one is appended as
    /// soon as it is done, so a stopped run resumes where it was.
    #[arg(long, requires = "shard")]
    pub results: Option<std::path::PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub lp: LpArgs,
}

/// Runs `crescendo perft`.
pub fn run(args: &PerftArgs) -> CliResult {
    match game_rules(args.variant, args.rules, &args.lp)? {
        Some(rules) => run_progressive(args, rules),
        None => run_linear(args),
    }
}

/// Linear Progression perft: move sequences of `--turns` turns.
fn run_linear(args: &PerftArgs) -> CliResult {
    if args.chess || args.shard.is_some() {
        return Err("--chess and --shard are for --variant progressive".into());
    }
    if args.turns == 0 {
        return Err("--turns must be at least 1".into());
    }
    let pos = args.lp.position(args.fen.as_deref())?;
    let started = Instant::now();
    let mut parts = Vec::new();
    let c = if args.divide {
        // The total is the sum of the parts: no second count.
        let mut total = linear::PerftResult::default();
        for (mv, c) in linear::perft_divide(&pos, args.turns) {
            parts.push((mv.to_string(), c.sequences));
            total += c;
        }
        total
    } else {
        linear::perft(&pos, args.turns)
    };
    let secs = started.elapsed().as_secs_f64();
    print_counts(
        args,
        &[
            ("sequences", Some(c.sequences)),
            ("games_ended", Some(c.games_ended)),
            ("passes", Some(c.passes)),
        ],
        secs,
        &parts,
    );
    Ok(())
}

/// The failure of a count beyond 64 bits (the walks saturate rather than wrap).
const OVERFLOW: &str = "the count exceeds 64 bits (2^64 - 1); ask for fewer turns";

fn run_progressive(args: &PerftArgs, rules: Rules) -> CliResult {
    let rules = if args.chess { Rules::Chess } else { rules };
    let text = args.fen.as_deref().unwrap_or(START_FEN);
    let pos = fen::parse(text, rules).map_err(|e| e.to_string())?;
    if args.chess {
        if u64::from(args.depth) > perft::MAX_PERFT_MOVES {
            return Err(format!(
                "--depth {} is more than {} plies (the limit)",
                args.depth,
                perft::MAX_PERFT_MOVES
            ));
        }
        if args.shard.is_some() {
            return Err("--shard is for progressive perft, not --chess".into());
        }
        return run_chess(args, &pos);
    }
    if args.turns == 0 {
        return Err("--turns must be at least 1".into());
    }
    perft::check_size(&pos, args.turns).map_err(|e| format!("--turns: {e}"))?;
    if let Some(range) = args.shard {
        return run_shards(args, &pos, range);
    }
    let started = Instant::now();
    let threads = args.threads;
    // With --divide the total comes from the same walks (no second count).
    let (parts, c, positions) = if args.positions {
        let (parts, c) = if args.divide {
            perft::divide_with_total_on(&pos, args.turns, threads)
        } else {
            (Vec::new(), perft::perft_on(&pos, args.turns, threads))
        };
        let parts = parts.into_iter().map(|(mv, c)| (mv, c.sequences));
        (parts.collect(), c.without_positions(), Some(c.positions))
    } else if args.divide {
        let parts = perft::divide_sequences(&pos, args.turns, threads);
        let mut total = perft::SequenceCounts::default();
        for (_, c) in &parts {
            total.add(*c);
        }
        let parts = parts.into_iter().map(|(mv, c)| (mv, c.sequences));
        (parts.collect(), total, None)
    } else {
        (
            Vec::new(),
            perft::sequences(&pos, args.turns, threads),
            None,
        )
    };
    if c.overflowed() {
        return Err(OVERFLOW.into());
    }
    let secs = started.elapsed().as_secs_f64();
    let parts: Vec<(String, u64)> = parts.into_iter().map(|(mv, n)| (mv.uci(), n)).collect();
    print_counts(
        args,
        &[
            ("sequences", Some(c.sequences)),
            ("positions", positions),
            ("stalemates", Some(c.stalemates)),
            ("mates", Some(c.mates)),
        ],
        secs,
        &parts,
    );
    Ok(())
}

/// `--shard`: the shards of the range, each read from `--results` if it is
/// there, else counted (and appended to it); the counts are their sum, and
/// `shard` names the range.
fn run_shards(
    args: &PerftArgs,
    pos: &crescendo::chess::Position,
    range: perft::ShardRange,
) -> CliResult {
    if args.positions || args.divide {
        return Err("--shard counts sequences only: not with --positions or --divide".into());
    }
    let mut results = match &args.results {
        Some(path) => {
            let id = perft::CountId {
                fen: fen::to_fen(pos),
                rules: pos.rules().name().to_string(),
                turns: args.turns,
                shards: range.shards,
                split: perft::SPLIT,
            };
            Some(perft::ResultsFile::open(path, id)?)
        }
        None => None,
    };
    let started = Instant::now();
    let mut total = perft::SequenceCounts::default();
    // Opened once for the range, and only if a shard is still to count.
    let mut opened: Option<perft::Shards> = None;
    for shard in range.first..=range.last {
        if let Some(done) = results.as_ref().and_then(|r| r.get(shard)) {
            total.add(done);
            continue;
        }
        let shards =
            opened.get_or_insert_with(|| perft::Shards::new(pos, args.turns, range.shards));
        let shard_started = Instant::now();
        let c = shards.count(shard - 1, args.threads);
        if c.overflowed() {
            return Err(OVERFLOW.into());
        }
        if let Some(results) = results.as_mut() {
            results.record(shard, c, shard_started.elapsed().as_secs_f64())?;
        }
        total.add(c);
    }
    if total.overflowed() {
        return Err(OVERFLOW.into());
    }
    let secs = started.elapsed().as_secs_f64();
    print_counts(
        args,
        &[
            ("sequences", Some(total.sequences)),
            ("positions", None),
            ("stalemates", Some(total.stalemates)),
            ("mates", Some(total.mates)),
        ],
        secs,
        &[],
    );
    Ok(())
}

/// Ordinary-chess perft. With `--divide` the total is the sum of the parts.
fn run_chess(args: &PerftArgs, pos: &crescendo::chess::Position) -> CliResult {
    let started = Instant::now();
    let (parts, nodes) = if args.divide && args.depth > 0 {
        let parts: Vec<(String, u64)> = perft::chess_divide(pos, args.depth)
            .into_iter()
            .map(|(mv, n)| (mv.uci(), n))
            .collect();
        let nodes = parts.iter().map(|(_, n)| n).sum();
        (parts, nodes)
    } else {
        (Vec::new(), perft::chess_perft(pos, args.depth))
    };
    if nodes == u64::MAX {
        return Err(OVERFLOW.into());
    }
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let mut out = format!(
            "{{\"nodes\":{nodes},\"seconds\":{}",
            serde_json::json!(secs)
        );
        if args.divide {
            out.push_str(&divide_json(&parts));
        }
        out.push('}');
        println!("{out}");
    } else {
        for (mv, n) in &parts {
            println!("{mv}: {n}");
        }
        println!("nodes {nodes}");
        println!("seconds {secs:.3}");
        println!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    }
    Ok(())
}

/// `,"divide":{"e2e4":N,...}` in the order of the moves.
/// Prints the counts, then the time; with `--divide` the count per first
/// move. JSON is written by hand to keep the documented key order
/// (serde_json's objects sort their keys): the first three counts,
/// `seconds`, then the rest (the chess `mates`) and `divide`.
/// A count that was not made (`positions` without `--positions`) is `null`
/// in JSON and left out of the plain text.
fn print_counts(
    args: &PerftArgs,
    counts: &[(&str, Option<u64>)],
    secs: f64,
    parts: &[(String, u64)],
) {
    if args.json {
        let mut fields: Vec<String> = counts
            .iter()
            .map(|(k, v)| format!("\"{k}\":{}", serde_json::json!(v)))
            .collect();
        let seconds = format!("\"seconds\":{}", serde_json::json!(secs));
        fields.insert(fields.len().min(3), seconds);
        if let Some(range) = args.shard {
            fields.push(format!("\"shard\":\"{range}\""));
        }
        let mut out = format!("{{{}", fields.join(","));
        if args.divide {
            out.push_str(&divide_json(parts));
        }
        out.push('}');
        println!("{out}");
    } else {
        for (mv, n) in parts {
            println!("{mv}: {n}");
        }
        for (key, value) in counts {
            if let Some(value) = value {
                println!("{key} {value}");
            }
        }
        println!("seconds {secs:.3}");
        if let Some(range) = args.shard {
            println!("shard {range}");
        }
    }
}

fn divide_json(parts: &[(String, u64)]) -> String {
    let entries: Vec<String> = parts
        .iter()
        .map(|(mv, n)| format!("\"{mv}\":{n}"))
        .collect();
    format!(",\"divide\":{{{}}}", entries.join(","))
}
