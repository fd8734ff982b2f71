//! The raid: what the side to move can win in its turn. At the end of our
//! turn the opponent gets one move more than we had, with any pieces, and
//! nothing of ours moves in between: a knight can take a bishop, step on,
//! take a knight and then the queen (`Nxe7 Nd5 Nxc3 Nxd1`), which no
//! search whose ply is one move sees from the root of our turn. So the
//! evaluation asks this one-sided search at turn ends.
//!
//! The search is the mate finder's idea turned to material: a depth-first
//! search over the raider's moves only, maximising the value captured, cut
//! by a sound move-budget bound. A piece of ours that the raider needs at
//! least `d` moves to take (an empty-board distance, [`attack_distance`];
//! 1 only when something attacks it now) can be taken at the `d`-th move
//! at the earliest, and each move takes at most one piece, so with `r`
//! moves left the gain is at most the best assignment of our pieces to the
//! moves `d..=r`, one a move ([`bound`]).

use super::eval::VALUES;
use crate::chess::{Color, Move, Position, Role, Square, legal_moves};
use crate::mate::bounds::attack_distance;
use rustc_hash::FxHashSet;
use std::cmp::Reverse;

/// What the raider can win in its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raid {
    /// Centipawns of the victim's material the best line found takes.
    pub gain: i32,
    /// That line (empty: nothing to take).
    pub line: Vec<Move>,
    /// Positions searched.
    pub nodes: u64,
    /// The search finished: `gain` is the most the turn can take (else a
    /// lower bound, the budget ran out).
    pub complete: bool,
}

/// A piece of the victim and the fewest moves the raider needs to take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exposure {
    pub square: Square,
    pub role: Role,
    /// A lower bound: 1 when attacked now, else at least 2.
    pub moves: u32,
}

/// The pieces of the side not to move (kings aside) and the fewest moves
/// the side to move needs to take each, own and enemy pieces as obstacles
/// for the first move only (later, any piece may have moved away). Pieces
/// it cannot reach in its turn are left out.
pub fn exposure(pos: &Position) -> Vec<Exposure> {
    let raider = pos.side_to_move();
    let left = pos.moves_left();
    let occ = pos.occupied();
    // An en-passant capture takes a pawn from a square the capturer does
    // not attack: on the turn's first move count every pawn as attacked.
    let ep = pos.moves_made() == 0 && pos.ep_squares().nonempty();
    let mut out = Vec::new();
    for square in pos.color_bb(raider.other()) {
        let Some(piece) = pos.piece_at(square) else {
            continue;
        };
        if piece.role == Role::King {
            continue;
        }
        let moves =
            if pos.attackers(square, raider, occ).nonempty() || (ep && piece.role == Role::Pawn) {
                1
            } else {
                2.max(1 + distance(pos, raider, square))
            };
        if moves <= left {
            out.push(Exposure {
                square,
                role: piece.role,
                moves,
            });
        }
    }
    out
}

/// The fewest moves any raider piece needs (empty board) to attack `target`.
fn distance(pos: &Position, raider: Color, target: Square) -> u32 {
    let mut best = u32::MAX;
    for role in Role::ALL {
        for from in pos.pieces(raider, role) {
            best = best.min(attack_distance(raider, role, from, target));
        }
    }
    best
}

/// The most the side to move can take with its `left` moves: our pieces
/// assigned to distinct moves, each no earlier than its distance; by value,
/// each into the earliest free move it may use (optimal for such
/// "release times").
pub fn bound(pos: &Position, left: u32) -> i32 {
    let mut pieces: Vec<(i32, u32)> = exposure(pos)
        .into_iter()
        .filter(|e| e.moves <= left)
        .map(|e| (VALUES[e.role.index()], e.moves))
        .collect();
    pieces.sort_unstable_by_key(|p| Reverse(p.0));
    let mut used = 0u64; // bit i: move i+1 taken
    let mut total = 0;
    for (value, moves) in pieces {
        if let Some(slot) = (moves - 1..left).find(|&i| used & (1 << i) == 0) {
            used |= 1 << slot;
            total += value;
        }
    }
    total
}

/// The best material the side to move can win in the rest of its turn,
/// searching at most `nodes` positions.
pub fn raid(pos: &Position, nodes: u64) -> Raid {
    run(pos, nodes, true)
}

/// A greedy look for the evaluation: the same best-first search without
/// the bound (which costs more than a handful of positions saves), so
/// `gain` is a lower bound found in `nodes` positions.
pub fn quick_raid(pos: &Position, nodes: u64) -> i32 {
    run(pos, nodes, false).gain
}

fn run(pos: &Position, nodes: u64, bounded: bool) -> Raid {
    let mut search = Search {
        bounded,
        budget: nodes,
        nodes: 0,
        complete: true,
        seen: FxHashSet::default(),
        line: Vec::new(),
        best: 0,
        best_line: Vec::new(),
    };
    search.dfs(pos, 0, pos.moves_left());
    Raid {
        gain: search.best,
        line: search.best_line,
        nodes: search.nodes,
        complete: search.complete,
    }
}

struct Search {
    /// Prune by [`bound`] (else the search only stops at its budget).
    bounded: bool,
    budget: u64,
    nodes: u64,
    complete: bool,
    /// Positions (with the moves left) already searched: the same position
    /// has taken the same material, so it can win no more the second time.
    seen: FxHashSet<(u64, u32)>,
    line: Vec<Move>,
    best: i32,
    best_line: Vec<Move>,
}

impl Search {
    fn dfs(&mut self, pos: &Position, gain: i32, left: u32) {
        if gain > self.best {
            self.best = gain;
            self.best_line = self.line.clone();
        }
        if left == 0 {
            return;
        }
        if self.nodes >= self.budget {
            self.complete = false;
            return;
        }
        // Every position visited counts, bounded or searched.
        self.nodes += 1;
        // (With one move left the captures are all there is: no bound.)
        if self.bounded && left > 1 && gain + bound(pos, left) <= self.best {
            return;
        }
        if !self.seen.insert((pos.key(), left)) {
            return;
        }
        for mv in ordered(pos, left) {
            if self.nodes >= self.budget {
                self.complete = false;
                break;
            }
            let mut child = pos.clone();
            let effect = child.play(mv);
            let taken = effect.capture.map_or(0, |r| VALUES[r.index()]);
            self.line.push(mv);
            if effect.turn_ended {
                // The last move, or a check that ends a Scottish turn.
                if gain + taken > self.best {
                    self.best = gain + taken;
                    self.best_line = self.line.clone();
                }
            } else {
                self.dfs(&child, gain + taken, left - 1);
            }
            self.line.pop();
        }
    }
}

/// The raider's moves worth trying with `left` moves: captures, most
/// valuable victim first; with a move to spare also quiet moves, those
/// that bring the moved piece nearest to a valuable piece first (a quiet
/// last move takes nothing).
fn ordered(pos: &Position, left: u32) -> Vec<Move> {
    let raider = pos.side_to_move();
    let mut victims: [(Square, i32); 16] = [(Square(0), 0); 16];
    let mut count = 0;
    for sq in pos.color_bb(raider.other()) {
        if let Some(piece) = pos.piece_at(sq)
            && piece.role != Role::King
            && count < victims.len()
        {
            victims[count] = (sq, VALUES[piece.role.index()]);
            count += 1;
        }
    }
    let victims = &victims[..count];
    let mut keyed: Vec<(i32, Move)> = Vec::new();
    for &mv in legal_moves(pos).iter() {
        let captured = match pos.piece_at(mv.to()) {
            Some(p) => Some(p.role),
            None if mv.kind() == crate::chess::MoveKind::EnPassant => Some(Role::Pawn),
            None => None,
        };
        if let Some(victim) = captured {
            keyed.push((10_000 + VALUES[victim.index()], mv));
        } else if left >= 2 {
            let role = pos.role_after(mv);
            keyed.push((approach(raider, role, mv.to(), victims, left - 1), mv));
        }
    }
    keyed.sort_by_key(|k| Reverse(k.0));
    keyed.into_iter().map(|k| k.1).collect()
}

/// How promising a quiet move to `to` is: the best value of a piece it can
/// then take within `left` moves, less a little per move needed.
fn approach(raider: Color, role: Role, to: Square, victims: &[(Square, i32)], left: u32) -> i32 {
    let mut best = 0;
    for &(sq, value) in victims {
        let d = 1 + attack_distance(raider, role, to, sq);
        if d <= left {
            best = best.max(value - 10 * d as i32);
        }
    }
    best
}

#[cfg(test)]
pub(in crate::search) mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::chess::notation::parse_uci;

    /// The position after `turns` from the start (moves of a turn joined by `,`).
    pub(in crate::search) fn after(rules: Rules, turns: &[&str]) -> Position {
        let mut pos = Position::startpos(rules);
        for turn in turns {
            for uci in turn.split(',') {
                let mv = parse_uci(&pos, uci).unwrap();
                pos.play(mv);
            }
        }
        pos
    }

    /// Every capture sequence of the side to move's turn, searched in full.
    fn brute(pos: &Position, left: u32) -> i32 {
        if left == 0 {
            return 0;
        }
        let mut best = 0;
        for &mv in legal_moves(pos).iter() {
            let mut child = pos.clone();
            let effect = child.play(mv);
            let taken = effect.capture.map_or(0, |r| VALUES[r.index()]);
            let rest = if effect.turn_ended {
                0
            } else {
                brute(&child, left - 1)
            };
            best = best.max(taken + rest);
        }
        best
    }

    #[test]
    fn the_knight_raid_is_seen_at_the_root() {
        // 1. Nc3 2. b6 g5 3. d4 Bxg5 Bxe7: Black's 4. Nxe7 Nd5 Nxc3 Nxd1
        // wins bishop, knight and queen (Scottish and Italian alike).
        for rules in [Rules::Scottish, Rules::Italian] {
            let pos = after(rules, &["b1c3", "b7b6,g7g5", "d2d4,c1g5,g5e7"]);
            let started = std::time::Instant::now();
            let found = raid(&pos, 200_000);
            let took = started.elapsed();
            let want = VALUES[Role::Bishop.index()]
                + VALUES[Role::Knight.index()]
                + VALUES[Role::Queen.index()];
            assert!(found.gain >= want, "{rules:?}: {found:?}");
            assert!(found.complete, "{rules:?}: {found:?}");
            // Milliseconds, not seconds (a loose bound for a loaded machine).
            assert!(took.as_millis() < 500, "{rules:?}: {took:?}");
        }
    }

    #[test]
    fn the_raid_equals_a_full_search_of_short_turns() {
        let games: [&[&str]; 4] = [
            &["e2e4", "d7d5,d5e4", "d1g4,g4g7,g7h8"],
            &["b1c3", "b7b6,g7g5", "d2d4,c1g5,g5e7"],
            &["g1f3", "e7e5,d8g5", "f3g5,g5h7,h7f8"],
            &["d2d4", "e7e6,f8b4"],
        ];
        for turns in games {
            let pos = after(Rules::Italian, turns);
            let left = pos.moves_left();
            let found = raid(&pos, u64::MAX);
            assert!(found.complete);
            assert_eq!(found.gain, brute(&pos, left), "{turns:?}");
            // The line is legal and takes what it says.
            let mut p = pos.clone();
            let mut taken = 0;
            for &mv in &found.line {
                assert!(legal_moves(&p).contains(mv));
                taken += p.play(mv).capture.map_or(0, |r| VALUES[r.index()]);
            }
            assert_eq!(taken, found.gain);
        }
    }

    #[test]
    fn the_bound_is_never_below_the_raid() {
        let pos = after(Rules::Italian, &["b1c3", "b7b6,g7g5", "d2d4,c1g5,g5e7"]);
        for left in 1..=4 {
            assert!(bound(&pos, left) >= brute(&pos, left), "{left}");
        }
        let exposed = exposure(&pos);
        let bishop = Square::parse("e7").unwrap();
        assert!(exposed.iter().any(|e| e.square == bishop && e.moves == 1));
        let queen = Square::parse("d1").unwrap();
        assert!(exposed.iter().any(|e| e.square == queen && e.moves >= 2));
    }
}
