//! Solution traces by random rollouts (Butler et al. 2017, §7): test
//! transitions drawn from real puzzles.
//!
//! From a board (normally the empty board of a puzzle), repeat: among all
//! lines (rows and columns) that are not fully known and whose maximal
//! transition is *productive* (fills at least one unknown cell), pick one
//! uniformly at random; record (the line before, its maximal transition) as
//! a [`Transition`]; fill it. Stop when the board is solved or no line is
//! productive (a puzzle that line solving cannot finish ends there).
//!
//! Choosing only among productive lines (rather than among all unfinished
//! lines, skipping unproductive picks) gives the same distribution of
//! recorded transitions per step and never records an empty transition.
//! Runs are deterministic for a given RNG state (lines are considered in
//! the fixed order rows, then columns). Lines of every length are recorded;
//! a caller that needs a length limit filters the transitions.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use super::grid::{Axis, Board, BoardError, Contradiction, LineId};
use crate::domains::nonogram::formats::lines::Transition;
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::line::solver::LineSolver;

/// A solution trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The recorded maximal transitions, in the order they were applied.
    pub transitions: Vec<Transition>,
    /// The board line of each transition (parallel to `transitions`).
    pub lines: Vec<LineId>,
    /// True if the rollout solved the board.
    pub solved: bool,
}

/// Errors from tracing a board.
#[derive(Debug, Error)]
pub enum TraceError {
    /// A line has no solution: the puzzle (or the given state) is unsolvable.
    #[error("{line}: the board has no solution (no solution extends the line `{text}`)")]
    Contradiction {
        /// The invalid line.
        line: LineId,
        /// Its text form.
        text: String,
    },
    /// Applying a transition to the board failed (an internal error).
    #[error(transparent)]
    Board(#[from] BoardError<Contradiction>),
}

/// Cached maximal transition of a line: not computed, or computed.
type Cached = Option<Vec<Cell>>;

/// Traces a board by random rollouts from its current state (pass the empty
/// board of a puzzle for the paper's traces). The board is not modified.
pub fn trace_puzzle<R: Rng + ?Sized>(board: &Board, rng: &mut R) -> Result<Trace, TraceError> {
    let mut board = board.clone();
    let ids: Vec<LineId> = board.line_ids().collect();
    let h = board.height();
    let slot = |id: LineId| match id.axis {
        Axis::Row => id.index,
        Axis::Column => h + id.index,
    };
    let mut solver = LineSolver::new();
    let mut cache: Vec<Cached> = vec![None; ids.len()];
    let mut transitions = Vec::new();
    let mut lines = Vec::new();
    let mut productive: Vec<(LineId, Line)> = Vec::new();
    loop {
        productive.clear();
        for &id in &ids {
            let line = board.line(id);
            if line.is_complete() {
                continue;
            }
            let s = slot(id);
            if cache[s].is_none() {
                let t = solver
                    .solve(&line)
                    .ok_or_else(|| TraceError::Contradiction { line: id, text: line.to_string() })?;
                cache[s] = Some(t);
            }
            let target = cache[s].as_deref().unwrap_or_default();
            if line.cells.iter().zip(target).any(|(c, t)| !c.is_known() && t.is_known()) {
                productive.push((id, line));
            }
        }
        if productive.is_empty() {
            break;
        }
        let (id, start) = productive.swap_remove(rng.gen_range(0..productive.len()));
        let target = cache[slot(id)].clone().unwrap_or_default();
        for i in board.apply::<Contradiction>(id, &target)? {
            cache[slot(Board::crossing(id, i))] = None;
        }
        // The line's own cache stays valid: a maximal transition is a fixpoint.
        transitions.push(Transition { start, target });
        lines.push(id);
    }
    Ok(Trace { transitions, lines, solved: board.is_solved() })
}

/// [`trace_puzzle`] with a `ChaCha8Rng` seeded from `seed`.
pub fn trace_seeded(board: &Board, seed: u64) -> Result<Trace, TraceError> {
    trace_puzzle(board, &mut ChaCha8Rng::seed_from_u64(seed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duck() -> Board {
        Board::new(vec![vec![1, 1], vec![], vec![3]], vec![vec![1, 1], vec![1], vec![1, 1]])
    }

    #[test]
    fn trace_solves_and_records_maximal_transitions() {
        let t = trace_seeded(&duck(), 7).unwrap();
        assert!(t.solved);
        assert!(!t.transitions.is_empty());
        for tr in &t.transitions {
            assert!(tr.is_maximal());
            assert!(tr.new_cells() > 0);
        }
        // Replaying the transitions fills every cell exactly once.
        let total: usize = t.transitions.iter().map(Transition::new_cells).sum();
        assert_eq!(total, 9);
    }

    #[test]
    fn deterministic_for_a_seed() {
        let a = trace_seeded(&duck(), 1).unwrap();
        let b = trace_seeded(&duck(), 1).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn unsolvable_board_is_an_error() {
        let b = Board::new(vec![vec![2], vec![]], vec![vec![], vec![]]);
        assert!(matches!(trace_seeded(&b, 0), Err(TraceError::Contradiction { .. })));
    }
}
