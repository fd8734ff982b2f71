//! `crescendo mate`: mate in this turn for one position or a file of them.

use super::{CliResult, parse_rules};
use clap::Args;
use crescendo::chess::{Move, Position, Rules, fen, notation};
use crescendo::mate::{self, MateTable, Verdict};
use serde::Serialize;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct MateArgs {
    /// The position (progressive FEN).
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    pub fen: Option<String>,
    /// A batch: one FEN per line, or CSV with the header `id,fen`.
    #[arg(long)]
    pub file: Option<String>,
    /// Rule set: italian or scottish.
    #[arg(long, default_value = "italian", value_parser = parse_rules)]
    pub rules: Rules,
    /// Node limit per position.
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Time limit per position, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search threads (1 to 256).
    #[arg(long, default_value_t = 1, value_parser = |s: &str| crescendo::limits::parse_in::<usize>(s, crescendo::limits::THREADS))]
    pub threads: usize,
    /// List every mating line (one thread).
    #[arg(long)]
    pub all: bool,
    /// Mate table size in MB, 1 to 1024 (kept across the positions of a batch).
    #[arg(long, default_value_t = 64, value_parser = |s: &str| crescendo::limits::parse_in::<usize>(s, crescendo::limits::HASH_MIB))]
    pub hash: usize,
    /// Print one JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// One output record; the field order is the documented key order.
#[derive(Serialize)]
struct Record<'a> {
    id: serde_json::Value,
    fen: &'a str,
    result: &'static str,
    line: Vec<String>,
    san: Vec<String>,
    nodes: u64,
    ms: u64,
}

impl Record<'_> {
    fn print(&self, json: bool) {
        if json {
            super::print_json(self);
        } else {
            let id = super::id_text(&self.id);
            let mut text = format!("{id}: {}", self.result);
            if !self.line.is_empty() {
                text += &format!(" {} ({})", self.line.join(" "), self.san.join(" "));
            }
            println!("{text}  nodes {} ms {}", self.nodes, self.ms);
        }
    }
}

/// The positions to solve: (id, FEN text).
fn read_batch(path: &str) -> Result<Vec<(serde_json::Value, String)>, String> {
    let text = crescendo::lines::read_text_file(path)?;
    let mut out = Vec::new();
    let mut csv = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if out.is_empty() && !csv && line.replace(' ', "").eq_ignore_ascii_case("id,fen") {
            csv = true;
            continue;
        }
        if csv {
            // The FEN itself may hold commas (en-passant lists): split once.
            let Some((id, f)) = line.split_once(',') else {
                return Err(format!("{path}:{}: expected `id,fen`", i + 1));
            };
            let unquote = |s: &str| s.trim().trim_matches('"').to_string();
            out.push((serde_json::Value::String(unquote(id)), unquote(f)));
        } else {
            out.push((serde_json::Value::from(i + 1), line.to_string()));
        }
    }
    Ok(out)
}

fn uci(line: &[Move]) -> Vec<String> {
    line.iter().map(|m| m.uci()).collect()
}

pub fn run(args: &MateArgs) -> CliResult {
    let batch = match (&args.fen, &args.file) {
        (Some(f), _) => vec![(serde_json::Value::from(1), f.clone())],
        (None, Some(path)) => read_batch(path)?,
        (None, None) => return Err("give --fen or --file".into()),
    };
    // Each position of a batch gets the whole movetime.
    let budget = || mate::Budget {
        nodes: args.nodes.unwrap_or(u64::MAX),
        deadline: args
            .movetime
            .map(|ms| Instant::now() + Duration::from_millis(ms)),
        threads: args.threads,
        stop: None,
    };
    let tt = MateTable::new(args.hash);
    let (mut errors, mut counts, mut total_ms) = (0, [0u32; 3], 0u64);
    for (id, text) in &batch {
        let pos = match fen::parse(text, args.rules) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("crescendo: position {id}: {e}");
                errors += 1;
                continue;
            }
        };
        let record = |result, line: &[Move], nodes, ms| Record {
            id: id.clone(),
            fen: text,
            result,
            line: uci(line),
            san: notation::san_line(&pos, line),
            nodes,
            ms,
        };
        if args.all {
            let r = with_stack_for(&pos, || mate::find_all_mates(&pos, &budget(), &tt))?;
            let ms = r.elapsed.as_millis() as u64;
            total_ms += ms;
            for line in &r.lines {
                record("mate", line, r.nodes, ms).print(args.json);
            }
            if !r.complete {
                record("unknown", &[], r.nodes, ms).print(args.json);
            } else if r.lines.is_empty() {
                record("none", &[], r.nodes, ms).print(args.json);
            }
            counts[if !r.lines.is_empty() {
                0
            } else if r.complete {
                1
            } else {
                2
            }] += 1;
            continue;
        }
        let r = with_stack_for(&pos, || mate::find_mate(&pos, &budget(), &tt))?;
        let ms = r.elapsed.as_millis() as u64;
        total_ms += ms;
        let (result, line, k) = match &r.verdict {
            Verdict::Mate(line) => ("mate", line.as_slice(), 0),
            Verdict::NoMate => ("none", &[][..], 1),
            Verdict::Unknown => ("unknown", &[][..], 2),
        };
        counts[k] += 1;
        record(result, line, r.nodes, ms).print(args.json);
    }
    if !args.json && batch.len() > 1 {
        println!(
            "total: {} positions, {} mate, {} none, {} unknown, {} ms",
            counts.iter().sum::<u32>(),
            counts[0],
            counts[1],
            counts[2],
            total_ms
        );
    }
    if errors > 0 {
        return Err(format!("{errors} position(s) could not be read"));
    }
    Ok(())
}

/// `work`, the finder on `pos`, run where the stack suffices (this runs
/// on the process's main thread: see main.rs).
fn with_stack_for<R: Send>(pos: &Position, work: impl FnOnce() -> R + Send) -> Result<R, String> {
    mate::on_finder_stack(pos, work).ok_or_else(|| {
        format!(
            "cannot start a thread for a turn of {} moves",
            pos.moves_left()
        )
    })
}
