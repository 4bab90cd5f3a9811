//! Exhaustive procedural content generation (Shen 2024, chapter 5,
//! Algorithm 4): the generator side. A designer marks placeholder squares
//! of a base puzzle; variant `rank` puts `(rank / 4^i) % 4` triangles in
//! the `i`-th placeholder (0 = none), so ranks `0 .. 4^k` enumerate every
//! filling exactly once (`unrank`), in a fixed order.
//!
//! This module owns the placeholders and the enumeration of variants; which
//! variants are kept and how they are ranked is the evaluator's (the
//! `witness generate` command, with [`information`](crate::domains::witness::play::information)).

use crate::domains::witness::model::puzzle::{Problem, Puzzle};

/// Placeholders beyond this many are allowed but the variants grow as 4^k.
pub const USUAL_PLACEHOLDERS: usize = 4;

/// Most placeholders accepted (4^8 = 65 536 variants).
pub const MAX_PLACEHOLDERS: usize = 8;

/// A base puzzle with placeholder squares.
#[derive(Clone, Debug)]
pub struct Placeholders {
    base: Puzzle,
    squares: Vec<(usize, usize)>,
}

/// Why placeholders cannot be used.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlaceholderError {
    /// A square outside the base puzzle's grid.
    #[error("--at {col},{row}: the square is outside the {width}x{height} grid (expected 0 <= column < {width}, 0 <= row < {height})")]
    Outside {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// The same square twice.
    #[error("--at {col},{row}: the square is given twice")]
    Twice {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
    },
    /// No placeholder, or too many.
    #[error("{count} placeholders: expected 1 to {MAX_PLACEHOLDERS} (4^k variants)")]
    Count {
        /// How many were given.
        count: usize,
    },
}

impl Placeholders {
    /// Placeholders `squares` (`(column, row)`) on `base`.
    pub fn new(base: Puzzle, squares: Vec<(usize, usize)>) -> Result<Placeholders, PlaceholderError> {
        if squares.is_empty() || squares.len() > MAX_PLACEHOLDERS {
            return Err(PlaceholderError::Count { count: squares.len() });
        }
        for (i, &(col, row)) in squares.iter().enumerate() {
            if col >= base.width() || row >= base.height() {
                return Err(PlaceholderError::Outside { col, row, width: base.width(), height: base.height() });
            }
            if squares[..i].contains(&(col, row)) {
                return Err(PlaceholderError::Twice { col, row });
            }
        }
        Ok(Placeholders { base, squares })
    }

    /// Number of variants, 4^k.
    pub fn max_rank(&self) -> usize {
        1 << (2 * self.squares.len())
    }

    /// The base puzzle (every variant has its size).
    pub fn base(&self) -> &Puzzle {
        &self.base
    }

    /// The placeholder squares, in the order given.
    pub fn squares(&self) -> &[(usize, usize)] {
        &self.squares
    }

    /// Variant `rank` (`< max_rank()`): the base with the placeholders
    /// filled as the rank's base-4 digits say.
    pub fn unrank(&self, rank: usize) -> Result<Puzzle, Problem> {
        let digit = |i: usize| (rank >> (2 * i) & 3) as u8;
        let mut triangles: Vec<(usize, usize, u8)> =
            self.base.triangles().into_iter().filter(|&(c, r, _)| !self.squares.contains(&(c, r))).collect();
        triangles.extend(
            self.squares.iter().enumerate().filter(|&(i, _)| digit(i) > 0).map(|(i, &(c, r))| (c, r, digit(i))),
        );
        let b = &self.base;
        Puzzle::new(b.width(), b.height(), b.start(), b.goal(), &triangles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_filling_once_and_the_rest_of_the_base_kept() {
        let base = Puzzle::new(2, 2, (0, 0), (2, 2), &[(0, 0, 2), (1, 1, 1)]).unwrap();
        let ph = Placeholders::new(base, vec![(1, 1), (1, 0)]).unwrap();
        assert_eq!(ph.max_rank(), 16);
        let all: Vec<_> = (0..16).map(|r| ph.unrank(r).unwrap().triangles()).collect();
        assert_eq!(all[0], vec![(0, 0, 2)]);
        assert_eq!(all[1], vec![(0, 0, 2), (1, 1, 1)]);
        assert_eq!(all[4 * 3 + 2], vec![(0, 0, 2), (1, 0, 3), (1, 1, 2)]);
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 16);
        assert!(all.iter().all(|t| t.contains(&(0, 0, 2))));
    }

    #[test]
    fn bad_placeholders_are_refused() {
        let base = Puzzle::new(2, 2, (0, 0), (2, 2), &[]).unwrap();
        assert!(matches!(Placeholders::new(base.clone(), vec![(2, 0)]), Err(PlaceholderError::Outside { col: 2, .. })));
        assert!(matches!(Placeholders::new(base.clone(), vec![(1, 0), (1, 0)]), Err(PlaceholderError::Twice { .. })));
        assert!(matches!(Placeholders::new(base, vec![]), Err(PlaceholderError::Count { count: 0 })));
    }
}
