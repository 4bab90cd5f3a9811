//! `explain`'s steps of a nonogram solve (the text, the HTML page's steps,
//! `--json`, and the studio's explain route): each step's heading, the
//! rule and its binding in words, the cells it fills.

use crate::domains::nonogram::board::grid::Axis;
use crate::domains::nonogram::board::propagate::Clues;
use crate::domains::nonogram::play::html::PageStep;
use crate::domains::nonogram::play::player::{How, Step};
use crate::domains::nonogram::rules::describe::sentence;
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::print::print_rule;
use serde_json::{json, Value};

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
pub fn describe(i: usize, step: &Step, clues: &Clues, domain: &Nonogram, rules: &[Rule]) -> PageStep {
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
pub fn step_json(step: &Step, described: &PageStep, clues: &Clues, domain: &Nonogram, rules: &[Rule]) -> Value {
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
