//! Progressive chess (Italian or Scottish rules) behind the [`Game`] interface.

use super::command::{Go, Start, shorten};
use super::game::{Game, Job, JobContext};
use super::jobs;
use super::searchmoves;
use crate::chess::notation::parse_uci;
use crate::chess::status::{Status, Undecided, status_with};
use crate::chess::{Color, Position, Rules, Square, fen, perft};
use crate::mate::{self, MateTable};
use crate::search::Searcher;
use std::sync::{Arc, Mutex};

/// Budget of the mate test behind the ten-quiet-turns rule in `d` and `go`.
const STATUS_MATE_NODES: u64 = 20_000;

/// The game state: rules, the current position, and the search's hash table.
pub struct ProgressiveGame {
    rules: Rules,
    pos: Position,
    searcher: Arc<Mutex<Searcher>>,
}

impl ProgressiveGame {
    /// A game at the start position.
    pub fn new(rules: Rules, hash_mib: usize) -> ProgressiveGame {
        ProgressiveGame {
            rules,
            pos: Position::startpos(rules),
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mib))),
        }
    }

    fn with_searcher(&self, f: impl FnOnce(&mut Searcher)) {
        f(&mut self.searcher.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

/// The game status, with the ten-quiet-turns mate test on a budget: when
/// the budget runs out the game is taken to go on.
pub fn bounded_status(pos: &Position) -> Status {
    thread_local! {
        static TABLE: MateTable = MateTable::new(1);
    }
    let budget = mate::Budget::nodes(STATUS_MATE_NODES);
    let mates = |p: &Position| TABLE.with(|t| mate::find_mate(p, &budget, t).verdict.mates());
    status_with(pos, mates, Undecided::GameGoesOn)
}

/// Plays the entries of a `position ... moves` list: single moves, or
/// comma-joined moves of one turn (as `bestmove` prints them).
fn play_entries(mut pos: Position, entries: &[String]) -> Result<Position, String> {
    for (i, entry) in entries.iter().enumerate() {
        let parts: Vec<&str> = entry.split(',').collect();
        let whole = parts.len() > 1;
        for (j, text) in parts.iter().enumerate() {
            let place = if whole {
                format!(
                    "move {} '{}' of entry {} '{}'",
                    j + 1,
                    shorten(text),
                    i + 1,
                    shorten(entry)
                )
            } else {
                format!("entry {} '{}'", i + 1, shorten(text))
            };
            if text.is_empty() {
                return Err(format!("position: {place}: empty move"));
            }
            let mv =
                parse_uci(&pos, text).map_err(|e| format!("position: {place}: {}", e.message))?;
            let turn_ended = pos.play(mv).turn_ended;
            if turn_ended && j + 1 < parts.len() {
                return Err(format!(
                    "position: {place}: the turn ends with this move, but the entry goes on"
                ));
            }
            if turn_ended {
                fen::check_turn_length(pos.turn_length())
                    .map_err(|e| format!("position: {place}: the next turn: {e}"))?;
            }
        }
    }
    Ok(pos)
}

impl Game for ProgressiveGame {
    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String> {
        let start_pos = match start {
            Start::StartPos => Position::startpos(self.rules),
            Start::Fen(text) => {
                fen::parse(text, self.rules).map_err(|e| format!("position fen: {e}"))?
            }
        };
        self.pos = play_entries(start_pos, moves)?;
        Ok(())
    }

    fn new_game(&mut self) {
        self.pos = Position::startpos(self.rules);
        self.clear_hash();
    }

    fn display(&self) -> Vec<String> {
        display_lines(&self.pos)
    }

    fn game_over(&self) -> Option<String> {
        let status = bounded_status(&self.pos);
        status.is_over().then(|| status.to_string())
    }

    fn set_hash(&mut self, mib: usize) {
        self.with_searcher(|s| s.resize(mib));
    }

    fn clear_hash(&mut self) {
        self.with_searcher(|s| s.clear());
    }

    fn go_job(&self, go: &Go, ctx: JobContext) -> Result<Job, String> {
        let pos = self.pos.clone();
        if let Some(turns) = go.perft {
            perft::check_size(&pos, turns).map_err(|e| format!("go perft: {e}"))?;
            return Ok(Box::new(move || jobs::perft(&pos, turns, &ctx)));
        }
        let searcher = Arc::clone(&self.searcher);
        let searchmoves = searchmoves::read(
            &go.searchmoves,
            |text| parse_uci(&pos, text).map_err(|e| e.message),
            &ctx.out,
        );
        let go = go.clone();
        if go.mate {
            return Ok(Box::new(move || {
                let s = searcher.lock().unwrap_or_else(|e| e.into_inner());
                jobs::mate(&s, &pos, &go, &searchmoves, &ctx)
            }));
        }
        Ok(Box::new(move || {
            let mut s = searcher.lock().unwrap_or_else(|e| e.into_inner());
            jobs::search(&mut s, &pos, &go, searchmoves, &ctx);
        }))
    }

    fn bench_job(&self, depth: Option<u32>, ctx: JobContext) -> Job {
        let rules = self.rules;
        Box::new(move || jobs::bench(rules, depth, &ctx))
    }
}

/// The `d` output: board, FEN, turn, rules, status.
fn display_lines(pos: &Position) -> Vec<String> {
    let mut lines = vec!["  +-----------------+".to_string()];
    for rank in (0..8).rev() {
        let row: Vec<String> = (0..8)
            .map(|file| {
                pos.piece_at(Square::new(file, rank))
                    .map_or('.', |p| p.char())
                    .to_string()
            })
            .collect();
        lines.push(format!("{} | {} |", rank + 1, row.join(" ")));
    }
    lines.push("  +-----------------+".to_string());
    lines.push("    a b c d e f g h".to_string());
    let side = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    lines.push(format!("Fen: {}", fen::to_fen(pos)));
    lines.push(format!(
        "Turn: {side} to move, turn length {}, moves made {}, moves left {}",
        pos.turn_length(),
        pos.moves_made(),
        pos.moves_left()
    ));
    lines.push(format!("Rules: {}", pos.rules().title()));
    lines.push(format!("Status: {}", bounded_status(pos)));
    lines.push(format!("Key: {:016x}", pos.key()));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::entries;

    #[test]
    fn single_moves_and_whole_turns_mix() {
        let start = Position::startpos(Rules::Italian);
        let a = play_entries(start.clone(), &entries("e2e4 e7e5 d7d5 g1f3")).unwrap();
        let b = play_entries(start, &entries("e2e4 e7e5,d7d5 g1f3")).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.moves_made(), 1);
    }

    #[test]
    fn bad_entries_say_where() {
        let start = Position::startpos(Rules::Italian);
        let e = play_entries(start.clone(), &entries("e2e4 e7e5,,d7d5")).unwrap_err();
        assert!(e.contains("entry 2") && e.contains("empty move"), "{e}");
        let e = play_entries(start.clone(), &entries("e2e4,e7e5")).unwrap_err();
        assert!(e.contains("turn ends"), "{e}");
        let e = play_entries(start, &entries("e2e4 e2e5")).unwrap_err();
        assert!(e.contains("entry 2 'e2e5'") && e.contains("illegal"), "{e}");
    }

    #[test]
    fn a_position_reached_by_play_prints_a_fen_that_reads_back() {
        // The last move of the longest turn: the next turn would be longer
        // than any FEN may say, so the move list is refused.
        let last = "4k3/8/8/8/8/8/8/R3K3 w - - 0 10000 9999";
        let start = fen::parse(last, Rules::Italian).unwrap();
        let e = play_entries(start.clone(), &entries("a1a2")).unwrap_err();
        assert!(e.contains("entry 1 'a1a2'") && e.contains("10001"), "{e}");
        // Every position a move list accepts prints a FEN that parses back.
        let one_before = fen::parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 9999 9998", Rules::Italian);
        let pos = play_entries(one_before.unwrap(), &entries("a1a2 e8d8")).unwrap();
        let printed = pos.to_string();
        assert_eq!(
            fen::parse(&printed, Rules::Italian).unwrap(),
            pos,
            "{printed}"
        );
    }

    #[test]
    fn display_shows_fen_turn_and_status() {
        let text = display_lines(&Position::startpos(Rules::Scottish)).join("\n");
        assert!(text.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        assert!(text.contains("turn length 1, moves made 0"));
        assert!(text.contains("Rules: Scottish"));
        assert!(text.contains("Status: ongoing"));
    }
}
