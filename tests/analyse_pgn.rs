//! `crescendo analyse --pgn` and `crescendo pgn --check` on files of real
//! games (tests/data/): the missed mates and the turns that allow a mate are
//! exactly those recorded in tests/data/analyse_games.expected, every line
//! reported is checked by the rules core, the keys come in the documented
//! order, and unreadable games and contradicted results are reported.

use crescendo::chess::pgn::{Game, read_games};
use crescendo::chess::status::brute_force_mate;
use crescendo::chess::{Move, Position, Rules, legal_moves};
use crescendo::mate::{Budget, MateTable, Verdict, find_mate, is_mating_line};
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_crescendo");
const GAMES: &str = "tests/data/analyse_games.pgn";

/// The keys every turn object starts with, in this order.
const TURN_KEYS: [&str; 10] = [
    "game",
    "turn",
    "side",
    "played",
    "missed_mate",
    "allows_mate",
    "safe_turn",
    "best",
    "score_before",
    "score_after",
];

fn run(args: &[&str]) -> (Vec<Value>, String, bool) {
    let out = Command::new(BIN).args(args).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let objects = stdout
        .lines()
        .map(|l| {
            let value: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            if value.get("turn").is_some() {
                assert_eq!(key_order(l)[..10], TURN_KEYS, "{l}");
            }
            value
        })
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    (objects, stderr, out.status.success())
}

/// The top-level keys of a JSON object line in the order written (the
/// values hold no objects with these keys' names before them).
fn key_order(line: &str) -> Vec<&'static str> {
    let mut found: Vec<(usize, &'static str)> = TURN_KEYS
        .iter()
        .filter_map(|k| line.find(&format!("\"{k}\":")).map(|i| (i, *k)))
        .collect();
    found.sort();
    found.into_iter().map(|(_, k)| k).collect()
}

/// A JSON array of UCI moves played from `pos`, checked legal one by one.
fn moves(pos: &Position, value: &Value) -> Vec<Move> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for text in value.as_array().expect("an array of moves") {
        let text = text.as_str().unwrap();
        let mv = *legal_moves(&p)
            .iter()
            .find(|m| m.uci() == text)
            .unwrap_or_else(|| panic!("{text} is not legal here"));
        p.play(mv);
        out.push(mv);
    }
    out
}

fn after(pos: &Position, turn: &[Move]) -> Position {
    let mut p = pos.clone();
    for &mv in turn {
        p.play(mv);
    }
    p
}

/// Does the side to move mate in this turn? The reference search for short
/// turns, the mate finder (which must decide) for longer ones.
fn has_mate(pos: &Position) -> bool {
    if pos.turn_length() - pos.moves_made() <= 4 {
        return brute_force_mate(pos).is_some();
    }
    let budget = Budget::nodes(200_000_000);
    match find_mate(pos, &budget, &MateTable::new(16)).verdict {
        Verdict::Mate(_) => true,
        Verdict::NoMate => false,
        Verdict::Unknown => panic!("undecided: {}", crescendo::chess::fen::to_fen(pos)),
    }
}

/// `1 5,6 4,5,6 -` -> (game, missed, blunders, lost).
type Expected = (usize, BTreeSet<u32>, BTreeSet<u32>, BTreeSet<u32>);

fn expected() -> Vec<Expected> {
    let text = std::fs::read_to_string("tests/data/analyse_games.expected").unwrap();
    let set = |s: &str| -> BTreeSet<u32> {
        s.split(',')
            .filter(|t| *t != "-")
            .map(|t| t.parse().unwrap())
            .collect()
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].parse().unwrap(), set(f[1]), set(f[2]), set(f[3]))
        })
        .collect()
}

#[test]
fn analyse_pgn_reports_exactly_the_known_missed_mates_and_blunders() {
    let text = std::fs::read_to_string(GAMES).unwrap();
    let games: Vec<Game> = read_games(&text, Rules::Italian);
    let expected = expected();
    assert!(games.len() >= 10 && games.len() == expected.len());
    // The search budget changes only `best` and the scores: the mate facts
    // come from the mate finder's own fixed budget.
    let (objects, stderr, ok) = run(&["analyse", "--pgn", GAMES, "--json", "--movetime", "20"]);
    assert!(ok, "{stderr}");
    for (number, missed, blunders, lost) in expected {
        let game = &games[number - 1];
        assert!(game.error.is_none());
        let turns: Vec<&Value> = objects
            .iter()
            .filter(|o| o["game"] == number && o.get("turn").is_some())
            .collect();
        let game_turns = game.turns();
        assert_eq!(turns.len(), game_turns.len(), "game {number}");
        let mut seen_missed = BTreeSet::new();
        let mut seen_blunders = BTreeSet::new();
        let mut seen_lost = BTreeSet::new();
        for (o, (before, played)) in turns.iter().zip(&game_turns) {
            let turn = o["turn"].as_u64().unwrap() as u32;
            assert_eq!(turn, before.turn_length());
            assert_eq!(
                moves(before, &o["played"]),
                *played,
                "game {number} turn {turn}"
            );
            let mates = is_mating_line(before, played);
            let end = after(before, played);
            // Missed mate: a mate existed, none was played; the line mates.
            if o["missed_mate"].is_null() {
                assert!(
                    mates || !has_mate(before),
                    "game {number} turn {turn}: a mate was missed"
                );
            } else {
                assert!(!mates);
                let line = moves(before, &o["missed_mate"]);
                assert!(is_mating_line(before, &line), "game {number} turn {turn}");
                assert_eq!(o["score_before"]["mate"], 1);
                seen_missed.insert(turn);
            }
            // Allows mate: the opponent's line mates after the played turn.
            let complete = end.moves_made() == 0 && end.side_to_move() != before.side_to_move();
            if o["allows_mate"].is_null() {
                let over = legal_moves(&end).is_empty();
                assert!(
                    mates || !complete || over || !has_mate(&end),
                    "game {number} turn {turn}: an allowed mate was not reported"
                );
            } else {
                let line = moves(&end, &o["allows_mate"]);
                assert!(is_mating_line(&end, &line), "game {number} turn {turn}");
                assert_eq!(o["score_after"]["mate"], -1);
                if o["safe_turn"].is_null() {
                    seen_lost.insert(turn);
                } else {
                    // The safe turn: a whole legal turn after which there is no mate.
                    let safe = moves(before, &o["safe_turn"]);
                    let then = after(before, &safe);
                    assert_eq!(then.side_to_move(), end.side_to_move(), "a whole turn");
                    assert!(
                        !has_mate(&then),
                        "game {number} turn {turn}: the safe turn is not"
                    );
                    seen_blunders.insert(turn);
                }
            }
            moves(before, &o["best"]);
        }
        assert_eq!(seen_missed, missed, "game {number}: missed mates");
        assert_eq!(seen_blunders, blunders, "game {number}: blunders");
        assert_eq!(seen_lost, lost, "game {number}: lost turns");
        let closing = objects
            .iter()
            .find(|o| o["game"] == number && o.get("final").is_some())
            .expect("a closing object");
        assert!(closing["result_error"].is_null(), "{closing}");
        if let Some(t) = game.tag("Termination") {
            assert_eq!(closing["final"], t, "{closing}");
        }
    }
}

#[test]
fn an_unreadable_game_and_a_contradicted_result_are_reported() {
    let file = "tests/data/unreadable.pgn";
    let (objects, stderr, ok) = run(&["analyse", "--pgn", file, "--json", "--movetime", "20"]);
    assert!(!ok, "unreadable games make the exit status non-zero");
    assert!(
        stderr.contains("1 of 3 game(s) could not be read"),
        "{stderr}"
    );
    // Game 2: its two whole turns, the two moves read of the third (no
    // score after it), then the error naming the move.
    let game2: Vec<&Value> = objects.iter().filter(|o| o["game"] == 2).collect();
    assert_eq!(game2.len(), 4, "{game2:?}");
    assert_eq!(game2[0]["turn"], 1);
    assert_eq!(game2[1]["turn"], 2);
    assert_eq!(game2[2]["played"], serde_json::json!(["g1f3", "e2e3"]));
    assert!(game2[2]["score_after"].is_null());
    assert_eq!(
        game2[3]["error"],
        "game 2 (line 9), turn 3, move 3: 'Nd2': ambiguous: Nbd2 or Nfd2"
    );
    let closing = |n: u64| {
        objects
            .iter()
            .find(|o| o["game"] == n && o.get("final").is_some())
            .unwrap()
    };
    assert!(closing(1)["result_error"].is_null());
    assert_eq!(
        closing(3)["result_error"],
        "the result 0-1 contradicts the final position: 1-0 (checkmate)"
    );

    let (checks, stderr, ok) = run(&["pgn", "--check", file, "--json"]);
    assert!(!ok);
    assert!(stderr.contains("2 of 3 game(s) have errors"), "{stderr}");
    assert!(stderr.contains("turn 3, move 3: 'Nd2'"), "{stderr}");
    assert_eq!(checks.len(), 3);
    assert!(checks[0]["error"].is_null());
    assert_eq!(checks[1]["moves"], 5);
    assert!(checks[2]["error"].as_str().unwrap().contains("contradicts"));
}

#[test]
fn pgn_check_accepts_the_test_games_and_the_annotated_output() {
    let (checks, stderr, ok) = run(&["pgn", "--check", GAMES, "--json"]);
    assert!(ok, "{stderr}");
    assert_eq!(checks.len(), 16);
    // The annotated PGN (comments, NAGs) reads back to the same moves.
    let out = std::env::temp_dir().join(format!("annotated-{}.pgn", std::process::id()));
    let out = out.to_str().unwrap();
    let file = "tests/data/unreadable.pgn";
    let (_, _, _) = run(&[
        "analyse",
        "--pgn",
        file,
        "--movetime",
        "20",
        "--out",
        out,
        "--json",
    ]);
    let text = std::fs::read_to_string(out).unwrap();
    assert!(text.contains("Qh5#!"), "{text}");
    assert!(text.contains("g5??"), "{text}");
    assert!(
        text.contains("{result: the result 0-1 contradicts"),
        "{text}"
    );
    let original = read_games(&std::fs::read_to_string(file).unwrap(), Rules::Italian);
    let annotated = read_games(&text, Rules::Italian);
    assert_eq!(annotated.len(), 3);
    for (a, b) in annotated.iter().zip(&original) {
        assert_eq!(a.moves, b.moves);
    }
    let _ = std::fs::remove_file(out);
}
