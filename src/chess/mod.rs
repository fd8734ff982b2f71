//! Progressive chess itself: board, moves, rules and notation (no search).
//!
//! The vocabulary types and the move generator are re-exported here (one
//! path each); the text formats ([`fen`], [`notation`], [`pgn`],
//! [`move_reader`]), [`status`] and [`perft`] are namespaces of functions.

pub(crate) mod attacks;
mod bitboard;
pub mod fen;
pub mod move_reader;
mod movegen;
mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
mod position;
mod rules;
pub mod status;
mod zobrist;

pub use bitboard::{Bitboard, Color, Piece, Role, Square};
pub(crate) use movegen::{CheckInfo, en_passant_targets};
pub use movegen::{
    generate_checks, generate_king_safe, generate_legal, has_legal_move, legal_moves,
};
pub use moves::{Move, MoveKind, MoveList};
pub(crate) use position::{CASTLES, CastleSquares, castle_for};
pub use position::{MoveEffect, Position};
pub use rules::Rules;

/// Random games for the unit tests: every position along them, turn starts
/// and mid-turn alike.
#[cfg(test)]
pub(crate) fn random_game_positions(
    rules: Rules,
    games: usize,
    max_turn: u32,
    seed: u64,
) -> Vec<Position> {
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use rand::seq::IndexedRandom;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos(rules);
        // Ordinary chess (every turn one move) stops after as many moves.
        let mut budget = max_turn * (max_turn + 1) / 2;
        while pos.turn_length() <= max_turn && budget > 0 {
            budget -= 1;
            out.push(pos.clone());
            let moves = legal_moves(&pos);
            let Some(&mv) = moves.as_slice().choose(&mut rng) else {
                break;
            };
            pos.play(mv);
        }
    }
    out
}
