//! `witness bench`: the speed-up of a rule set over local constraint
//! checking per grid size (expansions and search time, Stevens' equations
//! 2.1/2.2), beside perfect pruning, the share of the baseline's
//! incompletable paths the rules prune, and large puzzles solved within a
//! time budget, as measured by
//! [`measure`](stratsynth::domains::witness::synthesis::measure), as a
//! table or JSON.

use super::witness::{predicate_of, puzzles};
use super::{read_rules_in, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use stratsynth::domains::witness::search::astar::SearchConfig;
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::witness::synthesis::measure::{by_size, Totals};
use stratsynth::dsl::schema::Schema;

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
    /// Witness rules (used with local constraint checking).
    #[arg(long)]
    pub rules: PathBuf,
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
}

/// `witness bench --puzzles P --rules R [--json] [--repeat N] [--large L --budget-ms B]`.
pub fn bench(args: &BenchArgs) -> CmdResult {
    let (puzzles_path, rules, json, repeat, large, budget_ms) =
        (args.puzzles.as_path(), args.rules.as_path(), args.json, args.repeat, args.large.as_deref(), args.budget_ms);
    if repeat == 0 {
        return Err("--repeat must be at least 1".into());
    }
    let ps = puzzles(puzzles_path)?;
    // not screened up front: the benchmark itself finds the solutions the
    // rules lose on its puzzles and says so (LOST SOLUTIONS)
    let (schema, set) = read_rules_in(rules, Schema::witness())?;
    let pred = predicate_of(&Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?, set);
    let large_puzzles = large.map(puzzles).transpose()?;
    let nodes = SearchConfig::default().with_node_limit(args.max_nodes);
    let sizes = by_size(&ps, &pred, &nodes, true, repeat);
    let mut all = Totals::default();
    sizes.values().for_each(|t| all.add(t));
    let budget = nodes.clone().with_time_limit(Duration::from_millis(budget_ms));
    let large_sizes = large_puzzles.map(|lp| by_size(&lp, &pred, &budget, false, 1));
    let name = |&(w, h): &(usize, usize)| format!("{w}x{h}");
    // without a time budget, a solution the baseline finds and the rules
    // miss was pruned away: the rules are unsound and the figures void
    let verdict = if all.lost == 0 && all.invalid == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) };
    if all.lost > 0 || all.invalid > 0 {
        eprintln!(
            "error: the rules LOST SOLUTIONS: they solved {} of {} puzzles, local constraint checking alone {}; {} puzzles lost their solution, {} solutions are invalid, so the rules prune completable paths (unsound) and the speed-ups below are meaningless",
            all.solved_rules, all.puzzles, all.solved_baseline, all.lost, all.invalid
        );
    }
    if json {
        let mut v = totals_json(&all, None);
        v["rules"] = serde_json::Value::from(rules.display().to_string());
        v["repeat"] = serde_json::Value::from(repeat);
        v["sizes"] = sizes.iter().map(|(s, t)| totals_json(t, Some(&name(s)))).collect();
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
    for (s, t) in &sizes {
        row(&name(s), t);
    }
    row("all", &all);
    println!("(exp and ms: means per puzzle, ms the fastest of {repeat} runs of each search; speedups: ratios of sums, Stevens eq. 2.1/2.2; perfect: the exact completion oracle as the predicate; of perfect: exp speedup / perfect speedup; trace coverage: share of the incompletable paths the baseline search keeps that the rules prune)");
    println!(
        "solutions: baseline solved {}, rules solved {}, {} invalid, {} lost (solved by the baseline, none with the rules), {} searches stopped by a budget, {} puzzles not traced (their baseline search stopped)",
        all.solved_baseline, all.solved_rules, all.invalid, all.lost, all.stopped, all.untraced
    );
    if let Some(ls) = &large_sizes {
        println!("large puzzles, {} ms per puzzle and search:", budget_ms);
        println!("size   puzzles  solved baseline  solved rules");
        for (s, t) in ls {
            println!("{:<6} {:>7}  {:>15}  {:>12}", name(s), t.puzzles, t.solved_baseline, t.solved_rules);
        }
    }
    if all.lost > 0 {
        println!(
            "LOST SOLUTIONS: {} of {} puzzles solved with the rules, {} without; the rules are unsound",
            all.solved_rules, all.puzzles, all.solved_baseline
        );
    }
    Ok(verdict)
}
