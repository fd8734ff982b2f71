//! A sound lower bound on the moves the side to move needs to mate.
//!
//! At the end of a mating turn the enemy king (which does not move during our
//! turn) is in check, and every square next to it is either held by one of
//! its own pieces or attacked by us. Under the Italian rules one more escape
//! is closed: a king step that would uncover a check on our king is not
//! allowed either, so flights where that is possible are excused.
//!
//! Each target square (the king's square and its open flights) must be
//! attacked by one of our pieces at the end. A piece that attacks a target at
//! the end has made at least as many moves as it needs on an empty board to
//! reach a square attacking it (its real path is also a path on the empty
//! board; blockers only make it longer). A piece's moves serve all the targets
//! it covers, and different pieces' moves are different moves, so the turn
//! needs at least
//!     min over assignments of targets to pieces of
//!     sum over pieces of (max over its targets of its distance),
//! less one if we may still castle (castling moves the rook too). Nothing else
//! is assumed: enemy pieces only disappear during our turn (so their squares
//! now are a superset of their squares at the end), and squares our pieces
//! stand on are flights like empty ones.

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Move, MoveKind, Position, Role, Square};
use std::sync::OnceLock;

/// "Cannot": larger than any turn we search.
const FAR: u8 = 100;

/// For each piece role (knight, bishop, rook, queen, king) and squares `from`,
/// `target`: the fewest moves on an empty board from `from` to a square that
/// attacks `target` (0 when `from` already attacks it).
struct Reach {
    table: [[[u8; 64]; 64]; 5],
    /// The fewest moves from `from` to stand on a square, same layout.
    dist: [[[u8; 64]; 64]; 5],
    /// [`pawn_reach_uncached`] per colour, `from` and `target`.
    pawn: [[[u8; 64]; 64]; 2],
    /// Per role and `from`: the squares at each distance below [`RINGS`].
    rings: [[[Bitboard; RINGS]; 64]; 5],
}

/// Distances with a ring in [`Reach`] (the largest finite one is 7).
const RINGS: usize = 8;

fn slot(role: Role) -> usize {
    role.index() - 1
}

fn reach() -> &'static Reach {
    static REACH: OnceLock<Box<Reach>> = OnceLock::new();
    REACH.get_or_init(|| {
        let mut r = Box::new(Reach {
            table: [[[FAR; 64]; 64]; 5],
            dist: [[[FAR; 64]; 64]; 5],
            pawn: [[[FAR; 64]; 64]; 2],
            rings: [[[Bitboard::EMPTY; RINGS]; 64]; 5],
        });
        for us in [Color::White, Color::Black] {
            for from in Square::all() {
                for target in Square::all() {
                    r.pawn[us.index()][from.index()][target.index()] =
                        pawn_reach_uncached(us, from, target);
                }
            }
        }
        for role in [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            for from in Square::all() {
                // Breadth-first distances on the empty board.
                let mut dist = [FAR; 64];
                dist[from.index()] = 0;
                let mut frontier = from.bb();
                let mut d = 0;
                while frontier.nonempty() {
                    d += 1;
                    let mut next = Bitboard::EMPTY;
                    for s in frontier {
                        for t in attacks::piece(role, s, Bitboard::EMPTY) {
                            if dist[t.index()] == FAR {
                                dist[t.index()] = d;
                                next.set(t);
                            }
                        }
                    }
                    frontier = next;
                }
                r.dist[slot(role)][from.index()] = dist;
                for s in Square::all() {
                    if (dist[s.index()] as usize) < RINGS {
                        r.rings[slot(role)][from.index()][dist[s.index()] as usize].set(s);
                    }
                }
                for target in Square::all() {
                    // Attack sets are symmetric for these roles on an empty board.
                    let best = attacks::piece(role, target, Bitboard::EMPTY)
                        .map(|s| dist[s.index()])
                        .min()
                        .unwrap_or(FAR);
                    r.table[slot(role)][from.index()][target.index()] = best;
                }
            }
        }
        r
    })
}

/// Fewest moves of our pawn on `from` to stand on `to` as a pawn: one rank
/// a move, a file change costs a capture, and one double step from the
/// second rank while going straight.
fn pawn_steps(us: Color, from: Square, to: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    let ranks = to.relative_rank(us) as i32 - rank;
    let files = (to.file() as i32 - from.file() as i32).abs();
    if ranks < 0 || files > ranks || to.relative_rank(us) == 7 {
        return FAR;
    }
    let straight = ranks - files;
    let double = i32::from(rank == 1 && straight >= 2);
    (ranks - double) as u8
}

/// Moves of our pawn on `from` up to and including its promotion.
fn promotion_steps(us: Color, from: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    (7 - rank - i32::from(rank == 1)) as u8
}

/// Moves of our pawn on `from` up to and including its promotion on `to`
/// (a file change costs a capture).
fn promotion_steps_to(us: Color, from: Square, to: Square) -> u8 {
    let rank = from.relative_rank(us) as i32;
    let ranks = 7 - rank;
    let files = (to.file() as i32 - from.file() as i32).abs();
    if files > ranks || to.relative_rank(us) != 7 {
        return FAR;
    }
    let double = i32::from(rank == 1 && ranks - files >= 2);
    (ranks - double) as u8
}

/// Fewest moves of our pawn on `from` before it attacks `target`, as a pawn
/// or after promoting (a lower bound).
#[inline]
fn pawn_reach(us: Color, from: Square, target: Square) -> u8 {
    reach().pawn[us.index()][from.index()][target.index()]
}

/// [`pawn_reach`] computed from the rules of pawn moves.
fn pawn_reach_uncached(us: Color, from: Square, target: Square) -> u8 {
    let direct = attacks::pawn(us.other(), target)
        .map(|s| pawn_steps(us, from, s))
        .min()
        .unwrap_or(FAR);
    direct.min(promotion_steps(us, from))
}

/// Flights that a king step may not take under the Italian rules because the
/// step could uncover a check on our king (a lower-bound relaxation: we only
/// ask whether our king could stand behind the enemy king on the line of an
/// enemy slider by the end of the turn).
fn excused_flights(pos: &Position, us: Color, eksq: Square, moves: u32) -> Bitboard {
    let ours = pos.king_square(us);
    let castle_bonus =
        u32::from(pos.castling_rights() & if us == Color::White { 3 } else { 12 } != 0);
    let radius = moves + castle_bonus;
    let mut excused = Bitboard::EMPTY;
    for s in excusing_sliders(pos, us, eksq) {
        let line = attacks::line(s, eksq);
        let behind = line
            .into_iter()
            .any(|r| attacks::between(s, r).contains(eksq) && chebyshev(ours, r) <= radius);
        if behind {
            excused |= attacks::king(eksq) & !line;
        }
    }
    excused
}

/// The enemy sliders on a line through the enemy king (on an empty
/// board): the only pieces [`excused_flights`] looks at.
fn excusing_sliders(pos: &Position, us: Color, eksq: Square) -> Bitboard {
    let them = us.other();
    let rq = pos.pieces(them, Role::Rook) | pos.pieces(them, Role::Queen);
    let bq = pos.pieces(them, Role::Bishop) | pos.pieces(them, Role::Queen);
    (attacks::rook(eksq, Bitboard::EMPTY) & rq) | (attacks::bishop(eksq, Bitboard::EMPTY) & bq)
}

#[inline]
fn chebyshev(a: Square, b: Square) -> u32 {
    let df = (a.file() as i32 - b.file() as i32).unsigned_abs();
    let dr = (a.rank() as i32 - b.rank() as i32).unsigned_abs();
    df.max(dr)
}

/// Can the side to move possibly mate within `moves` moves? `false` is a
/// proof that it cannot; `true` means only that this bound does not exclude it.
pub fn may_mate(pos: &Position, moves: u32) -> bool {
    lower_bound(pos, moves) <= moves
}

/// A quick filter for the second-last move: after it, can one more move
/// complete the mating picture? The same relaxation as [`lower_bound`] with
/// one move left, prepared once for a node with two moves left and then
/// asked for each of its moves (only the moved piece changes).
///
/// Sound by construction: the targets are a subset of every child's (the
/// flights only grow as enemy pieces are captured, and the excused flights
/// are taken for the larger radius of two moves), and each piece's cover is
/// over-estimated on the empty board: what a piece attacks now, or could
/// attack after one move (the union of its one-move options).
pub struct LastTwo {
    targets: [Square; 9],
    count: usize,
    castling_slack: u8,
    us: Color,
    /// Per square of ours: targets covered now, and within one move.
    now: [u16; 64],
    within: [u16; 64],
    /// The targets covered now by at least one and by at least two of our
    /// pieces.
    once: u16,
    twice: u16,
    /// The targets covered now by at least three of our pieces (for
    /// [`LastTwo::may_mate_after_two`]).
    thrice: u16,
    ours: Bitboard,
    /// The [`BoundCache`] entry for these targets, and where it was last
    /// found.
    key: (Square, u64, Color, u8),
    hint: std::cell::Cell<usize>,
    /// For the needed target sets met last (`u16::MAX`: none): our pieces
    /// that cover the whole set from one end square within one move.
    singles: [std::cell::Cell<(u16, Bitboard)>; SINGLES],
    /// The next entry of `singles` to replace.
    next_single: std::cell::Cell<usize>,
}

/// Entries of [`LastTwo::singles`].
const SINGLES: usize = 4;

impl LastTwo {
    /// Prepares the filter for `pos`, which has two moves left.
    pub fn new(pos: &Position) -> LastTwo {
        LastTwo::prepare(pos, None, 2)
    }

    /// [`LastTwo::new`] taking the pieces' cover from the levels kept in
    /// `cache` (the same values).
    pub fn new_cached(pos: &Position, cache: &mut BoundCache) -> LastTwo {
        LastTwo::prepare(pos, Some(cache), 2)
    }

    /// The filter with the flights excused for `moves` moves left.
    fn prepare(pos: &Position, cache: Option<&mut BoundCache>, moves: u32) -> LastTwo {
        let us = pos.side_to_move();
        let them = us.other();
        let eksq = pos.king_square(them);
        let mut flights = attacks::king(eksq) & !pos.color_bb(them);
        let first_move_may_check = pos
            .rules()
            .check_allowed(0, pos.rules().next_turn_length(pos.turn_length()));
        if !first_move_may_check {
            flights &= !excused_flights(pos, us, eksq, moves);
        }
        let mut f = LastTwo {
            targets: [Square(0); 9],
            count: 1,
            castling_slack: u8::from(
                pos.castling_rights() & if us == Color::White { 3 } else { 12 } != 0,
            ),
            us,
            now: [0; 64],
            within: [0; 64],
            once: 0,
            twice: 0,
            thrice: 0,
            ours: pos.color_bb(us),
            key: (eksq, flights.0 | eksq.bb().0, us, 0),
            hint: std::cell::Cell::new(usize::MAX),
            singles: Default::default(),
            next_single: std::cell::Cell::new(0),
        };
        for e in &f.singles {
            e.set((u16::MAX, Bitboard::EMPTY));
        }
        f.key.3 = f.castling_slack;
        f.targets[0] = eksq;
        for sq in flights {
            f.targets[f.count] = sq;
            f.count += 1;
        }
        let mut entry = cache.map(|c| c.entry_hinted(f.key, &f.targets[..f.count], &f.hint));
        for from in pos.color_bb(us) {
            if let Some(piece) = pos.piece_at(from) {
                let (n, w) = match entry.as_mut() {
                    Some(e) => {
                        let l = e.levels(piece.role, from);
                        (l[0], l[1])
                    }
                    None => f.cover(piece.role, from),
                };
                f.now[from.index()] = n;
                f.within[from.index()] = w;
                f.thrice |= f.twice & n;
                f.twice |= f.once & n;
                f.once |= n;
            }
        }
        f
    }

    /// The targets a piece covers from `from` now, and now or after one move.
    fn cover(&self, role: Role, from: Square) -> (u16, u16) {
        let r = reach();
        let (mut now, mut within) = (0u16, 0u16);
        for (i, &t) in self.targets[..self.count].iter().enumerate() {
            let d = match role {
                Role::Pawn => pawn_reach(self.us, from, t),
                Role::King if i == 0 => FAR,
                Role::King => r.table[slot(Role::King)][from.index()][t.index()]
                    .saturating_sub(self.castling_slack),
                role => r.table[slot(role)][from.index()][t.index()],
            };
            if d == 0 {
                now |= 1 << i;
            }
            if d <= 1 {
                within |= 1 << i;
            }
        }
        (now, within)
    }

    /// In `pos` (the node this filter was made for), after our piece moved
    /// `from`-`to` (becoming `role`; castling is not handled and always
    /// passes), may the last move still mate?
    pub fn may_mate_after(
        &self,
        pos: &Position,
        cache: &mut BoundCache,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
    ) -> bool {
        self.may_mate_after_movable(pos, cache, (from, to), role, castle, Bitboard::ALL)
    }

    /// [`LastTwo::may_mate_after`] when only the moved piece and our pieces
    /// on `movable` may make the last move (the others stay where they are).
    pub fn may_mate_after_movable(
        &self,
        pos: &Position,
        cache: &mut BoundCache,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
        movable: Bitboard,
    ) -> bool {
        if castle {
            return true;
        }
        let full: u16 = (1 << self.count) - 1;
        let entry = cache.entry_hinted(self.key, &self.targets[..self.count], &self.hint);
        let l = entry.levels(role, to);
        let (moved_now, moved_within) = (l[0], l[1]);
        // What the others cover now: each target covered by two, or by one
        // other than the moved piece.
        let free = moved_now | self.twice | (self.once & !self.now[from.index()]);
        let need = full & !free;
        if need == 0 {
            return true;
        }
        // One piece must cover the rest from one end square, in one move.
        let single = |entry: &mut CacheEntry, role: Role, sq: Square| {
            // (The options are sorted by cost.)
            entry
                .options(role, sq)
                .iter()
                .take_while(|&&(_, c)| c <= 1)
                .any(|&(m, _)| m & need == need)
        };
        if moved_within & need == need && single(entry, role, to) {
            return true;
        }
        // Which of our pieces could do it depends only on `need` (and
        // siblings mostly share it).
        let singles = match self.singles.iter().find(|e| e.get().0 == need) {
            Some(e) => e.get().1,
            None => {
                let mut singles = Bitboard::EMPTY;
                for sq in self.ours {
                    if self.within[sq.index()] & need == need
                        && pos.piece_at(sq).is_some_and(|p| single(entry, p.role, sq))
                    {
                        singles.set(sq);
                    }
                }
                let i = self.next_single.get();
                self.singles[i].set((need, singles));
                self.next_single.set((i + 1) % SINGLES);
                singles
            }
        };
        (singles & movable & !from.bb()).nonempty()
    }
}

impl LastTwo {
    /// The last-move filter of [`LastOne`], from the filter of the node two
    /// moves before the end: after the move `first` made there (from-to,
    /// the piece becoming `first_role`; not castling), may the last move
    /// `from`-`to` (becoming `role`; castling always passes) mate? The
    /// targets are this node's (a subset of the end position's, as for
    /// [`LastOne`]); the others' cover comes from the counts kept here,
    /// without the two moved pieces.
    #[allow(clippy::too_many_arguments)]
    pub fn may_mate_after_two(
        &self,
        cache: &mut BoundCache,
        (x, x_to): (Square, Square),
        first_role: Role,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
    ) -> bool {
        if castle {
            return true;
        }
        let full: u16 = (1 << self.count) - 1;
        let entry = cache.entry_hinted(self.key, &self.targets[..self.count], &self.hint);
        let last = entry.levels(role, to)[0];
        let x_now = self.now[x.index()];
        let free = if from == x_to {
            // The same piece moves twice: the others are this node's.
            last | self.twice | (self.once & !x_now)
        } else {
            // Two pieces moved: a target stays covered by the others if
            // three cover it here, two not both of them, or one neither.
            let y_now = self.now[from.index()];
            let first = entry.levels(first_role, x_to)[0];
            last | first
                | self.thrice
                | (self.twice & !(x_now & y_now))
                | (self.once & !(x_now | y_now))
        };
        free & full == full
    }
}

/// A filter for the last move: after it, does every target (the enemy
/// king's square and its open flights, as [`LastTwo`] takes them for one
/// move left) stand attacked on the empty board? If not, the enemy king is
/// not in check or has a flight, so the move does not mate.
///
/// Sound like [`LastTwo`]: the targets are a subset of the child's (a
/// capture only opens flights; the excused flights are taken for our king
/// anywhere within one move, and for the enemy sliders now), and a piece
/// attacks on the empty board all it attacks on the real one (a slider's
/// line through the king includes the square behind it, which the king
/// may not step to either).
pub struct LastOne(LastTwo);

impl LastOne {
    /// Prepares the filter for `pos`, which has one move left, taking the
    /// pieces' cover from the levels kept in `cache`.
    pub fn new_cached(pos: &Position, cache: &mut BoundCache) -> LastOne {
        LastOne(LastTwo::prepare(pos, Some(cache), 1))
    }

    /// In `pos` (the node this filter was made for), after our piece moved
    /// `from`-`to` (becoming `role`; castling always passes), may the
    /// opponent be mated?
    pub fn may_mate_after(
        &self,
        cache: &mut BoundCache,
        (from, to): (Square, Square),
        role: Role,
        castle: bool,
    ) -> bool {
        if castle {
            return true;
        }
        let f = &self.0;
        let full: u16 = (1 << f.count) - 1;
        let entry = cache.entry_hinted(f.key, &f.targets[..f.count], &f.hint);
        let moved_now = entry.levels(role, to)[0];
        // What the others cover: each target covered by two, or by one
        // other than the moved piece.
        let free = moved_now | f.twice | (f.once & !f.now[from.index()]);
        free & full == full
    }
}

/// A lower bound on the moves needed to mate (see the module text); values
/// above `cap` are reported as `cap + 1`. Uses a cache per thread: the
/// evaluation asks this of every position it scores, and a fresh cache each
/// time cost four fifths of its time.
pub fn lower_bound(pos: &Position, cap: u32) -> u32 {
    thread_local! {
        static CACHE: std::cell::RefCell<BoundCache> = std::cell::RefCell::default();
    }
    CACHE.with(|cache| match cache.try_borrow_mut() {
        Ok(mut cache) => lower_bound_with(pos, cap, &mut cache),
        // (Never re-entered today; a fresh cache keeps it correct if it is.)
        Err(_) => lower_bound_with(pos, cap, &mut BoundCache::default()),
    })
}

/// The options of one piece for the target set of a cache entry: each a set
/// of targets (bit `i` is target `i`) it may cover from one end square, and
/// the fewest moves to get there; only options no other one dominates,
/// cheapest first.
type Options = [(u16, u8)];

/// The key of a target set: the enemy king, the targets, our colour and the
/// castling slack.
type Key = (Square, u64, Color, u8);

/// Per-searcher memory for [`lower_bound_with`]: the options of each piece
/// (role and square) for the target sets met recently. The enemy king does
/// not move during our turn and its flights change only by captures, so a
/// search meets few target sets; the evaluation meets many, so the entries
/// are found by a hash of the key (two ways per set, the least recently used
/// one replaced) and their memory is reused.
#[derive(Default)]
pub struct BoundCache {
    /// `WAYS * SETS` entries once used (allocated on demand).
    entries: Vec<Option<Box<CacheEntry>>>,
    /// Counts lookups, for the replacement.
    tick: u32,
    /// Counts the entries made (each gets its number).
    generation: u64,
    /// Working memory of [`min_cover_dp`] and [`lower_bound_movable`].
    scratch: Option<Box<Scratch>>,
}

/// Buffers reused from call to call (not cleared: each call writes what it
/// reads).
struct Scratch {
    /// [`min_cover_dp`]'s table per layer, indexed by target set.
    dp: [[u8; 512]; MAX_LAYERS],
    /// The options gathered for [`min_cover`] (and room to copy a whole
    /// [`Restricted`] after the last).
    flat: [(u16, u8); MAX_FLAT + RESTRICTED],
    /// Recently gathered options of one mover (see [`Restricted`]), found by
    /// a hash of what they depend on.
    restricted: Box<[Restricted; RESTRICTED_SLOTS]>,
}

/// The options of one mover as [`lower_bound_movable`] gathers them for
/// [`min_cover`]: those within the budget, restricted to the targets still
/// needed, without the dominated ones. Siblings in the search differ in one
/// piece, so the others' lists are met again and again.
#[derive(Clone, Copy)]
struct Restricted {
    /// The cache entry's generation (0: never used)...
    generation: u64,
    /// ...and the role, square, needed targets and budget ([`Restricted::what`]).
    what: u32,
    len: u8,
    options: [(u16, u8); RESTRICTED],
}

/// Room in a [`Restricted`] (longer lists are not kept).
const RESTRICTED: usize = 15;
/// [`Restricted`] lists kept (a power of two).
const RESTRICTED_SLOTS: usize = 1024;

impl Restricted {
    const EMPTY: Restricted = Restricted {
        generation: 0,
        what: 0,
        len: 0,
        options: [(0, 0); RESTRICTED],
    };

    #[inline]
    fn what(role: Role, from: Square, need: u16, budget: u8) -> u32 {
        (role.index() as u32) << 28
            | (from.index() as u32) << 20
            | u32::from(need) << 4
            | u32::from(budget)
    }

    #[inline]
    fn slot(generation: u64, what: u32) -> usize {
        let h = (generation as u32 ^ what.rotate_left(7)).wrapping_mul(0x9E37_79B9);
        (h >> (32 - RESTRICTED_SLOTS.trailing_zeros())) as usize
    }
}

struct CacheEntry {
    key: Key,
    /// Which use of this memory (see [`BoundCache::generation`]).
    generation: u64,
    /// The targets in bit order: the king's square, then the flights.
    targets: [Square; 9],
    count: usize,
    /// The tick of the last lookup.
    used: u32,
    /// Per role and square (bit `role * 64 + square`): are the options and
    /// the levels computed?
    options_done: [u64; 6],
    levels_done: [u64; 6],
    /// Per role and square: where its options are in `arena` (start, len).
    spans: [(u32, u32); 6 * 64],
    arena: Vec<(u16, u8)>,
    /// Per role and square: `levels[k]` is the set of targets the piece
    /// attacks after at most `k` moves (on the empty board), computed on
    /// first use (see [`CacheEntry::levels`]).
    levels: [Levels; 6 * 64],
    /// Per role (the pawn's: ours) and square: the targets a piece there
    /// attacks on the empty board; computed per role on first use.
    cover: [[u16; 64]; 6],
    /// Per role: the squares with a nonzero `cover`.
    cover_any: [Bitboard; 6],
    cover_done: u8,
    /// Per piece role (not the pawn): the end squares with the same cover,
    /// grouped (the cover and the squares), computed with `cover`.
    groups: [Vec<(u16, Bitboard)>; 6],
    /// For the queen and the knight, per group: the fewest moves from each
    /// square of our promotion rank to one of its squares; computed on first
    /// use (bit `role` of `promo_done`).
    promo_dist: [Vec<[u8; 8]>; 6],
    promo_done: u8,
    /// [`CacheEntry::compute_options`]'s working memory: the candidate
    /// options, and each target set's place among them (`u16::MAX`: none;
    /// restored after each use).
    raw: Vec<(u16, u8)>,
    place: Vec<u16>,
}

/// Distances of 15 or more count as 15 (none that large is finite here;
/// counting one as smaller is still sound).
const LEVELS: usize = 16;
type Levels = [u16; LEVELS];

impl BoundCache {
    /// Sets of entries (a power of two), and entries per set.
    const SETS: usize = 32;
    const WAYS: usize = 2;

    /// The entry for `key` (with these targets), made if needed.
    /// [`BoundCache::entry`], first trying the entry at `hint` (where this
    /// key was found last time), and updating the hint.
    #[inline]
    fn entry_hinted(
        &mut self,
        key: Key,
        targets: &[Square],
        hint: &std::cell::Cell<usize>,
    ) -> &mut CacheEntry {
        let i = hint.get();
        if let Some(Some(e)) = self.entries.get(i)
            && e.key == key
        {
            self.tick = self.tick.wrapping_add(1);
            let e = self.entries[i].as_mut().expect("entry made");
            e.used = self.tick;
            return e;
        }
        let i = self.entry_index(key, targets);
        hint.set(i);
        self.entries[i].as_mut().expect("entry made")
    }

    /// The index of the entry for `key`, first trying `hint` (where it was
    /// last time), which is updated.
    #[inline]
    fn entry_index_hinted(&mut self, key: Key, targets: &[Square], hint: &mut usize) -> usize {
        let i = *hint;
        if let Some(Some(e)) = self.entries.get_mut(i)
            && e.key == key
        {
            self.tick = self.tick.wrapping_add(1);
            e.used = self.tick;
            return i;
        }
        *hint = self.entry_index(key, targets);
        *hint
    }

    fn entry_index(&mut self, key: Key, targets: &[Square]) -> usize {
        if self.entries.is_empty() {
            self.entries.resize_with(Self::SETS * Self::WAYS, || None);
        }
        self.tick = self.tick.wrapping_add(1);
        // (The targets include the king's square.)
        let h = (key.1.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (key.2.index() as u64) << 1
            ^ u64::from(key.3))
        .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let set = ((h >> 40) as usize & (Self::SETS - 1)) * Self::WAYS;
        // Replace an empty entry, else the least recently used.
        let mut victim = set;
        let mut empty = false;
        let mut oldest = 0;
        for i in set..set + Self::WAYS {
            match &mut self.entries[i] {
                Some(e) if e.key == key => {
                    e.used = self.tick;
                    return i;
                }
                Some(e) => {
                    let age = self.tick.wrapping_sub(e.used);
                    if !empty && age >= oldest {
                        oldest = age;
                        victim = i;
                    }
                }
                None => {
                    if !empty {
                        empty = true;
                        victim = i;
                    }
                }
            }
        }
        let slot = &mut self.entries[victim];
        let e = slot.get_or_insert_with(CacheEntry::boxed);
        e.reset(key, targets);
        self.generation += 1;
        e.generation = self.generation;
        e.used = self.tick;
        victim
    }

    /// The entry at `i` and the working memory.
    fn entry_and_scratch(&mut self, i: usize) -> (&mut CacheEntry, &mut Scratch) {
        let scratch = self.scratch.get_or_insert_with(|| {
            Box::new(Scratch {
                dp: [[u8::MAX; 512]; MAX_LAYERS],
                flat: [(0, 0); MAX_FLAT + RESTRICTED],
                restricted: Box::new([Restricted::EMPTY; RESTRICTED_SLOTS]),
            })
        });
        (self.entries[i].as_mut().expect("entry made"), scratch)
    }
}

impl CacheEntry {
    fn boxed() -> Box<CacheEntry> {
        Box::new(CacheEntry {
            key: (Square(0), 0, Color::White, 0),
            generation: 0,
            targets: [Square(0); 9],
            count: 0,
            used: 0,
            options_done: [0; 6],
            levels_done: [0; 6],
            spans: [(0, 0); 6 * 64],
            arena: Vec::new(),
            levels: [[0; LEVELS]; 6 * 64],
            cover: [[0; 64]; 6],
            cover_any: [Bitboard::EMPTY; 6],
            cover_done: 0,
            groups: Default::default(),
            promo_dist: Default::default(),
            promo_done: 0,
            raw: Vec::new(),
            place: vec![u16::MAX; 512],
        })
    }

    /// Makes this the (empty) entry of `key`.
    fn reset(&mut self, key: Key, targets: &[Square]) {
        self.key = key;
        self.targets = [Square(0); 9];
        self.targets[..targets.len()].copy_from_slice(targets);
        self.count = targets.len();
        self.options_done = [0; 6];
        self.levels_done = [0; 6];
        self.arena.clear();
        self.cover_done = 0;
        self.promo_done = 0;
    }

    /// The targets our `role` on `from` covers within each number of moves.
    #[inline]
    fn levels(&mut self, role: Role, from: Square) -> &Levels {
        let slot = role.index() * 64 + from.index();
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        if self.levels_done[word] & bit == 0 {
            self.levels[slot] = self.compute_levels(role, from);
            self.levels_done[word] |= bit;
        }
        &self.levels[slot]
    }

    #[cold]
    #[inline(never)]
    fn compute_levels(&self, role: Role, from: Square) -> Levels {
        let (_, _, us, slack) = self.key;
        let r = reach();
        let mut levels = [0u16; LEVELS];
        for (i, &t) in self.targets[..self.count].iter().enumerate() {
            let d = match role {
                Role::Pawn => pawn_reach(us, from, t),
                // Our king never gives check.
                Role::King if i == 0 => FAR,
                // Castling moves the king two squares with one move.
                Role::King => {
                    r.table[slot(Role::King)][from.index()][t.index()].saturating_sub(slack)
                }
                role => r.table[slot(role)][from.index()][t.index()],
            };
            if d >= FAR {
                continue;
            }
            for l in levels[(d as usize).min(LEVELS - 1)..].iter_mut() {
                *l |= 1 << i;
            }
        }
        levels
    }

    /// The targets a piece of `role` (the pawn: ours) attacks from each
    /// square on the empty board, and the squares where that is any.
    fn cover(&mut self, role: Role) -> (&[u16; 64], Bitboard) {
        let bit = 1u8 << role.index();
        if self.cover_done & bit == 0 {
            let us = self.key.2;
            let mut cover = [0u16; 64];
            let mut any = Bitboard::EMPTY;
            for (i, &t) in self.targets[..self.count].iter().enumerate() {
                // Attack sets are symmetric on an empty board (the pawn's
                // with the colours swapped).
                let from = match role {
                    Role::Pawn => attacks::pawn(us.other(), t),
                    role => attacks::piece(role, t, Bitboard::EMPTY),
                };
                any |= from;
                for sq in from {
                    cover[sq.index()] |= 1 << i;
                }
            }
            self.cover[role.index()] = cover;
            self.cover_any[role.index()] = any;
            self.cover_done |= bit;
            if role != Role::Pawn {
                // The end squares: not the enemy king's, nor (for our king)
                // next to it.
                let eksq = self.key.0;
                let mut squares = any & !eksq.bb();
                if role == Role::King {
                    squares &= !attacks::king(eksq);
                }
                let groups = &mut self.groups[role.index()];
                groups.clear();
                for sq in squares {
                    let m = cover[sq.index()];
                    match groups.iter_mut().find(|g| g.0 == m) {
                        Some(g) => g.1.set(sq),
                        None => groups.push((m, sq.bb())),
                    }
                }
            }
        }
        (&self.cover[role.index()], self.cover_any[role.index()])
    }

    /// Fills `promo_dist` for `role`.
    fn promotion_distances(&mut self, role: Role) {
        let bit = 1u8 << role.index();
        if self.promo_done & bit != 0 {
            return;
        }
        self.cover(role);
        let us = self.key.2;
        let rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
        let rings = &reach().rings[slot(role)];
        let dists = &mut self.promo_dist[role.index()];
        dists.clear();
        for &(_, squares) in &self.groups[role.index()] {
            let mut d = [FAR; 8];
            for (i, q) in rank.into_iter().enumerate() {
                if let Some(k) = rings[q.index()]
                    .iter()
                    .position(|&ring| (ring & squares).nonempty())
                {
                    d[i] = k as u8;
                }
            }
            dists.push(d);
        }
        self.promo_done |= bit;
    }

    #[inline]
    fn options(&mut self, role: Role, from: Square) -> &Options {
        let slot = role.index() * 64 + from.index();
        let (word, bit) = (slot / 64, 1u64 << (slot % 64));
        if self.options_done[word] & bit == 0 {
            self.add_options(role, from);
        }
        let (start, len) = self.spans[slot];
        &self.arena[start as usize..(start + len) as usize]
    }

    /// Computes the options of `role` on `from` into the arena.
    #[cold]
    #[inline(never)]
    fn add_options(&mut self, role: Role, from: Square) {
        let slot = role.index() * 64 + from.index();
        let start = self.arena.len();
        self.compute_options(role, from);
        self.spans[slot] = (start as u32, (self.arena.len() - start) as u32);
        self.options_done[slot / 64] |= 1u64 << (slot % 64);
    }

    /// Appends to the arena every end square from which the piece attacks
    /// some target (on the empty board) with the moves to get there, reduced
    /// to the options no other one dominates (covers a superset at no higher
    /// cost), cheapest first (in the order first met among equals).
    fn compute_options(&mut self, role: Role, from: Square) {
        let (eksq, _, us, slack) = self.key;
        let r = reach();
        let mut raw = std::mem::take(&mut self.raw);
        raw.clear();
        let mut place = std::mem::take(&mut self.place);
        let mut add = |mask: u16, cost: u8| {
            if mask == 0 || cost >= FAR {
                return;
            }
            match place[mask as usize] {
                u16::MAX => {
                    place[mask as usize] = raw.len() as u16;
                    raw.push((mask, cost));
                }
                i => {
                    let o = &mut raw[i as usize];
                    o.1 = o.1.min(cost);
                }
            }
        };
        match role {
            Role::Pawn => {
                let (cover, squares) = self.cover(Role::Pawn);
                // Nothing of ours can end on the enemy king's square.
                for sq in squares & !eksq.bb() {
                    let cost = pawn_steps(us, from, sq);
                    if cost > 0 {
                        add(cover[sq.index()], cost);
                    }
                }
                // After promoting on `q`, the new piece (a queen covers all a
                // rook or bishop would, at no more moves) goes on from there:
                // per group of end squares with the same cover, the fewest
                // moves over the promotion squares. (Square by square, every
                // group is met first at the first promotion square within
                // reach, the queen's groups before the knight's, in the
                // groups' order: the options' order is the same.)
                let rank = Bitboard::rank(if us == Color::White { 7 } else { 0 });
                let mut promo = [FAR; 8];
                for (i, q) in rank.into_iter().enumerate() {
                    promo[i] = promotion_steps_to(us, from, q);
                }
                for role in [Role::Queen, Role::Knight] {
                    self.promotion_distances(role);
                    for (g, &(m, _)) in self.groups[role.index()].iter().enumerate() {
                        let to_group = &self.promo_dist[role.index()][g];
                        let cost = promo
                            .iter()
                            .zip(to_group)
                            .map(|(&p, &d)| p.saturating_add(d))
                            .min()
                            .unwrap_or(FAR);
                        add(m, cost);
                    }
                }
            }
            _ => {
                // Per group of end squares with the same cover: the fewest
                // moves to any of them (not counting `from` itself). (The
                // options come in another order than square by square among
                // equal costs; a piece has at most 63 options, fewer than
                // the room in [`min_cover_dp`], so nothing depends on it.)
                self.cover(role);
                let rings = &r.rings[slot(role)][from.index()];
                for &(m, squares) in &self.groups[role.index()] {
                    let squares = squares & !from.bb();
                    if squares.is_empty() {
                        continue;
                    }
                    let Some(d) = rings[1..]
                        .iter()
                        .position(|&ring| (ring & squares).nonempty())
                    else {
                        continue;
                    };
                    let mut cost = d as u8 + 1;
                    if role == Role::King {
                        // Castling moves the king two squares with one move.
                        cost = cost.saturating_sub(slack);
                    }
                    add(m, cost);
                }
            }
        }
        for &(m, _) in &raw {
            place[m as usize] = u16::MAX;
        }
        self.place = place;
        // Cheapest first (the bound stops at the first over its budget),
        // among equal costs in the order met. An option is dominated by
        // another with a superset (the sets in `raw` are distinct) at no
        // higher cost; if that one is dominated too, so is it by the one
        // dominating that. So only the options kept at lower costs and the
        // options of the same cost need to be looked at.
        raw.sort_by_key(|o| o.1);
        let start = self.arena.len();
        let mut i = 0;
        while i < raw.len() {
            let c = raw[i].1;
            let j = i + raw[i..].iter().take_while(|o| o.1 == c).count();
            let kept = self.arena.len();
            for a in i..j {
                let m = raw[a].0;
                let dominated = self.arena[start..kept].iter().any(|o| o.0 & m == m)
                    || raw[i..j]
                        .iter()
                        .enumerate()
                        .any(|(b, o)| i + b != a && o.0 & m == m);
                if !dominated {
                    self.arena.push((m, c));
                }
            }
            i = j;
        }
        self.raw = raw;
    }
}

/// [`lower_bound`] with a cache of piece options kept between calls.
pub fn lower_bound_with(pos: &Position, cap: u32, cache: &mut BoundCache) -> u32 {
    lower_bound_movable(pos, cap, cache, Bitboard::ALL, 0)
}

/// Pieces of one side the cover search can hold.
const MAX_MOVERS: u32 = 16;

/// [`lower_bound_with`] when only our pieces on `movable` and at most
/// `recruits` others may move (the pieces that do not move cover only what
/// they attack now).
pub fn lower_bound_movable(
    pos: &Position,
    cap: u32,
    cache: &mut BoundCache,
    movable: Bitboard,
    recruits: u32,
) -> u32 {
    let us = pos.side_to_move();
    if pos.color_bb(us).count() > MAX_MOVERS {
        // More pieces than a game can have (a FEN may set up 17): the
        // arrays below hold 16 movers, and 1 is a sound bound.
        return 1;
    }
    let them = us.other();
    let eksq = pos.king_square(them);
    let mut flights = attacks::king(eksq) & !pos.color_bb(them);
    let first_move_may_check = pos
        .rules()
        .check_allowed(0, pos.rules().next_turn_length(pos.turn_length()));
    if !first_move_may_check {
        flights &= !excused_flights(pos, us, eksq, cap);
    }
    // Targets: bit 0 is the king's square, then the open flights.
    let mut targets = [Square(0); 9];
    targets[0] = eksq;
    let mut count = 1;
    for f in flights {
        targets[count] = f;
        count += 1;
    }
    let full: u16 = (1 << count) - 1;

    // For each piece: the targets it covers now and within the budget.
    let castling_slack =
        u32::from(pos.castling_rights() & if us == Color::White { 3 } else { 12 } != 0);
    let key = (eksq, flights.0 | eksq.bb().0, us, castling_slack as u8);
    let index = cache.entry_index(key, &targets[..count]);
    let (entry, scratch) = cache.entry_and_scratch(index);
    let level = (cap as usize).min(LEVELS - 1);
    let mut movers = [(Square(0), Role::Pawn); 16];
    let mut pieces = 0;
    let mut free: u16 = 0;
    let mut reachable: u16 = 0;
    // Movers that would be recruits (bit per mover index).
    let mut new_mask: u32 = 0;
    for from in pos.color_bb(us) {
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        let l = entry.levels(piece.role, from);
        let now = l[0];
        let fixed = !movable.contains(from);
        let later = if !fixed || recruits > 0 {
            l[level] & !now
        } else {
            0
        };
        free |= now;
        reachable |= now | later;
        if later != 0 {
            if fixed {
                new_mask |= 1 << pieces;
            }
            movers[pieces] = (from, piece.role);
            pieces += 1;
        }
    }
    if reachable != full {
        return cap + 1;
    }
    // No limit when every candidate recruit may come.
    let limit = if new_mask.count_ones() <= recruits || recruits as usize >= MAX_LAYERS {
        Recruits::NONE
    } else {
        Recruits {
            new_mask,
            max: recruits,
        }
    };
    let need = full & !free;
    if need == 0 {
        return 0;
    }
    // Castling moves king and rook with one move, so the per-piece counts may
    // exceed the moves made by one.
    let budget = (cap + castling_slack).min(FAR as u32 - 1) as u8;
    // Each piece ends on one square and covers what it attacks from there
    // (on an empty board): its options are (targets covered, moves to get
    // there). The answer is the minimum total cost over one option per
    // piece covering every target still needed.
    let best = if budget <= DFS_BUDGET {
        // (Kept from call to call: only the first `n` are read.)
        let flat = &mut scratch.flat;
        let mut starts = [0u16; 17];
        // Per budget and target: the movers with an option covering it
        // within that budget.
        let mut who = [[0u32; 9]; DFS_BUDGET as usize + 1];
        let mut n = 0;
        let mut overflow = false;
        for (p, &(from, role)) in movers[..pieces].iter().enumerate() {
            starts[p] = n as u16;
            match gather(
                entry,
                &mut scratch.restricted,
                flat,
                n,
                (role, from),
                need,
                budget,
            ) {
                Some(end) => {
                    add_who(&mut who, &flat[n..end], p);
                    n = end;
                }
                None => {
                    overflow = true;
                    break;
                }
            }
        }
        starts[pieces] = n as u16;
        if overflow {
            min_cover_dp(entry, &mut scratch.dp, movers, pieces, need, budget, limit)
        } else {
            for b in 1..=budget as usize {
                let (lower, this) = who.split_at_mut(b);
                for (w, &l) in this[0][..count].iter_mut().zip(&lower[b - 1][..count]) {
                    *w |= l;
                }
            }
            let problem = Cover {
                flat: &flat[..n],
                starts: &starts[..=pieces],
                who: &who,
                limit,
            };
            if coverable(&who[budget as usize], need, limit.free(0)) {
                min_cover(&problem, need, 0, budget)
            } else {
                FAR
            }
        }
    } else {
        min_cover_dp(entry, &mut scratch.dp, movers, pieces, need, budget, limit)
    };
    if best > budget {
        cap + 1
    } else {
        (best as u32).saturating_sub(castling_slack)
    }
}

/// Appends to `flat` from `n` the options of our `role` on `from` for
/// [`min_cover`]: those within `budget`, restricted to the targets in `need`,
/// without the ones a cheaper (or equal) option of the same piece covers
/// too. Returns where they end, or `None` when `flat` is full. Kept lists
/// are found in `restricted` (siblings in the search differ in one piece, so
/// the others' lists are met again and again).
#[inline]
fn gather(
    entry: &mut CacheEntry,
    restricted: &mut [Restricted; RESTRICTED_SLOTS],
    flat: &mut [(u16, u8); MAX_FLAT + RESTRICTED],
    mut n: usize,
    (role, from): (Role, Square),
    need: u16,
    budget: u8,
) -> Option<usize> {
    let start = n;
    let what = Restricted::what(role, from, need, budget);
    let slot = Restricted::slot(entry.generation, what);
    let kept = &mut restricted[slot];
    if kept.generation == entry.generation && kept.what == what {
        let len = kept.len as usize;
        if n + len > MAX_FLAT {
            return None;
        }
        // (A copy of fixed size is cheaper; `flat` has the room.)
        flat[n..n + RESTRICTED].copy_from_slice(&kept.options);
        return Some(n + len);
    }
    let mut union = 0u16;
    // The options are sorted by cost; an option whose needed targets a
    // cheaper (or equal) one of the same piece covers too is never needed.
    for &(m, c) in entry.options(role, from).iter() {
        if c > budget {
            break;
        }
        let m = m & need;
        // (Only an option within the union of those kept so far may be
        // dominated.)
        if m == 0 || m & !union == 0 && flat[start..n].iter().any(|o| o.0 & m == m) {
            continue;
        }
        union |= m;
        if n == MAX_FLAT {
            return None;
        }
        flat[n] = (m, c);
        n += 1;
    }
    if n - start <= RESTRICTED {
        kept.generation = entry.generation;
        kept.what = what;
        kept.len = (n - start) as u8;
        kept.options
            .copy_from_slice(&flat[start..start + RESTRICTED]);
    }
    Some(n)
}

/// Adds mover `p` with its gathered `options` (cheapest first) to the
/// per-cost target masks: a target counts at the least cost covering it
/// (the prefix over costs, done after, gives it to the higher budgets).
#[inline]
fn add_who(who: &mut [[u32; 9]; DFS_BUDGET as usize + 1], options: &[(u16, u8)], p: usize) {
    let mut seen = 0u16;
    for &(m, c) in options {
        let mut bits = m & !seen;
        seen |= m;
        while bits != 0 {
            who[c as usize][bits.trailing_zeros() as usize] |= 1 << p;
            bits &= bits - 1;
        }
    }
}

/// [`lower_bound_movable`] for the children of one node, which differ from
/// it in one moved piece. What they share is prepared once, on the first
/// child asked about: the targets, the cache entry, each of our pieces'
/// cover now and within the cap, and the cover problem of the pieces as they
/// stand (their options and per-target masks for [`min_cover`]). A child
/// then costs its moved piece's levels and options, a pass over the kept
/// pieces and the cover search, where the moved piece's old options are
/// taken as used.
///
/// The values are those of [`lower_bound_movable`] on the child: a move
/// that is not castling or en passant, captures nothing next to the enemy
/// king nor an enemy slider on its lines, moves our king only when no such
/// slider could excuse a flight, and leaves our castling slack as it was
/// keeps the targets (the enemy king's open neighbours), the excused
/// flights and the cache key; the other pieces keep their squares, so their
/// levels and options are the parent's. The prepared options are restricted
/// to the targets not covered now by two pieces (a superset of every child's
/// needed targets, since one moved piece uncovers only what it alone
/// covered): the cover search's value is the same with options that cover
/// more than needed, and does not depend on the order of the movers (the
/// moved piece comes first here). Other moves, more than [`MAX_MOVERS`]
/// pieces and budgets beyond [`DFS_BUDGET`] take [`lower_bound_movable`]
/// itself.
pub struct ChildBounds {
    /// Prepared (for the node since the last [`ChildBounds::reset`])?
    ready: bool,
    /// May children take the prepared way?
    fast: bool,
    cap: u32,
    key: Key,
    targets: [Square; 9],
    count: usize,
    full: u16,
    level: usize,
    budget: u8,
    castling_slack: u32,
    /// Our castling rights' bits.
    rights: u8,
    /// Squares where a capture changes the targets (next to the enemy king)
    /// or the excused flights (an enemy slider they look at).
    unsettled: Bitboard,
    /// Do the excused flights stay when our king moves (none are looked
    /// for, or no enemy slider could excuse one)?
    king_settled: bool,
    /// Where the cache entry was found last.
    hint: usize,
    /// Our pieces: square, role, targets covered now and within the cap,
    /// and the mover index (`NOT_MOVER`: none; it covers nothing more
    /// within the cap than it does now).
    pieces: [(Square, Role, u16, u16, u8); MAX_MOVERS as usize],
    len: usize,
    /// Pieces with a mover index (the moved piece gets the next one).
    movers: usize,
    /// Per square: the index in `pieces` of our piece there.
    at: [u8; 64],
    ours: Bitboard,
    /// The mover indices in use.
    all_movers: u32,
    /// The targets our pieces cover now, and within the cap: by at least
    /// one and by at least two of them.
    once_now: u16,
    twice_now: u16,
    once_upto: u16,
    twice_upto: u16,
    /// The movers' options (see [`Prepared`]), made on the first child
    /// that needs a cover search.
    prepared: Option<Box<Prepared>>,
    prepared_ok: bool,
}

/// "Not a mover" in [`ChildBounds::pieces`].
const NOT_MOVER: u8 = u8::MAX;

/// The cover problem of a node's children without the moved piece: every
/// mover's options (`flat`, `starts`) and the per-cost target masks (`who`,
/// prefixed over costs).
struct Prepared {
    /// More options than `flat` holds: the children take the full way.
    overflow: bool,
    /// The movers' options end here; a child appends its moved piece's.
    n: usize,
    flat: [(u16, u8); FRONT + MAX_FLAT + RESTRICTED],
    starts: [u16; MAX_MOVERS as usize + 2],
    who: [[u32; 9]; DFS_BUDGET as usize + 1],
}

/// Room before the movers' options in [`Prepared::flat`] for the moved
/// piece's, which come first (mover 0): the cover search tries the pieces in
/// their order, and the moved piece is the likeliest to be in a cheap cover.
const FRONT: usize = 64;

impl Default for ChildBounds {
    fn default() -> ChildBounds {
        ChildBounds {
            ready: false,
            fast: false,
            cap: 0,
            key: (Square(0), 0, Color::White, 0),
            targets: [Square(0); 9],
            count: 0,
            full: 0,
            level: 0,
            budget: 0,
            castling_slack: 0,
            rights: 0,
            unsettled: Bitboard::ALL,
            king_settled: false,
            hint: usize::MAX,
            pieces: [(Square(0), Role::Pawn, 0, 0, NOT_MOVER); MAX_MOVERS as usize],
            len: 0,
            movers: 0,
            at: [0; 64],
            ours: Bitboard::EMPTY,
            all_movers: 0,
            once_now: 0,
            twice_now: 0,
            once_upto: 0,
            twice_upto: 0,
            prepared: None,
            prepared_ok: false,
        }
    }
}

impl ChildBounds {
    /// Forgets the node prepared for: the next child asked about belongs to
    /// a new one.
    #[inline]
    pub fn reset(&mut self) {
        self.ready = false;
    }

    /// [`lower_bound_movable`]`(child, cap, cache, movable, recruits)`, where
    /// `child` is `parent` after `mv`, with the turn not ended (the same
    /// side still to move). Every child asked about between two
    /// [`ChildBounds::reset`]s must come from the same `parent`.
    #[allow(clippy::too_many_arguments)]
    pub fn bound(
        &mut self,
        parent: &Position,
        child: &Position,
        mv: Move,
        cap: u32,
        cache: &mut BoundCache,
        movable: Bitboard,
        recruits: u32,
    ) -> u32 {
        self.bound_from_parent(parent, mv, cap, cache, movable, recruits)
            .unwrap_or_else(|| lower_bound_movable(child, cap, cache, movable, recruits))
    }

    /// [`ChildBounds::bound`] without the child: `None` when it takes
    /// [`lower_bound_movable`] on the child (see the type's text).
    pub fn bound_from_parent(
        &mut self,
        parent: &Position,
        mv: Move,
        cap: u32,
        cache: &mut BoundCache,
        movable: Bitboard,
        recruits: u32,
    ) -> Option<u32> {
        let (from, to) = (mv.from(), mv.to());
        let role = match mv.kind() {
            MoveKind::Normal | MoveKind::DoublePush => parent.piece_at(from).map(|p| p.role),
            MoveKind::Promotion(role) => Some(role),
            MoveKind::Castle | MoveKind::EnPassant => None,
        };
        if !self.ready || self.cap != cap {
            self.prepare(parent, cap, cache);
        }
        if !self.fast
            || role? == Role::King && !self.king_settled
            || self.unsettled.contains(to) && parent.piece_at(to).is_some()
            || u32::from(parent.castling_after(mv) & self.rights != 0) != self.castling_slack
        {
            return None;
        }
        let role = role?;
        let index = cache.entry_index_hinted(self.key, &self.targets[..self.count], &mut self.hint);
        let (entry, scratch) = cache.entry_and_scratch(index);
        // The moved piece on `to`, then the others as the parent has them.
        let l = entry.levels(role, to);
        let moved_now = l[0];
        let moved_fixed = !movable.contains(to);
        let moved_later = if !moved_fixed || recruits > 0 {
            l[self.level] & !moved_now
        } else {
            0
        };
        // The others' cover: a target is still covered now (or within the
        // cap) without the moved piece if two pieces cover it or one other
        // than it.
        let piece = self.at[from.index()] as usize;
        let (_, _, old_now, old_upto, old_mover) = self.pieces[piece];
        let old_bit = if old_mover == NOT_MOVER {
            0
        } else {
            1u32 << old_mover
        };
        let free = moved_now | self.twice_now | (self.once_now & !old_now);
        let others_now = self.twice_now | (self.once_now & !old_now);
        // The movers kept (bits of mover indices), and those that would be
        // recruits.
        let (reachable, keep, mut new_mask): (u16, u32, u32);
        if movable == Bitboard::ALL || recruits > 0 {
            // Every other piece may move.
            reachable = moved_now | moved_later | self.twice_upto | (self.once_upto & !old_upto);
            keep = self.all_movers & !old_bit;
            new_mask = 0;
            if movable != Bitboard::ALL {
                for sq in self.ours & !movable & !from.bb() {
                    let mover = self.pieces[self.at[sq.index()] as usize].4;
                    if mover != NOT_MOVER {
                        new_mask |= 1 << mover;
                    }
                }
            }
        } else {
            // Only the other pieces on `movable` may move.
            let mut r = moved_now | moved_later | others_now;
            let mut k = 0u32;
            for sq in self.ours & movable & !from.bb() {
                let (_, _, _, upto, mover) = self.pieces[self.at[sq.index()] as usize];
                r |= upto;
                if mover != NOT_MOVER {
                    k |= 1 << mover;
                }
            }
            reachable = r;
            keep = k;
            new_mask = 0;
        }
        if reachable != self.full {
            return Some(cap + 1);
        }
        let moved = self.movers;
        // (Mover indices in the cover problem: the moved piece 0, the others
        // one up.)
        new_mask <<= 1;
        if moved_later != 0 && moved_fixed {
            new_mask |= 1;
        }
        let limit = if new_mask.count_ones() <= recruits || recruits as usize >= MAX_LAYERS {
            Recruits::NONE
        } else {
            Recruits {
                new_mask,
                max: recruits,
            }
        };
        let need = self.full & !free;
        if need == 0 {
            return Some(0);
        }
        let budget = self.budget;
        if !self.prepared_ok {
            self.prepared_ok = true;
            self.build(entry, &mut scratch.restricted);
        }
        let prep = self.prepared.as_deref_mut().filter(|p| !p.overflow)?;
        // The movers not kept (the moved piece's old self among them) count
        // as used from the start: the search never takes them, and they are
        // no recruits. The moved piece is mover 0, the others follow.
        let used = !(keep << 1) & ((2 << moved) - 2);
        let mut who = prep.who;
        let mut start = FRONT;
        if moved_later != 0 {
            // (More options than the room in front: the full way.)
            let end = gather(
                entry,
                &mut scratch.restricted,
                &mut scratch.flat,
                0,
                (role, to),
                need,
                budget,
            )
            .filter(|&end| end <= FRONT)?;
            start = FRONT - end;
            prep.flat[start..FRONT].copy_from_slice(&scratch.flat[..end]);
            // (Cheapest first: a target counts from the least cost
            // covering it on.)
            let mut seen = 0u16;
            for &(m, c) in &scratch.flat[..end] {
                let mut bits = m & !seen;
                seen |= m;
                while bits != 0 {
                    let i = bits.trailing_zeros() as usize;
                    for row in &mut who[c as usize..=budget as usize] {
                        row[i] |= 1;
                    }
                    bits &= bits - 1;
                }
            }
        }
        prep.starts[0] = start as u16;
        let problem = Cover {
            flat: &prep.flat[..prep.n],
            starts: &prep.starts[..=moved + 1],
            who: &who,
            limit,
        };
        let best = if coverable(&who[budget as usize], need, !used & limit.free(used)) {
            min_cover(&problem, need, used, budget)
        } else {
            FAR
        };
        Some(if best > budget {
            cap + 1
        } else {
            (best as u32).saturating_sub(self.castling_slack)
        })
    }

    /// Gathers the movers' options, restricted to the targets not covered
    /// now by two of our pieces.
    #[cold]
    #[inline(never)]
    fn build(&mut self, entry: &mut CacheEntry, restricted: &mut [Restricted; RESTRICTED_SLOTS]) {
        let prep = self.prepared.get_or_insert_with(|| {
            Box::new(Prepared {
                overflow: false,
                n: 0,
                flat: [(0, 0); FRONT + MAX_FLAT + RESTRICTED],
                starts: [0; MAX_MOVERS as usize + 2],
                who: [[0; 9]; DFS_BUDGET as usize + 1],
            })
        });
        let (mut once, mut twice) = (0u16, 0u16);
        for &(_, _, now, _, _) in &self.pieces[..self.len] {
            twice |= once & now;
            once |= now;
        }
        let wanted = self.full & !twice;
        prep.overflow = false;
        prep.who = [[0; 9]; DFS_BUDGET as usize + 1];
        let mut n = 0;
        let (_, flat) = prep.flat.split_at_mut(FRONT);
        let flat: &mut [(u16, u8); MAX_FLAT + RESTRICTED] = flat.try_into().expect("sizes");
        for &(sq, role, _, _, mover) in &self.pieces[..self.len] {
            if mover == NOT_MOVER {
                continue;
            }
            prep.starts[mover as usize + 1] = (FRONT + n) as u16;
            match gather(entry, restricted, flat, n, (role, sq), wanted, self.budget) {
                Some(end) => {
                    add_who(&mut prep.who, &flat[n..end], mover as usize + 1);
                    n = end;
                }
                None => {
                    prep.overflow = true;
                    return;
                }
            }
        }
        prep.starts[self.movers + 1] = (FRONT + n) as u16;
        prep.n = FRONT + n;
        for b in 1..=self.budget as usize {
            let (lower, this) = prep.who.split_at_mut(b);
            for (w, &l) in this[0].iter_mut().zip(&lower[b - 1]) {
                *w |= l;
            }
        }
    }

    /// Prepares for the children of `pos` with `cap` moves left to them.
    #[cold]
    #[inline(never)]
    fn prepare(&mut self, pos: &Position, cap: u32, cache: &mut BoundCache) {
        self.ready = true;
        self.cap = cap;
        self.fast = false;
        self.prepared_ok = false;
        let us = pos.side_to_move();
        self.rights = if us == Color::White { 3 } else { 12 };
        self.castling_slack = u32::from(pos.castling_rights() & self.rights != 0);
        let budget = (cap + self.castling_slack).min(FAR as u32 - 1) as u8;
        if pos.color_bb(us).count() > MAX_MOVERS || budget > DFS_BUDGET {
            return;
        }
        self.fast = true;
        self.budget = budget;
        // (As in `lower_bound_movable`.)
        let them = us.other();
        let eksq = pos.king_square(them);
        let mut flights = attacks::king(eksq) & !pos.color_bb(them);
        let first_move_may_check = pos
            .rules()
            .check_allowed(0, pos.rules().next_turn_length(pos.turn_length()));
        self.unsettled = attacks::king(eksq);
        self.king_settled = true;
        if !first_move_may_check {
            flights &= !excused_flights(pos, us, eksq, cap);
            let sliders = excusing_sliders(pos, us, eksq);
            self.unsettled |= sliders;
            self.king_settled = sliders.is_empty();
        }
        self.targets[0] = eksq;
        self.count = 1;
        for f in flights {
            self.targets[self.count] = f;
            self.count += 1;
        }
        self.full = (1 << self.count) - 1;
        self.key = (eksq, flights.0 | eksq.bb().0, us, self.castling_slack as u8);
        self.level = (cap as usize).min(LEVELS - 1);
        let index = cache.entry_index_hinted(self.key, &self.targets[..self.count], &mut self.hint);
        let (entry, _) = cache.entry_and_scratch(index);
        self.len = 0;
        self.movers = 0;
        self.ours = pos.color_bb(us);
        (
            self.once_now,
            self.twice_now,
            self.once_upto,
            self.twice_upto,
        ) = (0, 0, 0, 0);
        for from in pos.color_bb(us) {
            let Some(piece) = pos.piece_at(from) else {
                continue;
            };
            let l = entry.levels(piece.role, from);
            let (now, upto) = (l[0], l[self.level]);
            let mover = if upto & !now != 0 {
                self.movers += 1;
                (self.movers - 1) as u8
            } else {
                NOT_MOVER
            };
            self.pieces[self.len] = (from, piece.role, now, upto, mover);
            self.at[from.index()] = self.len as u8;
            self.len += 1;
            self.twice_now |= self.once_now & now;
            self.once_now |= now;
            self.twice_upto |= self.once_upto & upto;
            self.once_upto |= upto;
        }
        self.all_movers = (1 << self.movers) - 1;
    }
}

/// At most `max` of the movers in `new_mask` may be used (a restricted search
/// pass: pieces that have not moved yet and would start moving).
#[derive(Clone, Copy)]
struct Recruits {
    new_mask: u32,
    max: u32,
}

impl Recruits {
    const NONE: Recruits = Recruits {
        new_mask: 0,
        max: 0,
    };

    /// The movers that may be added to those in `used`.
    #[inline]
    fn free(self, used: u32) -> u32 {
        if (used & self.new_mask).count_ones() < self.max {
            u32::MAX
        } else {
            !self.new_mask
        }
    }
}

/// Room for the options of all movers gathered for [`min_cover`].
const MAX_FLAT: usize = 256;

/// Budgets up to this are solved by [`min_cover`], larger ones by
/// [`min_cover_dp`] (whose cost does not grow with the budget, about 47k
/// instructions a call). Branching on the most constrained target, the
/// depth-first search is cheaper up to here too (Janko-Guid 60 at 6: 4.63 G
/// instructions, at 9: 4.58 G, at 12: 4.59 G).
const DFS_BUDGET: u8 = 9;

/// The cover problem of [`min_cover`]: piece `p` owns the options
/// `flat[starts[p]..starts[p + 1]]` (cheapest first), and `who[b][i]` holds
/// the pieces with an option covering target `i` at a cost of at most `b`.
struct Cover<'a> {
    flat: &'a [(u16, u8)],
    starts: &'a [u16],
    who: &'a [[u32; 9]; DFS_BUDGET as usize + 1],
    limit: Recruits,
}

/// Has every target in `uncovered` a piece in `free` among its pieces `who`?
#[inline]
fn coverable(who: &[u32; 9], uncovered: u16, free: u32) -> bool {
    let mut rest = uncovered;
    while rest != 0 {
        if who[rest.trailing_zeros() as usize] & free == 0 {
            return false;
        }
        rest &= rest - 1;
    }
    true
}

/// The least total cost of options, at most one per piece (pieces in `used`
/// are taken), covering `uncovered` (not empty), if it is at most `budget`;
/// otherwise more than `budget`. Branches on the lowest uncovered target:
/// some chosen option covers it. Every target in `uncovered` must have a
/// free piece able to cover it within `budget` ([`coverable`]), which the
/// caller checks (saving the call when it fails).
fn min_cover(problem: &Cover, uncovered: u16, used: u32, budget: u8) -> u8 {
    let free = !used & problem.limit.free(used);
    // Branch on the target with the fewest pieces able to cover it (some
    // chosen option covers every target, so any target gives an exact
    // search; the most constrained one gives the smallest).
    let row = &problem.who[budget as usize];
    let mut ti = uncovered.trailing_zeros() as usize;
    let mut fewest = (row[ti] & free).count_ones();
    let mut rest = uncovered & (uncovered - 1);
    while rest != 0 && fewest > 1 {
        let i = rest.trailing_zeros() as usize;
        let k = (row[i] & free).count_ones();
        if k < fewest {
            fewest = k;
            ti = i;
        }
        rest &= rest - 1;
    }
    let t = 1u16 << ti;
    let mut best = FAR;
    let mut candidates = problem.who[budget as usize][ti] & free;
    while candidates != 0 {
        let p = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let options = &problem.flat[problem.starts[p] as usize..problem.starts[p + 1] as usize];
        for &(m, c) in options {
            // Only options strictly cheaper than the best so far matter.
            if c > budget || c >= best {
                break;
            }
            if m & t == 0 {
                continue;
            }
            let left = budget.min(best - 1) - c;
            let others = uncovered & !m;
            let rest = if others == 0 {
                0
            } else if left == 1 {
                one_option(problem, others, used | 1 << p)
            } else {
                let used = used | 1 << p;
                let free = !used & problem.limit.free(used);
                if coverable(&problem.who[left as usize], others, free) {
                    min_cover(problem, others, used, left)
                } else {
                    FAR
                }
            };
            if rest <= left {
                best = c + rest;
            }
        }
    }
    best
}

/// [`min_cover`] with a budget of one move: 1 if one free piece covers
/// all of `uncovered` (not empty) with an option of one move, else more
/// (two options would cost two).
#[inline]
fn one_option(problem: &Cover, uncovered: u16, used: u32) -> u8 {
    let mut candidates = !used & problem.limit.free(used);
    let mut rest = uncovered;
    while rest != 0 {
        candidates &= problem.who[1][rest.trailing_zeros() as usize];
        if candidates == 0 {
            return FAR;
        }
        rest &= rest - 1;
    }
    while candidates != 0 {
        let p = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let options = &problem.flat[problem.starts[p] as usize..problem.starts[p + 1] as usize];
        for &(m, c) in options {
            if c > 1 {
                break;
            }
            if m & uncovered == uncovered {
                return 1;
            }
        }
    }
    FAR
}

/// [`min_cover`] for larger budgets: dynamic programming over the subsets
/// of the needed targets (`dp[layer][set]`: the least cost covering `set`;
/// only the subsets of `need` are used, each cleared here). Each piece
/// updates the table in place, larger sets and higher layers first, so every
/// update reads an entry this piece has not changed (it may be used once).
fn min_cover_dp(
    entry: &mut CacheEntry,
    dp: &mut [[u8; 512]; MAX_LAYERS],
    movers: [(Square, Role); 16],
    pieces: usize,
    need: u16,
    budget: u8,
    limit: Recruits,
) -> u8 {
    // Layer k: k recruits used so far (one layer when there is no limit).
    let layers = if limit.new_mask == 0 {
        1
    } else {
        limit.max as usize + 1
    };
    let mut set = need;
    loop {
        for table in dp[..layers].iter_mut() {
            table[set as usize] = u8::MAX;
        }
        if set == 0 {
            break;
        }
        set = (set - 1) & need;
    }
    dp[0][0] = 0;
    for (p, &(from, role)) in movers[..pieces].iter().enumerate() {
        let recruit = usize::from(limit.new_mask & (1 << p) != 0);
        let mut opts = [(0u16, 0u8); 64];
        let mut n = 0;
        for &(m, c) in entry.options(role, from).iter() {
            if c > budget || m & need == 0 {
                continue;
            }
            let m = m & need;
            match opts[..n].iter().position(|o| o.0 == m) {
                Some(i) => opts[i].1 = opts[i].1.min(c),
                None if n < opts.len() => {
                    opts[n] = (m, c);
                    n += 1;
                }
                None => {
                    // More distinct sets than room: fall back to covering
                    // everything at the cheapest of the rest (still a bound).
                    let o = &mut opts[n - 1];
                    o.0 = need;
                    o.1 = o.1.min(c);
                }
            }
        }
        if n == 0 {
            continue;
        }
        for layer in (0..layers).rev() {
            // A recruit moves up a layer; none beyond the limit.
            let to = layer + recruit;
            if to >= layers {
                continue;
            }
            let mut set = need;
            loop {
                let base = dp[layer][set as usize];
                if base != u8::MAX {
                    for &(c, k) in &opts[..n] {
                        let cost = base.saturating_add(k);
                        let m = (set | c) as usize;
                        if cost <= budget && cost < dp[to][m] {
                            dp[to][m] = cost;
                        }
                    }
                }
                if set == 0 {
                    break;
                }
                set = (set - 1) & need;
            }
        }
    }
    dp[..layers]
        .iter()
        .map(|b| b[need as usize])
        .min()
        .unwrap_or(u8::MAX)
}

/// Layers of [`min_cover_dp`]: restricted passes allow at most this many
/// recruits less one.
const MAX_LAYERS: usize = 5;

#[cfg(test)]
mod tests {
    #[test]
    fn seventeen_pieces_of_one_side_get_a_sound_bound() {
        // Janko-Guid 22 has 17 black pieces; with Black to move and a large
        // budget every piece could move (the cover search holds 16).
        let pos = crate::chess::fen::parse(
            "rn1qkbnr/ppp2ppp/2n5/1B2p3/3Pp3/2N5/PPP2PPP/R1BbK1NR b KQkq - 0 6",
            crate::chess::Rules::Italian,
        )
        .unwrap();
        assert_eq!(super::lower_bound(&pos, 20), 1);
    }

    use super::*;
    use crate::chess::{Rules, fen};

    fn pos(f: &str) -> Position {
        fen::parse(f, Rules::Italian).expect("test FEN")
    }

    #[test]
    fn knight_reach_table() {
        let r = reach();
        let a1 = Square(0);
        // A knight on a1 attacks c2 and b3 already.
        assert_eq!(r.table[slot(Role::Knight)][0][Square::new(2, 1).index()], 0);
        // From a1 to attack h8 (attackers g6, f7): a1-b3-c5-e6... needs 3.
        assert!(r.table[slot(Role::Knight)][a1.index()][63] >= 3);
        // A bishop never reaches a square attacking the other colour.
        assert_eq!(r.table[slot(Role::Bishop)][0][1], FAR);
    }

    #[test]
    fn pawn_reach_counts_ranks_files_and_promotion() {
        let e2 = Square::new(4, 1);
        // e2 pawn attacks d3/f3 now.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(3, 2)), 0);
        // To attack e5 it must reach d4 or f4: two moves (one capture), no double step.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(4, 4)), 2);
        // To attack f5 from e2: e4 (double step) covers f5: one move.
        assert_eq!(pawn_reach(Color::White, e2, Square::new(5, 4)), 1);
        // Behind it: only by promotion (5 moves from e2 with the double step).
        assert_eq!(pawn_reach(Color::White, e2, Square::new(4, 0)), 5);
    }

    #[test]
    fn lone_rook_cannot_mate_a_king_in_the_middle() {
        // K+R against a king on g2: eight flights and the check, no way.
        let p = pos("k7/2r5/8/8/8/8/6K1/8 b - - 0 12");
        assert!(!may_mate(&p, 12));
    }

    #[test]
    fn back_rank_mate_is_not_excluded() {
        // Ra1-a8 mates at once.
        let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert!(may_mate(&p, 1));
        assert_eq!(lower_bound(&p, 5), 1);
    }

    #[test]
    fn far_pieces_cannot_help_in_time() {
        // Knight on a1 needs several moves to cover anything near h8; with the
        // king free on h8's flights only the knight and king are there.
        let p = pos("7k/8/8/8/8/8/8/N3K3 w - - 0 2");
        assert!(!may_mate(&p, 2));
    }

    #[test]
    fn promotion_then_the_new_piece_counts_its_own_moves() {
        // e8=Q mates at once (the queen covers f7 and f8, the king g7 and h7).
        let p = pos("6k1/4P3/6K1/8/8/8/8/8 w - - 0 1");
        assert_eq!(lower_bound(&p, 3), 1);
        // Straight with the double step, one capture, out of reach.
        let (e2, e7) = (Square::new(4, 1), Square::new(4, 6));
        assert_eq!(promotion_steps_to(Color::White, e2, Square::new(4, 7)), 5);
        assert_eq!(promotion_steps_to(Color::White, e7, Square::new(3, 7)), 1);
        assert_eq!(promotion_steps_to(Color::White, e7, Square::new(2, 7)), FAR);
        assert_eq!(promotion_steps_to(Color::Black, e2, Square::new(4, 0)), 1);
    }

    #[test]
    fn italian_discovery_excuses_flights() {
        // The black king on e5 stands between its rook on e8 and the e-file
        // below: if our king stands on e1, a king step off the file would
        // uncover check and is not allowed as the first move. Our queen can
        // check from d4-ish; the bound must not count the excused flights.
        let it = pos("4r3/8/8/4k3/8/8/8/3QK3 w - - 0 3");
        let sc = fen::parse("4r3/8/8/4k3/8/8/8/3QK3 w - - 0 3", Rules::Scottish).unwrap();
        assert!(lower_bound(&it, 3) <= lower_bound(&sc, 3));
    }
}
