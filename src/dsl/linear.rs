//! The linear normal form of the rule language's integer expressions and
//! comparisons. Every integer expression is linear in its leaves (features
//! and globals): `+`, `-` and multiplication by a literal only. Its form
//! is the sum of its leaves' coefficients plus a constant, so two
//! expressions are equal for every value of their leaves exactly when
//! their forms are equal (in the wrapping arithmetic the interpreter and
//! Z3's bit-free integers agree on for the small values of states, as in
//! any commutative ring). The enumerator keeps one expression per form
//! ([`crate::synth::space`]), which egg's bounded saturation cannot
//! promise: on three pattern variables it left 3,408 nonogram terms of
//! cost at most 5 where there are 1,175 forms.
//!
//! A comparison `l OP r` has the form of `l - r` and the operator, put in
//! one orientation (the first coefficient positive; `<` as `<= -1`), so
//! `x < y + 1`, `y >= x` and `x - y <= 0` have one form.

use super::ast::{CmpOp, IntExpr};
use std::collections::BTreeMap;

/// The linear form of an integer expression: the nonzero coefficient of
/// each leaf and the constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Linear {
    /// Leaf (an `IntExpr::Global` or `IntExpr::Feature`) to its nonzero
    /// coefficient.
    pub coefficients: BTreeMap<IntExpr, i64>,
    /// The constant.
    pub constant: i64,
}

impl Linear {
    /// The form of `e`.
    pub fn of(e: &IntExpr) -> Linear {
        let mut form = Linear { coefficients: BTreeMap::new(), constant: 0 };
        form.add(e, 1);
        form.coefficients.retain(|_, c| *c != 0);
        form
    }

    /// Adds `k * e`.
    fn add(&mut self, e: &IntExpr, k: i64) {
        match e {
            IntExpr::Lit(c) => self.constant = self.constant.wrapping_add(k.wrapping_mul(*c)),
            IntExpr::Add(a, b) => {
                self.add(a, k);
                self.add(b, k);
            }
            IntExpr::Sub(a, b) => {
                self.add(a, k);
                self.add(b, k.wrapping_neg());
            }
            IntExpr::Mul(m, a) => self.add(a, k.wrapping_mul(*m)),
            leaf @ (IntExpr::Global(_) | IntExpr::Feature(..)) => {
                let c = self.coefficients.entry(leaf.clone()).or_insert(0);
                *c = c.wrapping_add(k);
            }
        }
    }

    /// The constant the expression always has, if it reads no leaf.
    pub fn constant_value(&self) -> Option<i64> {
        self.coefficients.is_empty().then_some(self.constant)
    }

    /// `-self`.
    fn negated(&self) -> Linear {
        Linear {
            coefficients: self.coefficients.iter().map(|(l, c)| (l.clone(), c.wrapping_neg())).collect(),
            constant: self.constant.wrapping_neg(),
        }
    }
}

/// The relation of a comparison's normal form to zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relation {
    /// `form = 0`
    Zero,
    /// `form != 0`
    NonZero,
    /// `form <= 0`
    AtMostZero,
}

/// The normal form of `l op r`: a relation of a linear form to zero, the
/// form's first coefficient positive for `=` and `!=` and `<`/`>` turned
/// into `<=` by the integers' successor, so comparisons that hold on the
/// same values have the same form. `None` for a comparison of constants.
pub fn comparison(op: CmpOp, l: &IntExpr, r: &IntExpr) -> Option<(Relation, Linear)> {
    let diff = Linear::of(&IntExpr::difference(l.clone(), r.clone()));
    let first_positive = diff.coefficients.values().next().is_some_and(|&c| c > 0);
    let up = |d: &Linear| if first_positive { d.clone() } else { d.negated() };
    let shifted = |d: Linear, by: i64| Linear { constant: d.constant.wrapping_add(by), ..d };
    let form = match op {
        CmpOp::Eq => (Relation::Zero, up(&diff)),
        CmpOp::Ne => (Relation::NonZero, up(&diff)),
        // l - r <= 0
        CmpOp::Le => (Relation::AtMostZero, diff),
        // l - r < 0: l - r + 1 <= 0
        CmpOp::Lt => (Relation::AtMostZero, shifted(diff, 1)),
        // r - l <= 0
        CmpOp::Ge => (Relation::AtMostZero, diff.negated()),
        // r - l + 1 <= 0
        CmpOp::Gt => (Relation::AtMostZero, shifted(diff.negated(), 1)),
    };
    (!form.1.coefficients.is_empty()).then_some(form)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::ast::{FeatureId, GlobalId};

    fn f(x: u8, v: u8) -> IntExpr {
        IntExpr::Feature(FeatureId(x), v)
    }

    fn lit(k: i64) -> IntExpr {
        IntExpr::Lit(k)
    }

    /// Evaluates `e` with leaf values from `value`.
    fn eval(e: &IntExpr, value: &dyn Fn(&IntExpr) -> i64) -> i64 {
        match e {
            IntExpr::Lit(k) => *k,
            IntExpr::Add(a, b) => eval(a, value) + eval(b, value),
            IntExpr::Sub(a, b) => eval(a, value) - eval(b, value),
            IntExpr::Mul(k, a) => k * eval(a, value),
            leaf => value(leaf),
        }
    }

    #[test]
    fn equal_forms_are_equal_expressions_and_only_they() {
        let (x, y, n) = (f(0, 0), f(1, 1), IntExpr::Global(GlobalId(0)));
        // 1 + (n - x), n + (1 - x), n - (x - 1), 1 - (x - n): one form
        let same = [
            IntExpr::sum(lit(1), IntExpr::difference(n.clone(), x.clone())),
            IntExpr::sum(n.clone(), IntExpr::difference(lit(1), x.clone())),
            IntExpr::difference(n.clone(), IntExpr::difference(x.clone(), lit(1))),
            IntExpr::difference(lit(1), IntExpr::difference(x.clone(), n.clone())),
        ];
        assert!(same.iter().all(|e| Linear::of(e) == Linear::of(&same[0])));
        let twice = IntExpr::Mul(2, Box::new(y.clone()));
        assert_eq!(Linear::of(&twice), Linear::of(&IntExpr::sum(y.clone(), y.clone())));
        assert_eq!(Linear::of(&IntExpr::difference(x.clone(), x.clone())).constant_value(), Some(0));
        // different expressions, different forms: checked against values
        let exprs =
            [x.clone(), y.clone(), n.clone(), IntExpr::sum(x.clone(), y.clone()), twice, same[0].clone(), lit(3)];
        let values: [&dyn Fn(&IntExpr) -> i64; 3] = [
            &|l| {
                if *l == x {
                    3
                } else if *l == y {
                    5
                } else {
                    11
                }
            },
            &|l| {
                if *l == x {
                    -2
                } else if *l == y {
                    7
                } else {
                    1
                }
            },
            &|l| {
                if *l == x {
                    0
                } else if *l == y {
                    1
                } else {
                    3
                }
            },
        ];
        for a in &exprs {
            for b in &exprs {
                let agree = values.iter().all(|v| eval(a, v) == eval(b, v));
                assert_eq!(Linear::of(a) == Linear::of(b), agree, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn comparisons_that_hold_on_the_same_values_share_a_form() {
        let (x, y) = (f(0, 0), f(1, 1));
        let y1 = IntExpr::sum(y.clone(), lit(1));
        let form = |op, l: &IntExpr, r: &IntExpr| comparison(op, l, r).unwrap();
        // x < y + 1, x <= y, y >= x, y + 1 > x
        assert_eq!(form(CmpOp::Lt, &x, &y1), form(CmpOp::Le, &x, &y));
        assert_eq!(form(CmpOp::Ge, &y, &x), form(CmpOp::Le, &x, &y));
        assert_eq!(form(CmpOp::Gt, &y1, &x), form(CmpOp::Le, &x, &y));
        // x = y and y = x; x != y and y != x
        assert_eq!(form(CmpOp::Eq, &x, &y), form(CmpOp::Eq, &y, &x));
        assert_eq!(form(CmpOp::Ne, &x, &y), form(CmpOp::Ne, &y, &x));
        // x <= y is not y <= x, nor x = y
        assert_ne!(form(CmpOp::Le, &x, &y), form(CmpOp::Le, &y, &x));
        assert_ne!(form(CmpOp::Le, &x, &y), form(CmpOp::Eq, &x, &y));
        assert_eq!(comparison(CmpOp::Lt, &lit(1), &lit(2)), None);
        assert_eq!(comparison(CmpOp::Eq, &IntExpr::difference(x.clone(), x.clone()), &lit(0)), None);
        // every pair of comparisons over x, y and small literals: same form iff same truth on a grid of values
        let sides = [x.clone(), y.clone(), y1.clone(), lit(0), lit(2), IntExpr::difference(x.clone(), y.clone())];
        let mut all = vec![];
        for op in CmpOp::ALL {
            for l in &sides {
                for r in &sides {
                    if let Some(form) = comparison(op, l, r) {
                        all.push((op, l.clone(), r.clone(), form));
                    }
                }
            }
        }
        let truth = |(op, l, r): (CmpOp, &IntExpr, &IntExpr)| -> Vec<bool> {
            let mut out = vec![];
            for vx in -3..=3 {
                for vy in -3..=3 {
                    let value = |leaf: &IntExpr| if *leaf == x { vx } else { vy };
                    out.push(op.holds(eval(l, &value), eval(r, &value)));
                }
            }
            out
        };
        for a in &all {
            for b in &all {
                let same = truth((a.0, &a.1, &a.2)) == truth((b.0, &b.1, &b.2));
                assert_eq!(a.3 == b.3, same, "{a:?} {b:?}");
            }
        }
    }
}
