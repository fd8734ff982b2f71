//! Reading one move as people write it: SAN with or without `x`, `:` for
//! captures, promotions as `=Q`, `Q`, `(Q)` or `/Q`, `e.p.`/`ep`, check and
//! mate marks (`+`, `++`, `#`, `mate`), long algebraic (`e2e4`, `e2-e4`,
//! `e2xe4`, `Ng1-f3`, UCI's `e7e8q`), castling as `O-O` or `0-0`.
//!
//! A text is first read for its shape (a [`Pattern`]: which piece, which
//! squares), then matched against the legal moves of the rules core. When no
//! legal move matches, the position is asked why, so that the error says
//! whether there is no such piece, the move is ambiguous, illegal (and why),
//! or a check before the last move of an Italian turn.

use super::attacks;
use super::bitboard::{Role, Square};
use super::movegen::{generate_king_safe, legal_moves};
use super::moves::{Move, MoveKind, MoveList};
use super::notation::san;
use super::position::Position;
use std::fmt;

/// Why a move text was not read as a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The text has no move's shape.
    NotAMove,
    /// No piece of the side to move fits the text (what is missing).
    NoSuchPiece(String),
    /// More than one legal move fits: their SAN.
    Ambiguous(Vec<String>),
    /// A piece fits but may not move so (why).
    Illegal(String),
    /// Under the Italian rules the move would give check before the last
    /// move of the turn: move `index` of `length`.
    CheckBeforeLast { index: u32, length: u32 },
    /// The side to move has no legal move at all.
    NoLegalMove,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotAMove => f.write_str(
                "not a move (expected SAN such as Nf3, exd5, e8=Q, O-O, or long algebraic such as g1f3, Ng1-f3)",
            ),
            Refusal::NoSuchPiece(what) => write!(f, "no such piece: {what}"),
            Refusal::Ambiguous(candidates) => {
                write!(f, "ambiguous: {}", candidates.join(" or "))
            }
            Refusal::Illegal(why) => write!(f, "illegal because {why}"),
            Refusal::CheckBeforeLast { index, length } => write!(
                f,
                "check before the last move: under the Italian rules only the last move of a turn may give check, and this is move {index} of {length}"
            ),
            Refusal::NoLegalMove => f.write_str("the side to move has no legal move (the game is over)"),
        }
    }
}

/// Which way a castling goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wing {
    King,
    Queen,
}

/// The shape of a move text: what it says about the move, nothing checked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Pattern {
    castle: Option<Wing>,
    /// The piece letter (`P` included); `None`: none written.
    role: Option<Role>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to_file: Option<u8>,
    /// `None` only in the files-only pawn capture `ed`.
    to_rank: Option<u8>,
    /// Written with `x` or `:`.
    capture: bool,
    promotion: Option<Role>,
    /// Written with `e.p.` or `ep`.
    en_passant: bool,
}

impl Pattern {
    /// The whole origin square is written (long algebraic): then a text
    /// without piece letter may move any piece, as in UCI.
    fn long(&self) -> bool {
        self.from_file.is_some() && self.from_rank.is_some()
    }

    fn role_fits(&self, role: Role) -> bool {
        match self.role {
            Some(r) => r == role,
            None => self.long() || role == Role::Pawn,
        }
    }

    fn origin_fits(&self, from: Square) -> bool {
        self.from_file.is_none_or(|f| f == from.file())
            && self.from_rank.is_none_or(|r| r == from.rank())
    }

    fn to_fits(&self, to: Square) -> bool {
        self.to_file.is_none_or(|f| f == to.file()) && self.to_rank.is_none_or(|r| r == to.rank())
    }

    /// Does `mv` in `pos` fit the text (captures and en passant aside)?
    fn fits(&self, pos: &Position, mv: Move) -> bool {
        let Some(piece) = pos.piece_at(mv.from()) else {
            return false;
        };
        if let Some(wing) = self.castle {
            return mv.kind() == MoveKind::Castle && wing == wing_of(mv.to());
        }
        self.role_fits(piece.role)
            && self.origin_fits(mv.from())
            && self.to_fits(mv.to())
            && (self.promotion.is_none() || self.promotion == mv.promotion())
    }
}

fn wing_of(king_to: Square) -> Wing {
    if king_to.file() >= 4 {
        Wing::King
    } else {
        Wing::Queen
    }
}

/// Does the text look like a move (its shape only, no position asked)?
pub fn looks_like_move(text: &str) -> bool {
    pattern(text).is_some()
}

/// Strips the marks after a move that say nothing about which move it is:
/// `!`, `?`, `+`, `#`, `mate`, and `e.p.`/`ep` (noted).
fn strip_marks(text: &str) -> (&str, bool) {
    let mut s = text;
    let mut en_passant = false;
    loop {
        let before = s.len();
        s = s.trim_end_matches(['!', '?', '+', '#']);
        if let Some(rest) = s.strip_suffix("mate") {
            s = rest;
        }
        for mark in ["e.p.", "e.p", "ep"] {
            if let Some(rest) = s.strip_suffix(mark)
                && rest.ends_with(|c: char| c.is_ascii_digit())
            {
                s = rest;
                en_passant = true;
            }
        }
        if s.len() == before {
            return (s, en_passant);
        }
    }
}

fn promotion_role(c: char) -> Option<Role> {
    match Role::from_char(c)? {
        Role::Pawn | Role::King => None,
        r => Some(r),
    }
}

/// Splits the promotion off the end: `=Q`, `/Q`, `(Q)`, `Q` after the rank,
/// or UCI's lower-case `q` after a last-rank digit.
fn strip_promotion(s: &str) -> Option<(&str, Option<Role>)> {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    if n >= 3 && chars[n - 1] == ')' && chars[n - 3] == '(' {
        let role = promotion_role(chars[n - 2])?;
        return Some((&s[..n - 3], Some(role)));
    }
    if n >= 2 && matches!(chars[n - 2], '=' | '/') {
        let role = promotion_role(chars[n - 1])?;
        return Some((&s[..n - 2], Some(role)));
    }
    if n >= 2 && chars[n - 2].is_ascii_digit() {
        let last = chars[n - 1];
        let upper = last.is_ascii_uppercase();
        let uci = last.is_ascii_lowercase() && matches!(chars[n - 2], '1' | '8');
        if (upper || uci)
            && let Some(role) = promotion_role(last)
        {
            return Some((&s[..n - 1], Some(role)));
        }
    }
    Some((s, None))
}

/// Reads the shape of a move text; `None` if it has none.
fn pattern(text: &str) -> Option<Pattern> {
    if !text.is_ascii() || text.is_empty() {
        return None;
    }
    let (s, en_passant) = strip_marks(text);
    let castle = match s {
        "O-O" | "0-0" | "o-o" => Some(Wing::King),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(Wing::Queen),
        _ => None,
    };
    if castle.is_some() {
        return Some(Pattern {
            castle,
            ..Pattern::default()
        });
    }
    let (s, promotion) = strip_promotion(s)?;
    let (role, body) = match s.chars().next()? {
        c if c.is_ascii_uppercase() => (Some(Role::from_char(c)?), &s[1..]),
        _ => (None, s),
    };
    let capture = body.contains(['x', ':']);
    let squares: Vec<u8> = body.bytes().filter(|b| !b"x:-".contains(b)).collect();
    let file = |b: u8| (b'a'..=b'h').contains(&b).then(|| b - b'a');
    let rank = |b: u8| (b'1'..=b'8').contains(&b).then(|| b - b'1');
    let mut p = Pattern {
        role,
        capture,
        promotion,
        en_passant,
        ..Pattern::default()
    };
    match *squares.as_slice() {
        [tf, tr] if rank(tr).is_some() => {
            p.to_file = Some(file(tf)?);
            p.to_rank = rank(tr);
        }
        [a, tf, tr] => {
            match (file(a), rank(a)) {
                (Some(f), _) => p.from_file = Some(f),
                (_, Some(r)) => p.from_rank = Some(r),
                _ => return None,
            }
            p.to_file = Some(file(tf)?);
            p.to_rank = Some(rank(tr)?);
        }
        [ff, fr, tf, tr] => {
            p.from_file = Some(file(ff)?);
            p.from_rank = Some(rank(fr)?);
            p.to_file = Some(file(tf)?);
            p.to_rank = Some(rank(tr)?);
        }
        // `ed`: a pawn of the e-file takes on the d-file.
        [ff, tf] if matches!(role, None | Some(Role::Pawn)) => {
            p.from_file = Some(file(ff)?);
            p.to_file = Some(file(tf)?);
            if p.from_file == p.to_file {
                return None;
            }
        }
        _ => return None,
    }
    if p.promotion.is_some() && !matches!(role, None | Some(Role::Pawn)) {
        return None;
    }
    Some(p)
}

fn is_capture(pos: &Position, mv: Move) -> bool {
    mv.kind() == MoveKind::EnPassant
        || (mv.kind() != MoveKind::Castle && pos.piece_at(mv.to()).is_some())
}

/// Reads a move in any accepted notation and returns the one legal move it
/// names, or why there is none.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, Refusal> {
    let p = pattern(text).ok_or(Refusal::NotAMove)?;
    let legal = legal_moves(pos);
    if legal.is_empty() {
        return Err(Refusal::NoLegalMove);
    }
    let fitting: Vec<Move> = legal.iter().copied().filter(|&m| p.fits(pos, m)).collect();
    if fitting.is_empty() {
        return Err(diagnose(pos, &p));
    }
    // A capture written without `x` is fine; an `x` on a quiet move is not.
    let kept: Vec<Move> = fitting
        .iter()
        .copied()
        .filter(|&m| !p.capture || is_capture(pos, m))
        .filter(|&m| !p.en_passant || m.kind() == MoveKind::EnPassant)
        .collect();
    match kept.as_slice() {
        [mv] => Ok(*mv),
        [] if p.en_passant => Err(Refusal::Illegal(format!(
            "{} is not an en-passant capture",
            san(pos, fitting[0])
        ))),
        [] => Err(Refusal::Illegal(format!(
            "it is written as a capture, but {} is not one",
            san(pos, fitting[0])
        ))),
        many => Err(Refusal::Ambiguous(
            many.iter().map(|&m| san(pos, m)).collect(),
        )),
    }
}

/// Why no legal move fits `p`: asked in order of what a reader most likely
/// got wrong.
fn diagnose(pos: &Position, p: &Pattern) -> Refusal {
    let us = pos.side_to_move();
    let side = us.name();
    // Legal but for the Italian rule on checks?
    if !pos.check_allowed() {
        let mut free = MoveList::new();
        generate_king_safe(pos, &mut free);
        if free.iter().any(|&m| p.fits(pos, m)) {
            return Refusal::CheckBeforeLast {
                index: pos.moves_made() + 1,
                length: pos.turn_length(),
            };
        }
    }
    if p.castle.is_some() {
        return Refusal::Illegal(
            "castling is not possible here (the right is lost, a square between is occupied, or the king is in, passes through or lands in check)".to_string(),
        );
    }
    let to = p.to_file.zip(p.to_rank).map(|(f, r)| Square::new(f, r));
    if p.long() {
        let from = Square::new(p.from_file.unwrap_or(0), p.from_rank.unwrap_or(0));
        match pos.piece_at(from) {
            None => return Refusal::NoSuchPiece(format!("{from} is empty")),
            Some(piece) if piece.color != us => {
                return Refusal::NoSuchPiece(format!(
                    "the piece on {from} is {}'s, and {side} is to move",
                    piece.color.name()
                ));
            }
            Some(piece) if !p.role_fits(piece.role) => {
                return Refusal::NoSuchPiece(format!(
                    "the piece on {from} is a {}, not a {}",
                    role_name(piece.role),
                    role_name(p.role.unwrap_or(Role::Pawn))
                ));
            }
            Some(_) => {}
        }
    }
    let role = p.role.unwrap_or(Role::Pawn);
    let candidates: Vec<Square> = Square::all()
        .filter(|&s| {
            pos.piece_at(s)
                .is_some_and(|pc| pc.color == us && p.role_fits(pc.role))
        })
        .filter(|&s| p.origin_fits(s))
        .collect();
    let whose = format!("{} {}", side.to_ascii_lowercase(), role_name(role));
    if candidates.is_empty() {
        let place = match (p.from_file, p.from_rank) {
            (Some(f), None) => format!(" on the {}-file", (b'a' + f) as char),
            (None, Some(r)) => format!(" on rank {}", r + 1),
            _ => String::new(),
        };
        return Refusal::NoSuchPiece(format!("{side} has no {}{place}", role_name(role)));
    }
    if p.promotion.is_some() && to.is_some_and(|t| t.relative_rank(us) != 7) {
        return Refusal::Illegal(format!(
            "a pawn promotes only on the last rank, and {} is not on it",
            to.map_or(String::new(), |t| t.to_string())
        ));
    }
    let reaching: Vec<Square> = candidates
        .iter()
        .copied()
        .filter(|&from| match to {
            Some(t) => reaches(pos, from, t),
            None => Square::all()
                .filter(|t| p.to_fits(*t))
                .any(|t| reaches(pos, from, t)),
        })
        .collect();
    let target = to.map_or_else(
        || format!("the {}-file", (b'a' + p.to_file.unwrap_or(0)) as char),
        |t| t.to_string(),
    );
    if reaching.is_empty() {
        return Refusal::NoSuchPiece(format!("no {whose} can move to {target}"));
    }
    let moving = pos.piece_at(reaching[0]).map_or(role, |pc| pc.role);
    if to.is_some_and(|t| p.promotion.is_none() && moving == Role::Pawn && t.relative_rank(us) == 7)
    {
        return Refusal::Illegal("a pawn reaching the last rank must promote".to_string());
    }
    Refusal::Illegal(format!(
        "it would leave the {} king in check",
        side.to_ascii_lowercase()
    ))
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Could the piece on `from` go to `to` if its own king did not matter?
/// (The geometry of its moves, the board's occupation, en passant on the
/// turn's first move.)
fn reaches(pos: &Position, from: Square, to: Square) -> bool {
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    let us = piece.color;
    let occ = pos.occupied();
    if pos.color_bb(us).contains(to) {
        return false;
    }
    match piece.role {
        Role::Pawn => {
            let one = from.relative_rank(us) < 7 && from.forward(us) == to && !occ.contains(to);
            let two = from.relative_rank(us) == 1
                && !occ.contains(from.forward(us))
                && from.forward(us).forward(us) == to
                && !occ.contains(to);
            let takes = attacks::pawn(us, from).contains(to)
                && (pos.color_bb(us.other()).contains(to)
                    || (pos.moves_made() == 0 && pos.ep_squares().contains(to)));
            one || two || takes
        }
        role => attacks::piece(role, from, occ).contains(to),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    fn pos(text: &str) -> Position {
        fen::parse(text, Rules::Italian).unwrap()
    }

    fn reads(p: &Position, texts: &[&str], uci: &str) {
        for text in texts {
            let mv = read_move(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(mv.uci(), uci, "{text}");
        }
    }

    fn refused(p: &Position, text: &str) -> Refusal {
        match read_move(p, text) {
            Ok(mv) => panic!("{text} was read as {}", mv.uci()),
            Err(r) => r,
        }
    }

    #[test]
    fn captures_with_x_with_colon_or_unmarked() {
        let p = pos("4k3/5p2/6P1/3p4/4P3/2N5/8/4K3 w - - 0 1");
        let pawn = [
            "exd5", "e:d5", "ed5", "ed", "e4xd5", "e4:d5", "e4d5", "Pexd5", "exd5!?",
        ];
        reads(&p, &pawn, "e4d5");
        reads(
            &p,
            &["Nxd5", "N:d5", "Nd5", "Nc3xd5", "Nc3-d5", "Nc3d5"],
            "c3d5",
        );
        // The check is the turn's only (last) move: allowed, marks ignored.
        reads(&p, &["g:f7", "gxf7+", "gf7", "g6f7", "gxf7++"], "g6f7");
    }

    #[test]
    fn promotions_in_every_spelling() {
        let p = pos("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 3");
        let knight = ["b8=N", "b8N", "b8(N)", "b8/N", "b7b8n", "b7-b8=N", "b8=n"];
        reads(&p, &knight, "b7b8n");
        reads(
            &p,
            &["bxa8=N", "bxa8N", "ba8(N)", "b:a8/N", "b7a8n"],
            "b7a8n",
        );
        // A queen or rook on b8 would check before the last move.
        assert_eq!(
            refused(&p, "b8=Q"),
            Refusal::CheckBeforeLast {
                index: 1,
                length: 3
            }
        );
        match refused(&p, "b8") {
            Refusal::Ambiguous(c) => assert_eq!(c, ["b8=N", "b8=B"]),
            other => panic!("{other}"),
        }
        assert!(matches!(refused(&p, "b7b8"), Refusal::Ambiguous(_)));
    }

    #[test]
    fn en_passant_marks() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let ep = [
            "exd6e.p.",
            "exd6ep",
            "exd6 e.p.",
            "ed6",
            "e5d6",
            "exd6",
            "e:d6e.p.",
        ];
        reads(&p, &ep[..2], "e5d6");
        reads(&p, &ep[3..], "e5d6");
        // A capture that is not en passant is refused with the mark.
        let q = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(
            refused(&q, "exd5e.p."),
            Refusal::Illegal("exd5 is not an en-passant capture".into())
        );
    }

    #[test]
    fn check_and_mate_marks_and_long_algebraic() {
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let texts = [
            "Ra8#", "Ra8+", "Ra8++", "Ra8mate", "a1a8", "Ra1-a8", "Ra1a8", "R1a8",
        ];
        reads(&p, &texts, "a1a8");
        let start = Position::startpos(Rules::Italian);
        reads(&start, &["e2e4", "e2-e4", "e4", "Pe4", "Pe2-e4"], "e2e4");
        reads(&start, &["Ng1-f3", "Ng1f3", "g1f3", "Nf3", "Ngf3"], "g1f3");
    }

    #[test]
    fn castling_with_letters_or_zeros() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 3");
        reads(&p, &["O-O", "0-0", "e1g1", "Ke1-g1", "O-O+"], "e1g1");
        reads(&p, &["O-O-O", "0-0-0", "e1c1"], "e1c1");
        let lost = pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 3");
        assert!(matches!(refused(&lost, "O-O"), Refusal::Illegal(why) if why.contains("castling")));
    }

    #[test]
    fn no_such_piece_names_what_is_missing() {
        let start = Position::startpos(Rules::Italian);
        let cases = [
            ("Nd4", "no such piece: no white knight can move to d4"),
            ("Qh5", "no such piece: no white queen can move to h5"),
            ("e3e4", "no such piece: e3 is empty"),
            (
                "e7e5",
                "no such piece: the piece on e7 is Black's, and White is to move",
            ),
            (
                "Bb1c2",
                "no such piece: the piece on b1 is a knight, not a bishop",
            ),
            ("cxd3", "no such piece: no white pawn can move to d3"),
        ];
        for (text, message) in cases {
            assert_eq!(refused(&start, text).to_string(), message, "{text}");
        }
        let bare = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert_eq!(
            refused(&bare, "Bc4").to_string(),
            "no such piece: White has no bishop"
        );
        assert_eq!(
            refused(&bare, "exd5").to_string(),
            "no such piece: White has no pawn on the e-file"
        );
    }

    #[test]
    fn ambiguous_names_the_candidates() {
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(refused(&p, "Nd2").to_string(), "ambiguous: Nbd2 or Nfd2");
        reads(&p, &["Nbd2", "Nb1d2", "Nb1-d2"], "b1d2");
    }

    #[test]
    fn illegal_says_why() {
        let pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert_eq!(
            refused(&pinned, "Nc3").to_string(),
            "illegal because it would leave the white king in check"
        );
        let start = Position::startpos(Rules::Italian);
        assert_eq!(
            refused(&start, "Nxf3").to_string(),
            "illegal because it is written as a capture, but Nf3 is not one"
        );
        let seventh = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert!(refused(&seventh, "e4=Q").to_string().contains("last rank"));
        assert_eq!(refused(&start, "Zz9"), Refusal::NotAMove);
        assert_eq!(refused(&start, "hello"), Refusal::NotAMove);
    }

    #[test]
    fn check_before_the_last_move_is_named_under_the_italian_rules() {
        let text = "4k3/8/8/8/8/8/8/R3K3 w - - 0 3";
        let italian = pos(text);
        assert_eq!(
            refused(&italian, "Ra8+").to_string(),
            "check before the last move: under the Italian rules only the last move of a turn may give check, and this is move 1 of 3"
        );
        let scottish = fen::parse(text, Rules::Scottish).unwrap();
        reads(&scottish, &["Ra8+"], "a1a8");
    }
}
