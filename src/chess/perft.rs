//! Move-path enumeration: ordinary-chess perft and progressive perft.

mod shard;
mod split;
mod two;

use super::movegen::{self, generate_checks, generate_legal, legal_moves};
use super::moves::{Move, MoveList};
use super::position::Position;
use super::status::is_mated;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, Ordering};

pub use shard::{CountId, ResultsFile, SPLIT, ShardRange};
pub use split::{Shards, divide_sequences, divide_with_total_on, perft_on, sequences};

/// The most moves one perft may enumerate (plies for [`chess_perft`]). The
/// walks recurse once per move, so an unbounded request (a turn of 10000
/// moves) would overflow the stack; and beyond a few dozen moves the counts
/// exceed 64 bits in all but trivial positions anyway.
pub const MAX_PERFT_MOVES: u64 = 200;

/// The moves a progressive perft over `turns` turns enumerates at most: the
/// rest of the current turn, then each following turn, one move longer than
/// the one before (a Scottish check only shortens them). Saturates.
pub fn moves_to_enumerate(pos: &Position, turns: u32) -> u64 {
    let mut total = u64::from(pos.moves_left());
    let mut length = pos.turn_length();
    for _ in 1..turns {
        if total > MAX_PERFT_MOVES {
            break; // enough to refuse; `turns` may be in the billions
        }
        length = pos.rules().next_turn_length(length);
        total = total.saturating_add(u64::from(length));
    }
    total
}

/// Refuses a progressive perft of more than [`MAX_PERFT_MOVES`] moves, with
/// the reason.
pub fn check_size(pos: &Position, turns: u32) -> Result<(), String> {
    let moves = moves_to_enumerate(pos, turns);
    if moves > MAX_PERFT_MOVES {
        return Err(format!(
            "{turns} turn(s) from a turn of length {} with {} move(s) left enumerate \
             more than {MAX_PERFT_MOVES} moves (the limit)",
            pos.turn_length(),
            pos.moves_left()
        ));
    }
    Ok(())
}

/// Ordinary perft: leaf nodes at `depth` plies, counting the last ply in bulk.
/// Meant for [`Rules::Chess`] positions, where every move is a turn. The
/// caller keeps `depth` within [`MAX_PERFT_MOVES`] (it recurses per ply);
/// counts saturate at `u64::MAX`.
pub fn chess_perft(pos: &Position, depth: u32) -> u64 {
    if depth <= 1 {
        return if depth == 0 {
            1
        } else {
            movegen::count_legal(pos)
        };
    }
    let mut list = MoveList::new();
    generate_legal(pos, &mut list);
    let mut nodes = 0;
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play(mv);
        nodes = chess_perft(&child, depth - 1).saturating_add(nodes);
    }
    nodes
}

/// [`chess_perft`] split by first move.
pub fn chess_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    legal_moves(pos)
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            (mv, chess_perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// What progressive perft counts (see `crescendo perft` in protocol.md).
/// Counts saturate: `u64::MAX` means "at least that many" (see
/// [`PerftCounts::overflowed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCounts {
    /// Legal move sequences that complete all the turns.
    pub sequences: u64,
    /// Distinct positions at the end of those sequences.
    pub positions: u64,
    /// Sequences that end in a stalemate on the way.
    pub stalemates: u64,
    /// Sequences in which a turn ends in mate (the last turn included).
    pub mates: u64,
}

/// [`PerftCounts`] without `positions`: what the bulk count ([`sequences`])
/// reports. Counts saturate as there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SequenceCounts {
    pub sequences: u64,
    pub stalemates: u64,
    pub mates: u64,
}

type Tally = SequenceCounts;

impl SequenceCounts {
    /// Saturating: the counts of a long turn exceed 64 bits quickly, and a
    /// wrapped count would be a plausible-looking wrong number.
    pub fn add(&mut self, other: Tally) {
        self.sequences = self.sequences.saturating_add(other.sequences);
        self.stalemates = self.stalemates.saturating_add(other.stalemates);
        self.mates = self.mates.saturating_add(other.mates);
    }

    /// The counts of `weight` identical subtrees (saturating).
    fn times(self, weight: u64) -> Tally {
        Tally {
            sequences: self.sequences.saturating_mul(weight),
            stalemates: self.stalemates.saturating_mul(weight),
            mates: self.mates.saturating_mul(weight),
        }
    }

    /// Did a count reach `u64::MAX` (so the true count may be larger)?
    pub fn overflowed(&self) -> bool {
        [self.sequences, self.stalemates, self.mates].contains(&u64::MAX)
    }

    fn with_positions(self, positions: u64) -> PerftCounts {
        PerftCounts {
            sequences: self.sequences,
            positions,
            stalemates: self.stalemates,
            mates: self.mates,
        }
    }
}

impl PerftCounts {
    /// Did a count reach `u64::MAX` (so the true count may be larger)?
    pub fn overflowed(&self) -> bool {
        self.without_positions().overflowed()
    }

    pub fn without_positions(&self) -> SequenceCounts {
        SequenceCounts {
            sequences: self.sequences,
            stalemates: self.stalemates,
            mates: self.mates,
        }
    }
}

/// The sequences after one first move, as far as they were counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partial {
    /// Saturates at `u64::MAX`.
    pub sequences: u64,
    /// `stop` was set before the count was complete.
    pub stopped: bool,
}

/// The complete move sequences of `turns` turns that start with `mv` (one
/// line of `go perft`), giving up at the next node once `stop` is set. The
/// last move is counted in bulk.
pub fn sequences_after(pos: &Position, mv: Move, turns: u32, stop: &AtomicBool) -> Partial {
    let mut walk = Walk::new(Mode::Bulk, 1);
    walk.stop = Some(stop);
    let tally = walk.child(0, pos, mv, turns);
    Partial {
        sequences: tally.sequences,
        stopped: walk.stopped,
    }
}

/// How a walk treats the last move of the last turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Counted in bulk: the legal moves are counted, not made, and only the
    /// checks among them are made, to count the mates. No end positions, so
    /// no `positions`; several times faster.
    Bulk,
    /// Every move made and every end position kept, for the exact
    /// `positions` (memory grows with them).
    Positions,
}

/// Progressive perft over `turns` turns from `pos`, counting the current
/// (possibly partly played) turn as the first, with the exact `positions`
/// ([`Mode::Positions`], one thread). Transpositions inside and across turns
/// are counted once through an exact memo, so the cost grows with distinct
/// positions rather than with sequences.
pub fn perft(pos: &Position, turns: u32) -> PerftCounts {
    perft_on(pos, turns, 1)
}

/// [`perft`] split by the first move (each with its own end-position set).
pub fn divide(pos: &Position, turns: u32) -> Vec<(Move, PerftCounts)> {
    divide_with_total(pos, turns).0
}

/// [`divide`] and the whole [`perft`] from the same walks: sequences,
/// stalemates and mates are sums over the first moves; the distinct end
/// positions are the union of the parts' (two first moves can end in the
/// same position, so their counts do not add up).
pub fn divide_with_total(pos: &Position, turns: u32) -> (Vec<(Move, PerftCounts)>, PerftCounts) {
    divide_with_total_on(pos, turns, 1)
}

/// The largest memo a walk keeps: past it the memo starts again empty
/// (it is only a cache), so that long counts (four turns and more, whose
/// distinct nodes run into billions) stay within a few hundred MB a thread.
/// Just under a power of two of buckets at the hash map's load factor.
const MEMO_LIMIT: usize = 3 << 19;

/// Where one move leads in a perft of `turns` turns (the one place that
/// says which sequences count where).
enum Step {
    /// A node the walk goes on from, with the turns still to count.
    Node(Position, u32),
    /// A sequence ends here, counted in the tally: a completed last turn
    /// (with its end position) or a mate that ends the game earlier.
    Leaf(Tally, Option<Position>),
}

fn step(pos: &Position, mv: Move, turns: u32) -> Step {
    let mut child = pos.clone();
    let effect = child.play(mv);
    if !effect.turn_ended {
        return Step::Node(child, turns);
    }
    let mated = effect.check && is_mated(&child);
    if turns > 1 && !mated {
        return Step::Node(child, turns - 1);
    }
    let tally = Tally {
        sequences: (turns == 1) as u64,
        stalemates: 0,
        mates: mated as u64,
    };
    Step::Leaf(tally, (turns == 1).then_some(child))
}

/// A node with no legal move: a stalemate, unless it is a mate at turn
/// start, which was counted when the mating turn ended.
fn stuck(pos: &Position) -> Tally {
    Tally {
        stalemates: !is_mated(pos) as u64,
        ..Tally::default()
    }
}

/// Is this the last move of the last turn, which [`Mode::Bulk`] counts
/// without making the moves?
fn is_bulk_node(pos: &Position, turns: u32) -> bool {
    turns == 1 && pos.is_last_move()
}

/// The last move of the last turn in bulk: each legal move completes a
/// sequence (the move is the turn's last, so a check is allowed under both
/// rule sets and ends nothing early), and only a move that gives check can
/// mate, so only the checks are made, to test the mate. The same counts as
/// [`step`] on every move.
fn last_move_in_bulk(pos: &Position) -> Tally {
    let sequences = movegen::count_legal(pos);
    if sequences == 0 {
        return stuck(pos);
    }
    Tally {
        sequences,
        stalemates: 0,
        mates: mates_in_bulk(pos),
    }
}

/// The last moves from `pos` (a bulk node) that mate: only checks can.
/// Most checks leave the king a flight, which the piece sets show without
/// making the move ([`two::KingEscapes`]); the others are made and
/// asked of the rules core.
fn mates_in_bulk(pos: &Position) -> u64 {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let escapes = two::KingEscapes::new(pos);
    checks
        .iter()
        .filter(|&&mv| {
            if escapes.after(pos, mv) {
                return false;
            }
            let mut child = pos.clone();
            child.play(mv);
            is_mated(&child)
        })
        .count() as u64
}

/// The depth-first count. Parts (the first moves of a divide) have their
/// own memo entries and end-position sets, so that each part's `positions`
/// is exact.
struct Walk<'a> {
    mode: Mode,
    memo: FxHashMap<([u64; 4], u32, u32), Tally>,
    /// The distinct end positions of each part ([`Mode::Positions`] only).
    ends: Vec<FxHashSet<[u64; 4]>>,
    /// Looked at every node: a relaxed load costs nothing next to the
    /// node's move generation (tens of microseconds).
    stop: Option<&'a AtomicBool>,
    /// Set once `stop` was seen: the walk unwinds, memoising nothing.
    stopped: bool,
}

impl Walk<'_> {
    fn new(mode: Mode, parts: usize) -> Self {
        Walk {
            mode,
            memo: FxHashMap::default(),
            ends: vec![FxHashSet::default(); parts],
            stop: None,
            stopped: false,
        }
    }

    fn should_stop(&mut self) -> bool {
        if let Some(stop) = self.stop {
            self.stopped |= stop.load(Ordering::Relaxed);
        }
        self.stopped
    }

    fn count(&mut self, part: u32, pos: &Position, turns: u32) -> Tally {
        if self.mode == Mode::Bulk && is_bulk_node(pos, turns) {
            // Cheaper than a memo look-up.
            return last_move_in_bulk(pos);
        }
        let key = (pos.exact_key(), turns, part);
        if let Some(&t) = self.memo.get(&key) {
            return t;
        }
        if self.should_stop() {
            return Tally::default();
        }
        if self.mode == Mode::Bulk && two::is_two_node(pos, turns) {
            let tally = two::last_two_in_bulk(self, part, pos);
            self.remember(key, tally);
            return tally;
        }
        let moves = legal_moves(pos);
        let mut tally = if moves.is_empty() {
            stuck(pos)
        } else {
            Tally::default()
        };
        for &mv in moves.iter() {
            tally.add(self.child(part, pos, mv, turns));
            if self.stopped {
                return tally; // partial: not for the memo
            }
        }
        self.remember(key, tally);
        tally
    }

    fn remember(&mut self, key: ([u64; 4], u32, u32), tally: Tally) {
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert(key, tally);
    }

    fn child(&mut self, part: u32, pos: &Position, mv: Move, turns: u32) -> Tally {
        match step(pos, mv, turns) {
            Step::Node(child, turns) => self.count(part, &child, turns),
            Step::Leaf(tally, end) => {
                if let Some(end) = end {
                    self.end(part, end);
                }
                tally
            }
        }
    }

    /// Keeps an end position ([`Mode::Positions`]).
    fn end(&mut self, part: u32, mut pos: Position) {
        if self.mode == Mode::Positions {
            keep_live_ep_only(&mut pos);
            self.ends[part as usize].insert(pos.exact_key());
        }
    }
}

/// Drops the en-passant targets on which no capture is legal in the
/// ordinary chess sense (the king not left in check), so that positions
/// differing only in dead targets count as one, as FEN writers print them.
/// (An Italian en-passant capture that would give check too early is still a
/// live target: the position itself is the same.)
pub fn keep_live_ep_only(pos: &mut Position) {
    if pos.moves_made() == 0 && pos.ep_squares().nonempty() {
        let live = movegen::en_passant_targets(pos);
        pos.set_ep(live);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::chess::fen::{START_FEN, parse};

    #[test]
    fn chess_perft_start_position() {
        let pos = parse(START_FEN, Rules::Chess).unwrap();
        assert_eq!(chess_perft(&pos, 1), 20);
        assert_eq!(chess_perft(&pos, 2), 400);
        assert_eq!(chess_perft(&pos, 3), 8902);
        assert_eq!(chess_perft(&pos, 4), 197_281);
    }

    #[test]
    fn progressive_perft_first_two_turns() {
        for rules in [Rules::Italian, Rules::Scottish] {
            let pos = parse(START_FEN, rules).unwrap();
            assert_eq!(perft(&pos, 1).sequences, 20);
            let two = perft(&pos, 2);
            assert_eq!((two.sequences, two.positions), (8902, 5362));
        }
    }

    #[test]
    fn divide_with_total_sums_the_parts_and_unites_the_end_positions() {
        for text in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 2 1",
            // Stalemates and mates on the way; no first move at all.
            "5kr1/8/4P3/8/8/5n2/8/7K w - - 0 2",
            "1b3kr1/8/8/8/8/8/8/7K w - - 0 3",
        ] {
            for rules in [Rules::Italian, Rules::Scottish] {
                let pos = parse(text, rules).unwrap();
                let (parts, total) = divide_with_total(&pos, 2);
                assert_eq!(total, perft(&pos, 2), "{rules} {text}");
                assert_eq!(parts, divide(&pos, 2), "{rules} {text}");
            }
        }
    }

    /// Every mode and thread count against the one-thread walk that makes
    /// every move: random game positions (turn starts and mid-turn, both
    /// rule sets) and hand-built ones with mates, stalemates, a check at
    /// the start of a one-move turn and a mated side with no move at all.
    #[test]
    fn bulk_counts_and_threads_give_the_counts_of_every_move_made() {
        let hand_built = [
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 3",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 5 3",
            "7k/1P6/8/8/8/8/6p1/K7 w - - 0 3",
            "5kr1/8/4P3/8/8/5n2/8/7K w - - 0 2",
            "4k3/b7/8/8/6p1/6n1/6PP/5n1K w - - 0 3",
            "1b3kr1/8/8/8/8/8/8/7K w - - 0 3",
            "4r1k1/8/8/8/8/8/P7/R3K3 w - - 0 1",
            "k7/8/8/8/8/8/5PPP/r5K1 w - - 0 1",
            "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6,e6 0 3",
        ];
        let (mut mates, mut stalemates, mut checked) = (0, 0, 0);
        for (seed, rules) in [(11, Rules::Italian), (12, Rules::Scottish)] {
            let mut cases = crate::chess::random_game_positions(rules, 6, 6, seed);
            cases.extend(hand_built.iter().map(|text| parse(text, rules).unwrap()));
            for pos in cases {
                // At most four moves: a few milliseconds each.
                let turns = if moves_to_enumerate(&pos, 2) <= 4 {
                    2
                } else if pos.moves_left() <= 3 {
                    1
                } else {
                    continue;
                };
                let exact = perft(&pos, turns);
                let counts = exact.without_positions();
                assert_eq!(sequences(&pos, turns, 1), counts, "{rules} {pos}");
                assert_eq!(sequences(&pos, turns, 2), counts, "{rules} {pos}");
                assert_eq!(perft_on(&pos, turns, 2), exact, "{rules} {pos}");
                let split: Vec<(Move, SequenceCounts)> = divide(&pos, turns)
                    .into_iter()
                    .map(|(mv, c)| (mv, c.without_positions()))
                    .collect();
                assert_eq!(divide_sequences(&pos, turns, 2), split, "{rules} {pos}");
                assert_eq!(
                    divide_with_total_on(&pos, turns, 2),
                    divide_with_total(&pos, turns)
                );
                mates += exact.mates;
                stalemates += exact.stalemates;
                checked += 1;
            }
        }
        assert!(
            checked > 100 && mates > 0 && stalemates > 0,
            "{checked} {mates} {stalemates}"
        );
    }

    #[test]
    fn first_move_counts_sum_to_perft() {
        let pos = parse(START_FEN, Rules::Italian).unwrap();
        let stop = AtomicBool::new(false);
        let parts: Vec<Partial> = legal_moves(&pos)
            .iter()
            .map(|&mv| sequences_after(&pos, mv, 2, &stop))
            .collect();
        assert!(parts.iter().all(|p| !p.stopped));
        let total: u64 = parts.iter().map(|p| p.sequences).sum();
        assert_eq!(total, perft(&pos, 2).sequences);
    }

    #[test]
    fn a_stopped_count_ends_early() {
        let pos = parse(START_FEN, Rules::Italian).unwrap();
        let stop = AtomicBool::new(true);
        let mv = legal_moves(&pos).iter().next().copied().unwrap();
        let part = sequences_after(&pos, mv, 4, &stop);
        assert!(part.stopped);
    }

    #[test]
    fn long_turns_are_refused_and_counts_saturate() {
        let pos = parse("4k3/8/8/8/8/8/8/4KQ2 w - - 0 40", Rules::Italian).unwrap();
        assert_eq!(moves_to_enumerate(&pos, 2), 40 + 41);
        assert!(check_size(&pos, 5).is_err());
        assert!(check_size(&pos, u32::MAX).is_err());
        assert!(check_size(&pos, 1).is_ok());
        // Some 20^40 sequences: far beyond 64 bits, yet quick through the memo.
        let counts = perft(&pos, 1);
        assert!(counts.overflowed(), "{counts:?}");
        assert_eq!(counts.sequences, u64::MAX);
    }
}
