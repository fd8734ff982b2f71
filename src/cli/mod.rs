//! The subcommands of the `crescendo` binary: each parses its flags, calls
//! the library, and prints (plain text, or `--json`).

pub mod analyse;
pub mod analyse_pgn;
pub mod bench;
pub mod gui;
pub mod matches;
pub mod mate;
pub mod merge;
pub mod perft;
pub mod pgn;
pub mod puzzles;

/// A subcommand failure: printed as `crescendo: <message>` with exit status 2.
pub type CliResult = Result<(), String>;

pub use crescendo::Variant;

/// Prints a record as one JSON line.
pub fn print_json(record: &impl serde::Serialize) {
    match serde_json::to_string(record) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("crescendo: {e}"),
    }
}

/// An id as the plain output shows it (a string without its quotes).
pub fn id_text(id: &serde_json::Value) -> String {
    match id {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The failure of a PGN batch in which some games went wrong: `N of M
/// game(s) <what>; the first: <error>` (`Ok` when none did).
pub fn game_errors(errors: &[String], games: usize, what: &str) -> CliResult {
    match errors.first() {
        None => Ok(()),
        Some(first) => Err(format!(
            "{} of {games} game(s) {what}; the first: {first}",
            errors.len()
        )),
    }
}

/// Parses a rule-set name given on the command line.
pub fn parse_rules(text: &str) -> Result<crescendo::chess::Rules, String> {
    match text.parse::<crescendo::chess::Rules>() {
        Ok(crescendo::chess::Rules::Chess) | Err(_) => Err(format!(
            "unknown rule set '{text}' (expected italian or scottish)"
        )),
        Ok(rules) => Ok(rules),
    }
}

/// The Progressive chess rule set that `--variant` and `--rules` choose
/// (`--rules` wins), or `None` for Linear Progression; the `--lp-*` flags
/// are only for Linear Progression.
pub fn game_rules(
    variant: Variant,
    rules: Option<crescendo::chess::Rules>,
    lp: &LpArgs,
) -> Result<Option<crescendo::chess::Rules>, String> {
    let rules = variant.with_rules(rules)?.rules();
    if rules.is_some() && lp.any() {
        return Err("--lp-* flags need --variant linear-progression".into());
    }
    Ok(rules)
}

/// The Linear Progression rules flags, shared by the subcommands.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct LpArgs {
    /// Linear Progression board: a preset (8x8, WxH, WxH-corner-blocks,
    /// center-isle) or rows of `.` and `#` separated by `/`.
    #[arg(long)]
    pub lp_board: Option<String>,
    /// Linear Progression rule 12: Black always moves last.
    #[arg(long)]
    pub lp_equal_moves: bool,
    /// Linear Progression rule 13: each player has a blocker.
    #[arg(long)]
    pub lp_blockers: bool,
}

impl LpArgs {
    /// Whether any flag was given.
    pub fn any(&self) -> bool {
        self.lp_board.is_some() || self.lp_equal_moves || self.lp_blockers
    }

    /// The rules the flags choose.
    pub fn options(&self) -> Result<crescendo::linear::Options, String> {
        let board = match &self.lp_board {
            Some(text) => text.parse().map_err(|e| format!("--lp-board: {e}"))?,
            None => crescendo::linear::Board::default(),
        };
        Ok(crescendo::linear::Options {
            equal_moves: self.lp_equal_moves,
            blockers: self.lp_blockers,
            board,
        })
    }

    /// The start position of the flags' rules, or the position `fen`
    /// (which carries its own board and options, so the flags may not be
    /// given with it).
    pub fn position(&self, fen: Option<&str>) -> Result<crescendo::linear::Position, String> {
        match fen {
            Some(_) if self.any() => {
                Err("--fen carries its own board and options: give no --lp-* flag with it".into())
            }
            Some(text) => text.parse().map_err(|e| format!("--fen: {e}")),
            None => Ok(crescendo::linear::Position::new(&self.options()?)),
        }
    }
}
