//! The interface between the protocol and a game: everything the engine loop
//! needs from "a game with positions, moves and a search". The protocol code
//! never asks which game it is playing; a new game (Linear Progression)
//! plugs in as one more [`Variant`] and one more [`Game`] implementation.

use super::command::{Go, Start};
use super::linear::LinearGame;
use super::options::Options;
use super::output::Output;
use super::ponder::Ponder;
use super::progressive::ProgressiveGame;
use crate::Variant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A new game of `variant` at its start position, under the rules and with
/// the hash size of `options`.
pub fn new_game(variant: Variant, options: &Options) -> Box<dyn Game> {
    let hash_mib = options.hash_mib;
    match variant.rules() {
        Some(rules) => Box::new(ProgressiveGame::new(rules, hash_mib)),
        None => Box::new(LinearGame::new(options.lp, hash_mib)),
    }
}

/// What a search job needs from the engine: where to print, when to stop,
/// and the search options.
#[derive(Clone)]
pub struct JobContext {
    pub out: Output,
    pub stop: Arc<AtomicBool>,
    /// Set by the job just before its last line, so that a `go` sent in
    /// answer to that line never finds the job still "running".
    pub done: Arc<AtomicBool>,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    /// Baseline and skill (from `Baseline`, `Skill Level`, `Level`,
    /// `UCI_LimitStrength`, `UCI_Elo`).
    pub style: crate::search::levels::Style,
    /// `ponderhit` and the end of pondering (used by `go ponder` only).
    pub ponder: Arc<Ponder>,
    /// When the command was read: a `go`'s clock runs from here, not from
    /// when its thread gets to start (later on a loaded machine).
    pub received: std::time::Instant,
}

impl JobContext {
    /// Prints the job's last line (`bestmove`, `Nodes searched`, ...).
    pub fn last_line(&self, text: &str) {
        self.done.store(true, Ordering::Release);
        self.out.line(text);
    }
}

/// Work for the search thread (a search, perft, bench). It prints its own
/// results, ends soon after `stop` is set, and for a search always prints
/// exactly one `bestmove` line.
pub type Job = Box<dyn FnOnce() + Send>;

/// One game as the protocol sees it.
pub trait Game: Send {
    /// Sets the position from `position ...`; on error the position is unchanged.
    fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), String>;
    /// Back to the start position with an empty hash (`ucinewgame`).
    fn new_game(&mut self);
    /// The lines of the `d` command.
    fn display(&self) -> Vec<String>;
    /// Why the game is over (`"1-0 (checkmate)"`), or `None` while it goes on.
    fn game_over(&self) -> Option<String>;
    /// Resizes (and empties) the hash table.
    fn set_hash(&mut self, mib: usize);
    /// Empties the hash table.
    fn clear_hash(&mut self);
    /// The job for `go` (search, `go mate`, or `go perft`) in the current
    /// position, or why it cannot run (printed as one error line).
    fn go_job(&self, go: &Go, ctx: JobContext) -> Result<Job, String>;
    /// The job for `bench`: fixed positions searched to `depth`.
    fn bench_job(&self, depth: Option<u32>, ctx: JobContext) -> Job;
    /// A rules option (`Changed::GameRules`) was set: a game that reads it
    /// takes the new rules (documented per game in protocol.md); others
    /// ignore it.
    fn rules_changed(&mut self, _options: &Options) {}
}
