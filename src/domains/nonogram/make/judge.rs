//! What generation asks of a candidate picture: which cells the chosen
//! player leaves undecided before it would have to guess (none: it solves
//! the puzzle without guessing, which also makes the puzzle unique, every
//! deduction being sound), how it solves it (steps, bits, rules used), and
//! the complete solver's count of solutions.
//!
//! The players: the exact line solver alone; a rule set with the
//! decomposition oracle (as `analyze`); or the line solver with single-cell
//! probing (set a cell both ways, propagate with the line solver, a
//! contradiction fixes it), played as the model player whose probe steps
//! are its own and whose guesses alone cost bits.

use crate::domains::nonogram::board::backbone::{disagreement, Disagreement};
use crate::domains::nonogram::board::complete::{Limits, Search};
use crate::domains::nonogram::board::propagate::{Clues, Propagator};
use crate::domains::nonogram::line::model::Cell;
use crate::domains::nonogram::play::player::{play, How, Knowledge, PlayError, Playthrough};
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::dsl::ast::Rule;
use crate::stop::Stop;

/// The player a puzzle is made for.
#[derive(Clone, Copy, Debug)]
pub enum Player<'a> {
    /// The exact line solver alone.
    Line,
    /// A rule set with the decomposition oracle.
    Rules {
        /// The rules' domain.
        domain: &'a Nonogram,
        /// The rules.
        rules: &'a [Rule],
    },
    /// The line solver plus single-cell probing.
    Probe,
}

/// How the player solves a puzzle (the picture revealing its cells when the
/// player is stuck).
#[derive(Clone, Debug)]
pub struct Solve {
    /// The player's own steps (line, rule or probe deductions).
    pub steps: usize,
    /// Bits of the steps the player could not make itself (0: no guessing).
    pub bits: f64,
    /// Steps made by each rule (empty unless the player has rules).
    pub rule_counts: Vec<usize>,
}

impl Player<'_> {
    /// The model player's knowledge.
    fn knowledge(&self) -> Knowledge<'_> {
        match *self {
            Player::Rules { domain, rules } => Knowledge::Rules { domain, rules },
            Player::Line | Player::Probe => Knowledge::LineSolver,
        }
    }

    /// True if a step of a playthrough is the player's own deduction.
    fn owns(&self, how: &How) -> bool {
        match how {
            How::LineSolver | How::Rule { .. } => true,
            How::Probe => matches!(self, Player::Probe),
            How::Guess => false,
        }
    }

    /// Plays the puzzle of `clues` whose solution is `solution`.
    pub fn solve(&self, clues: &Clues, solution: &[bool]) -> Result<Solve, PlayError> {
        let run = play(clues, self.knowledge(), solution, None)?;
        let (own, other): (Vec<_>, Vec<_>) = run.steps.iter().partition(|s| self.owns(&s.how));
        Ok(Solve {
            steps: own.len(),
            bits: other.iter().fold(0.0, |sum, s| sum + s.bits),
            rule_counts: run.rule_counts,
        })
    }

    /// The cells (grid indices, in order) still unknown when the player,
    /// solving the puzzle of `clues` whose solution is `solution`, first
    /// needs a step it cannot make itself; empty if it never does.
    pub fn undecided(&self, clues: &Clues, solution: &[bool]) -> Result<Vec<usize>, PlayError> {
        let mut grid = vec![Cell::Unknown; clues.cells()];
        // line propagation deduces everything the line and rule players can
        let propagated = Propagator::new().all(clues, &mut grid);
        if propagated.is_err() {
            // clues made from a picture always have a solution
            return Ok((0..grid.len()).collect());
        }
        let unknown = |grid: &[Cell]| (0..grid.len()).filter(|&p| !grid[p].is_known()).collect::<Vec<_>>();
        match self {
            Player::Line => Ok(unknown(&grid)),
            Player::Rules { .. } if grid.iter().any(|c| !c.is_known()) => Ok(unknown(&grid)),
            Player::Rules { .. } | Player::Probe => {
                let run = play(clues, self.knowledge(), solution, None)?;
                Ok(unknown(&self.grid_before_help(clues, &run)))
            }
        }
    }

    /// The grid when the player first needs help (or at the end).
    fn grid_before_help(&self, clues: &Clues, run: &Playthrough) -> Vec<Cell> {
        let mut grid = vec![Cell::Unknown; clues.cells()];
        for step in run.steps.iter().take_while(|s| self.owns(&s.how)) {
            for &(p, v) in &step.filled {
                grid[p] = Cell::from_bool(v);
            }
        }
        grid
    }
}

/// The number of solutions of `clues`, 0, 1 or 2 (two or more), or why the
/// complete solver stopped before it knew (past `max_nodes` or
/// `deadline`). The SAT fallback only with a deadline: without one only
/// nodes bound the work.
pub fn solution_count(clues: &Clues, max_nodes: u64, deadline: Option<std::time::Instant>) -> Result<usize, Stop> {
    let limits = Limits { max_nodes: Some(max_nodes), deadline, ..fallback(deadline) };
    let out = Search::new(clues, limits).run();
    out.count().ok_or(out.stopped.unwrap_or(Stop::Nodes))
}

/// The limits of a count of up to two solutions: the SAT fallback only
/// with a `deadline` (without one only nodes bound the work).
fn fallback(deadline: Option<std::time::Instant>) -> Limits {
    let limits = Limits::solutions(2);
    Limits { sat_after: limits.sat_after.filter(|_| deadline.is_some()), ..limits }
}

/// Conflicts the SAT solver may spend on each question of
/// [`ambiguous_cells`]: the first answers come within a few; the last
/// question, proving the cells left the same in every solution, takes
/// 0.1-0.4 s unbounded on a random 25x25 picture with 45% of its cells
/// black. A count cut short makes the cells found fewer, never a picture
/// unique; at 100 it was cut short so often that the cells of ambiguities
/// not yet seen stayed hidden, and a repair's descent, removing the
/// ambiguity it saw, met the next one as a new one (5 of 8 such pictures
/// repaired in 60 s); at 1,000, 7 of 8, each picture judged in 20-200 ms.
pub const AMBIGUITY_CONFLICTS: i32 = 1_000;

/// The cells that keep the puzzle of `clues` (a picture `cells`) from
/// being unique: those where some other solution differs
/// ([`disagreement`]: the complement of the clues' backbone, each question
/// to the SAT solver given [`AMBIGUITY_CONFLICTS`], so the cells found
/// may be fewer than all). None if the puzzle is unique: proven so by the
/// SAT solver, or, when its first question ran out of conflicts, by the
/// complete solver within `max_nodes`; if the complete solver finds two
/// solutions, the cells where they differ; every cell if it stops first
/// (past `max_nodes` or `deadline`), or if `deadline` passes.
///
/// Why these cells: a repair removes ambiguities one at a time, and the
/// cells some solution changes shrink with each (a 2x2 switch's four
/// cells go with it), while two solutions differ in a switch's four cells
/// until the last is gone, and on pictures with under half their cells
/// black line solving leaves open nearly every cell (594 of 625).
pub fn ambiguous_cells(
    clues: &Clues,
    cells: &[bool],
    max_nodes: u64,
    deadline: Option<std::time::Instant>,
) -> Vec<usize> {
    let everything = || (0..clues.cells()).collect();
    match disagreement(clues, cells, Some(AMBIGUITY_CONFLICTS), deadline) {
        None => everything(),
        Some(Disagreement { cells, complete }) if complete || !cells.is_empty() => cells,
        Some(_) => match solution_count(clues, max_nodes, deadline) {
            Ok(1) => vec![],
            Ok(2) => differing_cells(clues, max_nodes, deadline).unwrap_or_else(everything),
            _ => everything(),
        },
    }
}

/// The cells where two solutions of `clues` differ (ascending), if the
/// complete solver finds two within `max_nodes` and before `deadline`.
pub fn differing_cells(clues: &Clues, max_nodes: u64, deadline: Option<std::time::Instant>) -> Option<Vec<usize>> {
    let limits = Limits { max_nodes: Some(max_nodes), deadline, sat_after: None, ..Limits::solutions(2) };
    let out = Search::new(clues, limits).run();
    match &out.solutions[..] {
        [a, b] => Some((0..a.len()).filter(|&p| a[p] != b[p]).collect()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::formats::non::clues_of;

    fn clues(width: usize, cells: &[bool]) -> Clues {
        let (rows, columns) = clues_of(width, cells.len() / width, cells);
        Clues::new(rows, columns)
    }

    fn bits(s: &str) -> Vec<bool> {
        s.chars().filter(|c| !c.is_whitespace()).map(|c| c == '1').collect()
    }

    #[test]
    fn players_differ_where_they_should() {
        // a 2x2 diagonal: nobody decides anything, two solutions
        let diagonal = bits("10 01");
        let c = clues(2, &diagonal);
        for player in [Player::Line, Player::Probe] {
            assert_eq!(player.undecided(&c, &diagonal).unwrap(), vec![0, 1, 2, 3]);
            assert!(player.solve(&c, &diagonal).unwrap().bits > 0.0);
        }
        assert_eq!(solution_count(&c, 1000, None), Ok(2));
        assert_eq!(differing_cells(&c, 1000, None), Some(vec![0, 1, 2, 3]));
        assert_eq!(ambiguous_cells(&c, &diagonal, 1000, None), vec![0, 1, 2, 3]);
        // a full row and a full column: the line solver needs nothing
        let cross = bits("010 111 010");
        let c = clues(3, &cross);
        assert!(Player::Line.undecided(&c, &cross).unwrap().is_empty());
        let solve = Player::Line.solve(&c, &cross).unwrap();
        assert!(solve.steps > 0 && solve.bits == 0.0);
        assert_eq!(solution_count(&c, 1000, None), Ok(1));
        assert_eq!(differing_cells(&c, 1000, None), None);
        assert!(ambiguous_cells(&c, &cross, 1000, None).is_empty());
        // a 4x4 permutation: 24 solutions, two of which differ in at most 8
        // cells, and line solving decides none of the 16
        let permutation = bits("1000 0100 0010 0001");
        let c = clues(4, &permutation);
        assert!(differing_cells(&c, 1000, None).is_some_and(|d| (4..=8).contains(&d.len())));
        assert_eq!(ambiguous_cells(&c, &permutation, 1000, None), (0..16).collect::<Vec<_>>());
    }

    #[test]
    fn ambiguous_cells_are_where_some_solution_differs() {
        // brute force on a sample of 4x4 pictures: the cells where some
        // solution differs from the picture (line solving leaves more open
        // in some: 2x2 switches tie the cells around them)
        let mut wider = 0;
        for m in (0..1u32 << 16).step_by(7) {
            let p: Vec<bool> = (0..16).map(|i| m >> i & 1 == 1).collect();
            let c = clues(4, &p);
            let all = crate::domains::nonogram::board::brute::brute_force(&c);
            let want: Vec<usize> = (0..16).filter(|&i| all.iter().any(|s| s[i] != p[i])).collect();
            assert_eq!(ambiguous_cells(&c, &p, 10_000, None), want, "{p:?}");
            let mut grid = vec![Cell::Unknown; 16];
            let _ = Propagator::new().all(&c, &mut grid);
            wider += usize::from(grid.iter().filter(|g| !g.is_known()).count() > want.len());
        }
        assert!(wider > 0, "line solving leaves more open somewhere");
    }

    /// Every picture of `width` x `height`, row by row from bit 0.
    fn all_pictures(width: usize, height: usize) -> Vec<Vec<bool>> {
        (0..1u32 << (width * height)).map(|m| (0..width * height).map(|i| m >> i & 1 == 1).collect()).collect()
    }

    #[test]
    fn against_brute_force_on_every_4x4_picture() {
        let pictures = all_pictures(4, 4);
        // brute force: how many pictures share each picture's clues
        let mut sharing = std::collections::HashMap::new();
        for p in &pictures {
            *sharing.entry(clues(4, p)).or_insert(0usize) += 1;
        }
        let (mut line, mut probe, mut unique) = (0, 0, 0);
        for p in &pictures {
            let c = clues(4, p);
            let count = sharing[&c];
            unique += usize::from(count == 1);
            assert_eq!(solution_count(&c, 10_000, None), Ok(count.min(2)), "{p:?}");
            let by_line = Player::Line.undecided(&c, p).unwrap().is_empty();
            let by_probe = Player::Probe.undecided(&c, p).unwrap().is_empty();
            // sound players: solving without guessing means unique; the
            // probe player is at least the line player
            assert!(!by_line || (count == 1 && by_probe), "{p:?}");
            assert!(!by_probe || count == 1, "{p:?}");
            let solve = Player::Probe.solve(&c, p).unwrap();
            assert_eq!(solve.bits == 0.0, by_probe, "{p:?}");
            line += usize::from(by_line);
            probe += usize::from(by_probe);
        }
        // probing solves unique puzzles line solving cannot (on 4x4 boards,
        // every unique one: 52,362 of 65,536 pictures, 51,234 by lines)
        assert_eq!((line, probe, unique), (51_234, 52_362, 52_362));
    }
}
