//! The search's board: every slot's status with, per cell, its links, its
//! open slots, its chain's colour and (for a chain's end) the chain's
//! other end, kept up to date as slots are linked and cut; and the local
//! rules applied to a fixpoint over the cells whose counts or colour
//! changed.
//!
//! The local rules are docs/reference/language.md's forced, full, colour_clash, no_loop and
//! dead_end, and (without `touching`) the rule that two neighbours of one
//! colour are linked. Whatever the rules, a link or cut that makes the
//! board inconsistent (a cell past its links, a loop, two colours joined,
//! a path beside itself) fails: [`Dead`].

use crate::domains::flow::model::grid::{Cell, Slot};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};

use super::limits::{Options, Rules};

/// The board has no solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dead;

/// A search node's board.
#[derive(Clone, Debug)]
pub struct Board {
    slots: Vec<Status>,
    links: Vec<u8>,
    open: Vec<u8>,
    colour: Vec<u16>,
    /// For a cell at a chain's end, the chain's other end (itself alone).
    end: Vec<u16>,
    /// Cells to look at again.
    queue: Vec<u16>,
}

impl Board {
    /// The start board of `p`: every slot open, every cell to look at.
    pub fn new(p: &Puzzle) -> Board {
        let g = p.grid();
        let n = g.cells();
        Board {
            slots: vec![Status::Open; g.slots()],
            links: vec![0; n],
            open: (0..n).map(|c| g.slots_of(c).count() as u8).collect(),
            colour: (0..n).map(|c| p.endpoint(c) as u16).collect(),
            end: (0..n as u16).collect(),
            queue: (0..n as u16).rev().collect(),
        }
    }

    /// The status of slot `s`.
    pub fn status(&self, s: Slot) -> Status {
        self.slots[s]
    }

    /// The links `c` still needs (negative never: linking past refuses).
    pub fn need(&self, p: &Puzzle, c: Cell) -> usize {
        p.degree(c) - self.links[c] as usize
    }

    /// The open slots of `c`.
    pub fn open(&self, c: Cell) -> usize {
        self.open[c] as usize
    }

    /// The colour of `c`'s chain (0 if none).
    pub fn colour(&self, c: Cell) -> usize {
        self.colour[c] as usize
    }

    /// The head of the chain holding endpoint `e`: its far end, or `e`
    /// while it has no link.
    pub fn head(&self, e: Cell) -> Cell {
        self.end[e] as usize
    }

    /// Whether a slot is still open.
    pub fn any_open(&self) -> bool {
        self.slots.contains(&Status::Open)
    }

    /// The board's slots as a state.
    pub fn state(&self) -> State {
        State::from_statuses(self.slots.clone())
    }

    /// The board's links, as a solution (meaningful once nothing is open).
    pub fn solution(&self) -> Solution {
        Solution::new(self.slots.iter().enumerate().filter(|(_, &s)| s == Status::Linked).map(|(s, _)| s).collect())
    }

    /// Links slot `s`, keeping chains, ends and colours.
    pub fn link(&mut self, p: &Puzzle, s: Slot) -> Result<(), Dead> {
        match self.slots[s] {
            Status::Linked => return Ok(()),
            Status::Cut => return Err(Dead),
            Status::Open => {}
        }
        let [a, b] = p.grid().ends(s);
        let (ca, cb) = (self.colour[a], self.colour[b]);
        let full = |c: Cell| self.links[c] as usize >= p.degree(c);
        if full(a) || full(b) || (self.links[a] > 0 && self.end[a] as usize == b) || (ca != 0 && cb != 0 && ca != cb) {
            return Err(Dead);
        }
        self.slots[s] = Status::Linked;
        for c in [a, b] {
            self.links[c] += 1;
            self.open[c] -= 1;
            self.queue.push(c as u16);
        }
        let (ea, eb) = (self.end[a], self.end[b]);
        self.end[ea as usize] = eb;
        self.end[eb as usize] = ea;
        if ca == 0 && cb != 0 {
            self.recolour(p, a, b, cb);
        } else if cb == 0 && ca != 0 {
            self.recolour(p, b, a, ca);
        }
        Ok(())
    }

    /// Colours `f` the chain from `start` away from its linked neighbour `from`.
    fn recolour(&mut self, p: &Puzzle, start: Cell, from: Cell, f: u16) {
        let g = p.grid();
        let (mut prev, mut cur) = (from, start);
        loop {
            self.colour[cur] = f;
            self.queue.push(cur as u16);
            let mut next = g.slots_of(cur).filter(|&s| self.slots[s] == Status::Linked).map(|s| g.across(s, cur));
            match next.find(|&d| d != prev) {
                Some(d) => (prev, cur) = (cur, d),
                None => return,
            }
        }
    }

    /// Cuts slot `s`.
    pub fn cut(&mut self, p: &Puzzle, s: Slot) -> Result<(), Dead> {
        match self.slots[s] {
            Status::Cut => return Ok(()),
            Status::Linked => return Err(Dead),
            Status::Open => {}
        }
        self.slots[s] = Status::Cut;
        for c in p.grid().ends(s) {
            self.open[c] -= 1;
            self.queue.push(c as u16);
        }
        Ok(())
    }

    /// Looks at every queued cell until none is left: the consistency
    /// checks, and the local rules if `options` ask for them.
    pub fn settle(&mut self, p: &Puzzle, options: Options) -> Result<(), Dead> {
        while let Some(c) = self.queue.pop() {
            self.look(p, c as usize, options)?;
        }
        Ok(())
    }

    /// One cell: dead end, a path beside itself, then the local rules.
    fn look(&mut self, p: &Puzzle, c: Cell, options: Options) -> Result<(), Dead> {
        let g = p.grid();
        let (need, open) = (self.need(p, c), self.open[c] as usize);
        if need > open {
            return Err(Dead);
        }
        let colour = self.colour[c];
        let strict = !options.touching && colour != 0;
        if strict && g.slots_of(c).any(|s| self.slots[s] == Status::Cut && self.colour[g.across(s, c)] == colour) {
            return Err(Dead);
        }
        if options.rules == Rules::None || open == 0 {
            return Ok(());
        }
        for side in g.sides(c) {
            let Some(s) = side.filter(|&s| self.slots[s] == Status::Open) else { continue };
            let d = g.across(s, c);
            let (need, open) = (self.need(p, c), self.open[c] as usize);
            let (cc, cd) = (self.colour[c], self.colour[d]);
            if need == 0 || (cc != 0 && cd != 0 && cc != cd) || (self.links[c] > 0 && self.end[c] as usize == d) {
                self.cut(p, s)?;
            } else if need == open || (!options.touching && cc != 0 && cc == cd) {
                self.link(p, s)?;
            }
        }
        Ok(())
    }
}
