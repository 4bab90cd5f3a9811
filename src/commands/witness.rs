//! `witness gen|solve` and `mine witness`, `learn witness`: Witness puzzle
//! sets, A* with a rule set, specification mining and learning (`witness
//! bench` is [`super::witness_bench`]).
//!
//! A rule set is used in search as "local constraint checking or some rule
//! fires" (Stevens §5.2; [`RuleSetPredicate`]); without `--rules` the
//! predicate is local constraint checking alone (`rules/witness/baseline.rules`).

use super::{check_output, read_rules_in, write_output, CmdResult};
use stratsynth::dsl::schema::Schema;
use std::path::Path as FsPath;
use std::process::ExitCode;
use std::time::Duration;
use stratsynth::domains::witness::domain::Witness;
use stratsynth::domains::witness::generate::{generate, Algorithm, GeneratorConfig, SizeRange};
use stratsynth::domains::witness::mine::{mine, Scope};
use stratsynth::domains::witness::puzzle::{puzzles_to_ron, read_puzzles};
use stratsynth::domains::witness::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::search::{astar, format_solution, Mode, SearchConfig};
use stratsynth::domains::witness::specs::write_specs;
use stratsynth::domains::witness::{Path, Puzzle};
use stratsynth::domains::Domain;

/// The predicate of a Witness rule file (none: local constraint checking).
pub(super) fn predicate(rules: Option<&FsPath>) -> Result<RuleSetPredicate, String> {
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
pub(super) fn puzzles(path: &FsPath) -> Result<Vec<Puzzle>, String> {
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
    let (mut solved, mut expansions, mut time) = (0usize, 0u64, Duration::ZERO);
    let mut lines = String::new();
    for p in &ps {
        pred.forget();
        let r = astar(p, &pred, &config);
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
    if train == 0 || filter == 0 || k == 0 || max_specs == 0 {
        return Err("--train, --filter, -k and --max-specs must be at least 1".into());
    }
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
         # {learned} distinct rules; selected greedily by A* expansions saved on {filter} filter puzzles (seed {fseed}; local constraint checking alone: {base} expansions);\n\
         # a rule saving under 1% of the expansions left is not selected.\n\
         # Wall time: mine {:.1} s, synthesise {:.1} s, select {:.1} s, total {:.1} s.\n\n",
        mine_t.as_secs_f64(),
        synth_t.as_secs_f64(),
        select_t.as_secs_f64(),
        total.as_secs_f64(),
        b = schema.file.limits.bound,
        version = env!("CARGO_PKG_VERSION"),
        learned = report.learned.len(),
        fseed = seed + 1,
        base = report.filter_baseline.0,
    );
    let mut table = String::from("rule          cost  filter exp  speedup  exp saved (marginal)  ms saved (marginal)\n");
    let (base_exp, base_time) = report.filter_baseline;
    table.push_str(&format!("(baseline)       -  {base_exp:>10}     1.00  {:>20}  {:>19}\n", "-", format!("({:.1} ms)", base_time.as_secs_f64() * 1e3)));
    for (i, sel) in report.selected.iter().enumerate() {
        let mut rule = sel.rule.clone();
        rule.name = format!("learned_{}", i + 1);
        rule.description = vec![format!(
            "rank {}: with the rules above, {} filter expansions ({:.2}x fewer than local checking); without it the set expands {} more; cost {}",
            i + 1,
            sel.expansions,
            base_exp as f64 / sel.expansions.max(1) as f64,
            sel.marginal_expansions,
            cost(&rule, schema)
        )];
        table.push_str(&format!(
            "{:<12} {:>5}  {:>10}  {:>7.2}  {:>20}  {:>19.1}\n",
            rule.name,
            cost(&rule, schema),
            sel.expansions,
            base_exp as f64 / sel.expansions.max(1) as f64,
            sel.marginal_expansions,
            sel.marginal_seconds * 1e3
        ));
        text.push_str(&print_rule(&rule, schema));
        text.push('\n');
    }
    write_output(output, &text)?;
    print!("{text}");
    print!("{table}");
    eprintln!(
        "learn witness: {} rules written to {} in {:.1} s ({} Z3 calls)",
        report.selected.len(),
        output.display(),
        total.as_secs_f64(),
        report.stats.z3_calls
    );
    Ok(ExitCode::SUCCESS)
}
