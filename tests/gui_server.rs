//! `crescendo gui` over plain TCP: the page, the Host and Origin checks, the
//! WebSocket relay to a child engine, refused commands, and the child's end
//! when the socket closes. (The browser tests are in tests/gui/.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crescendo"))
            .args(["gui", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("crescendo gui starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.trim().strip_prefix("Crescendo GUI: ").expect(&line);
        let port = url
            .trim_start_matches("http://127.0.0.1:")
            .trim_end_matches('/')
            .parse()
            .expect(url);
        Server { child, port }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s
    }

    /// One HTTP request; the status line and the body.
    fn get(&self, path: &str, headers: &[(&str, String)]) -> (String, String) {
        let mut s = self.connect();
        let mut req = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        s.write_all(req.as_bytes()).unwrap();
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        let status = text.lines().next().unwrap_or("").to_string();
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Opens the WebSocket with this Origin; the stream after a 101, or the status line.
    fn websocket(&self, origin: &str) -> Result<TcpStream, String> {
        let mut s = self.connect();
        let req = format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            self.host()
        );
        s.write_all(req.as_bytes()).unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8];
        while !head.ends_with(b"\r\n\r\n") {
            if s.read(&mut byte).unwrap_or(0) == 0 {
                break;
            }
            head.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&head).to_string();
        if head.starts_with("HTTP/1.1 101") {
            Ok(s)
        } else {
            Err(head.lines().next().unwrap_or("").to_string())
        }
    }

    /// The engine processes this server has started (Linux: /proc).
    fn children(&self) -> usize {
        let pid = self.child.id().to_string();
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return 0;
        };
        dir.filter_map(|e| e.ok())
            .filter_map(|e| std::fs::read_to_string(e.path().join("stat")).ok())
            .filter(|stat| {
                // pid (comm) state ppid ...: the comm may hold spaces.
                let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
                let fields: Vec<&str> = after.split_whitespace().collect();
                fields.get(1) == Some(&pid.as_str()) && fields.first() != Some(&"Z")
            })
            .count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A client frame: text, masked (as the protocol requires of clients).
fn send_text(s: &mut TcpStream, text: &str) {
    let mask = [0x12u8, 0x34, 0x56, 0x78];
    let data = text.as_bytes();
    let mut frame = vec![0x81u8];
    match data.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n < 65536 => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&mask);
    frame.extend(data.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    s.write_all(&frame).unwrap();
}

/// The next server frame: (opcode, payload); None when the stream ends.
fn read_frame(s: &mut TcpStream) -> Option<(u8, String)> {
    let mut head = [0u8; 2];
    s.read_exact(&mut head).ok()?;
    let mut len = u64::from(head[1] & 0x7f);
    if len == 126 {
        let mut b = [0u8; 2];
        s.read_exact(&mut b).ok()?;
        len = u64::from(u16::from_be_bytes(b));
    } else if len == 127 {
        let mut b = [0u8; 8];
        s.read_exact(&mut b).ok()?;
        len = u64::from_be_bytes(b);
    }
    let mut data = vec![0u8; len as usize];
    s.read_exact(&mut data).ok()?;
    Some((head[0] & 0x0f, String::from_utf8_lossy(&data).to_string()))
}

/// Text messages up to the first that starts with `prefix`.
fn until(s: &mut TcpStream, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    while let Some((op, text)) = read_frame(s) {
        if op != 1 {
            continue;
        }
        let done = text.starts_with(prefix);
        out.push(text);
        if done {
            return out;
        }
    }
    panic!("the stream ended before '{prefix}': {out:?}");
}

#[test]
fn the_page_is_served_from_the_binary_and_nothing_else() {
    let server = Server::start();
    let host = [("Host", server.host())];
    let (status, body) = server.get("/", &host);
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("<script src=\"/app.js\">"));
    assert!(server.get("/pieces/wN.svg", &host).0.contains("200"));
    for path in [
        "/../Cargo.toml",
        "/src/main.rs",
        "/etc/passwd",
        "/app.js/..",
    ] {
        assert!(server.get(path, &host).0.contains("404"), "{path}");
    }
    // A foreign host name (DNS rebinding) gets nothing.
    let (status, _) = server.get("/", &[("Host", format!("evil.example:{}", server.port))]);
    assert!(status.contains("403"), "{status}");
}

#[test]
fn only_the_page_itself_may_open_the_websocket() {
    let server = Server::start();
    for origin in [
        "http://evil.example".to_string(),
        format!("http://evil.example:{}", server.port),
        "null".to_string(),
        format!("https://127.0.0.1:{}", server.port),
    ] {
        let refused = server.websocket(&origin).unwrap_err();
        assert!(refused.contains("403"), "{origin}: {refused}");
    }
    assert!(
        server
            .websocket(&format!("http://{}", server.host()))
            .is_ok()
    );
}

#[test]
fn the_websocket_relays_protocol_lines_and_refuses_the_rest() {
    let server = Server::start();
    let mut ws = server
        .websocket(&format!("http://{}", server.host()))
        .unwrap();
    send_text(&mut ws, "uci");
    assert!(
        until(&mut ws, "uciok")
            .iter()
            .any(|l| l.starts_with("id name Crescendo"))
    );
    send_text(&mut ws, "position startpos moves e2e4\nstate");
    let state = until(&mut ws, "state ").pop().unwrap();
    assert!(state.contains("\"side\":\"black\""), "{state}");
    for (bad, why) in [
        (
            "setoption name Debug Log File value /tmp/crescendo-gui-test",
            "Debug Log File",
        ),
        ("quit", "'quit' is not available"),
        ("cat /etc/passwd", "'cat' is not available"),
    ] {
        send_text(&mut ws, bad);
        let reply = until(&mut ws, "info string error: gui: ").pop().unwrap();
        assert!(reply.contains(why), "{bad}: {reply}");
    }
    assert!(!std::path::Path::new("/tmp/crescendo-gui-test").exists());
    // An oversized message: refused by the server, the engine lives on.
    send_text(&mut ws, &"d ".repeat(40_000));
    let reply = until(&mut ws, "info string error: gui: ").pop().unwrap();
    assert!(reply.contains("too long"), "{reply}");
    send_text(&mut ws, "isready");
    assert_eq!(until(&mut ws, "readyok").pop().unwrap(), "readyok");
}

#[test]
fn each_tab_has_its_own_engine_which_ends_with_the_socket() {
    let server = Server::start();
    let origin = format!("http://{}", server.host());
    let mut a = server.websocket(&origin).unwrap();
    let mut b = server.websocket(&origin).unwrap();
    send_text(&mut a, "position startpos moves e2e4\nisready");
    until(&mut a, "readyok");
    send_text(&mut b, "state");
    let state = until(&mut b, "state ").pop().unwrap();
    assert!(
        state.contains("\"side\":\"white\""),
        "b has its own engine: {state}"
    );
    if std::path::Path::new("/proc/self/stat").exists() {
        assert_eq!(server.children(), 2);
        drop(a);
        drop(b);
        let start = Instant::now();
        while server.children() > 0 && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(server.children(), 0, "the engines end with their sockets");
    }
}
