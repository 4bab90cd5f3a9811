//! A rule's condition in words that are valid rule names, conjunct by
//! conjunct (`star_and_closed_and_joined_same_not_1`,
//! `need_c_is_0_and_not_joined_c_d`): the one reading every domain's
//! rule names are made of ([`crate::domains::witness::rules::names`],
//! [`crate::domains::flow::learn::names`]), with or without the variables'
//! names after each feature, and the set of a unique name made distinct by
//! a numeric suffix ([`distinct`]).

use super::ast::{BoolExpr, FeatureId, IntExpr, Rule, Var};
use super::schema::Schema;

/// How a condition is read.
pub struct Reading<'a> {
    /// The schema the rule is written in.
    pub schema: &'a Schema,
    /// The variables' names, said after each feature (`size_h`); `None`:
    /// features alone (`size`).
    pub vars: Option<&'a [String]>,
    /// Two-element features left unsaid (Flow's `neighbours`: every link
    /// or cut needs its cells side by side).
    pub unsaid: &'a dyn Fn(FeatureId) -> bool,
}

impl Reading<'_> {
    /// `_NAME` of variable `v`, or nothing without names.
    fn var(&self, v: Var) -> String {
        self.vars.map_or(String::new(), |names| format!("_{}", names.get(v as usize).map_or("x", |s| s.as_str())))
    }

    /// The words of an integer expression.
    pub fn int(&self, e: &IntExpr) -> String {
        match e {
            IntExpr::Lit(v) if *v < 0 => format!("minus_{}", v.unsigned_abs()),
            IntExpr::Lit(v) => v.to_string(),
            IntExpr::Global(g) => self.schema.global(*g).name.clone(),
            IntExpr::Feature(f, v) => format!("{}{}", self.schema.feature(*f).name, self.var(*v)),
            IntExpr::Add(a, b) => format!("{}_plus_{}", self.int(a), self.int(b)),
            IntExpr::Sub(a, b) => format!("{}_minus_{}", self.int(a), self.int(b)),
            IntExpr::Mul(k, a) => format!("{k}_times_{}", self.int(a)),
        }
    }

    /// The words of a condition, one entry per conjunct (none for `true`
    /// and for unsaid features).
    pub fn conjuncts(&self, e: &BoolExpr) -> Vec<String> {
        let name = |f: &FeatureId| &self.schema.feature(*f).name;
        match e {
            BoolExpr::True => vec![],
            BoolExpr::Not(b) => vec![format!("not_{}", self.conjuncts(b).join("_and_"))],
            BoolExpr::And(parts) => parts.iter().flat_map(|p| self.conjuncts(p)).collect(),
            BoolExpr::Cmp(op, a, b) => vec![format!("{}_{}_{}", self.int(a), op.words(), self.int(b))],
            BoolExpr::Maximal(v) => vec![format!("largest{}", self.var(*v))],
            BoolExpr::Minimal(v) => vec![format!("smallest{}", self.var(*v))],
            BoolExpr::Unique(v, b) => {
                let v = self.vars.map_or(String::new(), |_| format!("{}_", &self.var(*v)[1..]));
                vec![format!("only_{v}{}", self.conjuncts(b).join("_and_"))]
            }
            BoolExpr::Feature(f, v) => vec![format!("{}{}", name(f), self.var(*v))],
            BoolExpr::Pair(f, ..) if (self.unsaid)(*f) => vec![],
            BoolExpr::Pair(f, v, w) => vec![format!("{}{}{}", name(f), self.var(*v), self.var(*w))],
        }
    }
}

/// Names `rules` by `name_of`, the second and later rule of one name
/// suffixed `_2`, `_3`, ... in order.
pub fn distinct(rules: &mut [Rule], name_of: impl Fn(&Rule) -> String) {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for rule in rules {
        let name = name_of(rule);
        let n = seen.entry(name.clone()).or_insert(0);
        *n += 1;
        rule.name = if *n == 1 { name } else { format!("{name}_{n}") };
    }
}
