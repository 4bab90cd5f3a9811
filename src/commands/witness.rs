//! `witness gen|solve|bench` and `mine witness`: Witness puzzle sets,
//! A* with a rule set, the speed-up of a rule set over local constraint
//! checking, and specification mining.
//!
//! A rule set is used in search as "local constraint checking or some rule
//! fires" (Stevens §5.2; [`RuleSetPredicate`]); without `--rules` the
//! predicate is local constraint checking alone (`rules/witness/baseline.rules`).

use super::{check_output, read_rules, write_output, CmdResult};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::Path as FsPath;
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
            let (schema, rules) = read_rules(path)?;
            if schema.domain() != "witness" {
                return Err(format!("{}: these are {} rules; this command takes witness rules", path.display(), schema.domain()));
            }
            (Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?, rules)
        }
    };
    Ok(RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules))
}

/// A size range argument `WxH..WxH`, within the schema's limit.
fn sizes(text: &str) -> Result<SizeRange, String> {
    let range = text.parse::<SizeRange>().map_err(|e| format!("--sizes: {e}"))?;
    let limit = Witness::new().schema().file.limits.max_state as usize;
    if range.max.0 > limit || range.max.1 > limit {
        return Err(format!("--sizes {text}: the tool handles grids up to {limit}x{limit} (dsl/witness.ron limits.max_state)"));
    }
    Ok(range)
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

/// `witness gen --alg 3|4 --sizes R --count N --seed S -o P.ron`.
pub fn gen(alg: u8, size_range: &str, count: usize, seed: u64, output: &FsPath) -> CmdResult {
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

/// `witness solve --puzzles P [--rules R] [--sort] [--budget-ms B] --solutions-out S`.
pub fn solve(puzzles_path: &FsPath, rules: Option<&FsPath>, sort: bool, budget_ms: Option<u64>, out: &FsPath) -> CmdResult {
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

/// `witness bench --puzzles P --rules R [--json] [--large L --budget-ms B]`.
pub fn bench(puzzles_path: &FsPath, rules: &FsPath, json: bool, large: Option<&FsPath>, budget_ms: Option<u64>) -> CmdResult {
    let ps = puzzles(puzzles_path)?;
    let pred = predicate(Some(rules))?;
    if large.is_some() && budget_ms.is_none() {
        return Err("--large needs --budget-ms (the time budget per puzzle and search)".into());
    }
    let sizes = by_size(&ps, &pred, &SearchConfig::default(), true);
    let mut all = Totals::default();
    sizes.values().for_each(|t| all.add(t));
    let large_sizes = match (large, budget_ms) {
        (Some(path), Some(ms)) => {
            let lp = puzzles(path)?;
            let config = SearchConfig::default().with_time_limit(Duration::from_millis(ms));
            Some(by_size(&lp, &pred, &config, false))
        }
        _ => None,
    };
    let name = |&(w, h): &(usize, usize)| format!("{w}x{h}");
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
        return Ok(ExitCode::SUCCESS);
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
        println!("large puzzles, {} ms per puzzle and search:", budget_ms.unwrap_or(0));
        println!("size   puzzles  solved baseline  solved rules");
        for (s, t) in ls {
            println!("{:<6} {:>7}  {:>15}  {:>12}", name(s), t.puzzles, t.solved_baseline, t.solved_rules);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `mine witness --sizes R --count N --seed S [--rules R] [--all] -o F`.
pub fn mine_specs(size_range: &str, count: usize, seed: u64, rules: Option<&FsPath>, all: bool, output: &FsPath) -> CmdResult {
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

/// `learn witness`: the pipeline of [`stratsynth::domains::witness::learn`];
/// writes the selected rules with how they were made and prints them.
#[allow(clippy::too_many_arguments)]
pub fn learn(size_range: &str, train: usize, filter: usize, seed: u64, k: usize, max_specs: usize, output: &FsPath) -> CmdResult {
    use stratsynth::domains::witness::learn::{learn, LearnConfig};
    use stratsynth::dsl::cost::cost;
    use stratsynth::dsl::print::print_rule;
    let domain = Witness::new();
    let schema = domain.schema();
    check_output(output, &[])?;
    let config = LearnConfig { sizes: sizes(size_range)?, train, filter, seed, k, max_specs };
    let started = std::time::Instant::now();
    let report = learn(&domain, &config)?;
    let total = started.elapsed();
    let (mined, synthesised, skipped) = report.specs;
    let [mine_t, synth_t, select_t] = report.phases;
    let command = format!(
        "stratsynth learn witness --sizes {size_range} --train {train} --filter {filter} --seed {seed} -k {k} --max-specs {max_specs} -o {}",
        output.display()
    );
    let mut text = format!(
        "# Learned Witness pruning rules, each proven sound by Z3 for every puzzle up to {b}x{b}.\n\
         # Made by: {command}\n\
         # stratsynth {version}; Z3 via the z3 crate (system libz3).\n\
         # {mined} frontier specifications mined from {train} training puzzles; {synthesised} synthesised, {skipped} skipped as already pruned;\n\
         # {learned} distinct rules; selected greedily by pruning power on {paths} incompletable paths of {filter} filter puzzles.\n\
         # Wall time: mine {:.1} s, synthesise {:.1} s, select {:.1} s, total {:.1} s.\n\n",
        mine_t.as_secs_f64(),
        synth_t.as_secs_f64(),
        select_t.as_secs_f64(),
        total.as_secs_f64(),
        b = schema.file.limits.bound,
        version = env!("CARGO_PKG_VERSION"),
        learned = report.learned.len(),
        paths = report.filter_paths,
    );
    for (i, (rule, pruned)) in report.selected.iter().enumerate() {
        let mut rule = rule.clone();
        rule.name = format!("learned_{}", i + 1);
        rule.description = vec![format!(
            "rank {}: with the rules above, prunes {pruned} of {} filter paths; cost {}",
            i + 1,
            report.filter_paths,
            cost(&rule, schema)
        )];
        text.push_str(&print_rule(&rule, schema));
        text.push('\n');
    }
    write_output(output, &text)?;
    print!("{text}");
    eprintln!(
        "learn witness: {} rules written to {} in {:.1} s ({} Z3 calls)",
        report.selected.len(),
        output.display(),
        total.as_secs_f64(),
        report.stats.z3_calls
    );
    Ok(ExitCode::SUCCESS)
}
