//! The turn planned as a whole (issue 15, points 2 and 3). In a turn of
//! `n` moves the ply-by-ply search seldom reaches the end of its own turn,
//! let alone the opponent's `n + 1`-move reply, so a long turn is also
//! chosen among whole candidate turns: the safety net's score-ordered beam
//! over our turn's moves (each position inside the turn visited once, so
//! transpositions merge), each end scored by what the opponent's next turn
//! can do to us: the material its raid ([`super::raid`]) takes, with our
//! and its pieces as obstacles, and a mate found by a small finder probe.
//! The search's own turn is scored the same way and kept unless a
//! candidate is clearly better; the safety net then checks the choice.

use super::breadth::Breadth;
use super::eval::{VALUES, evaluate_static};
use super::limits::Limits;
use super::raid::raid;
use super::result::SearchResult;
use super::safety::{Order, beam};
use super::score::Score;
use super::time::TimePlan;
use crate::chess::status::is_mated;
use crate::chess::{Move, Position, legal_moves};
use crate::mate::bounds::lower_bound;
use crate::mate::{self, MateTable};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The planner chooses turns of at least this many moves. In turns 3-6
/// (the opponent's reply 4-7 moves) the search reaches two or three moves
/// in its time at 1+0.05, and most lost games began there with material
/// the opponent's next turn took (bench/strength.md, twelfth session);
/// there the ranked turns are also the safety net's first alternatives.
pub const PLAN_FROM_TURN: u32 = 3;
/// ... and at most this many: the beam walks every move of the turn, and
/// real games end long before (a turn of 9 999 moves under `go depth 1`
/// would take minutes).
const PLAN_TO_TURN: u32 = 30;
/// Whole turns of the beam scored by the opponent's reply, best first.
const CANDIDATES: usize = 24;
/// Raid positions per candidate turn (a lower bound when cut).
const RAID_NODES: u64 = 1_500;
/// Mate-finder nodes of the probe of each candidate turn.
const MATE_PROBE_NODES: u64 = 1_000;
/// Centipawns a candidate must beat the search's own turn by.
const MARGIN: i32 = 30;
/// Score of a turn after which the opponent mates (found by the probe).
const MATED: i32 = -100_000;
/// Score of a turn that mates.
const MATES: i32 = 100_000;
/// Centipawns per move of slack between the opponent's next turn and the
/// moves it needs at least to mate (as the safety net's beam counts it).
const THREAT_PER_MOVE: i32 = 35;

/// A whole turn and its score after the opponent's reply, for the mover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub turn: Vec<Move>,
    pub score: i32,
}

/// Part of the search's time the search keeps when the planner follows it,
/// in percent.
const SEARCH_PART: u32 = 70;
/// The most nodes [`choose`] spends (raids and probes of every candidate).
const MAX_NODES: u64 = (CANDIDATES as u64 + 1) * (RAID_NODES + MATE_PROBE_NODES);

/// The search's part of `plan` when the planner takes the end of it.
pub fn search_share(plan: &TimePlan, started: Instant) -> TimePlan {
    let cut = |t: Option<Instant>| {
        t.map(|t| started + t.saturating_duration_since(started) * SEARCH_PART / 100)
    };
    TimePlan {
        soft: cut(plan.soft),
        hard: cut(plan.hard),
        turn: plan.turn,
        rescue: plan.rescue,
    }
}

/// Replaces the search's turn in `result` by the planner's choice
/// ([`choose`] as wide as `breadth`, until `deadline`), counting its nodes. Under `go nodes`
/// only when what the search left covers the planner's most. Returns the
/// candidate turns not seen mated, best first (for the safety net).
pub fn replan(
    pos: &Position,
    limits: &Limits,
    deadline: Option<Instant>,
    breadth: Breadth,
    stop: &Arc<AtomicBool>,
    table: &MateTable,
    result: &mut SearchResult,
) -> Vec<Planned> {
    if limits
        .nodes
        .is_some_and(|n| n.saturating_sub(result.nodes) < MAX_NODES.saturating_mul(2))
    {
        return Vec::new();
    }
    let (chosen, ranked, nodes) = choose(
        pos,
        &result.turn,
        &limits.searchmoves,
        deadline,
        breadth,
        stop,
        table,
    );
    result.nodes += nodes;
    if chosen.turn != result.turn {
        result.score = if crate::mate::is_mating_line(pos, &chosen.turn) {
            Score::Mate(1)
        } else {
            Score::Cp(chosen.score)
        };
        result.turn = chosen.turn.clone();
        result.pv = chosen.turn;
    }
    ranked
}

/// Does the planner choose the turn in `pos` (a turn start)?
pub fn plans(pos: &Position) -> bool {
    pos.moves_made() == 0 && (PLAN_FROM_TURN..=PLAN_TO_TURN).contains(&pos.turn_length())
}

/// The turn to play from `pos`: `searched` (the search's choice) unless a
/// whole candidate turn scores at least [`MARGIN`] better after the
/// opponent's reply. `breadth` grows the candidates, raids and probes.
/// Starts nothing after `deadline` or `stop`.
/// Returns the chosen turn, every turn scored and not seen mated (best
/// first), and the finder and raid nodes spent.
pub fn choose(
    pos: &Position,
    searched: &[Move],
    first_moves: &[Move],
    deadline: Option<Instant>,
    breadth: Breadth,
    stop: &Arc<AtomicBool>,
    table: &MateTable,
) -> (Planned, Vec<Planned>, u64) {
    let out_of_time =
        || stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let mut nodes = 0;
    if out_of_time() {
        // The search took the planner's time (a loaded machine): the
        // beam and the raids would only run into the safety net's share.
        let own = Planned {
            turn: searched.to_vec(),
            score: 0,
        };
        return (own, Vec::new(), nodes);
    }
    let score = |turn: &[Move], nodes: &mut u64| {
        let (s, n) = reply_score(pos, turn, deadline, breadth, stop, table);
        *nodes += n;
        s
    };
    let own = Planned {
        turn: searched.to_vec(),
        score: score(searched, &mut nodes),
    };
    let mut scored: Vec<Planned> = Vec::new();
    for (_, turn) in beam(pos, Order::Score, first_moves, deadline, breadth)
        .into_iter()
        .take(breadth.count(CANDIDATES))
    {
        if out_of_time() {
            break;
        }
        if turn == searched {
            continue;
        }
        let s = score(&turn, &mut nodes);
        scored.push(Planned { turn, score: s });
    }
    scored.sort_by_key(|p| std::cmp::Reverse(p.score));
    let chosen = match scored.first() {
        Some(b) if b.score >= own.score.saturating_add(MARGIN) => b.clone(),
        _ => own.clone(),
    };
    let mut ranked = scored;
    ranked.push(own);
    ranked.sort_by_key(|p| std::cmp::Reverse(p.score));
    ranked.retain(|p| p.score > MATED);
    (chosen, ranked, nodes)
}

/// The whole candidate turns from `pos` scored by the opponent's reply,
/// best first (for tests; [`choose`] stops at a deadline).
#[cfg(test)]
fn ranked(pos: &Position, table: &MateTable) -> Vec<Planned> {
    let stop = Arc::new(AtomicBool::new(false));
    let normal = Breadth::default();
    let mut out: Vec<Planned> = beam(pos, Order::Score, &[], None, normal)
        .into_iter()
        .take(CANDIDATES)
        .map(|(_, turn)| Planned {
            score: reply_score(pos, &turn, None, normal, &stop, table).0,
            turn,
        })
        .collect();
    out.sort_by_key(|p| std::cmp::Reverse(p.score));
    out
}

/// The mover's score of the position after `turn`, counting what the
/// opponent's next turn can do: a mate the probe finds, else the static
/// score less the material its raid takes and the mate threat of the
/// move-budget bound. Also the nodes spent. `breadth` grows the raid and
/// the probe.
fn reply_score(
    pos: &Position,
    turn: &[Move],
    deadline: Option<Instant>,
    breadth: Breadth,
    stop: &Arc<AtomicBool>,
    table: &MateTable,
) -> (i32, u64) {
    let after = pos.after_moves(turn);
    if is_mated(&after) {
        return (MATES, 0);
    }
    if legal_moves(&after).is_empty() {
        return (0, 0);
    }
    let moves = after.moves_left();
    let need = lower_bound(&after, moves).min(moves + 1);
    let mut nodes = 0;
    if need <= moves {
        let budget = mate::Budget {
            nodes: breadth.scale(MATE_PROBE_NODES),
            deadline,
            threads: 1,
            stop: Some(stop),
        };
        let answer = mate::find_mate(&after, &budget, table);
        nodes += answer.nodes;
        if matches!(answer.verdict, mate::Verdict::Mate(_)) {
            return (MATED, nodes);
        }
    }
    let threat = THREAT_PER_MOVE * (moves + 1 - need) as i32;
    let taken = raid(&after, breadth.scale(RAID_NODES));
    nodes += taken.nodes;
    let lost = (taken.gain - retaken(&after, &taken.line)).max(0);
    (-evaluate_static(&after) - threat - lost, nodes)
}

/// What our next turn takes back of a raid: the raiding pieces that end
/// the raider's `line` (from `pos`) on a square we attack. A raid deep in
/// our camp mostly costs the raider its last piece; a cheap bound, not a
/// search of our answer.
fn retaken(pos: &Position, line: &[Move]) -> i32 {
    let raider = pos.side_to_move();
    let mut p = pos.clone();
    for &mv in line {
        p.play(mv);
    }
    let occ = p.occupied();
    let mut back = 0;
    for (i, mv) in line.iter().enumerate() {
        let sq = mv.to();
        // Only where a raiding piece stays: no later move leaves the square.
        if line[i + 1..].iter().any(|later| later.from() == sq) {
            continue;
        }
        if let Some(piece) = p.piece_at(sq)
            && piece.color == raider
            && p.attackers(sq, raider.other(), occ).nonempty()
        {
            back += VALUES[piece.role.index()];
        }
    }
    back
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::chess::notation::parse_uci;
    use crate::search::raid::tests::after;
    use crate::search::searcher::tests::is_legal_turn;

    fn line(pos: &Position, ucis: &str) -> Vec<Move> {
        let mut p = pos.clone();
        ucis.split(',')
            .map(|u| {
                let mv = parse_uci(&p, u).unwrap();
                p.play(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn the_planner_returns_legal_whole_turns() {
        let table = MateTable::new(1);
        for (rules, turns) in [
            (Rules::Italian, &["e2e4", "e7e5,d7d5", "g1f3,f1c4,b1c3"][..]),
            (
                Rules::Scottish,
                &["d2d4", "e7e6,d8h4", "e2e4,g1f3,f1d3"][..],
            ),
        ] {
            let pos = after(rules, turns);
            let ranked = ranked(&pos, &table);
            assert!(!ranked.is_empty());
            for p in &ranked {
                assert!(is_legal_turn(&pos, &p.turn), "{rules:?}: {:?}", p.turn);
            }
        }
    }

    #[test]
    fn the_search_turn_that_walks_into_the_knight_raid_is_replaced() {
        // 1. Nc3 2. b6 g5: `3. d4 Bxg5 Bxe7` loses bishop, knight and queen
        // to 4. Nxe7 Nd5 Nxc3 Nxd1; scored by the raid, another turn wins.
        let table = MateTable::new(1);
        let stop = Arc::new(AtomicBool::new(false));
        for rules in [Rules::Italian, Rules::Scottish] {
            let pos = after(rules, &["b1c3", "b7b6,g7g5"]);
            let bad = line(&pos, "d2d4,c1g5,g5e7");
            let normal = Breadth::default();
            let (chosen, ranked, _) = choose(&pos, &bad, &[], None, normal, &stop, &table);
            assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
            assert_ne!(chosen.turn, bad, "{rules:?}");
            assert!(is_legal_turn(&pos, &chosen.turn));
            let (walked_in, _) = reply_score(&pos, &bad, None, normal, &stop, &table);
            // The raid's knight is taken back (330); the rest is lost.
            assert!(walked_in < -1000, "{rules:?}: {walked_in}");
            assert!(chosen.score > walked_in + 800, "{rules:?}: {chosen:?}");
        }
    }

    #[test]
    fn a_mate_in_a_long_turn_is_played_with_the_planner_on() {
        // White's seven moves: six quiet ones, then Ra8 mates.
        let pos =
            crate::chess::fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 7", Rules::Italian).unwrap();
        assert!(plans(&pos));
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let style = crate::search::levels::Style::default();
        let mut searcher = crate::search::Searcher::new(4);
        let r = crate::search::play(&mut searcher, &pos, &limits, style, &stop, |_| {});
        assert!(crate::mate::is_mating_line(&pos, &r.turn), "{:?}", r.turn);
    }
}
