//! Brute-force soundness of Flow rules (docs/reference/language.md, "Domain: Flow boards"):
//! on every puzzle of a board size (every endpoint placement with every
//! number of colours) or on sampled ones, every consistent state (a state
//! is consistent if some solution links every linked slot and no cut
//! slot), every binding on which a rule's condition holds: the action must
//! be in range and true as stated. The ground truth for Z3.

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::view::Layout;
use crate::domains::flow::model::check::check;
use crate::domains::flow::model::grid::{Cell, Grid};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::dsl::ast::{FeatureId, Rule};
use crate::dsl::eval::{ActionValue, Binding, Interpreter};
use crate::dsl::plan::Plans;

/// Most slots a board checked here may have (states are slot bit sets).
pub const MAX_SLOTS: usize = 64;

/// A puzzle, a consistent state of it, and a binding on which a rule
/// concludes something false.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The state.
    pub state: State,
    /// The binding (element index per pattern variable).
    pub binding: Binding,
    /// What the rule concludes there.
    pub action: ActionValue,
}

impl Counterexample {
    /// The puzzle and the state as [`show_state`] writes them.
    pub fn show(&self) -> String {
        show_state(&self.puzzle, &self.state)
    }
}

/// The slots as `(x, y)-(x, y) ...`, or `none`.
pub fn show_slots(g: &Grid, slots: impl Iterator<Item = usize>) -> String {
    let shown: Vec<String> = slots.map(|s| g.ends(s).map(|c| format!("{:?}", g.xy(c))).join("-")).collect();
    if shown.is_empty() {
        "none".to_string()
    } else {
        shown.join(" ")
    }
}

/// A puzzle's rows (`/` between them; endpoints named `A`, `B`, ... by
/// colour) and a state's linked and cut slots (`; linked SLOTS; cut SLOTS`).
pub fn show_state(p: &Puzzle, st: &State) -> String {
    let g = p.grid();
    let name = |f: usize| crate::domains::flow::model::puzzle::NAMES.chars().nth(f - 1).unwrap_or('?');
    let rows: Vec<String> = (0..g.height())
        .map(|y| (0..g.width()).map(|x| p.endpoint(g.cell(x, y))).map(|f| if f == 0 { '.' } else { name(f) }).collect())
        .collect();
    let with = |status: Status| show_slots(g, (0..g.slots()).filter(|&s| st.status(s) == status));
    format!("{}; linked {}; cut {}", rows.join("/"), with(Status::Linked), with(Status::Cut))
}

/// What a sweep visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Visited {
    /// Puzzles with at least one solution.
    pub puzzles: usize,
    /// Consistent states.
    pub states: usize,
}

/// Every solution of `p` (docs/reference/formats.md's convention), as slot bit sets.
pub fn solutions(p: &Puzzle) -> Vec<u64> {
    let g = p.grid();
    assert!(g.slots() <= MAX_SLOTS, "at most {MAX_SLOTS} slots");
    let mut out = vec![];
    let mut links = vec![0usize; g.cells()];
    extend(p, 0, 0, &mut links, &mut out);
    out
}

/// Decides the slots of cells `c..` (each cell its right and down slots),
/// every cell before `c` having all its links.
fn extend(p: &Puzzle, c: Cell, mask: u64, links: &mut [usize], out: &mut Vec<u64>) {
    let g = p.grid();
    if c == g.cells() {
        let solution = Solution::new((0..g.slots()).filter(|&s| mask >> s & 1 == 1).collect());
        if check(p, &solution, false).is_ok() {
            out.push(mask);
        }
        return;
    }
    let [_, _, right, down] = g.sides(c);
    let later: Vec<usize> = [right, down].into_iter().flatten().collect();
    for choice in 0..1u32 << later.len() {
        let chosen: Vec<usize> =
            later.iter().enumerate().filter(|(i, _)| choice >> i & 1 == 1).map(|(_, &s)| s).collect();
        if links[c] + chosen.len() != p.degree(c) {
            continue;
        }
        let others: Vec<Cell> = chosen.iter().map(|&s| g.across(s, c)).collect();
        if others.iter().any(|&d| links[d] >= p.degree(d)) {
            continue;
        }
        others.iter().for_each(|&d| links[d] += 1);
        let m = chosen.iter().fold(mask, |m, &s| m | 1 << s);
        extend(p, c + 1, m, links, out);
        others.iter().for_each(|&d| links[d] -= 1);
    }
}

/// Every puzzle on a `w` x `h` board: every set of one or more disjoint
/// endpoint pairs (colours are numbered row by row, so a set is one puzzle).
pub fn puzzles(w: usize, h: usize) -> Vec<Puzzle> {
    let g = Grid::new(w, h);
    let mut out = vec![];
    let mut free = vec![true; g.cells()];
    let mut pairs = vec![];
    place(&g, 0, &mut free, &mut pairs, &mut out);
    out
}

/// Every way to leave cells `c..` empty or pair them with later free cells.
fn place(g: &Grid, c: Cell, free: &mut [bool], pairs: &mut Vec<[Cell; 2]>, out: &mut Vec<Puzzle>) {
    if c == g.cells() {
        if !pairs.is_empty() {
            out.push(Puzzle::new(g.clone(), pairs.iter().map(|&pair| (None, pair)).collect()));
        }
        return;
    }
    if !free[c] {
        return place(g, c + 1, free, pairs, out);
    }
    place(g, c + 1, free, pairs, out);
    for d in c + 1..g.cells() {
        if free[d] {
            free[d] = false;
            pairs.push([c, d]);
            place(g, c + 1, free, pairs, out);
            pairs.pop();
            free[d] = true;
        }
    }
}

/// Every consistent state of `p`, whose solutions are `sols` (linked,
/// cut; slot bit sets), in increasing order: the union over the solutions
/// of the states deciding some slots as that solution does.
pub fn every_state(p: &Puzzle, sols: &[u64]) -> Vec<(u64, u64)> {
    let mut states: HashSet<(u64, u64)> = HashSet::new();
    for &sol in sols {
        for decided in subsets(p.grid().slots()) {
            states.insert((sol & decided, !sol & decided));
        }
    }
    let mut states: Vec<(u64, u64)> = states.into_iter().collect();
    states.sort_unstable();
    states
}

/// A random puzzle with a solution on `g` (a random number of endpoint
/// pairs at random cells, drawn again until one has a solution), and its
/// solutions.
pub fn random_puzzle(g: &Grid, rng: &mut impl Rng) -> (Puzzle, Vec<u64>) {
    loop {
        let mut cells: Vec<Cell> = (0..g.cells()).collect();
        let k = rng.gen_range(1..=g.cells() / 2);
        for i in 0..2 * k {
            let j = rng.gen_range(i..cells.len());
            cells.swap(i, j);
        }
        let pairs = (0..k).map(|i| (None, [cells[2 * i], cells[2 * i + 1]])).collect();
        let p = Puzzle::new(g.clone(), pairs);
        let sols = solutions(&p);
        if !sols.is_empty() {
            return (p, sols);
        }
    }
}

/// A random consistent state (linked, cut) of a board of `slots` slots
/// whose puzzle's solutions are `sols` (not empty): a solution drawn, and
/// about a quarter of the slots decided as it does.
pub fn random_state(slots: usize, sols: &[u64], rng: &mut impl Rng) -> (u64, u64) {
    let all = u64::MAX >> (MAX_SLOTS - slots);
    let sol = sols[rng.gen_range(0..sols.len())];
    let decided: u64 = rng.gen::<u64>() & rng.gen::<u64>().rotate_left(rng.gen_range(0..64)) & all;
    (sol & decided, !sol & decided & all)
}

/// The state linking `linked` and cutting `cut` (slot bit sets) of `g`.
pub fn state(g: &Grid, linked: u64, cut: u64) -> State {
    let status = |s: usize| match (linked >> s & 1, cut >> s & 1) {
        (1, _) => Status::Linked,
        (_, 1) => Status::Cut,
        _ => Status::Open,
    };
    State::from_statuses((0..g.slots()).map(status).collect())
}

/// Checks rules on puzzles and states, keeping each rule's first
/// counterexample.
pub struct Sweep<'r> {
    rules: &'r [Rule],
    plans: Plans<'r>,
    layout: &'r Layout,
    size: FeatureId,
    /// Per rule, its first counterexample.
    pub found: Vec<Option<Counterexample>>,
    /// What was visited.
    pub visited: Visited,
}

impl<'r> Sweep<'r> {
    /// A sweep of `rules` (their schema's size feature `size`), nothing visited yet.
    pub fn new(rules: &'r [Rule], layout: &'r Layout, size: FeatureId) -> Sweep<'r> {
        let (found, visited) = (vec![None; rules.len()], Visited::default());
        Sweep { rules, plans: Plans::new(rules, size), layout, size, found, visited }
    }

    /// Every consistent state of every puzzle of every board up to `max_w`
    /// x `max_h`.
    pub fn every_puzzle(&mut self, max_w: usize, max_h: usize) {
        for w in 1..=max_w {
            for h in 1..=max_h {
                for p in puzzles(w, h) {
                    let sols = solutions(&p);
                    if sols.is_empty() {
                        continue;
                    }
                    let states = every_state(&p, &sols);
                    self.puzzle(&p, &sols, &states);
                }
            }
        }
    }

    /// `count` random puzzles with a solution on a `w` x `h` board (from
    /// `seed`), each with `per_puzzle` random consistent states.
    pub fn sampled(&mut self, w: usize, h: usize, count: usize, per_puzzle: usize, seed: u64) {
        let g = Grid::new(w, h);
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..count {
            let (p, sols) = random_puzzle(&g, &mut rng);
            let states: Vec<(u64, u64)> = (0..per_puzzle).map(|_| random_state(g.slots(), &sols, &mut rng)).collect();
            self.puzzle(&p, &sols, &states);
        }
    }

    /// Checks every rule on `states` (linked, cut) of `p`, whose solutions are `sols`.
    fn puzzle(&mut self, p: &Puzzle, sols: &[u64], states: &[(u64, u64)]) {
        let g = p.grid();
        let to_links = |m: u64| -> Vec<usize> { (0..g.slots()).filter(|&s| m >> s & 1 == 1).collect() };
        let sol_links: Vec<Vec<usize>> = sols.iter().map(|&m| to_links(m)).collect();
        self.visited.puzzles += 1;
        for &(linked, cut) in states {
            self.visited.states += 1;
            let st = state(g, linked, cut);
            let view = self.layout.view(p, &st);
            let extending: Vec<&[usize]> = sols
                .iter()
                .zip(&sol_links)
                .filter(|(&m, _)| linked & !m == 0 && cut & m == 0)
                .map(|(_, l)| &l[..])
                .collect();
            let mut wrong = vec![false; self.rules.len()];
            self.plans.each_action(&view, None, |i, args| {
                let action = ActionValue { action: self.rules[i as usize].action.id, args: args.to_vec() };
                wrong[i as usize] |= !self.layout.holds(p, &action, &extending);
            });
            for (i, rule) in self.rules.iter().enumerate() {
                if !wrong[i] || self.found[i].is_some() {
                    continue;
                }
                // the binding, found again by the interpreter
                let (binding, action) = Interpreter::new(rule, &view, self.size)
                    .applications()
                    .into_iter()
                    .find(|(_, action)| !self.layout.holds(p, action, &extending))
                    .expect("the interpreter finds what the plans found");
                self.found[i] = Some(Counterexample { puzzle: p.clone(), state: st.clone(), binding, action });
            }
        }
    }
}

/// Every subset of `0..n` as a bit set (n below 64).
fn subsets(n: usize) -> impl Iterator<Item = u64> {
    0..1u64 << n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The enumerations agree with their definitions on small boards: 2620
    /// placements on 3x3 (the telephone number of 9) but the empty one;
    /// every solution found is one.
    #[test]
    fn puzzles_and_solutions() {
        assert_eq!(puzzles(3, 3).len(), 2620 - 1);
        assert_eq!(puzzles(2, 1).len(), 1);
        let read = |t: &str| crate::domains::flow::formats::read::parse_flow(t, "t").unwrap().remove(0).1;
        // the middle column cannot be used without a path beside itself
        assert!(solutions(&read("A.B\n...\nA.B\n")).is_empty());
        let p = read("ABC\n...\nABC\n");
        let sols = solutions(&p);
        assert_eq!(sols.len(), 1);
        for m in sols {
            let s = Solution::new((0..p.grid().slots()).filter(|&s| m >> s & 1 == 1).collect());
            assert_eq!(check(&p, &s, false), Ok(()));
        }
    }
}
