//! Witness specification files: states on which `prune` is the deduction
//! to learn (incompletable partial paths), read and written as RON.
//!
//! Format (`specs/witness/*.ron`): a RON list of entries
//! ```text
//! // stratsynth mine witness --sizes 2x2..4x4 --count 500 --seed 0 -o ...
//! [
//!     (puzzle: (width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)]),
//!      path: [(0, 0), (0, 1)]),
//! ]
//! ```
//! `puzzle` is a puzzle exactly as in a puzzle file (docs/formats.md); `path` is
//! the partial path's vertices `(x, y)`, beginning at the start. Every
//! entry must be a valid puzzle, a valid partial path on it that does not
//! reach the goal, and incompletable (the reader checks with the exact
//! oracle): a specification is a true deduction. `//` comment lines (the
//! miner writes its command line and counts first) are ignored. Errors name the file, the
//! entry's line and column, and what is wrong.

use std::path::Path as FsPath;

use serde::Deserialize;
use thiserror::Error;

use super::domain::WitnessState;
use crate::domains::witness::board::oracle::Oracle;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::{parse_ron_list, ListNames, ListProblem, Puzzle, RawPuzzle};
use crate::located::Located;

/// Errors reading or writing specification files.
#[derive(Debug, Error)]
pub enum SpecError {
    /// The file could not be read or written, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The text is not a RON list of specifications.
    #[error(transparent)]
    List(Located<ListProblem<SpecProblem>>),
}

/// Why a well-formed entry is not a specification.
#[derive(Debug, Error)]
pub enum SpecProblem {
    /// The puzzle is not valid.
    #[error(transparent)]
    Puzzle(#[from] crate::domains::witness::formats::puzzle::Problem),
    /// A vertex has a negative coordinate.
    #[error("vertex ({0}, {1}) is outside the grid")]
    Outside(i64, i64),
    /// The vertices are not a path on the puzzle.
    #[error(transparent)]
    Path(#[from] crate::domains::witness::board::path::PathError),
    /// The path reaches the goal.
    #[error("the path reaches the goal: a partial path stops before it")]
    ReachesGoal,
    /// The path can still be completed, so pruning it is no deduction.
    #[error("the path {0} can be completed to a solution: pruning it is not a deduction")]
    Completable(String),
}

/// The serialized shape of an entry.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    puzzle: RawPuzzle,
    path: Vec<(i64, i64)>,
}

/// Checks one entry: a valid puzzle, a partial path on it, incompletable.
fn check(raw: &RawSpec) -> Result<WitnessState, SpecProblem> {
    let puzzle = Puzzle::from_raw(&raw.puzzle)?;
    let vertices = raw
        .path
        .iter()
        .map(|&(x, y)| match (usize::try_from(x), usize::try_from(y)) {
            (Ok(x), Ok(y)) => Ok((x, y)),
            _ => Err(SpecProblem::Outside(x, y)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let path = Path::from_vertices(&puzzle, &vertices)?;
    if path.visited().contains(puzzle.grid().vertex_id(puzzle.goal())) {
        return Err(SpecProblem::ReachesGoal);
    }
    if Oracle::new(&puzzle).completable(&path) {
        return Err(SpecProblem::Completable(path.to_text()));
    }
    Ok(WitnessState { puzzle, path, completable: false })
}

/// Parses a specification list. `file` is only used in error messages.
pub fn parse_specs(text: &str, file: &str) -> Result<Vec<WitnessState>, SpecError> {
    let shape = "a RON list of `(puzzle: (width: .., height: .., start: (x, y), goal: (x, y), triangles: [..]), path: [(x, y), ..])`";
    parse_ron_list(text, ListNames { file, noun: "specification", shape }, check).map_err(SpecError::List)
}

/// Reads a specification file.
pub fn read_specs(path: &FsPath) -> Result<Vec<WitnessState>, SpecError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    parse_specs(&text, &file)
}

/// Writes states as a specification list, one entry per line, after the
/// `header` lines as `//` comments.
pub fn specs_to_ron(states: &[WitnessState], header: &[String]) -> String {
    let mut s: String = header.iter().map(|h| format!("// {h}\n")).collect();
    s.push_str("[\n");
    for st in states {
        let path: Vec<String> = st.path.vertices().map(|(x, y)| format!("({x}, {y})")).collect();
        s.push_str(&format!("    (puzzle: {}, path: [{}]),\n", st.puzzle.to_ron(), path.join(", ")));
    }
    s.push_str("]\n");
    s
}

/// Writes a specification file (see [`specs_to_ron`]).
pub fn write_specs(path: &FsPath, states: &[WitnessState], header: &[String]) -> Result<(), SpecError> {
    Ok(crate::files::write_atomic(path, specs_to_ron(states, header).as_bytes())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG21: &str = "(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)])";

    #[test]
    fn round_trips_and_checks_entries() {
        let text = format!("// made by hand\n[\n    (puzzle: {FIG21}, path: [(0, 0), (0, 1)]),\n]\n");
        let specs = parse_specs(&text, "s.ron").unwrap();
        assert_eq!(specs.len(), 1);
        assert_eq!(specs[0].path.to_text(), "0,0 0,1");
        assert_eq!(specs_to_ron(&specs, &["made by hand".to_string()]), text);
    }

    #[test]
    fn errors_name_the_entry() {
        let bad = |path: &str| {
            let text =
                format!("[\n  (puzzle: {FIG21}, path: [(0, 0), (0, 1)]),\n  (puzzle: {FIG21}, path: {path}),\n]");
            parse_specs(&text, "s.ron").unwrap_err().to_string()
        };
        let e = bad("[(0, 0), (1, 0)]");
        assert!(e.starts_with("s.ron:3:3: specification #1: ") && e.contains("can be completed"), "{e}");
        assert!(bad("[(0, 0), (1, 1)]").contains("not adjacent"));
        assert!(bad("[(1, 0)]").contains("starts at"));
        assert!(bad("[(0, 0), (-1, 0)]").contains("outside"));
        assert!(bad("[(0, 0), (1, 0), (2, 0), (2, 1)]").contains("reaches the goal"));
        let e = parse_specs("[(puzzle: (width: 2), path: [])]", "s.ron").unwrap_err().to_string();
        assert!(e.starts_with("s.ron:1:"), "{e}");
    }
}
