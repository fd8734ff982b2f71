//! `crescendo analyse`: the engine's search on one position or a file of
//! them, for scripts (see protocol.md, "crescendo analyse").

use super::{CliResult, parse_rules};
use crate::chess::status::status_with;
use crate::chess::{Move, Position, Rules, fen, notation};
use crate::search::{Limits, Score, Searcher};
use clap::Args;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The search depth when no limit is given.
const DEFAULT_DEPTH: u32 = 5;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The position (progressive FEN).
    #[arg(long, conflicts_with = "file", required_unless_present = "file")]
    pub fen: Option<String>,
    /// A batch: one FEN per line, or EPD (the FEN, then operations such as `id "name";`).
    #[arg(long)]
    pub file: Option<String>,
    /// Rule set: italian or scottish.
    #[arg(long, default_value = "italian", value_parser = parse_rules)]
    pub rules: Rules,
    /// Search to this depth (moves, across turns); the default when no limit is given.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    pub depth: Option<u32>,
    /// Search this many milliseconds per position.
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<u64>,
    /// Search about this many nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Best turns to report (only 1 until the search supports more).
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Search threads (the search uses one thread for now).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB (cleared before each position).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Print one JSON object per line.
    #[arg(long)]
    pub json: bool,
}

/// One position of the batch: its id (the EPD `id`, or the line number) and FEN.
struct Item {
    id: serde_json::Value,
    line: usize,
    fen: String,
}

/// One output record; the field order is the documented key order.
#[derive(Serialize)]
struct Record {
    id: serde_json::Value,
    fen: String,
    /// `ongoing`, or why the game is over (then `best` is empty).
    status: &'static str,
    best: Vec<String>,
    san: Vec<String>,
    /// `cp N` or `mate N` (turns; `mate 1` mates in this turn).
    score: String,
    /// The best turn mates in this turn (checked by the rules core).
    mate_in_turn: bool,
    depth: u32,
    nodes: u64,
    ms: u64,
    pv: Vec<String>,
}

impl Record {
    fn print(&self, json: bool) {
        if json {
            match serde_json::to_string(self) {
                Ok(text) => println!("{text}"),
                Err(e) => eprintln!("crescendo: {e}"),
            }
            return;
        }
        let id = match &self.id {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        if self.status != "ongoing" {
            println!("{id}: game over ({})", self.status);
            return;
        }
        println!(
            "{id}: best {} ({}) score {}{} depth {} nodes {} ms {}",
            self.best.join(","),
            self.san.join(" "),
            self.score,
            if self.mate_in_turn {
                " (mate in this turn)"
            } else {
                ""
            },
            self.depth,
            self.nodes,
            self.ms
        );
    }
}

/// Splits an EPD-style line into the FEN (its 6 or 7 fields) and the `id`
/// operation, if any.
fn split_epd(line: &str) -> (String, Option<String>) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let numeric = |i: usize| {
        tokens
            .get(i)
            .is_some_and(|t| t.trim_end_matches(';').parse::<u32>().is_ok())
    };
    let fields = if numeric(6) { 7 } else { 6 }.min(tokens.len());
    let fen = tokens[..fields].join(" ").trim_end_matches(';').to_string();
    let rest = tokens[fields..].join(" ");
    let id = rest.split(';').find_map(|op| {
        let op = op.trim();
        op.strip_prefix("id ")
            .map(|v| v.trim().trim_matches('"').to_string())
    });
    (fen, id)
}

fn read_batch(path: &str) -> Result<Vec<Item>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, id) = split_epd(line);
        out.push(Item {
            id: id.map_or(serde_json::Value::from(i + 1), serde_json::Value::String),
            line: i + 1,
            fen,
        });
    }
    Ok(out)
}

fn uci(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.uci()).collect()
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

pub fn run(args: &AnalyseArgs) -> CliResult {
    if args.multipv != 1 {
        return Err("--multipv above 1 is not supported by the search yet".into());
    }
    if args.threads > 1 {
        log::warn!("the search is single-threaded for now: --threads is ignored");
    }
    let (batch, source) = match (&args.fen, &args.file) {
        (Some(f), _) => (
            vec![Item {
                id: serde_json::Value::from(1),
                line: 1,
                fen: f.clone(),
            }],
            "--fen".to_string(),
        ),
        (None, Some(path)) => (read_batch(path)?, path.clone()),
        (None, None) => return Err("give --fen or --file".into()),
    };
    let limits = Limits {
        depth: match (args.depth, args.movetime, args.nodes) {
            (Some(d), _, _) => Some(d.max(1)),
            (None, None, None) => Some(DEFAULT_DEPTH),
            _ => None,
        },
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash.max(1));
    let stop = Arc::new(AtomicBool::new(false));
    let mut errors = 0;
    for item in &batch {
        let pos = match fen::parse(&item.fen, args.rules) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("crescendo: {source}:{}: {e}", item.line);
                errors += 1;
                continue;
            }
        };
        analyse(&mut searcher, &pos, item, &limits, &stop).print(args.json);
    }
    if errors > 0 {
        return Err(format!(
            "{errors} of {} position(s) could not be read",
            batch.len()
        ));
    }
    Ok(())
}

fn analyse(
    searcher: &mut Searcher,
    pos: &Position,
    item: &Item,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> Record {
    let started = Instant::now();
    let status = status_with(pos, crate::mate::mates_this_turn);
    let mut record = Record {
        id: item.id.clone(),
        fen: item.fen.clone(),
        status: if status.is_over() {
            status.reason()
        } else {
            "ongoing"
        },
        best: Vec::new(),
        san: Vec::new(),
        score: String::new(),
        mate_in_turn: false,
        depth: 0,
        nodes: 0,
        ms: 0,
        pv: Vec::new(),
    };
    if status.is_over() {
        return record;
    }
    searcher.clear(); // each position on its own: results do not depend on the order
    let result = searcher.search(pos, limits, stop, |_| {});
    record.best = uci(&result.turn);
    record.san = notation::san_line(pos, &result.turn);
    record.score = score_text(result.score);
    record.mate_in_turn = crate::mate::is_mating_line(pos, &result.turn);
    record.depth = result.depth;
    record.nodes = result.nodes;
    record.ms = started.elapsed().as_millis() as u64;
    record.pv = uci(&result.pv);
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines() {
        let (fen, id) = split_epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 id \"back rank\"; bm a1a8;");
        assert_eq!(fen, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(id.as_deref(), Some("back rank"));
        let (fen, id) = split_epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 5 2");
        assert_eq!(fen, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 5 2");
        assert_eq!(id, None);
        let (fen, _) = split_epd("too short");
        assert_eq!(fen, "too short");
    }
}
