//! Deciding a turn: THE entry behind `go` (and every caller that plays).
//!
//! One time plan is made when the turn starts ([`time::plan`]); then the
//! player's style picks the turn: a baseline (`random`, `greedy`), the full
//! search, or the search weakened to a level ([`super::levels`]); last, the
//! safety net ([`super::safety`]) checks that the opponent cannot mate after the chosen
//! turn, with the rest of the time, and replaces it when it can.

use super::baseline;
use super::breadth::Breadth;
use super::levels::{Baseline, Rng, Style, handicap, overlooks, weakened};
use super::limits::{Limits, SAFETY_NODES};
use super::plan;
use super::ponder;
use super::result::{SearchInfo, SearchResult};
use super::root_moves;
use super::safety::{self, SafetyBudget, Verdict};
use super::score::Score;
use super::searcher::Searcher;
use super::time::{self, Net, TimePlan};
use super::worker::NODE_SLACK;
use crate::chess::{Move, Position, status};
use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Plays a turn in `pos` in `style`: the search (weakened below full
/// strength, see [`levels`]) or a baseline, then the safety net.
pub fn play(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    style: Style,
    stop: &Arc<AtomicBool>,
    on_info: impl FnMut(&SearchInfo),
) -> SearchResult {
    let restricted = root_moves::legal_limits(pos, limits);
    let limits = restricted.as_ref().unwrap_or(limits);
    let (mut result, mates) = decide(searcher, pos, limits, style, stop, on_info);
    result.ponder = ponder::expected_reply(pos, &result.turn, &result.pv, &mates);
    result
}

/// [`play`]'s turn, and the opponent's mates the safety net found against
/// the turns it checked (for [`ponder::expected_reply`]).
fn decide(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    style: Style,
    stop: &Arc<AtomicBool>,
    mut on_info: impl FnMut(&SearchInfo),
) -> (SearchResult, Vec<Vec<Move>>) {
    let started = limits.started.unwrap_or_else(Instant::now);
    let mut rng = Rng::new(style.seed ^ pos.key());
    if style.baseline != Baseline::None {
        let plan = time::plan(limits, started, Net::Off);
        let turn = baseline::turn(searcher, pos, limits, &plan, style.baseline, stop, &mut rng);
        return (turn, Vec::new());
    }
    // The one time plan of the turn: the search's share, then the net's.
    let handicap = handicap(style.skill);
    // How wide the turn's whole-turn looks are: one value for all three.
    let breadth = Breadth::of(limits);
    let mut threat_nodes = 0;
    let net = match limits.safety_nodes {
        Some(0) => Net::Off,
        _ if handicap.is_none() => {
            let (threat, nodes) = threatened(pos, limits, breadth, started, stop, searcher);
            threat_nodes = nodes;
            if threat { Net::Threatened } else { Net::After }
        }
        _ => Net::After,
    };
    let plan = time::plan(limits, started, net);
    // A long turn is also planned as a whole (plan.rs): it takes the end
    // of the search's share.
    let planning = handicap.is_none() && plan::plans(pos);
    let search_plan = if planning {
        plan::search_share(&plan, started)
    } else {
        plan
    };
    // `go nodes N` is shared the same way: the net gets what the search left.
    let search_limits = Limits {
        nodes: limits
            .nodes
            .map(|n| net.search_nodes(n.saturating_sub(threat_nodes))),
        ..limits.clone()
    };
    // Whether an iteration was reported: on a loaded machine the turn may
    // be finished before depth 1 is, and the GUI must still see its line.
    let reported = Cell::new(false);
    let mut on_info = |info: &SearchInfo| {
        reported.set(true);
        on_info(info);
    };
    let mut result = match handicap {
        None => searcher.search_until(pos, &search_limits, &search_plan, stop, &mut on_info),
        Some(h) => weakened(
            searcher,
            pos,
            &search_limits,
            &plan,
            h,
            stop,
            &mut rng,
            &mut on_info,
        ),
    };
    result.nodes += threat_nodes;
    let searched = result.turn.clone();
    let mut ranked = Vec::new();
    if planning && !matches!(result.score, Score::Mate(m) if m > 0) && !result.turn.is_empty() {
        ranked = plan::replan(
            pos,
            limits,
            plan.hard,
            breadth,
            stop,
            searcher.mate_table(),
            &mut result,
        );
    }
    let ranked: Vec<(i32, Vec<Move>)> = ranked.into_iter().map(|p| (p.score, p.turn)).collect();
    let safety_nodes = match handicap {
        None => limits.safety_nodes.unwrap_or(SAFETY_NODES),
        Some(h) if overlooks(pos, h, &mut rng) => 0,
        Some(h) => h.safety_nodes.min(limits.safety_nodes.unwrap_or(u64::MAX)),
    };
    let mut mates = Vec::new();
    if safety_nodes > 0 && !matches!(result.score, Score::Mate(1)) && !result.turn.is_empty() {
        mates = make_safe(
            searcher,
            pos,
            limits,
            Checks {
                nodes: safety_nodes,
                preferred: &ranked,
                breadth,
                // The levels were spaced without the rescue's time
                // (bench/strength.md): they keep the usual end.
                rescue: if handicap.is_none() {
                    plan.rescue
                } else {
                    plan.turn
                },
            },
            &plan,
            stop,
            &mut result,
        );
    }
    if result.turn != searched && !status::is_legal_turn(pos, &result.turn) {
        // The planner and the net build turns of their own; one cut short
        // or with an illegal move would forfeit the game, so the rules core
        // has the last word and the search's own turn is played instead.
        log::error!(
            "not a legal turn, the search's turn played: {:?}",
            result.turn
        );
        result.turn = searched.clone();
        result.pv = searched.clone();
    }
    if (result.turn != searched || !reported.get()) && !result.turn.is_empty() {
        // The planner or the net changed the turn, or no iteration was
        // finished: the GUI's last pv would otherwise disagree with the
        // bestmove, or be missing.
        on_info(&SearchInfo {
            depth: result.depth,
            seldepth: result.depth,
            multipv: 1,
            score: result.score,
            nodes: result.nodes,
            time: started.elapsed(),
            hashfull: 0,
            pv: result.turn.clone(),
        });
    }
    (result, mates)
}

/// Finder nodes of the look at the opponent's threat before the search.
const THREAT_NODES: u64 = 20_000;
/// Part of the turn's time budget that look may take at most, in percent.
const THREAT_TIME_SHARE: u32 = 5;

/// Does the opponent mate in its next turn if we pass ours? Then most of
/// our turns lose too, and the net's time matters more than the search's.
/// Also the finder nodes the look took.
fn threatened(
    pos: &Position,
    limits: &Limits,
    breadth: Breadth,
    started: Instant,
    stop: &Arc<AtomicBool>,
    searcher: &Searcher,
) -> (bool, u64) {
    if pos.in_check() {
        // No pass from check (the opponent would take the king); the net's
        // usual share is enough for a turn whose first move must escape.
        return (false, 0);
    }
    let budget = crate::mate::Budget {
        nodes: breadth
            .scale(THREAT_NODES)
            .min(limits.nodes.unwrap_or(u64::MAX) / 10),
        deadline: time::budget(limits)
            .hard
            .map(|t| started + t * THREAT_TIME_SHARE / 100),
        threads: 1,
        stop: Some(stop),
    };
    let answer = crate::mate::opponent_threat(pos, &budget, searcher.mate_table());
    let threat = matches!(answer.verdict, crate::mate::Verdict::Mate(_));
    (threat, answer.nodes)
}

/// What the safety net is given to check with: the finder nodes of a
/// turn's first check, and the alternatives to try first (the planner's
/// ranked turns, with their scores), the turn's breadth, and when it
/// must stop looking for a safe turn once the search's is proved lost.
struct Checks<'a> {
    nodes: u64,
    preferred: &'a [(i32, Vec<Move>)],
    breadth: Breadth,
    /// The turn's end once the search's turn is proved lost.
    rescue: Option<Instant>,
}

/// Runs the safety net ([`super::safety`]) on the chosen turn; the search
/// left it the rest of the time budget. Returns the opponent's mates it
/// found against the turns it checked.
fn make_safe(
    searcher: &Searcher,
    pos: &Position,
    limits: &Limits,
    checks: Checks,
    plan: &TimePlan,
    stop: &Arc<AtomicBool>,
    result: &mut SearchResult,
) -> Vec<Vec<Move>> {
    // More threads check each turn faster, so more candidates fit in the
    // time; the nodes per check stay (a bigger check measured worse: fewer
    // candidates, bench/strength.md).
    let threads = limits.threads.max(1);
    // `go nodes N` counts the net's nodes too: it gets what the search left.
    let max_nodes = limits
        .nodes
        .map(|n| n.saturating_add(NODE_SLACK).saturating_sub(result.nodes));
    if max_nodes == Some(0) {
        return Vec::new();
    }
    let budget = SafetyBudget {
        nodes_per_check: checks.nodes,
        deadline: plan.turn,
        rescue: checks.rescue,
        threads,
        max_nodes,
        breadth: checks.breadth,
    };
    let mut outcome = safety::secure_within(
        pos,
        &result.turn,
        &limits.searchmoves,
        checks.preferred,
        budget,
        stop,
        searcher.mate_table(),
    );
    result.nodes += outcome.nodes;
    let mates = std::mem::take(&mut outcome.refutations);
    match outcome.verdict {
        Verdict::Safe | Verdict::Undecided => {}
        Verdict::Replaced { turn, score, .. } => {
            // A replacement that mates (the root's mate check, on a small
            // node budget, missed it) is reported as the mate it is.
            result.score = if crate::mate::is_mating_line(pos, &turn) {
                Score::Mate(1)
            } else {
                Score::Cp(score)
            };
            result.turn = turn.clone();
            result.pv = turn;
        }
        ref lost @ Verdict::Lost { ref turn, .. } => {
            result.notes.extend(lost.note());
            result.turn = turn.clone();
            result.pv = turn.clone();
            result.score = Score::Mate(-1);
        }
    }
    mates
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};
    use crate::search::levels::LEVELS;
    use crate::search::searcher::tests::{assert_node_limits_hold, is_legal_turn};

    fn styles() -> Vec<Style> {
        let mut v = vec![
            Style {
                baseline: Baseline::Random,
                ..Style::default()
            },
            Style {
                baseline: Baseline::Greedy,
                ..Style::default()
            },
        ];
        for (_, skill) in LEVELS {
            v.push(Style {
                skill,
                ..Style::default()
            });
        }
        v
    }

    fn play_with(pos: &Position, style: Style, depth: u32) -> SearchResult {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        play(&mut Searcher::new(4), pos, &limits, style, &stop, |_| {})
    }

    #[test]
    fn go_nodes_counts_every_node_of_the_turn_the_safety_net_included() {
        // Before: `go nodes 1` spent 3.5 M nodes here (the net's checks).
        let stop = Arc::new(AtomicBool::new(false));
        let limits = [(1, 1), (1_000, 1), (100_000, 1)];
        assert_node_limits_hold(&limits, |pos, limits| {
            let style = Style::default();
            play(&mut Searcher::new(4), pos, limits, style, &stop, |_| {})
        });
    }

    #[test]
    fn the_threat_look_sees_a_mate_after_a_pass_and_never_passes_from_check() {
        let stop = Arc::new(AtomicBool::new(false));
        let searcher = Searcher::new(4);
        let limits = Limits::default();
        let look = |text: &str| {
            let pos = fen::parse(text, Rules::Italian).unwrap();
            threatened(
                &pos,
                &limits,
                Breadth::of(&limits),
                Instant::now(),
                &stop,
                &searcher,
            )
            .0
        };
        // Black passes: White's five moves mate (Nd6 or Nf6 and the rest).
        assert!(look(
            "rnbqkbnr/pppppppp/8/8/3PN3/8/PPP1PPPP/R1BQKBNR b KQkq - 0 4"
        ));
        assert!(!look(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ));
        // In check (the queen on d1): passing would let Black take the king.
        assert!(!look(
            "rnbNkbnr/pp2pppp/8/8/8/8/PPPP1PPP/RNBqKB1R w KQkq - 0 5"
        ));
    }

    #[test]
    fn a_mating_turn_found_by_the_safety_net_scores_mate_1() {
        // Black mates in this turn of 20 moves, but not within the 1000
        // nodes of `go nodes 1000`'s root check; the turn searched then
        // lets White mate, and the net's first alternative mates. It was
        // reported as cp 100000 (the net's internal score of a mating turn).
        let pos = fen::parse(
            "2r1kb1r/p1pnpp1p/b6Q/4P1pP/Pp6/5P2/1PP3P1/RNB1KBR1 b Qk a3 0 20",
            Rules::Italian,
        )
        .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let mut searcher = Searcher::new(4);
        let searched = Limits {
            nodes: Some(1_000),
            safety_nodes: Some(0),
            ..Limits::default()
        };
        let mut result = searcher.search(&pos, &searched, &stop, |_| {});
        assert!(!crate::mate::is_mating_line(&pos, &result.turn));
        assert_ne!(result.score, Score::Mate(1));
        let plan = TimePlan {
            soft: None,
            hard: None,
            turn: None,
            rescue: None,
        };
        let limits = Limits::default();
        let mates = make_safe(
            &searcher,
            &pos,
            &limits,
            Checks {
                nodes: SAFETY_NODES,
                preferred: &[],
                breadth: Breadth::of(&limits),
                rescue: None,
            },
            &plan,
            &stop,
            &mut result,
        );
        assert!(!mates.is_empty(), "the searched turn lets White mate");
        assert!(
            crate::mate::is_mating_line(&pos, &result.turn),
            "{:?}",
            result.turn
        );
        assert_eq!(result.score, Score::Mate(1));
    }

    #[test]
    fn every_player_makes_legal_turns() {
        let pos = fen::parse(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 5",
            Rules::Italian,
        )
        .unwrap();
        for style in styles() {
            for seed in 0..3 {
                let r = play_with(&pos, Style { seed, ..style }, 3);
                assert!(is_legal_turn(&pos, &r.turn), "{style:?}: {:?}", r.turn);
                assert!(!r.turn.is_empty());
            }
        }
    }

    #[test]
    fn every_player_plays_a_mate_in_this_turn() {
        for (text, rules) in [
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Italian),
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Scottish),
            ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 4", Rules::Italian),
        ] {
            let pos = fen::parse(text, rules).unwrap();
            for style in styles() {
                let r = play_with(&pos, style, 2);
                assert!(
                    crate::mate::is_mating_line(&pos, &r.turn),
                    "{text} {style:?}: {:?}",
                    r.turn
                );
            }
        }
    }

    #[test]
    fn the_turn_that_walks_into_the_knight_raid_is_not_played() {
        // Issue 15: after 1. Nc3 2. b6 g5, `3. d4 Bxg5 Bxe7` loses bishop,
        // knight and queen to 4. Nxe7 Nd5 Nxc3 Nxd1. At the depths the
        // search reaches at 1+0.05 it was played: the search's own turn
        // was mated and the net's score beam offered this one first.
        for rules in [Rules::Italian, Rules::Scottish] {
            let pos = crate::search::raid::tests::after(rules, &["b1c3", "b7b6,g7g5"]);
            let bishop_lost = |turn: &[Move]| {
                let end = pos.after_moves(turn);
                let e7 = crate::chess::Square::parse("e7").unwrap();
                end.piece_at(e7)
                    .is_some_and(|p| p.color == crate::chess::Color::White)
            };
            for depth in [1, 2] {
                let r = play_with(&pos, Style::default(), depth);
                assert!(is_legal_turn(&pos, &r.turn), "{rules:?}: {:?}", r.turn);
                assert!(
                    !bishop_lost(&r.turn),
                    "{rules:?} depth {depth}: {:?}",
                    r.turn
                );
            }
        }
    }

    #[test]
    fn greedy_takes_a_hanging_queen() {
        let pos = fen::parse("4k3/8/8/3q4/8/8/8/R3K3 w - - 0 3", Rules::Italian).unwrap();
        let style = Style {
            baseline: Baseline::Greedy,
            ..Style::default()
        };
        let r = play_with(&pos, style, 1);
        let mut p = pos.clone();
        for &mv in &r.turn {
            p.play(mv);
        }
        assert!(
            p.pieces(crate::chess::Color::Black, crate::chess::Role::Queen)
                .is_empty()
        );
    }
}
