//! The two ways of making puzzles, as `generate nonogram` and its benchmark
//! run them: the first random candidates that pass the checks of
//! [`accept`], and the repairs of a picture that pass them, best first.
//! A player error met in parallel work (a rule filling a wrong cell) is
//! kept and reported, never lost.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::accept::{accept, Wanted};
use super::judge::{ambiguous_cells, differing_cells, Solve};
use super::picture::Picture;
use super::random::{first_accepted, Shape};
use super::repair::{repair, Repair, RepairBudget, Tally};
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::formats::non::clues_of;
use crate::domains::nonogram::play::player::PlayError;
use crate::stop::Stop;

/// Why making failed.
#[derive(Debug, thiserror::Error)]
pub enum MakeError {
    /// The player failed (a rule filled a wrong cell).
    #[error("the player failed: {0}")]
    Play(String),
    /// A picture the player solves whose single solution the complete
    /// solver could not confirm within its node budget.
    #[error("the complete solver could not confirm one solution within {0} nodes")]
    Unconfirmed(u64),
}

/// The first player error met by parallel work.
#[derive(Default)]
struct FirstError(Mutex<Option<String>>);

impl FirstError {
    /// The value of `result`, or `None` with its error kept.
    fn keep<T>(&self, result: Result<T, PlayError>) -> Option<T> {
        match result {
            Ok(t) => Some(t),
            Err(e) => {
                if let Ok(mut slot) = self.0.lock() {
                    slot.get_or_insert(e.to_string());
                }
                None
            }
        }
    }

    /// Whether an error was met.
    fn met(&self) -> bool {
        self.0.lock().map_or(true, |slot| slot.is_some())
    }

    /// `Err` with the first error kept, if any.
    fn check(self) -> Result<(), MakeError> {
        match self.0.into_inner().ok().flatten() {
            Some(e) => Err(MakeError::Play(e)),
            None => Ok(()),
        }
    }
}

/// A random puzzle kept: its candidate index, picture and solve.
pub type Kept = (u64, Picture, Solve);

/// Random puzzles: the first `count` candidates (below `max_candidates`)
/// that pass, with their index and the player's solve; and the number of
/// candidates judged. No candidate is judged after `deadline`: the puzzles
/// kept are then those among the candidates before the first one not
/// judged, so they are what a run without the deadline begins with.
/// `progress` as [`first_accepted`]'s (told the candidates judged and kept
/// after each batch, it stops the search by returning `false`); the first
/// player error stops the search after its batch.
pub fn random_puzzles(
    shape: &Shape,
    seed: u64,
    count: usize,
    max_candidates: u64,
    wanted: &Wanted,
    deadline: Option<Instant>,
    mut progress: impl FnMut(u64, usize) -> bool,
) -> Result<(Vec<Kept>, u64), MakeError> {
    let errors = FirstError::default();
    let unjudged = AtomicU64::new(u64::MAX);
    let (mut kept, judged) = first_accepted(
        shape,
        seed,
        count,
        max_candidates,
        |i, p| {
            if crate::deadline::past(deadline) {
                unjudged.fetch_min(i, Ordering::Relaxed);
                return None;
            }
            errors.keep(accept(wanted, shape.width, &p.cells)).flatten()
        },
        |judged, kept| progress(judged, kept) && !errors.met() && unjudged.load(Ordering::Relaxed) == u64::MAX,
    );
    errors.check()?;
    let cut = unjudged.into_inner();
    kept.retain(|(i, _, _)| *i < cut);
    Ok((kept, judged.min(cut)))
}

/// How long past the search's deadline the checks of the repairs it found
/// (the player's solve, the complete solver's count with its SAT
/// fallback) may run, so that a repair found near the deadline is not
/// lost to it, and all of them end by then.
const CHECK_TIME: Duration = Duration::from_secs(10);

/// Undecided cells from which a repair for uniqueness alone goes straight
/// to the search's descent (stage 4).
const DESCEND_FROM: usize = 24;

/// A picture's repairs.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// Cells the player leaves undecided in the picture (0: it is fine).
    pub undecided: usize,
    /// Cells where two solutions of the picture's clues differ (0: the
    /// complete solver found one, or stopped first); the search starts
    /// near them.
    pub differing: usize,
    /// What ran out, if the search ended on its budget without a repair.
    pub stopped: Option<Stop>,
    /// Pictures judged by the search.
    pub evaluations: usize,
    /// The search's stage that found the repairs (0: the picture is fine).
    pub stage: usize,
    /// The repairs that pass the checks, best first (fewest changes, then
    /// fewest steps, then changed cells): the changed cells and the solve.
    /// One with no change if the picture is fine; none if the search found
    /// none within its budget.
    pub repairs: Vec<(Vec<usize>, Solve)>,
}

/// Repairs `picture` for what is `wanted`, within `budget`, telling
/// `tally` of every picture judged. Without guessing (`wanted.bits` is
/// `0..=0`) a picture is judged by the cells the player leaves undecided;
/// with guessing allowed, for uniqueness alone, by the cells where some
/// other solution differs ([`ambiguous_cells`]; the repairs found are then
/// kept if the player's bits are within `wanted.bits`), and the search
/// starts near those cells. For the player, if the clues have two
/// solutions, the search starts near the cells where they differ (any
/// repair must tell them apart), else near the cells the player leaves
/// undecided. For uniqueness alone the search is the single changes, then
/// the descent (straight to it from [`DESCEND_FROM`] ambiguous cells): a
/// repair, not the fewest changes. The checks of the repairs found (the
/// player's solve, the complete solver's count) may run [`CHECK_TIME`]
/// past the budget's deadline.
pub fn repair_picture(
    picture: &Picture,
    wanted: &Wanted,
    budget: RepairBudget,
    tally: &Tally,
) -> Result<Repaired, MakeError> {
    let width = picture.width;
    let errors = FirstError::default();
    let unique_only = *wanted.bits.end() > 0.0;
    // for uniqueness alone a repair, not the fewest changes: the pictures
    // that need one have many independent ambiguities
    let budget = match unique_only {
        true => RepairBudget { descend_from: DESCEND_FROM, fewest_stages: 1, ..budget },
        false => budget,
    };
    let undecided = |cells: &[bool]| {
        let (rows, columns) = clues_of(width, cells.len() / width, cells);
        let clues = Clues::new(rows, columns);
        if unique_only {
            return ambiguous_cells(&clues, cells, wanted.max_nodes, budget.deadline);
        }
        errors.keep(wanted.player.undecided(&clues, cells)).unwrap_or_else(|| (0..cells.len()).collect())
    };
    let initial = undecided(&picture.cells);
    // the checks may run past the search's deadline, so that a repair
    // found near it is not lost to it
    let checked = Wanted { deadline: budget.deadline.map(|d| d + CHECK_TIME), ..wanted.clone() };
    let passing = |changed: Vec<usize>| -> Result<Option<(Vec<usize>, Solve)>, MakeError> {
        let cells = Repair { changed: changed.clone() }.apply(&picture.cells);
        let solve = accept(&checked, width, &cells).map_err(|e| MakeError::Play(e.to_string()))?;
        Ok(solve.map(|s| (changed, s)))
    };
    if initial.is_empty() {
        errors.check()?;
        let fine = passing(vec![])?.ok_or(MakeError::Unconfirmed(wanted.max_nodes))?;
        return Ok(Repaired {
            undecided: 0,
            differing: 0,
            stopped: None,
            evaluations: 1,
            stage: 0,
            repairs: vec![fine],
        });
    }
    let (rows, columns) = clues_of(width, picture.height, &picture.cells);
    let differing = differing_cells(&Clues::new(rows, columns), wanted.max_nodes, budget.deadline).unwrap_or_default();
    let start = if differing.is_empty() || unique_only { initial.clone() } else { differing.clone() };
    let found = repair(width, &picture.cells, start, &undecided, budget, tally);
    errors.check()?;
    let mut repairs = vec![];
    for r in found.repairs {
        repairs.extend(passing(r.changed)?);
    }
    repairs.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then(a.1.steps.cmp(&b.1.steps)).then_with(|| a.0.cmp(&b.0)));
    Ok(Repaired {
        undecided: initial.len(),
        differing: differing.len(),
        stopped: found.stopped,
        evaluations: found.evaluations,
        stage: found.stage,
        repairs,
    })
}
