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
//! is visited for at most [`PATH_BUDGET`] paths (a puzzle stopped there is
//! said on stderr, and its specifications so far are kept), with a progress
//! bar on stderr while it runs.

use std::collections::HashSet;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::domain::WitnessState;
use super::oracle::Oracle;
use super::path::Path;
use super::puzzle::Puzzle;
use super::view::view_key;

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

/// The specifications of `puzzles`: incompletable partial paths that
/// `flags` does not flag, deduplicated by view.
pub fn mine(puzzles: &[Puzzle], flags: &dyn Fn(&Puzzle, &Path) -> bool, scope: Scope) -> Vec<WitnessState> {
    let bar = ProgressBar::with_draw_target(Some(puzzles.len() as u64), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template("mining {bar:30} {pos}/{len} puzzles, {msg}, {elapsed_precise} elapsed").expect("a valid template"),
    );
    let mut miner = Miner { flags, scope, seen: HashSet::new(), out: vec![], visited: 0, bar: &bar };
    for (i, puzzle) in puzzles.iter().enumerate() {
        let mut oracle = Oracle::new(puzzle);
        let goal = puzzle.grid().vertex_id(puzzle.goal());
        miner.visited = 0;
        miner.visit(puzzle, &mut oracle, goal, &mut Path::new(puzzle));
        if miner.visited >= PATH_BUDGET {
            bar.suspend(|| {
                eprintln!(
                    "mining puzzle {} of {} ({}x{}): stopped after {PATH_BUDGET} paths (the path budget); its specifications so far are kept",
                    i + 1,
                    puzzles.len(),
                    puzzle.width(),
                    puzzle.height()
                )
            });
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    miner.out
}

struct Miner<'f> {
    flags: &'f dyn Fn(&Puzzle, &Path) -> bool,
    scope: Scope,
    seen: HashSet<Vec<u8>>,
    out: Vec<WitnessState>,
    /// Paths visited in the current puzzle.
    visited: u64,
    bar: &'f ProgressBar,
}

impl Miner<'_> {
    /// Keeps `path` if it is a specification and visits its children (all
    /// of them when mining every path, else only a completable path's),
    /// until the puzzle's [`PATH_BUDGET`] is spent.
    fn visit(&mut self, puzzle: &Puzzle, oracle: &mut Oracle, goal: usize, path: &mut Path) {
        if self.visited >= PATH_BUDGET {
            return;
        }
        self.visited += 1;
        if self.visited % (1 << 16) == 0 {
            self.bar.set_message(format!("{} paths in this puzzle, {} specifications", self.visited, self.out.len()));
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
