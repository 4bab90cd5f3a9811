//! The tournament puzzle-set format (docs/formats.md, "Tournament puzzle sets"):
//! many 25x25 puzzles in one file, each a `$N` header line followed by 50
//! tab-separated clue lines (the 25 columns left to right, then the 25 rows
//! top to bottom); `0` is an empty clue; blank lines are skipped.
//!
//! Recognised by content ([`is_tournament`]: the first non-blank line is
//! `$N`), whatever the extension. Every problem is located (file, line,
//! column) like a `.non` error. The puzzles keep their file order and are
//! named `FILE#N`.

use thiserror::Error;

use super::non::Puzzle;
use crate::domains::nonogram::line::model::Line;

/// The side of every tournament puzzle.
pub const SIDE: usize = 25;

/// What is wrong at one position of a tournament file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentErrorKind {
    /// A line where a `$N` header was expected.
    #[error("expected a puzzle header `$N` (N a positive integer), found {0:?}")]
    BadHeader(String),
    /// A puzzle number given twice.
    #[error("puzzle ${0} given twice")]
    DuplicateNumber(u32),
    /// A clue line that is not tab-separated positive integers or `0`.
    #[error("expected a clue line (tab-separated positive integers, or `0`), found {0:?}")]
    BadClue(String),
    /// A puzzle with fewer than 50 clue lines (the next header or the end
    /// of the file came early).
    #[error("puzzle ${number} has {found} clue lines; expected {} (25 columns, then 25 rows)", 2 * SIDE)]
    Truncated {
        /// The puzzle's number.
        number: u32,
        /// The clue lines found.
        found: usize,
    },
    /// A clue that cannot fit in 25 cells.
    #[error("clue {clue:?} needs {needs} cells but the line has {SIDE}")]
    ImpossibleClue {
        /// The clue as written.
        clue: String,
        /// Its minimal length.
        needs: u64,
    },
    /// A solution with fewer than 25 rows.
    #[error("solution ${number} has {found} rows; expected {SIDE}")]
    SolutionRows {
        /// The puzzle's number.
        number: u32,
        /// The rows found.
        found: usize,
    },
    /// A solution row that is not 25 tab-separated `0`/`1`.
    #[error("expected a row of {SIDE} tab-separated 0 and 1, found {0:?}")]
    BadRow(String),
    /// A file without any puzzle.
    #[error("expected at least one puzzle `$N`, found none")]
    Empty,
}

/// A located problem in a tournament file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct TournamentError {
    /// The file name.
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What was expected.
    pub kind: TournamentErrorKind,
}

/// True if `text` is a tournament set: its first non-blank line is `$N`.
pub fn is_tournament(text: &str) -> bool {
    text.lines().map(str::trim).find(|l| !l.is_empty()).is_some_and(|l| header_number(l).is_some())
}

/// The number of a `$N` header line (trimmed), N >= 1.
fn header_number(t: &str) -> Option<u32> {
    t.strip_prefix('$')
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
}

/// Parses a clue line; `Err` holds the offending field's byte offset.
fn parse_clue(line: &str) -> Result<Vec<u32>, usize> {
    let t = line.trim_end();
    let mut out = vec![];
    for field in t.split(['\t', ' ']).filter(|f| !f.is_empty()) {
        let offset = field.as_ptr() as usize - line.as_ptr() as usize;
        match field.parse::<u32>() {
            Ok(0) if out.is_empty() && t.trim() == "0" => return Ok(vec![]),
            Ok(h) if h > 0 => out.push(h),
            _ => return Err(offset),
        }
    }
    Ok(out)
}

/// Parses a tournament set; `file` names the source in errors and puzzle
/// names. Returns `(name, puzzle)` pairs in file order.
pub fn parse_tournament(text: &str, file: &str) -> Result<Vec<(String, Puzzle)>, TournamentError> {
    let lines: Vec<&str> = text.lines().collect();
    let err = |line: usize, offset: usize, kind| {
        let whole = lines.get(line - 1).copied().unwrap_or("");
        let column = whole.get(..offset).map_or(1, |s| s.chars().count() + 1);
        TournamentError { file: file.to_string(), line, column, kind }
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut out: Vec<(String, Puzzle)> = vec![];
    let mut seen = std::collections::HashSet::new();
    let mut i = 0;
    while i < lines.len() {
        let (lno, t) = (i + 1, lines[i].trim());
        i += 1;
        if t.is_empty() {
            continue;
        }
        let number = header_number(t)
            .ok_or_else(|| err(lno, indent(lines[lno - 1]), TournamentErrorKind::BadHeader(t.to_string())))?;
        if !seen.insert(number) {
            return Err(err(lno, indent(lines[lno - 1]), TournamentErrorKind::DuplicateNumber(number)));
        }
        let mut clues = Vec::with_capacity(2 * SIDE);
        while clues.len() < 2 * SIDE {
            let Some(&raw) = lines.get(i) else { break };
            if raw.trim().starts_with('$') {
                break;
            }
            i += 1;
            if raw.trim().is_empty() {
                continue;
            }
            let bad = |offset| err(i, offset, TournamentErrorKind::BadClue(raw.trim().to_string()));
            let clue = parse_clue(raw).map_err(bad)?;
            let needs = Line::min_len(&clue);
            if needs > SIDE as u64 {
                let clue = clue.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
                return Err(err(i, indent(raw), TournamentErrorKind::ImpossibleClue { clue, needs }));
            }
            clues.push(clue);
        }
        if clues.len() < 2 * SIDE {
            let at = lines.len().min(i) + 1;
            return Err(err(at, 0, TournamentErrorKind::Truncated { number, found: clues.len() }));
        }
        let rows = clues.split_off(SIDE);
        let puzzle = Puzzle { title: None, width: SIDE, height: SIDE, rows, columns: clues, goal: None };
        out.push((format!("{file}#{number}"), puzzle));
    }
    if out.is_empty() {
        return Err(err(lines.len() + 1, 0, TournamentErrorKind::Empty));
    }
    Ok(out)
}

/// Parses a tournament solutions file (the same `$N` headers, each followed
/// by 25 rows of 25 tab-separated `0`/`1`): the solutions row by row
/// (`true` = filled), named `SET#N` after the puzzle set `set`.
pub fn parse_solutions(text: &str, file: &str, set: &str) -> Result<Vec<(String, Vec<bool>)>, TournamentError> {
    let err = |line: usize, kind| TournamentError { file: file.to_string(), line, column: 1, kind };
    let mut out = vec![];
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()).peekable();
    while let Some((i, header)) = lines.next() {
        let number = header_number(header.trim())
            .ok_or_else(|| err(i + 1, TournamentErrorKind::BadHeader(header.trim().to_string())))?;
        let mut cells = Vec::with_capacity(SIDE * SIDE);
        for row in 0..SIDE {
            let (j, l) = match lines.peek() {
                Some(&(j, l)) if !l.trim().starts_with('$') => (j, l),
                _ => return Err(err(i + 2 + row, TournamentErrorKind::SolutionRows { number, found: row })),
            };
            lines.next();
            let bits: Option<Vec<bool>> = l
                .split_whitespace()
                .map(|v| match v {
                    "0" => Some(false),
                    "1" => Some(true),
                    _ => None,
                })
                .collect();
            match bits {
                Some(b) if b.len() == SIDE => cells.extend(b),
                _ => return Err(err(j + 1, TournamentErrorKind::BadRow(l.trim().to_string()))),
            }
        }
        out.push((format!("{set}#{number}"), cells));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set of one puzzle: column `c` holds clue `c % 5 + 1` and row `r`
    /// clue `1 1`, or whatever `edit` makes of the 50 clue lines.
    fn set(number: u32, edit: impl FnOnce(&mut Vec<String>)) -> String {
        let mut clues: Vec<String> = (0..SIDE).map(|c| (c % 5 + 1).to_string()).collect();
        clues.extend((0..SIDE).map(|_| "1\t1".to_string()));
        edit(&mut clues);
        format!("${number}\n{}\n", clues.join("\n"))
    }

    #[test]
    fn reads_puzzles_in_order_with_names() {
        let text = format!("\n{}\n{}", set(2, |_| {}), set(1, |c| c[30] = "0".into()));
        assert!(is_tournament(&text));
        let ps = parse_tournament(&text, "t.txt").unwrap();
        assert_eq!(ps.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(), ["t.txt#2", "t.txt#1"]);
        let p = &ps[0].1;
        assert_eq!((p.width, p.height), (SIDE, SIDE));
        assert_eq!(p.columns[3], vec![4]);
        assert_eq!(p.rows[0], vec![1, 1]);
        assert_eq!(ps[1].1.rows[5], Vec::<u32>::new());
    }

    #[test]
    fn recognised_by_content() {
        assert!(!is_tournament("width 25\n"));
        assert!(!is_tournament("$x\n1\n"));
        assert!(is_tournament("  \n $7 \n"));
    }

    fn error(text: &str) -> String {
        parse_tournament(text, "t.txt").unwrap_err().to_string()
    }

    #[test]
    fn truncated_puzzles_are_located() {
        let cut = set(1, |c| c.truncate(49));
        assert_eq!(error(&cut), "t.txt:51:1: puzzle $1 has 49 clue lines; expected 50 (25 columns, then 25 rows)");
        let early = format!("{}{}", set(1, |c| c.truncate(10)), set(2, |_| {}));
        assert!(error(&early).starts_with("t.txt:12:1: puzzle $1 has 10 clue lines"), "{}", error(&early));
    }

    #[test]
    fn malformed_lines_are_located() {
        let bad = set(1, |c| c[3] = "1\tx\t2".into());
        assert_eq!(
            error(&bad),
            "t.txt:5:3: expected a clue line (tab-separated positive integers, or `0`), found \"1\\tx\\t2\""
        );
        let zero = set(1, |c| c[0] = "1\t0".into());
        assert!(error(&zero).starts_with("t.txt:2:3: expected a clue line"));
        let long = set(1, |c| c[49] = "20\t5".into());
        assert_eq!(error(&long), "t.txt:51:1: clue \"20 5\" needs 26 cells but the line has 25");
        let header = format!("{}junk\n", set(1, |_| {}));
        assert_eq!(error(&header), "t.txt:52:1: expected a puzzle header `$N` (N a positive integer), found \"junk\"");
        let twice = format!("{}{}", set(1, |_| {}), set(1, |_| {}));
        assert_eq!(error(&twice), "t.txt:52:1: puzzle $1 given twice");
        assert_eq!(error("\n\n"), "t.txt:3:1: expected at least one puzzle `$N`, found none");
    }

    #[test]
    fn reads_solutions() {
        let row = vec!["1"; SIDE].join("\t");
        let text = format!("$3\n{}\n", vec![row.as_str(); SIDE].join("\n"));
        let sols = parse_solutions(&text, "s.txt", "t.txt").unwrap();
        assert_eq!(sols, vec![("t.txt#3".to_string(), vec![true; SIDE * SIDE])]);
        let cut = format!("$3\n{}\n", [row.as_str(); 3].join("\n"));
        assert!(parse_solutions(&cut, "s.txt", "t.txt")
            .unwrap_err()
            .to_string()
            .starts_with("s.txt:5:1: solution $3 has 3 rows"));
    }
}
