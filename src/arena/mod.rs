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
//! - [`random_engine`]: a random mover speaking the protocol (a baseline).

pub mod engine;
pub mod game;
pub mod linear;
pub mod openings;
pub mod random_engine;
pub mod referee;
pub mod runner;
pub mod stats;

pub use engine::{EngineConfig, EngineError, EngineProcess};
pub use game::{MatchGame, MatchOpening, MatchRecord};
pub use linear::{LinearOpening, play_linear_game};
pub use openings::Opening;
pub use referee::{GameResult, GameSettings, Outcome, Termination, TimeControl, play_game};
pub use runner::{GameReport, MatchConfig, MatchSummary, OpeningSource, run_match};
pub use stats::{Sprt, Tally};
