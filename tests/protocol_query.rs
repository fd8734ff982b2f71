//! The GUI queries `legal` and `state` (protocol.md, "Queries for a GUI"),
//! driven through the real binary's pipes.

#[path = "support/engine.rs"]
mod engine;

use crescendo::chess::{Position, Rules, fen, legal_moves};
use engine::Engine;
use serde_json::Value;
use std::thread;
use std::time::{Duration, Instant};

/// Sends a query and parses its one-line JSON reply.
fn query(e: &mut Engine, keyword: &str) -> Value {
    e.send(keyword);
    let line = e.until(&format!("{keyword} ")).pop().unwrap();
    serde_json::from_str(&line[keyword.len() + 1..]).expect("one JSON object")
}

/// Sends a command; the lines it prints (up to the `readyok` of an `isready`).
fn sync(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.sync()
}

/// A new engine told `position`, with its answer to the query `keyword`.
fn ask_after(position: &str, keyword: &str) -> (Engine, Value) {
    let mut e = Engine::start();
    e.send(position);
    let v = query(&mut e, keyword);
    (e, v)
}

fn moves_of(v: &Value, key: &str) -> Vec<String> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[key].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn legal_lists_the_next_moves_of_the_turn_in_uci_and_san() {
    let (e, v) = ask_after("position startpos moves e2e4 e7e5 d8h4", "legal");
    let mut uci = moves_of(&v, "uci");
    let pos = fen::parse(
        "rnb1kbnr/pppp1ppp/8/4p3/4P2q/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 3",
        Rules::Italian,
    )
    .unwrap();
    let mut expected: Vec<String> = legal_moves(&pos).iter().map(|m| m.uci()).collect();
    uci.sort();
    expected.sort();
    assert_eq!(uci, expected);
    let san = moves_of(&v, "san");
    assert!(san.contains(&"Nf3".to_string()) && san.contains(&"Qh5".to_string()));
    e.quit();
}

#[test]
fn legal_leaves_out_an_early_italian_check_and_position_says_why() {
    let (mut e, v) = ask_after("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 3", "legal");
    assert!(!moves_of(&v, "uci").contains(&"a1a8".to_string()));
    let lines = sync(
        &mut e,
        "position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 3 moves a1a8",
    );
    assert_eq!(
        lines,
        vec![
            "info string error: position: entry 1 'a1a8': illegal move: it gives check with move 1 of 3 (Italian rules: only the last move of a turn may give check)"
        ]
    );
    // On the last move the same check is legal and listed, with its SAN.
    e.send("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 3 moves e1d2 d2e2");
    let v = query(&mut e, "legal");
    let check = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "a1a8")
        .cloned();
    assert_eq!(check.unwrap()["san"], "Ra8+");
    e.quit();
}

#[test]
fn legal_gives_each_promotion_piece() {
    let (e, v) = ask_after("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1", "legal");
    let mut promotions: Vec<String> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "a7")
        .map(|m| m["promotion"].as_str().unwrap().to_string())
        .collect();
    promotions.sort();
    assert_eq!(promotions, ["b", "n", "q", "r"].map(String::from).to_vec());
    e.quit();
}

#[test]
fn state_gives_the_turn_the_moves_and_the_last_turn() {
    let (e, s) = ask_after("position startpos moves e2e4 e7e5,d8h4 g2g3", "state");
    assert_eq!(s["variant"], "progressive");
    assert_eq!(s["rules"], "italian");
    assert_eq!(s["side"], "white");
    assert_eq!(s["turn_length"], 3);
    assert_eq!(s["moves_made"], 1);
    assert_eq!(s["moves_left"], 2);
    assert_eq!(s["status"], "ongoing");
    assert_eq!(s["over"], false);
    assert_eq!(s["result"], Value::Null);
    assert_eq!(s["current_turn"][0]["uci"], "g2g3");
    assert_eq!(s["last_turn"]["side"], "black");
    assert_eq!(s["last_turn"]["moves"][1]["san"], "Qh4");
    assert_eq!(s["turns"].as_array().unwrap().len(), 3);
    let mut pos = Position::startpos(Rules::Italian);
    for m in ["e2e4", "e7e5", "d8h4", "g2g3"] {
        let mv = crescendo::chess::notation::parse_uci(&pos, m).unwrap();
        pos.play(mv);
    }
    assert_eq!(s["fen"], fen::to_fen(&pos));
    assert_eq!(s["board"][4], "....P..q");
    assert!(
        s["pgn"]
            .as_str()
            .unwrap()
            .contains("1. e4 2. e5 Qh4 3. g3 *")
    );
    e.quit();
}

#[test]
fn state_reports_the_result_and_its_reason() {
    let mut e = Engine::start();
    for (fen, moves, status, result) in [
        (
            "3r4/8/8/3k1N2/Q7/8/8/3K4 w - - 0 1",
            "a4b5",
            "Italian mate",
            "1-0",
        ),
        (
            "7k/4K3/p5P1/8/P7/8/8/8 w - - 0 1",
            "e7f7",
            "stalemate",
            "1/2-1/2",
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 9 3",
            "a1a2 a2a3 a3a4",
            "ten quiet turns",
            "1/2-1/2",
        ),
    ] {
        e.send(&format!("position fen {fen} moves {moves}"));
        let s = query(&mut e, "state");
        assert_eq!(s["status"], status, "{fen}");
        assert_eq!(s["result"], result, "{fen}");
        assert_eq!(s["over"], true);
        let pgn = s["pgn"].as_str().unwrap();
        assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    }
    e.send("position startpos moves e2e4 e7e5 b8c6 d1h5 f1c4 h5f7");
    let s = query(&mut e, "state");
    assert_eq!(s["status"], "checkmate");
    assert_eq!(s["winner"], "white");
    assert_eq!(s["last_turn"]["moves"][2]["san"], "Qxf7#");
    e.quit();
}

#[test]
fn a_scottish_check_ends_the_turn_in_the_state() {
    let mut e = Engine::start();
    sync(
        &mut e,
        "setoption name UCI_Variant value progressive-scottish",
    );
    e.send("position fen 4k3/8/8/8/8/8/8/R3K3 w - - 0 3 moves a1a8");
    let s = query(&mut e, "state");
    assert_eq!(s["rules"], "scottish");
    assert_eq!(s["side"], "black");
    assert_eq!(s["turn_length"], 4);
    assert_eq!(s["in_check"], true);
    assert_eq!(s["last_turn"]["moves"].as_array().unwrap().len(), 1);
    e.quit();
}

#[test]
fn the_queries_describe_the_last_good_position() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4");
    let lines = sync(&mut e, "position startpos moves e2e4 e2e5");
    assert!(lines[0].starts_with("info string error: position: entry 2"));
    let s = query(&mut e, "state");
    assert_eq!(s["side"], "black");
    assert_eq!(s["turns"].as_array().unwrap().len(), 1);
    // ucinewgame and a change of game start afresh.
    sync(&mut e, "ucinewgame");
    assert_eq!(query(&mut e, "state")["turns"].as_array().unwrap().len(), 0);
    e.send("position startpos moves e2e4");
    sync(
        &mut e,
        "setoption name UCI_Variant value progressive-scottish",
    );
    let s = query(&mut e, "state");
    assert_eq!(s["rules"], "scottish");
    assert_eq!(s["turns"].as_array().unwrap().len(), 0);
    assert!(
        sync(&mut e, "legal now")[0].contains("'legal' takes no arguments"),
        "arguments are refused"
    );
    e.quit();
}

#[test]
fn the_queries_answer_at_once_while_a_search_runs() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5,d7d5");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    let start = Instant::now();
    let s = query(&mut e, "state");
    let v = query(&mut e, "legal");
    let took = start.elapsed();
    assert_eq!(s["turn_length"], 3);
    assert!(!moves_of(&v, "uci").is_empty());
    assert!(took < Duration::from_millis(500), "{took:?}");
    e.send("stop");
    assert!(e.until("bestmove").last().unwrap().starts_with("bestmove "));
    e.quit();
}

#[test]
fn linear_progression_queries_give_the_board_shape_and_move_text() {
    let mut e = Engine::start();
    sync(
        &mut e,
        "setoption name UCI_Variant value linear-progression",
    );
    sync(&mut e, "setoption name LP_Board value 6x4");
    sync(&mut e, "setoption name LP_Blockers value true");
    let v = query(&mut e, "legal");
    let drops = moves_of(&v, "move");
    assert!(drops.contains(&"@c2+a1".to_string()), "{drops:?}");
    assert!(v["moves"][0]["kind"] == "drop");
    e.send("position startpos moves @c2+a1 @d3+f4");
    let s = query(&mut e, "state");
    assert_eq!(s["variant"], "linear-progression");
    assert_eq!(
        s["board"],
        serde_json::json!(["#....#", "...b..", "..w...", "#....#"])
    );
    assert_eq!(s["lp"]["width"], 6);
    assert_eq!(s["lp"]["height"], 4);
    assert_eq!(s["lp"]["board"], "6x4");
    assert_eq!(s["lp"]["blocker_white"], "a1");
    assert_eq!(s["lp"]["blocker_black"], "f4");
    assert_eq!(s["lp"]["drop"], false);
    assert_eq!(s["side"], "white");
    assert_eq!(s["last_turn"]["moves"][0]["uci"], "@d3+f4");
    let v = query(&mut e, "legal");
    let slide = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "slide" && m["blocker_to"].is_string())
        .cloned()
        .unwrap();
    let text = slide["move"].as_str().unwrap();
    assert_eq!(
        text,
        format!(
            "{}{}+{}{}",
            slide["from"].as_str().unwrap(),
            slide["to"].as_str().unwrap(),
            slide["blocker_from"].as_str().unwrap(),
            slide["blocker_to"].as_str().unwrap()
        )
    );
    // A game to its end: the state gives the result and the counts.
    sync(&mut e, "setoption name LP_Blockers value false");
    sync(&mut e, "setoption name LP_Board value 4/4/4/4");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..40 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let s = query(&mut e, "state");
        if s["over"] == true {
            assert!(["board full", "both passed"].contains(&s["status"].as_str().unwrap()));
            assert!(["1-0", "0-1", "1/2-1/2"].contains(&s["result"].as_str().unwrap()));
            assert!(
                s["pgn"]
                    .as_str()
                    .unwrap()
                    .contains("[Variant \"Linear Progression\"]")
            );
            assert_eq!(query(&mut e, "legal")["moves"].as_array().unwrap().len(), 0);
            e.quit();
            return;
        }
        let v = query(&mut e, "legal");
        moves.push(moves_of(&v, "move")[0].clone());
    }
    panic!("a 4x4 game lasts at most 40 turns");
}
