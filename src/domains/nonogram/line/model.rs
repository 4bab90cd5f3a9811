//! The nonogram line model: cells, lines (hints + cells), their text forms,
//! mirroring, and the `block` / `gap` elements of docs/language.md.
//!
//! This module owns only the representation. It knows nothing about solving
//! (see `solver`), files (see `lines_file`) or boards (see `board`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The state of one cell of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Cell {
    /// Not yet known (text `.`).
    Unknown,
    /// Filled (text `#`).
    True,
    /// Crossed out / empty (text `x`).
    False,
}

impl Cell {
    /// The text character of this cell: `.` unknown, `#` true, `x` false.
    pub fn to_char(self) -> char {
        match self {
            Cell::Unknown => '.',
            Cell::True => '#',
            Cell::False => 'x',
        }
    }

    /// Parses one text character (`.`, `#` or `x`); `None` for anything else.
    pub fn from_char(c: char) -> Option<Cell> {
        match c {
            '.' => Some(Cell::Unknown),
            '#' => Some(Cell::True),
            'x' => Some(Cell::False),
            _ => None,
        }
    }

    /// True if the cell is `True` or `False`.
    pub fn is_known(self) -> bool {
        self != Cell::Unknown
    }

    /// The cell for a boolean value (`true` = filled).
    pub fn from_bool(b: bool) -> Cell {
        if b {
            Cell::True
        } else {
            Cell::False
        }
    }

    /// True if `other` does not contradict `self`: either is unknown, or both are equal.
    pub fn agrees_with(self, other: Cell) -> bool {
        self == Cell::Unknown || other == Cell::Unknown || self == other
    }
}

/// Errors from parsing the text forms of cells and lines.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    /// A cell character other than `.`, `#`, `x`.
    #[error("column {column}: expected '.', '#' or 'x', found {found:?}")]
    BadCell {
        /// 1-based character column in the parsed text.
        column: usize,
        /// The offending character.
        found: char,
    },
    /// A hint that is not a positive integer.
    #[error("expected a positive integer hint, found {found:?}")]
    BadHint {
        /// The offending token.
        found: String,
    },
    /// The `HINTS | CELLS` form lacks the `|` separator (or has more than one).
    #[error("expected `HINTS | CELLS` with exactly one '|'")]
    BadSeparator,
}

/// Parses a cell string (`.`, `#`, `x` per cell; no other characters).
pub fn parse_cells(text: &str) -> Result<Vec<Cell>, LineError> {
    text.chars()
        .enumerate()
        .map(|(i, c)| Cell::from_char(c).ok_or(LineError::BadCell { column: i + 1, found: c }))
        .collect()
}

/// Formats cells as text (`.`, `#`, `x`).
pub fn format_cells(cells: &[Cell]) -> String {
    cells.iter().map(|c| c.to_char()).collect()
}

/// Parses space-separated positive integer hints (empty text = no hints).
pub fn parse_hints(text: &str) -> Result<Vec<u32>, LineError> {
    text.split_whitespace()
        .map(|tok| match tok.parse::<u32>() {
            Ok(h) if h > 0 => Ok(h),
            _ => Err(LineError::BadHint { found: tok.to_string() }),
        })
        .collect()
}

/// Formats hints space-separated (empty string for no hints).
pub fn format_hints(hints: &[u32]) -> String {
    let mut s = String::new();
    for (i, h) in hints.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&h.to_string());
    }
    s
}

/// A nonogram line: hints `h_0..h_{k-1}` (positive) and cells `c_0..c_{N-1}`.
///
/// The text form (`Display` / `FromStr`) is `HINTS | CELLS`, e.g. `2 1 | ..#..`;
/// a line without hints is written `| .....`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Line {
    /// The hints, in order; each is positive.
    pub hints: Vec<u32>,
    /// The cells, in order.
    pub cells: Vec<Cell>,
}

impl Line {
    /// Makes a line from hints and cells.
    pub fn new(hints: Vec<u32>, cells: Vec<Cell>) -> Line {
        Line { hints, cells }
    }

    /// A line of `len` unknown cells.
    pub fn empty(hints: Vec<u32>, len: usize) -> Line {
        Line { hints, cells: vec![Cell::Unknown; len] }
    }

    /// The number of cells N.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// True if the line has no cells.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// True if every cell is known.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|c| c.is_known())
    }

    /// The minimal length of a line holding these hints: sum + gaps between them.
    pub fn min_len(hints: &[u32]) -> u64 {
        let sum: u64 = hints.iter().map(|&h| h as u64).sum();
        sum + hints.len().saturating_sub(1) as u64
    }

    /// The mirror image: cells and hints reversed.
    pub fn mirror(&self) -> Line {
        let mut hints = self.hints.clone();
        hints.reverse();
        let mut cells = self.cells.clone();
        cells.reverse();
        Line { hints, cells }
    }

    /// Blocks: maximal runs of true cells, as `(start, len)` in order.
    pub fn blocks(&self) -> Vec<(usize, usize)> {
        runs(&self.cells, |c| c == Cell::True)
    }

    /// Gaps: maximal runs of not-false cells (unknown or true), as `(start, len)` in order.
    pub fn gaps(&self) -> Vec<(usize, usize)> {
        runs(&self.cells, |c| c != Cell::False)
    }
}

/// Maximal runs of cells satisfying `pred`, as `(start, len)`.
fn runs(cells: &[Cell], pred: impl Fn(Cell) -> bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &c) in cells.iter().enumerate() {
        match (pred(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i - s));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, cells.len() - s));
    }
    out
}

/// The run lengths of a fully known assignment (`true` = filled): its hints.
pub fn hints_of(values: &[bool]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut run = 0u32;
    for &v in values {
        if v {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    if run > 0 {
        out.push(run);
    }
    out
}

/// Every filling of `n` cells, grouped by its hints (exhaustive tests).
#[cfg(test)]
pub(crate) fn solutions_by_hints(n: usize) -> std::collections::BTreeMap<Vec<u32>, Vec<Vec<bool>>> {
    let mut by_hints: std::collections::BTreeMap<Vec<u32>, Vec<Vec<bool>>> = Default::default();
    for bits in 0u32..(1 << n) {
        let v: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        by_hints.entry(hints_of(&v)).or_default().push(v);
    }
    by_hints
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hints = format_hints(&self.hints);
        if hints.is_empty() {
            write!(f, "| {}", format_cells(&self.cells))
        } else {
            write!(f, "{} | {}", hints, format_cells(&self.cells))
        }
    }
}

impl FromStr for Line {
    type Err = LineError;

    /// Parses `HINTS | CELLS` (surrounding whitespace of each part ignored).
    fn from_str(s: &str) -> Result<Line, LineError> {
        let mut parts = s.split('|');
        let (Some(h), Some(c), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(LineError::BadSeparator);
        };
        Ok(Line { hints: parse_hints(h)?, cells: parse_cells(c.trim())? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        let cells = parse_cells(".#x..#").unwrap();
        assert_eq!(cells[1], Cell::True);
        assert_eq!(cells[2], Cell::False);
        assert_eq!(format_cells(&cells), ".#x..#");
        assert_eq!(parse_cells(".#q"), Err(LineError::BadCell { column: 3, found: 'q' }));
    }

    #[test]
    fn line_text_round_trip() {
        let l: Line = "2 1 | ..#x.".parse().unwrap();
        assert_eq!(l.hints, vec![2, 1]);
        assert_eq!(l.to_string(), "2 1 | ..#x.");
        let e: Line = "| x..".parse().unwrap();
        assert!(e.hints.is_empty());
        assert_eq!(e.to_string(), "| x..");
        assert!("0 | ..".parse::<Line>().is_err());
        assert!("1 ..".parse::<Line>().is_err());
    }

    #[test]
    fn blocks_and_gaps() {
        let l: Line = "1 | ##x.#.x#".parse().unwrap();
        assert_eq!(l.blocks(), vec![(0, 2), (4, 1), (7, 1)]);
        assert_eq!(l.gaps(), vec![(0, 2), (3, 3), (7, 1)]);
        let m = l.mirror();
        assert_eq!(m.to_string(), "1 | #x.#.x##");
        let all_x: Line = "| xxx".parse().unwrap();
        assert!(all_x.blocks().is_empty());
        assert!(all_x.gaps().is_empty());
    }

    #[test]
    fn mirror_reverses_hints() {
        let l: Line = "3 1 2 | #....".parse().unwrap();
        assert_eq!(l.mirror().hints, vec![2, 1, 3]);
        assert_eq!(l.mirror().mirror(), l);
    }

    #[test]
    fn hints_of_assignment() {
        assert_eq!(hints_of(&[true, true, false, true]), vec![2, 1]);
        assert!(hints_of(&[false, false]).is_empty());
    }
}
