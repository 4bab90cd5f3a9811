//! Reading Flow puzzles (docs/formats.md): the three layouts, recognised by
//! content whatever the extension, with every error located at its line and
//! column.
//!
//! - grid: one line per row, `.` an empty cell, a letter or digit an
//!   endpoint of the colour it names; `# key "value"` lines before the grid
//!   are metadata;
//! - counted: `COLOURS WIDTH HEIGHT`, then one `(x, y) (x, y)` line per colour;
//! - sized: `WIDTH HEIGHT`, then the grid; several puzzles separated by
//!   blank lines (puzzle N named `FILE#N`).
//!
//! `#` lines are comments in every layout.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use thiserror::Error;

use crate::domains::flow::model::grid::{Cell, Grid, MAX_SIDE};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::located::{excerpt, Located};

/// What is wrong at one place of a Flow file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FlowErrorKind {
    /// A row's length differs from the width.
    #[error("expected a row of {expected} cells ({what}), found {found}")]
    UnequalRow {
        /// The width.
        expected: usize,
        /// This row's length.
        found: usize,
        /// Where the width comes from.
        what: &'static str,
    },
    /// A colour with a single endpoint.
    #[error("colour `{0}` has one endpoint; each colour has exactly two")]
    OneEndpoint(char),
    /// A colour's third endpoint.
    #[error("colour `{0}` has a third endpoint here; each colour has exactly two")]
    ThirdEndpoint(char),
    /// A grid wider or taller than [`MAX_SIDE`].
    #[error("the grid is past {MAX_SIDE}x{MAX_SIDE} ({0})")]
    TooBig(&'static str),
    /// A width or height that is not a number from 1 to [`MAX_SIDE`].
    #[error("expected a {what} from 1 to {MAX_SIDE}, found {found:?}")]
    BadSize {
        /// `width` or `height`.
        what: &'static str,
        /// The text found.
        found: String,
    },
    /// A number of colours that is not a number.
    #[error("expected a number of colours, found {0:?}")]
    BadCount(String),
    /// A size line of the wrong shape.
    #[error("expected `WIDTH HEIGHT` before a puzzle of the set, found {0:?}")]
    BadSizeLine(String),
    /// A coordinate outside the grid.
    #[error("({x}, {y}) is outside the {width}x{height} grid")]
    Outside {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
        /// The grid's width.
        width: usize,
        /// The grid's height.
        height: usize,
    },
    /// A second endpoint on a cell.
    #[error("a second endpoint on ({x}, {y}); a cell holds at most one")]
    SameCell {
        /// Column.
        x: usize,
        /// Row.
        y: usize,
    },
    /// A character that is not a cell.
    #[error("expected `.`, a letter or a digit, found {0:?}")]
    BadCharacter(char),
    /// A line that is not an endpoint pair.
    #[error("expected an endpoint pair `(x, y) (x, y)`, found {0:?}")]
    BadPair(String),
    /// The grid ended early.
    #[error("expected {expected} rows, found {found}")]
    MissingRows {
        /// The height.
        expected: usize,
        /// Rows found.
        found: usize,
    },
    /// The pairs ended early.
    #[error("expected {expected} endpoint pairs, found {found}")]
    MissingPairs {
        /// The number of colours.
        expected: usize,
        /// Pairs found.
        found: usize,
    },
    /// Text after a puzzle where none may follow.
    #[error("expected {0}, found {1:?}")]
    Trailing(&'static str, String),
    /// No puzzle at all.
    #[error("expected a puzzle, found only comments and blank lines")]
    NoPuzzle,
}

/// Errors reading a Flow file.
#[derive(Debug, Error)]
pub enum FlowError {
    /// The file could not be read, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The text is malformed.
    #[error(transparent)]
    Parse(#[from] Located<FlowErrorKind>),
}

/// The three layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One line per row.
    Grid,
    /// `COLOURS WIDTH HEIGHT` and endpoint pairs.
    Counted,
    /// `WIDTH HEIGHT` and the grid, several puzzles a file.
    Sized,
}

/// Whether a line is blank or a comment.
fn skipped(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// The layout of `text`, by its first line that is not blank or a comment:
/// two numbers (sized), three (counted), else a grid.
pub fn layout(text: &str) -> Layout {
    let first = text.lines().find(|l| !skipped(l)).unwrap_or("");
    let words: Vec<&str> = first.split_whitespace().collect();
    let numbers = words.iter().all(|w| w.bytes().all(|b| b.is_ascii_digit()));
    match words.len() {
        2 if numbers => Layout::Sized,
        3 if numbers => Layout::Counted,
        _ => Layout::Grid,
    }
}

/// Whether `text` reads as a Flow file rather than another puzzle file:
/// its first line that is not blank or a comment is a size line or a grid
/// row (no spaces; `.`, letters and digits only).
pub fn looks_like_flow(text: &str) -> bool {
    let first = text.lines().find(|l| !skipped(l)).unwrap_or("").trim_end();
    layout(text) != Layout::Grid || (!first.is_empty() && first.chars().all(|c| c == '.' || c.is_ascii_alphanumeric()))
}

/// Reads every puzzle of a Flow file, with its name.
pub fn read_flow(path: &Path) -> Result<Vec<(String, Puzzle)>, FlowError> {
    let text = crate::files::read_text(path)?;
    Ok(parse_flow(&text, &path.display().to_string())?)
}

/// Parses the text of a Flow file named `file`: every puzzle with its name
/// (`file`, or `file#N` for puzzle N of a sized file holding several).
pub fn parse_flow(text: &str, file: &str) -> Result<Vec<(String, Puzzle)>, Located<FlowErrorKind>> {
    let src = Source { file, lines: text.lines().collect() };
    let puzzles = match layout(text) {
        Layout::Grid => vec![src.grid_file()?],
        Layout::Counted => vec![src.counted_file()?],
        Layout::Sized => src.sized_file()?,
    };
    let several = puzzles.len() > 1;
    Ok(puzzles
        .into_iter()
        .enumerate()
        .map(|(i, p)| (if several { format!("{file}#{}", i + 1) } else { file.to_string() }, p))
        .collect())
}

/// The `key` and `value` of a `# key "value"` line.
fn metadata(line: &str) -> Option<(String, String)> {
    let rest = line.trim().strip_prefix('#')?.trim_start();
    let (key, value) = rest.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_').then(|| (key.to_string(), value.to_string()))
}

/// A puzzle's metadata from its `# key "value"` lines.
fn with_metadata(mut p: Puzzle, lines: &[&str]) -> Puzzle {
    for (key, value) in lines.iter().filter_map(|l| metadata(l)) {
        if key == "title" {
            p.title = Some(value);
        } else {
            p.metadata.push((key, value));
        }
    }
    p
}

/// The 1-based column of the character at byte `at` of `line`.
fn column(line: &str, at: usize) -> usize {
    line[..at].chars().count() + 1
}

/// The text being read, for located errors.
struct Source<'a> {
    file: &'a str,
    lines: Vec<&'a str>,
}

impl<'a> Source<'a> {
    /// The error `kind` at 0-based line `i`, 1-based column `col`.
    fn err(&self, i: usize, col: usize, kind: FlowErrorKind) -> Located<FlowErrorKind> {
        Located::new(self.file, i + 1, col, kind)
    }

    /// The line `i`, without its line ending and trailing spaces.
    fn line(&self, i: usize) -> &'a str {
        self.lines[i].trim_end()
    }

    /// The index of the first line at or after `i` that is not blank or a
    /// comment (`lines.len()` if none).
    fn next_content(&self, i: usize) -> usize {
        (i..self.lines.len()).find(|&j| !skipped(self.lines[j])).unwrap_or(self.lines.len())
    }

    /// Refuses anything but blank lines and comments from line `i` on.
    fn nothing_after(&self, i: usize, expected: &'static str) -> Result<(), Located<FlowErrorKind>> {
        let j = self.next_content(i);
        match self.lines.get(j) {
            Some(l) => Err(self.err(j, 1, FlowErrorKind::Trailing(expected, excerpt(l.trim())))),
            None => Ok(()),
        }
    }

    /// A grid file: metadata, the rows from the first content line to the
    /// next blank line, then nothing.
    fn grid_file(&self) -> Result<Puzzle, Located<FlowErrorKind>> {
        let start = self.next_content(0);
        if start == self.lines.len() {
            return Err(self.err(start.saturating_sub(1), 1, FlowErrorKind::NoPuzzle));
        }
        let end = (start..self.lines.len()).find(|&j| self.lines[j].trim().is_empty()).unwrap_or(self.lines.len());
        let rows: Vec<usize> = (start..end).filter(|&j| !skipped(self.lines[j])).collect();
        let p = self.grid(&rows, None)?;
        self.nothing_after(end, "the end of the file after the grid (a grid file holds one puzzle)")?;
        Ok(with_metadata(p, &self.lines[..start]))
    }

    /// The puzzle of the grid on `rows` (line indices), `width` cells wide
    /// if given (else as wide as its first row).
    fn grid(&self, rows: &[usize], width: Option<usize>) -> Result<Puzzle, Located<FlowErrorKind>> {
        let first = self.line(rows[0]);
        let (w, what) = match width {
            Some(w) => (w, "the size line's width"),
            None => (first.chars().count(), "as the first row"),
        };
        if w > MAX_SIDE {
            return Err(self.err(rows[0], MAX_SIDE + 1, FlowErrorKind::TooBig("wider")));
        }
        if rows.len() > MAX_SIDE {
            return Err(self.err(rows[MAX_SIDE], 1, FlowErrorKind::TooBig("taller")));
        }
        let mut seen: HashMap<char, Vec<(usize, usize, Cell)>> = HashMap::new();
        let mut order = vec![];
        for (y, &i) in rows.iter().enumerate() {
            let line = self.line(i);
            if let Some((at, ch)) = line.char_indices().find(|&(_, c)| c != '.' && !c.is_ascii_alphanumeric()) {
                return Err(self.err(i, column(line, at), FlowErrorKind::BadCharacter(ch)));
            }
            let found = line.chars().count();
            if found != w {
                return Err(self.err(i, found.min(w) + 1, FlowErrorKind::UnequalRow { expected: w, found, what }));
            }
            for (x, ch) in line.chars().enumerate().filter(|&(_, c)| c != '.') {
                let places = seen.entry(ch).or_default();
                if places.len() == 2 {
                    return Err(self.err(i, x + 1, FlowErrorKind::ThirdEndpoint(ch)));
                }
                if places.is_empty() {
                    order.push(ch);
                }
                places.push((i, x + 1, y * w + x));
            }
        }
        if let Some(ch) = order.iter().find(|ch| seen[ch].len() == 1) {
            let (i, col, _) = seen[ch][0];
            return Err(self.err(i, col, FlowErrorKind::OneEndpoint(*ch)));
        }
        let pairs = order.iter().map(|ch| (Some(*ch), [seen[ch][0].2, seen[ch][1].2])).collect();
        Ok(Puzzle::new(Grid::new(w, rows.len()), pairs))
    }

    /// The numbers of line `i` (each with its column), as many as `names`.
    fn numbers(&self, i: usize, names: &[&'static str]) -> Result<Vec<(usize, usize)>, Located<FlowErrorKind>> {
        let line = self.lines[i];
        let words: Vec<(usize, &str)> =
            line.split_whitespace().map(|w| (column(line, w.as_ptr() as usize - line.as_ptr() as usize), w)).collect();
        if words.len() != names.len() {
            return Err(self.err(i, 1, FlowErrorKind::BadSizeLine(excerpt(line.trim()))));
        }
        words
            .iter()
            .zip(names)
            .map(|(&(col, w), &what)| {
                let n = w.parse::<usize>().ok();
                match what {
                    "colours" => n.ok_or_else(|| self.err(i, col, FlowErrorKind::BadCount(excerpt(w)))),
                    _ => match n {
                        Some(n) if n > MAX_SIDE => Err(self.err(i, col, FlowErrorKind::TooBig(what))),
                        Some(n) if n > 0 => Ok(n),
                        _ => Err(self.err(i, col, FlowErrorKind::BadSize { what, found: excerpt(w) })),
                    },
                }
                .map(|n| (n, col))
            })
            .collect()
    }

    /// A sized file: puzzles, each `WIDTH HEIGHT` then its rows, separated
    /// by blank lines.
    fn sized_file(&self) -> Result<Vec<Puzzle>, Located<FlowErrorKind>> {
        let mut puzzles = vec![];
        let mut i = 0;
        loop {
            let head = self.next_content(i);
            if head == self.lines.len() {
                return Ok(puzzles);
            }
            let size = self.numbers(head, &["width", "height"])?;
            let (w, h) = (size[0].0, size[1].0);
            let mut rows = vec![];
            let mut j = head + 1;
            while rows.len() < h {
                match self.lines.get(j) {
                    Some(l) if l.trim().is_empty() => break,
                    Some(l) if skipped(l) => {}
                    Some(_) => rows.push(j),
                    None => break,
                }
                j += 1;
            }
            if rows.len() < h {
                let kind = FlowErrorKind::MissingRows { expected: h, found: rows.len() };
                return Err(self.err(j.min(self.lines.len()), 1, kind));
            }
            let p = self.grid(&rows, Some(w))?;
            if let Some(l) = self.lines.get(j).filter(|l| !l.trim().is_empty() && !skipped(l)) {
                let kind = FlowErrorKind::Trailing("a blank line after the puzzle's rows", excerpt(l.trim()));
                return Err(self.err(j, 1, kind));
            }
            puzzles.push(with_metadata(p, &self.lines[i..head]));
            i = j;
        }
    }

    /// A counted file: `COLOURS WIDTH HEIGHT`, then the pairs, then nothing.
    fn counted_file(&self) -> Result<Puzzle, Located<FlowErrorKind>> {
        let head = self.next_content(0);
        let size = self.numbers(head, &["colours", "width", "height"])?;
        let (k, w, h) = (size[0].0, size[1].0, size[2].0);
        let mut pairs = vec![];
        let mut taken = HashSet::new();
        let mut i = head + 1;
        while pairs.len() < k {
            i = self.next_content(i);
            if i == self.lines.len() {
                let kind = FlowErrorKind::MissingPairs { expected: k, found: pairs.len() };
                return Err(self.err(i, 1, kind));
            }
            let mut pair = [0; 2];
            for (n, (col, x, y)) in self.pair(i)?.into_iter().enumerate() {
                if x >= w || y >= h {
                    return Err(self.err(i, col, FlowErrorKind::Outside { x, y, width: w, height: h }));
                }
                if !taken.insert(y * w + x) {
                    return Err(self.err(i, col, FlowErrorKind::SameCell { x, y }));
                }
                pair[n] = y * w + x;
            }
            pairs.push((None, pair));
            i += 1;
        }
        self.nothing_after(i, "the end of the file after the endpoint pairs")?;
        let mut p = with_metadata(Puzzle::new(Grid::new(w, h), pairs), &self.lines[..head]);
        p.name_colours();
        Ok(p)
    }

    /// The two `(x, y)` of line `i`, each with the column of its `(`.
    fn pair(&self, i: usize) -> Result<[(usize, usize, usize); 2], Located<FlowErrorKind>> {
        let line = self.lines[i];
        let bad = |at: usize| self.err(i, column(line, at), FlowErrorKind::BadPair(excerpt(line.trim())));
        let bytes = line.as_bytes();
        let mut at = 0;
        let skip_space = |at: &mut usize| {
            while *at < bytes.len() && bytes[*at].is_ascii_whitespace() {
                *at += 1;
            }
        };
        let expect = |at: &mut usize, b: u8| {
            skip_space(at);
            if bytes.get(*at) == Some(&b) {
                *at += 1;
                Ok(())
            } else {
                Err(bad(*at))
            }
        };
        let number = |at: &mut usize| {
            skip_space(at);
            let start = *at;
            while *at < bytes.len() && bytes[*at].is_ascii_digit() {
                *at += 1;
            }
            line[start..*at].parse::<usize>().map_err(|_| bad(start))
        };
        let mut out = [(0, 0, 0); 2];
        for o in &mut out {
            skip_space(&mut at);
            let col = column(line, at);
            expect(&mut at, b'(')?;
            let x = number(&mut at)?;
            expect(&mut at, b',')?;
            let y = number(&mut at)?;
            expect(&mut at, b')')?;
            *o = (col, x, y);
        }
        skip_space(&mut at);
        if at < bytes.len() {
            return Err(bad(at));
        }
        Ok(out)
    }
}
