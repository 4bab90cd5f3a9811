//! The two ways of making puzzles, as `generate nonogram` and its benchmark
//! run them: the first random candidates that pass the checks of
//! [`accept`], and the repairs of a picture that pass them, best first.
//! A player error met in parallel work (a rule filling a wrong cell) is
//! kept and reported, never lost.

use std::sync::Mutex;

use super::accept::{accept, Wanted};
use super::judge::Solve;
use super::picture::Picture;
use super::random::{first_accepted, Shape};
use super::repair::{repair, Budget, Repair};
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::formats::non::clues_of;
use crate::domains::nonogram::play::player::PlayError;

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
/// candidates judged. `progress` as [`first_accepted`]'s; the first player
/// error stops the search after its batch.
pub fn random_puzzles(
    shape: &Shape,
    seed: u64,
    count: usize,
    max_candidates: u64,
    wanted: &Wanted,
    mut progress: impl FnMut(u64, usize),
) -> Result<(Vec<Kept>, u64), MakeError> {
    let errors = FirstError::default();
    let accepted = first_accepted(
        shape,
        seed,
        count,
        max_candidates,
        |_, p| errors.keep(accept(wanted, shape.width, &p.cells)).flatten(),
        |judged, kept| {
            progress(judged, kept);
            !errors.met()
        },
    );
    errors.check()?;
    Ok(accepted)
}

/// A picture's repairs.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// Cells the player leaves undecided in the picture (0: it is fine).
    pub undecided: usize,
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

/// Repairs `picture` for what is `wanted` (without guessing), within `budget`.
pub fn repair_picture(picture: &Picture, wanted: &Wanted, budget: Budget) -> Result<Repaired, MakeError> {
    let width = picture.width;
    let errors = FirstError::default();
    let undecided = |cells: &[bool]| {
        let (rows, columns) = clues_of(width, cells.len() / width, cells);
        errors
            .keep(wanted.player.undecided(&Clues::new(rows, columns), cells))
            .unwrap_or_else(|| (0..cells.len()).collect())
    };
    let initial = undecided(&picture.cells);
    let passing = |changed: Vec<usize>| -> Result<Option<(Vec<usize>, Solve)>, MakeError> {
        let cells = Repair { changed: changed.clone() }.apply(&picture.cells);
        let solve = accept(wanted, width, &cells).map_err(|e| MakeError::Play(e.to_string()))?;
        Ok(solve.map(|s| (changed, s)))
    };
    if initial.is_empty() {
        errors.check()?;
        let fine = passing(vec![])?.ok_or(MakeError::Unconfirmed(wanted.max_nodes))?;
        return Ok(Repaired { undecided: 0, evaluations: 1, stage: 0, repairs: vec![fine] });
    }
    let found = repair(width, &picture.cells, initial.clone(), &undecided, budget);
    errors.check()?;
    let mut repairs = vec![];
    for r in found.repairs {
        repairs.extend(passing(r.changed)?);
    }
    repairs.sort_by(|a, b| a.0.len().cmp(&b.0.len()).then(a.1.steps.cmp(&b.1.steps)).then_with(|| a.0.cmp(&b.0)));
    Ok(Repaired { undecided: initial.len(), evaluations: found.evaluations, stage: found.stage, repairs })
}
