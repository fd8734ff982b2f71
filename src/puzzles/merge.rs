//! `puzzles merge`: the files of a generation's shards (from any machines,
//! or reruns) joined into one. Files made under other settings are refused,
//! naming the difference (the hard puzzles of a generation join its
//! ordinary ones); a puzzle found twice (the same id) is kept once.
//!
//! The order is the one a single unsharded run writes: by seed, then game
//! number, then turn (a game's puzzles come in turn order), the id last to
//! make it total. A run's games are a function of the seed and the game
//! number alone, and a run keeps the first copy of an id, so N shards of
//! `--games G` merged are the unsharded `--games G` file, line for line.

use super::record::{Puzzle, read_file};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The merged puzzles.
#[derive(Clone, Debug)]
pub struct Merged {
    /// In the order above, each id once.
    pub puzzles: Vec<Puzzle>,
    /// Records dropped as a repeat of an id kept.
    pub duplicates: usize,
}

/// Reads and merges `files` (see the module's comment).
pub fn merge(files: &[PathBuf]) -> Result<Merged, String> {
    let mut all: Vec<(Puzzle, &Path, usize)> = Vec::new();
    // The first record, and the first hard one: every record is compared
    // with both (ordinary and hard puzzles of one generation join).
    let mut first_hard: Option<usize> = None;
    for path in files {
        for (line, p) in read_file(path)? {
            let firsts = all.first().into_iter().chain(first_hard.map(|i| &all[i]));
            for (first, file, at) in firsts {
                if let Some(why) = first.settings.conflict(&p.settings) {
                    return Err(format!(
                        "{}:{at} and {}:{line} are from different generations: {why}",
                        file.display(),
                        path.display()
                    ));
                }
            }
            if first_hard.is_none() && p.settings.hard.is_some() {
                first_hard = Some(all.len());
            }
            all.push((p, path, line));
        }
    }
    if all.is_empty() {
        return Err("no puzzles in the files given".into());
    }
    all.sort_by(|(a, ..), (b, ..)| {
        (a.game.seed, a.game.index, a.turn_length, &a.id).cmp(&(
            b.game.seed,
            b.game.index,
            b.turn_length,
            &b.id,
        ))
    });
    let total = all.len();
    let mut seen = HashSet::new();
    let puzzles: Vec<Puzzle> = all
        .into_iter()
        .map(|(p, ..)| p)
        .filter(|p| seen.insert(p.id.clone()))
        .collect();
    Ok(Merged {
        duplicates: total - puzzles.len(),
        puzzles,
    })
}
