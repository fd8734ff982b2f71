//! Linear Progression behind the [`Game`] interface, and what its search
//! thread runs (search, `go perft`, `bench`). The rules and the search are
//! those of [`crate::linear`]; this file only translates the protocol.

use super::command::{Go, Start, shorten};
use super::game::{Game, Job, JobContext};
use super::jobs::wait_for_stop;
use super::options::Options as EngineOptions;
use super::ponder::Ended;
use super::searchmoves;
use crate::linear::{
    BENCH_DEPTH, BENCH_POSITIONS, Color, Limits, Move, Options, Position, Score, SearchInfo,
    SearchResult, Searcher, Status, bench, perft_until_stopped, time,
};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The game state: the rules of new games, the current position, and the
/// search's hash table (kept between the moves of a game).
pub struct LinearGame {
    /// The rules of `position startpos` and `ucinewgame` (the `LP_*`
    /// options); `position fen` brings its own.
    options: Options,
    pos: Position,
    searcher: Arc<Mutex<Searcher>>,
}

impl LinearGame {
    /// A game at the start position of `options`.
    pub fn new(options: Options, hash_mib: usize) -> LinearGame {
        LinearGame {
            options,
            pos: Position::new(&options),
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mib))),
        }
    }

    fn with_searcher(&self, f: impl FnOnce(&mut Searcher)) {
        // A search thread that panicked leaves the table usable.
        f(&mut self.searcher.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

/// Plays the `position ... moves` list; one move per entry.
fn play_entries(mut pos: Position, entries: &[String]) -> Result<Position, String> {
    for (i, text) in entries.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("position: entry {} '{}': {e}", i + 1, shorten(text)))?;
        pos.play(mv);
    }
    Ok(pos)
}

impl Game for LinearGame {
    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        let start_pos = match start {
            Start::StartPos => Position::new(&self.options),
            Start::Fen(text) => text
                .parse::<Position>()
                .map_err(|e| format!("position fen: {e}"))?,
        };
        self.pos = play_entries(start_pos, moves)?;
        Ok(())
    }

    fn new_game(&mut self) {
        self.pos = Position::new(&self.options);
        self.clear_hash();
    }

    fn display(&self) -> Vec<String> {
        display_lines(&self.pos)
    }

    fn game_over(&self) -> Option<String> {
        match self.pos.status() {
            Status::Ongoing => None,
            Status::Over(result) => Some(result.to_string()),
        }
    }

    fn set_hash(&mut self, mib: usize) {
        self.with_searcher(|s| *s = Searcher::new(mib));
    }

    fn clear_hash(&mut self) {
        self.with_searcher(|s| s.clear());
    }

    fn go_job(&self, go: &Go, ctx: JobContext) -> Result<Job, String> {
        let pos = self.pos;
        if let Some(turns) = go.perft {
            return Ok(Box::new(move || perft_job(&pos, turns, &ctx)));
        }
        if go.mate {
            // `go mate` asks for a mate in this turn, which only Progressive
            // chess has; answer as the protocol promises, with a bestmove.
            return Ok(Box::new(move || {
                ctx.out.error(
                    "go mate: Progressive chess only; use go depth, nodes, movetime or a clock",
                );
                ctx.last_line("bestmove (none)");
            }));
        }
        let searchmoves = searchmoves::read(
            &go.searchmoves,
            |text| pos.parse_move(text).map_err(|e| e.to_string()),
            &ctx.out,
        );
        let go = go.clone();
        let searcher = Arc::clone(&self.searcher);
        Ok(Box::new(move || {
            let mut s = searcher.lock().unwrap_or_else(|e| e.into_inner());
            search_job(&mut s, &pos, &go, searchmoves, &ctx);
        }))
    }

    fn bench_job(&self, depth: Option<u32>, ctx: JobContext) -> Job {
        Box::new(move || bench_job(depth, &ctx))
    }

    fn rules_changed(&mut self, options: &EngineOptions) {
        // New rules make the old position meaningless: start afresh, as a
        // change of UCI_Variant does. Re-sending the same values (GUIs
        // send every option before each game) keeps the position.
        if options.lp != self.options {
            self.options = options.lp;
            self.new_game();
        }
    }
}

/// The search limits of a `go` in `pos` at `skill` (the `Skill Level`
/// and `Level` options; the weaker levels search shallower with noise, see
/// [`Limits::skill`]); the `go`'s own depth and node limits come on top.
fn limits(go: &Go, pos: &Position, skill: u32, seed: u64, move_overhead_ms: u64) -> Limits {
    let mut limits = Limits::skill(skill, seed ^ pos.key());
    limits.depth = match (limits.depth, go.depth) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    limits.nodes = go.nodes;
    if !go.infinite {
        let overhead = Duration::from_millis(move_overhead_ms);
        limits.movetime = time::budget(pos, go.movetime, go.clocks(), overhead);
    }
    limits
}

fn moves_text(moves: &[Move]) -> String {
    let texts: Vec<String> = moves.iter().map(Move::to_string).collect();
    texts.join(" ")
}

/// An `info` line for a completed iteration.
pub fn info_line(info: &SearchInfo) -> String {
    let ms = info.time.as_millis();
    let nps = (u128::from(info.nodes) * 1000 / ms.max(1)) as u64;
    let mut line = format!(
        "info depth {} score {} nodes {} nps {nps} time {ms}",
        info.depth,
        info.score.uci(info.pv.len()),
        info.nodes,
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&moves_text(&info.pv));
    }
    line
}

/// The exact result the endgame solver proved, for an `info string`.
fn solved_text(score: Score) -> Option<String> {
    score
        .proven_text()
        .map(|text| format!("info string solved: {text}"))
}

fn bestmove_line(mv: Option<Move>, reply: Option<Move>) -> String {
    match (mv, reply) {
        (Some(mv), Some(reply)) => format!("bestmove {mv} ponder {reply}"),
        (Some(mv), None) => format!("bestmove {mv}"),
        (None, _) => "bestmove (none)".to_string(),
    }
}

/// The reply the principal variation expects after `result`'s move (a
/// turn is one move), if it is legal there.
fn expected_reply(pos: &Position, result: &SearchResult) -> Option<Move> {
    let mv = result.best_move?;
    let (&first, &reply) = (result.pv.first()?, result.pv.get(1)?);
    (first == mv && pos.after(mv).legal_moves().contains(&reply)).then_some(reply)
}

/// `go` (a search): info lines, then one `bestmove`. `go ponder`
/// searches without limits until `ponderhit` (then under the `go`'s
/// limits, counted from that instant) or `stop` (then the pondering's
/// move is the answer).
pub fn search_job(
    searcher: &mut Searcher,
    pos: &Position,
    go: &Go,
    searchmoves: Vec<Move>,
    ctx: &JobContext,
) {
    if ctx.threads > 1 || ctx.multipv > 1 {
        log::debug!("Threads and MultiPV above 1 are not used by the search");
    }
    let mut limits = limits(
        go,
        pos,
        ctx.style.skill,
        ctx.style.seed,
        ctx.move_overhead_ms,
    );
    limits.searchmoves = searchmoves;
    let mut printed = false;
    let mut print = |info: &SearchInfo| {
        ctx.out.line(&info_line(info));
        if info.solved
            && let Some(text) = solved_text(info.score)
        {
            ctx.out.line(&text);
        }
        printed = true;
    };
    let result = if go.ponder {
        let pondering = Limits {
            nodes: None,
            movetime: None,
            deadline: None,
            ..limits.clone()
        };
        let found = searcher.search(pos, &pondering, ctx.ponder.end_flag(), &mut print);
        match ctx.ponder.wait(ctx) {
            Ended::Stopped => found,
            Ended::Hit(at) => {
                limits.deadline = limits.movetime.take().map(|t| at + t);
                searcher.search(pos, &limits, &ctx.stop, &mut print)
            }
        }
    } else {
        searcher.search(pos, &limits, &ctx.stop, &mut print)
    };
    if !printed && result.best_move.is_some() {
        // A forced move (a single legal move, or the pass) is answered
        // without searching; still tell the GUI its score.
        ctx.out.line(&info_line(&SearchInfo {
            depth: result.depth,
            score: result.score,
            nodes: result.nodes,
            time: result.time,
            pv: result.pv.clone(),
            solved: result.solved,
        }));
    }
    if go.infinite {
        wait_for_stop(ctx); // UCI: no bestmove before `stop` in infinite mode
    }
    ctx.last_line(&bestmove_line(
        result.best_move,
        expected_reply(pos, &result),
    ));
}

/// `go perft T`: sequences per first move, then the total. A `stop` cuts
/// the count short inside a first move; the total so far is given.
pub fn perft_job(pos: &Position, turns: u32, ctx: &JobContext) {
    let mut total: u64 = 0;
    for mv in pos.legal_moves() {
        let Some(counts) = perft_until_stopped(&pos.after(mv), turns.saturating_sub(1), &ctx.stop)
        else {
            ctx.out.line("info string perft stopped");
            break;
        };
        let n = counts.sequences;
        ctx.out.line(&format!("{mv}: {n}"));
        total = n.saturating_add(total);
    }
    ctx.last_line(&format!("Nodes searched: {total}"));
}

/// `bench`: fixed positions, fixed depth, a fresh table each; prints the
/// node signature and the speed.
pub fn bench_job(depth: Option<u32>, ctx: &JobContext) {
    let report = bench(depth.unwrap_or(BENCH_DEPTH), &ctx.stop, |i, result| {
        ctx.out.line(&format!(
            "info string bench position {}/{} nodes {} {}",
            i + 1,
            BENCH_POSITIONS.len(),
            result.nodes,
            bestmove_line(result.best_move, None)
        ));
    });
    ctx.out.line(&format!("Nodes searched: {}", report.nodes));
    ctx.last_line(&format!("Nodes/second: {}", report.nps()));
}

/// The `d` output: the board, the position notation, the turn, the rules,
/// the counts, the status and the hash key.
pub fn display_lines(pos: &Position) -> Vec<String> {
    let board = pos.board();
    let (width, height) = (board.width(), board.height());
    let border = format!("   +{}+", "-".repeat(2 * usize::from(width) + 1));
    let mut lines = vec![border.clone()];
    for rank in (0..height).rev() {
        let row: Vec<String> = (0..width)
            .map(|file| {
                crate::linear::Square::new(file, rank)
                    .map_or('?', |sq| cell_char(pos, sq))
                    .to_string()
            })
            .collect();
        lines.push(format!("{:>2} | {} |", rank + 1, row.join(" ")));
    }
    lines.push(border);
    let files: Vec<String> = (0..width)
        .map(|f| char::from(b'a' + f).to_string())
        .collect();
    lines.push(format!("     {}", files.join(" ")));
    lines.push(format!("Fen: {pos}"));
    let side = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let turn = if pos.is_over() {
        "game over".to_string()
    } else if pos.is_drop_turn() {
        format!("{side} to move (drop)")
    } else if pos.legal_moves() == [Move::Pass] {
        format!("{side} to move (must pass: 0000)")
    } else if pos.is_final_move() {
        format!("{side} to move (the extra last move of LP_EqualMoves)")
    } else {
        format!("{side} to move")
    };
    lines.push(format!("Turn: {turn}"));
    let options = pos.options();
    let on = |b: bool| if b { "on" } else { "off" };
    lines.push(format!(
        "Rules: Linear Progression, board {}, equal moves {}, blockers {}",
        options.board,
        on(options.equal_moves),
        on(options.blockers)
    ));
    lines.push(format!(
        "Tokens: White {}, Black {}, empty {}",
        pos.count(Color::White),
        pos.count(Color::Black),
        pos.empty_squares().len()
    ));
    if options.blockers {
        let square = |c| pos.blocker(c).map_or("-".to_string(), |s| s.to_string());
        lines.push(format!(
            "Blockers: White {}, Black {}",
            square(Color::White),
            square(Color::Black)
        ));
    }
    let status = match pos.status() {
        Status::Ongoing => "ongoing".to_string(),
        Status::Over(result) => result.to_string(),
    };
    lines.push(format!("Status: {status}"));
    lines.push(format!("Key: {:016x}", pos.key()));
    lines
}

/// One square of the drawing: `W`/`B` a blocker (whatever is under it),
/// `w`/`b` a token, `.` empty, `#` removed.
fn cell_char(pos: &Position, sq: crate::linear::Square) -> char {
    if pos.blocker(Color::White) == Some(sq) {
        'W'
    } else if pos.blocker(Color::Black) == Some(sq) {
        'B'
    } else if !pos.board().is_usable(sq) {
        '#'
    } else if pos.tokens(Color::White).contains(sq) {
        'w'
    } else if pos.tokens(Color::Black).contains(sq) {
        'b'
    } else {
        '.'
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::entries;
    use crate::search::levels::MAX_SKILL;

    #[test]
    fn entries_play_and_errors_say_where() {
        let start = Position::new(&Options::default());
        let pos = play_entries(start, &entries("@d4 @e5 d4d6")).unwrap();
        assert_eq!(pos.to_string(), "#6#/8/3w4/3wb3/3w4/8/8/#6# b d6 0 - -");
        let e = play_entries(start, &entries("@d4 @d4")).unwrap_err();
        assert!(
            e.starts_with("position: entry 2 '@d4': illegal move '@d4'"),
            "{e}"
        );
        let e = play_entries(start, &entries("@d4 x9")).unwrap_err();
        assert!(
            e.starts_with("position: entry 2 'x9': bad move 'x9'"),
            "{e}"
        );
    }

    #[test]
    fn skill_level_weakens_the_linear_progression_search() {
        let pos = Position::new(&Options::default());
        let full = limits(&Go::default(), &pos, MAX_SKILL, 7, 10);
        assert_eq!((full.depth, full.noise), (None, 0));
        let novice = limits(&Go::default(), &pos, 0, 7, 10);
        assert_eq!(novice.depth, Some(1));
        assert!(novice.noise > 0);
        let capped = Go {
            depth: Some(3),
            ..Go::default()
        };
        assert_eq!(limits(&capped, &pos, 12, 7, 10).depth, Some(3));
        assert_eq!(limits(&capped, &pos, MAX_SKILL, 7, 10).depth, Some(3));
    }

    #[test]
    fn clock_limits_leave_time_on_the_clock() {
        let pos = Position::new(&Options::default());
        let go = Go {
            wtime: Some(Duration::from_millis(60_000)),
            winc: Some(Duration::from_millis(1000)),
            ..Go::default()
        };
        let t = limits(&go, &pos, MAX_SKILL, 0, 10).movetime.unwrap();
        assert!(
            t > Duration::from_millis(2000) && t < Duration::from_millis(5000),
            "{t:?}"
        );
        let low = Go {
            wtime: Some(Duration::from_millis(30)),
            movetime: Some(Duration::from_millis(500)),
            ..Go::default()
        };
        assert!(
            limits(&low, &pos, MAX_SKILL, 0, 10).movetime.unwrap() <= Duration::from_millis(10)
        );
        let infinite = Go {
            infinite: true,
            wtime: Some(Duration::from_millis(30)),
            ..Go::default()
        };
        assert_eq!(limits(&infinite, &pos, MAX_SKILL, 0, 10).movetime, None);
    }

    #[test]
    fn scores_and_results_print() {
        use crate::linear::{EndReason, GameResult};
        assert_eq!(Score::Eval(-35).uci(3), "cp -35");
        assert_eq!(Score::Proven(4).uci(3), "mate 2");
        assert_eq!(Score::Proven(-2).uci(0), "mate -1");
        assert_eq!(Score::Proven(0).uci(5), "cp 0");
        let result = GameResult {
            winner: None,
            white: 2,
            black: 2,
            reason: EndReason::BothPassed,
        };
        assert_eq!(
            result.to_string(),
            "1/2-1/2 (both passed: White 2, Black 2)"
        );
    }

    #[test]
    fn display_shows_the_position_and_status() {
        let text = display_lines(&Position::new(&Options::default())).join("\n");
        assert!(text.contains(" 8 | # . . . . . . # |"), "{text}");
        assert!(text.contains("     a b c d e f g h"));
        assert!(text.contains("Fen: #6#/8/8/8/8/8/8/#6# w - 0 - -"));
        assert!(text.contains("Turn: White to move (drop)"));
        assert!(text.contains("Status: ongoing"));
        let full: Position = "4/4/4/wwbb w - 2 - -".parse().unwrap();
        let text = display_lines(&full).join("\n");
        assert!(
            text.contains("Status: 1/2-1/2 (both passed: White 2, Black 2)"),
            "{text}"
        );
    }
}
