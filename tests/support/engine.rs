//! The one harness for driving the real `crescendo` binary over its pipes,
//! shared by the protocol test files (`#[path = "support/engine.rs"] mod
//! engine;`).

#![allow(dead_code)] // each test file uses part of it

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

/// How long any one line may take to arrive.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The tests take turns: latencies are measured without other engines
/// competing for the (possibly two) cores.
static SERIAL: Mutex<()> = Mutex::new(());

/// A running engine with its output lines arriving on a channel.
pub struct Engine {
    _turn: MutexGuard<'static, ()>,
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: thread::JoinHandle<String>,
}

impl Engine {
    /// The engine process, with no command sent.
    pub fn start() -> Engine {
        let turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let mut child = Command::new(env!("CARGO_BIN_EXE_crescendo"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Engine {
            _turn: turn,
            child,
            stdin,
            lines,
            stderr,
        }
    }

    /// The engine process, switched to `variant` (`UCI_Variant`).
    pub fn start_variant(variant: &str) -> Engine {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        assert!(e.sync().is_empty());
        e
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.write_all(b"\n").unwrap();
    }

    /// Bytes as they are, no newline added.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn next(&self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => line,
            Err(e) => panic!("no line from the engine: {e}"),
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Sends `line` and reads up to the first line starting with `prefix`:
    /// those lines, and how long they took from the send.
    pub fn timed(&mut self, line: &str, prefix: &str) -> (Vec<String>, std::time::Duration) {
        let started = std::time::Instant::now();
        self.send(line);
        let lines = self.until(prefix);
        (lines, started.elapsed())
    }

    /// The output between now and the `readyok` of an `isready` sent now.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// Drops the lines that have arrived (so that the pipe never fills).
    pub fn drain(&self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Every line that arrives within `wait` from now.
    pub fn lines_for(&self, wait: Duration) -> Vec<String> {
        let end = std::time::Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => seen.push(line),
                Err(_) => return seen,
            }
        }
    }

    /// Nothing arrives within `wait`.
    pub fn silent_for(&self, wait: Duration) -> bool {
        matches!(
            self.lines.recv_timeout(wait),
            Err(RecvTimeoutError::Timeout)
        )
    }

    /// The lines of `d`.
    pub fn display(&mut self) -> Vec<String> {
        self.send("d");
        let lines = self.until("Key:");
        assert!(self.sync().is_empty());
        lines
    }

    /// The value of the `d` line starting with `label`.
    pub fn shown(&mut self, label: &str) -> String {
        let lines = self.display();
        let line = lines
            .iter()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no {label} in {lines:?}"));
        line[label.len()..].trim().to_string()
    }

    /// The position as `d` prints it.
    pub fn fen(&mut self) -> String {
        self.shown("Fen:")
    }

    /// Sends `quit` and returns stderr once the process has exited.
    pub fn quit(mut self) -> String {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status:?}");
        self.stderr.join().unwrap()
    }

    /// The one error line that `line` must produce, and nothing else.
    pub fn expect_error(&mut self, line: &str, needle: &str) {
        self.send(line);
        let out = self.sync();
        assert_one_error(line, &out, needle);
    }

    /// [`Engine::expect_error`] while a search may report progress
    /// (`info depth` lines, not part of the answer).
    pub fn expect_error_during_search(&mut self, line: &str, needle: &str) {
        self.send(line);
        let out: Vec<String> = self
            .sync()
            .into_iter()
            .filter(|l| !l.starts_with("info depth "))
            .collect();
        assert_one_error(line, &out, needle);
    }
}

fn assert_one_error(line: &str, out: &[String], needle: &str) {
    assert_eq!(out.len(), 1, "{line}: {out:?}");
    assert!(
        out[0].starts_with("info string error: ") && out[0].contains(needle),
        "{line}: {out:?}"
    );
}

/// The turn token of the `bestmove` line that ends `lines`.
pub fn bestmove_of(lines: &[String]) -> String {
    let last = lines.last().unwrap();
    last.strip_prefix("bestmove ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("not a bestmove: {lines:?}"))
        .to_string()
}
