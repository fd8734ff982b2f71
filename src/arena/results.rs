//! Results as data: the `--results` file, one JSON line per finished game
//! pair, written and flushed as each pair ends. It is what a resumed run
//! skips and what `crescendo match merge` adds up.
//!
//! Every line carries the match's [`MatchSetup`] (everything that decides
//! the games) and its hash, the `match` key: lines of different matches are
//! never added together, and the setup lets a refusal name the difference.

use super::runner::{MatchConfig, MatchSummary, OpeningSource};
use super::stats::Sprt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// One engine as far as the games depend on it. The program is named by
/// its file name only, so that shards on machines with different install
/// paths are one match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSetup {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    /// `nodes=N`: the engine is sent `go nodes N`.
    pub nodes: Option<u64>,
}

/// What makes two runs the same match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSetup {
    pub engines: [EngineSetup; 2],
    /// `progressive` or `linear-progression`.
    pub variant: String,
    /// The summary's `rules`.
    pub rules: String,
    /// The rules for people (the report's header).
    pub rules_text: String,
    /// The summary's `time_control`: the clock, or the node limits.
    pub time_control: String,
    pub time_margin_ms: u64,
    /// `startpos`, `random K` or `file N <hash of the openings>`.
    pub openings: String,
    pub seed: u64,
    /// `--games`: the whole match, all shards.
    pub games: u32,
    pub sprt: Option<Sprt>,
}

impl MatchSetup {
    /// The setup of a match configuration.
    pub fn new(config: &MatchConfig) -> MatchSetup {
        let engine = |i: usize| {
            let e = &config.engines[i];
            EngineSetup {
                name: e.name.clone(),
                cmd: Path::new(&e.cmd)
                    .file_name()
                    .map_or_else(|| e.cmd.clone(), |n| n.to_string_lossy().into_owned()),
                args: e.args.clone(),
                options: e.options.clone(),
                nodes: config.nodes[i],
            }
        };
        let openings = match &config.openings {
            OpeningSource::StartPosition => "startpos".to_string(),
            OpeningSource::Random { turns } => format!("random {turns}"),
            OpeningSource::List(list) => {
                let text: Vec<String> = list.iter().map(|o| o.text()).collect();
                format!(
                    "file {} {:016x}",
                    list.len(),
                    fnv1a(text.join("\n").as_bytes())
                )
            }
        };
        MatchSetup {
            engines: [engine(0), engine(1)],
            variant: config.variant.name().to_string(),
            rules: config.variant.rules(),
            rules_text: config.variant.describe(),
            time_control: limits_text(config),
            time_margin_ms: config.time_margin.as_millis() as u64,
            openings,
            seed: config.seed,
            games: config.games,
            sprt: config.sprt,
        }
    }

    /// The `match` key: a hash of the whole setup.
    pub fn key(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        format!("{:016x}", fnv1a(text.as_bytes()))
    }

    /// The first difference from `other`, as `what: this vs that`.
    pub fn difference(&self, other: &MatchSetup) -> Option<String> {
        setup_difference(self, other)
    }
}

/// The first difference between two setups (anything serialisable: a
/// match's, a puzzle generation's), as `what: this vs that`, the path in
/// the JSON form (`engines[0].options`).
pub fn setup_difference<T: Serialize>(a: &T, b: &T) -> Option<String> {
    let (a, b) = (serde_json::to_value(a).ok()?, serde_json::to_value(b).ok()?);
    first_difference("", &a, &b)
}

/// The limits for people: `10+0.1`, `movetime 200ms`, `nodes 5000`, or per
/// engine when they differ (`nodes 5000 vs 10+0.1`, `5+0.05 vs 1+0.05`).
fn limits_text(config: &MatchConfig) -> String {
    let of = |i: usize| match config.nodes[i] {
        Some(n) => format!("nodes {n}"),
        None => config.time_control_of(i).pgn(),
    };
    let (a, b) = (of(0), of(1));
    if a == b { a } else { format!("{a} vs {b}") }
}

/// The path (`engines[0].options`) and values of the first place where two
/// JSON values differ.
fn first_difference(path: &str, a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => x.iter().find_map(|(k, v)| {
            let sub = if path.is_empty() {
                k.clone()
            } else {
                format!("{path}.{k}")
            };
            first_difference(&sub, v, y.get(k).unwrap_or(&Value::Null))
        }),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() && path.ends_with("engines") => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(&format!("{path}[{i}]"), v, w)),
        _ if a == b => None,
        _ => Some(format!("{path}: {a} vs {b}")),
    }
}

/// FNV-1a, 64 bits: a stable hash (std's hashers may change between
/// releases, and the key must mean the same on every machine).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One line of the results file: a finished pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairRecord {
    /// 0-based pair index (games 2p+1 and 2p+2).
    pub pair: u32,
    /// The opening, as an openings-file line would give it.
    pub opening: String,
    /// The first engine's results (`1-0` a win for it), its White game first.
    pub results: Vec<String>,
    /// How each game ended (the PGN `Termination`).
    pub terminations: Vec<String>,
    /// [`MatchSetup::key`].
    #[serde(rename = "match")]
    pub key: String,
    /// The games' numbers (the PGN `Round`).
    pub rounds: Vec<u32>,
    /// White's name in each game.
    pub white: Vec<String>,
    /// The PGN `TerminationDetails` of each game.
    pub details: Vec<String>,
    pub setup: MatchSetup,
}

impl PairRecord {
    /// The first engine's points in each game.
    pub fn points(&self) -> Result<Vec<f64>, String> {
        self.results
            .iter()
            .map(|r| match r.as_str() {
                "1-0" => Ok(1.0),
                "1/2-1/2" => Ok(0.5),
                "0-1" => Ok(0.0),
                _ => Err(format!("pair {}: unknown result '{r}'", self.pair)),
            })
            .collect()
    }
}

/// A pair read back, with where it came from (for messages).
#[derive(Clone, Debug)]
pub struct ReadPair {
    pub record: PairRecord,
    pub file: PathBuf,
    pub line: usize,
}

/// Reads a results file. A last line cut short (a run killed while writing
/// it) is skipped with a warning; any other bad line is an error naming the
/// file and line. A missing file is an error (`resume` checks first).
pub fn read_results(path: &Path) -> Result<Vec<ReadPair>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<PairRecord>(line) {
            Ok(record) => {
                record
                    .points()
                    .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
                out.push(ReadPair {
                    record,
                    file: path.to_path_buf(),
                    line: i + 1,
                });
            }
            // The last piece has no newline after it: a write cut short.
            Err(_) if i + 1 == lines.len() => log::warn!(
                "{}:{}: an unfinished line (the run was killed while writing it); skipped",
                path.display(),
                i + 1
            ),
            Err(e) => {
                return Err(format!(
                    "{}:{}: not a results line: {e}",
                    path.display(),
                    i + 1
                ));
            }
        }
    }
    Ok(out)
}

/// The pairs of this match already in the results file (none when it does
/// not exist yet); a line of another match is an error, so that a file is
/// never shared by two matches.
pub fn resume(path: &Path, setup: &MatchSetup) -> Result<Vec<PairRecord>, String> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let key = setup.key();
    let mut out: Vec<PairRecord> = Vec::new();
    for read in read_results(path)? {
        if read.record.key != key {
            let why = setup
                .difference(&read.record.setup)
                .unwrap_or_else(|| "the match key".into());
            return Err(format!(
                "{}:{} is from another match ({why}): give another --results file",
                path.display(),
                read.line
            ));
        }
        if !out.iter().any(|r| r.pair == read.record.pair) {
            out.push(read.record);
        }
    }
    Ok(out)
}

/// The results file, open for appending.
pub struct ResultsFile {
    file: std::fs::File,
    path: PathBuf,
}

impl ResultsFile {
    /// Opens (or creates) the file for appending; a last line cut short is
    /// ended first, so the next line starts on a line of its own.
    pub fn open(path: &Path) -> Result<ResultsFile, String> {
        let fail = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(fail)?;
        let len = file.metadata().map_err(fail)?.len();
        if len > 0 {
            let mut last = [0u8];
            file.seek(SeekFrom::Start(len - 1)).map_err(fail)?;
            file.read_exact(&mut last).map_err(fail)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(fail)?;
            }
        }
        Ok(ResultsFile {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends one pair as one line, in one write, and syncs it to disk.
    pub fn append(&mut self, record: &PairRecord) -> Result<(), String> {
        let mut line = serde_json::to_string(record).map_err(|e| e.to_string())?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }
}

impl MatchSummary {
    /// Counts a finished pair read back from a results file.
    pub fn add_record(&mut self, record: &PairRecord) {
        let points = record.points().unwrap_or_default();
        for (p, reason) in points.iter().zip(&record.terminations) {
            self.tally.add_game(*p);
            *self.terminations.entry(reason.clone()).or_default() += 1;
        }
        if points.len() == 2 {
            self.tally.add_pair(points.iter().sum());
        }
        self.refresh();
    }
}

/// Reads results files (shards from any machines) and adds them up into
/// the summary a single run would print. Files of different matches are
/// refused, naming the difference; a pair found twice is counted once.
pub fn merge_results(files: &[PathBuf]) -> Result<MatchSummary, String> {
    let mut pairs: BTreeMap<u32, ReadPair> = BTreeMap::new();
    let mut first: Option<ReadPair> = None;
    for path in files {
        for read in read_results(path)? {
            match &first {
                None => first = Some(read.clone()),
                Some(f) if f.record.key != read.record.key => {
                    let why = f
                        .record
                        .setup
                        .difference(&read.record.setup)
                        .unwrap_or_else(|| "the match key".into());
                    return Err(format!(
                        "{}:{} and {}:{} are from different matches: {why}",
                        f.file.display(),
                        f.line,
                        read.file.display(),
                        read.line
                    ));
                }
                Some(_) => {}
            }
            pairs.entry(read.record.pair).or_insert(read);
        }
    }
    let Some(first) = first else {
        return Err("no results in the files given".into());
    };
    let setup = &first.record.setup;
    let mut summary = MatchSummary::from_setup(setup, None);
    for read in pairs.values() {
        summary.add_record(&read.record);
    }
    summary.stopped_early = summary.games < u64::from(setup.games);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> MatchSetup {
        let engine = |name: &str| EngineSetup {
            name: name.into(),
            cmd: "crescendo".into(),
            args: vec![],
            options: vec![("Hash".into(), "16".into())],
            nodes: Some(1000),
        };
        MatchSetup {
            engines: [engine("A"), engine("B")],
            variant: "progressive".into(),
            rules: "italian".into(),
            rules_text: "italian rules".into(),
            time_control: "nodes 1000".into(),
            time_margin_ms: 50,
            openings: "random 2".into(),
            seed: 7,
            games: 4,
            sprt: None,
        }
    }

    #[test]
    fn the_key_changes_with_the_setup_and_the_difference_is_named() {
        let a = setup();
        let mut b = setup();
        assert_eq!(a.key(), b.key());
        assert_eq!(a.difference(&b), None);
        b.engines[1].options[0].1 = "32".into();
        assert_ne!(a.key(), b.key());
        let why = a.difference(&b).unwrap();
        assert!(why.starts_with("engines[1].options"), "{why}");
        let mut c = setup();
        c.seed = 8;
        assert_eq!(a.difference(&c).unwrap(), "seed: 7 vs 8");
    }

    fn record(pair: u32, results: &[&str]) -> PairRecord {
        let s = setup();
        PairRecord {
            pair,
            opening: "e2e4 e7e5 d8h4".into(),
            results: results.iter().map(|r| r.to_string()).collect(),
            terminations: results.iter().map(|_| "checkmate".to_string()).collect(),
            key: s.key(),
            rounds: vec![2 * pair + 1, 2 * pair + 2],
            white: vec!["A".into(), "B".into()],
            details: vec![String::new(); results.len()],
            setup: s,
        }
    }

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!(
            "crescendo-results-{}-{name}.jsonl",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn a_cut_last_line_is_skipped_and_ended_before_the_next() {
        let path = temp("cut");
        let mut f = ResultsFile::open(&path).unwrap();
        f.append(&record(0, &["1-0", "0-1"])).unwrap();
        drop(f);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"pair\": 1, \"open");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(read_results(&path).unwrap().len(), 1);
        let mut f = ResultsFile::open(&path).unwrap();
        f.append(&record(2, &["1/2-1/2", "1-0"])).unwrap();
        let read = read_results(&path);
        // The cut line is now in the middle: an error naming its line.
        let err = read.unwrap_err();
        assert!(err.contains(":2:"), "{err}");
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn merge_counts_each_pair_once_and_refuses_other_matches() {
        let (a, b) = (temp("merge-a"), temp("merge-b"));
        let mut f = ResultsFile::open(&a).unwrap();
        f.append(&record(0, &["1-0", "0-1"])).unwrap();
        f.append(&record(1, &["1-0", "1-0"])).unwrap();
        let mut g = ResultsFile::open(&b).unwrap();
        g.append(&record(1, &["1-0", "1-0"])).unwrap();
        let s = merge_results(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(s.games, 4);
        assert_eq!(s.tally.wins, 3);
        assert_eq!(s.tally.pentanomial, [0, 0, 1, 0, 1]);
        assert!(!s.stopped_early);
        let mut other = record(2, &["1-0", "1-0"]);
        other.setup.time_control = "nodes 2000".into();
        other.key = other.setup.key();
        g.append(&other).unwrap();
        let err = merge_results(&[a.clone(), b.clone()]).unwrap_err();
        assert!(err.contains("different matches"), "{err}");
        assert!(
            err.contains("time_control: \"nodes 1000\" vs \"nodes 2000\""),
            "{err}"
        );
        let _ = (std::fs::remove_file(&a), std::fs::remove_file(&b));
    }
}
