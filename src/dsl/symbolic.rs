//! The symbolic interpreter: one generic compiler from a rule to Z3 terms
//! over a domain's symbolic state ([`SymView`]).
//!
//! A domain encodes an arbitrary state up to its bound as element slots
//! whose features are Z3 terms, plus a symbolic element count per type.
//! In a dense table the elements fill the first `count` slots in order; in
//! a sparse one ([`Sparse`]) each slot says whether it holds an element and
//! its rank among them (so a domain can give each possible element its own
//! slot instead of mapping the k-th element to slot k). Patterns become
//! symbolic slot indices (arbitrary: any slot holding an element;
//! constant(k): the slot holding the element of rank k; singleton: count =
//! 1 and a slot holding an element), features of
//! a bound variable become if-then-else chains over the slots, and
//! `maximal`/`minimal`/`is unique where` become conjunctions over slots.
//! Knows nothing of any puzzle.
//!
//! Values have the sort [`Num`]: Z3 integers by default, or fixed-width
//! signed bit-vectors (feature `bv-arith`). With bit-vectors, exactness
//! never rests on wrap-around: the domain states a bound on every value the
//! rule can observe ([`SymView::magnitude`]), the compiler computes the
//! exact interval of every integer subexpression of the rule from it and
//! evaluates the rule at a width (at least the view's) in which none of
//! them can overflow, sign-extending view terms to that width. A rule that
//! would need more than [`MAX_WIDTH`] bits is refused (with integers the
//! same check runs, so both sorts accept the same rules).

use super::ast::{ActionArg, BoolExpr, FeatureId, IntExpr, PatternKind, Rule, TypeId, Var};
use z3::ast::{Bool, Int, BV};

/// The widest bit-vector a rule is evaluated at.
pub const MAX_WIDTH: u32 = 64;

/// The elements of one type: a count and fixed slots.
#[derive(Clone, Debug)]
pub struct SymTable {
    /// How many slots hold elements (0 <= count <= slots.len()).
    pub count: Num,
    /// Per slot, per feature (feature-id order), its value; boolean features
    /// are 0/1.
    pub slots: Vec<Vec<Num>>,
    /// `None`: the elements are the first `count` slots, in order (dense).
    pub sparse: Option<Sparse>,
}

/// Which slots of a sparse table hold elements, in slot order.
#[derive(Clone, Debug)]
pub struct Sparse {
    /// Per slot: whether it holds an element (`count` of them do).
    pub present: Vec<Bool>,
    /// Per slot: how many of the slots before it hold elements (the
    /// element's index when the slot holds one).
    pub rank: Vec<Num>,
}

impl SymTable {
    /// Whether slot `j` holds an element.
    fn present(&self, j: usize, vw: u32) -> Bool {
        match &self.sparse {
            None => self.count.sgt(&num(j as i64, vw)),
            Some(s) => s.present[j].clone(),
        }
    }

    /// `ix` points at a slot holding an element of index `k` (any index if
    /// `None`).
    fn holds(&self, ix: &Num, k: Option<u32>, vw: u32) -> Bool {
        let n = self.slots.len() as i64;
        match (&self.sparse, k) {
            (None, None) => Bool::and(&[ix.sge(&num(0, vw)), ix.slt(&self.count)]),
            (None, Some(k)) if (k as i64) < n => {
                Bool::and(&[ix.same(&num(k as i64, vw)), self.count.sgt(&num(k as i64, vw))])
            }
            (None, Some(_)) => Bool::from_bool(false),
            (Some(s), k) => Bool::or(
                &(0..self.slots.len())
                    .filter(|&j| k.is_none_or(|k| k as usize <= j))
                    .map(|j| {
                        let mut parts = vec![ix.same(&num(j as i64, vw)), s.present[j].clone()];
                        if let Some(k) = k {
                            parts.push(s.rank[j].same(&num(k as i64, vw)));
                        }
                        Bool::and(&parts)
                    })
                    .collect::<Vec<_>>(),
            ),
        }
    }
}

/// A symbolic state as the rule language sees it.
#[derive(Clone, Debug)]
pub struct SymView {
    /// Global values in global-id order.
    pub globals: Vec<Num>,
    /// Element tables in type-id order.
    pub tables: Vec<SymTable>,
    /// Per feature id, for a boolean feature of two elements: the pairs of
    /// slots (of the feature's one type) on which it may hold, each with
    /// the term saying whether it does; it holds on no other pair.
    pub pairs: Vec<Vec<([usize; 2], Bool)>>,
    /// The bit width of every term of the view (globals, counts, features)
    /// when [`Num`] is a bit-vector; ignored for integers.
    pub width: u32,
    /// On every valid state up to the bound, every global, every count and
    /// every feature of a present element lies in `[-magnitude, magnitude]`
    /// (and is represented exactly: `magnitude < 2^(width-1)`, and every
    /// slot count fits too).
    pub magnitude: i64,
}

/// The sort of symbolic integer values: mathematical integers (default:
/// Z3's arithmetic solver reasons about the interval encodings directly) or
/// signed bit-vectors (feature `bv-arith`: Z3 bit-blasts them to SAT, which
/// loses the order structure the encodings are made of, so proofs are far
/// slower).
#[cfg(not(feature = "bv-arith"))]
pub type Num = z3::ast::Int;
/// The sort of symbolic integer values.
#[cfg(feature = "bv-arith")]
pub type Num = z3::ast::BV;

/// Arithmetic and signed comparisons on [`Num`], whatever its sort.
pub trait NumOps: Sized {
    /// A constant of `width` bits.
    fn lit(v: i64, width: u32) -> Self;
    /// A fresh named constant of `width` bits.
    fn var(name: String, width: u32) -> Self;
    /// Width in bits (`u32::MAX` for integers).
    fn width(&self) -> u32;
    /// Sign-extends to `width` bits (no-op if it already has them).
    fn widen(&self, width: u32) -> Self;
    /// `self + o`
    fn plus(&self, o: &Self) -> Self;
    /// `self - o`
    fn minus(&self, o: &Self) -> Self;
    /// `k * self`
    fn times(&self, k: i64) -> Self;
    /// `self = o`
    fn same(&self, o: &Self) -> Bool;
    /// `self <= o`
    fn sle(&self, o: &Self) -> Bool;
    /// `self < o`
    fn slt(&self, o: &Self) -> Bool;
    /// `self >= o`
    fn sge(&self, o: &Self) -> Bool {
        o.sle(self)
    }
    /// `self > o`
    fn sgt(&self, o: &Self) -> Bool {
        o.slt(self)
    }
    /// The signed value of a numeral (as a model gives it).
    fn value(&self) -> Option<i64>;
}

impl NumOps for BV {
    fn lit(v: i64, width: u32) -> BV {
        BV::from_i64(v, width)
    }
    fn var(name: String, width: u32) -> BV {
        BV::new_const(name, width)
    }
    fn width(&self) -> u32 {
        self.get_size()
    }
    fn widen(&self, width: u32) -> BV {
        let w = self.get_size();
        if w >= width {
            self.clone()
        } else {
            self.sign_ext(width - w)
        }
    }
    fn plus(&self, o: &BV) -> BV {
        self.bvadd(o)
    }
    fn minus(&self, o: &BV) -> BV {
        self.bvsub(o)
    }
    fn times(&self, k: i64) -> BV {
        BV::from_i64(k, self.get_size()).bvmul(self)
    }
    fn same(&self, o: &BV) -> Bool {
        self.eq(o)
    }
    fn sle(&self, o: &BV) -> Bool {
        self.bvsle(o)
    }
    fn slt(&self, o: &BV) -> Bool {
        self.bvslt(o)
    }
    fn value(&self) -> Option<i64> {
        let w = self.get_size();
        let u = self.as_u64()?;
        if w >= 64 {
            return Some(u as i64);
        }
        let sign = 1u64 << (w - 1);
        Some(if u & sign != 0 { (u as i128 - (1i128 << w)) as i64 } else { u as i64 })
    }
}

impl NumOps for Int {
    fn lit(v: i64, _width: u32) -> Int {
        Int::from_i64(v)
    }
    fn var(name: String, _width: u32) -> Int {
        Int::new_const(name)
    }
    fn width(&self) -> u32 {
        u32::MAX
    }
    fn widen(&self, _width: u32) -> Int {
        self.clone()
    }
    fn plus(&self, o: &Int) -> Int {
        Int::add(&[self.clone(), o.clone()])
    }
    fn minus(&self, o: &Int) -> Int {
        Int::sub(&[self.clone(), o.clone()])
    }
    fn times(&self, k: i64) -> Int {
        Int::mul(&[Int::from_i64(k), self.clone()])
    }
    fn same(&self, o: &Int) -> Bool {
        self.eq(o)
    }
    fn sle(&self, o: &Int) -> Bool {
        Int::le(self, o)
    }
    fn slt(&self, o: &Int) -> Bool {
        Int::lt(self, o)
    }
    fn value(&self) -> Option<i64> {
        self.as_i64()
    }
}

/// A constant of `width` bits.
pub fn num(v: i64, width: u32) -> Num {
    Num::lit(v, width)
}

/// Sign-extends `x` to `width` bits (no-op if it already has them).
pub fn widen(x: &Num, width: u32) -> Num {
    x.widen(width)
}

/// Reads a signed value of a numeral (as a model gives it).
pub fn signed_value(x: &Num) -> Option<i64> {
    x.value()
}

/// The number of bits a signed bit-vector needs to hold every value of
/// `[lo, hi]`.
fn bits_for(lo: i128, hi: i128) -> u32 {
    let mut w = 1;
    while w < 127 && (lo < -(1i128 << (w - 1)) || hi > (1i128 << (w - 1)) - 1) {
        w += 1;
    }
    w
}

/// A rule the compiler cannot evaluate exactly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// Some subexpression could exceed [`MAX_WIDTH`] bits.
    #[error("expression too large for the bit width ({0} bits needed, at most {MAX_WIDTH})")]
    TooWide(u32),
}

/// A rule compiled over a symbolic view.
#[derive(Debug)]
pub struct CompiledRule {
    /// The symbolic slot of each pattern variable (at the view's width):
    /// the element's index in a dense table, its slot in a sparse one.
    pub indices: Vec<Num>,
    /// The pattern binds: each index is a valid element index.
    pub binds: Bool,
    /// The condition under the symbolic binding.
    pub condition: Bool,
    /// The action's arguments (booleans as 0/1), all at [`Self::width`].
    pub args: Vec<Num>,
    /// The width the rule's integer expressions are evaluated at.
    pub width: u32,
}

/// Compiles rules over one symbolic view.
pub struct Compiler<'a> {
    view: &'a SymView,
    size: FeatureId,
}

/// Where a variable points during compilation.
#[derive(Clone, Debug)]
enum Slot {
    /// A symbolic index (the pattern variable's).
    Symbolic(Num),
    /// A fixed slot (inside `is unique where`, for the other elements).
    Fixed(usize),
}

impl<'a> Compiler<'a> {
    /// A compiler over `view`; `size` is the schema's size feature.
    pub fn new(view: &'a SymView, size: FeatureId) -> Compiler<'a> {
        Compiler { view, size }
    }

    /// The width at which every integer subexpression of `rule` is exact on
    /// states whose values lie within the view's magnitude.
    pub fn width_for(&self, rule: &Rule) -> Result<u32, CompileError> {
        let m = self.view.magnitude as i128;
        let mut need = self.view.width;
        fn int(e: &IntExpr, m: i128, need: &mut u32) -> (i128, i128) {
            let (lo, hi) = match e {
                IntExpr::Lit(k) => (*k as i128, *k as i128),
                IntExpr::Global(_) | IntExpr::Feature(..) => (-m, m),
                IntExpr::Add(a, b) => {
                    let (a, b) = (int(a, m, need), int(b, m, need));
                    (a.0.saturating_add(b.0), a.1.saturating_add(b.1))
                }
                IntExpr::Sub(a, b) => {
                    let (a, b) = (int(a, m, need), int(b, m, need));
                    (a.0.saturating_sub(b.1), a.1.saturating_sub(b.0))
                }
                IntExpr::Mul(k, a) => {
                    let (lo, hi) = int(a, m, need);
                    let (x, y) = (lo.saturating_mul(*k as i128), hi.saturating_mul(*k as i128));
                    (x.min(y), x.max(y))
                }
            };
            *need = (*need).max(bits_for(lo, hi));
            (lo, hi)
        }
        fn boolean(e: &BoolExpr, m: i128, need: &mut u32) {
            match e {
                BoolExpr::True
                | BoolExpr::Maximal(_)
                | BoolExpr::Minimal(_)
                | BoolExpr::Feature(..)
                | BoolExpr::Pair(..) => {}
                BoolExpr::Not(b) | BoolExpr::Unique(_, b) => boolean(b, m, need),
                BoolExpr::And(parts) => parts.iter().for_each(|p| boolean(p, m, need)),
                BoolExpr::Cmp(_, a, b) => {
                    int(a, m, need);
                    int(b, m, need);
                }
            }
        }
        boolean(&rule.condition, m, &mut need);
        for a in &rule.action.args {
            if let ActionArg::Int(e) = a {
                int(e, m, &mut need);
            }
        }
        if need > MAX_WIDTH {
            Err(CompileError::TooWide(need))
        } else {
            Ok(need)
        }
    }

    /// Compiles `rule`; `tag` makes its index constants' names distinct.
    pub fn compile(&self, rule: &Rule, tag: &str) -> Result<CompiledRule, CompileError> {
        let width = self.width_for(rule)?;
        let vw = self.view.width;
        let indices: Vec<Num> = (0..rule.decls.len()).map(|i| Num::var(format!("{tag}_ix{i}"), vw)).collect();
        let binds = Bool::and(
            &rule
                .decls
                .iter()
                .zip(&indices)
                .map(|(d, ix)| {
                    let table = &self.view.tables[d.ty.0 as usize];
                    match d.kind {
                        PatternKind::Singleton => {
                            Bool::and(&[table.count.same(&num(1, vw)), table.holds(ix, None, vw)])
                        }
                        PatternKind::Constant(k) => table.holds(ix, Some(k), vw),
                        PatternKind::Arbitrary => table.holds(ix, None, vw),
                    }
                })
                .collect::<Vec<_>>(),
        );
        let env: Vec<Slot> = indices.iter().map(|i| Slot::Symbolic(i.clone())).collect();
        let types: Vec<TypeId> = rule.decls.iter().map(|d| d.ty).collect();
        let ctx = Ctx { compiler: self, types: &types, width };
        let condition = ctx.bool(&rule.condition, &env);
        let args = rule
            .action
            .args
            .iter()
            .map(|a| match a {
                ActionArg::Bool(b) => num(*b as i64, width),
                ActionArg::Int(e) => ctx.int(e, &env),
                ActionArg::Element(v) => ctx.index(*v, &indices[*v as usize]),
            })
            .collect();
        Ok(CompiledRule { indices, binds, condition, args, width })
    }
}

struct Ctx<'c, 'a> {
    compiler: &'c Compiler<'a>,
    types: &'c [TypeId],
    width: u32,
}

impl Ctx<'_, '_> {
    fn table(&self, v: Var) -> &SymTable {
        &self.compiler.view.tables[self.types[v as usize].0 as usize]
    }

    /// Feature `f` of the element variable `v` points at, at the view's width.
    fn feature(&self, f: FeatureId, v: Var, env: &[Slot]) -> Num {
        let table = self.table(v);
        match &env[v as usize] {
            Slot::Fixed(j) => table.slots[*j][f.0 as usize].clone(),
            Slot::Symbolic(ix) => {
                let n = table.slots.len();
                let vw = self.compiler.view.width;
                if n == 0 {
                    return num(0, vw);
                }
                let mut acc = table.slots[n - 1][f.0 as usize].clone();
                for j in (0..n - 1).rev() {
                    acc = ix.same(&num(j as i64, vw)).ite(&table.slots[j][f.0 as usize], &acc);
                }
                acc
            }
        }
    }

    /// The index of the element at slot `ix` of variable `v`'s table, at
    /// the rule's width: the slot in a dense table, its rank in a sparse one.
    fn index(&self, v: Var, ix: &Num) -> Num {
        let table = self.table(v);
        let vw = self.compiler.view.width;
        match &table.sparse {
            None => widen(ix, self.width),
            Some(s) => {
                let mut acc = num(0, vw);
                for j in (0..table.slots.len()).rev() {
                    acc = ix.same(&num(j as i64, vw)).ite(&s.rank[j], &acc);
                }
                widen(&acc, self.width)
            }
        }
    }

    fn int(&self, e: &IntExpr, env: &[Slot]) -> Num {
        let w = self.width;
        match e {
            IntExpr::Lit(k) => num(*k, w),
            IntExpr::Global(g) => widen(&self.compiler.view.globals[g.0 as usize], w),
            IntExpr::Feature(f, v) => widen(&self.feature(*f, *v, env), w),
            IntExpr::Add(a, b) => self.int(a, env).plus(&self.int(b, env)),
            IntExpr::Sub(a, b) => self.int(a, env).minus(&self.int(b, env)),
            IntExpr::Mul(k, a) => self.int(a, env).times(*k),
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
                    Eq => a.same(&b),
                    Ne => a.same(&b).not(),
                    Ge => a.sge(&b),
                    Gt => a.sgt(&b),
                    Le => a.sle(&b),
                    Lt => a.slt(&b),
                }
            }
            BoolExpr::Maximal(v) => self.extremal(*v, env, |mine, other| mine.sge(other)),
            BoolExpr::Minimal(v) => self.extremal(*v, env, |mine, other| mine.sle(other)),
            BoolExpr::Feature(f, v) => self.feature(*f, *v, env).same(&num(0, self.compiler.view.width)).not(),
            BoolExpr::Pair(f, v, w) => {
                let vw = self.compiler.view.width;
                let at = |x: Var, j: usize| match &env[x as usize] {
                    Slot::Symbolic(ix) => ix.same(&num(j as i64, vw)),
                    Slot::Fixed(i) => Bool::from_bool(*i == j),
                };
                let holds: Vec<Bool> = self.compiler.view.pairs.get(f.0 as usize).map_or(vec![], |pairs| {
                    pairs.iter().map(|([a, b], t)| Bool::and(&[at(*v, *a), at(*w, *b), t.clone()])).collect()
                });
                Bool::or(&holds)
            }
            BoolExpr::Unique(v, b) => {
                let here = self.bool(b, env);
                let table = self.table(*v);
                let vw = self.compiler.view.width;
                let mut parts = vec![here];
                for j in 0..table.slots.len() {
                    let present = table.present(j, vw);
                    let other = match &env[*v as usize] {
                        Slot::Symbolic(ix) => ix.same(&num(j as i64, vw)).not(),
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

    fn extremal(&self, v: Var, env: &[Slot], keep: impl Fn(&Num, &Num) -> Bool) -> Bool {
        let size = self.compiler.size;
        let mine = self.feature(size, v, env);
        let table = self.table(v);
        let vw = self.compiler.view.width;
        let parts: Vec<Bool> = (0..table.slots.len())
            .map(|j| table.present(j, vw).implies(keep(&mine, &table.slots[j][size.0 as usize])))
            .collect();
        Bool::and(&parts)
    }
}
