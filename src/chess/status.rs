//! Game status: is the game over, and why.

use super::bitboard::{Color, Role};
use super::movegen::{generate_king_safe, has_legal_move, legal_moves};
use super::moves::{Move, MoveList};
use super::position::Position;
use rustc_hash::FxHashSet;
use std::fmt;

/// Where a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    Ongoing,
    /// The side to move is in check with no escape at all; `winner` mated it.
    Checkmate {
        winner: Color,
    },
    /// Italian mate: the side to move could escape the check only by giving
    /// check before the last move of its turn.
    ItalianMate {
        winner: Color,
    },
    /// The side to move cannot make every move of its turn: it has no legal
    /// move, or (rule 5) every sequence of its moves gets stuck before the
    /// turn is complete.
    Stalemate,
    /// Neither side can mate: K v K, K+N v K, K+B v K.
    DeadPosition,
    /// Ten turns without capture or pawn move, and the mover cannot mate in this turn.
    TenQuietTurns,
}

impl Status {
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }

    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` while ongoing.
    pub fn result(self) -> &'static str {
        match self {
            Status::Ongoing => "*",
            Status::Checkmate { winner } | Status::ItalianMate { winner } => match winner {
                Color::White => "1-0",
                Color::Black => "0-1",
            },
            _ => "1/2-1/2",
        }
    }

    /// A short reason, as in a PGN `Termination` tag or the `d` command.
    pub fn reason(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Checkmate { .. } => "checkmate",
            Status::ItalianMate { .. } => "Italian mate",
            Status::Stalemate => "stalemate",
            Status::DeadPosition => "dead position",
            Status::TenQuietTurns => "ten quiet turns",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing => f.write_str("ongoing"),
            _ => write!(f, "{} ({})", self.result(), self.reason()),
        }
    }
}

/// Is the material such that no mate is possible (K v K, K+minor v K)?
pub fn is_dead_position(pos: &Position) -> bool {
    let occ = pos.occupied();
    let kings = pos.role_bb(Role::King);
    let others = occ ^ kings;
    others.is_empty()
        || (others.count() == 1
            && (others & (pos.role_bb(Role::Knight) | pos.role_bb(Role::Bishop))).nonempty())
}

/// What the ten-quiet-turn rule makes of a mate test that did not decide
/// (a finder on a node budget ran out): the one choice its callers differ in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Undecided {
    /// Taken for "may mate": the game goes on (the engine's own status and
    /// `analyse` never call a game over that may not be).
    GameGoesOn,
    /// Taken for "no mate": the game is drawn (the match referee must end the
    /// game; the search tree scores the turn start 0).
    Drawn,
}

/// The ten-quiet-turn rule: at the start of a turn after ten turns without
/// capture or pawn move, the game is drawn unless the side to move mates in
/// this turn. `mates` answers that (`None`: undecided, taken as `undecided`
/// says); it is asked only when the count is reached.
pub fn ten_quiet_turns(
    pos: &Position,
    mates: impl FnOnce(&Position) -> Option<bool>,
    undecided: Undecided,
) -> bool {
    pos.moves_made() == 0
        && pos.quiet_turns() >= 10
        && !mates(pos).unwrap_or(undecided == Undecided::GameGoesOn)
}

/// The status of `pos`, where `mates_this_turn` answers whether the side to
/// move can mate in its current turn, `None` if it could not decide (asked
/// only for [`ten_quiet_turns`]; pass the fast finder from `crate::mate`, or
/// [`brute_force_mate`]).
pub fn status_with(
    pos: &Position,
    mates_this_turn: impl FnOnce(&Position) -> Option<bool>,
    undecided: Undecided,
) -> Status {
    if is_dead_position(pos) {
        return Status::DeadPosition;
    }
    let moves = legal_moves(pos);
    if moves.is_empty() {
        return stuck_status(pos);
    }
    if !can_finish_turn(pos) {
        // Rule 5: moves exist, but every sequence of them gets stuck.
        return Status::Stalemate;
    }
    if ten_quiet_turns(pos, mates_this_turn, undecided) {
        return Status::TenQuietTurns;
    }
    Status::Ongoing
}

/// The status with the plain exhaustive mate test (fine for short turns;
/// it always decides).
pub fn status(pos: &Position) -> Status {
    status_with(
        pos,
        |p| Some(brute_force_mate(p).is_some()),
        Undecided::Drawn,
    )
}

/// Why a player with no legal move is stuck: mate (of some kind) or stalemate.
fn stuck_status(pos: &Position) -> Status {
    if pos.moves_made() > 0 || !pos.in_check() {
        return Status::Stalemate;
    }
    let winner = pos.side_to_move().other();
    let mut ordinary = MoveList::new();
    generate_king_safe(pos, &mut ordinary);
    if ordinary.is_empty() {
        Status::Checkmate { winner }
    } else {
        Status::ItalianMate { winner }
    }
}

/// Can the side to move still make every move of its turn (rule 5)? A turn
/// cut short by a Scottish check counts as made. Depth first, stopping at
/// the first way through; positions with no way through are remembered, so
/// each distinct position of the turn is searched at most once. Usually the
/// first line tried goes through, and the search is a handful of moves.
pub fn can_finish_turn(pos: &Position) -> bool {
    let mut dead_ends = FxHashSet::default();
    finishes(pos, &mut dead_ends)
}

fn finishes(pos: &Position, dead_ends: &mut FxHashSet<[u64; 4]>) -> bool {
    let moves = legal_moves(pos);
    if pos.is_last_move() {
        return !moves.is_empty();
    }
    for &mv in moves.iter() {
        let mut child = pos.clone();
        if child.play(mv).turn_ended {
            return true;
        }
        // Inside one turn the exact key (all but the quiet counter, which
        // cannot matter before the turn ends) names the rest of the turn.
        let key = child.exact_key();
        if dead_ends.contains(&key) {
            continue;
        }
        if finishes(&child, dead_ends) {
            return true;
        }
        dead_ends.insert(key);
    }
    false
}

/// Is `turn` the rest of a legal turn from `pos`: every move legal in its
/// place, and the turn ended by its last move (or cut short there by having
/// no move left)?
pub fn is_legal_turn(pos: &Position, turn: &[Move]) -> bool {
    let mut p = pos.clone();
    for (i, &mv) in turn.iter().enumerate() {
        if !legal_moves(&p).contains(mv) {
            return false;
        }
        if p.play(mv).turn_ended {
            return i + 1 == turn.len();
        }
    }
    legal_moves(&p).is_empty()
}

/// Is the side to move mated at the start of its turn (either kind of mate)?
#[inline]
pub fn is_mated(pos: &Position) -> bool {
    pos.moves_made() == 0 && pos.in_check() && !has_legal_move(pos)
}

/// The rules' own definition of "mates in this turn", searched exhaustively
/// with no pruning: some legal sequence of the remaining moves ends the turn
/// with the opponent mated. The reference the fast finder is tested against.
pub fn brute_force_mate(pos: &Position) -> Option<Vec<Move>> {
    let mut first = None;
    mating_lines(pos, |line| {
        first = Some(line.to_vec());
        true
    });
    first
}

/// Hands `found` every mating line of the rest of the turn (no pruning, in
/// the order of the move generator) until it returns `true`; returns
/// whether it did.
pub fn mating_lines(pos: &Position, mut found: impl FnMut(&[Move]) -> bool) -> bool {
    walk_mating_lines(pos, &mut Vec::new(), &mut found)
}

fn walk_mating_lines(
    pos: &Position,
    line: &mut Vec<Move>,
    found: &mut impl FnMut(&[Move]) -> bool,
) -> bool {
    for &mv in legal_moves(pos).iter() {
        let mut child = pos.clone();
        let effect = child.play(mv);
        line.push(mv);
        let stop = if effect.turn_ended {
            effect.check && is_mated(&child) && found(line)
        } else {
            walk_mating_lines(&child, line, found)
        };
        if stop {
            return true;
        }
        line.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::chess::notation::parse_uci;

    /// The moves of `texts` read one after the other from `pos`; a move that
    /// does not read ends the list (the rest is then not a legal turn).
    fn moves(pos: &Position, texts: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        let mut out = Vec::new();
        for text in texts {
            let mv = parse_uci(&p, text).expect("a legal move");
            p.play(mv);
            out.push(mv);
        }
        out
    }

    #[test]
    fn a_legal_turn_is_whole_legal_and_ends_at_its_last_move() {
        let start = Position::startpos(Rules::Italian);
        assert!(is_legal_turn(&start, &moves(&start, &["e2e4"])));
        let after_e4 = start.after_moves(&moves(&start, &["e2e4"]));
        // Black's turn 2 has two moves: one is cut short, three run over.
        let two = moves(&after_e4, &["e7e5", "d7d5"]);
        assert!(is_legal_turn(&after_e4, &two));
        assert!(!is_legal_turn(&after_e4, &two[..1]));
        let over = moves(&after_e4, &["e7e5", "d7d5", "d2d4"]);
        assert!(!is_legal_turn(&after_e4, &over));
        // A move that is not legal where it stands: e2e4 again, from the
        // empty e2 and by the wrong side.
        let mut illegal = two.clone();
        illegal[1] = moves(&start, &["e2e4"])[0];
        assert!(!is_legal_turn(&after_e4, &illegal));
    }
}
