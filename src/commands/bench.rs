//! `bench`: the nonogram foundation's figures — maximal transitions per
//! second on random 30-cell lines, and the time of `cover` for a rule set
//! on a test set — measured in one run; and (`--synth`) the synthesis
//! engine's figures on a fixed list of specifications; (`--generate`)
//! `generate nonogram`'s; (`--boards`) the complete solver's, beside
//! nonogrid, or its SAT fallback's encodings and solvers (`--sat-compare`), or with the
//! difficulty measure (`--difficulty`).

use super::CmdResult;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stratsynth::domains::nonogram::formats::lines::{read_lines_file, read_test_set, Transition};
use stratsynth::domains::nonogram::line::model::{hints_of, Cell, Line};
use stratsynth::domains::nonogram::line::solver::LineSolver;
use stratsynth::domains::nonogram::rules::apply::ApplyOptions;
use stratsynth::domains::nonogram::rules::coverage::Coverage;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::nonogram::synthesis::spec::specs;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::specialise::specialisations;
use stratsynth::files::bundled;
use stratsynth::rule_files::read_nonogram_rules;
use stratsynth::synth::{Config, Engine, Stats};

/// Random valid lines of `len` cells: a random solution, its hints, and a
/// random subset of its cells revealed.
fn random_lines(count: usize, len: usize, seed: u64) -> Vec<Line> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let solution: Vec<bool> = (0..len).map(|_| rng.gen_bool(0.55)).collect();
            let known = rng.gen_range(0.0..0.6);
            let cells = solution
                .iter()
                .map(|&v| if rng.gen_bool(known) { Cell::from_bool(v) } else { Cell::Unknown })
                .collect();
            Line::new(hints_of(&solution), cells)
        })
        .collect()
}

/// Options of `bench`: the line solver and `cover` by default, or
/// synthesis (`--synth`), or the complete board solver (`--boards`).
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct BenchArgs {
    /// The `.rules` file timed with `cover`.
    #[arg(long, default_value = "rules/nonogram/control.rules")]
    pub rules: PathBuf,
    /// The `.lines` test set timed with `cover`.
    #[arg(long, default_value = "specs/nonogram/traces.lines")]
    pub lines: PathBuf,
    /// Number of random 30-cell lines solved.
    #[arg(long, default_value_t = 1_000_000)]
    pub count: usize,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Instead, time synthesis on the specifications of this `.lines` file.
    #[arg(long)]
    pub synth: Option<PathBuf>,
    /// With `--synth`: run this other stratsynth binary's `bench --synth` on the same file at the same time (side by side, each synthesising one specification at a time) and compare.
    #[arg(long, requires = "synth")]
    pub against: Option<PathBuf>,
    /// Instead, time the complete board solver on these puzzles (`.non`, webpbn XML, or tournament sets).
    #[arg(long, num_args = 1.., value_name = "PUZZLES", conflicts_with = "synth")]
    pub boards: Vec<PathBuf>,
    /// With `--boards`: also run this nonogrid binary on each puzzle (one process each) and compare.
    #[arg(long, requires = "boards")]
    pub nonogrid: Option<PathBuf>,
    /// With `--nonogrid`: seconds one nonogrid process may take before it is killed and its puzzle counted as unanswered, its CPU time up to then included (default: `--timeout`).
    #[arg(long, requires = "nonogrid", value_parser = super::puzzle_set::parse_seconds)]
    pub nonogrid_timeout: Option<f64>,
    /// With `--boards`: the tournament solutions file of the set, to check every answer against.
    #[arg(long, requires = "boards")]
    pub solutions: Option<PathBuf>,
    /// With `--boards`: instead, solve each puzzle with each encoding of the SAT fallback's formula (regular, block starts) and each SAT solver (CaDiCaL, Z3), and compare the four pairs' CPU time on the same boards.
    #[arg(long, requires = "boards", conflicts_with_all = ["nonogrid", "solutions", "difficulty"])]
    pub sat_compare: bool,
    /// With `--boards`: instead, time `analyze`'s difficulty measure beside the solve on each puzzle (CPU; the worst ratios, and those above 10x among puzzles solved in under a second).
    #[arg(long, requires = "boards", conflicts_with_all = ["nonogrid", "solutions"])]
    pub difficulty: bool,
    /// Instead, time `generate nonogram`: random 15x15 line-player puzzles per second, and the repair of pictures.
    #[arg(long, conflicts_with_all = ["synth", "boards"])]
    pub generate: bool,
    /// With `--generate`: random puzzles to make.
    #[arg(long, default_value_t = 100, requires = "generate")]
    pub puzzles: usize,
    /// With `--generate`: a picture to repair (repeatable; default: two bundled 25x25 pictures).
    #[arg(long = "picture", requires = "generate")]
    pub pictures: Vec<PathBuf>,
    /// With `--boards`: the complete solver's options (`--threads` also runs the nonogrid processes, and `--timeout` bounds each unless `--nonogrid-timeout` is given).
    #[command(flatten)]
    pub solver: super::puzzle_set::SolverArgs,
}

/// `bench`, `bench --synth SPECS`, `bench --boards PUZZLES...` or `bench --generate`.
pub fn dispatch(args: &BenchArgs) -> CmdResult {
    match &args.synth {
        _ if args.generate => super::bench_generate::run(args.puzzles, args.seed, &args.pictures),
        _ if args.sat_compare => super::bench_sat::run(&args.boards, &args.solver),
        _ if args.difficulty => super::bench_difficulty::run(&args.boards, &args.solver),
        _ if !args.boards.is_empty() && super::flow::takes(&args.boards, &args.solver)? => {
            if args.nonogrid.is_some() || args.solutions.is_some() {
                return Err("--nonogrid and --solutions compare nonogram answers, not Flow ones".into());
            }
            super::flow::bench(&args.boards, &args.solver)
        }
        _ if !args.boards.is_empty() => {
            let nonogrid = args
                .nonogrid
                .as_deref()
                .map(|bin| (bin, Duration::from_secs_f64(args.nonogrid_timeout.unwrap_or(args.solver.timeout))));
            super::bench_boards::run(&args.boards, nonogrid, args.solutions.as_deref(), &args.solver)
        }
        Some(specs) => synth(specs, args.against.as_deref()),
        None => run(&args.rules, &args.lines, args.count, args.seed),
    }
}

/// `bench --rules R --lines T`.
fn run(rules: &Path, lines: &Path, count: usize, seed: u64) -> CmdResult {
    let (domain, rules) = read_nonogram_rules(&bundled(rules)?)?;
    let lines = bundled(lines)?;
    let tests = read_test_set(&lines, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())?;
    let sample = random_lines(count, 30, seed);
    let mut solver = LineSolver::new();
    let mut out = Vec::with_capacity(30);
    let started = Instant::now();
    let mut productive = 0usize;
    for line in &sample {
        if solver.solve_into(&line.hints, &line.cells, &mut out) && out != line.cells {
            productive += 1;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "line solver: {count} random 30-cell lines in {:.3} s = {:.0} maximal transitions/s (one thread; {productive} productive)",
        secs,
        count as f64 / secs
    );

    let coverage = Coverage::new(&domain, &rules, &tests, ApplyOptions::default());
    let all: Vec<usize> = (0..rules.len()).collect();
    let started = Instant::now();
    let covered = coverage.covered(&all).map_err(|e| e.to_string())?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "cover: {} rules on {} transitions in {:.3} s ({} of {} cells; {} threads)",
        rules.len(),
        tests.len(),
        secs,
        covered,
        coverage.max_cells(),
        rayon::current_num_threads()
    );
    scale(&domain, &rules, &tests)?;
    Ok(ExitCode::SUCCESS)
}

/// Coverage at scale: `cover` (every rule's alone and marginal figures)
/// and the greedy top 10 of 1,393 rules (specialisations of `rules` and
/// the committed learned rules) on the first 2,805 test transitions.
fn scale(domain: &Nonogram, rules: &[Rule], tests: &[Transition]) -> Result<(), String> {
    const RULES: usize = 1393;
    const TRANSITIONS: usize = 2805;
    let learned = Path::new("rules/nonogram/learned.rules");
    let mut base = rules.to_vec();
    if learned.exists() {
        base.extend(read_nonogram_rules(learned)?.1);
    }
    let big = specialisations(&base, RULES);
    let tests = &tests[..tests.len().min(TRANSITIONS)];
    let coverage = Coverage::new(domain, &big, tests, ApplyOptions::default());
    let started = Instant::now();
    let report = coverage.report().map_err(|e| e.to_string())?;
    let report_secs = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let picks = coverage
        .top(stratsynth::select::Selection::top(10), |i| cost(&big[i], domain.schema()))
        .map_err(|e| e.to_string())?;
    let top_secs = started.elapsed().as_secs_f64();
    println!(
        "cover at scale: {} rules (specialisations of {} rules) on {} transitions: every rule's figures in {report_secs:.3} s, \
         greedy top {} in {top_secs:.3} s ({} of {} cells by all, {} by the top; {} threads)",
        big.len(),
        base.len(),
        tests.len(),
        picks.len(),
        report.covered,
        report.max_cells,
        picks.last().map_or(0, |p| p.score),
        rayon::current_num_threads()
    );
    Ok(())
}

/// `bench --synth SPECS`: synthesises every specification of the file in
/// order (as `synth` does, one at a time) and reports the median and total
/// time per specification, Z3 calls per specification, and the share of
/// candidates rejected before Z3. With `against`, that binary's `bench
/// --synth` runs on the same file at the same time, and both totals and
/// their ratio are printed.
fn synth(path: &Path, against: Option<&Path>) -> CmdResult {
    let domain = Nonogram::new();
    let transitions =
        read_lines_file(path, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())?;
    let mut all = vec![];
    for t in &transitions {
        all.extend(specs(t).ok_or_else(|| format!("{}: not a valid line: {}", path.display(), t.start))?);
    }
    let other = match against {
        Some(bin) => Some(
            std::process::Command::new(bin)
                .args(["bench", "--synth"])
                .arg(path)
                .stdout(std::process::Stdio::piped())
                .spawn()
                .map_err(|e| format!("--against {}: {e}", bin.display()))?,
        ),
        None => None,
    };
    let started = Instant::now();
    let engine = Engine::new(&domain, Config::new(domain.schema()));
    let setup = started.elapsed();
    let mut times: Vec<Duration> = vec![];
    let mut stats = Stats::default();
    let (mut rules, mut with_rules) = (0usize, 0usize);
    for spec in &all {
        let outcome = engine.synthesize(spec);
        engine.publish(&[&outcome]);
        times.push(outcome.time);
        stats.add(&outcome.stats);
        rules += outcome.rules.len();
        with_rules += usize::from(!outcome.rules.is_empty());
    }
    let total: Duration = times.iter().sum();
    times.sort();
    let n = all.len().max(1);
    println!(
        "synth: {} specifications from {} in {:.1} s (+ {:.2} s to build the table); median {:.2} s, max {:.2} s per specification",
        all.len(),
        path.display(),
        total.as_secs_f64(),
        setup.as_secs_f64(),
        times.get(times.len() / 2).map_or(0.0, |d| d.as_secs_f64()),
        times.last().map_or(0.0, |d| d.as_secs_f64()),
    );
    println!(
        "synth: {rules} rules for {with_rules} specifications; {:.1} Z3 calls per specification; {} candidates, {:.1}% rejected before Z3",
        stats.z3_calls as f64 / n as f64,
        stats.candidates,
        100.0 * (1.0 - stats.z3_soundness as f64 / stats.candidates.max(1) as f64)
    );
    println!(
        "synth: Z3 {:.1} s in all, {:.1} s of it in {} full-bound proofs; {} rules refuted and {} lost to the resource limit at the full bound, {} dominated",
        stats.z3_time.as_secs_f64(),
        stats.z3_full_time.as_secs_f64(),
        stats.z3_full,
        stats.rejected_at_full_bound,
        stats.lost_at_full_bound,
        stats.dominated
    );
    if let (Some(bin), Some(child)) = (against, other) {
        let out = child.wait_with_output().map_err(|e| format!("--against {}: {e}", bin.display()))?;
        let text = String::from_utf8_lossy(&out.stdout);
        for line in text.lines() {
            println!("{}: {line}", bin.display());
        }
        let theirs = text
            .lines()
            .find_map(|l| l.split_once(" in ")?.1.split_once(" s")?.0.parse::<f64>().ok())
            .filter(|_| out.status.success())
            .ok_or_else(|| {
                format!("--against {}: no `synth: ... in T s` line in its output ({})", bin.display(), out.status)
            })?;
        println!(
            "side by side (same time, one specification at a time each): {:.1} s here, {theirs:.1} s there: {:.2}x",
            total.as_secs_f64(),
            theirs / total.as_secs_f64().max(1e-9)
        );
    }
    Ok(ExitCode::SUCCESS)
}
