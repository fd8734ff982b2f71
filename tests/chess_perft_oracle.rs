//! Ordinary-chess move generation checked against the shakmaty crate on the
//! standard perft positions, node for node and split by first move.

use crescendo::chess::{Rules, fen, perft};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// The standard positions, each as deep as its whole count runs in about a
/// second or less in release mode (the split by first move goes one ply less).
const POSITIONS: [(&str, u32); 6] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        5,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
    ),
];

fn oracle(fen: &str) -> Chess {
    let setup: Fen = fen.parse().expect("oracle parses the FEN");
    setup
        .into_position(CastlingMode::Standard)
        .expect("oracle accepts the position")
}

#[test]
fn chess_perft_matches_the_oracle_on_standard_positions() {
    for (text, depth) in POSITIONS {
        let ours = fen::parse(text, Rules::Chess).unwrap();
        let theirs = oracle(text);
        let expected = shakmaty::perft(&theirs, depth);
        assert_eq!(
            perft::chess_perft(&ours, depth),
            expected,
            "{text} depth {depth}"
        );
    }
}

#[test]
fn chess_divide_matches_the_oracle_move_by_move() {
    for (text, depth) in POSITIONS {
        let ours = fen::parse(text, Rules::Chess).unwrap();
        let theirs = oracle(text);
        let mut expected: Vec<(String, u64)> = theirs
            .legal_moves()
            .iter()
            .map(|m| {
                let mut child = theirs.clone();
                child.play_unchecked(*m);
                (
                    m.to_uci(CastlingMode::Standard).to_string(),
                    shakmaty::perft(&child, depth - 2),
                )
            })
            .collect();
        let mut got: Vec<(String, u64)> = perft::chess_divide(&ours, depth - 1)
            .into_iter()
            .map(|(m, n)| (m.uci(), n))
            .collect();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{text}");
    }
}
