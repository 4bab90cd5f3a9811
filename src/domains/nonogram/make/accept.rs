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
    /// The uniqueness check's deadline, if any: with one, the SAT fallback
    /// takes over from the complete solver's search past its first nodes
    /// (a hard picture is then decided, not given up at `max_nodes`).
    pub deadline: Option<std::time::Instant>,
}

/// An option's range that no puzzle could meet, or that does not read.
#[derive(Debug, thiserror::Error)]
#[error("{option} {text}: expected a range A..B (inclusive) or a number{why}")]
pub struct RangeError {
    /// The option (`--bits`, or the studio's field).
    pub option: String,
    /// The text given.
    pub text: String,
    /// What the ends must be, if they read.
    pub why: &'static str,
}

impl From<RangeError> for String {
    fn from(e: RangeError) -> String {
        e.to_string()
    }
}

/// `A..B` (inclusive) of `T`, the ranges a wanted puzzle is given in
/// (`--steps`, `--bits`); a single `N` is `N..N`. Refused: an empty range
/// (A > B), and ends that are negative or not finite (`NaN`, `inf`), which
/// no puzzle could meet.
pub fn range<T: std::str::FromStr + PartialOrd + Copy + Into<f64>>(
    option: &str,
    text: &str,
) -> Result<RangeInclusive<T>, RangeError> {
    let bad = |why: &'static str| RangeError { option: option.to_string(), text: text.to_string(), why };
    let (a, b) = text.split_once("..").unwrap_or((text, text));
    let (a, b): (T, T) = (a.trim().parse().map_err(|_| bad(""))?, b.trim().parse().map_err(|_| bad(""))?);
    if [a, b].iter().any(|&x| !x.into().is_finite() || x.into() < 0.0) {
        return Err(bad(", with finite ends of at least 0"));
    }
    if a.into() > b.into() {
        return Err(bad(" with A <= B (this one is empty)"));
    }
    Ok(a..=b)
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
    Ok((solution_count(&clues, wanted.max_nodes, wanted.deadline) == Ok(1)).then_some(solve))
}
