//! What `generate flow` says of the puzzles it made: the text table (size,
//! colours, the player's steps and bits, rules used) or the `--json`
//! object, and each puzzle's file text with its metadata.

use serde_json::{json, Value};

use crate::domains::flow::formats::write::{grid_text, sized_text, solution_json, WriteError};
use crate::domains::flow::make::run::Made;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::play::playthrough::Playthrough;

/// The slots each of the rules `names` decided in `play`, the rules that
/// decided some, most first (ties in file order).
pub fn rules_used(names: &[String], play: &Playthrough) -> Vec<(String, usize)> {
    let counts = play.rule_counts(names.len());
    let mut used: Vec<(String, usize)> = names.iter().cloned().zip(counts).filter(|(_, k)| *k > 0).collect();
    used.sort_by_key(|u| std::cmp::Reverse(u.1));
    used
}

/// The table of puzzles: per `(name, puzzle, the player's solve)` a row
/// with its size, colours, steps, bits and the slots each of the rules
/// `names` decided, under a header.
pub fn table(rows: &[(String, &Puzzle, &Playthrough)], names: &[String]) -> String {
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(6);
    let mut out = format!(
        "{:<width$}  {:>7} {:>7} {:>6} {:>7}  rules used (slots decided)\n",
        "puzzle", "size", "colours", "steps", "bits"
    );
    for (name, p, play) in rows {
        let used: Vec<String> = rules_used(names, play).iter().map(|(n, k)| format!("{n} {k}")).collect();
        let used = if used.is_empty() { "-".to_string() } else { used.join(", ") };
        out += &format!(
            "{name:<width$}  {:>7} {:>7} {:>6} {:>7.2}  {used}\n",
            format!("{}x{}", p.width(), p.height()),
            p.colours(),
            play.steps.len(),
            play.bits
        );
    }
    out
}

/// A run's report.
pub struct Report {
    /// One line per board size: what was asked and kept, in what time.
    pub summary: Vec<String>,
    /// The puzzles, named `random-1`, `random-2`, ... in order.
    pub made: Vec<Made>,
    /// The player's rules' names, in file order (none for `search`).
    pub rule_names: Vec<String>,
    /// `--player` as given.
    pub player: String,
    /// `--seed`.
    pub seed: u64,
}

impl Report {
    /// Puzzle `k`'s name (from 0).
    pub fn name(k: usize) -> String {
        format!("random-{}", k + 1)
    }

    /// The slots each rule decided in `m`'s solve, the rules that decided
    /// some, most first (ties in file order).
    fn rules_used(&self, m: &Made) -> Vec<(String, usize)> {
        rules_used(&self.rule_names, &m.play)
    }

    /// Puzzle `k` with its title and metadata (`by`, `source`: the
    /// command, `note`: candidate, seed, player, steps and bits).
    pub fn puzzle(&self, k: usize, command: &str) -> Puzzle {
        let m = &self.made[k];
        let mut p = m.puzzle.clone();
        p.title = Some(format!(
            "Random {}x{}, {} colours, seed {}, candidate {} ({})",
            p.width(),
            p.height(),
            p.colours(),
            self.seed,
            m.index,
            Self::name(k)
        ));
        let note = format!(
            "candidate {}; seed {}; player {}: {} steps, {:.2} bits of guessing",
            m.index,
            self.seed,
            self.player,
            m.play.steps.len(),
            m.play.bits
        );
        p.metadata = vec![
            ("by".into(), "stratsynth generate flow".into()),
            ("source".into(), command.into()),
            ("note".into(), note),
        ];
        p
    }

    /// Every puzzle with its metadata in one file of the sized layout.
    pub fn set_text(&self, command: &str) -> Result<String, WriteError> {
        let puzzles: Vec<Puzzle> = (0..self.made.len()).map(|k| self.puzzle(k, command)).collect();
        sized_text(&puzzles.iter().collect::<Vec<_>>())
    }

    /// Puzzle `k` with its metadata in the grid layout.
    pub fn file_text(&self, k: usize, command: &str) -> Result<String, WriteError> {
        grid_text(&self.puzzle(k, command))
    }

    /// The text report: the summary, then one row per puzzle.
    pub fn text(&self) -> String {
        let out: String = self.summary.iter().map(|l| format!("{l}\n")).collect();
        let rows: Vec<(String, &Puzzle, &Playthrough)> =
            self.made.iter().enumerate().map(|(k, m)| (Self::name(k), &m.puzzle, &m.play)).collect();
        out + &table(&rows, &self.rule_names)
    }

    /// The `--json` object: `summary` (its lines) and `puzzles`, each with
    /// `name`, `file` (where it was written, if it was), `candidate`,
    /// `width`, `height`, `colours`, `steps`, `bits`, `rules` (slots each
    /// rule decided), `grid` (the puzzle in the grid layout) and
    /// `solution` (`{"links": ...}`).
    pub fn json(&self, files: &[Option<String>]) -> Result<Value, WriteError> {
        let mut puzzles = vec![];
        for (k, (m, file)) in self.made.iter().zip(files).enumerate() {
            let rules: serde_json::Map<String, Value> =
                self.rules_used(m).into_iter().map(|(n, c)| (n, json!(c))).collect();
            puzzles.push(json!({
                "name": Self::name(k), "file": file, "candidate": m.index,
                "width": m.puzzle.width(), "height": m.puzzle.height(), "colours": m.puzzle.colours(),
                "steps": m.play.steps.len(), "bits": m.play.bits, "rules": rules,
                "grid": grid_text(&m.puzzle)?, "solution": solution_json(&m.puzzle, &m.solution),
            }));
        }
        Ok(json!({"summary": self.summary, "puzzles": puzzles}))
    }
}
