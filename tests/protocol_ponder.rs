//! UCI conformance through the real binary: `go ponder` with `ponderhit`
//! and `stop`, the `ponder` part of `bestmove`, and `go searchmoves`
//! (protocol.md, "Pondering" and "go searchmoves").

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove_of};

use crescendo::chess::notation::parse_uci;
use crescendo::chess::{Position, Rules, fen, legal_moves};
use crescendo::mate::is_mating_line;
use std::thread;
use std::time::{Duration, Instant};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The position after `entries` (single moves or comma-joined turns).
fn after(start: &str, rules: Rules, entries: &str) -> Position {
    let mut pos = fen::parse(start, rules).unwrap();
    for m in entries.split([' ', ',']).filter(|m| !m.is_empty()) {
        let mv = parse_uci(&pos, m).unwrap_or_else(|e| panic!("{entries}: {m}: {e}"));
        pos.play(mv);
    }
    pos
}

/// Plays `token` (a comma-joined turn) on `pos`: it must be exactly the
/// rest of the turn, checked by the rules core.
fn play_turn(pos: &mut Position, token: &str) {
    let moves: Vec<&str> = token.split(',').collect();
    for (i, m) in moves.iter().enumerate() {
        let mv = parse_uci(pos, m).unwrap_or_else(|e| panic!("{token}: {m}: {e}"));
        assert!(legal_moves(pos).contains(mv), "{token}: {m}");
        let ended = pos.play(mv).turn_ended;
        let last = i + 1 == moves.len();
        assert!(
            ended == last || (last && legal_moves(pos).is_empty()),
            "{token}: not one whole turn"
        );
    }
}

/// The `ponder` turn of the `bestmove` line ending `lines`, if any.
fn ponder_of(lines: &[String]) -> Option<String> {
    let words: Vec<&str> = lines.last()?.split_whitespace().collect();
    match words.as_slice() {
        ["bestmove", _] => None,
        ["bestmove", _, "ponder", reply] => Some(reply.to_string()),
        _ => panic!("not a bestmove line: {lines:?}"),
    }
}

fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// The first move of the turn a `bestmove` line plays.
fn first_move(lines: &[String]) -> String {
    bestmove_of(lines).split(',').next().unwrap().to_string()
}

#[test]
fn the_ponder_option_is_announced_and_read() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Ponder type check default false"),
        "{lines:?}"
    );
    e.send("setoption name Ponder value true");
    assert!(e.sync().is_empty());
    e.expect_error(
        "setoption name Ponder value maybe",
        "Ponder needs true or false",
    );
    e.expect_error("ponderhit", "ponderhit: no 'go ponder' is running");
    e.quit();
}

#[test]
fn ponder_then_stop_answers_once_with_a_legal_turn_within_50ms() {
    let mut e = Engine::start();
    let moves = "e2e4 e7e5,d8h4";
    e.send(&format!("position startpos moves {moves}"));
    // With this clock the search would answer within 250 ms; pondering
    // does not count time, so nothing but progress comes before `stop`.
    e.send("go ponder wtime 1000 btime 1000");
    let pondering = e.lines_for(Duration::from_millis(700));
    assert_eq!(count_bestmoves(&pondering), 0, "{pondering:?}");
    assert!(pondering.iter().any(|l| l.starts_with("info depth")));
    let started = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    let took = started.elapsed();
    eprintln!("stop while pondering: {took:?}");
    assert!(took < Duration::from_millis(50), "{took:?}");
    play_turn(
        &mut after(START, Rules::Italian, moves),
        &bestmove_of(&lines),
    );
    // Exactly one bestmove: nothing more comes, not even after ponderhit.
    assert_eq!(count_bestmoves(&e.sync()), 0);
    e.expect_error("ponderhit", "no 'go ponder' is running");
    e.quit();
}

#[test]
fn quit_while_pondering_ends_the_process_within_50ms() {
    let mut e = Engine::start();
    e.send("position startpos moves e2e4 e7e5,d8h4");
    e.send("go ponder wtime 60000 btime 60000");
    assert!(e.next().starts_with("info"));
    thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    e.quit();
    let took = started.elapsed();
    eprintln!("quit while pondering: {took:?}");
    assert!(took < Duration::from_millis(50), "{took:?}");
}

#[test]
fn ponderhit_starts_the_clock_of_the_go_at_its_own_instant() {
    let mut e = Engine::start();
    let moves = "e2e4 e7e5,d8h4";
    e.send(&format!("position startpos moves {moves}"));
    // 2 s on the clock: a turn gets well under half a second of it.
    e.send("go ponder wtime 2000 btime 2000");
    let pondering = e.lines_for(Duration::from_millis(1000));
    assert_eq!(count_bestmoves(&pondering), 0, "{pondering:?}");
    let started = Instant::now();
    e.send("ponderhit");
    let lines = e.until("bestmove");
    let took = started.elapsed();
    eprintln!("bestmove {took:?} after ponderhit");
    // The budget counts from ponderhit (1 s of pondering is not taken off).
    assert!(took < Duration::from_millis(700), "{took:?}");
    assert!(took > Duration::from_millis(20), "{took:?}: no time used");
    play_turn(
        &mut after(START, Rules::Italian, moves),
        &bestmove_of(&lines),
    );
    assert_eq!(count_bestmoves(&e.sync()), 0);
    // A stop after the answer answers nothing: one bestmove per go.
    e.send("stop");
    assert_eq!(count_bestmoves(&e.sync()), 0);
    e.quit();
}

#[test]
fn bestmove_carries_a_legal_ponder_turn_that_the_gui_can_send_back() {
    let mut e = Engine::start();
    let mut with_reply = 0;
    for moves in ["", "e2e4", "e2e4 e7e5,d8h4", "d2d4 d7d5,c8f5"] {
        e.send(&format!("position startpos moves {moves}"));
        e.send("go depth 5");
        let lines = e.until("bestmove");
        let turn = bestmove_of(&lines);
        let mut pos = after(START, Rules::Italian, moves);
        play_turn(&mut pos, &turn);
        let Some(reply) = ponder_of(&lines) else {
            continue;
        };
        with_reply += 1;
        play_turn(&mut pos, &reply);
        // What a pondering GUI does next: our turn, the expected reply,
        // `go ponder`, and `ponderhit` when the opponent plays it.
        e.send(&format!("position startpos moves {moves} {turn} {reply}"));
        e.send("go ponder movetime 100");
        thread::sleep(Duration::from_millis(150));
        e.send("ponderhit");
        let next = e.until("bestmove");
        play_turn(&mut pos, &bestmove_of(&next));
        assert_eq!(count_bestmoves(&e.sync()), 0);
    }
    assert!(with_reply >= 2, "{with_reply} of 4 with a ponder turn");
    e.quit();
}

#[test]
fn the_safety_nets_mate_is_the_ponder_turn_and_searchmoves_bind_the_net() {
    // Only Kh1 is allowed, and after it Black mates on the back rank in
    // its two moves: the net may not escape to another first move, and
    // the mate it found is the reply we expect.
    let text = "r5k1/8/8/8/8/8/5PPP/6K1 w - - 0 1";
    let mut e = Engine::start();
    e.send(&format!("position fen {text}"));
    e.send("go depth 3 searchmoves g1h1");
    let lines = e.until("bestmove");
    assert_eq!(bestmove_of(&lines), "g1h1", "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string no safe turn")),
        "{lines:?}"
    );
    let reply = ponder_of(&lines).expect("the net's mate as the ponder turn");
    let mut pos = after(text, Rules::Italian, "g1h1");
    let reply_moves: Vec<_> = {
        let mut p = pos.clone();
        reply
            .split(',')
            .map(|m| {
                let mv = parse_uci(&p, m).unwrap();
                p.play(mv);
                mv
            })
            .collect()
    };
    assert!(is_mating_line(&pos, &reply_moves), "{reply}");
    play_turn(&mut pos, &reply);
    // Unrestricted, the net finds a turn that does not lose.
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_ne!(bestmove_of(&lines), "g1h1", "{lines:?}");
    e.quit();
}

#[test]
fn searchmoves_restricts_the_first_move_of_the_turn() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 4 searchmoves a2a3 h2h3");
    let lines = e.until("bestmove");
    assert!(["a2a3", "h2h3"].contains(&bestmove_of(&lines).as_str()));
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        let pv = l.split(" pv ").nth(1).unwrap();
        assert!(pv.starts_with("a2a3") || pv.starts_with("h2h3"), "{l}");
    }
    // A longer turn: only its first move is bound.
    let moves = "e2e4 e7e5,d8h4";
    e.send(&format!("position startpos moves {moves}"));
    e.send("go depth 3 searchmoves b2b3");
    let lines = e.until("bestmove");
    assert_eq!(first_move(&lines), "b2b3", "{lines:?}");
    play_turn(
        &mut after(START, Rules::Italian, moves),
        &bestmove_of(&lines),
    );
    // With MultiPV the lines are among the moves allowed, no more of them.
    e.send("setoption name MultiPV value 3");
    e.send("go depth 3 searchmoves a2a3 h2h3");
    let lines = e.until("bestmove");
    let multipv: Vec<&String> = lines.iter().filter(|l| l.contains(" multipv ")).collect();
    assert!(
        multipv.iter().all(|l| !l.contains(" multipv 3 ")),
        "{lines:?}"
    );
    assert!(["a2a3", "h2h3"].contains(&first_move(&lines).as_str()));
    e.send("setoption name MultiPV value 1");
    e.quit();
}

#[test]
fn searchmoves_bind_the_root_mate_check_under_both_rule_sets() {
    // Ra8# ends the turn after any first move but Rf1 (the f-pawn blocks
    // the file): Kh1 first still mates.
    let text = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 2";
    for (variant, rules) in [
        ("progressive", Rules::Italian),
        ("progressive-scottish", Rules::Scottish),
    ] {
        let mut e = Engine::start_variant(variant);
        e.send(&format!("position fen {text}"));
        e.send("go depth 3 searchmoves a1f1");
        let lines = e.until("bestmove");
        assert_eq!(first_move(&lines), "a1f1", "{variant}: {lines:?}");
        let mut pos = after(text, rules, "");
        play_turn(&mut pos, &bestmove_of(&lines));
        assert!(!crescendo::chess::status::is_mated(&pos), "{variant}");
        e.send("go depth 3 searchmoves a1f1 g1h1");
        let lines = e.until("bestmove");
        assert!(
            lines.iter().any(|l| l.contains("score mate 1")),
            "{lines:?}"
        );
        assert_eq!(first_move(&lines), "g1h1", "{variant}: {lines:?}");
        let mut pos = after(text, rules, "");
        play_turn(&mut pos, &bestmove_of(&lines));
        assert!(crescendo::chess::status::is_mated(&pos), "{variant}");
        // `go mate` keeps to them as well.
        e.send("go mate searchmoves a1f1");
        let lines = e.until("bestmove");
        assert_eq!(
            lines,
            [
                "info string no mate in this turn (proved)",
                "bestmove (none)"
            ]
        );
        e.quit();
    }
}

#[test]
fn searchmoves_bind_every_player_and_bad_moves_are_one_error_line() {
    let mut e = Engine::start();
    let moves = "e2e4 e7e5,d8h4";
    e.send(&format!("position startpos moves {moves}"));
    for setup in [
        "setoption name Baseline value random",
        "setoption name Baseline value greedy",
        "setoption name Baseline value none",
        "setoption name Level value Novice",
        "setoption name Level value Full",
    ] {
        e.send(setup);
        e.send("go depth 3 searchmoves c2c3 a2a4");
        let lines = e.until("bestmove");
        assert!(
            ["c2c3", "a2a4"].contains(&first_move(&lines).as_str()),
            "{setup}: {lines:?}"
        );
        play_turn(
            &mut after(START, Rules::Italian, moves),
            &bestmove_of(&lines),
        );
    }
    // Moves that do not read or are illegal: one error line naming them,
    // and the go answers with the rest.
    e.send("go depth 2 searchmoves e2e5 c2c3 zz");
    let lines = e.until("bestmove");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(
        errors[0].starts_with("info string error: go searchmoves: 'e2e5' (")
            && errors[0].contains("'zz' ("),
        "{errors:?}"
    );
    assert_eq!(first_move(&lines), "c2c3");
    // None left: said so, and every move is searched.
    e.send("go depth 2 searchmoves e2e5");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("every move is searched")),
        "{lines:?}"
    );
    play_turn(
        &mut after(START, Rules::Italian, moves),
        &bestmove_of(&lines),
    );
    e.expect_error("go searchmoves", "needs at least one move");
    e.expect_error("go ponder perft 2", "'ponder' goes with a search");
    e.quit();
}

#[test]
fn linear_progression_ponders_and_keeps_to_searchmoves() {
    use crescendo::linear;
    let mut e = Engine::start_variant("linear-progression");
    e.send("position startpos moves @d4");
    e.send("go depth 3 searchmoves @b2 @g7");
    let lines = e.until("bestmove");
    let mv = bestmove_of(&lines);
    assert!(mv == "@b2" || mv == "@g7", "{lines:?}");
    let mut pos = linear::Position::new(&linear::Options::default());
    for m in ["@d4", mv.as_str()] {
        let parsed = pos.parse_move(m).unwrap();
        pos.play(parsed);
    }
    if let Some(reply) = ponder_of(&lines) {
        pos.parse_move(&reply)
            .unwrap_or_else(|e| panic!("ponder {reply}: {e}"));
    }
    e.send("go depth 2 searchmoves zz9 @e5");
    let lines = e.until("bestmove");
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("go searchmoves: 'zz9' ("), "{errors:?}");
    assert_eq!(bestmove_of(&lines), "@e5");
    // Pondering: no answer until stop, then one.
    e.send("go ponder movetime 200");
    let pondering = e.lines_for(Duration::from_millis(500));
    assert_eq!(count_bestmoves(&pondering), 0, "{pondering:?}");
    let started = Instant::now();
    e.send("stop");
    e.until("bestmove");
    assert!(started.elapsed() < Duration::from_millis(50));
    assert_eq!(count_bestmoves(&e.sync()), 0);
    // ...or until ponderhit, then within the movetime from there.
    e.send("go ponder movetime 200");
    thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    e.send("ponderhit");
    e.until("bestmove");
    let took = started.elapsed();
    assert!(took < Duration::from_millis(400), "{took:?}");
    assert_eq!(count_bestmoves(&e.sync()), 0);
    e.quit();
}
