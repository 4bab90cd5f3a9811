//! The decomposition oracle of docs/language.md: cut cells that separate consecutive
//! hints in every solution, and the independent sub-lines between them.
//!
//! For consecutive hints i-1 and i of a valid line, let c be one past the
//! furthest cell hint i-1 occupies in any solution (its latest start plus its
//! value). If every solution starts hint i after c (its earliest start is
//! greater than c), cell c is a *cut*: it is false in every solution. The cuts
//! split the line into sub-lines `[0, c_1)`, `(c_1, c_2)`, ..., `(c_last, N)`,
//! each with the hints between its neighbouring cuts; cut cells belong to no
//! sub-line. Positions come from the exact solver's hint ranges (a dynamic
//! program), never from enumerating solutions.
//!
//! This module knows lines and the solver only; applying rules to sub-lines
//! is the coverage engine's business.

use super::model::Line;
use super::solver::{hint_ranges, HintRange};

/// A sub-line of a decomposed line: its own hints and cells, and where its
/// first cell lies in the parent line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SubLine {
    /// Index in the parent line of the sub-line's first cell.
    pub offset: usize,
    /// The sub-line: the parent's hints and cells in its range.
    pub line: Line,
}

/// The cut cells of a line, in increasing order, computed from its hint
/// ranges; also returns, for each cut, the index of the first hint after it.
fn cuts_with_hints(line: &Line, ranges: &[HintRange]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for i in 1..ranges.len() {
        let c = ranges[i - 1].latest_start + line.hints[i - 1] as usize;
        if ranges[i].earliest_start > c {
            out.push((c, i));
        }
    }
    out
}

/// The cut cells of a line in increasing order (each is false in every
/// solution), or `None` if the line is invalid.
pub fn cuts(line: &Line) -> Option<Vec<usize>> {
    let ranges = hint_ranges(line)?;
    Some(cuts_with_hints(line, &ranges).into_iter().map(|(c, _)| c).collect())
}

/// Splits a valid line at its cuts into sub-lines, in order; a line without
/// cuts gives one sub-line equal to itself (offset 0). `None` if the line is
/// invalid.
pub fn decompose(line: &Line) -> Option<Vec<SubLine>> {
    let ranges = hint_ranges(line)?;
    let cuts = cuts_with_hints(line, &ranges);
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let (mut cell_from, mut hint_from) = (0usize, 0usize);
    for &(c, h) in cuts.iter().chain(std::iter::once(&(line.len(), line.hints.len()))) {
        out.push(SubLine {
            offset: cell_from,
            line: Line::new(line.hints[hint_from..h].to_vec(), line.cells[cell_from..c].to_vec()),
        });
        cell_from = c + 1;
        hint_from = h;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::{hints_of, solutions_by_hints, Cell};
    use crate::domains::nonogram::line::solver::{solutions_brute_force, solve};
    use proptest::prelude::*;

    /// Cuts computed by enumerating solutions.
    fn cuts_brute_force(line: &Line, sols: &[Vec<bool>]) -> Option<Vec<usize>> {
        if sols.is_empty() {
            return None;
        }
        let starts: Vec<Vec<usize>> = sols
            .iter()
            .map(|s| {
                let l = Line::new(vec![], s.iter().map(|&b| Cell::from_bool(b)).collect());
                l.blocks().into_iter().map(|(st, _)| st).collect()
            })
            .collect();
        let mut out = Vec::new();
        for i in 1..line.hints.len() {
            let c = starts.iter().map(|st| st[i - 1] + line.hints[i - 1] as usize).max().unwrap();
            if starts.iter().all(|st| st[i] > c) {
                out.push(c);
            }
        }
        Some(out)
    }

    /// Checks cuts against brute force and that the sub-lines solve
    /// independently to the parent's maximal transition.
    fn check(line: &Line, sols: &[Vec<bool>]) {
        let got = cuts(line);
        assert_eq!(got, cuts_brute_force(line, sols), "line {line}");
        let Some(cuts) = got else {
            assert_eq!(decompose(line), None);
            return;
        };
        let subs = decompose(line).unwrap();
        assert_eq!(subs.len(), cuts.len() + 1);
        let target = solve(line).unwrap();
        let mut composed = vec![Cell::False; line.len()];
        let mut hints = Vec::new();
        for s in &subs {
            let t = solve(&s.line).expect("sub-lines of a valid line are valid");
            composed[s.offset..s.offset + s.line.len()].copy_from_slice(&t);
            hints.extend_from_slice(&s.line.hints);
        }
        assert_eq!(hints, line.hints);
        assert_eq!(composed, target, "line {line}");
        for &c in &cuts {
            assert_eq!(target[c], Cell::False);
        }
    }

    #[test]
    fn exhaustive_small_lines() {
        for n in 0..=8usize {
            let by_hints = solutions_by_hints(n);
            let states = 3usize.pow(n as u32);
            for (hints, all) in &by_hints {
                // Only multi-hint lines can have cuts; sample the rest lightly.
                let step = if hints.len() >= 2 { 1 } else { 7 };
                for idx in (0..states).step_by(step) {
                    let mut x = idx;
                    let cells: Vec<Cell> = (0..n)
                        .map(|_| {
                            let c = [Cell::Unknown, Cell::True, Cell::False][x % 3];
                            x /= 3;
                            c
                        })
                        .collect();
                    let sols: Vec<Vec<bool>> = all
                        .iter()
                        .filter(|s| s.iter().zip(&cells).all(|(&v, &c)| c.agrees_with(Cell::from_bool(v))))
                        .cloned()
                        .collect();
                    check(&Line::new(hints.clone(), cells), &sols);
                }
            }
        }
    }

    #[test]
    fn figure_example() {
        // Hint 3 is fixed: everything on either side is independent.
        let line: Line = "1 3 2 | ....x###x.....".parse().unwrap();
        let subs = decompose(&line).unwrap();
        let texts: Vec<(usize, String)> = subs.iter().map(|s| (s.offset, s.line.to_string())).collect();
        assert_eq!(texts, vec![(0, "1 | ....".to_string()), (5, "3 | ###".to_string()), (9, "2 | .....".to_string())]);
        assert_eq!(cuts(&line), Some(vec![4, 8]));
        let whole: Line = "2 | .....".parse().unwrap();
        assert_eq!(decompose(&whole).unwrap(), vec![SubLine { offset: 0, line: whole.clone() }]);
        assert_eq!(decompose(&"3 | .x.".parse().unwrap()), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn random_lines(sol in proptest::collection::vec(any::<bool>(), 1..=16),
                        reveal in proptest::collection::vec(0u8..3, 16)) {
            let cells = sol.iter().zip(&reveal)
                .map(|(&v, &r)| if r == 0 { Cell::from_bool(v) } else { Cell::Unknown })
                .collect();
            let line = Line::new(hints_of(&sol), cells);
            check(&line, &solutions_brute_force(&line));
        }
    }
}
