//! Engine-vs-engine games in-process, until `crescendo match` lands.
//!
//!     cargo run --release --example selfplay -- --games 20 \
//!         --a "skill=20" --b "base=greedy" --nodes 20000
//!
//! A player spec is comma-separated `key=value`: `skill=0..20`,
//! `level=Novice|...|Club|Full`, `base=none|random|greedy`, `threads=N`,
//! `tree=N` (turn-start mate budget), `root=N` (root mate budget),
//! `nodes=N`, `depth=N`, `movetime=MS`, `clock=MS+INC` (per player; overrides
//! the shared limits). Games come in pairs from the same random opening
//! (`--opening T` random turns, default 2) with colours swapped. Prints
//! W/D/L for A, the score, time forfeits and the average nodes per turn.

use crescendo::Clock;
use crescendo::chess::status::{Status, Undecided, status_with};
use crescendo::chess::{Position, Rules, legal_moves};
use crescendo::search::levels::{self, Baseline, Rng, Style};
use crescendo::search::{Limits, Searcher};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[derive(Clone, Debug, Default)]
struct Player {
    style: Style,
    limits: Limits,
    clock: Option<(u64, u64)>,
}

fn parse_player(spec: &str, shared: &Limits) -> Player {
    let mut p = Player {
        style: Style::default(),
        limits: shared.clone(),
        clock: None,
    };
    for part in spec.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = part.split_once('=').expect("key=value");
        match k {
            "skill" => p.style.skill = v.parse().unwrap(),
            "level" => p.style.skill = levels::level_skill(v).expect("level"),
            "base" => p.style.baseline = Baseline::parse(v).expect("baseline"),
            "threads" => p.limits.threads = v.parse().unwrap(),
            "tree" => p.limits.tree_mate_nodes = Some(v.parse().unwrap()),
            "root" => p.limits.root_mate_nodes = Some(v.parse().unwrap()),
            "nodes" => p.limits.nodes = Some(v.parse().unwrap()),
            "depth" => p.limits.depth = Some(v.parse().unwrap()),
            "movetime" => p.limits.movetime = Some(Duration::from_millis(v.parse().unwrap())),
            "clock" => {
                let (t, i) = v.split_once('+').expect("clock=MS+INC");
                p.clock = Some((t.parse().unwrap(), i.parse().unwrap()));
            }
            _ => panic!("unknown key {k}"),
        }
    }
    p
}

#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    forfeits: [u32; 2],
    illegal: u32,
    turns: u64,
    nodes: [u64; 2],
    calls: [u64; 2],
}

/// Plays one game from `start` (a random opening in which the side to move
/// has no mate in its turn); `white` is 0 (A) or 1 (B). Returns the winner 0/1 or None.
fn game(
    players: &[Player; 2],
    searchers: &mut [Searcher; 2],
    start: &Position,
    white: usize,
    tally: &mut Tally,
    max_turns: u32,
) -> Option<usize> {
    for s in searchers.iter_mut() {
        s.clear();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut pos = start.clone();
    let mut clocks: [Option<(Duration, Duration)>; 2] = [0, 1].map(|i| {
        players[i]
            .clock
            .map(|(t, inc)| (Duration::from_millis(t), Duration::from_millis(inc)))
    });
    let mut turns = 0;
    loop {
        let status = bounded_status(&pos);
        if status.is_over() {
            let winner = match status.result() {
                "1-0" => Some(white),
                "0-1" => Some(1 - white),
                _ => None,
            };
            return winner;
        }
        if turns >= max_turns {
            return None;
        }
        let side = if pos.side_to_move() == crescendo::chess::Color::White {
            white
        } else {
            1 - white
        };
        let p = &players[side];
        let mut limits = p.limits.clone();
        if let Some((t, inc)) = clocks[side] {
            limits.clock = Some(Clock {
                time: t,
                increment: inc,
                movestogo: None,
            });
        }
        let style = Style {
            seed: tally.turns,
            ..p.style
        };
        let began = Instant::now();
        let r = crescendo::search::play(&mut searchers[side], &pos, &limits, style, &stop, |_| {});
        let spent = began.elapsed();
        tally.nodes[side] += r.nodes;
        tally.calls[side] += 1;
        tally.turns += 1;
        if let Some((t, inc)) = clocks[side].as_mut() {
            if spent > *t {
                tally.forfeits[side] += 1;
                return Some(1 - side);
            }
            *t = *t - spent + *inc;
        }
        // Check and play the turn.
        if r.turn.is_empty() {
            tally.illegal += 1;
            return Some(1 - side);
        }
        for (i, &mv) in r.turn.iter().enumerate() {
            if !legal_moves(&pos).contains(mv) {
                tally.illegal += 1;
                return Some(1 - side);
            }
            let ended = pos.play(mv).turn_ended;
            if ended != (i + 1 == r.turn.len()) && !legal_moves(&pos).is_empty() {
                tally.illegal += 1;
                return Some(1 - side);
            }
        }
        turns += 1;
    }
}

fn random_opening(rules: Rules, turns: u32, rng: &mut Rng) -> Position {
    loop {
        let mut pos = Position::startpos(rules);
        let mut ok = true;
        for _ in 0..turns {
            let turn = crescendo::search::random_turn(&pos, rng);
            for mv in turn {
                pos.play(mv);
            }
            if bounded_status(&pos).is_over()
                || pos.moves_made() != 0
                || crescendo::mate::mates_this_turn(&pos, crescendo::mate::QUIET_TEST_NODES)
                    != Some(false)
            {
                ok = false;
                break;
            }
        }
        if ok {
            return pos;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let games: u32 = get("--games").map_or(10, |v| v.parse().unwrap());
    let seed: u64 = get("--seed").map_or(1, |v| v.parse().unwrap());
    let opening: u32 = get("--opening").map_or(2, |v| v.parse().unwrap());
    let max_turns: u32 = get("--max-turns").map_or(40, |v| v.parse().unwrap());
    let rules = match get("--rules").as_deref() {
        Some("scottish") => Rules::Scottish,
        _ => Rules::Italian,
    };
    let shared = Limits {
        nodes: get("--nodes").map(|v| v.parse().unwrap()),
        depth: get("--depth").map(|v| v.parse().unwrap()),
        movetime: get("--movetime").map(|v| Duration::from_millis(v.parse().unwrap())),
        ..Limits::default()
    };
    let a = get("--a").unwrap_or_default();
    let b = get("--b").unwrap_or_default();
    let players = [parse_player(&a, &shared), parse_player(&b, &shared)];
    let mut searchers = [Searcher::new(16), Searcher::new(16)];
    let mut tally = Tally::default();
    let started = Instant::now();
    for g in 0..games {
        let pair_seed = seed.wrapping_mul(1000) + u64::from(g / 2);
        let mut orng = Rng::new(pair_seed);
        let start = random_opening(rules, opening, &mut orng);
        let white = (g % 2) as usize;
        match game(
            &players,
            &mut searchers,
            &start,
            white,
            &mut tally,
            max_turns,
        ) {
            Some(0) => tally.wins += 1,
            Some(_) => tally.losses += 1,
            None => tally.draws += 1,
        }
        eprintln!(
            "game {}/{}: +{} ={} -{}",
            g + 1,
            games,
            tally.wins,
            tally.draws,
            tally.losses
        );
    }
    let n = f64::from(games.max(1));
    let score = (f64::from(tally.wins) + 0.5 * f64::from(tally.draws)) / n * 100.0;
    println!(
        "A [{a}] vs B [{b}] ({}): games {games} W {} D {} L {} score {score:.1}% \
         forfeits A {} B {} illegal {} nodes/turn A {} B {} time {:.0}s",
        rules.name(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.forfeits[0],
        tally.forfeits[1],
        tally.illegal,
        tally.nodes[0] / tally.calls[0].max(1),
        tally.nodes[1] / tally.calls[1].max(1),
        started.elapsed().as_secs_f64()
    );
}

/// The game status, the ten-quiet-turns mate test on a small budget (an
/// undecided test lets the game go on, as the engine's own status does).
fn bounded_status(pos: &Position) -> Status {
    status_with(
        pos,
        |p| crescendo::mate::mates_this_turn(p, 20_000),
        Undecided::GameGoesOn,
    )
}
