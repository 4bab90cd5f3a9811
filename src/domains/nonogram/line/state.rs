//! A nonogram line state as the oracle judges it: the line and its maximal
//! transition. The state of the domain, of its symbolic encoding and of the
//! enumeration of small lines.

use super::model::{Cell, Line};
use super::solver::LineSolver;

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
