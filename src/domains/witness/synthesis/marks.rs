//! The concrete `mark` and `dot` features of a Witness state (docs/language.md,
//! "Domain: Witness partial paths"): usable and sealed edges, joined
//! squares, a square's open area, and from them `joined_same`,
//! `joined_other`, `reach_same`, `closed` per mark and `crossed`,
//! `reachable` per dot.
//!
//! The joined classes and open areas are the model's
//! [`Areas`](crate::domains::witness::board::areas::Areas), which the oracle
//! judges region constraints with too. This module computes values only;
//! it knows nothing of the rule language or Z3.

use crate::domains::witness::board::areas::{Areas, MarkFeatures};
use crate::domains::witness::board::path::Path;
use crate::domains::witness::board::region::{Masks, Region};
use crate::domains::witness::formats::puzzle::{Dot, Puzzle};

/// The features of one must-cross dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DotFeatures {
    /// The path visits the vertex / uses the edge.
    pub crossed: bool,
    /// A vertex: the head or in R; an edge: on the path or usable.
    pub reachable: bool,
}

/// The features of every mark of `puzzle`, in its (row, column) order, on
/// `path` with its goal region `region` (`masks`: the puzzle's): the
/// model's [`Areas`] of the path and its usable edges.
pub fn mark_features(puzzle: &Puzzle, path: &Path, region: &Region, masks: &Masks) -> Vec<MarkFeatures> {
    if puzzle.marks().is_empty() {
        return vec![];
    }
    Areas::new(puzzle.grid(), path.edges(), |e| region.usable(masks, e)).mark_features(puzzle)
}

/// The features of every dot of `puzzle`, in its DSL order, on `path`
/// with its goal region `region` (`masks`: the puzzle's).
pub fn dot_features(puzzle: &Puzzle, path: &Path, region: &Region, masks: &Masks) -> Vec<DotFeatures> {
    let dots = puzzle.dots();
    if dots.is_empty() {
        return vec![];
    }
    let live = region.goal_region | region.head;
    dots.iter()
        .map(|d| match *d {
            Dot::Vertex(v) => DotFeatures { crossed: path.visited().contains(v), reachable: live >> v & 1 == 1 },
            Dot::Edge(e) => {
                let crossed = path.edges().contains(e);
                DotFeatures { crossed, reachable: crossed || region.usable(masks, e) }
            }
        })
        .collect()
}
