//! What a fixed benchmark measured, for both games' `bench` (the node
//! total is the search's signature; the speed is nodes per second).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What a fixed benchmark measured (`bench`, `crescendo bench`).
#[derive(Clone, Copy, Debug)]
pub struct BenchReport {
    /// Nodes searched over all positions: the signature.
    pub nodes: u64,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

impl BenchReport {
    /// Nodes per second (the time floored at 1 ms).
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-3)) as u64
    }
}

/// Runs a benchmark over `positions`: `search` searches one (given its
/// index) and answers the nodes it took, or `None` to skip it; the loop
/// stops early (with the nodes so far) once `stop` is set.
pub(crate) fn run<P>(
    positions: &[P],
    stop: &AtomicBool,
    mut search: impl FnMut(usize, &P) -> Option<u64>,
) -> BenchReport {
    let start = Instant::now();
    let mut nodes = 0;
    for (i, position) in positions.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        nodes += search(i, position).unwrap_or(0);
    }
    BenchReport {
        nodes,
        elapsed: start.elapsed(),
    }
}
