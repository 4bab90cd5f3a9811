//! Stevens' Algorithm 1: A* over partial paths guided (sorted) or pruned by
//! an incompletability predicate, with expansion and time budgets.
//!
//! This module owns the search and its measurements; predicates come from
//! outside as a [`Predicate`] (any `Fn(&Puzzle, &Path) -> bool`, `true` =
//! "incompletable"; told whether the path's parent was judged clear, so a
//! predicate can work incrementally), so it does not depend on the rule
//! language (see `predicates` for the hand-written baseline).
//!
//! Details:
//! - The open list is ordered by `(π, g + h, h, insertion number)`, smallest
//!   first: `π` is 0 (predicted completable) or 1, `g` the path length, `h`
//!   the Manhattan distance from the head to the goal. Residual ties are
//!   broken FIFO by insertion number, so runs are deterministic.
//! - Successors are generated in the fixed order right, up, left, down.
//! - A successor that reaches the goal is returned if it is a solution and
//!   discarded otherwise (it cannot be extended); the predicate is not
//!   evaluated on it. The root (start only) is pushed unconditionally.
//! - [`Mode::Prune`] never pushes paths the predicate flags; [`Mode::Sort`]
//!   pushes them with `π = 1`.
//! - An *expansion* is one path taken from the open list and expanded.
//! - Memory: the open list stores arena nodes (parent index + vertex, 8
//!   bytes) and a full path is rebuilt incrementally when a node is expanded.
//!   Every search has a node budget ([`SearchConfig::max_nodes`]): the
//!   arena and the open list hold one entry per path pushed (about 32
//!   bytes with both), so the budget bounds memory; a search that reaches
//!   it stops with [`Stop::HeldPaths`], which is not "no solution".

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};

use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::stop::Stop;

/// How the predicate is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Do not push paths the predicate flags (complete only for sound predicates).
    Prune,
    /// Push flagged paths behind all unflagged ones (always complete).
    Sort,
}

/// Search settings (builder style).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Prune or sort.
    pub mode: Mode,
    /// Stop after this many expansions.
    pub max_expansions: Option<u64>,
    /// Stop after this much wall time.
    pub time_limit: Option<Duration>,
    /// Stop when this many paths have been pushed (the memory budget).
    pub max_nodes: usize,
    /// Stop at this instant (a whole run's deadline).
    pub deadline: Option<Instant>,
}

/// The default node budget: 2^23 paths, about 270 MB of arena and open
/// list (up to twice that while they grow), far above what any puzzle a
/// rule set or local constraint checking solves needs up to 8x8.
pub const DEFAULT_MAX_NODES: usize = 1 << 23;

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            mode: Mode::Prune,
            max_expansions: None,
            time_limit: None,
            max_nodes: DEFAULT_MAX_NODES,
            deadline: None,
        }
    }
}

impl SearchConfig {
    /// Sets the mode.
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets the node (memory) budget.
    pub fn with_node_limit(mut self, n: usize) -> Self {
        self.max_nodes = n;
        self
    }

    /// Sets a time budget.
    pub fn with_time_limit(mut self, t: Duration) -> Self {
        self.time_limit = Some(t);
        self
    }

    /// Sets a deadline (if any), read as the time budget is.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }
}

/// Why the search stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution was found.
    Solved(Path),
    /// The open list ran empty: no solution (if the predicate is sound or
    /// the mode is [`Mode::Sort`]).
    NoSolution,
    /// A budget ran out first: [`Stop::Expansions`], [`Stop::TimeBudget`]
    /// or [`Stop::HeldPaths`].
    Stopped(Stop),
}

/// The result and measurements of one search.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// Why the search stopped.
    pub outcome: Outcome,
    /// Paths taken from the open list and expanded.
    pub expansions: u64,
    /// Successor paths generated (including ones reaching the goal).
    pub generated: u64,
    /// Generated paths the predicate flagged (pruned, or sorted last).
    pub flagged: u64,
    /// Largest size of the open list.
    pub max_open: usize,
    /// Wall time of the search.
    pub elapsed: Duration,
}

impl SearchReport {
    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&Path> {
        match &self.outcome {
            Outcome::Solved(p) => Some(p),
            _ => None,
        }
    }
}

/// A pruning predicate as search uses it: `true` = "incompletable".
/// Every `Fn(&Puzzle, &Path) -> bool` is one.
pub trait Predicate {
    /// Whether `path` is flagged.
    fn flags(&self, puzzle: &Puzzle, path: &Path) -> bool;

    /// The same verdict as [`Predicate::flags`], for a path one step
    /// longer than a path this predicate judged not flagged when
    /// `parent_clear` (an incremental predicate need only look at what the
    /// step changed).
    fn flags_step(&self, puzzle: &Puzzle, path: &Path, parent_clear: bool) -> bool {
        let _ = parent_clear;
        self.flags(puzzle, path)
    }
}

impl<F: Fn(&Puzzle, &Path) -> bool + ?Sized> Predicate for F {
    fn flags(&self, puzzle: &Puzzle, path: &Path) -> bool {
        self(puzzle, path)
    }
}

/// Arena node: parent index (`u32::MAX` for the root) and head vertex id.
#[derive(Clone, Copy)]
struct Node {
    parent: u32,
    vertex: u8,
}

/// An open-list entry: (π, f, h, insertion number, node).
type Open = (bool, u16, u16, u64, u32);

/// Runs Algorithm 1 on `puzzle` with `predicate` (`true` = incompletable).
pub fn astar(puzzle: &Puzzle, predicate: &dyn Predicate, config: &SearchConfig) -> SearchReport {
    let started = Instant::now();
    let grid = puzzle.grid();
    let goal = grid.vertex_id(puzzle.goal());
    let mut report = SearchReport {
        outcome: Outcome::NoSolution,
        expansions: 0,
        generated: 0,
        flagged: 0,
        max_open: 1,
        elapsed: Duration::ZERO,
    };
    let mut arena = vec![Node { parent: u32::MAX, vertex: grid.vertex_id(puzzle.start()) as u8 }];
    let mut open: BinaryHeap<Reverse<Open>> = BinaryHeap::new();
    let h0 = grid.distance(arena[0].vertex as usize, goal) as u16;
    open.push(Reverse((false, h0, h0, 0, 0)));
    let mut seq = 1u64;
    // The path currently materialised, and the arena nodes along it.
    let mut cur = Path::new(puzzle);
    let mut cur_nodes: Vec<u32> = vec![0];
    let mut chain: Vec<u32> = Vec::new();

    while let Some(Reverse((flagged_node, _, _, _, id))) = open.pop() {
        if let Some(stop) = spent_budget(config, report.expansions, started) {
            report.outcome = Outcome::Stopped(stop);
            break;
        }
        report.expansions += 1;
        materialise(&arena, id, &mut cur, &mut cur_nodes, &mut chain);

        let g = cur.len() as u16 + 1;
        // the root is pushed without being judged
        let parent_clear = id != 0 && !flagged_node;
        let succ: Vec<usize> = cur.successor_ids().collect();
        for v in succ {
            report.generated += 1;
            cur.push_id(v);
            if v == goal {
                if cur.satisfies(puzzle) {
                    report.outcome = Outcome::Solved(cur.clone());
                    report.elapsed = started.elapsed();
                    return report;
                }
                cur.pop();
                continue;
            }
            let flagged = predicate.flags_step(puzzle, &cur, parent_clear);
            cur.pop();
            if flagged {
                report.flagged += 1;
                if config.mode == Mode::Prune {
                    continue;
                }
            }
            if arena.len() >= config.max_nodes {
                report.outcome = Outcome::Stopped(Stop::HeldPaths);
                report.elapsed = started.elapsed();
                return report;
            }
            let h = grid.distance(v, goal) as u16;
            arena.push(Node { parent: id, vertex: v as u8 });
            open.push(Reverse((flagged, g + h, h, seq, arena.len() as u32 - 1)));
            seq += 1;
        }
        report.max_open = report.max_open.max(open.len());
    }
    report.elapsed = started.elapsed();
    report
}

/// The budget that has run out before expansion number `expansions + 1`,
/// if any (the clock is read only every 256 expansions, to keep its cost
/// out of the expansion loop).
fn spent_budget(config: &SearchConfig, expansions: u64, started: Instant) -> Option<Stop> {
    if config.max_expansions.is_some_and(|m| expansions >= m) {
        return Some(Stop::Expansions);
    }
    if expansions.is_multiple_of(256)
        && (config.time_limit.is_some_and(|t| started.elapsed() >= t) || crate::deadline::past(config.deadline))
    {
        return Some(Stop::TimeBudget);
    }
    None
}

/// Makes `cur` the path of arena node `id`, reusing the prefix it shares
/// with the path materialised before; `cur_nodes` holds the arena nodes
/// along `cur`, and `chain` is scratch space kept across calls.
fn materialise(arena: &[Node], id: u32, cur: &mut Path, cur_nodes: &mut Vec<u32>, chain: &mut Vec<u32>) {
    chain.clear();
    let mut n = id;
    while n != u32::MAX {
        chain.push(n);
        n = arena[n as usize].parent;
    }
    chain.reverse();
    let common = cur_nodes.iter().zip(chain.iter()).take_while(|(a, b)| a == b).count();
    while cur_nodes.len() > common {
        cur_nodes.pop();
        cur.pop();
    }
    for &n in &chain[common..] {
        cur.push_id(arena[n as usize].vertex as usize);
        cur_nodes.push(n);
    }
}

/// A search's result as a line: the solution's vertex sequence
/// `x,y x,y ...`, `none` when there is none, or `stopped (...)` when a
/// budget ran out first.
pub fn format_outcome(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved(path) => path.to_text(),
        Outcome::NoSolution => "none".to_string(),
        Outcome::Stopped(stop) => format!("stopped ({})", stop.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::search::predicates::{baseline, never};

    #[test]
    fn solves_figure_2_1() {
        let p = Puzzle::new(2, 1, (0, 0), (2, 1), &[(0, 0, 1), (1, 0, 2)]).unwrap();
        let r = astar(&p, &baseline, &SearchConfig::default());
        assert_eq!(format_outcome(&r.outcome), "0,0 1,0 2,0 2,1");
        // Figure 2.2: the root, B and D are expanded; E is pruned.
        assert_eq!(r.expansions, 3);
        let r = astar(&p, &never, &SearchConfig::default().with_mode(Mode::Sort));
        assert!(r.solution().is_some());
    }

    #[test]
    fn reports_no_solution_and_budgets() {
        let p = Puzzle::new(2, 2, (0, 0), (2, 2), &[(0, 0, 3), (1, 1, 3), (1, 0, 3)]).unwrap();
        let r = astar(&p, &baseline, &SearchConfig::default());
        assert_eq!(r.outcome, Outcome::NoSolution);
        assert_eq!(format_outcome(&r.outcome), "none");
        let r = astar(&p, &never, &SearchConfig { max_expansions: Some(3), ..SearchConfig::default() });
        assert_eq!(r.outcome, Outcome::Stopped(Stop::Expansions));
        assert_eq!(r.expansions, 3);
        let r = astar(&p, &never, &SearchConfig::default().with_node_limit(4));
        assert_eq!(format_outcome(&r.outcome), "stopped (node budget: memory)");
    }
}
