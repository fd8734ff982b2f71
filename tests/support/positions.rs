//! Positions from games with a fixed seed, for the mate finder's tests:
//! random games, and aggressive ones (mates are rare in random games).
//! Included with `#[path = "support/positions.rs"] mod positions;` next to
//! `#[path = "support/games.rs"] mod games;` (whose moves it plays).

#![allow(dead_code)] // each test file uses part of it

use crescendo::chess::{Position, Rules, legal_moves};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Plays random turns from the start; returns the positions met at turn
/// starts and some mid-turn ones, with turns of at most `max_len` moves left.
pub fn random_positions(rules: Rules, seed: u64, games: usize, max_len: u32) -> Vec<Position> {
    positions(rules, seed, games, max_len, false)
}

/// [`random_positions`] from games that play towards the enemy king.
pub fn aggressive_positions(rules: Rules, seed: u64, games: usize, max_len: u32) -> Vec<Position> {
    positions(rules, seed, games, max_len, true)
}

fn positions(
    rules: Rules,
    seed: u64,
    games: usize,
    max_len: u32,
    aggressive: bool,
) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos(rules);
        // Random turns while the turn length stays within `max_len`.
        while pos.turn_length() <= max_len + 1 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            if pos.moves_left() <= max_len && rng.random_range(0..3) == 0 {
                out.push(pos.clone());
            }
            let mv = if aggressive {
                super::games::towards_enemy_king(&pos, &moves, &mut rng, 12)
            } else {
                moves.as_slice()[rng.random_range(0..moves.len())]
            };
            pos.play(mv);
        }
    }
    out
}
