//! The Z3 encoding of an arbitrary nonogram line up to a bound: length,
//! hints, cells, one solution, and the hint/block/gap elements of DSL.md as
//! terms; plus "this fill is wrong" (out of range, or disagreeing with the
//! solution) and reading a line back from a model.

use super::domain::Nonogram;
use super::line::{Cell, Line};
use crate::domains::Encoding;
use crate::dsl::symbolic::{SymTable, SymView};
use z3::ast::{Bool, Int};
use z3::Model;

/// The line-level terms of an encoding.
pub struct LineTerms {
    /// Line length.
    pub n: Int,
    /// Number of hints.
    pub k: Int,
    /// Hint values (0 beyond k).
    pub hints: Vec<Int>,
    /// Cell is filled.
    pub is_true: Vec<Bool>,
    /// Cell is crossed out.
    pub is_false: Vec<Bool>,
    /// The solution's value of each cell.
    pub solution: Vec<Bool>,
}

fn int(v: usize) -> Int {
    Int::from_i64(v as i64)
}

/// Symbolic runs (blocks or gaps) of the cells where `member` holds, within
/// the first `n` cells: a count and `slots` (start, size) pairs.
fn runs(member: &[Bool], slots: usize, valid: &mut Vec<Bool>, name: &str) -> (Int, Vec<(Int, Int)>) {
    let len = member.len();
    let starts: Vec<Bool> = (0..len)
        .map(|j| if j == 0 { member[0].clone() } else { Bool::and(&[member[j].clone(), member[j - 1].not()]) })
        .collect();
    let ends: Vec<Bool> = (0..len)
        .map(|j| if j + 1 == len { member[j].clone() } else { Bool::and(&[member[j].clone(), member[j + 1].not()]) })
        .collect();
    // seen[j] = number of runs starting at or before j
    let mut seen: Vec<Int> = vec![];
    for j in 0..len {
        let here = starts[j].ite(&Int::from_i64(1), &Int::from_i64(0));
        let total = if j == 0 { here } else { Int::add(&[seen[j - 1].clone(), here]) };
        let v = Int::new_const(format!("{name}_seen{j}"));
        valid.push(v.eq(&total));
        seen.push(v);
    }
    let count = if len == 0 { Int::from_i64(0) } else { seen[len - 1].clone() };
    let mut out = vec![];
    for m in 0..slots {
        let start = Int::new_const(format!("{name}{m}_start"));
        let end = Int::new_const(format!("{name}{m}_end"));
        for j in 0..len {
            let this_run = seen[j].eq((m + 1) as i64);
            valid.push(Bool::and(&[starts[j].clone(), this_run.clone()]).implies(start.eq(j as i64)));
            valid.push(Bool::and(&[ends[j].clone(), this_run]).implies(end.eq((j + 1) as i64)));
        }
        // unused slots are pinned so models are tidy
        valid.push(count.le(m as i64).implies(Bool::and(&[start.eq(0), end.eq(0)])));
        let size = Int::sub(&[end, start.clone()]);
        out.push((start, size));
    }
    (count, out)
}

/// Encodes every valid line of 1..=bound cells.
pub fn encode(domain: &Nonogram, bound: usize) -> Encoding<LineTerms> {
    let ids = domain.ids();
    let nf = crate::domains::Domain::schema(domain).feature_count();
    let max_hints = bound.div_ceil(2);
    let n = Int::new_const("n");
    let k = Int::new_const("k");
    let mut valid = vec![n.ge(1), n.le(bound as i64), k.ge(0), k.le(max_hints as i64)];

    let hints: Vec<Int> = (0..max_hints).map(|i| Int::new_const(format!("h{i}"))).collect();
    let pos: Vec<Int> = (0..max_hints).map(|i| Int::new_const(format!("p{i}"))).collect();
    for i in 0..max_hints {
        let present = k.gt(i as i64);
        valid.push(present.implies(Bool::and(&[hints[i].ge(1), pos[i].ge(0), Int::add(&[pos[i].clone(), hints[i].clone()]).le(&n)])));
        valid.push(present.not().implies(Bool::and(&[hints[i].eq(0), pos[i].eq(0)])));
        if i + 1 < max_hints {
            let next = k.gt((i + 1) as i64);
            valid.push(next.implies(pos[i + 1].ge(Int::add(&[pos[i].clone(), hints[i].clone(), Int::from_i64(1)]))));
        }
    }
    let mut is_true = vec![];
    let mut is_false = vec![];
    let mut solution = vec![];
    for j in 0..bound {
        let t = Bool::new_const(format!("t{j}"));
        let fa = Bool::new_const(format!("f{j}"));
        let inside = n.gt(j as i64);
        let covered: Vec<Bool> = (0..max_hints)
            .map(|i| Bool::and(&[k.gt(i as i64), pos[i].le(j as i64), Int::add(&[pos[i].clone(), hints[i].clone()]).gt(j as i64)]))
            .collect();
        let s = Bool::or(&covered);
        valid.push(Bool::and(&[t.clone(), fa.clone()]).not());
        valid.push(inside.not().implies(Bool::and(&[t.not(), fa.not()])));
        valid.push(t.implies(&s));
        valid.push(fa.implies(s.not()));
        is_true.push(t);
        is_false.push(fa);
        solution.push(s);
    }

    // hints: start = i, size = h_i, lowest_end_cell, highest_start_cell
    let total = Int::add(&hints);
    let mut hint_slots = vec![];
    let mut before = Int::from_i64(0);
    for i in 0..max_hints {
        let mut row = vec![Int::from_i64(0); nf];
        row[ids.start.0 as usize] = int(i);
        row[ids.size.0 as usize] = hints[i].clone();
        row[ids.lowest_end.0 as usize] = Int::add(&[int(i), before.clone(), hints[i].clone()]);
        row[ids.highest_start.0 as usize] =
            Int::sub(&[Int::add(&[n.clone(), int(i + 1)]), k.clone(), Int::sub(&[total.clone(), before.clone()])]);
        before = Int::add(&[before, hints[i].clone()]);
        hint_slots.push(row);
    }
    let gap_member: Vec<Bool> = (0..bound).map(|j| Bool::and(&[n.gt(j as i64), is_false[j].not()])).collect();
    let run_slots = bound.div_ceil(2);
    let (block_count, blocks) = runs(&is_true, run_slots, &mut valid, "block");
    let (gap_count, gaps) = runs(&gap_member, run_slots, &mut valid, "gap");
    let table = |runs: Vec<(Int, Int)>| -> Vec<Vec<Int>> {
        runs.into_iter()
            .map(|(s, len)| {
                let mut row = vec![Int::from_i64(0); nf];
                row[ids.start.0 as usize] = s;
                row[ids.size.0 as usize] = len;
                row
            })
            .collect()
    };
    let mut tables = vec![
        SymTable { count: Int::from_i64(0), slots: vec![] },
        SymTable { count: Int::from_i64(0), slots: vec![] },
        SymTable { count: Int::from_i64(0), slots: vec![] },
    ];
    tables[ids.hint.0 as usize] = SymTable { count: k.clone(), slots: hint_slots };
    tables[ids.block.0 as usize] = SymTable { count: block_count, slots: table(blocks) };
    tables[ids.gap.0 as usize] = SymTable { count: gap_count, slots: table(gaps) };
    let view = SymView { globals: vec![n.clone()], tables };
    Encoding { view, valid: Bool::and(&valid), extra: LineTerms { n, k, hints, is_true, is_false, solution } }
}

/// `fill(value, a, b)` is wrong: out of range, or some cell of [a, b)
/// differs from the encoded solution.
pub fn wrong_fill(t: &LineTerms, args: &[Int]) -> Bool {
    let [value, a, b] = args else { return Bool::from_bool(true) };
    let out_of_range = Bool::or(&[a.lt(0), a.gt(b), b.gt(&t.n)]);
    let filled = value.eq(1);
    let differs: Vec<Bool> = t
        .solution
        .iter()
        .enumerate()
        .map(|(j, s)| Bool::and(&[a.le(j as i64), b.gt(j as i64), t.n.gt(j as i64), s.iff(&filled).not()]))
        .collect();
    Bool::or(&[out_of_range, Bool::or(&differs)])
}

/// The concrete line of a model.
pub fn decode(t: &LineTerms, model: &Model) -> Line {
    let get_int = |x: &Int| model.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(0);
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
