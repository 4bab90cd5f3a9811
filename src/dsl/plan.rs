//! Rules compiled for evaluating a large rule set on many states: the
//! same actions, in the same order, as [`Interpreter::each_action`] per
//! rule, found with less work. Two savings, both exact:
//!
//! - Each conjunct of a condition is checked as soon as the pattern
//!   variables it reads are bound (variables bind in declaration order),
//!   so a failing conjunct on the first variable skips every binding of
//!   the others. Evaluation has no side effects, so the order in which
//!   conjuncts are checked does not change which bindings pass.
//! - Rules that differ only in their names and pattern kinds (the pattern
//!   lattice's specialisations of one rule) form a group, evaluated once
//!   on the bindings of the union of their members' candidates: a member's
//!   bindings are a sub-box of that, visited in the same (lexicographic)
//!   order, and the condition and action do not read pattern kinds.
//!
//! - A variable that an unnegated conjunct `f(v, w)` (a boolean feature
//!   of two elements, `v` bound before `w`) ties to an earlier one runs
//!   over the elements paired with `v`'s in the view only (in increasing
//!   order, so still lexicographically): the others fail the conjunct.
//!
//! Integer expressions are compiled to linear forms (a constant plus
//! multiples of features and globals): with wrapping arithmetic, integers
//! modulo 2^64 form a ring, so the linear form's value is the tree's, and
//! it is exact because every rule read is bounded by
//! [`MAX_MAGNITUDE`](super::parse::MAX_MAGNITUDE) (the linear form's
//! coefficients and partial sums stay below the tree's magnitude).

use super::ast::{ActionArg, BoolExpr, CmpOp, FeatureId, GlobalId, IntExpr, PatternKind, Rule, TypeId, Var};
use super::eval::{Interpreter, View, SMALL};
use rustc_hash::FxHashMap;

/// A value a linear form reads.
#[derive(Clone, Copy)]
enum Term {
    /// A feature of the element bound to a variable of a type.
    Feature(TypeId, FeatureId, Var),
    /// A global.
    Global(GlobalId),
    /// The index of the element bound to a variable.
    Element(Var),
}

/// `c + sum(k * term)`, wrapping.
#[derive(Clone, Default)]
struct Linear {
    c: i64,
    terms: Vec<(i64, Term)>,
}

impl Linear {
    /// The linear form of `e`; `decls` gives each variable's type.
    fn of(e: &IntExpr, types: &[TypeId]) -> Linear {
        match e {
            IntExpr::Lit(k) => Linear { c: *k, terms: vec![] },
            IntExpr::Global(g) => Linear { c: 0, terms: vec![(1, Term::Global(*g))] },
            IntExpr::Feature(f, v) => Linear { c: 0, terms: vec![(1, Term::Feature(types[*v as usize], *f, *v))] },
            IntExpr::Add(x, y) => Linear::of(x, types).plus(Linear::of(y, types), 1),
            IntExpr::Sub(x, y) => Linear::of(x, types).plus(Linear::of(y, types), -1),
            IntExpr::Mul(k, x) => Linear::default().plus(Linear::of(x, types), *k),
        }
    }

    /// `self + k * other`.
    fn plus(mut self, other: Linear, k: i64) -> Linear {
        self.c = self.c.wrapping_add(k.wrapping_mul(other.c));
        self.terms.extend(other.terms.into_iter().map(|(m, t)| (k.wrapping_mul(m), t)));
        self
    }

    /// The value under binding `b`.
    fn eval(&self, view: &View, b: &[usize]) -> i64 {
        self.terms.iter().fold(self.c, |acc, &(k, t)| {
            let x = match t {
                Term::Feature(ty, f, v) => view.table(ty).get(b[v as usize], f),
                Term::Global(g) => view.globals[g.0 as usize],
                Term::Element(v) => b[v as usize] as i64,
            };
            acc.wrapping_add(k.wrapping_mul(x))
        })
    }
}

/// A conjunct compiled: a comparison of linear forms (negated or not),
/// or any other condition, evaluated by the interpreter.
enum Conjunct {
    Cmp(bool, CmpOp, Linear, Linear),
    Other(BoolExpr),
}

impl Conjunct {
    fn of(e: BoolExpr, types: &[TypeId]) -> Conjunct {
        match e {
            BoolExpr::Cmp(op, x, y) => Conjunct::Cmp(true, op, Linear::of(&x, types), Linear::of(&y, types)),
            BoolExpr::Not(inner) => match *inner {
                BoolExpr::Cmp(op, x, y) => Conjunct::Cmp(false, op, Linear::of(&x, types), Linear::of(&y, types)),
                other => Conjunct::Other(BoolExpr::Not(Box::new(other))),
            },
            other => Conjunct::Other(other),
        }
    }

    fn holds(&self, interp: &Interpreter, view: &View, b: &[usize]) -> bool {
        match self {
            Conjunct::Cmp(yes, op, x, y) => op.holds(x.eval(view, b), y.eval(view, b)) == *yes,
            Conjunct::Other(e) => interp.eval_bool(e, b),
        }
    }
}

/// The elements a variable runs over, in increasing order.
#[derive(Clone, Copy)]
enum Candidates<'v> {
    /// `[start, end)`.
    Range(usize, usize),
    /// The second elements of these pairs (of a feature of two elements,
    /// all with one first element).
    Paired(&'v [[usize; 2]]),
}

impl<'v> Candidates<'v> {
    /// The candidates of a variable with `anchor` (see [`Group::anchors`])
    /// within `bounds`, the earlier variables bound as in `b`.
    fn of(view: &'v View, anchor: Option<(FeatureId, Var)>, b: &[usize], bounds: (usize, usize)) -> Candidates<'v> {
        match anchor {
            None => Candidates::Range(bounds.0, bounds.1),
            Some((f, v)) => {
                let all = view.pairs.get(f.0 as usize).map_or(&[][..], |p| &p[..]);
                let first = b[v as usize];
                let (lo, hi) = (all.partition_point(|e| e[0] < first), all.partition_point(|e| e[0] <= first));
                Candidates::Paired(&all[lo..hi])
            }
        }
    }

    /// The `i`-th candidate, if there is one.
    fn get(self, i: usize) -> Option<usize> {
        match self {
            Candidates::Range(start, end) => Some(start + i).filter(|&x| x < end),
            Candidates::Paired(pairs) => pairs.get(i).map(|e| e[1]),
        }
    }
}

/// Rules of one group: same declared types, condition and action.
struct Group {
    /// The first member, whose condition and action every member shares.
    first: usize,
    /// Every member (indices into the rule list, increasing) with its
    /// pattern kinds.
    members: Vec<(u32, Vec<PatternKind>)>,
    /// `levels[0]`: conjuncts reading no variable; `levels[k + 1]`:
    /// conjuncts whose last variable read is `k`.
    levels: Vec<Vec<Conjunct>>,
    /// Per variable, a feature of two elements and an earlier variable
    /// such that the condition requires `feature(earlier, variable)`.
    anchors: Vec<Option<(FeatureId, Var)>>,
    /// The action's arguments.
    args: Vec<Linear>,
}

/// A rule list compiled for repeated evaluation.
pub struct Plans<'a> {
    rules: &'a [Rule],
    groups: Vec<Group>,
    /// Per rule, its group.
    group_of: Vec<u32>,
    size: FeatureId,
}

/// Candidate elements `[start, end)` of a pattern on a table of `n`
/// elements, or `None` if it cannot bind (as [`Interpreter`]).
fn range(kind: PatternKind, n: usize) -> Option<(usize, usize)> {
    match kind {
        PatternKind::Singleton if n == 1 => Some((0, 1)),
        PatternKind::Constant(k) if (k as usize) < n => Some((k as usize, k as usize + 1)),
        PatternKind::Arbitrary if n > 0 => Some((0, n)),
        _ => None,
    }
}

/// The last (highest) variable `e` reads, if any.
fn last_var_int(e: &IntExpr) -> Option<Var> {
    match e {
        IntExpr::Lit(_) | IntExpr::Global(_) => None,
        IntExpr::Feature(_, v) => Some(*v),
        IntExpr::Add(x, y) | IntExpr::Sub(x, y) => last_var_int(x).max(last_var_int(y)),
        IntExpr::Mul(_, x) => last_var_int(x),
    }
}

/// The last (highest) variable `e` reads, if any.
fn last_var(e: &BoolExpr) -> Option<Var> {
    match e {
        BoolExpr::True => None,
        BoolExpr::Not(x) => last_var(x),
        BoolExpr::And(parts) => parts.iter().filter_map(last_var).max(),
        BoolExpr::Cmp(_, x, y) => last_var_int(x).max(last_var_int(y)),
        BoolExpr::Maximal(v) | BoolExpr::Minimal(v) | BoolExpr::Feature(_, v) => Some(*v),
        BoolExpr::Pair(_, v, w) => Some(*v.max(w)),
        BoolExpr::Unique(v, x) => Some(*v).max(last_var(x)),
    }
}

/// The conjuncts of `e`, nested conjunctions flattened.
fn conjuncts(e: &BoolExpr, out: &mut Vec<BoolExpr>) {
    match e {
        BoolExpr::And(parts) => parts.iter().for_each(|p| conjuncts(p, out)),
        BoolExpr::True => {}
        other => out.push(other.clone()),
    }
}

impl<'a> Plans<'a> {
    /// Compiles `rules`; `size` is the schema's size feature.
    pub fn new(rules: &'a [Rule], size: FeatureId) -> Plans<'a> {
        let mut groups: Vec<Group> = vec![];
        let mut group_of = vec![];
        let mut by_key: FxHashMap<(Vec<TypeId>, &BoolExpr, &super::ast::Action), usize> = FxHashMap::default();
        for (i, rule) in rules.iter().enumerate() {
            let kinds: Vec<PatternKind> = rule.decls.iter().map(|d| d.kind).collect();
            let small = rule.decls.len() <= SMALL && rule.action.args.len() <= SMALL;
            let key = (rule.decls.iter().map(|d| d.ty).collect(), &rule.condition, &rule.action);
            if let Some(&g) = by_key.get(&key).filter(|_| small) {
                groups[g].members.push((i as u32, kinds));
                group_of.push(g as u32);
                continue;
            }
            group_of.push(groups.len() as u32);
            let mut parts = vec![];
            conjuncts(&rule.condition, &mut parts);
            let types: Vec<TypeId> = rule.decls.iter().map(|d| d.ty).collect();
            let mut levels: Vec<Vec<Conjunct>> = (0..=rule.decls.len()).map(|_| vec![]).collect();
            let mut anchors = vec![None; rule.decls.len()];
            for p in parts {
                if let BoolExpr::Pair(f, v, w) = p {
                    if v < w && anchors[w as usize].is_none() {
                        anchors[w as usize] = Some((f, v));
                    }
                }
                levels[last_var(&p).map_or(0, |v| v as usize + 1)].push(Conjunct::of(p, &types));
            }
            let args = rule
                .action
                .args
                .iter()
                .map(|a| match a {
                    ActionArg::Bool(x) => Linear { c: *x as i64, terms: vec![] },
                    ActionArg::Int(e) => Linear::of(e, &types),
                    ActionArg::Element(v) => Linear { c: 0, terms: vec![(1, Term::Element(*v))] },
                })
                .collect();
            if small {
                by_key.insert(key, groups.len());
            }
            groups.push(Group { first: i, members: vec![(i as u32, kinds)], levels, anchors, args });
        }
        Plans { rules, groups, group_of, size }
    }

    /// Calls `f(rule, args)` with the action arguments of every binding of
    /// every rule (or of the rules of `only`, sorted) under which its
    /// condition holds: per rule in binding order, repeats included, as
    /// [`Interpreter::each_action`]; rules of one group interleave.
    pub fn each_action(&self, view: &View, only: Option<&[u32]>, mut f: impl FnMut(u32, &[i64])) {
        let wanted = |i: u32| only.is_none_or(|list| list.binary_search(&i).is_ok());
        let mut only_groups: Vec<u32> = only.unwrap_or(&[]).iter().map(|&i| self.group_of[i as usize]).collect();
        only_groups.sort_unstable();
        only_groups.dedup();
        let groups: Box<dyn Iterator<Item = &Group>> = match only {
            None => Box::new(self.groups.iter()),
            Some(_) => Box::new(only_groups.iter().map(|&g| &self.groups[g as usize])),
        };
        // the active members of a group and their candidates, `d` per member
        let (mut ids, mut ranges): (Vec<u32>, Vec<(usize, usize)>) = (vec![], vec![]);
        for group in groups {
            let rule = &self.rules[group.first];
            let decls = &rule.decls;
            if decls.len() > SMALL || rule.action.args.len() > SMALL {
                let i = group.first as u32;
                if wanted(i) {
                    Interpreter::new(rule, view, self.size).each_action(|args| f(i, args));
                }
                continue;
            }
            let d = decls.len();
            let mut sizes = [0usize; SMALL];
            sizes.iter_mut().zip(decls).for_each(|(n, decl)| *n = view.table(decl.ty).len());
            ids.clear();
            ranges.clear();
            let mut bounds = [(usize::MAX, 0usize); SMALL];
            'member: for (i, kinds) in group.members.iter().filter(|(i, _)| wanted(*i)) {
                let mut own = [(0usize, 0usize); SMALL];
                for ((r, k), &n) in own.iter_mut().zip(kinds).zip(&sizes) {
                    match range(*k, n) {
                        Some(x) => *r = x,
                        None => continue 'member,
                    }
                }
                for (b, r) in bounds.iter_mut().zip(&own[..d]) {
                    *b = (b.0.min(r.0), b.1.max(r.1));
                }
                ids.push(*i);
                ranges.extend_from_slice(&own[..d]);
            }
            if ids.is_empty() {
                continue;
            }
            let interp = Interpreter::new(rule, view, self.size);
            let mut values = [0i64; SMALL];
            let mut leaf = |b: &[usize]| {
                for (v, a) in values.iter_mut().zip(&group.args) {
                    *v = a.eval(view, b);
                }
                if let [i] = ids[..] {
                    f(i, &values[..group.args.len()]);
                    return;
                }
                for (m, &i) in ids.iter().enumerate() {
                    if ranges[m * d..(m + 1) * d].iter().zip(b).all(|(r, &x)| r.0 <= x && x < r.1) {
                        f(i, &values[..group.args.len()]);
                    }
                }
            };
            let holds = |level: usize, b: &[usize]| group.levels[level].iter().all(|c| c.holds(&interp, view, b));
            let mut b = [0usize; SMALL];
            if !holds(0, &b) {
                continue;
            }
            if d == 0 {
                leaf(&b[..0]);
                continue;
            }
            let b = &mut b[..d];
            // per variable, its candidates and the position reached in them
            let mut cands = [Candidates::Range(0, 0); SMALL];
            let mut pos = [0usize; SMALL];
            let mut k = 0;
            cands[0] = Candidates::of(view, group.anchors[0], b, bounds[0]);
            loop {
                match cands[k].get(pos[k]) {
                    None if k == 0 => break,
                    None => {
                        k -= 1;
                        pos[k] += 1;
                    }
                    Some(x) => {
                        b[k] = x;
                        if x < bounds[k].0 || x >= bounds[k].1 || !holds(k + 1, b) {
                            pos[k] += 1;
                        } else if k + 1 == d {
                            leaf(b);
                            pos[k] += 1;
                        } else {
                            k += 1;
                            pos[k] = 0;
                            cands[k] = Candidates::of(view, group.anchors[k], b, bounds[k]);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::{hints_of, Cell, Line};
    use crate::domains::nonogram::synthesis::domain::Nonogram;
    use crate::domains::Domain;
    use crate::dsl::parse::parse_rules;
    use rand::{Rng, SeedableRng};

    /// Every rule's actions on random lines equal the interpreter's, per
    /// rule in the same order, for the bundled rules and their pattern
    /// specialisations (which form groups).
    #[test]
    fn plans_act_as_the_interpreter() {
        let domain = Nonogram::new();
        let root = env!("CARGO_MANIFEST_DIR");
        let mut rules = vec![];
        for file in ["control", "learned"] {
            let path = format!("{root}/rules/nonogram/{file}.rules");
            rules.extend(parse_rules(&std::fs::read_to_string(&path).unwrap(), &path, domain.schema()).unwrap());
        }
        let kinds = [PatternKind::Constant(0), PatternKind::Constant(2), PatternKind::Singleton];
        let mut all = rules.clone();
        for rule in &rules {
            for (d, k) in (0..rule.decls.len()).flat_map(|d| kinds.iter().map(move |k| (d, *k))) {
                let mut r = rule.clone();
                r.decls[d].kind = k;
                all.push(r);
            }
        }
        let plans = Plans::new(&all, domain.schema().size_feature);
        assert!(plans.groups.len() < all.len() / 2);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut fired = 0;
        for _ in 0..300 {
            let len = rng.gen_range(1..16);
            let solution: Vec<bool> = (0..len).map(|_| rng.gen_bool(0.55)).collect();
            let cells =
                solution.iter().map(|&v| if rng.gen_bool(0.4) { Cell::from_bool(v) } else { Cell::Unknown }).collect();
            let view = domain.line_view(&Line::new(hints_of(&solution), cells));
            let mut want: Vec<Vec<Vec<i64>>> = vec![vec![]; all.len()];
            for (i, rule) in all.iter().enumerate() {
                Interpreter::new(rule, &view, domain.schema().size_feature).each_action(|a| want[i].push(a.to_vec()));
            }
            let mut got: Vec<Vec<Vec<i64>>> = vec![vec![]; all.len()];
            plans.each_action(&view, None, |i, a| got[i as usize].push(a.to_vec()));
            assert_eq!(got, want);
            let mut some: Vec<Vec<Vec<i64>>> = vec![vec![]; all.len()];
            let only: Vec<u32> = (0..all.len() as u32).filter(|i| i % 3 == 1).collect();
            plans.each_action(&view, Some(&only), |i, a| some[i as usize].push(a.to_vec()));
            let filtered: Vec<Vec<Vec<i64>>> =
                want.iter().enumerate().map(|(i, w)| if i % 3 == 1 { w.clone() } else { vec![] }).collect();
            assert_eq!(some, filtered);
            fired += want.iter().filter(|w| !w.is_empty()).count();
        }
        assert!(fired > 1000, "{fired}");
    }
}
