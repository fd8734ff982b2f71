//! Themes of a solution, computed from the moves (never hand-tagged).

use crate::chess::status::{Status, status};
use crate::chess::{Color, Move, MoveKind, Position, Role, Square};

/// What a solution is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Themes {
    /// Moves in the turn (the position's turn length).
    pub turn_length: u32,
    pub promotion: bool,
    /// A promotion to a knight, bishop or rook.
    pub underpromotion: bool,
    pub castling: bool,
    /// The first move takes en passant (the only move of a turn that can).
    pub en_passant: bool,
    /// The mate is an Italian mate: the king could escape only by giving check.
    pub italian_mate: bool,
    /// The mating side's king moves at least [`KING_WALK`] times.
    pub king_walk: bool,
    pub captures: u32,
    /// Distinct pieces of the mating side that move (castling moves two).
    pub pieces_used: u32,
    /// In the final position no piece of the mating side hangs: none is
    /// attacked by a cheaper enemy piece, none is attacked and undefended.
    pub sacrifice_free: bool,
}

/// King moves that make a king walk.
pub const KING_WALK: u32 = 2;

/// The names [`Themes::names`] gives, in that order (for `pick --theme`
/// and the documentation).
pub const NAMES: [&str; 8] = [
    "promotion",
    "underpromotion",
    "castling",
    "en-passant",
    "italian-mate",
    "king-walk",
    "quiet",
    "sacrifice-free",
];

impl Themes {
    /// The themes of `line`, a mating line from `pos` (a turn start).
    pub fn of(pos: &Position, line: &[Move]) -> Themes {
        let us = pos.side_to_move();
        let mut p = pos.clone();
        // Each square holds the starting square of the piece on it now
        // (None: no piece of ours), so pieces are followed as they move.
        let mut origin: [Option<Square>; 64] = [None; 64];
        for sq in Square::all() {
            if p.piece_at(sq).is_some_and(|pc| pc.color == us) {
                origin[sq.0 as usize] = Some(sq);
            }
        }
        let mut used: Vec<Square> = Vec::new();
        let mut t = Themes {
            turn_length: pos.turn_length(),
            promotion: false,
            underpromotion: false,
            castling: false,
            en_passant: line
                .first()
                .is_some_and(|m| m.kind() == MoveKind::EnPassant),
            italian_mate: false,
            king_walk: false,
            captures: 0,
            pieces_used: 0,
            sacrifice_free: false,
        };
        let mut king_moves = 0;
        for &mv in line {
            let (from, to) = (mv.from(), mv.to());
            if p.piece_at(from).is_some_and(|pc| pc.role == Role::King) {
                king_moves += 1;
            }
            let mut moved = vec![(from, to)];
            match mv.kind() {
                MoveKind::Castle => {
                    t.castling = true;
                    if let Some(c) = crate::chess::castle_for(from, to) {
                        moved.push((c.rook_from, c.rook_to));
                    }
                }
                MoveKind::Promotion(role) => {
                    t.promotion = true;
                    t.underpromotion |= role != Role::Queen;
                }
                _ => {}
            }
            for &(a, b) in &moved {
                if let Some(o) = origin[a.0 as usize].take() {
                    if !used.contains(&o) {
                        used.push(o);
                    }
                    origin[b.0 as usize] = Some(o);
                }
            }
            if p.play(mv).capture.is_some() {
                t.captures += 1;
            }
        }
        t.pieces_used = used.len() as u32;
        t.king_walk = king_moves >= KING_WALK;
        t.italian_mate = matches!(status(&p), Status::ItalianMate { .. });
        t.sacrifice_free = !hangs_a_piece(&p, us);
        t
    }

    /// No capture at all.
    pub fn quiet(&self) -> bool {
        self.captures == 0
    }

    /// The boolean themes that hold, named as in [`NAMES`].
    pub fn names(&self) -> Vec<String> {
        let flags = [
            self.promotion,
            self.underpromotion,
            self.castling,
            self.en_passant,
            self.italian_mate,
            self.king_walk,
            self.quiet(),
            self.sacrifice_free,
        ];
        NAMES
            .iter()
            .zip(flags)
            .filter(|(_, on)| *on)
            .map(|(n, _)| n.to_string())
            .collect()
    }
}

/// Material values (pawn 1): the usual ones.
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Does a piece of `us` (not the king) hang in `pos`: attacked by a cheaper
/// enemy piece, or attacked and not defended?
fn hangs_a_piece(pos: &Position, us: Color) -> bool {
    let occ = pos.occupied();
    pos.attacked_pieces(us).any(|(sq, role, attackers)| {
        let cheaper = attackers.into_iter().any(|a| {
            pos.piece_at(a)
                .is_some_and(|pc| pc.role != Role::King && value(pc.role) < value(role))
        });
        cheaper || pos.attackers(sq, us, occ).is_empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::notation::parse_uci;
    use crate::chess::{Rules, fen};
    use crate::mate::is_mating_line;

    fn themes(text: &str, rules: Rules, line: &[&str]) -> Themes {
        let pos = fen::parse(text, rules).unwrap();
        let mut p = pos.clone();
        let mut moves = Vec::new();
        for m in line {
            let mv = parse_uci(&p, m).unwrap();
            p.play(mv);
            moves.push(mv);
        }
        assert!(is_mating_line(&pos, &moves), "{text} {line:?}");
        Themes::of(&pos, &moves)
    }

    #[test]
    fn a_back_rank_mate_is_quiet_and_uses_one_piece() {
        let t = themes(
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            Rules::Italian,
            &["a1a8"],
        );
        assert_eq!((t.turn_length, t.captures, t.pieces_used), (1, 0, 1));
        assert!(!t.italian_mate && !t.king_walk && !t.castling && !t.promotion);
        assert_eq!(t.names(), ["quiet", "sacrifice-free"]);
    }

    #[test]
    fn castling_moves_two_pieces_and_a_king_walk_needs_two_king_moves() {
        let t = themes(
            "k7/pp6/8/8/8/8/8/R3K3 w Q - 0 2",
            Rules::Italian,
            &["e1c1", "d1d8"],
        );
        assert!(t.castling && !t.king_walk, "{t:?}");
        assert_eq!(t.pieces_used, 2);
        let t = themes(
            "k7/pp6/8/8/8/8/8/R3K3 w - - 0 4",
            Rules::Italian,
            &["e1d2", "d2e3", "a1d1", "d1d8"],
        );
        assert!(t.king_walk && !t.castling, "{t:?}");
        assert_eq!(t.pieces_used, 2);
        assert_eq!(t.names(), ["king-walk", "quiet", "sacrifice-free"]);
    }

    #[test]
    fn promotion_and_underpromotion() {
        let fen = "k7/pp5P/8/8/8/8/8/4K3 w - - 0 1";
        let t = themes(fen, Rules::Italian, &["h7h8q"]);
        assert!(t.promotion && !t.underpromotion, "{t:?}");
        let t = themes(fen, Rules::Italian, &["h7h8r"]);
        assert!(t.promotion && t.underpromotion, "{t:?}");
    }

    #[test]
    fn en_passant_on_the_first_move_is_a_capture() {
        let t = themes(
            "k7/pp6/8/3pP3/8/8/8/4K2R w K d6 0 2",
            Rules::Italian,
            &["e5d6", "h1h8"],
        );
        assert!(t.en_passant && t.captures == 1 && !t.quiet(), "{t:?}");
        assert_eq!(t.pieces_used, 2);
    }

    #[test]
    fn an_italian_mate_and_a_hanging_rook() {
        // Rf8+: the only escape, ...Rxf8, would check the king on a8 before
        // Black's last move, which the Italian rules forbid. The rook on f8
        // is attacked and undefended: not sacrifice-free.
        let t = themes(
            "K6k/5Rpp/8/8/5r2/8/8/8 w - - 0 1",
            Rules::Italian,
            &["f7f8"],
        );
        assert!(t.italian_mate && !t.sacrifice_free, "{t:?}");
        // Under the Scottish rules the same capture is a legal escape.
        let pos = fen::parse("K6k/5Rpp/8/8/5r2/8/8/8 w - - 0 1", Rules::Scottish).unwrap();
        let mv = parse_uci(&pos, "f7f8").unwrap();
        assert!(!is_mating_line(&pos, &[mv]));
    }
}
