//! Reading a puzzle file in either format: webpbn XML (`.xml`, or any file
//! whose text starts with `<`) or `.non`.

use std::path::Path;

use thiserror::Error;

use super::non::{parse_non, NonError, Puzzle};
use super::webpbn::{parse_webpbn, WebpbnError};

/// Errors reading a puzzle file.
#[derive(Debug, Error)]
pub enum PuzzleError {
    /// The file could not be read, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// A `.non` file is malformed.
    #[error(transparent)]
    Non(#[from] NonError),
    /// A webpbn XML file is malformed or not a single-colour puzzle.
    #[error(transparent)]
    Webpbn(#[from] WebpbnError),
}

/// Reads a `.non` or webpbn XML puzzle.
pub fn read_puzzle(path: &Path) -> Result<Puzzle, PuzzleError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    let xml = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) || text.trim_start().starts_with('<');
    Ok(if xml { parse_webpbn(&text, &file)? } else { parse_non(&text, &file)? })
}
