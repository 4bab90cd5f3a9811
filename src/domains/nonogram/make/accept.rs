//! The checks a made puzzle passes before it is kept or written: the
//! player solves it within the wanted difficulty (by default without
//! guessing), a rule it must teach is needed, and the complete solver finds
//! exactly one solution.

use std::ops::RangeInclusive;

use super::judge::{solution_count, Player, Solve};
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::formats::non::clues_of;
use crate::domains::nonogram::play::player::PlayError;

/// What a made puzzle must be.
#[derive(Clone, Debug)]
pub struct Wanted<'a> {
    /// The player who must solve it.
    pub player: Player<'a>,
    /// The player's own steps, if bounded.
    pub steps: Option<RangeInclusive<usize>>,
    /// The bits of guessing allowed (`0.0..=0.0`: none).
    pub bits: RangeInclusive<f64>,
    /// A player that must not finish it without guessing (the rule set
    /// without the rule the puzzle must teach).
    pub stuck: Option<Player<'a>>,
    /// The complete solver's node budget for the uniqueness check.
    pub max_nodes: u64,
}

/// The player's solve of the picture `cells` (`width` columns) if the
/// puzzle is what is wanted, else `None`.
pub fn accept(wanted: &Wanted, width: usize, cells: &[bool]) -> Result<Option<Solve>, PlayError> {
    let (rows, columns) = clues_of(width, cells.len() / width, cells);
    let clues = Clues::new(rows, columns);
    // without guessing, the cheap test first
    if *wanted.bits.end() == 0.0 && !wanted.player.undecided(&clues, cells)?.is_empty() {
        return Ok(None);
    }
    let solve = wanted.player.solve(&clues, cells)?;
    if !wanted.bits.contains(&solve.bits) || wanted.steps.as_ref().is_some_and(|s| !s.contains(&solve.steps)) {
        return Ok(None);
    }
    if let Some(stuck) = &wanted.stuck {
        if stuck.undecided(&clues, cells)?.is_empty() {
            return Ok(None);
        }
    }
    Ok((solution_count(&clues, wanted.max_nodes) == Ok(1)).then_some(solve))
}
