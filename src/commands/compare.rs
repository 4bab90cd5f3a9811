//! `compare` (`compare nonogram`): a learned nonogram rule set against
//! control rules on test transitions.

use super::percent;
use super::test_sets::{orientation, read_tests};
use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::rules::apply::ApplyOptions;
use stratsynth::domains::nonogram::rules::compare::{compare as compare_sets, Match};
use stratsynth::dsl::ast::Rule;
use stratsynth::rule_files::read_nonogram_rules;

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
