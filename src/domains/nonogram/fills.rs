//! Memoised rule application on one test transition, for coverage at
//! scale: every frame (a sub-line in one orientation) seen in any round,
//! under any subset of a large rule set, is evaluated once for all rules,
//! and a round under a subset only filters what was recorded. What a rule
//! does on a frame depends on the frame alone, and whether a fill agrees
//! with the target on the transition alone, so the memo is exact: rounds,
//! fills and errors are those of [`super::apply`], in the same order.
//!
//! What a rule does on a frame depends only on the frame's line (hints and
//! cells), and the same sub-lines recur across transitions, so the rules'
//! actions on each line are kept once for all transitions ([`Lines`]); a
//! transition's memo maps them to its cells and checks them against its
//! target.

use super::apply::{frames, ApplyOptions, Frame, UnsoundFill};
use super::domain::Nonogram;
use super::line::{Cell, Line};
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::eval::Interpreter;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// One `fill(value, a, b)` a rule makes on a line, in the line's cells.
#[derive(Clone, Copy, Debug)]
struct Action {
    rule: u32,
    value: bool,
    a: i64,
    b: i64,
}

/// The actions of `rule` among `actions` (grouped by rule, increasing).
fn of_rule(actions: &[Action], rule: u32) -> &[Action] {
    let from = actions.partition_point(|a| a.rule < rule);
    let to = from + actions[from..].partition_point(|a| a.rule == rule);
    &actions[from..to]
}

/// The actions of every rule on each line seen, shared by the memos of all
/// transitions of one coverage computation.
#[derive(Default)]
pub(crate) struct Lines {
    actions: Mutex<FxHashMap<Line, Arc<Vec<Action>>>>,
}

impl Lines {
    /// The recorded actions of every rule on `line`, if any.
    fn get(&self, line: &Line) -> Option<Arc<Vec<Action>>> {
        self.actions.lock().expect("line cache lock").get(line).cloned()
    }

    /// Records the actions of every rule on `line`.
    fn insert(&self, line: &Line, actions: Arc<Vec<Action>>) {
        self.actions.lock().expect("line cache lock").insert(line.clone(), actions);
    }
}

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
    /// Every rule's actions on each line seen, for all transitions.
    lines: Arc<Lines>,
    /// Every rule on each frame seen.
    frames: FxHashMap<Frame, Arc<Fills>>,
    /// Every rule on each state seen.
    states: FxHashMap<Vec<Cell>, Arc<Fills>>,
}

impl<'a> Memo<'a> {
    /// An empty memo for the transition with `hints` and `target`.
    /// `lines` is shared by the memos of one rule set.
    pub fn new(domain: &'a Nonogram, rules: &'a [Rule], hints: &'a [u32], target: &'a [Cell], options: ApplyOptions, lines: Arc<Lines>) -> Memo<'a> {
        Memo { domain, rules, hints, target, options, lines, frames: FxHashMap::default(), states: FxHashMap::default() }
    }

    /// The actions of `rules` (indices, increasing) on `line`.
    fn actions(&self, line: &Line, rules: impl Iterator<Item = u32>) -> Vec<Action> {
        let view = self.domain.line_view(line);
        let size = self.domain.schema().size_feature;
        let mut out = vec![];
        for rule in rules {
            Interpreter::new(&self.rules[rule as usize], &view, size).each_action(|args| {
                if let [v, a, b] = *args {
                    out.push(Action { rule, value: v != 0, a, b });
                }
            });
        }
        out
    }

    /// The fills of `actions` (grouped by rule) on `frame`, checked against
    /// the target: per rule, its fills up to its first wrong one.
    fn check(&self, frame: &Frame, actions: impl Iterator<Item = Action>) -> Fills {
        let mut out = Fills::default();
        let mut failed = None;
        for Action { rule, value, a, b } in actions {
            if failed == Some(rule) {
                continue;
            }
            match frame.checked_cells(&self.rules[rule as usize].name, value, a, b, self.target) {
                Ok(cells) => out.fills.extend(
                    (a as usize..b as usize)
                        .zip(cells)
                        .filter(|&(c, _)| frame.line.cells[c] == Cell::Unknown)
                        .map(|(_, at)| Fill { rule, at: at as u32, value }),
                ),
                Err(e) => {
                    failed = Some(rule);
                    out.errors.push((rule, e));
                }
            }
        }
        out
    }

    /// Every rule's actions on `line`, from the shared cache or evaluated
    /// (and shared).
    fn all_actions(&self, line: &Line) -> Arc<Vec<Action>> {
        if let Some(actions) = self.lines.get(line) {
            return actions;
        }
        let actions = Arc::new(self.actions(line, 0..self.rules.len() as u32));
        self.lines.insert(line, actions.clone());
        actions
    }

    /// Every rule on `frame`, memoised.
    fn all_rules(&mut self, frame: Frame) -> Arc<Fills> {
        if let Some(f) = self.frames.get(&frame) {
            return f.clone();
        }
        let actions = self.all_actions(&frame.line);
        let fills = Arc::new(self.check(&frame, actions.iter().copied()));
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
                let Fills { fills, errors } = match self.lines.get(&frame.line) {
                    Some(all) => self.check(&frame, list.iter().flat_map(|&rule| of_rule(&all, rule)).copied()),
                    None => self.check(&frame, self.actions(&frame.line, list.iter().copied()).into_iter()),
                };
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
