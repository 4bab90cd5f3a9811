//! The `.lines` format of docs/formats.md: line transitions `HINTS | START | TARGET`,
//! one per line, with `#` comment lines and blank lines skipped.
//!
//! The reader checks everything a consumer relies on and names the file,
//! line and column of any problem: cell characters, positive hints, equal
//! lengths, a length limit, a valid START, a TARGET that agrees with START
//! and follows from it (every known TARGET cell is forced by START). It does
//! not require TARGET to be maximal. The writer emits `2 1 | ..... | ..#..`,
//! and `| ..... | xxxxx` for a line without hints (the reader also accepts
//! ` | ...` with leading spaces).

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::Path;

use thiserror::Error;

use crate::domains::nonogram::line::model::{format_cells, format_hints, Cell, Line};
use crate::domains::nonogram::line::solver::solve;

/// The default longest line accepted when reading (the soundness bound).
pub const DEFAULT_MAX_LEN: usize = 30;

/// A line transition: a start state and a target (same length; the target
/// agrees with every known cell of the start).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Transition {
    /// The line before (hints and cells).
    pub start: Line,
    /// The cells after.
    pub target: Vec<Cell>,
}

impl Transition {
    /// The maximal transition from `start` (every cell that follows), or
    /// `None` if `start` is invalid.
    pub fn maximal(start: Line) -> Option<Transition> {
        let target = solve(&start)?;
        Some(Transition { start, target })
    }

    /// The number of cells unknown in START and known in TARGET.
    pub fn new_cells(&self) -> usize {
        self.start.cells.iter().zip(&self.target).filter(|(s, t)| !s.is_known() && t.is_known()).count()
    }

    /// True if TARGET is exactly the maximal transition of START.
    pub fn is_maximal(&self) -> bool {
        solve(&self.start).as_deref() == Some(&self.target[..])
    }
}

/// What went wrong on one line of a `.lines` file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LinesErrorKind {
    /// The line does not have exactly three `|`-separated fields.
    #[error("expected `HINTS | START | TARGET` (two '|'), found {0} '|'")]
    Fields(usize),
    /// A HINTS token that is not a positive integer.
    #[error("expected a positive integer in HINTS, found {0:?}")]
    BadHint(String),
    /// A cell character other than `.`, `#`, `x`.
    #[error("expected '.', '#' or 'x' in {field}, found {found:?}")]
    BadCell {
        /// `START` or `TARGET`.
        field: &'static str,
        /// The offending character.
        found: char,
    },
    /// START and TARGET differ in length.
    #[error("START has {start} cells but TARGET has {target}")]
    LengthMismatch {
        /// Cells in START.
        start: usize,
        /// Cells in TARGET.
        target: usize,
    },
    /// The line is longer than the caller's limit.
    #[error("line has {len} cells, more than the limit of {max}")]
    TooLong {
        /// Cells in the line.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// No solution of the hints extends START.
    #[error("START is invalid: no solution of the hints extends it")]
    InvalidStart,
    /// A TARGET cell contradicts a known START cell.
    #[error("TARGET cell {cell} is {target:?} but START has {start:?}")]
    Disagrees {
        /// 0-based cell index.
        cell: usize,
        /// The START character.
        start: char,
        /// The TARGET character.
        target: char,
    },
    /// A known TARGET cell that does not follow from START.
    #[error("TARGET cell {cell} is {target:?} but that does not follow from START")]
    NotImplied {
        /// 0-based cell index.
        cell: usize,
        /// The TARGET character.
        target: char,
    },
    /// A test set's TARGET leaves unknown a cell that follows from START.
    #[error("TARGET cell {cell} is '.' but START forces {forced:?} there; a test set needs the maximal TARGET (every cell that follows)")]
    NotMaximal {
        /// 0-based cell index.
        cell: usize,
        /// The value every solution gives it.
        forced: char,
    },
}

/// Errors reading a `.lines` file.
#[derive(Debug, Error)]
pub enum LinesError {
    /// The file could not be read, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// A malformed or rejected line.
    #[error(transparent)]
    Parse(crate::located::Located<LinesErrorKind>),
}

/// Reads a `.lines` file, rejecting lines longer than `max_len` cells.
pub fn read_lines_file(path: &Path, max_len: usize) -> Result<Vec<Transition>, LinesError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    parse_lines(&text, &file, max_len)
}

/// Reads a `.lines` test set: as [`read_lines_file`], and every TARGET
/// must be maximal (coverage counts the cells a rule set reaches of it).
pub fn read_test_set(path: &Path, max_len: usize) -> Result<Vec<Transition>, LinesError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    parse(&text, &file, max_len, true)
}

/// Parses `.lines` text; `file` names the source in errors.
pub fn parse_lines(text: &str, file: &str, max_len: usize) -> Result<Vec<Transition>, LinesError> {
    parse(text, file, max_len, false)
}

/// Parses `.lines` text, with `maximal`, refusing a TARGET that is not.
fn parse(text: &str, file: &str, max_len: usize, maximal: bool) -> Result<Vec<Transition>, LinesError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let t = parse_transition(raw, max_len, maximal)
            .map_err(|(column, kind)| LinesError::Parse(crate::located::Located::new(file, i + 1, column, kind)))?;
        out.push(t);
    }
    Ok(out)
}

/// A field of a line: its characters with their 1-based columns, trimmed.
fn field(chars: &[(usize, char)]) -> &[(usize, char)] {
    let a = chars.iter().position(|(_, c)| !c.is_whitespace()).unwrap_or(chars.len());
    let b = chars.iter().rposition(|(_, c)| !c.is_whitespace()).map_or(a, |p| p + 1);
    &chars[a..b.max(a)]
}

fn parse_cells_field(chars: &[(usize, char)], name: &'static str) -> Result<Vec<Cell>, (usize, LinesErrorKind)> {
    chars
        .iter()
        .map(|&(col, c)| Cell::from_char(c).ok_or((col, LinesErrorKind::BadCell { field: name, found: c })))
        .collect()
}

/// Parses one non-comment line (with `maximal`, refusing a TARGET that is
/// not); errors carry the 1-based column.
fn parse_transition(raw: &str, max_len: usize, maximal: bool) -> Result<Transition, (usize, LinesErrorKind)> {
    let chars: Vec<(usize, char)> = raw.chars().enumerate().map(|(i, c)| (i + 1, c)).collect();
    let bars: Vec<usize> = chars.iter().enumerate().filter(|(_, (_, c))| *c == '|').map(|(i, _)| i).collect();
    if bars.len() != 2 {
        let col = bars.get(2).map_or(1, |&i| chars[i].0);
        return Err((col, LinesErrorKind::Fields(bars.len())));
    }
    let (hints_f, start_f, target_f) =
        (&chars[..bars[0]], field(&chars[bars[0] + 1..bars[1]]), field(&chars[bars[1] + 1..]));

    // HINTS: whitespace-separated tokens with their columns.
    let mut hints = Vec::new();
    let mut tok = String::new();
    let mut tok_col = 0;
    for &(col, c) in hints_f.iter().chain(std::iter::once(&(0, ' '))) {
        if c.is_whitespace() {
            if !tok.is_empty() {
                match tok.parse::<u32>() {
                    Ok(h) if h > 0 => hints.push(h),
                    _ => return Err((tok_col, LinesErrorKind::BadHint(tok))),
                }
                tok = String::new();
            }
        } else {
            if tok.is_empty() {
                tok_col = col;
            }
            tok.push(c);
        }
    }

    let start = parse_cells_field(start_f, "START")?;
    let target = parse_cells_field(target_f, "TARGET")?;
    let start_col = start_f.first().map_or(chars[bars[0]].0 + 1, |&(c, _)| c);
    let target_col = target_f.first().map_or(chars[bars[1]].0 + 1, |&(c, _)| c);
    if start.len() != target.len() {
        return Err((target_col, LinesErrorKind::LengthMismatch { start: start.len(), target: target.len() }));
    }
    if start.len() > max_len {
        return Err((start_col, LinesErrorKind::TooLong { len: start.len(), max: max_len }));
    }
    for (i, (&s, &t)) in start.iter().zip(&target).enumerate() {
        if s.is_known() && s != t {
            return Err((
                target_f[i].0,
                LinesErrorKind::Disagrees { cell: i, start: s.to_char(), target: t.to_char() },
            ));
        }
    }
    let line = Line::new(hints, start);
    let Some(forced) = solve(&line) else {
        return Err((start_col, LinesErrorKind::InvalidStart));
    };
    for (i, (&t, &m)) in target.iter().zip(&forced).enumerate() {
        if t.is_known() && t != m {
            return Err((target_f[i].0, LinesErrorKind::NotImplied { cell: i, target: t.to_char() }));
        }
        if maximal && !t.is_known() && m.is_known() {
            return Err((target_f[i].0, LinesErrorKind::NotMaximal { cell: i, forced: m.to_char() }));
        }
    }
    Ok(Transition { start: line, target })
}

/// Formats one transition as a `.lines` line (no newline):
/// `2 1 | ..... | ..#..`, or `| ... | xxx` without hints.
pub fn format_transition(t: &Transition) -> String {
    let mut s = format_hints(&t.start.hints);
    if !s.is_empty() {
        s.push(' ');
    }
    let _ = write!(s, "| {} | {}", format_cells(&t.start.cells), format_cells(&t.target));
    s
}

/// Writes transitions in `.lines` form, after a `# HINTS | START | TARGET` header.
pub fn write_lines<W: Write>(mut w: W, transitions: &[Transition]) -> io::Result<()> {
    writeln!(w, "# HINTS | START | TARGET")?;
    for t in transitions {
        writeln!(w, "{}", format_transition(t))?;
    }
    Ok(())
}

/// Writes transitions to a `.lines` file, replacing it atomically
/// ([`write_atomic`](crate::files::write_atomic)).
pub fn write_lines_file(path: &Path, transitions: &[Transition]) -> Result<(), crate::files::FileError> {
    let mut text = vec![];
    write_lines(&mut text, transitions).expect("writing to memory cannot fail");
    crate::files::write_atomic(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_lines(text, "specs/x.lines", DEFAULT_MAX_LEN).unwrap_err().to_string()
    }

    #[test]
    fn reads_the_format_example() {
        let text =
            "# HINTS | START | TARGET\n\n2 6 2 1 3 | .................... | .....####........#..\n3 | ..#.. | ..#..\n";
        let ts = parse_lines(text, "x", DEFAULT_MAX_LEN).unwrap();
        assert_eq!(ts.len(), 2);
        assert_eq!(ts[0].start.hints, vec![2, 6, 2, 1, 3]);
        assert!(ts.iter().all(Transition::is_maximal));
        assert_eq!(ts[0].new_cells(), 5);
        let mut out = Vec::new();
        write_lines(&mut out, &ts).unwrap();
        let written = String::from_utf8(out).unwrap();
        assert_eq!(parse_lines(&written, "y", DEFAULT_MAX_LEN).unwrap(), ts);
        assert!(written.contains("\n3 | ..#.. | ..#..\n"));
    }

    #[test]
    fn no_hints_both_spellings() {
        let a = parse_lines("| ... | xxx", "x", 30).unwrap();
        let b = parse_lines("   |...|xxx  ", "x", 30).unwrap();
        assert_eq!(a, b);
        assert_eq!(format_transition(&a[0]), "| ... | xxx");
        // A partial target is fine.
        assert_eq!(parse_lines("2 | ... | .#.", "x", 30).unwrap()[0].new_cells(), 1);
    }

    #[test]
    fn errors_name_file_line_column() {
        assert_eq!(err("# c\n\n3 | ..q.. | ..#.."), "specs/x.lines:3:7: expected '.', '#' or 'x' in START, found 'q'");
        assert_eq!(err("3 | ..... | ..#.q"), "specs/x.lines:1:17: expected '.', '#' or 'x' in TARGET, found 'q'");
        assert_eq!(err("3 0 | ..... | ....."), "specs/x.lines:1:3: expected a positive integer in HINTS, found \"0\"");
        assert_eq!(err("3 a | ..... | ....."), "specs/x.lines:1:3: expected a positive integer in HINTS, found \"a\"");
        assert!(err("3 | ..... | ....").contains("START has 5 cells but TARGET has 4"));
        assert!(err("3 | ..... ").contains("found 1 '|'"));
        assert!(err("3 | . | . | .").contains("1:11: expected `HINTS | START | TARGET`"));
        assert_eq!(err("3 | ..#.. | ..x.."), "specs/x.lines:1:15: TARGET cell 2 is 'x' but START has '#'");
        assert!(err("4 | ..x.. | ..x..").contains("1:5: START is invalid"));
        assert_eq!(
            err("3 | ..... | #...."),
            "specs/x.lines:1:13: TARGET cell 0 is '#' but that does not follow from START"
        );
        let long = format!("1 | {} | {}", ".".repeat(31), ".".repeat(31));
        assert!(err(&long).contains("31 cells, more than the limit of 30"));
        assert!(parse_lines(&long, "x", 31).is_ok());
    }
}
