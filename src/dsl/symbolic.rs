//! The symbolic interpreter: one generic compiler from a rule to Z3 terms
//! over a domain's symbolic state ([`SymView`]).
//!
//! A domain encodes an arbitrary state up to its bound as element slots
//! whose features are Z3 terms, plus a symbolic element count per type.
//! Patterns become symbolic element indices (arbitrary: any index below the
//! count; constant(k): index k, present; singleton: count = 1), features of
//! a bound variable become if-then-else chains over the slots, and
//! `maximal`/`minimal`/`is unique where` become conjunctions over slots.
//! Knows nothing of any puzzle.

use super::ast::{ActionArg, BoolExpr, FeatureId, IntExpr, PatternKind, Rule, TypeId, Var};
use z3::ast::{Bool, Int};

/// The symbolic elements of one type: a count and fixed slots.
#[derive(Clone, Debug)]
pub struct SymTable {
    /// How many slots hold elements (0 <= count <= slots.len()).
    pub count: Int,
    /// Per slot, per feature (feature-id order), its value; boolean features
    /// are 0/1.
    pub slots: Vec<Vec<Int>>,
}

/// A symbolic state as the rule language sees it.
#[derive(Clone, Debug)]
pub struct SymView {
    /// Global values in global-id order.
    pub globals: Vec<Int>,
    /// Element tables in type-id order.
    pub tables: Vec<SymTable>,
}

/// Where a variable points during compilation.
#[derive(Clone, Debug)]
enum Slot {
    /// A symbolic index (the pattern variable's).
    Symbolic(Int),
    /// A fixed slot (inside `is unique where`, for the other elements).
    Fixed(usize),
}

/// A rule compiled over a symbolic view.
#[derive(Debug)]
pub struct CompiledRule {
    /// The symbolic index of each pattern variable.
    pub indices: Vec<Int>,
    /// The pattern binds: each index is a valid element index.
    pub binds: Bool,
    /// The condition under the symbolic binding.
    pub condition: Bool,
    /// The action's arguments (booleans as 0/1).
    pub args: Vec<Int>,
}

/// Compiles rules over one symbolic view.
pub struct Compiler<'a> {
    view: &'a SymView,
    size: FeatureId,
}

impl<'a> Compiler<'a> {
    /// A compiler over `view`; `size` is the schema's size feature.
    pub fn new(view: &'a SymView, size: FeatureId) -> Compiler<'a> {
        Compiler { view, size }
    }

    /// Compiles `rule`; `tag` makes its index constants' names distinct.
    pub fn compile(&self, rule: &Rule, tag: &str) -> CompiledRule {
        let indices: Vec<Int> =
            (0..rule.decls.len()).map(|i| Int::new_const(format!("{tag}_ix{i}"))).collect();
        let binds = Bool::and(
            &rule
                .decls
                .iter()
                .zip(&indices)
                .map(|(d, ix)| {
                    let count = &self.view.tables[d.ty.0 as usize].count;
                    match d.kind {
                        PatternKind::Singleton => Bool::and(&[count.eq(1), ix.eq(0)]),
                        PatternKind::Constant(k) => Bool::and(&[ix.eq(k as i64), count.gt(k as i64)]),
                        PatternKind::Arbitrary => Bool::and(&[ix.ge(0), ix.lt(count)]),
                    }
                })
                .collect::<Vec<_>>(),
        );
        let env: Vec<Slot> = indices.iter().map(|i| Slot::Symbolic(i.clone())).collect();
        let types: Vec<TypeId> = rule.decls.iter().map(|d| d.ty).collect();
        let ctx = Ctx { compiler: self, types: &types };
        let condition = ctx.bool(&rule.condition, &env);
        let args = rule
            .action
            .args
            .iter()
            .map(|a| match a {
                ActionArg::Bool(b) => Int::from_i64(*b as i64),
                ActionArg::Int(e) => ctx.int(e, &env),
            })
            .collect();
        CompiledRule { indices, binds, condition, args }
    }
}

struct Ctx<'c, 'a> {
    compiler: &'c Compiler<'a>,
    types: &'c [TypeId],
}

impl Ctx<'_, '_> {
    fn table(&self, v: Var) -> &SymTable {
        &self.compiler.view.tables[self.types[v as usize].0 as usize]
    }

    /// Feature `f` of the element variable `v` points at.
    fn feature(&self, f: FeatureId, v: Var, env: &[Slot]) -> Int {
        let table = self.table(v);
        match &env[v as usize] {
            Slot::Fixed(j) => table.slots[*j][f.0 as usize].clone(),
            Slot::Symbolic(ix) => {
                let n = table.slots.len();
                if n == 0 {
                    return Int::from_i64(0);
                }
                let mut acc = table.slots[n - 1][f.0 as usize].clone();
                for j in (0..n - 1).rev() {
                    acc = ix.eq(j as i64).ite(&table.slots[j][f.0 as usize], &acc);
                }
                acc
            }
        }
    }

    fn int(&self, e: &IntExpr, env: &[Slot]) -> Int {
        match e {
            IntExpr::Lit(k) => Int::from_i64(*k),
            IntExpr::Global(g) => self.compiler.view.globals[g.0 as usize].clone(),
            IntExpr::Feature(f, v) => self.feature(*f, *v, env),
            IntExpr::Add(a, b) => Int::add(&[self.int(a, env), self.int(b, env)]),
            IntExpr::Sub(a, b) => Int::sub(&[self.int(a, env), self.int(b, env)]),
            IntExpr::Mul(k, a) => Int::mul(&[Int::from_i64(*k), self.int(a, env)]),
        }
    }

    fn bool(&self, e: &BoolExpr, env: &[Slot]) -> Bool {
        match e {
            BoolExpr::True => Bool::from_bool(true),
            BoolExpr::Not(b) => self.bool(b, env).not(),
            BoolExpr::And(parts) => Bool::and(&parts.iter().map(|p| self.bool(p, env)).collect::<Vec<_>>()),
            BoolExpr::Cmp(op, a, b) => {
                let (a, b) = (self.int(a, env), self.int(b, env));
                use super::ast::CmpOp::*;
                match op {
                    Eq => a.eq(&b),
                    Ne => a.eq(&b).not(),
                    Ge => a.ge(&b),
                    Gt => a.gt(&b),
                    Le => a.le(&b),
                    Lt => a.lt(&b),
                }
            }
            BoolExpr::Maximal(v) => self.extremal(*v, env, |mine, other| mine.ge(other)),
            BoolExpr::Minimal(v) => self.extremal(*v, env, |mine, other| mine.le(other)),
            BoolExpr::Feature(f, v) => self.feature(*f, *v, env).eq(0).not(),
            BoolExpr::Unique(v, b) => {
                let here = self.bool(b, env);
                let table = self.table(*v);
                let mut parts = vec![here];
                for j in 0..table.slots.len() {
                    let present = table.count.gt(j as i64);
                    let other = match &env[*v as usize] {
                        Slot::Symbolic(ix) => ix.eq(j as i64).not(),
                        Slot::Fixed(i) => Bool::from_bool(*i != j),
                    };
                    let mut env2 = env.to_vec();
                    env2[*v as usize] = Slot::Fixed(j);
                    parts.push(Bool::and(&[present, other]).implies(self.bool(b, &env2).not()));
                }
                Bool::and(&parts)
            }
        }
    }

    fn extremal(&self, v: Var, env: &[Slot], keep: impl Fn(&Int, &Int) -> Bool) -> Bool {
        let size = self.compiler.size;
        let mine = self.feature(size, v, env);
        let table = self.table(v);
        let parts: Vec<Bool> = (0..table.slots.len())
            .map(|j| table.count.gt(j as i64).implies(keep(&mine, &table.slots[j][size.0 as usize])))
            .collect();
        Bool::and(&parts)
    }
}
