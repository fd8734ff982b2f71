//! `go ponder`: thinking on the opponent's time. The GUI sends the position
//! after our turn and the reply it expects (the `ponder` part of our
//! `bestmove`), then `go ponder <clock>`. The search runs without limits
//! until `ponderhit` (the opponent played that reply: from that instant
//! the `go`'s limits apply, and the search goes on from the tables the
//! pondering filled) or `stop` (the opponent played something else: the
//! pondering search's `bestmove`, which the GUI ignores). Either way the
//! `go` gets exactly one `bestmove`.

use super::game::JobContext;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The flags between the input loop and a pondering job.
#[derive(Debug, Default)]
pub struct Ponder {
    /// Ends the pondering phase: set by `ponderhit` and by `stop`.
    end: Arc<AtomicBool>,
    /// When `ponderhit` came (`None`: not yet).
    hit_at: Mutex<Option<Instant>>,
}

/// How a pondering phase ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `ponderhit` at this instant: the clock of the `go` runs from it.
    Hit(Instant),
    /// `stop` (or `quit`): answer with what the pondering found.
    Stopped,
}

impl Ponder {
    /// `ponderhit`, now. False when the pondering had already ended.
    pub fn hit(&self) -> bool {
        let mut at = self.hit_at.lock().unwrap_or_else(|e| e.into_inner());
        if at.is_some() || self.end.load(Ordering::Acquire) {
            return false;
        }
        *at = Some(Instant::now());
        self.end.store(true, Ordering::Release);
        true
    }

    /// `stop` while pondering.
    pub fn stop(&self) {
        self.end.store(true, Ordering::Release);
    }

    /// The stop flag of the pondering search.
    pub fn end_flag(&self) -> &Arc<AtomicBool> {
        &self.end
    }

    /// Waits until the pondering ends (a search that finished early, a mate
    /// seen or the deepest depth reached, still waits: UCI sends no
    /// `bestmove` while pondering), and says how.
    pub fn wait(&self, ctx: &JobContext) -> Ended {
        loop {
            if self.end.load(Ordering::Acquire) || ctx.stop.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let at = *self.hit_at.lock().unwrap_or_else(|e| e.into_inner());
        match at {
            Some(at) => Ended::Hit(at),
            None => Ended::Stopped,
        }
    }
}
