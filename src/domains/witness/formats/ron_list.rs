//! Reading RON lists of entries (puzzles, specifications) with located
//! errors: a syntax error at the parser's position, an entry that parses
//! but fails its check at the entry's first character.

use crate::located::Located;
use thiserror::Error;

/// What is wrong with a RON list of entries (puzzles, specifications).
#[derive(Debug, Error)]
pub enum ListProblem<P> {
    /// Not a RON list of entries of the expected shape: what the RON
    /// parser reported, and the shape expected.
    #[error("{message} (expected {shape})")]
    Syntax {
        /// What the RON parser reported.
        message: String,
        /// The shape of the list expected.
        shape: &'static str,
    },
    /// An entry is well-formed RON but fails its check (located at the
    /// entry's start; line 0 if unknown).
    #[error("{noun} #{index}: {problem}")]
    Invalid {
        /// What an entry is.
        noun: &'static str,
        /// 0-based position of the entry in the list.
        index: usize,
        /// What is wrong.
        problem: P,
    },
}

/// How a RON list of entries is named in errors: its file, what an entry
/// is, and the shape of the list expected.
pub(crate) struct ListNames<'a> {
    pub file: &'a str,
    pub noun: &'static str,
    pub shape: &'static str,
}

/// Reads a RON list of `R` entries and checks each into a `T`: an error is
/// at the parser's position, or at the start of the entry that parsed but
/// failed its check.
pub(crate) fn parse_ron_list<R: serde::de::DeserializeOwned, T, P>(
    text: &str,
    names: ListNames<'_>,
    check: impl Fn(&R) -> Result<T, P>,
) -> Result<Vec<T>, Located<ListProblem<P>>> {
    let ListNames { file, noun, shape } = names;
    let raws: Vec<R> = ron::from_str(text).map_err(|e| {
        Located::new(file, e.position.line, e.position.col, ListProblem::Syntax { message: e.code.to_string(), shape })
    })?;
    let mut starts: Option<Vec<(usize, usize)>> = None;
    raws.iter()
        .enumerate()
        .map(|(index, raw)| {
            check(raw).map_err(|problem| {
                let starts = starts.get_or_insert_with(|| element_starts(text));
                let (line, column) = starts.get(index).copied().unwrap_or((0, 0));
                Located::new(file, line, column, ListProblem::Invalid { noun, index, problem })
            })
        })
        .collect()
}

/// 1-based (line, column) of the start of each element of the top-level RON
/// list, found by a bracket-depth scan that skips comments and strings.
/// Only used to locate validation errors (the text has already parsed).
pub(crate) fn element_starts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1usize, 0usize);
    let mut depth = 0usize;
    let mut expecting = false; // at depth 1, waiting for the next element
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        col += 1;
        match ch {
            '\n' => {
                line += 1;
                col = 0;
                continue;
            }
            '/' if chars.peek() == Some(&'/') => {
                while let Some(&c) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                }
                continue;
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                col += 1;
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        col = 0;
                    } else {
                        col += 1;
                    }
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                continue;
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    col += 1;
                    if c == '\n' {
                        line += 1;
                        col = 0;
                    }
                    if !escaped && c == '"' {
                        break;
                    }
                    escaped = !escaped && c == '\\';
                }
                continue;
            }
            _ => {}
        }
        if ch.is_whitespace() {
            continue;
        }
        if depth == 1 && expecting && ch != ',' && ch != ']' {
            out.push((line, col));
            expecting = false;
        }
        match ch {
            '[' | '(' | '{' => {
                depth += 1;
                if depth == 1 {
                    expecting = true;
                }
            }
            ']' | ')' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 1 => expecting = true,
            _ => {}
        }
    }
    out
}
