//! The model player's oracle: the slot of the solution it reveals when the
//! player's knowledge is stuck, as the nonogram player's oracle chooses a
//! cell. It reveals the first open slot (in slot order) whose wrong status
//! a probe refutes: the complete solver's propagation (its local rules to
//! a fixpoint, then the stranded colour and area checks) reaches a
//! contradiction from it. If there is none, a guess: the slot whose status
//! lets that propagation decide the most slots, ties to the first.
//!
//! This module knows boards and propagation: not rules, steps or bits.

use crate::domains::flow::model::grid::Slot;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::solve::board::{Board, Dead};
use crate::domains::flow::solve::stranded::Stranded;
use crate::domains::flow::solve::Options;

/// The solver's board of `state`: its links and cuts made, not settled;
/// `Dead` if they cannot all be made.
pub fn board_of(p: &Puzzle, state: &State) -> Result<Board, Dead> {
    let mut board = Board::new(p);
    for (s, &status) in state.statuses().iter().enumerate() {
        match status {
            Status::Linked => board.link(p, s)?,
            Status::Cut => board.cut(p, s)?,
            Status::Open => {}
        }
    }
    Ok(board)
}

/// The complete solver's propagation on `board` (under docs/reference/formats.md's
/// convention, every rule): `Dead` if it reaches a contradiction.
pub fn propagate(p: &Puzzle, board: &mut Board, stranded: &mut Stranded) -> Result<(), Dead> {
    board.settle(p, Options::default())?;
    stranded.check(p, board)
}

/// What the oracle reveals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// The slot.
    pub slot: Slot,
    /// Its status in the solution.
    pub status: Status,
    /// Whether a probe refuted the other status (else it is a guess).
    pub refuted: bool,
}

/// `board` with slot `s` set to `status` and propagated: `None` on a
/// contradiction.
fn probe(p: &Puzzle, board: &Board, s: Slot, status: Status, stranded: &mut Stranded) -> Option<Board> {
    let mut b = board.clone();
    match status {
        Status::Linked => b.link(p, s).ok()?,
        _ => b.cut(p, s).ok()?,
    }
    propagate(p, &mut b, stranded).ok().map(|_| b)
}

/// The slot the oracle reveals on `state` (which `solution` extends, with
/// a slot open), by the module doc's choice.
pub fn reveal(p: &Puzzle, state: &State, solution: &Solution) -> Result<Reveal, Dead> {
    let board = board_of(p, state)?;
    let mut stranded = Stranded::default();
    let truth = |s: Slot| if solution.links().binary_search(&s).is_ok() { Status::Linked } else { Status::Cut };
    let wrong = |st: Status| if st == Status::Linked { Status::Cut } else { Status::Linked };
    let open: Vec<Slot> = (0..p.grid().slots()).filter(|&s| state.status(s) == Status::Open).collect();
    if let Some(&slot) = open.iter().find(|&&s| probe(p, &board, s, wrong(truth(s)), &mut stranded).is_none()) {
        return Ok(Reveal { slot, status: truth(slot), refuted: true });
    }
    let mut best: Option<(usize, Slot)> = None;
    for &s in &open {
        let decided = probe(p, &board, s, truth(s), &mut stranded).ok_or(Dead)?.state().decided();
        if best.is_none_or(|(d, _)| decided > d) {
            best = Some((decided, s));
        }
    }
    let (_, slot) = best.ok_or(Dead)?;
    Ok(Reveal { slot, status: truth(slot), refuted: false })
}
