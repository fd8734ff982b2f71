//! Mate in this turn: does the side to move mate with its remaining moves?
//!
//! The answer is exact: [`Verdict::Mate`] with a mating line (replayed and
//! checked by the rules core before it is returned), [`Verdict::NoMate`] as a
//! proof (the search was exhaustive apart from sound bounds and table entries
//! that are themselves proofs), or [`Verdict::Unknown`] when a node limit, a
//! time limit or the stop flag ended it first.
//!
//! The rules come only from [`crate::chess`]: legal moves, check, the mate
//! test. What this module adds is the search order, the "no mate" table
//! ([`MateTable`], shared between threads and between queries) and the move
//! budget bound of `bounds`.
//!
//! This is the ONE place the engine asks "can the side to move mate in this
//! turn?": the root's "do I mate now?", the tree's "does the side to move at
//! this turn start mate?", the safety net, the ten-quiet-turns rule, `go
//! mate`, the opponent's threat (the mover passes), the CLI and the benches.
//! Every caller gives a [`Budget`] (nodes, deadline, threads, stop flag) and
//! a [`MateTable`] it owns, so that a repeated question is answered from an
//! earlier proof, and gets an [`Answer`].
//!
//! The budget only says where the search stops, never what it does first:
//! on one thread a search that finishes within B nodes gives the same
//! answer, after the same nodes, under every larger limit, and a table
//! already used by other questions searches exactly as a fresh one (see
//! `tt`). With more threads the order of work depends on their timing.

pub(crate) mod bounds;
mod memo;
mod search;
mod sleep;
mod tt;

pub use tt::MateTable;

use crate::chess::status::is_mated;
use crate::chess::{Move, Position, legal_moves};
use search::{Outcome, Searcher, Shared};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How much work one query may do. The default is unlimited, one thread.
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// Stop once more than this many nodes are counted (`u64::MAX`: no
    /// limit; the finder counts in small batches, so it may overrun a
    /// little, but a search of at most this many nodes is never cut).
    pub nodes: u64,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Threads to search with (0 or 1: the calling thread only).
    pub threads: usize,
    /// Stop as soon as this becomes true (checked every ~0.1 ms of work).
    pub stop: Option<&'a AtomicBool>,
}

impl Default for Budget<'_> {
    fn default() -> Self {
        Budget {
            nodes: u64::MAX,
            deadline: None,
            threads: 1,
            stop: None,
        }
    }
}

impl Budget<'_> {
    /// A budget of `nodes` nodes on one thread, with no deadline.
    pub fn nodes(nodes: u64) -> Self {
        Budget {
            nodes,
            ..Budget::default()
        }
    }

    /// Nothing may be searched: no nodes left or the deadline passed.
    fn spent(&self) -> bool {
        self.nodes == 0 || self.out_of_time()
    }

    /// The stop flag is set or the deadline passed.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) || self.out_of_time()
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The answer to "mate in this turn?".
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// A mating line: the remaining moves of the turn (Scottish: up to the
    /// mating check).
    Mate(Vec<Move>),
    /// Proved: no sequence of the remaining moves mates.
    NoMate,
    /// A limit or the stop flag ended the search first.
    Unknown,
}

impl Verdict {
    /// Does the side to move mate? `None` when the search did not decide.
    pub fn mates(&self) -> Option<bool> {
        match self {
            Verdict::Mate(_) => Some(true),
            Verdict::NoMate => Some(false),
            Verdict::Unknown => None,
        }
    }
}

/// A verdict and what it cost.
#[derive(Clone, Debug)]
pub struct Answer {
    pub verdict: Verdict,
    /// Nodes searched (positions visited, including turn ends tested for mate).
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Answer {
    /// The mating line, if one was found.
    pub fn line(&self) -> Option<&[Move]> {
        match &self.verdict {
            Verdict::Mate(line) => Some(line),
            _ => None,
        }
    }
}

/// Every mating line of the turn (for checking problems for cooks).
#[derive(Clone, Debug)]
pub struct AllMates {
    /// Distinct mating move sequences, each verified.
    pub lines: Vec<Vec<Move>>,
    /// False when a limit stopped the enumeration: more lines may exist.
    pub complete: bool,
    pub nodes: u64,
    pub elapsed: Duration,
}

fn shared_for<'a>(budget: &Budget<'a>, tt: &'a MateTable) -> Shared<'a> {
    Shared {
        tt,
        generation: tt.begin(),
        stop: budget.stop,
        done: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        node_limit: budget.nodes,
        deadline: budget.deadline,
    }
}

/// Does the side to move mate in its current turn? Searches `pos` within
/// `budget`, reading and extending the shared table `tt`. A budget already
/// spent (no nodes, or the deadline passed) answers [`Verdict::Unknown`] at
/// once.
pub fn find_mate(pos: &Position, budget: &Budget, tt: &MateTable) -> Answer {
    let started = Instant::now();
    if budget.spent() {
        return Answer {
            verdict: Verdict::Unknown,
            nodes: 0,
            elapsed: started.elapsed(),
        };
    }
    // A repeated question: an earlier query proved this very position. (Its
    // other proofs are not used: see `tt`.)
    if tt.proved_ever(pos.key()) {
        return Answer {
            verdict: Verdict::NoMate,
            nodes: 0,
            elapsed: started.elapsed(),
        };
    }
    // Sparse positions with long turns: often no mating picture fits at
    // all, or a line reaches the one board a picture names. Where the
    // cheapest pictures leave a scene open and our pieces placed in a few
    // scenes do not decide, placing them in every scene costs more than a
    // short search where that decides: it goes before the rest.
    let mut probed = 0;
    let pictured = match bounds::draw_pictures(pos) {
        bounds::Drawn::Done(pictured) => pictured,
        bounds::Drawn::Boards(mut drawing) => match drawing.advance(pos, PLACED_BEFORE_PROBE) {
            Some(pictured) => pictured,
            None => {
                let probe = Budget {
                    nodes: budget.nodes.min(PROBE_NODES),
                    threads: 1,
                    ..*budget
                };
                let shared = shared_for(&probe, tt);
                let outcome = search_alone(pos, &shared);
                probed = shared.nodes.load(Ordering::Relaxed);
                let verdict = verdict_of(pos, outcome);
                if verdict.is_some() || budget.stopped() {
                    return Answer {
                        verdict: verdict.unwrap_or(Verdict::Unknown),
                        nodes: probed,
                        elapsed: started.elapsed(),
                    };
                }
                // (Drawn whatever nodes are left, as the pictures always are.)
                drawing.finish(pos)
            }
        },
    };
    match pictured {
        bounds::Pictured::Open => {}
        bounds::Pictured::NoMate => {
            return Answer {
                verdict: Verdict::NoMate,
                nodes: probed + 1,
                elapsed: started.elapsed(),
            };
        }
        bounds::Pictured::Mate(line) => {
            assert!(
                is_mating_line(pos, &line),
                "mate pictures produced a line the rules reject: {line:?}"
            );
            return Answer {
                verdict: Verdict::Mate(line),
                nodes: probed + 1,
                elapsed: started.elapsed(),
            };
        }
    }
    let budget = &Budget {
        nodes: budget.nodes.saturating_sub(probed),
        ..*budget
    };
    if budget.spent() {
        return Answer {
            verdict: Verdict::Unknown,
            nodes: probed,
            elapsed: started.elapsed(),
        };
    }
    let shared = shared_for(budget, tt);
    let outcome = if budget.threads > 1 && search::uses_passes(pos) {
        search_racing(pos, &shared, budget.threads)
    } else if budget.threads > 1 && pos.moves_left() > 1 {
        search_parallel(pos, &shared, budget.threads)
    } else {
        search_alone(pos, &shared)
    };
    let verdict = verdict_of(pos, outcome).unwrap_or(Verdict::Unknown);
    Answer {
        verdict,
        nodes: probed + shared.nodes.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
    }
}

/// The nodes of the search that goes before the rest of the pictures
/// ([`find_mate`]): where it decides, it costs less than drawing every
/// scene (sermate s094 and s106: 18 -> 8 and 28 -> 10 ms).
const PROBE_NODES: u64 = 10_000;

/// The scenes with our pieces placed before that search: the pictures
/// that decide in fewer go without it.
const PLACED_BEFORE_PROBE: usize = 16;

/// The search of `pos` on the calling thread: its outcome and line.
fn search_alone(pos: &Position, shared: &Shared) -> (Outcome, Vec<Move>) {
    let mut s = Searcher::new(shared, 0);
    let o = s.enter_with_passes(pos);
    s.flush();
    (o, s.line)
}

/// The verdict of a search's outcome and line; `None` where it was stopped.
fn verdict_of(pos: &Position, outcome: (Outcome, Vec<Move>)) -> Option<Verdict> {
    match outcome {
        (Outcome::Mate, line) => {
            // The rules core has the last word on every line we return.
            assert!(
                is_mating_line(pos, &line),
                "mate finder produced a line the rules reject: {line:?}"
            );
            Some(Verdict::Mate(line))
        }
        (Outcome::NoMate, _) => Some(Verdict::NoMate),
        (Outcome::Aborted, _) => None,
    }
}

/// The stack of a finder thread: the finder recurses once per move of the
/// turn (about 2 KB each), and a turn may have `fen::MAX_TURN_LENGTH` moves
/// (the default 2 MiB overflowed at about 1500).
const THREAD_STACK: usize = 64 << 20;

/// Turns of at most this many moves are searched on the calling thread by
/// [`on_finder_stack`]: a 120-move turn ran in 512 KB of stack, and a
/// process's main thread has 8 MiB by default.
pub const SHORT_TURN: u32 = 100;

/// `work`, a query of the finder on `pos`, run where the stack suffices:
/// on the calling thread for a turn of at most [`SHORT_TURN`] moves (so a
/// process that asks about one position starts no thread), otherwise on a
/// thread with [`THREAD_STACK`]; `None` if the system refused the thread.
/// (For callers on a thread with the default stack, as the main thread.)
pub fn on_finder_stack<R: Send>(pos: &Position, work: impl FnOnce() -> R + Send) -> Option<R> {
    if pos.moves_left() <= SHORT_TURN {
        return Some(work());
    }
    let mut out = None;
    std::thread::scope(|scope| {
        spawn_finder(scope, || out = Some(work()));
    });
    out
}

/// Runs `work` on a new thread of `scope` with [`THREAD_STACK`]; false if
/// the system refused the thread.
fn spawn_finder<'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    work: impl FnOnce() + Send + 'scope,
) -> bool {
    let spawned = std::thread::Builder::new()
        .name("mate finder".into())
        .stack_size(THREAD_STACK)
        .spawn_scoped(scope, work);
    if let Err(e) = &spawned {
        log::warn!("cannot start a mate finder thread: {e}");
    }
    spawned.is_ok()
}

/// Long turns: every thread runs the passes and the full search of
/// [`Searcher::enter_with_passes`], each in its own move order (helper threads
/// rotate their children), sharing the table's proofs; the first thread to
/// finish answers and stops the others.
fn search_racing(pos: &Position, shared: &Shared, threads: usize) -> (Outcome, Vec<Move>) {
    let answer: Mutex<Option<(Outcome, Vec<Move>)>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for t in 0..threads {
            let answer = &answer;
            spawn_finder(scope, move || {
                let mut s = Searcher::new(shared, t);
                let o = s.enter_with_passes(pos);
                s.flush();
                if o != Outcome::Aborted
                    && let Ok(mut a) = answer.lock()
                    && a.is_none()
                {
                    *a = Some((o, std::mem::take(&mut s.line)));
                    shared.done.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    answer
        .into_inner()
        .ok()
        .flatten()
        .unwrap_or((Outcome::Aborted, Vec::new()))
}

/// Root splitting: threads take the root moves one by one from a shared
/// counter; a thread with no untaken root move left helps with one still
/// being searched (in another move order, meeting the other thread's proofs
/// in the shared table), so no thread idles while the hardest branch runs.
fn search_parallel(pos: &Position, shared: &Shared, threads: usize) -> (Outcome, Vec<Move>) {
    if shared.proved_none(pos.key()) || !bounds::may_mate(pos, pos.moves_left()) {
        return (Outcome::NoMate, Vec::new());
    }
    let mut moves = legal_moves(pos);
    search::order(pos, moves.as_mut_slice(), 0);
    let moves = moves.as_slice();
    // 0 = untaken, 1 = being searched, 2 = proved to have no mate.
    let state: Vec<AtomicUsize> = moves.iter().map(|_| AtomicUsize::new(0)).collect();
    let next = AtomicUsize::new(0);
    let mate: Mutex<Option<Vec<Move>>> = Mutex::new(None);
    let aborted = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (state, next, mate, aborted) = (&state, &next, &mate, &aborted);
            let spawned = spawn_finder(scope, move || {
                let mut s = Searcher::new(shared, t);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let i = if i < moves.len() {
                        state[i].store(1, Ordering::Relaxed);
                        i
                    } else if let Some(h) = (0..moves.len())
                        .rev()
                        .find(|&j| state[j].load(Ordering::Relaxed) == 1)
                    {
                        h
                    } else {
                        break;
                    };
                    let mv = moves[i];
                    let mut child = pos.clone();
                    let effect = child.play(mv);
                    s.line.clear();
                    s.line.push(mv);
                    let outcome = if effect.turn_ended {
                        if effect.check && is_mated(&child) {
                            Outcome::Mate
                        } else {
                            Outcome::NoMate
                        }
                    } else {
                        s.enter(&child)
                    };
                    match outcome {
                        Outcome::Mate => {
                            shared.done.store(true, Ordering::Relaxed);
                            if let Ok(mut m) = mate.lock() {
                                m.get_or_insert_with(|| s.line.clone());
                            }
                            break;
                        }
                        Outcome::NoMate => state[i].store(2, Ordering::Relaxed),
                        Outcome::Aborted => {
                            aborted.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                }
                s.flush();
            });
            if !spawned {
                aborted.store(true, Ordering::Relaxed); // "no mate" would be unproved
            }
        }
    });
    let found = mate.into_inner().ok().flatten();
    match found {
        Some(line) => (Outcome::Mate, line),
        None if aborted.load(Ordering::Relaxed) => (Outcome::Aborted, Vec::new()),
        None => {
            shared.store_none(pos.key());
            (Outcome::NoMate, Vec::new())
        }
    }
}

/// Every mating line of the current turn (one thread). Lines that are the
/// same moves in another order are listed separately, as Popeye does.
pub fn find_all_mates(pos: &Position, budget: &Budget, tt: &MateTable) -> AllMates {
    let started = Instant::now();
    if budget.spent() {
        return AllMates {
            lines: Vec::new(),
            complete: false,
            nodes: 0,
            elapsed: started.elapsed(),
        };
    }
    let shared = shared_for(budget, tt);
    let mut s = Searcher::new(&shared, 0);
    s.all = Some(Vec::new());
    let outcome = s.enter(pos);
    s.flush();
    let lines = s.all.take().unwrap_or_default();
    for line in &lines {
        assert!(
            is_mating_line(pos, line),
            "mate finder produced a line the rules reject: {line:?}"
        );
    }
    AllMates {
        lines,
        complete: outcome != Outcome::Aborted,
        nodes: shared.nodes.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
    }
}

/// What the opponent threatens: the side to move passes the rest of its turn
/// ([`Position::pass_turn`]) and the opponent's mate in its next turn is
/// searched.
pub fn opponent_threat(pos: &Position, budget: &Budget, tt: &MateTable) -> Answer {
    let mut passed = pos.clone();
    passed.pass_turn();
    find_mate(&passed, budget, tt)
}

/// Nodes the ten-quiet-turn test may take where its answer ends a game
/// (the match referee) or is reported (`analyse`): a few seconds. Unlimited,
/// one long turn with many pieces and no mate could take the finder hours
/// to prove, and a match stalled on it (a Beginner-Novice game did).
pub const QUIET_TEST_NODES: u64 = 10_000_000;

/// Single-threaded "mates in this turn?" within `nodes` nodes, for
/// [`crate::chess::status::status_with`] (the ten-quiet-turn rule):
/// `None` when the budget ran out first.
pub fn mates_this_turn(pos: &Position, nodes: u64) -> Option<bool> {
    thread_local! {
        static TABLE: MateTable = MateTable::new(4);
    }
    TABLE.with(|tt| {
        // The answer must depend on the position and the budget alone: a
        // proof of this very position left from an earlier call (another
        // game of a match) would answer at once one time and not another.
        tt.clear();
        find_mate(pos, &Budget::nodes(nodes), tt).verdict.mates()
    })
}

/// Does `line` consist of legal moves that end the current turn exactly at
/// its last move with the opponent mated? (The rules core's verdict.)
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
    let mut p = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        if !legal_moves(&p).contains(mv) {
            return false;
        }
        let effect = p.play(mv);
        if effect.turn_ended != (i + 1 == line.len()) {
            return false;
        }
    }
    !line.is_empty() && is_mated(&p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::status::brute_force_mate;
    use crate::chess::{Rules, fen};

    #[test]
    fn agrees_with_the_reference_search() {
        let cases = [
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian, true),
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Italian, true),
            ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 3", Rules::Scottish, true),
            ("6k1/5p1p/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian, false),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 2", Rules::Italian, false),
            (crate::chess::fen::START_FEN, Rules::Italian, false),
        ];
        let table = MateTable::new(1);
        for (text, rules, expected) in cases {
            let pos = fen::parse(text, rules).unwrap();
            let reference = brute_force_mate(&pos).is_some();
            assert_eq!(reference, expected, "{text}");
            match find_mate(&pos, &Budget::default(), &table).verdict {
                Verdict::Mate(line) => {
                    assert!(expected, "{text}");
                    assert!(is_mating_line(&pos, &line), "{text}: {line:?}");
                }
                Verdict::NoMate => assert!(!expected, "{text}"),
                Verdict::Unknown => panic!("unlimited search gave up"),
            }
        }
    }

    #[test]
    fn a_spent_budget_gives_unknown_at_once() {
        // A one-move mate the finder would see before its first look at the limits.
        let pos = fen::parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", Rules::Italian).unwrap();
        let table = MateTable::new(1);
        let none_left = find_mate(&pos, &Budget::nodes(0), &table);
        assert_eq!((none_left.verdict, none_left.nodes), (Verdict::Unknown, 0));
        let past = Budget {
            deadline: Some(Instant::now()),
            ..Budget::default()
        };
        assert_eq!(find_mate(&pos, &past, &table).verdict, Verdict::Unknown);
        let all = find_all_mates(&pos, &Budget::nodes(0), &table);
        assert!(all.lines.is_empty() && !all.complete);
        let pos = fen::parse("4k3/8/8/8/8/8/8/R3K3 w - - 0 3", Rules::Italian).unwrap();
        let stop = AtomicBool::new(true);
        let stopped = Budget {
            stop: Some(&stop),
            ..Budget::nodes(0)
        };
        assert_eq!(find_mate(&pos, &stopped, &table).verdict, Verdict::Unknown);
    }

    #[test]
    fn a_deadline_that_passes_stops_the_search_within_a_clock_poll() {
        // Black's eight moves (a turn of a 1+0.05 game lost on time): the
        // finder needs more than one node poll here, and each node's
        // bounds cost tens of microseconds. A deadline seen only at the
        // polls of the node count let 1 024 of them run past it.
        let pos = fen::parse(
            "rnb3nr/pp2kppp/2p4P/8/P1q1PNP1/8/2P2K2/2R4R b - a3,g3 0 8",
            Rules::Italian,
        )
        .unwrap();
        let table = MateTable::new(1);
        let short = find_mate(&pos, &Budget::nodes(search::POLL), &table);
        assert_eq!(short.verdict, Verdict::Unknown);
        // The deadline passes once the search has begun (find_mate itself
        // answers a spent budget at once).
        let past = Budget {
            deadline: Some(Instant::now()),
            ..Budget::default()
        };
        let shared = shared_for(&past, &table);
        let mut s = Searcher::new(&shared, 0);
        assert_eq!(s.enter_with_passes(&pos), Outcome::Aborted);
        s.flush();
        let nodes = shared.nodes.load(Ordering::Relaxed);
        assert!(nodes < search::POLL, "{nodes} nodes past the deadline");
    }

    #[test]
    fn a_repeated_question_is_answered_from_the_earlier_proof() {
        // K+R+B+P cannot mate this king within 5 moves: a search of
        // thousands of nodes proves it. Our castling right keeps the
        // mating-picture proof (which skips such positions) out, here and
        // after the pawn's and the bishop's moves, so the search does the
        // work.
        let pos = fen::parse("4k2r/8/8/8/8/8/P1B5/4K2R w Kk - 10 5", Rules::Italian).unwrap();
        let table = MateTable::new(1);
        let first = find_mate(&pos, &Budget::default(), &table);
        assert_eq!(first.verdict, Verdict::NoMate);
        assert!(first.nodes > 1000, "{}", first.nodes);
        let again = find_mate(&pos, &Budget::nodes(1), &table);
        assert_eq!((again.verdict, again.nodes), (Verdict::NoMate, 0));
        // The other proofs of a query are not used by the next: after a
        // pawn move and after a bishop move the searches meet (the same
        // two moves in either order), yet the second takes as long as in a
        // fresh table.
        let after = |uci: &str| {
            let mv = legal_moves(&pos)
                .iter()
                .copied()
                .find(|m| m.to_string() == uci)
                .expect("a move");
            let mut p = pos.clone();
            p.play(mv);
            p
        };
        // Moves after which the bound alone does not prove "none".
        let (pawn, bishop) = (after("a2a3"), after("c2d3"));
        let table = MateTable::new(1);
        assert_eq!(
            find_mate(&pawn, &Budget::default(), &table).verdict,
            Verdict::NoMate
        );
        let warm = find_mate(&bishop, &Budget::default(), &table);
        let cold = find_mate(&bishop, &Budget::default(), &MateTable::new(1));
        assert!(cold.nodes > 100, "{}", cold.nodes);
        assert_eq!((warm.verdict, warm.nodes), (cold.verdict, cold.nodes));
    }

    #[test]
    fn the_opponent_threat_is_seen() {
        // White to move, one move left; if White passes, Black mates with Ra1.
        let pos = fen::parse("r5k1/8/8/8/8/8/5PPP/6K1 w - - 0 1", Rules::Italian).unwrap();
        let threat = opponent_threat(&pos, &Budget::default(), &MateTable::new(1));
        assert!(threat.line().is_some(), "{:?}", threat.verdict);
    }
}
