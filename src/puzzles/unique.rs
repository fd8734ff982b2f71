//! What makes a position a puzzle: a mate exists, it is unique up to move
//! order, and it is not trivial.

use super::themes::value;
use crate::chess::status::is_mated;
use crate::chess::{Color, Move, Position, Role, legal_moves};
use crate::mate::{self, Budget, MateTable, Verdict};
use rustc_hash::FxHashMap;

/// Nodes of the finder that looks for the mate (one thread, fresh table).
pub const FIND_NODES: u64 = 2_000_000;
/// Nodes the enumeration of every mating line may take; a puzzle whose
/// enumeration does not finish is not kept (its uniqueness is unproved).
pub const ALL_NODES: u64 = 4_000_000;
/// A mate found within this many nodes is trivial.
pub const TRIVIAL_NODES: u64 = 2_000;
/// The mating side may be at most this much material ahead (pawn = 1),
/// or the mate is a matter of course.
pub const MAX_ADVANTAGE: i32 = 5;

/// The solutions of a position: one line per distinct final position.
#[derive(Clone, Debug)]
pub struct Solutions {
    /// Distinct final positions, counted up to [`CAP`] (`Some(CAP)`: at
    /// least that many); `None` when the node budget ran out first (unknown).
    pub distinct: Option<usize>,
    /// One line per final position, in the order found.
    pub lines: Vec<Vec<Move>>,
    pub nodes: u64,
}

/// Counting stops at this many distinct solutions: a puzzle needs one.
pub const CAP: usize = 2;

/// The distinct mates of `pos`'s turn: two mating sequences are the same
/// solution when they reach the same final position (the same moves in
/// another order, say). The moves of the turn are enumerated with the
/// positions already seen remembered, so a line's move orders cost one
/// visit per distinct position on the way and not one per order (listing
/// every order, as `find_all_mates` does, is factorial in the moves that
/// commute); a child is entered only when the mate finder proves a mate
/// from it, and left at once when it proves none. Within `nodes` nodes of
/// the finder (and the moves tried), reading and filling `tt` (cleared
/// first).
///
/// `known` is a mating line when one is known (the finder's, a record's
/// solution), else empty: its moves are tried first, so the first final
/// position is reached at once and the search backtracks from the bottom of
/// the turn, where the alternatives are cheap to refute and where a second
/// mate usually is (another mating move, another promotion piece, a spare
/// tempo); the root need not be proved again. The order changes the cost,
/// never the count: the enumeration is complete either way.
pub fn solutions(pos: &Position, known: &[Move], nodes: u64, tt: &MateTable) -> Solutions {
    solutions_up_to(pos, known, nodes, CAP, tt)
}

/// [`solutions`], counting up to `cap`.
pub fn solutions_up_to(
    pos: &Position,
    known: &[Move],
    nodes: u64,
    cap: usize,
    tt: &MateTable,
) -> Solutions {
    tt.clear();
    let known = if mate::is_mating_line(pos, known) {
        known
    } else {
        &[]
    };
    let mut e = Enumeration {
        cap,
        known,
        tt,
        left: nodes,
        used: 0,
        memo: FxHashMap::default(),
        finals: Vec::new(),
        lines: Vec::new(),
        line: Vec::new(),
        aborted: false,
    };
    if !known.is_empty() {
        e.visit(pos);
    } else {
        let root = mate::find_mate(pos, &Budget::nodes(nodes), tt);
        e.spend(root.nodes);
        match root.verdict {
            Verdict::Unknown => e.aborted = true,
            Verdict::NoMate => {}
            Verdict::Mate(_) => {
                e.visit(pos);
            }
        }
    }
    Solutions {
        distinct: (!e.aborted).then_some(e.finals.len()),
        lines: e.lines,
        nodes: e.used,
    }
}

struct Enumeration<'a> {
    cap: usize,
    /// A mating line whose moves go first (see [`solutions`]).
    known: &'a [Move],
    tt: &'a MateTable,
    left: u64,
    used: u64,
    /// Mid-turn positions seen (exact key) and the final positions of the
    /// mates from them (at most [`CAP`]).
    memo: FxHashMap<[u64; 4], Vec<[u64; 4]>>,
    finals: Vec<[u64; 4]>,
    lines: Vec<Vec<Move>>,
    line: Vec<Move>,
    aborted: bool,
}

impl Enumeration<'_> {
    fn spend(&mut self, nodes: u64) {
        self.used += nodes;
        self.left = self.left.saturating_sub(nodes);
        if self.left == 0 {
            self.aborted = true;
        }
    }

    fn done(&self) -> bool {
        self.aborted || self.finals.len() >= self.cap
    }

    /// The final positions of the mates from `pos` (a position with a mate).
    fn visit(&mut self, pos: &Position) -> Vec<[u64; 4]> {
        let mut here: Vec<[u64; 4]> = Vec::new();
        let mut moves: Vec<Move> = legal_moves(pos).iter().copied().collect();
        let depth = self.line.len();
        if depth < self.known.len()
            && self.line[..] == self.known[..depth]
            && let Some(i) = moves.iter().position(|&m| m == self.known[depth])
        {
            moves[..=i].rotate_right(1);
        }
        for mv in moves {
            if self.done() {
                break;
            }
            self.spend(1);
            let mut child = pos.clone();
            let effect = child.play(mv);
            self.line.push(mv);
            let found = if effect.turn_ended {
                if effect.check && is_mated(&child) {
                    let key = child.exact_key();
                    if !self.finals.contains(&key) {
                        self.finals.push(key);
                        self.lines.push(self.line.clone());
                    }
                    vec![key]
                } else {
                    Vec::new()
                }
            } else {
                let key = child.exact_key();
                match self.memo.get(&key) {
                    Some(v) => v.clone(),
                    None => {
                        let a = mate::find_mate(&child, &Budget::nodes(self.left), self.tt);
                        self.spend(a.nodes);
                        let v = match a.verdict {
                            Verdict::Unknown => {
                                self.aborted = true;
                                Vec::new()
                            }
                            Verdict::NoMate => Vec::new(),
                            Verdict::Mate(_) => self.visit(&child),
                        };
                        if !self.done() {
                            self.memo.insert(key, v.clone());
                        }
                        v
                    }
                }
            };
            self.line.pop();
            for f in found {
                if !here.contains(&f) && here.len() < self.cap {
                    here.push(f);
                }
            }
        }
        here
    }
}

/// The exact key of the position `line` reaches from `pos`.
pub fn final_key(pos: &Position, line: &[Move]) -> [u64; 4] {
    let mut p = pos.clone();
    for &mv in line {
        p.play(mv);
    }
    p.exact_key()
}

/// The mating line and the finder's nodes, from a fresh table.
pub fn find(pos: &Position, nodes: u64, tt: &MateTable) -> (Option<Vec<Move>>, u64) {
    tt.clear();
    let a = mate::find_mate(pos, &Budget::nodes(nodes), tt);
    match a.verdict {
        Verdict::Mate(line) => (Some(line), a.nodes),
        _ => (None, a.nodes),
    }
}

/// Material of `color`, pawn = 1 (kings 0).
pub fn material(pos: &Position, color: Color) -> i32 {
    Role::ALL
        .iter()
        .map(|&r| value(r) * pos.pieces(color, r).count() as i32)
        .sum()
}

/// Is the side to move simply crushing (more than [`MAX_ADVANTAGE`] up)?
pub fn crushing(pos: &Position) -> bool {
    let us = pos.side_to_move();
    material(pos, us) - material(pos, us.other()) > MAX_ADVANTAGE
}

/// Is the mate trivial: found within [`TRIVIAL_NODES`] nodes?
pub fn trivial(pos: &Position, tt: &MateTable) -> bool {
    find(pos, TRIVIAL_NODES, tt).0.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    /// The distinct final positions of `find_all_mates`' lines.
    fn reference(pos: &Position) -> usize {
        let all = mate::find_all_mates(pos, &Budget::default(), &MateTable::new(4));
        assert!(all.complete);
        let mut finals: Vec<[u64; 4]> = all.lines.iter().map(|l| final_key(pos, l)).collect();
        finals.sort();
        finals.dedup();
        finals.len()
    }

    #[test]
    fn solutions_are_counted_by_final_position() {
        let tt = MateTable::new(1);
        // One mate (Ra8), and one with a free tempo elsewhere: many final positions.
        for (text, expected) in [
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1),
            ("6k1/5ppp/8/8/8/8/P7/R5K1 w - - 0 3", CAP),
            ("k7/pp6/8/8/8/8/8/R3K3 w - - 0 4", CAP),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 2", 0),
        ] {
            let pos = fen::parse(text, Rules::Italian).unwrap();
            let s = solutions(&pos, &[], u64::MAX, &tt);
            assert_eq!(s.distinct, Some(expected), "{text}: {:?}", s.lines);
            assert_eq!(reference(&pos).min(CAP), expected, "{text}");
            assert_eq!(s.lines.len(), expected, "{text}");
        }
        // An enumeration cut short is unknown, not unique.
        let pos = fen::parse("6k1/5ppp/8/8/8/8/P7/R5K1 w - - 0 3", Rules::Italian).unwrap();
        assert_eq!(solutions(&pos, &[], 10, &tt).distinct, None);
    }

    #[test]
    fn move_orders_are_one_solution_as_the_reference_counts() {
        // A king move, Rd1 and Rd8: the first two in either order reach the
        // same final position. Counted in full, the enumeration agrees with
        // the distinct final positions of every line `find_all_mates` lists.
        let tt = MateTable::new(1);
        for (text, rules) in [
            ("k7/pp6/8/8/8/8/8/R3K3 w - - 0 3", Rules::Italian),
            ("k7/pp6/8/8/8/8/8/R3K3 w - - 0 3", Rules::Scottish),
            ("k7/pp6/8/8/8/8/1P6/R3K3 w - - 0 3", Rules::Italian),
        ] {
            let pos = fen::parse(text, rules).unwrap();
            let all = mate::find_all_mates(&pos, &Budget::default(), &tt);
            let distinct = reference(&pos);
            assert!(all.lines.len() > distinct, "{text}: no transposition");
            let s = solutions_up_to(&pos, &[], u64::MAX, usize::MAX, &tt);
            assert_eq!(s.distinct, Some(distinct), "{text} {rules}");
            assert_eq!(s.lines.len(), distinct);
            for line in &s.lines {
                assert!(mate::is_mating_line(&pos, line));
                // Any mating line tried first: the same count, and it
                // comes first.
                let from = solutions_up_to(&pos, line, u64::MAX, usize::MAX, &tt);
                assert_eq!(from.distinct, Some(distinct), "{text} {rules}");
                assert_eq!(from.lines[0], *line);
                assert!(from.nodes <= s.nodes, "{} > {}", from.nodes, s.nodes);
            }
            // A line that does not mate is no hint.
            let wrong = &all.lines[0][..1];
            assert_eq!(
                solutions_up_to(&pos, wrong, u64::MAX, usize::MAX, &tt).distinct,
                Some(distinct)
            );
        }
    }

    #[test]
    fn crushing_and_trivial_positions_are_seen() {
        let tt = MateTable::new(1);
        let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian).unwrap();
        assert!(trivial(&pos, &tt));
        assert!(!crushing(&pos)); // a rook against three pawns: 5 - 3
        let pos = fen::parse("6k1/8/8/8/8/8/8/QR4K1 w - - 0 1", Rules::Italian).unwrap();
        assert!(crushing(&pos));
    }
}
