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
use std::collections::HashMap;
use std::sync::Arc;

/// One unknown cell of the whole line a rule fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Fill {
    pub rule: u32,
    pub at: u32,
    pub value: bool,
}

/// What every rule does on one frame: the unknown cells it fills (rule
/// order), and per rule its first wrong fill.
#[derive(Default)]
struct FrameFills {
    fills: Vec<Fill>,
    errors: Vec<(u32, UnsoundFill)>,
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
    frames: HashMap<Frame, Arc<FrameFills>>,
}

impl<'a> Memo<'a> {
    /// An empty memo for the transition with `hints` and `target`.
    pub fn new(domain: &'a Nonogram, rules: &'a [Rule], hints: &'a [u32], target: &'a [Cell], options: ApplyOptions) -> Memo<'a> {
        Memo { domain, rules, hints, target, options, frames: HashMap::new() }
    }

    /// Evaluates `rules` (indices) on `frame`.
    fn evaluate(&self, frame: &Frame, rules: impl Iterator<Item = u32>) -> FrameFills {
        let view = self.domain.line_view(&frame.line);
        let size = self.domain.schema().size_feature;
        let mut out = FrameFills::default();
        for i in rules {
            let rule = &self.rules[i as usize];
            let mut error = None;
            Interpreter::new(rule, &view, size).each_action(|args| {
                let [v, a, b] = *args else { return };
                if error.is_some() {
                    return;
                }
                match frame.checked_cells(&rule.name, v != 0, a, b, self.target) {
                    Ok(range) => out.fills.extend(
                        range.filter(|&c| frame.line.cells[c] == Cell::Unknown).map(|c| Fill { rule: i, at: frame.cell(c) as u32, value: v != 0 }),
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
    fn all_rules(&mut self, frame: Frame) -> Arc<FrameFills> {
        if let Some(f) = self.frames.get(&frame) {
            return f.clone();
        }
        let fills = Arc::new(self.evaluate(&frame, 0..self.rules.len() as u32));
        self.frames.insert(frame, fills.clone());
        fills
    }

    /// The fills of one round on `cells` by the rules of `set`, sorted and
    /// without repeats.
    pub fn round(&mut self, cells: &[Cell], set: &Set) -> Result<Vec<Fill>, UnsoundFill> {
        let mut out = vec![];
        for frame in frames(self.hints, cells, self.options) {
            let fills = match set {
                Set::Few(list) if !self.frames.contains_key(&frame) => Arc::new(self.evaluate(&frame, list.iter().copied())),
                _ => self.all_rules(frame),
            };
            if let Some((_, e)) = fills.errors.iter().find(|(i, _)| set.has(*i)) {
                return Err(e.clone());
            }
            out.extend(fills.fills.iter().filter(|f| set.has(f.rule)));
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
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
