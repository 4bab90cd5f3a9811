//! The symmetries of a board's clues, and the lex-leader clauses that keep
//! one solution of each orbit, for cube and conquer (`cubes`).
//!
//! A symmetry is a permutation `s` of the grid's cells such that for every
//! solution `S`, the grid `S∘s` (cell `j` takes `S[s(j)]`) is a solution
//! too. The candidates are the eight symmetries of the square (four of a
//! rectangle) on the board cropped of its empty outer rows and columns
//! (their cells, empty in every solution, stay where they are); a candidate
//! is kept only if it is proved one: for every line `l`, the cells
//! `s(l)` are a line `l'` of the cropped board read forwards or backwards,
//! and `l'` read that way has `l`'s hints. Then `S∘s` on `l` reads `S` on
//! `l'`, which has those hints: each line of `S∘s` has its hints.
//!
//! The solutions of a board are closed under its symmetries, so they fall
//! into orbits, and the least solution of an orbit (cells compared row by
//! row, empty before filled) is the one with `S ≤ S∘s` for every symmetry
//! `s`. Those lexicographic constraints (a chain of "equal so far"
//! variables per symmetry) keep exactly that one solution per orbit; the
//! rest of each orbit is read off by applying the symmetries.
//!
//! This module knows clues and formulas (DIMACS literals): not solvers.

use super::cnf::{cell_lit, Cnf};
use super::propagate::Clues;

/// The symmetries of `clues` other than the identity (each as the cell
/// `s(j)` for each cell `j`), proved (see the module doc); they and the
/// identity form a group.
pub fn symmetries(clues: &Clues) -> Vec<Vec<usize>> {
    let (w, h) = (clues.width(), clues.height());
    let empty = |l: usize| clues.hints(l).iter().all(|&x| x == 0);
    let rows: Vec<usize> = (0..h).filter(|&r| !empty(r)).collect();
    let cols: Vec<usize> = (0..w).filter(|&c| !empty(h + c)).collect();
    let (Some(&r0), Some(&c0)) = (rows.first(), cols.first()) else {
        return vec![];
    };
    let (ch, cw) = (rows[rows.len() - 1] + 1 - r0, cols[cols.len() - 1] + 1 - c0);
    let mut out = vec![];
    for swap in [false, true].into_iter().filter(|&s| !s || ch == cw) {
        for (flip_r, flip_c) in [(false, false), (false, true), (true, false), (true, true)] {
            if !swap && !flip_r && !flip_c {
                continue;
            }
            let image = |r: usize, c: usize| {
                let (r, c) = if swap { (c, r) } else { (r, c) };
                let r = if flip_r { ch - 1 - r } else { r };
                let c = if flip_c { cw - 1 - c } else { c };
                (r0 + r) * w + c0 + c
            };
            let mut s: Vec<usize> = (0..w * h).collect();
            for r in 0..ch {
                for c in 0..cw {
                    s[(r0 + r) * w + c0 + c] = image(r, c);
                }
            }
            if proved(clues, &s, (r0, c0, ch, cw)) {
                out.push(s);
            }
        }
    }
    out
}

/// True if `s` is a symmetry of `clues` (see the module doc), checked on
/// the lines of the cropped board (`r0`, `c0`: its corner; `ch`, `cw`: its
/// size).
fn proved(clues: &Clues, s: &[usize], (r0, c0, ch, cw): (usize, usize, usize, usize)) -> bool {
    let (w, h) = (clues.width(), clues.height());
    // each cropped line: its line number and its cells in order
    let lines: Vec<(usize, Vec<usize>)> = (r0..r0 + ch)
        .map(|r| (r, (c0..c0 + cw).map(|c| r * w + c).collect()))
        .chain((c0..c0 + cw).map(|c| (h + c, (r0..r0 + ch).map(|r| r * w + c).collect())))
        .collect();
    lines.iter().all(|(l, cells)| {
        let image: Vec<usize> = cells.iter().map(|&p| s[p]).collect();
        lines.iter().any(|(m, other)| {
            let forwards = image == *other && clues.hints(*m) == clues.hints(*l);
            let mut back = image.clone();
            back.reverse();
            let mut hints = clues.hints(*m).to_vec();
            hints.reverse();
            forwards || (back == *other && hints == clues.hints(*l))
        })
    })
}

/// Adds to `cnf` the constraint `S ≤ S∘s` for each symmetry `s` (cells
/// row by row, empty before filled).
pub fn add_lex_leader(cnf: &mut Cnf, symmetries: &[Vec<usize>]) {
    for s in symmetries {
        // `equal`: the literal "S and S∘s agree on the cells so far" (none
        // before the first cell: true)
        let mut equal: Option<i32> = None;
        for (j, &sj) in s.iter().enumerate().filter(|&(j, &sj)| j != sj) {
            let (x, y) = (cell_lit(j), cell_lit(sj));
            let guard = |c: Vec<i32>| equal.map(|e| -e).into_iter().chain(c).collect::<Vec<i32>>();
            cnf.clauses.push(guard(vec![-x, y]));
            cnf.vars += 1;
            let next = cnf.vars;
            // equal so far and x filled (so y filled too), or y empty (so x
            // empty too): still equal
            cnf.clauses.push(guard(vec![-x, next]));
            cnf.clauses.push(guard(vec![y, next]));
            equal = Some(next);
        }
    }
}

/// The orbit of a solution under the symmetries: the solution first, then
/// each other image once.
pub fn orbit(symmetries: &[Vec<usize>], solution: &[bool]) -> Vec<Vec<bool>> {
    let mut out = vec![solution.to_vec()];
    for s in symmetries {
        let image: Vec<bool> = s.iter().map(|&j| solution[j]).collect();
        if !out.contains(&image) {
            out.push(image);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::board::brute::brute_force;
    use crate::domains::nonogram::formats::non::clues_of;
    use rand::{Rng, SeedableRng};

    /// Every symmetry found maps each solution to a solution (brute force
    /// on random small boards, symmetric ones among them); a picture
    /// symmetric under a half turn gives clues with a symmetry.
    #[test]
    fn symmetries_map_solutions_to_solutions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut found = 0;
        for _ in 0..300 {
            let (w, h) = (rng.gen_range(1..=4), rng.gen_range(1..=4));
            let mut grid: Vec<bool> = (0..w * h).map(|_| rng.gen_bool(0.5)).collect();
            let half_turn = rng.gen_bool(0.5);
            if half_turn {
                for i in 0..w * h {
                    grid[w * h - 1 - i] = grid[i];
                }
            }
            let (rows, columns) = clues_of(w, h, &grid);
            let clues = Clues::new(rows, columns);
            let syms = symmetries(&clues);
            found += syms.len();
            let all = brute_force(&clues);
            for s in &syms {
                for sol in &all {
                    let image: Vec<bool> = s.iter().map(|&j| sol[j]).collect();
                    assert!(all.contains(&image), "{clues:?} {s:?}");
                }
            }
            if half_turn && grid.iter().any(|&b| b) {
                assert!(!syms.is_empty(), "{clues:?}");
            }
        }
        assert!(found > 100, "{found}");
    }
}
