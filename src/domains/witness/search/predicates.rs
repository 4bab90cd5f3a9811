//! Hand-written reference predicates over (puzzle, partial path), with the
//! signature search expects: `true` = "incompletable, prune".
//!
//! These are the fixed points of comparison for learned rules; they do not
//! depend on the rule language.

use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::Puzzle;

/// Stevens' π_baseline, *local constraint checking* (§2.3): some square
/// uses more of its edges than it holds triangles. No false positives
/// (Theorem 2).
pub fn baseline(puzzle: &Puzzle, path: &Path) -> bool {
    puzzle.constrained_squares().iter().any(|&s| path.used_of(s) > puzzle.triangles_of(s))
}

/// Stevens' learned π° (Table 5.2) on its own: some 3-triangle square has
/// 1 or 2 used edges and the head is not one of its corners. No false
/// positives (Theorem 4).
pub fn stevens(puzzle: &Puzzle, path: &Path) -> bool {
    puzzle
        .constrained_squares()
        .iter()
        .any(|&s| puzzle.triangles_of(s) == 3 && matches!(path.used_of(s), 1 | 2) && !path.touches_head_of(s))
}

/// π_baseline or π°, as Stevens evaluates the learned predicate (§5.2).
pub fn baseline_or_stevens(puzzle: &Puzzle, path: &Path) -> bool {
    baseline(puzzle, path) || stevens(puzzle, path)
}

/// The constant `false` predicate: plain A* without pruning.
pub fn never(_: &Puzzle, _: &Path) -> bool {
    false
}
