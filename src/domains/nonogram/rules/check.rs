//! Brute-force soundness of rules: every valid line up to N cells, every
//! binding, every fill judged by the exact line solver. The independent
//! ground truth the Z3 verifier is tested against.
//!
//! One walk over the lines serves every rule, by length (shortest first)
//! and in parallel over hint sequences; a rule found unsound at one length
//! is not evaluated on longer lines. A rule reads only the element types it
//! declares, so on lines of one length and one hint sequence it makes the
//! same fills on all lines with the same blocks (if it declares no gap), the
//! same gaps (if it declares no block), or on all of them (if it declares
//! neither), and with the same placement and ownership features (if it
//! reads them). It is evaluated once per such group, and a fill is sound on
//! the group when every line of the group forces it. Rules that declare
//! both blocks and gaps are evaluated on every line.

use crate::domains::nonogram::line::enumerate::{for_each_valid_line, for_each_valid_solved, hint_sequences};
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::line::ownership::{ownership, Extremes, Ownership};
use crate::domains::nonogram::line::solver::HintRange;
use crate::domains::nonogram::line::state::LineState;
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::domains::Domain;
use crate::dsl::ast::{PatternKind, Rule};
use crate::dsl::eval::{ActionValue, Binding, Interpreter, View};
use rayon::prelude::*;
use std::collections::HashMap;

/// Longest line [`brute_force_all`] handles (cells are bits of a `u64`,
/// and the walk's automaton has a state per pattern cell and one more).
pub const MAX_LEN: usize = 63;

/// A line on which a rule concludes something wrong.
#[derive(Clone, Debug)]
pub struct BruteCounterexample {
    /// The line with its maximal transition.
    pub state: LineState,
    /// The binding.
    pub binding: Binding,
    /// The wrong fill.
    pub action: ActionValue,
}

/// For each rule, the first counterexample among all valid lines of
/// 1..=max_n cells (shortest lines first, then hint order, then the walk's
/// cell order), or `None` if the rule is sound up to max_n.
///
/// # Panics
/// If `max_n` exceeds [`MAX_LEN`].
pub fn brute_force_all(domain: &Nonogram, rules: &[Rule], max_n: usize) -> Vec<Option<BruteCounterexample>> {
    assert!(max_n <= MAX_LEN, "brute force handles lines of at most {MAX_LEN} cells");
    let mut found: Vec<Option<BruteCounterexample>> = vec![None; rules.len()];
    for n in 1..=max_n {
        let live: Vec<usize> = (0..rules.len()).filter(|&r| found[r].is_none()).collect();
        if live.is_empty() {
            break;
        }
        let jobs = hint_sequences(n);
        let unsound: Vec<Vec<usize>> =
            jobs.par_iter().map(|hints| unsound_on(domain, rules, &live, hints, n)).collect();
        let first: Vec<(usize, Option<BruteCounterexample>)> = live
            .par_iter()
            .map(|&r| {
                let cx = jobs
                    .iter()
                    .zip(&unsound)
                    .filter(|(_, u)| u.contains(&r))
                    .find_map(|(hints, _)| first_counterexample(domain, &rules[r], hints, n));
                (r, cx)
            })
            .collect();
        for (r, cx) in first {
            found[r] = cx;
        }
    }
    found
}

/// [`brute_force_all`] for one rule.
pub fn brute_force(domain: &Nonogram, rule: &Rule, max_n: usize) -> Option<BruteCounterexample> {
    brute_force_all(domain, std::slice::from_ref(rule), max_n).pop().flatten()
}

/// What a rule reads of a line besides its hints and length: its blocks,
/// its gaps, the placement features, the ownership features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reads {
    blocks: bool,
    gaps: bool,
    placement: bool,
    ownership: bool,
}

impl Reads {
    /// Whether the rule reads the whole line (the blocks and the gaps
    /// together are its cells), so it is evaluated on every line.
    fn cells(self) -> bool {
        self.blocks && self.gaps
    }
}

fn reads(domain: &Nonogram, rule: &Rule) -> Reads {
    let ids = domain.ids();
    Reads {
        blocks: rule.decls.iter().any(|d| d.ty == ids.block),
        gaps: rule.decls.iter().any(|d| d.ty == ids.gap),
        placement: ids.reads_placement(rule),
        ownership: ids.reads_ownership(rule),
    }
}

/// What lines giving a rule the same fills share: the true cells (if it
/// reads blocks), the not-false cells (if gaps), the hints' ranges (if
/// placement features), the blocks' owners or the gaps' fits (if it reads
/// ownership features, of the type it reads).
type Key = (u64, u64, Vec<HintRange>, Vec<Extremes>);

/// Whether the rule's hint patterns can bind on a line with `k` hints.
fn binds_hints(domain: &Nonogram, rule: &Rule, k: usize) -> bool {
    rule.decls.iter().filter(|d| d.ty == domain.ids().hint).all(|d| match d.kind {
        PatternKind::Singleton => k == 1,
        PatternKind::Constant(c) => (c as usize) < k,
        PatternKind::Arbitrary => k > 0,
    })
}

/// Bit `i` set when cell `i` satisfies `pred`.
fn mask(cells: &[Cell], pred: impl Fn(Cell) -> bool) -> u64 {
    cells.iter().enumerate().filter(|(_, &c)| pred(c)).fold(0, |m, (i, _)| m | 1 << i)
}

/// The cells forced true and forced false on every line of a group.
#[derive(Clone, Copy, Debug)]
struct Forced {
    yes: u64,
    no: u64,
}

impl Forced {
    fn of(target: &[Cell]) -> Forced {
        Forced { yes: mask(target, |c| c == Cell::True), no: mask(target, |c| c == Cell::False) }
    }

    fn add(&mut self, target: &[Cell]) {
        let other = Forced::of(target);
        self.yes &= other.yes;
        self.no &= other.no;
    }

    /// Whether `action` fills only cells of a line of `n` cells that are
    /// forced to its value.
    fn allows(&self, action: &ActionValue, n: usize) -> bool {
        let Some((value, a, b)) = crate::domains::nonogram::synthesis::domain::fill_args(action) else { return false };
        if !(0 <= a && a <= b && b <= n as i64) {
            return false;
        }
        let range = ((1u64 << (b - a)) - 1) << a;
        let forced = if value { self.yes } else { self.no };
        range & !forced == 0
    }
}

/// Lines that give a rule the same fills: one of them, and what they all force.
struct Group {
    cells: Vec<Cell>,
    forced: Forced,
}

impl Group {
    fn new(cells: &[Cell], target: &[Cell]) -> Group {
        Group { cells: cells.to_vec(), forced: Forced::of(target) }
    }
}

/// Adds a line to the group of `key` in `groups`.
fn join(groups: &mut HashMap<Key, Group>, key: Key, cells: &[Cell], target: &[Cell]) {
    groups.entry(key).and_modify(|g| g.forced.add(target)).or_insert_with(|| Group::new(cells, target));
}

/// Whether `rule` fills something not forced on a line with this view,
/// where `forced` is what all lines it stands for force.
fn wrong_on(domain: &Nonogram, rule: &Rule, view: &View, forced: &Forced, n: usize) -> bool {
    let apps = Interpreter::new(rule, view, domain.schema().size_feature).applications();
    apps.iter().any(|(_, action)| !forced.allows(action, n))
}

/// The rules among `live` that some valid line of `n` cells with these hints
/// proves unsound.
fn unsound_on(domain: &Nonogram, rules: &[Rule], live: &[usize], hints: &[u32], n: usize) -> Vec<usize> {
    let live: Vec<usize> = live.iter().copied().filter(|&r| binds_hints(domain, &rules[r], hints.len())).collect();
    // the rules by what they read, each class with its groups of lines
    let mut classes: Vec<(Reads, Vec<usize>, HashMap<Key, Group>)> = vec![];
    for &r in &live {
        let x = reads(domain, &rules[r]);
        match classes.iter_mut().find(|(y, ..)| *y == x) {
            Some((_, members, _)) => members.push(r),
            None => classes.push((x, vec![r], HashMap::new())),
        }
    }
    if classes.is_empty() {
        return vec![];
    }
    let solutions = classes.iter().any(|(x, ..)| x.placement || x.ownership);
    let view_of = |cells: &[Cell]| domain.line_view(&Line::new(hints.to_vec(), cells.to_vec()));
    let mut unsound: Vec<usize> = vec![];
    for_each_valid_solved(hints, n, |line, target| {
        let owned = if solutions { ownership(&Line::new(hints.to_vec(), line.to_vec())) } else { None };
        let Ownership { ranges, blocks, gaps } =
            owned.unwrap_or(Ownership { ranges: vec![], blocks: vec![], gaps: vec![] });
        let (yes, maybe) = (mask(line, |c| c == Cell::True), mask(line, |c| c != Cell::False));
        let mut view = None;
        for (x, members, groups) in &mut classes {
            if !x.cells() {
                let owners = match (x.ownership, x.blocks) {
                    (false, _) => vec![],
                    (true, true) => blocks.clone(),
                    (true, false) => gaps.clone(),
                };
                let key = (
                    if x.blocks { yes } else { 0 },
                    if x.gaps { maybe } else { 0 },
                    if x.placement { ranges.clone() } else { vec![] },
                    owners,
                );
                join(groups, key, line, target);
                continue;
            }
            if members.iter().all(|r| unsound.contains(r)) {
                continue;
            }
            let view = view.get_or_insert_with(|| view_of(line));
            let forced = Forced::of(target);
            for &r in members.iter() {
                if !unsound.contains(&r) && wrong_on(domain, &rules[r], view, &forced, n) {
                    unsound.push(r);
                }
            }
        }
    });
    for (_, members, groups) in &classes {
        for g in groups.values() {
            let view = view_of(&g.cells);
            for &r in members {
                if !unsound.contains(&r) && wrong_on(domain, &rules[r], &view, &g.forced, n) {
                    unsound.push(r);
                }
            }
        }
    }
    unsound
}

/// The first line of `n` cells with these hints (in the walk's order) on
/// which `rule` makes a wrong fill, with the binding and the fill.
fn first_counterexample(domain: &Nonogram, rule: &Rule, hints: &[u32], n: usize) -> Option<BruteCounterexample> {
    let size = domain.schema().size_feature;
    let mut found = None;
    for_each_valid_line(hints, n, |state| {
        if found.is_some() {
            return;
        }
        let view = domain.view(state);
        found = Interpreter::new(rule, &view, size)
            .applications()
            .into_iter()
            .find(|(_, action)| !domain.is_sound(state, action))
            .map(|(binding, action)| BruteCounterexample { state: state.clone(), binding, action });
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::enumerate::valid_lines;
    use crate::dsl::parse::parse_rules;

    /// Rules reading nothing, blocks, gaps and both, ownership of blocks
    /// and of gaps, sound and not.
    const RULES: &str = "
def boxes:
    with h = arbitrary(hint):
    if lowest_end_cell(h) > highest_start_cell(h):
    then fill(true, highest_start_cell(h), lowest_end_cell(h))
def boxes_wide:
    with h = arbitrary(hint):
    if lowest_end_cell(h) > highest_start_cell(h):
    then fill(true, highest_start_cell(h), lowest_end_cell(h) + 1)
def punctuate:
    with h = arbitrary(hint) and b = arbitrary(block):
    if maximal(h) and size(b) = size(h) and start(b) > 0:
    then fill(false, start(b) - 1, start(b))
def punctuate_any:
    with h = arbitrary(hint) and b = arbitrary(block):
    if size(b) = size(h) and start(b) > 0:
    then fill(false, start(b) - 1, start(b))
def small_gap:
    with g = arbitrary(gap) and h = arbitrary(hint):
    if minimal(h) and size(g) < size(h):
    then fill(false, start(g), start(g) + size(g))
def small_gap_le:
    with g = arbitrary(gap) and h = arbitrary(hint):
    if minimal(h) and size(g) <= size(h):
    then fill(false, start(g), start(g) + size(g))
def far_gap:
    with h = singleton(hint) and b = arbitrary(block) and g = arbitrary(gap):
    if start(g) + size(g) < start(b):
    then fill(false, start(g), start(g) + size(g))
def far_gap_or_around:
    with h = singleton(hint) and b = arbitrary(block) and g = arbitrary(gap):
    if start(g) < start(b):
    then fill(false, start(g), start(g) + size(g))
def joined:
    with b = arbitrary(block) and c = arbitrary(block):
    if start(b) < start(c) and first_owner(b) = last_owner(c):
    then fill(true, start(b) + size(b), start(c))
def joined_any:
    with b = arbitrary(block) and c = arbitrary(block):
    if start(b) < start(c) and first_owner(b) <= last_owner(c):
    then fill(true, start(b) + size(b), start(c))
def unusable:
    with g = arbitrary(gap):
    if first_fit(g) > last_fit(g):
    then fill(false, start(g), start(g) + size(g))
def unusable_or_one:
    with g = arbitrary(gap):
    if first_fit(g) >= last_fit(g):
    then fill(false, start(g), start(g) + size(g))
";

    #[test]
    fn grouped_walk_agrees_with_every_line_every_binding() {
        let domain = Nonogram::new();
        let rules = parse_rules(RULES, "t", domain.schema()).unwrap();
        let max_n = 7;
        let lines = valid_lines(max_n);
        let found = brute_force_all(&domain, &rules, max_n);
        for (rule, cx) in rules.iter().zip(&found) {
            let first = lines.iter().find_map(|state| {
                let view = domain.view(state);
                let apps = Interpreter::new(rule, &view, domain.schema().size_feature).applications();
                apps.into_iter().find(|(_, a)| !domain.is_sound(state, a)).map(|(_, a)| (state.clone(), a))
            });
            match (cx, first) {
                (None, None) => {}
                (Some(cx), Some((state, action))) => {
                    // the same first counterexample: shortest, then hints, then walk order
                    assert_eq!((&cx.state, &cx.action), (&state, &action), "{}", rule.name);
                }
                (cx, first) => panic!("{}: grouped {:?}, per line {:?}", rule.name, cx.is_some(), first.is_some()),
            }
        }
        let unsound: Vec<&str> =
            rules.iter().zip(&found).filter(|(_, c)| c.is_some()).map(|(r, _)| r.name.as_str()).collect();
        assert_eq!(
            unsound,
            ["boxes_wide", "punctuate_any", "small_gap_le", "far_gap_or_around", "joined_any", "unusable_or_one"]
        );
    }
}
