//! Exact completability of partial paths: does some solution begin with
//! this path? Plus counting and finding completions, and brute-force
//! enumerators of partial paths and solutions (for mining and tests).
//!
//! This module owns the ground truth the rest of the system is checked
//! against, so it must be exact. It knows nothing of predicates, rules or
//! A*.
//!
//! [`Oracle`] is a depth-first completion search with memoisation and sound
//! cuts. At a state with head `h` let `R` be the goal region (unvisited
//! vertices joined to the goal by grid steps, broken edges not being
//! steps). Every later edge joins `h` or a vertex of `R` to a vertex of
//! `R` over a *usable* edge, so the state is dead if
//! 1. the head is not joined to `R` by a grid step, or
//! 2. some square already uses more edges than it has triangles, or some
//!    square with `t` triangles and `u < t` used edges has fewer than
//!    `t - u` usable edges (at most 3 if all four are: a simple path never
//!    closes a 4-cycle), or
//! 3. a dot vertex is neither visited nor in `R`, or an edge dot is
//!    neither on the path nor usable, or
//! 4. the region constraints are hopeless on the squares' joined classes
//!    and open areas (see [`Areas::hopeless`]): two colours of separation
//!    squares joined, a star joined to two marks of its colour or with none
//!    in its open area.
//!
//! The future of a state depends only on `(h, R, used counts of the
//! squares that can still change, the squares whose area is not closed and
//! the sealed edges between them)`, which is the memo key; failures (and,
//! for counting, counts) are memoised per key, so one [`Oracle`] can answer
//! many queries on the same puzzle. The tables hold at most
//! [`MEMO_BUDGET`] keys together (about 40 MB): when full they start
//! again empty, so memory is bounded on any puzzle and every answer stays
//! exact (a forgotten key is searched again). Given a deadline
//! ([`Oracle::with_deadline`]), it reads the clock every
//! [`DEADLINE_EVERY`] nodes and, past it, stops every query at once
//! ([`Oracle::stopped`]): its answers from then on mean nothing, and
//! nothing learnt after it is memoised.
//!
//! Following Stevens (§2.1), a *partial path* does not contain the goal;
//! the enumerators list the length-0 path (start only) too.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use super::areas::Areas;
use super::path::Path;
use super::region::{Masks, Region};
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::model::grid::{BitSet, Grid};

/// Most keys the memo tables hold together (a key is 72 bytes; a table
/// of 2^18 keys has 2^19 slots).
pub const MEMO_BUDGET: usize = 1 << 18;

/// How often (in search nodes) the deadline is read: a node takes about a
/// microsecond.
pub const DEADLINE_EVERY: u64 = 64;

/// Memo key: the part of a state that determines its completions.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    head: u8,
    region: u128,
    /// 2 bits per constrained square (index into `constrained_squares`).
    counts: BitSet,
    /// Squares whose area is not closed (0 without marks).
    active: u64,
    /// Sealed inner edges between active squares.
    sealed: BitSet,
}

/// Result of analysing a state.
enum Verdict {
    Dead,
    Open(Key),
}

/// Exact, memoising completion search for one puzzle.
pub struct Oracle<'p> {
    puzzle: &'p Puzzle,
    grid: Grid,
    masks: Masks,
    goal: usize,
    dead: HashSet<Key>,
    counts: HashMap<Key, u64>,
    /// Most keys the tables hold together.
    budget: usize,
    nodes: u64,
    /// When every query gives up; `None`: never.
    deadline: Option<Instant>,
    /// Whether the deadline stopped a query.
    stopped: bool,
}

impl<'p> Oracle<'p> {
    /// An oracle for `puzzle` with empty memo tables.
    pub fn new(puzzle: &'p Puzzle) -> Oracle<'p> {
        let grid = puzzle.grid();
        Oracle {
            puzzle,
            grid,
            masks: Masks::new(puzzle),
            goal: grid.vertex_id(puzzle.goal()),
            dead: HashSet::new(),
            counts: HashMap::new(),
            budget: MEMO_BUDGET,
            nodes: 0,
            deadline: None,
            stopped: false,
        }
    }

    /// This oracle, giving up at `deadline` (if any).
    pub fn with_deadline(self, deadline: Option<Instant>) -> Oracle<'p> {
        Oracle { deadline, ..self }
    }

    /// Whether the deadline stopped a query: its answer, and every later
    /// one, means nothing.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Counts a node; whether the search must stop (the deadline passed,
    /// read every [`DEADLINE_EVERY`] nodes).
    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        if !self.stopped && self.nodes.is_multiple_of(DEADLINE_EVERY) {
            self.stopped = crate::deadline::past(self.deadline);
        }
        self.stopped
    }

    /// This oracle, its memo tables holding at most `keys` keys together.
    pub fn with_memo_budget(self, keys: usize) -> Oracle<'p> {
        Oracle { budget: keys, ..self }
    }

    /// Keys held by the memo tables.
    pub fn memo_len(&self) -> usize {
        self.dead.len() + self.counts.len()
    }

    /// Empties the memo tables when they hold their budget of keys.
    fn make_room(&mut self) {
        if self.memo_len() >= self.budget {
            self.dead = HashSet::new();
            self.counts = HashMap::new();
        }
    }

    /// Number of search nodes visited so far (all queries).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether some solution begins with `path`. A path that already ends at
    /// the goal is completable iff it is a solution; a path that passed
    /// through the goal is not.
    pub fn completable(&mut self, path: &Path) -> bool {
        let mut p = path.clone();
        self.exists_from(&mut p)
    }

    /// A solution beginning with `path`, if any.
    pub fn find_completion(&mut self, path: &Path) -> Option<Path> {
        let mut p = path.clone();
        self.exists_from(&mut p).then_some(p)
    }

    /// Number of solutions beginning with `path`.
    pub fn count_completions(&mut self, path: &Path) -> u64 {
        if path.head_id() == self.goal {
            return u64::from(path.is_solution(self.puzzle));
        }
        if path.visited().contains(self.goal) {
            return 0;
        }
        let mut p = path.clone();
        self.count(&mut p)
    }

    fn exists_from(&mut self, p: &mut Path) -> bool {
        if p.head_id() == self.goal {
            return p.is_solution(self.puzzle);
        }
        if p.visited().contains(self.goal) {
            return false;
        }
        self.exists(p)
    }

    /// Analyses a state whose head is not the goal (and goal unvisited).
    fn analyse(&self, p: &Path) -> Verdict {
        let (grid, masks) = (self.grid, &self.masks);
        let region = Region::new(masks, self.puzzle, p);
        if !region.goal_reachable(masks) {
            return Verdict::Dead;
        }
        let reach = region.goal_region | region.head;
        let mut counts = BitSet::EMPTY;
        for (i, &s) in self.puzzle.constrained_squares().iter().enumerate() {
            let t = self.puzzle.triangles_of(s);
            let u = p.used_of(s);
            let open = masks.sides_within(s, reach).min(3);
            if u > t || u + open < t {
                return Verdict::Dead;
            }
            if open > 0 {
                // This square can still change: its count matters.
                if u & 1 != 0 {
                    counts.insert(2 * i);
                }
                if u & 2 != 0 {
                    counts.insert(2 * i + 1);
                }
            }
        }
        let usable = |e: usize| region.usable(masks, e);
        if self.puzzle.dot_vertices().iter().any(|v| !p.visited().contains(v) && reach >> v & 1 == 0)
            || self.puzzle.dot_edges().iter().any(|e| !p.edges().contains(e) && !usable(e))
        {
            return Verdict::Dead;
        }
        let (mut active, mut sealed) = (0, BitSet::EMPTY);
        if self.puzzle.has_marks() {
            let areas = Areas::new(grid, p.edges(), usable);
            if areas.hopeless(self.puzzle) {
                return Verdict::Dead;
            }
            (active, sealed) = areas.summary(grid, p.edges(), usable);
        }
        Verdict::Open(Key { head: p.head_id() as u8, region: region.goal_region, counts, active, sealed })
    }

    /// On success leaves `p` extended to a solution.
    fn exists(&mut self, p: &mut Path) -> bool {
        if self.out_of_time() {
            return false;
        }
        let key = match self.analyse(p) {
            Verdict::Dead => return false,
            Verdict::Open(k) => k,
        };
        if self.dead.contains(&key) {
            return false;
        }
        let succ: Vec<usize> = p.successor_ids().collect();
        for u in succ {
            p.push_id(u);
            let ok = if u == self.goal { p.satisfies(self.puzzle) } else { self.exists(p) };
            if ok {
                return true;
            }
            p.pop();
        }
        if self.stopped {
            return false;
        }
        self.make_room();
        self.dead.insert(key);
        false
    }

    fn count(&mut self, p: &mut Path) -> u64 {
        if self.out_of_time() {
            return 0;
        }
        let key = match self.analyse(p) {
            Verdict::Dead => return 0,
            Verdict::Open(k) => k,
        };
        if let Some(&n) = self.counts.get(&key) {
            return n;
        }
        let succ: Vec<usize> = p.successor_ids().collect();
        let mut n = 0;
        for u in succ {
            p.push_id(u);
            n += if u == self.goal { u64::from(p.satisfies(self.puzzle)) } else { self.count(p) };
            p.pop();
        }
        if self.stopped {
            return 0;
        }
        self.make_room();
        self.counts.insert(key, n);
        n
    }
}

/// A solution of `puzzle`, if one exists.
pub fn solve(puzzle: &Puzzle) -> Option<Path> {
    Oracle::new(puzzle).find_completion(&Path::new(puzzle))
}

/// Number of solutions of `puzzle`.
pub fn count_solutions(puzzle: &Puzzle) -> u64 {
    Oracle::new(puzzle).count_completions(&Path::new(puzzle))
}

/// Calls `visit` on every partial path of `puzzle` (every simple path from
/// the start that does not contain the goal, including the start alone),
/// depth first, children in the grid's neighbour order. Brute force.
pub fn enumerate_partial_paths(puzzle: &Puzzle, visit: &mut dyn FnMut(&Path)) {
    fn go(p: &mut Path, goal: usize, visit: &mut dyn FnMut(&Path)) {
        visit(p);
        let succ: Vec<usize> = p.successor_ids().filter(|&u| u != goal).collect();
        for u in succ {
            p.push_id(u);
            go(p, goal, visit);
            p.pop();
        }
    }
    let goal = puzzle.grid().vertex_id(puzzle.goal());
    go(&mut Path::new(puzzle), goal, visit);
}

/// Calls `visit(path, completable)` on every partial path of `puzzle`, in
/// post-order (a path after all its extensions), where `completable` is
/// computed exhaustively from the extensions — no cuts, no memo. This is
/// the brute-force labelling used for mining and for checking [`Oracle`].
pub fn label_partial_paths(puzzle: &Puzzle, visit: &mut dyn FnMut(&Path, bool)) {
    fn go(puzzle: &Puzzle, p: &mut Path, goal: usize, visit: &mut dyn FnMut(&Path, bool)) -> bool {
        let succ: Vec<usize> = p.successor_ids().collect();
        let mut any = false;
        for u in succ {
            p.push_id(u);
            any |= if u == goal { p.satisfies(puzzle) } else { go(puzzle, p, goal, visit) };
            p.pop();
        }
        visit(p, any);
        any
    }
    let goal = puzzle.grid().vertex_id(puzzle.goal());
    go(puzzle, &mut Path::new(puzzle), goal, visit);
}

/// Calls `visit` on every solution of `puzzle` (brute force, no cuts).
pub fn enumerate_solutions(puzzle: &Puzzle, visit: &mut dyn FnMut(&Path)) {
    fn go(puzzle: &Puzzle, p: &mut Path, goal: usize, visit: &mut dyn FnMut(&Path)) {
        let succ: Vec<usize> = p.successor_ids().collect();
        for u in succ {
            p.push_id(u);
            if u == goal {
                if p.satisfies(puzzle) {
                    visit(p);
                }
            } else {
                go(puzzle, p, goal, visit);
            }
            p.pop();
        }
    }
    let goal = puzzle.grid().vertex_id(puzzle.goal());
    go(puzzle, &mut Path::new(puzzle), goal, visit);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_2_1_has_one_solution() {
        let p = Puzzle::new(2, 1, (0, 0), (2, 1), &[(0, 0, 1), (1, 0, 2)]).unwrap();
        assert_eq!(count_solutions(&p), 1);
        assert_eq!(solve(&p).unwrap().to_text(), "0,0 1,0 2,0 2,1");
        let mut o = Oracle::new(&p);
        let up = Path::from_vertices(&p, &[(0, 0), (0, 1)]).unwrap();
        assert!(!o.completable(&up));
        let right = Path::from_vertices(&p, &[(0, 0), (1, 0), (2, 0)]).unwrap();
        assert!(o.completable(&right));
        // Table 4.3: 2 completable (p2, p4) + the start; 6 incompletable.
        let (mut yes, mut no) = (0, 0);
        label_partial_paths(&p, &mut |_, c| if c { yes += 1 } else { no += 1 });
        assert_eq!((yes, no), (3, 6));
    }

    #[test]
    fn past_its_deadline_the_oracle_stops_and_says_so() {
        // a dot on every vertex of 8x8, the goal of the other colour: no
        // Hamiltonian path, and proving it takes the search very long
        let dots: Vec<String> = (0..=8).flat_map(|x| (0..=8).map(move |y| format!("({x}, {y})"))).collect();
        let text = format!("[(width: 8, height: 8, start: (0, 0), goal: (8, 1), dots: [{}])]", dots.join(", "));
        let p = crate::domains::witness::formats::puzzle::parse_puzzles(&text, "t").unwrap().remove(0);
        let started = Instant::now();
        let mut o = Oracle::new(&p).with_deadline(Some(started + std::time::Duration::from_millis(200)));
        let _ = o.completable(&Path::new(&p));
        assert!(o.stopped());
        assert!(started.elapsed() < std::time::Duration::from_millis(400), "{:?}", started.elapsed());
        let q = Puzzle::new(2, 1, (0, 0), (2, 1), &[(0, 0, 1), (1, 0, 2)]).unwrap();
        let mut fresh = Oracle::new(&q).with_deadline(Some(Instant::now() + std::time::Duration::from_secs(60)));
        assert!(fresh.completable(&Path::new(&q)) && !fresh.stopped());
    }
}
