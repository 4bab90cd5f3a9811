//! What a state implies, computed from the definitions of docs/reference/language.md ("Domain:
//! Flow boards"): per cell its links, open slots, need, colour and chain;
//! per colour its heads, whether it is done and whether its heads can still
//! meet; the areas of colourless cells with their size, heads and flows.
//!
//! These are the features rules read, computed directly (a pass over the
//! board per state); the solver keeps its own incremental versions and is
//! tested against these.

use super::grid::{Cell, Slot};
use super::puzzle::{Colour, Puzzle};
use super::state::{State, Status};

/// An area: colourless cells connected through slots that are not cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    /// Its cells, row by row.
    pub cells: Vec<Cell>,
    /// Head cells with an open slot into one of its cells (each counted once).
    pub heads: usize,
    /// Colours not done with exactly two heads, both with an open slot
    /// into one of its cells.
    pub flows: usize,
}

/// The features of one state of one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    links: Vec<usize>,
    open: Vec<usize>,
    need: Vec<i64>,
    colour: Vec<Colour>,
    chain: Vec<Cell>,
    /// Per colour (index colour - 1) its head cells, row by row.
    heads: Vec<Vec<Cell>>,
    done: Vec<bool>,
    meets: Vec<bool>,
    areas: Vec<Area>,
    /// Per cell the index of its area, if it is colourless.
    area_of: Vec<Option<usize>>,
}

/// The cells reachable from `start` by steps across slots `step` allows
/// (`step(slot, from, to)`), `start` first, in the order met (breadth
/// first). `seen` is scratch, one flag per cell, all false before and after.
fn reach(p: &Puzzle, start: Cell, seen: &mut [bool], mut step: impl FnMut(Slot, Cell, Cell) -> bool) -> Vec<Cell> {
    let g = p.grid();
    seen[start] = true;
    // the cells met are the queue: `out[next..]` are still to step from
    let (mut out, mut next) = (vec![start], 0);
    while let Some(&c) = out.get(next) {
        next += 1;
        for s in g.slots_of(c) {
            let d = g.across(s, c);
            if !seen[d] && step(s, c, d) {
                seen[d] = true;
                out.push(d);
            }
        }
    }
    for &c in &out {
        seen[c] = false;
    }
    out
}

impl Features {
    /// The features of `state` on `p`.
    pub fn of(p: &Puzzle, state: &State) -> Features {
        let g = p.grid();
        let n = g.cells();
        let count = |c: Cell, st: Status| g.slots_of(c).filter(|&s| state.status(s) == st).count();
        let links: Vec<usize> = (0..n).map(|c| count(c, Status::Linked)).collect();
        let open: Vec<usize> = (0..n).map(|c| count(c, Status::Open)).collect();
        let need: Vec<i64> = (0..n).map(|c| p.degree(c) as i64 - links[c] as i64).collect();
        let mut seen = vec![false; n];
        let (mut chain, mut colour) = (vec![usize::MAX; n], vec![0; n]);
        for c in 0..n {
            if chain[c] == usize::MAX {
                let members = reach(p, c, &mut seen, |s, _, _| state.status(s) == Status::Linked);
                let first_endpoint = members.iter().filter(|&&m| p.endpoint(m) > 0).min();
                let f = first_endpoint.map_or(0, |&m| p.endpoint(m));
                for m in members {
                    (chain[m], colour[m]) = (c, f);
                }
            }
        }
        let k = p.colours();
        let heads: Vec<Vec<Cell>> =
            (1..=k).map(|f| (0..n).filter(|&c| colour[c] == f && need[c] == 1).collect()).collect();
        let done: Vec<bool> = (1..=k).map(|f| chain[p.ends(f)[0]] == chain[p.ends(f)[1]]).collect();
        let meets = (1..=k)
            .map(|f| {
                done[f - 1]
                    || heads[f - 1].len() == 2 && {
                        let [h1, h2] = [heads[f - 1][0], heads[f - 1][1]];
                        let through = |s: Slot, from: Cell, to: Cell| {
                            state.status(s) != Status::Cut
                                && (from == h1 || colour[from] == 0)
                                && (to == h2 || colour[to] == 0)
                        };
                        reach(p, h1, &mut seen, through).contains(&h2)
                    }
            })
            .collect();
        let mut area_of = vec![None; n];
        let mut areas = vec![];
        for c in 0..n {
            if colour[c] == 0 && area_of[c].is_none() {
                let mut cells = reach(p, c, &mut seen, |s, _, to| state.status(s) != Status::Cut && colour[to] == 0);
                cells.sort_unstable();
                for &m in &cells {
                    area_of[m] = Some(areas.len());
                }
                areas.push(Area { cells, heads: 0, flows: 0 });
            }
        }
        let open_into = |h: Cell| -> Vec<usize> {
            let mut to: Vec<usize> = g
                .slots_of(h)
                .filter(|&s| state.status(s) == Status::Open)
                .filter_map(|s| area_of[g.across(s, h)])
                .collect();
            to.sort_unstable();
            to.dedup();
            to
        };
        for h in (0..n).filter(|&c| colour[c] > 0 && need[c] == 1) {
            for a in open_into(h) {
                areas[a].heads += 1;
            }
        }
        for f in (1..=k).filter(|&f| !done[f - 1] && heads[f - 1].len() == 2) {
            let (one, two) = (open_into(heads[f - 1][0]), open_into(heads[f - 1][1]));
            for a in one.into_iter().filter(|a| two.contains(a)) {
                areas[a].flows += 1;
            }
        }
        Features { links, open, need, colour, chain, heads, done, meets, areas, area_of }
    }

    /// `links(c)`: its linked slots.
    pub fn links(&self, c: Cell) -> usize {
        self.links[c]
    }

    /// `open(c)`: its open slots.
    pub fn open(&self, c: Cell) -> usize {
        self.open[c]
    }

    /// `need(c)`: (1 for an endpoint, else 2) - links(c).
    pub fn need(&self, c: Cell) -> i64 {
        self.need[c]
    }

    /// `colour(c)`: its chain's colour (its first endpoint's row by row), 0 if none.
    pub fn colour(&self, c: Cell) -> Colour {
        self.colour[c]
    }

    /// `chain(c)`: the least cell of its chain.
    pub fn chain(&self, c: Cell) -> Cell {
        self.chain[c]
    }

    /// The head cells of colour `f` (cells of that colour with need 1), row by row.
    pub fn heads(&self, f: Colour) -> &[Cell] {
        &self.heads[f - 1]
    }

    /// `done(f)`: its endpoints are in one chain.
    pub fn done(&self, f: Colour) -> bool {
        self.done[f - 1]
    }

    /// `meets(f)`: done, or exactly two heads joined by a walk over slots
    /// not cut whose inner cells are all colourless.
    pub fn meets(&self, f: Colour) -> bool {
        self.meets[f - 1]
    }

    /// The areas, ordered by their first cell.
    pub fn areas(&self) -> &[Area] {
        &self.areas
    }

    /// The index of the area of a colourless cell (`None` for a coloured one).
    pub fn area_of(&self, c: Cell) -> Option<usize> {
        self.area_of[c]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;

    fn puzzle(text: &str) -> Puzzle {
        parse_flow(text, "t.flow").unwrap().remove(0).1
    }

    /// The start state: no links, every cell's slots open, endpoints are
    /// heads, every colour meets, empty cells make one area.
    #[test]
    fn the_start_state() {
        let p = puzzle("A.B\n...\nA.B\n");
        let f = Features::of(&p, &State::start(p.grid()));
        assert_eq!((f.links(4), f.open(4), f.need(4), f.open(0), f.need(0)), (0, 4, 2, 2, 1));
        assert_eq!((f.colour(0), f.colour(2), f.colour(6), f.colour(1)), (1, 2, 1, 0));
        assert_eq!(f.heads(1), &[0, 6]);
        assert!(!f.done(1) && f.meets(1) && f.meets(2));
        assert_eq!(f.areas().len(), 1);
        assert_eq!(f.areas()[0], Area { cells: vec![1, 3, 4, 5, 7], heads: 4, flows: 2 });
        assert_eq!((f.chain(4), f.area_of(4), f.area_of(0)), (4, Some(0), None));
    }

    /// Links make chains with their endpoint's colour; a wall of cuts
    /// strands a colour and an area.
    #[test]
    fn chains_colours_and_stranding() {
        let p = puzzle("A.B\n...\nA.B\n");
        let g = p.grid();
        let mut st = State::start(g);
        st.set(g.slot_between(0, 1).unwrap(), Status::Linked);
        let f = Features::of(&p, &st);
        assert_eq!((f.colour(1), f.chain(1), f.need(0), f.need(1)), (1, 0, 0, 1));
        assert_eq!(f.heads(1), &[1, 6]);
        for (a, b) in [(1, 4), (3, 4), (4, 5), (3, 6)] {
            st.set(g.slot_between(a, b).unwrap(), Status::Cut);
        }
        let f = Features::of(&p, &st);
        assert!(!f.meets(1) && f.meets(2));
        // areas {3} and {4, 7}: 3 is reached by no head's open slot pair of one colour
        assert_eq!(
            f.areas().iter().map(|a| (a.cells.clone(), a.heads, a.flows)).collect::<Vec<_>>(),
            vec![(vec![3], 0, 0), (vec![4, 7], 2, 0), (vec![5], 2, 1)]
        );
        st.set(g.slot_between(1, 2).unwrap(), Status::Linked);
        let f = Features::of(&p, &st);
        assert_eq!((f.colour(1), f.chain(2)), (1, 0));
    }
}
