//! A nonogram line state as the oracle judges it (the line and its maximal
//! transition), the arguments of a `fill` action value, and where the
//! domain's names live in its schema. Shared by the domain, its symbolic
//! encoding and the enumeration of small states.

use super::line::{Cell, Line};
use super::solver::LineSolver;
use crate::dsl::ast::{FeatureId, TypeId};
use crate::dsl::eval::ActionValue;

/// A line and its maximal transition (what the oracle judges fills by).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LineState {
    /// The line.
    pub line: Line,
    /// Every cell forced by the line in all its solutions.
    pub target: Vec<Cell>,
}

impl LineState {
    /// The line with its maximal transition; `None` if the line is invalid.
    pub fn new(line: Line) -> Option<LineState> {
        let target = LineSolver::new().solve(&line)?;
        Some(LineState { line, target })
    }

    /// The mirror image of the state.
    pub fn mirror(&self) -> LineState {
        let mut target = self.target.clone();
        target.reverse();
        LineState { line: self.line.mirror(), target }
    }
}

/// The arguments of a `fill(value, a, b)` action value; `None` for a
/// malformed one.
pub fn fill_args(action: &ActionValue) -> Option<(bool, i64, i64)> {
    match action.args.as_slice() {
        [v, a, b] => Some((*v != 0, *a, *b)),
        _ => None,
    }
}

/// Ids of the schema's names the domain provides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ids {
    pub hint: TypeId,
    pub block: TypeId,
    pub gap: TypeId,
    pub start: FeatureId,
    pub size: FeatureId,
    pub lowest_end: FeatureId,
    pub highest_start: FeatureId,
}

