//! The shipped puzzles, embedded at compile time (nothing is read at run
//! time) and parsed once, on the first request of the Puzzles tab.

use crate::puzzles::Puzzle;
use std::sync::OnceLock;

/// `(file name, contents)` of each shipped file.
const FILES: [(&str, &str); 2] = [
    (
        "puzzles/italian.jsonl",
        include_str!("../../puzzles/italian.jsonl"),
    ),
    (
        "puzzles/scottish.jsonl",
        include_str!("../../puzzles/scottish.jsonl"),
    ),
];

/// The puzzles the tab serves: every good record, by rules.
#[derive(Debug, Default)]
pub struct PuzzleSet {
    pub italian: Vec<Puzzle>,
    pub scottish: Vec<Puzzle>,
    /// Both rule sets together (for "any rules").
    pub all: Vec<Puzzle>,
    /// Records that would not parse, named `file:line: why` (none in a
    /// good build; a test keeps it so).
    pub bad: Vec<String>,
}

impl PuzzleSet {
    /// Sorts parsed records by their own `rules` field (a file's name is
    /// no promise of its contents).
    pub fn from_files(files: &[(&str, &str)]) -> PuzzleSet {
        let mut set = PuzzleSet::default();
        for (name, text) in files {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match Puzzle::from_line(line).and_then(|p| p.position().map(|_| p)) {
                    Ok(p) => set.add(p),
                    Err(e) => set.bad.push(format!("{name}:{}: {e}", i + 1)),
                }
            }
        }
        set
    }

    /// Adds one record (its rules already checked by `position`).
    pub fn add(&mut self, p: Puzzle) {
        match p.rules.as_str() {
            "scottish" => self.scottish.push(p.clone()),
            _ => self.italian.push(p.clone()),
        }
        self.all.push(p);
    }

    /// The puzzles under `rules` (`italian`, `scottish` or `any`).
    pub fn under(&self, rules: &str) -> Option<&[Puzzle]> {
        match rules {
            "italian" => Some(&self.italian),
            "scottish" => Some(&self.scottish),
            "any" => Some(&self.all),
            _ => None,
        }
    }

    /// The puzzle with this id.
    pub fn find(&self, id: &str) -> Option<&Puzzle> {
        self.all.iter().find(|p| p.id == id)
    }
}

/// The shipped set, parsed on first use.
pub fn shipped() -> &'static PuzzleSet {
    static SET: OnceLock<PuzzleSet> = OnceLock::new();
    SET.get_or_init(|| PuzzleSet::from_files(&FILES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_record_is_served() {
        let set = shipped();
        assert_eq!(set.bad, Vec::<String>::new());
        assert!(!set.italian.is_empty() && !set.scottish.is_empty());
        assert_eq!(set.all.len(), set.italian.len() + set.scottish.len());
        assert!(set.italian.iter().all(|p| p.rules == "italian"));
        assert!(set.scottish.iter().all(|p| p.rules == "scottish"));
        let first = &set.scottish[0];
        assert_eq!(set.find(&first.id), Some(first));
        assert!(set.find("no such id").is_none());
    }

    #[test]
    fn a_bad_line_is_named_and_skipped() {
        let good = shipped().italian[0].to_line();
        let text = format!("{good}\n\nnot json\n{{\"format\":\"other\"}}\n");
        let set = PuzzleSet::from_files(&[("x.jsonl", &text)]);
        assert_eq!(set.all.len(), 1);
        assert_eq!(set.bad.len(), 2);
        assert!(
            set.bad[0].starts_with("x.jsonl:3: bad JSON"),
            "{:?}",
            set.bad
        );
        assert!(set.bad[1].starts_with("x.jsonl:4: format"), "{:?}", set.bad);
    }
}
