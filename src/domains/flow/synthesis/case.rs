//! A Flow state as proofs and counterexamples carry it: a puzzle, a
//! partial solution, and possibly a solution extending it (the witness a
//! Z3 model gives); shown as one line of text and read back.
//!
//! The line is `ROWS; linked SLOTS; cut SLOTS` with `; solution SLOTS`
//! after it when there is a witness: the rows joined by `/`, each cell `.`
//! or its endpoint's colour named `A`, `B`, ... by number; each slot as
//! `(x, y)-(x, y)`, or `none`.

use crate::domains::flow::model::grid::{Cell, Grid, Slot, MAX_SIDE};
use crate::domains::flow::model::puzzle::{Puzzle, NAMES};
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::rules::brute::{show_slots, show_state};
use crate::domains::BadState;

/// A puzzle, a state of it, and a solution extending the state if one is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowCase {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The state.
    pub state: State,
    /// A solution extending the state.
    pub witness: Option<Solution>,
}

impl FlowCase {
    /// The line.
    pub fn show(&self) -> String {
        let base = show_state(&self.puzzle, &self.state);
        match &self.witness {
            None => base,
            Some(sol) => format!("{base}; solution {}", show_slots(self.puzzle.grid(), sol.links().iter().copied())),
        }
    }

    /// Reads a line [`show`](Self::show) writes.
    pub fn parse(text: &str) -> Result<FlowCase, BadState> {
        let bad = |what: &str| BadState::new(text, what);
        let parts: Vec<&str> = text.trim().split("; ").collect();
        if parts.len() != 3 && parts.len() != 4 {
            return Err(bad("expected `ROWS; linked SLOTS; cut SLOTS[; solution SLOTS]`"));
        }
        let rows: Vec<&str> = parts[0].split('/').collect();
        let (w, h) = (rows[0].chars().count(), rows.len());
        if w == 0 || w > MAX_SIDE || h > MAX_SIDE || rows.iter().any(|r| r.chars().count() != w) {
            return Err(bad("the rows must be of one length, 1 to 64 cells, at most 64 of them"));
        }
        let g = Grid::new(w, h);
        let mut ends: Vec<Vec<Cell>> = vec![];
        for (c, ch) in rows.iter().flat_map(|r| r.chars()).enumerate() {
            if ch != '.' {
                let f = NAMES.chars().position(|n| n == ch).ok_or_else(|| bad("a cell is `.` or a colour's letter"))?;
                ends.resize(ends.len().max(f + 1), vec![]);
                ends[f].push(c);
            }
        }
        if ends.iter().any(|e| e.len() != 2) {
            return Err(bad("each colour up to the last named has exactly two endpoints"));
        }
        let named = ends.iter().zip(NAMES.chars()).map(|(e, name)| (Some(name), [e[0], e[1]]));
        let puzzle = Puzzle::new(g.clone(), named.collect());
        let slots = |part: &str, key: &str| -> Result<Vec<Slot>, BadState> {
            let list = part.strip_prefix(key).ok_or_else(|| bad(&format!("expected `{key}`")))?;
            if list == "none" {
                return Ok(vec![]);
            }
            let numbers: Vec<usize> = list
                .split(|ch: char| !ch.is_ascii_digit())
                .filter(|t| !t.is_empty())
                .map(|t| t.parse().map_err(|_| bad("a coordinate is too large")))
                .collect::<Result<_, _>>()?;
            if !numbers.len().is_multiple_of(4) {
                return Err(bad("a slot is `(x, y)-(x, y)`"));
            }
            numbers
                .chunks(4)
                .map(|q| {
                    let inside = q[0] < w && q[2] < w && q[1] < h && q[3] < h;
                    let slot = inside.then(|| g.slot_between(g.cell(q[0], q[1]), g.cell(q[2], q[3]))).flatten();
                    slot.ok_or_else(|| bad("a slot joins two side-adjacent cells of the board"))
                })
                .collect()
        };
        let mut state = State::start(&g);
        for s in slots(parts[1], "linked ")? {
            state.set(s, Status::Linked);
        }
        for s in slots(parts[2], "cut ")? {
            if state.status(s) == Status::Linked {
                return Err(bad("a slot is both linked and cut"));
            }
            state.set(s, Status::Cut);
        }
        let witness = parts.get(3).map(|part| slots(part, "solution ").map(Solution::new)).transpose()?;
        Ok(FlowCase { puzzle, state, witness })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;

    /// A case shows as a line that reads back as itself; bad lines are refused.
    #[test]
    fn cases_read_back() {
        let puzzle = parse_flow("A.B\n...\nA.B\n", "t").unwrap().remove(0).1;
        let g = puzzle.grid().clone();
        let mut state = State::start(&g);
        state.set(g.slot_between(0, 1).unwrap(), Status::Linked);
        state.set(g.slot_between(4, 5).unwrap(), Status::Cut);
        let witness = Some(Solution::new(vec![g.slot_between(0, 3).unwrap(), g.slot_between(3, 6).unwrap()]));
        let case = FlowCase { puzzle, state, witness };
        let line = case.show();
        assert_eq!(line, "A.B/.../A.B; linked (0, 0)-(1, 0); cut (1, 1)-(2, 1); solution (0, 0)-(0, 1) (0, 1)-(0, 2)");
        assert_eq!(FlowCase::parse(&line).unwrap(), case);
        let bare = FlowCase { witness: None, ..case };
        assert_eq!(FlowCase::parse(&bare.show()).unwrap(), bare);
        for bad in [
            "A.B",
            "A./...; linked none; cut none",
            "A.A/B..; linked none; cut none",
            "AA; linked (0, 0)-(0, 1); cut none",
        ] {
            assert!(FlowCase::parse(bad).is_err(), "{bad}");
        }
    }
}
