use super::*;
use crate::chess::legal_moves;
use crate::gui::puzzle_set::shipped;
use crate::mate::is_mating_line;

fn ask(set: &PuzzleSet, route: &str, body: &Value) -> Result<Value, Refusal> {
    answer(set, route, body.to_string().as_bytes(), 7)
}

fn player(rating: f64) -> Value {
    json!({"rating": rating, "deviation": 200.0, "volatility": 0.06})
}

fn try_moves(set: &PuzzleSet, id: &str, moves: &[String], gave_up: bool) -> Result<Value, Refusal> {
    let body = json!({"player": player(1500.0), "id": id, "moves": moves, "gave_up": gave_up});
    ask(set, "attempt", &body)
}

/// The moves as UCI text, checked legal one after the other.
fn legal_line(p: &Puzzle, moves: &[String]) -> Option<Vec<Move>> {
    let mut pos = p.position().ok()?;
    let mut out = Vec::new();
    for m in moves {
        let mv = parse_uci(&pos, m).ok()?;
        pos.play(mv);
        out.push(mv);
    }
    Some(out)
}

#[test]
fn info_names_the_counts_and_the_themes() {
    let set = shipped();
    let v = ask(set, "info", &json!({})).unwrap();
    assert_eq!(v["counts"]["italian"], set.italian.len());
    assert_eq!(v["counts"]["scottish"], set.scottish.len());
    assert_eq!(v["themes"].as_array().unwrap().len(), puzzles::THEMES.len());
    assert_eq!(v["new_player"]["rating"], Rating::NEW.rating);
}

#[test]
fn next_serves_near_the_rating_by_the_lichess_window() {
    let set = shipped();
    for (rules, rating) in [("italian", 900.0), ("scottish", 1500.0), ("any", 2200.0)] {
        let body = json!({"player": player(rating), "rules": rules});
        let v = ask(set, "next", &body).unwrap();
        let p = &v["puzzle"];
        let window = v["window"].as_f64().unwrap();
        assert!(window >= puzzles::MIN_WINDOW);
        let r = p["rating"].as_f64().unwrap();
        assert!((r - rating).abs() <= window, "{rules} {rating}: {v}");
        if rules != "any" {
            assert_eq!(p["rules"], rules);
        }
        // The page gets what it needs to set up the board, not the answer.
        assert!(p["fen"].is_string() && p["turn_length"].is_u64());
        assert!(p.get("solution_uci").is_none() && p.get("solution_san").is_none());
        // The same as the library's own pick with the same choice.
        let pool = set.under(rules).unwrap();
        let lib = puzzles::pick(pool, rating, 200.0, None, 7).unwrap();
        assert_eq!(p["id"], lib.puzzle.id.as_str());
    }
}

#[test]
fn next_honours_the_theme_and_avoids_recent_puzzles() {
    let set = shipped();
    let theme = puzzles::THEMES
        .iter()
        .find(|t| set.italian.iter().any(|p| p.themes.iter().any(|x| x == *t)))
        .unwrap();
    let body = json!({"player": player(1500.0), "rules": "italian", "theme": theme});
    let v = ask(set, "next", &body).unwrap();
    assert!(
        v["puzzle"]["themes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == theme)
    );
    // A wide window holds many puzzles: the recent ones are skipped.
    let wide = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06});
    let mut recent: Vec<String> = Vec::new();
    for _ in 0..5 {
        let body = json!({"player": wide, "rules": "italian", "recent": recent});
        let v = ask(set, "next", &body).unwrap();
        let id = v["puzzle"]["id"].as_str().unwrap().to_string();
        assert!(!recent.contains(&id), "{id} served again");
        recent.push(id);
    }
    // Past the recent ones however far the others are; when all are
    // recent, one of them again.
    let mut small = PuzzleSet::default();
    for p in set.italian.iter().take(3) {
        small.add(p.clone());
    }
    let ids: Vec<&str> = small.all.iter().map(|p| p.id.as_str()).collect();
    for (rating, dev) in [(0.0, 50.0), (4000.0, 50.0), (1500.0, 350.0)] {
        let r = json!({"rating": rating, "deviation": dev, "volatility": 0.06});
        let v = ask(&small, "next", &json!({"player": r, "recent": ids[..2]})).unwrap();
        assert_eq!(v["puzzle"]["id"], ids[2]);
        let v = ask(&small, "next", &json!({"player": r, "recent": ids})).unwrap();
        assert!(ids.contains(&v["puzzle"]["id"].as_str().unwrap()));
    }
}

#[test]
fn bad_requests_are_answered_with_the_reason() {
    let set = shipped();
    let cases = [
        (
            "next",
            json!({"player": player(1500.0), "rules": "linear"}),
            "rules 'linear'",
        ),
        (
            "next",
            json!({"player": player(1500.0), "theme": "fork"}),
            "unknown theme 'fork'",
        ),
        ("next", json!({"player": player(1e9)}), "player rating"),
        (
            "next",
            json!({"player": {"rating": 1500, "deviation": 0, "volatility": 0.06}}),
            "player rating",
        ),
        (
            "next",
            json!({"player": {"rating": 1500, "deviation": 100, "volatility": -1}}),
            "player rating",
        ),
        ("next", json!({"rating": 1500}), "bad request"),
        (
            "next",
            json!({"player": player(1500.0), "extra": 1}),
            "unknown field",
        ),
        (
            "attempt",
            json!({"player": player(1500.0), "moves": []}),
            "missing field `id`",
        ),
        (
            "attempt",
            json!({"player": player(1500.0), "id": 5, "moves": []}),
            "bad request",
        ),
    ];
    for (route, body, why) in cases {
        let e = ask(set, route, &body).unwrap_err();
        assert_eq!(e.status, 400, "{body}");
        assert!(e.error.contains(why), "{body}: {}", e.error);
    }
    assert_eq!(answer(set, "next", b"\xff\xfe", 0).unwrap_err().status, 400);
    assert!(
        answer(set, "next", b"{", 0)
            .unwrap_err()
            .error
            .starts_with("bad request")
    );
    assert_eq!(answer(set, "shell", b"{}", 0).unwrap_err().status, 404);
    let e = try_moves(set, "0000000000000000", &[], true).unwrap_err();
    assert_eq!(
        (e.status, e.error.as_str()),
        (404, "no puzzle '0000000000000000'")
    );
}

#[test]
fn the_solution_solves_and_raises_the_rating() {
    let set = shipped();
    let p = &set.italian[0];
    let v = try_moves(set, &p.id, &p.solution_uci, false).unwrap();
    assert_eq!(
        (v["verdict"].as_str(), v["solved"].as_bool()),
        (Some("solution"), Some(true))
    );
    let after = v["player"]["rating"].as_f64().unwrap();
    let change = v["change"].as_f64().unwrap();
    assert!(
        change > 0.0 && (after - 1500.0 - change).abs() < 0.01,
        "{v}"
    );
    // The library's Glicko-2 update, not another one.
    let me = Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let (lib, rated) = puzzles::attempt(me, p.glicko(), true);
    assert_eq!(v["player"]["rating"], lib.rating);
    assert_eq!(v["player"]["deviation"], lib.deviation);
    assert_eq!(v["puzzle"]["rating_after"], rated.rating);
    assert_eq!(v["solution_san"], json!(p.solution_san));
}

#[test]
fn another_order_of_the_solution_solves() {
    // Found by computation in the shipped set: a solution with two
    // adjacent moves that may be swapped and still mate.
    let set = shipped();
    let found = set.all.iter().find_map(|p| {
        let pos = p.position().ok()?;
        (0..p.solution_uci.len().saturating_sub(1)).find_map(|i| {
            let mut order = p.solution_uci.clone();
            order.swap(i, i + 1);
            let line = legal_line(p, &order)?;
            (order != p.solution_uci && is_mating_line(&pos, &line)).then_some((p, order))
        })
    });
    let (p, order) = found.expect("a shipped solution with another move order");
    let v = try_moves(set, &p.id, &order, false).unwrap();
    assert_eq!(v["verdict"], "solution", "{} {order:?}", p.id);
    assert!(v["change"].as_f64().unwrap() > 0.0);
}

#[test]
fn another_mate_solves_too() {
    // Shipped puzzles have one final position, so another mate is set up
    // here: the position of the library's own judge test.
    let mut p = shipped().italian[0].clone();
    p.fen = "k7/pp6/8/8/8/8/8/R3K3 w - - 0 4".to_string();
    p.rules = "italian".to_string();
    p.id = "other".to_string();
    p.solution_uci = ["e1d2", "d2e3", "a1d1", "d1d8"].map(String::from).to_vec();
    let mut set = PuzzleSet::default();
    set.add(p);
    let other = ["e1f2", "f2g3", "a1d1", "d1d8"].map(String::from);
    let v = try_moves(&set, "other", &other, false).unwrap();
    assert_eq!(
        (v["verdict"].as_str(), v["solved"].as_bool()),
        (Some("other-mate"), Some(true))
    );
    let wrong = ["e1f2", "f2g3", "a1d1", "d1d7"].map(String::from);
    let v = try_moves(&set, "other", &wrong, false).unwrap();
    assert_eq!(
        (v["verdict"].as_str(), v["solved"].as_bool()),
        (Some("wrong"), Some(false))
    );
}

#[test]
fn a_turn_without_mate_fails_and_lowers_the_rating() {
    // The first legal move each time, until the turn ends without mate.
    let set = shipped();
    let found = set.all.iter().find_map(|p| {
        let mut pos = p.position().ok()?;
        let start = pos.clone();
        let (mut line, mut texts) = (Vec::new(), Vec::new());
        loop {
            let mv = *legal_moves(&pos).iter().next()?;
            texts.push(mv.uci());
            line.push(mv);
            if pos.play(mv).turn_ended {
                break;
            }
        }
        (!is_mating_line(&start, &line)).then_some((p, texts))
    });
    let (p, texts) = found.expect("a turn that does not mate");
    let v = try_moves(set, &p.id, &texts, false).unwrap();
    assert_eq!(
        (v["verdict"].as_str(), v["solved"].as_bool()),
        (Some("wrong"), Some(false))
    );
    assert!(v["change"].as_f64().unwrap() < 0.0, "{v}");
    assert_eq!(v["solution_uci"], json!(p.solution_uci));
    // Giving up fails too, after any part of the turn.
    let v = try_moves(set, &p.id, &texts[..1], true).unwrap();
    assert_eq!(
        (v["verdict"].as_str(), v["solved"].as_bool()),
        (Some("gave-up"), Some(false))
    );
    assert!(v["change"].as_f64().unwrap() < 0.0);
}

#[test]
fn an_attempt_must_be_legal_and_a_whole_turn() {
    let set = shipped();
    let p = set.all.iter().find(|p| p.solution_uci.len() >= 2).unwrap();
    let short = &p.solution_uci[..1];
    let e = try_moves(set, &p.id, short, false).unwrap_err();
    assert_eq!(e.status, 400);
    assert!(
        e.error.starts_with("the turn is not over after 1 of"),
        "{}",
        e.error
    );
    let mut long = p.solution_uci.clone();
    long.push("e2e4".to_string());
    let e = try_moves(set, &p.id, &long, false).unwrap_err();
    assert!(e.error.contains("the turn is over after"), "{}", e.error);
    for bad in ["a1a1", "e9e4", "zzzz", "e2e4e5e6", ""] {
        let e = try_moves(set, &p.id, &[bad.to_string()], false).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(
            e.error.starts_with(&format!("move 1 '{bad}'")),
            "{}",
            e.error
        );
    }
    let many = vec!["e2e4".to_string(); MAX_MOVES + 1];
    assert!(
        try_moves(set, &p.id, &many, true)
            .unwrap_err()
            .error
            .contains("at most")
    );
}
