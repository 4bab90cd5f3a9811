//! The report of `generate nonogram` (and of the studio's repair and
//! random routes): the puzzles made, a picture's repairs or why there are
//! none, as text (a summary table, the changed cells listed and drawn) or
//! JSON.

use crate::domains::nonogram::formats::non::Puzzle;
use crate::domains::nonogram::make::accept::Wanted;
use crate::domains::nonogram::make::judge::Solve;
use crate::domains::nonogram::make::picture::Picture;
use crate::domains::nonogram::make::repair::{Repair, RepairBudget, Tally};
use crate::domains::nonogram::make::run::{repair_picture, Kept, Repaired};
use crate::report::remedies::Remedies;
use crate::report::ticking::ticking;
use crate::stop::Stop;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// One puzzle made.
pub struct Made {
    /// Its name, also its file's (`repair-1`, `random-3`, `unchanged`).
    pub name: String,
    /// Its title.
    pub title: String,
    /// Where it came from (`candidate 17`, `repair-1`).
    pub origin: String,
    /// The puzzle, with its goal.
    pub puzzle: Puzzle,
    /// The cells changed from the picture (grid indices).
    pub changed: Vec<usize>,
    /// The player's solve.
    pub solve: Solve,
}

/// What a run made.
pub struct Report {
    /// The first line of the report.
    pub summary: String,
    /// The puzzles, in output order.
    pub made: Vec<Made>,
    /// The player's rule names (empty without rules).
    pub rule_names: Vec<String>,
    /// The picture repaired, if any.
    pub original: Option<Vec<bool>>,
}

/// `row r, column c` (from 1) of grid index `p`.
fn cell_name(width: usize, p: usize) -> (usize, usize) {
    (p / width + 1, p % width + 1)
}

/// The rules a solve used, most used first: `name×count`.
fn rules_used(names: &[String], solve: &Solve) -> Vec<(String, usize)> {
    let mut used: Vec<(String, usize)> =
        names.iter().cloned().zip(solve.rule_counts.iter().copied()).filter(|(_, n)| *n > 0).collect();
    used.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    used
}

/// A picture as text, one row a line: `#` black, `.` white, and for the
/// cells changed from `original`: `+` made black, `-` made white.
fn drawing(width: usize, cells: &[bool], original: &[bool]) -> String {
    cells
        .chunks(width)
        .zip(original.chunks(width))
        .map(|(row, before)| {
            let line: String = row
                .iter()
                .zip(before)
                .map(|(&now, &was)| match (now, was) {
                    (true, true) => '#',
                    (false, false) => '.',
                    (true, false) => '+',
                    (false, true) => '-',
                })
                .collect();
            format!("    {line}\n")
        })
        .collect()
}

/// The changed cells in words.
pub fn changed_words(width: usize, m: &Made) -> String {
    let goal = m.puzzle.goal.as_deref().unwrap_or_default();
    let words: Vec<String> = m
        .changed
        .iter()
        .map(|&p| {
            let (r, c) = cell_name(width, p);
            format!("row {r} column {c} made {}", if goal[p] { "black" } else { "white" })
        })
        .collect();
    words.join(", ")
}

/// The text report: summary, table, changes, rules used.
pub fn text(report: &Report) -> String {
    let mut out = format!("{}\n", report.summary);
    let width = report.made.iter().map(|m| m.name.len()).max().unwrap_or(6).max(6);
    out += &format!(
        "{:<width$}  {:>7} {:>6} {:>7} {:>7}  rules used (steps)\n",
        "puzzle", "size", "steps", "bits", "changed"
    );
    for m in &report.made {
        let used: Vec<String> =
            rules_used(&report.rule_names, &m.solve).iter().map(|(n, k)| format!("{n} {k}")).collect();
        let size = format!("{}x{}", m.puzzle.width, m.puzzle.height);
        let used = if report.rule_names.is_empty() { "-".to_string() } else { used.join(", ") };
        out += &format!(
            "{:<width$}  {size:>7} {:>6} {:>7.2} {:>7}  {used}\n",
            m.name,
            m.solve.steps,
            m.solve.bits,
            m.changed.len()
        );
    }
    if let Some(original) = &report.original {
        for m in report.made.iter().filter(|m| !m.changed.is_empty()) {
            out += &format!("{}: {}\n", m.name, changed_words(m.puzzle.width, m));
            out += &drawing(m.puzzle.width, m.puzzle.goal.as_deref().unwrap_or_default(), original);
        }
    }
    if !report.rule_names.is_empty() {
        let mut total = vec![0; report.rule_names.len()];
        for m in &report.made {
            total.iter_mut().zip(&m.solve.rule_counts).for_each(|(t, k)| *t += k);
        }
        let all = Solve { steps: 0, bits: 0.0, rule_counts: total };
        out += "steps made by each rule over all puzzles:\n";
        for (name, k) in rules_used(&report.rule_names, &all) {
            out += &format!("  {name:<30} {k:>6}\n");
        }
    }
    out
}

/// The report as JSON.
pub fn json_report(report: &Report, files: &[Option<String>]) -> Value {
    let puzzles: Vec<Value> = report
        .made
        .iter()
        .zip(files)
        .map(|(m, file)| {
            let goal = m.puzzle.goal.as_deref().unwrap_or_default();
            let changed: Vec<Value> = m
                .changed
                .iter()
                .map(|&p| {
                    let (row, column) = cell_name(m.puzzle.width, p);
                    json!({"row": row, "column": column, "black": goal[p]})
                })
                .collect();
            let rules: serde_json::Map<String, Value> =
                rules_used(&report.rule_names, &m.solve).into_iter().map(|(n, k)| (n, json!(k))).collect();
            json!({
                "name": m.name, "title": m.title, "origin": m.origin, "file": file,
                "width": m.puzzle.width, "height": m.puzzle.height,
                "steps": m.solve.steps, "bits": m.solve.bits, "changed": changed, "rules": rules,
                "goal": goal.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>(),
            })
        })
        .collect();
    json!({"summary": report.summary, "puzzles": puzzles})
}

/// The random puzzles kept from the pictures of `seed`, as made puzzles
/// (named later).
pub fn random_made(kept: Vec<Kept>, seed: u64) -> Vec<Made> {
    kept.into_iter()
        .map(|(index, picture, solve)| Made {
            name: String::new(),
            title: format!("Random {}x{}, seed {seed}, candidate {index}", picture.width, picture.height),
            origin: format!("candidate {index}"),
            puzzle: picture.puzzle(None),
            changed: vec![],
            solve,
        })
        .collect()
}

/// A player as a report names it: its name and its rules' names (none but
/// for a rule player).
pub struct NamedPlayer<'a> {
    /// The player's name.
    pub name: &'a str,
    /// Its rules' names, in file order.
    pub rule_names: Vec<String>,
}

/// The report of `generate nonogram --from`: the picture's first `count`
/// repairs for the player `player` (one with no change if it is fine), or
/// none with a summary saying that none was found within `budget` and
/// what searches further (`remedies`).
pub fn repair_report(
    picture: &Picture,
    shown: &str,
    player: NamedPlayer,
    wanted: &Wanted,
    budget: RepairBudget,
    count: usize,
    remedies: Remedies,
) -> Result<Report, String> {
    let NamedPlayer { name: player, rule_names } = player;
    let started = Instant::now();
    let tally = Tally::default();
    let say = |elapsed: Duration| {
        Some(format!(
            "{shown}: repair search, {:.0} s: stage {} of 4, {} pictures judged, fewest cells left undecided {}",
            elapsed.as_secs_f64(),
            tally.stage(),
            tally.judged(),
            tally.best().map_or("-".into(), |b| b.to_string())
        ))
    };
    let repaired =
        ticking(say, || repair_picture(picture, wanted, budget, &tally)).map_err(|e| format!("{shown}: {e}"))?;
    let seconds = started.elapsed().as_secs_f64();
    let title = picture.title.clone().unwrap_or_else(|| shown.to_string());
    let (w, h) = (picture.width, picture.height);
    let undecided = match repaired.differing {
        d if *wanted.bits.end() > 0.0 => format!(
            "repaired for uniqueness alone (the player {player} may guess {:?} bits): the clues have two solutions differing in {d} cells",
            wanted.bits
        ),
        0 => format!("the player {player} leaves {} cells undecided", repaired.undecided),
        d => format!(
            "the player {player} leaves {} cells undecided; the clues have two solutions differing in {d} cells, where the search starts",
            repaired.undecided
        ),
    };
    let summary = match (repaired.stage, repaired.repairs.first()) {
        (0, _) => format!("{shown}: {w}x{h} picture; its puzzle is unique and the player {player} solves it without guessing: nothing to change"),
        (_, None) => format!("{shown}: {w}x{h} picture; {undecided}; {}", no_repair(&repaired, budget, seconds, remedies)),
        (stage, Some((changed, _))) => format!(
            "{shown}: {w}x{h} picture; {undecided}; {} repairs of {} changed cells found (stage {stage} of 4, {} pictures judged, {seconds:.2} s); the {} best (fewest steps first):",
            repaired.repairs.len(),
            changed.len(),
            repaired.evaluations,
            repaired.repairs.len().min(count)
        ),
    };
    let made: Vec<Made> = repaired
        .repairs
        .into_iter()
        .take(count)
        .enumerate()
        .map(|(k, (changed, solve))| {
            let cells = Repair { changed: changed.clone() }.apply(&picture.cells);
            let (name, title) = if changed.is_empty() {
                ("unchanged".to_string(), title.clone())
            } else {
                (format!("repair-{}", k + 1), format!("{title}, repair {}", k + 1))
            };
            let puzzle = Picture { cells, ..picture.clone() }.puzzle(None);
            Made { origin: name.clone(), name, title, puzzle, changed, solve }
        })
        .collect();
    Ok(Report { summary, made, rule_names, original: Some(picture.cells.clone()) })
}

/// Why a repair search found nothing: what ran out, or that it tried every
/// change up to the largest number.
fn no_repair(repaired: &Repaired, budget: RepairBudget, seconds: f64, remedies: Remedies) -> String {
    let (n, stage, most) = (repaired.evaluations, repaired.stage, budget.max_changes);
    match repaired.stopped {
        // the repair search stops on its pictures judged or on its deadline
        Some(Stop::Evaluations) => format!(
            "no repair within the budget: --max-evaluations {n} pictures judged (stage {stage} of 4, up to {most} changed cells); {}",
            remedies.judged
        ),
        Some(_) => format!(
            "no repair within the budget: the time ran out after {seconds:.1} s and {n} pictures judged (stage {stage} of 4, up to {most} changed cells); {}",
            remedies.time
        ),
        None => format!(
            "no repair of at most {most} changed cells near the undecided cells ({n} pictures judged in {seconds:.1} s); {}",
            remedies.changes
        ),
    }
}
