//! `go searchmoves`: the first moves a turn may start with. The search's
//! root, the root's mate check, the baselines and the safety net's
//! alternatives all keep to them; after the first move the turn goes on
//! freely.

use super::limits::Limits;
use crate::chess::status::is_mated;
use crate::chess::{Move, MoveList, Position, legal_moves};
use crate::mate::{self, Answer, Budget, MateTable, Verdict};
use std::time::Instant;

/// Does `searchmoves` (empty: no restriction) allow `mv` as the first move?
pub fn allows(searchmoves: &[Move], mv: Move) -> bool {
    searchmoves.is_empty() || searchmoves.contains(&mv)
}

/// The legal moves of `pos` that `searchmoves` allows. A list with no legal
/// move in it restricts nothing (the protocol has said so already).
pub fn legal_only(pos: &Position, searchmoves: &[Move]) -> Vec<Move> {
    let legal = legal_moves(pos);
    crate::limits::legal_searchmoves(searchmoves, |mv| legal.contains(mv))
}

/// `limits` with their `searchmoves` cut to the legal ones in `pos`, when
/// they restrict anything (`None`: use `limits` as they are).
pub(super) fn legal_limits(pos: &Position, limits: &Limits) -> Option<Limits> {
    (!limits.searchmoves.is_empty()).then(|| Limits {
        searchmoves: legal_only(pos, &limits.searchmoves),
        ..limits.clone()
    })
}

/// The legal first moves of `pos` under `searchmoves`.
pub fn first_moves(pos: &Position, searchmoves: &[Move]) -> MoveList {
    let mut moves = legal_moves(pos);
    if !searchmoves.is_empty() {
        moves.retain(|mv| searchmoves.contains(&mv));
    }
    moves
}

/// A mate in this turn whose first move `searchmoves` allows: the finder
/// on the whole position when nothing is restricted, else on the position
/// after each allowed first move, sharing `budget`'s nodes.
pub fn find_mate(
    pos: &Position,
    searchmoves: &[Move],
    budget: &Budget,
    table: &MateTable,
) -> Answer {
    if searchmoves.is_empty() {
        return mate::find_mate(pos, budget, table);
    }
    let started = Instant::now();
    let mut nodes = 0u64;
    let mut undecided = false;
    let mut verdict = Verdict::NoMate;
    for &mv in first_moves(pos, searchmoves).iter() {
        let mut child = pos.clone();
        if child.play(mv).turn_ended {
            nodes += 1;
            if is_mated(&child) {
                verdict = Verdict::Mate(vec![mv]);
                break;
            }
            continue;
        }
        let left = Budget {
            nodes: budget.nodes.saturating_sub(nodes),
            ..*budget
        };
        let answer = mate::find_mate(&child, &left, table);
        nodes += answer.nodes;
        match answer.verdict {
            Verdict::Mate(line) => {
                verdict = Verdict::Mate([vec![mv], line].concat());
                break;
            }
            Verdict::Unknown => undecided = true,
            Verdict::NoMate => {}
        }
    }
    if undecided && verdict == Verdict::NoMate {
        verdict = Verdict::Unknown;
    }
    Answer {
        verdict,
        nodes,
        elapsed: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;
    use crate::chess::{Rules, fen};
    use crate::mate::is_mating_line;

    #[test]
    fn the_mate_check_keeps_to_the_first_moves() {
        // Ra8# ends the turn of two moves after almost any first move, but
        // not after Rf1 (the f-pawn blocks the file); Kh1 lets it in.
        let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 2", Rules::Italian).unwrap();
        let table = MateTable::new(1);
        let budget = Budget::nodes(1_000_000);
        let rf1 = parse_uci(&pos, "a1f1").unwrap();
        let kh1 = parse_uci(&pos, "g1h1").unwrap();
        let none = find_mate(&pos, &[rf1], &budget, &table);
        assert_eq!(none.verdict, Verdict::NoMate);
        let found = find_mate(&pos, &[rf1, kh1], &budget, &table);
        let Verdict::Mate(line) = found.verdict else {
            panic!("{:?}", found.verdict)
        };
        assert_eq!(line[0], kh1);
        assert!(is_mating_line(&pos, &line));
    }

    #[test]
    fn only_legal_moves_restrict() {
        let pos = Position::startpos(Rules::Italian);
        let e4 = parse_uci(&pos, "e2e4").unwrap();
        assert_eq!(legal_only(&pos, &[e4, e4]), [e4]);
        assert_eq!(first_moves(&pos, &[e4]).len(), 1);
        assert_eq!(first_moves(&pos, &[]).len(), 20);
        assert!(allows(&[], e4) && allows(&[e4], e4));
    }
}
