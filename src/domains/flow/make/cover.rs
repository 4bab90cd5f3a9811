//! Random path covers of a board: every cell on exactly one path of at
//! least two cells, no path running beside itself (two side-adjacent cells
//! of one path are consecutive on it), about a given number of paths.
//! Their ends make a puzzle's endpoints and the paths its solution.
//!
//! A cover grows by moves of a path's end onto a neighbouring path (a
//! *bite*: the end's path takes the cell beside it and that path's cells on
//! one side of it, the other path keeps the rest; a *merge* when it takes
//! them all). Every cell starts as a path of its own; while there are too
//! many paths, the shortest of a few drawn at random merges if it can and
//! bites otherwise, so paths grow to similar but not equal lengths, as in
//! published levels; then paths of one cell bite until none is left.
//!
//! This module knows cells and paths: not colours, states or solving.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::domains::flow::model::grid::{Cell, Grid};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Solution;

/// Paths drawn for each move, the shortest of them moved.
const DRAWN: usize = 3;

/// A cover of a grid by paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cover {
    /// Each path's cells in order, from one end to the other.
    pub paths: Vec<Vec<Cell>>,
}

impl Cover {
    /// The puzzle whose endpoints are the paths' ends, and its solution
    /// (the paths' links).
    pub fn puzzle(&self, grid: &Grid) -> (Puzzle, Solution) {
        let pairs = self.paths.iter().map(|p| (None, [p[0], p[p.len() - 1]])).collect();
        let links = self
            .paths
            .iter()
            .flat_map(|p| p.windows(2).map(|w| grid.slot_between(w[0], w[1]).expect("paths step to neighbours")))
            .collect();
        (Puzzle::new(grid.clone(), pairs), Solution::new(links))
    }
}

/// A move: path `p`'s end `a` is joined to the cell `q[at]` beside it,
/// and `p` takes that cell and the cells of `q` on one side of it
/// (`front`: toward `q`'s first cell); `q` keeps the rest. A merge when
/// `p` takes all of `q`.
#[derive(Clone, Copy, Debug)]
struct Move {
    p: usize,
    a: Cell,
    q: usize,
    at: usize,
    front: bool,
}

/// The paths being grown.
struct Paths<'g> {
    grid: &'g Grid,
    /// Per path its cells in order (empty once merged into another).
    paths: Vec<Vec<Cell>>,
    /// Per cell the index of its path.
    path_of: Vec<usize>,
    /// Per cell whether it is among the cells a move takes (scratch).
    taken: Vec<bool>,
}

impl Paths<'_> {
    /// The cells of `q` that move `m` gives to `p`, from the joined cell on.
    fn taken(&self, m: &Move) -> Vec<Cell> {
        let q = &self.paths[m.q];
        if m.front {
            q[..=m.at].iter().rev().copied().collect()
        } else {
            q[m.at..].to_vec()
        }
    }

    /// Whether `m` is a merge (`p` takes all of `q`).
    fn merges(&self, m: &Move) -> bool {
        let len = self.paths[m.q].len();
        if m.front {
            m.at + 1 == len
        } else {
            m.at == 0
        }
    }

    /// The cells `q` keeps after `m`.
    fn kept(&self, m: &Move) -> usize {
        self.paths[m.q].len() - self.taken(m).len()
    }

    /// Whether the path `m` makes would not run beside itself: no cell of
    /// `p` beside a taken cell, but for the joined pair.
    fn fits(&mut self, m: &Move) -> bool {
        let taken = self.taken(m);
        for &c in &taken {
            self.taken[c] = true;
        }
        let joined = taken[0];
        let g = self.grid;
        let ok = self.paths[m.p]
            .iter()
            .all(|&x| g.slots_of(x).map(|s| g.across(s, x)).all(|y| !self.taken[y] || (x == m.a && y == joined)));
        for &c in &taken {
            self.taken[c] = false;
        }
        ok
    }

    /// The ends of path `p` (one cell for a path of one cell).
    fn ends(&self, p: usize) -> Vec<Cell> {
        let path = &self.paths[p];
        if path.len() == 1 {
            vec![path[0]]
        } else {
            vec![path[0], path[path.len() - 1]]
        }
    }

    /// Every move of an end of `p` that fits.
    fn moves(&mut self, p: usize) -> Vec<Move> {
        let mut out = vec![];
        for a in self.ends(p) {
            let g = self.grid;
            for b in g.slots_of(a).map(|s| g.across(s, a)) {
                let q = self.path_of[b];
                if q == p {
                    continue;
                }
                let at = self.paths[q].iter().position(|&c| c == b).expect("a cell is on its path");
                for front in [true, false] {
                    let m = Move { p, a, q, at, front };
                    if self.fits(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// Makes move `m`.
    fn make(&mut self, m: &Move) {
        let taken = self.taken(m);
        let mut first = std::mem::take(&mut self.paths[m.p]);
        if first[0] == m.a {
            first.reverse();
        }
        let q = std::mem::take(&mut self.paths[m.q]);
        self.paths[m.q] = if m.front { q[m.at + 1..].to_vec() } else { q[..m.at].to_vec() };
        for &c in &taken {
            self.path_of[c] = m.p;
        }
        first.extend(taken);
        self.paths[m.p] = first;
    }
}

/// Moves tried per cell of the board before a cover is given up.
const MOVES_PER_CELL: usize = 40;

/// A random cover of `grid` by `paths` paths, or `None` if none was found
/// within a bounded number of moves.
///
/// While there are too many paths, the shortest of a few drawn at random
/// merges with a neighbour's path if it can, else takes part of one (the
/// neighbour keeps the rest); once there are `paths`, a path of one cell
/// left takes part of a neighbour's.
pub fn random_cover(grid: &Grid, paths: usize, rng: &mut impl Rng) -> Option<Cover> {
    let n = grid.cells();
    let mut m =
        Paths { grid, paths: (0..n).map(|c| vec![c]).collect(), path_of: (0..n).collect(), taken: vec![false; n] };
    let mut left = n;
    for _ in 0..MOVES_PER_CELL * n {
        let alive: Vec<usize> = (0..n).filter(|&p| !m.paths[p].is_empty()).collect();
        let single: Vec<usize> = alive.iter().copied().filter(|&p| m.paths[p].len() == 1).collect();
        if left == paths && single.is_empty() {
            let found: Vec<Vec<Cell>> = m.paths.into_iter().filter(|p| !p.is_empty()).collect();
            return Some(Cover { paths: found });
        }
        let p = if left > paths {
            let drawn = (0..DRAWN).map(|_| alive[rng.gen_range(0..alive.len())]);
            drawn.min_by_key(|&p| m.paths[p].len()).expect("at least one drawn")
        } else {
            single[rng.gen_range(0..single.len())]
        };
        let moves = m.moves(p);
        let merges: Vec<Move> = moves.iter().copied().filter(|mv| m.merges(mv)).collect();
        // bites that leave no path of one cell, if there are any
        let clean: Vec<Move> = moves.iter().copied().filter(|mv| !m.merges(mv) && m.kept(mv) != 1).collect();
        let bites: Vec<Move> = moves.iter().copied().filter(|mv| !m.merges(mv)).collect();
        let chosen = match () {
            _ if left > paths && !merges.is_empty() => merges.choose(rng),
            _ if !clean.is_empty() => clean.choose(rng),
            _ => bites.choose(rng),
        };
        if let Some(mv) = chosen.copied() {
            if m.merges(&mv) {
                left -= 1;
            }
            m.make(&mv);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::model::check::check;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// Every cover found is a solution of its puzzle (every cell used, no
    /// path beside itself), with the paths asked for.
    #[test]
    fn covers_are_solutions_of_their_puzzles() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut found = 0;
        for (w, h, k) in [(2, 1, 1), (3, 3, 2), (5, 5, 3), (8, 6, 5), (10, 10, 10)] {
            let g = Grid::new(w, h);
            for _ in 0..20 {
                let Some(cover) = random_cover(&g, k, &mut rng) else { continue };
                found += 1;
                assert_eq!(cover.paths.len(), k);
                let (p, solution) = cover.puzzle(&g);
                assert_eq!(check(&p, &solution, false), Ok(()), "{w}x{h}: {cover:?}");
            }
        }
        assert!(found >= 60, "{found} covers of 100 tries");
        // one path of 1x1 cannot be: one cell
        assert_eq!(random_cover(&Grid::new(1, 1), 1, &mut rng), None);
        assert_eq!(random_cover(&Grid::new(3, 1), 2, &mut rng), None);
    }
}
