//! perft: counting the move sequences of a number of turns.

use super::moves::Move;
use super::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

/// Counts of the move sequences of exactly `turns` turns from a position.
/// A pass counts as a turn when it is the only legal move; a game that
/// ends earlier contributes no sequence of the full length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerftResult {
    /// Move sequences of `turns` turns.
    pub sequences: u64,
    /// Those sequences after which the game is over.
    pub games_ended: u64,
    /// Those sequences whose last turn is a pass.
    pub passes: u64,
}

impl std::ops::AddAssign for PerftResult {
    fn add_assign(&mut self, rhs: PerftResult) {
        self.sequences += rhs.sequences;
        self.games_ended += rhs.games_ended;
        self.passes += rhs.passes;
    }
}

/// Counts the move sequences of `turns` turns from `pos`.
pub fn perft(pos: &Position, turns: u32) -> PerftResult {
    let mut moves = Vec::new();
    count(pos, turns, None, &mut moves, None)
}

/// [`perft`] that gives up as soon as `stop` is set (`None`): the
/// protocol's `go perft` must answer `stop` at once, and one first move of
/// a deep count can take minutes.
pub fn perft_until_stopped(pos: &Position, turns: u32, stop: &AtomicBool) -> Option<PerftResult> {
    let mut moves = Vec::new();
    let counts = count(pos, turns, None, &mut moves, Some(stop));
    (!stop.load(Ordering::Relaxed)).then_some(counts)
}

/// [`perft`] split by first move, in legal-move order.
pub fn perft_divide(pos: &Position, turns: u32) -> Vec<(Move, PerftResult)> {
    if turns == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let counts = count(&pos.after(mv), turns - 1, Some(mv), &mut moves, None);
            (mv, counts)
        })
        .collect()
}

/// `buffers` holds one move list per remaining turn, reused down the tree.
/// A set `stop` cuts the count short (checked above the frontier, where a
/// node costs a whole move list anyway).
fn count(
    pos: &Position,
    turns: u32,
    last: Option<Move>,
    buffers: &mut Vec<Vec<Move>>,
    stop: Option<&AtomicBool>,
) -> PerftResult {
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return PerftResult::default();
    }
    if turns == 0 {
        return PerftResult {
            sequences: 1,
            games_ended: u64::from(pos.is_over()),
            passes: u64::from(last == Some(Move::Pass)),
        };
    }
    let mut moves = buffers.pop().unwrap_or_default();
    moves.clear();
    pos.generate(&mut moves, super::movegen::Moves::All);
    let mut total = PerftResult::default();
    if turns == 1 {
        // Bulk count at the frontier: no need to play the moves out,
        // except to see which end the game.
        for &mv in &moves {
            total.sequences += 1;
            total.passes += u64::from(mv == Move::Pass);
            total.games_ended += u64::from(pos.after(mv).is_over());
        }
    } else {
        for &mv in &moves {
            total += count(&pos.after(mv), turns - 1, Some(mv), buffers, stop);
        }
    }
    buffers.push(moves);
    total
}

#[cfg(test)]
mod tests {
    //! A deliberately simple second implementation of the rules (a plain
    //! grid, moves as text, every path re-walked square by square) that
    //! the real move generator is checked against.

    use super::*;
    use crate::linear::{Board, Options};

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    enum Cell {
        Off,
        Empty,
        Token(usize),
    }

    #[derive(Clone, Debug)]
    struct Naive {
        w: i32,
        h: i32,
        cells: Vec<Cell>,
        blocker: [Option<(i32, i32)>; 2],
        side: usize,
        last: Option<(i32, i32)>,
        passes: u32,
        equal: bool,
        blockers: bool,
    }

    const DIRS: [(i32, i32); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    fn name((x, y): (i32, i32)) -> String {
        format!("{}{}", (b'a' + x as u8) as char, y + 1)
    }

    impl Naive {
        fn new(options: &Options) -> Naive {
            let board = options.board;
            let (w, h) = (i32::from(board.width()), i32::from(board.height()));
            let mut cells = Vec::new();
            for y in 0..h {
                for x in 0..w {
                    let sq = crate::linear::Square::new(x as u8, y as u8).unwrap();
                    cells.push(if board.is_usable(sq) {
                        Cell::Empty
                    } else {
                        Cell::Off
                    });
                }
            }
            Naive {
                w,
                h,
                cells,
                blocker: [None; 2],
                side: 0,
                last: None,
                passes: 0,
                equal: options.equal_moves,
                blockers: options.blockers,
            }
        }

        fn at(&self, (x, y): (i32, i32)) -> Option<Cell> {
            let inside = x >= 0 && y >= 0 && x < self.w && y < self.h;
            inside.then(|| self.cells[(y * self.w + x) as usize])
        }

        fn set(&mut self, (x, y): (i32, i32), cell: Cell) {
            let w = self.w;
            self.cells[(y * w + x) as usize] = cell;
        }

        fn count(&self, cell: Cell) -> usize {
            self.cells.iter().filter(|&&c| c == cell).count()
        }

        fn has_blocker(&self, sq: (i32, i32)) -> bool {
            self.blocker.contains(&Some(sq))
        }

        fn corners(&self) -> [(i32, i32); 4] {
            [
                (0, 0),
                (self.w - 1, 0),
                (0, self.h - 1),
                (self.w - 1, self.h - 1),
            ]
        }

        fn final_move(&self) -> bool {
            self.equal && self.side == 1 && self.count(Cell::Empty) == 0
        }

        fn over(&self) -> bool {
            self.passes >= 2 || (self.count(Cell::Empty) == 0 && !self.final_move())
        }

        fn squares(&self) -> Vec<(i32, i32)> {
            (0..self.h)
                .flat_map(|y| (0..self.w).map(move |x| (x, y)))
                .collect()
        }

        /// The legal moves as text, with the position after each.
        fn moves(&self) -> Vec<(String, Naive)> {
            if self.over() {
                return Vec::new();
            }
            let mut out = if self.count(Cell::Token(self.side)) == 0 {
                self.drops()
            } else {
                self.slides()
            };
            if out.is_empty() {
                let mut next = self.clone();
                next.passes += 1;
                next.last = None;
                next.side = 1 - self.side;
                out.push(("0000".to_string(), next));
            }
            out
        }

        fn drops(&self) -> Vec<(String, Naive)> {
            let mut out = Vec::new();
            for sq in self.squares() {
                if self.at(sq) != Some(Cell::Empty) || self.has_blocker(sq) {
                    continue;
                }
                let mut next = self.clone();
                next.set(sq, Cell::Token(self.side));
                next.last = Some(sq);
                next.passes = 0;
                next.side = 1 - self.side;
                if !self.blockers {
                    out.push((format!("@{}", name(sq)), next));
                    continue;
                }
                for corner in self.corners() {
                    if !next.has_blocker(corner) && !matches!(next.at(corner), Some(Cell::Token(_)))
                    {
                        let mut with = next.clone();
                        with.blocker[self.side] = Some(corner);
                        out.push((format!("@{}+{}", name(sq), name(corner)), with));
                    }
                }
            }
            out
        }

        fn slides(&self) -> Vec<(String, Naive)> {
            let me = self.side;
            let opp_total = self.count(Cell::Token(1 - me));
            let mut out = Vec::new();
            for from in self.squares() {
                if self.at(from) != Some(Cell::Token(me)) || self.has_blocker(from) {
                    continue;
                }
                for (dx, dy) in DIRS {
                    for dist in 1..16 {
                        let path: Vec<_> = (1..=dist)
                            .map(|d| (from.0 + dx * d, from.1 + dy * d))
                            .collect();
                        let cells: Vec<_> = path.iter().map(|&sq| self.at(sq)).collect();
                        if cells.iter().any(|c| matches!(c, None | Some(Cell::Off)))
                            || path.iter().any(|&sq| self.has_blocker(sq))
                            || cells[..cells.len() - 1].contains(&Some(Cell::Token(me)))
                        {
                            break;
                        }
                        let captured = cells
                            .iter()
                            .filter(|&&c| c == Some(Cell::Token(1 - me)))
                            .count();
                        if captured >= opp_total {
                            break;
                        }
                        let entered_empty = cells.contains(&Some(Cell::Empty));
                        if entered_empty || self.final_move() {
                            let mut next = self.clone();
                            for &sq in &path {
                                next.set(sq, Cell::Token(me));
                            }
                            next.last = Some(*path.last().unwrap());
                            next.passes = 0;
                            next.side = 1 - me;
                            let text = format!("{}{}", name(from), name(*path.last().unwrap()));
                            out.extend(self.blocker_moves(&text, next));
                        }
                    }
                }
            }
            out
        }

        /// The token move alone, and with each blocker move after it.
        fn blocker_moves(&self, text: &str, next: Naive) -> Vec<(String, Naive)> {
            let me = self.side;
            let mut out = vec![(text.to_string(), next.clone())];
            let Some(start) = next.blocker[me] else {
                return out;
            };
            let one_empty = next.count(Cell::Empty) == 1;
            for (dx, dy) in DIRS {
                for dist in 1..16 {
                    let path: Vec<_> = (1..=dist)
                        .map(|d| (start.0 + dx * d, start.1 + dy * d))
                        .collect();
                    let bad_path = path.iter().any(|&sq| {
                        matches!(next.at(sq), None | Some(Cell::Off))
                            || next.blocker[1 - me] == Some(sq)
                            || self.corners().contains(&sq)
                    });
                    if bad_path {
                        break;
                    }
                    let to = *path.last().unwrap();
                    let cell = next.at(to).unwrap();
                    let last_token =
                        matches!(cell, Cell::Token(c) if next.count(Cell::Token(c)) == 1);
                    if (one_empty && cell == Cell::Empty) || last_token || self.last == Some(to) {
                        continue;
                    }
                    let mut with = next.clone();
                    with.blocker[me] = Some(to);
                    out.push((format!("{text}+{}{}", name(start), name(to)), with));
                }
            }
            out
        }

        fn perft(&self, turns: u32) -> u64 {
            if turns == 0 {
                return 1;
            }
            self.moves()
                .iter()
                .map(|(_, next)| next.perft(turns - 1))
                .sum()
        }
    }

    fn options(board: &str, equal_moves: bool, blockers: bool) -> Options {
        Options {
            board: board.parse::<Board>().unwrap(),
            equal_moves,
            blockers,
        }
    }

    #[test]
    fn perft_of_the_default_board() {
        let pos = Position::new(&Options::default());
        let counts: Vec<u64> = (1..=3).map(|t| perft(&pos, t).sequences).collect();
        assert_eq!(counts, [60, 3540, 73256]);
    }

    #[test]
    fn perft_by_hand_on_a_full_4x4_board() {
        // 16 drops, then 15 for Black. White then moves its one token:
        // from a corner 3 lines of 3 squares, from an edge square 3+3+2+1+1
        // = 10... minus what Black's token blocks; the reference agrees.
        let pos = Position::new(&options("4/4/4/4", false, false));
        assert_eq!(perft(&pos, 1).sequences, 16);
        assert_eq!(perft(&pos, 2).sequences, 16 * 15);
        let naive = Naive::new(&options("4/4/4/4", false, false));
        assert_eq!(perft(&pos, 3).sequences, naive.perft(3));
    }

    #[test]
    fn perft_matches_the_simple_implementation() {
        let boards = [
            "4x4",
            "4/4/4/4",
            "5x4",
            "..#./..../#.../....",
            "5x5-corner-blocks",
        ];
        for board in boards {
            for (equal, blockers) in [(false, false), (true, false), (false, true), (true, true)] {
                let opts = options(board, equal, blockers);
                let pos = Position::new(&opts);
                let naive = Naive::new(&opts);
                // As deep as stays quick for the slow reference.
                for t in 1..=6 {
                    let ours = perft(&pos, t).sequences;
                    if ours > 30_000 {
                        break;
                    }
                    assert_eq!(ours, naive.perft(t), "{board} {equal} {blockers} T={t}");
                }
            }
        }
    }

    /// A tiny deterministic generator, so the tests need no crate.
    fn next_random(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn random_games_match_the_simple_implementation_move_for_move() {
        let boards = [
            "4/4/4/4",
            "5x5",
            "6x4",
            "#..../...../..#../...../.....",
            "6x6-corner-blocks",
        ];
        let mut seed = 0x1234_5678_9abc_def1;
        let mut finished = 0;
        for board in boards {
            for (equal, blockers) in [(false, false), (true, false), (false, true), (true, true)] {
                let opts = options(board, equal, blockers);
                for _ in 0..6 {
                    let (mut pos, mut naive) = (Position::new(&opts), Naive::new(&opts));
                    loop {
                        let mut ours: Vec<String> =
                            pos.legal_moves().iter().map(|m| m.to_string()).collect();
                        let mut theirs = naive.moves();
                        theirs.sort_by(|a, b| a.0.cmp(&b.0));
                        ours.sort();
                        let names: Vec<&String> = theirs.iter().map(|(m, _)| m).collect();
                        assert_eq!(ours.iter().collect::<Vec<_>>(), names, "{pos}");
                        if theirs.is_empty() {
                            break;
                        }
                        let pick = next_random(&mut seed) as usize % theirs.len();
                        pos.play(pos.parse_move(&theirs[pick].0).unwrap());
                        naive = theirs.swap_remove(pick).1;
                        if pos.empty_squares().len() <= 4 {
                            // Endings: passes, the last empty square, rule 12.
                            let t = if blockers { 2 } else { 3 };
                            assert_eq!(perft(&pos, t).sequences, naive.perft(t), "{pos}");
                        }
                        let reparsed: Position = pos.to_string().parse().unwrap();
                        assert_eq!(reparsed, pos);
                    }
                    finished += 1;
                    assert!(pos.is_over());
                }
            }
        }
        assert_eq!(finished, 5 * 4 * 6);
    }
}
