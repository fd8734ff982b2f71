//! Running the `crescendo` binary as a command, for the test files that
//! drive its subcommands (`#[path = "support/cli.rs"] mod cli;`).

#![allow(dead_code)] // each test file uses part of it

use std::process::{Command, Output};

pub const BIN: &str = env!("CARGO_BIN_EXE_crescendo");

/// `crescendo ARGS`, run to its end.
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("crescendo runs")
}

/// `crescendo ARGS`, which must succeed.
pub fn succeeds(args: &[&str]) -> Output {
    let out = run(args);
    assert_success(&out);
    out
}

/// The command succeeded (else its stderr is shown).
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `crescendo ARGS`, which must fail with exit status 2 (bad input): its
/// stderr.
pub fn refused(args: &[&str]) -> String {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

/// The one JSON object a command printed on stdout.
pub fn json_of(out: &Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The JSON lines a command printed on stdout.
pub fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The pairs a match summary's pentanomial counts.
pub fn pentanomial_pairs(summary: &serde_json::Value) -> u64 {
    let counts = summary["pentanomial"].as_array().expect("a pentanomial");
    counts.iter().map(|v| v.as_u64().unwrap()).sum()
}

/// A fixture script's path (tests/fixtures/NAME).
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}
