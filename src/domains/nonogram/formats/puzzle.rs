//! Reading puzzle files in any format: webpbn XML (`.xml`, or any file
//! whose text starts with `<`), a tournament set (the first non-blank line
//! is `$N`; many puzzles, named `FILE#N`) or `.non`.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::non::{parse_non, NonError, Puzzle};
use super::tournament::{is_tournament, parse_tournament, TournamentError};
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
    /// A tournament set is malformed.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// `FILE#N` names a puzzle the set does not hold.
    #[error("{file}: the set holds no puzzle ${number}")]
    NoSuchPuzzle {
        /// The set.
        file: String,
        /// The number asked for.
        number: String,
    },
    /// A set of several puzzles where one puzzle is read.
    #[error("{file}: the set holds {count} puzzles; name one as {file}#N")]
    SeveralPuzzles {
        /// The set.
        file: String,
        /// How many it holds.
        count: usize,
    },
}

/// Reads every puzzle of a file, with its name: the file's name for a
/// single puzzle, `FILE#N` for each puzzle of a tournament set.
pub fn read_puzzles(path: &Path) -> Result<Vec<(String, Puzzle)>, PuzzleError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    let xml = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) || text.trim_start().starts_with('<');
    Ok(if xml {
        vec![(file.clone(), parse_webpbn(&text, &file)?)]
    } else if is_tournament(&text) {
        parse_tournament(&text, &file)?
    } else {
        vec![(file.clone(), parse_non(&text, &file)?)]
    })
}

/// Reads one puzzle: a file holding one, or `FILE#N` naming puzzle `N` of
/// a tournament set (when `FILE#N` is not itself a file).
pub fn read_puzzle(path: &Path) -> Result<Puzzle, PuzzleError> {
    let shown = path.display().to_string();
    let selected = shown.rsplit_once('#').filter(|(file, _)| !path.exists() && Path::new(file).is_file());
    let (file, number) = match selected {
        Some((file, number)) => (PathBuf::from(file), Some(number)),
        None => (path.to_path_buf(), None),
    };
    let mut puzzles = read_puzzles(&file)?;
    match number {
        Some(n) => puzzles
            .into_iter()
            .find(|(name, _)| *name == shown)
            .map(|(_, p)| p)
            .ok_or_else(|| PuzzleError::NoSuchPuzzle { file: file.display().to_string(), number: n.to_string() }),
        None if puzzles.len() == 1 => Ok(puzzles.remove(0).1),
        None => Err(PuzzleError::SeveralPuzzles { file: shown, count: puzzles.len() }),
    }
}
