//! Playing strength: `Skill Level`, `UCI_LimitStrength`/`UCI_Elo`, the named
//! levels, and the baseline players `random` and `greedy`.
//!
//! Every player, at every level, first asks the mate finder for a mate in
//! this turn and plays one it finds; lower levels give it a smaller budget,
//! so they miss more of the long mates. Below full strength the search is
//! bounded (depth and nodes, a smaller mate budget at turn starts, so threats
//! of a long mate are overlooked more often), and the turn is chosen among
//! the best MultiPV lines with a temperature: the mistakes are plausible
//! second-best turns, never random moves. The safety net checks each turn
//! with fewer nodes the lower the level, and Intermediate thinks only a part
//! of its time. Below Club the player also overlooks the opponent's long
//! mating attack in some of its long turns (Novice in all of them: the
//! safety net does not check that turn). The net is what separates the
//! levels, since in games between weak players little else decides: both
//! trade everything off and neither can mate what is left.

use super::limits::Limits;
use super::result::{SearchInfo, SearchResult};
use super::score::{MATE_BOUND, Score};
use super::searcher::Searcher;
use super::time::TimePlan;
use crate::chess::Position;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The highest `Skill Level` (full strength).
pub const MAX_SKILL: u32 = 20;

/// A built-in baseline player (option `Baseline`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Baseline {
    /// The real search.
    #[default]
    None,
    /// A random legal turn (a mate in this turn if the finder sees one).
    Random,
    /// The turn that ends with the best material balance (a mate if it can),
    /// ignoring the opponent's reply.
    Greedy,
}

impl Baseline {
    pub const ALL: [Baseline; 3] = [Baseline::None, Baseline::Random, Baseline::Greedy];

    pub fn name(self) -> &'static str {
        match self {
            Baseline::None => "none",
            Baseline::Random => "random",
            Baseline::Greedy => "greedy",
        }
    }

    pub fn parse(text: &str) -> Option<Baseline> {
        Baseline::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(text))
    }
}

/// The named levels a GUI can offer as a list (option `Level`), weakest
/// first, with the `Skill Level` each stands for; `Full` is full strength.
pub const LEVELS: [(&str, u32); 6] = [
    ("Novice", 0),
    ("Beginner", 4),
    ("Casual", 8),
    ("Intermediate", 12),
    ("Club", 16),
    ("Full", MAX_SKILL),
];

/// The `UCI_Elo` range; the scale is Crescendo's own (uncalibrated).
pub const MIN_ELO: u32 = 600;
pub const MAX_ELO: u32 = 2400;

/// The skill an `UCI_Elo` stands for (linear over the range).
pub fn skill_from_elo(elo: u32) -> u32 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    (elo - MIN_ELO) * MAX_SKILL / (MAX_ELO - MIN_ELO)
}

/// The named level called `name` (case-insensitive): its skill.
pub fn level_skill(name: &str) -> Option<u32> {
    LEVELS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, s)| s)
}

/// How a player plays: a baseline, or the search at a skill (0..=20).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub baseline: Baseline,
    pub skill: u32,
    /// Seeds the choices of `random` and of the weaker levels.
    pub seed: u64,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            baseline: Baseline::None,
            skill: MAX_SKILL,
            seed: 0,
        }
    }
}

/// What a skill below full strength changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handicap {
    pub max_depth: u32,
    pub max_nodes: u64,
    pub root_mate_nodes: u64,
    pub tree_mate_nodes: u64,
    /// Mate-finder nodes per turn checked by the safety net.
    pub safety_nodes: u64,
    /// Lines to choose from, and the temperature in centipawns.
    pub multipv: usize,
    pub temperature: i32,
    /// The chance, in a turn of at least [`OVERLOOK_FROM`] moves, to
    /// overlook the opponent's mating attack: the turn is played without
    /// the safety net's check.
    pub overlook: f64,
    /// The percentage of the search's time the level thinks (the net
    /// keeps its own time).
    pub think_share: u32,
}

/// Turns shorter than this are always checked by the safety net: every
/// level sees the opponent's short mates, and the weaker ones miss more of
/// the long series.
pub const OVERLOOK_FROM: u32 = 6;

/// The chance to overlook a long mating attack at skills 0, 4, 8, 12 and 16
/// (the named levels; linear in between): Novice never checks a long turn,
/// and from Club on every turn is checked. Tuned by 200-game matches of
/// each level against the one below (bench/strength.md).
const OVERLOOK: [f64; 5] = [1.0, 0.65, 0.40, 0.17, 0.0];

/// The root mate finder's nodes at the named levels (linear in between):
/// Novice finds only short mates of its own, which costs it games against
/// the levels, whose kings are guarded, and few against `random`.
const ROOT_MATE: [f64; 5] = [10_000.0, 141_000.0, 200_000.0, 283_000.0, 400_000.0];

/// The safety net's nodes per turn checked at the named levels (linear in
/// between). Novice checks only short turns, where a check is cheap, and
/// checks them fully: with 50 000 nodes it lost many more games to
/// `random`, whose mates come as surprises, and no more to Beginner. Above
/// it the budget is what spaces the top: full strength's net has 400 000
/// nodes and the clock's time, Club's a fifth of that (with 200 000 nodes
/// full strength scored only 60 % against it), and Intermediate's turns
/// also think a quarter of the time ([`THINK`]).
const NET: [f64; 5] = [400_000.0, 15_000.0, 15_000.0, 25_000.0, 80_000.0];

/// The search's nodes per turn at the named levels (linear in between):
/// growing four times a level, except Casual, whose smaller search keeps
/// it below Intermediate (Intermediate scored 64 % against it with 48 000
/// nodes, 72.5 % with 32 000; and Casual 73 and 71 % against Beginner).
const SEARCH_NODES: [f64; 5] = [3_000.0, 12_000.0, 32_000.0, 192_000.0, 768_000.0];

/// The percentage of the search's time the named levels think (linear in
/// between): Intermediate searches as little as Casual does, which the
/// node limit stops first, and is told from it by its net. Club thinks
/// fully, its net is its handicap.
const THINK: [f64; 5] = [100.0, 100.0, 100.0, 25.0, 100.0];

/// The handicap of `skill` (`None` at full strength).
pub fn handicap(skill: u32) -> Option<Handicap> {
    if skill >= MAX_SKILL {
        return None;
    }
    let s = skill as u64;
    Some(Handicap {
        max_depth: 2 + skill / 4,
        max_nodes: by_level(&SEARCH_NODES, skill) as u64,
        root_mate_nodes: by_level(&ROOT_MATE, skill) as u64,
        tree_mate_nodes: 40 * (1 + s * s),
        safety_nodes: by_level(&NET, skill) as u64,
        multipv: 4,
        temperature: 20 + (MAX_SKILL - skill) as i32 * 6,
        overlook: by_level(&OVERLOOK, skill),
        think_share: by_level(&THINK, skill).round() as u32,
    })
}

/// A table of values at the named levels' skills (0, 4, ... 16), read at
/// `skill`: linear in between, the last value from 16 on.
fn by_level(table: &[f64; 5], skill: u32) -> f64 {
    let at = (skill / 4) as usize;
    if at + 1 >= table.len() {
        return table[table.len() - 1];
    }
    let part = f64::from(skill % 4) / 4.0;
    table[at] * (1.0 - part) + table[at + 1] * part
}

/// A small deterministic random generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Does a weakened player overlook the opponent's mating attack this turn?
/// The mistake a weaker human makes: the long series the opponent's next
/// turn allows goes unseen, and the turn the search liked is played as it
/// is. Short turns are always checked.
pub(super) fn overlooks(pos: &Position, h: Handicap, rng: &mut Rng) -> bool {
    pos.turn_length() >= OVERLOOK_FROM && rng.unit() < h.overlook
}

/// The search below full strength: bounded, and a turn chosen among the best
/// lines with a temperature.
#[allow(clippy::too_many_arguments)] // the turn's inputs, passed on from `play`
pub(super) fn weakened(
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    plan: &TimePlan,
    h: Handicap,
    stop: &Arc<AtomicBool>,
    rng: &mut Rng,
    mut on_info: impl FnMut(&SearchInfo),
) -> SearchResult {
    // The turn chosen below is finished within the search's own share of
    // the time: the safety net has the rest.
    let deadline = plan.hard;
    let mut weak = limits.clone();
    weak.depth = Some(limits.depth.unwrap_or(h.max_depth).min(h.max_depth));
    weak.nodes = Some(limits.nodes.unwrap_or(h.max_nodes).min(h.max_nodes));
    weak.root_mate_nodes = Some(h.root_mate_nodes);
    weak.tree_mate_nodes = Some(h.tree_mate_nodes);
    weak.multipv = h.multipv.max(limits.multipv);
    weak.infinite = false;
    // The handicap's own lines are not the user's: show only the MultiPV asked for.
    let shown = limits.multipv.max(1);
    let started = limits.started.unwrap_or_else(Instant::now);
    let thinking = plan.thinking(started, h.think_share);
    let mut result = searcher.search_until(pos, &weak, &thinking, stop, |info| {
        if info.multipv <= shown {
            on_info(info);
        }
    });
    if result.lines.len() > 1 && !matches!(result.score, Score::Mate(1)) {
        let best = result.lines[0].value;
        // Mates (for or against) are never given away by the temperature.
        let weights: Vec<f64> = result
            .lines
            .iter()
            .map(|l| {
                if best.abs() >= MATE_BOUND || l.value.abs() >= MATE_BOUND {
                    f64::from(u8::from(l.value == best))
                } else {
                    (f64::from(l.value - best) / f64::from(h.temperature)).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = rng.unit() * total;
        let mut pick = 0;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                pick = i;
                break;
            }
            x -= w;
        }
        if pick > 0 {
            let line = result.lines[pick].clone();
            result.turn = searcher.complete_turn(pos, &line.pv, deadline, stop);
            result.score = line.score;
            result.pv = line.pv;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Rules, fen};

    #[test]
    fn weaker_levels_overlook_more_long_attacks_and_never_short_ones() {
        let chance = |skill| handicap(skill).unwrap().overlook;
        assert_eq!(chance(0), OVERLOOK[0]);
        for skill in 1..MAX_SKILL {
            assert!(chance(skill) <= chance(skill - 1), "skill {skill}");
        }
        assert!(chance(4) > chance(8) && chance(8) > chance(12));
        assert_eq!(chance(16), 0.0);
        let at = |turn: u32| {
            let text =
                format!("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 {turn}");
            fen::parse(&text, Rules::Italian).unwrap()
        };
        let (long, short) = (at(OVERLOOK_FROM + 1), at(OVERLOOK_FROM - 1));
        let mut rng = Rng::new(7);
        let mut count = |pos: &Position, skill| {
            (0..1000)
                .filter(|_| overlooks(pos, handicap(skill).unwrap(), &mut rng))
                .count()
        };
        // About 1000 x chance in 1000 (binomial: 3 standard deviations are
        // at most 48).
        for skill in [0, 4, 8, 12] {
            let expected = (chance(skill) * 1000.0) as usize;
            let seen = count(&long, skill);
            assert!(seen.abs_diff(expected) <= 48, "skill {skill}: {seen}");
        }
        assert_eq!(count(&short, 0), 0);
        assert_eq!(count(&long, 16), 0);
        assert!(count(&long, 4) > count(&long, 12));
    }

    #[test]
    fn mate_budgets_grow_with_skill_and_novice_checks_fully() {
        for skill in 1..MAX_SKILL {
            let (weaker, h) = (handicap(skill - 1).unwrap(), handicap(skill).unwrap());
            assert!(weaker.root_mate_nodes <= h.root_mate_nodes, "skill {skill}");
            if skill > 4 {
                assert!(weaker.safety_nodes <= h.safety_nodes, "skill {skill}");
            }
        }
        let novice = handicap(0).unwrap();
        assert_eq!(novice.root_mate_nodes, 10_000);
        assert_eq!(novice.safety_nodes, crate::search::SAFETY_NODES);
        assert_eq!(novice.overlook, 1.0);
        assert_eq!(handicap(16).unwrap().root_mate_nodes, 400_000);
    }

    #[test]
    fn only_the_upper_levels_think_less_and_club_thinks_fully() {
        let share = |skill| handicap(skill).unwrap().think_share;
        for skill in 0..MAX_SKILL {
            assert!((1..=100).contains(&share(skill)), "skill {skill}");
        }
        assert_eq!(share(8), 100);
        assert!(share(12) < share(8) && share(12) < share(16));
        assert_eq!(share(16), 100);
    }

    #[test]
    fn the_search_grows_with_skill() {
        for skill in 1..MAX_SKILL {
            let (weaker, h) = (handicap(skill - 1).unwrap(), handicap(skill).unwrap());
            assert!(weaker.max_nodes <= h.max_nodes, "skill {skill}");
            assert!(weaker.max_depth <= h.max_depth, "skill {skill}");
        }
        assert_eq!(handicap(0).unwrap().max_nodes, 3_000);
    }

    #[test]
    fn levels_and_elo_map_to_skills() {
        assert_eq!(level_skill("novice"), Some(0));
        assert_eq!(level_skill("Club"), Some(16));
        assert_eq!(skill_from_elo(MIN_ELO), 0);
        assert_eq!(skill_from_elo(MAX_ELO), MAX_SKILL);
        assert!(handicap(MAX_SKILL).is_none());
        let (a, b) = (handicap(0).unwrap(), handicap(16).unwrap());
        assert!(a.max_nodes < b.max_nodes && a.root_mate_nodes < b.root_mate_nodes);
    }
}
