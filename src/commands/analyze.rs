//! `analyze PUZZLES... [--rules R] [--json] [--first] [--threads N]
//! [--timeout S] [--max-nodes N]`: per puzzle the number of solutions
//! (`unknown` past the limits), line- and rule-solvability, steps, rules
//! fired, difficulty; then the puzzles ranked by difficulty with each
//! player. Puzzles are analysed in parallel, reported in input order.

use super::puzzle_set::{read_all, run_all, SolverArgs};
use super::CmdResult;
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::play::analysis::{analyse, Analysis};
use stratsynth::domains::nonogram::play::player::Playthrough;
use stratsynth::report::nonogram::analyze::{json_puzzle, rules_solved, JsonPuzzle};
use stratsynth::rule_files::read_nonogram_rules;

/// Options of `analyze`.
#[derive(clap::Args, Debug, Serialize)]
pub struct AnalyzeArgs {
    /// Puzzles (`.non`, webpbn XML, or tournament sets of many puzzles; or Flow puzzles, `.flow` or any file in a Flow layout).
    #[arg(required = true)]
    pub puzzles: Vec<PathBuf>,
    /// The complete solver's options.
    #[command(flatten)]
    pub solver: SolverArgs,
    /// The player's rule set (applied with the decomposition oracle).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Print one JSON list, one object per puzzle.
    #[arg(long)]
    pub json: bool,
}

/// `analyze`.
pub fn run(args: &AnalyzeArgs) -> CmdResult {
    if super::flow::takes(&args.puzzles, &args.solver)? {
        return super::flow::analyze(&args.puzzles, &args.solver, args.rules.as_deref(), args.json);
    }
    let loaded = args.rules.as_deref().map(read_nonogram_rules).transpose()?;
    let puzzles = read_all(&args.puzzles)?;
    let with_rules = loaded.as_ref().map(|(d, r)| (d, r.as_slice()));
    let analysed = run_all(&puzzles, args.solver.threads, |_, name, puzzle| {
        analyse(puzzle, with_rules, args.solver.limits()).map_err(|e| format!("{name}: {e}"))
    })?;
    let mut results: Vec<(String, usize, usize, Analysis)> = vec![];
    for ((name, puzzle), a) in puzzles.iter().zip(analysed) {
        results.push((name.clone(), puzzle.width, puzzle.height, a?));
    }
    let unsolvable: Vec<&str> =
        results.iter().filter(|r| r.3.solution_count() == Some(0)).map(|r| r.0.as_str()).collect();
    let unknown: Vec<(&str, &str)> =
        results.iter().filter_map(|r| r.3.stopped.map(|s| (r.0.as_str(), s.name()))).collect();
    let unrated: Vec<(&str, &str)> =
        results.iter().filter_map(|r| r.3.play_stopped.map(|s| (r.0.as_str(), s.name()))).collect();
    if args.json {
        let out: Vec<JsonPuzzle> = results
            .iter()
            .map(|(file, width, height, a)| {
                json_puzzle(file.clone(), *width, *height, a, loaded.as_ref().map(|l| l.1.as_slice()))
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    } else {
        print_table(&results, loaded.is_some(), args.solver.first);
        for (file, w, _, a) in results.iter().filter(|r| r.3.solution_count() == Some(2)) {
            print_two_solutions(file, *w, &a.solutions[0], &a.solutions[1]);
        }
        if let Some((_, rules)) = &loaded {
            print_ranking("the rules", &results, |a| a.rules.as_ref());
            let mut totals = vec![0usize; rules.len()];
            for (.., a) in &results {
                for (t, n) in totals.iter_mut().zip(a.rules.iter().flat_map(|p| &p.rule_counts)) {
                    *t += n;
                }
            }
            let mut fired: Vec<(&str, usize)> =
                rules.iter().map(|r| r.name.as_str()).zip(totals).filter(|&(_, n)| n > 0).collect();
            fired.sort_by_key(|f| std::cmp::Reverse(f.1));
            println!(
                "\nsteps made by each rule over all puzzles ({} of {} rules never made one):",
                rules.len() - fired.len(),
                rules.len()
            );
            for (name, n) in fired {
                println!("  {name:<28} {n:>7}");
            }
        }
        print_ranking("the exact line solver", &results, |a| a.line.as_ref());
    }
    let limit = loaded.as_ref().map(|(d, _)| stratsynth::domains::Domain::schema(d).file.limits.max_state);
    for (file, ..) in results.iter().filter(|r| r.3.too_long_for_rules) {
        eprintln!(
            "{file}: lines longer than the {} cells rules are applied to (and proven for): no rule solve",
            limit.unwrap_or(0)
        );
    }
    for file in &unsolvable {
        eprintln!("{file}: the clues contradict each other: no solution");
    }
    for (file, why) in &unknown {
        eprintln!("{file}: unknown: the solver stopped ({why}) before it knew the number of solutions");
    }
    for (file, why) in &unrated {
        eprintln!("{file}: difficulty unknown: the player stopped ({why}) before the end of its solve");
    }
    Ok(if unsolvable.is_empty() && unknown.is_empty() && unrated.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Two solutions side by side (`#` filled, `.` empty), cells that differ in
/// the second marked `*`/`o`.
fn print_two_solutions(file: &str, width: usize, a: &[bool], b: &[bool]) {
    let differ = a.iter().zip(b).filter(|(x, y)| x != y).count();
    println!("\n{file}: two of its solutions (they differ in {differ} cells, marked in the second):");
    for (ra, rb) in a.chunks(width).zip(b.chunks(width)) {
        let left: String = ra.iter().map(|&v| if v { '#' } else { '.' }).collect();
        let right: String = ra
            .iter()
            .zip(rb)
            .map(|(&x, &y)| match (y, x == y) {
                (true, true) => '#',
                (false, true) => '.',
                (true, false) => '*',
                (false, false) => 'o',
            })
            .collect();
        println!("  {left}   {right}");
    }
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn print_table(results: &[(String, usize, usize, Analysis)], with_rules: bool, first: bool) {
    let name_width = results.iter().map(|r| r.0.len()).max().unwrap_or(6).max(6);
    println!(
        "{:<name_width$} {:>7} {:>9} {:>5} {:>5} {:>6} {:>6} {:>8} {:>9}",
        "puzzle", "size", "solutions", "line", "rules", "steps", "oracle", "bits", "search ms"
    );
    for (file, w, h, a) in results {
        let p = if with_rules { a.rules.as_ref() } else { a.line.as_ref() };
        let count = match a.solution_count() {
            None => "unknown".to_string(),
            Some(n) if n == a.solutions.len() && n > 0 && (n == 2 || first) => format!("{n}+"),
            Some(n) => n.to_string(),
        };
        let rules = match (with_rules, a.too_long_for_rules) {
            (false, _) => "-",
            (true, true) => "n/a",
            (true, false) => rules_solved(a).map_or("?", yes),
        };
        let (steps, oracle, bits) = match p {
            Some(p) => (p.steps.len().to_string(), p.oracle_steps().to_string(), format!("{:.1}", p.difficulty)),
            None if a.play_stopped.is_some() => ("unknown".into(), "unknown".into(), "unknown".into()),
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "{file:<name_width$} {:>7} {count:>9} {:>5} {rules:>5} {steps:>6} {oracle:>6} {bits:>8} {:>9.2}",
            format!("{w}x{h}"),
            yes(a.line_solvable),
            a.search_time.as_secs_f64() * 1000.0
        );
    }
}

/// The puzzles with a solution, hardest first (bits, then steps, then name).
fn print_ranking(
    player: &str,
    results: &[(String, usize, usize, Analysis)],
    pick: impl Fn(&Analysis) -> Option<&Playthrough>,
) {
    let mut ranked: Vec<(&str, &Playthrough)> =
        results.iter().filter_map(|(f, .., a)| pick(a).map(|p| (f.as_str(), p))).collect();
    ranked.sort_by(|a, b| {
        b.1.difficulty.total_cmp(&a.1.difficulty).then(b.1.steps.len().cmp(&a.1.steps.len())).then(a.0.cmp(b.0))
    });
    println!("\nranking with {player} as the player (hardest first):");
    println!("{:>4} {:>8} {:>6} {:>6}  puzzle", "rank", "bits", "oracle", "steps");
    for (i, (file, p)) in ranked.iter().enumerate() {
        println!("{:>4} {:>8.1} {:>6} {:>6}  {file}", i + 1, p.difficulty, p.oracle_steps(), p.steps.len());
    }
}
