//! Memoised rule application on one test transition, for coverage at
//! scale. What a rule does on a frame (a sub-line in one orientation)
//! depends only on the frame's line (hints and cells), and the same
//! sub-lines recur within and across transitions, so the rules' actions
//! on each line are kept once for all transitions ([`Lines`], a cache of
//! bounded size); a transition's memo maps them to its cells and checks
//! them against its target when a round asks, so rounds, fills and errors
//! are those of [`super::apply`], in the same order. Per state seen, the
//! memo keeps only which rules act there ([`Acts`]: a few rule numbers),
//! so one more rule's effect on a run is a look-up and memory grows with
//! the states seen, not with the fills of every rule on them; states are
//! numbered, so the states a run went through are one word ([`States`]).
//! Rules are
//! evaluated through [`Plans`] (conjuncts checked as soon as their
//! variables are bound; pattern specialisations of one rule evaluated
//! together).

use super::apply::{frames, ApplyOptions, Frame, UnsoundFill};
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::synthesis::domain::Nonogram;
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

/// Most actions [`Lines`] keeps (about 24 bytes each): past this the cache
/// starts again empty, so its memory is bounded whatever the test set.
const MAX_CACHED_ACTIONS: usize = 1 << 22;

/// The actions of every rule on each line seen, with their count.
#[derive(Default)]
struct ActionCache {
    by_line: FxHashMap<Line, Arc<Vec<Action>>>,
    actions: usize,
}

/// The rule set compiled, and the actions of every rule on each line seen
/// (a bounded cache), shared by the memos of all transitions of one
/// coverage computation.
pub(crate) struct Lines<'a> {
    plans: Plans<'a>,
    cache: Mutex<ActionCache>,
}

impl<'a> Lines<'a> {
    /// An empty cache for `rules`.
    pub fn new(domain: &Nonogram, rules: &'a [Rule]) -> Lines<'a> {
        Lines { plans: Plans::new(rules, domain.schema().size_feature), cache: Mutex::default() }
    }

    /// The recorded actions of every rule on `line`, if any.
    fn get(&self, line: &Line) -> Option<Arc<Vec<Action>>> {
        self.cache.lock().expect("line cache lock").by_line.get(line).cloned()
    }

    /// Records the actions of every rule on `line`, emptying the cache
    /// first if it would grow past [`MAX_CACHED_ACTIONS`].
    fn insert(&self, line: &Line, actions: Arc<Vec<Action>>) {
        let mut cache = self.cache.lock().expect("line cache lock");
        if cache.actions + actions.len() > MAX_CACHED_ACTIONS {
            *cache = ActionCache::default();
        }
        cache.actions += actions.len();
        if let Some(old) = cache.by_line.insert(line.clone(), actions) {
            cache.actions -= old.len();
        }
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

/// What some rules do on one state (all its frames): the unknown cells
/// each fills (sorted, without repeats, indexed by rule), and per rule its
/// first wrong fill (in frame order).
#[derive(Default)]
struct Fills {
    fills: Vec<Fill>,
    errors: Vec<(u32, UnsoundFill)>,
    /// Per rule with fills, increasing: the rule and the end of its fills.
    index: Vec<(u32, u32)>,
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

    /// The fills of rule `i`.
    fn of_rule(&self, i: u32) -> &[Fill] {
        match self.index.binary_search_by_key(&i, |&(rule, _)| rule) {
            Ok(k) => {
                let from = if k == 0 { 0 } else { self.index[k - 1].1 as usize };
                &self.fills[from..self.index[k].1 as usize]
            }
            Err(_) => &[],
        }
    }

    /// The fills of rule `i`, or its first error.
    fn of_one(&self, i: u32) -> Result<&[Fill], UnsoundFill> {
        match self.errors.iter().find(|&&(r, _)| r == i) {
            Some((_, e)) => Err(e.clone()),
            None => Ok(self.of_rule(i)),
        }
    }

    /// Calls `f` with every fill of the rules of `set`, or returns the
    /// first error of one of them.
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

    /// The fills of the rules of `set`, or the first error of one of them.
    fn of(&self, set: &Set) -> Result<Vec<Fill>, UnsoundFill> {
        let mut out = vec![];
        self.each(set, |f| out.push(*f))?;
        Ok(out)
    }
}

/// Some rule numbers: a sorted list, or a bitset where that is smaller.
enum Rules {
    List(Box<[u32]>),
    Bits(Box<[u64]>),
}

impl Rules {
    /// The rules of `sorted`, of a set of `n` rules.
    fn new(sorted: Vec<u32>, n: usize) -> Rules {
        if sorted.len() * 32 <= n {
            return Rules::List(sorted.into());
        }
        let mut bits = vec![0u64; n.div_ceil(64)];
        sorted.iter().for_each(|&i| bits[i as usize / 64] |= 1 << (i % 64));
        Rules::Bits(bits.into())
    }

    /// Whether rule `i` is one.
    fn has(&self, i: u32) -> bool {
        match self {
            Rules::List(list) => list.binary_search(&i).is_ok(),
            Rules::Bits(bits) => bits.get(i as usize / 64).is_some_and(|w| w >> (i % 64) & 1 == 1),
        }
    }

    /// The rules, increasing.
    fn to_vec(&self) -> Vec<u32> {
        match self {
            Rules::List(list) => list.to_vec(),
            Rules::Bits(bits) => (0..bits.len() as u32 * 64).filter(|&i| self.has(i)).collect(),
        }
    }
}

/// Which rules act on one state, as memoised: those filling some unknown
/// cell, and per rule its first wrong fill (in frame order).
struct Acts {
    filling: Rules,
    errors: Box<[(u32, UnsoundFill)]>,
}

impl Acts {
    /// Whether rule `i` fills or fails here.
    fn acts(&self, i: u32) -> bool {
        self.filling.has(i) || self.errors.iter().any(|&(r, _)| r == i)
    }

    /// The rules of `list` (sorted) that fill or fail here: the only ones
    /// a round of `list` needs to evaluate.
    fn among(&self, list: &[u32]) -> Vec<u32> {
        list.iter().copied().filter(|&i| self.acts(i)).collect()
    }
}

/// A subset of the rule set.
pub(crate) enum Set {
    /// Every rule.
    All,
    /// Every rule but one.
    AllBut(u32),
    /// A few rules (sorted): unless the memo is eager, on a line whose
    /// actions are not cached these alone are evaluated (and not cached).
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

/// Some of a memo's states, as a set of their numbers (bit `k`: state
/// `k`; every state from the 64th on shares the last bit, so two sets may
/// seem to meet where they do not, never the reverse).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct States(u64);

impl States {
    /// Adds state number `id`.
    fn add(&mut self, id: usize) {
        self.0 |= 1 << id.min(63);
    }

    /// Whether the two sets may share a state.
    pub fn meet(self, other: States) -> bool {
        self.0 & other.0 != 0
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
    /// Each state seen, with its number in `acts`.
    ids: FxHashMap<Box<[Cell]>, u32>,
    /// Which rules act on each state seen, by number.
    acts: Vec<Acts>,
    /// Whether a line not yet cached is evaluated for all rules (and
    /// cached) even when a round asks for a few: worth it when the same
    /// lines recur under different few rules (greedy selection).
    eager: bool,
}

impl<'a> Memo<'a> {
    /// An empty memo for the transition with `hints` and `target`.
    /// `lines` is shared by the memos of one rule set.
    pub fn new(
        domain: &'a Nonogram,
        rules: &'a [Rule],
        hints: &'a [u32],
        target: &'a [Cell],
        options: ApplyOptions,
        lines: Arc<Lines<'a>>,
    ) -> Memo<'a> {
        Memo { domain, rules, hints, target, options, lines, ids: FxHashMap::default(), acts: vec![], eager: false }
    }

    /// This memo, evaluating every line it meets for all rules.
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

    /// What the rules of `set` do in one round on `cells`, from the
    /// actions on each frame's line (cached for all rules, or for a few
    /// rules evaluated for those alone).
    fn fills(&self, cells: &[Cell], set: &Set) -> Fills {
        let mut out = Fills::default();
        if matches!(set, Set::Few(list) if list.is_empty()) {
            return out;
        }
        for frame in frames(self.hints, cells, self.options) {
            match set {
                Set::Few(list) => {
                    match self.lines.get(&frame.line).or_else(|| self.eager.then(|| self.all_actions(&frame.line))) {
                        Some(all) => {
                            self.check(&frame, list.iter().flat_map(|&rule| of_rule(&all, rule)).copied(), &mut out)
                        }
                        None => {
                            let actions = self.lines.evaluate(self.domain, &frame.line, Some(list));
                            self.check(&frame, actions.into_iter(), &mut out)
                        }
                    }
                }
                _ => {
                    let all = self.all_actions(&frame.line);
                    self.check(&frame, all.iter().copied().filter(|a| set.has(a.rule)), &mut out)
                }
            }
        }
        out.seal()
    }

    /// The number of state `cells`, with which rules act there (memoised).
    fn state(&mut self, cells: &[Cell]) -> usize {
        if let Some(&id) = self.ids.get(cells) {
            return id as usize;
        }
        let all = self.fills(cells, &Set::All);
        let filling = Rules::new(all.index.iter().map(|&(rule, _)| rule).collect(), self.rules.len());
        self.acts.push(Acts { filling, errors: all.errors.into() });
        let id = self.acts.len() - 1;
        self.ids.insert(cells.into(), id as u32);
        id
    }

    /// The states seen where rule `i` fills or fails.
    pub fn touched_by(&self, i: u32) -> States {
        let mut out = States::default();
        self.acts.iter().enumerate().filter(|(_, acts)| acts.acts(i)).for_each(|(id, _)| out.add(id));
        out
    }

    /// The fills of one round on `cells` by the rules of `set`, or the
    /// first wrong fill of one of them.
    pub fn round(&self, cells: &[Cell], set: &Set) -> Result<Vec<Fill>, UnsoundFill> {
        self.fills(cells, set).of(set)
    }

    /// The rules (of all) that fill some unknown cell in one round on
    /// `cells`, increasing, or the first wrong fill of any rule.
    pub fn filling(&mut self, cells: &[Cell]) -> Result<Vec<u32>, UnsoundFill> {
        let id = self.state(cells);
        let acts = &self.acts[id];
        match acts.errors.first() {
            Some((_, e)) => Err(e.clone()),
            None => Ok(acts.filling.to_vec()),
        }
    }

    /// Whether rule `i` fills or fails in one round on `cells`.
    pub fn acts(&mut self, cells: &[Cell], i: u32) -> bool {
        let id = self.state(cells);
        self.acts[id].acts(i)
    }

    /// Rounds from `cells` under the rules of `set` until one fills nothing.
    pub fn run(&self, cells: &[Cell], set: &Set) -> Result<Run, UnsoundFill> {
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
    pub fn ends_alone(&self, cells: &[Cell], rules: &[u32]) -> Vec<Result<Vec<Cell>, UnsoundFill>> {
        let state = self.fills(cells, &Set::Few(rules.to_vec()));
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

    /// The final state of [`run`](Self::run) of the rules of `list`
    /// (sorted), without the rounds, and the states it went through (which
    /// rules act on each, memoised; a round evaluates only those).
    pub fn end(&mut self, cells: &[Cell], list: &[u32]) -> Result<(Vec<Cell>, States), UnsoundFill> {
        let mut cells = cells.to_vec();
        let mut next = cells.clone();
        let mut trail = States::default();
        loop {
            let id = self.state(&cells);
            trail.add(id);
            let acting = Set::Few(self.acts[id].among(list));
            let mut changed = false;
            self.fills(&cells, &acting).each(&acting, |f| {
                next[f.at as usize] = Cell::from_bool(f.value);
                changed = true;
            })?;
            if !changed {
                return Ok((cells, trail));
            }
            cells.copy_from_slice(&next);
        }
    }
}
