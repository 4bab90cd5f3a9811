//! The block-start encoding of a line for the SAT fallback's formula
//! (`cnf`): a variable per place a block may start.
//!
//! Block `j` (of `h` cells) may start at `s` when cells `s..s+h` are not
//! known empty, the cells just before and after are not known filled, and
//! the blocks before and after it fit on either side. The clauses: each
//! block starts exactly once (one clause for "at least", a clause per pair
//! for "at most"); the starts of blocks `j` and `j+1` are at least `h + 1`
//! apart; a block's start fills its cells; a filled cell is covered by some
//! start. Redundant clauses help propagation: a start empties the cells
//! just around its block and needs a start of the next and of the previous
//! block with room between. The starts make the line's filled cells exactly
//! its blocks, in order, with gaps between, so the models' cells are the
//! line's solutions, and each solution has a model (its blocks' starts).
//!
//! Unit propagation on these clauses is weaker than the exact line solver
//! (the regular encoding's), but the formula has fewer variables; which
//! solves faster is measured (`bench --boards --sat-compare`).
//!
//! This module knows hints and cells: not boards, solvers or search.

use super::cnf::{implies_any, Cnf};
use crate::domains::nonogram::line::model::Cell;

/// Adds the clauses of one line (`cells`: each cell's value on the board
/// and literal; see the module doc); false if some block has nowhere to
/// start.
pub(super) fn encode_line(cnf: &mut Cnf, hints: &[u32], cells: &[(Cell, i32)]) -> bool {
    let hints: Vec<usize> = hints.iter().filter(|&&h| h > 0).map(|&h| h as usize).collect();
    let Some(starts) = places(cnf, &hints, cells) else {
        return false;
    };
    let (n, lit) = (cells.len(), |i: usize| cells[i].1);
    for (j, places) in starts.iter().enumerate() {
        let h = hints[j];
        cnf.clauses.push(places.iter().map(|&(_, v)| v).collect());
        for (a, &(_, va)) in places.iter().enumerate() {
            for &(_, vb) in &places[a + 1..] {
                cnf.clauses.push(vec![-va, -vb]);
            }
        }
        for &(s, v) in places {
            cnf.clauses.extend((s..s + h).map(|i| vec![-v, lit(i)]));
            let around = [s.checked_sub(1), Some(s + h).filter(|&i| i < n)];
            cnf.clauses.extend(around.into_iter().flatten().map(|i| vec![-v, -lit(i)]));
            if let Some(next) = starts.get(j + 1) {
                cnf.clauses.extend(next.iter().filter(|&&(t, _)| t <= s + h).map(|&(_, vn)| vec![-v, -vn]));
                cnf.clauses.push(implies_any(v, next.iter().filter(|&&(t, _)| t > s + h).map(|&(_, vn)| vn)));
            }
            if j > 0 {
                let before = hints[j - 1];
                cnf.clauses.push(implies_any(v, starts[j - 1].iter().filter(|&&(t, _)| t + before < s).map(|p| p.1)));
            }
        }
    }
    for i in 0..n {
        let covering = starts
            .iter()
            .zip(&hints)
            .flat_map(|(places, &h)| places.iter().filter(move |&&(s, _)| s <= i && i < s + h).map(|&(_, v)| v));
        cnf.clauses.push(implies_any(lit(i), covering));
    }
    true
}

/// The places each block may start (see the module doc), each with a
/// fresh variable; `None` if some block has none.
fn places(cnf: &mut Cnf, hints: &[usize], cells: &[(Cell, i32)]) -> Option<Vec<Vec<(usize, i32)>>> {
    let n = cells.len();
    if hints.iter().map(|h| h + 1).sum::<usize>() > n + 1 {
        return None;
    }
    let at = |i: usize| cells[i].0;
    let mut starts = vec![];
    let mut earliest = 0;
    for (j, &h) in hints.iter().enumerate() {
        let latest = n + 1 - hints[j..].iter().map(|h| h + 1).sum::<usize>();
        let places: Vec<(usize, i32)> = (earliest..=latest)
            .filter(|&s| (s..s + h).all(|i| at(i) != Cell::False))
            .filter(|&s| (s == 0 || at(s - 1) != Cell::True) && (s + h == n || at(s + h) != Cell::True))
            .map(|s| (s, cnf.fresh()))
            .collect();
        if places.is_empty() {
            return None;
        }
        earliest += h + 1;
        starts.push(places);
    }
    Some(starts)
}
