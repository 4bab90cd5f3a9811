//! `solve`, `trace` and `cover`: nonogram boards and test transitions; and
//! the test sets `select` and `compare` read.

use super::percent;
use super::{check_output, CmdResult};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::grid::{exact, Board, BoardError, Contradiction};
use stratsynth::domains::nonogram::board::trace::trace_puzzle;
use stratsynth::domains::nonogram::formats::lines::{read_test_set, write_lines_file, Transition};
use stratsynth::domains::nonogram::formats::non::read_non_file;
use stratsynth::domains::nonogram::formats::puzzle::read_puzzle;
use stratsynth::domains::nonogram::rules::apply::{saturate, ApplyOptions};
use stratsynth::domains::nonogram::rules::coverage::Coverage;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
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

/// Options of `trace`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct TraceArgs {
    /// `.non` puzzles.
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output `.lines` file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `trace PUZZLES --seed S -o OUT`: random-rollout solution traces.
pub fn trace(args: &TraceArgs) -> CmdResult {
    let (puzzles, seed, output) = (&args.puzzles, args.seed, args.output.as_path());
    let inputs: Vec<&Path> = puzzles.iter().map(|p| p.as_path()).collect();
    check_output(output, &inputs)?;
    let limit = stratsynth::dsl::schema::Schema::nonogram().file.limits.max_state as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut transitions = vec![];
    let mut traced = 0;
    for path in puzzles {
        let puzzle = read_non_file(path).map_err(|e| e.to_string())?;
        if puzzle.width.max(puzzle.height) > limit {
            eprintln!("skipping {}: lines longer than {limit} cells", path.display());
            continue;
        }
        let board = Board::from_puzzle(&puzzle);
        let trace = trace_puzzle(&board, &mut rng).map_err(|e| format!("{}: {e}", path.display()))?;
        transitions.extend(trace.transitions);
        traced += 1;
    }
    write_lines_file(output, &transitions).map_err(|e| e.to_string())?;
    let skipped = match puzzles.len() - traced {
        0 => String::new(),
        n => format!(" ({n} skipped)"),
    };
    eprintln!("wrote {} transitions from {traced} puzzles{skipped} to {}", transitions.len(), output.display());
    Ok(ExitCode::SUCCESS)
}

/// The `--json` object of `cover`.
#[derive(serde::Serialize)]
struct JsonCover<'a> {
    transitions: usize,
    covered: usize,
    max_cells: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    top: Option<Vec<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_cumulative: Option<Vec<usize>>,
    rules: &'a [stratsynth::domains::nonogram::rules::coverage::RuleFigures],
}

/// Options of `cover`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct CoverArgs {
    /// The `.rules` file.
    #[arg(long)]
    pub rules: PathBuf,
    /// The `.lines` test set.
    #[arg(long)]
    pub lines: PathBuf,
    /// Greedily choose the K rules that add most coverage.
    #[arg(long)]
    pub top: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Apply rules only in each line's own orientation (the paper's setting).
    #[arg(long)]
    pub one_sided: bool,
}

/// `cover --rules R --lines T [--top K] [--json] [--one-sided]`.
pub fn cover(args: &CoverArgs) -> CmdResult {
    let (rules_path, lines, top, json, one_sided) =
        (args.rules.as_path(), args.lines.as_path(), args.top, args.json, args.one_sided);
    let (domain, rules) = read_nonogram_rules(rules_path)?;
    super::some_rules(rules_path, &rules)?;
    let limit = domain.schema().file.limits.max_state as usize;
    let tests = read_test_set(lines, limit).map_err(|e| e.to_string())?;
    let coverage = Coverage::new(&domain, &rules, &tests, ApplyOptions { one_sided });
    let report = coverage.report().map_err(|e| format!("{}: {e}", lines.display()))?;
    let picks = match top {
        Some(k) => Some(coverage.top(k, |i| cost(&rules[i], domain.schema())).map_err(|e| e.to_string())?),
        None => None,
    };
    if json {
        let out = JsonCover {
            transitions: report.transitions,
            covered: report.covered,
            max_cells: report.max_cells,
            top: picks.as_ref().map(|p| p.iter().map(|p| rules[p.index].name.as_str()).collect()),
            top_cumulative: picks.as_ref().map(|p| p.iter().map(|p| p.score).collect()),
            rules: &report.rules,
        };
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} transitions, {} rules{}: covered {} of {} cells ({:.1}%)",
        report.transitions,
        rules.len(),
        if one_sided { " (one-sided)" } else { "" },
        report.covered,
        report.max_cells,
        percent(report.covered, report.max_cells)
    );
    println!("{:<28} {:>6} {:>8} {:>9}", "rule", "cost", "alone", "marginal");
    for (rule, figures) in rules.iter().zip(&report.rules) {
        println!("{:<28} {:>6} {:>8} {:>9}", rule.name, cost(rule, domain.schema()), figures.alone, figures.marginal);
    }
    if let Some(picks) = picks {
        println!("\ntop {} by greedy coverage:", picks.len());
        println!("{:>3} {:<28} {:>10} {:>7}", "#", "rule", "cumulative", "%");
        for (i, p) in picks.iter().enumerate() {
            println!(
                "{:>3} {:<28} {:>10} {:>6.1}%",
                i + 1,
                rules[p.index].name,
                p.score,
                percent(p.score, report.max_cells)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
/// Reads a `.lines` test set within the domain's line limit.
pub(super) fn read_tests(domain: &Nonogram, lines: &Path) -> Result<Vec<Transition>, String> {
    read_test_set(lines, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())
}

/// How rules are applied, in words.
pub(super) fn orientation(one_sided: bool) -> &'static str {
    if one_sided {
        "one orientation"
    } else {
        "both orientations"
    }
}
