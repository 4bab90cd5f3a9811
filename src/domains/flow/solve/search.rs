//! The complete solver: depth-first search over boards, each settled by
//! propagation ([`Board::settle`], then the global rules with
//! [`Rules::All`]), branching on the most constrained cell: the one with
//! the fewest ways to take the links it still needs from its open slots
//! (a head of a colour first among equals, then the first row by row).
//! Its branches link one way each and cut its other open slots, so no two
//! share a solution, and every leaf with nothing open is a solution.
//!
//! It counts solutions up to a limit (2 for uniqueness: it goes on after
//! the first until a second is found or none is left), within a node
//! budget and a deadline, and says when it stopped before it knew.

use crate::domains::flow::model::grid::{Cell, Slot};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Status;
use crate::usage::thread_cpu_time;

use super::board::{Board, Dead};
use super::limits::{Limits, Options, Outcome, Rules, Stop};
use super::stranded::Stranded;

/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 64;

/// Counts the solutions of `p` under `options` within `limits`.
pub fn solve(p: &Puzzle, options: Options, limits: Limits) -> Outcome {
    let started = thread_cpu_time();
    let limit = limits.solutions.max(1);
    let mut out = Outcome { solutions: vec![], nodes: 0, stopped: None, time: Default::default() };
    let mut stranded = Stranded::default();
    let mut stack = vec![Board::new(p)];
    while let Some(mut board) = stack.pop() {
        if let Some(stop) = stop(&limits, out.nodes) {
            out.stopped = Some(stop);
            break;
        }
        out.nodes += 1;
        if settle(p, options, &mut board, &mut stranded).is_err() {
            continue;
        }
        match branch_cell(p, &board) {
            None => {
                out.solutions.push(board.solution());
                if out.solutions.len() >= limit {
                    break;
                }
            }
            Some(c) => {
                let mut children = children(p, &board, c);
                children.reverse();
                stack.extend(children);
            }
        }
    }
    out.time = thread_cpu_time().saturating_sub(started);
    out
}

/// Why the search must stop before the next node, if it must.
fn stop(limits: &Limits, nodes: u64) -> Option<Stop> {
    if limits.max_nodes.is_some_and(|m| nodes >= m) {
        return Some(Stop::Nodes);
    }
    let look = nodes.is_multiple_of(CLOCK_EVERY);
    (look && crate::deadline::past(limits.deadline)).then_some(Stop::Timeout)
}

/// Propagation at one node.
fn settle(p: &Puzzle, options: Options, board: &mut Board, stranded: &mut Stranded) -> Result<(), Dead> {
    board.settle(p, options)?;
    if options.rules == Rules::All {
        stranded.check(p, board)?;
    }
    Ok(())
}

/// The ways to choose `need` of `open` slots (need at most 2).
fn ways(open: usize, need: usize) -> usize {
    match need {
        0 => 1,
        1 => open,
        _ => open * (open - 1) / 2,
    }
}

/// The cell to branch on, `None` if no slot is open.
fn branch_cell(p: &Puzzle, board: &Board) -> Option<Cell> {
    let mut best: Option<((usize, bool), Cell)> = None;
    for c in 0..p.grid().cells() {
        let open = board.open(c);
        if open == 0 {
            continue;
        }
        let need = board.need(p, c);
        let key = (ways(open, need), !(need == 1 && board.colour(c) != 0));
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The boards of the branches on `c`: each links one choice of the slots
/// it needs and cuts its other open slots (unsettled; a choice the board
/// refuses at once is left out).
fn children(p: &Puzzle, board: &Board, c: Cell) -> Vec<Board> {
    let open: Vec<Slot> = p.grid().slots_of(c).filter(|&s| board.status(s) == Status::Open).collect();
    let choices: Vec<Vec<Slot>> = match board.need(p, c) {
        0 => vec![vec![]],
        1 => open.iter().map(|&s| vec![s]).collect(),
        _ => (0..open.len())
            .flat_map(|i| (i + 1..open.len()).map(move |j| (i, j)))
            .map(|(i, j)| vec![open[i], open[j]])
            .collect(),
    };
    choices
        .into_iter()
        .filter_map(|chosen| {
            let mut child = board.clone();
            for &s in &open {
                if chosen.contains(&s) {
                    child.link(p, s).ok()?;
                } else {
                    child.cut(p, s).ok()?;
                }
            }
            Some(child)
        })
        .collect()
}
