//! The engine process: a UCI-like line protocol on stdin/stdout (protocol.md).
//! Its one public face is [`run`] (and [`run_with`] for other streams); the
//! modules below are private.
//!
//! - [`command`] parses lines into commands, with clear errors;
//! - [`options`] holds the `setoption` values;
//! - [`engine`] keeps the state and answers each command;
//! - [`game`] is the interface to a game; [`progressive`] implements it for
//!   Progressive chess, and [`jobs`] holds what its search thread runs;
//!   [`linear`] implements it for Linear Progression (jobs included);
//! - [`ponder`] holds the flags of `go ponder` and `ponderhit`;
//! - [`searchmoves`] reads the moves of `go searchmoves`;
//! - [`query`] answers the GUI queries `legal` and `state`;
//! - [`output`] writes whole, flushed lines (and the debug log).

mod caller;
mod command;
mod engine;
mod game;
mod jobs;
mod linear;
mod options;
mod output;
mod ponder;
mod progressive;
mod query;
mod searchmoves;

use crate::lines::{Line, LineReader};
use engine::{Engine, Flow};
use output::Output;
use std::io::{BufRead, Write};

/// The longest input line read, in bytes (protocol.md, "Limits"): far above
/// any real `position` command (a game of 2 500 turns is under 16 MiB of
/// moves), small enough that no input can make the engine hold much memory.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// Runs the protocol on stdin/stdout until `quit` or the end of input. When
/// stdout is closed (the caller is gone) the process exits at once.
pub fn run() {
    let stdin = std::io::stdin();
    let engine = Engine::new(Output::stdout());
    run_engine(engine, stdin.lock());
}

/// Runs the protocol on any input and output (lines that are not valid
/// UTF-8 are read lossily, so they give an error line, not an end).
pub fn run_with(input: impl BufRead, output: Box<dyn Write + Send>) {
    run_engine(Engine::new(Output::new(output)), input);
}

fn run_engine(mut engine: Engine, input: impl BufRead) {
    let mut lines = LineReader::new(input, MAX_LINE_BYTES);
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                log::error!("reading input: {e}");
                break;
            }
        };
        let flow = match line {
            Line::Text { text, .. } => engine.handle_line(&text),
            Line::TooLong { head, bytes } => engine.reject_line(&format!(
                "input line of {bytes} bytes dropped: longer than {MAX_LINE_BYTES} bytes, the limit ('{head}...')"
            )),
        };
        if flow == Flow::Quit {
            return;
        }
    }
    // End of input: let a running search print its bestmove, then leave.
    engine.shutdown();
}

/// The entries of a `position ... moves` list written as one string.
#[cfg(test)]
fn entries(list: &str) -> Vec<String> {
    list.split_whitespace().map(String::from).collect()
}
