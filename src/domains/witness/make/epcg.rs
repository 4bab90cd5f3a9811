//! Exhaustive procedural content generation (Shen 2024, chapter 5,
//! Algorithm 4): the generator side. A designer marks placeholder squares
//! and edges of a base puzzle. A square placeholder takes no constraint,
//! 1-3 triangles, and (when asked for) a separation square or a star in
//! each colour of the palette; an edge placeholder takes no constraint, a
//! must-cross dot or a broken edge. Variant `rank` is read as mixed-radix
//! digits, square placeholders first (in the order given), then edge
//! placeholders, so ranks `0 .. max_rank()` enumerate every filling exactly
//! once in a fixed order; with triangles only the `i`-th digit is
//! `(rank / 4^i) % 4` triangles, as before edge placeholders existed.
//!
//! The palette (Shen §5): the base's colours, plus two new colours if the
//! base has none and there are at least two placeholders, none if the base
//! already has more than two colours, one otherwise (new colours are the
//! smallest not in the base).
//!
//! This module owns the placeholders and the enumeration of variants; which
//! variants are kept and how they are ranked is the evaluator's (the
//! `witness generate` command, with [`information`](crate::domains::witness::play::information)).

use crate::domains::witness::formats::puzzle::{Problem, Puzzle};
use crate::domains::witness::model::grid::Vertex;

/// Placeholders beyond this many are allowed but the variants grow fast.
pub const USUAL_PLACEHOLDERS: usize = 4;

/// Most placeholders accepted.
pub const MAX_PLACEHOLDERS: usize = 8;

/// Most variants accepted (4^8, eight triangle placeholders).
pub const MAX_VARIANTS: usize = 1 << 16;

/// What a square placeholder can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionFill {
    /// No constraint.
    Empty,
    /// 1-3 triangles.
    Triangles(u8),
    /// A separation square of a colour.
    Separation(u8),
    /// A star of a colour.
    Star(u8),
}

/// What an edge placeholder can hold, in digit order.
pub const EDGE_FILLS: [&str; 3] = ["none", "must-cross", "cannot-cross"];

/// A base puzzle with placeholder squares and edges.
#[derive(Clone, Debug)]
pub struct Placeholders {
    base: Puzzle,
    squares: Vec<(usize, usize)>,
    edges: Vec<(Vertex, Vertex)>,
    /// The fillings of one square placeholder, in digit order.
    fills: Vec<RegionFill>,
}

/// Why placeholders cannot be used.
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlaceholderError {
    /// A square outside the base puzzle's grid.
    #[error("--at {col},{row}: the square is outside the {width}x{height} grid (expected 0 <= column < {width}, 0 <= row < {height})")]
    Outside {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// The same square twice.
    #[error("--at {col},{row}: the square is given twice")]
    Twice {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
    },
    /// An edge placeholder that is not an edge of the grid.
    #[error("--edge-at {},{}-{},{}: not an edge of the {width}x{height} grid (expected two grid-adjacent vertices, 0 <= x <= {width}, 0 <= y <= {height})", .a.0, .a.1, .b.0, .b.1)]
    NotAnEdge {
        /// One end.
        a: Vertex,
        /// The other end.
        b: Vertex,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// The same edge twice.
    #[error("--edge-at {},{}-{},{}: the edge is given twice", .a.0, .a.1, .b.0, .b.1)]
    EdgeTwice {
        /// One end.
        a: Vertex,
        /// The other end.
        b: Vertex,
    },
    /// No placeholder, or too many.
    #[error("{count} placeholders: expected 1 to {MAX_PLACEHOLDERS}")]
    Count {
        /// How many were given.
        count: usize,
    },
    /// More variants than can be analysed.
    #[error("the placeholders make {variants} variants: expected at most {MAX_VARIANTS} (use fewer placeholders, or fewer kinds)")]
    TooMany {
        /// Variants the placeholders would make.
        variants: u128,
    },
}

impl Placeholders {
    /// Triangle placeholders `squares` (`(column, row)`) on `base`: each
    /// takes 0-3 triangles.
    pub fn new(base: Puzzle, squares: Vec<(usize, usize)>) -> Result<Placeholders, PlaceholderError> {
        Placeholders::with_kinds(base, squares, vec![], false)
    }

    /// Placeholders `squares` and `edges` on `base`; with `marks` a square
    /// also takes a separation square or a star in each palette colour.
    pub fn with_kinds(
        base: Puzzle,
        squares: Vec<(usize, usize)>,
        edges: Vec<(Vertex, Vertex)>,
        marks: bool,
    ) -> Result<Placeholders, PlaceholderError> {
        let count = squares.len() + edges.len();
        if count == 0 || count > MAX_PLACEHOLDERS {
            return Err(PlaceholderError::Count { count });
        }
        let (width, height) = (base.width(), base.height());
        for (i, &(col, row)) in squares.iter().enumerate() {
            if col >= width || row >= height {
                return Err(PlaceholderError::Outside { col, row, width, height });
            }
            if squares[..i].contains(&(col, row)) {
                return Err(PlaceholderError::Twice { col, row });
            }
        }
        let grid = base.grid();
        for (i, &(a, b)) in edges.iter().enumerate() {
            let adjacent = grid.contains_vertex(a)
                && grid.contains_vertex(b)
                && grid.edge_between(grid.vertex_id(a), grid.vertex_id(b)).is_some();
            if !adjacent {
                return Err(PlaceholderError::NotAnEdge { a, b, width, height });
            }
            if edges[..i].iter().any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a)) {
                return Err(PlaceholderError::EdgeTwice { a, b });
            }
        }
        let mut fills: Vec<RegionFill> = vec![RegionFill::Empty];
        fills.extend((1..=3).map(RegionFill::Triangles));
        if marks {
            let palette = palette(&base, count);
            fills.extend(palette.iter().map(|&c| RegionFill::Separation(c)));
            fills.extend(palette.iter().map(|&c| RegionFill::Star(c)));
        }
        let variants = (fills.len() as u128).pow(squares.len() as u32) * 3u128.pow(edges.len() as u32);
        if variants > MAX_VARIANTS as u128 {
            return Err(PlaceholderError::TooMany { variants });
        }
        Ok(Placeholders { base, squares, edges, fills })
    }

    /// Number of variants.
    pub fn max_rank(&self) -> usize {
        self.fills.len().pow(self.squares.len() as u32) * 3usize.pow(self.edges.len() as u32)
    }

    /// The base puzzle (every variant has its size).
    pub fn base(&self) -> &Puzzle {
        &self.base
    }

    /// The placeholder squares, in the order given.
    pub fn squares(&self) -> &[(usize, usize)] {
        &self.squares
    }

    /// The placeholder edges, in the order given.
    pub fn edges(&self) -> &[(Vertex, Vertex)] {
        &self.edges
    }

    /// What one square placeholder can hold, in digit order.
    pub fn fills(&self) -> &[RegionFill] {
        &self.fills
    }

    /// Variant `rank` (`< max_rank()`): the base with the placeholders
    /// filled as the rank's digits say (a placeholder's base constraint is
    /// replaced by its filling).
    pub fn unrank(&self, rank: usize) -> Result<Puzzle, Problem> {
        let b = &self.base;
        let mut c = b.constraints();
        let on = |list: &[(usize, usize, u8)]| -> Vec<(usize, usize, u8)> {
            list.iter().copied().filter(|&(col, row, _)| !self.squares.contains(&(col, row))).collect()
        };
        (c.triangles, c.colours, c.stars) = (on(&c.triangles), on(&c.colours), on(&c.stars));
        let placed = |&(x, y): &(Vertex, Vertex)| self.edges.iter().any(|&(a, e)| (a, e) == (x, y) || (a, e) == (y, x));
        c.edge_dots.retain(|e| !placed(e));
        c.broken.retain(|e| !placed(e));
        let mut rest = rank;
        for &(col, row) in &self.squares {
            match self.fills[rest % self.fills.len()] {
                RegionFill::Empty => {}
                RegionFill::Triangles(t) => c.triangles.push((col, row, t)),
                RegionFill::Separation(k) => c.colours.push((col, row, k)),
                RegionFill::Star(k) => c.stars.push((col, row, k)),
            }
            rest /= self.fills.len();
        }
        for &edge in &self.edges {
            match rest % 3 {
                1 => c.edge_dots.push(edge),
                2 => c.broken.push(edge),
                _ => {}
            }
            rest /= 3;
        }
        Puzzle::with_constraints(b.width(), b.height(), b.start(), b.goal(), &c)
    }
}

/// The colours a square placeholder can take (Shen §5): the base's, and
/// the new ones its count of colours and the `placeholders` call for.
fn palette(base: &Puzzle, placeholders: usize) -> Vec<u8> {
    let mut colours: Vec<u8> = base.marks().iter().map(|m| m.colour).collect();
    colours.sort_unstable();
    colours.dedup();
    let new = match colours.len() {
        0 if placeholders >= 2 => 2,
        n if n > 2 => 0,
        _ => 1,
    };
    let fresh: Vec<u8> = (1..=255u8).filter(|c| !colours.contains(c)).take(new).collect();
    colours.extend(fresh);
    colours
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::formats::puzzle::Constraints;

    #[test]
    fn every_filling_once_and_the_rest_of_the_base_kept() {
        let base = Puzzle::new(2, 2, (0, 0), (2, 2), &[(0, 0, 2), (1, 1, 1)]).unwrap();
        let ph = Placeholders::new(base, vec![(1, 1), (1, 0)]).unwrap();
        assert_eq!(ph.max_rank(), 16);
        let all: Vec<_> = (0..16).map(|r| ph.unrank(r).unwrap().triangles()).collect();
        assert_eq!(all[0], vec![(0, 0, 2)]);
        assert_eq!(all[1], vec![(0, 0, 2), (1, 1, 1)]);
        assert_eq!(all[4 * 3 + 2], vec![(0, 0, 2), (1, 0, 3), (1, 1, 2)]);
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 16);
        assert!(all.iter().all(|t| t.contains(&(0, 0, 2))));
    }

    #[test]
    fn bad_placeholders_are_refused() {
        let base = Puzzle::new(2, 2, (0, 0), (2, 2), &[]).unwrap();
        assert!(matches!(Placeholders::new(base.clone(), vec![(2, 0)]), Err(PlaceholderError::Outside { col: 2, .. })));
        assert!(matches!(Placeholders::new(base.clone(), vec![(1, 0), (1, 0)]), Err(PlaceholderError::Twice { .. })));
        assert!(matches!(Placeholders::new(base.clone(), vec![]), Err(PlaceholderError::Count { count: 0 })));
        let at = |x: Vertex, y: Vertex| Placeholders::with_kinds(base.clone(), vec![(0, 0)], vec![(x, y)], true);
        assert!(matches!(at((0, 0), (1, 1)), Err(PlaceholderError::NotAnEdge { .. })));
        assert!(matches!(at((2, 2), (3, 2)), Err(PlaceholderError::NotAnEdge { .. })));
        let twice = Placeholders::with_kinds(base.clone(), vec![], vec![((0, 0), (1, 0)), ((1, 0), (0, 0))], false);
        assert!(matches!(twice, Err(PlaceholderError::EdgeTwice { .. })));
        // 8 fillings a square (none, 3 triangle counts, 2 colours x 2 kinds), 3 an edge
        let squares = vec![(0, 0), (1, 0), (0, 1), (1, 1)];
        let big =
            Placeholders::with_kinds(base.clone(), squares.clone(), vec![((0, 0), (1, 0)), ((0, 1), (1, 1))], true);
        assert_eq!(big.unwrap().max_rank(), 8 * 8 * 8 * 8 * 9);
        let edges: Vec<(Vertex, Vertex)> = vec![((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 2), (1, 2)), ((2, 0), (2, 1))];
        let e = Placeholders::with_kinds(base, squares, edges, true).unwrap_err();
        assert_eq!(e, PlaceholderError::TooMany { variants: 8u128.pow(4) * 81 });
        assert!(e.to_string().contains("at most 65536"), "{e}");
    }

    #[test]
    fn shens_fillings_and_palette() {
        let base = Puzzle::new(2, 2, (0, 0), (2, 2), &[(0, 0, 2)]).unwrap();
        let edge = ((0, 1), (1, 1));
        let ph = Placeholders::with_kinds(base.clone(), vec![(1, 1)], vec![edge], true).unwrap();
        // no colours in the base, two placeholders: two new colours
        assert_eq!(ph.fills().len(), 1 + 3 + 2 + 2);
        assert_eq!(ph.max_rank(), 8 * 3);
        let all: Vec<Puzzle> = (0..ph.max_rank()).map(|r| ph.unrank(r).unwrap()).collect();
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), 24);
        let c = all[8 + 7].constraints(); // square: star of colour 2; edge: must-cross
        assert_eq!((c.stars, c.edge_dots.clone(), c.triangles), (vec![(1, 1, 2)], vec![edge], vec![(0, 0, 2)]));
        assert_eq!(all[16 + 4].constraints().colours, vec![(1, 1, 1)]);
        assert_eq!(all[16].constraints().broken, vec![edge]);
        // one placeholder and no colours: one new colour; three colours: none new
        let one = Placeholders::with_kinds(base, vec![(1, 1)], vec![], true).unwrap();
        assert_eq!(one.fills().len(), 6);
        let c = Constraints { colours: vec![(0, 0, 1), (1, 0, 4), (0, 1, 9)], ..Constraints::default() };
        let three = Puzzle::with_constraints(2, 2, (0, 0), (2, 2), &c).unwrap();
        let ph = Placeholders::with_kinds(three, vec![(1, 1), (0, 0)], vec![], true).unwrap();
        assert_eq!(
            &ph.fills()[4..7],
            &[RegionFill::Separation(1), RegionFill::Separation(4), RegionFill::Separation(9)]
        );
        // a placeholder square's base constraint gives way to its filling
        assert_eq!(ph.unrank(0).unwrap().constraints().colours, vec![(1, 0, 4), (0, 1, 9)]);
    }
}
