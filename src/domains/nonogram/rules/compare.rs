//! Comparison of a learned rule set with control rules (paper §7.1): for
//! each control rule, whether the learned set contains it exactly, a more
//! general rule, only rules covering part of what it covers, or nothing.
//!
//! - **Exact**: a learned rule with the same syntax tree up to names,
//!   descriptions, variable names, the order of the pattern declarations
//!   and the order of conjuncts.
//! - **Same cells** / **more general**: a learned rule that, applied alone,
//!   covers every (test transition, cell) the control rule covers alone on
//!   the test lines — exactly those, or more. "Applied alone" is
//!   `apply.rs`: rounds to a fixpoint, the decomposition oracle, both
//!   orientations unless one-sided.
//! - **Partial**: otherwise, the learned rule that covers the largest share
//!   of the control rule's (transition, cell) pairs.
//! - **None**: no learned rule covers any of them.
//!
//! A control rule that covers nothing on the test lines can only match
//! exactly; otherwise it is reported as uncovered.

use super::apply::{saturate, ApplyOptions, UnsoundFill};
use crate::domains::nonogram::formats::lines::Transition;
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::dsl::ast::Rule;
use crate::dsl::normal::same_rule;
use rayon::prelude::*;

/// The cells a rule covers alone: a bit per cell of every test transition
/// (transitions one after another), set when the cell is unknown in
/// START and known at the rule's fixpoint.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Covered(Vec<u64>);

impl Covered {
    /// Number of (transition, cell) pairs.
    pub fn count(&self) -> usize {
        self.0.iter().map(|m| m.count_ones() as usize).sum()
    }

    /// Number of pairs in both sets.
    pub fn common(&self, other: &Covered) -> usize {
        self.0.iter().zip(&other.0).map(|(a, b)| (a & b).count_ones() as usize).sum()
    }

    /// Whether every pair of `self` is in `other`.
    pub fn within(&self, other: &Covered) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }

    /// The pairs in either set.
    fn union(&self, other: &Covered) -> Covered {
        Covered(self.0.iter().zip(&other.0).map(|(a, b)| a | b).collect())
    }
}

/// What [`Covered`] `rule` covers alone on `tests`; an unsound fill is an error.
pub fn covered_alone(
    domain: &Nonogram,
    rule: &Rule,
    tests: &[Transition],
    options: ApplyOptions,
) -> Result<Covered, UnsoundFill> {
    let ends = tests
        .par_iter()
        .map(|t| saturate(domain, &[rule], &t.start, &t.target, options))
        .collect::<Result<Vec<_>, UnsoundFill>>()?;
    let cells: usize = tests.iter().map(|t| t.start.len()).sum();
    let mut bits = vec![0u64; cells.div_ceil(64)];
    let mut at = 0;
    for (t, end) in tests.iter().zip(&ends) {
        for (s, e) in t.start.cells.iter().zip(end) {
            if !s.is_known() && e.is_known() {
                bits[at / 64] |= 1 << (at % 64);
            }
            at += 1;
        }
    }
    Ok(Covered(bits))
}

/// How the learned set relates to one control rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Match {
    /// Learned rule `learned` is the same rule.
    Exact {
        /// Index in the learned set.
        learned: usize,
    },
    /// Learned rule `learned` covers exactly the control rule's cells (the
    /// earliest such rule).
    SameCells {
        /// Index in the learned set.
        learned: usize,
    },
    /// Learned rule `learned` covers a strict superset of the control
    /// rule's cells, and no learned rule covers exactly them (the one
    /// covering fewest cells, then the earliest).
    MoreGeneral {
        /// Index in the learned set.
        learned: usize,
    },
    /// No learned rule covers all of the control rule's cells; `learned`
    /// covers most of them (`common` pairs; the earliest on a tie).
    Partial {
        /// Index in the learned set.
        learned: usize,
        /// Pairs of the control rule's it covers.
        common: usize,
    },
    /// No learned rule covers any of the control rule's cells.
    None,
    /// The control rule covers nothing on the test lines (and has no exact match).
    Uncovered,
}

/// One control rule's comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The control rule's index.
    pub control: usize,
    /// The (transition, cell) pairs it covers alone.
    pub cells: usize,
    /// Pairs covered by some learned rule alone (the union over the set).
    pub by_set: usize,
    /// The pairs the learned rule of the verdict covers alone (0 if none).
    pub learned_cells: usize,
    /// The verdict.
    pub verdict: Match,
}

/// Compares every control rule with the learned set on `tests`.
pub fn compare(
    domain: &Nonogram,
    learned: &[Rule],
    control: &[Rule],
    tests: &[Transition],
    options: ApplyOptions,
) -> Result<Vec<Comparison>, UnsoundFill> {
    let cover = |rules: &[Rule]| -> Result<Vec<Covered>, UnsoundFill> {
        rules.iter().map(|r| covered_alone(domain, r, tests, options)).collect()
    };
    Ok(verdicts(learned, &cover(learned)?, control, &cover(control)?))
}

/// Compares every control rule with the learned set, given what each rule
/// covers alone (`learned_cover`, `control_cover`: one per rule, all on
/// the same test transitions).
pub fn verdicts(
    learned: &[Rule],
    learned_cover: &[Covered],
    control: &[Rule],
    control_cover: &[Covered],
) -> Vec<Comparison> {
    let words = control_cover.first().map_or(0, |c| c.0.len());
    let union = learned_cover.iter().fold(Covered(vec![0; words]), |u, c| u.union(c));
    control
        .iter()
        .zip(control_cover)
        .enumerate()
        .map(|(i, (rule, mine))| {
            let cells = mine.count();
            let verdict = if let Some(l) = learned.iter().position(|l| same_rule(rule, l)) {
                Match::Exact { learned: l }
            } else if cells == 0 {
                Match::Uncovered
            } else if let Some(l) = (0..learned.len())
                .filter(|&l| mine.within(&learned_cover[l]))
                .min_by_key(|&l| (learned_cover[l].count(), l))
            {
                if learned_cover[l].count() == cells {
                    Match::SameCells { learned: l }
                } else {
                    Match::MoreGeneral { learned: l }
                }
            } else {
                match (0..learned.len())
                    .map(|l| (mine.common(&learned_cover[l]), l))
                    .max_by_key(|&(c, l)| (c, std::cmp::Reverse(l)))
                {
                    Some((common, learned)) if common > 0 => Match::Partial { learned, common },
                    _ => Match::None,
                }
            };
            let learned_cells = match verdict {
                Match::Exact { learned }
                | Match::SameCells { learned }
                | Match::MoreGeneral { learned }
                | Match::Partial { learned, .. } => learned_cover[learned].count(),
                Match::None | Match::Uncovered => 0,
            };
            Comparison { control: i, cells, by_set: mine.common(&union), learned_cells, verdict }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::Domain;
    use crate::dsl::parse::parse_rules;

    fn rules(text: &str) -> Vec<Rule> {
        parse_rules(text, "t", Nonogram::new().schema()).unwrap()
    }

    #[test]
    fn verdicts_exact_more_general_partial_none() {
        let d = Nonogram::new();
        let starts = [
            "3 | ....#",
            "1 | .#...",
            "2 2 | .#.....",
            "1 2 | ...x....",
            "4 | ......",
            "3 1 | ......",
            "2 3 | ##.......",
        ];
        let tests: Vec<Transition> = starts.iter().map(|s| Transition::maximal(s.parse().unwrap()).unwrap()).collect();
        let control = rules(
            "
def single_hint_done:
    with h = singleton(hint) and b = arbitrary(block):
    if size(b) = size(h):
    then fill(false, 0, start(b))
def simple_boxes:
    with h = arbitrary(hint):
    if lowest_end_cell(h) > highest_start_cell(h):
    then fill(true, highest_start_cell(h), lowest_end_cell(h))
def edge_cap:
    with h = constant(hint, 0) and b = arbitrary(block):
    if start(b) = 0 and size(b) = size(h) and size(h) < line_size:
    then fill(false, size(h), size(h) + 1)",
        );
        let learned = rules(
            "
def done_general:
    with h = arbitrary(hint) and b = arbitrary(block):
    if maximal(h) and size(b) = size(h) and start(b) > 0:
    then fill(false, start(b) - 1, start(b))
def overlap_one_hint:
    with h = singleton(hint):
    if lowest_end_cell(h) > highest_start_cell(h):
    then fill(true, highest_start_cell(h), lowest_end_cell(h))
def mercury:
    with h = singleton(hint) and b = arbitrary(block):
    if start(b) + size(b) > size(h):
    then fill(false, 0, start(b) + size(b) - size(h))",
        );
        let options = ApplyOptions::default();
        let got = compare(&d, &learned, &control, &tests, options).unwrap();
        // control against itself: all exact
        let own = compare(&d, &control, &control, &tests, options).unwrap();
        assert!(own.iter().all(|c| c.verdict == Match::Exact { learned: c.control }), "{own:?}");
        // mercury fills everything single_hint_done fills on these lines
        let done = covered_alone(&d, &control[0], &tests, options).unwrap();
        assert!(done.within(&covered_alone(&d, &learned[2], &tests, options).unwrap()));
        assert_eq!(got[0].verdict, Match::MoreGeneral { learned: 2 });
        assert!(got[0].learned_cells > got[0].cells);
        // a renamed copy of simple boxes with operands swapped covers the same cells
        let same = rules(
            "def boxes_swapped:\n with x = arbitrary(hint):\n if highest_start_cell(x) < lowest_end_cell(x):\n then fill(true, highest_start_cell(x), lowest_end_cell(x))",
        );
        let with_same = [learned.clone(), same].concat();
        assert_eq!(
            compare(&d, &with_same, &control, &tests, options).unwrap()[1].verdict,
            Match::SameCells { learned: 3 }
        );
        // the overlap of one hint covers only the single-hint lines of simple boxes
        let boxes = covered_alone(&d, &control[1], &tests, options).unwrap();
        let one = covered_alone(&d, &learned[1], &tests, options).unwrap();
        assert!(one.count() > 0 && one.count() < boxes.count());
        assert_eq!(got[1].verdict, Match::Partial { learned: 1, common: one.count() });
        assert_eq!(got[1].by_set, boxes.common(&one));
        // nothing here covers edge_cap's cell
        assert_eq!(got[2].cells, 1);
        assert_eq!(got[2].verdict, Match::None);
        // a control rule covering nothing on the lines
        let nothing = rules("def never:\n with h = constant(hint, 3):\n if true:\n then fill(true, 0, 0)");
        assert_eq!(compare(&d, &learned, &nothing, &tests, options).unwrap()[0].verdict, Match::Uncovered);
    }
}
