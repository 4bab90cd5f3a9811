//! Whether a link set is a solution, by docs/reference/formats.md's definition: every
//! endpoint has one link and every other cell two, every chain holds
//! exactly two endpoints, of one colour, and (unless `touching`, Flow
//! Free's looser convention) two side-adjacent cells of one colour are
//! always linked.

use thiserror::Error;

use super::features::Features;
use super::grid::Cell;
use super::puzzle::Puzzle;
use super::state::{Solution, State};

/// Why a link set is not a solution (cells as `(x, y)`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Violation {
    /// A cell with the wrong number of links.
    #[error("cell {cell:?} has {links} links; it needs {needs}")]
    Degree {
        /// The cell.
        cell: (usize, usize),
        /// Its links.
        links: usize,
        /// 1 for an endpoint, else 2.
        needs: usize,
    },
    /// A chain without exactly two endpoints of one colour.
    #[error("the chain through {cell:?} holds {endpoints} endpoints, not two of one colour")]
    Chain {
        /// Its first cell.
        cell: (usize, usize),
        /// Its endpoints.
        endpoints: usize,
    },
    /// A path running beside itself.
    #[error("cells {a:?} and {b:?} are of one colour and side by side, but not linked")]
    Touching {
        /// One cell.
        a: (usize, usize),
        /// The other.
        b: (usize, usize),
    },
}

/// Checks that `solution` is a solution of `p` (with `touching`, under
/// Flow Free's looser convention).
pub fn check(p: &Puzzle, solution: &Solution, touching: bool) -> Result<(), Violation> {
    let g = p.grid();
    let state = State::of_solution(g, solution);
    let f = Features::of(p, &state);
    if let Some(c) = (0..g.cells()).find(|&c| f.links(c) != p.degree(c)) {
        return Err(Violation::Degree { cell: g.xy(c), links: f.links(c), needs: p.degree(c) });
    }
    let mut endpoints: Vec<Vec<Cell>> = vec![vec![]; g.cells()];
    for c in (0..g.cells()).filter(|&c| p.endpoint(c) > 0) {
        endpoints[f.chain(c)].push(c);
    }
    for c in (0..g.cells()).filter(|&c| f.chain(c) == c) {
        let e = &endpoints[c];
        if e.len() != 2 || p.endpoint(e[0]) != p.endpoint(e[1]) {
            return Err(Violation::Chain { cell: g.xy(c), endpoints: e.len() });
        }
    }
    if !touching {
        for s in 0..g.slots() {
            let [a, b] = g.ends(s);
            if f.colour(a) == f.colour(b) && solution.links().binary_search(&s).is_err() {
                return Err(Violation::Touching { a: g.xy(a), b: g.xy(b) });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;

    fn links(p: &Puzzle, pairs: &[(Cell, Cell)]) -> Solution {
        Solution::new(pairs.iter().map(|&(a, b)| p.grid().slot_between(a, b).unwrap()).collect())
    }

    /// A path that runs beside itself is a solution only with `touching`;
    /// wrong degrees and mixed chains are never solutions.
    #[test]
    fn solutions_by_the_definition() {
        let p = parse_flow("A..\n...\n..A\n", "t").unwrap().remove(0).1;
        // a snake 0-1-2-5-4-3-6-7-8: 0-3, 1-4, ... are side by side, unlinked
        let snake = links(&p, &[(0, 1), (1, 2), (2, 5), (5, 4), (4, 3), (3, 6), (6, 7), (7, 8)]);
        assert_eq!(check(&p, &snake, true), Ok(()));
        assert!(matches!(check(&p, &snake, false), Err(Violation::Touching { .. })));
        let short = links(&p, &[(0, 1), (1, 2), (2, 5), (5, 8)]);
        assert!(matches!(check(&p, &short, true), Err(Violation::Degree { cell: (0, 1), links: 0, needs: 2 })));
        let q = parse_flow("AB\nAB\n", "t").unwrap().remove(0).1;
        assert_eq!(check(&q, &links(&q, &[(0, 2), (1, 3)]), false), Ok(()));
        assert!(matches!(check(&q, &links(&q, &[(0, 1), (2, 3)]), true), Err(Violation::Chain { .. })));
    }
}
