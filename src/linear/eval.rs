//! Static evaluation.
use super::position::Position;

/// Evaluation placeholder.
pub fn evaluate(_pos: &Position) -> i32 {
    0
}
