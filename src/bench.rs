//! What a fixed benchmark measured, for both games' `bench` (the node
//! total is the search's signature; the speed is nodes per second).

use std::time::Duration;

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
