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
