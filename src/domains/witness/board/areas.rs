//! How a path cuts the squares of a puzzle into areas (docs/formats.md, docs/language.md):
//! the regions of a complete path, and for a partial path the *joined*
//! classes (squares linked through sealed edges: one region in every
//! completion) and the *open areas* (squares linked through edges not on
//! the path: each holds the final region of its squares), with the region
//! constraints (separation squares, stars) judged on them.
//!
//! Works on edge sets only (the path's edges, the usable edges), so it
//! knows nothing of paths or search; a grid has at most 64 squares, so a
//! set of squares is one `u64`.

use crate::domains::witness::formats::puzzle::{Mark, Puzzle};
use crate::domains::witness::model::grid::{BitSet, Grid, MAX_SIDE};

const _: () = assert!(MAX_SIDE * MAX_SIDE <= 64);

/// Per square: the smallest square id of its component.
pub type Labels = [u8; MAX_SIDE * MAX_SIDE];

/// The components of the squares of `grid` when two side-adjacent squares
/// are linked iff `link(shared edge)`: per square, the smallest square id
/// of its component (ids past the grid's squares are left 0).
///
/// Square sets are `u64`s: the links are read once into two masks (a
/// square linked to the one on its right, to the one above), and each
/// component grows from its smallest square by shifting its set along
/// them until it stops growing.
pub fn components(grid: Grid, link: impl Fn(usize) -> bool) -> Labels {
    sized_components(grid, link).0
}

/// [`components`], and per label the squares of its component.
fn sized_components(grid: Grid, link: impl Fn(usize) -> bool) -> (Labels, Labels) {
    let (n, w, h) = (grid.num_squares(), grid.width, grid.height);
    // the edge above square (c, r) is horizontal edge (r + 1) * w + c; the
    // one on its right vertical edge hv + r * (w + 1) + c + 1
    let hv = w * (h + 1);
    let (mut right, mut up) = (0u64, 0u64);
    for r in 0..h {
        for c in 0..w {
            let s = r * w + c;
            if c + 1 < w && link(hv + r * (w + 1) + c + 1) {
                right |= 1 << s;
            }
            if r + 1 < h && link(s + w) {
                up |= 1 << s;
            }
        }
    }
    let (mut labels, mut sizes) = ([0u8; MAX_SIDE * MAX_SIDE], [0u8; MAX_SIDE * MAX_SIDE]);
    let mut left = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    while left != 0 {
        let first = left.trailing_zeros();
        let mut part = 1u64 << first;
        loop {
            let grown = part | (part & right) << 1 | (part >> 1 & right) | (part & up) << w | (part >> w & up);
            if grown == part {
                break;
            }
            part = grown;
        }
        left &= !part;
        sizes[first as usize] = part.count_ones() as u8;
        let mut each = part;
        while each != 0 {
            labels[each.trailing_zeros() as usize] = first as u8;
            each &= each - 1;
        }
    }
    (labels, sizes)
}

/// The squares across the bottom, right, top and left sides of square `s`
/// (the order of [`Grid::square_edges`]).
#[inline]
fn across(grid: Grid, s: usize) -> [Option<usize>; 4] {
    let (c, r) = grid.square(s);
    [
        (r > 0).then(|| s - grid.width),
        (c + 1 < grid.width).then_some(s + 1),
        (r + 1 < grid.height).then_some(s + grid.width),
        (c > 0).then(|| s - 1),
    ]
}

/// Whether the regions cut by the edges `path` satisfy the region
/// constraints: in every region all separation squares have one colour,
/// and every star's region holds exactly two marks of its colour.
pub fn regions_hold(puzzle: &Puzzle, path: &BitSet) -> bool {
    if !puzzle.has_marks() {
        return true;
    }
    let labels = components(puzzle.grid(), |e| !path.contains(e));
    let marks = puzzle.marks();
    marks.iter().all(|x| {
        let same = |y: &&Mark| labels[y.square] == labels[x.square];
        if x.star {
            marks.iter().filter(same).filter(|y| y.colour == x.colour).count() == 2
        } else {
            !marks.iter().filter(same).any(|y| !y.star && y.colour != x.colour)
        }
    })
}

/// The areas of a partial path: its open areas and joined classes, given
/// its edges and its usable edges.
#[derive(Clone, Debug)]
pub struct Areas {
    /// Open-area label per square (links: edges not on the path).
    pub open: Labels,
    /// Joined-class label per square (links: sealed edges).
    pub joined: Labels,
    /// Squares per open-area label.
    open_size: Labels,
    /// Squares per joined-class label.
    joined_size: Labels,
}

/// The features of one mark (docs/language.md, element type `mark`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MarkFeatures {
    /// `colour(x)`.
    pub colour: u8,
    /// `star(x)`.
    pub star: bool,
    /// `joined_same(x)`: other marks of x's colour joined to x.
    pub joined_same: u8,
    /// `joined_other(x)`: for a separation square, separation squares of
    /// another colour joined to x; 0 for a star.
    pub joined_other: u8,
    /// `reach_same(x)`: other marks of x's colour in x's open area.
    pub reach_same: u8,
    /// `closed(x)`: every square of x's open area is joined to x.
    pub closed: bool,
}

impl Areas {
    /// The areas of a path with edges `path` whose usable edges are those
    /// for which `usable` holds (an edge is sealed when it is neither).
    pub fn new(grid: Grid, path: &BitSet, usable: impl Fn(usize) -> bool) -> Areas {
        let (open, open_size) = sized_components(grid, |e| !path.contains(e));
        let (joined, joined_size) = sized_components(grid, |e| !path.contains(e) && !usable(e));
        Areas { open, joined, open_size, joined_size }
    }

    /// Whether square `s`'s open area is one joined class: its region is
    /// final whatever the completion.
    #[inline]
    pub fn closed(&self, s: usize) -> bool {
        self.open_size[self.open[s] as usize] == self.joined_size[self.joined[s] as usize]
    }

    /// The features of every mark of `puzzle`, in its mark order.
    pub fn mark_features(&self, puzzle: &Puzzle) -> Vec<MarkFeatures> {
        let marks = puzzle.marks();
        let mut out = Vec::with_capacity(marks.len());
        for (i, x) in marks.iter().enumerate() {
            let (joined, open) = (self.joined[x.square], self.open[x.square]);
            let (mut joined_same, mut joined_other, mut reach_same) = (0u8, 0u8, 0u8);
            for (j, y) in marks.iter().enumerate() {
                if j == i {
                    continue;
                }
                let same_colour = y.colour == x.colour;
                if self.joined[y.square] == joined {
                    joined_same += u8::from(same_colour);
                    joined_other += u8::from(!x.star && !y.star && !same_colour);
                }
                reach_same += u8::from(same_colour && self.open[y.square] == open);
            }
            out.push(MarkFeatures {
                colour: x.colour,
                star: x.star,
                joined_same,
                joined_other,
                reach_same,
                closed: self.closed(x.square),
            });
        }
        out
    }

    /// Whether no completion can satisfy the region constraints: two
    /// colours of separation squares joined, a star joined to two or more
    /// marks of its colour, or a star with no other mark of its colour in
    /// its open area. (A closed area is its final region, so this judges
    /// every closed area in full.)
    pub fn hopeless(&self, puzzle: &Puzzle) -> bool {
        self.mark_features(puzzle).iter().any(|f| {
            if f.star {
                f.joined_same > 1 || f.reach_same < 1
            } else {
                f.joined_other > 0
            }
        })
    }

    /// What the future of a state can still see of its areas: the squares
    /// whose area is not closed, and the inner edges between two of them
    /// that are sealed (with the usable edges, these fix their joined
    /// classes). Closed areas are final and judged by [`Areas::hopeless`].
    pub fn summary(&self, grid: Grid, path: &BitSet, usable: impl Fn(usize) -> bool) -> (u64, BitSet) {
        let mut active = 0u64;
        for s in 0..grid.num_squares() {
            if !self.closed(s) {
                active |= 1 << s;
            }
        }
        let mut sealed = BitSet::EMPTY;
        if active != 0 {
            for s in 0..grid.num_squares() {
                let edges = grid.square_edges(s);
                // each inner edge once: from the square below or on the left
                for k in [1, 2] {
                    if let Some(t) = across(grid, s)[k] {
                        let e = edges[k];
                        if active >> s & active >> t & 1 == 1 && !path.contains(e) && !usable(e) {
                            sealed.insert(e);
                        }
                    }
                }
            }
        }
        (active, sealed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The components by union-find over every linked pair of side-adjacent
    /// squares, labelled by their smallest square.
    fn by_union_find(grid: Grid, link: impl Fn(usize) -> bool) -> Labels {
        let n = grid.num_squares();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut s: usize) -> usize {
            while parent[s] != s {
                s = parent[s];
            }
            s
        }
        for s in 0..n {
            for (k, t) in across(grid, s).into_iter().enumerate() {
                if let Some(t) = t.filter(|_| link(grid.square_edges(s)[k])) {
                    let (a, b) = (root(&mut parent, s), root(&mut parent, t));
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        let mut labels = [0u8; MAX_SIDE * MAX_SIDE];
        for (s, label) in labels.iter_mut().enumerate().take(n) {
            *label = root(&mut parent, s) as u8;
        }
        labels
    }

    #[test]
    fn components_and_their_sizes_equal_union_find_on_random_links() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for width in 1..=MAX_SIDE {
            for height in 1..=MAX_SIDE {
                let grid = Grid::new(width, height);
                for chance in [0.2, 0.5, 0.8, 1.0] {
                    let cut: Vec<bool> = (0..grid.num_edges()).map(|_| rng.gen_bool(1.0 - chance)).collect();
                    let link = |e: usize| !cut[e];
                    let (labels, sizes) = sized_components(grid, link);
                    assert_eq!(labels, by_union_find(grid, link), "{width}x{height} at {chance}");
                    for s in 0..grid.num_squares() {
                        let size = labels[..grid.num_squares()].iter().filter(|&&l| l == labels[s]).count();
                        assert_eq!(sizes[labels[s] as usize] as usize, size, "{width}x{height} at {chance}");
                    }
                }
            }
        }
    }
}
