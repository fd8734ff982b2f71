//! The search: its tables, kept between the searches of a game, and what
//! it reports. The search itself (iterative deepening negamax with
//! alpha-beta, a transposition table, move ordering, and an exact endgame
//! solver once few empty squares remain) is in worker.rs.
//!
//! Scores inside the search are centi-squares for the side to move. A
//! finished game scores `WIN + 100 * margin` (negated for a loss, 0 for a
//! draw), so any proven win beats any evaluation and bigger wins beat
//! smaller ones.

use super::limits::Limits;
use super::moves::Move;
use super::position::Position;
use super::score::Score;
use super::tt::Tt;
use super::worker::Worker;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Progress report after each completed iteration (and the solve).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth of the completed iteration, in turns.
    pub depth: u32,
    /// Its score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time spent so far.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Whether the endgame solver proved the score exactly.
    pub solved: bool,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is already over.
    pub best_move: Option<Move>,
    /// Score of the deepest completed iteration.
    pub score: Score,
    /// Depth of the deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Whether the endgame solver proved the score exactly.
    pub solved: bool,
}

/// Searches `pos` with a fresh 16 MiB table (so the answer depends only on
/// the arguments, apart from time limits), calling `info` after each
/// iteration. See [`Searcher::search`].
pub fn search(
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    Searcher::new(16).search(pos, limits, stop, info)
}

/// A search with its transposition table and move-ordering history, kept
/// between searches of one game.
pub struct Searcher {
    table: Tt,
    /// Cutoff counts per (from, to) square pair.
    history: Vec<i32>,
}

impl Searcher {
    /// A searcher with a table of about `hash_mb` MiB (at least 1).
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            table: Tt::new(hash_mb),
            history: vec![0; 256 * 256],
        }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.fill(0);
    }

    /// Finds a move for `pos` within `limits`, or until `stop` is raised
    /// (read every 128 nodes, well under a millisecond). `info` hears of
    /// each completed iteration. Without a time limit or `stop`, the answer
    /// is a function of the position, the limits and the earlier searches
    /// of this searcher.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let deadline = match (limits.deadline, limits.movetime) {
            (Some(d), Some(t)) => Some(d.min(start + t)),
            (d, t) => d.or_else(|| t.map(|t| start + t)),
        };
        let mut worker = Worker {
            table: &mut self.table,
            history: &mut self.history,
            stop,
            start,
            deadline,
            node_limit: limits.nodes,
            nodes: 0,
            aborted: false,
            noise: limits.noise as i32,
            seed: limits.seed,
            root_moves: legal_only(pos, &limits.searchmoves),
            root_best: None,
        };
        worker.iterate(pos, limits, info)
    }
}

/// The moves of `searchmoves` legal in `pos`, in order (empty: no
/// restriction, also when none of them is legal).
fn legal_only(pos: &Position, searchmoves: &[Move]) -> Vec<Move> {
    let legal = pos.legal_moves();
    crate::limits::legal_searchmoves(searchmoves, |mv| legal.contains(&mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linear::Status;
    use crate::linear::worker::POLL_NODES;
    use crate::linear::{Color, Options};

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    fn quiet(pos: &Position, limits: &Limits) -> SearchResult {
        search(pos, limits, &AtomicBool::new(false), &mut |_| {})
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Plain minimax over every legal move: the final square margin for
    /// the side to move.
    fn minimax(pos: &Position) -> i32 {
        if let Status::Over(r) = pos.status() {
            let margin = r.white as i32 - r.black as i32;
            return if pos.side_to_move() == Color::White {
                margin
            } else {
                -margin
            };
        }
        pos.legal_moves()
            .iter()
            .map(|&mv| -minimax(&pos.after(mv)))
            .max()
            .unwrap()
    }

    fn next_random(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random games on `board` stopped with `empties` empty squares left.
    fn endgames(board: &str, options: Options, empties: u32, count: usize) -> Vec<Position> {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let mut found = Vec::new();
        while found.len() < count {
            let mut p = Position::new(&Options {
                board: board.parse().unwrap(),
                ..options
            });
            while p.empty_squares().len() > empties && !p.is_over() {
                let moves = p.legal_moves();
                p.play(moves[next_random(&mut seed) as usize % moves.len()]);
            }
            if !p.is_over() {
                found.push(p);
            }
        }
        found
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax() {
        for (equal_moves, blockers) in [(false, false), (true, false), (false, true), (true, true)]
        {
            let options = Options {
                equal_moves,
                blockers,
                ..Options::default()
            };
            // Plain minimax over every blocker move is slow: fewer empties.
            let empties = if blockers { 2 } else { 5 };
            for p in endgames("5x5", options, empties, 6) {
                let result = quiet(&p, &Limits::default());
                assert!(result.solved, "{p}");
                assert_eq!(result.score, Score::Proven(minimax(&p)), "{p}");
                let best = result.best_move.unwrap();
                assert_eq!(-minimax(&p.after(best)), minimax(&p), "{p}: {best}");
            }
        }
    }

    #[test]
    fn a_depth_limited_search_is_deterministic_and_legal() {
        let p = pos("#6#/8/2b5/3w4/8/8/8/#6# w c6 0 - -");
        let (a, b) = (quiet(&p, &depth(3)), quiet(&p, &depth(3)));
        assert_eq!(
            (a.best_move, a.score, a.nodes, &a.pv),
            (b.best_move, b.score, b.nodes, &b.pv)
        );
        assert_eq!(a.depth, 3);
        assert!(p.legal_moves().contains(&a.best_move.unwrap()));
        let mut q = p;
        for &mv in &a.pv {
            q.play_checked(mv).unwrap();
        }
    }

    #[test]
    fn search_stops_on_the_flag_and_the_node_limit() {
        let start = Position::new(&Options::default());
        let raised = AtomicBool::new(true);
        let result = search(&start, &Limits::default(), &raised, &mut |_| {});
        assert!(result.best_move.is_some() && result.nodes <= POLL_NODES);
        let limited = quiet(
            &start,
            &Limits {
                nodes: Some(5000),
                ..Limits::default()
            },
        );
        assert!(limited.nodes <= 5000 && limited.best_move.is_some());
        let timed = Limits {
            movetime: Some(Duration::from_millis(30)),
            ..Limits::default()
        };
        let clock = Instant::now();
        quiet(
            &start.after(Move::Drop {
                to: "d4".parse().unwrap(),
                blocker: None,
            }),
            &timed,
        );
        assert!(clock.elapsed() < Duration::from_millis(500));
    }

    #[test]
    fn search_reports_each_iteration_and_handles_finished_games() {
        let p = pos("#6#/8/2b5/3w4/8/8/8/#6# w c6 0 - -");
        let mut depths = Vec::new();
        search(&p, &depth(3), &AtomicBool::new(false), &mut |i| {
            depths.push(i.depth)
        });
        assert_eq!(depths, [1, 2, 3]);
        let over = pos("wb#./bb#./###./4 w - 2 - -");
        let result = quiet(&over, &depth(3));
        assert_eq!((result.best_move, result.score), (None, Score::Proven(-2)));
    }

    #[test]
    fn a_shallow_search_beats_random_play() {
        let mut seed = 0x9e37_79b9_7f4a_7c15;
        for game in 0..4 {
            let engine = if game % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mut p = Position::new(&Options {
                board: "6x6".parse().unwrap(),
                ..Options::default()
            });
            while !p.is_over() {
                let mv = if p.side_to_move() == engine {
                    quiet(
                        &p,
                        &Limits {
                            depth: Some(2),
                            solve_empties: Some(8),
                            ..Limits::default()
                        },
                    )
                    .best_move
                    .unwrap()
                } else {
                    let moves = p.legal_moves();
                    moves[next_random(&mut seed) as usize % moves.len()]
                };
                p.play(mv);
            }
            let Status::Over(r) = p.status() else {
                unreachable!()
            };
            let (mine, theirs) = if engine == Color::White {
                (r.white, r.black)
            } else {
                (r.black, r.white)
            };
            assert!(mine > theirs, "game {game}: {p}");
        }
    }

    #[test]
    fn blocker_games_search_and_noise_changes_nothing_but_the_choice() {
        let options = Options {
            blockers: true,
            ..Options::default()
        };
        let mut p = Position::new(&options);
        for _ in 0..4 {
            let result = quiet(&p, &depth(2));
            p.play_checked(result.best_move.unwrap()).unwrap();
        }
        assert_eq!(p.blocker_set().len(), 2);
        let noisy = Limits {
            noise: 300,
            seed: 7,
            ..depth(2)
        };
        let mv = quiet(&p, &noisy).best_move.unwrap();
        assert_eq!(quiet(&p, &noisy).best_move.unwrap(), mv);
        assert!(p.legal_moves().contains(&mv));
    }
}
