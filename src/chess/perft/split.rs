//! Progressive perft on several threads. The tree is opened breadth first
//! until there is enough work to share, equal nodes merged with their
//! multiplicity (a node reached by `w` sequences counts `w` times); the
//! threads then take the nodes from a shared counter, each with its own
//! memo and end-position sets, and the sets are united at the end.

use super::{Mode, PerftCounts, SequenceCounts, Step, Tally, Walk, is_bulk_node, step, stuck};
use crate::chess::movegen::legal_moves;
use crate::chess::moves::Move;
use crate::chess::position::Position;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

/// Nodes opened per thread before the threads start: enough that the
/// uneven sizes of the subtrees even out.
const NODES_PER_THREAD: usize = 256;

/// The stack of a counting thread: the walk recurses once per move (at
/// most `MAX_PERFT_MOVES`), a move list and a position a level.
const STACK_BYTES: usize = 32 << 20;

/// The sequences, stalemates and mates of [`super::perft`] with the last
/// move of the last turn counted in bulk ([`Mode::Bulk`]), on `threads`
/// threads.
pub fn sequences(pos: &Position, turns: u32, threads: usize) -> SequenceCounts {
    let mut run = Run::new(Mode::Bulk, 1);
    run.push(0, pos.clone(), turns, 1);
    run.finish(threads).0[0]
}

/// Open nodes past which a sharded count ([`Shards`]) opens no further
/// level: each level multiplies them by some 30 (and each holds a
/// position), so this bounds the memory of an opening that would not reach
/// the last turn (four turns from the start position open 1.5 million
/// nodes into 8 million).
const SHARD_OPEN_LIMIT: usize = 4 << 20;

/// A count of [`sequences`] split into shards. The tree is opened breadth
/// first, the same way whatever the thread count, to the start of the last
/// turn (or until [`SHARD_OPEN_LIMIT`] nodes), equal nodes merged: every
/// distinct position from which the last turn is counted is one node, so
/// that the last turn, where nearly all the work is, is counted once per
/// position, however many sequences reach it (four turns from the start
/// position: 131 million sequences reach 8 million positions). Shard `k`
/// (from 0) counts every `shards`-th node from the `k`-th, and shard 0 also
/// the sequences that ended while opening; the shards' counts add up to
/// [`sequences`].
pub struct Shards {
    tasks: Vec<Task>,
    ended: Tally,
    shards: usize,
}

impl Shards {
    pub fn new(pos: &Position, turns: u32, shards: usize) -> Shards {
        let mut run = Run::new(Mode::Bulk, 1);
        run.push(0, pos.clone(), turns, 1);
        while run.tasks.len() < SHARD_OPEN_LIMIT && run.tasks.iter().any(|t| t.turns > 1) {
            run.open_level(|task| task.turns > 1);
        }
        Shards {
            tasks: run.tasks,
            ended: run.tallies[0],
            shards: shards.max(1),
        }
    }

    /// Counts shard `shard` (from 0) on `threads` threads.
    pub fn count(&self, shard: usize, threads: usize) -> SequenceCounts {
        let mut run = Run::new(Mode::Bulk, 1);
        if shard == 0 {
            run.tallies[0] = self.ended;
        }
        run.tasks = self
            .tasks
            .iter()
            .skip(shard)
            .step_by(self.shards)
            .cloned()
            .collect();
        run.finish(threads).0[0]
    }
}

/// [`super::perft`] (exact `positions`) on `threads` threads.
pub fn perft_on(pos: &Position, turns: u32, threads: usize) -> PerftCounts {
    let mut run = Run::new(Mode::Positions, 1);
    run.push(0, pos.clone(), turns, 1);
    let (tallies, ends) = run.finish(threads);
    tallies[0].with_positions(ends[0].len() as u64)
}

/// [`sequences`] split by the first move.
pub fn divide_sequences(pos: &Position, turns: u32, threads: usize) -> Vec<(Move, SequenceCounts)> {
    let moves = legal_moves(pos);
    let mut run = Run::new(Mode::Bulk, moves.len());
    for (part, &mv) in moves.iter().enumerate() {
        run.add(part as u32, step(pos, mv, turns), 1);
    }
    let (tallies, _) = run.finish(threads);
    moves.iter().copied().zip(tallies).collect()
}

/// [`super::divide_with_total`] on `threads` threads.
pub fn divide_with_total_on(
    pos: &Position,
    turns: u32,
    threads: usize,
) -> (Vec<(Move, PerftCounts)>, PerftCounts) {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        // Stuck (or mated) already: nothing to split.
        return (Vec::new(), perft_on(pos, turns, threads));
    }
    let mut run = Run::new(Mode::Positions, moves.len());
    for (part, &mv) in moves.iter().enumerate() {
        run.add(part as u32, step(pos, mv, turns), 1);
    }
    let (tallies, ends) = run.finish(threads);
    let mut total = Tally::default();
    let mut parts = Vec::with_capacity(moves.len());
    let mut all: FxHashSet<[u64; 4]> = FxHashSet::default();
    for ((&mv, tally), part_ends) in moves.iter().zip(tallies).zip(ends) {
        total.add(tally);
        parts.push((mv, tally.with_positions(part_ends.len() as u64)));
        unite(&mut all, part_ends);
    }
    (parts, total.with_positions(all.len() as u64))
}

/// A node still to count, reached by `weight` sequences.
#[derive(Clone)]
struct Task {
    pos: Position,
    turns: u32,
    part: u32,
    weight: u64,
}

/// One count being prepared: the open nodes, the counts of the sequences
/// that ended while opening them (and their end positions, in `walk`).
struct Run {
    walk: Walk<'static>,
    tallies: Vec<Tally>,
    tasks: Vec<Task>,
    /// Where each (node, turns, part) of `tasks` is, to merge equal nodes.
    index: FxHashMap<([u64; 4], u32, u32), usize>,
}

impl Run {
    fn new(mode: Mode, parts: usize) -> Run {
        Run {
            walk: Walk::new(mode, parts),
            tallies: vec![Tally::default(); parts],
            tasks: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// A node to count, merged with an equal one of the same part.
    fn push(&mut self, part: u32, pos: Position, turns: u32, weight: u64) {
        let key = (pos.exact_key(), turns, part);
        match self.index.get(&key) {
            Some(&i) => {
                let task = &mut self.tasks[i];
                task.weight = task.weight.saturating_add(weight);
            }
            None => {
                self.index.insert(key, self.tasks.len());
                self.tasks.push(Task {
                    pos,
                    turns,
                    part,
                    weight,
                });
            }
        }
    }

    /// Where a move led: a node to count, or a sequence that ended.
    fn add(&mut self, part: u32, step: Step, weight: u64) {
        match step {
            Step::Node(pos, turns) => self.push(part, pos, turns, weight),
            Step::Leaf(tally, end) => {
                self.tallies[part as usize].add(tally.times(weight));
                if let Some(end) = end {
                    self.walk.end(part, end);
                }
            }
        }
    }

    /// Opens the nodes one move deeper, all at once, until there are
    /// `want` of them or none can be opened.
    fn open(&mut self, want: usize) {
        let mode = self.walk.mode;
        while self.tasks.len() < want && self.tasks.iter().any(|t| opens(mode, t)) {
            self.open_level(|task| opens(mode, task));
        }
    }

    /// Opens every node that `opens` one move deeper (the others stay).
    fn open_level(&mut self, opens: impl Fn(&Task) -> bool) {
        let level = std::mem::take(&mut self.tasks);
        self.index.clear();
        for task in level {
            if !opens(&task) {
                self.push(task.part, task.pos, task.turns, task.weight);
                continue;
            }
            let moves = legal_moves(&task.pos);
            if moves.is_empty() {
                self.tallies[task.part as usize].add(stuck(&task.pos).times(task.weight));
            }
            for &mv in moves.iter() {
                self.add(task.part, step(&task.pos, mv, task.turns), task.weight);
            }
        }
    }

    /// Counts every open node on `threads` threads: the counts by part and
    /// the distinct end positions by part.
    fn finish(mut self, threads: usize) -> (Vec<Tally>, Vec<FxHashSet<[u64; 4]>>) {
        let threads = threads.max(1);
        if threads > 1 {
            self.open(threads * NODES_PER_THREAD);
        }
        self.index = FxHashMap::default();
        let (mode, parts) = (self.walk.mode, self.tallies.len());
        let next = AtomicUsize::new(0);
        let tasks = &self.tasks;
        let work = || count_tasks(tasks, &next, mode, parts);
        let done: Vec<Counted> = thread::scope(|s| {
            // A thread that cannot be started leaves its share to the others.
            let helpers: Vec<_> = (1..threads.min(tasks.len()))
                .filter_map(|_| {
                    thread::Builder::new()
                        .stack_size(STACK_BYTES)
                        .spawn_scoped(s, work)
                        .ok()
                })
                .collect();
            let mut done = vec![work()];
            for helper in helpers {
                match helper.join() {
                    Ok(counted) => done.push(counted),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            done
        });
        let mut tallies = self.tallies;
        let mut ends = self.walk.ends;
        for (their_tallies, their_ends) in done {
            for (mine, theirs) in tallies.iter_mut().zip(their_tallies) {
                mine.add(theirs);
            }
            for (mine, theirs) in ends.iter_mut().zip(their_ends) {
                unite(mine, theirs);
            }
        }
        (tallies, ends)
    }
}

/// May this node be opened by [`Run::open`]? A bulk node is counted whole
/// by a thread (opening it would make every last move).
fn opens(mode: Mode, task: &Task) -> bool {
    !(mode == Mode::Bulk && is_bulk_node(&task.pos, task.turns))
}

/// One thread's counts by part and end positions by part.
type Counted = (Vec<Tally>, Vec<FxHashSet<[u64; 4]>>);

/// Counts the tasks the shared counter hands out, until none is left.
fn count_tasks(tasks: &[Task], next: &AtomicUsize, mode: Mode, parts: usize) -> Counted {
    let mut walk = Walk::new(mode, parts);
    let mut tallies = vec![Tally::default(); parts];
    while let Some(task) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
        let tally = walk.count(task.part, &task.pos, task.turns);
        tallies[task.part as usize].add(tally.times(task.weight));
    }
    (tallies, walk.ends)
}

/// Adds `b` to `a`, inserting the smaller set into the larger.
fn unite(a: &mut FxHashSet<[u64; 4]>, b: FxHashSet<[u64; 4]>) {
    if a.len() < b.len() {
        let small = std::mem::replace(a, b);
        a.extend(small);
    } else {
        a.extend(b);
    }
}
