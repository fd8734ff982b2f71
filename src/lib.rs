//! Crescendo: a game engine for Progressive chess and Linear Progression.

pub mod arena;
pub mod bench;
pub mod chess;
pub mod clock;
pub mod color;
pub mod linear;
pub mod mate;
pub mod memory;
pub mod protocol;
pub mod search;
mod variant;

pub use variant::Variant;
