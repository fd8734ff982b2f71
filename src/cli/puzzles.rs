//! `crescendo puzzles`: generate, check, pick and rate "mate in this turn"
//! puzzles (the library is `crescendo::puzzles`).

use super::{CliResult, parse_rules};
use clap::{Args, Subcommand};
use crescendo::arena::Shard;
use crescendo::chess::Rules;
use crescendo::mate::MateTable;
use crescendo::puzzles::{self, Puzzle, Rating, Reject, Settings};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Generate puzzles from self-play games (JSON lines, appended; resumable).
    Generate(GenerateArgs),
    /// Verify every puzzle of a file: the solution mates, the count, the themes.
    Check(CheckArgs),
    /// One puzzle near a player's rating.
    Pick(PickArgs),
    /// The Glicko-2 update of player and puzzle after an attempt (JSON).
    Rate(RateArgs),
    /// Join puzzle files (shards, reruns) of one generation: one file, each id once.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Puzzle files, one per shard or run, in any order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the merged puzzles here (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// FILE should hold this many puzzles of the rule set (those already
    /// there count; with --hard, this many hard ones).
    #[arg(long)]
    pub count: usize,
    /// Rule set: italian or scottish.
    #[arg(long, default_value = "italian", value_parser = parse_rules)]
    pub rules: Rules,
    /// Seed of the games (the same seed gives the same puzzles).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The file to append to (default puzzles/RULES.jsonl).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The run is games 0..G of the seed (all shards together): stop after
    /// them even if fewer puzzles were found (a resumed run plays those
    /// not yet played).
    #[arg(long)]
    pub games: Option<u64>,
    /// Play only shard K of N (1 <= K <= N): the games g with g mod N = K-1,
    /// each as the unsharded run plays it (`puzzles merge` joins the files).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Hard puzzles only: the same games, at the turn starts where the
    /// 300 000-node scan gives up, a 2 048 000-node scan (the top of the
    /// rating scale). They join a file of the same run's ordinary puzzles.
    #[arg(long)]
    pub hard: bool,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// A .jsonl file of puzzles.
    pub file: PathBuf,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PickArgs {
    /// The player's rating.
    #[arg(long)]
    pub rating: f64,
    /// The player's rating deviation (widens the window).
    #[arg(long, default_value_t = 0.0)]
    pub deviation: f64,
    /// Only puzzles with this theme.
    #[arg(long)]
    pub theme: Option<String>,
    /// The puzzle file (default puzzles/italian.jsonl).
    #[arg(long)]
    pub file: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RateArgs {
    /// The player's rating, deviation and volatility: R,RD,VOL.
    #[arg(long)]
    pub player: String,
    /// The puzzle's id.
    #[arg(long)]
    pub puzzle: String,
    /// Whether the player solved it: true or false.
    #[arg(long)]
    pub solved: String,
    /// Puzzle files to look the id up in (default both shipped files).
    #[arg(long)]
    pub file: Vec<PathBuf>,
}

pub fn run(args: &PuzzlesArgs) -> CliResult {
    match &args.command {
        PuzzlesCommand::Generate(a) => generate(a),
        PuzzlesCommand::Check(a) => check(a),
        PuzzlesCommand::Pick(a) => pick(a),
        PuzzlesCommand::Rate(a) => rate(a),
        PuzzlesCommand::Merge(a) => merge(a),
    }
}

fn merge(a: &MergeArgs) -> CliResult {
    let merged = puzzles::merge(&a.files)?;
    let mut text = String::new();
    for p in &merged.puzzles {
        text.push_str(&p.to_line());
        text.push('\n');
    }
    let to = match &a.out {
        Some(path) => {
            std::fs::write(path, &text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            path.display().to_string()
        }
        None => {
            std::io::stdout()
                .write_all(text.as_bytes())
                .map_err(|e| format!("cannot write the output: {e}"))?;
            "standard output".into()
        }
    };
    eprintln!(
        "{} puzzles from {} files written to {to} ({} duplicate ids dropped)",
        merged.puzzles.len(),
        a.files.len(),
        merged.duplicates
    );
    Ok(())
}

/// A shipped file: relative to the working directory, else to the source tree.
fn shipped(name: &str) -> PathBuf {
    let here = PathBuf::from(name);
    if here.exists() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .stack_size(crescendo::search::STACK_BYTES)
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))
}

fn generate(a: &GenerateArgs) -> CliResult {
    if a.count == 0 {
        return Err("--count must be at least 1".into());
    }
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("puzzles/{}.jsonl", a.rules.name())));
    let existing = if out.exists() {
        puzzles::read_file(&out)?
    } else {
        Vec::new()
    };
    let settings = if a.hard {
        Settings::hard(a.rules)
    } else {
        Settings::of(a.rules)
    };
    if let Some((line, why)) = existing
        .iter()
        .find_map(|(l, p)| settings.conflict(&p.settings).map(|why| (l, why)))
    {
        return Err(format!(
            "{}:{line} is from another generation ({why}): give another --out file",
            out.display()
        ));
    }
    let shard = a.shard.unwrap_or(Shard::WHOLE);
    let mut ids: HashSet<String> = existing.iter().map(|(_, p)| p.id.clone()).collect();
    // The puzzles of this run's kind (ordinary, or hard) count and resume.
    let mine: Vec<&Puzzle> = existing
        .iter()
        .map(|(_, p)| p)
        .filter(|p| p.settings.hard.is_some() == a.hard)
        .collect();
    let have = mine.len();
    // Resume after this shard's last game of this seed already written.
    let mut next_game = shard.first_from(
        mine.iter()
            .filter(|p| p.game.seed == a.seed && shard.has(p.game.index))
            .map(|p| p.game.index + 1)
            .max()
            .unwrap_or(0),
    );
    if have >= a.count {
        eprintln!(
            "{} already holds {have} {}{} puzzles",
            out.display(),
            if a.hard { "hard " } else { "" },
            a.rules.name()
        );
        return Ok(());
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out)
        .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
    let wanted = a.count - have;
    let bar = indicatif::ProgressBar::new(wanted as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} puzzles, {per_sec}, ETA {eta} {msg}",
        )
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    let log_lines = !std::io::stderr().is_terminal();
    let pool = pool(a.threads)?;
    let batch = a.threads.max(1) * 2;
    let started = Instant::now();
    let (mut written, mut games, mut candidates, mut repeats) = (0usize, 0u64, 0u32, 0u32);
    let mut hard_scans = 0u32;
    let play = if a.hard {
        puzzles::hard_game
    } else {
        puzzles::game
    };
    let mut rejected: Vec<Reject> = Vec::new();
    let last_game = a.games.unwrap_or(u64::MAX);
    while written < wanted && next_game < last_game {
        let range: Vec<u64> = (next_game..last_game)
            .step_by(shard.step() as usize)
            .take(batch)
            .collect();
        next_game = range.last().map_or(last_game, |&g| g + shard.step());
        let yields: Vec<_> = pool.install(|| {
            range
                .into_par_iter()
                .map(|i| play(a.rules, a.seed, i))
                .collect()
        });
        let mut text = String::new();
        for y in yields {
            games += 1;
            candidates += y.candidates;
            hard_scans += y.hard_scans;
            rejected.extend(y.rejected);
            for p in y.puzzles {
                if written >= wanted {
                    break;
                }
                if ids.insert(p.id.clone()) {
                    text.push_str(&p.to_line());
                    text.push('\n');
                    written += 1;
                } else {
                    repeats += 1;
                }
            }
        }
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        let minutes = started.elapsed().as_secs_f64() / 60.0;
        let msg = format!(
            "({:.1}/min; {games} games, {}{candidates} candidates, {}, repeats {repeats})",
            written as f64 / minutes.max(1e-9),
            hard_text(a.hard, hard_scans),
            reject_counts(&rejected)
        );
        bar.set_position(written as u64);
        bar.set_message(msg.clone());
        if log_lines {
            eprintln!(
                "{written}/{wanted} puzzles {msg} {:.0}s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    bar.finish();
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    println!(
        "{written} {}puzzles appended to {} ({} now) from {games} games, {}{candidates} candidates \
         (rejected: {}, repeats of an id already kept {repeats}) in {:.1} min: \
         {:.2} puzzles/min on {} threads",
        if a.hard { "hard " } else { "" },
        out.display(),
        have + written,
        hard_text(a.hard, hard_scans),
        reject_counts(&rejected),
        minutes,
        written as f64 / minutes.max(1e-9),
        a.threads.max(1)
    );
    Ok(())
}

/// The hard scans run, for the progress line (nothing in an ordinary run).
fn hard_text(hard: bool, scans: u32) -> String {
    if hard {
        format!("{scans} hard scans, ")
    } else {
        String::new()
    }
}

/// The rejected candidates by reason.
fn reject_counts(rejected: &[Reject]) -> String {
    let count = |r: Reject| rejected.iter().filter(|&&x| x == r).count();
    format!(
        "crushing {}, trivial {}, several {}, unknown {}, no mate {}",
        count(Reject::Crushing),
        count(Reject::Trivial),
        count(Reject::Several),
        count(Reject::Unknown),
        count(Reject::NoMate)
    )
}

fn check(a: &CheckArgs) -> CliResult {
    let name = a.file.display().to_string();
    let records = puzzles::read_file(&a.file)?;
    let results: Vec<(usize, String, Result<(), String>)> = pool(rayon::current_num_threads())?
        .install(|| {
            records
                .par_iter()
                .map_init(
                    || MateTable::new(4),
                    |tt, (line, p)| (*line, p.id.clone(), puzzles::verify(p, tt)),
                )
                .collect()
        });
    let mut bad: Vec<(usize, String, String)> = Vec::new();
    let mut seen = HashSet::new();
    for (line, id, r) in results {
        if let Err(e) = r {
            bad.push((line, id.clone(), e));
        } else if !seen.insert(id.clone()) {
            bad.push((line, id.clone(), "duplicate id".into()));
        }
    }
    if a.json {
        let v = serde_json::json!({
            "file": name,
            "puzzles": records.len(),
            "good": records.len() - bad.len(),
            "bad": bad.iter().map(|(l, id, e)| serde_json::json!({"line": l, "id": id, "error": e}))
                .collect::<Vec<_>>(),
        });
        println!("{v}");
    } else {
        for (l, id, e) in &bad {
            println!("{name}:{l}: puzzle {id}: {e}");
        }
        println!(
            "{name}: {} puzzles, {} good, {} bad",
            records.len(),
            records.len() - bad.len(),
            bad.len()
        );
    }
    match bad.first() {
        None => Ok(()),
        Some((l, id, e)) => Err(format!("{name}:{l}: puzzle {id}: {e}")),
    }
}

fn pick(a: &PickArgs) -> CliResult {
    if !a.rating.is_finite() || !a.deviation.is_finite() || a.deviation < 0.0 {
        return Err("--rating and --deviation must be numbers (deviation >= 0)".into());
    }
    if let Some(t) = &a.theme
        && !puzzles::THEMES.contains(&t.as_str())
    {
        return Err(format!(
            "unknown theme '{t}' (expected one of {})",
            puzzles::THEMES.join(", ")
        ));
    }
    let file = a
        .file
        .clone()
        .unwrap_or_else(|| shipped("puzzles/italian.jsonl"));
    let all: Vec<Puzzle> = puzzles::read_file(&file)?
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    let choice = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    match puzzles::pick(&all, a.rating, a.deviation, a.theme.as_deref(), choice) {
        Some(p) => {
            println!("{}", p.puzzle.to_line());
            Ok(())
        }
        None => Err(format!("{}: no puzzle with that theme", file.display())),
    }
}

fn parse_player(text: &str) -> Result<Rating, String> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let bad = || format!("--player '{text}': expected R,RD,VOL (e.g. 1500,350,0.06)");
    if parts.len() != 3 {
        return Err(bad());
    }
    let nums: Vec<f64> = parts
        .iter()
        .map(|s| s.parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if !nums.iter().all(|x| x.is_finite()) || nums[1] <= 0.0 || nums[2] <= 0.0 {
        return Err(bad());
    }
    Ok(Rating {
        rating: nums[0],
        deviation: nums[1],
        volatility: nums[2],
    })
}

fn rate(a: &RateArgs) -> CliResult {
    let player = parse_player(&a.player)?;
    let solved = match a.solved.as_str() {
        "true" => true,
        "false" => false,
        other => return Err(format!("--solved '{other}' (expected true or false)")),
    };
    let files = if a.file.is_empty() {
        vec![
            shipped("puzzles/italian.jsonl"),
            shipped("puzzles/scottish.jsonl"),
        ]
    } else {
        a.file.clone()
    };
    let mut found = None;
    for f in files.iter().filter(|f| f.exists() || !a.file.is_empty()) {
        if let Some((_, p)) = puzzles::read_file(f)?
            .into_iter()
            .find(|(_, p)| p.id == a.puzzle)
        {
            found = Some(p);
            break;
        }
    }
    let Some(puzzle) = found else {
        return Err(format!("--puzzle '{}': no such puzzle", a.puzzle));
    };
    let (p, q) = puzzles::attempt(player, puzzle.glicko(), solved);
    let v = serde_json::json!({
        "player": p,
        "puzzle": {"id": puzzle.id, "rating": q.rating, "deviation": q.deviation, "volatility": q.volatility},
        "solved": solved,
    });
    println!("{v}");
    Ok(())
}
