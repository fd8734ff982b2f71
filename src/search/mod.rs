//! Search: deciding a turn of Progressive chess.
//!
//! Where a turn is decided: [`play`] (play.rs) is the one entry. It makes
//! the turn's time plan (time.rs), then plays a baseline (baseline.rs), the
//! full search or the search weakened to a level (levels.rs), and last
//! runs the safety net on the chosen turn (safety.rs).
//!
//! The search itself is iterative-deepening alpha-beta over growing turns
//! (searcher.rs: tables and threads; worker.rs: one thread's search). A ply
//! is one move. The side to move changes only at turn boundaries, so the
//! same side maximises for several plies in a row and scores are negated
//! only when a move ends the turn ([`MoveEffect::turn_ended`]). At the
//! root, a mate in this turn is looked for first ([`crate::mate::find_mate`])
//! and played at once when found.
//!
//! [`MoveEffect::turn_ended`]: crate::chess::MoveEffect

mod baseline;
pub mod bench;
mod breadth;
mod eval;
pub mod levels;
mod limits;
mod ordering;
mod plan;
mod play;
mod ponder;
pub mod raid;
mod result;
pub mod root_moves;
pub mod safety;
mod score;
mod searcher;
mod time;
mod tt;
mod worker;

pub use baseline::random_turn;
pub use breadth::Breadth;
pub use limits::{Limits, MAX_DEPTH, ROOT_MATE_NODES, SAFETY_NODES, TREE_MATE_NODES};
pub use play::play;
pub use result::{Line, SearchInfo, SearchResult};
pub use score::{MATE, Score};
pub use searcher::{STACK_BYTES, Searcher, search, usable_threads};
