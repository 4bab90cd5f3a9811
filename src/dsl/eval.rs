//! The concrete interpreter: every binding of a rule on a state, the
//! condition under it, and the action values it yields.
//!
//! A domain presents a state as a [`View`]: per element type, a table of
//! feature values, plus the globals. The interpreter reads only the view,
//! so it is the same for every domain.

use super::ast::{ActionArg, ActionId, BoolExpr, FeatureId, IntExpr, PatternKind, Rule, TypeId, Var};
use std::collections::HashSet;

/// The elements of one type, with every feature's value (booleans as 0/1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ElementTable {
    features: usize,
    values: Vec<i64>,
}

impl ElementTable {
    /// An empty table whose elements carry `features` feature values.
    pub fn new(features: usize) -> ElementTable {
        ElementTable { features, values: vec![] }
    }

    /// Appends an element given its feature values in feature-id order.
    pub fn push(&mut self, values: &[i64]) {
        debug_assert_eq!(values.len(), self.features);
        self.values.extend_from_slice(values);
    }

    /// Removes every element (keeps the allocation, for reuse).
    pub fn clear(&mut self) {
        self.values.clear();
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.values.len().checked_div(self.features).unwrap_or(0)
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Feature `f` of element `i`.
    pub fn get(&self, i: usize, f: FeatureId) -> i64 {
        self.values[i * self.features + f.0 as usize]
    }
}

/// A state as the rule language sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// Global values, in global-id order.
    pub globals: Vec<i64>,
    /// Element tables, in type-id order.
    pub tables: Vec<ElementTable>,
    /// Per feature id, the pairs of elements (indices in the feature's one
    /// type) on which a boolean feature of two elements holds, sorted; a
    /// feature past the end, or of one element, holds on no pair.
    pub pairs: Vec<Vec<[usize; 2]>>,
}

impl View {
    /// The elements of type `t`.
    pub fn table(&self, t: TypeId) -> &ElementTable {
        &self.tables[t.0 as usize]
    }

    /// Whether the feature of two elements `f` holds on `(a, b)`.
    pub fn pair(&self, f: FeatureId, a: usize, b: usize) -> bool {
        // compared as a tuple: the slice order of `[usize; 2]` is not inlined
        self.pairs.get(f.0 as usize).is_some_and(|p| p.binary_search_by(|e| (e[0], e[1]).cmp(&(a, b))).is_ok())
    }
}

/// An action with its arguments evaluated (booleans as 0/1).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActionValue {
    /// Which action.
    pub action: ActionId,
    /// Argument values.
    pub args: Vec<i64>,
}

/// Most pattern variables and action arguments [`Interpreter::each_action`]
/// handles on the stack.
pub const SMALL: usize = 8;

/// The element bound to each pattern variable, by index in its type's table.
pub type Binding = Vec<usize>;

/// The size feature, needed by `maximal`/`minimal`.
#[derive(Clone, Copy, Debug)]
pub struct Interpreter<'a> {
    view: &'a View,
    rule: &'a Rule,
    size: FeatureId,
}

impl<'a> Interpreter<'a> {
    /// An interpreter of `rule` on `view`; `size` is the schema's size feature.
    pub fn new(rule: &'a Rule, view: &'a View, size: FeatureId) -> Interpreter<'a> {
        Interpreter { view, rule, size }
    }

    /// The candidate elements of each declaration (empty if the pattern
    /// cannot bind).
    fn candidates(&self) -> Vec<std::ops::Range<usize>> {
        self.rule.decls.iter().map(|d| pattern_range(d.kind, self.view.table(d.ty).len())).collect()
    }

    /// Whether the pattern has some binding (every variable has a candidate).
    pub fn binds(&self) -> bool {
        self.rule.decls.iter().all(|d| !pattern_range(d.kind, self.view.table(d.ty).len()).is_empty())
    }

    /// Calls `f` with every binding of the pattern, in lexicographic order.
    pub fn for_each_binding(&self, mut f: impl FnMut(&Binding)) {
        let ranges = self.candidates();
        if ranges.iter().any(|r| r.is_empty()) {
            return;
        }
        let ranges: Vec<(usize, usize)> = ranges.iter().map(|r| (r.start, r.end)).collect();
        let mut binding: Binding = ranges.iter().map(|r| r.0).collect();
        loop {
            f(&binding);
            if !advance(&mut binding, &ranges) {
                return;
            }
        }
    }

    /// The distinct action values of the bindings under which the condition
    /// holds, in the order first reached, each with the first binding that
    /// yields it. Memory grows with the distinct values, not with the
    /// bindings (which a rule with several `arbitrary` patterns has many of).
    pub fn applications(&self) -> Vec<(Binding, ActionValue)> {
        let mut out = vec![];
        let mut seen = HashSet::new();
        self.for_each_binding(|b| {
            if self.eval_bool(&self.rule.condition, b) {
                let action = self.eval_action(b);
                if !seen.contains(&action) {
                    seen.insert(action.clone());
                    out.push((b.clone(), action));
                }
            }
        });
        out
    }

    /// Calls `f` with the action's argument values (booleans as 0/1) of
    /// every binding under which the condition holds, in binding order and
    /// repeats included, allocating nothing (rules of
    /// at most [`SMALL`] variables and arguments; larger ones go through
    /// [`applications`](Self::applications)).
    pub fn each_action(&self, mut f: impl FnMut(&[i64])) {
        let (decls, args) = (&self.rule.decls, &self.rule.action.args);
        if decls.len() > SMALL || args.len() > SMALL {
            self.applications().iter().for_each(|(_, a)| f(&a.args));
            return;
        }
        // per variable, its candidate elements [start, end)
        let mut ranges = [(0usize, 0usize); SMALL];
        for (r, d) in ranges.iter_mut().zip(decls) {
            let range = pattern_range(d.kind, self.view.table(d.ty).len());
            if range.is_empty() {
                return;
            }
            *r = (range.start, range.end);
        }
        let ranges = &ranges[..decls.len()];
        let mut binding = [0usize; SMALL];
        ranges.iter().zip(binding.iter_mut()).for_each(|(r, b)| *b = r.0);
        let binding = &mut binding[..decls.len()];
        let mut values = [0i64; SMALL];
        loop {
            if self.eval_bool(&self.rule.condition, binding) {
                for (v, a) in values.iter_mut().zip(args) {
                    *v = self.eval_arg(a, binding);
                }
                f(&values[..args.len()]);
            }
            if !advance(binding, ranges) {
                return;
            }
        }
    }

    /// The action's value under a binding.
    pub fn eval_action(&self, b: &Binding) -> ActionValue {
        let args = self.rule.action.args.iter().map(|a| self.eval_arg(a, b)).collect();
        ActionValue { action: self.rule.action.id, args }
    }

    /// An action argument under a binding (booleans as 0/1, elements as
    /// their index).
    pub fn eval_arg(&self, a: &ActionArg, b: &[usize]) -> i64 {
        match a {
            ActionArg::Bool(x) => *x as i64,
            ActionArg::Int(e) => self.eval_int(e, b),
            ActionArg::Element(v) => b[*v as usize] as i64,
        }
    }

    fn feature(&self, f: FeatureId, v: Var, b: &[usize]) -> i64 {
        let ty = self.rule.decls[v as usize].ty;
        self.view.table(ty).get(b[v as usize], f)
    }

    /// An integer expression under a binding: exact, as every rule read is
    /// bounded by [`MAX_MAGNITUDE`](super::parse::MAX_MAGNITUDE) (wrapping
    /// only says what a rule built otherwise would get).
    pub fn eval_int(&self, e: &IntExpr, b: &[usize]) -> i64 {
        match e {
            IntExpr::Lit(k) => *k,
            IntExpr::Global(g) => self.view.globals[g.0 as usize],
            IntExpr::Feature(f, v) => self.feature(*f, *v, b),
            IntExpr::Add(x, y) => self.eval_int(x, b).wrapping_add(self.eval_int(y, b)),
            IntExpr::Sub(x, y) => self.eval_int(x, b).wrapping_sub(self.eval_int(y, b)),
            IntExpr::Mul(k, x) => k.wrapping_mul(self.eval_int(x, b)),
        }
    }

    /// How many elements variable `v`'s type has (what `v is unique
    /// where` ranges over).
    pub fn elements(&self, v: Var) -> usize {
        self.view.table(self.rule.decls[v as usize].ty).len()
    }

    /// A condition under a binding.
    pub fn eval_bool(&self, e: &BoolExpr, b: &[usize]) -> bool {
        match e {
            BoolExpr::True => true,
            BoolExpr::Not(x) => !self.eval_bool(x, b),
            BoolExpr::And(parts) => parts.iter().all(|p| self.eval_bool(p, b)),
            BoolExpr::Cmp(op, x, y) => op.holds(self.eval_int(x, b), self.eval_int(y, b)),
            BoolExpr::Maximal(v) => self.extremal(*v, b, |mine, other| mine >= other),
            BoolExpr::Minimal(v) => self.extremal(*v, b, |mine, other| mine <= other),
            BoolExpr::Feature(f, v) => self.feature(*f, *v, b) != 0,
            BoolExpr::Pair(f, v, w) => self.view.pair(*f, b[*v as usize], b[*w as usize]),
            BoolExpr::Unique(v, x) => {
                if !self.eval_bool(x, b) {
                    return false;
                }
                let i = *v as usize;
                let mut other = b.to_vec();
                (0..self.elements(*v)).filter(|&e| e != b[i]).all(|e| {
                    other[i] = e;
                    !self.eval_bool(x, &other)
                })
            }
        }
    }

    fn extremal(&self, v: Var, b: &[usize], keep: impl Fn(i64, i64) -> bool) -> bool {
        let table = self.view.table(self.rule.decls[v as usize].ty);
        let mine = table.get(b[v as usize], self.size);
        (0..table.len()).all(|e| keep(mine, table.get(e, self.size)))
    }
}

/// The elements (indices) a pattern of this kind binds among `n` of its
/// type: empty if it cannot bind.
pub fn pattern_range(kind: PatternKind, n: usize) -> std::ops::Range<usize> {
    match kind {
        PatternKind::Singleton if n == 1 => 0..1,
        PatternKind::Constant(k) if (k as usize) < n => k as usize..k as usize + 1,
        PatternKind::Arbitrary => 0..n,
        _ => 0..0,
    }
}

/// Moves `binding` to the next one in lexicographic order, per variable
/// within its candidates `[start, end)`; false after the last.
pub fn advance(binding: &mut [usize], ranges: &[(usize, usize)]) -> bool {
    for i in (0..binding.len()).rev() {
        binding[i] += 1;
        if binding[i] < ranges[i].1 {
            return true;
        }
        binding[i] = ranges[i].0;
    }
    false
}
