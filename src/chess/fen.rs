//! Progressive FEN: parse and print (see the rules file, "Position notation").
//!
//! `<placement> <side> <castling> <en-passant> <quiet-turns> <turn-length> [<moves-made>]`

use super::bitboard::{Bitboard, Color, Piece, Role, Square};
use super::position::{BLACK_OO, BLACK_OOO, CASTLES, Position, WHITE_OO, WHITE_OOO};
use super::rules::Rules;
use std::fmt;

/// The start position (the same text as in ordinary chess).
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The longest turn the engine handles, wherever a position comes from (a
/// FEN, a `position ... moves` list, an opening, a game record). The mate
/// finder and the search recurse once per move of a turn (about 2 KB of
/// stack each), so this bounds their depth well within the 64 MiB stacks of
/// the search threads; a real game ends hundreds of turns before it.
pub const MAX_TURN_LENGTH: u32 = 10_000;

/// The one check of [`MAX_TURN_LENGTH`]: every reader of positions calls it,
/// the FEN parser for the turn-length field and the move-list readers each
/// time a turn ends, so that whatever the engine prints it also reads.
pub fn check_turn_length(turn_length: u32) -> Result<(), String> {
    if turn_length > MAX_TURN_LENGTH {
        return Err(format!(
            "a turn length of {turn_length} is longer than the engine handles (at most {MAX_TURN_LENGTH})"
        ));
    }
    Ok(())
}

/// Why a FEN was rejected; names the field and the offending text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN {} field: {}", self.field, self.message)
    }
}

impl std::error::Error for FenError {}

fn err(field: &'static str, message: impl Into<String>) -> FenError {
    FenError {
        field,
        message: message.into(),
    }
}

/// Parses a progressive FEN under `rules`. Under [`Rules::Chess`] the last
/// two fields are read as in ordinary FEN (halfmove clock, fullmove number)
/// and every turn has one move.
pub fn parse(text: &str, rules: Rules) -> Result<Position, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let allowed = if rules == Rules::Chess { 4..=6 } else { 6..=7 };
    if !allowed.contains(&fields.len()) {
        return Err(err(
            "count",
            format!(
                "expected {} to {} space-separated fields, found {}",
                allowed.start(),
                allowed.end(),
                fields.len()
            ),
        ));
    }
    let mut pos = Position::empty(rules);
    parse_placement(&mut pos, fields[0])?;
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(err("side", format!("'{other}' is not 'w' or 'b'"))),
    };
    let castling = parse_castling(&pos, fields[2])?;
    let number = |i: usize, name: &'static str, default: u32| -> Result<u32, FenError> {
        match fields.get(i) {
            None => Ok(default),
            Some(t) => t
                .parse::<u32>()
                .map_err(|_| err(name, format!("'{t}' is not a non-negative number"))),
        }
    };
    let quiet = number(4, "quiet-turns", 0)?;
    let mut turn_length = number(5, "turn-length", 1)?;
    let moves_made = number(6, "moves-made", 0)?;
    if rules == Rules::Chess {
        turn_length = 1;
    }
    if turn_length == 0 {
        return Err(err("turn-length", "must be at least 1"));
    }
    check_turn_length(turn_length).map_err(|e| err("turn-length", e))?;
    if moves_made >= turn_length {
        return Err(err(
            "moves-made",
            format!("{moves_made} is not below the turn length {turn_length}"),
        ));
    }
    let ep = parse_ep(&pos, fields[3], side, moves_made)?;
    pos.set_state(side, castling, ep, quiet, turn_length, moves_made);
    validate(&pos)?;
    Ok(pos)
}

fn parse_placement(pos: &mut Position, text: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(
            "placement",
            format!("'{text}' has {} ranks, expected 8", ranks.len()),
        ));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as u8;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 8 {
                    pos.put(Square::new(file, rank), piece);
                }
                file += 1;
            } else {
                return Err(err(
                    "placement",
                    format!("unexpected character '{c}' in rank {}", rank + 1),
                ));
            }
            if file > 8 {
                return Err(err(
                    "placement",
                    format!("rank {} has more than 8 squares", rank + 1),
                ));
            }
        }
        if file != 8 {
            return Err(err(
                "placement",
                format!("rank {} has {file} squares, expected 8", rank + 1),
            ));
        }
    }
    for color in Color::BOTH {
        let kings = pos.pieces(color, Role::King).count();
        if kings != 1 {
            return Err(err(
                "placement",
                format!("{} has {kings} kings, expected exactly 1", color.name()),
            ));
        }
    }
    // Not a chess limit but ours: position identities pack 32 pieces.
    if pos.occupied().count() > 32 {
        return Err(err("placement", "more than 32 pieces on the board"));
    }
    if (pos.role_bb(Role::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).nonempty() {
        return Err(err("placement", "a pawn stands on the first or last rank"));
    }
    Ok(())
}

fn parse_castling(pos: &Position, text: &str) -> Result<u8, FenError> {
    if text == "-" {
        return Ok(0);
    }
    let mut rights = 0u8;
    for c in text.chars() {
        let right = match c {
            'K' => WHITE_OO,
            'Q' => WHITE_OOO,
            'k' => BLACK_OO,
            'q' => BLACK_OOO,
            _ => {
                return Err(err(
                    "castling",
                    format!("unexpected character '{c}' in '{text}'"),
                ));
            }
        };
        if rights & right != 0 {
            return Err(err("castling", format!("'{c}' appears twice in '{text}'")));
        }
        let castle = CASTLES
            .iter()
            .find(|k| k.right == right)
            .expect("four castlings");
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let king_home = pos.piece_at(castle.king_from)
            == Some(Piece {
                color,
                role: Role::King,
            });
        let rook_home = pos.piece_at(castle.rook_from)
            == Some(Piece {
                color,
                role: Role::Rook,
            });
        if !king_home || !rook_home {
            return Err(err(
                "castling",
                format!(
                    "'{c}' needs the king on {} and a rook on {}",
                    castle.king_from, castle.rook_from
                ),
            ));
        }
        rights |= right;
    }
    Ok(rights)
}

fn parse_ep(
    pos: &Position,
    text: &str,
    side: Color,
    moves_made: u32,
) -> Result<Bitboard, FenError> {
    let mut ep = Bitboard::EMPTY;
    if text == "-" {
        return Ok(ep);
    }
    // At turn start the targets are the opponent's; later, the mover's own.
    let double_stepper = if moves_made == 0 { side.other() } else { side };
    let target_rank = if double_stepper == Color::White { 2 } else { 5 };
    for part in text.split(',') {
        let sq = Square::parse(part)
            .ok_or_else(|| err("en-passant", format!("'{part}' is not a square")))?;
        if sq.rank() != target_rank {
            return Err(err(
                "en-passant",
                format!(
                    "{sq} is not on rank {} (squares passed over by {}'s double steps)",
                    target_rank + 1,
                    double_stepper.name()
                ),
            ));
        }
        if ep.contains(sq) {
            return Err(err("en-passant", format!("{sq} appears twice")));
        }
        // Mid-turn the list only remembers the mover's double steps: the pawn
        // may have moved on and a piece may stand on the passed square for a
        // while (both are looked at when the turn ends), so only the rank is
        // checked. At turn start the target must be a real one.
        if moves_made == 0 {
            if pos.piece_at(sq).is_some() {
                return Err(err("en-passant", format!("{sq} is not empty")));
            }
            let pawn = Piece {
                color: double_stepper,
                role: Role::Pawn,
            };
            if pos.piece_at(sq.forward(double_stepper)) != Some(pawn) {
                return Err(err(
                    "en-passant",
                    format!("no {} pawn in front of {sq}", double_stepper.name()),
                ));
            }
        }
        ep.set(sq);
    }
    Ok(ep)
}

fn validate(pos: &Position) -> Result<(), FenError> {
    let us = pos.side_to_move();
    let them = us.other();
    if pos.is_attacked(pos.king_square(them), us, pos.occupied()) {
        return Err(err(
            "side",
            format!("{} is not to move but is in check", them.name()),
        ));
    }
    if pos.moves_made() > 0 && pos.in_check() {
        return Err(err(
            "moves-made",
            format!("{} is in check in the middle of its own turn", us.name()),
        ));
    }
    Ok(())
}

/// Prints a position as progressive FEN (seven fields only when moves were made).
pub fn to_fen(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match pos.piece_at(Square::new(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.side_to_move().letter());
    out.push(' ');
    let rights = pos.castling_rights();
    if rights == 0 {
        out.push('-');
    }
    for (bit, c) in [
        (WHITE_OO, 'K'),
        (WHITE_OOO, 'Q'),
        (BLACK_OO, 'k'),
        (BLACK_OOO, 'q'),
    ] {
        if rights & bit != 0 {
            out.push(c);
        }
    }
    out.push(' ');
    let ep: Vec<String> = pos.ep_squares().map(|s| s.to_string()).collect();
    out.push_str(if ep.is_empty() { "-" } else { "" });
    out.push_str(&ep.join(","));
    out.push_str(&format!(" {} {}", pos.quiet_turns(), pos.turn_length()));
    if pos.moves_made() > 0 {
        out.push_str(&format!(" {}", pos.moves_made()));
    }
    out
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trips() {
        for fen in [
            START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/2P3P1/8/PP1PPP1P/RNBQKBNR b KQkq c3,g3 0 4",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 3 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 7 12 5",
            // Mid-turn: Black's a7a5 passed a6, where a knight now stands for a while.
            "r1bqkbnr/2pp1ppp/n7/pp2p3/P5P1/5N2/1PPPPPBP/RNBQK2R b KQkq a6 0 4 2",
        ] {
            let pos = parse(fen, Rules::Italian).unwrap();
            assert_eq!(to_fen(&pos), fen);
            assert_eq!(pos.key(), pos.compute_key());
        }
    }

    #[test]
    fn fen_round_trips_along_random_games() {
        let (mut starts, mut middles) = (0, 0);
        for (seed, rules) in [(1, Rules::Italian), (2, Rules::Scottish)] {
            for pos in crate::chess::random_game_positions(rules, 120, 24, seed) {
                let text = to_fen(&pos);
                let back = parse(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(to_fen(&back), text);
                assert_eq!(back, pos, "{text}");
                if pos.moves_made() == 0 {
                    starts += 1;
                } else {
                    middles += 1;
                }
            }
        }
        assert!(starts > 2_000 && middles > 20_000, "{starts} {middles}");
    }

    #[test]
    fn fen_errors_name_the_field() {
        let cases = include_str!("../../tests/data/bad_fens.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_once('\t').map(|(field, fen)| (fen, field)).unwrap());
        for (fen, field) in cases {
            let e = parse(fen, Rules::Italian).expect_err(fen);
            assert_eq!(e.field, field, "{fen}: {e}");
        }
    }

    #[test]
    fn chess_rules_read_the_fullmove_field_as_a_plain_counter() {
        let pos = parse(
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            Rules::Chess,
        )
        .unwrap();
        assert_eq!(pos.turn_length(), 1);
    }
}
