//! Long counts in pieces: which shards to count (`--shard K/N`, `K-L/N`,
//! `all/N`), and the results file that keeps each finished shard, one JSON
//! line each, so that a count stopped anywhere resumes with the shards
//! still missing and the total is added up from the file.

use super::SequenceCounts;
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The shards `first..=last` (from 1) of `shards`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: usize,
    pub last: usize,
    pub shards: usize,
}

/// More shards than this is surely a typo (and each opens 64 nodes).
const MAX_SHARDS: usize = 1_000_000;

impl FromStr for ShardRange {
    type Err = String;

    fn from_str(text: &str) -> Result<ShardRange, String> {
        let bad = || format!("'{text}' is not K/N, K-L/N or all/N (1 <= K <= L <= N)");
        let (which, total) = text.split_once('/').ok_or_else(bad)?;
        let shards: usize = total.parse().map_err(|_| bad())?;
        let (first, last) = match which {
            "all" => (1, shards),
            _ => match which.split_once('-') {
                Some((a, b)) => (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?),
                None => {
                    let k = which.parse().map_err(|_| bad())?;
                    (k, k)
                }
            },
        };
        if shards == 0 || shards > MAX_SHARDS || first == 0 || first > last || last > shards {
            return Err(bad());
        }
        Ok(ShardRange {
            first,
            last,
            shards,
        })
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.shards;
        match (self.first, self.last) {
            (1, last) if last == n && n > 1 => write!(f, "all/{n}"),
            (k, l) if k == l => write!(f, "{k}/{n}"),
            (k, l) => write!(f, "{k}-{l}/{n}"),
        }
    }
}

/// The count a results file belongs to: its lines for other counts (another
/// position, rule set, turn count or number of shards) are left alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountId {
    /// The start position as `fen::to_fen` writes it.
    pub fen: String,
    pub rules: String,
    pub turns: u32,
    pub shards: usize,
    /// How the tree was split into the shards ([`SPLIT`] now): lines of
    /// another split name other pieces of the count, never mixed in.
    pub split: u32,
}

/// The split of [`super::Shards`]: 2, opened to the start of the last turn.
/// (1, whose lines carry no `split` key: opened to 64 nodes a shard.)
pub const SPLIT: u32 = 2;

/// The finished shards of one count, read from and appended to a file.
pub struct ResultsFile {
    path: PathBuf,
    id: CountId,
    done: BTreeMap<usize, SequenceCounts>,
    /// Where the file's last complete line ends, if a torn line (a write
    /// cut short) follows it: cut off before the next line is appended.
    torn: Option<u64>,
}

impl ResultsFile {
    /// Reads the finished shards of `id` from `path` (none if it does not
    /// exist). A line cut short at the very end (a run killed while writing)
    /// is ignored; any other unreadable line is an error naming it, and so
    /// are two different counts for one shard.
    pub fn open(path: &Path, id: CountId) -> Result<ResultsFile, String> {
        let mut text = String::new();
        match File::open(path) {
            Ok(mut file) => {
                file.read_to_string(&mut text)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
        let complete = match text.rfind('\n') {
            Some(end) => &text[..end + 1],
            None => "",
        };
        let torn = (complete.len() < text.len()).then_some(complete.len() as u64);
        let mut done = BTreeMap::new();
        for (i, line) in complete.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{} line {}", path.display(), i + 1);
            let Some((line_id, shard, counts)) = parse_line(line) else {
                return Err(format!("{}: not a shard result: {line}", at()));
            };
            if line_id != id {
                continue;
            }
            if shard == 0 || shard > id.shards {
                return Err(format!("{}: no shard {shard} of {}", at(), id.shards));
            }
            if let Some(old) = done.insert(shard, counts)
                && old != counts
            {
                return Err(format!(
                    "{}: shard {shard} counted twice, differently",
                    at()
                ));
            }
        }
        Ok(ResultsFile {
            path: path.to_path_buf(),
            id,
            done,
            torn,
        })
    }

    /// The counts of a finished shard (from 1).
    pub fn get(&self, shard: usize) -> Option<SequenceCounts> {
        self.done.get(&shard).copied()
    }

    /// Appends a finished shard (from 1) as one line, written at once.
    pub fn record(
        &mut self,
        shard: usize,
        counts: SequenceCounts,
        seconds: f64,
    ) -> Result<(), String> {
        let line = serde_json::json!({
            "fen": self.id.fen,
            "rules": self.id.rules,
            "turns": self.id.turns,
            "split": self.id.split,
            "shard": format!("{shard}/{}", self.id.shards),
            "sequences": counts.sequences,
            "stalemates": counts.stalemates,
            "mates": counts.mates,
            "seconds": seconds,
        });
        let text = format!("{line}\n");
        let io = |e: std::io::Error| format!("{}: {e}", self.path.display());
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(io)?;
        if let Some(len) = self.torn {
            file.set_len(len).map_err(io)?;
        }
        file.write_all(text.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        self.torn = None;
        self.done.insert(shard, counts);
        Ok(())
    }
}

/// One results line: its count, shard (from 1) and counts.
fn parse_line(line: &str) -> Option<(CountId, usize, SequenceCounts)> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let (k, n) = v["shard"].as_str()?.split_once('/')?;
    let id = CountId {
        fen: v["fen"].as_str()?.to_string(),
        rules: v["rules"].as_str()?.to_string(),
        turns: u32::try_from(v["turns"].as_u64()?).ok()?,
        shards: n.parse().ok()?,
        split: match v.get("split") {
            Some(split) => u32::try_from(split.as_u64()?).ok()?,
            None => 1,
        },
    };
    let counts = SequenceCounts {
        sequences: v["sequences"].as_u64()?,
        stalemates: v["stalemates"].as_u64()?,
        mates: v["mates"].as_u64()?,
    };
    Some((id, k.parse().ok()?, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_ranges_parse_and_print_back() {
        for (text, want) in [
            ("3/10", (3, 3, 10)),
            ("2-5/10", (2, 5, 10)),
            ("all/7", (1, 7, 7)),
        ] {
            let r: ShardRange = text.parse().unwrap();
            assert_eq!((r.first, r.last, r.shards), want);
            assert_eq!(r.to_string(), text);
        }
        assert_eq!("1/1".parse::<ShardRange>().unwrap().to_string(), "1/1");
        for bad in [
            "", "3", "0/4", "5/4", "3-2/4", "x/4", "1/0", "all/0", "1/-1", "1-/3",
        ] {
            assert!(bad.parse::<ShardRange>().is_err(), "{bad}");
        }
    }

    /// The shards of a count add up to it, on any thread count: start
    /// positions of several turns, and positions where sequences end (mates,
    /// stalemates) while the tree is being opened.
    #[test]
    fn the_shards_add_up_to_the_count() {
        use crate::chess::perft::{Shards, sequences};
        use crate::chess::{Rules, fen};
        for (text, turns) in [
            (fen::START_FEN, 3),
            ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 3", 2),
            ("5kr1/8/4P3/8/8/5n2/8/7K w - - 0 2", 2),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 2 1",
                2,
            ),
        ] {
            for rules in [Rules::Italian, Rules::Scottish] {
                let pos = fen::parse(text, rules).unwrap();
                let whole = sequences(&pos, turns, 1);
                for (shards, threads) in [(1, 1), (2, 2), (7, 1), (40, 2)] {
                    let opened = Shards::new(&pos, turns, shards);
                    let mut sum = SequenceCounts::default();
                    for shard in 0..shards {
                        sum.add(opened.count(shard, threads));
                    }
                    assert_eq!(sum, whole, "{rules} {text} {shards} shards");
                }
            }
        }
    }

    #[test]
    fn a_results_file_resumes_and_skips_a_torn_last_line() {
        let dir = std::env::temp_dir().join(format!("crescendo-shards-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.jsonl");
        let _ = std::fs::remove_file(&path);
        let id = CountId {
            fen: "start".into(),
            rules: "italian".into(),
            turns: 4,
            shards: 3,
            split: SPLIT,
        };
        let counts = |n| SequenceCounts {
            sequences: n,
            stalemates: 0,
            mates: n / 10,
        };
        let mut file = ResultsFile::open(&path, id.clone()).unwrap();
        assert_eq!(file.get(1), None);
        file.record(1, counts(100), 1.5).unwrap();
        // Another count's line in the same file is left alone.
        let other = CountId {
            rules: "scottish".into(),
            ..id.clone()
        };
        ResultsFile::open(&path, other)
            .unwrap()
            .record(2, counts(7), 0.1)
            .unwrap();
        // A line of the first split (no `split` key) counts other pieces.
        let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
        raw.write_all(
            b"{\"fen\":\"start\",\"rules\":\"italian\",\"turns\":4,\"shard\":\"2/3\",\
              \"sequences\":9,\"stalemates\":0,\"mates\":0,\"seconds\":1.0}\n",
        )
        .unwrap();
        // A run killed while writing shard 3.
        let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
        raw.write_all(b"{\"fen\":\"start\",\"ru").unwrap();
        let mut file = ResultsFile::open(&path, id.clone()).unwrap();
        assert_eq!(file.get(1), Some(counts(100)));
        assert_eq!((file.get(2), file.get(3)), (None, None));
        file.record(3, counts(300), 2.0).unwrap();
        let file = ResultsFile::open(&path, id.clone()).unwrap();
        assert_eq!(file.get(3), Some(counts(300)));
        // A broken line in the middle, or a shard counted twice differently.
        std::fs::write(&path, "garbage\n").unwrap();
        assert!(ResultsFile::open(&path, id.clone()).is_err());
        std::fs::remove_file(&path).unwrap();
        let mut file = ResultsFile::open(&path, id.clone()).unwrap();
        file.record(2, counts(5), 0.0).unwrap();
        file.record(2, counts(6), 0.0).unwrap();
        let err = ResultsFile::open(&path, id).err().unwrap();
        assert!(err.contains("line 2"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
