//! How long to think about one turn (a turn is one "move" for the clock):
//! the budget from the limits, and the turn's one time plan, split between
//! the search and the safety net that checks the chosen turn after it.

use super::limits::Limits;
use crate::clock::{FLOOR, SAFETY};
use std::time::{Duration, Instant};

/// The time a search may use: it starts no new iteration after `soft`, and
/// stops at once at `hard`. `None`: no time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    /// How long the turn may take when the safety net has proved the
    /// search's turn lost and looks for a safe one (at least `hard`).
    pub rescue: Option<Duration>,
}

/// Turns we plan for when the GUI does not say (`movestogo`): Progressive
/// games are short, and later turns need more time than early ones. At 12
/// a median game (over by turn 11, 4-5 turns of each side) ended with half
/// the clock unused at 1+0.05 and 5+0.05 alike (bench/strength.md).
const DEFAULT_TURNS_TO_GO: u32 = 8;

/// Part of the time budget the search uses when the safety net runs after
/// it, in percent.
const SEARCH_TIME_SHARE: u32 = 60;
/// The search's part when the opponent threatens mate: most turns then
/// lose, and the net's proofs decide the turn (bench/strength.md).
const THREATENED_SEARCH_SHARE: u32 = 25;
/// A threatened search keeps at least the usual share of this much of the
/// budget: in short budgets it would otherwise finish no iteration.
const THREATENED_MIN_SEARCH: Duration = Duration::from_millis(100);

/// Part of the time budget, in percent, that the turn keeps in reserve
/// for what follows the net's last check (returning, printing `bestmove`)
/// and for a loaded machine's scheduling: the answer is due by the budget,
/// which already leaves `Move Overhead` before the limit.
const RESERVE_SHARE: u32 = 3;
/// The reserve is at most this much.
const MAX_RESERVE: Duration = Duration::from_millis(50);

/// Part of the usable clock, in percent, a turn may take when the net has
/// proved the search's turn lost (it stops at the first turn it proves
/// safe). In the positions where full strength lost at 1+0.05 with a safe
/// turn on the board, the net found one in 3 of 22 within the usual
/// budget and in 12 with this; a game mostly ends a few turns after such
/// a turn, and most of the clock is otherwise left unused
/// (bench/strength.md, fourteenth session).
const RESCUE_SHARE: u32 = 40;

/// Whether the safety net checks the search's turn (and so takes the rest
/// of the time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Net {
    /// The search has the whole time.
    Off,
    /// The search has [`SEARCH_TIME_SHARE`] percent; the net the rest.
    After,
    /// The opponent threatens mate: the search has
    /// [`THREATENED_SEARCH_SHARE`] percent; the net the rest.
    Threatened,
}

impl Net {
    /// The search's part of the turn's budget, in percent.
    fn search_share(self) -> u32 {
        match self {
            Net::Off => 100,
            Net::After => SEARCH_TIME_SHARE,
            Net::Threatened => THREATENED_SEARCH_SHARE,
        }
    }

    /// The search's part of `go nodes N` (the net gets what it leaves).
    pub fn search_nodes(self, nodes: u64) -> u64 {
        nodes / 100 * u64::from(self.search_share())
    }
}

/// The one time plan of a turn, computed once when `go` arrives: the
/// search starts no new iteration after `soft` and stops at `hard`; the
/// whole turn (search and safety net) is answered by `turn`. `None`: no
/// time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub soft: Option<Instant>,
    pub hard: Option<Instant>,
    pub turn: Option<Instant>,
    /// The turn's end when the net has proved the search's turn lost (at
    /// or after `turn`; see [`TimeBudget::rescue`]).
    pub rescue: Option<Instant>,
}

impl TimePlan {
    /// This plan with the search's time cut to `percent` % of what it had
    /// from `started`: a level that thinks less. The net keeps its end.
    pub fn thinking(&self, started: Instant, percent: u32) -> TimePlan {
        let cut = |t: Option<Instant>| {
            t.map(|t| started + t.saturating_duration_since(started) * percent / 100)
        };
        TimePlan {
            soft: cut(self.soft),
            hard: cut(self.hard),
            ..*self
        }
    }
}

/// The plan of a turn started at `started` under `limits`.
pub fn plan(limits: &Limits, started: Instant, net: Net) -> TimePlan {
    let budget = budget(limits);
    let share = |t: Duration| match net {
        Net::Threatened => (t * net.search_share() / 100)
            .max((t * SEARCH_TIME_SHARE / 100).min(THREATENED_MIN_SEARCH)),
        _ => t * net.search_share() / 100,
    };
    let whole = |t: Duration| t - (t * RESERVE_SHARE / 100).min(MAX_RESERVE);
    TimePlan {
        soft: budget.soft.map(|t| started + share(whole(t))),
        hard: budget.hard.map(|t| started + share(whole(t))),
        turn: budget.hard.map(|t| started + whole(t)),
        rescue: budget.rescue.map(|t| started + whole(t)),
    }
}

/// The budget for one search under `limits`.
pub fn budget(limits: &Limits) -> TimeBudget {
    if limits.infinite {
        return TimeBudget {
            soft: None,
            hard: None,
            rescue: None,
        };
    }
    let overhead = limits.move_overhead;
    let movetime = limits.movetime.map(|t| t.saturating_sub(overhead));
    let clock = limits.clock.map(|c| {
        let usable = c.time.saturating_sub(overhead + SAFETY);
        let turns = c.movestogo.unwrap_or(DEFAULT_TURNS_TO_GO).max(1);
        let base = usable / turns + c.increment * 3 / 4;
        let soft = base.min(usable / 2);
        // A hard stop well before the flag, even when the clock is almost
        // out; an iteration cut short is wasted, so do not let it run long.
        let hard = (soft * 2).min(usable / 4);
        let rescue = (usable * RESCUE_SHARE / 100).max(hard);
        (soft.min(hard), hard, rescue)
    });
    let floor = FLOOR;
    // `movetime` is a hard limit for every turn: no rescue beyond it.
    match (movetime, clock) {
        (Some(m), Some((s, h, _))) => TimeBudget {
            soft: Some(m.min(s).max(floor)),
            hard: Some(m.min(h).max(floor)),
            rescue: Some(m.min(h).max(floor)),
        },
        (Some(m), None) => TimeBudget {
            soft: Some(m.max(floor)),
            hard: Some(m.max(floor)),
            rescue: Some(m.max(floor)),
        },
        (None, Some((s, h, r))) => TimeBudget {
            soft: Some(s.max(floor)),
            hard: Some(h.max(floor)),
            rescue: Some(r.max(floor)),
        },
        (None, None) => TimeBudget {
            soft: None,
            hard: None,
            rescue: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Clock;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_is_used_whole_minus_overhead() {
        let limits = Limits {
            movetime: Some(ms(100)),
            move_overhead: ms(10),
            ..Limits::default()
        };
        assert_eq!(budget(&limits).hard, Some(ms(90)));
    }

    /// `left` ms on the clock, 50 ms increment, 10 ms `Move Overhead`.
    fn on_clock(left: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time: ms(left),
                increment: ms(50),
                movestogo: None,
            }),
            move_overhead: ms(10),
            ..Limits::default()
        }
    }

    #[test]
    fn a_level_thinking_less_cuts_only_the_search_share() {
        let started = Instant::now();
        let full = plan(&on_clock(1000), started, Net::After);
        let cut = full.thinking(started, 25);
        let length = |t: Option<Instant>| t.unwrap() - started;
        assert_eq!(length(cut.soft), length(full.soft) / 4);
        assert_eq!(length(cut.hard), length(full.hard) / 4);
        assert!(cut.hard < full.hard && cut.soft <= cut.hard);
        assert_eq!((cut.turn, cut.rescue), (full.turn, full.rescue));
        assert_eq!(full.thinking(started, 100), full);
    }

    #[test]
    fn clock_budget_stays_far_from_the_flag() {
        for left in [0, 3, 50, 1000, 60_000] {
            let b = budget(&on_clock(left));
            let hard = b.hard.unwrap();
            assert!(b.soft.unwrap() <= hard);
            assert!(hard <= ms(left / 2).max(ms(1)), "{left}: {hard:?}");
        }
    }

    #[test]
    fn the_whole_turn_ends_before_the_budget_with_a_reserve() {
        let started = Instant::now();
        for (movetime, net) in [
            (1, Net::Off),
            (100, Net::After),
            (1000, Net::After),
            (60_000, Net::Off),
        ] {
            let limits = Limits {
                movetime: Some(ms(movetime)),
                ..Limits::default()
            };
            let plan = plan(&limits, started, net);
            let budget = started + budget(&limits).hard.unwrap();
            let turn = plan.turn.unwrap();
            assert!(turn <= budget && turn + MAX_RESERVE >= budget, "{movetime}");
            assert!(plan.hard.unwrap() <= turn && plan.soft.unwrap() <= turn);
            if movetime >= 100 {
                assert!(turn < budget, "{movetime}: no reserve");
            }
        }
    }

    #[test]
    fn a_lost_turn_may_take_a_share_of_the_clock_but_never_past_movetime() {
        for left in [0, 3, 50, 1000, 5000, 60_000] {
            let b = budget(&on_clock(left));
            let (hard, rescue) = (b.hard.unwrap(), b.rescue.unwrap());
            let usable = ms(left).saturating_sub(ms(10) + SAFETY);
            assert!(hard <= rescue, "{left}");
            assert!(rescue <= (usable * RESCUE_SHARE / 100).max(FLOOR), "{left}");
        }
        // At 1+0.05 the rescue is well beyond the usual turn.
        let b = budget(&on_clock(1000));
        assert!(b.rescue.unwrap() > b.hard.unwrap() * 3 / 2);
        let fixed = Limits {
            movetime: Some(ms(100)),
            ..on_clock(1000)
        };
        let b = budget(&fixed);
        assert_eq!(b.rescue, b.hard);
        let started = Instant::now();
        let p = plan(&on_clock(1000), started, Net::After);
        assert!(p.turn.unwrap() < p.rescue.unwrap());
    }

    #[test]
    fn infinite_has_no_limit() {
        let limits = Limits {
            infinite: true,
            movetime: Some(ms(5)),
            ..Limits::default()
        };
        assert_eq!(budget(&limits).hard, None);
    }
}
