//! Repairing a drawn Flow puzzle: the fewest endpoint changes (move one
//! endpoint to a free cell, add a pair, remove a pair) that make it what
//! is wanted ([`Wanted`]: exactly one solution, proven by the complete
//! solver, solved by the player within its bits).
//!
//! The search goes by number of changes: 1, then 2, ... With one change it
//! tries every change. With k changes it extends the [`BEAM`] puzzles of
//! k - 1 changes nearest to what is wanted ([`Verdict::distance`]) by every
//! change touching their *focus*: the cells with a slot the player left
//! open (one solution the player cannot finish), the cells where two
//! solutions differ (two or more), the cells where a solution under Flow
//! Free's looser convention runs beside itself (none), or every cell
//! (none even so, or not known).
//! The candidates of one depth are in a fixed order: puzzle by puzzle in
//! beam order, then the changes touching the focus first, moves before
//! additions before removals, the shorter first (the distance moved, or
//! between a pair's ends), then by cells row by row. The repair is the
//! first candidate in that order that is wanted: candidates are judged in
//! parallel batches, in order, so it does not depend on the thread count.
//!
//! A deadline stops the search between and within batches; the work's
//! cancellation ([`crate::deadline::Cancel`]) is carried to the worker threads, so the
//! studio giving a request up stops it as its deadline would.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::run::{played, Wanted};
use crate::deadline::{carry, current, past};
use crate::domains::flow::model::features::Features;
use crate::domains::flow::model::grid::Cell;
use crate::domains::flow::model::puzzle::{Puzzle, NAMES};
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::play::playthrough::{PlayError, Playthrough};
use crate::domains::flow::solve::{solve, Limits, Options};
use crate::stop::Stop;

/// Puzzles kept from one number of changes to extend with one more.
pub const BEAM: usize = 16;

/// Candidates judged in parallel between two looks at the results.
const BATCH: usize = 32;

/// One change of a puzzle's endpoints; colours are named by their
/// characters (every colour of a repaired puzzle has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The endpoint of `colour` on `from` moved to the free cell `to`.
    Move {
        /// The colour.
        colour: char,
        /// Where the endpoint was.
        from: Cell,
        /// Where it is now.
        to: Cell,
    },
    /// A new colour with its two endpoints on free cells.
    Add {
        /// The colour (the first character no other colour uses).
        colour: char,
        /// Its endpoints, the lesser first.
        ends: [Cell; 2],
    },
    /// A colour taken away with its two endpoints.
    Remove {
        /// The colour.
        colour: char,
        /// Its endpoints, the lesser first.
        ends: [Cell; 2],
    },
}

impl Change {
    /// `move`, `add` or `remove`.
    pub fn kind(&self) -> &'static str {
        match self {
            Change::Move { .. } => "move",
            Change::Add { .. } => "add",
            Change::Remove { .. } => "remove",
        }
    }

    /// The colour changed.
    pub fn colour(&self) -> char {
        match *self {
            Change::Move { colour, .. } | Change::Add { colour, .. } | Change::Remove { colour, .. } => colour,
        }
    }

    /// The two cells it touches (from and to, or the pair's ends).
    pub fn cells(&self) -> [Cell; 2] {
        match *self {
            Change::Move { from, to, .. } => [from, to],
            Change::Add { ends, .. } | Change::Remove { ends, .. } => ends,
        }
    }

    /// `p` with this change made (its title and metadata kept).
    pub fn apply(&self, p: &Puzzle) -> Puzzle {
        let mut pairs: Vec<(Option<char>, [Cell; 2])> = (1..=p.colours()).map(|f| (p.name(f), p.ends(f))).collect();
        match *self {
            Change::Move { from, to, .. } => {
                let pair = &mut pairs[p.endpoint(from) - 1].1;
                let k = usize::from(pair[1] == from);
                pair[k] = to;
            }
            Change::Add { colour, ends } => pairs.push((Some(colour), ends)),
            Change::Remove { ends, .. } => {
                pairs.remove(p.endpoint(ends[0]) - 1);
            }
        }
        let mut out = Puzzle::new(p.grid().clone(), pairs);
        out.title.clone_from(&p.title);
        out.metadata.clone_from(&p.metadata);
        out
    }

    /// Its place among the changes of one puzzle (the module doc's order).
    fn order(&self, p: &Puzzle) -> (usize, usize, [Cell; 2]) {
        let g = p.grid();
        let [a, b] = self.cells();
        let ((ax, ay), (bx, by)) = (g.xy(a), g.xy(b));
        let distance = ax.abs_diff(bx) + ay.abs_diff(by);
        let kind = match self {
            Change::Move { .. } => 0,
            Change::Add { .. } => 1,
            Change::Remove { .. } => 2,
        };
        (kind, distance, [a, b])
    }
}

/// Cells of interest (`None`: every cell).
type Focus = Option<Vec<bool>>;

/// Whether `change` touches `focus`.
fn touches(focus: &Focus, change: &Change) -> bool {
    focus.as_ref().is_none_or(|f| change.cells().iter().any(|&c| f[c]))
}

/// Every change of `p` (only those touching `focus` if `only_focus`), in
/// the module doc's order.
fn changes(p: &Puzzle, focus: &Focus, only_focus: bool) -> Vec<Change> {
    let n = p.grid().cells();
    let free: Vec<Cell> = (0..n).filter(|&c| p.endpoint(c) == 0).collect();
    let name = |f: usize| p.name(f).unwrap_or('?');
    let mut out = vec![];
    for f in 1..=p.colours() {
        for from in p.ends(f) {
            out.extend(free.iter().map(|&to| Change::Move { colour: name(f), from, to }));
        }
    }
    let used: Vec<Option<char>> = (1..=p.colours()).map(|f| p.name(f)).collect();
    if let Some(colour) = NAMES.chars().find(|c| !used.contains(&Some(*c))) {
        for (i, &a) in free.iter().enumerate() {
            out.extend(free[i + 1..].iter().map(|&b| Change::Add { colour, ends: [a, b] }));
        }
    }
    if p.colours() > 1 {
        out.extend((1..=p.colours()).map(|f| Change::Remove { colour: name(f), ends: p.ends(f) }));
    }
    out.retain(|c| !only_focus || touches(focus, c));
    out.sort_by_cached_key(|c| (!touches(focus, c), c.order(p)));
    out
}

/// What a puzzle is, as the search sees it.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// What is wanted: its one solution and the player's solve.
    Wanted(Solution, Playthrough),
    /// One solution the player does not finish within its bits (or, with a
    /// needed rule, that the set without it finishes too): the slots it
    /// left open and their cells.
    Stuck {
        /// Slots left open.
        open: usize,
        /// Their cells.
        focus: Focus,
    },
    /// Two solutions or more: the slots where two differ, and their cells.
    Several {
        /// Slots where the two solutions found differ.
        differ: usize,
        /// Their cells.
        focus: Focus,
    },
    /// No solution: the slots where the paths of a solution under Flow
    /// Free's looser convention run beside themselves (`None` if the
    /// looser search found none within [`LOOSE_NODES`]), and their cells.
    None {
        /// Slots where a looser solution's path runs beside itself.
        beside: Option<usize>,
        /// Their cells.
        focus: Focus,
    },
    /// Not known within the complete solver's node budget.
    Unknown,
    /// The deadline passed (or the work was given up) before it was known.
    Stopped,
}

impl Verdict {
    /// How far the puzzle is from what is wanted (lower is nearer, 0 for
    /// wanted): slots the player leaves open, then two solutions by the
    /// slots where they differ, then none by the slots where a looser
    /// solution's paths run beside themselves, then none at all, then not
    /// known (each past all the slots `slots` of the one before).
    pub fn distance(&self, slots: usize) -> usize {
        match self {
            Verdict::Wanted(..) => 0,
            Verdict::Stuck { open, .. } => *open,
            Verdict::Several { differ, .. } => slots + differ,
            Verdict::None { beside: Some(b), .. } => 2 * slots + b,
            Verdict::None { beside: None, .. } => 3 * slots,
            Verdict::Unknown | Verdict::Stopped => 4 * slots,
        }
    }

    /// The solutions it has (0, 1, or 2 meaning two or more), if known.
    pub fn solutions(&self) -> Option<usize> {
        match self {
            Verdict::Wanted(..) | Verdict::Stuck { .. } => Some(1),
            Verdict::Several { .. } => Some(2),
            Verdict::None { .. } => Some(0),
            Verdict::Unknown | Verdict::Stopped => None,
        }
    }

    /// The cells a change should touch to bring it nearer.
    fn focus(&self) -> Focus {
        match self {
            Verdict::Stuck { focus, .. } | Verdict::Several { focus, .. } | Verdict::None { focus, .. } => {
                focus.clone()
            }
            _ => None,
        }
    }
}

/// The cells of `slots` in a puzzle of `p`'s grid (`None` if there are none).
fn cells_of(p: &Puzzle, slots: impl Iterator<Item = usize>) -> Focus {
    let g = p.grid();
    let mut focus = vec![false; g.cells()];
    for s in slots {
        for c in g.ends(s) {
            focus[c] = true;
        }
    }
    focus.contains(&true).then_some(focus)
}

/// Nodes the search under the looser convention may visit on a puzzle
/// with no solution (past them: no looser solution, as far as it knows).
pub const LOOSE_NODES: u64 = 2_000;

/// The verdict on `p`, which has no solution: where a solution under Flow
/// Free's looser convention (paths may run beside themselves) breaks the
/// Numberlink one, the slots between two cells of one path that are not
/// linked, and their cells.
fn beside(p: &Puzzle, deadline: Option<Instant>) -> Verdict {
    let limits = Limits { solutions: 1, max_nodes: Some(LOOSE_NODES), deadline };
    let loose = solve(p, Options { touching: true, ..Options::default() }, limits);
    let Some(solution) = loose.solutions.first() else { return Verdict::None { beside: None, focus: None } };
    let g = p.grid();
    let state = State::of_solution(g, solution);
    let features = Features::of(p, &state);
    let slots: Vec<usize> = (0..g.slots())
        .filter(|&s| {
            let [a, b] = g.ends(s);
            state.status(s) != Status::Linked && features.colour(a) == features.colour(b)
        })
        .collect();
    Verdict::None { beside: Some(slots.len()), focus: cells_of(p, slots.into_iter()) }
}

/// What `p` is: the complete solver counts its solutions (up to 2, within
/// `wanted.max_nodes` and the deadline), and the player solves a unique one.
pub fn judge(p: &Puzzle, wanted: &Wanted, deadline: Option<Instant>) -> Result<Verdict, PlayError> {
    let limits = Limits { solutions: 2, max_nodes: Some(wanted.max_nodes), deadline };
    let mut out = solve(p, Options::default(), limits);
    Ok(match (out.count(), out.stopped) {
        (_, Some(Stop::Timeout)) => Verdict::Stopped,
        (None, _) => Verdict::Unknown,
        (Some(0), _) => beside(p, deadline),
        (Some(1), _) => {
            let solution = out.solutions.remove(0);
            let (play, fine) = played(wanted, p, &solution)?;
            if fine {
                return Ok(Verdict::Wanted(solution, play));
            }
            let mut decided = vec![false; p.grid().slots()];
            for s in play.steps.iter().flat_map(|s| s.link.iter().chain(&s.cut)) {
                decided[*s] = true;
            }
            let open = decided.iter().filter(|&&d| !d).count();
            Verdict::Stuck { open, focus: cells_of(p, (0..decided.len()).filter(|&s| !decided[s])) }
        }
        _ => {
            let differ = out.solutions[0].differ(&out.solutions[1]);
            Verdict::Several { differ: differ.len(), focus: cells_of(p, differ.into_iter()) }
        }
    })
}

/// A repaired puzzle.
#[derive(Clone, Debug)]
pub struct Repaired {
    /// The changes made, in order (none: the drawn puzzle was fine).
    pub changes: Vec<Change>,
    /// The puzzle after them (the drawn puzzle's title and metadata kept).
    pub puzzle: Puzzle,
    /// Its one solution.
    pub solution: Solution,
    /// The player's solve.
    pub play: Playthrough,
}

/// What a repair search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// What the drawn puzzle is.
    pub drawn: Verdict,
    /// The repair (no changes if the drawn puzzle is already wanted), or
    /// `None` if none was found within the budget.
    pub repair: Option<Repaired>,
    /// Puzzles judged, the drawn one included.
    pub judged: u64,
    /// The most changes of which every candidate was judged (and none wanted).
    pub tried: usize,
    /// Set if the deadline stopped the search ([`Stop::Timeout`]).
    pub stopped: Option<Stop>,
}

/// How far a repair search may go.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Changes at most.
    pub max_changes: usize,
    /// No puzzle is judged after this instant.
    pub deadline: Option<Instant>,
}

/// How far a search got, for a watcher on another thread.
#[derive(Debug, Default)]
pub struct Tally {
    judged: AtomicU64,
    changes: AtomicUsize,
}

impl Tally {
    /// Puzzles judged so far.
    pub fn judged(&self) -> u64 {
        self.judged.load(Ordering::Relaxed)
    }

    /// The number of changes being tried (0 before the drawn puzzle is judged).
    pub fn changes(&self) -> usize {
        self.changes.load(Ordering::Relaxed)
    }
}

/// A puzzle of the search: its changes from the drawn one and its focus.
struct Node {
    puzzle: Puzzle,
    changes: Vec<Change>,
    focus: Focus,
}

/// The endpoints of `p`, whatever their colours' names: two puzzles with
/// the same are the same puzzle to the search.
fn key(p: &Puzzle) -> Vec<[Cell; 2]> {
    (1..=p.colours()).map(|f| p.ends(f)).collect()
}

/// The fewest endpoint changes that make `drawn` what is `wanted`, by the
/// module doc's search, within `budget`; `tally` is told how far it got.
/// Colours without a character are named first ([`Puzzle::name_colours`]).
/// An error only if the player is unsound (it contradicts a solution).
pub fn repair(drawn: &Puzzle, wanted: &Wanted, budget: Budget, tally: &Tally) -> Result<Found, PlayError> {
    let mut start = drawn.clone();
    start.name_colours();
    let first = judge(&start, wanted, budget.deadline)?;
    tally.judged.fetch_add(1, Ordering::Relaxed);
    let mut found = Found { drawn: first.clone(), repair: None, judged: 1, tried: 0, stopped: None };
    match first {
        Verdict::Wanted(solution, play) => {
            found.repair = Some(Repaired { changes: vec![], puzzle: start, solution, play });
            return Ok(found);
        }
        Verdict::Stopped => {
            found.stopped = Some(Stop::Timeout);
            return Ok(found);
        }
        _ => {}
    }
    let slots = start.grid().slots();
    let mut seen: HashSet<Vec<[Cell; 2]>> = HashSet::from([key(&start)]);
    let mut beam = vec![Node { focus: first.focus(), puzzle: start, changes: vec![] }];
    let cancel = current();
    for depth in 1..=budget.max_changes {
        tally.changes.store(depth, Ordering::Relaxed);
        let mut candidates: Vec<(usize, Change, Puzzle)> = vec![];
        for (i, node) in beam.iter().enumerate() {
            for (n, change) in changes(&node.puzzle, &node.focus, depth > 1).into_iter().enumerate() {
                // a large board has hundreds of thousands of changes: making
                // them all takes longer than a short timeout
                if n % 1024 == 0 && past(budget.deadline) {
                    found.stopped = Some(Stop::Timeout);
                    return Ok(found);
                }
                let puzzle = change.apply(&node.puzzle);
                if seen.insert(key(&puzzle)) {
                    candidates.push((i, change, puzzle));
                }
            }
        }
        let mut judged: Vec<(usize, Verdict)> = vec![];
        for (b, batch) in candidates.chunks(BATCH).enumerate() {
            if past(budget.deadline) {
                found.stopped = Some(Stop::Timeout);
                return Ok(found);
            }
            let verdicts: Vec<Result<Verdict, PlayError>> = batch
                .par_iter()
                .map(|(_, _, p)| {
                    carry(cancel.as_ref(), || {
                        if past(budget.deadline) {
                            return Ok(Verdict::Stopped);
                        }
                        judge(p, wanted, budget.deadline)
                    })
                })
                .collect();
            for (k, verdict) in verdicts.into_iter().enumerate() {
                let index = b * BATCH + k;
                found.judged += 1;
                tally.judged.fetch_add(1, Ordering::Relaxed);
                match verdict? {
                    Verdict::Wanted(solution, play) => {
                        let (parent, change, puzzle) = candidates.swap_remove(index);
                        let mut changes = beam.swap_remove(parent).changes;
                        changes.push(change);
                        found.repair = Some(Repaired { changes, puzzle, solution, play });
                        return Ok(found);
                    }
                    Verdict::Stopped => {
                        found.stopped = Some(Stop::Timeout);
                        return Ok(found);
                    }
                    v => judged.push((index, v)),
                }
            }
        }
        found.tried = depth;
        judged.sort_by_key(|(index, v)| (v.distance(slots), *index));
        let mut next = vec![];
        for (index, verdict) in judged.into_iter().take(BEAM) {
            let (parent, change, puzzle) = &candidates[index];
            let mut changes = beam[*parent].changes.clone();
            changes.push(*change);
            next.push(Node { puzzle: puzzle.clone(), changes, focus: verdict.focus() });
        }
        if next.is_empty() {
            break;
        }
        beam = next;
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::play::playthrough::Knowledge;

    fn puzzle(text: &str) -> Puzzle {
        parse_flow(text, "t").unwrap().remove(0).1
    }

    /// The search player, any bits: a unique puzzle is wanted.
    fn search_player() -> Wanted<'static> {
        Wanted { knowledge: Knowledge::Propagation, max_bits: None, without: None, max_nodes: 10_000, settled: false }
    }

    /// Each kind of change does what it says, colours keep their names,
    /// and the candidates come focus first, moves, additions, removals.
    #[test]
    fn changes_move_add_and_remove_endpoints() {
        let p = puzzle("A.B\n...\nA.B\n");
        let moved = Change::Move { colour: 'B', from: 2, to: 5 }.apply(&p);
        assert_eq!((moved.endpoint(5), moved.name(moved.endpoint(5))), (2, Some('B')));
        assert_eq!(moved.endpoint(2), 0);
        let added = Change::Add { colour: 'C', ends: [1, 4] }.apply(&p);
        assert_eq!((added.colours(), added.name(added.endpoint(4))), (3, Some('C')));
        let removed = Change::Remove { colour: 'A', ends: [0, 6] }.apply(&p);
        assert_eq!((removed.colours(), removed.name(1)), (1, Some('B')));
        let all = changes(&p, &None, false);
        // 4 endpoints x 5 free cells, C(5, 2) pairs, 2 colours
        assert_eq!(all.len(), 20 + 10 + 2);
        assert_eq!(all[0], Change::Move { colour: 'A', from: 0, to: 1 });
        assert!(matches!(all[31], Change::Remove { .. }));
        let mut focus = vec![false; 9];
        focus[7] = true;
        let near = changes(&p, &Some(focus.clone()), false);
        assert!(touches(&Some(focus.clone()), &near[0]) && !touches(&Some(focus.clone()), &near[31]));
        assert!(changes(&p, &Some(focus.clone()), true).iter().all(|c| touches(&Some(focus.clone()), c)));
    }

    /// A puzzle with no solution (one path cannot fill 3x3 without running
    /// beside itself) is repaired by the search player with two changes
    /// (every single change was tried first); a unique one is left as it is.
    #[test]
    fn a_puzzle_with_no_solution_is_repaired() {
        let wanted = search_player();
        let budget = Budget { max_changes: 2, deadline: None };
        let p = puzzle("A..\n...\n..A\n");
        let found = repair(&p, &wanted, budget, &Tally::default()).unwrap();
        assert_eq!((found.drawn.solutions(), found.tried), (Some(0), 1));
        let r = found.repair.expect("a repair");
        assert_eq!(r.changes.len(), 2);
        let limits = Limits::solutions(2);
        assert_eq!(solve(&r.puzzle, Options::default(), limits).count(), Some(1));
        let replayed = r.changes.iter().fold(p.clone(), |q, c| c.apply(&q));
        assert_eq!(key(&replayed), key(&r.puzzle));
        let one = Budget { max_changes: 1, ..budget };
        let short = repair(&p, &wanted, one, &Tally::default()).unwrap();
        assert!(short.repair.is_none() && short.stopped.is_none() && short.tried == 1);
        // a looser solution (one path may fill 4x4 between these ends, not
        // between opposite corners) shows where the path runs beside itself
        let loose = judge(&puzzle("A...\n....\n....\nA...\n"), &wanted, None).unwrap();
        assert!(matches!(loose, Verdict::None { beside: Some(b), focus: Some(_) } if b > 0), "{loose:?}");
        let four = puzzle("A...\n....\n....\n...A\n");
        let v = judge(&four, &wanted, None).unwrap();
        assert!(matches!(v, Verdict::None { beside: None, focus: None }), "{v:?}");
        assert!(loose.distance(24) < v.distance(24));
        // through the looser solutions of its one-change neighbours: two changes
        let fixed = repair(&four, &wanted, budget, &Tally::default()).unwrap().repair.expect("a repair");
        assert_eq!(fixed.changes.len(), 2);
        assert_eq!(solve(&fixed.puzzle, Options::default(), limits).count(), Some(1));
        let again = repair(&r.puzzle, &wanted, budget, &Tally::default()).unwrap();
        assert!(again.repair.unwrap().changes.is_empty() && again.judged == 1);
    }

    /// A puzzle with two solutions (`B` round `A` or `A` round `B`) is
    /// repaired with two changes, every single one leaving two or none;
    /// brute force finds two solutions before and exactly one after.
    #[test]
    fn a_puzzle_with_two_solutions_is_repaired() {
        use crate::domains::flow::solve::brute::solutions;
        let wanted = search_player();
        let p = puzzle("A..B\n.BA.\n.CC.\n....\n");
        assert_eq!(solutions(&p, false).len(), 2);
        let found = repair(&p, &wanted, Budget { max_changes: 3, deadline: None }, &Tally::default()).unwrap();
        assert!(matches!(found.drawn, Verdict::Several { differ: 8, focus: Some(_) }), "{:?}", found.drawn);
        let r = found.repair.expect("a repair");
        assert_eq!((found.tried, r.changes.len()), (1, 2));
        assert_eq!(solutions(&r.puzzle, false), vec![r.solution.clone()]);
    }
}
