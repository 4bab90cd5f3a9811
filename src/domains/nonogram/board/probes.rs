//! The probes the complete solver (`complete`) has made, one pair of boards
//! per cell (their rows only), kept so that it does not probe a cell again
//! while the stored pair still tells it everything a new probe would.
//!
//! Line propagation with the exact line solver is monotone. Let `T` and `F`
//! be the boards a probe of cell `x` gave on board `B` (`x` filled, resp.
//! empty, propagated to a fixpoint), and let the board now searched, `C`,
//! lie inside both (every cell `C` knows, `T` and `F` know the same way).
//! - If `C` grew from `B`, probing `x` on `C` gives `T` and `F` again, whose
//!   common cells were already fixed when they were stored: nothing new.
//! - Otherwise (the search went back to a sibling branch) a new probe gives
//!   boards inside `T` and `F`: no contradiction, at most fewer common cells.
//!   Skipping it may lose a deduction, never a solution: the search stays
//!   complete because it branches on every cell it does not know.
//!
//! This module knows bit boards only: not search, limits or solutions.

use super::bitboard::BitBoard;
use crate::domains::nonogram::line::bitline::Masks;

/// The most row masks stored (32 bytes each: 64 MiB, a 100x100 board);
/// past it nothing is stored and every probe is made.
const MAX_MASKS: usize = 1 << 21;

/// A cell's score as a branching cell: the cells its two probes fix, the
/// smaller count then the sum.
pub type Score = (usize, usize);

/// The stored probes of every cell of one board's clues, and the score of
/// each cell's last probes.
#[derive(Debug, Default)]
pub struct ProbeStore {
    height: usize,
    /// The rows of `T` then `F` of cell `i` at `(2 * i + side) * height`;
    /// allocated at the first store.
    rows: Vec<Masks>,
    /// The known cells of `T` and `F` of cell `i`; 0 when nothing is stored
    /// (a probe knows at least its own cell).
    known: Vec<[u32; 2]>,
    /// The score of each cell's last probes (kept whatever the board size).
    scores: Vec<Option<Score>>,
    cells: usize,
}

impl ProbeStore {
    /// An empty store for boards of `height` rows and `cells` cells.
    pub fn new(height: usize, cells: usize) -> ProbeStore {
        ProbeStore { height, rows: vec![], known: vec![], scores: vec![None; cells], cells }
    }

    /// The score of the last probes of cell `i` (`None` before any).
    pub fn score(&self, i: usize) -> Option<Score> {
        self.scores[i]
    }

    /// Sets the score of cell `i` (its stored probes, measured again).
    pub fn set_score(&mut self, i: usize, score: Score) {
        self.scores[i] = Some(score);
    }

    /// Stores the probes `t` (filled) and `f` (empty) of cell `i` and
    /// their score.
    pub fn put(&mut self, i: usize, t: &BitBoard, f: &BitBoard, score: Score) {
        self.scores[i] = Some(score);
        let h = self.height;
        if 2 * self.cells * h > MAX_MASKS {
            return;
        }
        if self.known.is_empty() {
            self.rows = vec![Masks::default(); 2 * self.cells * h];
            self.known = vec![[0; 2]; self.cells];
        }
        for (side, probe) in [t, f].into_iter().enumerate() {
            let at = (2 * i + side) * h;
            self.rows[at..at + h].copy_from_slice(probe.rows());
            self.known[i][side] = probe.known() as u32;
        }
    }

    /// The known cells of the stored `T` and `F` of cell `i` if both hold
    /// every cell `board` knows (so a new probe would tell nothing new).
    pub fn holds(&self, i: usize, board: &BitBoard) -> Option<[usize; 2]> {
        let known = *self.known.get(i)?;
        if known[0] == 0 {
            return None;
        }
        let h = self.height;
        let inside = |side: usize| {
            let at = (2 * i + side) * h;
            board.rows().iter().zip(&self.rows[at..at + h]).all(|(c, s)| c.fill & !s.fill | c.empty & !s.empty == 0)
        };
        (inside(0) && inside(1)).then_some([known[0] as usize, known[1] as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::board::bitboard::BitPropagator;
    use crate::domains::nonogram::board::propagate::Clues;

    /// A stored pair holds on the board it came from and on boards grown
    /// inside it, not on a board that knows a cell otherwise.
    #[test]
    fn holds_exactly_inside_both_probes() {
        // two 1s on a 2x2 board: the two diagonals
        let clues = Clues::new(vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
        let mut prop = BitPropagator::new();
        let board = BitBoard::new(&clues);
        let (mut t, mut f) = (board.clone(), board.clone());
        prop.assume(&clues, &mut t, (0, 0), true).unwrap();
        prop.assume(&clues, &mut f, (0, 0), false).unwrap();
        let mut store = ProbeStore::new(2, 4);
        assert_eq!(store.holds(0, &board), None);
        store.put(0, &t, &f, (3, 6));
        assert_eq!(store.score(0), Some((3, 6)));
        assert_eq!(store.holds(0, &board), Some([4, 4]));
        assert_eq!(store.holds(1, &board), None);
        // a board knowing cell (0, 1) filled lies inside f only
        let mut other = board.clone();
        other.set(0, 1, true);
        assert_eq!(store.holds(0, &other), None);
    }
}
