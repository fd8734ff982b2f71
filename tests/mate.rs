//! The mate finder against the rules core: random positions compared with
//! the brute-force reference, the Janko-Guid set, and the Popeye verdicts.

use crescendo::chess::{Move, MoveList, Position, Rules, fen, legal_moves, status};
use crescendo::mate::{self, Budget, MateTable, Verdict};
use rand::SeedableRng;
use rand::rngs::StdRng;

#[path = "support/games.rs"]
mod games;
#[path = "support/positions.rs"]
mod positions;

use positions::random_positions;

fn solve(pos: &Position, tt: &MateTable) -> Verdict {
    mate::find_mate(pos, &Budget::default(), tt).verdict
}

/// Plays random turns from the start; returns the positions met at turn
/// starts and some mid-turn ones, with turns of at most `max_len` moves left.
/// Plays one of `moves` (not empty), preferring those that land near the
/// enemy king: aggressive games reach mating positions often.
fn play_towards_enemy_king(pos: &mut Position, moves: &MoveList, rng: &mut StdRng) {
    let mv = games::towards_enemy_king(pos, moves, rng, 12);
    pos.play(mv);
}

fn compare_with_brute_force(rules: Rules, seed: u64, games: usize, max_len: u32) -> usize {
    let tt = MateTable::new(8);
    let mut mates = 0;
    let positions = random_positions(rules, seed, games, max_len);
    for pos in &positions {
        let reference = status::brute_force_mate(pos);
        let ours = solve(pos, &tt);
        let f = fen::to_fen(pos);
        match (&reference, &ours) {
            (Some(_), Verdict::Mate(line)) => {
                assert!(mate::is_mating_line(pos, line), "{f}: bad line {line:?}");
                mates += 1;
            }
            (None, Verdict::NoMate) => {}
            _ => panic!("{f} ({rules}): brute force {reference:?}, finder {ours:?}"),
        }
        // Also the passed turn: the opponent's threat with the next turn length.
        if pos.turn_length() < max_len {
            let mut passed = pos.clone();
            passed.pass_turn();
            let threat = mate::opponent_threat(pos, &Budget::default(), &tt);
            assert_eq!(
                status::brute_force_mate(&passed).is_some(),
                matches!(threat.verdict, Verdict::Mate(_)),
                "{f}: opponent threat"
            );
        }
    }
    assert!(
        positions.len() >= 200,
        "too few positions: {}",
        positions.len()
    );
    mates
}

#[test]
fn random_positions_italian_match_brute_force() {
    let mates = compare_with_brute_force(Rules::Italian, 1, 150, 4);
    assert!(mates > 0);
}

#[test]
fn random_positions_scottish_match_brute_force() {
    let mates = compare_with_brute_force(Rules::Scottish, 2, 70, 4);
    assert!(mates > 0);
}

/// Mates are rare in random games: positions from games that play greedily
/// towards the enemy king exercise the mating branches of the bounds.
#[test]
fn aggressive_positions_match_brute_force() {
    for rules in [Rules::Italian, Rules::Scottish] {
        let tt = MateTable::new(8);
        let mut rng = StdRng::seed_from_u64(7);
        let mut checked = 0;
        let mut mates = 0;
        for _ in 0..300 {
            let mut pos = Position::startpos(rules);
            while pos.turn_length() <= 5 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if pos.moves_left() <= 4 {
                    let reference = status::brute_force_mate(&pos).is_some();
                    let ours = solve(&pos, &tt);
                    assert_eq!(
                        reference,
                        matches!(ours, Verdict::Mate(_)),
                        "{}",
                        fen::to_fen(&pos)
                    );
                    checked += 1;
                    mates += usize::from(reference);
                }
                play_towards_enemy_king(&mut pos, &moves, &mut rng);
            }
        }
        assert!(
            checked > 500 && mates > 10,
            "{rules}: {checked} checked, {mates} mates"
        );
    }
}

fn janko() -> Vec<(String, String)> {
    let text = include_str!("../bench/data/janko-guid-60.csv");
    text.lines()
        .skip(1)
        .filter_map(|l| l.split_once(','))
        .map(|(id, f)| (id.to_string(), f.to_string()))
        .collect()
}

/// All 60 mate, with lines the rules core verifies (a second or two).
/// Position 22 has 17 black pieces; the FEN parser allows up to 32 pieces in
/// all, so it is solved like the rest.
#[test]
fn janko_guid_all_solved_with_verified_lines() {
    let tt = MateTable::new(32);
    let mut solved = 0;
    for (id, f) in janko() {
        let pos = fen::parse(&f, Rules::Italian).unwrap_or_else(|e| panic!("janko {id}: {e}"));
        match solve(&pos, &tt) {
            Verdict::Mate(line) => {
                assert!(mate::is_mating_line(&pos, &line), "{id}");
                solved += 1;
            }
            other => panic!("janko {id}: {other:?}"),
        }
    }
    assert_eq!(solved, 60);
}

/// Slow (about 25 s): `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn sermate_verdicts_agree_with_popeye() {
    let tt = MateTable::new(32);
    for l in include_str!("../bench/data/sermate-public.jsonl").lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("json line");
        let id = v["id"].as_str().unwrap_or("?");
        let pos = fen::parse(v["fen"].as_str().unwrap_or(""), Rules::Italian).expect(id);
        let popeye_mate = v["popeye_verdict"] == "mate";
        match solve(&pos, &tt) {
            Verdict::Mate(line) => assert!(mate::is_mating_line(&pos, &line), "{id}"),
            Verdict::NoMate => assert!(!popeye_mate, "{id}: Popeye found a mate"),
            Verdict::Unknown => panic!("{id}: unknown without limits"),
        }
    }
}

#[test]
fn all_lines_lists_every_order() {
    // Two independent rook moves then mate: Ra1-a7 then Rb1-b8 mates; the
    // enumerator must list every mating sequence, each verified.
    let pos = fen::parse("6k1/8/8/8/8/8/8/RR4K1 w - - 0 2", Rules::Italian).expect("fen");
    let all = mate::find_all_mates(&pos, &Budget::default(), &MateTable::new(1));
    assert!(all.complete);
    assert!(!all.lines.is_empty());
    for line in &all.lines {
        assert!(mate::is_mating_line(&pos, line));
    }
    let mut count = 0;
    for &m1 in legal_moves(&pos).iter() {
        let mut p = pos.clone();
        p.play(m1);
        for &m2 in legal_moves(&p).iter() {
            let mut q = p.clone();
            q.play(m2);
            count += usize::from(status::is_mated(&q));
        }
    }
    assert_eq!(all.lines.len(), count);
}

#[test]
fn limits_give_unknown_and_stop_flag_is_honoured() {
    let pos = fen::parse(
        "1n3bnr/3k3p/r3p3/p1p1p3/P1P1b3/1P3P2/1R1N1KP1/2B2B2 w - - 0 8",
        Rules::Italian,
    )
    .expect("fen");
    let r = mate::find_mate(&pos, &Budget::nodes(1000), &MateTable::new(1));
    assert_eq!(r.verdict, Verdict::Unknown);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let budget = Budget {
        stop: Some(&stop),
        ..Budget::default()
    };
    let r = mate::find_mate(&pos, &budget, &MateTable::new(1));
    assert_eq!(r.verdict, Verdict::Unknown);
    assert!(r.elapsed.as_millis() < 50);
}

#[test]
fn status_with_uses_the_finder() {
    let exact = |p: &Position| mate::mates_this_turn(p, u64::MAX);
    let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 10 1", Rules::Italian).expect("fen");
    assert_eq!(
        status::status_with(&pos, exact, status::Undecided::Drawn),
        status::Status::Ongoing
    );
    let pos = fen::parse("6k1/5ppp/8/8/8/8/8/5RK1 w - - 10 1", Rules::Italian).expect("fen");
    assert_eq!(
        status::status_with(&pos, exact, status::Undecided::Drawn),
        status::Status::TenQuietTurns
    );
}

/// The one choice the callers of the rule differ in: what an undecided mate
/// test counts as.
#[test]
fn an_undecided_quiet_test_counts_as_the_caller_says() {
    use status::{Undecided, ten_quiet_turns};
    let pos = fen::parse("6k1/5ppp/8/8/8/8/8/5RK1 w - - 10 1", Rules::Italian).expect("fen");
    assert!(!ten_quiet_turns(&pos, |_| None, Undecided::GameGoesOn));
    assert!(ten_quiet_turns(&pos, |_| None, Undecided::Drawn));
    for undecided in [Undecided::GameGoesOn, Undecided::Drawn] {
        assert!(!ten_quiet_turns(&pos, |_| Some(true), undecided));
        assert!(ten_quiet_turns(&pos, |_| Some(false), undecided));
    }
    // Nine quiet turns, or a turn begun: the rule does not apply, nothing is asked.
    let nine = fen::parse("6k1/5ppp/8/8/8/8/8/5RK1 w - - 9 1", Rules::Italian).expect("fen");
    assert!(!ten_quiet_turns(
        &nine,
        |_| panic!("asked"),
        Undecided::Drawn
    ));
    let mut begun = fen::parse("6k1/5ppp/8/8/8/8/8/5RK1 w - - 10 3", Rules::Italian).expect("fen");
    begun.play(legal_moves(&begun).as_slice()[0]);
    assert!(begun.moves_made() > 0);
    assert!(!ten_quiet_turns(
        &begun,
        |_| panic!("asked"),
        Undecided::Drawn
    ));
}

#[test]
fn the_ten_quiet_turn_test_keeps_to_its_budget() {
    // Janko-Guid 53 (a mate in 8 that takes the finder about 100 000
    // nodes): too hard for 100 nodes, found without a limit.
    let text = janko()
        .into_iter()
        .find(|(id, _)| id == "53")
        .expect("Janko-Guid 53")
        .1;
    let pos = fen::parse(&text, Rules::Italian).expect("fen");
    assert_eq!(mate::mates_this_turn(&pos, 100), None);
    assert_eq!(mate::mates_this_turn(&pos, u64::MAX), Some(true));
    // A proof of no mate within the budget is an answer too.
    let pos = fen::parse("6k1/5ppp/8/8/8/8/8/5RK1 w - - 10 1", Rules::Italian).expect("fen");
    assert_eq!(mate::mates_this_turn(&pos, 1000), Some(false));
}

/// The ten-quiet-turn test's answer depends on the position and the node
/// budget alone, not on what the same thread asked before.
#[test]
fn the_quiet_test_forgets_earlier_questions() {
    // A king the rook and bishop cannot mate within 5 moves; the finder
    // needs thousands of nodes to prove it. Our castling right keeps the
    // mating-picture proof (which skips such positions) out, so the search
    // does the work.
    let pos = fen::parse("4k2r/8/8/8/8/8/2B5/4K2R w Kk - 10 5", Rules::Italian).unwrap();
    let (mut enough, mut short) = (1u64 << 24, 0u64);
    assert_eq!(crescendo::mate::mates_this_turn(&pos, enough), Some(false));
    while enough - short > 1 {
        let mid = (enough + short) / 2;
        match crescendo::mate::mates_this_turn(&pos, mid) {
            Some(false) => enough = mid,
            None => short = mid,
            Some(true) => panic!("a mate where there is none"),
        }
    }
    eprintln!("proved with {enough} nodes");
    assert!(enough > 1000, "{enough}");
    // Right after a proof, one node fewer is still not enough.
    assert_eq!(crescendo::mate::mates_this_turn(&pos, enough), Some(false));
    assert_eq!(crescendo::mate::mates_this_turn(&pos, enough - 1), None);
}
