//! A designer's analysis of one puzzle: its number of solutions (complete
//! solver), whether the exact line solver alone solves it, and the model
//! player's solve with the line solver and (optionally) a rule set as its
//! knowledge: steps, rules fired, difficulty (see `player`).

use std::time::{Duration, Instant};

use crate::domains::nonogram::board::grid::Board;
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::domains::nonogram::formats::non::Puzzle;
use super::player::{play, Knowledge, PlayError, Playthrough};
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::board::complete::count_solutions;
use crate::dsl::ast::Rule;

/// The largest board analysed (cells); beyond it the search could run for
/// too long to be useful.
pub const MAX_CELLS: usize = 100 * 100;

/// Errors analysing a puzzle.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The board is larger than [`MAX_CELLS`].
    #[error("the board has {width}x{height} = {} cells; at most {MAX_CELLS} are analysed", width * height)]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// The model player failed (a rule filled a wrong cell).
    #[error(transparent)]
    Play(#[from] PlayError),
}

/// The analysis of one puzzle.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Up to two solutions (row by row); two means "two or more".
    pub solutions: Vec<Vec<bool>>,
    /// Search nodes of the complete solver.
    pub nodes: u64,
    /// Probes of the complete solver.
    pub probes: u64,
    /// Time of the complete solver.
    pub search_time: Duration,
    /// The exact line solver alone solves the board.
    pub line_solvable: bool,
    /// The player's solve with the line solver (`None` without a solution).
    pub line: Option<Playthrough>,
    /// The player's solve with the rule set (`None` without rules, without
    /// a solution, or with lines longer than the rules' limit).
    pub rules: Option<Playthrough>,
    /// The board has lines longer than the schema's `max_state`, where the
    /// rules are not applied (their proofs stop there): no rule solve.
    pub too_long_for_rules: bool,
}

impl Analysis {
    /// The number of solutions reported: 0, 1, or 2 for "two or more".
    pub fn solution_count(&self) -> usize {
        self.solutions.len()
    }
}

/// What the complete solver found: up to two solutions, the search nodes
/// and probes it took, and its time.
pub type Counted = (Vec<Vec<bool>>, u64, u64, Duration);

/// The complete solver's answer and time alone (what `bench --boards`
/// measures).
pub fn count(puzzle: &Puzzle) -> Result<Counted, AnalysisError> {
    if puzzle.width * puzzle.height > MAX_CELLS {
        return Err(AnalysisError::TooLarge { width: puzzle.width, height: puzzle.height });
    }
    let clues = Clues::from_puzzle(puzzle);
    let started = Instant::now();
    let out = count_solutions(&clues, 2);
    Ok((out.solutions, out.nodes, out.probes, started.elapsed()))
}

/// Analyses a puzzle; `rules` is the player's rule set, if any.
pub fn analyse(puzzle: &Puzzle, rules: Option<(&Nonogram, &[Rule])>) -> Result<Analysis, AnalysisError> {
    let (solutions, nodes, probes, search_time) = count(puzzle)?;
    let line_solvable = Board::from_puzzle(puzzle).solve_exact().is_ok_and(|r| r.solved);
    let clues = Clues::from_puzzle(puzzle);
    let too_long_for_rules = rules.is_some_and(|(d, _)| {
        puzzle.width.max(puzzle.height) > crate::domains::Domain::schema(d).file.limits.max_state as usize
    });
    let rules = rules.filter(|_| !too_long_for_rules);
    let (line, with_rules) = match solutions.first() {
        None => (None, None),
        Some(solution) => {
            let line = play(&clues, Knowledge::LineSolver, solution)?;
            let with_rules = match rules {
                Some((domain, rules)) => Some(play(&clues, Knowledge::Rules { domain, rules }, solution)?),
                None => None,
            };
            (Some(line), with_rules)
        }
    };
    Ok(Analysis { solutions, nodes, probes, search_time, line_solvable, line, rules: with_rules, too_long_for_rules })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::formats::non::parse_non;

    fn puzzle(rows: &str, cols: &str) -> Puzzle {
        let (w, h) = (cols.split('/').count(), rows.split('/').count());
        let text = format!("width {w}\nheight {h}\nrows\n{}\ncolumns\n{}\n", rows.replace('/', "\n"), cols.replace('/', "\n"));
        parse_non(&text, "t.non").unwrap()
    }

    #[test]
    fn counts_line_solvability_and_difficulty() {
        // line-solvable: no oracle step, difficulty 0
        let duck = puzzle("1,1/0/3", "1,1/1/1,1");
        let a = analyse(&duck, None).unwrap();
        assert_eq!(a.solution_count(), 1);
        assert!(a.line_solvable);
        let line = a.line.unwrap();
        assert!(line.solved_by_knowledge());
        assert_eq!(line.difficulty, 0.0);
        // two solutions (a 2x2 diagonal): the oracle must tell one cell of 4,
        // costing 1 + log2(4) = 3 bits; line solving does nothing
        let diag = puzzle("1/1", "1/1");
        let a = analyse(&diag, None).unwrap();
        assert_eq!(a.solution_count(), 2);
        assert_ne!(a.solutions[0], a.solutions[1]);
        assert!(!a.line_solvable);
        let line = a.line.unwrap();
        assert_eq!(line.oracle_steps(), 1);
        assert_eq!(line.difficulty, 3.0);
        // no solution: no playthrough
        let none = puzzle("2/0", "1/0");
        let a = analyse(&none, None).unwrap();
        assert_eq!(a.solution_count(), 0);
        assert!(a.line.is_none() && !a.line_solvable);
    }
}
