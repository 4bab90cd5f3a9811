//! The nonogram line domain as the engine sees it: line states with their
//! maximal transition, the elements of docs/language.md (hints, blocks, gaps) as a
//! view, `fill` judged by the exact line solver, both orientations, and the
//! exhaustive table of small valid lines.

use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::line::ownership::{ownership, Extremes};
use crate::domains::nonogram::line::state::LineState;
use crate::dsl::ast::{FeatureId, TypeId};
use crate::dsl::eval::{ActionValue, ElementTable, View};
use crate::dsl::schema::Schema;
use crate::synth::domain::{BadState, Domain};

/// The arguments of a `fill(value, a, b)` action value; `None` for a
/// malformed one.
pub fn fill_args(action: &ActionValue) -> Option<(bool, i64, i64)> {
    match action.args.as_slice() {
        [v, a, b] => Some((*v != 0, *a, *b)),
        _ => None,
    }
}

/// Ids of the schema's names the domain provides.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ids {
    pub hint: TypeId,
    pub block: TypeId,
    pub gap: TypeId,
    pub start: FeatureId,
    pub size: FeatureId,
    pub lowest_end: FeatureId,
    pub highest_start: FeatureId,
    pub earliest_start: FeatureId,
    pub latest_start: FeatureId,
    pub first_owner: FeatureId,
    pub last_owner: FeatureId,
    pub first_fit: FeatureId,
    pub last_fit: FeatureId,
}

impl Ids {
    /// Whether `rule` reads a placement feature (`earliest_start`,
    /// `latest_start`), whose values depend on every known cell.
    pub fn reads_placement(&self, rule: &crate::dsl::ast::Rule) -> bool {
        rule.uses_feature(self.earliest_start) || rule.uses_feature(self.latest_start)
    }

    /// Whether `rule` reads an ownership feature (`first_owner`,
    /// `last_owner`, `first_fit`, `last_fit`), whose values depend on every
    /// known cell.
    pub fn reads_ownership(&self, rule: &crate::dsl::ast::Rule) -> bool {
        rule.uses_feature(self.first_owner) || rule.uses_feature(self.last_owner) || self.reads_fits(rule)
    }

    /// Whether `rule` reads a gap's fits (`first_fit`, `last_fit`).
    pub fn reads_fits(&self, rule: &crate::dsl::ast::Rule) -> bool {
        rule.uses_feature(self.first_fit) || rule.uses_feature(self.last_fit)
    }
}

/// The nonogram line domain.
#[derive(Clone, Debug)]
pub struct Nonogram {
    schema: Schema,
    ids: Ids,
}

/// A schema that does not describe nonogram lines.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct SchemaMismatch {
    /// The DSL file.
    pub path: String,
    /// What is missing or extra.
    pub message: String,
}

impl Nonogram {
    /// The domain with the bundled `dsl/nonogram.ron`.
    pub fn new() -> Nonogram {
        Nonogram::with_schema(Schema::nonogram(), "dsl/nonogram.ron").expect("bundled schema fits the domain")
    }

    /// The domain with a designer's schema: it must name exactly the types,
    /// features, globals and actions this domain provides (costs are free).
    pub fn with_schema(schema: Schema, path: &str) -> Result<Nonogram, SchemaMismatch> {
        let err = |message: String| SchemaMismatch { path: path.to_string(), message };
        let ty = |n: &str| schema.type_id(n).ok_or_else(|| err(format!("element type `{n}` is missing")));
        let ft = |n: &str| schema.feature_id(n).ok_or_else(|| err(format!("feature `{n}` is missing")));
        let ids = Ids {
            hint: ty("hint")?,
            block: ty("block")?,
            gap: ty("gap")?,
            start: ft("start")?,
            size: ft("size")?,
            lowest_end: ft("lowest_end_cell")?,
            highest_start: ft("highest_start_cell")?,
            earliest_start: ft("earliest_start")?,
            latest_start: ft("latest_start")?,
            first_owner: ft("first_owner")?,
            last_owner: ft("last_owner")?,
            first_fit: ft("first_fit")?,
            last_fit: ft("last_fit")?,
        };
        if schema.type_count() != 3 || schema.feature_count() != 10 {
            return Err(err("the nonogram domain provides exactly the types hint, block, gap and the features start, size, lowest_end_cell, highest_start_cell, earliest_start, latest_start, first_owner, last_owner, first_fit, last_fit".into()));
        }
        let globals: Vec<&str> = schema.file.globals.iter().map(|g| g.name.as_str()).collect();
        if globals != ["line_size", "hint_count"] {
            return Err(err(
                "the nonogram domain provides exactly the globals `line_size` and `hint_count`, in that order".into(),
            ));
        }
        match schema.file.actions.as_slice() {
            [a] if a.name == "fill"
                && a.params
                    == [
                        crate::dsl::schema::ParamKind::Bool,
                        crate::dsl::schema::ParamKind::Int,
                        crate::dsl::schema::ParamKind::Int,
                    ] => {}
            _ => return Err(err("the nonogram domain provides exactly the action `fill(bool, int, int)`".into())),
        }
        Ok(Nonogram { schema, ids })
    }

    pub(crate) fn ids(&self) -> Ids {
        self.ids
    }

    /// The view of a bare line (hints, blocks, gaps, line_size,
    /// hint_count). The placement and ownership features come from the
    /// exact line solver's possible placements of each hint
    /// ([`ownership`]); on a line no solution extends, where no rule's
    /// conclusion means anything, the placement features are the packings'
    /// (`lowest_end_cell - size`, `highest_start_cell`) and the ownership
    /// features those of no hint (k and -1).
    pub fn line_view(&self, line: &Line) -> View {
        let nf = self.schema.feature_count();
        let ids = self.ids;
        let mut tables = vec![ElementTable::new(nf); 3];
        let k = line.hints.len() as i64;
        let n = line.len() as i64;
        let total: i64 = line.hints.iter().map(|&h| h as i64).sum();
        let owned = ownership(line);
        let ranges = owned.as_ref().map(|o| &o.ranges);
        let mut before = 0i64;
        let mut row = vec![0; nf];
        for (i, &h) in line.hints.iter().enumerate() {
            let h = h as i64;
            let i64i = i as i64;
            let lowest_end = i64i + before + h;
            let highest_start = n - k + i64i + 1 - (total - before);
            row[ids.start.0 as usize] = i64i;
            row[ids.size.0 as usize] = h;
            row[ids.lowest_end.0 as usize] = lowest_end;
            row[ids.highest_start.0 as usize] = highest_start;
            let (earliest, latest) = match ranges {
                Some(r) => (r[i].earliest_start as i64, r[i].latest_start as i64),
                None => (lowest_end - h, highest_start),
            };
            row[ids.earliest_start.0 as usize] = earliest;
            row[ids.latest_start.0 as usize] = latest;
            tables[ids.hint.0 as usize].push(&row);
            before += h;
        }
        let none = Extremes { first: k, last: -1 };
        let blocks = owned.as_ref().map(|o| &o.blocks[..]).unwrap_or(&[]);
        let gaps = owned.as_ref().map(|o| &o.gaps[..]).unwrap_or(&[]);
        for (ty, runs, extremes, (first, last)) in [
            (ids.block, line.blocks(), blocks, (ids.first_owner, ids.last_owner)),
            (ids.gap, line.gaps(), gaps, (ids.first_fit, ids.last_fit)),
        ] {
            for (i, (s, len)) in runs.into_iter().enumerate() {
                row.fill(0);
                row[ids.start.0 as usize] = s as i64;
                row[ids.size.0 as usize] = len as i64;
                let e = extremes.get(i).copied().unwrap_or(none);
                row[first.0 as usize] = e.first;
                row[last.0 as usize] = e.last;
                tables[ty.0 as usize].push(&row);
            }
        }
        View { globals: vec![n, k], tables, pairs: vec![] }
    }
}

impl Default for Nonogram {
    fn default() -> Nonogram {
        Nonogram::new()
    }
}

impl Domain for Nonogram {
    type State = LineState;

    fn schema(&self) -> &Schema {
        &self.schema
    }

    fn view(&self, state: &LineState) -> View {
        self.line_view(&state.line)
    }

    fn is_sound(&self, state: &LineState, action: &ActionValue) -> bool {
        let Some((value, a, b)) = fill_args(action) else { return false };
        let n = state.line.len() as i64;
        if !(0 <= a && a <= b && b <= n) {
            return false;
        }
        let want = Cell::from_bool(value);
        state.target[a as usize..b as usize].iter().all(|&c| c == want)
    }

    fn show(&self, state: &LineState) -> String {
        state.line.to_string()
    }

    /// `HINTS | CELLS`, a line with a solution.
    fn parse_state(&self, text: &str) -> Result<LineState, BadState> {
        let line: Line = text.parse().map_err(|e| BadState::new(text, e))?;
        LineState::new(line).ok_or_else(|| BadState::new(text, "the line has no solution"))
    }

    fn makes(&self, _state: &LineState, deduction: &ActionValue, action: &ActionValue) -> bool {
        match (fill_args(deduction), fill_args(action)) {
            (Some((v, a, b)), Some((w, c, d))) => v == w && c <= a && b <= d,
            _ => false,
        }
    }

    fn gain(&self, state: &LineState, actions: &[ActionValue]) -> usize {
        let n = state.line.len() as i64;
        let mut filled = vec![false; state.line.len()];
        for (_, a, b) in actions.iter().filter_map(fill_args) {
            for i in a.max(0)..b.min(n) {
                filled[i as usize] |= state.line.cells[i as usize] == Cell::Unknown;
            }
        }
        filled.into_iter().filter(|&f| f).count()
    }

    fn images(&self, state: &LineState, deduction: &ActionValue) -> Vec<(LineState, ActionValue)> {
        let n = state.line.len() as i64;
        let mirrored = match fill_args(deduction) {
            Some((v, a, b)) => ActionValue { action: deduction.action, args: vec![v as i64, n - b, n - a] },
            None => deduction.clone(),
        };
        vec![(state.clone(), deduction.clone()), (state.mirror(), mirrored)]
    }

    fn probes(&self, state: &LineState, deduction: &ActionValue) -> Vec<(LineState, ActionValue)> {
        let line = &state.line;
        let Some((v, a, b)) = fill_args(deduction) else { return vec![] };
        if line.len() + 2 > self.schema.file.limits.max_state as usize {
            return vec![];
        }
        // a hint of 1 placed and crossed off beside the line: its solutions
        // are the line's, so the deduction still follows (shifted by 2 when
        // the hint comes first)
        let placed = [Cell::True, Cell::False];
        let before = Line::new([&[1], &line.hints[..]].concat(), [&placed[..], &line.cells[..]].concat());
        let after =
            Line::new([&line.hints[..], &[1]].concat(), [&line.cells[..], &[Cell::False, Cell::True][..]].concat());
        let shifted = ActionValue { action: deduction.action, args: vec![v as i64, a + 2, b + 2] };
        [(before, shifted), (after, deduction.clone())]
            .into_iter()
            .map(|(line, deduction)| {
                (LineState::new(line).expect("a placed hint beside a valid line keeps it valid"), deduction)
            })
            .collect()
    }

    fn small_states(&self, size: u32) -> Vec<LineState> {
        crate::domains::nonogram::line::enumerate::valid_lines(size as usize)
    }

    fn sample_states(&self, table: u32, bound: u32, seed: u64, count: usize) -> Vec<LineState> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let (lo, hi) = ((table + 1) as usize, (bound as usize).max(table as usize + 1));
        (0..count)
            .map(|_| {
                // a random solution, then a random share of its cells known
                let n = rng.gen_range(lo..=hi);
                let density = rng.gen_range(0.2..0.8);
                let solution: Vec<bool> = (0..n).map(|_| rng.gen_bool(density)).collect();
                let known = rng.gen_range(0.0..0.7);
                let cells = solution
                    .iter()
                    .map(|&v| if rng.gen_bool(known) { Cell::from_bool(v) } else { Cell::Unknown })
                    .collect();
                LineState::new(Line::new(crate::domains::nonogram::line::model::hints_of(&solution), cells))
                    .expect("a line with a solution is valid")
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::ast::ActionId;

    fn fill(value: bool, a: i64, b: i64) -> ActionValue {
        ActionValue { action: ActionId(0), args: vec![value as i64, a, b] }
    }

    /// The placement and ownership features equal their definitions
    /// (docs/reference/language.md), found by enumerating every solution,
    /// on every valid line of up to 10 cells: the smallest and the largest
    /// first cell of each hint, the least and greatest hint whose run
    /// contains each block, and the least and greatest hint whose run lies
    /// inside each gap (k and -1 if none); `hint_count` is k.
    #[test]
    fn placement_and_ownership_features_are_their_definitions_over_all_solutions() {
        use crate::domains::nonogram::line::enumerate::for_each_valid_line;
        use crate::domains::nonogram::line::model::solutions_by_hints;
        use rayon::prelude::*;
        let domain = Nonogram::new();
        let ids = domain.ids();
        let mask = |cells: &[Cell], want: Cell| {
            cells.iter().enumerate().filter(|(_, &c)| c == want).fold(0u32, |m, (i, _)| m | 1 << i)
        };
        // the least and greatest hint index among `runs` of the agreeing
        // solutions that satisfy `pred` (k and -1 if none)
        let extremes = |agreeing: &[&Vec<(usize, usize)>], k: usize, pred: &dyn Fn(usize, usize) -> bool| {
            let held = agreeing.iter().flat_map(|runs| runs.iter().enumerate().filter(|(_, &(s, e))| pred(s, e)));
            held.fold((k as i64, -1), |(lo, hi), (i, _)| (lo.min(i as i64), hi.max(i as i64)))
        };
        let lines: usize = (1..=10usize)
            .map(|n| {
                let by_hints: Vec<(Vec<u32>, Vec<Vec<bool>>)> = solutions_by_hints(n).into_iter().collect();
                by_hints
                    .par_iter()
                    .map(|(hints, solutions)| {
                        // each solution as a bit mask with its hints' runs [start, end)
                        let solutions: Vec<(u32, Vec<(usize, usize)>)> = solutions
                            .iter()
                            .map(|s| {
                                let cells: Vec<Cell> = s.iter().map(|&v| Cell::from_bool(v)).collect();
                                let runs = Line::new(hints.clone(), cells.clone())
                                    .blocks()
                                    .iter()
                                    .map(|&(start, len)| (start, start + len))
                                    .collect();
                                (mask(&cells, Cell::True), runs)
                            })
                            .collect();
                        let k = hints.len();
                        let mut count = 0;
                        for_each_valid_line(hints, n, |state| {
                            let line = &state.line;
                            let (yes, no) = (mask(&line.cells, Cell::True), mask(&line.cells, Cell::False));
                            let agreeing: Vec<&Vec<(usize, usize)>> = solutions
                                .iter()
                                .filter(|(s, _)| s & yes == yes && s & no == 0)
                                .map(|(_, runs)| runs)
                                .collect();
                            assert!(!agreeing.is_empty(), "{line}");
                            let view = domain.line_view(line);
                            assert_eq!(view.globals, vec![n as i64, k as i64], "globals of {line}");
                            let table = view.table(ids.hint);
                            for i in 0..k {
                                let earliest = agreeing.iter().map(|s| s[i].0 as i64).min();
                                let latest = agreeing.iter().map(|s| s[i].0 as i64).max();
                                let got = (table.get(i, ids.earliest_start), table.get(i, ids.latest_start));
                                assert_eq!((Some(got.0), Some(got.1)), (earliest, latest), "hint {i} on {line}");
                            }
                            let blocks = view.table(ids.block);
                            for (b, (bs, len)) in line.blocks().into_iter().enumerate() {
                                let owners = extremes(&agreeing, k, &|s, e| s <= bs && bs + len <= e);
                                let got = (blocks.get(b, ids.first_owner), blocks.get(b, ids.last_owner));
                                assert_eq!(got, owners, "owners of block {b} on {line}");
                            }
                            let gaps = view.table(ids.gap);
                            for (g, (gs, len)) in line.gaps().into_iter().enumerate() {
                                let fits = extremes(&agreeing, k, &|s, e| gs <= s && e <= gs + len);
                                let got = (gaps.get(g, ids.first_fit), gaps.get(g, ids.last_fit));
                                assert_eq!(got, fits, "fits of gap {g} on {line}");
                            }
                            count += 1;
                        });
                        count
                    })
                    .sum::<usize>()
            })
            .sum();
        assert!(lines > 100_000, "only {lines} lines");
    }

    #[test]
    fn gain_counts_the_unknown_cells_the_actions_fill_together() {
        let domain = Nonogram::new();
        let state = LineState::new("1 3 | ...##..".parse().unwrap()).unwrap();
        // cells 3-4 are known: [3, 7) fills 5 and 6 only
        assert_eq!(domain.gain(&state, &[fill(true, 3, 7)]), 2);
        // overlapping fills count each cell once; out of range cells none
        assert_eq!(domain.gain(&state, &[fill(false, 0, 2), fill(false, 1, 3), fill(false, 6, 9)]), 4);
        assert_eq!(domain.gain(&state, &[]), 0);
        assert!(domain.productive(&state, &fill(false, 6, 7)));
        assert!(!domain.productive(&state, &fill(true, 3, 3)));
        assert!(!domain.productive(&state, &fill(true, 3, 5)));
    }

    /// Every probe of every deduction of every valid line of up to 6 cells
    /// is a valid line one placed hint longer whose maximal transition is
    /// the line's beside the placed hint, so the deduction (moved with the
    /// line) still follows; a line at the longest state has none.
    #[test]
    fn probes_keep_the_deduction() {
        use crate::domains::nonogram::line::enumerate::valid_lines;
        use crate::domains::nonogram::synthesis::spec::deductions;
        let domain = Nonogram::new();
        let mut probed = 0;
        for state in valid_lines(6) {
            let t = crate::domains::nonogram::formats::lines::Transition {
                start: state.line.clone(),
                target: state.target.clone(),
            };
            for deduction in deductions(&t) {
                let probes = domain.probes(&state, &deduction);
                assert_eq!(probes.len(), 2);
                let (v, a, b) = fill_args(&deduction).unwrap();
                let (before, after) = (&probes[0], &probes[1]);
                assert_eq!(before.0.target, [&[Cell::True, Cell::False][..], &state.target[..]].concat());
                assert_eq!(after.0.target, [&state.target[..], &[Cell::False, Cell::True][..]].concat());
                assert_eq!(before.1.args, vec![v as i64, a + 2, b + 2]);
                assert_eq!(after.1, deduction);
                for (probe, deduction) in &probes {
                    assert!(domain.is_sound(probe, deduction), "{} on {}", domain.show(probe), domain.show(&state));
                }
                probed += 1;
            }
        }
        assert!(probed > 1000);
        let longest = LineState::new(Line::empty(vec![1], 29)).unwrap();
        assert!(domain.probes(&longest, &fill(false, 0, 1)).is_empty());
    }
}
