//! Move-path enumeration: ordinary-chess perft and progressive perft.

use super::movegen::{self, generate_legal, legal_moves};
use super::moves::{Move, MoveList};
use super::position::Position;
use super::status::is_mated;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, Ordering};

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

#[derive(Clone, Copy, Default)]
struct Tally {
    sequences: u64,
    stalemates: u64,
    mates: u64,
}

impl Tally {
    /// Saturating: the counts of a long turn exceed 64 bits quickly, and a
    /// wrapped count would be a plausible-looking wrong number.
    fn add(&mut self, other: Tally) {
        self.sequences = self.sequences.saturating_add(other.sequences);
        self.stalemates = self.stalemates.saturating_add(other.stalemates);
        self.mates = self.mates.saturating_add(other.mates);
    }
}

impl PerftCounts {
    /// Did a count reach `u64::MAX` (so the true count may be larger)?
    pub fn overflowed(&self) -> bool {
        [self.sequences, self.stalemates, self.mates].contains(&u64::MAX)
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
/// line of `go perft`), giving up at the next node once `stop` is set.
pub fn sequences_after(pos: &Position, mv: Move, turns: u32, stop: &AtomicBool) -> Partial {
    let mut walk = Walk {
        stop: Some(stop),
        ..Walk::default()
    };
    let tally = walk.child(pos, mv, turns);
    Partial {
        sequences: tally.sequences,
        stopped: walk.stopped,
    }
}

/// Progressive perft over `turns` turns from `pos`, counting the current
/// (possibly partly played) turn as the first. Transpositions inside and
/// across turns are counted once through an exact memo, so the cost grows
/// with distinct positions rather than with sequences.
pub fn perft(pos: &Position, turns: u32) -> PerftCounts {
    let mut walk = Walk::default();
    let tally = walk.count(pos, turns);
    walk.counts(tally)
}

/// [`perft`] split by the first move (each with its own end-position set).
pub fn divide(pos: &Position, turns: u32) -> Vec<(Move, PerftCounts)> {
    legal_moves(pos)
        .iter()
        .map(|&mv| {
            let mut walk = Walk::default();
            let tally = walk.child(pos, mv, turns);
            (mv, walk.counts(tally))
        })
        .collect()
}

#[derive(Default)]
struct Walk<'a> {
    memo: FxHashMap<([u64; 4], u32), Tally>,
    ends: FxHashSet<[u64; 4]>,
    /// Looked at every node: a relaxed load costs nothing next to the
    /// node's move generation (tens of microseconds).
    stop: Option<&'a AtomicBool>,
    /// Set once `stop` was seen: the walk unwinds, memoising nothing.
    stopped: bool,
}

impl Walk<'_> {
    /// The counts of a walk that gave `tally`: its end positions are the
    /// distinct ones met.
    fn counts(&self, tally: Tally) -> PerftCounts {
        PerftCounts {
            sequences: tally.sequences,
            positions: self.ends.len() as u64,
            stalemates: tally.stalemates,
            mates: tally.mates,
        }
    }

    fn should_stop(&mut self) -> bool {
        if let Some(stop) = self.stop {
            self.stopped |= stop.load(Ordering::Relaxed);
        }
        self.stopped
    }

    fn count(&mut self, pos: &Position, turns: u32) -> Tally {
        let key = (pos.exact_key(), turns);
        if let Some(&t) = self.memo.get(&key) {
            return t;
        }
        if self.should_stop() {
            return Tally::default();
        }
        let moves = legal_moves(pos);
        let mut tally = Tally::default();
        if moves.is_empty() {
            // A mate at turn start was counted when the mating turn ended.
            if !is_mated(pos) {
                tally.stalemates = 1;
            }
        }
        for &mv in moves.iter() {
            tally.add(self.child(pos, mv, turns));
            if self.stopped {
                return tally; // partial: not for the memo
            }
        }
        self.memo.insert(key, tally);
        tally
    }

    fn child(&mut self, pos: &Position, mv: Move, turns: u32) -> Tally {
        let mut child = pos.clone();
        let effect = child.play(mv);
        if !effect.turn_ended {
            return self.count(&child, turns);
        }
        let mated = effect.check && is_mated(&child);
        if turns > 1 && !mated {
            return self.count(&child, turns - 1);
        }
        if turns == 1 {
            keep_live_ep_only(&mut child);
            self.ends.insert(child.exact_key());
        }
        Tally {
            sequences: (turns == 1) as u64,
            stalemates: 0,
            mates: mated as u64,
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

/// [`divide`] and the whole [`perft`] from the same walks: sequences,
/// stalemates and mates are sums over the first moves; the distinct end
/// positions are the union of the parts' (two first moves can end in the
/// same position, so their counts do not add up).
pub fn divide_with_total(pos: &Position, turns: u32) -> (Vec<(Move, PerftCounts)>, PerftCounts) {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        // Stuck (or mated) already: nothing to split.
        return (Vec::new(), perft(pos, turns));
    }
    let mut ends = FxHashSet::default();
    let mut total = PerftCounts::default();
    let mut parts = Vec::with_capacity(moves.len());
    for &mv in moves.iter() {
        let mut walk = Walk::default();
        let tally = walk.child(pos, mv, turns);
        let counts = walk.counts(tally);
        total.sequences += counts.sequences;
        total.stalemates += counts.stalemates;
        total.mates += counts.mates;
        if ends.is_empty() {
            ends = walk.ends;
        } else {
            ends.extend(walk.ends);
        }
        parts.push((mv, counts));
    }
    total.positions = ends.len() as u64;
    (parts, total)
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
