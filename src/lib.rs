//! Crescendo: a game engine for Progressive chess and Linear Progression.
//!
//! The two games: [`chess`] (Progressive chess, the rules only) with its
//! [`search`] and [`mate`] finder, and [`linear`] (Linear Progression, rules
//! and search). [`protocol`] is the engine process; [`arena`] the match
//! runner; [`gui`] the local web GUI. A turn is decided in `search/play.rs`
//! ([`search::play`]).

pub mod analysis;
pub mod arena;
mod bench;
mod bound;
pub mod chess;
mod clock;
mod color;
pub mod gui;
pub mod limits;
pub mod linear;
pub mod lines;
pub mod mate;
mod memory;
pub mod protocol;
pub mod puzzles;
pub mod record;
pub mod search;
mod variant;

pub use bench::BenchReport;
pub use clock::Clock;
pub use color::Color;
pub use variant::Variant;
