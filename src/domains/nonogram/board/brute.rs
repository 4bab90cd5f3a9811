//! Every solution of a small board by brute force (tests only: the
//! complete solver's counts are checked against it).

use super::propagate::Clues;
use crate::domains::nonogram::line::model::hints_of;

/// Every solution of a small board by brute force over all fillings of its
/// rows (each row one of the fillings its hints allow).
pub fn brute_force(clues: &Clues) -> Vec<Vec<bool>> {
    let w = clues.width();
    let row_options: Vec<Vec<Vec<bool>>> = clues
        .rows()
        .iter()
        .map(|h| {
            (0u32..1 << w)
                .map(|bits| (0..w).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
                .filter(|v| hints_of(v) == *h)
                .collect()
        })
        .collect();
    let mut out = vec![];
    let mut pick = vec![0usize; clues.height()];
    if row_options.iter().any(Vec::is_empty) {
        return out;
    }
    loop {
        let grid: Vec<bool> = pick.iter().enumerate().flat_map(|(r, &i)| row_options[r][i].clone()).collect();
        let ok = clues.columns().iter().enumerate().all(|(c, h)| {
            let col: Vec<bool> = (0..clues.height()).map(|r| grid[r * w + c]).collect();
            hints_of(&col) == *h
        });
        if ok {
            out.push(grid);
        }
        let mut r = 0;
        loop {
            if r == pick.len() {
                return out;
            }
            pick[r] += 1;
            if pick[r] < row_options[r].len() {
                break;
            }
            pick[r] = 0;
            r += 1;
        }
    }
}
