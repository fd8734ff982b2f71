//! The engine process against hostile callers: over-long lines are dropped
//! without being held in memory, error lines stay short, and a caller that
//! goes away (closes our stdout) ends the engine at once.

#[path = "support/engine.rs"]
mod engine;

use engine::Engine;

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
