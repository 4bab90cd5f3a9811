//! What `analyze` says about Flow puzzles: one JSON object per puzzle
//! (the field names of the nonogram analysis where they mean the same),
//! the text table, and the drawings of a solution or of two that differ.
//! `explain` on Flow puzzles is [`explain`]'s, `generate flow`'s report [`generate`]'s
//! (and [`repair`]'s with `--from`).

use serde::Serialize;

pub mod explain;
pub mod generate;
pub mod repair;

use crate::domains::flow::draw::text::board;
use crate::domains::flow::formats::write::{solution_json, solution_links, WriteError};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::Solution;
use crate::domains::flow::play::playthrough::Playthrough;
use crate::domains::flow::solve::Outcome;
use crate::dsl::ast::Rule;
use std::collections::BTreeMap;

/// One puzzle in `analyze --json`.
#[derive(Clone, Debug, Serialize)]
pub struct JsonPuzzle {
    /// The puzzle's name (`FILE` or `FILE#N`).
    pub file: String,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Number of colours.
    pub colours: usize,
    /// Whether Flow Free's looser solutions were counted (`--touching`).
    pub touching: bool,
    /// 0, 1, or 2 for "two or more" (1 for "one or more" with `--first`);
    /// null if the solver stopped first.
    pub solutions: Option<usize>,
    /// Why the solver stopped before it knew (`"timeout"`, `"node budget"`).
    pub stopped: Option<&'static str>,
    /// The first solution found, `{"links": [[[x1, y1], [x2, y2]], ...]}`.
    pub solution: Option<serde_json::Value>,
    /// With two solutions found: the links in exactly one of them.
    pub differ: Option<Vec<[[usize; 2]; 2]>>,
    /// Search nodes visited.
    pub search_nodes: u64,
    /// The search's CPU time in milliseconds (to 0.01).
    pub search_ms: f64,
    /// Whether the rules (`--rules`) decide every slot without the
    /// oracle; null without rules or without a solution.
    pub rules_solvable: Option<bool>,
    /// Steps of the model player toward the first solution: with the
    /// rules, else with the complete solver's propagation (the `search`
    /// player); null without a solution.
    pub steps: Option<usize>,
    /// Of them, the oracle's (a slot revealed where the knowledge stalls).
    pub oracle_steps: Option<usize>,
    /// Bits of guessing: `1 + log2(open slots)` per oracle step (0 for a
    /// puzzle the knowledge solves alone), to 0.01.
    pub difficulty: Option<f64>,
    /// Slots each rule decided, by name (rules that decided none left out).
    pub rules_fired: BTreeMap<String, usize>,
}

/// The model player's solve of a puzzle for [`json_puzzle`]: its
/// playthrough and, if it played rules, their names.
pub struct Played<'a> {
    /// The solve.
    pub play: &'a Playthrough,
    /// The rules' names (`None`: the `search` player's propagation).
    pub rules: Option<&'a [Rule]>,
}

/// The milliseconds of `out`'s search, to 0.01.
fn millis(out: &Outcome) -> f64 {
    (out.time.as_secs_f64() * 100_000.0).round() / 100.0
}

/// One puzzle's answer in `--json`, with the model player's solve if it
/// was played.
pub fn json_puzzle(file: &str, p: &Puzzle, out: &Outcome, touching: bool, played: Option<&Played>) -> JsonPuzzle {
    let differ = match out.solutions.as_slice() {
        [a, b, ..] => Some(solution_links(p, &Solution::new(a.differ(b)))),
        _ => None,
    };
    JsonPuzzle {
        file: file.to_string(),
        width: p.width(),
        height: p.height(),
        colours: p.colours(),
        touching,
        solutions: out.count(),
        stopped: out.stopped.map(|s| s.name()),
        solution: out.solutions.first().map(|s| solution_json(p, s)),
        differ,
        search_nodes: out.nodes,
        search_ms: millis(out),
        rules_solvable: played.and_then(|d| d.rules.map(|_| d.play.solved_alone())),
        steps: played.map(|d| d.play.steps.len()),
        oracle_steps: played.map(|d| d.play.oracle_steps()),
        difficulty: played.map(|d| (d.play.bits * 100.0).round() / 100.0),
        rules_fired: played.map(fired).unwrap_or_default(),
    }
}

/// The slots each rule decided in `played`, by name (none left out).
fn fired(played: &Played) -> BTreeMap<String, usize> {
    let Some(rules) = played.rules else { return BTreeMap::new() };
    let counts = played.play.rule_counts(rules.len());
    rules.iter().zip(counts).filter(|&(_, n)| n > 0).map(|(r, n)| (r.name.clone(), n)).collect()
}

/// The count as the table shows it: `unknown`, `2+` (or `1+` with
/// `first`) when the limit was reached, else the number.
pub fn shown_count(out: &Outcome, first: bool) -> String {
    match out.count() {
        None => "unknown".to_string(),
        Some(n) if n == 2 || (n == 1 && first) => format!("{n}+"),
        Some(n) => n.to_string(),
    }
}

/// One row of the table of answers: the puzzle's name, the puzzle, the
/// solver's answer and the model player's solve, if played.
pub type Row<'a> = (&'a str, &'a Puzzle, &'a Outcome, Option<Played<'a>>);

/// The table of answers: puzzle, size, colours, solutions, nodes, CPU ms,
/// then, if the model player played, its steps and bits (and, with rules,
/// whether they solve it alone; `-` where there was no solve).
pub fn table(rows: &[Row], first: bool) -> String {
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(6).max(6);
    let with_play = rows.iter().any(|r| r.3.is_some());
    let with_rules = rows.iter().any(|r| r.3.as_ref().is_some_and(|d| d.rules.is_some()));
    let played = |steps: &str, bits: &str, solved: &str| {
        let rules = if with_rules { format!(" {solved:>11}") } else { String::new() };
        if with_play {
            format!(" {steps:>6} {bits:>7}{rules}")
        } else {
            String::new()
        }
    };
    let mut out = format!(
        "{:<width$} {:>7} {:>7} {:>9} {:>9} {:>9}{}\n",
        "puzzle",
        "size",
        "colours",
        "solutions",
        "nodes",
        "search ms",
        played("steps", "bits", "rules solve")
    );
    for (name, p, o, d) in rows {
        let tail = match d {
            Some(d) => played(
                &d.play.steps.len().to_string(),
                &format!("{:.2}", d.play.bits),
                if d.play.solved_alone() { "yes" } else { "no" },
            ),
            None => played("-", "-", "-"),
        };
        out += &format!(
            "{name:<width$} {:>7} {:>7} {:>9} {:>9} {:>9.2}{tail}\n",
            format!("{}x{}", p.width(), p.height()),
            p.colours(),
            shown_count(o, first),
            o.nodes,
            millis(o)
        );
    }
    out
}

/// Two drawings side by side, three spaces apart.
fn side_by_side(left: &str, right: &str) -> String {
    let width = left.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    left.lines().zip(right.lines()).map(|(l, r)| format!("  {l:<width$}   {r}\n")).collect()
}

/// What to show of one puzzle's answer under the table: two solutions
/// side by side and how many links they differ in; with `single` (the
/// only puzzle of the run), its one solution drawn.
pub fn details(file: &str, p: &Puzzle, out: &Outcome, single: bool) -> Result<String, WriteError> {
    Ok(match out.solutions.as_slice() {
        [a, b, ..] => format!(
            "\n{file}: two of its solutions (they differ in {} links):\n{}",
            a.differ(b).len(),
            side_by_side(&board(p, Some(a))?, &board(p, Some(b))?)
        ),
        [a] if single => {
            let drawn: String = board(p, Some(a))?.lines().map(|l| format!("  {l}\n")).collect();
            format!("\n{file}: its solution:\n{drawn}")
        }
        _ => String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::solve::{solve, Limits, Options, Rules};

    /// A puzzle with two solutions under `touching`: the JSON names both
    /// the first solution and where the two differ; the text draws both.
    #[test]
    fn two_solutions_are_reported_with_their_difference() {
        let p = parse_flow("A..\n...\n..A\n", "t").unwrap().remove(0).1;
        let out = solve(&p, Options { touching: true, rules: Rules::All }, Limits::solutions(2));
        let j = json_puzzle("t", &p, &out, true, None);
        assert_eq!((j.solutions, j.stopped, j.colours), (Some(2), None, 1));
        assert_eq!(j.solution.unwrap()["links"].as_array().unwrap().len(), 8);
        assert!(!j.differ.unwrap().is_empty());
        let text = details("t", &p, &out, false).unwrap();
        assert!(text.starts_with("\nt: two of its solutions (they differ in ") && text.lines().count() == 7);
        assert!(table(&[("t", &p, &out, None)], false).contains("2+"));
        let strict = solve(&p, Options::default(), Limits::solutions(2));
        let j = json_puzzle("t", &p, &strict, false, None);
        assert_eq!((j.solutions, j.solution, j.differ), (Some(0), None, None));
    }
}
