//! White-box soundness tests of the bounds: against brute force, along
//! every mating line of positions from aggressive games, the filters and
//! bounds never exclude a mate (and still exclude something).

use super::BoundCache;
use crate::chess::status::{brute_force_mate, mating_lines};
use crate::chess::{Move, MoveList, Position, Rules, fen, legal_moves};
use rand::SeedableRng;
use rand::rngs::StdRng;

#[path = "../../../tests/support/games.rs"]
mod games;

/// One of `moves` (not empty), preferring those that land near the enemy
/// king: aggressive games reach mating positions often.
pub(super) fn towards_enemy_king(pos: &Position, moves: &MoveList, rng: &mut StdRng) -> Move {
    games::towards_enemy_king(pos, moves, rng, 12)
}

/// Visits the positions of aggressive games (both rule sets, `games` each
/// from the rng seeded with `seed`, turns up to `max_len` moves) with their
/// legal moves and a bound cache kept per rule set.
fn aggressive_games(
    seed: u64,
    games: usize,
    max_len: u32,
    mut visit: impl FnMut(&Position, &MoveList, &mut BoundCache),
) {
    for rules in [Rules::Italian, Rules::Scottish] {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut cache = BoundCache::default();
        for _ in 0..games {
            let mut pos = Position::startpos(rules);
            while pos.turn_length() <= max_len {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                visit(&pos, &moves, &mut cache);
                pos.play(towards_enemy_king(&pos, &moves, &mut rng));
            }
        }
    }
}

/// The second-last-move filter never rejects a move after which the last
/// move mates (checked against brute force on positions with two moves left
/// from aggressive games, both rule sets).
#[test]
fn last_two_filter_is_sound() {
    use super::LastTwo;
    use crate::chess::{Bitboard, MoveKind, Role};
    let mut kept_mates = 0;
    let mut rejected = 0;
    let mut unreached = 0;
    let mut real_cut = 0;
    aggressive_games(31, 300, 6, |pos, moves, cache| {
        if pos.moves_left() == 2 {
            let filter = LastTwo::new(pos);
            let empty_board_filter = LastTwo::on_empty_board(pos);
            for &mv in moves.iter() {
                let mut child = pos.clone();
                if child.play(mv).turn_ended {
                    continue;
                }
                let role = child.piece_at(mv.to()).map_or(Role::Pawn, |p| p.role);
                let pass = filter.may_mate_after(
                    pos,
                    cache,
                    (mv.from(), mv.to()),
                    role,
                    mv.kind() == MoveKind::Castle,
                );
                let mates = brute_force_mate(&child).is_some();
                assert!(pass || !mates, "{} then {mv}", fen::to_fen(pos));
                // The last move on the real board, after the empty board's test.
                let reaches = filter.last_move_reaches(pos, cache, mv, role, Bitboard::ALL);
                assert!(reaches || !mates, "{} then {mv}: reach", fen::to_fen(pos));
                let empty_board =
                    empty_board_filter.last_move_reaches(pos, cache, mv, role, Bitboard::ALL);
                assert!(
                    empty_board || !mates,
                    "{} then {mv}: empty board",
                    fen::to_fen(pos)
                );
                assert!(
                    empty_board || !reaches,
                    "{} then {mv}: real board",
                    fen::to_fen(pos)
                );
                kept_mates += usize::from(mates);
                rejected += usize::from(!pass);
                unreached += usize::from(pass && !empty_board);
                real_cut += usize::from(pass && empty_board && !reaches);
            }
        }
    });
    assert!(
        kept_mates > 20 && rejected > 1000 && unreached > 1000 && real_cut > 500,
        "{kept_mates} mates kept, {rejected} rejected, {unreached} more not reached, \
         {real_cut} more on the real board"
    );
}

/// Castling near the end: the second-last-move filter keeps every line
/// that mates with castling (last: the king and rook cover from where they
/// land and the rook checks; or second-last), both sides, both colours;
/// and where castling cannot check, a king or rook that may castle no
/// longer lets every move through.
#[test]
fn last_two_filter_keeps_castling_mates_and_cuts_the_rest() {
    use super::LastTwo;
    use crate::chess::{Bitboard, MoveKind, castle_for};
    let mut cache = BoundCache::default();
    for rules in [Rules::Italian, Rules::Scottish] {
        for f in [
            "8/8/4p1p1/4pkp1/4p1p1/8/P7/R3K2R w KQ - 0 2",
            "8/8/4p1p1/4pkp1/4p1p1/8/P7/R3K3 w Q - 0 2",
            "r3k2r/p7/8/4P1P1/4PKP1/4P1P1/8/8 b kq - 0 2",
        ] {
            let pos = fen::parse(f, rules).expect("test FEN");
            let filter = LastTwo::new(&pos);
            let lines = all_mating_lines(&pos);
            let castling = lines
                .iter()
                .filter(|l| l.iter().any(|m| m.kind() == MoveKind::Castle))
                .count();
            assert!(castling > 0, "{f}: no mate with castling");
            for line in &lines {
                // (A Scottish check ends the turn at once: no filter.)
                let [first, last] = line[..] else {
                    assert!(rules == Rules::Scottish && line.len() == 1, "{f}: {line:?}");
                    continue;
                };
                let role = pos.role_after(first);
                // (Castling moves the rook too.)
                let last_movers = match castle_for(last.from(), last.to()) {
                    Some(c) => c.king_from.bb() | c.rook_from.bb(),
                    None => last.from().bb(),
                };
                for movable in [Bitboard::ALL, last_movers] {
                    assert!(
                        filter.may_mate_after_movable(
                            &pos,
                            &mut cache,
                            (first.from(), first.to()),
                            role,
                            first.kind() == MoveKind::Castle,
                            movable,
                        ) && filter.last_move_reaches(&pos, &mut cache, first, role, movable),
                        "{f}: {line:?}"
                    );
                }
            }
        }
        // No mate: the enemy king's own pawns block every check, castling
        // gives none. Every move but castling is cut: a king or rook that
        // may castle let them all through, and our king moving last
        // whenever the rest was covered on the empty board (after Rb1,
        // which "covers" b5 through the pawn on b4).
        let f = "8/8/ppp5/pkp5/ppp5/8/P7/R3K2R w KQ - 0 2";
        let pos = fen::parse(f, rules).expect("test FEN");
        let filter = LastTwo::new(&pos);
        let mut cut = 0;
        for &mv in legal_moves(&pos).iter() {
            if mv.kind() != MoveKind::Castle {
                let role = pos.role_after(mv);
                let kept = filter.last_move_reaches(&pos, &mut cache, mv, role, Bitboard::ALL);
                assert!(!kept, "{f}: {mv} let through");
                cut += 1;
            }
        }
        assert_eq!(
            cut, 18,
            "{f}: a pawn move, five king steps, twelve rook moves"
        );
    }
}

/// Every mating line of the rest of the turn (no pruning).
fn all_mating_lines(pos: &Position) -> Vec<Vec<Move>> {
    let mut lines = Vec::new();
    mating_lines(pos, |line| {
        lines.push(line.to_vec());
        false
    });
    lines
}

/// The bounds of the restricted passes (only some pieces may move, at most
/// so many more may start) never exclude a mate that keeps to the
/// restriction: along every mating line of positions from aggressive games
/// (both rule sets), with the pieces the line moves as the allowed ones.
#[test]
fn restricted_bounds_keep_every_mate() {
    use super::{LastTwo, lower_bound_movable};
    use crate::chess::castle_for;
    use crate::chess::{Bitboard, MoveKind, Square};
    let mut lines_checked = 0;
    let mut rejected = 0;
    aggressive_games(41, 50, 5, |pos, _, cache| {
        let left = pos.moves_left();
        if (2..=4).contains(&left) {
            let lines = all_mating_lines(pos);
            for line in lines.iter().take(30) {
                // The (from, to) steps of each move: castling moves two pieces.
                let steps = |mv: crate::chess::Move| -> Vec<(Square, Square)> {
                    if mv.kind() == MoveKind::Castle {
                        let c = castle_for(mv.from(), mv.to()).expect("castling");
                        vec![(c.king_from, c.king_to), (c.rook_from, c.rook_to)]
                    } else {
                        vec![(mv.from(), mv.to())]
                    }
                };
                // The start squares of the line's moving pieces, kept
                // up to date as the line is replayed.
                let mut movers: Vec<Square> = Vec::new();
                let mut seen: Vec<Square> = Vec::new();
                for &mv in line {
                    for (from, to) in steps(mv) {
                        match seen.iter().position(|&s| s == from) {
                            Some(i) => seen[i] = to,
                            None => {
                                movers.push(from);
                                seen.push(to);
                            }
                        }
                    }
                }
                let total = movers.len() as u32;
                let mut p = pos.clone();
                // The squares of the pieces moved so far.
                let mut cur: Vec<Square> = Vec::new();
                for (j, &mv) in line.iter().enumerate() {
                    let rest = p.moves_left();
                    let moved = cur.iter().fold(Bitboard::EMPTY, |b, s| b | s.bb());
                    let every = movers.iter().fold(Bitboard::EMPTY, |b, s| b | s.bb());
                    let recruits = total - cur.len() as u32;
                    let f = fen::to_fen(&p);
                    assert!(
                        lower_bound_movable(&p, rest, cache, moved, recruits) <= rest,
                        "{f}: line {line:?} at {j}, {recruits} recruits"
                    );
                    assert!(
                        lower_bound_movable(&p, rest, cache, every, 0) <= rest,
                        "{f}: line {line:?} at {j}, movers fixed"
                    );
                    let mut next = p.clone();
                    let ended = next.play(mv).turn_ended;
                    // The piece of the last move, after this one.
                    if rest == 2 && !ended {
                        let last = line[j + 1];
                        let role = p.role_after(mv);
                        let filter = LastTwo::new(&p);
                        let pass = filter.may_mate_after_movable(
                            &p,
                            cache,
                            (mv.from(), mv.to()),
                            role,
                            mv.kind() == MoveKind::Castle,
                            last.from().bb(),
                        );
                        assert!(pass, "{f}: last two of {line:?}");
                        let reaches =
                            filter.last_move_reaches(&p, cache, mv, role, last.from().bb());
                        assert!(reaches, "{f}: last two of {line:?}, reach");
                    }
                    // Advance the restriction and the movers' squares.
                    for (from, to) in steps(mv) {
                        match cur.iter().position(|&s| s == from) {
                            Some(i) => cur[i] = to,
                            None => cur.push(to),
                        }
                        if let Some(i) = movers.iter().position(|&s| s == from) {
                            movers[i] = to;
                        }
                    }
                    p = next;
                }
                lines_checked += 1;
            }
            // The restriction also excludes: one fixed piece less.
            if lines.is_empty() && lower_bound_movable(pos, left, cache, Bitboard::EMPTY, 1) > left
            {
                rejected += 1;
            }
        }
    });
    assert!(
        lines_checked > 1000 && rejected > 10,
        "{lines_checked} lines checked, {rejected} rejected"
    );
}

/// The bound with our own pieces in the way (end squares and lines to the
/// targets they must leave, one-move paths they must open) never exceeds the
/// moves a mate really takes: along every mating line of positions from
/// aggressive games (both rule sets, other games than the test above), at
/// each move, with the moves left as the cap. Also counts the positions
/// without a mate where the bound proves it, so the test notices if the
/// bound stops excluding anything.
#[test]
fn bound_with_our_pieces_in_the_way_keeps_every_mate() {
    use super::lower_bound_with;
    let mut prefixes = 0;
    let mut excluded = 0;
    aggressive_games(53, 120, 5, |pos, _, cache| {
        let left = pos.moves_left();
        if (2..=3).contains(&left) {
            let lines = all_mating_lines(pos);
            for line in &lines {
                let mut p = pos.clone();
                for &mv in line {
                    let rest = p.moves_left();
                    assert!(
                        lower_bound_with(&p, rest, cache) <= rest,
                        "{}: line {line:?}",
                        fen::to_fen(&p)
                    );
                    prefixes += 1;
                    p.play(mv);
                }
            }
            if lines.is_empty() && lower_bound_with(pos, left, cache) > left {
                excluded += 1;
            }
        }
    });
    assert!(
        prefixes > 10_000 && excluded > 0,
        "{prefixes} line prefixes checked, {excluded} positions excluded"
    );
}

/// The last-move filters (`LastOne`, and `LastTwo::may_mate_after_two` from
/// the node before) never reject a mating move: along every mating line of
/// positions from aggressive games (both rule sets), the line's last move
/// passes them. Also counts the checks it rejects, so
/// the test notices if it stops rejecting anything.
#[test]
fn last_move_filter_keeps_every_mate() {
    use super::{LastOne, LastTwo};
    use crate::chess::generate_checks;
    use crate::chess::{MoveKind, Role};
    let (mut mates, mut rejected, mut pairs) = (0, 0, 0);
    aggressive_games(67, 120, 5, |pos, _, cache| {
        if (1..=3).contains(&pos.moves_left()) {
            let lines = all_mating_lines(pos);
            for line in &lines {
                let mut p = pos.clone();
                for (j, &mv) in line.iter().enumerate() {
                    // The filter of the node two moves before the end,
                    // with the line's last two moves.
                    if p.moves_left() == 2 && j + 1 < line.len() && mv.kind() != MoveKind::Castle {
                        let two = LastTwo::new_cached(&p, cache);
                        let last = line[j + 1];
                        let mut q = p.clone();
                        q.play(mv);
                        let pass = two.may_mate_after_two(
                            cache,
                            (mv.from(), mv.to()),
                            q.piece_at(mv.to()).map_or(Role::Pawn, |x| x.role),
                            (last.from(), last.to()),
                            q.role_after(last),
                            last.kind() == MoveKind::Castle,
                        );
                        assert!(pass, "{}: two of line {line:?}", fen::to_fen(&p));
                        pairs += 1;
                    }
                    if p.moves_left() == 1 {
                        let filter = LastOne::new_cached(&p, cache);
                        let pass = filter.may_mate_after(
                            cache,
                            (mv.from(), mv.to()),
                            p.role_after(mv),
                            mv.kind() == MoveKind::Castle,
                        );
                        assert!(pass, "{}: line {line:?}", fen::to_fen(&p));
                        mates += 1;
                    }
                    p.play(mv);
                }
            }
            if pos.moves_left() == 1 {
                let filter = LastOne::new_cached(pos, cache);
                let mut checks = MoveList::new();
                generate_checks(pos, &mut checks);
                for &mv in checks.iter() {
                    let pass = filter.may_mate_after(
                        cache,
                        (mv.from(), mv.to()),
                        pos.role_after(mv),
                        mv.kind() == MoveKind::Castle,
                    );
                    rejected += u32::from(!pass);
                }
            }
        }
    });
    eprintln!("{mates} mating moves and {pairs} last pairs checked, {rejected} checks rejected");
    assert!(
        mates > 1000 && pairs > 1000 && rejected > 100,
        "{mates} mating moves and {pairs} last pairs checked, {rejected} checks rejected"
    );
}

/// A flight is excused only if our king can end behind the enemy king on
/// the enemy slider's line and not next to the enemy king: with the white
/// bishop on b4 and the white king on d2, the only square behind is e1,
/// next to d2 (this position has no mate: sermate-sparse s014); with the
/// white king on c3, e1 is two squares behind and Black's king reaches it.
#[test]
fn flights_are_excused_only_from_behind_and_not_next_to_the_king() {
    use super::targets::excused_flights;
    use crate::chess::{Color, Square};
    let excused = |f: &str, king: Square| {
        let pos = fen::parse(f, Rules::Italian).expect("fen");
        excused_flights(&pos, Color::Black, king, pos.moves_left())
    };
    let d2 = Square::parse("d2").expect("square");
    let c3 = Square::parse("c3").expect("square");
    assert!(excused("3k4/8/P2P1P2/1p6/1B4q1/5R1R/3K4/1B6 b - - 0 7", d2).is_empty());
    assert!(excused("3k4/8/P2P1P2/1p6/1B4q1/2K2R1R/8/1B6 b - - 0 7", c3).nonempty());
}
