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
//! target. Rules are evaluated through [`Plans`] (conjuncts checked as
//! soon as their variables are bound; pattern specialisations of one rule
//! evaluated together). A state's fills are indexed by rule, so a round of
//! a few rules on a memoised state costs a few look-ups.

use super::apply::{frames, ApplyOptions, Frame, UnsoundFill};
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::plan::Plans;
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

/// The rule set compiled, and the actions of every rule on each line seen,
/// shared by the memos of all transitions of one coverage computation.
pub(crate) struct Lines<'a> {
    plans: Plans<'a>,
    actions: Mutex<FxHashMap<Line, Arc<Vec<Action>>>>,
}

impl<'a> Lines<'a> {
    /// An empty cache for `rules`.
    pub fn new(domain: &Nonogram, rules: &'a [Rule]) -> Lines<'a> {
        Lines { plans: Plans::new(rules, domain.schema().size_feature), actions: Mutex::default() }
    }

    /// The recorded actions of every rule on `line`, if any.
    fn get(&self, line: &Line) -> Option<Arc<Vec<Action>>> {
        self.actions.lock().expect("line cache lock").get(line).cloned()
    }

    /// Records the actions of every rule on `line`.
    fn insert(&self, line: &Line, actions: Arc<Vec<Action>>) {
        self.actions.lock().expect("line cache lock").insert(line.clone(), actions);
    }

    /// The actions on `line` of every rule (or of those of `only`,
    /// sorted), grouped by rule (increasing), each rule's in binding order.
    fn evaluate(&self, domain: &Nonogram, line: &Line, only: Option<&[u32]>) -> Vec<Action> {
        let view = domain.line_view(line);
        let mut out = Vec::with_capacity(64);
        self.plans.each_action(&view, only, |rule, args| {
            if let [v, a, b] = *args {
                out.push(Action { rule, value: v != 0, a, b });
            }
        });
        out.sort_by_key(|a| a.rule);
        out
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
/// the unknown cells each fills (grouped by rule, increasing; for states
/// sorted and without repeats, and indexed by rule), and per rule its
/// first wrong fill (in frame order).
#[derive(Default)]
struct Fills {
    fills: Vec<Fill>,
    errors: Vec<(u32, UnsoundFill)>,
    /// Per rule with fills, increasing: the rule and the end of its fills.
    index: Vec<(u32, u32)>,
    /// Whether every rule was evaluated (else only a few).
    complete: bool,
}

impl Fills {
    /// Sorts the fills, drops repeats and indexes them by rule.
    fn seal(mut self) -> Fills {
        self.fills.sort_unstable();
        self.fills.dedup();
        self.index.clear();
        for (end, f) in self.fills.iter().enumerate() {
            match self.index.last_mut() {
                Some((rule, e)) if *rule == f.rule => *e = end as u32 + 1,
                _ => self.index.push((f.rule, end as u32 + 1)),
            }
        }
        self
    }

    /// The fills of rule `i` (sealed fills).
    fn of_rule(&self, i: u32) -> &[Fill] {
        match self.index.binary_search_by_key(&i, |&(rule, _)| rule) {
            Ok(k) => {
                let from = if k == 0 { 0 } else { self.index[k - 1].1 as usize };
                &self.fills[from..self.index[k].1 as usize]
            }
            Err(_) => &[],
        }
    }

    /// The rules with fills (sealed fills), increasing.
    fn rules(&self) -> impl Iterator<Item = u32> + '_ {
        self.index.iter().map(|&(rule, _)| rule)
    }

    /// Whether rule `i` was evaluated and fills or fails here.
    fn acts(&self, i: u32) -> bool {
        !self.complete || !self.of_rule(i).is_empty() || self.errors.iter().any(|&(r, _)| r == i)
    }

    /// The fills of rule `i` (sealed fills), or its first error.
    fn of_one(&self, i: u32) -> Result<&[Fill], UnsoundFill> {
        match self.errors.iter().find(|&&(r, _)| r == i) {
            Some((_, e)) => Err(e.clone()),
            None => Ok(self.of_rule(i)),
        }
    }

    /// Calls `f` with every fill of the rules of `set` (sealed fills), or
    /// returns the first error of one of them.
    fn each(&self, set: &Set, mut f: impl FnMut(&Fill)) -> Result<(), UnsoundFill> {
        if let Some((_, e)) = self.errors.iter().find(|(i, _)| set.has(*i)) {
            return Err(e.clone());
        }
        match set {
            Set::All => self.fills.iter().for_each(f),
            Set::AllBut(j) => self.fills.iter().filter(|x| x.rule != *j).for_each(f),
            Set::Few(list) => list.iter().for_each(|&i| self.of_rule(i).iter().for_each(&mut f)),
        }
        Ok(())
    }

    /// The fills of the rules of `set` (sealed fills), or the first error
    /// of one of them.
    fn of(&self, set: &Set) -> Result<Vec<Fill>, UnsoundFill> {
        let mut out = vec![];
        self.each(set, |f| out.push(*f))?;
        Ok(out)
    }
}

/// A subset of the rule set.
pub(crate) enum Set {
    /// Every rule.
    All,
    /// Every rule but one.
    AllBut(u32),
    /// A few rules (sorted): unless the memo is eager, states not yet
    /// memoised are evaluated for these alone, and not memoised.
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

/// The states a run went through, as memoised: whether one more rule
/// would have changed it.
pub(crate) struct Trail(Vec<Arc<Fills>>);

impl Trail {
    /// Whether rule `i` fills or fails on some state of the run (true if
    /// it was not evaluated on one).
    pub fn touched_by(&self, i: u32) -> bool {
        self.0.iter().any(|f| f.acts(i))
    }
}

/// One transition's memo.
pub(crate) struct Memo<'a> {
    domain: &'a Nonogram,
    rules: &'a [Rule],
    hints: &'a [u32],
    target: &'a [Cell],
    options: ApplyOptions,
    /// The compiled rules and their actions on each line seen, for all
    /// transitions.
    lines: Arc<Lines<'a>>,
    /// Every rule on each frame seen.
    frames: FxHashMap<Frame, Arc<Fills>>,
    /// Every rule on each state seen.
    states: FxHashMap<Vec<Cell>, Arc<Fills>>,
    /// Whether a state not yet memoised is evaluated for all rules even
    /// when a round asks for a few: worth it when the same states recur
    /// under different few rules (greedy selection).
    eager: bool,
}

impl<'a> Memo<'a> {
    /// An empty memo for the transition with `hints` and `target`.
    /// `lines` is shared by the memos of one rule set.
    pub fn new(domain: &'a Nonogram, rules: &'a [Rule], hints: &'a [u32], target: &'a [Cell], options: ApplyOptions, lines: Arc<Lines<'a>>) -> Memo<'a> {
        Memo { domain, rules, hints, target, options, lines, frames: FxHashMap::default(), states: FxHashMap::default(), eager: false }
    }

    /// This memo, evaluating every state it meets for all rules.
    pub fn eager(self) -> Memo<'a> {
        Memo { eager: true, ..self }
    }

    /// The fills of `actions` (grouped by rule) on `frame`, checked against
    /// the target: per rule, its fills up to its first wrong one.
    fn check(&self, frame: &Frame, actions: impl Iterator<Item = Action>, out: &mut Fills) {
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
    }

    /// Every rule's actions on `line`, from the shared cache or evaluated
    /// (and shared).
    fn all_actions(&self, line: &Line) -> Arc<Vec<Action>> {
        if let Some(actions) = self.lines.get(line) {
            return actions;
        }
        let actions = Arc::new(self.lines.evaluate(self.domain, line, None));
        self.lines.insert(line, actions.clone());
        actions
    }

    /// Every rule on `frame`, memoised.
    fn all_rules(&mut self, frame: Frame) -> Arc<Fills> {
        if let Some(f) = self.frames.get(&frame) {
            return f.clone();
        }
        let actions = self.all_actions(&frame.line);
        let mut fills = Fills::default();
        self.check(&frame, actions.iter().copied(), &mut fills);
        let fills = Arc::new(fills);
        self.frames.insert(frame, fills.clone());
        fills
    }

    /// What the rules do in one round on `cells`: for every rule, from the
    /// memo, or evaluated for all rules and memoised; but for a state not
    /// yet memoised and a few rules, for those alone (not memoised).
    fn state(&mut self, cells: &[Cell], set: &Set) -> Arc<Fills> {
        if let Some(state) = self.states.get(cells) {
            return state.clone();
        }
        let mut state = Fills::default();
        if let (Set::Few(list), false) = (set, self.eager) {
            for frame in frames(self.hints, cells, self.options) {
                match self.lines.get(&frame.line) {
                    Some(all) => self.check(&frame, list.iter().flat_map(|&rule| of_rule(&all, rule)).copied(), &mut state),
                    None => {
                        let actions = self.lines.evaluate(self.domain, &frame.line, Some(list));
                        self.check(&frame, actions.into_iter(), &mut state)
                    }
                }
            }
            return Arc::new(state.seal());
        }
        state.complete = true;
        let all: Vec<Arc<Fills>> = frames(self.hints, cells, self.options).into_iter().map(|frame| self.all_rules(frame)).collect();
        state.fills.reserve_exact(all.iter().map(|f| f.fills.len()).sum());
        for fills in all {
            state.fills.extend_from_slice(&fills.fills);
            state.errors.extend(fills.errors.iter().cloned());
        }
        let state = Arc::new(state.seal());
        self.states.insert(cells.to_vec(), state.clone());
        state
    }

    /// The fills of one round on `cells` by the rules of `set`, or the
    /// first wrong fill of one of them.
    pub fn round(&mut self, cells: &[Cell], set: &Set) -> Result<Vec<Fill>, UnsoundFill> {
        self.state(cells, set).of(set)
    }

    /// The rules (of all) that fill some unknown cell in one round on
    /// `cells`, increasing, or the first wrong fill of any rule.
    pub fn filling(&mut self, cells: &[Cell]) -> Result<Vec<u32>, UnsoundFill> {
        let state = self.state(cells, &Set::All);
        match state.errors.first() {
            Some((_, e)) => Err(e.clone()),
            None => Ok(state.rules().collect()),
        }
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

    /// For each of `rules` (sorted), the final state of its
    /// [`run`](Self::run) alone from `cells`, or its error. The runs go
    /// together while they are in the same state: each round is evaluated
    /// once for the rules in that state.
    pub fn ends_alone(&mut self, cells: &[Cell], rules: &[u32]) -> Vec<Result<Vec<Cell>, UnsoundFill>> {
        let state = self.state(cells, &Set::Few(rules.to_vec()));
        let mut out: Vec<Option<Result<Vec<Cell>, UnsoundFill>>> = vec![None; rules.len()];
        let mut next: FxHashMap<Vec<Cell>, Vec<usize>> = FxHashMap::default();
        for (k, &i) in rules.iter().enumerate() {
            match state.of_one(i) {
                Err(e) => out[k] = Some(Err(e)),
                Ok([]) => out[k] = Some(Ok(cells.to_vec())),
                Ok(fills) => {
                    let mut after = cells.to_vec();
                    fills.iter().for_each(|f| after[f.at as usize] = Cell::from_bool(f.value));
                    next.entry(after).or_default().push(k);
                }
            }
        }
        for (after, ks) in next {
            let group: Vec<u32> = ks.iter().map(|&k| rules[k]).collect();
            for (k, end) in ks.into_iter().zip(self.ends_alone(&after, &group)) {
                out[k] = Some(end);
            }
        }
        out.into_iter().map(|end| end.expect("every rule's run ends")).collect()
    }

    /// The final state of [`run`](Self::run), without the rounds, and the
    /// states it went through.
    pub fn end(&mut self, cells: &[Cell], set: &Set) -> Result<(Vec<Cell>, Trail), UnsoundFill> {
        let mut cells = cells.to_vec();
        let mut next = cells.clone();
        let mut trail = vec![];
        loop {
            let state = self.state(&cells, set);
            let mut changed = false;
            state.each(set, |f| {
                next[f.at as usize] = Cell::from_bool(f.value);
                changed = true;
            })?;
            trail.push(state);
            if !changed {
                return Ok((cells, Trail(trail)));
            }
            cells.copy_from_slice(&next);
        }
    }
}
