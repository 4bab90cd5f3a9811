//! `analyze`'s answer for one nonogram (`--json`, and the studio's
//! analyze route): its solutions or what stopped the count, solvability by
//! the line solver and by the rules, steps, bits, the rules fired.

use crate::domains::nonogram::play::analysis::Analysis;
use crate::domains::nonogram::play::player::Playthrough;
use crate::dsl::ast::Rule;
use serde::Serialize;
use std::collections::BTreeMap;

/// One puzzle in `--json`.
#[derive(Serialize)]
pub struct JsonPuzzle<'a> {
    file: String,
    width: usize,
    height: usize,
    /// 0, 1, or 2 for "two or more" (1 for "one or more" with `--first`);
    /// null if the solver stopped first.
    solutions: Option<usize>,
    /// Why the solver stopped before it knew (`"timeout"`, `"node budget"`).
    stopped: Option<&'static str>,
    line_solvable: bool,
    rules_solvable: Option<bool>,
    /// Steps of the player with the rules (with the line solver without `--rules`).
    steps: Option<usize>,
    /// Bits of the player with the rules (with the line solver without `--rules`).
    difficulty: Option<f64>,
    oracle_steps: Option<usize>,
    line_steps: Option<usize>,
    line_oracle_steps: Option<usize>,
    line_difficulty: Option<f64>,
    rules_fired: BTreeMap<&'a str, usize>,
    /// Why the player's solves stopped before the difficulty was known
    /// (`"timeout"`): the steps and bits of the solves that had not ended
    /// (the rules' and, if it had not ended either, the line solver's) and
    /// `rules_solvable` are then null.
    difficulty_stopped: Option<&'static str>,
    search_nodes: u64,
    search_ms: f64,
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The rules that fired, by name (rules that never fired left out).
fn fired<'a>(rules: &'a [Rule], p: Option<&Playthrough>) -> BTreeMap<&'a str, usize> {
    p.map(|p| rules.iter().zip(&p.rule_counts).filter(|(_, &n)| n > 0).map(|(r, &n)| (r.name.as_str(), n)).collect())
        .unwrap_or_default()
}

/// Whether the player with the rules solves the puzzle without the
/// oracle: `None` if the count or its solve was stopped before it ended.
pub fn rules_solved(a: &Analysis) -> Option<bool> {
    match &a.rules {
        Some(p) => Some(p.solved_by_knowledge()),
        None => (a.play_stopped.is_none() && a.stopped.is_none()).then_some(false),
    }
}

/// One puzzle's analysis in `--json`, `rules` the player's rule set (if any).
pub fn json_puzzle<'a>(
    file: String,
    width: usize,
    height: usize,
    a: &Analysis,
    rules: Option<&'a [Rule]>,
) -> JsonPuzzle<'a> {
    let p = if rules.is_some() { a.rules.as_ref() } else { a.line.as_ref() };
    JsonPuzzle {
        file,
        width,
        height,
        solutions: a.solution_count(),
        stopped: a.stopped.map(|s| s.name()),
        line_solvable: a.line_solvable,
        rules_solvable: rules.filter(|_| !a.too_long_for_rules).and_then(|_| rules_solved(a)),
        steps: p.map(|p| p.steps.len()),
        difficulty: p.map(|p| round2(p.difficulty)),
        oracle_steps: p.map(Playthrough::oracle_steps),
        line_steps: a.line.as_ref().map(|p| p.steps.len()),
        line_oracle_steps: a.line.as_ref().map(Playthrough::oracle_steps),
        line_difficulty: a.line.as_ref().map(|p| round2(p.difficulty)),
        rules_fired: fired(rules.unwrap_or_default(), a.rules.as_ref()),
        difficulty_stopped: a.play_stopped.map(|s| s.name()),
        search_nodes: a.nodes,
        search_ms: round2(a.search_time.as_secs_f64() * 1000.0),
    }
}
