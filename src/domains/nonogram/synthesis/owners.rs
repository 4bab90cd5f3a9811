//! The ownership features in the nonogram Z3 encoding: which hint can own
//! a block, which hints can lie inside a gap, over every solution of the
//! line (docs/design/encoding.md, "Ownership features").
//!
//! The encoding holds three solutions of the cells: the line's own (`main`)
//! and two more, `left` starting every hint no later and `right` no
//! earlier than `main` does. The leftmost and the rightmost solutions are
//! such, and they decide the blocks exactly: in the leftmost solution a
//! block belongs to the greatest hint that can own it (a hint owning it in
//! some solution starts no later there, so at or before the block, and the
//! hints after the owner start after it), in the rightmost to the least.
//! So `last_owner(b)` is b's owner in `left` and `first_owner(b)` in
//! `right`.
//!
//! A gap's fits are two more terms per gap with only facts true of them
//! when `left` and `right` are the extreme solutions: a hint whose run one
//! of the three solutions places inside the gap fits it; a hint whose
//! rightmost run ends before the gap (so every solution's does) does not,
//! nor does one whose leftmost run starts after it; none fits exactly when
//! `first_fit` = k and `last_fit` = -1. Every line thus has a model with
//! its true features, so unsat proves; a model whose features are not its
//! line's does not replay on the exact solver, and is excluded by pinning
//! (on the tight encoding) or left `unknown`.

use crate::dsl::symbolic::{num, Num, NumOps};
use z3::ast::Bool;

/// A run `[start, end)` per hint slot (`[0, 0)` beyond k).
pub type Runs = Vec<(Num, Num)>;

/// The least and greatest hint index of each block or gap slot.
pub type Extremes = Vec<(Num, Num)>;

/// Whether run `i` of `runs` (a hint slot below `k`) contains `[s, e)`.
fn contains(runs: &Runs, i: usize, k: &Num, (s, e): (&Num, &Num), w: u32) -> Bool {
    let (rs, re) = &runs[i];
    Bool::and(&[k.sgt(&num(i as i64, w)), rs.sle(s), e.sle(re)])
}

/// The index of the run of `runs` containing the block `[s, e)` (0 if
/// none: an unused block slot).
pub(crate) fn owner(runs: &Runs, k: &Num, block: &(Num, Num), w: u32) -> Num {
    (0..runs.len())
        .rev()
        .fold(num(0, w), |rest, i| contains(runs, i, k, (&block.0, &block.1), w).ite(&num(i as i64, w), &rest))
}

/// The `(first_fit, last_fit)` terms of every gap slot (both 0 on an unused
/// slot), their facts pushed onto `valid`: `solutions` are the encoded
/// solutions, `left` and `right` among them.
pub(crate) fn fits(
    gaps: &[(Num, Num)],
    gap_count: &Num,
    k: &Num,
    solutions: &[&Runs],
    (left, right): (&Runs, &Runs),
    w: u32,
    valid: &mut Vec<Bool>,
) -> Extremes {
    let c = |v: i64| num(v, w);
    let mut out = vec![];
    for (m, (gs, ge)) in gaps.iter().enumerate() {
        let first = Num::var(format!("first_fit{m}"), w);
        let last = Num::var(format!("last_fit{m}"), w);
        let mut facts = vec![
            first.sge(&c(0)),
            first.sle(k),
            last.sge(&c(-1)),
            last.slt(k),
            first.same(k).iff(last.same(&c(-1))),
            first.slt(k).implies(first.sle(&last)),
        ];
        for i in 0..left.len() {
            let hint = k.sgt(&c(i as i64));
            let i_ = c(i as i64);
            for runs in solutions {
                let (s, e) = &runs[i];
                let inside = Bool::and(&[hint.clone(), gs.sle(s), e.sle(ge)]);
                facts.push(inside.implies(Bool::and(&[first.sle(&i_), last.sge(&i_)])));
            }
            facts.push(Bool::and(&[hint.clone(), right[i].1.sle(gs)]).implies(first.sgt(&i_)));
            facts.push(Bool::and(&[hint, left[i].0.sge(ge)]).implies(last.slt(&i_)));
        }
        let present = gap_count.sgt(&c(m as i64));
        valid.push(present.implies(Bool::and(&facts)));
        valid.push(present.not().implies(Bool::and(&[first.same(&c(0)), last.same(&c(0))])));
        out.push((first, last));
    }
    out
}
