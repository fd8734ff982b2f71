//! Aggressive games for tests: moves that land near the enemy king reach
//! checks and mates often. Shared by tests/mate.rs, tests/movegen_fast.rs
//! and the bounds' unit tests (src/mate/bounds/tests.rs), which include it
//! with `#[path]` and bring `Move`, `MoveList` and `Position` into scope
//! (from `crescendo::chess` or `crate::chess`).

#![allow(dead_code)] // each includer uses part of it

use super::{Move, MoveList, Position};
use rand::RngExt;
use rand::rngs::StdRng;

/// One of `moves` (not empty), preferring those that land near the enemy
/// king: the lowest king distance times 8 plus a random 0 to `jitter - 1`.
pub fn towards_enemy_king(pos: &Position, moves: &MoveList, rng: &mut StdRng, jitter: i32) -> Move {
    let ek = pos.king_square(pos.side_to_move().other());
    *moves
        .iter()
        .min_by_key(|m| {
            let d = (m.to().file() as i32 - ek.file() as i32)
                .abs()
                .max((m.to().rank() as i32 - ek.rank() as i32).abs());
            d * 8 + rng.random_range(0..jitter)
        })
        .expect("non-empty")
}
