//! Puzzles: "mate in this turn" positions from real games, unique up to
//! move order, rated with Glicko-2 and served by the player's rating.
//!
//! - record.rs: the JSON-lines record and its id
//! - settings.rs: what decides a run's puzzles besides the seed
//! - generate.rs: self-play at the levels, the candidates, the tests
//! - unique.rs: mate, uniqueness by final position, triviality
//! - hard.rs: the hard stage, where the scan gives up (`generate --hard`)
//! - themes.rs: themes computed from the solution
//! - calibrate.rs: initial ratings from a ladder of finder budgets
//! - glicko.rs: Glicko-2 (Glickman's paper)
//! - pick.rs, solve.rs: serving a puzzle, judging an attempt
//! - check.rs: verifying a record
//! - merge.rs: joining the files of a run's shards

mod calibrate;
mod check;
mod generate;
mod glicko;
mod hard;
mod merge;
mod pick;
mod record;
mod settings;
mod solve;
mod themes;
mod unique;

pub use calibrate::{LADDER_BASE, LADDER_STEP, LEVEL_DEVIATION, RUNGS, ladder};
pub use check::verify;
pub use generate::{
    GameYield, MAX_TURN, OPENING_TURNS, PLAY_NODES, PLAYERS, Reject, SCAN_NODES, game, hard_game,
    make_puzzle, record,
};
pub use glicko::{Game, MAX_DEVIATION, MIN_DEVIATION, Rating, TAU, attempt, update};
pub use hard::{HARD_ALL_NODES, HARD_SCAN_NODES, Hard, make_hard_puzzle};
pub use merge::{Merged, merge};
pub use pick::{MIN_WINDOW, Pick, pick};
pub use record::{Attempt, Calibration, FORMAT, Puzzle, Source, puzzle_id, read_file};
pub use settings::Settings;
pub use solve::{Solve, judge};
pub use themes::{NAMES as THEMES, Themes};
pub use unique::{
    ALL_NODES, CAP, FIND_NODES, MAX_ADVANTAGE, Solutions, TRIVIAL_NODES, final_key, solutions,
    solutions_up_to,
};
