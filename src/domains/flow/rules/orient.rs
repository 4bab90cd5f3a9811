//! The eight orientations of a Flow board (turned and mirrored), as rules
//! are applied in them (docs/reference/language.md, "Domain: Flow boards"): a puzzle and its
//! state seen in an orientation, colours numbered again row by row there,
//! and the way back from its cells to the board's.

use crate::domains::flow::model::grid::{Cell, Grid};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::State;

/// An orientation: mirror left-right (`flip_x`), then top-bottom
/// (`flip_y`), then swap columns and rows (`transpose`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orientation {
    /// `x` becomes `width - 1 - x`.
    pub flip_x: bool,
    /// `y` becomes `height - 1 - y`.
    pub flip_y: bool,
    /// `(x, y)` becomes `(y, x)` (after the flips).
    pub transpose: bool,
}

/// The eight orientations, the board as it is first.
pub const ALL: [Orientation; 8] = {
    let mut all = [Orientation { flip_x: false, flip_y: false, transpose: false }; 8];
    let mut i = 0;
    while i < 8 {
        all[i] = Orientation { flip_x: i & 1 != 0, flip_y: i & 2 != 0, transpose: i & 4 != 0 };
        i += 1;
    }
    all
};

impl Orientation {
    /// The width and height of a `width` x `height` board seen this way.
    pub fn size(self, width: usize, height: usize) -> (usize, usize) {
        if self.transpose {
            (height, width)
        } else {
            (width, height)
        }
    }

    /// Where cell `(x, y)` of a `width` x `height` board is seen.
    pub fn map(self, width: usize, height: usize, x: usize, y: usize) -> (usize, usize) {
        let x = if self.flip_x { width - 1 - x } else { x };
        let y = if self.flip_y { height - 1 - y } else { y };
        if self.transpose {
            (y, x)
        } else {
            (x, y)
        }
    }
}

/// A puzzle and state seen in one orientation.
#[derive(Clone, Debug)]
pub struct Oriented {
    /// The puzzle seen (colours numbered row by row in it).
    pub puzzle: Puzzle,
    /// The state seen.
    pub state: State,
    /// Per cell seen, the board's cell.
    back: Vec<Cell>,
}

impl Oriented {
    /// The board's cell that `c` (a cell of the puzzle seen) shows.
    pub fn back(&self, c: Cell) -> Cell {
        self.back[c]
    }
}

/// `p` and its state `st` seen in orientation `o`.
pub fn orient(p: &Puzzle, st: &State, o: Orientation) -> Oriented {
    let g = p.grid();
    let (w, h) = (g.width(), g.height());
    let (ow, oh) = o.size(w, h);
    let seen = Grid::new(ow, oh);
    let to = |c: Cell| {
        let (x, y) = g.xy(c);
        let (x, y) = o.map(w, h, x, y);
        seen.cell(x, y)
    };
    let mut back = vec![0; g.cells()];
    for c in 0..g.cells() {
        back[to(c)] = c;
    }
    let pairs = (1..=p.colours()).map(|f| (p.name(f), p.ends(f).map(to))).collect();
    let mut state = State::start(&seen);
    for s in 0..g.slots() {
        let [a, b] = g.ends(s);
        let t = seen.slot_between(to(a), to(b)).expect("orientations keep side-adjacent cells side by side");
        state.set(t, st.status(s));
    }
    Oriented { puzzle: Puzzle::new(seen, pairs), state, back }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::model::state::Status;

    /// The eight orientations are distinct maps of a 2x3 board; each sends
    /// side-adjacent cells to side-adjacent cells, renumbers colours row by
    /// row, carries slot statuses, and leads back to the board's cells.
    #[test]
    fn the_eight_orientations() {
        let p = parse_flow("AB\n..\nBA\n", "t").unwrap().remove(0).1;
        let g = p.grid();
        let mut st = State::start(g);
        st.set(g.slot_between(0, 2).unwrap(), Status::Linked);
        st.set(g.slot_between(2, 3).unwrap(), Status::Cut);
        let mut images = vec![];
        for o in ALL {
            let seen = orient(&p, &st, o);
            let sg = seen.puzzle.grid();
            assert_eq!((sg.width(), sg.height()), o.size(2, 3));
            images.push(
                (0..g.cells()).map(|c| sg.xy(seen.back.iter().position(|&b| b == c).unwrap())).collect::<Vec<_>>(),
            );
            // colour 1 is the one whose endpoint comes first row by row
            assert_eq!(seen.puzzle.endpoint(0), 1);
            let (a, b) =
                (seen.back.iter().position(|&c| c == 0).unwrap(), seen.back.iter().position(|&c| c == 2).unwrap());
            assert_eq!(seen.state.status(sg.slot_between(a, b).unwrap()), Status::Linked);
            assert_eq!(seen.state.decided(), 2);
            assert_eq!(seen.back(a), 0);
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }
}
