//! `select`: K rules chosen greedily by coverage on test transitions,
//! written as a rule file.

use super::learn_args::{chosen_by, selection};
use super::test_sets::{orientation, read_tests};
use super::{check_output, write_rules_file, CmdResult};
use super::{percent, selection_table};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::rules::apply::ApplyOptions;
use stratsynth::domains::nonogram::rules::coverage::Coverage;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::rule_files::read_nonogram_rules;

/// Options of `select`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct SelectArgs {
    /// The `.rules` file of candidates.
    #[arg(long)]
    pub rules: PathBuf,
    /// The `.lines` test set.
    #[arg(long)]
    pub lines: PathBuf,
    /// How many rules to choose.
    #[arg(short = 'k')]
    pub k: usize,
    /// Output `.rules` file.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Apply rules only in each line's own orientation (the paper's setting).
    #[arg(long)]
    pub one_sided: bool,
    /// Choose by cells covered per unit of rule cost, their mean cost at
    /// most this at every rank (0, the default: by cells alone, cost
    /// breaking ties, as the paper).
    #[arg(long, default_value_t = 0)]
    pub max_mean_cost: u32,
}

/// `select --rules R --lines T -k K -o OUT [--one-sided]`.
pub fn select(args: &SelectArgs) -> CmdResult {
    let (rules_path, lines, k, output, one_sided) =
        (args.rules.as_path(), args.lines.as_path(), args.k, args.output.as_path(), args.one_sided);
    if k == 0 {
        return Err("-k must be at least 1".into());
    }
    check_output(output, &[rules_path, lines])?;
    let (domain, rules) = read_nonogram_rules(rules_path)?;
    let tests = read_tests(&domain, lines)?;
    let coverage = Coverage::new(&domain, &rules, &tests, ApplyOptions { one_sided });
    let cost_of = |i: usize| cost(&rules[i], domain.schema());
    let chosen = selection(k, args.max_mean_cost);
    let picks = coverage.top(chosen, cost_of).map_err(|e| format!("{}: {e}", lines.display()))?;
    let max = coverage.max_cells();
    let covered = picks.last().map_or(0, |p| p.score);

    let table = selection_table(&picks, &rules, cost_of, max, 28);
    let summary = format!(
        "{} of {} rules chosen {} ({}, with the decomposition oracle) on {} transitions of {}: \
         {covered} of {max} cells ({:.1}%)",
        picks.len(),
        rules.len(),
        chosen_by(chosen, "coverage"),
        orientation(one_sided),
        tests.len(),
        lines.display(),
        percent(covered, max)
    );
    let command = format!(
        "stratsynth select --rules {} --lines {} -k {k} -o {}{}",
        rules_path.display(),
        lines.display(),
        output.display(),
        if one_sided { " --one-sided" } else { "" },
    ) + &match args.max_mean_cost {
        0 => String::new(),
        m => format!(" --max-mean-cost {m}"),
    };
    // one comment line each, whatever the file names hold
    let header: Vec<String> = [command, summary.clone()].into_iter().chain(table.iter().cloned()).collect();
    let chosen: Vec<Rule> = picks.iter().map(|p| rules[p.index].clone()).collect();
    write_rules_file(output, &header, &chosen, domain.schema())?;
    println!("{summary}");
    for row in &table {
        println!("{row}");
    }
    if picks.len() < k {
        println!("(no other rule adds coverage{})", if args.max_mean_cost > 0 { " within the mean cost" } else { "" });
    }
    eprintln!("wrote {} rules to {}", picks.len(), output.display());
    Ok(ExitCode::SUCCESS)
}
