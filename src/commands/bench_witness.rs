//! `witness bench`: the speed-up of one or more rule sets over local
//! constraint checking per grid size, side by side on one baseline search (expansions and search time, Stevens' equations
//! 2.1/2.2), beside perfect pruning, the share of the baseline's
//! incompletable paths the rules prune, and large puzzles solved within a
//! time budget, as measured by
//! [`measure`](stratsynth::domains::witness::rules::measure), as a
//! table or JSON.

use super::witness::{predicate_of, puzzles};
use super::CmdResult;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use stratsynth::domains::witness::rules::measure::{all_sizes, by_size, Totals};
use stratsynth::domains::witness::rules::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::search::astar::SearchConfig;
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::dsl::schema::Schema;
use stratsynth::report::ticking::ticking;
use stratsynth::rule_files::read_rules_in;

/// The JSON object of `t`, with its size if given.
fn totals_json(t: &Totals, size: Option<&str>) -> serde_json::Value {
    let n = t.puzzles.max(1) as f64;
    let mut v = serde_json::json!({
        "puzzles": t.puzzles,
        "baseline_expansions": t.baseline_expansions,
        "rules_expansions": t.rules_expansions,
        "baseline_expansions_mean": t.baseline_expansions as f64 / n,
        "rules_expansions_mean": t.rules_expansions as f64 / n,
        "baseline_ms": t.baseline_time.as_secs_f64() * 1e3,
        "rules_ms": t.rules_time.as_secs_f64() * 1e3,
        "expansion_speedup": t.expansion_speedup(),
        "perfect_expansions": t.perfect_expansions,
        "perfect_speedup": t.perfect_speedup(),
        "time_speedup": t.time_speedup(),
        "solved_baseline": t.solved_baseline,
        "solved_rules": t.solved_rules,
        "invalid_solutions": t.invalid,
        "lost_solutions": t.lost,
        "stopped_searches": t.stopped,
        "untraced_puzzles": t.untraced,
        "trace_incompletable": t.trace_incompletable,
        "trace_pruned": t.trace_pruned,
        "trace_coverage": t.trace_coverage(),
    });
    if let Some(s) = size {
        v["size"] = serde_json::Value::from(s);
    }
    v
}

/// Options of `witness bench`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct BenchArgs {
    /// The `.ron` puzzle file.
    #[arg(long)]
    pub puzzles: PathBuf,
    /// Witness rules (used with local constraint checking); repeat the
    /// option to measure several rule sets side by side on one baseline.
    #[arg(long, required = true)]
    pub rules: Vec<PathBuf>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Time each search this many times and keep the fastest (expansions are the same every time).
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// Large puzzles: count how many each predicate solves within the budget.
    #[arg(long)]
    pub large: Option<PathBuf>,
    /// Time budget per puzzle and search on the `--large` puzzles, in milliseconds.
    #[arg(long, requires = "large", default_value_t = 2000)]
    pub budget_ms: u64,
    /// Node budget per search: most paths held (about 32 bytes each, so it
    /// bounds memory); a search stopped there counts as stopped, and a
    /// puzzle whose baseline search stopped is not traced.
    #[arg(long, default_value_t = stratsynth::domains::witness::search::astar::DEFAULT_MAX_NODES, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u32).range(1..), |n| n as usize))]
    pub max_nodes: usize,
    /// Seconds for the whole run (none: each search is bounded by --max-nodes only); past it every search stops (counted as stopped), no puzzle is traced, and the command exits 1.
    #[arg(long, value_parser = super::puzzle_set::parse_seconds)]
    pub timeout: Option<f64>,
}

/// Per size, one [`Totals`] per rule set.
type Sizes = BTreeMap<(usize, usize), Vec<Totals>>;

/// A size as `WxH`.
fn name(&(w, h): &(usize, usize)) -> String {
    format!("{w}x{h}")
}

/// `witness bench --puzzles P --rules R [--rules R2 ...] [--json] [--repeat N] [--large L --budget-ms B]`.
pub fn bench(args: &BenchArgs) -> CmdResult {
    if args.repeat == 0 {
        return Err("--repeat must be at least 1".into());
    }
    let ps = puzzles(&args.puzzles)?;
    // not screened up front: the benchmark itself finds the solutions the
    // rules lose on its puzzles and says so (LOST SOLUTIONS)
    let predicate = |rules: &PathBuf| -> Result<RuleSetPredicate, String> {
        let (schema, set) = read_rules_in(rules, Schema::witness())?;
        Ok(predicate_of(&Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?, set))
    };
    let preds = args.rules.iter().map(predicate).collect::<Result<Vec<_>, _>>()?;
    let large_puzzles = args.large.as_deref().map(puzzles).transpose()?;
    let refs: Vec<&RuleSetPredicate> = preds.iter().collect();
    let deadline = args.timeout.map(super::analyze_witness::deadline_in);
    let nodes = SearchConfig::default().with_node_limit(args.max_nodes).with_deadline(deadline);
    // each search is bounded by --max-nodes (and --budget-ms on the large
    // puzzles), the run by their number: said every few seconds
    let (count, sets) = (ps.len() + large_puzzles.as_ref().map_or(0, Vec::len), preds.len());
    let say = move |t: Duration| {
        Some(format!(
            "witness bench: measuring {count} puzzles ({sets} rule sets, {} runs each), {:.0} s",
            args.repeat,
            t.as_secs_f64()
        ))
    };
    let (sizes, large) = ticking(say, || {
        let sizes = by_size(&ps, &refs, &nodes, true, args.repeat);
        let budget = nodes.clone().with_time_limit(Duration::from_millis(args.budget_ms));
        (sizes, large_puzzles.as_ref().map(|lp| by_size(lp, &refs, &budget, false, 1)))
    });
    // without a time budget, a solution the baseline finds and the rules
    // miss was pruned away: the rules are unsound and the figures void
    let mut verdict = ExitCode::SUCCESS;
    if stratsynth::deadline::past(deadline) {
        verdict = ExitCode::from(1);
        let stopped: usize = (0..preds.len()).map(|i| all_sizes(&sizes, i).stopped).sum();
        eprintln!(
            "witness bench: --timeout {} s ran out: {stopped} searches stopped, the figures are partial; raise --timeout",
            args.timeout.unwrap_or_default()
        );
    }
    for (i, rules) in args.rules.iter().enumerate() {
        let all = all_sizes(&sizes, i);
        if all.lost > 0 || all.invalid > 0 {
            verdict = ExitCode::from(1);
            eprintln!(
                "error: the rules LOST SOLUTIONS ({}): they solved {} of {} puzzles, local constraint checking alone {}; {} puzzles lost their solution, {} solutions are invalid, so the rules prune completable paths (unsound) and their speed-ups below are meaningless",
                rules.display(), all.solved_rules, all.puzzles, all.solved_baseline, all.lost, all.invalid
            );
        }
    }
    if args.json {
        let sets: Vec<serde_json::Value> =
            (0..preds.len()).map(|i| set_json(args, &sizes, large.as_ref(), i)).collect();
        let mut v = sets[0].clone();
        v["repeat"] = serde_json::Value::from(args.repeat);
        v["rule_sets"] = serde_json::Value::from(sets);
        println!("{}", serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?);
        return Ok(verdict);
    }
    for (i, pred) in preds.iter().enumerate() {
        table(args, &sizes, large.as_ref(), i, pred.rules().len());
    }
    if preds.len() > 1 {
        side_by_side(args, &sizes);
    }
    Ok(verdict)
}

/// The JSON object of rule set `i`: its totals over every size, `rules`,
/// `sizes` and `large`.
fn set_json(args: &BenchArgs, sizes: &Sizes, large: Option<&Sizes>, i: usize) -> serde_json::Value {
    let mut v = totals_json(&all_sizes(sizes, i), None);
    v["rules"] = serde_json::Value::from(args.rules[i].display().to_string());
    v["sizes"] = sizes.iter().map(|(s, t)| totals_json(&t[i], Some(&name(s)))).collect();
    v["large"] = match large {
        None => serde_json::Value::Null,
        Some(ls) => {
            let lall = all_sizes(ls, i);
            serde_json::json!({
                "budget_ms": args.budget_ms,
                "puzzles": lall.puzzles,
                "solved_baseline": lall.solved_baseline,
                "solved_rules": lall.solved_rules,
                "sizes": ls.iter().map(|(s, t)| serde_json::json!({
                    "size": name(s), "puzzles": t[i].puzzles, "solved_baseline": t[i].solved_baseline, "solved_rules": t[i].solved_rules,
                })).collect::<Vec<_>>(),
            })
        }
    };
    v
}

/// The per-size table of rule set `i` (of `count` rules).
fn table(args: &BenchArgs, sizes: &Sizes, large: Option<&Sizes>, i: usize, count: usize) {
    let all = all_sizes(sizes, i);
    println!(
        "{} puzzles from {}; rules {} ({count} rules + local constraint checking) vs local constraint checking; A* with pruning",
        all.puzzles,
        args.puzzles.display(),
        args.rules[i].display(),
    );
    println!("size   puzzles  baseline exp  rules exp  exp speedup  perfect exp  perfect speedup  of perfect  baseline ms  rules ms  time speedup  trace coverage");
    let row = |label: &str, t: &Totals| {
        let n = t.puzzles.max(1) as f64;
        println!(
            "{label:<6} {:>7}  {:>12.1}  {:>9.1}  {:>11.2}  {:>11.1}  {:>15.2}  {:>10.3}  {:>11.3}  {:>8.3}  {:>12.2}  {:>14.3}",
            t.puzzles,
            t.baseline_expansions as f64 / n,
            t.rules_expansions as f64 / n,
            t.expansion_speedup(),
            t.perfect_expansions as f64 / n,
            t.perfect_speedup(),
            t.expansion_speedup() / t.perfect_speedup(),
            t.baseline_time.as_secs_f64() * 1e3 / n,
            t.rules_time.as_secs_f64() * 1e3 / n,
            t.time_speedup(),
            t.trace_coverage()
        );
    };
    for (s, t) in sizes {
        row(&name(s), &t[i]);
    }
    row("all", &all);
    println!("(exp and ms: means per puzzle, ms the fastest of {} runs of each search; speedups: ratios of sums, Stevens eq. 2.1/2.2; perfect: the exact completion oracle as the predicate; of perfect: exp speedup / perfect speedup; trace coverage: share of the incompletable paths the baseline search keeps that the rules prune)", args.repeat);
    println!(
        "solutions: baseline solved {}, rules solved {}, {} invalid, {} lost (solved by the baseline, none with the rules), {} searches stopped by a budget, {} puzzles not traced (their baseline search stopped)",
        all.solved_baseline, all.solved_rules, all.invalid, all.lost, all.stopped, all.untraced
    );
    if let Some(ls) = large {
        println!("large puzzles, {} ms per puzzle and search:", args.budget_ms);
        println!("size   puzzles  solved baseline  solved rules");
        for (s, t) in ls {
            println!("{:<6} {:>7}  {:>15}  {:>12}", name(s), t[i].puzzles, t[i].solved_baseline, t[i].solved_rules);
        }
    }
    if all.lost > 0 {
        println!(
            "LOST SOLUTIONS: {} of {} puzzles solved with the rules, {} without; the rules are unsound",
            all.solved_rules, all.puzzles, all.solved_baseline
        );
    }
}

/// Every rule set beside local checking and perfect pruning, over all sizes
/// (one baseline search per puzzle, shared by the rule sets).
fn side_by_side(args: &BenchArgs, sizes: &Sizes) {
    let alls: Vec<Totals> = (0..args.rules.len()).map(|i| all_sizes(sizes, i)).collect();
    let first = &alls[0];
    let n = first.puzzles.max(1) as f64;
    println!(
        "side by side, {} puzzles from {} (means per puzzle; speedups over local constraint checking):",
        first.puzzles,
        args.puzzles.display()
    );
    let width = args.rules.iter().map(|r| r.display().to_string().len()).max().unwrap_or(0).max(26);
    println!(
        "{:<width$}  {:>12}  {:>11}  {:>9}  {:>12}  {:>14}  {:>6}",
        "pruning", "expansions", "exp speedup", "ms", "time speedup", "trace coverage", "lost"
    );
    let ms = |d: Duration| d.as_secs_f64() * 1e3 / n;
    println!(
        "{:<width$}  {:>12.1}  {:>11.2}  {:>9.3}  {:>12.2}  {:>14}  {:>6}",
        "local constraint checking",
        first.baseline_expansions as f64 / n,
        1.0,
        ms(first.baseline_time),
        1.0,
        "-",
        "-"
    );
    for (rules, t) in args.rules.iter().zip(&alls) {
        println!(
            "{:<width$}  {:>12.1}  {:>11.2}  {:>9.3}  {:>12.2}  {:>14.3}  {:>6}",
            rules.display().to_string(),
            t.rules_expansions as f64 / n,
            t.expansion_speedup(),
            ms(t.rules_time),
            t.time_speedup(),
            t.trace_coverage(),
            t.lost
        );
    }
    let traced = first.puzzles - first.untraced;
    println!(
        "{:<width$}  {:>12.1}  {:>11.2}  {:>9}  {:>12}  {:>14}  {:>6}  (on the {traced} traced puzzles)",
        "perfect pruning",
        first.perfect_expansions as f64 / traced.max(1) as f64,
        first.perfect_speedup(),
        "-",
        "-",
        "1.000",
        "-"
    );
}
