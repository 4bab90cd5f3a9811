//! The `.non` puzzle format (docs/formats.md): keys one per line (`title`,
//! `width`, `height`, `rows`, `columns`, optional `goal`), unknown keys
//! (`by`, `copyright`, `license`, `source`, `note`, `catalogue`, ...) ignored.
//!
//! `rows` is followed by `height` clue lines and `columns` by `width` clue
//! lines. A clue line is comma-separated positive integers; `0` or an empty
//! line is an empty clue. Blank lines also separate blocks in real files, so
//! a block is read like this: it runs from the line after `rows`/`columns` to
//! the next key line (a line starting with a letter) or the end of the file.
//! If its non-blank lines are exactly the expected number, blank lines in it
//! are separators; otherwise its first `count` lines are the clues (blank =
//! empty clue) and everything after them must be blank.
//!
//! The reader checks what a solver relies on: width and height present,
//! the clue counts, every clue fits its line, and a goal (if given) has the
//! right length and matches the clues. It does not solve the puzzle.

use std::path::Path;

use thiserror::Error;

use crate::domains::nonogram::line::model::{hints_of, Line};

/// The largest width or height accepted (guards against absurd allocations).
pub const MAX_SIDE: usize = 1000;

/// A nonogram puzzle as read from a `.non` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The `title` key, without quotes, if present.
    pub title: Option<String>,
    /// Number of columns.
    pub width: usize,
    /// Number of rows.
    pub height: usize,
    /// Row clues, top to bottom (`height` of them).
    pub rows: Vec<Vec<u32>>,
    /// Column clues, left to right (`width` of them).
    pub columns: Vec<Vec<u32>>,
    /// The solution, row by row (`true` = filled), if the file gives one.
    pub goal: Option<Vec<bool>>,
}

/// What is wrong at one line of a `.non` file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NonErrorKind {
    /// A key needing a number has something else.
    #[error("expected a positive integer (at most {MAX_SIDE}) after `{key}`, found {found:?}")]
    BadSize {
        /// `width` or `height`.
        key: &'static str,
        /// The offending text.
        found: String,
    },
    /// A key given twice.
    #[error("`{0}` given twice")]
    Duplicate(&'static str),
    /// A clue line that is not comma-separated positive integers, `0` or empty.
    #[error("expected a clue line (comma-separated positive integers, `0` or empty), found {0:?}")]
    BadClue(String),
    /// A clue line outside a `rows` / `columns` block.
    #[error("clue line {0:?} outside a `rows` or `columns` block")]
    StrayClue(String),
    /// An unknown key followed by clue lines (a misspelled `rows`?).
    #[error("unknown key `{0}` followed by clue lines; expected `rows` or `columns`")]
    UnknownBlockKey(String),
    /// A required key is missing.
    #[error("expected `{0}` before the end of the file")]
    Missing(&'static str),
    /// A block with the wrong number of clue lines.
    #[error("expected {expected} clue lines after `{key}`, found {found}")]
    ClueCount {
        /// `rows` or `columns`.
        key: &'static str,
        /// The expected count (`height` or `width`).
        expected: usize,
        /// The count found.
        found: usize,
    },
    /// A clue that cannot fit its line.
    #[error("clue {clue:?} of {axis} {index} needs {needs} cells but the line has {len}")]
    ImpossibleClue {
        /// `row` or `column`.
        axis: &'static str,
        /// 0-based index of the line.
        index: usize,
        /// The clue as written.
        clue: String,
        /// Its minimal length.
        needs: u64,
        /// The line length.
        len: usize,
    },
    /// A goal with characters other than 0/1.
    #[error("expected a goal of '0' and '1' characters, found {0:?}")]
    BadGoal(char),
    /// A goal of the wrong length.
    #[error("goal has {found} cells, expected width x height = {expected}")]
    GoalLength {
        /// Cells in the goal.
        found: usize,
        /// width * height.
        expected: usize,
    },
    /// A goal whose runs differ from a clue.
    #[error("goal {axis} {index} has runs {found:?} but its clue is {clue:?}")]
    GoalMismatch {
        /// `row` or `column`.
        axis: &'static str,
        /// 0-based index of the line.
        index: usize,
        /// The goal's runs.
        found: Vec<u32>,
        /// The clue.
        clue: Vec<u32>,
    },
}

/// Errors reading a `.non` file.
#[derive(Debug, Error)]
pub enum NonError {
    /// The file could not be read, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// A problem at a position of the file.
    #[error(transparent)]
    Parse(crate::located::Located<NonErrorKind>),
}

/// The clues of a solution `cells` (row by row, `true` = filled) of
/// `width` x `height`: its rows' runs and its columns' runs.
pub fn clues_of(width: usize, height: usize, cells: &[bool]) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let rows = (0..height).map(|r| hints_of(&cells[r * width..(r + 1) * width])).collect();
    let columns =
        (0..width).map(|c| hints_of(&(0..height).map(|r| cells[r * width + c]).collect::<Vec<bool>>())).collect();
    (rows, columns)
}

/// Checks a solution (row by row, `true` = filled) against a puzzle's
/// clues: its length, then the runs of every row and column.
pub fn check_goal(p: &Puzzle, cells: &[bool]) -> Result<(), NonErrorKind> {
    if cells.len() != p.width * p.height {
        return Err(NonErrorKind::GoalLength { found: cells.len(), expected: p.width * p.height });
    }
    let (rows, columns) = clues_of(p.width, p.height, cells);
    for (axis, found, clues) in [("row", rows, &p.rows), ("column", columns, &p.columns)] {
        if let Some((index, (found, clue))) = found.into_iter().zip(clues).enumerate().find(|(_, (f, c))| f != *c) {
            return Err(NonErrorKind::GoalMismatch { axis, index, found, clue: clue.clone() });
        }
    }
    Ok(())
}

/// A puzzle as `.non` text: `title`, the `metadata` keys in order (values
/// quoted, a double quote written as a single one, line breaks as spaces), `width`,
/// `height`, the clue blocks, and the goal if any. [`parse_non`] reads it
/// back as the same puzzle.
pub fn format_non(p: &Puzzle, metadata: &[(&str, &str)]) -> String {
    let quoted = |v: &str| format!("\"{}\"", v.replace('"', "'").replace(['\n', '\r'], " "));
    let mut out = String::new();
    if let Some(title) = &p.title {
        out += &format!("title {}\n", quoted(title));
    }
    for (key, value) in metadata {
        out += &format!("{key} {}\n", quoted(value));
    }
    out += &format!("width {}\nheight {}\n", p.width, p.height);
    let clue = |c: &Vec<u32>| {
        if c.is_empty() {
            "0".to_string()
        } else {
            c.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
        }
    };
    out += "rows\n";
    out.extend(p.rows.iter().map(|c| clue(c) + "\n"));
    out += "columns\n";
    out.extend(p.columns.iter().map(|c| clue(c) + "\n"));
    if let Some(goal) = &p.goal {
        out += &format!("goal \"{}\"\n", goal.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>());
    }
    out
}

/// Reads a `.non` file.
pub fn read_non_file(path: &Path) -> Result<Puzzle, NonError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    parse_non(&text, &file)
}

/// A block of clue lines as read: the line number of its key and its lines.
struct Block {
    key_line: usize,
    clues: Vec<(usize, Vec<u32>)>,
}

fn is_key_line(t: &str) -> bool {
    t.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
}

/// Parses a clue line: comma- (or space-) separated positive integers, or
/// `0` / empty for no hints.
fn parse_clue(t: &str) -> Option<Vec<u32>> {
    let t = t.trim();
    if t.is_empty() || t == "0" {
        return Some(Vec::new());
    }
    t.split([',', ' ', '\t']).filter(|s| !s.is_empty()).map(|s| s.parse::<u32>().ok().filter(|&h| h > 0)).collect()
}

/// Strips one pair of surrounding double quotes.
/// The value of the first line of metadata key `key` (`by "A. Designer"`)
/// in `.non` text, unquoted; `None` if no line has it.
pub fn metadata<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().map(str::trim).filter(|t| is_key_line(t)).find_map(|t| {
        let (k, rest) = t.split_once(char::is_whitespace)?;
        (k == key).then(|| unquote(rest))
    })
}

fn unquote(s: &str) -> &str {
    let s = s.trim();
    s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(s)
}

/// The text being parsed, for located errors.
struct Source<'a> {
    file: &'a str,
    lines: Vec<&'a str>,
}

impl Source<'_> {
    /// An error at `part` of line `line` (a slice of it), or at its first
    /// non-blank character.
    fn err_at(&self, line: usize, part: Option<&str>, kind: NonErrorKind) -> NonError {
        let whole = self.lines.get(line - 1).copied().unwrap_or("");
        let offset = match part {
            Some(p) => (p.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize).min(whole.len()),
            None => whole.len() - whole.trim_start().len(),
        };
        let column = whole.get(..offset).map_or(1, |s| s.chars().count() + 1);
        NonError::Parse(crate::located::Located::new(self.file, line, column, kind))
    }

    /// An error at the first non-blank character of line `line`.
    fn err(&self, line: usize, kind: NonErrorKind) -> NonError {
        self.err_at(line, None, kind)
    }
}

/// The keys as read, before they are checked against each other.
#[derive(Default)]
struct Keys<'a> {
    title: Option<String>,
    width: Option<usize>,
    height: Option<usize>,
    rows: Option<Block>,
    columns: Option<Block>,
    /// The goal's line number and text.
    goal: Option<(usize, &'a str)>,
}

/// Parses `.non` text; `file` names the source in errors.
pub fn parse_non(text: &str, file: &str) -> Result<Puzzle, NonError> {
    parse(text, file, false)
}

/// Parses a `.non` picture (docs/formats.md, "Pictures"): as [`parse_non`], but
/// with a `goal` the `rows` and `columns` blocks may both be absent; the
/// clues are then the goal's runs.
pub fn parse_non_picture(text: &str, file: &str) -> Result<Puzzle, NonError> {
    parse(text, file, true)
}

/// Parses `.non` text; `picture`: clue blocks may be absent beside a goal.
fn parse(text: &str, file: &str, picture: bool) -> Result<Puzzle, NonError> {
    let src = Source { file, lines: text.lines().collect() };
    let keys = read_keys(&src)?;
    let end = src.lines.len() + 1;
    let missing = |key| src.err(end, NonErrorKind::Missing(key));
    let width = keys.width.ok_or_else(|| missing("width"))?;
    let height = keys.height.ok_or_else(|| missing("height"))?;
    if picture && keys.rows.is_none() && keys.columns.is_none() {
        let (lno, g) = keys.goal.ok_or_else(|| missing("goal"))?;
        let cells = goal_cells(&src, lno, g)?;
        if cells.len() != width * height {
            return Err(src.err(lno, NonErrorKind::GoalLength { found: cells.len(), expected: width * height }));
        }
        let (rows, columns) = clues_of(width, height, &cells);
        return Ok(Puzzle { title: keys.title, width, height, rows, columns, goal: Some(cells) });
    }
    let rows = keys.rows.ok_or_else(|| missing("rows"))?;
    let columns = keys.columns.ok_or_else(|| missing("columns"))?;
    let rows = finish_block(&src, rows, ("rows", "row"), height, width)?;
    let columns = finish_block(&src, columns, ("columns", "column"), width, height)?;
    let mut puzzle = Puzzle { title: keys.title, width, height, rows, columns, goal: None };
    if let Some((lno, g)) = keys.goal {
        puzzle.goal = Some(read_goal(&src, &puzzle, lno, g)?);
    }
    Ok(puzzle)
}

/// Reads every key line (and the clue blocks after `rows` and `columns`).
fn read_keys<'a>(src: &Source<'a>) -> Result<Keys<'a>, NonError> {
    let lines = &src.lines;
    // the last key line, if it was not one the format knows
    let mut unknown_key: Option<(usize, &str)> = None;
    let mut keys = Keys::default();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim();
        let lno = i + 1;
        i += 1;
        if t.is_empty() {
            continue;
        }
        if !is_key_line(t) {
            if t.starts_with(|c: char| c.is_ascii_digit()) {
                if let Some((at, key)) = unknown_key {
                    return Err(src.err(at, NonErrorKind::UnknownBlockKey(crate::located::excerpt(key))));
                }
                return Err(src.err(lno, NonErrorKind::StrayClue(crate::located::excerpt(t))));
            }
            continue; // unrecognised line: ignored, as the format requires
        }
        let (key, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let rest = rest.trim();
        unknown_key = None;
        match key {
            "title" => keys.title = Some(unquote(rest).to_string()),
            "width" | "height" => {
                let key: &'static str = if key == "width" { "width" } else { "height" };
                let v = rest.parse::<usize>().ok().filter(|&v| (1..=MAX_SIDE).contains(&v)).ok_or_else(|| {
                    src.err_at(lno, Some(rest), NonErrorKind::BadSize { key, found: crate::located::excerpt(rest) })
                })?;
                let slot = if key == "width" { &mut keys.width } else { &mut keys.height };
                if slot.replace(v).is_some() {
                    return Err(src.err(lno, NonErrorKind::Duplicate(key)));
                }
            }
            "goal" => {
                if keys.goal.replace((lno, unquote(rest))).is_some() {
                    return Err(src.err(lno, NonErrorKind::Duplicate("goal")));
                }
            }
            "rows" | "columns" => {
                let (key, expected, slot): (&'static str, _, _) = if key == "rows" {
                    ("rows", keys.height, &mut keys.rows)
                } else {
                    ("columns", keys.width, &mut keys.columns)
                };
                if slot.is_some() {
                    return Err(src.err(lno, NonErrorKind::Duplicate(key)));
                }
                let (block, next) = read_block(src, lno, key, expected)?;
                *slot = Some(block);
                i = next;
            }
            _ => unknown_key = Some((lno, key)), // metadata and unknown keys are ignored
        }
    }
    Ok(keys)
}

/// The clue block after the key `key` on line `lno`: up to the next key
/// line or the end. With `expected` clues known and more lines than
/// non-blank ones, blank lines are empty clues. Returns the block and the
/// index of the line after it.
fn read_block(
    src: &Source<'_>,
    lno: usize,
    key: &'static str,
    expected: Option<usize>,
) -> Result<(Block, usize), NonError> {
    let lines = &src.lines;
    let begin = lno;
    let mut end = begin;
    while end < lines.len() && !is_key_line(lines[end].trim()) {
        end += 1;
    }
    let block = &lines[begin..end];
    let non_blank = block.iter().filter(|l| !l.trim().is_empty()).count();
    let chosen: Vec<(usize, &str)> = match expected {
        Some(n) if non_blank != n && block.len() >= n => {
            // Blank lines are empty clues: the first n lines.
            if block[n..].iter().any(|l| !l.trim().is_empty()) {
                return Err(src.err(lno, NonErrorKind::ClueCount { key, expected: n, found: non_blank }));
            }
            block[..n].iter().enumerate().map(|(j, l)| (begin + j + 1, *l)).collect()
        }
        _ => block.iter().enumerate().filter(|(_, l)| !l.trim().is_empty()).map(|(j, l)| (begin + j + 1, *l)).collect(),
    };
    let mut clues = Vec::with_capacity(chosen.len());
    for (n, l) in chosen {
        let c = parse_clue(l).ok_or_else(|| src.err(n, NonErrorKind::BadClue(crate::located::excerpt(l.trim()))))?;
        clues.push((n, c));
    }
    Ok((Block { key_line: lno, clues }, end))
}

/// The clues of a block, checked: `count` of them, each fitting in `len`
/// cells. `names` are the block's key and the name of one of its lines.
fn finish_block(
    src: &Source<'_>,
    block: Block,
    names: (&'static str, &'static str),
    count: usize,
    len: usize,
) -> Result<Vec<Vec<u32>>, NonError> {
    let (key, axis) = names;
    if block.clues.len() != count {
        return Err(src.err(block.key_line, NonErrorKind::ClueCount { key, expected: count, found: block.clues.len() }));
    }
    let mut out = Vec::with_capacity(count);
    for (index, (n, clue)) in block.clues.into_iter().enumerate() {
        let needs = Line::min_len(&clue);
        if needs > len as u64 {
            let clue = clue.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
            return Err(src.err(n, NonErrorKind::ImpossibleClue { axis, index, clue, needs, len }));
        }
        out.push(clue);
    }
    Ok(out)
}

/// The goal `g` on line `lno`: `0`/`1` cells, whitespace ignored, agreeing
/// with the puzzle's clues.
fn read_goal(src: &Source<'_>, puzzle: &Puzzle, lno: usize, g: &str) -> Result<Vec<bool>, NonError> {
    let cells = goal_cells(src, lno, g)?;
    check_goal(puzzle, &cells).map_err(|kind| src.err(lno, kind))?;
    Ok(cells)
}

/// The cells of the goal `g` on line `lno`: `0`/`1`, whitespace ignored.
fn goal_cells(src: &Source<'_>, lno: usize, g: &str) -> Result<Vec<bool>, NonError> {
    g.char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .map(|(i, c)| match c {
            '0' => Ok(false),
            '1' => Ok(true),
            other => Err(src.err_at(lno, Some(&g[i..]), NonErrorKind::BadGoal(other))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_read_unquoted() {
        assert_eq!(metadata(DUCK, "by"), Some("someone"));
        assert_eq!(metadata(DUCK, "title"), Some("Duck"));
        assert_eq!(metadata(DUCK, "license"), None);
    }

    const DUCK: &str = "title \"Duck\"\nby \"someone\"\nwidth 3\nheight 3\n\nrows\n1,1\n\n3\n\ncolumns\n1,1\n1\n1,1\n\ngoal \"101000111\"\n";

    fn err(text: &str) -> String {
        parse_non(text, "p.non").unwrap_err().to_string()
    }

    #[test]
    fn blank_line_is_an_empty_clue_inside_a_block() {
        let p = parse_non(DUCK, "duck.non").unwrap();
        assert_eq!(p.title.as_deref(), Some("Duck"));
        assert_eq!(p.rows, vec![vec![1, 1], vec![], vec![3]]);
        assert_eq!(p.columns, vec![vec![1, 1], vec![1], vec![1, 1]]);
        assert_eq!(p.goal.as_ref().unwrap().len(), 9);
    }

    #[test]
    fn written_text_reads_back_and_pictures_need_no_clues() {
        let p = parse_non(DUCK, "duck.non").unwrap();
        let text = format_non(&p, &[("source", "made by \"hand\"\nhere")]);
        assert!(text.contains("source \"made by 'hand' here\"\n"), "{text}");
        assert_eq!(parse_non(&text, "again.non").unwrap(), p);
        let picture = parse_non_picture("title \"Duck\"\nwidth 3\nheight 3\ngoal \"101000111\"\n", "d.non").unwrap();
        assert_eq!(picture, p);
        assert!(parse_non("width 3\nheight 3\ngoal \"101000111\"\n", "d.non").is_err());
        let short = parse_non_picture("width 3\nheight 3\ngoal \"1010\"\n", "d.non").unwrap_err().to_string();
        assert_eq!(short, "d.non:3:1: goal has 4 cells, expected width x height = 9");
    }

    #[test]
    fn rows_before_height() {
        let p = parse_non("rows\n1\n0\ncolumns\n1\n\nwidth 1\nheight 2\n", "x").unwrap();
        assert_eq!(p.rows, vec![vec![1], vec![]]);
    }

    #[test]
    fn errors() {
        assert_eq!(err("height 2\nrows\n1\n1\ncolumns\n2\n"), "p.non:7:1: expected `width` before the end of the file");
        assert_eq!(
            err("width x\n"),
            "p.non:1:7: expected a positive integer (at most 1000) after `width`, found \"x\""
        );
        assert_eq!(
            err("width 1\nheight 2\nrows\n1\n1\n1\ncolumns\n2\n"),
            "p.non:3:1: expected 2 clue lines after `rows`, found 3"
        );
        assert_eq!(
            err("width 1\nheight 2\nrows\n1\ncolumns\n2\n"),
            "p.non:3:1: expected 2 clue lines after `rows`, found 1"
        );
        assert_eq!(
            err("width 2\nheight 1\nrows\n1,1\ncolumns\n1\n1\n"),
            "p.non:4:1: clue \"1,1\" of row 0 needs 3 cells but the line has 2"
        );
        assert_eq!(
            err("width 1\nheight 1\nrows\n1;2\ncolumns\n1\n"),
            "p.non:4:1: expected a clue line (comma-separated positive integers, `0` or empty), found \"1;2\""
        );
        assert_eq!(
            err("width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal \"10\"\n"),
            "p.non:7:1: goal has 2 cells, expected width x height = 1"
        );
        assert_eq!(
            err("width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal \"0\"\n"),
            "p.non:7:1: goal row 0 has runs [] but its clue is [1]"
        );
        assert_eq!(err("width 1\nwidth 1\n"), "p.non:2:1: `width` given twice");
        assert!(err("5\n").contains("outside a `rows` or `columns` block"));
        assert_eq!(
            err("width 1\nheight 1\nrowz\n1\ncolumns\n1\n"),
            "p.non:3:1: unknown key `rowz` followed by clue lines; expected `rows` or `columns`"
        );
        assert_eq!(
            err("width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal \"1x\"\n"),
            "p.non:7:8: expected a goal of '0' and '1' characters, found 'x'"
        );
    }
}
