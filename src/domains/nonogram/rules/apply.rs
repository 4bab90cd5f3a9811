//! Applying a rule set to a line, exactly as docs/language.md says: rounds until a
//! round fills nothing; in a round every rule is evaluated in both
//! orientations (or only the line's own with `one_sided`) on the whole line
//! and on each sub-line of its decomposition, all against the state at the
//! start of the round, and all fills are applied at once. A fill that is out
//! of range or disagrees with the target is an error naming the rule and the
//! line — never counted, never dropped. The states at the start of each
//! round, with their frames' views ([`Prepared`]), are available
//! ([`rounds`]) for incremental coverage.

use crate::domains::nonogram::line::decompose::decompose;
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::synthesis::domain::{fill_args, Nonogram};
use crate::dsl::ast::Rule;
use crate::dsl::eval::{Interpreter, View};

/// How rules are applied.
#[derive(Clone, Copy, Debug, Default)]
pub struct ApplyOptions {
    /// Apply rules only in the line's own orientation (no mirror).
    pub one_sided: bool,
}

/// A rule concluded something wrong on a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("rule `{rule}` is unsound: on {line} ({orientation}) it fills {value} cells [{start}, {end}), {reason}")]
pub struct UnsoundFill {
    /// The rule's name.
    pub rule: String,
    /// The (sub-)line it was applied to, as `HINTS | CELLS`, in the
    /// orientation it was evaluated in.
    pub line: String,
    /// `mirrored` or `as given`.
    pub orientation: &'static str,
    /// `true` or `false`.
    pub value: bool,
    /// First cell of the fill, on that line.
    pub start: i64,
    /// One past the last cell of the fill, on that line.
    pub end: i64,
    /// Why it is wrong.
    pub reason: String,
}

/// A (sub-)line in one orientation, with where its cells sit in the whole
/// line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Frame {
    pub line: Line,
    pub offset: usize,
    pub mirrored: bool,
}

impl Frame {
    /// Maps cell `i` of this frame to the whole line.
    pub fn cell(&self, i: usize) -> usize {
        if self.mirrored {
            self.offset + self.line.len() - 1 - i
        } else {
            self.offset + i
        }
    }

    /// The whole line's cells `fill(value, a, b)` on this frame sets,
    /// checked: in range and agreeing with `target`; else the error naming
    /// `rule` and the frame.
    pub fn checked_cells(
        &self,
        rule: &str,
        value: bool,
        a: i64,
        b: i64,
        target: &[Cell],
    ) -> Result<Vec<usize>, UnsoundFill> {
        let fail = |reason: String| UnsoundFill {
            rule: rule.to_string(),
            line: self.line.to_string(),
            orientation: if self.mirrored { "mirrored" } else { "as given" },
            value,
            start: a,
            end: b,
            reason,
        };
        let n = self.line.len() as i64;
        if !(0 <= a && a <= b && b <= n) {
            return Err(fail(format!("which is out of range for a line of {n} cells")));
        }
        let want = Cell::from_bool(value);
        let cells: Vec<usize> = (a as usize..b as usize).map(|i| self.cell(i)).collect();
        if let Some(&at) = cells.iter().find(|&&at| target[at] != want) {
            return Err(fail(format!("but cell {at} of the whole line is `{}` in the target", target[at].to_char())));
        }
        Ok(cells)
    }
}

/// The frames rules are applied to on `hints | cells`: the whole line and
/// each sub-line of its decomposition, each as given and (unless
/// `one_sided`) mirrored.
pub(crate) fn frames(hints: &[u32], cells: &[Cell], opts: ApplyOptions) -> Vec<Frame> {
    let whole = Line::new(hints.to_vec(), cells.to_vec());
    let mut parts = vec![(whole.clone(), 0)];
    if let Some(subs) = decompose(&whole) {
        if subs.len() > 1 {
            parts.extend(subs.into_iter().map(|s| (s.line, s.offset)));
        }
    }
    let mut out = vec![];
    for (line, offset) in parts {
        let mirror = (!opts.one_sided).then(|| line.mirror());
        out.push(Frame { line, offset, mirrored: false });
        if let Some(m) = mirror {
            out.push(Frame { line: m, offset, mirrored: true });
        }
    }
    out
}

/// A state of a line ready for rules: its cells and its frames (the whole
/// line and each sub-line of its decomposition, in the orientations rules
/// are applied in), with their views.
pub struct Prepared {
    cells: Vec<Cell>,
    frames: Vec<(Frame, View)>,
}

impl Prepared {
    /// The state `hints | cells`.
    pub fn new(domain: &Nonogram, hints: &[u32], cells: &[Cell], opts: ApplyOptions) -> Prepared {
        let frames = frames(hints, cells, opts).into_iter().map(|f| {
            let view = domain.line_view(&f.line);
            (f, view)
        });
        Prepared { cells: cells.to_vec(), frames: frames.collect() }
    }

    /// The cells.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Calls `f` with every application of `rules` in every frame (frames
    /// in order, then rules in order, then bindings), after checking it: a
    /// fill that is out of range or disagrees with `target` (the maximal
    /// transition) is an error. Stops early when `f` returns true.
    pub fn each_application(
        &self,
        domain: &Nonogram,
        rules: &[&Rule],
        target: &[Cell],
        mut f: impl FnMut(Application<'_>) -> bool,
    ) -> Result<(), UnsoundFill> {
        let size = crate::domains::Domain::schema(domain).size_feature;
        for (frame, view) in &self.frames {
            for (r, rule) in rules.iter().enumerate() {
                for (binding, action) in Interpreter::new(rule, view, size).applications() {
                    let Some((value, a, b)) = fill_args(&action) else { continue };
                    let cells = frame.checked_cells(&rule.name, value, a, b, target)?;
                    let app = Application {
                        rule: r,
                        binding: &binding,
                        frame: &frame.line,
                        offset: frame.offset,
                        mirrored: frame.mirrored,
                        value,
                        cells,
                    };
                    if f(app) {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

    /// The fills one round of `rules` makes on unknown cells of this state:
    /// every rule in every frame. `target` is the maximal transition every
    /// fill must agree with.
    pub fn fills(
        &self,
        domain: &Nonogram,
        rules: &[&Rule],
        target: &[Cell],
    ) -> Result<Vec<(usize, Cell)>, UnsoundFill> {
        let mut fills: Vec<(usize, Cell)> = vec![];
        self.each_application(domain, rules, target, |app| {
            let want = Cell::from_bool(app.value);
            fills.extend(app.cells.iter().filter(|&&at| self.cells[at] == Cell::Unknown).map(|&at| (at, want)));
            false
        })?;
        Ok(fills)
    }
}

/// One application of a rule to a (sub-)line, already checked sound.
#[derive(Clone, Debug)]
pub struct Application<'a> {
    /// Index of the rule in the rule list.
    pub rule: usize,
    /// The elements bound to the rule's pattern variables, by index in the
    /// frame's tables (hints, blocks, gaps of `frame`).
    pub binding: &'a [usize],
    /// The (sub-)line the rule was applied to, in that orientation.
    pub frame: &'a Line,
    /// Index in the whole line of the frame's first cell (in the line's own
    /// orientation).
    pub offset: usize,
    /// True if the frame is the mirror image of the (sub-)line.
    pub mirrored: bool,
    /// The value filled.
    pub value: bool,
    /// The cells filled, as indices in the whole line.
    pub cells: Vec<usize>,
}

/// Applies `rules` to `start` until nothing changes; `target` is the
/// maximal transition every fill must agree with. Returns the state at the
/// start of every round, the last being the final state (no round fills
/// anything there).
pub fn rounds(
    domain: &Nonogram,
    rules: &[&Rule],
    start: &Line,
    target: &[Cell],
    opts: ApplyOptions,
) -> Result<Vec<Prepared>, UnsoundFill> {
    let mut states = vec![Prepared::new(domain, &start.hints, &start.cells, opts)];
    loop {
        let state = states.last().expect("at least the start");
        let fills = state.fills(domain, rules, target)?;
        if fills.is_empty() {
            return Ok(states);
        }
        let mut next = state.cells.clone();
        for (at, c) in fills {
            next[at] = c;
        }
        states.push(Prepared::new(domain, &start.hints, &next, opts));
    }
}

/// Applies `rules` to `start` until nothing changes; `target` is the
/// maximal transition every fill must agree with. Returns the final cells.
pub fn saturate(
    domain: &Nonogram,
    rules: &[&Rule],
    start: &Line,
    target: &[Cell],
    opts: ApplyOptions,
) -> Result<Vec<Cell>, UnsoundFill> {
    let mut cells = start.cells.clone();
    loop {
        let fills = Prepared::new(domain, &start.hints, &cells, opts).fills(domain, rules, target)?;
        if fills.is_empty() {
            return Ok(cells);
        }
        for (at, c) in fills {
            cells[at] = c;
        }
    }
}

/// Number of cells unknown in `start` and known in `end`.
pub fn newly_known(start: &Line, end: &[Cell]) -> usize {
    start.cells.iter().zip(end).filter(|(s, e)| !s.is_known() && e.is_known()).count()
}
