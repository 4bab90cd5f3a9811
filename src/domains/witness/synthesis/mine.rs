//! Mining Witness specifications: the incompletable partial paths of
//! training puzzles that a predicate (local constraint checking, perhaps
//! with rules) does not flag, one per distinct view.
//!
//! By default only *frontier* paths are kept: incompletable paths whose
//! parent (the path one vertex shorter) is completable. They are the
//! paths where a search first goes wrong; pruning them removes the whole
//! subtree below, and every other incompletable path extends one. With
//! `all`, every incompletable unflagged path is kept. Paths whose views
//! are equal are the same specification to every rule, so only the first
//! (puzzle order, depth-first path order, successors right, up, left,
//! down) is kept. The oracle is exact, so every result is a true
//! deduction.
//!
//! The paths of a puzzle grow exponentially with its size, so each puzzle
//! is visited for at most [`PATH_BUDGET`] paths (its specifications so far
//! are kept, and the puzzle is reported as stopped); the caller is told as
//! each puzzle is done and every [`PROGRESS_PATHS`] paths within one, to
//! show progress.

use std::collections::HashSet;

use super::domain::WitnessState;
use super::view::view_key;
use crate::domains::witness::board::oracle::Oracle;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::Puzzle;

/// What to mine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Incompletable paths with a completable parent.
    Frontier,
    /// Every incompletable path.
    All,
}

/// Most paths visited in one puzzle: far more than a 4x4 puzzle has with
/// `Scope::All`, so mining the default sizes never reaches it.
pub const PATH_BUDGET: u64 = 1 << 22;

/// How many paths of one puzzle pass between two reports of its progress.
pub const PROGRESS_PATHS: u64 = 1 << 18;

/// One puzzle mined, or its progress, as [`mine_observed`] tells its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleMined {
    /// The puzzle's place in the list (0-based).
    pub index: usize,
    /// Whether the puzzle is done (else this reports its progress).
    pub finished: bool,
    /// Paths visited in it.
    pub paths: u64,
    /// Whether [`PATH_BUDGET`] stopped it.
    pub stopped: bool,
    /// Specifications found so far (all puzzles).
    pub found: usize,
}

/// The specifications of `puzzles`: incompletable partial paths that
/// `flags` does not flag, deduplicated by view.
pub fn mine(puzzles: &[Puzzle], flags: &dyn Fn(&Puzzle, &Path) -> bool, scope: Scope) -> Vec<WitnessState> {
    mine_observed(puzzles, flags, scope, &mut |_| {})
}

/// [`mine`], calling `observe` after each puzzle and every
/// [`PROGRESS_PATHS`] paths within one.
pub fn mine_observed(
    puzzles: &[Puzzle],
    flags: &dyn Fn(&Puzzle, &Path) -> bool,
    scope: Scope,
    observe: &mut dyn FnMut(PuzzleMined),
) -> Vec<WitnessState> {
    let mut miner = Miner { flags, scope, seen: HashSet::new(), out: vec![], index: 0, visited: 0, observe };
    for (index, puzzle) in puzzles.iter().enumerate() {
        let mut oracle = Oracle::new(puzzle);
        let goal = puzzle.grid().vertex_id(puzzle.goal());
        (miner.index, miner.visited) = (index, 0);
        miner.visit(puzzle, &mut oracle, goal, &mut Path::new(puzzle));
        miner.report(true);
    }
    miner.out
}

struct Miner<'f> {
    flags: &'f dyn Fn(&Puzzle, &Path) -> bool,
    scope: Scope,
    seen: HashSet<Vec<u8>>,
    out: Vec<WitnessState>,
    /// The current puzzle's place in the list.
    index: usize,
    /// Paths visited in the current puzzle.
    visited: u64,
    observe: &'f mut dyn FnMut(PuzzleMined),
}

impl Miner<'_> {
    /// Tells the caller where the current puzzle stands.
    fn report(&mut self, finished: bool) {
        let (index, paths, found) = (self.index, self.visited, self.out.len());
        (self.observe)(PuzzleMined { index, finished, paths, stopped: paths >= PATH_BUDGET, found });
    }

    /// Keeps `path` if it is a specification and visits its children (all
    /// of them when mining every path, else only a completable path's),
    /// until the puzzle's [`PATH_BUDGET`] is spent.
    fn visit(&mut self, puzzle: &Puzzle, oracle: &mut Oracle, goal: usize, path: &mut Path) {
        if self.visited >= PATH_BUDGET {
            return;
        }
        self.visited += 1;
        if self.visited.is_multiple_of(PROGRESS_PATHS) {
            self.report(false);
        }
        let completable = oracle.completable(path);
        if !completable && !(self.flags)(puzzle, path) && self.seen.insert(view_key(puzzle, path)) {
            self.out.push(WitnessState { puzzle: puzzle.clone(), path: path.clone(), completable: false });
        }
        if completable || self.scope == Scope::All {
            let children: Vec<usize> = path.successor_ids().filter(|&u| u != goal).collect();
            for u in children {
                path.push_id(u);
                self.visit(puzzle, oracle, goal, path);
                path.pop();
            }
        }
    }
}
