//! The complete board solver: line propagation with the exact line solver
//! (on bit boards, with a memo of line results), probing, and depth-first
//! search that counts solutions up to a limit, within a node budget and a
//! deadline.
//!
//! Probing is the implication deduction of the propnet paper (papers/): set
//! an unknown cell both ways and propagate each; a contradiction fixes the
//! cell to the other value, and a cell both branches fix to the same value is
//! fixed. A probe that fills the whole board has found a solution, recorded
//! at once (the search may meet it again; solutions are kept distinct). When
//! probing changes nothing, the search branches on the cell whose two probes
//! fixed the most cells (the smaller of the two counts, then the sum; ties to
//! the first cell row by row), true first, each branch starting from its
//! probe's board. It stops at `limit` solutions, so the count it reports is
//! exact below the limit: 0, 1, ..., or "at least `limit`" — unless it ran
//! out of nodes or time first, and then it says so ([`Outcome::stopped`]).
//!
//! This module knows boards as clues and cells; it knows nothing about rules.

use std::time::Instant;

use super::bitboard::{BitBoard, BitPropagator};
use super::propagate::Clues;

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many solutions (at least 1).
    pub solutions: usize,
    /// Stop (answer unknown) after this many search nodes.
    pub max_nodes: Option<u64>,
    /// Stop (answer unknown) at this instant.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// Up to `solutions` solutions, no budget, no deadline.
    pub fn solutions(solutions: usize) -> Limits {
        Limits { solutions, max_nodes: None, deadline: None }
    }
}

/// Why a search stopped before its answer was known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed.
    Timeout,
    /// The node budget ran out.
    Nodes,
}

impl Stop {
    /// The name used in reports (`--json`'s `"stopped"`).
    pub fn name(self) -> &'static str {
        match self {
            Stop::Timeout => "timeout",
            Stop::Nodes => "node budget",
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The solutions found (row by row, `true` = filled), at most the limit,
    /// all distinct, in the order found.
    pub solutions: Vec<Vec<bool>>,
    /// Search nodes visited (1 if probing alone settled the board).
    pub nodes: u64,
    /// Probes made (each cell set one way and propagated).
    pub probes: u64,
    /// Set if the search stopped before it knew the count (the solutions
    /// found so far are real, but there may be more).
    pub stopped: Option<Stop>,
}

impl Outcome {
    /// The number of solutions (at most the limit), or `None` if the search
    /// stopped before it knew.
    pub fn count(&self) -> Option<usize> {
        self.stopped.is_none().then_some(self.solutions.len())
    }
}

/// How probing a node ended.
enum NodeEnd {
    /// The node has no solution.
    Dead,
    /// Every cell is known: the board is a solution.
    Solved,
    /// Probing is stuck: the two boards of the branching cell.
    Branch(BitBoard, BitBoard),
    /// The search is over (limit reached, or out of nodes or time).
    Over,
}

/// Probing and search on one board.
pub struct Search<'a> {
    clues: &'a Clues,
    prop: BitPropagator,
    limits: Limits,
    out: Outcome,
    /// The two probes of the current cell, and of the best branching cell.
    probe: (BitBoard, BitBoard),
    best: (BitBoard, BitBoard),
}

impl<'a> Search<'a> {
    /// A search of `clues` within `limits`.
    pub fn new(clues: &'a Clues, limits: Limits) -> Search<'a> {
        let empty = BitBoard::new(clues);
        Search {
            clues,
            prop: BitPropagator::new(),
            limits: Limits { solutions: limits.solutions.max(1), ..limits },
            out: Outcome { solutions: vec![], nodes: 0, probes: 0, stopped: None },
            probe: (empty.clone(), empty.clone()),
            best: (empty.clone(), empty),
        }
    }

    /// Searches from the empty board.
    pub fn run(mut self) -> Outcome {
        let mut root = BitBoard::new(self.clues);
        if self.prop.all(self.clues, &mut root).is_err() {
            return self.out;
        }
        let mut stack = vec![root];
        while let Some(mut board) = stack.pop() {
            if self.out_of_nodes() {
                break;
            }
            self.out.nodes += 1;
            match self.probe_all(&mut board) {
                NodeEnd::Dead => {}
                NodeEnd::Solved => {
                    if self.record(&board) {
                        break;
                    }
                }
                NodeEnd::Branch(t, f) => {
                    stack.push(f);
                    stack.push(t);
                }
                NodeEnd::Over => break,
            }
        }
        self.out
    }

    /// True (and the outcome marked) if the node budget is spent.
    fn out_of_nodes(&mut self) -> bool {
        if self.limits.max_nodes.is_some_and(|n| self.out.nodes >= n) {
            self.out.stopped = Some(Stop::Nodes);
        }
        self.out.stopped.is_some()
    }

    /// Counts the two probes of a cell; true (and the outcome marked) once
    /// the deadline has passed (read every 32 cells: a probe takes
    /// microseconds).
    fn out_of_time(&mut self) -> bool {
        self.out.probes += 2;
        if self.out.probes.is_multiple_of(64) && self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            self.out.stopped = Some(Stop::Timeout);
        }
        self.out.stopped.is_some()
    }

    /// Records a solved board (if new); true once the limit is reached.
    fn record(&mut self, board: &BitBoard) -> bool {
        let cells = board.filled(self.clues.width());
        if !self.out.solutions.contains(&cells) {
            self.out.solutions.push(cells);
        }
        self.out.solutions.len() >= self.limits.solutions
    }

    /// Probes every unknown cell until a whole pass changes nothing.
    fn probe_all(&mut self, board: &mut BitBoard) -> NodeEnd {
        let (w, h) = (self.clues.width(), self.clues.height());
        loop {
            let mut progress = false;
            let mut best: Option<(usize, usize)> = None;
            for (r, c) in (0..h).flat_map(|r| (0..w).map(move |c| (r, c))) {
                if board.get(r, c).is_known() {
                    continue;
                }
                if self.out_of_time() {
                    return NodeEnd::Over;
                }
                let (mut t, mut f) = std::mem::take(&mut self.probe);
                t.clone_from(board);
                f.clone_from(board);
                let ft = self.prop.assume(self.clues, &mut t, (r, c), true);
                let ff = self.prop.assume(self.clues, &mut f, (r, c), false);
                let end = match (ft, ff) {
                    (Err(_), Err(_)) => Some(NodeEnd::Dead),
                    (Ok(_), Err(_)) => {
                        std::mem::swap(board, &mut t);
                        progress = true;
                        None
                    }
                    (Err(_), Ok(_)) => {
                        std::mem::swap(board, &mut f);
                        progress = true;
                        None
                    }
                    (Ok(a), Ok(b)) => self.both_ways(board, (&t, &f), (a.min(b), a + b), &mut best, &mut progress),
                };
                self.probe = (t, f);
                if let Some(end) = end {
                    return end;
                }
            }
            if !progress {
                return match best {
                    None => NodeEnd::Solved,
                    Some(_) => NodeEnd::Branch(self.best.0.clone(), self.best.1.clone()),
                };
            }
        }
    }

    /// A cell both of whose probes (`t`, `f`) propagate: records a probe
    /// that solved the board, fixes the cells both agree on, or else keeps
    /// the cell as the branching cell if its `score` is the best so far.
    fn both_ways(
        &mut self,
        board: &mut BitBoard,
        (t, f): (&BitBoard, &BitBoard),
        score: (usize, usize),
        best: &mut Option<(usize, usize)>,
        progress: &mut bool,
    ) -> Option<NodeEnd> {
        let w = self.clues.width();
        for probe in [t, f] {
            if probe.unknown(w) == 0 && self.record(probe) {
                return Some(NodeEnd::Over);
            }
        }
        match self.prop.merge(self.clues, board, t, f) {
            Err(_) => return Some(NodeEnd::Dead),
            Ok(0) => {
                if !*progress && best.is_none_or(|s| score > s) {
                    *best = Some(score);
                    self.best.0.clone_from(t);
                    self.best.1.clone_from(f);
                }
            }
            Ok(_) => *progress = true,
        }
        None
    }
}

/// Counts the solutions of a board up to `limit` (see [`Search`]). Tests
/// only: commands give limits of nodes and time too.
#[cfg(test)]
pub(crate) fn count_solutions(clues: &Clues, limit: usize) -> Outcome {
    Search::new(clues, Limits::solutions(limit)).run()
}

/// Every solution of a small board by brute force over all fillings of its
/// rows (each row one of the fillings its hints allow). Tests only.
#[cfg(test)]
pub(crate) fn brute_force(clues: &Clues) -> Vec<Vec<bool>> {
    use crate::domains::nonogram::line::model::hints_of;
    let w = clues.width();
    let row_options: Vec<Vec<Vec<bool>>> = clues
        .rows()
        .iter()
        .map(|h| {
            (0u32..1 << w)
                .map(|bits| (0..w).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
                .filter(|v| hints_of(v) == *h)
                .collect()
        })
        .collect();
    let mut out = vec![];
    let mut pick = vec![0usize; clues.height()];
    if row_options.iter().any(Vec::is_empty) {
        return out;
    }
    loop {
        let grid: Vec<bool> = pick.iter().enumerate().flat_map(|(r, &i)| row_options[r][i].clone()).collect();
        let ok = clues.columns().iter().enumerate().all(|(c, h)| {
            let col: Vec<bool> = (0..clues.height()).map(|r| grid[r * w + c]).collect();
            hints_of(&col) == *h
        });
        if ok {
            out.push(grid);
        }
        let mut r = 0;
        loop {
            if r == pick.len() {
                return out;
            }
            pick[r] += 1;
            if pick[r] < row_options[r].len() {
                break;
            }
            pick[r] = 0;
            r += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::hints_of;
    use rand::{Rng, SeedableRng};

    /// The clues of a filling (row by row).
    fn clues_of(w: usize, h: usize, grid: &[bool]) -> Clues {
        let rows = (0..h).map(|r| hints_of(&grid[r * w..(r + 1) * w])).collect();
        let cols = (0..w).map(|c| hints_of(&(0..h).map(|r| grid[r * w + c]).collect::<Vec<_>>())).collect();
        Clues::new(rows, cols)
    }

    /// Random boards up to 5x5 from random fillings (so at least one
    /// solution, often several), and the same boards with one row's clue
    /// changed (often none): the search's count and solutions must match
    /// brute force exactly, with the limit above every count.
    #[test]
    fn matches_brute_force_on_small_random_boards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut zero, mut one, mut many) = (0, 0, 0);
        for _ in 0..600 {
            let (w, h) = (rng.gen_range(1..=5), rng.gen_range(1..=5));
            let density = rng.gen_range(0.3..0.7);
            let grid: Vec<bool> = (0..w * h).map(|_| rng.gen_bool(density)).collect();
            let mut clues = clues_of(w, h, &grid);
            if rng.gen_bool(0.3) {
                let other: Vec<bool> = (0..w).map(|_| rng.gen_bool(0.5)).collect();
                let mut rows = clues.rows().to_vec();
                rows[rng.gen_range(0..h)] = hints_of(&other);
                clues = Clues::new(rows, clues.columns().to_vec());
            }
            let mut expect = brute_force(&clues);
            let mut got = count_solutions(&clues, 1000).solutions;
            expect.sort();
            got.sort();
            assert_eq!(got, expect, "{clues:?}");
            match expect.len() {
                0 => zero += 1,
                1 => one += 1,
                _ => many += 1,
            }
            // with limit 2: the first two found, distinct and real
            let two = count_solutions(&clues, 2).solutions;
            assert_eq!(two.len(), expect.len().min(2));
            assert!(two.iter().all(|s| expect.contains(s)));
            assert!(two.len() < 2 || two[0] != two[1]);
        }
        assert!(zero > 20 && one > 100 && many > 50, "{zero} {one} {many}");
    }
}
