//! Puzzles from real games: self-play between the levels (Novice to Club)
//! from random openings; every turn start where the side to move mates in
//! this turn is a candidate, kept when the mate is unique up to move order,
//! not trivial and not a matter of course.
//!
//! Everything depends only on the seed and the game's number (node budgets,
//! no clock; each game its own tables; fresh tables for the tests that
//! define a puzzle; the game's random stream from [`index_seed`]), so a
//! seed gives the same puzzles on any number of threads, and shards of the
//! game numbers on any machines give, together, the unsharded run's.
//!
//! The tests run cheapest first, and the dear ones only on what the cheap
//! ones let through (bench/puzzles.md has the profile): material (free)
//! before the scan, the 2 000-node triviality test before the enumeration,
//! the enumeration (which rejects most candidates) before the finder's
//! fresh-table count, the levels' calibration last, on kept puzzles only.

use super::calibrate::calibrate;
use super::hard;
use super::record::{FORMAT, Puzzle, Source, puzzle_id};
use super::settings::Settings;
use super::themes::Themes;
use super::unique::{self, ALL_NODES, FIND_NODES};
use crate::arena::index_seed;
use crate::chess::notation::{self, GameRecord};
use crate::chess::status::{Undecided, status_with};
use crate::chess::{Move, Position, Rules, fen};
use crate::mate::{self, Budget, MateTable, Verdict};
use crate::search::levels::{LEVELS, Rng, Style};
use crate::search::{Limits, Searcher, random_turn};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Random turns before the levels take over (White 1 move, Black 2,
/// White 3). With two, most puzzles (a mate at Black's 4-move turn) came
/// back from earlier games: of the Italian puzzles that passed every test,
/// 68 % repeated one already kept, and 58 % of a 200-game sample were
/// already in the 730-puzzle file (bench/puzzles.md); a third random turn
/// multiplies the openings by thousands.
pub const OPENING_TURNS: u32 = 3;
/// The levels that play the games (each side's drawn per game): the
/// named levels but full strength, weakest first.
pub const PLAYERS: &[(&str, u32)] = LEVELS.split_last().expect("levels").1;
/// Games stop after the turn of this length: longer turns make puzzles no
/// one solves by hand, and cost the finder most.
pub const MAX_TURN: u32 = 14;
/// Nodes of the scan "does the side to move mate?" at every turn start.
pub const SCAN_NODES: u64 = 300_000;
/// Nodes per turn of the players, everything included (`go nodes`: the
/// root mate check, the search, the safety net; each level's own caps
/// apply below it). Small on purpose: games are the generator's largest
/// cost, and weak players miss mates, so their games go on through more
/// turn starts with a mate (bench/puzzles.md: 30 000 nodes gave 7 puzzles
/// from 200 games, 3 000 gave 11, at a quarter of the time).
pub const PLAY_NODES: u64 = 3_000;

/// Why a candidate was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reject {
    /// No mate within [`FIND_NODES`] on a fresh table.
    NoMate,
    /// The side to move is more than [`unique::MAX_ADVANTAGE`] ahead: a turn
    /// start not scanned at all (whether it has a mate does not matter).
    Crushing,
    Trivial,
    /// The enumeration did not finish.
    Unknown,
    Several,
}

/// What one game gave.
#[derive(Clone, Debug, Default)]
pub struct GameYield {
    pub puzzles: Vec<Puzzle>,
    /// Turn starts with a mate seen by the scan (crushing ones not scanned).
    pub candidates: u32,
    pub rejected: Vec<Reject>,
    /// Hard scans run (turn starts where the scan gave up; `--hard` only).
    pub hard_scans: u32,
}

/// The puzzle at `pos` (a turn start where `line` mates), or why not.
/// `history` is the game before it from the start position. The record's
/// solution is `line`: `puzzles check` enumerates from it as this did, so
/// it repeats the very same count.
pub fn make_puzzle(
    pos: &Position,
    line: &[Move],
    history: &[Move],
    source: (u64, u64, &str, &str),
    tt: &MateTable,
) -> Result<Puzzle, Reject> {
    unique_mate(pos, line, ALL_NODES, tt)?;
    let (found, nodes) = unique::find(pos, FIND_NODES, tt);
    if found.is_none() {
        return Err(Reject::NoMate);
    }
    Ok(record(pos, line, nodes, history, source, tt))
}

/// Whether the mating `line` at `pos` makes a puzzle: not crushing, not
/// trivial, the only solution by an enumeration within `nodes`.
pub fn unique_mate(
    pos: &Position,
    line: &[Move],
    nodes: u64,
    tt: &MateTable,
) -> Result<(), Reject> {
    if unique::crushing(pos) {
        return Err(Reject::Crushing);
    }
    if unique::trivial(pos, tt) {
        return Err(Reject::Trivial);
    }
    match unique::solutions(pos, line, nodes, tt).distinct {
        None => Err(Reject::Unknown),
        Some(1) => Ok(()),
        Some(_) => Err(Reject::Several),
    }
}

/// The record of a puzzle at `pos` with the mating `line` (found by the
/// finder in `nodes`): themes, SAN, the levels' calibration, the game.
/// Assumes the mate unique (`solutions` = 1): [`super::verify`] checks.
pub fn record(
    pos: &Position,
    line: &[Move],
    nodes: u64,
    history: &[Move],
    source: (u64, u64, &str, &str),
    tt: &MateTable,
) -> Puzzle {
    let (calibration, rating) = calibrate(pos, nodes, tt);
    let themes = Themes::of(pos, line);
    let fen_text = fen::to_fen(pos);
    let mut record = GameRecord::new(Position::startpos(pos.rules()));
    record.moves = history.to_vec();
    let (seed, index, white, black) = source;
    record.tags = vec![
        ("Event".into(), "Crescendo puzzle generation".into()),
        ("Round".into(), index.to_string()),
        ("White".into(), white.into()),
        ("Black".into(), black.into()),
        ("Result".into(), "*".into()),
    ];
    Puzzle {
        format: FORMAT.into(),
        id: puzzle_id(&fen_text, pos.rules()),
        settings: Settings::of(pos.rules()),
        fen: fen_text,
        rules: pos.rules().name().into(),
        side: pos.side_to_move().name().into(),
        turn_length: themes.turn_length,
        solution_uci: line.iter().map(|m| m.uci()).collect(),
        solution_san: notation::san_line(pos, line),
        solutions: 1,
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
        themes: themes.names(),
        captures: themes.captures,
        pieces_used: themes.pieces_used,
        game: Source {
            seed,
            index,
            white: white.into(),
            black: black.into(),
            pgn: record.to_pgn(),
        },
        calibration,
    }
}

/// How game `index` of `seed` starts: its two levels (White, Black), the
/// position after the random opening turns and their moves, and the game's
/// random stream from there.
fn start(
    rules: Rules,
    seed: u64,
    index: u64,
) -> ([(&'static str, u32); 2], Position, Vec<Move>, Rng) {
    let mut rng = Rng::new(index_seed(seed, index));
    let levels = [0, 1].map(|_| PLAYERS[rng.below(PLAYERS.len())]);
    let mut pos = Position::startpos(rules);
    let mut history = Vec::new();
    for _ in 0..OPENING_TURNS {
        for mv in random_turn(&pos, &mut rng) {
            pos.play(mv);
            history.push(mv);
        }
    }
    (levels, pos, history, rng)
}

/// Game `index` of `seed`'s sequence under `rules`, and the puzzles it gives.
pub fn game(rules: Rules, seed: u64, index: u64) -> GameYield {
    play_game(rules, seed, index, false)
}

/// The same game, and the hard puzzles it gives ([`hard`]): only turn
/// starts where the scan gave up, scanned again with the hard budget.
pub fn hard_game(rules: Rules, seed: u64, index: u64) -> GameYield {
    play_game(rules, seed, index, true)
}

fn play_game(rules: Rules, seed: u64, index: u64, hard: bool) -> GameYield {
    let (levels, mut pos, mut history, mut rng) = start(rules, seed, index);
    let mut out = GameYield::default();
    let mut searcher = Searcher::new(8);
    let scan_table = MateTable::new(4);
    let test_table = MateTable::new(4);
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        nodes: Some(PLAY_NODES),
        threads: 1,
        ..Limits::default()
    };
    while pos.moves_made() == 0 && pos.turn_length() <= MAX_TURN {
        let status = status_with(
            &pos,
            |p| mate::mates_this_turn(p, 20_000),
            Undecided::GameGoesOn,
        );
        if status.is_over() {
            break;
        }
        let source = (seed, index, levels[0].0, levels[1].0);
        if unique::crushing(&pos) {
            out.rejected.push(Reject::Crushing);
        } else {
            let scan = mate::find_mate(&pos, &Budget::nodes(SCAN_NODES), &scan_table);
            // The hard stage uses the test table only (cleared before each
            // use), so the game and its scans are the ordinary run's.
            let made = match (scan.verdict, hard) {
                (Verdict::Mate(line), false) => {
                    Some(make_puzzle(&pos, &line, &history, source, &test_table))
                }
                (Verdict::Unknown, true) => {
                    out.hard_scans += 1;
                    hard::scan(&pos, &test_table).map(|(line, nodes)| {
                        hard::make_hard_puzzle(&pos, (&line, nodes), &history, source, &test_table)
                    })
                }
                _ => None,
            };
            if let Some(made) = made {
                out.candidates += 1;
                match made {
                    Ok(p) => out.puzzles.push(p),
                    Err(r) => out.rejected.push(r),
                }
            }
        }
        let (_, skill) = levels[usize::from(pos.side_to_move() != crate::chess::Color::White)];
        let style = Style {
            skill,
            seed: rng.next_u64(),
            ..Style::default()
        };
        let result = crate::search::play(&mut searcher, &pos, &limits, style, &stop, |_| {});
        if result.turn.is_empty() {
            break;
        }
        for &mv in &result.turn {
            pos.play(mv);
            history.push(mv);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_reproducible_from_its_seed_and_number() {
        let (a, b) = (game(Rules::Scottish, 3, 0), game(Rules::Scottish, 3, 0));
        assert_eq!(a.candidates, b.candidates);
        assert_eq!(a.rejected, b.rejected);
        assert_eq!(a.puzzles, b.puzzles);
        for p in &a.puzzles {
            assert_eq!(super::super::verify(p, &MateTable::new(4)), Ok(()));
        }
    }

    #[test]
    fn openings_are_random_turns_and_rarely_repeat() {
        // The games start from OPENING_TURNS random turns (the position is
        // at the start of the next turn, of one move more), and 300 games
        // of a seed start from 300 different positions: with two random
        // turns (some thousands of openings) a few would already meet.
        let mut seen = std::collections::HashSet::new();
        for index in 0..300 {
            let (_, pos, history, _) = start(Rules::Italian, 1, index);
            assert_eq!(pos.moves_made(), 0);
            assert_eq!(pos.turn_length(), OPENING_TURNS + 1);
            let moves: u32 = (1..=OPENING_TURNS).sum();
            assert!(history.len() as u32 <= moves, "{index}");
            seen.insert(fen::to_fen(&pos));
        }
        assert_eq!(seen.len(), 300);
    }
}
