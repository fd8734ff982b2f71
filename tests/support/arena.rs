//! Engines for the match runner's tests (`#[path = "support/arena.rs"] mod
//! arena_support;`): the built-in random mover, started and made ready.

#![allow(dead_code)] // each test file uses part of it

use crescendo::arena::{EngineConfig, EngineProcess};
use std::time::Duration;

pub const BIN: &str = env!("CARGO_BIN_EXE_crescendo");

/// The hidden `random-engine` subcommand with `seed`.
pub fn random(seed: u64) -> EngineConfig {
    EngineConfig {
        name: format!("random-{seed}"),
        cmd: BIN.into(),
        args: vec!["random-engine".into(), "--seed".into(), seed.to_string()],
        ..EngineConfig::default()
    }
}

/// Starts `config` and waits until it is ready for a game.
pub fn start(config: &EngineConfig) -> EngineProcess {
    let mut e = EngineProcess::start(config, Duration::from_secs(10)).expect("engine starts");
    e.new_game(Duration::from_secs(10))
        .expect("engine is ready");
    e
}
