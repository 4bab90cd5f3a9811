//! The nonogram domain's [`Symbolic`] implementation: the Z3 encoding of an
//! arbitrary line up to a bound (length, hints, one solution, and the
//! hint/block/gap elements of docs/language.md as terms), "this fill is wrong" (out of
//! range, or disagreeing with the solution) and a line read back from a
//! model.
//!
//! The encoding has no per-cell variables: a line is its runs. The solution
//! is the hints placed at positions `p_i` (run `[p_i, p_i + h_i)`), blocks
//! are the maximal runs of true cells and gaps the maximal runs of not-false
//! cells, each a list of `[start, end)` interval slots, increasing and
//! separated by at least one cell, unused slots pinned to `[0, 0)`. The
//! cells are then determined (true: in a block; false: inside the line and
//! in no gap; unknown: otherwise), and they agree with the solution exactly
//! when every block lies inside a gap (no cell is both true and false),
//! every block lies inside a run of the solution (true cells are filled),
//! and every run of the solution lies inside a gap (no filled cell is
//! crossed out) — runs are contiguous and the runs of each kind are
//! separated, so "every cell of the run is covered" is "one interval of the
//! other kind covers the run". "Fill [a, b) with v is wrong" is likewise a
//! statement about the solution's runs. Everything is bounded to
//! `[0, bound]` so nothing can wrap around at the encoding's width.
//!
//! The placement features (the extreme starts of each hint over all
//! solutions) are the starts of two more solutions of the same cells, one
//! starting every hint no later and one no earlier than the first solution
//! does. The leftmost and the rightmost solutions are such, so a rule
//! wrong on some line is wrong on some model: unsat proves it. A model may
//! pick other solutions; the verifier replays it concretely. This
//! [`Placement::Relaxed`] encoding keeps the per-rule slot reduction (a
//! line's extreme solutions agree with the line with cells forgotten too).
//! Where a model of it does not replay, the verifier asks the
//! [`Placement::Tight`] encoding: every slot, and extreme solutions no run
//! of which can move one cell further alone, so that a model that still
//! does not replay can be excluded by pinning its line's true features.
//! The ownership features are read off the same two solutions
//! ([`owners`](super::owners)).

use super::domain::{Ids, Nonogram};
use super::owners::{fits, owner, Extremes, Runs};
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::line::ownership::ownership;
use crate::domains::nonogram::line::state::LineState;
use crate::dsl::ast::{ActionId, PatternKind, Polarity, Rule, TypeId, Var};
use crate::dsl::symbolic::{num, signed_value, widen, Num, NumOps, SymTable, SymView};
use crate::synth::domain::{Domain, Encoding, Symbolic};
use z3::ast::Bool;
use z3::Model;

/// The terms of an encoding that rules do not see directly.
pub struct LineTerms {
    /// The longest line encoded.
    pub bound: usize,
    /// Line length.
    pub n: Num,
    /// Number of hints.
    pub k: Num,
    /// Hint values (0 beyond k).
    pub hints: Vec<Num>,
    /// The solution: `[start, end)` of each hint's run (`[0, 0)` beyond k).
    pub runs: Vec<(Num, Num)>,
    /// Blocks: `[start, end)` per slot, `[0, 0)` when unused.
    pub blocks: Vec<(Num, Num)>,
    /// Gaps: `[start, end)` per slot, `[0, 0)` when unused.
    pub gaps: Vec<(Num, Num)>,
    /// The counts of used block and gap slots.
    pub counts: (Num, Num),
    /// The runs of the solutions giving the placement and ownership
    /// features (leftmost and rightmost, or as far as the encoding says),
    /// if encoded.
    pub placement: Option<(Runs, Runs)>,
    /// `(first_fit, last_fit)` per gap slot, if encoded (else empty).
    pub fits: Extremes,
    /// Whether the encoding is [`Placement::Tight`]: a model that does not
    /// replay may be excluded by pinning its line's true features.
    pub pinnable: bool,
}

/// How an encoding holds the placement and ownership features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Not at all (they are 0): only for rules that do not read them.
    Absent,
    /// As the starts of two more solutions of the cells, no later (no
    /// earlier) than the first solution's: true of the extreme solutions.
    Relaxed,
    /// Relaxed, and no run of those solutions can move one cell further
    /// alone (true of the extreme solutions too); with every slot.
    Tight,
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

/// Interval slots `[start, end)` inside `[0, n)`: `count` are used, each
/// non-empty, increasing and separated by at least one cell; the rest are
/// `[0, 0)`. Returns the count and the slots.
fn intervals(slots: usize, n: &Num, bound: usize, w: u32, valid: &mut Vec<Bool>, name: &str) -> (Num, Vec<(Num, Num)>) {
    let c = |v: usize| num(v as i64, w);
    let count = Num::var(format!("{name}_count"), w);
    valid.push(count.sge(&c(0)));
    valid.push(count.sle(&c(slots)));
    let mut out: Vec<(Num, Num)> = vec![];
    for m in 0..slots {
        let start = Num::var(format!("{name}{m}_start"), w);
        let end = Num::var(format!("{name}{m}_end"), w);
        let present = count.sgt(&c(m));
        valid.push(Bool::and(&[start.sge(&c(0)), start.sle(&c(bound)), end.sge(&c(0)), end.sle(&c(bound))]));
        valid.push(present.implies(Bool::and(&[start.slt(&end), end.sle(n)])));
        valid.push(present.not().implies(Bool::and(&[start.same(&c(0)), end.same(&c(0))])));
        // separated from the previous slot; the earlier slots follow by
        // transitivity, and stating them too only gives Z3 more to read
        if let Some((_, prev_end)) = out.last() {
            valid.push(present.implies(prev_end.slt(&start)));
        }
        out.push((start, end));
    }
    (count, out)
}

/// `[s, e)` lies inside one of `outer` (non-empty `[s, e)`; unused outer
/// slots are `[0, 0)` and contain nothing non-empty).
fn inside_one(s: &Num, e: &Num, outer: &[(Num, Num)]) -> Bool {
    Bool::or(&outer.iter().map(|(os, oe)| Bool::and(&[os.sle(s), e.sle(oe)])).collect::<Vec<_>>())
}

/// How many block and gap slots an encoding has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots {
    /// Block slots.
    pub blocks: usize,
    /// Gap slots.
    pub gaps: usize,
}

impl Slots {
    /// Room for every line up to `bound` cells.
    pub fn all(bound: usize) -> Slots {
        Slots { blocks: bound.div_ceil(2), gaps: bound.div_ceil(2) }
    }

    /// Room enough for the queries about `rule` (see
    /// [`Symbolic::encode_for`](crate::synth::Symbolic::encode_for)).
    ///
    /// A rule reads the cells only through the blocks and gaps its patterns
    /// bind; the hints and the length do not depend on cells. So if a line
    /// gives the rule a wrong application (or satisfies its condition),
    /// the line with the cells no pattern needs forgotten (made unknown)
    /// does too: the bound blocks and gaps, and the solution, stay as they
    /// are. Unless the condition compares a variable's element with the
    /// others of its type (`maximal`, `minimal`, `unique`; for blocks only
    /// where taking other blocks away could falsify it: negated, or inside
    /// a `unique`'s condition, [`compares_others`](crate::dsl::ast::BoolExpr::compares_others)) or the pattern
    /// is `singleton` (whose match depends on every element), keeping
    /// - the true cells of the bound blocks, and those of every block before
    ///   a `constant(block, k)`, leaves 1 block per arbitrary variable and
    ///   k + 1 per constant one (forgetting true cells leaves other blocks
    ///   and every gap unchanged);
    /// - the false cells next to the bound gaps, and every false cell up to
    ///   the end of a `constant(gap, k)`, leaves the bound gaps, the first
    ///   k + 1 gaps, and between and after them at most one merged gap
    ///   each: at most 2 per arbitrary variable and k + 2 per constant one,
    ///   and 1 more (forgetting false cells leaves every block unchanged).
    ///
    /// A type no variable binds thus gets 0 block slots, or 1 gap slot
    /// (the whole line). The same holds with the [`Placement::Relaxed`]
    /// placement and ownership features: the line's leftmost and
    /// rightmost solutions still agree with the line with cells forgotten,
    /// and keep their places relative to the (unchanged) solution; the
    /// kept blocks and gaps keep the line's true ownership features, and
    /// every fact about a merged gap's fits holds of the least and greatest
    /// hint the three solutions place in it.
    pub(crate) fn for_rule(ids: Ids, bound: usize, rule: &Rule) -> Slots {
        let all = Slots::all(bound);
        // taking blocks away removes them (unnegated comparisons with the
        // others stay true); forgetting false cells merges gaps into new
        // ones, so every comparison of a gap counts
        let needs_others = |ty: TypeId, v: Var| {
            let at = if ty == ids.block { Polarity::Positive } else { Polarity::Both };
            rule.condition.compares_others(v, at)
        };
        let needed = |ty: TypeId, per_arbitrary: usize, per_constant: usize| -> Option<usize> {
            let mut count = 0;
            for (v, decl) in rule.decls.iter().enumerate() {
                if decl.ty != ty {
                    continue;
                }
                if needs_others(ty, v as Var) {
                    return None;
                }
                count += match decl.kind {
                    PatternKind::Singleton => return None,
                    PatternKind::Arbitrary => per_arbitrary,
                    PatternKind::Constant(k) => k as usize + per_constant,
                };
            }
            Some(count)
        };
        Slots {
            blocks: needed(ids.block, 1, 1).map_or(all.blocks, |b| b.min(all.blocks)),
            gaps: needed(ids.gap, 2, 2).map_or(all.gaps, |g| (g + 1).min(all.gaps)),
        }
    }
}

/// The runs `[start, end)` of a solution of `k` hints (`[0, 0)` beyond
/// k): increasing, separated, inside the line, run i as long as hint i.
fn solution_runs(
    hints: &[Num],
    n: &Num,
    k: &Num,
    bound: usize,
    w: u32,
    valid: &mut Vec<Bool>,
    name: &str,
) -> Vec<(Num, Num)> {
    let (count, runs) = intervals(hints.len(), n, bound, w, valid, name);
    valid.push(count.same(k));
    for (h, (s, e)) in hints.iter().zip(&runs) {
        valid.push(h.same(&e.minus(s)));
    }
    runs
}

/// The solution of `runs` agrees with the cells: every true cell (in a
/// block) is filled, and no filled cell is false (each run lies in a gap);
/// a block in a run lies in a gap, as the run does.
fn agrees_with_cells(
    runs: &[(Num, Num)],
    k: &Num,
    block_count: &Num,
    blocks: &[(Num, Num)],
    gaps: &[(Num, Num)],
    w: u32,
    valid: &mut Vec<Bool>,
) {
    let c = |v: usize| num(v as i64, w);
    for (i, (s, e)) in blocks.iter().enumerate() {
        valid.push(block_count.sgt(&c(i)).implies(inside_one(s, e, runs)));
    }
    for (i, (s, e)) in runs.iter().enumerate() {
        valid.push(k.sgt(&c(i)).implies(inside_one(s, e, gaps)));
    }
}

/// Run `i` of a solution moved one cell left (`left`) or right, the
/// others staying, is a solution of the same cells: it stays inside the
/// line and apart from its neighbours, the cell it moves onto is not false
/// (its gap reaches it), and the cell it leaves is not true (no block ends,
/// or starts, there; a block lies inside one run). Not so for any run of
/// the leftmost (rightmost) solution.
#[allow(clippy::too_many_arguments)]
fn run_moves(
    runs: &[(Num, Num)],
    i: usize,
    left: bool,
    n: &Num,
    k: &Num,
    blocks: &[(Num, Num)],
    gaps: &[(Num, Num)],
    w: u32,
) -> Bool {
    let c = |v: i64| num(v, w);
    let (s, e) = &runs[i];
    if left {
        let room = match i.checked_sub(1) {
            Some(j) => s.sge(&runs[j].1.plus(&c(2))),
            None => s.sge(&c(1)),
        };
        let onto =
            Bool::or(&gaps.iter().map(|(gs, ge)| Bool::and(&[gs.sle(&s.minus(&c(1))), e.sle(ge)])).collect::<Vec<_>>());
        let leaves = Bool::and(&blocks.iter().map(|(_, be)| be.same(e).not()).collect::<Vec<_>>());
        Bool::and(&[room, onto, leaves])
    } else {
        let last = e.plus(&c(1)).sle(n);
        let room = match runs.get(i + 1) {
            Some((next, _)) => k.sgt(&c(i as i64 + 1)).ite(&e.plus(&c(2)).sle(next), &last),
            None => last,
        };
        let onto =
            Bool::or(&gaps.iter().map(|(gs, ge)| Bool::and(&[gs.sle(s), e.plus(&c(1)).sle(ge)])).collect::<Vec<_>>());
        let leaves =
            Bool::and(&blocks.iter().map(|(bs, be)| Bool::and(&[bs.same(s), bs.slt(be)]).not()).collect::<Vec<_>>());
        Bool::and(&[room, onto, leaves])
    }
}

/// The hints' rows of the view (start = i, size = h_i, `lowest_end_cell`,
/// `highest_start_cell` and, if given, the placement features), their
/// prefix sums and the implied bounds on the solution's runs pushed onto
/// `valid`, in that order.
#[allow(clippy::too_many_arguments)]
fn hint_rows(
    ids: Ids,
    nf: usize,
    bound: usize,
    (n, k): (&Num, &Num),
    hints: &[Num],
    runs: &[(Num, Num)],
    placement: Option<&(Runs, Runs)>,
    valid: &mut Vec<Bool>,
) -> Vec<Vec<Num>> {
    let w = width(bound);
    let c = |v: usize| num(v as i64, w);
    let max_hints = bound.div_ceil(2);
    // hints: start = i, size = h_i, lowest_end_cell, highest_start_cell
    // prefix sums as their own variables keep the arithmetic rows short
    let total = Num::var("total".into(), w);
    valid.push(total.same(&hints.iter().fold(c(0), |acc, h| acc.plus(h))));
    valid.push(total.sge(&c(0)));
    valid.push(total.sle(n));
    let mut hint_slots = vec![];
    let mut before = c(0);
    for i in 0..max_hints {
        if i > 0 {
            let b = Num::var(format!("before{i}"), w);
            valid.push(b.same(&before));
            valid.push(b.sge(&c(0)));
            valid.push(b.sle(&c(bound)));
            before = b;
        }
        let mut row = vec![c(0); nf];
        row[ids.start.0 as usize] = c(i);
        row[ids.size.0 as usize] = hints[i].clone();
        row[ids.lowest_end.0 as usize] = c(i).plus(&before).plus(&hints[i]);
        row[ids.highest_start.0 as usize] = n.plus(&c(i + 1)).minus(k).minus(&total.minus(&before));
        if let Some((left, right)) = placement {
            row[ids.earliest_start.0 as usize] = left[i].0.clone();
            row[ids.latest_start.0 as usize] = right[i].0.clone();
        }
        // implied: the solution places hint i between its leftmost and
        // rightmost packings
        valid.push(k.sgt(&c(i)).implies(Bool::and(&[
            runs[i].1.sge(&row[ids.lowest_end.0 as usize]),
            runs[i].0.sle(&row[ids.highest_start.0 as usize]),
        ])));
        before = before.plus(&hints[i]);
        hint_slots.push(row);
    }
    hint_slots
}

/// Encodes every valid line of 1..=bound cells with at most `slots`
/// blocks and gaps (`ids`: where the domain's names live in the schema,
/// which has `nf` features), with the placement features as `placement`
/// says, and the gaps' fits if `with_fits` (their facts, a few per hint
/// and gap slot, weigh on every query: only for rules that read them).
pub(crate) fn encode(
    ids: Ids,
    nf: usize,
    bound: usize,
    slots: Slots,
    placement: Placement,
    with_fits: bool,
) -> Encoding<LineTerms> {
    let w = width(bound);
    let c = |v: usize| num(v as i64, w);
    let max_hints = bound.div_ceil(2);
    let n = Num::var("n".into(), w);
    let k = Num::var("k".into(), w);
    let mut valid = vec![n.sge(&c(1)), n.sle(&c(bound)), k.sge(&c(0)), k.sle(&c(max_hints))];

    // the solution: hint i occupies [p_i, p_i + h_i)
    let hints: Vec<Num> = (0..max_hints).map(|i| Num::var(format!("h{i}"), w)).collect();
    let runs = solution_runs(&hints, &n, &k, bound, w, &mut valid, "run");
    let (block_count, blocks) = intervals(slots.blocks, &n, bound, w, &mut valid, "block");
    let (gap_count, gaps) = intervals(slots.gaps, &n, bound, w, &mut valid, "gap");
    agrees_with_cells(&runs, &k, &block_count, &blocks, &gaps, w, &mut valid);
    // the placement features: the starts of a second and a third solution
    // of the same cells, each no later (leftmost) / no earlier (rightmost)
    // than the first's; the leftmost and the rightmost solutions are such
    // (and, as those two are, with no run that moves one cell further alone)
    let pinnable = placement == Placement::Tight;
    let placement = (placement != Placement::Absent).then(|| {
        let mut extreme = |name: &str, leftmost: bool| -> Runs {
            let other = solution_runs(&hints, &n, &k, bound, w, &mut valid, name);
            agrees_with_cells(&other, &k, &block_count, &blocks, &gaps, w, &mut valid);
            for (i, ((s, _), (p, _))) in other.iter().zip(&runs).enumerate() {
                let beyond = if leftmost { s.sle(p) } else { s.sge(p) };
                let stays = if pinnable {
                    run_moves(&other, i, leftmost, &n, &k, &blocks, &gaps, w).not()
                } else {
                    Bool::from_bool(true)
                };
                valid.push(k.sgt(&c(i)).implies(Bool::and(&[beyond, stays])));
            }
            other
        };
        (extreme("left", true), extreme("right", false))
    });

    let hint_slots = hint_rows(ids, nf, bound, (&n, &k), &hints, &runs, placement.as_ref(), &mut valid);
    // ownership: a block's owners in the rightmost and leftmost solutions
    // (terms only), a gap's fits (0 where not encoded: no rule reads them)
    let owners: Extremes = match &placement {
        Some((left, right)) => blocks.iter().map(|b| (owner(right, &k, b, w), owner(left, &k, b, w))).collect(),
        None => vec![(c(0), c(0)); blocks.len()],
    };
    let encoded_fits: Option<Extremes> = match &placement {
        Some((left, right)) if with_fits => {
            Some(fits(&gaps, &gap_count, &k, &[&runs, left, right], (left, right), w, &mut valid))
        }
        _ => None,
    };
    let gap_fits = encoded_fits.clone().unwrap_or_else(|| vec![(c(0), c(0)); gaps.len()]);
    let table = |runs: &[(Num, Num)], extremes: &[(Num, Num)], (first, last): (usize, usize)| -> Vec<Vec<Num>> {
        runs.iter()
            .zip(extremes)
            .map(|((s, e), (lo, hi))| {
                let mut row = vec![c(0); nf];
                row[ids.size.0 as usize] = e.minus(s);
                row[ids.start.0 as usize] = s.clone();
                row[first] = lo.clone();
                row[last] = hi.clone();
                row
            })
            .collect()
    };
    let empty = || SymTable { count: c(0), slots: vec![], sparse: None };
    let mut tables = vec![empty(), empty(), empty()];
    tables[ids.hint.0 as usize] = SymTable { count: k.clone(), slots: hint_slots, sparse: None };
    let block_rows = table(&blocks, &owners, (ids.first_owner.0 as usize, ids.last_owner.0 as usize));
    let gap_rows = table(&gaps, &gap_fits, (ids.first_fit.0 as usize, ids.last_fit.0 as usize));
    tables[ids.block.0 as usize] = SymTable { count: block_count.clone(), slots: block_rows, sparse: None };
    tables[ids.gap.0 as usize] = SymTable { count: gap_count.clone(), slots: gap_rows, sparse: None };
    // On a valid line every value the rules see lies in [0, bound]; the
    // stated magnitude leaves room (the encoding's width holds 4 * (bound + 1)).
    let view = SymView {
        globals: vec![n.clone(), k.clone()],
        tables,
        pairs: vec![],
        width: w,
        magnitude: 2 * bound as i64 + 2,
    };
    Encoding {
        view,
        valid: Bool::and(&valid),
        extra: LineTerms {
            bound,
            n,
            k,
            hints,
            runs,
            blocks,
            gaps,
            counts: (block_count, gap_count),
            placement,
            fits: encoded_fits.unwrap_or_default(),
            pinnable,
        },
    }
}

/// `fill(value, a, b)` is wrong: out of range, or some cell of [a, b)
/// differs from the encoded solution. The arguments share one width, at
/// least the encoding's.
///
/// In range and non-empty, filling [a, b) with false is wrong when some run
/// of the solution meets it, and filling with true is wrong when no single
/// run covers it (runs are separated, so cells covered one by one are
/// covered by one run).
pub fn wrong_fill(t: &LineTerms, args: &[Num]) -> Bool {
    let [value, a, b] = args else { return Bool::from_bool(true) };
    let w = a.width().max(t.n.width());
    let (value, a, b) = (widen(value, w), widen(a, w), widen(b, w));
    let n = widen(&t.n, w);
    let out_of_range = Bool::or(&[a.slt(&num(0, w)), a.sgt(&b), b.sgt(&n)]);
    let runs: Vec<(Num, Num)> = t.runs.iter().map(|(s, e)| (widen(s, w), widen(e, w))).collect();
    // unused runs are [0, 0): they meet nothing and cover nothing non-empty
    let meets = Bool::or(&runs.iter().map(|(s, e)| Bool::and(&[s.slt(&b), a.slt(e)])).collect::<Vec<_>>());
    let covered = inside_one(&a, &b, &runs);
    let nonempty = a.slt(&b);
    let filled = value.same(&num(1, w));
    let differs = Bool::and(&[nonempty, filled.ite(&covered.not(), &meets)]);
    Bool::or(&[out_of_range, differs])
}

/// The concrete line of a model.
pub fn decode(t: &LineTerms, model: &Model) -> Line {
    let get = |x: &Num| model.eval(x, true).and_then(|v| signed_value(&v)).unwrap_or(0);
    let n = get(&t.n).clamp(0, t.bound as i64) as usize;
    let k = get(&t.k).clamp(0, t.hints.len() as i64) as usize;
    let hints = t.hints[..k].iter().map(|h| get(h).max(1) as u32).collect();
    let within = |slots: &[(Num, Num)], j: i64| slots.iter().any(|(s, e)| get(s) <= j && j < get(e));
    let cells = (0..n as i64)
        .map(|j| {
            if within(&t.blocks, j) {
                Cell::True
            } else if within(&t.gaps, j) {
                Cell::Unknown
            } else {
                Cell::False
            }
        })
        .collect();
    Line::new(hints, cells)
}

/// "If the encoded line is `line`, its placement and ownership features
/// are the true ones" (`None` without those features, or if `line` does
/// not fit the encoding's slots or is invalid). With every block and gap
/// slot, the slots hold a line's blocks and gaps exactly, so they name it.
/// The extreme solutions' starts pinned, their runs (so the blocks'
/// owners) are the true ones too.
pub fn pin_placement(t: &LineTerms, line: &Line) -> Option<Bool> {
    let (left, right) = t.placement.as_ref().filter(|_| t.pinnable)?;
    let owned = ownership(line)?;
    let ranges = &owned.ranges;
    let (blocks, gaps) = (line.blocks(), line.gaps());
    if line.len() > t.bound
        || blocks.len() > t.blocks.len()
        || gaps.len() > t.gaps.len()
        || ranges.len() > t.hints.len()
    {
        return None;
    }
    let w = t.n.width();
    let c = |v: usize| num(v as i64, w);
    let mut same = vec![
        t.n.same(&c(line.len())),
        t.k.same(&c(ranges.len())),
        t.counts.0.same(&c(blocks.len())),
        t.counts.1.same(&c(gaps.len())),
    ];
    same.extend(line.hints.iter().zip(&t.hints).map(|(&h, x)| x.same(&c(h as usize))));
    for (runs, slots) in [(&blocks, &t.blocks), (&gaps, &t.gaps)] {
        same.extend(
            runs.iter().zip(slots.iter()).map(|(&(s, len), (x, y))| Bool::and(&[x.same(&c(s)), y.same(&c(s + len))])),
        );
    }
    let mut truth: Vec<Bool> = ranges
        .iter()
        .zip(left.iter().zip(right))
        .map(|(r, ((e, _), (l, _)))| Bool::and(&[e.same(&c(r.earliest_start)), l.same(&c(r.latest_start))]))
        .collect();
    let at = |v: i64| num(v, w);
    truth.extend(
        owned
            .gaps
            .iter()
            .zip(&t.fits)
            .map(|(x, (first, last))| Bool::and(&[first.same(&at(x.first)), last.same(&at(x.last))])),
    );
    Some(Bool::and(&same).implies(Bool::and(&truth)))
}

impl Symbolic for Nonogram {
    type Extra = LineTerms;

    fn encode(&self, bound: u32) -> Encoding<LineTerms> {
        encode(
            self.ids(),
            self.schema().feature_count(),
            bound as usize,
            Slots::all(bound as usize),
            Placement::Tight,
            true,
        )
    }

    fn encode_for(&self, bound: u32, rule: &Rule) -> Encoding<LineTerms> {
        let slots = Slots::for_rule(self.ids(), bound as usize, rule);
        let ids = self.ids();
        let extremes = ids.reads_placement(rule) || ids.reads_ownership(rule);
        let placement = if extremes { Placement::Relaxed } else { Placement::Absent };
        encode(ids, self.schema().feature_count(), bound as usize, slots, placement, ids.reads_fits(rule))
    }

    fn encode_tight_for(&self, bound: u32, rule: &Rule) -> Option<Encoding<LineTerms>> {
        let ids = self.ids();
        (ids.reads_placement(rule) || ids.reads_ownership(rule)).then(|| {
            let (nf, slots) = (self.schema().feature_count(), Slots::all(bound as usize));
            encode(ids, nf, bound as usize, slots, Placement::Tight, ids.reads_fits(rule))
        })
    }

    fn wrong(&self, enc: &Encoding<LineTerms>, _action: ActionId, args: &[Num]) -> Bool {
        wrong_fill(&enc.extra, args)
    }

    fn decode(&self, enc: &Encoding<LineTerms>, model: &Model) -> Option<LineState> {
        LineState::new(decode(&enc.extra, model))
    }

    fn pin(&self, enc: &Encoding<LineTerms>, state: &LineState) -> Option<Bool> {
        pin_placement(&enc.extra, &state.line)
    }
}

#[cfg(test)]
#[path = "symbolic_tests.rs"]
mod tests;
