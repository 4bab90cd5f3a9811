//! `witness gen|solve` and `mine witness`: Witness puzzle sets, A* with a
//! rule set and specification mining (`witness bench` is
//! [`super::witness_bench`], `learn witness` [`super::witness_learn`]).
//!
//! A rule set is used in search as "local constraint checking or some rule
//! fires" (Stevens §5.2; [`RuleSetPredicate`]); without `--rules` the
//! predicate is local constraint checking alone (`rules/witness/baseline.rules`).

use super::{check_output, write_output, CmdResult};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use stratsynth::domains::witness::formats::puzzle::{puzzles_to_ron, read_puzzles};
use stratsynth::domains::witness::make::generate::{Algorithm, Generator, GeneratorConfig, SizeRange};
use stratsynth::domains::witness::make::generate_kinds::Kinds;
use stratsynth::domains::witness::model::grid::{size_limit, MAX_SIDE};
use stratsynth::domains::witness::rules::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::search::astar::{astar, format_outcome, Mode, Outcome, SearchConfig};
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::witness::synthesis::mine::{mine_observed, PuzzleMined, Scope};
use stratsynth::domains::witness::synthesis::specs::write_specs;
use stratsynth::domains::witness::{Path, Puzzle};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::report::ticking::ticking;
use stratsynth::rule_files::read_sound_rules;
use stratsynth::stop::Stop;

/// The predicate of a Witness rule file (none: local constraint checking),
/// refused if the brute-force check finds a rule unsound.
pub(crate) fn predicate(rules: Option<&FsPath>) -> Result<RuleSetPredicate, String> {
    let (domain, rules) = match rules {
        None => (Witness::new(), vec![]),
        Some(path) => read_sound_rules(path)?,
    };
    Ok(predicate_of(&domain, rules))
}

/// The predicate of `rules` of `domain`.
pub(crate) fn predicate_of(domain: &Witness, rules: Vec<Rule>) -> RuleSetPredicate {
    RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules)
}

/// A size range argument `WxH..WxH` of option `flag`, within the size limit.
pub(crate) fn sizes(flag: &str, text: &str) -> Result<SizeRange, String> {
    // every side beyond the limit gets the same message, however large
    let sides = text.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty());
    if sides.clone().any(|n| n.parse::<usize>().map_or(true, |n| n > MAX_SIDE)) {
        return Err(format!("{flag} {text}: {}", size_limit()));
    }
    text.parse::<SizeRange>().map_err(|e| format!("{flag}: {e}"))
}

/// A progress bar of `len` steps on standard error (drawn only on a terminal).
fn bar(len: usize, template: &str) -> ProgressBar {
    ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr())
        .with_style(ProgressStyle::with_template(template).expect("a valid template"))
}

/// `count` puzzles of a generator seeded with `seed`, with a progress bar
/// (or, when standard error is not a terminal, a line every few seconds):
/// a large puzzle's solvability check can take seconds.
fn generate_shown(config: &GeneratorConfig, seed: u64, count: usize) -> Result<Vec<Puzzle>, String> {
    let bar = bar(count, "generating {bar:30} {pos}/{len} puzzles, {elapsed_precise} elapsed");
    let made = AtomicUsize::new(0);
    let say = |t: Duration| {
        bar.is_hidden().then(|| {
            format!("generating puzzles: {} of {count} made, {:.0} s", made.load(Ordering::Relaxed), t.as_secs_f64())
        })
    };
    let mut generator = Generator::new(config.clone(), seed);
    let puzzles = ticking(say, || {
        (0..count)
            .map(|_| {
                generator.next_puzzle().inspect(|_| {
                    bar.inc(1);
                    made.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect::<Result<Vec<_>, _>>()
    });
    bar.finish_and_clear();
    puzzles.map_err(|e| e.to_string())
}

/// Reads a puzzle file (the reader refuses grids beyond the size limit).
pub(crate) fn puzzles(path: &FsPath) -> Result<Vec<Puzzle>, String> {
    read_puzzles(path).map_err(|e| e.to_string())
}

/// Options of `witness gen`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct GenArgs {
    /// Algorithm 3 (random triangles until solvable) or 4 (triangles read off a random path).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=4), required_unless_present = "constraints", conflicts_with = "constraints")]
    pub alg: Option<u8>,
    /// Instead of --alg: the kinds of constraint to place, any of
    /// `triangles,colours,stars,dots,broken`, consistent with a hidden
    /// random path (so every puzzle is solvable).
    #[arg(long)]
    pub constraints: Option<String>,
    /// Colours of separation squares and stars to draw from (with --constraints; default 2).
    #[arg(long, requires = "constraints", value_parser = clap::value_parser!(u8).range(1..))]
    pub colours: Option<u8>,
    /// Sizes `WxH..WxH` (width and height drawn uniformly).
    #[arg(long)]
    pub sizes: String,
    /// Number of puzzles.
    #[arg(long)]
    pub count: usize,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output `.ron` puzzle file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `witness gen --alg 3|4 | --constraints K [--colours N] --sizes R --count N --seed S -o P.ron`.
pub fn gen(args: &GenArgs) -> CmdResult {
    let (size_range, count, seed, output) = (args.sizes.as_str(), args.count, args.seed, args.output.as_path());
    if args.colours.is_some() && args.constraints.is_none() {
        return Err("--colours needs --constraints (the colours of separation squares and stars)".into());
    }
    let (algorithm, flags, what) =
        match (args.alg, &args.constraints) {
            (_, Some(text)) => {
                let colours = args.colours.unwrap_or(2);
                let kinds = Kinds::parse(text, colours).map_err(|e| format!("--constraints {text}: {e}"))?;
                let names = kinds.names();
                let flags = format!("--constraints {names} --colours {colours}");
                (Algorithm::Kinds(kinds), flags, format!("{names}, {colours} colours"))
            }
            (Some(3), None) => (Algorithm::RandomTriangles, "--alg 3".to_string(), "Algorithm 3".to_string()),
            (Some(4), None) => (Algorithm::FromPath, "--alg 4".to_string(), "Algorithm 4".to_string()),
            _ => return Err(
                "expected --alg 3 (random triangles), --alg 4 (triangles from a random path) or --constraints KINDS"
                    .into(),
            ),
        };
    check_output(output, &[])?;
    let config = GeneratorConfig::new(sizes("--sizes", size_range)?, algorithm);
    let ps = generate_shown(&config, seed, count)?;
    let header = format!(
        "// stratsynth witness gen {flags} --sizes {size_range} --count {count} --seed {seed} -o {}\n",
        output.display()
    );
    write_output(output, &(header + &puzzles_to_ron(&ps)))?;
    println!("wrote {} puzzles ({what}, sizes {size_range}, seed {seed}) to {}", ps.len(), output.display());
    Ok(ExitCode::SUCCESS)
}

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
    let past = || deadline.is_some_and(|d| Instant::now() >= d);
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

/// Options of `mine witness`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct MineArgs {
    /// Puzzle sizes `WxH..WxH` (Algorithm 3).
    #[arg(long, default_value = "2x2..4x4")]
    pub sizes: String,
    /// Number of training puzzles.
    #[arg(long, default_value_t = 500)]
    pub count: usize,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Witness rules whose prunes are not specifications (default: local constraint checking only).
    #[arg(long)]
    pub rules: Option<PathBuf>,
    /// Every incompletable path, not only those whose parent is completable.
    #[arg(long)]
    pub all: bool,
    /// Output specification file (`.ron`).
    #[arg(short, long)]
    pub output: PathBuf,
}

/// What to say on standard error about mining puzzle `m` of `count`: its
/// progress, or that the path budget stopped it (nothing when it ends
/// within the budget).
pub(crate) fn mining_line(m: &PuzzleMined, count: usize) -> Option<String> {
    let which = format!("mining puzzle {} of {count}", m.index + 1);
    match (m.finished, m.stopped) {
        (false, _) => Some(format!("{which}: {} paths so far, {} specifications", m.paths, m.found)),
        (true, true) => Some(format!(
            "{which}: stopped after {} paths (the path budget); its specifications so far are kept",
            m.paths
        )),
        (true, false) => None,
    }
}

/// `mine witness --sizes R --count N --seed S [--rules R] [--all] -o F`.
pub fn mine_specs(args: &MineArgs) -> CmdResult {
    let (size_range, count, seed, rules, all, output) =
        (args.sizes.as_str(), args.count, args.seed, args.rules.as_deref(), args.all, args.output.as_path());
    check_output(output, &rules.into_iter().collect::<Vec<_>>())?;
    let config = GeneratorConfig::new(sizes("--sizes", size_range)?, Algorithm::RandomTriangles);
    let ps = generate_shown(&config, seed, count)?;
    let pred = predicate(rules)?;
    let flags = |p: &Puzzle, path: &Path| pred.flags(p, path);
    let bar = bar(ps.len(), "mining {bar:30} {pos}/{len} puzzles, {msg} specifications, {elapsed_precise} elapsed");
    let specs = mine_observed(&ps, &flags, if all { Scope::All } else { Scope::Frontier }, &mut |m| {
        if let Some(line) = mining_line(&m, ps.len()) {
            if bar.is_hidden() {
                eprintln!("{line}");
            } else {
                bar.println(line);
            }
        }
        bar.set_message(m.found.to_string());
        if m.finished {
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    let summary = format!(
        "{} specifications ({} incompletable paths, one per view, not pruned by local constraint checking{}) from {count} Algorithm-3 puzzles {size_range}, seed {seed}",
        specs.len(),
        if all { "all" } else { "frontier" },
        rules.map_or(String::new(), |r| format!(" or {}", r.display())),
    );
    let command = format!(
        "stratsynth mine witness --sizes {size_range} --count {count} --seed {seed}{}{} -o {}",
        rules.map_or(String::new(), |r| format!(" --rules {}", r.display())),
        if all { " --all" } else { "" },
        output.display()
    );
    write_specs(output, &specs, &[command, summary.clone()]).map_err(|e| e.to_string())?;
    println!("{summary}: {}", output.display());
    Ok(ExitCode::SUCCESS)
}
