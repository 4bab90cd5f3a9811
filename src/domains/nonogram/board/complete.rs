//! The complete board solver: line propagation with the exact line solver,
//! probing, and backtracking search that counts solutions up to a limit.
//!
//! Probing is the implication deduction of the propnet paper (papers/): set
//! an unknown cell both ways and propagate each; a contradiction fixes the
//! cell to the other value, and a cell both branches fix to the same value is
//! fixed. When probing changes nothing, the search branches on the cell whose
//! two probes fixed the most cells (the smaller of the two counts, then the
//! sum; ties to the lowest index), true first, each branch probed again. It
//! stops at `limit` solutions, so the count it reports is exact below the
//! limit: 0, 1, ..., or "at least `limit`".
//!
//! This module knows boards as clues and cells; it knows nothing about rules.

use crate::domains::nonogram::line::model::Cell;
use super::propagate::{Clues, Conflict, Propagator};

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The solutions found (row by row, `true` = filled), at most the limit,
    /// all distinct, in the order found.
    pub solutions: Vec<Vec<bool>>,
    /// Search nodes visited (1 if probing alone settled the board).
    pub nodes: u64,
    /// Probes made (each cell set one way and propagated).
    pub probes: u64,
}

impl Outcome {
    /// True if exactly one solution was found (with a limit above 1: the
    /// board has exactly one solution).
    pub fn unique(&self) -> bool {
        self.solutions.len() == 1
    }
}

/// Probing and search on one board.
pub struct Search<'a> {
    clues: &'a Clues,
    prop: Propagator,
    limit: usize,
    out: Outcome,
    changed: Vec<usize>,
}

/// The result of probing one unknown cell both ways.
enum Probe {
    /// Both values contradict: the node has no solution.
    Dead,
    /// One value contradicts; the grid after fixing the other.
    Forced(Vec<Cell>),
    /// Both values propagate; how many cells each fixed, and the grids.
    Open { fixed: (usize, usize), grids: (Vec<Cell>, Vec<Cell>) },
}

impl<'a> Search<'a> {
    /// A search of `clues` stopping at `limit` solutions (at least 1).
    pub fn new(clues: &'a Clues, limit: usize) -> Search<'a> {
        Search {
            clues,
            prop: Propagator::new(),
            limit: limit.max(1),
            out: Outcome { solutions: vec![], nodes: 0, probes: 0 },
            changed: vec![],
        }
    }

    /// Searches from the empty board.
    pub fn run(mut self) -> Outcome {
        let mut grid = vec![Cell::Unknown; self.clues.cells()];
        if self.prop.all(self.clues, &mut grid).is_ok() {
            self.node(grid);
        }
        self.out
    }

    /// Sets grid index `p` to `value` in a copy of `grid` and propagates.
    fn assume(&mut self, grid: &[Cell], p: usize, value: Cell) -> Result<(Vec<Cell>, usize), Conflict> {
        self.out.probes += 1;
        let mut g = grid.to_vec();
        g[p] = value;
        let fixed = self.prop.from_cells(self.clues, &mut g, &[p])?;
        Ok((g, fixed))
    }

    fn probe(&mut self, grid: &[Cell], p: usize) -> Probe {
        match (self.assume(grid, p, Cell::True), self.assume(grid, p, Cell::False)) {
            (Err(_), Err(_)) => Probe::Dead,
            (Ok((g, _)), Err(_)) | (Err(_), Ok((g, _))) => Probe::Forced(g),
            (Ok((t, a)), Ok((f, b))) => Probe::Open { fixed: (a, b), grids: (t, f) },
        }
    }

    /// Probes every unknown cell until a whole pass changes nothing.
    /// Returns the best branching cell (and its two probe grids), or `None`
    /// if the grid is solved; `Err` if the node has no solution.
    #[allow(clippy::type_complexity)]
    fn probe_all(&mut self, grid: &mut Vec<Cell>) -> Result<Option<(usize, Vec<Cell>, Vec<Cell>)>, Conflict> {
        loop {
            let mut progress = false;
            let mut best: Option<((usize, usize), usize, Vec<Cell>, Vec<Cell>)> = None;
            for p in 0..grid.len() {
                if grid[p].is_known() {
                    continue;
                }
                match self.probe(grid, p) {
                    Probe::Dead => return Err(Conflict { line: self.clues.lines_through(p)[0] }),
                    Probe::Forced(g) => {
                        *grid = g;
                        progress = true;
                    }
                    Probe::Open { fixed: (a, b), grids: (t, f) } => {
                        self.changed.clear();
                        for q in 0..grid.len() {
                            if !grid[q].is_known() && t[q].is_known() && t[q] == f[q] {
                                grid[q] = t[q];
                                self.changed.push(q);
                            }
                        }
                        if !self.changed.is_empty() {
                            let changed = std::mem::take(&mut self.changed);
                            let r = self.prop.from_cells(self.clues, grid, &changed);
                            self.changed = changed;
                            r?;
                            progress = true;
                        } else if !progress {
                            let score = (a.min(b), a + b);
                            if best.as_ref().is_none_or(|(s, ..)| score > *s) {
                                best = Some((score, p, t, f));
                            }
                        }
                    }
                }
            }
            if !progress {
                return Ok(best.map(|(_, p, t, f)| (p, t, f)));
            }
        }
    }

    /// Visits a propagated node; false once the limit is reached.
    fn node(&mut self, mut grid: Vec<Cell>) -> bool {
        self.out.nodes += 1;
        match self.probe_all(&mut grid) {
            Err(_) => true,
            Ok(None) => {
                self.out.solutions.push(grid.iter().map(|&c| c == Cell::True).collect());
                self.out.solutions.len() < self.limit
            }
            Ok(Some((_, t, f))) => self.node(t) && self.node(f),
        }
    }
}

/// Counts the solutions of a board up to `limit` (see [`Search`]).
pub fn count_solutions(clues: &Clues, limit: usize) -> Outcome {
    Search::new(clues, limit).run()
}

/// Every solution of a small board by brute force over all fillings of its
/// rows (each row one of the fillings its hints allow). Tests only.
#[cfg(test)]
pub(crate) fn brute_force(clues: &Clues) -> Vec<Vec<bool>> {
    use crate::domains::nonogram::line::model::hints_of;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::hints_of;
    use rand::{Rng, SeedableRng};

    /// The clues of a filling (row by row).
    fn clues_of(w: usize, h: usize, grid: &[bool]) -> Clues {
        let rows = (0..h).map(|r| hints_of(&grid[r * w..(r + 1) * w])).collect();
        let cols = (0..w).map(|c| hints_of(&(0..h).map(|r| grid[r * w + c]).collect::<Vec<_>>())).collect();
        Clues::new(rows, cols)
    }

    /// Random boards up to 5x5 from random fillings (so at least one
    /// solution, often several), and the same boards with one row's clue
    /// changed (often none): the search's count and solutions must match
    /// brute force exactly, with the limit above every count.
    #[test]
    fn matches_brute_force_on_small_random_boards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut zero, mut one, mut many) = (0, 0, 0);
        for _ in 0..600 {
            let (w, h) = (rng.gen_range(1..=5), rng.gen_range(1..=5));
            let density = rng.gen_range(0.3..0.7);
            let grid: Vec<bool> = (0..w * h).map(|_| rng.gen_bool(density)).collect();
            let mut clues = clues_of(w, h, &grid);
            if rng.gen_bool(0.3) {
                let other: Vec<bool> = (0..w).map(|_| rng.gen_bool(0.5)).collect();
                let mut rows = clues.rows().to_vec();
                rows[rng.gen_range(0..h)] = hints_of(&other);
                clues = Clues::new(rows, clues.columns().to_vec());
            }
            let mut expect = brute_force(&clues);
            let mut got = count_solutions(&clues, 1000).solutions;
            expect.sort();
            got.sort();
            assert_eq!(got, expect, "{clues:?}");
            match expect.len() {
                0 => zero += 1,
                1 => one += 1,
                _ => many += 1,
            }
            // with limit 2: the first two found, distinct and real
            let two = count_solutions(&clues, 2).solutions;
            assert_eq!(two.len(), expect.len().min(2));
            assert!(two.iter().all(|s| expect.contains(s)));
            assert!(two.len() < 2 || two[0] != two[1]);
        }
        assert!(zero > 20 && one > 100 && many > 50, "{zero} {one} {many}");
    }
}
