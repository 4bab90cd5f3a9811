//! Solution information of a puzzle for a player (Shen 2024,
//! chapters 3-4; docs/language.md "Players and solution information"): the minimum
//! solution information MSI = −log2 max_g π(g) (eq. 3.2; MUSE for the
//! uniform player) and the total solution information TSI = −log2 Σ_g π(g)
//! (eq. 3.6), in Shannon, for the players `uniform`, `local`, a rule set
//! (Algorithm 1 with the rules as CANNOT_TAKE inferences) and the perfect
//! player (every move no solution begins with is CANNOT_TAKE).
//!
//! The values are exact: a depth-first enumeration of the states the policy
//! reaches computes, per state, the probability of reaching a goal from it
//! and the largest probability of one goal, as exact rationals (a product
//! of move probabilities 1/|A'(s)|, sums of them); logarithms are taken at
//! the end. States with the same future share their values through a memo
//! whose key holds everything the policy can see of that future:
//! - the head and its component C (unvisited vertices joined to the head
//!   through unvisited vertices): every later vertex of the path is in C;
//! - the used edges of each triangle square with a corner in C or at the
//!   head (the others cannot change any more);
//! - for a rule set that reads region features, `free` of the other
//!   squares (constant from here on, and read by the rules), and for one
//!   that reads `path_length`, the length;
//! - on a puzzle with separation squares or stars, the squares whose open
//!   area is not closed and the sealed edges between them (what fixes the
//!   regions a completion can cut); for a rule set on a puzzle with any
//!   constraint beyond triangles, the path's edges (rules may read mark
//!   and dot features anywhere).
//!
//! A state from which no goal state can be reached has probability 0 under
//! every policy, so the completion oracle's sound cuts (goal outside C; a
//! square with too many, or too few reachable, edges; a dot out of reach;
//! hopeless region constraints) end the enumeration there without
//! changing a value.
//!
//! This module owns the policies' semantics and the enumeration; rule
//! evaluation is [`RuleSetPredicate`]'s, completability the [`Oracle`]'s.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use rustc_hash::FxHashMap;
use std::time::Instant;

use crate::domains::witness::board::areas::Areas;
use crate::domains::witness::board::oracle::Oracle;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::board::region::Masks;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::rules::ruleset::RuleSetPredicate;
use crate::domains::witness::search::astar::Predicate;
use crate::domains::witness::search::predicates::baseline;
use crate::stop::Stop;
use crate::usage::memory;

/// A player: the policy π(a, s) over the moves of a state.
pub enum Player<'a> {
    /// π_μ: every move with probability 1/|A(s)|.
    Uniform,
    /// Moves that overfill a triangle square are CANNOT_TAKE.
    Local,
    /// `Local` plus the moves after which a rule of the set fires.
    Rules(&'a RuleSetPredicate),
    /// Moves that no solution begins with are CANNOT_TAKE.
    Perfect,
}

/// The probabilities of one state's future under a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Odds {
    /// Probability of reaching some goal state (Σ_g π(g | s)).
    pub total: BigRational,
    /// Probability of the most likely goal state (max_g π(g | s)).
    pub best: BigRational,
    /// Goal states reached with positive probability.
    pub goals: u64,
}

impl Odds {
    /// A state from which no goal is reached.
    pub fn zero() -> Odds {
        Odds { total: BigRational::zero(), best: BigRational::zero(), goals: 0 }
    }

    /// A goal state.
    pub fn goal() -> Odds {
        Odds { total: BigRational::one(), best: BigRational::one(), goals: 1 }
    }

    /// Eq. 3.5 and its maximum: the odds of a state whose moves are taken
    /// with probabilities `policy` and lead to states with odds `children`
    /// (Σ_a π(a, s)·P(g | s_a), and max_a π(a, s)·max_g π(g | s_a)).
    pub fn combine(policy: &[BigRational], children: &[Odds]) -> Odds {
        let mut out = Odds::zero();
        for (p, c) in policy.iter().zip(children) {
            out.total += p * &c.total;
            let best = p * &c.best;
            if best > out.best {
                out.best = best;
            }
            out.goals += c.goals;
        }
        out
    }

    /// MSI in Shannon; `None` for +∞ (no goal reached).
    pub fn msi(&self) -> Option<f64> {
        information(&self.best)
    }

    /// TSI in Shannon; `None` for +∞ (no goal reached).
    pub fn tsi(&self) -> Option<f64> {
        information(&self.total)
    }
}

/// −log2 p for an exact probability `p` (`None` for p = 0).
pub fn information(p: &BigRational) -> Option<f64> {
    if p.is_zero() {
        return None;
    }
    let bits = log2(p.denom()) - log2(p.numer());
    // an exact 1 gives 0, not a rounding residue
    Some(if p.is_one() { 0.0 } else { bits })
}

/// log2 of a positive integer, from its top 64 bits and its length.
fn log2(n: &BigInt) -> f64 {
    let bits = n.bits();
    let shift = bits.saturating_sub(64);
    let top = (n >> shift).to_f64().unwrap_or(f64::NAN);
    top.log2() + shift as f64
}

/// Why an enumeration stopped without a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget {
    /// States expanded when it stopped.
    pub nodes: u64,
    /// What ran out: [`Stop::Nodes`], [`Stop::Memory`] or [`Stop::Timeout`].
    pub ran_out: Stop,
}

/// How far each player's enumeration of a puzzle may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// States a player may expand on a puzzle larger than 5x5.
    pub max_nodes: u64,
    /// When every enumeration gives up (at any size); `None`: never.
    pub deadline: Option<Instant>,
    /// Bytes the whole process may hold (the studio's share of its total,
    /// `witness analyze --memory`): past them an enumeration gives up,
    /// [`Stop::Memory`]; `None`: no limit beyond the memo's own.
    pub max_memory: Option<u64>,
}

impl Limits {
    /// `max_nodes` states per player, no deadline, no memory limit.
    pub fn nodes(max_nodes: u64) -> Limits {
        Limits { max_nodes, deadline: None, max_memory: None }
    }

    /// Whether the deadline has passed.
    pub fn past_deadline(&self) -> bool {
        crate::deadline::past(self.deadline)
    }
}

/// The exact enumeration of one puzzle under one player.
pub struct Enumeration<'a> {
    puzzle: &'a Puzzle,
    player: &'a Player<'a>,
    oracle: Option<Oracle<'a>>,
    masks: Masks,
    goal: usize,
    /// The key includes `free` of the squares away from the head's component.
    key_free: bool,
    /// The key includes the path's length.
    key_length: bool,
    memo: FxHashMap<Vec<u8>, Odds>,
    /// Estimated bytes the memo holds ([`entry_bytes`]).
    memo_bytes: usize,
    /// Most bytes the memo may hold before it starts again empty.
    memo_budget: usize,
    nodes: u64,
    budget: Option<u64>,
    /// When the enumeration gives up (read every [`DEADLINE_EVERY`] states).
    deadline: Option<Instant>,
    /// The process's memory past which it gives up (read every
    /// [`MEMORY_EVERY`] states).
    max_memory: Option<u64>,
    progress: &'a mut dyn FnMut(u64),
}

/// How often (in expanded states) the deadline is read: an expansion takes
/// a microsecond or more, reading the clock some tens of nanoseconds.
pub const DEADLINE_EVERY: u64 = 64;

/// How often (in expanded states) the process's memory is read against
/// [`Limits::max_memory`]: reading it takes some microseconds.
pub const MEMORY_EVERY: u64 = 1 << 12;

/// How often (in expanded states) the progress callback is called: often
/// enough for it to tell the time (a state takes microseconds; it decides
/// itself when to say something).
pub const PROGRESS_EVERY: u64 = 1 << 10;

/// Bytes the memos of the enumerations running at once may hold together
/// (estimated per entry by [`entry_bytes`]): each enumeration gets its
/// share of the threads of the rayon pool it runs in. A memo that reaches
/// its share starts again empty, so memory is bounded on any puzzle and
/// every value stays exact (a forgotten state is enumerated again, and
/// counts against the budget of expanded states).
pub const MEMO_BYTES: usize = 1 << 30;

/// What a memo entry costs beyond its key's bytes and its numbers'
/// digits: the table's slot (the key's vector and four big integers'
/// headers, about 160 bytes, in a table at most 7/8 full that doubles),
/// and the allocator's share of the five heap blocks. Measured: the
/// uniform player's memo on an 8x8 puzzle grew by about 750 bytes per
/// entry, of which about 150 are the key's and the digits' own.
const ENTRY_OVERHEAD: usize = 600;

/// The estimated bytes of the memo entry of `key` holding `odds`.
fn entry_bytes(key: &[u8], odds: &Odds) -> usize {
    let digits = |r: &BigRational| (r.numer().bits() + r.denom().bits()).div_ceil(8) as usize;
    ENTRY_OVERHEAD + key.len() + digits(&odds.total) + digits(&odds.best)
}

impl<'a> Enumeration<'a> {
    /// An enumeration of `puzzle` under `player` that gives up after
    /// `budget` expanded states (never if `None`), calling `progress` with
    /// the states expanded so far every [`PROGRESS_EVERY`] states.
    pub fn new(
        puzzle: &'a Puzzle,
        player: &'a Player<'a>,
        budget: Option<u64>,
        progress: &'a mut dyn FnMut(u64),
    ) -> Enumeration<'a> {
        let (key_free, key_length) = match player {
            Player::Rules(rules) => (rules.reads_region(), rules.reads_path_length()),
            _ => (false, false),
        };
        Enumeration {
            puzzle,
            player,
            oracle: matches!(player, Player::Perfect).then(|| Oracle::new(puzzle)),
            masks: Masks::new(puzzle),
            goal: puzzle.grid().vertex_id(puzzle.goal()),
            key_free,
            key_length,
            memo: FxHashMap::default(),
            memo_bytes: 0,
            memo_budget: MEMO_BYTES / rayon::current_num_threads().max(1),
            nodes: 0,
            budget,
            deadline: None,
            max_memory: None,
            progress,
        }
    }

    /// This enumeration, giving up at `deadline` (if any).
    pub fn with_deadline(self, deadline: Option<Instant>) -> Enumeration<'a> {
        let oracle = self.oracle.map(|o| o.with_deadline(deadline));
        Enumeration { deadline, oracle, ..self }
    }

    /// This enumeration, giving up once the process holds more than
    /// `bytes` (if any).
    pub fn with_max_memory(self, bytes: Option<u64>) -> Enumeration<'a> {
        Enumeration { max_memory: bytes, ..self }
    }

    /// This enumeration, its memo holding at most about `bytes` bytes.
    pub fn with_memo_budget(self, bytes: usize) -> Enumeration<'a> {
        Enumeration { memo_budget: bytes, ..self }
    }

    /// The odds of the puzzle's start state.
    pub fn run(&mut self) -> Result<Odds, OutOfBudget> {
        if self.past_deadline() {
            return Err(OutOfBudget { nodes: 0, ran_out: Stop::Timeout });
        }
        let mut path = Path::new(self.puzzle);
        let clear = match self.player {
            Player::Rules(rules) => !rules.rules_fire(self.puzzle, &path),
            _ => true,
        };
        let odds = self.odds(&mut path, clear);
        // the perfect player's oracle stopped at the deadline: its answers meant nothing
        if self.oracle.as_ref().is_some_and(Oracle::stopped) {
            return Err(OutOfBudget { nodes: self.nodes, ran_out: Stop::Timeout });
        }
        odds
    }

    /// Whether the deadline has passed.
    fn past_deadline(&self) -> bool {
        crate::deadline::past(self.deadline)
    }

    /// Whether the move that made `path` is CANNOT_TAKE (`parent_clear`:
    /// no rule fires on the path before the move).
    fn cannot_take(&mut self, path: &Path, parent_clear: bool) -> bool {
        match self.player {
            Player::Uniform => false,
            Player::Local => baseline(self.puzzle, path),
            Player::Rules(rules) => rules.flags_step(self.puzzle, path, parent_clear),
            Player::Perfect => !self.oracle.as_mut().is_some_and(|o| o.completable(path)),
        }
    }

    /// The odds of a non-terminal state.
    fn odds(&mut self, path: &mut Path, clear: bool) -> Result<Odds, OutOfBudget> {
        let Some(key) = self.key(path) else {
            return Ok(Odds::zero());
        };
        if let Some(odds) = self.memo.get(&key) {
            return Ok(odds.clone());
        }
        self.nodes += 1;
        if self.budget.is_some_and(|b| self.nodes > b) {
            return Err(OutOfBudget { nodes: self.nodes, ran_out: Stop::Nodes });
        }
        if self.nodes.is_multiple_of(DEADLINE_EVERY) && self.past_deadline() {
            return Err(OutOfBudget { nodes: self.nodes, ran_out: Stop::Timeout });
        }
        if self.nodes.is_multiple_of(MEMORY_EVERY) && self.max_memory.is_some_and(|m| memory() > m) {
            return Err(OutOfBudget { nodes: self.nodes, ran_out: Stop::Memory });
        }
        if self.nodes.is_multiple_of(PROGRESS_EVERY) {
            (self.progress)(self.nodes);
        }
        let moves: Vec<usize> = path.successor_ids().collect();
        let mut children = Vec::with_capacity(moves.len());
        for v in moves {
            path.push_id(v);
            if !self.cannot_take(path, clear) {
                let child = if v == self.goal {
                    if path.satisfies(self.puzzle) {
                        Odds::goal()
                    } else {
                        Odds::zero()
                    }
                } else {
                    match self.odds(path, true) {
                        Ok(c) => c,
                        Err(e) => {
                            path.pop();
                            return Err(e);
                        }
                    }
                };
                children.push(child);
            }
            path.pop();
        }
        let share = BigRational::new(BigInt::one(), BigInt::from(children.len().max(1)));
        let odds = Odds::combine(&vec![share; children.len()], &children);
        self.memo_bytes += entry_bytes(&key, &odds);
        if self.memo_bytes > self.memo_budget {
            self.memo.clear();
            self.memo_bytes = entry_bytes(&key, &odds);
        }
        self.memo.insert(key, odds.clone());
        Ok(odds)
    }

    /// The memo key of a non-terminal state, or `None` if no goal state
    /// can be reached from it.
    fn key(&self, path: &Path) -> Option<Vec<u8>> {
        let grid = self.puzzle.grid();
        let masks = &self.masks;
        let head = path.head_id();
        let unvisited = path.visited().iter().fold(masks.all(), |acc, v| acc & !(1u128 << v));
        let mut component = masks.grow(1u128 << head) & unvisited;
        loop {
            let next = masks.grow(component) & unvisited;
            if next == component {
                break;
            }
            component = next;
        }
        if component >> self.goal & 1 == 0 {
            return None;
        }
        let reach = component | 1u128 << head;
        let mut key = Vec::with_capacity(24 + self.puzzle.constrained_squares().len());
        key.push(head as u8);
        key.extend_from_slice(&component.to_le_bytes());
        if self.key_length {
            key.push(path.len() as u8);
        }
        for &s in self.puzzle.constrained_squares() {
            let (t, u) = (self.puzzle.triangles_of(s), path.used_of(s));
            let c = grid.square_corners(s);
            let side = |set: u128| masks.sides_within(s, set);
            // a simple path never uses all four sides of a square it can still enter
            let open = side(reach).min(3);
            if u > t || u + open < t {
                return None;
            }
            if c.iter().any(|&v| reach >> v & 1 == 1) {
                key.push(u);
            } else if self.key_free {
                key.push(side(unvisited | 1u128 << head));
            }
        }
        if !self.puzzle.is_triangle_only() {
            self.key_beyond_triangles(path, reach, &mut key)?;
        }
        Some(key)
    }

    /// The part of the memo key for dots and region constraints, or `None`
    /// if they leave no goal state reachable. Every later edge has both
    /// ends in `reach` (the head and its component): with that superset of
    /// the usable edges, the squares whose area is not closed and the
    /// sealed edges between them fix the regions of every completion, and
    /// the closed areas are final (judged here). A rule set may read mark
    /// and dot features anywhere, so for it the key holds the path's edges.
    fn key_beyond_triangles(&self, path: &Path, reach: u128, key: &mut Vec<u8>) -> Option<()> {
        let (puzzle, grid) = (self.puzzle, self.puzzle.grid());
        let within = |e: usize| {
            let (a, b) = grid.edge_ends(e);
            reach >> a & reach >> b & 1 == 1 && !puzzle.is_broken(e)
        };
        if puzzle.dot_vertices().iter().any(|v| !path.visited().contains(v) && reach >> v & 1 == 0)
            || puzzle.dot_edges().iter().any(|e| !path.edges().contains(e) && !within(e))
        {
            return None;
        }
        if puzzle.has_marks() {
            let areas = Areas::new(grid, path.edges(), within);
            if areas.hopeless(puzzle) {
                return None;
            }
            let (active, sealed) = areas.summary(grid, path.edges(), within);
            key.extend_from_slice(&active.to_le_bytes());
            key.extend(sealed.iter().map(|e| e as u8));
            key.push(u8::MAX);
        }
        if matches!(self.player, Player::Rules(_)) {
            key.extend(path.edges().iter().map(|e| e as u8));
        }
        Some(())
    }

    /// States expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// Puzzles up to this many squares a side are always enumerated to the
/// end; larger ones within a budget of expanded states.
pub const EXACT_SIDE: usize = 5;

/// The odds of `puzzle`'s start state under `player`: exact up to
/// [`EXACT_SIDE`] x [`EXACT_SIDE`], within `limits`' expanded states
/// beyond; at any size, given up at its deadline or past its memory.
pub fn odds(
    puzzle: &Puzzle,
    player: &Player,
    limits: &Limits,
    progress: &mut dyn FnMut(u64),
) -> Result<Odds, OutOfBudget> {
    let exact = puzzle.width() <= EXACT_SIDE && puzzle.height() <= EXACT_SIDE;
    Enumeration::new(puzzle, player, (!exact).then_some(limits.max_nodes), progress)
        .with_deadline(limits.deadline)
        .with_max_memory(limits.max_memory)
        .run()
}
