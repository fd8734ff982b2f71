//! `crescendo gui`: a local web GUI. An HTTP server (axum) serves one page
//! embedded in the binary and, per browser tab, a WebSocket relaying
//! protocol lines to and from a child `crescendo` engine process.
//!
//! - [`assets`]: the embedded files (page, script, style, pieces);
//! - [`origin`]: which requests may reach the engine (Host and Origin);
//! - [`relay`]: one tab's engine process, and the lines a page may send;
//! - [`puzzle_set`], [`puzzle_api`]: the Puzzles tab (the embedded
//!   puzzles; serving, judging and rating an attempt);
//! - [`server`]: the routes and the listener.
//!
//! The page never applies the rules itself: every legal move, state and
//! result comes from the engine (the `legal` and `state` queries of
//! protocol.md).

mod assets;
mod origin;
mod puzzle_api;
mod puzzle_set;
mod relay;
mod server;

pub use server::{Config, run};
