//! One test (or more) per numbered rule of `shared/rules/progressive-chess.md`,
//! on hand-built positions, for both rule sets. Each test is named after its rule.

use crescendo::chess::notation::parse_uci;
use crescendo::chess::status::{Status, can_finish_turn, status};
use crescendo::chess::{Color, Position, Rules, Square, fen, legal_moves};

const BOTH: [Rules; 2] = [Rules::Italian, Rules::Scottish];

fn pos(text: &str, rules: Rules) -> Position {
    fen::parse(text, rules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(p).iter().map(|m| m.uci()).collect();
    v.sort();
    v
}

fn is_legal(p: &Position, uci: &str) -> bool {
    moves(p).iter().any(|m| m == uci)
}

/// Plays UCI moves, panicking on an illegal one.
fn play(p: &mut Position, line: &str) {
    for t in line.split_whitespace() {
        let mv = parse_uci(p, t).unwrap_or_else(|e| panic!("{t} in {p}: {e}"));
        p.play(mv);
    }
}

#[test]
fn rule_01_growing_turns() {
    for rules in BOTH {
        let mut p = Position::startpos(rules);
        assert_eq!((p.side_to_move(), p.turn_length()), (Color::White, 1));
        play(&mut p, "e2e4");
        assert_eq!(
            (p.side_to_move(), p.turn_length(), p.moves_made()),
            (Color::Black, 2, 0)
        );
        // The same piece may move several times in a turn.
        play(&mut p, "d7d5 d5d4");
        assert_eq!((p.side_to_move(), p.turn_length()), (Color::White, 3));
        play(&mut p, "a2a3 a3a4 a4a5");
        assert_eq!((p.side_to_move(), p.turn_length()), (Color::Black, 4));
    }
}

#[test]
fn rule_02_own_king_never_in_check_mid_turn() {
    // The e2 rook is pinned by the e8 rook; mid-turn it may not leave the file.
    for rules in BOTH {
        let p = pos("k3r3/8/8/8/8/8/4R3/4K3 w - - 0 3 1", rules);
        assert!(!is_legal(&p, "e2d2"));
        assert!(is_legal(&p, "e2e5"));
        assert!(is_legal(&p, "e2e8") == (rules == Rules::Scottish || p.is_last_move()));
    }
}

#[test]
fn rule_03_check_at_turn_start_is_escaped_by_the_first_move_only() {
    for rules in BOTH {
        // Black checks along the e-file; White has three moves.
        let mut p = pos("4r1k1/8/8/8/8/8/P7/R3K3 w - - 0 3", rules);
        assert!(p.in_check());
        assert!(
            !is_legal(&p, "a2a3"),
            "the first move must escape the check"
        );
        play(&mut p, "e1d1");
        // After the escape every ordinary move is available again.
        assert!(!p.in_check());
        assert!(is_legal(&p, "a2a3"));
        assert!(is_legal(&p, "a1b1"));
    }
}

#[test]
fn rule_04_mate_is_check_with_no_legal_first_move() {
    for rules in BOTH {
        let p = pos("6k1/8/8/8/8/8/6PP/r6K w - - 0 3", rules);
        assert!(legal_moves(&p).is_empty());
        assert_eq!(
            status(&p),
            Status::Checkmate {
                winner: Color::Black
            }
        );
    }
}

#[test]
fn rule_05_stalemate_at_turn_start() {
    for rules in BOTH {
        let p = pos("1b3kr1/8/8/8/8/8/8/7K w - - 0 3", rules);
        assert_eq!(status(&p), Status::Stalemate);
    }
}

#[test]
fn rule_05_in_check_able_to_escape_but_not_to_finish_is_stalemate_not_mate() {
    // The only escape, hxg3, leaves White without a second move: the turn
    // cannot be made, so White is stalemated at its start already.
    for rules in BOTH {
        let mut p = pos("4k3/b7/8/8/6p1/6n1/6PP/5n1K w - - 0 3", rules);
        assert!(p.in_check());
        assert_eq!(moves(&p), vec!["h2g3"]);
        assert_eq!(status(&p), Status::Stalemate);
        play(&mut p, "h2g3");
        assert!(legal_moves(&p).is_empty());
        assert_eq!(status(&p), Status::Stalemate);
    }
}

#[test]
fn rule_05_stalemate_at_turn_start_when_every_sequence_gets_stuck() {
    for rules in BOTH {
        // a5a6 is White's only move, and after it White has none.
        let p = pos("8/p7/8/P7/8/8/5k2/5n1K w - - 0 3", rules);
        assert_eq!(moves(&p), vec!["a5a6"]);
        assert!(!can_finish_turn(&p));
        assert_eq!(status(&p), Status::Stalemate);
        // In the middle of a turn the same: two moves left, one possible.
        let mid = pos("8/p7/8/P7/8/8/5k2/5n1K w - - 0 3 1", rules);
        assert_eq!(status(&mid), Status::Stalemate);
        // A turn of one move is made by a5a6 alone.
        let one = pos("8/p7/8/P7/8/8/5k2/5n1K w - - 0 1", rules);
        assert!(can_finish_turn(&one));
        assert_eq!(status(&one), Status::Ongoing);
        let last = pos("8/p7/8/P7/8/8/5k2/5n1K w - - 0 3 2", rules);
        assert_eq!(status(&last), Status::Ongoing);
    }
}

#[test]
fn rule_05_a_turn_that_can_be_made_is_not_stalemate() {
    // As above without the f1 knight: the king can go to h2 and back, so all
    // five moves can be made and the game goes on.
    for rules in BOTH {
        let p = pos("8/p7/8/P7/8/8/5k2/7K w - - 0 5", rules);
        assert!(can_finish_turn(&p));
        assert_eq!(status(&p), Status::Ongoing);
    }
}

#[test]
fn rule_06_en_passant_with_two_targets_on_the_first_move_only() {
    for rules in BOTH {
        let mut p = pos("4k3/8/8/2pPp3/8/8/8/4K3 w - c6,e6 0 5", rules);
        assert!(is_legal(&p, "d5c6"));
        assert!(is_legal(&p, "d5e6"));
        play(&mut p, "e1d1");
        assert!(!is_legal(&p, "d5c6"));
        assert!(!is_legal(&p, "d5e6"));
    }
}

#[test]
fn rule_06_double_steps_open_en_passant_only_if_the_pawn_stays() {
    for rules in BOTH {
        let start = pos("4k3/8/8/8/8/8/4P1N1/K7 w - - 0 3", rules);
        let mut stays = start.clone();
        play(&mut stays, "e2e4 a1a2 a2a1");
        assert_eq!(stays.ep_squares(), Square::parse("e3").unwrap().bb());
        let mut moved_on = start.clone();
        play(&mut moved_on, "e2e4 e4e5 a1a2");
        assert!(moved_on.ep_squares().is_empty());
        let mut covered = start.clone();
        play(&mut covered, "e2e4 g2e3 a1a2");
        assert!(
            covered.ep_squares().is_empty(),
            "the passed square must be empty"
        );
        let mut uncovered = start;
        play(&mut uncovered, "e2e4 g2e3 e3g2");
        assert_eq!(uncovered.ep_squares(), Square::parse("e3").unwrap().bb());
    }
}

#[test]
fn rule_07_ten_quiet_turns_draw_unless_the_mover_mates() {
    for rules in BOTH {
        // King and rook cannot mate in three moves here.
        let no_mate = pos("4k3/8/8/8/8/8/8/R3K3 w - - 10 3", rules);
        assert_eq!(status(&no_mate), Status::TenQuietTurns);
        let nine = pos("4k3/8/8/8/8/8/8/R3K3 w - - 9 3", rules);
        assert_eq!(status(&nine), Status::Ongoing);
        // Ra2, Ra3, Ra8# (or Scottish Ra8# at once): play goes on.
        let mate = pos("7k/8/6K1/8/8/8/8/R7 w - - 10 3", rules);
        assert_eq!(status(&mate), Status::Ongoing);
    }
}

#[test]
fn rule_07_the_mate_exception_is_asked_again_at_every_later_turn() {
    for rules in BOTH {
        // Past ten quiet turns: still on while the mover can mate, a draw otherwise.
        for quiet in [11, 12, 15] {
            let mate = pos(&format!("7k/8/6K1/8/8/8/8/R7 w - - {quiet} 3"), rules);
            assert_eq!(status(&mate), Status::Ongoing, "{quiet}");
            let no_mate = pos(&format!("4k3/8/8/8/8/8/8/R3K3 w - - {quiet} 3"), rules);
            assert_eq!(status(&no_mate), Status::TenQuietTurns, "{quiet}");
        }
        // In play: White could mate at ten quiet turns, plays a quiet turn
        // instead, and at eleven Black (a lone king) cannot mate: a draw.
        let mut p = pos("7k/8/6K1/8/8/8/8/R7 b - - 9 2", rules);
        play(&mut p, "h8g8 g8h8");
        assert_eq!(p.quiet_turns(), 10);
        assert_eq!(status(&p), Status::Ongoing);
        play(&mut p, "a1b1 b1c1 c1d1");
        assert_eq!(p.quiet_turns(), 11);
        assert_eq!(status(&p), Status::TenQuietTurns);
    }
}

#[test]
fn rule_07_quiet_turn_counter() {
    for rules in BOTH {
        let mut p = pos("4k3/8/8/8/8/8/P7/R3K3 w - - 4 3", rules);
        play(&mut p, "a1b1");
        assert_eq!(p.quiet_turns(), 5, "the current turn counts in");
        play(&mut p, "b1c1 c1d1");
        assert_eq!(p.quiet_turns(), 5);
        play(&mut p, "e8f8 f8g8 g8h8 h8g8");
        assert_eq!(p.quiet_turns(), 6);
        play(&mut p, "d1d2 a2a3");
        assert_eq!(p.quiet_turns(), 0, "a pawn move resets");
        play(&mut p, "d2d3 d3d4 d4d5");
        assert_eq!(p.quiet_turns(), 0, "a turn with a pawn move is not quiet");
    }
}

#[test]
fn rule_08_dead_positions() {
    for rules in BOTH {
        for dead in [
            "4k3/8/8/8/8/8/8/4K3",
            "4k3/8/8/8/8/8/8/3NK3",
            "4k3/8/8/8/8/8/8/3BK3",
            "3bk3/8/8/8/8/8/8/4K3",
        ] {
            assert_eq!(
                status(&pos(&format!("{dead} w - - 0 3"), rules)),
                Status::DeadPosition,
                "{dead}"
            );
        }
        for alive in [
            "4k3/8/8/8/8/8/8/2NNK3",
            "3bk3/8/8/8/8/8/8/3BK3",
            "4k3/8/8/8/8/8/8/3RK3",
            "4k3/8/8/8/8/8/P7/4K3",
        ] {
            assert_eq!(
                status(&pos(&format!("{alive} w - - 0 3"), rules)),
                Status::Ongoing,
                "{alive}"
            );
        }
    }
}

#[test]
fn rule_09_no_repetition_turn_length_is_part_of_the_position() {
    for rules in BOTH {
        let a = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 3", rules);
        let b = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 5", rules);
        let c = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 5 1", rules);
        assert_ne!(a.key(), b.key(), "{rules}");
        assert_ne!(b.key(), c.key(), "{rules}");
        // The same board with the same side to move after four turns is
        // another position: the turn has grown from 1 to 5 moves.
        let mut p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", rules);
        let start = p.clone();
        play(&mut p, "e1d1 e8d8 d8e8 d1e1 a1a2 a2a1 e8d8 d8e8 e8d8 d8e8");
        assert_eq!(fen::to_fen(&p), "4k3/8/8/8/8/8/8/R3K3 w - - 4 5");
        assert_ne!(p.key(), start.key(), "{rules}");
        assert_ne!(p, start, "{rules}");
    }
}

#[test]
fn italian_10_check_only_on_the_last_move() {
    let cases = [
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 3", "a1a8", "direct check"),
        (
            "4k3/8/8/8/8/8/4B3/K3R3 w - - 0 3",
            "e2d3",
            "discovered check",
        ),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 3", "e1g1", "castling check"),
        ("7k/1P6/8/8/8/8/8/K7 w - - 0 3", "b7b8q", "promotion check"),
        (
            "8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 5",
            "e5d6",
            "en-passant check",
        ),
    ];
    for (text, mv, what) in cases {
        let first = pos(text, Rules::Italian);
        assert!(
            !is_legal(&first, mv),
            "{what}: {mv} must be illegal on the first move"
        );
        assert!(
            is_legal(&pos(text, Rules::Scottish), mv),
            "{what}: Scottish allows {mv}"
        );
    }
    // On the last move each is fine (en passant has no last-move case: first move only).
    for (text, mv) in [
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 3 2", "a1a8"),
        ("4k3/8/8/8/8/8/4B3/K3R3 w - - 0 3 2", "e2d3"),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 3 2", "e1g1"),
        ("7k/1P6/8/8/8/8/8/K7 w - - 0 3 2", "b7b8q"),
        ("8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"),
    ] {
        assert!(
            is_legal(&pos(text, Rules::Italian), mv),
            "{mv} as the last move"
        );
    }
    // Non-checking promotions stay legal mid-turn.
    let promo = pos("7k/1P6/8/8/8/8/8/K7 w - - 0 3", Rules::Italian);
    assert!(is_legal(&promo, "b7b8n") && is_legal(&promo, "b7b8b"));
}

#[test]
fn italian_11_escape_may_not_check_unless_the_turn_has_one_move() {
    let p = pos("k7/8/8/r6R/8/8/8/K7 w - - 0 3", Rules::Italian);
    assert_eq!(moves(&p), vec!["a1b1", "a1b2"]);
    let one_move_turn = pos("k7/8/8/r6R/8/8/8/K7 w - - 0 1", Rules::Italian);
    assert!(is_legal(&one_move_turn, "h5a5"));
}

#[test]
fn italian_12_italian_mate() {
    let p = pos("kr6/8/8/r6R/8/8/8/K7 w - - 0 3", Rules::Italian);
    assert_eq!(
        status(&p),
        Status::ItalianMate {
            winner: Color::Black
        }
    );
}

#[test]
fn italian_13_mid_turn_stalemate_counts_early_checks_as_unavailable() {
    let mid = pos("1b3kr1/8/4P3/8/8/8/8/7K w - - 0 3 1", Rules::Italian);
    assert_eq!(status(&mid), Status::Stalemate);
    let last = pos("1b3kr1/8/4P3/8/8/8/8/7K w - - 0 3 2", Rules::Italian);
    assert_eq!(moves(&last), vec!["e6e7"]);
}

#[test]
fn scottish_10_a_check_ends_the_turn_and_the_next_turn_is_full() {
    let mut p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 3", Rules::Scottish);
    play(&mut p, "a1a8");
    assert_eq!(
        (p.side_to_move(), p.turn_length(), p.moves_made()),
        (Color::Black, 4, 0)
    );
    assert!(p.in_check());
    let mid = pos("1b3kr1/8/4P3/8/8/8/8/7K w - - 0 3 1", Rules::Scottish);
    assert_eq!(moves(&mid), vec!["e6e7"]);
}

#[test]
fn scottish_11_escape_may_give_check() {
    let mut p = pos("k7/8/8/r6R/8/8/8/K7 w - - 0 3", Rules::Scottish);
    assert!(is_legal(&p, "h5a5"));
    play(&mut p, "h5a5");
    assert_eq!(p.side_to_move(), Color::Black);
}

#[test]
fn scottish_12_no_italian_mate() {
    let p = pos("kr6/8/8/r6R/8/8/8/K7 w - - 0 3", Rules::Scottish);
    assert_eq!(status(&p), Status::Ongoing);
    assert_eq!(moves(&p), vec!["h5a5"]);
}
