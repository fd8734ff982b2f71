//! Generates a series-mate benchmark set as `bench/data/sermate-public.jsonl`
//! was made: positions from random games, re-posed as turns of `n` moves.
//!
//!     cargo run --release --example sermate_set -- SEED PER_VERDICT > set.jsonl
//!
//! Each game plays uniformly random legal moves (Italian rules) from the start
//! until at most 12 pieces are left (or the game ends); the first turn start
//! with at most 12 pieces and both sides able to move is taken, with a turn
//! length `n` drawn from 6..=12, the quiet-turn count reset and no en passant
//! target (Popeye takes one at most, and a re-posed turn has no previous
//! turn). The mate finder classifies it (Italian rules, node limit
//! `LIMIT`; undecided positions are skipped and counted on stderr), and
//! positions are kept until every `n` has `PER_VERDICT` with a mate and as
//! many without. One JSON object per line: `id`, `fen`, `n`, `verdict`
//! (`mate` or `none`), `line` (UCI, for a mate).

use crescendo::chess::{Position, Rules, fen, legal_moves};
use crescendo::mate::{self, Budget, MateTable, Verdict};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const MAX_PIECES: u32 = 12;
const LIMIT: u64 = 50_000_000;
const NS: std::ops::RangeInclusive<u32> = 6..=12;

/// The first turn start of a random game with at most [`MAX_PIECES`] pieces.
fn sparse_position(rng: &mut StdRng) -> Option<Position> {
    let mut pos = Position::startpos(Rules::Italian);
    for _ in 0..2000 {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        if pos.moves_made() == 0 && pos.occupied().count() <= MAX_PIECES {
            return Some(pos);
        }
        let mv = moves.as_slice()[rng.random_range(0..moves.len())];
        pos.play(mv);
    }
    None
}

/// `pos` re-posed as the start of a turn of `n` moves.
fn reposed(pos: &Position, n: u32) -> Option<Position> {
    let f = fen::to_fen(pos);
    let fields: Vec<&str> = f.split_whitespace().collect();
    let text = format!("{} {} {} - 0 {n}", fields[0], fields[1], fields[2]);
    fen::parse(&text, Rules::Italian).ok()
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (seed, per) = match args[..] {
        [seed, per] => (seed, per as usize),
        _ => {
            eprintln!("usage: sermate_set SEED PER_VERDICT");
            std::process::exit(2);
        }
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let tt = MateTable::new(64);
    let mut count = [[0usize; 2]; 13];
    let (mut skipped, mut id) = (0, 0);
    while NS
        .clone()
        .any(|n| count[n as usize].iter().any(|&c| c < per))
    {
        let Some(start) = sparse_position(&mut rng) else {
            continue;
        };
        let n = rng.random_range(NS);
        let Some(pos) = reposed(&start, n) else {
            continue;
        };
        tt.clear();
        let answer = mate::find_mate(&pos, &Budget::nodes(LIMIT), &tt);
        let (slot, verdict, line) = match &answer.verdict {
            Verdict::Mate(line) => (0, "mate", line.iter().map(|m| m.uci()).collect()),
            Verdict::NoMate => (1, "none", Vec::new()),
            Verdict::Unknown => {
                skipped += 1;
                continue;
            }
        };
        if count[n as usize][slot] >= per {
            continue;
        }
        count[n as usize][slot] += 1;
        id += 1;
        let row = serde_json::json!({
            "id": format!("s{id:03}"),
            "fen": fen::to_fen(&pos),
            "n": n,
            "verdict": verdict,
            "line": line,
        });
        println!("{row}");
    }
    eprintln!("{id} rows; {skipped} undecided within {LIMIT} nodes skipped");
}
