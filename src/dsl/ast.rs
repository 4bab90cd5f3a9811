//! The syntax tree of the rule language (docs/language.md), shared by every domain.
//!
//! Names of element types, features, globals and actions are resolved
//! against a domain [`Schema`](super::schema::Schema) when a rule is read, so
//! the tree holds small ids; variables are indices into the rule's pattern
//! declarations. The tree knows nothing about any puzzle.

use serde::{Deserialize, Serialize};

/// Index of an element type in the schema (`hint`, `square`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TypeId(pub u8);

/// Index of a feature in the schema (`size`, `touches_head`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FeatureId(pub u8);

/// Index of a global in the schema (`line_size`, `path_length`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GlobalId(pub u8);

/// Index of an action in the schema (`fill`, `prune`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ActionId(pub u8);

/// A pattern variable: the index of its declaration in [`Rule::decls`].
pub type Var = u8;

/// How a pattern declaration binds an element of its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PatternKind {
    /// The only element of the type; binds nothing unless exactly one exists.
    Singleton,
    /// The k-th element (0-based), if it exists.
    Constant(u32),
    /// Any element of the type.
    Arbitrary,
}

/// `VAR = pattern(TYPE ...)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Decl {
    /// The variable's name as written.
    pub name: String,
    /// The element type it binds.
    pub ty: TypeId,
    /// How it binds.
    pub kind: PatternKind,
}

/// Comparison operators of conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `<`
    Lt,
}

impl CmpOp {
    /// Every operator, in the order the grammar lists them.
    pub const ALL: [CmpOp; 6] = [CmpOp::Eq, CmpOp::Ne, CmpOp::Ge, CmpOp::Gt, CmpOp::Le, CmpOp::Lt];

    /// The operator's text.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Ge => ">=",
            CmpOp::Gt => ">",
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
        }
    }

    /// The operator in words that may stand in a rule name (`is`,
    /// `at_least`, ...).
    pub fn words(self) -> &'static str {
        match self {
            CmpOp::Eq => "is",
            CmpOp::Ne => "not",
            CmpOp::Ge => "at_least",
            CmpOp::Gt => "above",
            CmpOp::Le => "at_most",
            CmpOp::Lt => "below",
        }
    }

    /// Applies the comparison to two integers.
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Ge => a >= b,
            CmpOp::Gt => a > b,
            CmpOp::Le => a <= b,
            CmpOp::Lt => a < b,
        }
    }
}

/// Integer expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum IntExpr {
    /// A literal; negative only when written `-NAT`.
    Lit(i64),
    /// A global of the state (`line_size`).
    Global(GlobalId),
    /// An integer feature of a bound element (`size(h)`).
    Feature(FeatureId, Var),
    /// `a + b`
    Add(Box<IntExpr>, Box<IntExpr>),
    /// `a - b`
    Sub(Box<IntExpr>, Box<IntExpr>),
    /// `k * a`: multiplication by a literal only.
    Mul(i64, Box<IntExpr>),
}

/// Boolean expressions (conditions).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BoolExpr {
    /// `true`
    True,
    /// `not b`
    Not(Box<BoolExpr>),
    /// `b1 and b2 and ...` (two or more conjuncts).
    And(Vec<BoolExpr>),
    /// `a CMP b`
    Cmp(CmpOp, IntExpr, IntExpr),
    /// `maximal(x)`: x's size is at least every element's of its type.
    Maximal(Var),
    /// `minimal(x)`: x's size is at most every element's of its type.
    Minimal(Var),
    /// `x is unique where (b)`.
    Unique(Var, Box<BoolExpr>),
    /// A boolean feature of a bound element (`touches_head(s)`).
    Feature(FeatureId, Var),
    /// A boolean feature of two bound elements (`neighbours(c, d)`).
    Pair(FeatureId, Var, Var),
}

/// An argument of an action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ActionArg {
    /// `true` / `false`
    Bool(bool),
    /// An integer expression.
    Int(IntExpr),
    /// A bound variable (its element's index).
    Element(Var),
}

/// `then NAME(args)` or `then NAME`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    /// Which action.
    pub id: ActionId,
    /// Its arguments, as the schema's signature says.
    pub args: Vec<ActionArg>,
}

/// One strategy: `def NAME: with PATTERNS: if CONDITION: then ACTION`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rule {
    /// The rule's name.
    pub name: String,
    /// Comment lines written before the `def` (without the leading `#`).
    pub description: Vec<String>,
    /// Pattern declarations; variables index this list.
    pub decls: Vec<Decl>,
    /// The condition.
    pub condition: BoolExpr,
    /// The action.
    pub action: Action,
}

/// The largest magnitude a feature or a global is assumed to take when
/// bounding an expression ([`IntExpr::magnitude`]): states hold at most a
/// few dozen cells, so every feature and global is far below it.
pub const FEATURE_MAGNITUDE: u128 = 1 << 31;

impl IntExpr {
    /// An upper bound of the expression's absolute value under any binding,
    /// each feature and global counted as [`FEATURE_MAGNITUDE`]
    /// (saturating at `u128::MAX`).
    pub fn magnitude(&self) -> u128 {
        match self {
            IntExpr::Lit(k) => k.unsigned_abs() as u128,
            IntExpr::Global(_) | IntExpr::Feature(..) => FEATURE_MAGNITUDE,
            IntExpr::Add(x, y) | IntExpr::Sub(x, y) => x.magnitude().saturating_add(y.magnitude()),
            IntExpr::Mul(k, x) => (k.unsigned_abs() as u128).saturating_mul(x.magnitude()),
        }
    }

    /// Builds `a + b`.
    pub fn sum(a: IntExpr, b: IntExpr) -> IntExpr {
        IntExpr::Add(Box::new(a), Box::new(b))
    }

    /// Builds `a - b`.
    pub fn difference(a: IntExpr, b: IntExpr) -> IntExpr {
        IntExpr::Sub(Box::new(a), Box::new(b))
    }

    /// Whether the expression reads some feature `f` of variable `v` with
    /// `hit(f, v)`.
    fn reads_some(&self, hit: &impl Fn(FeatureId, Var) -> bool) -> bool {
        match self {
            IntExpr::Lit(_) | IntExpr::Global(_) => false,
            IntExpr::Feature(f, v) => hit(*f, *v),
            IntExpr::Add(x, y) | IntExpr::Sub(x, y) => x.reads_some(hit) || y.reads_some(hit),
            IntExpr::Mul(_, x) => x.reads_some(hit),
        }
    }

    /// Whether the expression reads feature `f` (of any variable).
    pub fn uses_feature(&self, f: FeatureId) -> bool {
        self.reads_some(&|g, _| g == f)
    }

    /// Whether the expression reads a feature of variable `v`.
    pub fn reads(&self, v: Var) -> bool {
        self.reads_some(&|_, w| w == v)
    }
}

/// Where a subexpression stands in a condition: under an even or an odd
/// number of negations, or where both count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Polarity {
    /// Unnegated.
    Positive,
    /// Negated.
    Negative,
    /// Either.
    Both,
}

impl Polarity {
    /// The polarity under one more negation.
    pub fn negated(self) -> Polarity {
        match self {
            Polarity::Positive => Polarity::Negative,
            Polarity::Negative => Polarity::Positive,
            Polarity::Both => Polarity::Both,
        }
    }
}

impl BoolExpr {
    /// Whether the expression compares variable `v`'s element with the
    /// other elements of its type (`maximal`, `minimal`, `unique`) where
    /// the comparison could turn false if elements of that type no variable
    /// binds were taken away, the expression standing at `polarity`: an
    /// unnegated comparison stays true with fewer others, a negated one may
    /// not, and inside a `unique`'s condition (true on the bound element,
    /// false on the others) any may not. [`Polarity::Both`] counts every
    /// comparison.
    pub fn compares_others(&self, v: Var, polarity: Polarity) -> bool {
        match self {
            BoolExpr::True | BoolExpr::Cmp(..) | BoolExpr::Feature(..) | BoolExpr::Pair(..) => false,
            BoolExpr::Maximal(w) | BoolExpr::Minimal(w) => *w == v && polarity != Polarity::Positive,
            BoolExpr::Unique(w, inner) => {
                (*w == v && polarity != Polarity::Positive) || inner.compares_others(v, Polarity::Both)
            }
            BoolExpr::Not(inner) => inner.compares_others(v, polarity.negated()),
            BoolExpr::And(parts) => parts.iter().any(|p| p.compares_others(v, polarity)),
        }
    }

    /// Whether the expression reads feature `f` (of any variable).
    pub fn uses_feature(&self, f: FeatureId) -> bool {
        match self {
            BoolExpr::True | BoolExpr::Maximal(_) | BoolExpr::Minimal(_) => false,
            BoolExpr::Feature(g, _) | BoolExpr::Pair(g, ..) => *g == f,
            BoolExpr::Cmp(_, a, b) => a.uses_feature(f) || b.uses_feature(f),
            BoolExpr::Unique(_, inner) | BoolExpr::Not(inner) => inner.uses_feature(f),
            BoolExpr::And(parts) => parts.iter().any(|p| p.uses_feature(f)),
        }
    }

    /// Conjunction of `parts`, flattening `true` and single conjuncts.
    pub fn and(parts: Vec<BoolExpr>) -> BoolExpr {
        let mut parts: Vec<BoolExpr> = parts.into_iter().filter(|p| *p != BoolExpr::True).collect();
        match parts.len() {
            0 => BoolExpr::True,
            1 => parts.pop().expect("one part"),
            _ => BoolExpr::And(parts),
        }
    }
}

impl Rule {
    /// Whether the condition or the action reads feature `f`.
    pub fn uses_feature(&self, f: FeatureId) -> bool {
        self.condition.uses_feature(f)
            || self.action.args.iter().any(|a| matches!(a, ActionArg::Int(e) if e.uses_feature(f)))
    }
}
