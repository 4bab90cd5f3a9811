//! The global rules: docs/reference/language.md's stranded_colour (a colour whose two heads
//! can no longer meet through colourless cells) and stranded_area (an area
//! of colourless cells no colour can pass through), on a board the local
//! rules have settled.
//!
//! Areas are labelled by a flood over slots that are not cut; a colour's
//! heads meet when an open slot joins them or both have an open slot into
//! one area. Its buffers are reused from node to node.

use crate::domains::flow::model::grid::Cell;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Status;

use super::board::{Board, Dead};

/// No area.
const NONE: u32 = u32::MAX;

/// The buffers of the global rules.
#[derive(Clone, Debug, Default)]
pub struct Stranded {
    /// Per cell its area, [`NONE`] if coloured.
    area: Vec<u32>,
    /// Per area whether some colour's two heads open into it.
    fed: Vec<bool>,
    stack: Vec<Cell>,
}

impl Stranded {
    /// Fails if a colour is stranded or an area is.
    pub fn check(&mut self, p: &Puzzle, board: &Board) -> Result<(), Dead> {
        let g = p.grid();
        self.area.clear();
        self.area.resize(g.cells(), NONE);
        self.fed.clear();
        for c in 0..g.cells() {
            if board.colour(c) != 0 || self.area[c] != NONE {
                continue;
            }
            let a = self.fed.len() as u32;
            self.fed.push(false);
            self.area[c] = a;
            self.stack.push(c);
            while let Some(x) = self.stack.pop() {
                for s in g.slots_of(x) {
                    let y = g.across(s, x);
                    if board.status(s) != Status::Cut && board.colour(y) == 0 && self.area[y] == NONE {
                        self.area[y] = a;
                        self.stack.push(y);
                    }
                }
            }
        }
        for f in 1..=p.colours() {
            let [e1, e2] = p.ends(f);
            let (h1, h2) = (board.head(e1), board.head(e2));
            if h1 == e2 {
                continue; // done
            }
            let into = |h: Cell| {
                let mut out = [NONE; 4];
                for (o, s) in out.iter_mut().zip(g.sides(h)) {
                    if let Some(s) = s.filter(|&s| board.status(s) == Status::Open) {
                        *o = self.area[g.across(s, h)];
                    }
                }
                out
            };
            let (one, two) = (into(h1), into(h2));
            let mut meets = g.slot_between(h1, h2).is_some_and(|s| board.status(s) == Status::Open);
            for a in one.into_iter().filter(|&a| a != NONE && two.contains(&a)) {
                self.fed[a as usize] = true;
                meets = true;
            }
            if !meets {
                return Err(Dead);
            }
        }
        if self.fed.contains(&false) {
            return Err(Dead);
        }
        Ok(())
    }
}
