//! Move ordering: the TT move, then captures by MVV-LVA, promotions, checks
//! on the last move of a turn (where mates come from), killers, the rest.

use super::eval::VALUES;
use crate::chess::CheckInfo;
use crate::chess::{Move, MoveList, Position, Role};

const TT_MOVE: i32 = 1 << 24;
const CAPTURE: i32 = 1 << 20;
const PROMOTION: i32 = 1 << 19;
const LAST_MOVE_CHECK: i32 = 1 << 18;
const KILLER: i32 = 1 << 17;

/// The value of the piece a move takes (en passant takes a pawn).
pub fn victim(pos: &Position, mv: Move) -> Option<Role> {
    match pos.piece_at(mv.to()) {
        Some(p) => Some(p.role),
        None if mv.kind() == crate::chess::MoveKind::EnPassant => Some(Role::Pawn),
        None => None,
    }
}

/// `moves` sorted best-first for searching `pos`.
pub fn order(pos: &Position, moves: &MoveList, tt_move: Move, killers: &[Move; 2]) -> Vec<Move> {
    let checks = pos.is_last_move().then(|| CheckInfo::new(pos));
    let mut scored: Vec<(i32, Move)> = moves
        .iter()
        .map(|&mv| {
            let mut s = 0;
            if mv == tt_move {
                s += TT_MOVE;
            }
            if let Some(v) = victim(pos, mv) {
                let attacker = pos
                    .piece_at(mv.from())
                    .map_or(0, |p| VALUES[p.role.index()]);
                s += CAPTURE + VALUES[v.index()] * 16 - attacker / 16;
            }
            if let Some(r) = mv.promotion() {
                s += PROMOTION + VALUES[r.index()];
            }
            if checks.as_ref().is_some_and(|c| c.gives_check(pos, mv)) {
                s += LAST_MOVE_CHECK;
            }
            if killers.contains(&mv) {
                s += KILLER;
            }
            (s, mv)
        })
        .collect();
    // Stable sort keeps the generator's order among equals: deterministic.
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    scored.into_iter().map(|(_, mv)| mv).collect()
}

/// Captures and promotions only, best first (for quiescence).
pub fn order_noisy(pos: &Position, moves: &MoveList) -> Vec<Move> {
    let mut noisy = MoveList::new();
    for &mv in moves.iter() {
        if victim(pos, mv).is_some() || mv.promotion() == Some(Role::Queen) {
            noisy.push(mv);
        }
    }
    order(pos, &noisy, Move::NULL, &[Move::NULL; 2])
}
