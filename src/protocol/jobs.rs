//! What the search thread runs for Progressive chess: search, `go mate`,
//! `go perft` and `bench`, each printing its own protocol lines.

use super::command::Go;
use super::game::JobContext;
use super::ponder::Ended;
use crate::chess::{Color, Move, Position, Rules, legal_moves, perft};
use crate::mate::{self, Verdict};
use crate::search::{Limits, Score, SearchInfo, Searcher, bench, root_moves};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Moves `go mate` may try when the GUI gives no `nodes` or `movetime`.
const DEFAULT_MATE_NODES: u64 = 10_000_000;

/// The moves joined for `bestmove`, or `(none)`; then ` ponder <reply>`
/// when a reply is expected.
fn bestmove_line(turn: &[Move], reply: &[Move]) -> String {
    if turn.is_empty() {
        return "bestmove (none)".to_string();
    }
    let joined = |moves: &[Move]| {
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        texts.join(",")
    };
    if reply.is_empty() {
        format!("bestmove {}", joined(turn))
    } else {
        format!("bestmove {} ponder {}", joined(turn), joined(reply))
    }
}

fn pv_text(pv: &[Move]) -> String {
    let moves: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}

fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// An `info` line for a finished iteration.
pub fn info_line(info: &SearchInfo) -> String {
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} hashfull {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps(),
        info.time.as_millis(),
        info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv_text(&info.pv));
    }
    line
}

/// The search limits of a `go` for the side to move, with the engine's
/// options (threads, lines, move overhead) and the first moves allowed.
fn limits(go: &Go, side: Color, searchmoves: Vec<Move>, ctx: &JobContext) -> Limits {
    Limits {
        depth: go.depth,
        nodes: go.nodes,
        movetime: go.movetime,
        clock: go.clocks()[side.index()],
        infinite: go.infinite,
        move_overhead: Duration::from_millis(ctx.move_overhead_ms),
        threads: ctx.threads,
        multipv: ctx.multipv,
        searchmoves,
        started: Some(ctx.received),
        ..Limits::default()
    }
}

/// `go` (a search): info lines, then one `bestmove`. `go ponder` searches
/// without limits until `ponderhit` (then under the `go`'s limits, from
/// that instant, on the tables the pondering filled) or `stop` (then the
/// pondering's turn is the answer).
pub fn search(
    searcher: &mut Searcher,
    pos: &Position,
    go: &Go,
    searchmoves: Vec<Move>,
    ctx: &JobContext,
) {
    let mut limits = limits(go, pos.side_to_move(), searchmoves, ctx);
    let print = |info: &SearchInfo| ctx.out.line(&info_line(info));
    let play = |searcher: &mut Searcher, limits: &Limits, stop| {
        crate::search::play(searcher, pos, limits, ctx.style, stop, print)
    };
    let result = if go.ponder {
        let pondering = Limits {
            infinite: true,
            ..limits.clone()
        };
        let found = play(searcher, &pondering, ctx.ponder.end_flag());
        match ctx.ponder.wait(ctx) {
            Ended::Stopped => found,
            Ended::Hit(at) => {
                limits.started = Some(at);
                play(searcher, &limits, &ctx.stop)
            }
        }
    } else {
        play(searcher, &limits, &ctx.stop)
    };
    for note in &result.notes {
        ctx.out.line(&format!("info string {note}"));
    }
    if go.infinite {
        wait_for_stop(ctx); // UCI: no bestmove before `stop` in infinite mode
    }
    ctx.last_line(&bestmove_line(&result.turn, &result.ponder));
}

/// Waits for `stop` (a `go infinite` prints no `bestmove` before it).
pub fn wait_for_stop(ctx: &JobContext) {
    while !ctx.stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// `go mate`: a mate in this turn (starting with one of `searchmoves`,
/// if given), or why there is none.
pub fn mate(searcher: &Searcher, pos: &Position, go: &Go, searchmoves: &[Move], ctx: &JobContext) {
    let start = Instant::now();
    let unbounded = go.infinite;
    let budget = mate::Budget {
        nodes: match (go.nodes, unbounded, go.movetime) {
            (Some(n), _, _) => n,
            (None, true, _) | (None, false, Some(_)) => u64::MAX,
            (None, false, None) => DEFAULT_MATE_NODES,
        },
        deadline: go.movetime.map(|t| start + t),
        threads: ctx.threads,
        stop: Some(&ctx.stop),
    };
    let outcome = root_moves::find_mate(pos, searchmoves, &budget, searcher.mate_table());
    let elapsed = start.elapsed();
    let nps = (outcome.nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64;
    let turn = match outcome.verdict {
        Verdict::Mate(line) => {
            ctx.out.line(&format!(
                "info depth {} seldepth {} score mate 1 nodes {} nps {nps} time {} pv {}",
                line.len(),
                line.len(),
                outcome.nodes,
                elapsed.as_millis(),
                pv_text(&line)
            ));
            line
        }
        Verdict::NoMate => {
            ctx.out.line("info string no mate in this turn (proved)");
            Vec::new()
        }
        Verdict::Unknown => {
            ctx.out
                .line("info string no mate in this turn (unknown, limit reached)");
            Vec::new()
        }
    };
    if go.infinite {
        wait_for_stop(ctx);
    }
    ctx.last_line(&bestmove_line(&turn, &[]));
}

/// `go perft T`: sequences per first move, then the total. The walk looks
/// at `stop` every few thousand nodes; when stopped, the counts so far are
/// printed (the move being counted last with its partial count), then
/// `info string perft stopped` and the partial total. Counts saturate at
/// 2^64 - 1, announced by an `info string` line.
pub fn perft(pos: &Position, turns: u32, ctx: &JobContext) {
    let mut total: u64 = 0;
    for &mv in legal_moves(pos).iter() {
        let n = perft::sequences_after(pos, mv, turns, &ctx.stop);
        ctx.out.line(&format!("{mv}: {}", n.sequences));
        total = total.saturating_add(n.sequences);
        if n.stopped || ctx.stop.load(Ordering::Relaxed) {
            ctx.out.line("info string perft stopped");
            break;
        }
    }
    if total == u64::MAX {
        ctx.out.line(&format!(
            "info string perft overflow: {total} is a lower bound (the count exceeds 64 bits)"
        ));
    }
    ctx.last_line(&format!("Nodes searched: {total}"));
}

/// `bench`: the fixed search benchmark; prints each position's result, the
/// node signature and the speed.
pub fn bench(rules: Rules, depth: Option<u32>, ctx: &JobContext) {
    let depth = depth.unwrap_or(bench::BENCH_DEPTH);
    let count = bench::BENCH_FENS.len();
    let report = bench::run(rules, depth, &ctx.stop, |i, result| {
        ctx.out.line(&format!(
            "info string bench position {}/{count} nodes {} {}",
            i + 1,
            result.nodes,
            bestmove_line(&result.turn, &[])
        ));
    });
    ctx.out.line(&format!("Nodes searched: {}", report.nodes));
    ctx.last_line(&format!("Nodes/second: {}", report.nps()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestmove_joins_the_turn() {
        assert_eq!(bestmove_line(&[], &[]), "bestmove (none)");
        let pos = Position::startpos(Rules::Italian);
        let e4 = crate::chess::notation::parse_uci(&pos, "e2e4").unwrap();
        let mut after = pos.clone();
        after.play(e4);
        let e5 = crate::chess::notation::parse_uci(&after, "e7e5").unwrap();
        after.play(e5);
        let qh4 = crate::chess::notation::parse_uci(&after, "d8h4").unwrap();
        assert_eq!(bestmove_line(&[e4], &[]), "bestmove e2e4");
        assert_eq!(
            bestmove_line(&[e4], &[e5, qh4]),
            "bestmove e2e4 ponder e7e5,d8h4"
        );
    }
}
