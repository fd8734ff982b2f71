//! A seeded fuzz run of the protocol: a few thousand lines of garbage, NUL
//! bytes, invalid UTF-8, CRLF endings, huge lines and random valid commands,
//! with searches started and stopped among them. The engine must never
//! panic, answer every `isready`, give exactly one `bestmove` per `go`,
//! answer `stop` within 50 ms, and `quit` cleanly at the end.

#[path = "support/engine.rs"]
mod engine;

use engine::Engine;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use std::time::{Duration, Instant};

/// Commands that are valid (or nearly so) and end by themselves.
const VALID: &[&str] = &[
    "uci",
    "isready",
    "d",
    "ucinewgame",
    "debug on",
    "position startpos",
    "position startpos moves e2e4",
    "position startpos moves e2e4 e7e5,d8h4",
    "position startpos moves e2e4 e7e5 d7d5 g1f3",
    "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3",
    "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 10001",
    "position startpos moves e2e5",
    "setoption name Hash value 8",
    "setoption name Hash value 0",
    "setoption name MultiPV value 2",
    "setoption name Skill Level value 3",
    "setoption name UCI_Variant value progressive-scottish",
    "setoption name UCI_Variant value progressive",
    "setoption name Nope value 1",
    "go depth 1",
    "go nodes 0",
    "go depth x",
    "go perft 0",
    "go mate nodes 1000",
    "go perft 1",
];

/// One line of noise.
fn garbage(rng: &mut StdRng) -> Vec<u8> {
    match rng.random_range(0..8) {
        0 => (0..rng.random_range(0..80)).map(|_| rng.random()).collect(),
        1 => b"go\0depth\0\x002".to_vec(),
        2 => b"isready\r".to_vec(),
        3 => vec![0xff; rng.random_range(1..2000)],
        4 => b"position startpos moves e2e4 \xc3\x28 e7e5".to_vec(),
        5 => format!(
            "setoption name Debug Log File value /nonexistent/{}",
            "y".repeat(50_000)
        )
        .into_bytes(),
        6 => "  \t ".as_bytes().to_vec(),
        _ => {
            let word = [
                "go",
                "position",
                "setoption",
                "stop",
                "\u{feff}uci",
                "ponderhit",
            ]
            .choose(rng)
            .unwrap();
            let tail: String = (0..rng.random_range(0..6))
                .map(|_| {
                    [
                        "depth",
                        "-1",
                        "99999999999999999999",
                        "moves",
                        "fen",
                        "name",
                    ]
                    .choose(rng)
                    .unwrap()
                    .to_string()
                })
                .collect::<Vec<_>>()
                .join(" ");
            format!("{word} {tail}").into_bytes()
        }
    }
}

/// `go infinite`, then `stop`: exactly one `bestmove`, within 50 ms.
fn stop_is_fast(e: &mut Engine) {
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(20));
    let sent = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    let took = sent.elapsed();
    assert!(took < Duration::from_millis(50), "stop took {took:?}");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
}

#[test]
fn seeded_fuzz_lines_never_break_the_engine() {
    let mut rng = StdRng::seed_from_u64(20);
    let mut e = Engine::start();
    let mut lines = 0;
    for round in 0..60 {
        for _ in 0..50 {
            let mut line = if rng.random_bool(0.5) {
                VALID.choose(&mut rng).unwrap().as_bytes().to_vec()
            } else {
                garbage(&mut rng)
            };
            if rng.random_bool(0.2) {
                line.push(b'\r');
            }
            e.send_bytes(&line);
            lines += 1;
        }
        if round % 20 == 0 {
            // A line over the 16 MiB cap, sent in pieces.
            let piece = vec![b'z'; 1 << 20];
            for _ in 0..17 {
                e.send_raw(&piece);
            }
            e.send_raw(b"\n");
            lines += 1;
        }
        // Every `go` above ends by itself; each gives one bestmove.
        let out = e.sync();
        assert!(out.iter().all(|l| !l.contains("panicked")), "{out:?}");
        if round % 10 == 0 {
            e.send("position startpos");
            stop_is_fast(&mut e);
        }
    }
    assert!(lines > 3000, "{lines}");
    let stderr = e.quit();
    assert!(!stderr.contains("panicked"), "{stderr}");
}
