//! The reply we expect to our turn, for `bestmove <turn> ponder <reply>`:
//! a GUI that ponders sends it back with `go ponder`, so it must be the
//! opponent's whole next turn, legal after ours. It comes for free: from
//! the principal variation when that reaches the end of the opponent's
//! turn, else from a mate the safety net found against the turn played.
//! No search is spent on it; when neither knows a reply, there is none.

use crate::chess::{Move, Position, legal_moves};
use crate::mate::is_mating_line;

/// The opponent's whole turn after `turn` from `pos`, as the pv (a flat
/// move list starting with `turn`) or else one of `mates` (the opponent's
/// mating lines the safety net found, tried on the position after `turn`)
/// foresees it; empty when neither does.
pub(super) fn expected_reply(
    pos: &Position,
    turn: &[Move],
    pv: &[Move],
    mates: &[Vec<Move>],
) -> Vec<Move> {
    let Some(after) = after_turn(pos, turn) else {
        return Vec::new();
    };
    if legal_moves(&after).is_empty() {
        return Vec::new(); // the game is over: no reply
    }
    if pv.starts_with(turn) {
        let reply = whole_turn(&after, &pv[turn.len()..]);
        if !reply.is_empty() {
            return reply;
        }
    }
    mates
        .iter()
        .find(|line| is_mating_line(&after, line))
        .cloned()
        .unwrap_or_default()
}

/// The position after `turn`, if `turn` is legal and ends the turn.
fn after_turn(pos: &Position, turn: &[Move]) -> Option<Position> {
    let mut p = pos.clone();
    for (i, &mv) in turn.iter().enumerate() {
        if !legal_moves(&p).contains(mv) {
            return None;
        }
        if p.play(mv).turn_ended {
            return (i + 1 == turn.len()).then_some(p);
        }
    }
    // Cut short with no legal move left (a stalemate walked into).
    (!turn.is_empty() && legal_moves(&p).is_empty()).then_some(p)
}

/// The first moves of `line` that make one whole turn from `pos` (the
/// turn starts there), or nothing when `line` stops before its end.
fn whole_turn(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut p = pos.clone();
    let mut turn = Vec::new();
    for &mv in line {
        if !legal_moves(&p).contains(mv) {
            return Vec::new();
        }
        turn.push(mv);
        if p.play(mv).turn_ended {
            return turn;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;
    use crate::chess::{Rules, fen};

    fn moves(pos: &Position, text: &str) -> Vec<Move> {
        let mut p = pos.clone();
        text.split_whitespace()
            .map(|t| {
                let mv = parse_uci(&p, t).unwrap();
                p.play(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn the_reply_is_the_opponents_whole_turn_from_the_pv() {
        let pos = Position::startpos(Rules::Italian);
        let pv = moves(&pos, "e2e4 e7e5 d8h4 g2g3");
        assert_eq!(expected_reply(&pos, &pv[..1], &pv, &[]), pv[1..3]);
        // The pv stops inside the reply: no reply known.
        assert!(expected_reply(&pos, &pv[..1], &pv[..2], &[]).is_empty());
        // A pv that does not start with the turn played says nothing.
        let other = moves(&pos, "d2d4");
        assert!(expected_reply(&pos, &other, &pv, &[]).is_empty());
    }

    #[test]
    fn a_mate_found_by_the_safety_net_is_the_reply_when_the_pv_has_none() {
        // After Kh1 Black mates on the back rank in its two moves; after
        // h3 the king has luft.
        let pos = fen::parse("r5k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Rules::Italian).unwrap();
        let turn = moves(&pos, "g1h1");
        let mut after = pos.clone();
        after.play(turn[0]);
        let mate = moves(&after, "g8f8 a8a1");
        assert!(is_mating_line(&after, &mate));
        assert_eq!(
            expected_reply(&pos, &turn, &turn, std::slice::from_ref(&mate)),
            mate
        );
        // A line that does not mate after this turn is not offered.
        let h3 = moves(&pos, "h2h3");
        assert!(expected_reply(&pos, &h3, &h3, &[mate]).is_empty());
    }

    #[test]
    fn no_reply_after_a_mating_turn() {
        let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Italian).unwrap();
        let turn = moves(&pos, "g1f1 f1e1 a1a8");
        assert!(expected_reply(&pos, &turn, &turn, &[]).is_empty());
    }
}
