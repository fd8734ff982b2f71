//! A mating turn that the safety net finds (the root's mate check missed
//! it) is reported as `score mate 1` (issue 20, item 3: it was `score cp
//! 100000`, the net's internal score of a mating turn).

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove_of};

use crescendo::chess::notation::parse_uci;
use crescendo::chess::{Rules, fen};
use crescendo::mate::is_mating_line;

#[test]
fn a_mating_turn_found_by_the_safety_net_is_reported_as_mate_1() {
    // Black mates in this turn of 22 moves (a7-bishop tempo moves, then
    // a1=Q and Qc1#), beyond the root's mate check: the finder needs
    // 1 384 476 nodes (`crescendo mate --nodes 400000`: unknown). The turn
    // the search picks lets White mate, and an alternative of the net
    // mates (3 300 net nodes). Found by scanning random variants of this
    // test's first position (4n2k/8/8/1r2p2p/p1P1P2r/N4R2/3K2R1/6B1 b - -
    // 0 20, which the finder now solves in 68 768 nodes). The node limit
    // keeps the turn planner (turns 7 to 30, plan.rs) out, which would find
    // this mate before the net: the search (its root check included) takes
    // its share, 38 798 nodes, and the 111 000 left are below the
    // planner's 125 000. No position was found where the net, not the
    // planner or the root's check, finds the mate under `go depth 1` alone.
    let text = "4n2k/b7/8/1r2p3/p1P1P2r/N3NR2/3K2R1/6B1 b - - 0 22";
    let mut e = Engine::start();
    e.send(&format!("position fen {text}"));
    e.send("go depth 1 nodes 150000");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(infos.len() >= 2, "{lines:?}");
    assert!(
        infos[0].contains(" score cp "),
        "the search saw no mate: {lines:?}"
    );
    let last = infos.last().unwrap();
    assert!(last.contains(" score mate 1 "), "{last}");
    assert!(
        lines.iter().all(|l| !l.contains("score cp 100000")),
        "{lines:?}"
    );
    // The bestmove is that mate, by the rules core, and the last pv is it.
    let pos = fen::parse(text, Rules::Italian).unwrap();
    let token = bestmove_of(&lines);
    let mut p = pos.clone();
    let turn: Vec<_> = token
        .split(',')
        .map(|m| {
            let mv = parse_uci(&p, m).unwrap();
            p.play(mv);
            mv
        })
        .collect();
    assert!(is_mating_line(&pos, &turn), "{token}");
    assert!(
        last.ends_with(&format!(" pv {}", token.replace(',', " "))),
        "{last}"
    );
    e.quit();
}
