//! The mate finder against the rules core: random positions compared with
//! the brute-force reference, the Janko-Guid set, and the Popeye verdicts.

use crescendo::chess::{MoveList, Position, Rules, fen, legal_moves, status};
use crescendo::mate::{self, Budget, MateTable, Verdict};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn solve(pos: &Position, tt: &MateTable) -> Verdict {
    mate::find_mate(pos, &Budget::default(), tt).verdict
}

/// Plays random turns from the start; returns the positions met at turn
/// starts and some mid-turn ones, with turns of at most `max_len` moves left.
/// Plays one of `moves` (not empty), preferring those that land near the
/// enemy king: aggressive games reach mating positions often.
fn play_towards_enemy_king(pos: &mut Position, moves: &MoveList, rng: &mut StdRng) {
    let ek = pos.king_square(pos.side_to_move().other());
    let mv = *moves
        .iter()
        .min_by_key(|m| {
            let d = (m.to().file() as i32 - ek.file() as i32)
                .abs()
                .max((m.to().rank() as i32 - ek.rank() as i32).abs());
            d * 8 + rng.random_range(0..12)
        })
        .expect("non-empty");
    pos.play(mv);
}

fn random_positions(rules: Rules, seed: u64, games: usize, max_len: u32) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos(rules);
        // Random turns while the turn length stays small enough to brute-force.
        while pos.turn_length() <= max_len + 1 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            if pos.moves_left() <= max_len && rng.random_range(0..3) == 0 {
                out.push(pos.clone());
            }
            let mv = moves.as_slice()[rng.random_range(0..moves.len())];
            pos.play(mv);
        }
    }
    out
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

/// The second-last-move filter never rejects a move after which the last
/// move mates (checked against brute force on positions with two moves left
/// from aggressive games, both rule sets).
#[test]
fn last_two_filter_is_sound() {
    use crescendo::chess::{MoveKind, Role};
    use crescendo::mate::bounds::{BoundCache, LastTwo};
    let mut kept_mates = 0;
    let mut rejected = 0;
    for rules in [Rules::Italian, Rules::Scottish] {
        let mut rng = StdRng::seed_from_u64(31);
        let mut cache = BoundCache::default();
        for _ in 0..300 {
            let mut pos = Position::startpos(rules);
            while pos.turn_length() <= 6 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if pos.moves_left() == 2 {
                    let filter = LastTwo::new(&pos);
                    for &mv in moves.iter() {
                        let mut child = pos.clone();
                        if child.play(mv).turn_ended {
                            continue;
                        }
                        let role = child.piece_at(mv.to()).map_or(Role::Pawn, |p| p.role);
                        let pass = filter.may_mate_after(
                            &pos,
                            &mut cache,
                            (mv.from(), mv.to()),
                            role,
                            mv.kind() == MoveKind::Castle,
                        );
                        let mates = status::brute_force_mate(&child).is_some();
                        assert!(pass || !mates, "{} then {mv}", fen::to_fen(&pos));
                        kept_mates += usize::from(mates);
                        rejected += usize::from(!pass);
                    }
                }
                play_towards_enemy_king(&mut pos, &moves, &mut rng);
            }
        }
    }
    assert!(
        kept_mates > 20 && rejected > 1000,
        "{kept_mates} mates kept, {rejected} rejected"
    );
}

/// Every mating line of the rest of the turn (no pruning).
fn all_mating_lines(
    pos: &Position,
    line: &mut Vec<crescendo::chess::Move>,
    out: &mut Vec<Vec<crescendo::chess::Move>>,
) {
    for &mv in legal_moves(pos).iter() {
        let mut child = pos.clone();
        let effect = child.play(mv);
        line.push(mv);
        if effect.turn_ended {
            if effect.check && status::is_mated(&child) {
                out.push(line.clone());
            }
        } else {
            all_mating_lines(&child, line, out);
        }
        line.pop();
    }
}

/// The bounds of the restricted passes (only some pieces may move, at most
/// so many more may start) never exclude a mate that keeps to the
/// restriction: along every mating line of positions from aggressive games
/// (both rule sets), with the pieces the line moves as the allowed ones.
#[test]
fn restricted_bounds_keep_every_mate() {
    use crescendo::chess::position::castle_for;
    use crescendo::chess::{Bitboard, MoveKind, Square};
    use crescendo::mate::bounds::{BoundCache, LastTwo, lower_bound_movable};
    let mut lines_checked = 0;
    let mut rejected = 0;
    for rules in [Rules::Italian, Rules::Scottish] {
        let mut rng = StdRng::seed_from_u64(41);
        let mut cache = BoundCache::default();
        for _ in 0..50 {
            let mut pos = Position::startpos(rules);
            while pos.turn_length() <= 5 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let left = pos.moves_left();
                if (2..=4).contains(&left) {
                    let mut lines = Vec::new();
                    all_mating_lines(&pos, &mut Vec::new(), &mut lines);
                    for line in lines.iter().take(30) {
                        // The (from, to) steps of each move: castling moves two pieces.
                        let steps = |mv: crescendo::chess::Move| -> Vec<(Square, Square)> {
                            if mv.kind() == MoveKind::Castle {
                                let c = castle_for(mv.from(), mv.to()).expect("castling");
                                vec![(c.king_from, c.king_to), (c.rook_from, c.rook_to)]
                            } else {
                                vec![(mv.from(), mv.to())]
                            }
                        };
                        // The start squares of the line's moving pieces, kept
                        // up to date as the line is replayed.
                        let mut movers: Vec<Square> = Vec::new();
                        let mut seen: Vec<Square> = Vec::new();
                        for &mv in line {
                            for (from, to) in steps(mv) {
                                match seen.iter().position(|&s| s == from) {
                                    Some(i) => seen[i] = to,
                                    None => {
                                        movers.push(from);
                                        seen.push(to);
                                    }
                                }
                            }
                        }
                        let total = movers.len() as u32;
                        let mut p = pos.clone();
                        // The squares of the pieces moved so far.
                        let mut cur: Vec<Square> = Vec::new();
                        for (j, &mv) in line.iter().enumerate() {
                            let rest = p.moves_left();
                            let moved = cur.iter().fold(Bitboard::EMPTY, |b, s| b | s.bb());
                            let every = movers.iter().fold(Bitboard::EMPTY, |b, s| b | s.bb());
                            let recruits = total - cur.len() as u32;
                            let f = fen::to_fen(&p);
                            assert!(
                                lower_bound_movable(&p, rest, &mut cache, moved, recruits) <= rest,
                                "{f}: line {line:?} at {j}, {recruits} recruits"
                            );
                            assert!(
                                lower_bound_movable(&p, rest, &mut cache, every, 0) <= rest,
                                "{f}: line {line:?} at {j}, movers fixed"
                            );
                            let mut next = p.clone();
                            let ended = next.play(mv).turn_ended;
                            // The piece of the last move, after this one.
                            if rest == 2 && !ended {
                                let last = line[j + 1];
                                let role = p.role_after(mv);
                                let filter = LastTwo::new(&p);
                                let pass = filter.may_mate_after_movable(
                                    &p,
                                    &mut cache,
                                    (mv.from(), mv.to()),
                                    role,
                                    mv.kind() == MoveKind::Castle,
                                    last.from().bb(),
                                );
                                assert!(pass, "{f}: last two of {line:?}");
                            }
                            // Advance the restriction and the movers' squares.
                            for (from, to) in steps(mv) {
                                match cur.iter().position(|&s| s == from) {
                                    Some(i) => cur[i] = to,
                                    None => cur.push(to),
                                }
                                if let Some(i) = movers.iter().position(|&s| s == from) {
                                    movers[i] = to;
                                }
                            }
                            p = next;
                        }
                        lines_checked += 1;
                    }
                    // The restriction also excludes: one fixed piece less.
                    if lines.is_empty()
                        && lower_bound_movable(&pos, left, &mut cache, Bitboard::EMPTY, 1) > left
                    {
                        rejected += 1;
                    }
                }
                play_towards_enemy_king(&mut pos, &moves, &mut rng);
            }
        }
    }
    assert!(
        lines_checked > 1000 && rejected > 10,
        "{lines_checked} lines checked, {rejected} rejected"
    );
}

/// The bound with our own pieces in the way (end squares and lines to the
/// targets they must leave, one-move paths they must open) never exceeds the
/// moves a mate really takes: along every mating line of positions from
/// aggressive games (both rule sets, other games than the test above), at
/// each move, with the moves left as the cap. Also counts the positions
/// without a mate where the bound proves it, so the test notices if the
/// bound stops excluding anything.
#[test]
fn bound_with_our_pieces_in_the_way_keeps_every_mate() {
    use crescendo::mate::bounds::{BoundCache, lower_bound_with};
    let mut prefixes = 0;
    let mut excluded = 0;
    for rules in [Rules::Italian, Rules::Scottish] {
        let mut rng = StdRng::seed_from_u64(53);
        let mut cache = BoundCache::default();
        for _ in 0..120 {
            let mut pos = Position::startpos(rules);
            while pos.turn_length() <= 5 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let left = pos.moves_left();
                if (2..=3).contains(&left) {
                    let mut lines = Vec::new();
                    all_mating_lines(&pos, &mut Vec::new(), &mut lines);
                    for line in &lines {
                        let mut p = pos.clone();
                        for &mv in line {
                            let rest = p.moves_left();
                            assert!(
                                lower_bound_with(&p, rest, &mut cache) <= rest,
                                "{}: line {line:?}",
                                fen::to_fen(&p)
                            );
                            prefixes += 1;
                            p.play(mv);
                        }
                    }
                    if lines.is_empty() && lower_bound_with(&pos, left, &mut cache) > left {
                        excluded += 1;
                    }
                }
                play_towards_enemy_king(&mut pos, &moves, &mut rng);
            }
        }
    }
    assert!(
        prefixes > 10_000 && excluded > 0,
        "{prefixes} line prefixes checked, {excluded} positions excluded"
    );
}

/// The last-move filters (`LastOne`, and `LastTwo::may_mate_after_two` from
/// the node before) never reject a mating move: along every mating line of
/// positions from aggressive games (both rule sets), the line's last move
/// passes them. Also counts the checks it rejects, so
/// the test notices if it stops rejecting anything.
#[test]
fn last_move_filter_keeps_every_mate() {
    use crescendo::chess::movegen::generate_checks;
    use crescendo::chess::{MoveKind, Role};
    use crescendo::mate::bounds::{BoundCache, LastOne, LastTwo};
    let (mut mates, mut rejected, mut pairs) = (0, 0, 0);
    for rules in [Rules::Italian, Rules::Scottish] {
        let mut rng = StdRng::seed_from_u64(67);
        let mut cache = BoundCache::default();
        for _ in 0..120 {
            let mut pos = Position::startpos(rules);
            while pos.turn_length() <= 5 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                if (1..=3).contains(&pos.moves_left()) {
                    let mut lines = Vec::new();
                    all_mating_lines(&pos, &mut Vec::new(), &mut lines);
                    for line in &lines {
                        let mut p = pos.clone();
                        for (j, &mv) in line.iter().enumerate() {
                            // The filter of the node two moves before the end,
                            // with the line's last two moves.
                            if p.moves_left() == 2
                                && j + 1 < line.len()
                                && mv.kind() != MoveKind::Castle
                            {
                                let two = LastTwo::new_cached(&p, &mut cache);
                                let last = line[j + 1];
                                let mut q = p.clone();
                                q.play(mv);
                                let pass = two.may_mate_after_two(
                                    &mut cache,
                                    (mv.from(), mv.to()),
                                    q.piece_at(mv.to()).map_or(Role::Pawn, |x| x.role),
                                    (last.from(), last.to()),
                                    q.role_after(last),
                                    last.kind() == MoveKind::Castle,
                                );
                                assert!(pass, "{}: two of line {line:?}", fen::to_fen(&p));
                                pairs += 1;
                            }
                            if p.moves_left() == 1 {
                                let filter = LastOne::new_cached(&p, &mut cache);
                                let pass = filter.may_mate_after(
                                    &mut cache,
                                    (mv.from(), mv.to()),
                                    p.role_after(mv),
                                    mv.kind() == MoveKind::Castle,
                                );
                                assert!(pass, "{}: line {line:?}", fen::to_fen(&p));
                                mates += 1;
                            }
                            p.play(mv);
                        }
                    }
                    if pos.moves_left() == 1 {
                        let filter = LastOne::new_cached(&pos, &mut cache);
                        let mut checks = MoveList::new();
                        generate_checks(&pos, &mut checks);
                        for &mv in checks.iter() {
                            let pass = filter.may_mate_after(
                                &mut cache,
                                (mv.from(), mv.to()),
                                pos.role_after(mv),
                                mv.kind() == MoveKind::Castle,
                            );
                            rejected += u32::from(!pass);
                        }
                    }
                }
                play_towards_enemy_king(&mut pos, &moves, &mut rng);
            }
        }
    }
    eprintln!("{mates} mating moves and {pairs} last pairs checked, {rejected} checks rejected");
    assert!(
        mates > 1000 && pairs > 1000 && rejected > 100,
        "{mates} mating moves and {pairs} last pairs checked, {rejected} checks rejected"
    );
}

/// The ten-quiet-turn test's answer depends on the position and the node
/// budget alone, not on what the same thread asked before.
#[test]
fn the_quiet_test_forgets_earlier_questions() {
    // A lone king the knight and bishop cannot mate within 7 moves; the
    // finder needs thousands of nodes to prove it.
    let pos = fen::parse("8/8/3N4/8/3B4/1k6/8/1K6 w - - 10 7", Rules::Italian).unwrap();
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
