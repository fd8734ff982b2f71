//! `crescendo match`: a match between two engines (see protocol.md,
//! "crescendo match"), and the hidden `crescendo random-engine`, a random
//! mover speaking the protocol (a baseline opponent and a test engine).

use super::{CliResult, LpArgs, Variant, game_rules, parse_rules};
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches};
use crescendo::arena::{
    EngineConfig, GameReport, MatchConfig, MatchGame, MatchOpening, MatchSummary, OpeningSource,
    Shard, Sprt, SprtState, TimeControl, read_linear_openings, read_openings, run_match,
};
use crescendo::chess::Rules;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    /// `match merge FILE...`: add up results files.
    #[command(subcommand)]
    pub command: Option<Box<super::merge::MatchCommand>>,
    #[command(flatten)]
    pub engine: EngineSpecs,
    /// Settings for both engines, in the same KEY=VALUE form (given first).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Games to play (each opening twice, colours swapped), 1 to 1000000.
    #[arg(long, default_value_t = 2, value_parser = |s: &str| crescendo::limits::parse_in::<u32>(s, crescendo::limits::GAMES))]
    pub games: u32,
    /// Games played at once, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = |s: &str| crescendo::limits::parse_in::<usize>(s, crescendo::limits::CONCURRENCY))]
    pub concurrency: usize,
    /// Clock per player: SECONDS[+INCREMENT], the increment added after each turn
    /// (--tc or --movetime is needed unless both engines have nodes=N or tc=).
    #[arg(long, conflicts_with = "movetime")]
    pub tc: Option<String>,
    /// Fixed time per turn, in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Milliseconds an answer may exceed the time before it forfeits.
    #[arg(long, default_value_t = 50)]
    pub timemargin: u64,
    /// The game: progressive (Progressive chess, the default) or
    /// linear-progression.
    #[arg(long, default_value_t = Variant::Progressive)]
    pub variant: Variant,
    /// Rule set: italian (the default) or scottish.
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<Rules>,
    #[command(flatten)]
    pub lp: LpArgs,
    /// Openings: one per line, a FEN (or Linear Progression position)
    /// [moves ...] or moves from the start position.
    #[arg(long, conflicts_with = "random_openings")]
    pub openings: Option<String>,
    /// Random legal first K turns as openings (seeded by --seed).
    #[arg(long, value_name = "K")]
    pub random_openings: Option<u32>,
    /// Append the games to this PGN file as they finish.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Seed of the random openings (default: from the clock; printed in the summary).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Stop when decided: elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=normalized|logistic].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// The PGN Event tag.
    #[arg(long, default_value = "Crescendo match")]
    pub event: String,
    /// Print the final summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Play only shard K of N (1 <= K <= N): the pairs p with p mod N = K-1.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Append each finished pair here as a JSON line; pairs already there are skipped.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Start no more games once this file exists.
    #[arg(long, value_name = "PATH")]
    pub stop_file: Option<PathBuf>,
}

/// The `--engine` occurrences, each a list of `KEY=VALUE` items. (clap's
/// derive cannot keep occurrences apart yet, so this one argument is built
/// by hand.)
#[derive(Clone, Debug, Default)]
pub struct EngineSpecs(pub Vec<Vec<String>>);

impl FromArgMatches for EngineSpecs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|o| o.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineSpecs(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineSpecs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineSpecs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(ArgAction::Append)
                .value_name("KEY=VALUE")
                .required(true)
                .help(
                    "An engine, given twice: cmd=PATH [name=NAME] [args=\"A B\"] [arg=A]... \
                     [dir=DIR] [nodes=N] [tc=SECONDS[+INCREMENT]] [option.NAME=VALUE]... The \
                     first engine's score is reported; nodes=N sends it `go nodes N` instead of \
                     the clock; tc= gives it its own clock instead of --tc or --movetime",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EngineSpecs::augment_args(cmd)
    }
}

/// Arguments of the hidden `random-engine` subcommand.
#[derive(Args, Debug)]
pub struct RandomEngineArgs {
    /// Seed of the move choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs the random mover on stdin/stdout.
pub fn run_random_engine(args: &RandomEngineArgs) -> CliResult {
    let stdin = std::io::stdin();
    crescendo::arena::run_random_engine(args.seed, stdin.lock(), std::io::stdout())
        .map_err(|e| format!("random-engine: {e}"))
}

/// Builds one engine's configuration from `KEY=VALUE` items.
fn engine_config(items: &[String], each: &[String]) -> Result<EngineConfig, String> {
    let mut config = EngineConfig::default();
    for item in each.iter().chain(items) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--engine: expected KEY=VALUE, got '{item}'"))?;
        match key {
            "cmd" => config.cmd = value.to_string(),
            "name" => config.name = value.to_string(),
            "args" => config
                .args
                .extend(value.split_whitespace().map(str::to_string)),
            "arg" => config.args.push(value.to_string()),
            "dir" => config.dir = Some(PathBuf::from(value)),
            "nodes" | "tc" => {} // limits of the runner's, see engine_nodes(), engine_tc()
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    // A later setting of the same option wins (--engine over --each).
                    config
                        .options
                        .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                    config.options.push((name.to_string(), value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "--engine: unknown key '{key}' (expected cmd, name, args, arg, dir, nodes, tc, option.NAME)"
                    ));
                }
            },
        }
    }
    if config.cmd.is_empty() {
        return Err("--engine: cmd=PATH is missing".into());
    }
    if config.name.is_empty() {
        config.name = std::path::Path::new(&config.cmd)
            .file_stem()
            .map_or_else(|| config.cmd.clone(), |s| s.to_string_lossy().into_owned());
    }
    Ok(config)
}

/// The last value of `key=` in one engine's items (`--engine` over
/// `--each`), read by `parse`.
fn engine_limit<T>(
    items: &[String],
    each: &[String],
    key: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Option<T>, String> {
    let prefix = format!("{key}=");
    let mut last = None;
    for value in each
        .iter()
        .chain(items)
        .filter_map(|item| item.strip_prefix(prefix.as_str()))
    {
        last = Some(parse(value)?);
    }
    Ok(last)
}

/// The `nodes=N` of one engine's items.
fn engine_nodes(items: &[String], each: &[String]) -> Result<Option<u64>, String> {
    engine_limit(items, each, "nodes", |value| match value.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "--engine: nodes must be a whole number above 0, got '{value}'"
        )),
    })
}

/// The `tc=SECONDS[+INCREMENT]` of one engine's items: its own clock
/// instead of `--tc` or `--movetime`.
fn engine_tc(items: &[String], each: &[String]) -> Result<Option<TimeControl>, String> {
    engine_limit(items, each, "tc", |value| {
        TimeControl::parse_clock(value).map_err(|_| {
            format!("--engine: tc must be SECONDS[+INCREMENT] with some time, got '{value}'")
        })
    })
}

fn config_from(args: &MatchArgs) -> Result<MatchConfig, String> {
    let [a, b] = args.engine.0.as_slice() else {
        return Err(format!(
            "give exactly two --engine (got {})",
            args.engine.0.len()
        ));
    };
    let mut engines = [engine_config(a, &args.each)?, engine_config(b, &args.each)?];
    if engines[0].name == engines[1].name {
        // Reports and PGN tags must tell the two apart.
        engines[0].name.push_str("-1");
        engines[1].name.push_str("-2");
    }
    let nodes = [engine_nodes(a, &args.each)?, engine_nodes(b, &args.each)?];
    let tc = [engine_tc(a, &args.each)?, engine_tc(b, &args.each)?];
    let own_limit = |i: usize| nodes[i].is_some() || tc[i].is_some();
    let time_control = match (&args.tc, args.movetime) {
        (Some(tc), _) => TimeControl::parse_clock(tc)?,
        (None, Some(0)) => return Err("--movetime must be above 0".into()),
        (None, Some(ms)) => TimeControl::MoveTime(Duration::from_millis(ms)),
        (None, None) if own_limit(0) && own_limit(1) => TimeControl::Untimed,
        (None, None) => {
            return Err("give --tc or --movetime (or nodes=N or tc= to both engines)".into());
        }
    };
    let variant = match args.variant {
        Variant::LinearProgression if args.rules.is_some() => {
            return Err("--rules is for --variant progressive".into());
        }
        Variant::LinearProgression => MatchGame::Linear(args.lp.options()?),
        _ => match game_rules(args.variant, args.rules, &args.lp)? {
            Some(rules) => MatchGame::Progressive(rules),
            None => MatchGame::Linear(args.lp.options()?),
        },
    };
    let openings = match (&args.openings, args.random_openings) {
        (Some(path), _) => OpeningSource::List(match &variant {
            MatchGame::Progressive(rules) => read_openings(path, *rules)?
                .into_iter()
                .map(MatchOpening::Progressive)
                .collect(),
            MatchGame::Linear(options) => read_linear_openings(path, options)?
                .into_iter()
                .map(MatchOpening::Linear)
                .collect(),
        }),
        (None, Some(0)) | (None, None) => OpeningSource::StartPosition,
        (None, Some(turns)) => OpeningSource::Random { turns },
    };
    let sprt = match &args.sprt {
        Some(items) => Some(items.join(" ").parse::<Sprt>()?),
        None => None,
    };
    if args.games == 0 {
        return Err("--games must be above 0".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be above 0".into());
    }
    if args.seed.is_none() && (args.shard.is_some() || args.results.is_some()) {
        // A seed from the clock would make every shard, every resumed
        // run, a match of its own.
        return Err("--shard and --results need --seed".into());
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    Ok(MatchConfig {
        engines,
        games: args.games,
        concurrency: args.concurrency,
        time_control,
        time_margin: Duration::from_millis(args.timemargin),
        variant,
        openings,
        seed,
        sprt,
        pgn: args.pgn.clone(),
        event: args.event.clone(),
        startup_timeout: Duration::from_secs(10),
        nodes,
        tc,
        shard: args.shard.unwrap_or(Shard::WHOLE),
        results: args.results.clone(),
        stop_file: args.stop_file.clone(),
    })
}

/// A number for people: two decimals, `-` when undefined, no `-0.00`.
fn num(x: f64) -> String {
    if x.is_nan() {
        "-".into()
    } else {
        format!("{:.2}", x + 0.0)
    }
}

fn elo_text(s: &MatchSummary) -> String {
    match s.elo {
        Some(e) if e.margin.is_finite() => format!("{:.1} +/- {:.1}", e.elo + 0.0, e.margin),
        Some(e) => format!("{:.1} +/- -", e.elo + 0.0), // no interval from this sample
        None => "-".to_string(),
    }
}

fn sprt_text(s: &SprtState) -> String {
    format!(
        "LLR {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
        s.llr, s.lower, s.upper, s.test.elo0, s.test.elo1
    )
}

/// The progress line printed after each game.
fn progress_line(report: &GameReport, s: &MatchSummary, total: u32) -> String {
    let r = &report.result;
    let white = &s.engines[report.white];
    let black = &s.engines[1 - report.white];
    let mut line = format!(
        "Game {}/{} {white} vs {black}: {} ({}) | {} {}-{}-{} ({:.1}%) | Elo {}",
        report.number,
        total,
        r.outcome.pgn(),
        r.termination.reason(),
        s.engines[0],
        s.tally.wins,
        s.tally.losses,
        s.tally.draws,
        100.0 * s.score,
        elo_text(s),
    );
    if let Some(sprt) = &s.sprt {
        line.push_str(" | ");
        line.push_str(&sprt_text(sprt));
    }
    if r.termination.is_fault() {
        line.push_str(&format!("\n  {}", r.detail));
    }
    line
}

/// The final report (of a match, a shard, or merged results files).
pub(super) fn print_summary(s: &MatchSummary) {
    let shard = s
        .shard
        .as_ref()
        .map_or_else(String::new, |k| format!(", shard {k}"));
    println!(
        "Results of {} vs {} ({}, {}, seed {}{shard}):",
        s.engines[0], s.engines[1], s.time_control, s.rules_text, s.seed
    );
    println!(
        "Games: {}, Wins: {}, Draws: {}, Losses: {}, Points: {:.1} ({:.2} %)",
        s.games,
        s.tally.wins,
        s.tally.draws,
        s.tally.losses,
        s.points,
        100.0 * s.score
    );
    match s.elo {
        Some(e) => println!(
            "Elo: {} +/- {}, nElo: {}, LOS: {:.2} % ({} model)",
            num(e.elo),
            num(e.margin),
            num(e.nelo),
            100.0 * s.los,
            if e.pentanomial {
                "pentanomial"
            } else {
                "trinomial"
            }
        ),
        None => println!("Elo: -, LOS: {:.2} %", 100.0 * s.los),
    }
    let p = s.tally.pentanomial;
    println!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}]",
        p[0], p[1], p[2], p[3], p[4]
    );
    if let Some(sprt) = &s.sprt {
        let verdict = sprt
            .result
            .map_or("continue".to_string(), |d| d.to_string());
        println!("{}: {verdict}", sprt_text(sprt));
    }
    if !s.terminations.is_empty() {
        let parts: Vec<String> = s
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        println!("Terminations: {}", parts.join(", "));
    }
    if s.unfinished > 0 {
        println!("Unfinished games: {}", s.unfinished);
    }
}

pub fn run(args: &MatchArgs) -> CliResult {
    if let Some(command) = &args.command {
        return super::merge::run(command);
    }
    let config = config_from(args)?;
    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let (stop, interrupted) = (stop.clone(), interrupted.clone());
        // A second Ctrl-C leaves at once, in case an engine will not stop.
        let handler = move || {
            if interrupted.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("crescendo: interrupted; finishing (Ctrl-C again to leave at once)");
            stop.store(true, Ordering::SeqCst);
        };
        // SIGTERM too (ctrlc's `termination` feature): a scheduler's
        // cancel or preemption is a clean stop, not a lost shard.
        if let Err(e) = ctrlc::set_handler(handler) {
            log::warn!("cannot catch Ctrl-C: {e}");
        }
    }
    let total = config.games;
    let summary = run_match(&config, &stop, |report, summary| {
        eprintln!("{}", progress_line(report, summary, total));
    })?;
    if args.json {
        let text = serde_json::to_string(&summary).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        print_summary(&summary);
    }
    if let Some(path) = config.stop_file.as_ref().filter(|p| p.exists()) {
        eprintln!(
            "crescendo: {} exists: no more games started",
            path.display()
        );
    }
    if let Some(e) = &summary.error {
        return Err(format!("the match stopped: {e}"));
    }
    if interrupted.load(Ordering::SeqCst) {
        return Err("the match was interrupted".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn engine_items() {
        let c = engine_config(
            &items("cmd=/bin/eng name=E args=-a_-b arg=x option.Hash=32 option.Threads=2"),
            &items("option.Threads=1 option.Move_Overhead=5"),
        )
        .unwrap();
        assert_eq!(c.cmd, "/bin/eng");
        assert_eq!(c.name, "E");
        assert_eq!(c.args, ["-a_-b", "x"]);
        assert_eq!(
            c.options,
            [
                ("Move_Overhead".to_string(), "5".to_string()),
                ("Hash".to_string(), "32".to_string()),
                ("Threads".to_string(), "2".to_string())
            ]
        );
        let c = engine_config(&items("cmd=/usr/bin/stockfish"), &[]).unwrap();
        assert_eq!(c.name, "stockfish");
        assert!(engine_config(&items("name=x"), &[]).is_err());
        assert!(engine_config(&items("cmd=x colour=red"), &[]).is_err());
        assert!(engine_config(&items("cmd"), &[]).is_err());
    }
}
