//! Memoised rule application on one test transition, for coverage at
//! scale: every frame (a sub-line in one orientation) seen in any round,
//! under any subset of a large rule set, is evaluated once for all rules,
//! and a round under a subset only filters what was recorded. What a rule
//! does on a frame depends on the frame alone, and whether a fill agrees
//! with the target on the transition alone, so the memo is exact: rounds,
//! fills and errors are those of [`super::apply`], in the same order.

use super::apply::{frames, ApplyOptions, Frame, UnsoundFill};
use super::domain::Nonogram;
use super::line::Cell;
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::eval::Interpreter;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// One unknown cell of the whole line a rule fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Fill {
    pub rule: u32,
    pub at: u32,
    pub value: bool,
}

/// What every rule does on one frame, or on one state (all its frames):
/// the unknown cells each fills (sorted, without repeats, for states), and
/// per rule its first wrong fill (in frame order).
#[derive(Default)]
struct Fills {
    fills: Vec<Fill>,
    errors: Vec<(u32, UnsoundFill)>,
}

impl Fills {
    /// The fills of the rules of `set`, or the first error of one of them.
    fn of(&self, set: &Set) -> Result<Vec<Fill>, UnsoundFill> {
        if let Some((_, e)) = self.errors.iter().find(|(i, _)| set.has(*i)) {
            return Err(e.clone());
        }
        Ok(match set {
            Set::All => self.fills.clone(),
            Set::AllBut(j) => self.fills.iter().filter(|f| f.rule != *j).copied().collect(),
            Set::Few(list) => list
                .iter()
                .flat_map(|&i| {
                    let from = self.fills.partition_point(|f| f.rule < i);
                    let to = self.fills.partition_point(|f| f.rule <= i);
                    self.fills[from..to].iter().copied()
                })
                .collect(),
        })
    }
}

/// A subset of the rule set.
pub(crate) enum Set {
    /// Every rule.
    All,
    /// Every rule but one.
    AllBut(u32),
    /// A few rules (sorted): frames not yet memoised are evaluated for
    /// these alone, and not memoised.
    Few(Vec<u32>),
}

impl Set {
    /// Whether rule `i` is in the subset.
    fn has(&self, i: u32) -> bool {
        match self {
            Set::All => true,
            Set::AllBut(j) => i != *j,
            Set::Few(list) => list.binary_search(&i).is_ok(),
        }
    }
}

/// The states at the start of each round of a run, and the fills each
/// round made (with the rule making them).
pub(crate) struct Run {
    pub states: Vec<Vec<Cell>>,
    pub rounds: Vec<Vec<Fill>>,
}

impl Run {
    /// The final state.
    pub fn end(&self) -> &[Cell] {
        self.states.last().expect("a run has its start")
    }
}

/// One transition's memo.
pub(crate) struct Memo<'a> {
    domain: &'a Nonogram,
    rules: &'a [Rule],
    hints: &'a [u32],
    target: &'a [Cell],
    options: ApplyOptions,
    /// Every rule on each frame seen.
    frames: FxHashMap<Frame, Arc<Fills>>,
    /// Every rule on each state seen.
    states: FxHashMap<Vec<Cell>, Arc<Fills>>,
}

impl<'a> Memo<'a> {
    /// An empty memo for the transition with `hints` and `target`.
    pub fn new(domain: &'a Nonogram, rules: &'a [Rule], hints: &'a [u32], target: &'a [Cell], options: ApplyOptions) -> Memo<'a> {
        Memo { domain, rules, hints, target, options, frames: FxHashMap::default(), states: FxHashMap::default() }
    }

    /// Evaluates `rules` (indices) on `frame`.
    fn evaluate(&self, frame: &Frame, rules: impl Iterator<Item = u32>) -> Fills {
        let view = self.domain.line_view(&frame.line);
        let size = self.domain.schema().size_feature;
        let mut out = Fills::default();
        for i in rules {
            let rule = &self.rules[i as usize];
            let mut error = None;
            Interpreter::new(rule, &view, size).each_action(|args| {
                let [v, a, b] = *args else { return };
                if error.is_some() {
                    return;
                }
                match frame.checked_cells(&rule.name, v != 0, a, b, self.target) {
                    Ok(cells) => out.fills.extend(
                        (a as usize..b as usize)
                            .zip(cells)
                            .filter(|&(c, _)| frame.line.cells[c] == Cell::Unknown)
                            .map(|(_, at)| Fill { rule: i, at: at as u32, value: v != 0 }),
                    ),
                    Err(e) => error = Some(e),
                }
            });
            if let Some(e) = error {
                out.errors.push((i, e));
            }
        }
        out
    }

    /// Every rule on `frame`, memoised.
    fn all_rules(&mut self, frame: Frame) -> Arc<Fills> {
        if let Some(f) = self.frames.get(&frame) {
            return f.clone();
        }
        let fills = Arc::new(self.evaluate(&frame, 0..self.rules.len() as u32));
        self.frames.insert(frame, fills.clone());
        fills
    }

    /// The fills of one round on `cells` by the rules of `set`, or the
    /// first wrong fill of one of them. A state not yet memoised is
    /// evaluated for a few rules alone (not memoised), or for all rules.
    pub fn round(&mut self, cells: &[Cell], set: &Set) -> Result<Vec<Fill>, UnsoundFill> {
        if let Some(state) = self.states.get(cells) {
            return state.of(set);
        }
        if let Set::Few(list) = set {
            let mut out = Fills::default();
            for frame in frames(self.hints, cells, self.options) {
                let Fills { fills, errors } = self.evaluate(&frame, list.iter().copied());
                out.fills.extend(fills);
                out.errors.extend(errors);
            }
            out.fills.sort_unstable();
            out.fills.dedup();
            return out.of(set);
        }
        let mut state = Fills::default();
        for frame in frames(self.hints, cells, self.options) {
            let fills = self.all_rules(frame);
            state.fills.extend_from_slice(&fills.fills);
            state.errors.extend(fills.errors.iter().cloned());
        }
        state.fills.sort_unstable();
        state.fills.dedup();
        let out = state.of(set);
        self.states.insert(cells.to_vec(), Arc::new(state));
        out
    }

    /// Rounds from `cells` under the rules of `set` until one fills nothing.
    pub fn run(&mut self, cells: &[Cell], set: &Set) -> Result<Run, UnsoundFill> {
        let mut run = Run { states: vec![cells.to_vec()], rounds: vec![] };
        loop {
            let fills = self.round(run.end(), set)?;
            if fills.is_empty() {
                return Ok(run);
            }
            let mut next = run.end().to_vec();
            for f in &fills {
                next[f.at as usize] = Cell::from_bool(f.value);
            }
            run.states.push(next);
            run.rounds.push(fills);
        }
    }
}
