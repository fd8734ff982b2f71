//! The whole board at the end of a picture, asked of the rules core.
//!
//! In a scene ([`Scene`]) the enemy pieces kept stand where they stand now
//! and the captured ones are gone. When every enemy piece is counted in the
//! scene (none taken as transparent) and the branch and bound of
//! [`super::squares`] has placed every one of our pieces on a square, the
//! picture names the whole board after the turn's last move: every mating
//! line of the scene that ends with our pieces on those squares (as those
//! roles) ends on this very board. So the rules core decides it: if the
//! enemy is not mated there (it takes the checker, interposes, steps out,
//! or, under the Italian rules, its only escapes give check), or our own
//! king stands in check (no legal last move leaves it so), no such line
//! mates, and the picture is no picture.
//!
//! Two things the board does not know are left out on the side of "mate":
//! no en passant square is set (a capture en passant of a pawn of ours that
//! stepped twice is one escape more, never one less), and no castling
//! right (the enemy, in check, never castles).

use super::order::Named;
use super::pictures::Scene;
use crate::chess::attacks;
use crate::chess::status::is_mated;
use crate::chess::{Bitboard, Piece, Position, Role, Square};

/// What the last move's retraction needs of one of our pieces: the
/// squares it may have stood on before the last move, and whether it was
/// a pawn when the turn began (a piece on the last rank may be its
/// promotion).
#[derive(Clone, Copy, Debug)]
pub(super) struct Mover {
    pub(super) prev: Bitboard,
    pub(super) pawn: bool,
}

/// The board of a scene without our pieces, ready to have them placed.
pub(super) struct FinalBoard {
    base: Position,
    /// The enemy pieces captured in the scene, where they stand now.
    captured: Vec<(Square, Piece)>,
    /// The enemy's turn length after ours.
    next_turn: u32,
    /// Our king stands in check now: before a first move that mates (a
    /// Scottish check ends the turn) it may be in check.
    in_check: bool,
}

impl FinalBoard {
    /// The board of `scene` in `pos`, or `None` where the scene does not
    /// name every enemy piece (some are transparent: present or not).
    pub(super) fn of(pos: &Position, scene: &Scene) -> Option<FinalBoard> {
        #[cfg(test)]
        if tests::OFF.get() {
            return None;
        }
        let (us, them) = (scene.us, scene.us.other());
        let enemies = pos.color_bb(them) & !scene.king.bb();
        let captured = enemies & !scene.blockers;
        if (captured.into_iter()).any(|s| scene.visit[s.index()] == 0) {
            return None;
        }
        let mut base = pos.clone();
        for sq in pos.color_bb(us) | captured {
            base.remove(sq);
        }
        let captured = captured
            .into_iter()
            .filter_map(|s| Some((s, pos.piece_at(s)?)))
            .collect();
        let next_turn = pos.rules().next_turn_length(pos.turn_length());
        Some(FinalBoard {
            base,
            captured,
            next_turn,
            in_check: pos.in_check(),
        })
    }

    /// Are there squares and roles for more pieces of ours, each on one of
    /// its candidates (`away`: per piece, the squares per role it may end
    /// on there; a promoted queen stands for a rook or bishop too, as it
    /// covers all they would), on which the board of `placed` mates? The
    /// boards that do are kept in `named` (the order of the moves decides
    /// them later) and count as no mate here, unless there is no room.
    /// Asks at most `budget` boards (then answers true: nothing known);
    /// also returns how many were asked.
    pub(super) fn mates_with(
        &self,
        placed: &[(Role, Square)],
        placed_movers: &[Mover],
        away: &[(Vec<(Role, Bitboard)>, Mover)],
        budget: u32,
        named: &mut Named,
    ) -> (bool, u32) {
        let mut board = self.base.clone();
        let us = board.side_to_move();
        for &(role, sq) in placed {
            board.put(sq, Piece { color: us, role });
        }
        let mut movers: Vec<(Square, Mover)> = placed
            .iter()
            .zip(placed_movers)
            .map(|(&(_, sq), &m)| (sq, m))
            .collect();
        let mut asked = 0;
        let m = self.place(board, away, &mut movers, budget, &mut asked, named);
        (m, asked)
    }

    /// [`FinalBoard::mates_with`] on `board`, counting boards in `asked`.
    fn place(
        &self,
        board: Position,
        away: &[(Vec<(Role, Bitboard)>, Mover)],
        movers: &mut Vec<(Square, Mover)>,
        budget: u32,
        asked: &mut u32,
        named: &mut Named,
    ) -> bool {
        let Some(((first, mover), rest)) = away.split_first() else {
            *asked += 1;
            return *asked > budget
                || self.retracts(&board, movers) && self.mated(board.clone()) && !named.add(board);
        };
        let us = board.side_to_move();
        for &(role, squares) in first {
            for sq in squares & !board.occupied() {
                if role == Role::Pawn && matches!(sq.rank(), 0 | 7) {
                    continue;
                }
                let mut b = board.clone();
                b.put(sq, Piece { color: us, role });
                movers.push((sq, *mover));
                let m = self.place(b, rest, movers, budget, asked, named);
                movers.pop();
                if m {
                    return true;
                }
            }
        }
        false
    }

    /// Has `board` (our pieces placed, our side still to move) a last move
    /// of ours: one of `movers` (on its square) back on a square it may
    /// have stood on before (empty on the board; for a pawn a step back,
    /// or a capture back where a captured piece stands now, for a piece
    /// made by promotion also the pawn's, and a queen made by promotion
    /// may be a rook or bishop), with neither king in check before it
    /// (the attacks of the other promoted queens not counted)? (No check on the enemy before a turn's last move, under
    /// both rules; none on ours inside a turn, and at its start only if
    /// there is one now.)
    fn retracts(&self, board: &Position, movers: &[(Square, Mover)]) -> bool {
        let us = board.side_to_move();
        let them = us.other();
        let occ = board.occupied();
        // A queen made by promotion may be a rook or bishop: its attacks
        // are not known (the mover's are tried in each role).
        let mut unsure = Bitboard::EMPTY;
        for &(sq, m) in movers {
            if m.pawn && board.piece_at(sq).is_some_and(|p| p.role == Role::Queen) {
                unsure.set(sq);
            }
        }
        movers.iter().any(|&(sq, m)| {
            let Some(now) = board.piece_at(sq) else {
                return false;
            };
            let taken = self.captured.iter().find(|c| c.0 == sq).map(|c| c.1);
            // (previous square, role there, whether it captured on `sq`)
            let mut back: Vec<(Bitboard, Role, Option<bool>)> = Vec::new();
            let pawn_back = |back: &mut Vec<(Bitboard, Role, Option<bool>)>| {
                if sq.relative_rank(us) < 2 {
                    return;
                }
                let behind = sq.forward(them);
                let mut push = behind.bb();
                if sq.relative_rank(us) == 3 && !occ.contains(behind) {
                    push.set(behind.forward(them));
                }
                back.push((push, Role::Pawn, Some(false)));
                if taken.is_some() {
                    back.push((attacks::pawn(them, sq), Role::Pawn, Some(true)));
                }
            };
            match now.role {
                Role::Pawn => pawn_back(&mut back),
                role => {
                    if m.pawn && sq.relative_rank(us) == 7 {
                        pawn_back(&mut back);
                    }
                    let roles: &[Role] = if m.pawn && role == Role::Queen {
                        &[Role::Queen, Role::Rook, Role::Bishop]
                    } else {
                        std::slice::from_ref(&role)
                    };
                    for &r in roles {
                        let from = match r {
                            Role::King => attacks::king(sq),
                            r => attacks::piece(r, sq, occ),
                        };
                        back.push((from, r, None));
                    }
                }
            }
            back.into_iter().any(|(from, role, capture)| {
                (from & m.prev & !occ).into_iter().any(|p| {
                    [false, true].into_iter().any(|took| {
                        if capture.is_some_and(|c| c != took) || took && taken.is_none() {
                            return false;
                        }
                        let mut pre = board.clone();
                        pre.remove(sq);
                        pre.put(p, Piece { color: us, role });
                        if let Some(piece) = taken.filter(|_| took) {
                            pre.put(sq, piece);
                        }
                        let o = pre.occupied();
                        let checkers = pre.attackers(pre.king_square(them), us, o);
                        (checkers & !(unsure & !sq.bb())).is_empty()
                            && (self.in_check || !pre.is_attacked(pre.king_square(us), them, o))
                    })
                })
            })
        })
    }

    /// Is the enemy mated on `board` (our pieces placed, our side still to
    /// move) after our turn, our king not in check?
    fn mated(&self, mut board: Position) -> bool {
        let us = board.side_to_move();
        let them = us.other();
        let ours = board.king_square(us);
        if board.is_attacked(ours, them, board.occupied()) {
            return false;
        }
        let quiet = board.quiet_turns();
        board.set_state(them, 0, Bitboard::EMPTY, quiet, self.next_turn, 0);
        is_mated(&board)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::pictures::tests::{
        check_along, check_layer, claim_without, searched, sparse_positions,
    };
    use crate::chess::{Position, Rules};
    use crate::mate::MateTable;
    use std::cell::Cell;

    thread_local! {
        /// The pictures without the final board (for the tests).
        pub(in crate::mate::bounds) static OFF: Cell<bool> = const { Cell::new(false) };
    }

    /// The pictures' claim without the final board.
    fn without(pos: &Position) -> bool {
        claim_without(&OFF, pos)
    }

    /// The claims only the final board makes (the pictures without it
    /// fit) are checked by brute force on 4-move turns and by the search
    /// on 5-7 moves (up to 10 pieces, both rule sets), and the final
    /// board never withdraws a claim.
    #[test]
    fn final_boards_agree_with_brute_force_and_the_search() {
        let tt = MateTable::new(16);
        let seeds = [(Rules::Italian, 51), (Rules::Scottish, 52)];
        let (brute, n_searched) = check_layer("the final board", without, seeds, 4..=7, &tt);
        let mut mates = 0;
        for (rules, seed) in seeds {
            // Turns with a mate are never claimed: every position along
            // the search's mating lines (the claim is for any node).
            for pos in sparse_positions(rules, seed + 10, 1500, 10, 4..=7) {
                tt.clear();
                if let Some(Some(line)) = searched(&pos, &tt, 100_000) {
                    mates += check_along(&pos, &line);
                }
            }
        }
        eprintln!(
            "{brute} claims by brute force, {n_searched} by the search, {mates} mating positions"
        );
        assert!(
            brute >= 20 && n_searched >= 20 && mates >= 500,
            "only {brute}, {n_searched} claims and {mates} mating positions checked"
        );
    }
}
