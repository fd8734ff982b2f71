//! The `crescendo` binary: with no subcommand, the engine's line protocol on
//! stdin/stdout (see protocol.md); otherwise one of the script subcommands
//! (`cli/`, part of the binary only: the library is the engine, the
//! subcommands are one of its users).

mod cli;

use clap::{Args, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "crescendo",
    version,
    about = "Progressive chess and Linear Progression engine"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (progressive perft; Linear Progression with
    /// --variant linear-progression), or ordinary chess perft with --chess.
    Perft(cli::perft::PerftArgs),
    /// Mate in this turn: does the side to move mate with its remaining moves?
    Mate(cli::mate::MateArgs),
    /// The engine's speed figures: search signature and speed, perft, mate finder.
    Bench(cli::bench::BenchArgs),
    /// Search positions: best turn, score, mate in this turn, depth, nodes, time.
    Analyse(cli::analyse::AnalyseArgs),
    /// Validate a PGN file without searching: every move read, every result checked.
    Pgn(cli::pgn::PgnArgs),
    /// Play a match between two engines and report the score, Elo and SPRT.
    Match(cli::matches::MatchArgs),
    /// Serve the local web GUI: play, analyse and learn in the browser.
    Gui(cli::gui::GuiArgs),
    /// "Mate in this turn" puzzles: generate, check, pick, rate.
    Puzzles(cli::puzzles::PuzzlesArgs),
    /// A random mover speaking the protocol (a baseline and test opponent).
    #[command(hide = true)]
    RandomEngine(cli::matches::RandomEngineArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    quiet_on_closed_stdout();
    let cli = parse_command_line();
    // `mate` runs on the main thread and gives only long turns a thread
    // of their own (mate::on_finder_stack): scripts run it once per
    // position.
    if matches!(cli.command, Some(Command::Mate(_))) {
        return run(cli);
    }
    // The other subcommands search and count on this thread: the main
    // thread's 8 MiB stack is too small for the recursion over a long turn.
    let worker = std::thread::Builder::new()
        .name("main".into())
        .stack_size(crescendo::search::STACK_BYTES)
        .spawn(move || run(cli));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101), // the panic message is on stderr
        Err(e) => {
            eprintln!("crescendo: cannot start the main thread: {e}");
            ExitCode::from(2)
        }
    }
}

/// The command line. Clap builds the parser of every subcommand before it
/// reads an argument, about 0.1 ms of a 1.3 ms `crescendo mate` run on an
/// easy position, and scripts run `mate` once per position. So `mate` is
/// parsed by its own parser first; help, version and errors go through the
/// full parser, whose messages are the ones users see.
fn parse_command_line() -> Cli {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "mate") {
        let mate = cli::mate::MateArgs::augment_args(clap::Command::new("mate"));
        let parsed = clap::Command::new("crescendo")
            .subcommand(mate)
            .try_get_matches_from(&args)
            .ok()
            .and_then(|m| Cli::from_arg_matches(&m).ok());
        if let Some(cli) = parsed {
            return cli;
        }
    }
    Cli::parse()
}

/// `crescendo analyse ... | head` closes the pipe early. Rust ignores
/// SIGPIPE, so the next `println!` panics; the reader having stopped
/// listening is not an error of ours, so exit quietly as a tool killed by
/// SIGPIPE would, instead of printing a panic.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        None => {
            crescendo::protocol::run();
            Ok(())
        }
        Some(Command::Perft(args)) => cli::perft::run(&args),
        Some(Command::Mate(args)) => cli::mate::run(&args),
        Some(Command::Bench(args)) => cli::bench::run(&args),
        Some(Command::Analyse(args)) => cli::analyse::run(&args),
        Some(Command::Match(args)) => cli::matches::run(&args),
        Some(Command::Gui(args)) => cli::gui::run(&args),
        Some(Command::Pgn(args)) => cli::pgn::run(&args),
        Some(Command::Puzzles(args)) => cli::puzzles::run(&args),
        Some(Command::RandomEngine(args)) => cli::matches::run_random_engine(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("crescendo: {message}");
            ExitCode::from(2)
        }
    }
}
