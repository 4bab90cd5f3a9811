//! A lattice node under search: its examples (states and the bindings of
//! its patterns on them, "pairs"), the values of its terms and atoms on
//! each pair, and what a candidate action and condition do on them (bad
//! pairs, good pairs, covering choices, the rule they make).

use super::bits::Bits;
use super::domain::{Domain, Example};
use super::holds::{holds_on_all, Groups, Holds, LiveAtoms};
use super::set_cover::Choice;
use super::space::{ArgChoice, Candidate};
use super::table::{Space, TableFacts};
use crate::dsl::ast::{Action, ActionArg, ActionId, BoolExpr, Rule};
use crate::dsl::eval::{ActionValue, Binding, Interpreter};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

/// Examples of one lattice node: states, their bindings (pairs), and what
/// the node's terms and atoms are on each pair.
#[derive(Clone)]
pub(super) struct Pairs {
    /// (example index, binding)
    pub(super) pairs: Vec<(usize, Binding)>,
    /// Per pair, the value of every term.
    pub(super) values: Vec<Arc<[i64]>>,
    /// Per live atom, the pairs it holds on.
    pub(super) holds: Holds,
}

/// What the terms and live atoms of one lattice walk are on one pair: the
/// same at every node of the walk (its nodes share the element types, so
/// the terms and atoms, and the specification's binding, so the live
/// atoms; they differ only in which bindings their patterns allow).
struct PairFacts {
    values: Arc<[i64]>,
    /// The live atoms (indices into `live`) that hold, as a bit set: a
    /// two-variable space has tens of thousands of live atoms, many of
    /// them true on a pair, so a list of their indices (4 bytes each) took
    /// about 145 KB per pair (440 MB for one walk of 3,000 pairs), where a
    /// bit per live atom takes a few KB.
    holds: Bits,
}

/// The facts of every pair met in one lattice walk, by example (its
/// address; the entry holds the example, so the address is not reused)
/// and binding: each pair is evaluated once per walk, not once per node;
/// and the walk's live atoms, ready to evaluate (made by its first node).
pub(super) struct PairMemo<S> {
    facts: Mutex<FxHashMap<usize, ExampleFacts<S>>>,
    live: OnceLock<LiveAtoms>,
}

/// One example (held, so its address stays its own) and its pairs' facts
/// by binding.
type ExampleFacts<S> = (Arc<Example<S>>, FxHashMap<Binding, Arc<PairFacts>>);

impl<S> Default for PairMemo<S> {
    fn default() -> PairMemo<S> {
        PairMemo { facts: Mutex::default(), live: OnceLock::new() }
    }
}

/// Atoms as covering choices, one per distinct behaviour (the cheapest).
pub(super) struct Choices {
    pub(super) list: Vec<Choice>,
    /// The atom index of each choice.
    pub(super) atom: Vec<usize>,
}

/// A lattice node under search, in its domain.
pub(super) struct Node<'d, D: Domain> {
    pub(super) domain: &'d D,
    pub(super) skeleton: Rule,
    pub(super) space: Arc<Space>,
    /// Indices of the atoms that hold on the specification.
    pub(super) live: Vec<usize>,
    pub(super) examples: Vec<Arc<Example<D::State>>>,
    /// The first `sample` examples are the coverage sample.
    pub(super) sample: usize,
    /// Indices of the table states the node's patterns bind on (computed
    /// on first use).
    pub(super) scope: Option<Vec<usize>>,
    /// The table pairs (of the space's [`TableFacts`]) the node's patterns
    /// bind (computed on first use).
    pub(super) mask: Option<Bits>,
    pub(super) pairs: Pairs,
    /// Shared by the nodes of one lattice walk.
    pub(super) memo: Arc<PairMemo<D::State>>,
    /// The live atoms by column, for the pairs held when computed.
    pub(super) columns: Option<Columns>,
    /// The pairs of the run's widen states, once added
    /// ([`Node::widen_pairs`]).
    pub(super) widen: Option<Range<usize>>,
}

/// The live atoms of a node grouped by the pairs they hold on (equal
/// columns behave alike on any bad and good pairs), each group by its
/// cheapest (then first) atom, leaving out those that hold on every pair
/// (they exclude no bad pair): what [`Node::choices`] goes through, once
/// per set of pairs instead of every live atom at every call.
#[derive(Clone)]
pub(super) struct Columns {
    /// The groups, refined as pairs join (over the pairs the node held).
    groups: Groups,
    /// Per group, in the order of its first atom: the place among the
    /// live atoms and the index of its cheapest (then first) atom.
    reps: Vec<(usize, usize)>,
}

// by hand: a derived `Clone` would ask the domain to be `Clone`
impl<D: Domain> Clone for Node<'_, D> {
    fn clone(&self) -> Self {
        Node {
            domain: self.domain,
            skeleton: self.skeleton.clone(),
            space: self.space.clone(),
            live: self.live.clone(),
            examples: self.examples.clone(),
            sample: self.sample,
            scope: self.scope.clone(),
            mask: self.mask.clone(),
            pairs: self.pairs.clone(),
            memo: self.memo.clone(),
            columns: self.columns.clone(),
            widen: self.widen.clone(),
        }
    }
}

/// What a rule's breadth on the coverage sample counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Breadth {
    /// The states it gains on (the paper's coverage of states).
    States,
    /// What it gains on them together ([`Domain::gain`]: nonogram cells).
    Cells,
}

impl<D: Domain> Node<'_, D> {
    /// Adds an example: its pairs, with the terms' values and the live
    /// atoms' truth on each.
    pub(super) fn add_example(&mut self, ex: Arc<Example<D::State>>) {
        self.add_examples(std::iter::once(ex));
    }

    /// Adds examples, in order (see [`Node::add_example`]): their pairs'
    /// rows of live atoms are written together ([`Holds::extend`]).
    pub(super) fn add_examples(&mut self, exs: impl IntoIterator<Item = Arc<Example<D::State>>>) {
        let first = self.pairs.pairs.len();
        let mut rows: Vec<Arc<PairFacts>> = vec![];
        let live = self.memo.live.get_or_init(|| LiveAtoms::new(&self.space.atoms, &self.live));
        let mut memo = self.memo.facts.lock().expect("pair memo");
        for ex in exs {
            let e = self.examples.len();
            let interp = Interpreter::new(&self.skeleton, &ex.view, self.domain.schema().size_feature);
            let mut bindings = vec![];
            interp.for_each_binding(|b| bindings.push(b.clone()));
            let (_, known) =
                memo.entry(Arc::as_ptr(&ex) as usize).or_insert_with(|| (ex.clone(), FxHashMap::default()));
            for b in bindings {
                let facts = known.entry(b.clone()).or_insert_with(|| {
                    let values = self.space.term_values(&interp, &b);
                    let holds = live.row(&self.space, &values, &interp, &b);
                    Arc::new(PairFacts { values: values.into(), holds })
                });
                self.pairs.values.push(facts.values.clone());
                self.pairs.pairs.push((e, b));
                rows.push(facts.clone());
            }
            self.examples.push(ex);
        }
        drop(memo);
        self.pairs.holds.extend(first, &rows.iter().map(|f| &f.holds).collect::<Vec<&Bits>>());
    }

    /// The pairs of the examples of `widen` (the run's widen states) on
    /// which the node's patterns bind, added on first use (see
    /// [`Node::add_examples`]).
    pub(super) fn widen_pairs(&mut self, widen: &[Arc<Example<D::State>>]) -> Range<usize> {
        if let Some(pairs) = &self.widen {
            return pairs.clone();
        }
        let from = self.pairs.pairs.len();
        let size = self.domain.schema().size_feature;
        let binding: Vec<_> =
            widen.iter().filter(|ex| Interpreter::new(&self.skeleton, &ex.view, size).binds()).cloned().collect();
        self.add_examples(binding);
        let pairs = from..self.pairs.pairs.len();
        self.widen = Some(pairs.clone());
        pairs
    }

    /// The table states on which the node's patterns bind.
    pub(super) fn table_scope(&mut self, table: &[Arc<Example<D::State>>]) -> &[usize] {
        let (skeleton, size) = (&self.skeleton, self.domain.schema().size_feature);
        self.scope.get_or_insert_with(|| {
            (0..table.len()).filter(|&i| Interpreter::new(skeleton, &table[i].view, size).binds()).collect()
        })
    }

    /// The pairs of `facts` (its space's) the node's patterns bind, and the
    /// table states they bind on.
    pub(super) fn table_mask(&mut self, table: &[Arc<Example<D::State>>], facts: &TableFacts) -> (&Bits, &[usize]) {
        self.table_scope(table);
        let scope = self.scope.as_deref().expect("scope just computed");
        let mask = self.mask.get_or_insert_with(|| facts.mask(&self.skeleton.decls, scope));
        (mask, scope)
    }

    /// Writes the candidate's action value on `pair` into `out` (one
    /// buffer serves every pair: no allocation per pair).
    fn action_value_into(&self, cand: &Candidate, pair: usize, out: &mut ActionValue) {
        let (values, binding) = (&self.pairs.values[pair], &self.pairs.pairs[pair].1);
        out.action = cand.id;
        out.args.clear();
        out.args.extend(cand.args.iter().map(|a| match a {
            ArgChoice::Bool(b) => *b as i64,
            ArgChoice::Term(i) => values[*i],
            ArgChoice::Element(v) => binding[*v as usize] as i64,
        }));
    }

    /// Pairs on which the action is wrong.
    pub(super) fn bad_pairs(&self, cand: &Candidate) -> Bits {
        let mut out = Bits::new();
        self.extend_bad_pairs(cand, &mut out, 0);
        out
    }

    /// Adds to `bad` the pairs from `from` on where the action is unsound
    /// (examples only ever join at the end, so the bad pairs before `from`
    /// stay as they were); returns the number of pairs, where to go on from.
    pub(super) fn extend_bad_pairs(&self, cand: &Candidate, bad: &mut Bits, from: usize) -> usize {
        let mut value = ActionValue { action: cand.id, args: Vec::with_capacity(cand.args.len()) };
        for p in from..self.pairs.pairs.len() {
            self.action_value_into(cand, p, &mut value);
            if !self.domain.is_sound(&self.examples[self.pairs.pairs[p].0].state, &value) {
                bad.set(p);
            }
        }
        self.pairs.pairs.len()
    }

    /// The pairs of the coverage sample (its examples come first).
    fn sample_pairs(&self) -> usize {
        self.pairs.pairs.partition_point(|&(e, _)| e < self.sample)
    }

    /// Whether the action is sound and gains something on `pair` (`value`:
    /// a buffer for its value).
    fn good_on(&self, cand: &Candidate, pair: usize, value: &mut ActionValue) -> bool {
        let state = &self.examples[self.pairs.pairs[pair].0].state;
        self.action_value_into(cand, pair, value);
        self.domain.is_sound(state, value) && self.domain.productive(state, value)
    }

    /// Pairs of the coverage sample on which the action is sound and gains
    /// something.
    pub(super) fn good_pairs(&self, cand: &Candidate) -> Bits {
        self.good_pairs_in(cand, 0..self.sample_pairs())
    }

    /// The pairs of `pairs` on which the action is sound and gains
    /// something.
    pub(super) fn good_pairs_in(&self, cand: &Candidate, pairs: Range<usize>) -> Bits {
        let mut value = ActionValue { action: cand.id, args: Vec::with_capacity(cand.args.len()) };
        pairs.filter(|&p| self.good_on(cand, p, &mut value)).collect()
    }

    /// [`Node::good_pairs`] of every candidate but those whose action has
    /// the values of an earlier one's on every pair of the coverage sample
    /// (`None`: the same pairs as that one), computed pair by pair (a
    /// pair's term values are read for every candidate while they are at
    /// hand).
    fn good_pairs_of_all(&self, cands: &[Candidate]) -> Vec<Option<Bits>> {
        let pairs = self.sample_pairs();
        // terms by their values on the sample's pairs, then actions by
        // their identifier and arguments' classes
        let mut classes: FxHashMap<Vec<i64>, usize> = FxHashMap::default();
        let mut class_of: FxHashMap<usize, usize> = FxHashMap::default();
        let mut actions: FxHashSet<(ActionId, Vec<(u8, usize)>)> = FxHashSet::default();
        let first: Vec<bool> = cands
            .iter()
            .map(|cand| {
                let args = cand.args.iter().map(|a| match *a {
                    ArgChoice::Bool(b) => (0, b as usize),
                    ArgChoice::Element(v) => (2, v as usize),
                    ArgChoice::Term(t) => (1, {
                        *class_of.entry(t).or_insert_with(|| {
                            let column: Vec<i64> = (0..pairs).map(|p| self.pairs.values[p][t]).collect();
                            let next = classes.len();
                            *classes.entry(column).or_insert(next)
                        })
                    }),
                });
                actions.insert((cand.id, args.collect()))
            })
            .collect();
        let mut goods: Vec<Option<Bits>> =
            first.iter().map(|&f| f.then(|| Bits(vec![0; pairs.div_ceil(64)]))).collect();
        let mut value = ActionValue { action: cands.first().map_or(ActionId(0), |c| c.id), args: vec![] };
        for p in 0..pairs {
            for (good, cand) in goods.iter_mut().zip(cands) {
                if let Some(good) = good {
                    if self.good_on(cand, p, &mut value) {
                        good.set(p);
                    }
                }
            }
        }
        goods
    }

    /// Per `(breadth, count)` wanted, the indices of the `count` actions
    /// that are sound and productive on the coverage sample most broadly by
    /// that breadth (cheapest first among equals, `cands` being cheapest
    /// first; one per set of pairs), most general first.
    pub(super) fn most_general(&self, cands: &[Candidate], wanted: &[(Breadth, usize)]) -> Vec<Vec<usize>> {
        // one action per set of pairs gained on: the cheapest
        let mut seen = FxHashSet::default();
        let mut scored: Vec<Vec<(std::cmp::Reverse<usize>, usize)>> = vec![vec![]; wanted.len()];
        for (i, (c, good)) in cands.iter().zip(self.good_pairs_of_all(cands)).enumerate() {
            // (an action with an earlier one's pairs is skipped as below)
            let Some(good) = good.filter(|good| !good.is_empty() && !seen.contains(good)) else {
                continue;
            };
            for (list, &(breadth, _)) in scored.iter_mut().zip(wanted) {
                list.push((std::cmp::Reverse(self.breadth(c, &good, breadth)), i));
            }
            seen.insert(good);
        }
        scored
            .into_iter()
            .zip(wanted)
            .map(|(mut list, &(_, count))| {
                list.sort_unstable();
                list.into_iter().take(count).map(|(_, i)| i).collect()
            })
            .collect()
    }

    /// Whether the condition is false on every known bad pair.
    pub(super) fn consistent(&self, cand: &Candidate, picks: &[usize]) -> bool {
        self.kept(&self.bad_pairs(cand), picks).is_empty()
    }

    /// How broadly the rule applies on the coverage sample.
    pub(super) fn covered(&self, cand: &Candidate, picks: &[usize], breadth: Breadth) -> usize {
        self.breadth(cand, &self.kept(&self.good_pairs(cand), picks), breadth)
    }

    /// How broadly the action applies on the given good pairs.
    fn breadth(&self, cand: &Candidate, good: &Bits, breadth: Breadth) -> usize {
        if breadth == Breadth::States {
            return good.ones().map(|p| self.pairs.pairs[p].0).collect::<FxHashSet<usize>>().len();
        }
        // per state (its pairs are consecutive), the domain's gain of the
        // actions on its pairs
        let mut total = 0;
        let mut values: Vec<ActionValue> = vec![];
        let mut pairs = good.ones().peekable();
        while let Some(p) = pairs.next() {
            let state = self.pairs.pairs[p].0;
            let mut value = ActionValue { action: cand.id, args: Vec::with_capacity(cand.args.len()) };
            self.action_value_into(cand, p, &mut value);
            values.push(value);
            if pairs.peek().is_none_or(|&q| self.pairs.pairs[q].0 != state) {
                total += self.domain.gain(&self.examples[state].state, &values);
                values.clear();
            }
        }
        total
    }

    /// The cost of the node's pattern declarations.
    pub(super) fn decl_cost(&self) -> u32 {
        self.skeleton.decls.iter().map(|d| crate::dsl::cost::decl_cost(d, self.domain.schema())).sum()
    }

    /// Which good pairs a condition (atom indices) holds on.
    pub(super) fn kept(&self, good: &Bits, picks: &[usize]) -> Bits {
        picks.iter().fold(good.clone(), |acc, &a| acc.and(&self.pairs.holds.column(self.live_index(a))))
    }

    pub(super) fn live_index(&self, atom: usize) -> usize {
        self.live.binary_search(&atom).expect("picked atoms are live")
    }

    /// The live atoms grouped by column for the pairs held now (see
    /// [`Columns`]; the groups split once pairs were added).
    fn columns(&mut self) -> &[(usize, usize)] {
        let n = self.pairs.pairs.len();
        // over no pairs every atom holds on every pair: no groups
        let columns =
            self.columns.get_or_insert_with(|| Columns { groups: Groups::new(self.live.len()), reps: vec![] });
        if columns.groups.pairs() != n {
            let (holds, live, atoms) = (&self.pairs.holds, &self.live, &self.space.atoms);
            let mut reps: Vec<(u32, (usize, usize))> = columns
                .groups
                .refine(holds, n)
                .iter()
                .filter(|group| !holds_on_all(holds, group[0] as usize, n))
                .map(|group| {
                    let k = group.iter().map(|&k| k as usize).min_by_key(|&k| (atoms[live[k]].cost, k));
                    let k = k.expect("groups are not empty");
                    (group[0], (k, live[k]))
                })
                .collect();
            reps.sort_unstable_by_key(|&(first, _)| first);
            columns.reps = reps.into_iter().map(|(_, rep)| rep).collect();
        }
        &columns.reps
    }

    /// The live atoms as choices over the given bad and good pairs,
    /// deduplicated by behaviour (cheapest, then first, kept). The pairs
    /// are disjoint (an action is sound on a good pair, unsound on a bad
    /// one), so an atom's behaviour is the set of those pairs it holds on:
    /// read in the words of pairs that hold some of them only (a few of a
    /// node's words, when it seeks its cheapest condition), and the
    /// choice's two sets are built only for the first group of each
    /// behaviour. Groups of equal columns ([`Columns`]) stand for their
    /// atoms: a behaviour's choice is its cheapest (then first) atom, the
    /// cheapest of its groups' own. Choices costing more than `limit` (an
    /// atom's cost plus that of its `and`) are left out: a covering search
    /// within that budget could never take them, and none of them outdoes
    /// a cheaper one.
    pub(super) fn choices(&mut self, bad: &Bits, good: &Bits, and: u32, limit: u32) -> Choices {
        debug_assert!(bad.and(good).is_empty(), "bad and good pairs are disjoint");
        let relevant = bad.union(good);
        let words: Vec<usize> = (0..relevant.0.len()).filter(|&w| relevant.0[w] != 0).collect();
        let mut seen: FxHashMap<Vec<u64>, usize> = FxHashMap::default();
        let mut list: Vec<Choice> = vec![];
        let mut atom = vec![];
        let (mut behaviour, mut column) = (Vec::with_capacity(words.len()), Bits::new());
        self.columns();
        let reps = &self.columns.as_ref().expect("columns computed").reps;
        for &(k, a) in reps {
            let cost = self.space.atoms[a].cost + and;
            if cost > limit {
                continue;
            }
            behaviour.clear();
            let mut excludes = false;
            for &w in &words {
                let holds = self.pairs.holds.word(w, k);
                excludes |= bad.0.get(w).is_some_and(|b| b & !holds != 0);
                behaviour.push(relevant.0[w] & holds);
            }
            if !excludes {
                continue;
            }
            match seen.get(&behaviour) {
                Some(&i) => {
                    if (cost, a) < (list[i].cost, list[i].key) {
                        list[i].cost = cost;
                        list[i].key = a;
                        atom[i] = a;
                    }
                }
                None => {
                    seen.insert(behaviour.clone(), list.len());
                    self.pairs.holds.column_into(k, &mut column);
                    list.push(Choice { cost, key: a, excludes: bad.minus(&column), keeps: good.and(&column) });
                    atom.push(a);
                }
            }
        }
        Choices { list, atom }
    }

    pub(super) fn condition(&self, picks: &[usize]) -> BoolExpr {
        let mut sorted = picks.to_vec();
        sorted.sort_unstable();
        BoolExpr::and(sorted.iter().map(|&a| self.space.atoms[a].expr.clone()).collect())
    }

    pub(super) fn condition_cost(&self, picks: &[usize]) -> u32 {
        crate::dsl::cost::bool_cost(&self.condition(picks), self.domain.schema())
    }

    pub(super) fn rule(&self, cand: &Candidate, picks: &[usize]) -> Rule {
        let args = cand
            .args
            .iter()
            .map(|a| match a {
                ArgChoice::Bool(b) => ActionArg::Bool(*b),
                ArgChoice::Term(i) => ActionArg::Int(self.space.terms[*i].expr.clone()),
                ArgChoice::Element(v) => ActionArg::Element(*v),
            })
            .collect();
        Rule { condition: self.condition(picks), action: Action { id: cand.id, args }, ..self.skeleton.clone() }
    }
}
