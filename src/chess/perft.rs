//! Move-path enumeration: ordinary-chess perft and progressive perft.

use super::movegen::{self, generate_legal, legal_moves};
use super::moves::{Move, MoveList};
use super::position::Position;
use super::status::is_mated;
use rustc_hash::{FxHashMap, FxHashSet};

/// Ordinary perft: leaf nodes at `depth` plies, counting the last ply in bulk.
/// Meant for [`Rules::Chess`] positions, where every move is a turn.
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
        nodes += chess_perft(&child, depth - 1);
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
    fn add(&mut self, other: Tally) {
        self.sequences += other.sequences;
        self.stalemates += other.stalemates;
        self.mates += other.mates;
    }
}

/// Progressive perft over `turns` turns from `pos`, counting the current
/// (possibly partly played) turn as the first. Transpositions inside and
/// across turns are counted once through an exact memo, so the cost grows
/// with distinct positions rather than with sequences.
pub fn perft(pos: &Position, turns: u32) -> PerftCounts {
    let mut walk = Walk::default();
    let tally = walk.count(pos, turns);
    PerftCounts {
        sequences: tally.sequences,
        positions: walk.ends.len() as u64,
        stalemates: tally.stalemates,
        mates: tally.mates,
    }
}

/// [`perft`] split by the first move (each with its own end-position set).
pub fn divide(pos: &Position, turns: u32) -> Vec<(Move, PerftCounts)> {
    legal_moves(pos)
        .iter()
        .map(|&mv| {
            let mut walk = Walk::default();
            let tally = walk.child(pos, mv, turns);
            let counts = PerftCounts {
                sequences: tally.sequences,
                positions: walk.ends.len() as u64,
                stalemates: tally.stalemates,
                mates: tally.mates,
            };
            (mv, counts)
        })
        .collect()
}

#[derive(Default)]
struct Walk {
    memo: FxHashMap<([u64; 4], u32), Tally>,
    ends: FxHashSet<[u64; 4]>,
}

impl Walk {
    fn count(&mut self, pos: &Position, turns: u32) -> Tally {
        let key = (pos.exact_key(), turns);
        if let Some(&t) = self.memo.get(&key) {
            return t;
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
        let counts = PerftCounts {
            sequences: tally.sequences,
            positions: walk.ends.len() as u64,
            stalemates: tally.stalemates,
            mates: tally.mates,
        };
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
}
