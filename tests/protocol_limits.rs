//! The engine process against hostile callers: over-long lines are dropped
//! without being held in memory, error lines stay short, and a caller that
//! goes away (closes our stdout) ends the engine at once.

#[path = "support/engine.rs"]
mod engine;

use engine::Engine;
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// The peak resident memory of a process, in KiB (Linux).
fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn an_overlong_line_is_answered_with_one_error_and_not_held_in_memory() {
    let mut e = Engine::start();
    // 64 MiB of 0xFF: read whole and decoded, this took over 250 MB.
    let chunk = vec![0xffu8; 1 << 20];
    for _ in 0..64 {
        e.send_raw(&chunk);
    }
    e.send_raw(b"\n");
    let out = e.sync();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string error: input line of 67108864 bytes dropped"),
        "{}",
        &out[0][..out[0].len().min(200)]
    );
    assert!(
        out[0].chars().count() < 600,
        "{} chars",
        out[0].chars().count()
    );
    if let Some(kib) = peak_kib(e.child.id()) {
        assert!(kib < 100 * 1024, "peak {kib} KiB");
    }
    // The line after it is read as usual.
    e.send("position startpos moves e2e4");
    assert_eq!(
        e.shown("Turn:"),
        "Black to move, turn length 2, moves made 0, moves left 2"
    );
    e.quit();
}

#[test]
fn error_lines_quote_at_most_a_few_hundred_characters() {
    let mut e = Engine::start();
    let long = "x".repeat(1_000_000);
    for line in [
        format!("setoption name Debug Log File value /nonexistent/{long}"),
        format!("position fen {long} w - - 0 1"),
        format!("{long} go"),
    ] {
        e.send(&line);
        let out = e.sync();
        assert_eq!(out.len(), 1, "{}", &line[..60]);
        assert!(
            out[0].starts_with("info string error: "),
            "{}",
            &out[0][..100]
        );
        assert!(
            out[0].chars().count() <= 400,
            "{} chars",
            out[0].chars().count()
        );
    }
    e.quit();
}

/// The engine with its stdin and stdout piped (stderr dropped), sent
/// `commands`; its stdin, still open, apart.
fn spawn_with(commands: &[u8]) -> (Child, ChildStdin) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crescendo"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(commands).unwrap();
    (child, stdin)
}

/// Starts the engine, sends `commands`, closes both pipes and says how long
/// the process took to exit (None: still running after 5 s; then killed).
fn exit_after_the_caller_goes(commands: &str) -> Option<Duration> {
    let (mut child, mut stdin) = spawn_with(commands.as_bytes());
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300)); // the job is running
    drop(child.stdout.take());
    drop(stdin);
    let closed = Instant::now();
    while closed.elapsed() < Duration::from_secs(5) {
        if child.try_wait().unwrap().is_some() {
            return Some(closed.elapsed());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn the_engine_exits_when_its_caller_is_gone() {
    for commands in [
        "go depth 30\n",
        "go perft 6\n",
        "go infinite\n",
        "position startpos moves e2e4 e7e5,d7d5\ngo wtime 600000 btime 600000\n",
    ] {
        let took = exit_after_the_caller_goes(commands);
        assert!(
            took.is_some_and(|t| t < Duration::from_secs(1)),
            "{commands:?}: {took:?}"
        );
    }
}

#[test]
fn end_of_input_with_a_bounded_search_still_prints_the_answer() {
    let (child, stdin) = spawn_with(b"go depth 4\n");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines().last().unwrap_or("").starts_with("bestmove "),
        "{text}"
    );
}
