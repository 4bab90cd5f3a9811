//! `witness gen|solve|bench` and `mine witness`: Witness puzzle sets,
//! A* with a rule set, the speed-up of a rule set over local constraint
//! checking, and specification mining.
//!
//! A rule set is used in search as "local constraint checking or some rule
//! fires" (Stevens §5.2; [`RuleSetPredicate`]); without `--rules` the
//! predicate is local constraint checking alone (`rules/witness/baseline.rules`).

use super::{check_output, read_rules_in, write_output, CmdResult};
use stratsynth::dsl::schema::Schema;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use stratsynth::domains::witness::domain::Witness;
use stratsynth::domains::witness::generate::{generate, Algorithm, GeneratorConfig, SizeRange};
use stratsynth::domains::witness::mine::{mine, Scope};
use stratsynth::domains::witness::oracle::Oracle;
use stratsynth::domains::witness::predicates::baseline;
use stratsynth::domains::witness::puzzle::{puzzles_to_ron, read_puzzles};
use stratsynth::domains::witness::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::search::{astar, format_solution, Mode, SearchConfig, SearchReport};
use stratsynth::domains::witness::specs::write_specs;
use stratsynth::domains::witness::{Path, Puzzle};
use stratsynth::domains::Domain;

/// The predicate of a Witness rule file (none: local constraint checking).
fn predicate(rules: Option<&FsPath>) -> Result<RuleSetPredicate, String> {
    let (domain, rules) = match rules {
        None => (Witness::new(), vec![]),
        Some(path) => {
            let (schema, rules) = read_rules_in(path, Schema::witness())?;
            (Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?, rules)
        }
    };
    Ok(RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules))
}

/// A size range argument `WxH..WxH`, within the schema's limit.
fn sizes(text: &str) -> Result<SizeRange, String> {
    let limit = Witness::new().schema().file.limits.max_state as usize;
    // every side beyond the limit gets the same message, however large
    let sides = text.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty());
    if sides.clone().any(|n| n.parse::<usize>().map_or(true, |n| n > limit)) {
        return Err(format!("--sizes {text}: the tool handles grids up to {limit}x{limit} (dsl/witness.ron limits.max_state)"));
    }
    text.parse::<SizeRange>().map_err(|e| format!("--sizes: {e}"))
}

/// Reads a puzzle file, refusing grids larger than the schema's limit.
fn puzzles(path: &FsPath) -> Result<Vec<Puzzle>, String> {
    let ps = read_puzzles(path).map_err(|e| e.to_string())?;
    let limit = Witness::new().schema().file.limits.max_state as usize;
    if let Some((i, p)) = ps.iter().enumerate().find(|(_, p)| p.width() > limit || p.height() > limit) {
        return Err(format!(
            "{}: puzzle #{i} is {}x{}; the tool searches grids up to {limit}x{limit} (dsl/witness.ron limits.max_state)",
            path.display(),
            p.width(),
            p.height()
        ));
    }
    Ok(ps)
}

/// Options of `witness gen`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct GenArgs {
    /// Algorithm 3 (random triangles until solvable) or 4 (triangles read off a random path).
    #[arg(long, value_parser = clap::value_parser!(u8).range(3..=4))]
    pub alg: u8,
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

/// `witness gen --alg 3|4 --sizes R --count N --seed S -o P.ron`.
pub fn gen(args: &GenArgs) -> CmdResult {
    let (alg, size_range, count, seed, output) = (args.alg, args.sizes.as_str(), args.count, args.seed, args.output.as_path());
    let algorithm = match alg {
        3 => Algorithm::RandomTriangles,
        4 => Algorithm::FromPath,
        _ => return Err(format!("--alg {alg}: expected 3 (random triangles) or 4 (triangles from a random path)")),
    };
    check_output(output, &[])?;
    let config = GeneratorConfig::new(sizes(size_range)?, algorithm);
    let ps = generate(&config, seed, count).map_err(|e| e.to_string())?;
    let header = format!(
        "// stratsynth witness gen --alg {alg} --sizes {size_range} --count {count} --seed {seed} -o {}\n",
        output.display()
    );
    write_output(output, &(header + &puzzles_to_ron(&ps)))?;
    println!("wrote {} puzzles (Algorithm {alg}, sizes {size_range}, seed {seed}) to {}", ps.len(), output.display());
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
    /// Output: one line per puzzle, the solution `x,y x,y ...` or `none`.
    #[arg(long)]
    pub solutions_out: PathBuf,
}

/// `witness solve --puzzles P [--rules R] [--sort] [--budget-ms B] --solutions-out S`.
pub fn solve(args: &SolveArgs) -> CmdResult {
    let (puzzles_path, rules, sort, budget_ms, out) = (args.puzzles.as_path(), args.rules.as_deref(), args.sort, args.budget_ms, args.solutions_out.as_path());
    check_output(out, &[Some(puzzles_path), rules].into_iter().flatten().collect::<Vec<_>>())?;
    let ps = puzzles(puzzles_path)?;
    let pred = predicate(rules)?;
    let mut config = SearchConfig::default().with_mode(if sort { Mode::Sort } else { Mode::Prune });
    if let Some(ms) = budget_ms {
        config = config.with_time_limit(Duration::from_millis(ms));
    }
    let flags = |p: &Puzzle, path: &Path| pred.flags(p, path);
    let (mut solved, mut expansions, mut time) = (0usize, 0u64, Duration::ZERO);
    let mut lines = String::new();
    for p in &ps {
        pred.forget();
        let r = astar(p, &flags, &config);
        solved += usize::from(r.solution().is_some());
        expansions += r.expansions;
        time += r.elapsed;
        lines.push_str(&format_solution(r.solution()));
        lines.push('\n');
    }
    write_output(out, &lines)?;
    println!(
        "solved {solved} of {} puzzles ({}, {} rules + local constraint checking): {expansions} expansions ({:.1} per puzzle), {:.3} s search time; solutions in {}",
        ps.len(),
        if sort { "sort" } else { "prune" },
        pred.rules().len(),
        expansions as f64 / ps.len().max(1) as f64,
        time.as_secs_f64(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Sums over a group of puzzles.
#[derive(Clone, Copy, Default)]
struct Totals {
    puzzles: usize,
    baseline_expansions: u64,
    rules_expansions: u64,
    baseline_time: Duration,
    rules_time: Duration,
    solved_baseline: usize,
    solved_rules: usize,
    /// Puzzles the baseline solved and the rules did not: solutions the
    /// rules pruned away (without a time budget, proof they are unsound).
    lost: usize,
    /// Incompletable paths the baseline search kept on its open list.
    trace_incompletable: u64,
    /// Of those, the ones the rules prune.
    trace_pruned: u64,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.puzzles += o.puzzles;
        self.baseline_expansions += o.baseline_expansions;
        self.rules_expansions += o.rules_expansions;
        self.baseline_time += o.baseline_time;
        self.rules_time += o.rules_time;
        self.solved_baseline += o.solved_baseline;
        self.solved_rules += o.solved_rules;
        self.lost += o.lost;
        self.trace_incompletable += o.trace_incompletable;
        self.trace_pruned += o.trace_pruned;
    }

    /// Equation 2.2: total baseline expansions over total rule-set expansions.
    fn expansion_speedup(&self) -> f64 {
        self.baseline_expansions as f64 / self.rules_expansions.max(1) as f64
    }

    /// Equation 2.1: total baseline time over total rule-set time.
    fn time_speedup(&self) -> f64 {
        self.baseline_time.as_secs_f64() / self.rules_time.as_secs_f64().max(1e-9)
    }

    fn trace_coverage(&self) -> f64 {
        if self.trace_incompletable == 0 {
            0.0
        } else {
            self.trace_pruned as f64 / self.trace_incompletable as f64
        }
    }

    fn json(&self, size: Option<&str>) -> serde_json::Value {
        let n = self.puzzles.max(1) as f64;
        let mut v = serde_json::json!({
            "puzzles": self.puzzles,
            "baseline_expansions": self.baseline_expansions,
            "rules_expansions": self.rules_expansions,
            "baseline_expansions_mean": self.baseline_expansions as f64 / n,
            "rules_expansions_mean": self.rules_expansions as f64 / n,
            "baseline_ms": self.baseline_time.as_secs_f64() * 1e3,
            "rules_ms": self.rules_time.as_secs_f64() * 1e3,
            "expansion_speedup": self.expansion_speedup(),
            "time_speedup": self.time_speedup(),
            "solved_baseline": self.solved_baseline,
            "solved_rules": self.solved_rules,
            "lost_solutions": self.lost,
            "trace_incompletable": self.trace_incompletable,
            "trace_pruned": self.trace_pruned,
            "trace_coverage": self.trace_coverage(),
        });
        if let Some(s) = size {
            v["size"] = serde_json::Value::from(s);
        }
        v
    }
}

/// One puzzle: baseline and rule-set searches, and (with `trace`) the
/// baseline search again, counting the incompletable paths it keeps and
/// how many of them the rules prune.
fn measure(p: &Puzzle, pred: &RuleSetPredicate, config: &SearchConfig, trace: bool) -> Totals {
    let flags = |pz: &Puzzle, path: &Path| pred.flags(pz, path);
    let b: SearchReport = astar(p, &baseline, config);
    pred.forget();
    let r: SearchReport = astar(p, &flags, config);
    let mut t = Totals {
        puzzles: 1,
        baseline_expansions: b.expansions,
        rules_expansions: r.expansions,
        baseline_time: b.elapsed,
        rules_time: r.elapsed,
        solved_baseline: usize::from(b.solution().is_some()),
        solved_rules: usize::from(r.solution().is_some()),
        lost: usize::from(b.solution().is_some() && r.solution().is_none()),
        ..Totals::default()
    };
    if trace {
        let oracle = RefCell::new(Oracle::new(p));
        let (incompletable, pruned) = (Cell::new(0u64), Cell::new(0u64));
        let traced = |pz: &Puzzle, path: &Path| {
            let flagged = baseline(pz, path);
            if !flagged && !oracle.borrow_mut().completable(path) {
                incompletable.set(incompletable.get() + 1);
                if pred.rules_fire(pz, path) {
                    pruned.set(pruned.get() + 1);
                }
            }
            flagged
        };
        astar(p, &traced, config);
        t.trace_incompletable = incompletable.get();
        t.trace_pruned = pruned.get();
    }
    t
}

/// Per-size totals of `ps`, sizes in (width, height) order.
fn by_size(ps: &[Puzzle], pred: &RuleSetPredicate, config: &SearchConfig, trace: bool) -> BTreeMap<(usize, usize), Totals> {
    let mut out: BTreeMap<(usize, usize), Totals> = BTreeMap::new();
    for p in ps {
        out.entry((p.width(), p.height())).or_default().add(&measure(p, pred, config, trace));
    }
    out
}

/// Options of `witness bench`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct BenchArgs {
    /// The `.ron` puzzle file.
    #[arg(long)]
    pub puzzles: PathBuf,
    /// Witness rules (used with local constraint checking).
    #[arg(long)]
    pub rules: PathBuf,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Large puzzles: count how many each predicate solves within the budget.
    #[arg(long)]
    pub large: Option<PathBuf>,
    /// Time budget per puzzle and search on the `--large` puzzles, in milliseconds.
    #[arg(long, requires = "large", default_value_t = 2000)]
    pub budget_ms: u64,
}

/// `witness bench --puzzles P --rules R [--json] [--large L --budget-ms B]`.
pub fn bench(args: &BenchArgs) -> CmdResult {
    let (puzzles_path, rules, json, large, budget_ms) = (args.puzzles.as_path(), args.rules.as_path(), args.json, args.large.as_deref(), args.budget_ms);
    let ps = puzzles(puzzles_path)?;
    let pred = predicate(Some(rules))?;
    let large_puzzles = large.map(puzzles).transpose()?;
    let sizes = by_size(&ps, &pred, &SearchConfig::default(), true);
    let mut all = Totals::default();
    sizes.values().for_each(|t| all.add(t));
    let budget = SearchConfig::default().with_time_limit(Duration::from_millis(budget_ms));
    let large_sizes = large_puzzles.map(|lp| by_size(&lp, &pred, &budget, false));
    let name = |&(w, h): &(usize, usize)| format!("{w}x{h}");
    // without a time budget, a solution the baseline finds and the rules
    // miss was pruned away: the rules are unsound and the figures void
    let verdict = if all.lost == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) };
    if all.lost > 0 {
        eprintln!(
            "error: the rules LOST SOLUTIONS: they solved {} of {} puzzles, local constraint checking alone {}; {} puzzles lost their solution, so the rules prune completable paths (unsound) and the speed-ups below are meaningless",
            all.solved_rules, all.puzzles, all.solved_baseline, all.lost
        );
    }
    if json {
        let mut v = all.json(None);
        v["rules"] = serde_json::Value::from(rules.display().to_string());
        v["sizes"] = sizes.iter().map(|(s, t)| t.json(Some(&name(s)))).collect();
        v["large"] = match &large_sizes {
            None => serde_json::Value::Null,
            Some(ls) => {
                let mut lall = Totals::default();
                ls.values().for_each(|t| lall.add(t));
                serde_json::json!({
                    "budget_ms": budget_ms,
                    "puzzles": lall.puzzles,
                    "solved_baseline": lall.solved_baseline,
                    "solved_rules": lall.solved_rules,
                    "sizes": ls.iter().map(|(s, t)| serde_json::json!({
                        "size": name(s), "puzzles": t.puzzles, "solved_baseline": t.solved_baseline, "solved_rules": t.solved_rules,
                    })).collect::<Vec<_>>(),
                })
            }
        };
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
        return Ok(verdict);
    }
    println!(
        "{} puzzles from {}; rules {} ({} rules + local constraint checking) vs local constraint checking; A* with pruning",
        all.puzzles,
        puzzles_path.display(),
        rules.display(),
        pred.rules().len()
    );
    println!("size   puzzles  baseline exp  rules exp  exp speedup  baseline ms  rules ms  time speedup  trace coverage");
    let row = |label: &str, t: &Totals| {
        let n = t.puzzles.max(1) as f64;
        println!(
            "{label:<6} {:>7}  {:>12.1}  {:>9.1}  {:>11.2}  {:>11.3}  {:>8.3}  {:>12.2}  {:>14.3}",
            t.puzzles,
            t.baseline_expansions as f64 / n,
            t.rules_expansions as f64 / n,
            t.expansion_speedup(),
            t.baseline_time.as_secs_f64() * 1e3 / n,
            t.rules_time.as_secs_f64() * 1e3 / n,
            t.time_speedup(),
            t.trace_coverage()
        );
    };
    for (s, t) in &sizes {
        row(&name(s), t);
    }
    row("all", &all);
    println!("(exp and ms: means per puzzle; speedups: ratios of sums, Stevens eq. 2.1/2.2; trace coverage: share of the incompletable paths the baseline search keeps that the rules prune)");
    if let Some(ls) = &large_sizes {
        println!("large puzzles, {budget_ms} ms per puzzle and search:");
        println!("size   puzzles  solved baseline  solved rules");
        for (s, t) in ls {
            println!("{:<6} {:>7}  {:>15}  {:>12}", name(s), t.puzzles, t.solved_baseline, t.solved_rules);
        }
    }
    if all.lost > 0 {
        println!("LOST SOLUTIONS: {} of {} puzzles solved with the rules, {} without; the rules are unsound", all.solved_rules, all.puzzles, all.solved_baseline);
    }
    Ok(verdict)
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

/// `mine witness --sizes R --count N --seed S [--rules R] [--all] -o F`.
pub fn mine_specs(args: &MineArgs) -> CmdResult {
    let (size_range, count, seed, rules, all, output) = (args.sizes.as_str(), args.count, args.seed, args.rules.as_deref(), args.all, args.output.as_path());
    check_output(output, &rules.into_iter().collect::<Vec<_>>())?;
    let config = GeneratorConfig::new(sizes(size_range)?, Algorithm::RandomTriangles);
    let ps = generate(&config, seed, count).map_err(|e| e.to_string())?;
    let pred = predicate(rules)?;
    let flags = |p: &Puzzle, path: &Path| pred.flags(p, path);
    let specs = mine(&ps, &flags, if all { Scope::All } else { Scope::Frontier });
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

/// Options of `learn witness`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct LearnArgs {
    /// Sizes of training and filter puzzles (Algorithm 3).
    #[arg(long, default_value = "2x2..4x4")]
    pub sizes: String,
    /// Training puzzles.
    #[arg(long, default_value_t = 40)]
    pub train: usize,
    /// Filter puzzles the selection measures pruning on.
    #[arg(long, default_value_t = 200)]
    pub filter: usize,
    /// Seed of the training puzzles (the filter set uses seed + 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Most rules selected.
    #[arg(short = 'k', default_value_t = 10)]
    pub k: usize,
    /// Most specifications synthesised.
    #[arg(long, default_value_t = 200)]
    pub max_specs: usize,
    /// Output `.rules` file (the journal is `OUTPUT.journal`).
    #[arg(short, long, default_value = "rules/witness/learned.rules")]
    pub output: std::path::PathBuf,
    /// Continue the run recorded in the journal.
    #[arg(long)]
    pub resume: bool,
    /// Z3 resource limit per query (`rlimit`: Z3's own step count, so the
    /// answer does not depend on machine load); a rule whose proof runs
    /// out is dropped, never kept unproven.
    #[arg(long, default_value_t = stratsynth::synth::DEFAULT_RLIMIT, value_parser = clap::value_parser!(u32).range(1..))]
    pub rlimit: u32,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// `learn witness [--sizes R] [--train N] [--filter M] [--seed S] [-k K] [-o OUT] [--resume] ...`.
pub fn learn(args: &LearnArgs) -> CmdResult {
    use stratsynth::domains::witness::learn::{LearnConfig, WitnessLearner};
    use stratsynth::dsl::cost::cost;
    use stratsynth::dsl::print::print_rule;
    use stratsynth::pipeline::{journal_path, learn, versions, LearnOptions};
    let domain = Witness::new();
    let schema = domain.schema();
    if args.train == 0 || args.filter == 0 || args.k == 0 || args.max_specs == 0 {
        return Err("--train, --filter, -k and --max-specs must be at least 1".into());
    }
    let config = LearnConfig { sizes: sizes(&args.sizes)?, train: args.train, filter: args.filter, seed: args.seed, max_specs: args.max_specs };
    let engine = stratsynth::synth::Config::builder(schema).rlimit(args.rlimit).build().map_err(|e| format!("--rlimit: {e}"))?;
    check_output(&args.output, &[])?;
    let output = &args.output;
    let journal = journal_path(output);
    let learner = WitnessLearner::new(&domain, config);
    let options = LearnOptions { config: engine, journal: &journal, resume: args.resume, progressive: true, k: args.k };
    let run = learn(&learner, options).map_err(|e| e.to_string())?;
    let paths = learner.filter_paths();
    let mut text = format!(
        "# Learned Witness pruning rules, each proven sound by Z3 for every puzzle up to {b}x{b}.\n\
         # Made by: {command}\n\
         # options: {options}\n\
         # {versions}\n\
         # {mined}; {synthesised} synthesised, {skipped} skipped as already pruned;\n\
         # {found} rules found, {learned} distinct up to egg's rewrites; selected greedily by pruning power on {paths} incompletable paths of {filter} filter puzzles.\n\
         # synthesis: {summary}\n\
         # {phases}.\n\n",
        b = schema.file.limits.bound,
        command = super::command_line(),
        options = ron::to_string(args).map_err(|e| e.to_string())?,
        versions = versions(),
        mined = run.mined,
        synthesised = run.batch.synthesised(),
        skipped = run.batch.entries.len() - run.batch.synthesised(),
        found = run.found.len(),
        learned = run.learned.len(),
        filter = args.filter,
        summary = run.batch.summary(&journal),
        phases = run.phases,
    );
    for (i, pick) in run.picks.iter().enumerate() {
        let mut rule = run.learned[pick.index].clone();
        rule.name = format!("learned_{}", i + 1);
        rule.description = vec![format!(
            "rank {}: with the rules above, prunes {} of {paths} filter paths; cost {}",
            i + 1,
            pick.score,
            cost(&rule, schema)
        )];
        text.push_str(&print_rule(&rule, schema));
        text.push('\n');
    }
    write_output(output, &text)?;
    print!("{text}");
    let z3_calls: u64 = run.batch.entries.iter().map(|e| match e {
        stratsynth::synth::batch::Entry::Done { outcome, .. } => outcome.stats.z3_calls,
        stratsynth::synth::batch::Entry::Skipped { .. } => 0,
    }).sum();
    eprintln!(
        "learn witness: {} rules written to {} in {:.1} s ({z3_calls} Z3 calls)",
        run.picks.len(),
        output.display(),
        run.phases.total().as_secs_f64(),
    );
    Ok(ExitCode::SUCCESS)
}
