//! The mate finder's fast generators against plain generation: the checking
//! moves (`generate_checks`) and the early-exit "any legal move?"
//! (`has_legal_move`), on thousands of positions from random and aggressive
//! progressive games under both rule sets.

use crescendo::chess::{Move, MoveList, Position, Rules, fen, legal_moves};
use crescendo::chess::{generate_checks, generate_king_safe, has_legal_move};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

#[path = "support/games.rs"]
mod games;

/// Positions met in random games; `aggressive` games prefer moves landing
/// near the enemy king, so checks and mates are common.
fn positions(rules: Rules, seed: u64, games: usize, aggressive: bool) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos(rules);
        while pos.turn_length() <= 7 {
            out.push(pos.clone());
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let mv = if aggressive {
                games::towards_enemy_king(&pos, &moves, &mut rng, 16)
            } else {
                moves.as_slice()[rng.random_range(0..moves.len())]
            };
            pos.play(mv);
        }
    }
    out
}

/// The checking moves by playing every king-safe move and looking at the
/// enemy king afterwards.
fn checks_by_playing(pos: &Position) -> Vec<String> {
    let us = pos.side_to_move();
    let mut all = MoveList::new();
    generate_king_safe(pos, &mut all);
    let mut out: Vec<String> = all
        .iter()
        .filter(|&&mv| {
            let mut child = pos.clone();
            child.play(mv);
            let ek = child.king_square(us.other());
            child.is_attacked(ek, us, child.occupied())
        })
        .map(|m| m.uci())
        .collect();
    out.sort();
    out
}

#[test]
fn generate_checks_matches_playing_every_move() {
    let mut checked = 0;
    let mut with_checks = 0;
    for rules in [Rules::Italian, Rules::Scottish] {
        for (seed, aggressive) in [(11, false), (12, true)] {
            for pos in positions(rules, seed, 120, aggressive) {
                if !pos.check_allowed() {
                    continue;
                }
                let mut list = MoveList::new();
                generate_checks(&pos, &mut list);
                let mut ours: Vec<String> = list.iter().map(|m| m.uci()).collect();
                ours.sort();
                let reference = checks_by_playing(&pos);
                assert_eq!(ours, reference, "{}", fen::to_fen(&pos));
                checked += 1;
                with_checks += usize::from(!reference.is_empty());
            }
        }
    }
    assert!(
        checked > 1000 && with_checks > 300,
        "{checked} positions, {with_checks} with checks"
    );
}

#[test]
fn has_legal_move_matches_generation() {
    let mut checked = 0;
    let mut stuck = 0;
    let mut in_check = 0;
    for rules in [Rules::Italian, Rules::Scottish] {
        for (seed, aggressive) in [(21, false), (22, true)] {
            for pos in positions(rules, seed, 150, aggressive) {
                let expected = !legal_moves(&pos).is_empty();
                assert_eq!(has_legal_move(&pos), expected, "{}", fen::to_fen(&pos));
                checked += 1;
                stuck += usize::from(!expected);
                in_check += usize::from(pos.in_check());
            }
        }
    }
    assert!(
        checked > 2000 && stuck > 0 && in_check > 50,
        "{checked} positions, {stuck} stuck, {in_check} in check"
    );
}

#[test]
fn italian_mate_counts_checking_escapes_as_illegal() {
    // Back-rank check by Ra8; the only escape is Qxa8, which checks the
    // white king on a2 along the a-file: not allowed on the first of two
    // moves under the Italian rules (an Italian mate), fine under the Scottish.
    let p = fen::parse("R5k1/5ppp/8/8/8/8/K7/7q b - - 0 2", Rules::Italian).expect("fen");
    assert!(p.in_check());
    assert!(!has_legal_move(&p));
    let mut ordinary = MoveList::new();
    generate_king_safe(&p, &mut ordinary);
    assert_eq!(ordinary.len(), 1);
    assert!(has_legal_move(&p.clone().with_rules(Rules::Scottish)));
}
