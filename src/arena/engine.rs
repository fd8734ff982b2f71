//! An engine process spoken to over the line protocol of protocol.md.
//!
//! The engine's stdout is read on a thread of its own and handed over line by
//! line through a channel, so that every wait has a deadline: an engine that
//! hangs costs at most its time, never the match. Its stderr is copied to the
//! log (`RUST_LOG=debug`). Engines are started in a process group of their
//! own so that Ctrl-C in the terminal reaches only the match runner, which
//! then stops them itself.

use crate::lines::{Line, LineReader};
use std::fmt;
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);
/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How to start an engine and what to tell it first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name in PGN tags and reports.
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory (the runner's when `None`).
    pub dir: Option<PathBuf>,
    /// `setoption name <N> value <V>` sent after the handshake, in order.
    pub options: Vec<(String, String)>,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(String),
    /// No expected answer before the deadline (`what` was awaited).
    Timeout(String),
    /// The engine's output ended: it exited or crashed (`status` as known).
    Exited(String),
    /// Writing to the engine failed (it has most likely died).
    Io(String),
    /// The runner was told to stop while waiting.
    Interrupted,
    /// The engine answered a configured option with `info string error:`.
    Rejected(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot start: {e}"),
            EngineError::Timeout(what) => write!(f, "no {what} in time"),
            EngineError::Exited(status) => write!(f, "the engine exited ({status})"),
            EngineError::Io(e) => write!(f, "cannot write to the engine: {e}"),
            EngineError::Interrupted => f.write_str("interrupted"),
            EngineError::Rejected(what) => write!(f, "rejected {what}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// An engine's answer to `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The token after `bestmove`: the rest of the turn as comma-joined UCI
    /// moves, or `(none)`; empty when the engine sent a bare `bestmove`.
    pub bestmove: String,
    /// The `score ...` of the last `info` line, as written (`cp 35`, `mate 1`).
    pub score: Option<String>,
    /// The `depth` of the last `info` line that had one.
    pub depth: Option<u32>,
    /// Wall time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// A running engine process.
pub struct EngineProcess {
    config: EngineConfig,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The `id name` the engine gave.
    id_name: Option<String>,
    /// The option names the engine announced in its `uci` answer.
    options: Vec<String>,
}

impl EngineProcess {
    /// Starts the engine and runs the `uci` ... `uciok` handshake, then sends
    /// the configured options and waits for `readyok`.
    pub fn start(config: &EngineConfig, timeout: Duration) -> Result<EngineProcess, EngineError> {
        let mut command = Command::new(&config.cmd);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.dir {
            // Checked first: a missing directory fails the spawn with the
            // same error as a missing program, which would blame the program.
            std::fs::read_dir(dir).map_err(|e| {
                EngineError::Spawn(format!("working directory {}: {e}", dir.display()))
            })?;
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", config.cmd)))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn("no pipes to the engine".into()));
        };
        let (tx, rx) = channel();
        let name = config.name.clone();
        std::thread::spawn(move || {
            read_engine_lines(stdout, |line| {
                log::trace!("{name} > {line}");
                tx.send(line).is_ok()
            });
        });
        let name = config.name.clone();
        // Drained to the end whatever it holds: an engine whose stderr pipe
        // filled up or closed would block or die on its next write.
        std::thread::spawn(move || {
            read_engine_lines(stderr, |line| {
                log::debug!("{name} (stderr): {line}");
                true
            });
        });
        let mut engine = EngineProcess {
            config: config.clone(),
            child,
            stdin,
            lines: rx,
            id_name: None,
            options: Vec::new(),
        };
        engine.handshake(timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("uci")?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, "uciok", None)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => break,
                Some("id") if words.next() == Some("name") => {
                    self.id_name = Some(words.collect::<Vec<_>>().join(" "));
                }
                Some("option") if words.next() == Some("name") => {
                    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
                    self.options.push(name.join(" "));
                }
                _ => {}
            }
        }
        // Each option is confirmed on its own: a match that silently ran
        // with the engine's default instead would measure the wrong thing.
        for (name, value) in self.config.options.clone() {
            if !self.has_option(&name) {
                log::warn!(
                    "engine {}: option '{name}' is not among those it announced",
                    self.config.name
                );
            }
            self.set_option(&name, &value)?;
            self.confirm(&format!("option {name}={value}"), timeout)?;
        }
        Ok(())
    }

    /// `isready`, then waits for `readyok`, failing if the engine said
    /// `info string error: ...` meanwhile (about `what` it was just told).
    pub fn confirm(&mut self, what: &str, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        let mut errors = Vec::new();
        loop {
            let line = self.next_line(deadline, "readyok", None)?;
            let line = line.trim();
            if line == "readyok" {
                break;
            }
            if let Some(e) = line.strip_prefix("info string error:") {
                errors.push(e.trim().to_string());
            }
        }
        if errors.is_empty() {
            return Ok(());
        }
        Err(EngineError::Rejected(format!(
            "{what}: {}",
            errors.join("; ")
        )))
    }

    /// The configured name.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The `id name` the engine announced.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Did the engine announce an option of this name (case-insensitive)?
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.config.name);
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.io_error(e))
    }

    fn io_error(&mut self, e: std::io::Error) -> EngineError {
        // A broken pipe means the engine is gone: say how it ended if we can.
        match self.exit_status(Duration::from_millis(100)) {
            Some(status) => EngineError::Exited(status),
            None => EngineError::Io(e.to_string()),
        }
    }

    /// `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready`, then waits for `readyok`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        while self.next_line(deadline, "readyok", None)?.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame`, then `isready` ... `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.is_ready(timeout)
    }

    /// Sends `position` and `go` lines and reads `info` lines up to
    /// `bestmove`, giving up at `deadline` or when `stop` is set.
    pub fn go(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<Reply, EngineError> {
        self.send(position)?;
        let started = Instant::now();
        self.send(go)?;
        let mut reply = Reply::default();
        loop {
            let line = self.next_line(deadline, "bestmove", Some(stop))?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    reply.elapsed = started.elapsed();
                    reply.bestmove = words.next().unwrap_or("").to_string();
                    return Ok(reply);
                }
                Some("info") => read_info(&line, &mut reply),
                _ => {}
            }
        }
    }

    /// After a late or abandoned `go`: `stop`, and wait briefly for its
    /// `bestmove` so the engine is in a known state. False if it stays silent.
    pub fn stop_search(&mut self, timeout: Duration) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_line(deadline, "bestmove", None) {
                Ok(line) if line.starts_with("bestmove") => return true,
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }

    /// The next line, waiting at most until `deadline`; polls `stop` if given.
    fn next_line(
        &mut self,
        deadline: Instant,
        what: &str,
        stop: Option<&AtomicBool>,
    ) -> Result<String, EngineError> {
        loop {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(EngineError::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout(what.to_string()));
            }
            let wait = (deadline - now).min(if stop.is_some() { POLL } else { deadline - now });
            match self.lines.recv_timeout(wait) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .exit_status(Duration::from_millis(200))
                        .unwrap_or_else(|| "closed its output".to_string());
                    return Err(EngineError::Exited(status));
                }
            }
        }
    }

    /// The exit status, waiting up to `wait` for the process to end.
    fn exit_status(&mut self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status.to_string()),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return None,
            }
        }
    }

    /// Tells the engine `quit`, waits a little, kills it if it is still
    /// there, and reaps it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        if self.exit_status(QUIT_GRACE).is_none() {
            log::debug!("{}: no exit after quit; killing it", self.config.name);
        }
        // Drop kills (if needed) and reaps.
    }

    /// Kills the engine at once (it hung or broke the protocol) and reaps it.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The longest engine output line read; a longer one is logged and dropped
/// (no protocol line comes near it).
const MAX_ENGINE_LINE: usize = 1 << 20;

/// Reads an engine's output to its end, handing each line to `on_line`
/// until it returns false. Bytes that are not UTF-8 are decoded lossily and
/// logged, and over-long lines are dropped: neither is a reason to stop
/// reading (which would close the pipe and kill the engine on its next write).
fn read_engine_lines(stream: impl std::io::Read, mut on_line: impl FnMut(String) -> bool) {
    let mut reader = LineReader::new(BufReader::new(stream), MAX_ENGINE_LINE);
    while let Ok(Some(line)) = reader.next_line() {
        let text = match line {
            Line::Text { text, lossy } => {
                if lossy {
                    log::warn!("engine output that is not UTF-8, read lossily: {text}");
                }
                text
            }
            Line::TooLong { head, bytes } => {
                log::warn!("engine output line of {bytes} bytes dropped: {head}...");
                continue;
            }
        };
        if !on_line(text) {
            break;
        }
    }
}

/// Keeps the score and depth of an `info` line.
fn read_info(line: &str, reply: &mut Reply) {
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        match *w {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|d| d.parse().ok()) {
                    reply.depth = Some(d);
                }
            }
            "score" => {
                if let (Some(kind), Some(value)) = (words.get(i + 1), words.get(i + 2))
                    && matches!(*kind, "cp" | "mate")
                    && value.parse::<i64>().is_ok()
                {
                    reply.score = Some(format!("{kind} {value}"));
                }
            }
            "pv" | "string" => break, // the rest is moves or free text
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_that_is_not_utf8_is_read_on_to_the_end() {
        let bytes: &[u8] = b"info string caf\xe9 au lait\n\xff\xfe\nbestmove e2e4\n";
        let mut lines = Vec::new();
        read_engine_lines(bytes, |line| {
            lines.push(line);
            true
        });
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[0], "info string caf\u{fffd} au lait");
        assert_eq!(lines[2], "bestmove e2e4");
    }

    #[test]
    fn info_lines_give_score_and_depth() {
        let mut r = Reply::default();
        read_info(
            "info depth 7 seldepth 9 score cp -35 nodes 100 pv e2e4 e7e5",
            &mut r,
        );
        assert_eq!(r.depth, Some(7));
        assert_eq!(r.score.as_deref(), Some("cp -35"));
        read_info("info string depth 99 score mate 1", &mut r);
        assert_eq!(r.depth, Some(7));
        read_info("info depth 1 score mate 1 pv a1a2", &mut r);
        assert_eq!(r.score.as_deref(), Some("mate 1"));
    }
}
