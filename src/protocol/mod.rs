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
//! - [`query`] answers the GUI queries `legal` and `state`;
//! - [`output`] writes whole, flushed lines (and the debug log).

mod command;
mod engine;
mod game;
mod jobs;
mod linear;
mod options;
mod output;
mod progressive;
mod query;

use engine::{Engine, Flow};
use output::Output;
use std::io::{BufRead, Write};

/// Runs the protocol on stdin/stdout until `quit` or the end of input.
pub fn run() {
    let stdin = std::io::stdin();
    run_with(stdin.lock(), Box::new(std::io::stdout()));
}

/// Runs the protocol on any input and output (lines that are not valid
/// UTF-8 are read lossily, so they give an error line, not an end).
pub fn run_with(mut input: impl BufRead, output: Box<dyn Write + Send>) {
    let mut engine = Engine::new(Output::new(output));
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                log::error!("reading input: {e}");
                break;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        if engine.handle_line(line.trim_end_matches(['\n', '\r'])) == Flow::Quit {
            return;
        }
    }
    // End of input: let a running search print its bestmove, then leave.
    engine.shutdown();
}
