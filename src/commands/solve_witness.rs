//! `solve witness` (formerly `witness solve`): Witness puzzles solved with
//! A*, pruning (or sorting) by local constraint checking and a rule set
//! ("local constraint checking or some rule fires", Stevens §5.2).

use super::witness::{predicate, puzzles};
use super::{check_output, write_output, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use stratsynth::domains::witness::rules::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::search::astar::{astar, format_outcome, Mode, Outcome, SearchConfig};
use stratsynth::domains::witness::Puzzle;
use stratsynth::report::ticking::ticking;
use stratsynth::stop::Stop;

/// Options of `witness solve`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct SolveArgs {
    /// The `.ron` puzzle file.
    #[arg(long)]
    pub puzzles: PathBuf,
    /// Witness rules used with local constraint checking (default: local constraint checking only).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Prune flagged paths (default).
    #[arg(long, conflicts_with = "sort")]
    pub prune: bool,
    /// Sort flagged paths last instead of pruning them.
    #[arg(long)]
    pub sort: bool,
    /// Time budget per puzzle, in milliseconds.
    #[arg(long)]
    pub budget_ms: Option<u64>,
    /// Node budget per puzzle: most paths held (about 32 bytes each, so it
    /// bounds memory).
    #[arg(long, default_value_t = stratsynth::domains::witness::search::astar::DEFAULT_MAX_NODES, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u32).range(1..), |n| n as usize))]
    pub max_nodes: usize,
    /// Output: one line per puzzle, the solution `x,y x,y ...`, `none` (there
    /// is none), or `stopped (...)` (a budget ran out first: the time budget,
    /// or the node budget `--max-nodes` that bounds memory).
    #[arg(long)]
    pub solutions_out: PathBuf,
    /// Seconds the whole run may take (no default: `--max-nodes` bounds
    /// each puzzle): the search going on then stops, the puzzles after it
    /// are not searched, each `stopped (time budget)`, and the exit status
    /// is 1.
    #[arg(long, value_parser = super::puzzle_set::parse_seconds)]
    pub timeout: Option<f64>,
}

/// What `witness solve` found over its puzzles.
#[derive(Default)]
struct Solved {
    /// One line per puzzle, as `--solutions-out` holds them.
    lines: String,
    solved: usize,
    /// Searches stopped by a budget (or not begun: `--timeout` ran out).
    stopped: usize,
    /// Of those, the ones `--timeout` cut short or left unsearched.
    cut: usize,
    expansions: u64,
    time: Duration,
}

/// Searches each of `ps` in turn with `pred` and `config`, each within
/// `budget_ms` and what is left until `deadline` (none begun after it);
/// `done` counts the puzzles searched, for the progress line.
fn solve_all(
    ps: &[Puzzle],
    pred: &RuleSetPredicate,
    config: &SearchConfig,
    (budget_ms, deadline): (Option<u64>, Option<Instant>),
    done: &AtomicUsize,
) -> Solved {
    let past = || stratsynth::deadline::past(deadline);
    let mut out = Solved::default();
    for (i, p) in ps.iter().enumerate() {
        pred.forget();
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let config = match budget_ms.map(Duration::from_millis).into_iter().chain(left).min() {
            Some(t) => config.clone().with_time_limit(t),
            None => config.clone(),
        };
        let r = if past() { None } else { Some(astar(p, pred, &config)) };
        done.fetch_add(1, Ordering::Relaxed);
        let outcome = r.as_ref().map_or(Outcome::Stopped(Stop::TimeBudget), |r| r.outcome.clone());
        if let Outcome::Stopped(stop) = outcome {
            out.stopped += 1;
            out.cut += usize::from(stop == Stop::TimeBudget && past());
            let expansions = r.as_ref().map_or(0, |r| r.expansions);
            eprintln!(
                "puzzle {} of {} ({}x{}): stopped ({}) after {expansions} expansions",
                i + 1,
                ps.len(),
                p.width(),
                p.height(),
                stop.name(),
            );
        }
        if let Some(r) = &r {
            out.solved += usize::from(r.solution().is_some());
            out.expansions += r.expansions;
            out.time += r.elapsed;
        }
        out.lines.push_str(&format_outcome(&outcome));
        out.lines.push('\n');
    }
    out
}

/// `witness solve --puzzles P [--rules R] [--sort] [--budget-ms B] [--max-nodes N] [--timeout S] --solutions-out S`.
pub fn solve(args: &SolveArgs) -> CmdResult {
    let (puzzles_path, rules, sort, out) =
        (args.puzzles.as_path(), args.rules.as_deref(), args.sort, args.solutions_out.as_path());
    check_output(out, &[Some(puzzles_path), rules].into_iter().flatten().collect::<Vec<_>>())?;
    let ps = puzzles(puzzles_path)?;
    let pred = predicate(rules)?;
    let config =
        SearchConfig::default().with_mode(if sort { Mode::Sort } else { Mode::Prune }).with_node_limit(args.max_nodes);
    let deadline = args.timeout.map(|t| Instant::now() + Duration::from_secs_f64(t));
    let (done, total) = (AtomicUsize::new(0), ps.len());
    let say = |t: Duration| {
        Some(format!(
            "witness solve: {} of {total} puzzles done, {:.0} s",
            done.load(Ordering::Relaxed),
            t.as_secs_f64()
        ))
    };
    let r = ticking(say, || solve_all(&ps, &pred, &config, (args.budget_ms, deadline), &done));
    write_output(out, &r.lines)?;
    println!(
        "solved {} of {total} puzzles, {} stopped by a budget ({}, {} rules + local constraint checking): {} expansions ({:.1} per puzzle), {:.3} s search time; solutions in {}",
        r.solved,
        r.stopped,
        if sort { "sort" } else { "prune" },
        pred.rules().len(),
        r.expansions,
        r.expansions as f64 / total.max(1) as f64,
        r.time.as_secs_f64(),
        out.display()
    );
    if r.cut > 0 {
        eprintln!(
            "unknown: --timeout {} s ran out: {} of the {total} puzzles were not searched to the end (each `stopped (time budget)`); raise --timeout",
            args.timeout.unwrap_or_default(),
            r.cut
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
