//! `crescendo analyse`: the engine's search on one position or a file of
//! them, for scripts (see protocol.md, "crescendo analyse"); Progressive
//! chess by default, Linear Progression with `--variant linear-progression`.

use super::{CliResult, LpArgs, Variant, game_rules, id_text, parse_rules, print_json};
use clap::Args;
use crescendo::chess::status::{Undecided, status_with};
use crescendo::chess::{Move, Position, Rules, fen, notation};
use crescendo::search::levels::Style;
use crescendo::search::{Limits, Score, Searcher};
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The search depth when no limit is given.
const DEFAULT_DEPTH: u32 = 5;

/// The Linear Progression search depth (turns) when no limit is given.
const LP_DEFAULT_DEPTH: u32 = 6;

/// The fields of a Linear Progression position.
const LP_FIELDS: usize = 6;

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    /// The game: progressive (Progressive chess, the default) or
    /// linear-progression.
    #[arg(long, default_value_t = Variant::Progressive)]
    pub variant: Variant,
    /// The position (progressive FEN, or Linear Progression position
    /// notation).
    #[arg(long, conflicts_with_all = ["file", "pgn"])]
    pub fen: Option<String>,
    /// A batch: one position per line, optionally followed by EPD
    /// operations such as `id "name";`.
    #[arg(long, conflicts_with = "pgn")]
    pub file: Option<String>,
    /// Analyse every turn of every game of this PGN file (missed mates,
    /// turns that allow a mate, the engine's best turn and scores);
    /// without a limit each position is searched for 300 ms.
    #[arg(long)]
    pub pgn: Option<String>,
    /// With --pgn: write the annotated PGN to this file (without --json
    /// it goes to stdout when no --out is given).
    #[arg(long, requires = "pgn")]
    pub out: Option<String>,
    /// Rule set: italian (the default) or scottish.
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<Rules>,
    /// Search to this depth (moves across turns; Linear Progression: turns);
    /// the default when no limit is given.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    pub depth: Option<u32>,
    /// Search this many milliseconds per position.
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<u64>,
    /// Search about this many nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Best turns to report per position, best first, each with a different
    /// first move (Progressive chess only).
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Search threads (at most the machine's hardware threads are run;
    /// Linear Progression uses one; 1 to 256).
    #[arg(long, default_value_t = 1, value_parser = |s: &str| crescendo::limits::parse_in::<usize>(s, crescendo::limits::THREADS))]
    pub threads: usize,
    /// Transposition table size in MiB, 1 to 1024 (cleared before each position).
    #[arg(long, default_value_t = 16, value_parser = |s: &str| crescendo::limits::parse_in::<usize>(s, crescendo::limits::HASH_MIB))]
    pub hash: usize,
    /// Print one JSON object per line.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub lp: LpArgs,
}

/// One position of the batch: its id (the EPD `id`, or the line number) and FEN.
struct Item {
    id: serde_json::Value,
    line: usize,
    fen: String,
}

/// One output record; the field order is the documented key order.
#[derive(Clone, Serialize)]
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
    /// The line's rank, best first (1 = the turn `go` would play); last,
    /// so that the keys before it keep their places for older scripts.
    multipv: usize,
}

impl Record {
    fn print(&self, json: bool) {
        if json {
            print_json(self);
            return;
        }
        let id = id_text(&self.id);
        if self.status != "ongoing" {
            println!("{id}: game over ({})", self.status);
            return;
        }
        // The first line keeps the old shape; the others say their rank.
        let rank = match self.multipv {
            1 => String::new(),
            k => format!(" multipv {k}"),
        };
        println!(
            "{id}:{rank} best {} ({}) score {}{} depth {} nodes {} ms {}",
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
    split_fields(&tokens, if numeric(6) { 7 } else { 6 })
}

/// Splits a line's tokens into the position (its first `fields` tokens)
/// and the `id` operation of the rest, if any.
fn split_fields(tokens: &[&str], fields: usize) -> (String, Option<String>) {
    let fields = fields.min(tokens.len());
    let fen = tokens[..fields].join(" ").trim_end_matches(';').to_string();
    let rest = tokens[fields..].join(" ");
    let id = rest.split(';').find_map(|op| {
        let op = op.trim();
        op.strip_prefix("id ")
            .map(|v| v.trim().trim_matches('"').to_string())
    });
    (fen, id)
}

/// Reads a batch file: blank lines and those `comment` says are comments
/// are skipped; `split` cuts a line into the position and its id.
fn read_batch(
    path: &str,
    comment: fn(&str) -> bool,
    split: fn(&str) -> (String, Option<String>),
) -> Result<Vec<Item>, String> {
    let text = crescendo::lines::read_text_file(path)?;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || comment(line) {
            continue;
        }
        let (fen, id) = split(line);
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

/// Runs `crescendo analyse`.
pub fn run(args: &AnalyseArgs) -> CliResult {
    if args.multipv == 0 || args.threads == 0 {
        return Err("--multipv and --threads must be at least 1".into());
    }
    if let Some(path) = &args.pgn {
        let Some(rules) = game_rules(args.variant, args.rules, &args.lp)? else {
            return Err(
                "--pgn reads Progressive chess games (not --variant linear-progression)".into(),
            );
        };
        if args.multipv != 1 {
            return Err("--pgn reports one best turn per turn (no --multipv)".into());
        }
        return super::analyse_pgn::run(args, path, rules);
    }
    if args.variant == Variant::LinearProgression {
        return linear::run(args);
    }
    match game_rules(args.variant, args.rules, &args.lp)? {
        Some(rules) => run_progressive(args, rules),
        None => linear::run(args),
    }
}

/// The positions to analyse and where they come from (for error messages).
fn batch(
    args: &AnalyseArgs,
    comment: fn(&str) -> bool,
    split: fn(&str) -> (String, Option<String>),
) -> Result<(Vec<Item>, String), String> {
    match (&args.fen, &args.file) {
        (Some(f), _) => Ok((
            vec![Item {
                id: serde_json::Value::from(1),
                line: 1,
                fen: f.clone(),
            }],
            "--fen".to_string(),
        )),
        (None, Some(path)) => Ok((read_batch(path, comment, split)?, path.clone())),
        (None, None) => Err("give --fen or --file".into()),
    }
}

/// Reads each position of the batch with `parse` and hands it to
/// `analyse`; a position that does not parse is reported (with `source`
/// and its line) and skipped. The exit status is an error if some
/// positions could not be read.
fn each_position<P, E: std::fmt::Display>(
    batch: &[Item],
    source: &str,
    parse: impl Fn(&str) -> Result<P, E>,
    mut analyse: impl FnMut(&Item, P),
) -> CliResult {
    let mut errors = 0;
    for item in batch {
        match parse(&item.fen) {
            Ok(pos) => analyse(item, pos),
            Err(e) => {
                eprintln!("crescendo: {source}:{}: {e}", item.line);
                errors += 1;
            }
        }
    }
    if errors > 0 {
        let total = batch.len();
        return Err(format!("{errors} of {total} position(s) could not be read"));
    }
    Ok(())
}

/// The depth limit: `--depth` (at least 1), or `default` when no limit is
/// given.
fn depth_limit(args: &AnalyseArgs, default: u32) -> Option<u32> {
    match (args.depth, args.movetime, args.nodes) {
        (Some(d), _, _) => Some(d.max(1)),
        (None, None, None) => Some(default),
        _ => None,
    }
}

fn run_progressive(args: &AnalyseArgs, rules: Rules) -> CliResult {
    let (batch, source) = batch(args, |line| line.starts_with('#'), split_epd)?;
    let limits = Limits {
        depth: depth_limit(args, DEFAULT_DEPTH),
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        multipv: args.multipv,
        threads: crescendo::search::usable_threads(args.threads),
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash.max(1));
    let stop = Arc::new(AtomicBool::new(false));
    let parse = |text: &str| fen::parse(text, rules);
    each_position(&batch, &source, parse, |item, pos| {
        for record in analyse(&mut searcher, &pos, item, &limits, &stop) {
            record.print(args.json);
        }
    })
}

/// The records of one position: one per MultiPV line, best first. The
/// first is the turn `go` plays at full strength: [`levels::play`] runs the
/// search and then the root safety net, which may replace the search's turn.
/// The other lines' turns are completed from their pv as the weaker levels
/// complete a second-best line.
fn analyse(
    searcher: &mut Searcher,
    pos: &Position,
    item: &Item,
    limits: &Limits,
    stop: &Arc<AtomicBool>,
) -> Vec<Record> {
    let started = Instant::now();
    // Undecided, the game is taken to go on (as the engine does).
    let mates =
        |p: &Position| crescendo::mate::mates_this_turn(p, crescendo::mate::QUIET_TEST_NODES);
    let status = status_with(pos, mates, Undecided::GameGoesOn);
    let mut record = Record {
        id: item.id.clone(),
        fen: item.fen.clone(),
        status: if status.is_over() {
            status.reason()
        } else {
            "ongoing"
        },
        multipv: 1,
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
        return vec![record];
    }
    searcher.clear(); // each position on its own: results do not depend on the order
    let result = crescendo::search::play(searcher, pos, limits, Style::default(), stop, |_| {});
    record.depth = result.depth;
    record.nodes = result.nodes;
    let mut records = Vec::new();
    for (k, line) in result.lines.iter().enumerate().skip(1) {
        let turn = searcher.complete_turn(pos, &line.pv, None, stop);
        let mut other = Record {
            multipv: k + 1,
            ..record.clone()
        };
        fill(&mut other, pos, &turn, line.score, &line.pv);
        records.push(other);
    }
    fill(&mut record, pos, &result.turn, result.score, &result.pv);
    records.insert(0, record);
    let ms = started.elapsed().as_millis() as u64;
    for r in &mut records {
        r.ms = ms;
    }
    records
}

/// A record's turn, score and pv.
fn fill(record: &mut Record, pos: &Position, turn: &[Move], score: Score, pv: &[Move]) {
    record.best = uci(turn);
    record.san = notation::san_line(pos, turn);
    record.score = score_text(score);
    record.mate_in_turn = crescendo::mate::is_mating_line(pos, turn);
    record.pv = uci(pv);
}

/// `analyse --variant linear-progression`: the same batch handling, the
/// Linear Progression search, and a record of its own (no SAN, no mate in
/// this turn; the proven result instead).
mod linear {
    use super::{
        AnalyseArgs, CliResult, Item, LP_DEFAULT_DEPTH, LP_FIELDS, batch, depth_limit,
        each_position, id_text, print_json, split_fields,
    };
    use crescendo::linear::{Color, Limits, Move, Position, Score, Searcher, Status};
    use serde::Serialize;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    /// One output record; the field order is the documented key order.
    #[derive(Serialize)]
    struct Record {
        id: serde_json::Value,
        fen: String,
        /// `ongoing`, or why the game is over (`board full`, `both passed`).
        status: &'static str,
        /// `1-0`, `0-1` or `1/2-1/2` once the game is over, else null.
        result: Option<&'static str>,
        /// The best move, as a list of one move like chess's best turn
        /// (empty once the game is over).
        best: Vec<String>,
        /// `cp N` (centi-squares) or `mate N` / `mate -N` (a proven win or
        /// loss in N own turns), as in `info`.
        score: String,
        /// The endgame solver proved the result exactly.
        solved: bool,
        /// The proven final square difference for the side to move (exact
        /// when `solved`), null for an estimate.
        margin: Option<i32>,
        depth: u32,
        nodes: u64,
        ms: u64,
        pv: Vec<String>,
        /// The full result text of a finished game, for the plain output.
        #[serde(skip)]
        over: Option<String>,
    }

    impl Record {
        fn print(&self, json: bool) {
            if json {
                print_json(self);
                return;
            }
            let id = id_text(&self.id);
            if let Some(over) = &self.over {
                println!("{id}: game over, {over}");
                return;
            }
            let proven = match (self.solved, self.margin) {
                (true, Some(m)) => Score::Proven(m)
                    .proven_text()
                    .map_or(String::new(), |t| format!(" (solved: {t})")),
                _ => String::new(),
            };
            println!(
                "{id}: best {} score {}{proven} depth {} nodes {} ms {}",
                self.best.join(","),
                self.score,
                self.depth,
                self.nodes,
                self.ms
            );
        }
    }

    /// A Linear Progression line: the six fields of the position, then EPD
    /// operations.
    pub(super) fn split_line(line: &str) -> (String, Option<String>) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        split_fields(&tokens, LP_FIELDS)
    }

    fn texts(moves: &[Move]) -> Vec<String> {
        moves.iter().map(Move::to_string).collect()
    }

    /// Runs the Linear Progression analysis. With neither `--fen` nor
    /// `--file`, the start position of the `--lp-*` flags is analysed;
    /// positions in the notation carry their own rules, so the flags may
    /// not come with them.
    pub(super) fn run(args: &AnalyseArgs) -> CliResult {
        if args.rules.is_some() {
            return Err("--rules is for --variant progressive".into());
        }
        if args.multipv > 1 {
            return Err("--multipv above 1 is for --variant progressive".into());
        }
        if args.threads > 1 {
            log::warn!("the Linear Progression search uses one thread: --threads is ignored");
        }
        let (batch, source) = if args.fen.is_none() && args.file.is_none() {
            let start = args.lp.position(None)?;
            let item = Item {
                id: serde_json::Value::from(1),
                line: 1,
                fen: start.to_string(),
            };
            (vec![item], "the start position".to_string())
        } else if args.lp.any() {
            return Err(
                "Linear Progression positions carry their own board and options: \
                 give no --lp-* flag with --fen or --file"
                    .into(),
            );
        } else {
            batch(args, crescendo::linear::is_comment_line, split_line)?
        };
        let limits = Limits {
            depth: depth_limit(args, LP_DEFAULT_DEPTH),
            nodes: args.nodes,
            movetime: args.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        let mut searcher = Searcher::new(args.hash.max(1));
        let stop = AtomicBool::new(false);
        each_position(&batch, &source, str::parse::<Position>, |item, pos| {
            analyse(&mut searcher, &pos, item, &limits, &stop).print(args.json);
        })
    }

    fn analyse(
        searcher: &mut Searcher,
        pos: &Position,
        item: &Item,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Record {
        let started = Instant::now();
        let mut record = Record {
            id: item.id.clone(),
            fen: item.fen.clone(),
            status: "ongoing",
            result: None,
            best: Vec::new(),
            score: String::new(),
            solved: false,
            margin: None,
            depth: 0,
            nodes: 0,
            ms: 0,
            pv: Vec::new(),
            over: None,
        };
        if let Status::Over(result) = pos.status() {
            record.status = match result.reason {
                crescendo::linear::EndReason::BoardFull => "board full",
                crescendo::linear::EndReason::BothPassed => "both passed",
            };
            record.result = Some(match result.winner {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            });
            record.over = Some(result.to_string());
            return record;
        }
        searcher.clear(); // each position on its own: results do not depend on the order
        let result = searcher.search(pos, limits, stop, &mut |_| {});
        record.best = texts(&result.best_move.into_iter().collect::<Vec<_>>());
        record.score = result.score.uci(result.pv.len());
        record.solved = result.solved;
        record.margin = match result.score {
            Score::Proven(m) => Some(m),
            Score::Eval(_) => None,
        };
        record.depth = result.depth;
        record.nodes = result.nodes;
        record.ms = started.elapsed().as_millis() as u64;
        record.pv = texts(&result.pv);
        record
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// EPD lines (six or seven FEN fields) and Linear Progression lines
    /// (six fields), each with an optional `id` operation.
    #[test]
    fn batch_lines_split_into_the_position_and_its_id() {
        type Split = fn(&str) -> (String, Option<String>);
        let (epd, lp): (Split, Split) = (split_epd, linear::split_line);
        let jg = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let start = "#6#/8/8/8/8/8/8/#6# w - 0 - -";
        for (split, line, position, id) in [
            (
                epd,
                format!("{jg} id \"back rank\"; bm a1a8;"),
                jg,
                Some("back rank"),
            ),
            (
                epd,
                "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 5 2".into(),
                "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 5 2",
                None,
            ),
            (epd, "too short".into(), "too short", None),
            (lp, format!("{start} id \"start\";"), start, Some("start")),
            (
                lp,
                "4/4/4/wwbb w - 2 - -".into(),
                "4/4/4/wwbb w - 2 - -",
                None,
            ),
        ] {
            let (got, got_id) = split(&line);
            assert_eq!((got.as_str(), got_id.as_deref()), (position, id), "{line}");
        }
    }
}
