//! The Z3 encoding of an arbitrary nonogram line up to a bound: length,
//! hints, cells, one solution, and the hint/block/gap elements of DSL.md as
//! terms; plus "this fill is wrong" (out of range, or disagreeing with the
//! solution) and reading a line back from a model.
//!
//! Every value is a small signed bit-vector and every variable is bounded
//! to `[0, bound]`, so nothing can wrap around and Z3 bit-blasts the whole
//! query to SAT. Runs are intervals: the solution is the hints placed at
//! positions `p_i` (strictly separated), and blocks and gaps are slots of
//! `[start, end)` intervals, strictly separated and increasing, with cell
//! `j` a member exactly when some slot covers it. Unused slots are pinned
//! to zero.

use super::domain::Nonogram;
use super::line::{Cell, Line};
use crate::domains::Encoding;
use crate::dsl::symbolic::{bv, signed_value, widen, Num, NumOps, SymTable, SymView};
use z3::ast::Bool;
use z3::Model;

/// The line-level terms of an encoding.
pub struct LineTerms {
    /// Line length.
    pub n: Num,
    /// Number of hints.
    pub k: Num,
    /// Hint values (0 beyond k).
    pub hints: Vec<Num>,
    /// Cell is filled.
    pub is_true: Vec<Bool>,
    /// Cell is crossed out.
    pub is_false: Vec<Bool>,
    /// The solution's value of each cell.
    pub solution: Vec<Bool>,
}

/// The bit width of an encoding up to `bound`: room for `4 * (bound + 1)`.
pub fn width(bound: usize) -> u32 {
    let m = 4 * (bound as i64 + 1);
    let mut w = 2;
    while (1i64 << (w - 1)) <= m {
        w += 1;
    }
    w
}

/// Runs of the cells where `member` holds as interval slots: a count and
/// `slots` (start, end) pairs; adds the constraints tying them to `member`.
fn runs(member: &[Bool], n: &Num, slots: usize, w: u32, valid: &mut Vec<Bool>, name: &str) -> (Num, Vec<(Num, Num)>) {
    let bound = member.len() as i64;
    let count = Num::var(format!("{name}_count"), w);
    valid.push(count.sge(&bv(0, w)));
    valid.push(count.sle(&bv(slots as i64, w)));
    let mut out: Vec<(Num, Num)> = vec![];
    for m in 0..slots {
        let start = Num::var(format!("{name}{m}_start"), w);
        let end = Num::var(format!("{name}{m}_end"), w);
        let present = count.sgt(&bv(m as i64, w));
        valid.push(start.sge(&bv(0, w)));
        valid.push(end.sle(&bv(bound, w)));
        valid.push(present.implies(Bool::and(&[start.slt(&end), end.sle(n)])));
        valid.push(present.not().implies(Bool::and(&[start.same(&bv(0, w)), end.same(&bv(0, w))])));
        if let Some((_, prev_end)) = out.last() {
            valid.push(present.implies(prev_end.slt(&start)));
        }
        out.push((start, end));
    }
    for (j, c) in member.iter().enumerate() {
        let jj = bv(j as i64, w);
        let covered: Vec<Bool> = out.iter().map(|(s, e)| Bool::and(&[s.sle(&jj), jj.slt(e)])).collect();
        valid.push(c.iff(Bool::or(&covered)));
    }
    (count, out)
}

/// Encodes every valid line of 1..=bound cells.
pub fn encode(domain: &Nonogram, bound: usize) -> Encoding<LineTerms> {
    let ids = domain.ids();
    let nf = crate::domains::Domain::schema(domain).feature_count();
    let w = width(bound);
    let c = |v: usize| bv(v as i64, w);
    let max_hints = bound.div_ceil(2);
    let n = Num::var("n".into(), w);
    let k = Num::var("k".into(), w);
    let mut valid = vec![n.sge(&c(1)), n.sle(&c(bound)), k.sge(&c(0)), k.sle(&c(max_hints))];

    let hints: Vec<Num> = (0..max_hints).map(|i| Num::var(format!("h{i}"), w)).collect();
    let pos: Vec<Num> = (0..max_hints).map(|i| Num::var(format!("p{i}"), w)).collect();
    let ends: Vec<Num> = (0..max_hints).map(|i| pos[i].plus(&hints[i])).collect();
    for i in 0..max_hints {
        let present = k.sgt(&c(i));
        valid.push(Bool::and(&[hints[i].sge(&c(0)), hints[i].sle(&c(bound)), pos[i].sge(&c(0)), pos[i].sle(&c(bound))]));
        valid.push(present.implies(Bool::and(&[hints[i].sge(&c(1)), ends[i].sle(&n)])));
        valid.push(present.not().implies(Bool::and(&[hints[i].same(&c(0)), pos[i].same(&c(0))])));
        if i + 1 < max_hints {
            let next = k.sgt(&c(i + 1));
            valid.push(next.implies(pos[i + 1].sgt(&ends[i])));
        }
    }
    let mut is_true = vec![];
    let mut is_false = vec![];
    let mut solution = vec![];
    for j in 0..bound {
        let t = Bool::new_const(format!("t{j}"));
        let fa = Bool::new_const(format!("f{j}"));
        let s = Bool::new_const(format!("s{j}"));
        let jj = c(j);
        let inside = n.sgt(&jj);
        // absent hints are pinned to [0, 0), which covers nothing
        let covered: Vec<Bool> =
            (0..max_hints).map(|i| Bool::and(&[pos[i].sle(&jj), jj.slt(&ends[i])])).collect();
        valid.push(s.iff(Bool::or(&covered)));
        valid.push(Bool::and(&[t.clone(), fa.clone()]).not());
        valid.push(inside.not().implies(Bool::and(&[t.not(), fa.not()])));
        valid.push(t.implies(&s));
        valid.push(fa.implies(s.not()));
        is_true.push(t);
        is_false.push(fa);
        solution.push(s);
    }

    // hints: start = i, size = h_i, lowest_end_cell, highest_start_cell
    let total = hints.iter().fold(c(0), |acc, h| acc.plus(h));
    let mut hint_slots = vec![];
    let mut before = c(0);
    for i in 0..max_hints {
        let mut row = vec![c(0); nf];
        row[ids.start.0 as usize] = c(i);
        row[ids.size.0 as usize] = hints[i].clone();
        row[ids.lowest_end.0 as usize] = c(i).plus(&before).plus(&hints[i]);
        row[ids.highest_start.0 as usize] = n.plus(&c(i + 1)).minus(&k).minus(&total.minus(&before));
        // implied: the solution places hint i between its leftmost and
        // rightmost packings (redundant, but it keeps proofs short)
        if std::env::var("NO_IMPLIED").is_err() {
            valid.push(k.sgt(&c(i)).implies(Bool::and(&[
                ends[i].sge(&row[ids.lowest_end.0 as usize]),
                pos[i].sle(&row[ids.highest_start.0 as usize]),
            ])));
        }
        before = before.plus(&hints[i]);
        hint_slots.push(row);
    }
    let gap_member: Vec<Bool> =
        (0..bound).map(|j| Bool::and(&[n.sgt(&c(j)), is_false[j].not()])).collect();
    let run_slots = bound.div_ceil(2);
    let (block_count, blocks) = runs(&is_true, &n, run_slots, w, &mut valid, "block");
    let (gap_count, gaps) = runs(&gap_member, &n, run_slots, w, &mut valid, "gap");
    let implied = std::env::var("IMPLIED").unwrap_or_else(|_| "abcd".into());
    // implied: every block lies inside one run of the solution
    if implied.contains('a') {
        for (bs, be) in &blocks {
            let inside: Vec<Bool> = (0..max_hints).map(|i| Bool::and(&[pos[i].sle(bs), be.sle(&ends[i])])).collect();
            valid.push(be.sgt(bs).implies(Bool::or(&inside)));
        }
    }
    // implied: every run of the solution lies inside one gap
    if implied.contains('b') {
        for i in 0..max_hints {
            let inside: Vec<Bool> = gaps.iter().map(|(gs, ge)| Bool::and(&[gs.sle(&pos[i]), ends[i].sle(ge)])).collect();
            valid.push(k.sgt(&c(i)).implies(Bool::or(&inside)));
        }
    }
    // implied: hints, blocks and gaps are ordered pairwise, not only
    // neighbour by neighbour
    if implied.contains('c') {
        for j in 0..max_hints {
            for i in 0..j.saturating_sub(1) {
                valid.push(k.sgt(&c(j)).implies(pos[j].sgt(&ends[i])));
            }
        }
    }
    if implied.contains('d') {
        for runs in [&blocks, &gaps] {
            for j in 0..runs.len() {
                for i in 0..j.saturating_sub(1) {
                    valid.push(runs[j].1.sgt(&runs[j].0).implies(runs[j].0.sgt(&runs[i].1)));
                }
            }
        }
    }
    let table = |runs: Vec<(Num, Num)>| -> Vec<Vec<Num>> {
        runs.into_iter()
            .map(|(s, e)| {
                let mut row = vec![c(0); nf];
                row[ids.size.0 as usize] = e.minus(&s);
                row[ids.start.0 as usize] = s;
                row
            })
            .collect()
    };
    let empty = || SymTable { count: c(0), slots: vec![] };
    let mut tables = vec![empty(), empty(), empty()];
    tables[ids.hint.0 as usize] = SymTable { count: k.clone(), slots: hint_slots };
    tables[ids.block.0 as usize] = SymTable { count: block_count, slots: table(blocks) };
    tables[ids.gap.0 as usize] = SymTable { count: gap_count, slots: table(gaps) };
    // On a valid line every value the rules see lies in [0, bound]; the
    // stated magnitude leaves room (the encoding's width holds 4 * (bound + 1)).
    let view = SymView { globals: vec![n.clone()], tables, width: w, magnitude: 2 * bound as i64 + 2 };
    Encoding { view, valid: Bool::and(&valid), extra: LineTerms { n, k, hints, is_true, is_false, solution } }
}

/// `fill(value, a, b)` is wrong: out of range, or some cell of [a, b)
/// differs from the encoded solution. The arguments share one width, at
/// least the encoding's.
pub fn wrong_fill(t: &LineTerms, args: &[Num]) -> Bool {
    let [value, a, b] = args else { return Bool::from_bool(true) };
    let w = a.width().max(t.n.width());
    let (value, a, b) = (widen(value, w), widen(a, w), widen(b, w));
    let n = widen(&t.n, w);
    let out_of_range = Bool::or(&[a.slt(&bv(0, w)), a.sgt(&b), b.sgt(&n)]);
    let filled = value.same(&bv(1, w));
    let differs: Vec<Bool> = t
        .solution
        .iter()
        .enumerate()
        .map(|(j, s)| {
            let jj = bv(j as i64, w);
            Bool::and(&[a.sle(&jj), b.sgt(&jj), n.sgt(&jj), s.iff(&filled).not()])
        })
        .collect();
    Bool::or(&[out_of_range, Bool::or(&differs)])
}

/// The concrete line of a model.
pub fn decode(t: &LineTerms, model: &Model) -> Line {
    let get_int = |x: &Num| model.eval(x, true).and_then(|v| signed_value(&v)).unwrap_or(0);
    let get_bool = |x: &Bool| model.eval(x, true).and_then(|v| v.as_bool()).unwrap_or(false);
    let n = get_int(&t.n).clamp(0, t.is_true.len() as i64) as usize;
    let k = get_int(&t.k).clamp(0, t.hints.len() as i64) as usize;
    let hints = t.hints[..k].iter().map(|h| get_int(h).max(1) as u32).collect();
    let cells = (0..n)
        .map(|j| {
            if get_bool(&t.is_true[j]) {
                Cell::True
            } else if get_bool(&t.is_false[j]) {
                Cell::False
            } else {
                Cell::Unknown
            }
        })
        .collect();
    Line::new(hints, cells)
}
