//! The exact nonogram line solver: validity and the maximal transition of a
//! line, plus the earliest/latest start of every hint over all solutions
//! and every place each hint's block can start.
//!
//! A dynamic program over (hints placed, cell position), forward and
//! backward, decides in O(N·k) which block placements occur in some solution
//! of the line; from those it reads off which cells can be true or false.
//! No solution is ever enumerated. [`LineSolver`] keeps reusable scratch
//! buffers for hot loops; the free functions use a thread-local one.
//!
//! This module knows lines only; boards, files and rules live elsewhere.

use std::cell::RefCell;

use super::model::{Cell, Line};

/// Where a hint can lie over all solutions of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HintRange {
    /// The smallest first cell of the hint's block in any solution.
    pub earliest_start: usize,
    /// The largest first cell of the hint's block in any solution.
    pub latest_start: usize,
}

/// Every `(hint, first cell)` of a hint's block in some solution.
pub type Starts = Vec<(usize, usize)>;

/// An exact line solver with reusable scratch buffers (allocation-free once
/// warmed up for a given line size).
#[derive(Debug, Default, Clone)]
pub struct LineSolver {
    /// Forward reachability: `fwd[j*(n+1)+p]` = cells `[0,p)` hold exactly
    /// hints `0..j`, and a block may start at `p`.
    fwd: Vec<bool>,
    /// Backward reachability: `bwd[j*(n+1)+p]` = cells `[p,n)` can hold
    /// exactly hints `j..k`, starting at `p`.
    bwd: Vec<bool>,
    /// `false_prefix[i]` = number of `False` cells in `[0,i)`.
    false_prefix: Vec<u32>,
    /// Difference array over cells: blocks of some solution covering a cell.
    true_diff: Vec<i32>,
    /// Cells that are false in some solution.
    can_false: Vec<bool>,
    /// Per hint: earliest and latest start over all solutions.
    ranges: Vec<HintRange>,
    /// Every `(hint, first cell)` of a block in some solution, by cell.
    starts: Starts,
}

impl LineSolver {
    /// A solver with empty scratch buffers.
    pub fn new() -> LineSolver {
        LineSolver::default()
    }

    fn prepare(&mut self, hints: &[u32], cells: &[Cell]) {
        let n = cells.len();
        let k = hints.len();
        let size = (k + 1) * (n + 1);
        self.fwd.clear();
        self.fwd.resize(size, false);
        self.false_prefix.clear();
        self.false_prefix.push(0);
        let mut count = 0;
        for &c in cells {
            if c == Cell::False {
                count += 1;
            }
            self.false_prefix.push(count);
        }
    }

    /// True if hint value `h` fits as a block at `s`: cells `[s, s+h)` exist
    /// and none is false.
    #[inline]
    fn fits(&self, n: usize, s: usize, h: usize) -> bool {
        s + h <= n && self.false_prefix[s + h] == self.false_prefix[s]
    }

    /// Forward pass; returns validity.
    fn forward(&mut self, hints: &[u32], cells: &[Cell]) -> bool {
        let n = cells.len();
        let k = hints.len();
        let w = n + 1;
        self.fwd[0] = true;
        for p in 0..=n {
            for j in 0..=k {
                if !self.fwd[j * w + p] {
                    continue;
                }
                if p < n && cells[p] != Cell::True {
                    self.fwd[j * w + p + 1] = true;
                }
                if let Some(&h) = hints.get(j) {
                    let h = h as usize;
                    if self.fits(n, p, h) {
                        let e = p + h;
                        if e == n {
                            self.fwd[(j + 1) * w + n] = true;
                        } else if cells[e] != Cell::True {
                            self.fwd[(j + 1) * w + e + 1] = true;
                        }
                    }
                }
            }
        }
        self.fwd[k * w + n]
    }

    /// Backward pass (after a successful forward pass).
    fn backward(&mut self, hints: &[u32], cells: &[Cell]) {
        let n = cells.len();
        let k = hints.len();
        let w = n + 1;
        self.bwd.clear();
        self.bwd.resize((k + 1) * w, false);
        self.bwd[k * w + n] = true;
        for p in (0..n).rev() {
            for j in 0..=k {
                let mut ok = cells[p] != Cell::True && self.bwd[j * w + p + 1];
                if let (false, Some(&h)) = (ok, hints.get(j)) {
                    ok = self.block_ok(cells, j, p, h as usize);
                }
                self.bwd[j * w + p] = ok;
            }
        }
    }

    /// True if hint `j` (value `h`) at `s` can be followed by the rest of the
    /// line (uses `bwd` for hints after `j`).
    #[inline]
    fn block_ok(&self, cells: &[Cell], j: usize, s: usize, h: usize) -> bool {
        let n = cells.len();
        let w = n + 1;
        if !self.fits(n, s, h) {
            return false;
        }
        let e = s + h;
        if e == n {
            self.bwd[(j + 1) * w + n]
        } else {
            cells[e] != Cell::True && self.bwd[(j + 1) * w + e + 1]
        }
    }

    /// Runs the full analysis: validity, cell possibilities and hint ranges.
    /// Returns false (and leaves results undefined) if the line is invalid.
    fn analyse(&mut self, hints: &[u32], cells: &[Cell]) -> bool {
        if hints.contains(&0) {
            return false;
        }
        if Line::min_len(hints) > cells.len() as u64 {
            return false;
        }
        self.prepare(hints, cells);
        if !self.forward(hints, cells) {
            return false;
        }
        self.backward(hints, cells);
        let n = cells.len();
        let k = hints.len();
        let w = n + 1;
        self.true_diff.clear();
        self.true_diff.resize(n + 1, 0);
        self.can_false.clear();
        self.can_false.resize(n, false);
        self.ranges.clear();
        self.ranges.resize(k, HintRange { earliest_start: usize::MAX, latest_start: 0 });
        self.starts.clear();
        for p in 0..n {
            for j in 0..=k {
                if !self.fwd[j * w + p] {
                    continue;
                }
                // A free false cell at p (between blocks j-1 and j).
                if cells[p] != Cell::True && self.bwd[j * w + p + 1] {
                    self.can_false[p] = true;
                }
                if let Some(&h) = hints.get(j) {
                    let h = h as usize;
                    if self.block_ok(cells, j, p, h) {
                        self.true_diff[p] += 1;
                        self.true_diff[p + h] -= 1;
                        if p + h < n {
                            self.can_false[p + h] = true; // separator
                        }
                        let r = &mut self.ranges[j];
                        r.earliest_start = r.earliest_start.min(p);
                        r.latest_start = r.latest_start.max(p);
                        self.starts.push((j, p));
                    }
                }
            }
        }
        true
    }

    /// Writes the maximal transition of the line into `out` (cleared first)
    /// and returns true, or returns false if no solution extends the line.
    pub fn solve_into(&mut self, hints: &[u32], cells: &[Cell], out: &mut Vec<Cell>) -> bool {
        out.clear();
        if !self.analyse(hints, cells) {
            return false;
        }
        let mut cover = 0i32;
        for p in 0..cells.len() {
            cover += self.true_diff[p];
            let t = cover > 0;
            let f = self.can_false[p];
            out.push(match (t, f) {
                (true, false) => Cell::True,
                (false, true) => Cell::False,
                _ => Cell::Unknown,
            });
        }
        true
    }

    /// The maximal transition of a line, or `None` if it is invalid.
    pub fn solve(&mut self, line: &Line) -> Option<Vec<Cell>> {
        let mut out = Vec::with_capacity(line.len());
        self.solve_into(&line.hints, &line.cells, &mut out).then_some(out)
    }

    /// True if some solution extends the line (forward pass only).
    pub fn is_valid(&mut self, hints: &[u32], cells: &[Cell]) -> bool {
        if hints.contains(&0) || Line::min_len(hints) > cells.len() as u64 {
            return false;
        }
        self.prepare(hints, cells);
        self.forward(hints, cells)
    }

    /// Earliest and latest start of every hint over all solutions, or `None`
    /// if the line is invalid.
    pub fn hint_ranges(&mut self, line: &Line) -> Option<Vec<HintRange>> {
        self.analyse(&line.hints, &line.cells).then(|| self.ranges.clone())
    }

    /// The ranges of [`hint_ranges`](Self::hint_ranges) and every place a
    /// hint's block starts in some solution (`(hint, first cell)`, by
    /// cell), or `None` if the line is invalid.
    pub fn placements(&mut self, line: &Line) -> Option<(Vec<HintRange>, Starts)> {
        self.analyse(&line.hints, &line.cells).then(|| (self.ranges.clone(), self.starts.clone()))
    }
}

thread_local! {
    static SOLVER: RefCell<LineSolver> = RefCell::new(LineSolver::new());
}

/// Runs `f` with this thread's shared solver.
fn with_solver<T>(f: impl FnOnce(&mut LineSolver) -> T) -> T {
    SOLVER.with(|s| f(&mut s.borrow_mut()))
}

/// The maximal transition of a line: `None` if no solution extends it (or a
/// hint is zero); otherwise the cells forced in all solutions are known and
/// the others unknown. The result agrees with every known cell of the line.
pub fn solve(line: &Line) -> Option<Vec<Cell>> {
    with_solver(|s| s.solve(line))
}

/// True if at least one solution extends the line.
pub fn is_valid(line: &Line) -> bool {
    with_solver(|s| s.is_valid(&line.hints, &line.cells))
}

/// Earliest and latest start of every hint over all solutions, or `None` if
/// the line is invalid.
pub fn hint_ranges(line: &Line) -> Option<Vec<HintRange>> {
    with_solver(|s| s.hint_ranges(line))
}

/// [`LineSolver::placements`] with this thread's shared solver.
pub fn placements(line: &Line) -> Option<(Vec<HintRange>, Starts)> {
    with_solver(|s| s.placements(line))
}

/// Brute-force enumeration of all solutions of a line (tests only; 2^N).
#[cfg(test)]
pub(crate) fn solutions_brute_force(line: &Line) -> Vec<Vec<bool>> {
    let n = line.len();
    assert!(n <= 24, "brute force is for small lines");
    let mut out = Vec::new();
    for bits in 0u32..(1u32 << n) {
        let values: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        let agrees = values.iter().zip(&line.cells).all(|(&v, &c)| c.agrees_with(Cell::from_bool(v)));
        if agrees && super::model::hints_of(&values) == line.hints {
            out.push(values);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::{format_cells, hints_of, solutions_by_hints};
    use proptest::prelude::*;

    /// The maximal transition computed from a list of solutions.
    fn transition_from(line: &Line, sols: &[Vec<bool>]) -> Option<Vec<Cell>> {
        if sols.is_empty() {
            return None;
        }
        Some(
            (0..line.len())
                .map(|i| {
                    let v = sols[0][i];
                    if sols.iter().all(|s| s[i] == v) {
                        Cell::from_bool(v)
                    } else {
                        Cell::Unknown
                    }
                })
                .collect(),
        )
    }

    /// Hint ranges computed from a list of solutions.
    fn ranges_from(line: &Line, sols: &[Vec<bool>]) -> Option<Vec<HintRange>> {
        if sols.is_empty() {
            return None;
        }
        let k = line.hints.len();
        let mut r = vec![HintRange { earliest_start: usize::MAX, latest_start: 0 }; k];
        for s in sols {
            let l = Line::new(line.hints.clone(), s.iter().map(|&b| Cell::from_bool(b)).collect());
            for (j, (start, _)) in l.blocks().into_iter().enumerate() {
                r[j].earliest_start = r[j].earliest_start.min(start);
                r[j].latest_start = r[j].latest_start.max(start);
            }
        }
        Some(r)
    }

    fn check(line: &Line) {
        let sols = solutions_brute_force(line);
        assert_eq!(solve(line), transition_from(line, &sols), "line {line}");
        assert_eq!(is_valid(line), !sols.is_empty(), "line {line}");
        assert_eq!(hint_ranges(line), ranges_from(line, &sols), "line {line}");
    }

    /// Every cell state of length n (3^n), calling `f` on each.
    fn for_all_cells(n: usize, mut f: impl FnMut(&[Cell])) {
        let mut cells = vec![Cell::Unknown; n];
        loop {
            f(&cells);
            let mut i = 0;
            loop {
                if i == n {
                    return;
                }
                cells[i] = match cells[i] {
                    Cell::Unknown => Cell::True,
                    Cell::True => Cell::False,
                    Cell::False => Cell::Unknown,
                };
                if cells[i] != Cell::Unknown {
                    break;
                }
                i += 1;
            }
        }
    }

    /// Exhaustive: every hint sequence that fits (plus some that do not) and
    /// every cell state, up to 8 cells. Solutions are computed once per hint
    /// sequence and filtered per state.
    #[test]
    fn exhaustive_against_brute_force() {
        let mut solver = LineSolver::new();
        let mut checked = 0usize;
        for n in 0..=8usize {
            let mut by_hints = solutions_by_hints(n);
            // Hint sequences that do not fit at all.
            by_hints.entry(vec![n as u32 + 1]).or_default();
            by_hints.entry(vec![1; n.div_ceil(2) + 1]).or_default();
            for (hints, all) in &by_hints {
                for_all_cells(n, |cells| {
                    let line = Line::new(hints.clone(), cells.to_vec());
                    let sols: Vec<Vec<bool>> = all
                        .iter()
                        .filter(|s| s.iter().zip(cells).all(|(&v, &c)| c.agrees_with(Cell::from_bool(v))))
                        .cloned()
                        .collect();
                    let expect = transition_from(&line, &sols);
                    assert_eq!(solver.solve(&line), expect, "line {line}");
                    assert_eq!(solver.is_valid(hints, cells), !sols.is_empty(), "line {line}");
                    assert_eq!(solver.hint_ranges(&line), ranges_from(&line, &sols), "line {line}");
                    checked += 1;
                });
            }
        }
        assert!(checked > 300_000, "checked {checked}");
    }

    #[test]
    fn paper_example() {
        let line: Line = "2 6 2 1 3 | ....................".parse().unwrap();
        assert_eq!(format_cells(&solve(&line).unwrap()), ".....####........#..");
        let line: Line = "3 | ..#..".parse().unwrap();
        assert_eq!(format_cells(&solve(&line).unwrap()), "..#..");
    }

    #[test]
    fn invalid_and_degenerate() {
        assert_eq!(solve(&Line::new(vec![0], vec![Cell::Unknown; 3])), None);
        assert_eq!(solve(&"4 | ...".parse().unwrap()), None);
        assert_eq!(solve(&"| .#.".parse().unwrap()), None);
        assert_eq!(format_cells(&solve(&"| ...".parse().unwrap()).unwrap()), "xxx");
        assert_eq!(solve(&"| ".parse().unwrap()), Some(vec![]));
        assert_eq!(solve(&"1 | ".parse().unwrap()), None);
        assert!(!is_valid(&"1 1 | ##.".parse().unwrap()));
    }

    /// A random line: a random solution of length 1..=16 with some cells
    /// revealed, and sometimes a few cells flipped (often making it invalid).
    fn arb_line() -> impl Strategy<Value = Line> {
        (1usize..=16)
            .prop_flat_map(|n| {
                (
                    proptest::collection::vec(any::<bool>(), n),
                    proptest::collection::vec(0u8..4, n),
                    proptest::collection::vec(0u8..12, n),
                )
            })
            .prop_map(|(sol, reveal, flip)| {
                let hints = hints_of(&sol);
                let cells = sol
                    .iter()
                    .zip(reveal.iter().zip(&flip))
                    .map(|(&v, (&r, &f))| {
                        let v = if f == 0 { !v } else { v };
                        if r == 0 {
                            Cell::from_bool(v)
                        } else {
                            Cell::Unknown
                        }
                    })
                    .collect();
                Line::new(hints, cells)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn random_lines_match_brute_force(line in arb_line()) {
            check(&line);
        }

        #[test]
        fn mirror_commutes_with_solve(line in arb_line()) {
            let a = solve(&line.mirror());
            let b = solve(&line).map(|mut c| { c.reverse(); c });
            prop_assert_eq!(a, b);
        }
    }
}
