//! `explain PUZZLE --rules R [--html OUT.html] [--json]`: the solve step by step
//! with the rules (and the complete solver's probes and guesses where they
//! are stuck), as text and optionally as a self-contained HTML page.

use super::{check_output, read_nonogram_rules, write_output, CmdResult};
use serde::Serialize;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::complete::{Limits, Outcome};
use stratsynth::domains::nonogram::board::grid::Axis;
use stratsynth::domains::nonogram::board::propagate::Clues;
use stratsynth::domains::nonogram::formats::puzzle::read_puzzle;
use stratsynth::domains::nonogram::play::analysis::count;
use stratsynth::domains::nonogram::play::html::{page, PageStep};
use stratsynth::domains::nonogram::play::player::{play, How, Knowledge, Step};
use stratsynth::domains::nonogram::rules::describe::sentence;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::print::print_rule;

/// Options of `explain`.
#[derive(clap::Args, Debug, Serialize)]
pub struct ExplainArgs {
    /// The puzzle (`.non`, webpbn XML, or `SET#N`: puzzle N of a tournament set).
    pub puzzle: PathBuf,
    /// The player's rule set (applied with the decomposition oracle).
    #[arg(long)]
    pub rules: PathBuf,
    /// Also write the solve as one self-contained HTML page (an SVG of each step's line, the board at the end).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Print the steps as one JSON list instead of the text (`how`, `rule`, `description`, `line`, `cells`, `bits`, `heading`, `notes`).
    #[arg(long)]
    pub json: bool,
}

/// `columns 3-5` / `row 4`: the cells of a step along its line, 1-based.
fn cells_words(clues: &Clues, step: &Step) -> String {
    let w = clues.width();
    let (along, mut ix): (&str, Vec<usize>) = match step.line {
        Some(id) if id.axis == Axis::Row => ("column", step.filled.iter().map(|&(p, _)| p % w).collect()),
        Some(_) => ("row", step.filled.iter().map(|&(p, _)| p / w).collect()),
        None => {
            return step
                .filled
                .iter()
                .map(|&(p, _)| format!("row {}, column {}", p / w + 1, p % w + 1))
                .collect::<Vec<_>>()
                .join("; ")
        }
    };
    ix.sort_unstable();
    let mut runs: Vec<(usize, usize)> = vec![];
    for i in ix {
        match runs.last_mut() {
            Some((_, e)) if *e + 1 == i => *e = i,
            _ => runs.push((i, i)),
        }
    }
    let plural = runs.len() > 1 || runs[0].0 != runs[0].1;
    let parts: Vec<String> =
        runs.iter().map(|&(s, e)| if s == e { format!("{}", s + 1) } else { format!("{}-{}", s + 1, e + 1) }).collect();
    format!("{along}{} {}", if plural { "s" } else { "" }, parts.join(", "))
}

/// Step `i` of a solve in words: its heading, notes (binding, cells,
/// the rule's sentence, or why the complete solver's step holds) and the
/// rule's text.
pub(crate) fn describe(i: usize, step: &Step, clues: &Clues, domain: &Nonogram, rules: &[Rule]) -> PageStep {
    let cells = cells_words(clues, step);
    let value = |v: bool| if v { "filled" } else { "crossed out" };
    let mut notes = vec![];
    let mut rule_text = None;
    let heading = match &step.how {
        How::Rule { rule, binding, sub_line, mirrored } => {
            let r = &rules[*rule];
            let id = step.line.expect("rule steps have a line");
            notes.push(format!("binding: {}", binding.join(", ")));
            let mut place = String::new();
            if let Some((a, b)) = sub_line {
                place += &format!(" on the sub-line of cells {}-{}", a + 1, b + 1);
            }
            if *mirrored {
                place += if id.axis == Axis::Row { " (rule read right to left)" } else { " (rule read bottom to top)" };
            }
            notes.push(format!("{} {}{place}", value(step.filled[0].1), cells));
            notes.push(sentence(r, domain.schema()));
            rule_text = Some(print_rule(r, domain.schema()));
            let line = format!("{} {}", if id.axis == Axis::Row { "row" } else { "column" }, id.index + 1);
            format!("Step {}: {line} — rule {}", i + 1, r.name)
        }
        How::Probe | How::Guess => {
            let (p, v) = step.filled[0];
            let what = if step.how == How::Probe {
                notes.push(format!(
                    "setting it {} instead makes line propagation (the exact line solver on every line) reach a contradiction",
                    value(!v)
                ));
                "PROBE"
            } else {
                notes.push("no probe settles any cell; the complete solver's solution gives this one".into());
                "GUESS"
            };
            notes.push(format!(
                "{} of {} unknown cells: 1 + log2({}) = {:.2} bits",
                cells, step.unknown, step.unknown, step.bits
            ));
            format!(
                "Step {}: {what} (complete solver) — row {}, column {} is {}",
                i + 1,
                p / clues.width() + 1,
                p % clues.width() + 1,
                value(v)
            )
        }
        How::LineSolver => unreachable!("explain plays with rules"),
    };
    let line = step.line.map(|id| if id.axis == Axis::Row { id.index } else { clues.height() + id.index });
    PageStep { heading, notes, rule_text, line, filled: step.filled.clone(), oracle: step.bits > 0.0 }
}

/// One step in `--json`: `how` (`rule`, `probe`, `guess`), the rule's
/// name and English sentence, the line (`row`/`column`, from 1), the cells
/// (`row`, `column` from 1, `filled`), the bits, and the words of the text.
pub(crate) fn step_json(step: &Step, described: &PageStep, clues: &Clues, domain: &Nonogram, rules: &[Rule]) -> Value {
    let w = clues.width();
    let (how, rule) = match &step.how {
        How::Rule { rule, .. } => ("rule", Some(&rules[*rule])),
        How::Probe => ("probe", None),
        How::Guess => ("guess", None),
        How::LineSolver => ("line", None),
    };
    let line =
        step.line.map(|id| json!({"axis": if id.axis == Axis::Row { "row" } else { "column" }, "index": id.index + 1}));
    let cells: Vec<Value> =
        step.filled.iter().map(|&(p, v)| json!({"row": p / w + 1, "column": p % w + 1, "filled": v})).collect();
    json!({
        "how": how,
        "rule": rule.map(|r| r.name.as_str()),
        "description": rule.map(|r| sentence(r, domain.schema())),
        "line": line,
        "cells": cells,
        "bits": step.bits,
        "heading": described.heading,
        "notes": described.notes,
    })
}

/// `explain`.
pub fn run(args: &ExplainArgs) -> CmdResult {
    let shown = args.puzzle.display().to_string();
    if let Some(out) = &args.html {
        check_output(out, &[&args.puzzle, &args.rules])?;
    }
    let puzzle = read_puzzle(&args.puzzle).map_err(|e| e.to_string())?;
    let (domain, rules) = read_nonogram_rules(&args.rules)?;
    let (Outcome { solutions, .. }, _) = count(&puzzle, Limits::solutions(2)).map_err(|e| format!("{shown}: {e}"))?;
    let Some(solution) = solutions.first() else {
        return Err(format!("{shown}: the clues contradict each other: the puzzle has no solution"));
    };
    let clues = Clues::from_puzzle(&puzzle);
    let played = play(&clues, Knowledge::Rules { domain: &domain, rules: &rules }, solution, None)
        .map_err(|e| format!("{shown}: {e}"))?;
    let title = puzzle.title.clone().unwrap_or_else(|| shown.clone());
    let summary = format!(
        "{}x{}, {}; {} steps with the {} rules of {}, {} of them the complete solver's ({:.1} bits)",
        puzzle.width,
        puzzle.height,
        if solutions.len() == 1 {
            "exactly one solution"
        } else {
            "TWO OR MORE solutions (the oracle follows the first found)"
        },
        played.steps.len(),
        rules.len(),
        args.rules.display(),
        played.oracle_steps(),
        played.difficulty
    );
    if !args.json {
        println!("{}: {summary}", super::printable(&title));
    }
    let limit = domain.schema().file.limits.max_state as usize;
    if puzzle.width.max(puzzle.height) > limit {
        eprintln!("{shown}: lines longer than the {limit} cells rules are applied to (and proven for): the rules do not apply, every step is the complete solver's");
    }
    let mut shown_rules = vec![false; rules.len()];
    let page_steps: Vec<PageStep> =
        played.steps.iter().enumerate().map(|(i, step)| describe(i, step, &clues, &domain, &rules)).collect();
    if args.json {
        let list: Vec<Value> =
            played.steps.iter().zip(&page_steps).map(|(s, p)| step_json(s, p, &clues, &domain, &rules)).collect();
        println!("{}", serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?);
    }
    for (step, described) in played.steps.iter().zip(&page_steps).filter(|_| !args.json) {
        println!("{}", described.heading);
        for n in &described.notes {
            println!("    {n}");
        }
        if let (How::Rule { rule, .. }, Some(text)) = (&step.how, &described.rule_text) {
            if !shown_rules[*rule] {
                shown_rules[*rule] = true;
                for l in text.lines() {
                    println!("    | {l}");
                }
            }
        }
    }
    if let Some(out) = &args.html {
        let html = page(&title, &summary, &clues, &page_steps);
        write_output(out, &html)?;
        eprintln!("wrote {} ({} steps)", out.display(), page_steps.len());
    }
    Ok(ExitCode::SUCCESS)
}
