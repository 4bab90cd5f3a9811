//! `solve PUZZLE [--rules R]`: a nonogram board solved line by line to a
//! fixpoint, by the exact line solver or a rule set.

use super::CmdResult;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::grid::{exact, Board, BoardError, Contradiction};
use stratsynth::domains::nonogram::formats::puzzle::read_puzzle;
use stratsynth::domains::nonogram::rules::apply::{saturate, ApplyOptions};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::rule_files::read_nonogram_rules;

/// Why line-by-line solving with a rule set stopped.
#[derive(Debug, thiserror::Error)]
enum RulesSolveError {
    /// The clues have no solution.
    #[error(transparent)]
    NoSolution(#[from] Contradiction),
    /// A rule filled a cell against the line's solutions.
    #[error("{0}")]
    Unsound(String),
}

/// The message of a puzzle whose clues contradict each other.
fn no_solution(puzzle: &Path, e: impl std::fmt::Display) -> String {
    format!("{}: the clues have no solution ({e})", puzzle.display())
}

/// Options of `solve`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct SolveArgs {
    /// The puzzle (`.non`, webpbn XML, or `SET#N`: puzzle N of a tournament set).
    pub puzzle: PathBuf,
    /// Solve with these rules (plus the decomposition oracle) instead of the exact solver.
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Apply rules only in each line's own orientation (with `--rules`).
    #[arg(long, requires = "rules")]
    pub one_sided: bool,
}

/// `solve PUZZLE [--rules R]`: line-by-line solving to a fixpoint.
pub fn solve(args: &SolveArgs) -> CmdResult {
    let (path, rules, one_sided) = (args.puzzle.as_path(), args.rules.as_deref(), args.one_sided);
    let puzzle = read_puzzle(path).map_err(|e| e.to_string())?;
    let mut board = Board::from_puzzle(&puzzle);
    let report = match rules {
        None => board.solve_exact().map_err(|e| no_solution(path, e))?,
        Some(rules_path) => {
            let (domain, rules) = read_nonogram_rules(rules_path)?;
            let limit = domain.schema().file.limits.max_state as usize;
            if board.width().max(board.height()) > limit {
                return Err(format!(
                    "{}: lines of {} cells are longer than the limit of {limit} cells rules are applied to",
                    path.display(),
                    board.width().max(board.height())
                ));
            }
            let refs: Vec<&Rule> = rules.iter().collect();
            let options = ApplyOptions { one_sided };
            board
                .solve_with(|line| {
                    let target = exact(line)?;
                    saturate(&domain, &refs, line, &target, options)
                        .map_err(|e| RulesSolveError::Unsound(e.to_string()))
                })
                .map_err(|e| match e {
                    BoardError::Deducer { line, source: RulesSolveError::Unsound(why) } => {
                        format!(
                            "{}: the rules are unsound on {line} of {}: {why}",
                            rules_path.display(),
                            path.display()
                        )
                    }
                    other => no_solution(path, other),
                })?
        }
    };
    if let Some(title) = &puzzle.title {
        println!("{}", super::printable(title));
    }
    println!("{board}");
    println!(
        "{}: {} of {} cells known{}",
        if report.solved { "solved" } else { "not solved" },
        report.known,
        report.total,
        match &puzzle.goal {
            Some(goal) if !board.agrees_with(goal) => " (DISAGREES with the goal!)",
            Some(_) => ", all agreeing with the goal",
            None => "",
        }
    );
    Ok(ExitCode::SUCCESS)
}
