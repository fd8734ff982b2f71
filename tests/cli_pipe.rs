//! A subcommand whose reader stops listening (`crescendo ... | head`) exits
//! quietly and successfully, as a tool killed by SIGPIPE would, instead of
//! panicking on its next line of output.

#[path = "support/cli.rs"]
mod cli;

use std::process::{Command, Stdio};

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = Command::new(cli::BIN)
        .args(["perft", "--turns", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("crescendo runs");
    // Close the read end before the count is printed: the first write fails.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("crescendo ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}
