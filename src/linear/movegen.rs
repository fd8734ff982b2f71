//! Legal move generation (rules 4 to 10, 12 and 13).

use super::moves::Move;
use super::position::Position;
use super::square::{Color, Direction, Square, SquareSet};

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
            self.for_each_slide(|from, to, _, _| {
                let slide = Move::Slide {
                    from,
                    to,
                    blocker: None,
                };
                out.push(slide);
                if which == Moves::All {
                    self.push_blocker_variants(slide, out);
                }
            });
        } else {
            self.for_each_slide(|from, to, _, ends_on_own| {
                if !(which == Moves::TokensOnly && ends_on_own) {
                    out.push(Move::Slide {
                        from,
                        to,
                        blocker: None,
                    });
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
                    out.push(Move::Drop {
                        to,
                        blocker: Some(corner),
                    });
                }
            }
        }
    }

    /// Calls `f(from, to, painted, ends_on_own_token)` for every legal
    /// token move of the side to move (rules 5 to 9, 12 and 13), where
    /// `painted` holds the squares after `from` up to `to`.
    pub(crate) fn for_each_slide(&self, mut f: impl FnMut(Square, Square, SquareSet, bool)) {
        let me = self.side.index();
        let own = self.tokens[me];
        let opp = self.tokens[1 - me];
        let opp_count = opp.len();
        let blockers = self.blocker_set();
        // Removed squares, squares off the board and blockers stop a token.
        let walls = !self.board.usable() | blockers;
        let through = !walls & !own;
        let empty = through & !opp;
        // Rule 12: Black's extra move need not enter an empty square.
        let exempt = self.is_final_move();
        // Once the board fills, most lines from own tokens reach no empty
        // square; finding the starts of those that do pays off then.
        let prune = !exempt && empty.len() <= PRUNE_EMPTIES;
        for dir in Direction::ALL {
            let starts = own
                & !blockers
                & if prune {
                    starts_towards_empty(dir, empty, through)
                } else {
                    !walls
                };
            for from in starts.iter() {
                let mut entered_empty = exempt;
                let mut captured = 0;
                let mut sq = from;
                let mut painted = SquareSet::EMPTY;
                while let Some(next) = sq.step(dir) {
                    if walls.contains(next) {
                        break;
                    }
                    painted.insert(next);
                    if own.contains(next) {
                        // Rule 9: an own token ends the move.
                        if entered_empty {
                            f(from, next, painted, true);
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
                        f(from, next, painted, false);
                    }
                    sq = next;
                }
            }
        }
    }

    /// Pushes `slide` (a token move without blocker move) with each legal
    /// move of the mover's blocker after it (rule 13).
    pub(crate) fn push_blocker_variants(&self, slide: Move, out: &mut Vec<Move>) {
        let Move::Slide {
            from,
            to,
            blocker: None,
        } = slide
        else {
            return;
        };
        let Some(start) = self.blockers[self.side.index()] else {
            return;
        };
        let mut after = *self;
        after.paint(from, to);
        for target in after.blocker_targets(self.side, self.last_end) {
            out.push(Move::Slide {
                from,
                to,
                blocker: Some((start, target)),
            });
        }
    }

    /// Where `colour`'s blocker may go in this position (rule 13): like a
    /// queen through usable squares without the other blocker, never into
    /// a corner, the last empty square, a last remaining token, or the
    /// square `opponent_end` where the opponent's last turn ended.
    pub(crate) fn blocker_targets(
        &self,
        colour: Color,
        opponent_end: Option<Square>,
    ) -> Vec<Square> {
        let Some(start) = self.blockers[colour.index()] else {
            return Vec::new();
        };
        let other = self.blockers[colour.other().index()];
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

/// Below this many empty squares, token moves are only looked for on lines
/// that reach an empty square.
const PRUNE_EMPTIES: u32 = 24;

/// Squares whose line in `dir`, through `through` squares only, reaches a
/// square of `empty`: found walking back from the empty squares.
fn starts_towards_empty(dir: Direction, empty: SquareSet, through: SquareSet) -> SquareSet {
    let back = dir.opposite();
    (empty | empty.slide(back, through)).shifted(back)
}

/// Which legal moves [`Position::generate`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moves {
    /// All of them, as perft and move parsing need.
    All,
    /// The token moves without blocker moves (the search adds those for
    /// its best few). Without blockers, also without the token moves that
    /// end on an own token: they leave the same board as stopping one
    /// square short (that square is already own), and only the last end
    /// differs, which matters to blockers alone.
    TokensOnly,
}

#[cfg(test)]
mod tests {
    //! One test per numbered rule (and option) of the rules file, each on
    //! a small hand-built position.

    use crate::linear::{Board, Color, EndReason, GameResult, Move, Options, Position, Status};

    fn pos(text: &str) -> Position {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    fn moves(pos: &Position) -> Vec<String> {
        let mut list: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
        list.sort();
        list
    }

    fn play(pos: &mut Position, text: &str) {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        pos.play(mv);
    }

    fn legal(pos: &Position, text: &str) -> bool {
        pos.parse_move(text).is_ok()
    }

    fn over(pos: &Position) -> GameResult {
        match pos.status() {
            Status::Over(result) => result,
            Status::Ongoing => panic!("game not over in {pos}"),
        }
    }

    /// The squares the blocker may go to with the move written `prefix`
    /// (the move, `+` and the blocker's square, as in `a3a4+c1`).
    fn blocker_targets(pos: &Position, prefix: &str) -> Vec<String> {
        moves(pos)
            .iter()
            .filter_map(|m| m.strip_prefix(prefix).map(str::to_string))
            .collect()
    }

    /// The game is over: (winner, White's count, Black's count), and why.
    fn assert_over(pos: &Position, counts: (Option<Color>, u32, u32), reason: EndReason) {
        let result = over(pos);
        assert_eq!((result.winner, result.white, result.black), counts, "{pos}");
        assert_eq!(result.reason, reason, "{pos}");
    }

    fn with_blockers(board: &str) -> Options {
        Options {
            board: board.parse().unwrap(),
            blockers: true,
            ..Options::default()
        }
    }

    #[test]
    fn rule_01_default_board_has_60_squares_and_no_corners() {
        let start = Position::new(&Options::default());
        assert_eq!(start.board().usable().len(), 60);
        assert_eq!(start.legal_moves().len(), 60);
        assert!(!legal(&start, "@a1") && !legal(&start, "@h8"));
        // A token next to a corner cannot enter it.
        let p = pos("#6#/8/8/8/8/8/1w6/#b5# w - 0 - -");
        assert!(legal(&p, "b2c3") && !legal(&p, "b2a1"));
    }

    #[test]
    fn rule_02_variant_boards_from_4x4_to_16x16() {
        for (text, squares) in [
            ("4x4", 12),
            ("16x16", 252),
            ("center-isle", 56),
            ("10x10", 96),
        ] {
            let board: Board = text.parse().unwrap();
            assert_eq!(board.usable().len(), squares, "{text}");
            let start = Position::new(&Options {
                board,
                ..Options::default()
            });
            assert_eq!(start.legal_moves().len(), squares as usize);
        }
        assert!("3x4".parse::<Board>().is_err() && "16x17".parse::<Board>().is_err());
        let big = Position::new(&Options {
            board: "16x16".parse().unwrap(),
            ..Options::default()
        });
        assert!(legal(&big, "@p15") && !legal(&big, "@p16"));
    }

    #[test]
    fn rule_03_white_moves_first_and_the_players_alternate() {
        let mut p = Position::new(&Options::default());
        for (turn, text) in ["@d4", "@e5", "d4d3", "e5e4"].into_iter().enumerate() {
            let expected = if turn % 2 == 0 {
                crate::linear::Color::White
            } else {
                crate::linear::Color::Black
            };
            assert_eq!(p.side_to_move(), expected);
            play(&mut p, text);
        }
    }

    #[test]
    fn rule_04_first_turn_drops_on_any_empty_usable_square() {
        let mut p = Position::new(&Options::default());
        assert!(
            p.legal_moves()
                .iter()
                .all(|m| matches!(m, Move::Drop { blocker: None, .. }))
        );
        play(&mut p, "@d4");
        assert!(p.is_drop_turn());
        assert_eq!(p.legal_moves().len(), 59);
        assert!(!legal(&p, "@d4") && legal(&p, "@e4"));
        play(&mut p, "@e4");
        assert!(!p.is_drop_turn() && !legal(&p, "@c3"));
    }

    #[test]
    fn rule_05_tokens_move_like_queens_from_any_own_square_and_leave_a_trail() {
        let p = pos("4/4/4/w2b w d1 0 - -");
        let expected = [
            "a1a2", "a1a3", "a1a4", "a1b1", "a1b2", "a1c1", "a1c3", "a1d4",
        ];
        assert_eq!(moves(&p), expected);
        let mut q = pos("4/4/1w2/w2b w d1 0 - -");
        assert!(legal(&q, "b2c3") && legal(&q, "a1a2") && legal(&q, "b2b4"));
        play(&mut q, "a1a3");
        assert_eq!(
            q.count(crate::linear::Color::White),
            4,
            "a1 keeps its token: {q}"
        );
    }

    #[test]
    fn rule_06_entered_squares_take_the_movers_colour() {
        let mut p = pos("3b/4/4/wb1b w d1 0 - -");
        play(&mut p, "a1d1");
        assert_eq!(p.to_string(), "3b/4/4/wwww b d1 0 - -");
    }

    #[test]
    fn rule_07_the_opponents_last_token_cannot_be_entered_or_passed() {
        let p = pos("4/4/4/w1b1 w c1 0 - -");
        assert!(legal(&p, "a1b1") && !legal(&p, "a1c1") && !legal(&p, "a1d1"));
        // Settled: a move may not take every remaining opponent token.
        let p = pos("4/4/4/w1bb w d1 0 - -");
        assert!(legal(&p, "a1b1") && legal(&p, "a1c1") && !legal(&p, "a1d1"));
    }

    #[test]
    fn rule_08_a_move_must_enter_an_empty_square() {
        let p = pos("3b/4/4/wbbb w d1 0 - -");
        assert!(!legal(&p, "a1b1") && !legal(&p, "a1c1") && !legal(&p, "a1d1"));
        let p = pos("3b/4/4/wb1b w d1 0 - -");
        assert!(!legal(&p, "a1b1") && legal(&p, "a1c1") && legal(&p, "a1d1"));
    }

    #[test]
    fn rule_09_an_own_token_ends_the_move() {
        let p = pos("3b/4/4/w1w1 w d4 0 - -");
        assert!(legal(&p, "a1b1") && legal(&p, "a1c1") && !legal(&p, "a1d1"));
        assert!(legal(&p, "c1a1") && legal(&p, "c1d1"));
    }

    #[test]
    fn rule_10_a_player_without_a_move_passes_and_two_passes_end_the_game() {
        let mut p = pos("wbbb/bb2/b1b1/b2b w d1 0 - -");
        assert_eq!(moves(&p), ["0000"]);
        play(&mut p, "0000");
        assert_eq!(p.status(), Status::Ongoing);
        assert!(
            p.legal_moves().len() > 1,
            "Black can move after White's pass"
        );
        let mut p = pos("wb#./bb#./###./4 w b3 0 - -");
        play(&mut p, "0000");
        assert_eq!(moves(&p), ["0000"]);
        play(&mut p, "0000");
        assert_over(&p, (Some(Color::Black), 1, 3), EndReason::BothPassed);
        assert!(p.legal_moves().is_empty());
    }

    #[test]
    fn rule_11_filling_the_last_empty_square_ends_the_game_by_count() {
        let mut p = pos("#ww#/wwww/bb1b/#bb# w b1 0 - -");
        play(&mut p, "c3c2");
        assert_over(&p, (Some(Color::White), 7, 5), EndReason::BoardFull);
    }

    #[test]
    fn rule_12_equal_moves_gives_black_a_last_move_exempt_from_rule_8() {
        let mut p = pos("#ww#/wwww/bb1b/#bb# w b1 0 equal -");
        assert!(
            !legal(&p.after(Move::Pass), "a2b2"),
            "rule 8 holds before the end"
        );
        play(&mut p, "c3c2");
        assert_eq!(p.status(), Status::Ongoing);
        assert!(p.is_final_move());
        // No empty square is left: the move only has to enter a square.
        assert!(legal(&p, "a2b2") && legal(&p, "d2b2") && legal(&p, "d2c2"));
        play(&mut p, "d2c2");
        assert_over(&p, (None, 6, 6), EndReason::BoardFull);
        // When Black fills the last square, the game ends at once.
        let mut p = pos("#ww#/wwww/bb1b/#bb# b c3 0 equal -");
        play(&mut p, "b2c2");
        assert_eq!(over(&p).reason, EndReason::BoardFull);
    }

    #[test]
    fn rule_13_first_turn_drops_and_places_the_blocker_on_a_free_corner() {
        let mut p = Position::new(&with_blockers("4x4"));
        assert_eq!(p.legal_moves().len(), 12 * 4);
        assert!(
            !legal(&p, "@b2"),
            "the blocker corner is part of the first turn"
        );
        play(&mut p, "@b2+a1");
        assert_eq!(p.legal_moves().len(), 11 * 3);
        assert!(!legal(&p, "@c3+a1") && legal(&p, "@c3+d4"));
        // On a board whose corners are usable, a corner with a token or a
        // blocker is taken, and no token drops under a blocker.
        let mut p = Position::new(&with_blockers("4/4/4/4"));
        assert!(!legal(&p, "@a1+a1") && legal(&p, "@a1+d4"));
        play(&mut p, "@a1+d4");
        assert!(!legal(&p, "@d4+a4") && !legal(&p, "@d1+a1") && !legal(&p, "@d1+d4"));
        assert_eq!(
            moves(&p)
                .iter()
                .filter(|m| m.starts_with("@d1"))
                .collect::<Vec<_>>(),
            ["@d1+a4"]
        );
    }

    #[test]
    fn rule_13_tokens_cannot_enter_blockers_nor_move_from_under_one() {
        let p = pos("#3#/5/ww1bb/5/#3# w d3 0 blockers a1,c3");
        assert!(legal(&p, "b3b4") && !legal(&p, "b3c3") && !legal(&p, "b3d3"));
        let p = pos("#3#/5/ww1bb/5/#3# w d3 0 blockers b3,e1");
        assert!(
            p.legal_moves()
                .iter()
                .all(|m| !m.to_string().starts_with("b3"))
        );
        assert!(legal(&p, "a3a4") && !legal(&p, "a3c3"));
    }

    #[test]
    fn rule_13_blockers_move_through_tokens_never_into_a_corner_nor_the_last_end() {
        let p = pos("#3#/5/ww2b/3b1/#3# w d2 0 blockers c1,e5");
        let targets = blocker_targets(&p, "a3a4+c1");
        // d2 is where Black's last turn ended; e3 beyond it is fine.
        assert_eq!(
            targets,
            ["a3", "b1", "b2", "c2", "c3", "c4", "c5", "d1", "e3"]
        );
        let mut q = p;
        play(&mut q, "a3a4+c1e3");
        assert_eq!(q.to_string(), "#3#/w4/ww2b/3b1/#3# b a4 0 blockers e3,e5");
        assert!(!legal(&q, "e3e4"), "the blocker froze Black's token");
    }

    #[test]
    fn rule_13_blockers_avoid_the_last_empty_square_and_last_tokens() {
        let p = pos("#ww#/wwww/wwwb/#2# w - 0 blockers c2,a1");
        let targets = blocker_targets(&p, "a2b1+c2");
        assert_eq!(targets, ["a2", "b1", "b2", "b3", "c3", "c4", "d3"]);
        assert!(
            legal(&p, "a2b1") && !legal(&p, "c2c1"),
            "the token under the blocker is stuck"
        );
    }

    #[test]
    fn rule_13_an_empty_square_under_a_blocker_still_counts_as_empty() {
        let mut p = pos("#ww#/wwww/wwwb/#1w# w - 0 blockers a1,b1");
        assert_eq!(p.empty_squares().len(), 1);
        assert_eq!(p.status(), Status::Ongoing);
        // Nobody can enter b1, and a blocker moves only with a token move.
        assert_eq!(moves(&p), ["0000"]);
        play(&mut p, "0000");
        assert_eq!(moves(&p), ["0000"]);
        play(&mut p, "0000");
        assert_eq!(over(&p).reason, EndReason::BothPassed);
    }

    #[test]
    fn rule_14_options_default_off_on_the_default_board() {
        let options = Options::default();
        assert!(!options.equal_moves && !options.blockers);
        assert_eq!(options.board.to_string(), "8x8");
    }

    #[test]
    fn tokens_only_skips_only_moves_ending_on_own_tokens() {
        let p = pos("3b/4/4/w1w1 w d4 0 - -");
        let mut all = Vec::new();
        let mut distinct = Vec::new();
        p.generate(&mut all, super::Moves::All);
        p.generate(&mut distinct, super::Moves::TokensOnly);
        let skipped: Vec<String> = all
            .iter()
            .filter(|m| !distinct.contains(m))
            .map(Move::to_string)
            .collect();
        assert_eq!(skipped, ["a1c1", "c1a1"]);
    }
}
