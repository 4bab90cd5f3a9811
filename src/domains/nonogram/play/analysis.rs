//! A designer's analysis of one puzzle: its number of solutions (complete
//! solver), whether the exact line solver alone solves it, and the model
//! player's solve with the line solver and (optionally) a rule set as its
//! knowledge: steps, rules fired, difficulty (see `player`).

use std::time::{Duration, Instant};

use super::player::{play, Knowledge, PlayError, Playthrough};
use crate::domains::nonogram::board::complete::{Limits, Outcome, Search};
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::formats::non::Puzzle;
use crate::domains::nonogram::line::bitline::MAX_LINE;
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::dsl::ast::Rule;
use crate::stop::Stop;
use crate::usage::thread_cpu_time;

/// The largest board analysed (cells); beyond it the search could run for
/// too long to be useful.
pub const MAX_CELLS: usize = 100 * 100;

/// Errors analysing a puzzle.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The board is larger than [`MAX_CELLS`] or a side longer than
    /// [`MAX_LINE`].
    #[error("the board has {width}x{height} = {} cells; at most {MAX_CELLS} are analysed, with sides of at most {MAX_LINE}", width * height)]
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
    /// Up to two solutions (row by row); two means "two or more" (with
    /// `--first`, at most one).
    pub solutions: Vec<Vec<bool>>,
    /// Set if the solver ran out of nodes or time: the count is unknown.
    pub stopped: Option<Stop>,
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
    /// Set if the deadline passed during the player's solves: the
    /// difficulty of the solves that had not ended is unknown (`rules`
    /// is `None`, and `line` too if the line solver's solve, played
    /// first, had not ended either).
    pub play_stopped: Option<Stop>,
    /// CPU time of the complete solver (its thread's).
    pub search_cpu: Duration,
    /// CPU time of the difficulty measure, the player's solves (its
    /// thread's).
    pub rating_cpu: Duration,
}

impl Analysis {
    /// The number of solutions reported: 0, 1, or 2 for "two or more";
    /// `None` if the solver stopped before it knew.
    pub fn solution_count(&self) -> Option<usize> {
        self.stopped.is_none().then_some(self.solutions.len())
    }
}

/// The complete solver's answer within `limits` and its time alone (what
/// `bench --boards` measures).
pub fn count(puzzle: &Puzzle, limits: Limits) -> Result<(Outcome, Duration), AnalysisError> {
    if puzzle.width * puzzle.height > MAX_CELLS || puzzle.width.max(puzzle.height) > MAX_LINE {
        return Err(AnalysisError::TooLarge { width: puzzle.width, height: puzzle.height });
    }
    let clues = Clues::from_puzzle(puzzle);
    let started = Instant::now();
    let out = Search::new(&clues, limits).run();
    Ok((out, started.elapsed()))
}

/// Analyses a puzzle within `limits` (the solver's; its deadline also
/// bounds the difficulty measure); `rules` is the
/// player's rule set, if any. The player plays only a puzzle known to have
/// exactly one solution: with several, which one its oracle follows (and so
/// its difficulty) would depend on the solver's search order.
pub fn analyse(
    puzzle: &Puzzle,
    rules: Option<(&Nonogram, &[Rule])>,
    limits: Limits,
) -> Result<Analysis, AnalysisError> {
    let cpu = thread_cpu_time();
    let (Outcome { solutions, nodes, probes, stopped, line_solved, .. }, search_time) = count(puzzle, limits)?;
    let search_cpu = thread_cpu_time().saturating_sub(cpu);
    // the search's first propagation is the exact line solver to its
    // fixpoint (the same on every board within MAX_LINE, as `count` asks)
    let line_solvable = line_solved;
    let clues = Clues::from_puzzle(puzzle);
    let too_long_for_rules = rules.is_some_and(|(d, _)| {
        puzzle.width.max(puzzle.height) > crate::domains::Domain::schema(d).file.limits.max_state as usize
    });
    let rules = rules.filter(|_| !too_long_for_rules);
    let unique = solutions.len() == 1 && stopped.is_none() && limits.solutions > 1;
    let Played { line, with_rules, stopped: play_stopped } = match solutions.first().filter(|_| unique) {
        None => Played { line: None, with_rules: None, stopped: None },
        Some(solution) => play_both(&clues, rules, solution, limits.deadline)?,
    };
    Ok(Analysis {
        solutions,
        stopped,
        nodes,
        probes,
        search_time,
        line_solvable,
        line,
        rules: with_rules,
        too_long_for_rules,
        play_stopped,
        search_cpu,
        rating_cpu: thread_cpu_time().saturating_sub(cpu + search_cpu),
    })
}

/// The player's solves with the line solver and with the rules: each
/// `None` if not played or not ended, and why one did not end.
struct Played {
    line: Option<Playthrough>,
    with_rules: Option<Playthrough>,
    stopped: Option<Stop>,
}

/// The player's solves of `solution` with the line solver and with the
/// rules (if any), within `deadline`: a solve that did not end by then is
/// `None`, and the stop is said (the line solver's solve, played first,
/// may have ended when the rules' did not).
fn play_both(
    clues: &Clues,
    rules: Option<(&Nonogram, &[Rule])>,
    solution: &[bool],
    deadline: Option<Instant>,
) -> Result<Played, PlayError> {
    let ended = |played: Result<Playthrough, PlayError>| match played {
        Ok(p) => Ok(Some(p)),
        Err(PlayError::OutOfTime) => Ok(None),
        Err(e) => Err(e),
    };
    let Some(line) = ended(play(clues, Knowledge::LineSolver, solution, deadline))? else {
        return Ok(Played { line: None, with_rules: None, stopped: Some(Stop::Timeout) });
    };
    let Some((domain, rules)) = rules else {
        return Ok(Played { line: Some(line), with_rules: None, stopped: None });
    };
    let with_rules = ended(play(clues, Knowledge::Rules { domain, rules }, solution, deadline))?;
    let stopped = with_rules.is_none().then_some(Stop::Timeout);
    Ok(Played { line: Some(line), with_rules, stopped })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::formats::non::parse_non;

    fn puzzle(rows: &str, cols: &str) -> Puzzle {
        let (w, h) = (cols.split('/').count(), rows.split('/').count());
        let text =
            format!("width {w}\nheight {h}\nrows\n{}\ncolumns\n{}\n", rows.replace('/', "\n"), cols.replace('/', "\n"));
        parse_non(&text, "t.non").unwrap()
    }

    #[test]
    fn counts_line_solvability_and_difficulty() {
        // line-solvable: no oracle step, difficulty 0
        let duck = puzzle("1,1/0/3", "1,1/1/1,1");
        let a = analyse(&duck, None, Limits::solutions(2)).unwrap();
        assert_eq!(a.solution_count(), Some(1));
        assert!(a.line_solvable);
        let line = a.line.unwrap();
        assert!(line.solved_by_knowledge());
        assert_eq!(line.difficulty, 0.0);
        // two solutions (a 2x2 diagonal): no playthrough (which solution
        // the oracle would follow is arbitrary)
        let diag = puzzle("1/1", "1/1");
        let a = analyse(&diag, None, Limits::solutions(2)).unwrap();
        assert_eq!(a.solution_count(), Some(2));
        assert_ne!(a.solutions[0], a.solutions[1]);
        assert!(!a.line_solvable && a.line.is_none());
        // stopped by the node budget: the count is unknown
        let mut limits = Limits::solutions(2);
        limits.max_nodes = Some(0);
        let a = analyse(&diag, None, limits).unwrap();
        assert_eq!((a.solution_count(), a.stopped), (None, Some(Stop::Nodes)));
        // no solution: no playthrough
        let none = puzzle("2/0", "1/0");
        let a = analyse(&none, None, Limits::solutions(2)).unwrap();
        assert_eq!(a.solution_count(), Some(0));
        assert!(a.line.is_none() && !a.line_solvable);
        assert!(a.play_stopped.is_none());
    }

    #[test]
    fn the_difficulty_measure_stops_at_the_deadline() {
        // a full 40x40 board: many line deductions, the clock read before
        // each
        let full = vec!["40"; 40].join("/");
        let board = puzzle(&full, &full);
        let clues = Clues::from_puzzle(&board);
        let solution = analyse(&board, None, Limits::solutions(2)).unwrap().solutions.remove(0);
        let past = Some(Instant::now());
        assert!(matches!(play(&clues, Knowledge::LineSolver, &solution, past), Err(PlayError::OutOfTime)));
        let later = Some(Instant::now() + Duration::from_secs(60));
        assert!(play(&clues, Knowledge::LineSolver, &solution, later).is_ok());
    }
}
