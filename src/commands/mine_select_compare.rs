//! `mine nonogram`, `select` and `compare`: the steps of nonogram
//! learning around synthesis as commands of their own (specifications
//! in, rule sets out, rule sets compared).

use super::{check_output, write_output, CmdResult};
use super::{percent, selection_table};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::nonogram::formats::lines::{format_transition, read_test_set, Transition};
use stratsynth::domains::nonogram::rules::apply::ApplyOptions;
use stratsynth::domains::nonogram::rules::compare::{compare as compare_sets, Match};
use stratsynth::domains::nonogram::rules::coverage::Coverage;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::nonogram::synthesis::mine::{mine as mine_specs, Sample, MAX_MINE_LEN};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::print::print_rule;
use stratsynth::rule_files::read_nonogram_rules;

/// Reads a `.lines` test set within the domain's line limit.
fn read_tests(domain: &Nonogram, lines: &Path) -> Result<Vec<Transition>, String> {
    read_test_set(lines, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())
}

/// How rules are applied, in words.
fn orientation(one_sided: bool) -> &'static str {
    if one_sided {
        "one orientation"
    } else {
        "both orientations"
    }
}

/// Options of `mine nonogram`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct MineArgs {
    /// Longest line enumerated.
    #[arg(long, default_value_t = 7)]
    pub max_len: usize,
    /// Keep a seeded random sample of this many productive states.
    #[arg(long)]
    pub sample: Option<usize>,
    /// Seed of the sample (with `--sample`; default 0).
    #[arg(long, default_value_t = 0, hide_default_value = true, requires = "sample")]
    pub seed: u64,
    /// Output `.lines` file.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// `mine nonogram --max-len L [--sample N --seed S] -o OUT`.
pub fn mine(args: &MineArgs) -> CmdResult {
    let (max_len, sample, seed, output) = (args.max_len, args.sample, args.seed, args.output.as_path());
    if max_len == 0 || max_len > MAX_MINE_LEN {
        return Err(format!(
            "--max-len must be between 1 and {MAX_MINE_LEN} (the number of states grows about 4x per cell)"
        ));
    }
    check_output(output, &[])?;
    let sample = sample.map(|count| Sample { count, seed });
    let (report, specs) = mine_specs(max_len, sample);
    let mut command = format!("stratsynth mine nonogram --max-len {max_len}");
    if let Some(s) = sample {
        command.push_str(&format!(" --sample {} --seed {}", s.count, s.seed));
    }
    command.push_str(&format!(" -o {}", output.display()));
    let used = match sample {
        Some(s) => format!("{} sampled with seed {}", report.used, s.seed),
        None => "all used".to_string(),
    };
    let mut text = format!(
        "# {command}\n\
         # {} valid line states of 1-{max_len} cells; {} mirror pairs (one state kept from each); \
         {} productive, {used}; {} specifications (one per run of newly forced cells)\n\
         # HINTS | START | TARGET\n",
        report.states, report.mirror_pairs, report.productive, report.specs
    );
    for t in &specs {
        text.push_str(&format_transition(t));
        text.push('\n');
    }
    write_output(output, &text)?;
    eprintln!(
        "{} states, {} mirror pairs, {} productive, {used}: wrote {} specifications to {}",
        report.states,
        report.mirror_pairs,
        report.productive,
        report.specs,
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}

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
    let picks = coverage.top(k, cost_of).map_err(|e| format!("{}: {e}", lines.display()))?;
    let max = coverage.max_cells();
    let covered = picks.last().map_or(0, |p| p.score);

    let table = selection_table(&picks, &rules, cost_of, max, 28);
    let summary = format!(
        "{} of {} rules chosen greedily by coverage ({}, with the decomposition oracle) on {} transitions of {}: \
         {covered} of {max} cells ({:.1}%)",
        picks.len(),
        rules.len(),
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
        if one_sided { " --one-sided" } else { "" }
    );
    let mut text = format!("# {command}\n# {summary}\n");
    for row in &table {
        text.push_str(&format!("# {row}\n"));
    }
    let chosen: Vec<String> = picks.iter().map(|p| print_rule(&rules[p.index], domain.schema())).collect();
    text.push('\n');
    text.push_str(&chosen.join("\n"));
    write_output(output, &text)?;
    println!("{summary}");
    for row in &table {
        println!("{row}");
    }
    if picks.len() < k {
        println!("(no other rule adds coverage)");
    }
    eprintln!("wrote {} rules to {}", picks.len(), output.display());
    Ok(ExitCode::SUCCESS)
}

/// Options of `compare`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct CompareArgs {
    /// The learned `.rules` file.
    #[arg(long)]
    pub learned: PathBuf,
    /// The control `.rules` file.
    #[arg(long)]
    pub control: PathBuf,
    /// The `.lines` test set.
    #[arg(long)]
    pub lines: PathBuf,
    /// Apply rules only in each line's own orientation.
    #[arg(long)]
    pub one_sided: bool,
}

/// `compare --learned L --control C --lines T [--one-sided]`.
pub fn compare(args: &CompareArgs) -> CmdResult {
    let (learned_path, control_path, lines, one_sided) =
        (args.learned.as_path(), args.control.as_path(), args.lines.as_path(), args.one_sided);
    let (domain, learned) = read_nonogram_rules(learned_path)?;
    let (_, control) = read_nonogram_rules(control_path)?;
    let tests = read_tests(&domain, lines)?;
    let rows = compare_sets(&domain, &learned, &control, &tests, ApplyOptions { one_sided })
        .map_err(|e| format!("{}: {e}", lines.display()))?;
    println!(
        "{} control rules of {} against {} learned rules of {} on {} transitions of {}",
        control.len(),
        control_path.display(),
        learned.len(),
        learned_path.display(),
        tests.len(),
        lines.display()
    );
    println!(
        "cells: (transition, cell) pairs the control rule covers applied alone ({}, with the decomposition oracle)\n\
         exact: a learned rule that is the same up to names, variable names, and the order of declarations and conjuncts\n\
         same cells / more general: a learned rule that, applied alone, covers exactly those pairs / all of them and more\n\
         partial: no learned rule covers all of them; the one covering most, and its share\n\
         its cells: the pairs that learned rule covers alone\n\
         set: share of the pairs covered by some learned rule alone",
        orientation(one_sided)
    );
    println!(
        "{:<28} {:>7}  {:<13} {:<28} {:>7} {:>9} {:>7}",
        "control rule", "cells", "verdict", "learned rule", "share", "its cells", "set"
    );
    let name = |l: usize| learned[l].name.as_str();
    let (mut exact, mut same, mut general) = (0, 0, 0);
    for row in &rows {
        let (verdict, by, share) = match &row.verdict {
            Match::Exact { learned } => {
                exact += 1;
                ("exact", name(*learned), row.cells)
            }
            Match::SameCells { learned } => {
                same += 1;
                ("same cells", name(*learned), row.cells)
            }
            Match::MoreGeneral { learned } => {
                general += 1;
                ("more general", name(*learned), row.cells)
            }
            Match::Partial { learned, common } => ("partial", name(*learned), *common),
            Match::None => ("none", "-", 0),
            Match::Uncovered => ("uncovered", "-", 0),
        };
        let shown =
            |part: usize| if row.cells == 0 { "-".to_string() } else { format!("{:.1}%", percent(part, row.cells)) };
        let rule: &Rule = &control[row.control];
        println!(
            "{:<28} {:>7}  {:<13} {:<28} {:>7} {:>9} {:>7}",
            rule.name,
            row.cells,
            verdict,
            by,
            shown(share),
            row.learned_cells,
            shown(row.by_set)
        );
    }
    println!(
        "recovered {} of {} control rules ({exact} exactly, {same} by a rule covering the same cells, {general} by a more general rule)",
        exact + same + general,
        control.len()
    );
    Ok(ExitCode::SUCCESS)
}
