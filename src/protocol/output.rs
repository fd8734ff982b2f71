//! The protocol's output stream, shared by the input loop and the search
//! thread: whole lines, flushed at once, optionally copied to a log file.

use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// A cloneable handle on the output.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Sink>>,
}

struct Sink {
    out: Box<dyn Write + Send>,
    log: Option<File>,
    /// The engine's own stdout: when it closes, the process exits.
    stdout: bool,
}

/// The most characters of an error message written: messages quote the
/// offending input, which may be huge (a 1 MB option value).
const MAX_ERROR_CHARS: usize = 300;

impl Output {
    /// Output to `out` (stdout in the engine, a buffer in tests).
    pub fn new(out: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(Sink {
                out,
                log: None,
                stdout: false,
            })),
        }
    }

    /// The process's stdout. A write that fails there (the caller closed
    /// the pipe: it is gone) ends the process at once, running search and
    /// all: no one is left to read the answer.
    pub fn stdout() -> Output {
        let out = Output::new(Box::new(std::io::stdout()));
        out.sink().stdout = true;
        out
    }

    /// Ends the process when this is stdout and its reader has gone (for
    /// the wait at the end of input, when nothing may be written for long).
    pub fn exit_if_caller_gone(&self) {
        if self.sink().stdout && super::caller::stdout_closed() {
            caller_gone();
        }
    }

    fn sink(&self) -> MutexGuard<'_, Sink> {
        // A panic elsewhere while holding the lock leaves the sink usable.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes one line and flushes. A failed write to stdout ends the
    /// process (see [`Output::stdout`]); other outputs ignore it.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink();
        let written = writeln!(sink.out, "{text}").and_then(|()| sink.out.flush());
        if written.is_err() && sink.stdout {
            caller_gone();
        }
        if let Some(log) = sink.log.as_mut() {
            let _ = writeln!(log, "<< {text}");
        }
    }

    /// The one line reporting bad input.
    pub fn error(&self, what: &str) {
        let what = if what.chars().count() > MAX_ERROR_CHARS {
            let head: String = what.chars().take(MAX_ERROR_CHARS).collect();
            format!("{head}... (message cut)")
        } else {
            what.to_string()
        };
        log::debug!("input error: {what}");
        self.line(&format!("info string error: {what}"));
    }

    /// Copies an input line to the log file, if one is open.
    pub fn log_input(&self, text: &str) {
        if let Some(log) = self.sink().log.as_mut() {
            let _ = writeln!(log, ">> {text}");
        }
    }

    /// Starts (or, with an empty path, stops) copying the traffic to a file.
    pub fn set_log_file(&self, path: &str) -> Result<(), String> {
        let log = if path.is_empty() {
            None
        } else {
            let file = File::options()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("setoption: cannot open Debug Log File '{path}': {e}"))?;
            Some(file)
        };
        self.sink().log = log;
        Ok(())
    }
}

/// The caller closed our stdout: leave now, whatever runs.
fn caller_gone() -> ! {
    log::info!("stdout is closed: the caller is gone; exiting");
    std::process::exit(0)
}
