//! How wide a turn's whole-turn looks are: the planner's candidates, raids
//! and mate probes, the safety net's score beam and its candidates, and the
//! look at the opponent's threat. Their sizes were tuned at 1+0.05, where
//! a turn has about 160 ms; with more time per turn they grow with it, so
//! that more time buys more than a deeper search that seldom finishes
//! another iteration (bench/strength.md, thirteenth session: at 5+0.05 a
//! turn used about a third of its budget on the same few candidates).

use super::limits::Limits;
use super::time;
use std::time::Duration;

/// Each whole time the turn's soft budget holds this grows the looks by
/// their tuned sizes: a turn at 1+0.05 (at most ~160 ms soft) keeps them,
/// one at 5+0.05 (~660 ms at the start) gets six times.
const REFERENCE: Duration = Duration::from_millis(100);
/// The looks grow to at most this many times their tuned sizes.
const MAX_FACTOR: u64 = 8;

/// How many times their tuned sizes the turn's looks are (at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breadth(u64);

impl Default for Breadth {
    /// The tuned sizes: `go depth`, `go nodes` and short budgets.
    fn default() -> Self {
        Breadth(1)
    }
}

impl Breadth {
    /// The breadth of a turn under `limits`: its soft time budget over
    /// [`REFERENCE`], whole times, 1 to [`MAX_FACTOR`]. Without a time
    /// limit (`go depth`, `go nodes`, `go infinite`) the tuned sizes, so
    /// that node-limited answers do not change.
    pub fn of(limits: &Limits) -> Breadth {
        let soft = time::budget(limits).soft;
        match soft {
            Some(t) if limits.nodes.is_none() => {
                let times = t.as_millis() / REFERENCE.as_millis();
                Breadth((times as u64).clamp(1, MAX_FACTOR))
            }
            _ => Breadth::default(),
        }
    }

    /// `n` grown by the breadth.
    pub fn scale(self, n: u64) -> u64 {
        n.saturating_mul(self.0)
    }

    /// A count (candidates, a beam's width) grown by the breadth.
    pub fn count(self, n: usize) -> usize {
        n.saturating_mul(self.0 as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;

    fn clock(ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(50),
                movestogo: None,
            }),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        }
    }

    #[test]
    fn short_clocks_and_node_limits_keep_the_tuned_sizes() {
        // 1+0.05 from its start: the sizes the engine was tuned with.
        for ms in [0, 100, 500, 1_000] {
            assert_eq!(Breadth::of(&clock(ms)), Breadth::default(), "{ms}");
        }
        let nodes = Limits {
            nodes: Some(1_000_000),
            ..clock(60_000)
        };
        assert_eq!(Breadth::of(&nodes), Breadth::default());
        assert_eq!(Breadth::of(&Limits::default()), Breadth::default());
    }

    #[test]
    fn longer_clocks_widen_the_looks_up_to_a_cap() {
        let five = Breadth::of(&clock(5_000));
        assert!(five.scale(10) > 10, "{five:?}");
        assert!(Breadth::of(&clock(3_000)).scale(10) <= five.scale(10));
        let hour = Breadth::of(&clock(3_600_000));
        assert_eq!(hour.count(1), MAX_FACTOR as usize);
    }
}
