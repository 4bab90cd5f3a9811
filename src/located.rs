//! The one error shape every reader of the tool's files returns: the file,
//! the 1-based line and column (in characters) where the text went wrong,
//! and what was wrong there. Each reader supplies its own kind of problem;
//! the message is always `file:line:column: problem`.

/// A problem of kind `K` at a position of a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct Located<K> {
    /// The file, as the user named it.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong there.
    pub kind: K,
}

impl<K> Located<K> {
    /// The problem `kind` at `line`:`column` of `file`.
    pub fn new(file: &str, line: usize, column: usize, kind: K) -> Located<K> {
        Located { file: file.to_string(), line, column, kind }
    }
}

/// Longest text a message quotes from the input, in characters.
pub const QUOTED: usize = 60;

/// `text` as a message quotes it: whole if at most [`QUOTED`] characters,
/// else its start and how long it is, so a huge bad line is not echoed.
pub fn excerpt(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTED {
        return text.to_string();
    }
    let start: String = text.chars().take(QUOTED).collect();
    format!("{start}... ({count} characters)")
}
