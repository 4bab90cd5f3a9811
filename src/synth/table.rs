//! The exhaustive table seen pair by pair for one list of variable types:
//! every (table state, tuple of its elements) pair, with the values of the
//! space's terms and the truth of its atoms on each, computed on first use
//! as columns shared by every node, specification and thread of a run. A
//! candidate made of those terms and atoms (what a lattice node proposes)
//! is then checked on the table by intersecting bit sets and looking up its
//! action's values, instead of interpreting the rule state by state
//! ([`TableCheck::failures`] does that for any
//! rule). The space of a list of variable types ([`Space`]: its terms
//! and atoms) carries those pairs. A pattern only narrows the elements a variable ranges over, so a
//! node's bindings are a subset of these pairs (its mask). Columns are
//! computed per block of table states, as the check reaches them: a check
//! that finds failures early computes only the first blocks.

use super::bits::Bits;
use super::domain::{Domain, Example};
use super::space::{ArgChoice, Atom, Candidate, Term, TermPlan};
use crate::dsl::ast::{Action, ActionId, BoolExpr, Decl, PatternKind, Rule, TypeId};
use crate::dsl::eval::{advance, pattern_range, ActionValue, Interpreter};
use crate::dsl::schema::Schema;
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};

/// Terms and atoms over one list of variable types, and the table's pairs
/// over those types (`None` if too many: see [`TableFacts`]).
pub(super) struct Space {
    pub(super) terms: Vec<Term>,
    pub(super) plan: TermPlan,
    pub(super) atoms: Vec<Atom>,
    pub(super) table: Option<TableFacts>,
}

impl Space {
    /// The value of every term under `binding` (in one pass: [`TermPlan`]).
    pub(super) fn term_values(&self, interp: &Interpreter<'_>, binding: &[usize]) -> Vec<i64> {
        self.plan.values(&self.terms, interp, binding)
    }
}

/// The exhaustive table as a candidate check sees it: its states, the
/// domain judging actions on them, and which failures one check reports
/// (the first `most` of the first chunk of `chunk` states that has any).
pub(super) struct TableCheck<'a, D: Domain> {
    pub(super) domain: &'a D,
    pub(super) states: &'a [Arc<Example<D::State>>],
    pub(super) chunk: usize,
    pub(super) most: usize,
}

impl<D: Domain> TableCheck<'_, D> {
    /// The table states (indices, ascending) in `scope` on which `rule` is
    /// wrong, by interpreting it: the first few, found chunk by chunk in
    /// parallel.
    pub(super) fn failures(&self, rule: &Rule, scope: &[usize]) -> Vec<usize> {
        let size = self.domain.schema().size_feature;
        // the action values go through one buffer per state
        let wrong = |&i: &usize| {
            let ex = &self.states[i];
            let mut action = ActionValue { action: rule.action.id, args: Vec::with_capacity(rule.action.args.len()) };
            let mut wrong = false;
            Interpreter::new(rule, &ex.view, size).each_action(|args| {
                if !wrong {
                    action.args.clear();
                    action.args.extend_from_slice(args);
                    wrong = !self.domain.is_sound(&ex.state, &action);
                }
            });
            wrong
        };
        for chunk in scope.chunks(self.chunk) {
            let mut found: Vec<usize> = chunk.par_iter().filter(|i| wrong(i)).copied().collect();
            if !found.is_empty() {
                found.truncate(self.most);
                return found;
            }
        }
        vec![]
    }
}

/// A candidate's argument on a block's pairs: a term's column, a
/// literal, or the element a variable binds.
enum Arg {
    Column(Arc<[i64]>),
    Fixed(i64),
    Element(usize),
}

/// Most pairs a table view is built for (beyond it, candidates are
/// checked by the interpreter): bounds a column to 32 MiB.
const MAX_PAIRS: usize = 1 << 22;

/// Table states per block of the columns.
const BLOCK: usize = 4096;

/// The table's pairs for one list of variable types and the column blocks
/// computed so far.
pub(super) struct TableFacts {
    /// The first pair of each table state; its tuples follow in
    /// lexicographic order (the last variable fastest), as the interpreter
    /// binds them. Each block's first pair is a multiple of 64, so a
    /// block's bits are whole words of the node masks.
    starts: Vec<usize>,
    /// Per state, the element count of each variable's type (`types.len()`
    /// entries per state).
    counts: Vec<usize>,
    /// Every variable `arbitrary` over its type: the evaluation context of
    /// the columns.
    skeleton: Rule,
    /// (term, block): the term's value on each pair of the block.
    terms: Columns<i64>,
    /// (atom, block): the block's pairs the atom holds on, as words.
    atoms: Columns<u64>,
}

/// Column blocks by (term or atom index, block), computed so far.
type Columns<T> = Mutex<FxHashMap<(usize, usize), Arc<[T]>>>;

impl TableFacts {
    /// The pairs of `table` over variables of `types`, or `None` if there
    /// are more than [`MAX_PAIRS`].
    pub(super) fn new<S>(table: &[Arc<Example<S>>], types: &[TypeId]) -> Option<TableFacts> {
        let mut starts = Vec::with_capacity(table.len() + 1);
        let mut counts = Vec::with_capacity(table.len() * types.len());
        let mut next = 0usize;
        for (i, ex) in table.iter().enumerate() {
            if i % BLOCK == 0 {
                next = next.next_multiple_of(64);
            }
            starts.push(next);
            let before = counts.len();
            counts.extend(types.iter().map(|&t| ex.view.table(t).len()));
            next += counts[before..].iter().product::<usize>();
            if next > MAX_PAIRS {
                return None;
            }
        }
        starts.push(next);
        let decls = types
            .iter()
            .enumerate()
            .map(|(v, &ty)| Decl { name: format!("v{v}"), ty, kind: PatternKind::Arbitrary })
            .collect();
        let skeleton = Rule {
            name: String::new(),
            description: vec![],
            decls,
            condition: BoolExpr::True,
            action: Action { id: ActionId(0), args: vec![] },
        };
        Some(TableFacts { starts, counts, skeleton, terms: Mutex::default(), atoms: Mutex::default() })
    }

    /// The states of block `b`.
    fn states(&self, b: usize) -> std::ops::Range<usize> {
        let n = self.starts.len() - 1;
        (b * BLOCK).min(n)..((b + 1) * BLOCK).min(n)
    }

    /// The pairs of block `b`: `[first, end)`, `first` a multiple of 64.
    fn pairs(&self, b: usize) -> (usize, usize) {
        let states = self.states(b);
        let types = self.skeleton.decls.len();
        let last = states.end - 1;
        (
            self.starts[states.start],
            self.starts[last] + self.counts[last * types..(last + 1) * types].iter().product::<usize>(),
        )
    }

    /// Per state of block `b`, `eval` on each of its pairs, concatenated.
    fn evaluate<S: Sync + Send, T: Send>(
        &self,
        b: usize,
        table: &[Arc<Example<S>>],
        schema: &Schema,
        eval: impl Fn(&Interpreter<'_>, &[usize]) -> T + Sync,
    ) -> Vec<T> {
        table[self.states(b)]
            .par_iter()
            .map(|ex| {
                let interp = Interpreter::new(&self.skeleton, &ex.view, schema.size_feature);
                let mut out = vec![];
                interp.for_each_binding(|binding| out.push(eval(&interp, binding)));
                out
            })
            .collect::<Vec<_>>()
            .into_iter()
            .flatten()
            .collect()
    }

    /// The value of term `t` of `space` on every pair of block `b`.
    fn term<S: Sync + Send>(
        &self,
        (t, b): (usize, usize),
        space: &Space,
        table: &[Arc<Example<S>>],
        schema: &Schema,
    ) -> Arc<[i64]> {
        if let Some(column) = self.terms.lock().expect("term columns").get(&(t, b)) {
            return column.clone();
        }
        let expr = &space.terms[t].expr;
        let column: Arc<[i64]> =
            self.evaluate(b, table, schema, |interp, binding| interp.eval_int(expr, binding)).into();
        self.terms.lock().expect("term columns").entry((t, b)).or_insert(column).clone()
    }

    /// The pairs of block `b` atom `a` of `space` holds on.
    fn atom<S: Sync + Send>(
        &self,
        (a, b): (usize, usize),
        space: &Space,
        table: &[Arc<Example<S>>],
        schema: &Schema,
    ) -> Arc<[u64]> {
        if let Some(column) = self.atoms.lock().expect("atom columns").get(&(a, b)) {
            return column.clone();
        }
        let atom = &space.atoms[a];
        let truth: Vec<bool> = match atom.cmp {
            Some((op, l, r)) => {
                let (l, r) = (self.term((l, b), space, table, schema), self.term((r, b), space, table, schema));
                l.iter().zip(r.iter()).map(|(&x, &y)| op.holds(x, y)).collect()
            }
            None => self.evaluate(b, table, schema, |interp, binding| interp.eval_bool(&atom.expr, binding)),
        };
        let words: Arc<[u64]> =
            truth.chunks(64).map(|bits| bits.iter().enumerate().fold(0, |w, (i, &t)| w | (t as u64) << i)).collect();
        self.atoms.lock().expect("atom columns").entry((a, b)).or_insert(words).clone()
    }

    /// The element variable `v` binds on pair `p` of state `s` (tuples in
    /// lexicographic order, the last variable fastest).
    fn element(&self, s: usize, p: usize, v: usize) -> usize {
        let vars = self.skeleton.decls.len();
        let counts = &self.counts[s * vars..(s + 1) * vars];
        let later: usize = counts[v + 1..].iter().product();
        (p - self.starts[s]) / later % counts[v]
    }

    /// The pairs of the states in `scope` that `decls` (patterns over this
    /// view's types) bind.
    pub(super) fn mask(&self, decls: &[Decl], scope: &[usize]) -> Bits {
        let vars = decls.len();
        let mut mask = Bits(vec![0; self.starts[self.starts.len() - 1].div_ceil(64)]);
        let mut ranges = vec![(0usize, 0usize); vars];
        let mut tuple = vec![0usize; vars];
        for &s in scope {
            let counts = &self.counts[s * vars..(s + 1) * vars];
            for ((r, d), &n) in ranges.iter_mut().zip(decls).zip(counts) {
                let range = pattern_range(d.kind, n);
                *r = (range.start, range.end);
            }
            if ranges.iter().any(|r| r.0 >= r.1) {
                continue;
            }
            tuple.iter_mut().zip(&ranges).for_each(|(x, r)| *x = r.0);
            loop {
                let index = tuple.iter().zip(counts).fold(0, |i, (&x, &n)| i * n + x);
                mask.set(self.starts[s] + index);
                if !advance(&mut tuple, &ranges) {
                    break;
                }
            }
        }
        mask
    }

    /// The table states (indices, ascending) on which the candidate of
    /// `space` is wrong with the condition made of atoms `picks`, on the
    /// pairs of `mask` (a node's, over the states of `scope`): the first
    /// few of the first chunk of `scope` that has any, as
    /// [`TableCheck::failures`] finds them. Goes block by block and stops
    /// as soon as they are known.
    pub(super) fn failures<D: Domain>(
        &self,
        check: &TableCheck<'_, D>,
        space: &Space,
        (mask, scope): (&Bits, &[usize]),
        cand: &Candidate,
        picks: &[usize],
    ) -> Vec<usize> {
        let (table, domain) = (check.states, check.domain);
        let (chunk, most) = (check.chunk, check.most);
        let schema = domain.schema();
        let mut action = ActionValue { action: cand.id, args: Vec::with_capacity(cand.args.len()) };
        let mut found: Vec<usize> = vec![];
        // the first failing chunk and its last state
        let mut failing: Option<(usize, usize)> = None;
        let Some(&first) = scope.first() else { return found };
        for b in first / BLOCK..(self.starts.len() - 1).div_ceil(BLOCK) {
            if failing.is_some_and(|(_, last)| last < self.states(b).start) {
                break;
            }
            let (start, end) = self.pairs(b);
            let Some(words) = mask.0.get(start / 64..end.div_ceil(64)) else { break };
            if words.iter().all(|&w| w == 0) {
                continue;
            }
            let mut holds = words.to_vec();
            for &a in picks {
                let column = self.atom((a, b), space, table, schema);
                holds.iter_mut().zip(column.iter()).for_each(|(w, c)| *w &= c);
            }
            let args: Vec<Arg> = cand
                .args
                .iter()
                .map(|a| match *a {
                    ArgChoice::Bool(value) => Arg::Fixed(value as i64),
                    ArgChoice::Term(t) => Arg::Column(self.term((t, b), space, table, schema)),
                    ArgChoice::Element(v) => Arg::Element(v as usize),
                })
                .collect();
            for p in Bits(holds).ones().map(|p| start + p) {
                let s = self.starts.partition_point(|&o| o <= p) - 1;
                if found.last() == Some(&s) {
                    continue;
                }
                action.args.clear();
                action.args.extend(args.iter().map(|a| match a {
                    Arg::Column(column) => column[p - start],
                    Arg::Fixed(value) => *value,
                    Arg::Element(v) => self.element(s, p, *v) as i64,
                }));
                if domain.is_sound(&table[s].state, &action) {
                    continue;
                }
                let at = scope.binary_search(&s).expect("masked pairs are in scope") / chunk;
                let (c, _) = *failing.get_or_insert_with(|| (at, scope[((at + 1) * chunk).min(scope.len()) - 1]));
                if c != at {
                    return found;
                }
                found.push(s);
                if found.len() == most {
                    return found;
                }
            }
        }
        found
    }
}
