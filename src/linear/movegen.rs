//! Legal move generation (rules 4 to 10, 12 and 13).

use super::notation::Move;
use super::position::Position;
use super::square::{Colour, Direction, Square, SquareSet};

impl Position {
    /// Every legal move: drops on a drop turn, token moves (each also
    /// with every legal blocker move under rule 13), or just the pass
    /// `0000` when there is none. Empty once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate(&mut moves, Moves::All);
        moves
    }

    /// Appends the legal moves to `out` (see [`Moves`] for the choice).
    pub(crate) fn generate(&self, out: &mut Vec<Move>, which: Moves) {
        if self.is_over() {
            return;
        }
        let start = out.len();
        if self.is_drop_turn() {
            self.generate_drops(out);
        } else if self.use_blockers {
            self.for_each_slide(|from, to, _| self.push_with_blocker_moves(from, to, out));
        } else {
            self.for_each_slide(|from, to, ends_on_own| {
                if which == Moves::All || !ends_on_own {
                    out.push(Move::Slide { from, to, blocker: None });
                }
            });
        }
        if out.len() == start {
            out.push(Move::Pass);
        }
    }

    /// Rule 4 (and 13): a drop on any empty usable square without a
    /// blocker; with blockers, together with an unoccupied corner.
    fn generate_drops(&self, out: &mut Vec<Move>) {
        let blockers = self.blocker_set();
        for to in (self.empty_squares() & !blockers).iter() {
            if !self.use_blockers {
                out.push(Move::Drop { to, blocker: None });
                continue;
            }
            let taken = blockers | self.occupied() | SquareSet::single(to);
            for corner in self.board.corners() {
                if !taken.contains(corner) {
                    out.push(Move::Drop { to, blocker: Some(corner) });
                }
            }
        }
    }

    /// Calls `f(from, to, ends_on_own_token)` for every legal token move
    /// of the side to move (rules 5 to 9, 12 and 13).
    pub(crate) fn for_each_slide(&self, mut f: impl FnMut(Square, Square, bool)) {
        let me = self.side.index();
        let own = self.tokens[me];
        let opp = self.tokens[1 - me];
        let opp_count = opp.len();
        let blockers = self.blocker_set();
        // Removed squares, squares off the board and blockers stop a token.
        let walls = !self.board.usable() | blockers;
        // Rule 12: Black's extra move need not enter an empty square.
        let exempt = self.is_final_move();
        for from in (own & !blockers).iter() {
            for dir in Direction::ALL {
                let mut entered_empty = exempt;
                let mut captured = 0;
                let mut sq = from;
                while let Some(next) = sq.step(dir) {
                    if walls.contains(next) {
                        break;
                    }
                    if own.contains(next) {
                        // Rule 9: an own token ends the move.
                        if entered_empty {
                            f(from, next, true);
                        }
                        break;
                    }
                    if opp.contains(next) {
                        // Rule 7: the opponent keeps its last token.
                        captured += 1;
                        if captured >= opp_count {
                            break;
                        }
                    } else {
                        entered_empty = true;
                    }
                    // Rule 8: only once an empty square was entered.
                    if entered_empty {
                        f(from, next, false);
                    }
                    sq = next;
                }
            }
        }
    }

    /// Pushes the token move `from`-`to` alone and with each legal move of
    /// the mover's blocker after it (rule 13).
    fn push_with_blocker_moves(&self, from: Square, to: Square, out: &mut Vec<Move>) {
        out.push(Move::Slide { from, to, blocker: None });
        let me = self.side;
        let Some(start) = self.blockers[me.index()] else {
            return;
        };
        let mut after = *self;
        after.paint(from, to);
        for target in after.blocker_targets(me, self.last_end) {
            out.push(Move::Slide { from, to, blocker: Some((start, target)) });
        }
    }

    /// Where `colour`'s blocker may go in this position (rule 13): like a
    /// queen through usable squares without the other blocker, never into
    /// a corner, the last empty square, a last remaining token, or the
    /// square `opponent_end` where the opponent's last turn ended.
    pub(crate) fn blocker_targets(&self, colour: Colour, opponent_end: Option<Square>) -> Vec<Square> {
        let Some(start) = self.blockers[colour.index()] else {
            return Vec::new();
        };
        let other = self.blockers[colour.opponent().index()];
        let mut forbidden: SquareSet = opponent_end.into_iter().collect();
        for set in [self.empty_squares(), self.tokens[0], self.tokens[1]] {
            if set.len() == 1 {
                forbidden |= set;
            }
        }
        let mut targets = Vec::new();
        for dir in Direction::ALL {
            let mut sq = start;
            while let Some(next) = self.board.step(sq, dir) {
                // Corners end every line through them, so stopping at one
                // loses nothing beyond it.
                let stop = !self.board.is_usable(next)
                    || Some(next) == other
                    || self.board.is_corner(next);
                if stop {
                    break;
                }
                if !forbidden.contains(next) {
                    targets.push(next);
                }
                sq = next;
            }
        }
        targets
    }
}

/// Which legal moves [`Position::generate`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moves {
    /// All of them, as perft and move parsing need.
    All,
    /// Without blockers, a token move ending on an own token leaves the
    /// same board as stopping one square short (that square is already
    /// own), so the search skips it. Only the last end differs, and that
    /// matters only to blockers; with blockers on this lists all moves.
    Distinct,
}
