//! `crescendo perft`: progressive perft, or ordinary-chess perft with `--chess`.

use super::{CliResult, parse_rules};
use crate::chess::{Rules, START_FEN, fen, perft};
use clap::Args;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Start position (progressive FEN); defaults to the start position.
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
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
}

pub fn run(args: &PerftArgs) -> CliResult {
    let rules = if args.chess { Rules::Chess } else { args.rules };
    let pos = fen::parse(&args.fen, rules).map_err(|e| e.to_string())?;
    let started = Instant::now();
    if args.chess {
        if args.divide {
            for (mv, n) in perft::chess_divide(&pos, args.depth) {
                println!("{mv}: {n}");
            }
        }
        let nodes = perft::chess_perft(&pos, args.depth);
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
    if args.divide {
        for (mv, c) in perft::divide(&pos, args.turns) {
            println!("{mv}: {}", c.sequences);
        }
    }
    let c = perft::perft(&pos, args.turns);
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
