//! A model player solving a whole board step by step with some knowledge
//! (a rule set with the decomposition oracle, or the exact line solver),
//! told one cell by an oracle each time that knowledge is stuck: the solve
//! `explain` shows and `analyze` rates.
//!
//! A knowledge step is one deduction on one line: with rules, the first
//! application (lines in queue order; frames, rules, bindings in order) that
//! fills an unknown cell; with the line solver, a line's maximal
//! transition. Every rule fill is checked against the line's maximal
//! transition (a wrong fill is an error naming the rule). Rules are only
//! applied to lines up to the schema's `max_state` cells (where their proofs
//! stop); longer lines move only by the line crossing them or the oracle.
//!
//! An oracle step reveals one cell of the solution: the first cell (row by
//! row) whose wrong value a probe refutes (propagation with the exact line
//! solver reaches a contradiction); if there is none, a guess: the cell
//! whose revealed value lets propagation fix the most cells, ties to the
//! first. It costs `1 + log2(U)` bits, U the unknown cells then
//! (naming one of U cells and one of 2 values: Shen's solution information
//! with a uniform policy over the moves). The difficulty is their sum. The
//! oracle keeps its probes from one reveal to the next (`oracle`).
//!
//! A solve may be given a deadline: past it, the player stops and says so
//! ([`PlayError::OutOfTime`]).

use std::collections::VecDeque;
use std::time::Instant;

use super::oracle::Oracle;
use crate::domains::nonogram::board::grid::{Axis, LineId};
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::line::bitline::{self, Masks, MAX_LINE};
use crate::domains::nonogram::line::decompose::decompose;
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::line::ownership::{ownership, Extremes};
use crate::domains::nonogram::line::solver::LineSolver;
use crate::domains::nonogram::rules::apply::{ApplyOptions, Prepared};
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::domains::Domain;
use crate::dsl::ast::{FeatureId, Rule};

/// What the player knows.
#[derive(Clone, Copy, Debug)]
pub enum Knowledge<'a> {
    /// The exact line solver.
    LineSolver,
    /// A rule set (with the decomposition oracle), both orientations.
    Rules {
        /// The domain (schema) the rules are written in.
        domain: &'a Nonogram,
        /// The rules, in the order they are tried.
        rules: &'a [Rule],
    },
}

/// How a step was found.
#[derive(Clone, Debug, PartialEq)]
pub enum How {
    /// The exact line solver's maximal transition of the line.
    LineSolver,
    /// A rule application.
    Rule {
        /// Index of the rule.
        rule: usize,
        /// Each pattern variable and the element bound to it, in words.
        binding: Vec<String>,
        /// The sub-line the rule was applied to (first and last cell, 0-based
        /// in the line), if the decomposition oracle split the line.
        sub_line: Option<(usize, usize)>,
        /// True if the rule was applied to the mirror image.
        mirrored: bool,
    },
    /// The oracle told a cell whose other value a probe refutes.
    Probe,
    /// The oracle told a cell no probe settles: a guess.
    Guess,
}

/// One step of the solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// How it was found.
    pub how: How,
    /// The line deduced on (knowledge steps only).
    pub line: Option<LineId>,
    /// The cells it fills: grid index (row by row) and value.
    pub filled: Vec<(usize, bool)>,
    /// Unknown cells before the step.
    pub unknown: usize,
    /// Information the step cost (0 for knowledge steps).
    pub bits: f64,
}

/// A whole solve.
#[derive(Clone, Debug)]
pub struct Playthrough {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// How often each rule made a step (empty for the line solver).
    pub rule_counts: Vec<usize>,
    /// The sum of the steps' bits.
    pub difficulty: f64,
}

impl Playthrough {
    /// True if the knowledge alone solved the board (no oracle step).
    pub fn solved_by_knowledge(&self) -> bool {
        self.steps.iter().all(|s| s.bits == 0.0)
    }

    /// Oracle steps.
    pub fn oracle_steps(&self) -> usize {
        self.steps.iter().filter(|s| s.bits > 0.0).count()
    }
}

/// What can go wrong while playing.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// A rule filled a cell the line does not force.
    #[error("{line}: {source}")]
    Unsound {
        /// The line.
        line: LineId,
        /// The wrong fill.
        #[source]
        source: Box<crate::domains::nonogram::rules::apply::UnsoundFill>,
    },
    /// The solution given does not fit the board.
    #[error("{0}: the board has no solution agreeing with the known cells")]
    Contradiction(LineId),
    /// The deadline passed before the solve ended.
    #[error("the deadline passed before the solve ended")]
    OutOfTime,
}

/// The line id of line `l` of `clues`.
pub fn line_id(clues: &Clues, l: usize) -> LineId {
    if l < clues.height() {
        LineId { axis: Axis::Row, index: l }
    } else {
        LineId { axis: Axis::Column, index: l - clues.height() }
    }
}

/// Plays the board to the end with `knowledge`; `solution` (row by row) is
/// what the oracle reveals. Stops with [`PlayError::OutOfTime`] once past
/// `deadline` (read before each line deduction and each probe).
pub fn play(
    clues: &Clues,
    knowledge: Knowledge,
    solution: &[bool],
    deadline: Option<Instant>,
) -> Result<Playthrough, PlayError> {
    let mut player = Player {
        clues,
        knowledge,
        grid: vec![Cell::Unknown; clues.cells()],
        unknown: clues.cells(),
        solver: LineSolver::new(),
        oracle: Oracle::new(clues),
        queue: (0..clues.line_count()).collect(),
        queued: vec![true; clues.line_count()],
        steps: vec![],
        counts: match knowledge {
            Knowledge::Rules { rules, .. } => vec![0; rules.len()],
            Knowledge::LineSolver => vec![],
        },
    };
    let mut out_of_time = || crate::deadline::past(deadline);
    loop {
        while let Some(l) = player.queue.pop_front() {
            if out_of_time() {
                return Err(PlayError::OutOfTime);
            }
            player.queued[l] = false;
            if let Some(step) = player.deduce(l)? {
                // keep the line at the front: it may allow more
                player.queued[l] = true;
                player.apply(step);
                player.queue.push_front(l);
            }
        }
        if player.unknown == 0 {
            break;
        }
        let step = player.reveal(solution, &mut out_of_time)?;
        player.apply(step);
    }
    let difficulty = player.steps.iter().map(|s| s.bits).sum();
    Ok(Playthrough { steps: player.steps, rule_counts: player.counts, difficulty })
}

struct Player<'a> {
    clues: &'a Clues,
    knowledge: Knowledge<'a>,
    grid: Vec<Cell>,
    /// The unknown cells of `grid`.
    unknown: usize,
    solver: LineSolver,
    oracle: Oracle,
    queue: VecDeque<usize>,
    queued: Vec<bool>,
    steps: Vec<Step>,
    counts: Vec<usize>,
}

impl Player<'_> {
    /// Writes a step's cells and queues the lines crossing them.
    fn apply(&mut self, step: Step) {
        for &(p, v) in &step.filled {
            self.grid[p] = Cell::from_bool(v);
            self.unknown -= 1;
            self.oracle.set(self.clues, p, v);
            for l in self.clues.lines_through(p) {
                if !self.queued[l] {
                    self.queued[l] = true;
                    self.queue.push_back(l);
                }
            }
        }
        if let How::Rule { rule, .. } = step.how {
            self.counts[rule] += 1;
        }
        self.steps.push(step);
    }

    /// The knowledge's next step on line `l`, if any.
    fn deduce(&mut self, l: usize) -> Result<Option<Step>, PlayError> {
        let id = line_id(self.clues, l);
        if matches!(self.knowledge, Knowledge::LineSolver) && self.clues.len(l) <= MAX_LINE {
            return self.deduce_on_bits(l).map_err(|_| PlayError::Contradiction(id));
        }
        let mut cells = vec![];
        self.clues.read_line(&self.grid, l, &mut cells);
        if cells.iter().all(|c| c.is_known()) {
            return Ok(None);
        }
        let line = Line::new(self.clues.hints(l).to_vec(), cells);
        let target = self.solver.solve(&line).ok_or(PlayError::Contradiction(id))?;
        let unknown = self.unknown;
        let step = |how, filled: Vec<(usize, bool)>| Step { how, line: Some(id), filled, unknown, bits: 0.0 };
        match self.knowledge {
            Knowledge::LineSolver => {
                let filled: Vec<(usize, bool)> = (0..line.len())
                    .filter(|&i| !line.cells[i].is_known() && target[i].is_known())
                    .map(|i| (self.clues.pos(l, i), target[i] == Cell::True))
                    .collect();
                Ok((!filled.is_empty()).then(|| step(How::LineSolver, filled)))
            }
            Knowledge::Rules { domain, rules } => {
                if line.len() > domain.schema().file.limits.max_state as usize {
                    return Ok(None);
                }
                let refs: Vec<&Rule> = rules.iter().collect();
                let prepared = Prepared::new(domain, &line.hints, &line.cells, ApplyOptions::default());
                let mut found = None;
                prepared
                    .each_application(domain, &refs, &target, |app| {
                        let filled: Vec<(usize, bool)> = app
                            .cells
                            .iter()
                            .filter(|&&i| !line.cells[i].is_known())
                            .map(|&i| (self.clues.pos(l, i), app.value))
                            .collect();
                        if filled.is_empty() {
                            return false;
                        }
                        let rule = &rules[app.rule];
                        let whole = app.offset == 0 && app.frame.len() == line.len();
                        let how = How::Rule {
                            rule: app.rule,
                            binding: describe_binding(domain, rule, &line, &app),
                            sub_line: (!whole).then(|| (app.offset, app.offset + app.frame.len() - 1)),
                            mirrored: app.mirrored,
                        };
                        found = Some(step(how, filled));
                        true
                    })
                    .map_err(|source| PlayError::Unsound { line: id, source: Box::new(source) })?;
                Ok(found)
            }
        }
    }

    /// The line solver's step on line `l` (at most [`MAX_LINE`] cells), by
    /// the bit-mask line solver: the same maximal transition as
    /// `LineSolver`'s (both are exact), for a fraction of the cost. `Err`
    /// if the line has no solution.
    fn deduce_on_bits(&self, l: usize) -> Result<Option<Step>, ()> {
        let (n, clues) = (self.clues.len(l), self.clues);
        let mut m = Masks::default();
        for i in 0..n {
            match self.grid[clues.pos(l, i)] {
                Cell::True => m.fill |= 1 << i,
                Cell::False => m.empty |= 1 << i,
                Cell::Unknown => {}
            }
        }
        if m.known() == (1u128 << n) - 1 {
            return Ok(None);
        }
        let target = bitline::solve(clues.hints(l), n, m).ok_or(())?;
        let new = target.known() & !m.known();
        if new == 0 {
            return Ok(None);
        }
        let filled = (0..n).filter(|&i| new >> i & 1 == 1).map(|i| (clues.pos(l, i), target.fill >> i & 1 == 1));
        Ok(Some(Step {
            how: How::LineSolver,
            line: Some(line_id(clues, l)),
            filled: filled.collect(),
            unknown: self.unknown,
            bits: 0.0,
        }))
    }

    /// The oracle's step (see the module doc).
    fn reveal(&mut self, solution: &[bool], out_of_time: &mut dyn FnMut() -> bool) -> Result<Step, PlayError> {
        let unknowns: Vec<usize> = (0..self.grid.len()).filter(|&p| !self.grid[p].is_known()).collect();
        let (p, refuted) =
            self.oracle.reveal(self.clues, solution, &unknowns, out_of_time).map_err(|_| PlayError::OutOfTime)?;
        Ok(Step {
            how: if refuted { How::Probe } else { How::Guess },
            line: None,
            filled: vec![(p, solution[p])],
            unknown: self.unknown,
            bits: 1.0 + (self.unknown as f64).log2(),
        })
    }
}

/// Each pattern variable of an application and its element, in words:
/// `h = hint 2 (3)` (hints numbered from 1 along the line), `b = block at
/// cells 4-6`, `g = gap at cells 1-3` (cells numbered from 1 along the
/// line); where the rule reads the blocks' owners or the gaps' fits, what
/// they are: `b = block at cells 4-6: it must be part of the 6 (hint 2)`, `g =
/// gap at cells 1-3: no hint can lie in it`.
fn describe_binding(
    domain: &Nonogram,
    rule: &Rule,
    line: &Line,
    app: &crate::domains::nonogram::rules::apply::Application,
) -> Vec<String> {
    let ids = domain.ids();
    let frame = app.frame;
    // the index of the frame's first hint in the whole line
    let hint_offset = if app.offset == 0 && frame.len() == line.len() {
        0
    } else {
        decompose(line)
            .map(|subs| subs.iter().take_while(|s| s.offset != app.offset).map(|s| s.line.hints.len()).sum())
            .unwrap_or(0)
    };
    let hint = |e: usize| {
        let j = if app.mirrored { frame.hints.len() - 1 - e } else { e };
        format!("the {} (hint {})", frame.hints[e], hint_offset + j + 1)
    };
    let hints = |x: &Extremes| {
        let (a, b) = (hint(x.first as usize), hint(x.last as usize));
        if x.first == x.last {
            a
        } else if app.mirrored {
            format!("{b} to {a}")
        } else {
            format!("{a} to {b}")
        }
    };
    let owned = ids.reads_ownership(rule).then(|| ownership(frame)).flatten();
    let reads = |features: [FeatureId; 2]| features.iter().any(|&f| rule.uses_feature(f));
    let span = |s: usize, len: usize| {
        let first = if app.mirrored { app.offset + frame.len() - s - len } else { app.offset + s };
        format!("cells {}-{}", first + 1, first + len)
    };
    rule.decls
        .iter()
        .zip(app.binding)
        .map(|(d, &e)| {
            let what = if d.ty == ids.hint {
                let j = if app.mirrored { frame.hints.len() - 1 - e } else { e };
                format!("hint {} ({})", hint_offset + j + 1, frame.hints[e])
            } else if d.ty == ids.block {
                let (s, len) = frame.blocks()[e];
                let owners = match &owned {
                    Some(o) if reads([ids.first_owner, ids.last_owner]) => {
                        let x = &o.blocks[e];
                        let can = if x.first == x.last { "must" } else { "can only" };
                        format!(": it {can} be part of {}", hints(x))
                    }
                    _ => String::new(),
                };
                format!("block at {}{owners}", span(s, len))
            } else {
                let (s, len) = frame.gaps()[e];
                let fits = match &owned {
                    Some(o) if reads([ids.first_fit, ids.last_fit]) => match &o.gaps[e] {
                        x if x.first > x.last => ": no hint can lie in it".to_string(),
                        x => format!(": only {} can lie in it", hints(x)),
                    },
                    _ => String::new(),
                };
                format!("gap at {}{fits}", span(s, len))
            };
            format!("{} = {what}", d.name)
        })
        .collect()
}
