//! `crescendo perft`: progressive perft, ordinary-chess perft with `--chess`,
//! or Linear Progression perft with `--variant linear-progression`.

use super::{CliResult, LpArgs, Variant, parse_rules};
use crate::chess::{Rules, START_FEN, fen, perft};
use crate::linear;
use clap::Args;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// The game: progressive (Progressive chess, the default) or
    /// linear-progression.
    #[arg(long, value_enum, default_value_t = Variant::Progressive)]
    pub variant: Variant,
    /// Start position (progressive FEN, or Linear Progression position
    /// notation); defaults to the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Turns to enumerate, the current (possibly partly played) turn first.
    #[arg(long, default_value_t = 1)]
    pub turns: u32,
    /// Rule set: italian or scottish.
    #[arg(long, default_value = "italian", value_parser = parse_rules)]
    pub rules: Rules,
    /// Ordinary chess perft (alternating single moves) on the same move generator.
    #[arg(long)]
    pub chess: bool,
    /// Plies for `--chess`.
    #[arg(long, default_value_t = 1)]
    pub depth: u32,
    /// Split the count by first move.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub lp: LpArgs,
}

/// Runs `crescendo perft`.
pub fn run(args: &PerftArgs) -> CliResult {
    match args.variant {
        Variant::Progressive => {
            if args.lp.any() {
                return Err("--lp-* flags need --variant linear-progression".into());
            }
            run_progressive(args)
        }
        Variant::LinearProgression => run_linear(args),
    }
}

/// Linear Progression perft: move sequences of `--turns` turns.
fn run_linear(args: &PerftArgs) -> CliResult {
    if args.chess {
        return Err("--chess is for --variant progressive".into());
    }
    if args.turns == 0 {
        return Err("--turns must be at least 1".into());
    }
    let pos = args.lp.position(args.fen.as_deref())?;
    let started = Instant::now();
    let c = if args.divide {
        // The total is the sum of the parts: no second count.
        let mut total = linear::PerftResult::default();
        for (mv, c) in linear::perft_divide(&pos, args.turns) {
            println!("{mv}: {}", c.sequences);
            total += c;
        }
        total
    } else {
        linear::perft(&pos, args.turns)
    };
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        // Written by hand to keep the key order of the chess output's
        // documentation: `sequences` first, `seconds` last.
        println!(
            "{{\"sequences\":{},\"games_ended\":{},\"passes\":{},\"seconds\":{}}}",
            c.sequences,
            c.games_ended,
            c.passes,
            serde_json::json!(secs)
        );
    } else {
        println!("sequences {}", c.sequences);
        println!("games_ended {}", c.games_ended);
        println!("passes {}", c.passes);
        println!("seconds {secs:.3}");
    }
    Ok(())
}

/// The failure of a count beyond 64 bits (the walks saturate rather than wrap).
const OVERFLOW: &str = "the count exceeds 64 bits (2^64 - 1); ask for fewer turns";

fn run_progressive(args: &PerftArgs) -> CliResult {
    let rules = if args.chess { Rules::Chess } else { args.rules };
    let text = args.fen.as_deref().unwrap_or(START_FEN);
    let pos = fen::parse(text, rules).map_err(|e| e.to_string())?;
    let started = Instant::now();
    if args.chess {
        if u64::from(args.depth) > perft::MAX_PERFT_MOVES {
            return Err(format!(
                "--depth {} is more than {} plies (the limit)",
                args.depth,
                perft::MAX_PERFT_MOVES
            ));
        }
        if args.divide {
            for (mv, n) in perft::chess_divide(&pos, args.depth) {
                println!("{mv}: {n}");
            }
        }
        let nodes = perft::chess_perft(&pos, args.depth);
        if nodes == u64::MAX {
            return Err(OVERFLOW.into());
        }
        let secs = started.elapsed().as_secs_f64();
        if args.json {
            println!("{}", serde_json::json!({"nodes": nodes, "seconds": secs}));
        } else {
            println!("nodes {nodes}");
            println!("seconds {secs:.3}");
            println!("nps {:.0}", nodes as f64 / secs.max(1e-9));
        }
        return Ok(());
    }
    if args.turns == 0 {
        return Err("--turns must be at least 1".into());
    }
    perft::check_size(&pos, args.turns).map_err(|e| format!("--turns: {e}"))?;
    if args.divide {
        for (mv, c) in perft::divide(&pos, args.turns) {
            println!("{mv}: {}", c.sequences);
        }
    }
    let c = perft::perft(&pos, args.turns);
    if c.overflowed() {
        return Err(OVERFLOW.into());
    }
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let v = serde_json::json!({
            "sequences": c.sequences,
            "positions": c.positions,
            "stalemates": c.stalemates,
            "mates": c.mates,
            "seconds": secs,
        });
        println!("{v}");
    } else {
        println!("sequences {}", c.sequences);
        println!("positions {}", c.positions);
        println!("stalemates {}", c.stalemates);
        println!("mates {}", c.mates);
        println!("seconds {secs:.3}");
    }
    Ok(())
}
