//! A partial solution: every slot linked, cut or open ([`State`]), and a
//! solution as its set of links ([`Solution`]).
//!
//! This module knows slots and their statuses; what a state implies
//! (chains, colours, heads, areas) is [`features`](super::features)'.

use super::grid::{Grid, Slot};

/// What is known of a slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Not decided yet.
    Open,
    /// Its two cells are joined by a link.
    Linked,
    /// Its two cells are not joined.
    Cut,
}

/// Every slot's status.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    slots: Vec<Status>,
}

impl State {
    /// The start state of `grid`: every slot open.
    pub fn start(grid: &Grid) -> State {
        State { slots: vec![Status::Open; grid.slots()] }
    }

    /// The state with these statuses, slot by slot.
    pub fn from_statuses(slots: Vec<Status>) -> State {
        State { slots }
    }

    /// The status of slot `s`.
    pub fn status(&self, s: Slot) -> Status {
        self.slots[s]
    }

    /// Sets the status of slot `s`.
    pub fn set(&mut self, s: Slot, status: Status) {
        self.slots[s] = status;
    }

    /// Every slot's status, in slot order.
    pub fn statuses(&self) -> &[Status] {
        &self.slots
    }

    /// The linked slots, in slot order.
    pub fn linked(&self) -> impl Iterator<Item = Slot> + '_ {
        self.slots.iter().enumerate().filter(|(_, &st)| st == Status::Linked).map(|(s, _)| s)
    }

    /// The number of slots decided (linked or cut).
    pub fn decided(&self) -> usize {
        self.slots.iter().filter(|&&st| st != Status::Open).count()
    }

    /// The state where exactly the slots of `solution` are linked and
    /// every other slot is cut.
    pub fn of_solution(grid: &Grid, solution: &Solution) -> State {
        let mut state = State { slots: vec![Status::Cut; grid.slots()] };
        for &s in solution.links() {
            state.slots[s] = Status::Linked;
        }
        state
    }
}

/// A solution: its set of links (slots), in slot order. Two solutions
/// differ when their link sets differ.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Solution {
    links: Vec<Slot>,
}

impl Solution {
    /// The solution linking exactly `links` (any order, no repeats).
    pub fn new(mut links: Vec<Slot>) -> Solution {
        links.sort_unstable();
        links.dedup();
        Solution { links }
    }

    /// The linked slots, in slot order.
    pub fn links(&self) -> &[Slot] {
        &self.links
    }

    /// The slots linked in exactly one of `self` and `other`, in slot
    /// order: where two solutions differ.
    pub fn differ(&self, other: &Solution) -> Vec<Slot> {
        let mut out: Vec<Slot> = self.links.iter().filter(|s| other.links.binary_search(s).is_err()).copied().collect();
        out.extend(other.links.iter().filter(|s| self.links.binary_search(s).is_err()));
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solution's state links its slots and cuts the rest; two solutions
    /// differ on the slots only one links.
    #[test]
    fn solutions_are_link_sets() {
        let g = Grid::new(2, 2);
        let a = Solution::new(vec![3, 0, 0]);
        let b = Solution::new(vec![0, 1]);
        assert_eq!(a.links(), &[0, 3]);
        assert_eq!(a.differ(&b), vec![1, 3]);
        let st = State::of_solution(&g, &a);
        assert_eq!(st.linked().collect::<Vec<_>>(), vec![0, 3]);
        assert_eq!(st.decided(), 4);
        assert_eq!(State::start(&g).decided(), 0);
    }
}
