//! `cover`: a nonogram rule set's coverage of test transitions, alone and
//! greedily chosen.

use super::percent;
use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::formats::lines::read_test_set;
use stratsynth::domains::nonogram::rules::apply::ApplyOptions;
use stratsynth::domains::nonogram::rules::coverage::Coverage;
use stratsynth::domains::Domain;
use stratsynth::dsl::cost::cost;
use stratsynth::rule_files::read_nonogram_rules;

/// The `--json` object of `cover`.
#[derive(serde::Serialize)]
struct JsonCover<'a> {
    transitions: usize,
    covered: usize,
    max_cells: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    top: Option<Vec<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_cumulative: Option<Vec<usize>>,
    rules: &'a [stratsynth::domains::nonogram::rules::coverage::RuleFigures],
}

/// Options of `cover`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct CoverArgs {
    /// The `.rules` file.
    #[arg(long)]
    pub rules: PathBuf,
    /// The `.lines` test set.
    #[arg(long)]
    pub lines: PathBuf,
    /// Greedily choose the K rules that add most coverage.
    #[arg(long)]
    pub top: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Apply rules only in each line's own orientation (the paper's setting).
    #[arg(long)]
    pub one_sided: bool,
}

/// `cover --rules R --lines T [--top K] [--json] [--one-sided]`.
pub fn cover(args: &CoverArgs) -> CmdResult {
    let (rules_path, lines, top, json, one_sided) =
        (args.rules.as_path(), args.lines.as_path(), args.top, args.json, args.one_sided);
    let (domain, rules) = read_nonogram_rules(rules_path)?;
    super::some_rules(rules_path, &rules)?;
    let limit = domain.schema().file.limits.max_state as usize;
    let tests = read_test_set(lines, limit).map_err(|e| e.to_string())?;
    let coverage = Coverage::new(&domain, &rules, &tests, ApplyOptions { one_sided });
    let report = coverage.report().map_err(|e| format!("{}: {e}", lines.display()))?;
    let picks = match top {
        Some(k) => Some(
            coverage
                .top(stratsynth::select::Selection::top(k), |i| cost(&rules[i], domain.schema()))
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    if json {
        let out = JsonCover {
            transitions: report.transitions,
            covered: report.covered,
            max_cells: report.max_cells,
            top: picks.as_ref().map(|p| p.iter().map(|p| rules[p.index].name.as_str()).collect()),
            top_cumulative: picks.as_ref().map(|p| p.iter().map(|p| p.score).collect()),
            rules: &report.rules,
        };
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} transitions, {} rules{}: covered {} of {} cells ({:.1}%)",
        report.transitions,
        rules.len(),
        if one_sided { " (one-sided)" } else { "" },
        report.covered,
        report.max_cells,
        percent(report.covered, report.max_cells)
    );
    println!("{:<28} {:>6} {:>8} {:>9}", "rule", "cost", "alone", "marginal");
    for (rule, figures) in rules.iter().zip(&report.rules) {
        println!("{:<28} {:>6} {:>8} {:>9}", rule.name, cost(rule, domain.schema()), figures.alone, figures.marginal);
    }
    if let Some(picks) = picks {
        println!("\ntop {} by greedy coverage:", picks.len());
        println!("{:>3} {:<28} {:>10} {:>7}", "#", "rule", "cumulative", "%");
        for (i, p) in picks.iter().enumerate() {
            println!(
                "{:>3} {:<28} {:>10} {:>6.1}%",
                i + 1,
                rules[p.index].name,
                p.score,
                percent(p.score, report.max_cells)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
