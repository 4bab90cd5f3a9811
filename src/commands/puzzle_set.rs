//! What the commands solving sets of puzzles share (`analyze`, `bench
//! --boards`): the solver's options (`--first`, `--threads`, `--timeout`,
//! `--max-nodes`, `--cube-conflicts`, `--sat-formula`, `--sat-solver`;
//! `--touching`, `--propagation` for Flow puzzles), reading every puzzle of every file first (a bad file
//! costs no solving), and running a job per puzzle on every core with
//! results in puzzle order and progress on stderr once a set takes over a
//! second (a bar on a terminal, else a line every few seconds).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use stratsynth::domains::flow::solve::Rules;
use stratsynth::domains::nonogram::board::complete::Limits;
use stratsynth::domains::nonogram::board::encoding::Encoding;
use stratsynth::domains::nonogram::board::limits::{hold_memory, DEFAULT_MEMORY_MB};
use stratsynth::domains::nonogram::board::sat::SatSolver;
use stratsynth::domains::nonogram::formats::non::Puzzle;
use stratsynth::domains::nonogram::formats::puzzle::read_puzzles;
use stratsynth::report::ticking::ticking;

/// The complete solver's options.
#[derive(clap::Args, Debug, Clone, serde::Serialize)]
pub struct SolverArgs {
    /// Stop at the first solution (answers 0 or 1+, as tournaments score).
    #[arg(long)]
    pub first: bool,
    /// Worker threads, one puzzle each (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seconds one puzzle may take; past them its answer is `unknown`.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds)]
    pub timeout: f64,
    /// Search nodes one puzzle may take; past them its answer is `unknown`.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_nodes: u64,
    /// After the handover, go on as cube and conquer (CaDiCaL), each
    /// search node's board a cube given this many conflicts before it is
    /// split (default: the whole board to the SAT fallback at once).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..))]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube_conflicts: Option<i32>,
    /// Flow puzzles: count Flow Free's looser solutions too (paths may run
    /// beside themselves).
    #[arg(long)]
    pub touching: bool,
    /// Flow puzzles: the propagation at each search node: `none` (only
    /// inconsistent states refused), `local` (forced, full, colour clash,
    /// no loop, same-colour neighbours linked) or `all` (also stranded
    /// colours and areas).
    #[arg(long, default_value = "all", value_parser = parse_propagation)]
    pub propagation: Rules,
    /// The encoding of the SAT fallback's formula: `regular` (a regular
    /// constraint per line) or `starts` (a variable per place a block may
    /// start) (default: `starts`, and `regular` on clues with symmetries).
    #[arg(long, value_parser = parse_encoding)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sat_formula: Option<Encoding>,
    /// The SAT fallback's solver: `cadical` or `z3` (default: `z3`).
    #[arg(long, value_parser = parse_sat_solver)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sat_solver: Option<SatSolver>,
    /// Megabytes of memory the process may hold (the SAT fallback's Z3
    /// included); past them a puzzle's answer is `unknown` (`memory`).
    #[arg(long, default_value_t = DEFAULT_MEMORY_MB, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: u64,
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    let names: Vec<&str> = Encoding::ALL.iter().map(|e| e.name()).collect();
    let found = Encoding::ALL.into_iter().find(|e| e.name() == s);
    found.ok_or_else(|| format!("expected one of {}, found {s:?}", names.join(", ")))
}

fn parse_propagation(s: &str) -> Result<Rules, String> {
    let names: Vec<&str> = Rules::ALL.iter().map(|r| r.name()).collect();
    let found = Rules::ALL.into_iter().find(|r| r.name() == s);
    found.ok_or_else(|| format!("expected one of {}, found {s:?}", names.join(", ")))
}

fn parse_sat_solver(s: &str) -> Result<SatSolver, String> {
    let names: Vec<String> = SatSolver::ALL.iter().map(|e| e.name().to_lowercase()).collect();
    let found = SatSolver::ALL.into_iter().find(|e| e.name().to_lowercase() == s);
    found.ok_or_else(|| format!("expected one of {}, found {s:?}", names.join(", ")))
}

pub fn parse_seconds(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t > 0.0 && *t < 1e9)
        .ok_or_else(|| format!("expected a positive number of seconds, found {s:?}"))
}

impl SolverArgs {
    /// The limits of a search starting now.
    pub fn limits(&self) -> Limits {
        let base = Limits::solutions(if self.first { 1 } else { 2 });
        Limits {
            max_nodes: Some(self.max_nodes),
            deadline: Some(Instant::now() + Duration::from_secs_f64(self.timeout)),
            cube_conflicts: self.cube_conflicts,
            sat_encoding: self.sat_formula,
            sat_solver: self.sat_solver,
            max_memory: Some(hold_memory(self.memory)),
            ..base
        }
    }
}

/// Every puzzle of every file, with its name (`FILE#N` in a tournament
/// set), in order.
pub fn read_all(paths: &[PathBuf]) -> Result<Vec<(String, Puzzle)>, String> {
    let mut out = vec![];
    for path in paths {
        out.extend(read_puzzles(path).map_err(|e| e.to_string())?);
    }
    Ok(out)
}

/// `job` on every puzzle (its place in the set, name and puzzle), on `threads` workers (every core by default);
/// the results in puzzle order whatever the thread count. A bar on stderr
/// shows progress once the set has taken a second.
pub fn run_all<P: Sync, R: Send>(
    puzzles: &[(String, P)],
    threads: Option<usize>,
    job: impl Fn(usize, &str, &P) -> R + Sync,
) -> Result<Vec<R>, String> {
    let started = Instant::now();
    let bar = ProgressBar::with_draw_target(Some(puzzles.len() as u64), ProgressDrawTarget::hidden()).with_style(
        ProgressStyle::with_template("{pos}/{len} puzzles {wide_bar} {elapsed}").map_err(|e| e.to_string())?,
    );
    let (shown, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let work = || {
        puzzles
            .par_iter()
            .enumerate()
            .map(|(i, (name, puzzle))| {
                let r = job(i, name, puzzle);
                if started.elapsed() > Duration::from_secs(1) && shown.swap(1, Ordering::Relaxed) == 0 {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                }
                bar.inc(1);
                done.fetch_add(1, Ordering::Relaxed);
                r
            })
            .collect::<Vec<R>>()
    };
    // without a terminal (a log, a pipe) the bar is never drawn: a line every few seconds instead
    let plain = !std::io::stderr().is_terminal();
    let say = |t: Duration| {
        plain.then(|| {
            format!("{} of {} puzzles done, {:.0} s", done.load(Ordering::Relaxed), puzzles.len(), t.as_secs_f64())
        })
    };
    let out = match threads {
        None => ticking(say, work),
        Some(0) => return Err("--threads must be at least 1".into()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| e.to_string())?;
            ticking(say, || pool.install(work))
        }
    };
    bar.finish_and_clear();
    Ok(out)
}
