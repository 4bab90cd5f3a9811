//! Specifications from windows of the states met on solution traces: a
//! small sub-board around a slot a step decided, made a puzzle of its own,
//! with the exact oracle's deduction there.
//!
//! The window's puzzle: its cells, and as colours the pieces of the
//! solution's paths inside it (the solution's slots with both cells in
//! the window; each piece of two or more cells is a colour whose
//! endpoints are its ends: a path's own endpoint, or where it leaves the
//! window). A window where a path only touches a corner cell (a piece of
//! one cell) is no puzzle and is left out. The state is the trace state's
//! slots inside the window (consistent: the pieces are a solution of the
//! window extending it). The deduction is the step's `link` or `cut` of
//! the slot, kept only if it follows in the window: every solution of the
//! window's puzzle extending the state agrees (the domain's exact oracle,
//! [`Flow::is_sound`](crate::domains::Domain::is_sound)). A rule made from
//! it is proven on every board up to the bound, whatever the window was
//! cut from.
//!
//! Windows are deduplicated by the eight orientations: each is kept in
//! the orientation whose text is least.

use crate::domains::flow::model::check::check;
use crate::domains::flow::model::grid::{Cell, Grid, Slot};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::rules::orient::{orient, ALL};
use crate::domains::flow::synthesis::case::FlowCase;
use crate::domains::flow::synthesis::domain::Flow;
use crate::domains::Domain;
use crate::dsl::ast::ActionId;
use crate::dsl::eval::ActionValue;
use crate::synth::Spec;

/// A window of a board: its top-left cell and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Left column.
    pub x: usize,
    /// Top row.
    pub y: usize,
    /// Columns.
    pub w: usize,
    /// Rows.
    pub h: usize,
}

impl Window {
    /// The windows of `side` x `side` (clipped to the board) holding slot
    /// `s`, nearest the slot's middle first (then top to bottom, left to
    /// right).
    pub fn around(g: &Grid, s: Slot, side: usize) -> Vec<Window> {
        let [a, b] = g.ends(s).map(|c| g.xy(c));
        let (w, h) = (side.min(g.width()), side.min(g.height()));
        // the first columns and rows a window holding both cells can start at
        let starts = |lo: usize, hi: usize, len: usize, size: usize| -> Vec<usize> {
            (hi.saturating_sub(len - 1)..=lo.min(size - len)).collect()
        };
        let xs = starts(a.0.min(b.0), a.0.max(b.0), w, g.width());
        let ys = starts(a.1.min(b.1), a.1.max(b.1), h, g.height());
        let mut out: Vec<Window> = ys.iter().flat_map(|&y| xs.iter().map(move |&x| Window { x, y, w, h })).collect();
        // twice the distance from the window's middle to the slot's
        let off = |win: &Window| {
            let mid = |start: usize, len: usize, p: usize, q: usize| (2 * start + len - 1).abs_diff(p + q);
            mid(win.x, win.w, a.0, b.0) + mid(win.y, win.h, a.1, b.1)
        };
        out.sort_by_key(|win| (off(win), win.y, win.x));
        out
    }

    /// The board's cell at the window's cell `(x, y)`.
    fn cell(&self, g: &Grid, x: usize, y: usize) -> Cell {
        g.cell(self.x + x, self.y + y)
    }
}

/// The window `win` of `state` of puzzle `p` (whose solution is
/// `solution`) as a case of its own, with the window's slot for each
/// board slot inside it; `None` if a path only touches a corner of it.
pub fn cut_out(
    p: &Puzzle,
    solution: &Solution,
    state: &State,
    win: Window,
) -> Option<(Puzzle, State, Vec<Option<Slot>>)> {
    let g = p.grid();
    let wg = Grid::new(win.w, win.h);
    let on = |s: Slot| solution.links().binary_search(&s).is_ok();
    // per board slot, the window's
    let mut slot_of = vec![None; g.slots()];
    let mut wstate = State::start(&wg);
    let mut links: Vec<Vec<Cell>> = vec![vec![]; wg.cells()];
    for ws in 0..wg.slots() {
        let [a, b] = wg.ends(ws).map(|c| wg.xy(c));
        let s = g.slot_between(win.cell(g, a.0, a.1), win.cell(g, b.0, b.1)).expect("a window keeps slots");
        slot_of[s] = Some(ws);
        wstate.set(ws, state.status(s));
        if on(s) {
            let [c, d] = wg.ends(ws);
            links[c].push(d);
            links[d].push(c);
        }
    }
    // each piece from one of its ends (a cell with at most one link inside)
    let mut seen = vec![false; wg.cells()];
    let mut pairs = vec![];
    for start in 0..wg.cells() {
        if seen[start] || links[start].len() > 1 {
            continue;
        }
        if links[start].is_empty() {
            return None;
        }
        let (mut prev, mut at) = (start, start);
        seen[start] = true;
        while let Some(&next) = links[at].iter().find(|&&n| n != prev) {
            (prev, at) = (at, next);
            seen[at] = true;
        }
        pairs.push((None, [start, at]));
    }
    let puzzle = Puzzle::new(wg.clone(), pairs);
    let wsol = Solution::new((0..g.slots()).filter(|&s| on(s)).filter_map(|s| slot_of[s]).collect());
    // every cell on a piece, the pieces paths: a solution of the window
    if seen.iter().any(|&s| !s) || check(&puzzle, &wsol, false).is_err() {
        return None;
    }
    Some((puzzle, wstate, slot_of))
}

/// The specification of deciding slot `s` as `status` on `state` of `p`
/// (solution `solution`) seen through a `side` x `side` window: the
/// first window around the slot ([`Window::around`]) where the exact
/// oracle confirms the deduction, in its least orientation; its text is
/// the case's, then the deduction's.
pub fn window_spec(
    domain: &Flow,
    (p, solution): (&Puzzle, &Solution),
    state: &State,
    (s, status): (Slot, Status),
    side: usize,
) -> Option<(String, Spec<FlowCase>)> {
    let [link, cut, _] = domain.layout().actions();
    let action = if status == Status::Linked { link } else { cut };
    for win in Window::around(p.grid(), s, side) {
        let Some((puzzle, wstate, slot_of)) = cut_out(p, solution, state, win) else { continue };
        let ws = slot_of[s].expect("the window holds the slot");
        let [c, d] = puzzle.grid().ends(ws);
        let deduction = ActionValue { action, args: vec![c as i64, d as i64] };
        let case = FlowCase { puzzle, state: wstate, witness: None };
        if domain.is_sound(&case, &deduction) {
            let verb = if status == Status::Linked { "link" } else { "cut" };
            return Some(least_orientation(&case, ws, (action, verb)));
        }
    }
    None
}

/// The case and the deduction on its slot `ws` in the orientation whose
/// text is least, with that text.
fn least_orientation(case: &FlowCase, ws: Slot, (action, verb): (ActionId, &str)) -> (String, Spec<FlowCase>) {
    let g = case.puzzle.grid();
    let [c, d] = g.ends(ws);
    ALL.iter()
        .map(|&o| {
            let seen = orient(&case.puzzle, &case.state, o);
            let sg = seen.puzzle.grid().clone();
            let to = |x: Cell| (0..sg.cells()).find(|&y| seen.back(y) == x).expect("every cell is seen");
            let (a, b) = (to(c).min(to(d)), to(c).max(to(d)));
            let seen_case = FlowCase { puzzle: seen.puzzle, state: seen.state, witness: None };
            let text = format!("{}; {verb} {:?}-{:?}", seen_case.show(), sg.xy(a), sg.xy(b));
            (text, Spec { state: seen_case, deduction: ActionValue { action, args: vec![a as i64, b as i64] } })
        })
        .min_by(|x, y| x.0.cmp(&y.0))
        .expect("eight orientations")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::solve::{solve, Limits, Options};
    use crate::dsl::schema::Schema;

    fn puzzle(text: &str) -> (Puzzle, Solution) {
        let p = parse_flow(text, "t").unwrap().remove(0).1;
        let solution = solve(&p, Options::default(), Limits::solutions(1)).solutions.remove(0);
        (p, solution)
    }

    /// Windows hold the slot, are clipped to the board, the nearest first.
    #[test]
    fn windows_around_a_slot() {
        let g = Grid::new(6, 5);
        // the slot's middle is a row below the first window's and a row
        // above the second's: a tie, the upper first
        let s = g.slot_between(g.cell(0, 2), g.cell(1, 2)).unwrap();
        let wins = Window::around(&g, s, 4);
        assert_eq!(wins, vec![Window { x: 0, y: 0, w: 4, h: 4 }, Window { x: 0, y: 1, w: 4, h: 4 }]);
        // on row 3 the lower window is nearer
        let s = g.slot_between(g.cell(2, 3), g.cell(3, 3)).unwrap();
        let wins = Window::around(&g, s, 4);
        assert_eq!(wins[0], Window { x: 1, y: 1, w: 4, h: 4 });
        assert_eq!(wins.len(), 6);
        for w in &wins {
            assert!(w.x <= 2 && w.x + w.w > 3 && w.y <= 3 && w.y + w.h > 3 && w.x + w.w <= 6 && w.y + w.h <= 5);
        }
        let small = Grid::new(3, 3);
        let wins = Window::around(&small, small.slot_between(4, 5).unwrap(), 4);
        assert_eq!(wins, vec![Window { x: 0, y: 0, w: 3, h: 3 }]);
    }

    /// A window's puzzle has the solution's pieces as its solution, and
    /// the state's slots inside it; the window spec's deduction holds on
    /// every solution of the window extending its state, and its text is
    /// the same from any orientation of the board.
    #[test]
    fn window_specs_are_exact_and_oriented_once() {
        let domain = Flow::with_schema(Schema::flow(), "dsl/flow.ron").unwrap();
        let (p, solution) = puzzle("R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n");
        let g = p.grid();
        let state = State::start(g);
        let mut found = 0;
        for s in 0..g.slots() {
            let truth = if solution.links().binary_search(&s).is_ok() { Status::Linked } else { Status::Cut };
            for win in Window::around(g, s, 3) {
                if let Some((wp, ws, slot_of)) = cut_out(&p, &solution, &state, win) {
                    assert_eq!(wp.grid().cells(), 9);
                    assert_eq!(ws.decided(), 0);
                    assert!(slot_of[s].is_some());
                }
            }
            if let Some((text, spec)) = window_spec(&domain, (&p, &solution), &state, (s, truth), 3) {
                found += 1;
                assert!(domain.is_sound(&spec.state, &spec.deduction), "{text}");
                // the wrong status never follows
                let [link, cut, _] = domain.layout().actions();
                let other = if spec.deduction.action == link { cut } else { link };
                let wrong = ActionValue { action: other, ..spec.deduction.clone() };
                assert!(!domain.is_sound(&spec.state, &wrong), "{text}");
                for o in ALL {
                    let seen = orient(&p, &state, o);
                    let back = |c: Cell| (0..g.cells()).find(|&x| seen.back(x) == c).unwrap();
                    let sg = seen.puzzle.grid();
                    let [a, b] = g.ends(s);
                    let t = sg.slot_between(back(a), back(b)).unwrap();
                    let seen_solution = Solution::new(
                        solution
                            .links()
                            .iter()
                            .map(|&l| {
                                let [x, y] = g.ends(l);
                                sg.slot_between(back(x), back(y)).unwrap()
                            })
                            .collect(),
                    );
                    let again = window_spec(&domain, (&seen.puzzle, &seen_solution), &seen.state, (t, truth), 3);
                    assert!(again.is_some());
                }
            }
        }
        assert!(found > 5, "{found} window specifications");
    }
}
