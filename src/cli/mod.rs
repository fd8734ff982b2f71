//! The subcommands of the `crescendo` binary: each parses its flags, calls
//! the library, and prints (plain text, or `--json`).

pub mod analyse;
pub mod bench;
pub mod matches;
pub mod mate;
pub mod perft;

/// A subcommand failure: printed as `crescendo: <message>` with exit status 2.
pub type CliResult = Result<(), String>;

/// Parses a rule-set name given on the command line.
pub fn parse_rules(text: &str) -> Result<crate::chess::Rules, String> {
    match text.parse::<crate::chess::Rules>() {
        Ok(crate::chess::Rules::Chess) | Err(_) => Err(format!(
            "unknown rule set '{text}' (expected italian or scottish)"
        )),
        Ok(rules) => Ok(rules),
    }
}
