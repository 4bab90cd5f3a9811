//! Specification mining for nonogram lines (paper §6.1): every valid line
//! state up to a length, one per mirror pair, its maximal transition by
//! the exact solver, and the productive ones split into one specification
//! per run of newly forced cells. Also splits any transition into such
//! one-run specifications ([`specs_of`]).

use super::spec::{deductions, transition};
use crate::domains::nonogram::formats::lines::Transition;
use crate::domains::nonogram::line::enumerate::{for_each_valid_solved, hint_sequences};
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::line::state::LineState;
use crate::synth::Spec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;

/// Longest line mining enumerates (the number of states grows about 4x per cell).
pub const MAX_MINE_LEN: usize = 12;

/// What a mining run found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MineReport {
    /// Valid line states of 1..=max_len cells.
    pub states: usize,
    /// Mirror pairs among them (a symmetric state is a pair by itself): the
    /// states kept, one per pair.
    pub mirror_pairs: usize,
    /// Kept states whose maximal transition forces some unknown cell.
    pub productive: usize,
    /// Productive states the specifications come from (all, or a sample).
    pub used: usize,
    /// Specifications written.
    pub specs: usize,
}

/// A seeded sample of productive states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// How many states.
    pub count: usize,
    /// The seed of the ChaCha8 generator.
    pub seed: u64,
}

/// The specifications of a transition: one per maximal run of adjacent
/// cells that are unknown in the line and have one and the same known value
/// in `state.target`, as the line with exactly that run filled in (runs in
/// cell order). `state.target` may be any cells of the line's length (the
/// maximal transition, or a partial one given by hand); cells it leaves
/// unknown, and cells known in the line, are in no run.
pub fn specs_of(state: &LineState) -> Vec<Transition> {
    let maximal = Transition { start: state.line.clone(), target: state.target.clone() };
    deductions(&maximal).into_iter().map(|deduction| transition(&Spec { state: state.clone(), deduction })).collect()
}

/// Whether `hints | cells` is the one kept of its mirror pair: (hints,
/// cells) is lexicographically at most (reversed hints, reversed cells),
/// with cells ordered unknown < true < false.
pub fn is_canonical(hints: &[u32], cells: &[Cell]) -> bool {
    hints.iter().cmp(hints.iter().rev()).then_with(|| cells.iter().cmp(cells.iter().rev())) != Ordering::Greater
}

/// The productive states among one per mirror pair of the valid line
/// states of 1..=max_len cells (by length, then hints, then the walk's cell
/// order), with the counts so far.
pub fn productive_states(max_len: usize) -> (MineReport, Vec<LineState>) {
    let mut report = MineReport { states: 0, mirror_pairs: 0, productive: 0, used: 0, specs: 0 };
    let mut productive = vec![];
    for len in 1..=max_len {
        for hints in hint_sequences(len) {
            for_each_valid_solved(&hints, len, |cells, target| {
                report.states += 1;
                if !is_canonical(&hints, cells) {
                    return;
                }
                report.mirror_pairs += 1;
                if cells.iter().zip(target).any(|(c, t)| !c.is_known() && t.is_known()) {
                    productive
                        .push(LineState { line: Line::new(hints.clone(), cells.to_vec()), target: target.to_vec() });
                }
            });
        }
    }
    report.productive = productive.len();
    (report, productive)
}

/// Mines the specifications of every productive state up to `max_len`
/// cells (one per mirror pair), or of a seeded sample of them (kept in
/// enumeration order; all of them if the sample is not smaller).
///
/// # Panics
/// If `max_len` exceeds [`MAX_MINE_LEN`].
pub fn mine(max_len: usize, sample: Option<Sample>) -> (MineReport, Vec<Transition>) {
    assert!(max_len <= MAX_MINE_LEN, "mining enumerates lines of at most {MAX_MINE_LEN} cells");
    let (mut report, mut states) = productive_states(max_len);
    if let Some(Sample { count, seed }) = sample {
        if count < states.len() {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut picked = rand::seq::index::sample(&mut rng, states.len(), count).into_vec();
            picked.sort_unstable();
            states = picked.into_iter().map(|i| states[i].clone()).collect();
        }
    }
    report.used = states.len();
    let specs: Vec<Transition> = states.iter().flat_map(specs_of).collect();
    report.specs = specs.len();
    (report, specs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::enumerate::valid_lines;
    use crate::domains::nonogram::line::solver::solve;
    use std::collections::HashSet;

    fn state(text: &str) -> LineState {
        LineState::new(text.parse().unwrap()).unwrap()
    }

    fn shown(specs: &[Transition]) -> Vec<String> {
        specs.iter().map(crate::domains::nonogram::formats::lines::format_transition).collect()
    }

    #[test]
    fn a_transition_splits_into_runs_of_one_value() {
        // maximal transition xx..##.x: runs xx, ## (one cell new), x
        assert_eq!(
            shown(&specs_of(&state("4 | ...#.#.."))),
            ["4 | ...#.#.. | xx.#.#..", "4 | ...#.#.. | ...###..", "4 | ...#.#.. | ...#.#.x"]
        );
        // adjacent runs of different values are separate specifications
        assert_eq!(shown(&specs_of(&state("3 | #...."))), ["3 | #.... | ###..", "3 | #.... | #..xx"]);
        // nothing forced, nothing to learn
        assert!(specs_of(&state("1 | ...")).is_empty());
        // a hand-given partial target
        let partial = LineState {
            line: "4 | ........".parse().unwrap(),
            target: "....#...".chars().map(|c| Cell::from_char(c).unwrap()).collect(),
        };
        assert_eq!(shown(&specs_of(&partial)), ["4 | ........ | ....#..."]);
    }

    #[test]
    fn counts_on_lines_of_one_and_two_cells() {
        // 1 cell: | . , | x , 1 | . , 1 | # — all symmetric; `| .` and `1 | .` force their cell
        let (r, specs) = mine(1, None);
        assert_eq!(r, MineReport { states: 4, mirror_pairs: 4, productive: 2, used: 2, specs: 2 });
        assert_eq!(shown(&specs), ["| . | x", "1 | . | #"]);
        // 2 cells: 15 more states in 10 more pairs; productive `| ..`, `| .x`,
        // `1 | .#`, `1 | .x`, `2 | ..`, `2 | .#`, one specification each
        let (r, specs) = mine(2, None);
        assert_eq!(r, MineReport { states: 19, mirror_pairs: 14, productive: 8, used: 8, specs: 8 });
        assert!(shown(&specs).contains(&"1 | .x | #x".to_string()));
        assert!(!shown(&specs).contains(&"1 | x. | x#".to_string()));
    }

    #[test]
    fn one_state_per_mirror_pair() {
        let all = valid_lines(6);
        let kept: HashSet<Line> =
            all.iter().filter(|s| is_canonical(&s.line.hints, &s.line.cells)).map(|s| s.line.clone()).collect();
        for s in &all {
            let m = s.line.mirror();
            assert!(kept.contains(&s.line) ^ kept.contains(&m) || (s.line == m && kept.contains(&m)), "{}", s.line);
        }
        let symmetric = all.iter().filter(|s| s.line.mirror() == s.line).count();
        let (r, _) = productive_states(6);
        assert_eq!((r.states, r.mirror_pairs), (all.len(), (all.len() + symmetric) / 2));
    }

    #[test]
    fn every_spec_adds_one_forced_run_of_one_value() {
        let (r, specs) = mine(6, None);
        assert_eq!(r.specs, specs.len());
        let mut per_state = std::collections::HashMap::<Line, usize>::new();
        for t in &specs {
            let forced = solve(&t.start).expect("valid start");
            let changed: Vec<usize> = (0..t.start.len()).filter(|&i| t.start.cells[i] != t.target[i]).collect();
            assert!(!changed.is_empty(), "{t:?}");
            assert_eq!(changed.last().unwrap() - changed[0] + 1, changed.len(), "one contiguous run: {t:?}");
            let value = t.target[changed[0]];
            for &i in &changed {
                assert_eq!(t.start.cells[i], Cell::Unknown);
                assert_eq!((t.target[i], forced[i]), (value, value), "forced and of one value: {t:?}");
            }
            // maximal: the run cannot be extended by a neighbouring new cell of the same value
            for i in [changed[0].checked_sub(1), Some(changed.last().unwrap() + 1)].into_iter().flatten() {
                assert!(i >= t.start.len() || t.start.cells[i].is_known() || forced[i] != value, "{t:?}");
            }
            *per_state.entry(t.start.clone()).or_default() += 1;
        }
        assert_eq!(per_state.len(), r.productive);
    }

    #[test]
    fn samples_are_seeded_subsets() {
        let (_, all) = mine(5, None);
        let sample = Some(Sample { count: 20, seed: 7 });
        let (r, a) = mine(5, sample);
        let (_, b) = mine(5, sample);
        assert_eq!(a, b);
        assert_eq!(r.used, 20);
        let starts: HashSet<&Line> = a.iter().map(|t| &t.start).collect();
        assert_eq!(starts.len(), 20);
        assert!(a.iter().all(|t| all.contains(t)));
        let (_, c) = mine(5, Some(Sample { count: 20, seed: 8 }));
        assert_ne!(a, c);
        // a sample no smaller than the set is the set
        assert_eq!(mine(5, Some(Sample { count: usize::MAX, seed: 1 })).1, all);
    }
}
