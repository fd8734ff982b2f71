//! One browser tab's engine: a child `crescendo` process (this very
//! binary, with no arguments) whose protocol lines are relayed over the
//! tab's WebSocket. The page may send only protocol commands that cannot
//! reach the filesystem or the process; everything else is answered with
//! an error line and never reaches the engine.

use axum::extract::ws::{Message, WebSocket};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};

/// The largest message a page may send (a `position` command of a long
/// game is a few kilobytes).
pub const MAX_MESSAGE: usize = 64 * 1024;

/// At most this many lines per message.
const MAX_LINES: usize = 16;

/// How long a child gets to leave after `quit` before it is killed.
const QUIT_WAIT: Duration = Duration::from_millis(500);

/// The commands a page may send (protocol.md). `quit` is the server's (the
/// engine ends with the socket); `setoption name Debug Log File` would let
/// a page write files, so it is refused.
const ALLOWED: [&str; 12] = [
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "d",
    "legal",
    "state",
    "debug",
    "bench",
];

/// Checks a message from the page: the engine lines it holds, or why it
/// is refused (sent back as `info string error: gui: <why>`).
pub fn check_message(text: &str) -> Result<Vec<&str>, String> {
    if text.len() > MAX_MESSAGE {
        return Err(format!(
            "message too long ({} bytes, at most {MAX_MESSAGE})",
            text.len()
        ));
    }
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .collect();
    if lines.len() > MAX_LINES {
        return Err(format!(
            "too many lines in one message (at most {MAX_LINES})"
        ));
    }
    for line in &lines {
        if line.chars().any(|c| c.is_control() && c != '\t') {
            return Err("control characters in a line".to_string());
        }
        let head = line.split_whitespace().next().unwrap_or("");
        if !ALLOWED.contains(&head) {
            let shown: String = head.chars().take(40).collect();
            return Err(format!("command '{shown}' is not available from the page"));
        }
        if head == "setoption" && is_debug_log(line) {
            return Err("the Debug Log File option is not available from the page".to_string());
        }
    }
    Ok(lines)
}

/// Does a `setoption` line name `Debug Log File` (names are matched as
/// the engine matches them: without regard to case or spacing)?
fn is_debug_log(line: &str) -> bool {
    let words: Vec<String> = line
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    let name_end = words
        .iter()
        .position(|w| w == "value")
        .unwrap_or(words.len());
    let name: String = words
        .get(2..name_end)
        .map(|w| w.concat())
        .unwrap_or_default();
    name.contains("debuglog")
}

fn error_line(why: &str) -> Message {
    Message::Text(format!("info string error: gui: {why}").into())
}

fn spawn_engine() -> std::io::Result<Child> {
    let exe = std::env::current_exe()?;
    Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
}

/// Runs one tab: relays lines both ways until the socket or the engine
/// closes, then ends the engine.
pub async fn run(mut socket: WebSocket) {
    let mut child = match spawn_engine() {
        Ok(child) => child,
        Err(e) => {
            let _ = socket
                .send(error_line(&format!("cannot start the engine: {e}")))
                .await;
            return;
        }
    };
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return;
    };
    let mut engine_lines = BufReader::new(stdout).lines();
    loop {
        tokio::select! {
            line = engine_lines.next_line() => match line {
                Ok(Some(line)) => {
                    if socket.send(Message::Text(line.into())).await.is_err() {
                        break;
                    }
                }
                _ => {
                    let _ = socket.send(error_line("the engine has ended")).await;
                    break;
                }
            },
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => match check_message(text.as_str()) {
                    Ok(lines) => {
                        let mut bytes = String::new();
                        for line in lines {
                            bytes.push_str(line);
                            bytes.push('\n');
                        }
                        if stdin.write_all(bytes.as_bytes()).await.is_err() {
                            break;
                        }
                    }
                    Err(why) => {
                        if socket.send(error_line(&why)).await.is_err() {
                            break;
                        }
                    }
                },
                Some(Ok(Message::Binary(_))) => {
                    if socket.send(error_line("binary messages are not understood")).await.is_err() {
                        break;
                    }
                }
                Some(Ok(_)) => {} // ping, pong: handled by axum
                Some(Err(_)) | None => break,
            },
        }
    }
    // The tab is gone (or the engine): ask the engine to leave, then make sure.
    let _ = stdin.write_all(b"quit\n").await;
    drop(stdin);
    if tokio::time::timeout(QUIT_WAIT, child.wait()).await.is_err() {
        let _ = child.kill().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_lines_pass() {
        assert_eq!(
            check_message("position startpos moves e2e4\nlegal\r\nstate\n").unwrap(),
            vec!["position startpos moves e2e4", "legal", "state"]
        );
        assert!(check_message("setoption name Level value Novice").is_ok());
    }

    #[test]
    fn the_page_cannot_reach_files_or_the_process() {
        for bad in [
            "setoption name Debug Log File value /tmp/x",
            "setoption name debug  log file value /etc/passwd",
            "setoption name DEBUG LOG FILE",
            "quit",
            "rm -rf /",
            "uci\nquit",
        ] {
            assert!(check_message(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn oversized_and_odd_messages_are_refused() {
        assert!(check_message(&"d ".repeat(MAX_MESSAGE)).is_err());
        assert!(check_message(&"isready\n".repeat(MAX_LINES + 1)).is_err());
        assert!(check_message("go\u{0}depth 3").is_err());
        assert_eq!(check_message("\n\n").unwrap(), Vec::<&str>::new());
    }
}
