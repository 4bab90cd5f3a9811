//! A Flow puzzle: its grid, its endpoints and their colours, and the
//! metadata its file gave.
//!
//! Colours are numbered 1..k in the order their first endpoint is met row
//! by row (0 is "no colour"), whatever order the file gave them in; each
//! colour keeps the character that named it in a grid file (readers of the
//! counted layout name them `A`..`Z`, `a`..`z`, `0`..`9` in that order).

use super::grid::{Cell, Grid};

/// A colour: 1..k, 0 for none.
pub type Colour = usize;

/// The characters that may name a colour, in the order the counted
/// layout's colours are named.
pub const NAMES: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// A Flow puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    grid: Grid,
    /// Per colour (index colour - 1) its two endpoints, the lesser first.
    ends: Vec<[Cell; 2]>,
    /// Per colour its character, if it has one.
    names: Vec<Option<char>>,
    /// Per cell its endpoint's colour, 0 if it is not an endpoint.
    endpoint: Vec<Colour>,
    /// The `title` metadata, if given.
    pub title: Option<String>,
    /// The other `# key "value"` metadata, in file order.
    pub metadata: Vec<(String, String)>,
}

impl Puzzle {
    /// The puzzle on `grid` with the endpoint pairs `pairs` (each with the
    /// character naming it, if any), colours renumbered row by row. The
    /// caller has checked that the pairs' cells lie in the grid and are
    /// all distinct.
    pub fn new(grid: Grid, pairs: Vec<(Option<char>, [Cell; 2])>) -> Puzzle {
        let mut pairs: Vec<(Option<char>, [Cell; 2])> =
            pairs.into_iter().map(|(n, [a, b])| (n, [a.min(b), a.max(b)])).collect();
        pairs.sort_by_key(|p| p.1[0]);
        let mut endpoint = vec![0; grid.cells()];
        for (i, (_, pair)) in pairs.iter().enumerate() {
            for &c in pair {
                endpoint[c] = i + 1;
            }
        }
        let (names, ends) = pairs.into_iter().unzip();
        Puzzle { grid, ends, names, endpoint, title: None, metadata: vec![] }
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.grid.width()
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.grid.height()
    }

    /// The number of colours, k.
    pub fn colours(&self) -> usize {
        self.ends.len()
    }

    /// The two endpoints of colour `f` (1..k), the lesser first.
    pub fn ends(&self, f: Colour) -> [Cell; 2] {
        self.ends[f - 1]
    }

    /// The character naming colour `f` (1..k), if it has one.
    pub fn name(&self, f: Colour) -> Option<char> {
        self.names[f - 1]
    }

    /// The colour of the endpoint on `c`, 0 if `c` is not an endpoint.
    pub fn endpoint(&self, c: Cell) -> Colour {
        self.endpoint[c]
    }

    /// The links `c` has in a solution: 1 for an endpoint, else 2.
    pub fn degree(&self, c: Cell) -> usize {
        if self.endpoint[c] > 0 {
            1
        } else {
            2
        }
    }

    /// Every colour without a character named by the first character of
    /// [`NAMES`] no other colour uses; `false` (and nothing changed) if
    /// there are not enough characters.
    pub fn name_colours(&mut self) -> bool {
        let free: Vec<char> = NAMES.chars().filter(|c| !self.names.contains(&Some(*c))).collect();
        if self.names.iter().filter(|n| n.is_none()).count() > free.len() {
            return false;
        }
        let mut free = free.into_iter();
        for n in self.names.iter_mut().filter(|n| n.is_none()) {
            *n = free.next();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Colours are numbered by their first endpoint row by row, whatever
    /// order they are given in; unnamed colours get free characters.
    #[test]
    fn colours_are_numbered_row_by_row() {
        let grid = Grid::new(3, 2);
        let mut p = Puzzle::new(grid, vec![(Some('B'), [5, 1]), (None, [3, 0]), (Some('A'), [2, 4])]);
        assert_eq!(p.colours(), 3);
        assert_eq!((p.ends(1), p.ends(2), p.ends(3)), ([0, 3], [1, 5], [2, 4]));
        assert_eq!((p.endpoint(0), p.endpoint(5), p.endpoint(4)), (1, 2, 3));
        assert_eq!((p.degree(0), p.degree(1)), (1, 1));
        assert_eq!(p.name(1), None);
        assert!(p.name_colours());
        assert_eq!([p.name(1), p.name(2), p.name(3)], [Some('C'), Some('B'), Some('A')]);
    }
}
