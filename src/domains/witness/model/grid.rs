//! Grid geometry of a Witness puzzle: numbering of vertices, edges and
//! squares, adjacency, and a small fixed-size bit set.
//!
//! This module owns *only* geometry. It knows nothing about triangles,
//! paths or search. Conventions (docs/formats.md): squares are addressed
//! `(column, row)` with column 0 at the left and row 0 at the bottom;
//! vertices `(x, y)` with `0 <= x <= width`, `0 <= y <= height`.
//!
//! Numbering (dense, used for bit sets):
//! - vertex `(x, y)` has id `y * (width + 1) + x`;
//! - square `(c, r)` has id `r * width + c` (so ids follow (row, column) order);
//! - the horizontal edge `(x, y)-(x+1, y)` has id `y * width + x`; the
//!   vertical edge `(x, y)-(x, y+1)` has id
//!   `width * (height + 1) + y * (width + 1) + x`.

/// A grid vertex `(x, y)`.
pub type Vertex = (usize, usize);

/// Largest width and height the tool reads, generates or searches, in
/// squares (`limits.max_state` of `dsl/witness.ron`, checked equal in its
/// tests). An 8 x 8 grid has 81 vertices and 144 edges, which fit the
/// 256-bit [`BitSet`] (and a vertex set fits a `u128`).
pub const MAX_SIDE: usize = 8;

/// The one wording of the size limit, for every message about it.
pub fn size_limit() -> String {
    format!("the tool handles Witness grids from 1x1 up to {MAX_SIDE}x{MAX_SIDE}")
}

/// A set of small non-negative integers (< 256) as four `u64` words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BitSet([u64; 4]);

impl BitSet {
    /// The empty set.
    pub const EMPTY: BitSet = BitSet([0; 4]);

    /// Whether `i` is in the set. `i` must be below 256.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 == 1
    }

    /// Adds `i` (below 256) to the set.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }

    /// Removes `i` (below 256) from the set.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..4).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(k * 64 + b)
                }
            })
        })
    }
}

/// The geometry of a `width` x `height` grid of squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    /// Number of columns of squares.
    pub width: usize,
    /// Number of rows of squares.
    pub height: usize,
}

impl Grid {
    /// A grid of `width` x `height` squares (callers validate the sizes).
    pub fn new(width: usize, height: usize) -> Grid {
        Grid { width, height }
    }

    /// Number of vertices, `(width + 1) * (height + 1)`.
    pub fn num_vertices(&self) -> usize {
        (self.width + 1) * (self.height + 1)
    }

    /// Number of squares, `width * height`.
    pub fn num_squares(&self) -> usize {
        self.width * self.height
    }

    /// Number of edges.
    pub fn num_edges(&self) -> usize {
        self.width * (self.height + 1) + (self.width + 1) * self.height
    }

    /// Whether `v` is a vertex of the grid.
    pub fn contains_vertex(&self, v: Vertex) -> bool {
        v.0 <= self.width && v.1 <= self.height
    }

    /// Whether `v` lies on the border (has fewer than four neighbours).
    pub fn on_border(&self, v: Vertex) -> bool {
        v.0 == 0 || v.1 == 0 || v.0 == self.width || v.1 == self.height
    }

    /// Id of vertex `v` (which must be in the grid).
    #[inline]
    pub fn vertex_id(&self, v: Vertex) -> usize {
        v.1 * (self.width + 1) + v.0
    }

    /// Vertex with id `id`.
    #[inline]
    pub fn vertex(&self, id: usize) -> Vertex {
        (id % (self.width + 1), id / (self.width + 1))
    }

    /// Id of square `(column, row)` (which must be in the grid).
    #[inline]
    pub fn square_id(&self, col: usize, row: usize) -> usize {
        row * self.width + col
    }

    /// Square `(column, row)` with id `id`.
    #[inline]
    pub fn square(&self, id: usize) -> (usize, usize) {
        (id % self.width, id / self.width)
    }

    /// Vertex ids of the four corners of square id `s`.
    #[inline]
    pub fn square_corners(&self, s: usize) -> [usize; 4] {
        let (c, r) = self.square(s);
        let w1 = self.width + 1;
        let bl = r * w1 + c;
        [bl, bl + 1, bl + w1 + 1, bl + w1]
    }

    /// Edge ids of the four edges of square id `s`: bottom, right, top, left.
    #[inline]
    pub fn square_edges(&self, s: usize) -> [usize; 4] {
        let (c, r) = self.square(s);
        let hv = self.width * (self.height + 1);
        let w1 = self.width + 1;
        [r * self.width + c, hv + r * w1 + c + 1, (r + 1) * self.width + c, hv + r * w1 + c]
    }

    /// Edge id between adjacent vertex ids `a` and `b`, or `None` if they
    /// are not grid-adjacent.
    #[inline]
    pub fn edge_between(&self, a: usize, b: usize) -> Option<usize> {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let w1 = self.width + 1;
        if hi == lo + 1 && lo % w1 != self.width {
            let (x, y) = self.vertex(lo);
            Some(y * self.width + x)
        } else if hi == lo + w1 {
            Some(self.width * (self.height + 1) + lo)
        } else {
            None
        }
    }

    /// Up to two squares (ids) on either side of the edge between adjacent
    /// vertex ids `a` and `b`.
    #[inline]
    pub fn edge_squares(&self, a: usize, b: usize) -> impl Iterator<Item = usize> {
        let lo = a.min(b);
        let hi = a.max(b);
        let (x, y) = self.vertex(lo);
        let mut out = [None, None];
        if hi == lo + 1 {
            // horizontal edge (x, y)-(x+1, y): squares below and above
            if y > 0 {
                out[0] = Some(self.square_id(x, y - 1));
            }
            if y < self.height {
                out[1] = Some(self.square_id(x, y));
            }
        } else {
            // vertical edge (x, y)-(x, y+1): squares left and right
            if x > 0 {
                out[0] = Some(self.square_id(x - 1, y));
            }
            if x < self.width {
                out[1] = Some(self.square_id(x, y));
            }
        }
        out.into_iter().flatten()
    }

    /// The two ends of edge id `e`, lower-left end first.
    #[inline]
    pub fn edge_ends(&self, e: usize) -> (usize, usize) {
        let hv = self.width * (self.height + 1);
        if e < hv {
            let lo = self.vertex_id((e % self.width, e / self.width));
            (lo, lo + 1)
        } else {
            (e - hv, e - hv + self.width + 1)
        }
    }

    /// Whether edge id `e` is vertical.
    #[inline]
    pub fn is_vertical(&self, e: usize) -> bool {
        e >= self.width * (self.height + 1)
    }

    /// The squares on either side of edge id `e` when it is an inner edge
    /// (two squares share it), `None` on the border.
    #[inline]
    pub fn edge_between_squares(&self, e: usize) -> Option<(usize, usize)> {
        let (a, b) = self.edge_ends(e);
        let mut it = self.edge_squares(a, b);
        Some((it.next()?, it.next()?))
    }

    /// Neighbour vertex ids of vertex id `v`, in the fixed order
    /// right (+x), up (+y), left (-x), down (-y).
    #[inline]
    pub fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> {
        let (x, y) = self.vertex(v);
        let w1 = self.width + 1;
        let out = [
            (x < self.width).then_some(v + 1),
            (y < self.height).then_some(v + w1),
            (x > 0).then(|| v - 1),
            (y > 0).then(|| v - w1),
        ];
        out.into_iter().flatten()
    }

    /// Manhattan distance between two vertex ids.
    #[inline]
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let (ax, ay) = self.vertex(a);
        let (bx, by) = self.vertex(b);
        ax.abs_diff(bx) + ay.abs_diff(by)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_are_numbered_densely_and_consistently() {
        let g = Grid::new(3, 2);
        let mut seen = vec![0; g.num_edges()];
        for v in 0..g.num_vertices() {
            for u in g.neighbours(v) {
                let e = g.edge_between(v, u).unwrap();
                assert_eq!(Some(e), g.edge_between(u, v));
                seen[e] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 2));
        for s in 0..g.num_squares() {
            let c = g.square_corners(s);
            let e = g.square_edges(s);
            for k in 0..4 {
                assert_eq!(g.edge_between(c[k], c[(k + 1) % 4]), Some(e[k]));
                assert!(g.edge_squares(c[k], c[(k + 1) % 4]).any(|t| t == s));
            }
        }
        assert_eq!(g.edge_between(3, 4), None); // (3,0) and (0,1) are not adjacent
        for e in 0..g.num_edges() {
            let (a, b) = g.edge_ends(e);
            assert!(a < b && g.edge_between(a, b) == Some(e));
            assert_eq!(g.is_vertical(e), b == a + g.width + 1);
            let inner = g.edge_squares(a, b).count() == 2;
            assert_eq!(g.edge_between_squares(e).is_some(), inner);
        }
    }

    #[test]
    fn bitset_basics() {
        let mut b = BitSet::EMPTY;
        b.insert(3);
        b.insert(200);
        assert!(b.contains(200) && !b.contains(199));
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 200]);
        b.remove(3);
        assert_eq!(b.len(), 1);
    }
}
