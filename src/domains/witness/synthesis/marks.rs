//! The concrete `mark` and `dot` features of a Witness state (docs/language.md,
//! "Domain: Witness partial paths"): usable and sealed edges, joined
//! squares, a square's open area, and from them `joined_same`,
//! `joined_other`, `reach_same`, `closed` per mark and `crossed`,
//! `reachable` per dot.
//!
//! The classes (joined, open) are the components of
//! [`areas`](crate::domains::witness::model::areas), one labelling each per
//! state, shared by every mark. This module computes values only; it knows
//! nothing of the rule language or Z3.

use crate::domains::witness::model::areas::components;
use crate::domains::witness::model::grid::BitSet;
use crate::domains::witness::model::path::Path;
use crate::domains::witness::model::puzzle::{Dot, Puzzle};
use crate::domains::witness::model::region::{Masks, Region};

/// The features of one mark (separation square or star).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MarkFeatures {
    /// Its colour (>= 1).
    pub colour: u8,
    /// A star (else a separation square).
    pub star: bool,
    /// Marks other than it of its colour joined to it.
    pub joined_same: u8,
    /// For a separation square: separation squares of another colour joined
    /// to it (0 for a star).
    pub joined_other: u8,
    /// Marks other than it of its colour in its open area.
    pub reach_same: u8,
    /// Every square of its open area is joined to it.
    pub closed: bool,
}

/// The features of one must-cross dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DotFeatures {
    /// The path visits the vertex / uses the edge.
    pub crossed: bool,
    /// A vertex: the head or in R; an edge: on the path or usable.
    pub reachable: bool,
}

/// The usable edges of a state: `region` is its goal region, `masks` its
/// puzzle's.
fn usable_edges(path: &Path, region: &Region, masks: &Masks) -> BitSet {
    let mut usable = BitSet::EMPTY;
    for e in 0..path.grid().num_edges() {
        if !path.edges().contains(e) && region.usable(masks, e) {
            usable.insert(e);
        }
    }
    usable
}

/// The features of every mark of `puzzle`, in its (row, column) order, on
/// `path` with its goal region `region` (`masks`: the puzzle's).
pub fn mark_features(puzzle: &Puzzle, path: &Path, region: &Region, masks: &Masks) -> Vec<MarkFeatures> {
    let marks = puzzle.marks();
    if marks.is_empty() {
        return vec![];
    }
    let grid = puzzle.grid();
    let usable = usable_edges(path, region, masks);
    let joined = components(grid, |e| !path.edges().contains(e) && !usable.contains(e));
    let open = components(grid, |e| !path.edges().contains(e));
    let count = |labels: &[u8], x: usize, pick: &dyn Fn(usize) -> bool| {
        let at = labels[marks[x].square];
        (0..marks.len()).filter(|&k| k != x && labels[marks[k].square] == at && pick(k)).count() as u8
    };
    // closed: the open area's squares all share the mark's joined label
    let closed = |s: usize| (0..grid.num_squares()).all(|t| open[t] != open[s] || joined[t] == joined[s]);
    (0..marks.len())
        .map(|x| {
            let m = marks[x];
            let same = |k: usize| marks[k].colour == m.colour;
            let other = |k: usize| !marks[k].star && marks[k].colour != m.colour;
            MarkFeatures {
                colour: m.colour,
                star: m.star,
                joined_same: count(&joined, x, &same),
                joined_other: if m.star { 0 } else { count(&joined, x, &other) },
                reach_same: count(&open, x, &same),
                closed: closed(m.square),
            }
        })
        .collect()
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
