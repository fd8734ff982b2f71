//! `crescendo match merge FILE...`: adds up the `--results` files of a
//! match's shards (from any machines) into the report a single run prints
//! (see protocol.md, "Matches on many machines").

use super::CliResult;
use super::matches::print_summary;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// The subcommands of `crescendo match`.
#[derive(Subcommand, Debug)]
pub enum MatchCommand {
    /// Add up results files (--results) of one match: the report of a single run.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Results files, one per shard or run, in any order.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print the report as one JSON object (the keys of `crescendo match --json`).
    #[arg(long)]
    pub json: bool,
    /// Create this file when the merged SPRT has decided (the shards'
    /// `--stop-file`).
    #[arg(long, value_name = "PATH")]
    pub stop_file: Option<PathBuf>,
}

pub fn run(command: &MatchCommand) -> CliResult {
    let MatchCommand::Merge(args) = command;
    let summary = crescendo::arena::merge_results(&args.files)?;
    if args.json {
        let text = serde_json::to_string(&summary).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        print_summary(&summary);
    }
    if let (Some(path), Some(result)) = (
        &args.stop_file,
        summary.sprt.as_ref().and_then(|s| s.result),
    ) {
        std::fs::write(path, format!("{result}\n"))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
