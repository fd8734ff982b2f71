//! Progressive chess itself: board, moves, rules and notation (no search).

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod status;
mod zobrist;

pub use bitboard::{Bitboard, Color, Piece, Role, Square};
pub use fen::{FenError, START_FEN};
pub use movegen::legal_moves;
pub use moves::{Move, MoveKind, MoveList};
pub use position::{MoveEffect, Position};
pub use rules::Rules;
pub use status::Status;
