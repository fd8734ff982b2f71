//! Reading text lines from a peer that may send anything: the protocol's
//! input (a GUI, a script, a fuzzer) and an engine's output in the match
//! runner.
//!
//! Lines are read as bytes, in the chunks of the underlying `BufRead`, and
//! decoded lossily, so a byte that is not UTF-8 never ends the stream. A
//! line longer than the cap is not buffered whole: its first bytes are kept
//! for the error message and the rest is skipped up to the next newline, so
//! memory stays bounded whatever the peer sends.

use std::io::{self, BufRead};

/// How many bytes of an over-long line are kept to quote it.
const HEAD_BYTES: usize = 200;

/// One line read, without its `\n` (or `\r\n`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line within the cap. `lossy` is true when it was not valid UTF-8
    /// (each bad sequence became U+FFFD).
    Text { text: String, lossy: bool },
    /// A line longer than the cap, dropped: its first bytes (lossily
    /// decoded) and its full length in bytes.
    TooLong { head: String, bytes: u64 },
}

/// Reads lines of at most `cap` bytes from `input`.
pub struct LineReader<R> {
    input: R,
    cap: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that drops lines longer than `cap` bytes.
    pub fn new(input: R, cap: usize) -> LineReader<R> {
        LineReader { input, cap }
    }

    /// The next line, `Ok(None)` at the end of input. A last line without
    /// a newline is returned as a line.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut line: Vec<u8> = Vec::new();
        let mut total: u64 = 0;
        let mut seen_any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(seen_any.then(|| self.finish(line, total)));
            }
            seen_any = true;
            let (part, used, ended) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            total += part.len() as u64;
            if total <= self.cap as u64 {
                line.extend_from_slice(part);
            } else {
                // Past the cap only the head is kept, for the message.
                line.truncate(HEAD_BYTES);
                let room = HEAD_BYTES.saturating_sub(line.len()).min(part.len());
                line.extend_from_slice(&part[..room]);
            }
            self.input.consume(used);
            if ended {
                return Ok(Some(self.finish(line, total)));
            }
        }
    }

    fn finish(&self, mut line: Vec<u8>, total: u64) -> Line {
        if total > self.cap as u64 {
            line.truncate(HEAD_BYTES);
            return Line::TooLong {
                head: String::from_utf8_lossy(&line).into_owned(),
                bytes: total,
            };
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        match String::from_utf8(line) {
            Ok(text) => Line::Text { text, lossy: false },
            Err(e) => Line::Text {
                text: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                lossy: true,
            },
        }
    }
}

/// Reads a text file whole. Bytes that are not UTF-8 are an error naming
/// the file, the line and the column, not just the file.
pub fn read_text_file(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        let line_start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        format!(
            "{path}: line {line}: byte 0x{:02x} at column {} is not UTF-8",
            bytes[at],
            at - line_start + 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn read_all(bytes: &[u8], cap: usize, chunk: usize) -> Vec<Line> {
        let mut reader = LineReader::new(BufReader::with_capacity(chunk, bytes), cap);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(line);
        }
        out
    }

    fn text(s: &str) -> Line {
        Line::Text {
            text: s.to_string(),
            lossy: false,
        }
    }

    #[test]
    fn a_file_with_a_bad_byte_names_the_line_and_column() {
        let path = std::env::temp_dir().join(format!("crescendo-lines-{}", std::process::id()));
        std::fs::write(&path, b"first\nsecond\nab\xffc\n").unwrap();
        let path = path.to_str().unwrap().to_string();
        let e = read_text_file(&path).unwrap_err();
        assert_eq!(
            e,
            format!("{path}: line 3: byte 0xff at column 3 is not UTF-8")
        );
        std::fs::write(&path, "ok\n").unwrap();
        assert_eq!(read_text_file(&path).unwrap(), "ok\n");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn lines_crlf_and_a_last_line_without_newline() {
        for chunk in [1, 3, 64] {
            let lines = read_all(b"uci\r\n\nisready\nquit", 100, chunk);
            assert_eq!(
                lines,
                vec![text("uci"), text(""), text("isready"), text("quit")]
            );
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_decoded_lossily() {
        let lines = read_all(b"info string caf\xe9\nbestmove e2e4\n", 100, 4);
        assert_eq!(
            lines[0],
            Line::Text {
                text: "info string caf\u{fffd}".to_string(),
                lossy: true
            }
        );
        assert_eq!(lines[1], text("bestmove e2e4"));
    }

    #[test]
    fn an_overlong_line_is_dropped_with_its_head_and_length() {
        let mut input = vec![b'x'; 10_000];
        input.extend_from_slice(b"\nisready\n");
        for chunk in [7, 512, 8192] {
            let lines = read_all(&input, 1000, chunk);
            assert_eq!(lines.len(), 2);
            let Line::TooLong { head, bytes } = &lines[0] else {
                panic!("{:?}", lines[0]);
            };
            assert_eq!(*bytes, 10_000);
            assert_eq!(head.len(), HEAD_BYTES);
            assert_eq!(lines[1], text("isready"));
        }
        // Exactly the cap is still a line.
        assert_eq!(
            read_all(&[b'y'; 1000], 1000, 64)[0],
            text(&"y".repeat(1000))
        );
    }
}
