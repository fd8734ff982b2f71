//! The recipe of `bench/data/net-safe-turns.txt`: positions where most
//! turns lose to a mate in the opponent's next turn, but a turn proved safe
//! exists. `cargo bench --bench net -- collect [--rules R] FILE...` reads
//! games (PGN, or lines `FEN|...` of positions from lost games) and prints
//! one line per position that qualifies: at a turn start, [`SAMPLES`]
//! random turns (seeded by the position's key) are checked by the mate
//! finder; the position is kept when at least [`MATED`] of them are
//! mated, and a turn is proved safe (a sampled one, else the first of the
//! safety net's candidate turns that the finder clears).

use crescendo::chess::pgn::read_games;
use crescendo::chess::{Move, Position, Rules, fen, legal_moves};
use crescendo::mate::{Budget, MateTable, Verdict, find_mate, is_mating_line};
use crescendo::search::levels::Rng;
use crescendo::search::random_turn;
use crescendo::search::safety::{Order, candidate_turns};

/// Random turns sampled at each turn start.
const SAMPLES: usize = 16;
/// Sampled turns that must be mated for the position to qualify.
const MATED: usize = 10;
/// Finder nodes for the root's own mate (a position with one is skipped).
const ROOT_NODES: u64 = 50_000;
/// Finder nodes per sampled turn (an unknown counts as not mated).
const SAMPLE_NODES: u64 = 100_000;
/// Finder nodes per candidate turn when looking for the proved-safe one.
const PROOF_NODES: u64 = 1_000_000;
/// Candidate turns tried for the proof.
const PROOF_CANDIDATES: usize = 48;

/// What the recipe found at a position that qualifies.
pub struct Found {
    pub mated: usize,
    pub safe: Vec<Move>,
}

/// One line of the data file: `rules|FEN|mated/sampled|safe turn|source`.
pub fn line(pos: &Position, found: &Found, source: &str) -> String {
    let rules = match pos.rules() {
        Rules::Scottish => "scottish",
        _ => "italian",
    };
    let safe: Vec<String> = found.safe.iter().map(|m| m.to_string()).collect();
    format!(
        "{rules}|{}|{}/{SAMPLES}|{}|{source}",
        fen::to_fen(pos),
        found.mated,
        safe.join(",")
    )
}

fn after(pos: &Position, turn: &[Move]) -> Position {
    let mut p = pos.clone();
    for &mv in turn {
        p.play(mv);
    }
    p
}

/// The finder's answer after `turn`: `Some(true)` mated, `Some(false)`
/// proved safe (a turn that ends the game is safe), `None` undecided.
fn mated_after(
    pos: &Position,
    turn: &[Move],
    nodes: u64,
    table: &MateTable,
    refutations: &mut Vec<Vec<Move>>,
) -> Option<bool> {
    let end = after(pos, turn);
    if legal_moves(&end).is_empty() {
        return Some(false);
    }
    if refutations.iter().any(|line| is_mating_line(&end, line)) {
        return Some(true);
    }
    let answer = find_mate(&end, &Budget::nodes(nodes), table);
    if let Verdict::Mate(line) = &answer.verdict {
        refutations.push(line.clone());
    }
    answer.verdict.mates()
}

/// Does `pos` qualify? See the module's comment.
pub fn qualifies(pos: &Position) -> Option<Found> {
    if legal_moves(pos).is_empty() {
        return None;
    }
    let table = MateTable::new(16);
    if find_mate(pos, &Budget::nodes(ROOT_NODES), &table)
        .verdict
        .mates()
        != Some(false)
    {
        // The mover mates (or may): not a question of defence.
        return None;
    }
    let mut rng = Rng::new(pos.key());
    let mut refutations = Vec::new();
    let mut mated = 0;
    let mut safe = None;
    for _ in 0..SAMPLES {
        let turn = random_turn(pos, &mut rng);
        match mated_after(pos, &turn, SAMPLE_NODES, &table, &mut refutations) {
            Some(true) => mated += 1,
            Some(false) if safe.is_none() => safe = Some(turn),
            _ => {}
        }
    }
    if std::env::var("COLLECT_DEBUG").is_ok() {
        eprintln!(
            "{}: {mated}/{SAMPLES} mated, safe sampled: {}",
            fen::to_fen(pos),
            safe.is_some()
        );
    }
    if mated < MATED {
        return None;
    }
    if safe.is_none() {
        let scored = candidate_turns(pos, Order::Score);
        let sheltered = candidate_turns(pos, Order::Shelter);
        let both = sheltered.into_iter().zip(scored).flat_map(|(a, b)| [a, b]);
        safe = both
            .take(PROOF_CANDIDATES)
            .map(|(_, turn)| turn)
            .find(|turn| {
                mated_after(pos, turn, PROOF_NODES, &table, &mut refutations) == Some(false)
            });
    }
    Some(Found { mated, safe: safe? })
}

/// The turn-start positions of `path`: every turn start of every game of
/// a PGN file, or the FEN before `|` of each line of another file.
fn positions(path: &str, rules: Rules) -> Vec<(Position, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let name = path.rsplit('/').next().unwrap_or(path);
    if !path.ends_with(".pgn") {
        return text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|(i, l)| {
                let fen_text = l.split('|').next()?;
                let pos = fen::parse(fen_text, rules).ok()?;
                Some((pos, format!("{name}:{}", i + 1)))
            })
            .collect();
    }
    let mut out = Vec::new();
    for game in read_games(&text, rules) {
        let mut pos = game.start.clone();
        let mut at_start = true;
        let mut turn = 1;
        for &mv in &game.moves {
            if at_start {
                out.push((pos.clone(), format!("{name}:g{}t{turn}", game.number)));
            }
            at_start = pos.play(mv).turn_ended;
            turn += u32::from(at_start);
        }
    }
    out
}

/// `collect [--rules italian|scottish] FILE...`: prints the qualifying
/// positions' lines.
pub fn run(args: &[String]) {
    let mut rules = Rules::Italian;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--rules" => {
                rules = match it.next().map(String::as_str) {
                    Some("scottish") => Rules::Scottish,
                    _ => Rules::Italian,
                }
            }
            _ => files.push(a.clone()),
        }
    }
    let mut seen = std::collections::HashSet::new();
    for file in files {
        for (pos, source) in positions(&file, rules) {
            if !seen.insert(pos.exact_key()) {
                continue;
            }
            if let Some(found) = qualifies(&pos) {
                println!("{}", line(&pos, &found, &source));
            }
        }
    }
}
