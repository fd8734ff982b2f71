//! Whole-game analysis: for every turn of a game, was a mate in the turn
//! missed, did the played turn allow the opponent a mate in its next turn
//! (and which turn would not have), the engine's best turn and score before
//! the turn, and the score after it.
//!
//! Each position at a turn start is looked at once (the mate finder, then
//! the engine's search if there is no mate), and that look serves twice: as
//! "before" for the turn played from it, and as "after" for the turn that
//! led to it. The engine is reached through the few calls of [`Engine`],
//! so that a reorganisation of the search and the mate finder touches only
//! that block.

use crate::chess::status::{Status, Undecided, status_with};
use crate::chess::{Color, Move, Position, notation::split_turns};
use crate::search::{Limits, Score};

/// Mate-finder nodes per "mate in this turn?" question (missed mates and
/// the opponent's mates after the played turn). Mates left in games are
/// mostly short and found within a few thousand nodes; the budget is for
/// proving that there is none in long turns.
pub const MATE_NODES: u64 = 2_000_000;

/// Mate-finder nodes per turn the safety net checks when it looks for a
/// safe turn (it checks at most eight times as many in all).
pub const SAFE_TURN_NODES: u64 = 400_000;

/// Candidate turns the finder checks at most when the safety net's own
/// choice is not proved safe.
pub const SAFE_TURN_CANDIDATES: usize = 16;

/// What the analysis may spend.
#[derive(Clone, Debug)]
pub struct Budget {
    /// The engine's search per position.
    pub search: Limits,
    /// See [`MATE_NODES`].
    pub mate_nodes: u64,
    /// See [`SAFE_TURN_NODES`].
    pub safe_turn_nodes: u64,
    /// Threads of the search and the mate finder.
    pub threads: usize,
}

impl Budget {
    /// The default mate budgets with `search` for the search.
    pub fn new(search: Limits) -> Budget {
        let threads = search.threads.max(1);
        Budget {
            search,
            mate_nodes: MATE_NODES,
            safe_turn_nodes: SAFE_TURN_NODES,
            threads,
        }
    }
}

/// The facts about one turn of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnReport {
    /// The turn's number (its length).
    pub turn: u32,
    pub side: Color,
    /// The position the turn was played from.
    pub before: Position,
    /// The moves played (fewer than the turn's length only when the game
    /// record ends inside the turn).
    pub played: Vec<Move>,
    /// The played turn mates.
    pub mates: bool,
    /// The turn is complete (the record did not stop inside it).
    pub complete: bool,
    /// The mover had this mate in the turn and played no mate.
    pub missed_mate: Option<Vec<Move>>,
    /// After the played turn the opponent mates in its next turn so.
    pub allows_mate: Option<Vec<Move>>,
    /// When the played turn allows a mate: a turn from `before` after which
    /// the opponent has no mate (proved by the mate finder).
    pub safe_turn: Option<Vec<Move>>,
    /// The engine's best turn (the mate, if there is one).
    pub best: Vec<Move>,
    /// The mover's score before the turn.
    pub score_before: Score,
    /// The mover's score after the played turn, counted as `score_before`
    /// is: `Mate(1)` the played turn mated, `Mate(n)` the mover mates in
    /// its n-th turn counting the played one, `Mate(-n)` the opponent mates
    /// in its n-th turn from now. `None` for an incomplete turn.
    pub score_after: Option<Score>,
    /// The mover's score after the engine's best turn, counted the same
    /// way (the same budget searched the same kind of position, so that the
    /// played turn is compared with the best one on equal terms).
    pub score_after_best: Option<Score>,
}

impl TurnReport {
    /// A blunder: the turn allows a mate and a safe turn existed.
    pub fn is_blunder(&self) -> bool {
        self.allows_mate.is_some() && self.safe_turn.is_some()
    }

    /// `score_before - score_after` in centipawns, when both are
    /// centipawn scores. In Progressive chess the side to move holds the
    /// initiative, so this is mostly positive even for the best turn.
    pub fn loss(&self) -> Option<i32> {
        match (self.score_before, self.score_after?) {
            (Score::Cp(a), Score::Cp(b)) => Some(a - b),
            _ => None,
        }
    }

    /// How much worse the played turn scores than the engine's best turn,
    /// both searched after the turn (0 when the best turn was played), in
    /// centipawns, when both are centipawn scores.
    pub fn loss_vs_best(&self) -> Option<i32> {
        if self.best == self.played && self.complete {
            return Some(0);
        }
        match (self.score_after_best?, self.score_after?) {
            (Score::Cp(a), Score::Cp(b)) => Some(a - b),
            _ => None,
        }
    }
}

/// What is known about a position at a turn start.
#[derive(Clone, Debug)]
struct Look {
    /// The game is over here (the mate question answered by `mate`).
    over: Option<Status>,
    /// The side to move mates in this turn so.
    mate: Option<Vec<Move>>,
    best: Vec<Move>,
    score: Score,
}

/// The engine's search and mate finder, and their tables, kept across the
/// positions of a game. The only block that calls into the engine.
pub struct Engine {
    searcher: crate::search::Searcher,
    table: crate::mate::MateTable,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    budget: Budget,
}

/// The mate finder's answer.
enum Mate {
    Line(Vec<Move>),
    None,
    Unknown,
}

impl Engine {
    pub fn new(budget: Budget, hash_mib: usize) -> Engine {
        Engine {
            searcher: crate::search::Searcher::new(hash_mib.max(1)),
            table: crate::mate::MateTable::new(16),
            stop: Default::default(),
            budget,
        }
    }

    /// Empties the tables (a new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
        self.table = crate::mate::MateTable::new(16);
    }

    fn mate(&self, pos: &Position) -> Mate {
        use crate::mate::{Budget, Verdict, find_mate};
        let budget = Budget {
            threads: self.budget.threads,
            ..Budget::nodes(self.budget.mate_nodes)
        };
        match find_mate(pos, &budget, &self.table).verdict {
            Verdict::Mate(line) => Mate::Line(line),
            Verdict::NoMate => Mate::None,
            Verdict::Unknown => Mate::Unknown,
        }
    }

    /// The engine's turn and score at full strength (the search, then the
    /// root safety net), as `go` plays it.
    fn search(&mut self, pos: &Position) -> (Vec<Move>, Score) {
        use crate::search::levels::Style;
        let r = crate::search::play(
            &mut self.searcher,
            pos,
            &self.budget.search,
            Style::default(),
            &self.stop,
            |_| {},
        );
        (r.turn, r.score)
    }

    /// A turn from `pos` instead of `played` after which the opponent
    /// provably does not mate: the safety net's choice if the finder proves
    /// it, else the first proved of its candidate turns (best by score and
    /// most sheltered, in turns), at most [`SAFE_TURN_CANDIDATES`] of them.
    fn safe_turn(&self, pos: &Position, played: &[Move]) -> Option<Vec<Move>> {
        use crate::search::safety::{
            Order, SafetyBudget, Verdict, candidate_turns, interleave, secure,
        };
        let proved = |turn: &[Move]| {
            let mut after = pos.clone();
            for &mv in turn {
                after.play(mv);
            }
            crate::chess::legal_moves(&after).is_empty() || matches!(self.mate(&after), Mate::None)
        };
        let budget = SafetyBudget {
            nodes_per_check: self.budget.safe_turn_nodes,
            deadline: None,
            rescue: None,
            threads: self.budget.threads,
            max_nodes: None,
            breadth: Default::default(),
        };
        if let Verdict::Replaced { turn, .. } =
            secure(pos, played, budget, &self.stop, &self.table).verdict
            && proved(&turn)
        {
            return Some(turn);
        }
        let by_score = candidate_turns(pos, Order::Score);
        let sheltered = candidate_turns(pos, Order::Shelter);
        let mut tried = Vec::new();
        for (_, turn) in interleave(sheltered, by_score) {
            if tried.len() >= SAFE_TURN_CANDIDATES {
                break;
            }
            if turn == played || tried.contains(&turn) {
                continue;
            }
            if proved(&turn) {
                return Some(turn);
            }
            tried.push(turn);
        }
        None
    }

    fn look(&mut self, pos: &Position) -> Look {
        let mate = self.mate(pos);
        // Undecided, the game is taken to go on (as the engine does).
        let mates = match mate {
            Mate::Line(_) => Some(true),
            Mate::None => Some(false),
            Mate::Unknown => None,
        };
        let over = status_with(pos, |_| mates, Undecided::GameGoesOn);
        if over.is_over() {
            return Look {
                over: Some(over),
                mate: None,
                best: Vec::new(),
                score: Score::Cp(0),
            };
        }
        if let Mate::Line(line) = mate {
            return Look {
                over: None,
                best: line.clone(),
                mate: Some(line),
                score: Score::Mate(1),
            };
        }
        let (best, score) = self.search(pos);
        Look {
            over: None,
            mate: None,
            best,
            score,
        }
    }

    /// The mover's score after playing `turn` from `pos` (see
    /// [`TurnReport::score_after`]); `None` if `turn` is not a whole turn.
    fn score_after(&mut self, pos: &Position, turn: &[Move]) -> Option<Score> {
        if turn.is_empty() {
            return None;
        }
        let mut after = pos.clone();
        if !turn.iter().fold(false, |_, &mv| after.play(mv).turn_ended) {
            return None;
        }
        if crate::mate::is_mating_line(pos, turn) {
            return Some(Score::Mate(1));
        }
        let then = self.look(&after);
        Some(match then.over {
            Some(_) => Score::Cp(0),
            None => from_mover(then.score),
        })
    }

    /// Analyses the game of `moves` from `start`, calling `on_turn` with
    /// each turn's report as it is done.
    pub fn game(&mut self, start: &Position, moves: &[Move], mut on_turn: impl FnMut(TurnReport)) {
        let mut next: Option<Look> = None;
        for (before, played) in split_turns(start, moves) {
            let look = match next.take() {
                Some(l) => l,
                None => self.look(&before),
            };
            let mut after = before.clone();
            let mut complete = false;
            for &mv in &played {
                complete = after.play(mv).turn_ended;
            }
            let mates = complete && crate::mate::is_mating_line(&before, &played);
            let mut report = TurnReport {
                turn: before.turn_length(),
                side: before.side_to_move(),
                missed_mate: look.mate.clone().filter(|_| !mates),
                allows_mate: None,
                safe_turn: None,
                best: look.best.clone(),
                score_before: look.score,
                score_after: None,
                score_after_best: None,
                mates,
                complete,
                played,
                before,
            };
            if mates {
                report.score_after = Some(Score::Mate(1));
            } else if complete {
                let then = self.look(&after);
                report.score_after = Some(match then.over {
                    Some(_) => Score::Cp(0),
                    None => from_mover(then.score),
                });
                report.allows_mate = then.mate.clone();
                if report.allows_mate.is_some() {
                    report.safe_turn = self.safe_turn(&report.before, &report.played);
                }
                next = Some(then);
                if report.best != report.played {
                    report.score_after_best = self.score_after(&report.before, &report.best);
                }
            }
            on_turn(report);
        }
    }
}

/// The status of a game's final position (for checking its result): the
/// ten-quiet-turns rule's mate question goes to the mate finder, and an
/// undecided answer lets the game go on.
pub fn final_status(pos: &Position) -> Status {
    status_with(
        pos,
        |p| crate::mate::mates_this_turn(p, crate::mate::QUIET_TEST_NODES),
        Undecided::GameGoesOn,
    )
}

/// The opponent's score after a turn, seen by the mover and counted from
/// the mover's turn just played (see [`TurnReport::score_after`]).
fn from_mover(opponent: Score) -> Score {
    match opponent {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) if n > 0 => Score::Mate(-n),
        Score::Mate(n) => Score::Mate(1 - n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, pgn};

    fn budget() -> Budget {
        Budget::new(Limits {
            depth: Some(2),
            ..Limits::default()
        })
    }

    fn reports(text: &str) -> Vec<TurnReport> {
        let game = pgn::read_one_game(text, Rules::Italian).unwrap();
        let mut out = Vec::new();
        Engine::new(budget(), 4).game(&game.start, &game.moves, |r| out.push(r));
        out
    }

    #[test]
    fn scores_after_a_turn_are_the_movers() {
        assert_eq!(from_mover(Score::Cp(40)), Score::Cp(-40));
        // The opponent mates in its next turn.
        assert_eq!(from_mover(Score::Mate(1)), Score::Mate(-1));
        // The opponent is mated in the mover's next turn: its second.
        assert_eq!(from_mover(Score::Mate(-1)), Score::Mate(2));
    }

    #[test]
    fn a_mate_played_is_neither_missed_nor_allowed() {
        let r = reports("1. e4 2. f6 g5 3. d3 Nc3 Qh5#");
        assert_eq!(r.len(), 3);
        assert!(r[2].mates && r[2].missed_mate.is_none());
        assert_eq!(r[2].score_after, Some(Score::Mate(1)));
        assert_eq!(r[2].score_before, Score::Mate(1));
        // Black's 2. f6 g5 let White mate, and a safe turn existed.
        assert!(r[1].allows_mate.is_some() && r[1].is_blunder());
        assert_eq!(r[1].score_after, Some(Score::Mate(-1)));
    }

    #[test]
    fn a_turn_that_does_not_mate_misses_the_mate() {
        let r = reports("1. e4 2. f6 g5 3. d3 Nc3 Qf3");
        assert!(!r[2].mates);
        let line = r[2].missed_mate.as_ref().expect("missed");
        assert!(crate::mate::is_mating_line(&r[2].before, line));
        assert_eq!(r[2].best, *line);
    }

    #[test]
    fn an_incomplete_last_turn_has_no_score_after() {
        let r = reports("1. e4 2. e5 Qh4 3. Nf3");
        assert_eq!(r.len(), 3);
        assert!(!r[2].complete);
        assert_eq!(r[2].score_after, None);
        assert!(r[1].complete && r[1].score_after.is_some());
    }
}
