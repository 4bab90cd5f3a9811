//! Writing Flow puzzles in the three layouts of docs/formats.md, and
//! solutions as JSON links or as the grid of colour characters.

use thiserror::Error;

use crate::domains::flow::model::features::Features;
use crate::domains::flow::model::grid::Cell;
use crate::domains::flow::model::puzzle::{Colour, Puzzle, NAMES};
use crate::domains::flow::model::state::{Solution, State};

/// Why a puzzle cannot be written as a grid.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WriteError {
    /// More colours than characters to name them.
    #[error("{0} colours: a grid names at most {max} (letters and digits)", max = NAMES.len())]
    TooManyColours(usize),
}

/// The `# key "value"` lines of `p`'s metadata, title first.
fn metadata_lines(p: &Puzzle) -> String {
    let title = p.title.iter().map(|t| ("title", t.as_str()));
    let rest = p.metadata.iter().map(|(k, v)| (k.as_str(), v.as_str()));
    title.chain(rest).map(|(k, v)| format!("# {k} \"{v}\"\n")).collect()
}

/// `p` with every colour named, or the error if there are too many.
fn named(p: &Puzzle) -> Result<Puzzle, WriteError> {
    let mut p = p.clone();
    if p.name_colours() {
        Ok(p)
    } else {
        Err(WriteError::TooManyColours(p.colours()))
    }
}

/// The rows of `p`, each cell written by `cell`, one line each.
fn rows(p: &Puzzle, cell: impl Fn(Cell) -> char) -> String {
    let w = p.width();
    (0..p.height()).map(|y| (0..w).map(|x| cell(y * w + x)).chain(['\n']).collect::<String>()).collect()
}

/// The character of colour `f` of a named puzzle, `.` for 0.
fn name(p: &Puzzle, f: Colour) -> char {
    if f == 0 {
        '.'
    } else {
        p.name(f).unwrap_or('?')
    }
}

/// The grid of `p` (endpoints by their characters), without metadata.
fn grid_rows(p: &Puzzle) -> Result<String, WriteError> {
    let p = named(p)?;
    Ok(rows(&p, |c| name(&p, p.endpoint(c))))
}

/// `p` in the grid layout: metadata, then one line per row.
pub fn grid_text(p: &Puzzle) -> Result<String, WriteError> {
    Ok(metadata_lines(p) + &grid_rows(p)?)
}

/// `p` in the counted layout: metadata, `COLOURS WIDTH HEIGHT`, then each
/// colour's endpoints in colour order.
pub fn counted_text(p: &Puzzle) -> String {
    let g = p.grid();
    let mut out = metadata_lines(p) + &format!("{} {} {}\n", p.colours(), p.width(), p.height());
    for f in 1..=p.colours() {
        let [(ax, ay), (bx, by)] = p.ends(f).map(|c| g.xy(c));
        out += &format!("({ax}, {ay}) ({bx}, {by})\n");
    }
    out
}

/// Puzzles in the sized layout: each with its metadata, `WIDTH HEIGHT` and
/// its grid, separated by blank lines.
pub fn sized_text(puzzles: &[&Puzzle]) -> Result<String, WriteError> {
    let parts: Result<Vec<String>, WriteError> = puzzles
        .iter()
        .map(|p| Ok(metadata_lines(p) + &format!("{} {}\n", p.width(), p.height()) + &grid_rows(p)?))
        .collect();
    Ok(parts?.join("\n"))
}

/// A solution's links as pairs of `[x, y]` cells, the lesser cell first,
/// ordered row by row by their first cell, then their second.
pub fn solution_links(p: &Puzzle, solution: &Solution) -> Vec<[[usize; 2]; 2]> {
    let g = p.grid();
    let mut pairs: Vec<[Cell; 2]> = solution.links().iter().map(|&s| g.ends(s)).collect();
    pairs.sort_unstable();
    pairs.into_iter().map(|pair| pair.map(|c| g.xy(c).into())).collect()
}

/// A solution as JSON: `{"links": [[[x1, y1], [x2, y2]], ...]}`.
pub fn solution_json(p: &Puzzle, solution: &Solution) -> serde_json::Value {
    serde_json::json!({ "links": solution_links(p, solution) })
}

/// A solution as the grid with every cell written as its colour's
/// character (`.` for a cell on no colour's path).
pub fn solution_grid(p: &Puzzle, solution: &Solution) -> Result<String, WriteError> {
    let p = named(p)?;
    let features = Features::of(&p, &State::of_solution(p.grid(), solution));
    Ok(rows(&p, |c| name(&p, features.colour(c))))
}
