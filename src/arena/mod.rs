//! Engine matches: Crescendo's own match runner, since no existing one
//! (cutechess-cli, fastchess) can referee Progressive chess.
//!
//! - [`engine`]: an engine process spoken to over protocol.md;
//! - [`referee`]: one game, every turn checked by the rules core (the
//!   loop shared by both games, and Progressive chess);
//! - [`linear`]: Linear Progression's openings and referee;
//! - [`variant`]: the game of a match (what differs between the two);
//! - [`openings`]: opening files and random openings;
//! - [`stats`]: score, Elo, LOS, pentanomial counts, SPRT;
//! - [`runner`]: the match (pairs of games, concurrency, PGN, stopping);
//! - [`shard`]: which pairs a shard plays, and each pair's seed;
//! - [`results`]: the results file (one JSON line per pair), resume and merge;
//! - [`random_engine`]: a random mover speaking the protocol (a baseline).

mod engine;
mod game;
mod linear;
mod openings;
mod random_engine;
mod referee;
mod results;
mod runner;
mod shard;
mod stats;

pub use engine::{EngineConfig, EngineError, EngineProcess};
pub use game::{MatchGame, MatchOpening, MatchRecord};
pub use linear::{LinearOpening, read_linear_openings};
pub use openings::{Opening, read_openings};
pub use random_engine::run as run_random_engine;
pub use referee::{
    GameResult, GameSettings, NODES_TURN_TIMEOUT, Outcome, Refereed, Start, Termination,
    TimeControl, play_game,
};
pub use results::{
    EngineSetup, MatchSetup, PairRecord, merge_results, read_results, setup_difference,
};
pub use runner::{GameReport, MatchConfig, MatchSummary, OpeningSource, SprtState, run_match};
pub use shard::{Shard, index_seed};
pub use stats::{Sprt, Tally};
