//! Issue 15, item 4: `movetime` and clock budgets are hard limits, the
//! safety net included: with the machine loaded by busy threads, the
//! `bestmove` of a position where the net checks many turns still arrives
//! at least `Move Overhead` before the deadline (the pipe's delay is what
//! the overhead is for, so the test allows it).

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove_of};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A position of the safe-turn benchmark: most of White's turns lose to
/// Black's mate, so the net spends its whole time on alternatives.
const DANGER: &str = "rnbNkbnr/pp2pppp/8/8/8/8/PPPP1PPP/RNBqKB1R w KQkq - 0 5";

/// Busy threads, one more than the cores, until dropped.
struct Load(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Load {
    fn start() -> Load {
        let done = Arc::new(AtomicBool::new(false));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..=cores)
            .map(|_| {
                let done = done.clone();
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !done.load(Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                })
            })
            .collect();
        Load(done, threads)
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for t in self.1.drain(..) {
            let _ = t.join();
        }
    }
}

/// Sends `go` and returns how long the `bestmove` took.
fn answer_time(e: &mut Engine, go: &str) -> Duration {
    e.send(&format!("position fen {DANGER}"));
    assert!(e.sync().is_empty());
    let started = Instant::now();
    e.send(go);
    let lines = e.until("bestmove");
    let took = started.elapsed();
    assert!(!bestmove_of(&lines).is_empty());
    took
}

#[test]
fn a_loaded_machine_still_gets_its_answer_before_the_deadline() {
    let mut e = Engine::start();
    e.send("setoption name Move Overhead value 100");
    let _load = Load::start();
    // movetime 600: the engine aims at 500 ms; the 100 ms overhead is the
    // pipe's and the scheduler's.
    for _ in 0..3 {
        let took = answer_time(&mut e, "go movetime 600");
        assert!(took < Duration::from_millis(600), "movetime 600: {took:?}");
    }
    // The clock: 3 s left, no increment; the plan's hard limit is 482 ms
    // (twice a twelfth of what is left after the overhead and 5 ms).
    let took = answer_time(&mut e, "go wtime 3000 btime 3000");
    assert!(took < Duration::from_millis(582), "wtime 3000: {took:?}");
    e.quit();
}
