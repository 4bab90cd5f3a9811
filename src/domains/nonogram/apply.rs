//! Applying a rule set to a line, exactly as DSL.md says: rounds until a
//! round fills nothing; in a round every rule is evaluated in both
//! orientations (or only the line's own with `one_sided`) on the whole line
//! and on each sub-line of its decomposition, all against the state at the
//! start of the round, and all fills are applied at once. A fill that is out
//! of range or disagrees with the target is an error naming the rule and the
//! line — never counted, never dropped. The frames of a state are
//! available ([`frames`]) for memoised application ([`super::fills`]).

use super::decompose::decompose;
use super::domain::Nonogram;
use super::line::{Cell, Line};
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

    /// The whole line's cells that `fill(value, a, b)` on this frame sets,
    /// checked: in range and agreeing with `target`; else the error naming
    /// `rule` and the frame.
    pub fn checked_cells(&self, rule: &str, value: bool, a: i64, b: i64, target: &[Cell]) -> Result<std::ops::Range<usize>, UnsoundFill> {
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
        for i in a as usize..b as usize {
            let at = self.cell(i);
            if target[at] != want {
                return Err(fail(format!("but cell {at} of the whole line is `{}` in the target", target[at].to_char())));
            }
        }
        Ok(a as usize..b as usize)
    }
}

/// The frames rules are applied to on `hints | cells`: the whole line and
/// each sub-line of its decomposition, in the orientations rules are
/// applied in (mirror first).
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
        if !opts.one_sided {
            out.push(Frame { line: line.mirror(), offset, mirrored: true });
        }
        out.push(Frame { line, offset, mirrored: false });
    }
    out
}

/// A state of a line ready for rules: its cells and its frames, with their
/// views.
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

    /// The fills one round of `rules` makes on unknown cells of this state:
    /// every rule in every frame. `target` is the maximal transition every
    /// fill must agree with.
    pub fn fills(&self, domain: &Nonogram, rules: &[&Rule], target: &[Cell]) -> Result<Vec<(usize, Cell)>, UnsoundFill> {
        let size = crate::domains::Domain::schema(domain).size_feature;
        let mut fills: Vec<(usize, Cell)> = vec![];
        let mut error = None;
        for (frame, view) in &self.frames {
            for rule in rules {
                Interpreter::new(rule, view, size).each_action(|args| {
                    let [v, a, b] = *args else { return };
                    if error.is_some() {
                        return;
                    }
                    match frame.checked_cells(&rule.name, v != 0, a, b, target) {
                        Ok(range) => {
                            for at in range.map(|i| frame.cell(i)) {
                                if self.cells[at] == Cell::Unknown {
                                    fills.push((at, Cell::from_bool(v != 0)));
                                }
                            }
                        }
                        Err(e) => error = Some(e),
                    }
                });
                if let Some(e) = error {
                    return Err(e);
                }
            }
        }
        Ok(fills)
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
