//! The model player's oracle (`player`): which cell of the solution it
//! reveals when the player's knowledge is stuck, with the probes that
//! choice needs kept from one reveal to the next.
//!
//! The oracle reveals the first cell (row by row) whose wrong value a probe
//! refutes (line propagation with the exact line solver reaches a
//! contradiction); if there is none, the cell whose revealed value lets
//! propagation fix the most cells, ties to the first. Each reveal probes up
//! to every unknown cell; done afresh, a board with hundreds of reveals
//! costs hundreds of times a full round of probes. Two facts spare most of
//! them, on the player's board, which only ever grows:
//! - a refuted value stays refuted on every board grown from the one it was
//!   refuted on (propagation is monotone);
//! - a probe that did not fail read only its cell's two lines and the lines
//!   through the cells it fixed: while none of those lines changes, probing
//!   again would read the same lines the same way, and give the same cells.
//!
//! So each probe is stored with the lines it read and the time it was made,
//! and each line with the time it last changed. The choices, and so the
//! steps and bits, are the ones probing afresh gives. Probes run on bit
//! boards with the complete solver's propagator (its memo of line results).
//!
//! This module knows boards and propagation: not rules, steps or bits.

use crate::domains::nonogram::board::bitboard::{BitBoard, BitPropagator};
use crate::domains::nonogram::board::propagate::Clues;

/// What probing a value of a cell gave.
#[derive(Clone, Debug)]
enum Probe {
    /// Propagation reached a contradiction (for good).
    Refuted,
    /// Propagation fixed `fixed` other cells, reading `lines`, at time `at`.
    Fixed { fixed: usize, lines: Vec<u32>, at: u64 },
}

/// The oracle's board and stored probes.
#[derive(Debug)]
pub struct Oracle {
    board: BitBoard,
    prop: BitPropagator,
    scratch: BitBoard,
    /// Counts the cells set so far.
    now: u64,
    /// The time each line last changed.
    changed: Vec<u64>,
    /// The last probe of each cell, filled (index 1) and empty (index 0).
    probes: Vec<[Option<Probe>; 2]>,
}

/// Why a reveal was not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfTime;

impl Oracle {
    /// The oracle of an empty board of `clues`.
    pub fn new(clues: &Clues) -> Oracle {
        let board = BitBoard::new(clues);
        Oracle {
            scratch: board.clone(),
            board,
            prop: BitPropagator::new(),
            now: 0,
            changed: vec![0; clues.line_count()],
            probes: vec![[None, None]; clues.cells()],
        }
    }

    /// Tells the oracle the player knows grid cell `p` is `value`.
    pub fn set(&mut self, clues: &Clues, p: usize, value: bool) {
        let (r, c) = (p / clues.width(), p % clues.width());
        self.board.set(r, c, value);
        self.now += 1;
        for l in clues.lines_through(p) {
            self.changed[l] = self.now;
        }
    }

    /// The cell the oracle reveals (see the module doc) among `unknowns`
    /// (the unknown cells, row by row), and whether a probe refutes its
    /// other value. `OutOfTime` once `out_of_time` says so (asked before
    /// each probe).
    pub fn reveal(
        &mut self,
        clues: &Clues,
        solution: &[bool],
        unknowns: &[usize],
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> Result<(usize, bool), OutOfTime> {
        let mut tick = || if out_of_time() { Err(OutOfTime) } else { Ok(()) };
        for &p in unknowns {
            tick()?;
            if self.probe(clues, p, !solution[p]).is_none() {
                return Ok((p, true));
            }
        }
        let mut best: Option<(usize, usize)> = None;
        for &p in unknowns {
            tick()?;
            let fixed = self.probe(clues, p, solution[p]).unwrap_or(0);
            if best.is_none_or(|(f, _)| fixed > f) {
                best = Some((fixed, p));
            }
        }
        Ok((best.expect("reveal is only called with unknown cells").1, false))
    }

    /// The cells propagation fixes besides `p` once `p` is `value`; `None`
    /// if it reaches a contradiction. From the stored probe while it holds.
    fn probe(&mut self, clues: &Clues, p: usize, value: bool) -> Option<usize> {
        match &self.probes[p][value as usize] {
            Some(Probe::Refuted) => return None,
            Some(Probe::Fixed { fixed, lines, at }) if lines.iter().all(|&l| self.changed[l as usize] <= *at) => {
                return Some(*fixed);
            }
            _ => {}
        }
        self.scratch.clone_from(&self.board);
        let (r, c) = (p / clues.width(), p % clues.width());
        let stored = match self.prop.assume(clues, &mut self.scratch, (r, c), value) {
            Err(_) => Probe::Refuted,
            Ok(fixed) => {
                let mut read = self.scratch.changed_lines(&self.board);
                for l in clues.lines_through(p) {
                    read[l] = true;
                }
                let lines = (0..read.len()).filter(|&l| read[l]).map(|l| l as u32).collect();
                Probe::Fixed { fixed, lines, at: self.now }
            }
        };
        let answer = match &stored {
            Probe::Refuted => None,
            Probe::Fixed { fixed, .. } => Some(*fixed),
        };
        self.probes[p][value as usize] = Some(stored);
        answer
    }
}
