//! The complete board solver: line propagation with the exact line solver
//! (on bit boards, with a memo of line results), probing, and depth-first
//! search that counts solutions up to a limit, within a node budget and a
//! deadline.
//!
//! Probing is the implication deduction of the propnet paper (papers/): set
//! an unknown cell both ways and propagate each; a contradiction fixes the
//! cell to the other value, and a cell both branches fix to the same value is
//! fixed. A probe that fills the whole board has found a solution, recorded
//! at once (the search may meet it again; solutions are kept distinct). A
//! node probes every unknown cell once, then again only the cells in lines
//! the previous pass changed, until a pass changes nothing; a cell whose
//! probes stored at an earlier node or pass still hold is not probed again
//! ([`ProbeStore`]). The search then branches on the cell whose two probes
//! fixed the most cells (the smaller of the two counts, then the sum, as last
//! measured; ties to the first cell row by row), true first. It stops at
//! `limit` solutions, so the count it reports is exact below the limit: 0,
//! 1, ..., or "at least `limit`" — unless it ran out of nodes or time first,
//! and then it says so ([`Outcome::stopped`]).
//!
//! A search still going after [`Limits::sat_after`] nodes brings in a SAT
//! solver: on the hardest tournament boards, where the first solution lies
//! below thousands of dead ends, clause learning finds it in a fraction of
//! the time. By default the SAT fallback (`sat`: Z3 on the block-start
//! formula) counts the solutions of the root board (as probing left it)
//! other than those found so far, within the deadline. With
//! [`Limits::cube_conflicts`] the search goes on as cube and conquer
//! instead (`cubes`): each node's board, once probed, is a cube for one
//! incremental CaDiCaL on the root board's formula, given that many
//! conflicts; a cube it settles is done, one it does not is split by the
//! branching above. When the clues have symmetries, the fallback counts
//! the symmetric solutions first (`invariant`), with the fallback's pair.
//!
//! This module knows boards as clues and cells; it knows nothing about rules.

use std::time::Duration;

use super::bitboard::{BitBoard, BitPropagator};
use super::cubes::{Cubes, Verdict};
use super::invariant;
pub use super::limits::{Limits, SAT_AFTER};
use super::probes::{ProbeStore, Score};
use super::propagate::Clues;
use super::sat;
use crate::stop::Stop;
use crate::usage::{memory, thread_cpu_time};

/// How often (in probes) the process's memory is read against
/// [`Limits::max_memory`] (a read takes some microseconds).
const MEMORY_EVERY: u64 = 256;

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
    /// True if the SAT fallback gave the answer (after `nodes` nodes).
    pub by_sat: bool,
    /// The CPU time of the SAT fallback (its thread's), formula included.
    pub sat_time: Duration,
    /// True if line propagation alone (the exact line solver to a
    /// fixpoint) solved the board.
    pub line_solved: bool,
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

/// Cube and conquer's solver, the number of solutions (first recorded)
/// blocked in it, and the conflicts it may spend on a cube.
struct Conqueror {
    cubes: Cubes,
    blocked: usize,
    conflicts: i32,
}

/// How a cube of cube and conquer ended.
enum Conquest {
    /// Every solution in it is recorded.
    Settled,
    /// Not settled within its conflicts: split it.
    Open,
    /// The search is over (limit reached, or out of time).
    Over,
}

/// Probing and search on one board.
pub struct Search<'a> {
    clues: &'a Clues,
    prop: BitPropagator,
    limits: Limits,
    out: Outcome,
    /// The two probes of the current cell.
    probe: (BitBoard, BitBoard),
    /// Probes made at earlier nodes and rounds, skipped while they hold.
    stored: ProbeStore,
}

impl<'a> Search<'a> {
    /// A search of `clues` within `limits`.
    pub fn new(clues: &'a Clues, limits: Limits) -> Search<'a> {
        let empty = BitBoard::new(clues);
        Search {
            clues,
            prop: BitPropagator::new(),
            limits: Limits { solutions: limits.solutions.max(1), ..limits },
            out: Outcome {
                solutions: vec![],
                nodes: 0,
                probes: 0,
                stopped: None,
                by_sat: false,
                sat_time: Duration::ZERO,
                line_solved: false,
            },
            probe: (empty.clone(), empty),
            stored: ProbeStore::new(clues.height(), clues.cells()),
        }
    }

    /// Searches from the empty board.
    pub fn run(mut self) -> Outcome {
        let mut root = BitBoard::new(self.clues);
        if self.prop.all(self.clues, &mut root).is_err() {
            return self.out;
        }
        self.out.line_solved = root.unknown(self.clues.width()) == 0;
        let mut stack = vec![root.clone()];
        let mut conqueror = None;
        while let Some(mut board) = stack.pop() {
            if self.out_of_nodes() {
                break;
            }
            if conqueror.is_none() && self.limits.sat_after.is_some_and(|n| self.out.nodes >= n) {
                match self.limits.cube_conflicts {
                    None => {
                        self.hand_to_sat(&root);
                        break;
                    }
                    Some(conflicts) => {
                        self.out.by_sat = true;
                        match Cubes::new(self.clues, &root) {
                            Some(cubes) => conqueror = Some(Conqueror { cubes, blocked: 0, conflicts }),
                            None => break,
                        }
                    }
                }
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
                    if self.out.nodes == 1 {
                        // probed: the same solutions, more cells known
                        root.clone_from(&board);
                    }
                    match conqueror.as_mut().map(|c| self.conquer(c, &board)) {
                        Some(Conquest::Settled) => continue,
                        Some(Conquest::Over) => break,
                        Some(Conquest::Open) | None => {}
                    }
                    stack.push(f);
                    stack.push(t);
                }
                NodeEnd::Over => break,
            }
        }
        // the orbits of the solutions found since the last cube (the
        // formula keeps one solution per orbit)
        if let Some(c) = conqueror.as_mut() {
            self.block_orbits(c);
        }
        self.out
    }

    /// Solves the cube of `board` on the solver of cube and conquer: every
    /// solution found is recorded with its orbit, and blocked.
    fn conquer(&mut self, conqueror: &mut Conqueror, board: &BitBoard) -> Conquest {
        let started = thread_cpu_time();
        let end = loop {
            if self.block_orbits(conqueror) {
                break Conquest::Over;
            }
            match conqueror.cubes.solve(self.clues, board, conqueror.conflicts, self.limits.deadline) {
                Verdict::Settled => break Conquest::Settled,
                Verdict::Open => break Conquest::Open,
                Verdict::Stopped => {
                    self.out.stopped = Some(Stop::Timeout);
                    break Conquest::Over;
                }
                Verdict::Solution(solution) => {
                    if self.record_cells(solution) {
                        break Conquest::Over;
                    }
                }
            }
        };
        self.out.sat_time += thread_cpu_time().saturating_sub(started);
        end
    }

    /// Records the orbit of every solution recorded since the last call
    /// and blocks each in the solver of cube and conquer; true once the
    /// limit is reached.
    fn block_orbits(&mut self, conqueror: &mut Conqueror) -> bool {
        while conqueror.blocked < self.out.solutions.len() {
            if self.out.solutions.len() >= self.limits.solutions {
                return true;
            }
            let solution = self.out.solutions[conqueror.blocked].clone();
            for image in conqueror.cubes.orbit(&solution) {
                if self.record_cells(image) {
                    return true;
                }
            }
            conqueror.cubes.block(&solution);
            conqueror.blocked += 1;
        }
        false
    }

    /// True (and the outcome marked) if the node budget is spent.
    fn out_of_nodes(&mut self) -> bool {
        if self.limits.max_nodes.is_some_and(|n| self.out.nodes >= n) {
            self.out.stopped = Some(Stop::Nodes);
        }
        self.out.stopped.is_some()
    }

    /// Counts the solutions of the root board besides those found, up to
    /// the limit, with the SAT fallback.
    fn hand_to_sat(&mut self, root: &BitBoard) {
        let wanted = self.limits.solutions - self.out.solutions.len();
        let started = thread_cpu_time();
        let (limits, deadline, known) = (&self.limits, self.limits.deadline, &self.out.solutions);
        let symmetric = invariant::solutions(limits.sat_pair(true), self.clues, root, known, wanted, deadline);
        let found = symmetric
            .unwrap_or_else(|| sat::solutions(limits.sat_pair(false), self.clues, root, known, wanted, deadline));
        self.out.sat_time = thread_cpu_time().saturating_sub(started);
        self.out.solutions.extend(found.solutions);
        self.out.by_sat = true;
        if !found.complete {
            self.out.stopped = Some(if self.over_memory() { Stop::Memory } else { Stop::Timeout });
        }
    }

    /// Counts the two probes of a cell; true (and the outcome marked) once
    /// the deadline has passed (read before every cell: a probe takes
    /// microseconds to a millisecond, reading the clock tens of
    /// nanoseconds, and a studio request's budget is 100 ms).
    fn out_of_time(&mut self) -> bool {
        self.out.probes += 2;
        if crate::deadline::past(self.limits.deadline) {
            self.out.stopped = Some(Stop::Timeout);
        } else if self.out.probes.is_multiple_of(MEMORY_EVERY) && self.over_memory() {
            self.out.stopped = Some(Stop::Memory);
        }
        self.out.stopped.is_some()
    }

    /// Whether the process's resident memory is past the limit (if any).
    fn over_memory(&self) -> bool {
        self.limits.max_memory.is_some_and(|m| memory() > m)
    }

    /// Records a solved board (if new); true once the limit is reached.
    fn record(&mut self, board: &BitBoard) -> bool {
        self.record_cells(board.filled(self.clues.width()))
    }

    /// Records a solution, row by row (if new); true once the limit is
    /// reached.
    fn record_cells(&mut self, cells: Vec<bool>) -> bool {
        if !self.out.solutions.contains(&cells) {
            self.out.solutions.push(cells);
        }
        self.out.solutions.len() >= self.limits.solutions
    }

    /// Probes every unknown cell, then again those in the lines the pass
    /// before changed, until a pass changes nothing; a cell whose stored
    /// probes hold counts as probed. Then branches on the best-scored cell,
    /// scores of cells outside the last pass taken from their last probes
    /// (ties to the first row by row).
    fn probe_all(&mut self, board: &mut BitBoard) -> NodeEnd {
        let (w, h) = (self.clues.width(), self.clues.height());
        let mut dirty = vec![true; self.clues.line_count()];
        let mut before = board.clone();
        loop {
            let mut progress = false;
            let known = board.known();
            for (r, c) in (0..h).flat_map(|r| (0..w).map(move |c| (r, c))) {
                if board.get(r, c).is_known() || !(dirty[r] || dirty[h + c]) {
                    continue;
                }
                match self.stored.holds(r * w + c, board) {
                    Some([t, f]) => {
                        let (a, b) = (t - known - 1, f - known - 1);
                        self.stored.set_score(r * w + c, (a.min(b), a + b));
                    }
                    None => {
                        if let Err(end) = self.probe_cell(board, (r, c), &mut progress) {
                            return end;
                        }
                    }
                }
            }
            if progress {
                dirty = board.changed_lines(&before);
                before.clone_from(board);
                continue;
            }
            let best = (0..h * w)
                .filter(|&i| !board.get(i / w, i % w).is_known())
                .filter_map(|i| Some((self.stored.score(i)?, std::cmp::Reverse(i))))
                .max();
            match best {
                None if board.unknown(w) == 0 => return NodeEnd::Solved,
                None => dirty.fill(true),
                Some((_, std::cmp::Reverse(i))) => {
                    if let Some(end) = self.branch(board, (i / w, i % w)) {
                        return end;
                    }
                    dirty = board.changed_lines(&before);
                    before.clone_from(board);
                }
            }
        }
    }

    /// Probes cell `(r, c)` both ways on `board`: fixes it if one way
    /// contradicts, records a probe that solved the board, fixes the cells
    /// both ways agree on and stores the pair and its score. `Err` if the
    /// node is over (dead, or the search is).
    fn probe_cell(&mut self, board: &mut BitBoard, (r, c): (usize, usize), progress: &mut bool) -> Result<(), NodeEnd> {
        if self.out_of_time() {
            return Err(NodeEnd::Over);
        }
        let (mut t, mut f) = std::mem::take(&mut self.probe);
        t.clone_from(board);
        f.clone_from(board);
        let ft = self.prop.assume(self.clues, &mut t, (r, c), true);
        let ff = self.prop.assume(self.clues, &mut f, (r, c), false);
        let end = match (ft, ff) {
            (Err(_), Err(_)) => Err(NodeEnd::Dead),
            (Ok(_), Err(_)) | (Err(_), Ok(_)) => {
                std::mem::swap(board, if ft.is_ok() { &mut t } else { &mut f });
                *progress = true;
                Ok(())
            }
            (Ok(a), Ok(b)) => {
                self.both_ways(board, (&t, &f), (r * self.clues.width() + c, (a.min(b), a + b)), progress)
            }
        };
        self.probe = (t, f);
        end
    }

    /// A cell both of whose probes (`t`, `f`) propagate: records a probe
    /// that solved the board, fixes the cells both agree on and stores the
    /// pair with its score.
    fn both_ways(
        &mut self,
        board: &mut BitBoard,
        (t, f): (&BitBoard, &BitBoard),
        (cell, score): (usize, Score),
        progress: &mut bool,
    ) -> Result<(), NodeEnd> {
        let w = self.clues.width();
        for probe in [t, f] {
            if probe.unknown(w) == 0 && self.record(probe) {
                return Err(NodeEnd::Over);
            }
        }
        let fixed = self.prop.merge(self.clues, board, t, f).map_err(|_| NodeEnd::Dead)?;
        self.stored.put(cell, t, f, score);
        *progress |= fixed > 0;
        Ok(())
    }

    /// The two children of the branching cell `(r, c)` (its probes, made
    /// again: they may have been skipped). `None` if one way contradicts
    /// (possible only for a stored pair from a sibling branch): the cell is
    /// then fixed the other way on `board` and probing goes on.
    fn branch(&mut self, board: &mut BitBoard, (r, c): (usize, usize)) -> Option<NodeEnd> {
        if self.out_of_time() {
            return Some(NodeEnd::Over);
        }
        let (mut t, mut f) = (board.clone(), board.clone());
        let ft = self.prop.assume(self.clues, &mut t, (r, c), true);
        let ff = self.prop.assume(self.clues, &mut f, (r, c), false);
        match (ft, ff) {
            (Ok(_), Ok(_)) => Some(NodeEnd::Branch(t, f)),
            (Err(_), Err(_)) => Some(NodeEnd::Dead),
            (Ok(_), Err(_)) => {
                *board = t;
                None
            }
            (Err(_), Ok(_)) => {
                *board = f;
                None
            }
        }
    }
}

/// Counts the solutions of a board up to `limit` (see [`Search`]), handing
/// over to the SAT fallback after `sat_after` nodes. Tests only: commands
/// give limits of nodes and time too.
#[cfg(test)]
pub(crate) fn count_solutions(clues: &Clues, limit: usize, sat: Sat) -> Outcome {
    let (sat_after, (sat_encoding, sat_solver), cube_conflicts) = sat;
    let (sat_encoding, sat_solver) = (Some(sat_encoding), Some(sat_solver));
    let limits = Limits { sat_after, sat_solver, sat_encoding, cube_conflicts, ..Limits::solutions(limit) };
    Search::new(clues, limits).run()
}

/// When the search hands over, to which formula and solver, and cube and
/// conquer's conflicts per cube (tests).
#[cfg(test)]
pub(crate) type Sat = (Option<u64>, (super::encoding::Encoding, super::sat::SatSolver), Option<i32>);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::board::brute::brute_force;
    use crate::domains::nonogram::board::{encoding::Encoding, sat::SatSolver};
    use crate::domains::nonogram::line::model::hints_of;
    use rand::{Rng, SeedableRng};

    /// The clues of a filling (row by row).
    fn clues_of(w: usize, h: usize, grid: &[bool]) -> Clues {
        let (rows, columns) = crate::domains::nonogram::formats::non::clues_of(w, h, grid);
        Clues::new(rows, columns)
    }

    /// Makes a third of the fillings symmetric under a half turn, and a
    /// third of the square ones under the transpose (their clues then have
    /// symmetries, `symmetry`).
    fn symmetrize(rng: &mut impl Rng, (w, h): (usize, usize), grid: &mut [bool]) {
        if rng.gen_bool(0.3) {
            for i in 0..w * h {
                grid[w * h - 1 - i] = grid[i];
            }
        }
        if w == h && rng.gen_bool(0.3) {
            for (r, c) in (0..h).flat_map(|r| (0..r).map(move |c| (r, c))) {
                grid[c * w + r] = grid[r * w + c];
            }
        }
    }

    /// Random boards up to 5x5 from random fillings (some symmetric) (so at least one
    /// solution, often several), and the same boards with one row's clue
    /// changed (often none): the search's count and solutions must match
    /// brute force exactly, with the limit above every count, whether the
    /// search finishes alone, hands over to the SAT fallback at once or
    /// after its first node (some solutions found by probing), to CaDiCaL
    /// (the whole board, or cube and conquer with cubes split after 0 or
    /// 100 conflicts) or to Z3.
    #[test]
    fn matches_brute_force_on_small_random_boards() {
        let regular = (Encoding::Regular, SatSolver::Cadical);
        for sat_after in [None, Some(0), Some(1)] {
            matches_brute_force((sat_after, regular, None));
        }
        for (sat_after, cubes) in [(Some(0), Some(0)), (Some(1), Some(0)), (Some(1), Some(100))] {
            matches_brute_force((sat_after, regular, cubes));
        }
    }

    /// The same boards handed over to the SAT fallback at once and after
    /// the first node, on the whole board, with each encoding of the
    /// formula and each solver: the same counts and solutions as brute
    /// force.
    #[test]
    fn both_encodings_and_both_solvers_match_brute_force() {
        for encoding in Encoding::ALL {
            for by in SatSolver::ALL {
                for sat_after in [Some(0), Some(1)] {
                    matches_brute_force((sat_after, (encoding, by), None));
                }
            }
        }
    }

    fn matches_brute_force(sat: Sat) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let (mut zero, mut one, mut many) = (0, 0, 0);
        for _ in 0..600 {
            let (w, h) = (rng.gen_range(1..=5), rng.gen_range(1..=5));
            let density = rng.gen_range(0.3..0.7);
            let mut grid: Vec<bool> = (0..w * h).map(|_| rng.gen_bool(density)).collect();
            symmetrize(&mut rng, (w, h), &mut grid);
            let mut clues = clues_of(w, h, &grid);
            if rng.gen_bool(0.3) {
                let other: Vec<bool> = (0..w).map(|_| rng.gen_bool(0.5)).collect();
                let mut rows = clues.rows().to_vec();
                rows[rng.gen_range(0..h)] = hints_of(&other);
                clues = Clues::new(rows, clues.columns().to_vec());
            }
            let mut expect = brute_force(&clues);
            let mut got = count_solutions(&clues, 1000, sat).solutions;
            expect.sort();
            got.sort();
            assert_eq!(got, expect, "{clues:?}");
            match expect.len() {
                0 => zero += 1,
                1 => one += 1,
                _ => many += 1,
            }
            // with limit 2: the first two found, distinct and real
            let two = count_solutions(&clues, 2, sat).solutions;
            assert_eq!(two.len(), expect.len().min(2));
            assert!(two.iter().all(|s| expect.contains(s)));
            assert!(two.len() < 2 || two[0] != two[1]);
        }
        assert!(zero > 20 && one > 100 && many > 50, "{zero} {one} {many}");
    }
}
