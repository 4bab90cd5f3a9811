//! What `generate flow --from` (and the studio's Flow repair) says of a
//! drawn puzzle: fine as it is, repaired (the changes in words, the
//! player's solve, the puzzle drawn with its solution), or why no repair
//! was found; as text or as the `--json` object, and the repaired puzzle's
//! file in the drawn puzzle's layout.

use serde_json::{json, Value};

use super::generate::{rules_used, table};
use crate::domains::flow::draw::text::board;
use crate::domains::flow::formats::read::Layout;
use crate::domains::flow::formats::write::{counted_text, grid_text, sized_text, solution_json, WriteError};
use crate::domains::flow::make::repair::{Change, Found, Repaired, Verdict};
use crate::domains::flow::model::grid::{Cell, Grid};
use crate::domains::flow::model::puzzle::Puzzle;
use crate::report::remedies::Remedies;

/// A repair search's report.
pub struct Report {
    /// The drawn puzzle's name (its file, or `FILE#N`).
    pub shown: String,
    /// The drawn puzzle.
    pub drawn: Puzzle,
    /// What the search found.
    pub found: Found,
    /// The player, as the report names it.
    pub player: String,
    /// The player's rules' names, in file order (none for `search`).
    pub rule_names: Vec<String>,
    /// The player's bits of guessing allowed (`None`: any).
    pub max_bits: Option<f64>,
    /// The most changes the search could make.
    pub max_changes: usize,
    /// The search's deadline, in seconds from its start.
    pub timeout: f64,
    /// Seconds the search took.
    pub seconds: f64,
    /// What the summary says to raise when the search ran out.
    pub remedies: Remedies,
}

/// `n` and `word`, with an `s` unless `n` is 1.
fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// `(x, y)` of cell `c`.
fn at(g: &Grid, c: Cell) -> String {
    let (x, y) = g.xy(c);
    format!("({x}, {y})")
}

/// A change in words: `move A from (0, 0) to (1, 0)`, `add K at (2, 3)
/// and (4, 3)`, `remove C from (1, 1) and (5, 1)`.
pub fn change_words(g: &Grid, change: &Change) -> String {
    let [a, b] = change.cells();
    let (a, b) = (at(g, a), at(g, b));
    match change {
        Change::Move { colour, .. } => format!("move {colour} from {a} to {b}"),
        Change::Add { colour, .. } => format!("add {colour} at {a} and {b}"),
        Change::Remove { colour, .. } => format!("remove {colour} from {a} and {b}"),
    }
}

/// A change as JSON: `{"change": "move", "colour": "A", "from": [x, y],
/// "to": [x, y]}`, or for `add` and `remove` the pair's `"ends"`.
pub fn change_json(g: &Grid, change: &Change) -> Value {
    let [a, b] = change.cells().map(|c| <[usize; 2]>::from(g.xy(c)));
    let colour = change.colour().to_string();
    match change {
        Change::Move { .. } => json!({"change": "move", "colour": colour, "from": a, "to": b}),
        _ => json!({"change": change.kind(), "colour": colour, "ends": [a, b]}),
    }
}

impl Report {
    /// The repaired puzzle's name: `unchanged` or `repair-1`.
    fn name(r: &Repaired) -> &'static str {
        if r.changes.is_empty() {
            "unchanged"
        } else {
            "repair-1"
        }
    }

    /// The bits allowed, in words.
    fn bits(&self) -> String {
        match self.max_bits {
            Some(0.0) => "without guessing".into(),
            Some(b) => format!("within {b} bits of guessing"),
            None => "with any bits of guessing".into(),
        }
    }

    /// What the drawn puzzle is, in words.
    fn drawn_words(&self) -> String {
        let (player, bits, slots) = (&self.player, self.bits(), self.drawn.grid().slots());
        match &self.found.drawn {
            Verdict::Wanted(..) => format!("one solution, and the player {player} solves it {bits}"),
            Verdict::Stuck { open, .. } => {
                format!("one solution, but the player {player} leaves {open} of its {slots} slots open {bits}")
            }
            Verdict::Several { differ, .. } => format!("two solutions or more (two differ in {differ} slots)"),
            Verdict::None { .. } => "no solution".into(),
            Verdict::Unknown => "its solutions not counted within the node budget (--max-nodes)".into(),
            Verdict::Stopped => "its solutions not counted before the deadline".into(),
        }
    }

    /// The one-line summary.
    pub fn summary(&self) -> String {
        let p = &self.drawn;
        let head = format!(
            "{}: {}x{}, {}: {}",
            self.shown,
            p.width(),
            p.height(),
            plural(p.colours(), "colour"),
            self.drawn_words()
        );
        let f = &self.found;
        match &f.repair {
            Some(r) if r.changes.is_empty() => format!("{head}: nothing to change"),
            Some(r) => {
                let words: Vec<String> = r.changes.iter().map(|c| change_words(p.grid(), c)).collect();
                format!(
                    "{head}; repaired with {} ({} judged in {:.2} s): {}",
                    plural(r.changes.len(), "change"),
                    plural(f.judged as usize, "puzzle"),
                    self.seconds,
                    words.join(", ")
                )
            }
            None if f.stopped.is_some() => {
                let tried = match f.tried {
                    0 => String::new(),
                    n => format!(", every repair of up to {} tried", plural(n, "change")),
                };
                format!(
                    "{head}; no repair found within {} s ({} judged{tried}): {}",
                    self.timeout,
                    plural(f.judged as usize, "puzzle"),
                    self.remedies.time
                )
            }
            None => format!(
                "{head}; no repair found within {} ({} puzzles judged in {:.2} s; every single change tried, more only near the {} puzzles nearest to what is wanted): {}",
                plural(self.max_changes, "change"),
                f.judged,
                self.seconds,
                crate::domains::flow::make::repair::BEAM,
                self.remedies.changes
            ),
        }
    }

    /// The text report: the summary, the repaired puzzle's row (steps,
    /// bits, rules used) and its drawing with its solution.
    pub fn text(&self) -> Result<String, WriteError> {
        let mut out = format!("{}\n", self.summary());
        if let Some(r) = &self.found.repair {
            out += &table(&[(Self::name(r).to_string(), &r.puzzle, &r.play)], &self.rule_names);
            out += &board(&r.puzzle, Some(&r.solution))?;
        }
        Ok(out)
    }

    /// The `--json` object: `summary` (its lines), `solutions` (the drawn
    /// puzzle's: 0, 1, 2 meaning two or more, `null` if not known),
    /// `judged`, `changes_tried` (every repair of up to that many changes
    /// judged), `stopped` (`"timeout"` or `null`) and `puzzles`: the
    /// repaired puzzle, if any, with `name` (`unchanged` or `repair-1`),
    /// `title`, `file` (where it was written, if it was), `width`,
    /// `height`, `colours`, `steps`, `bits`, `rules` (slots each rule
    /// decided), `changed` (the changes, [`change_json`]), `grid` (the grid
    /// layout) and `solution` (`{"links": ...}`).
    pub fn json(&self, file: Option<&str>) -> Result<Value, WriteError> {
        let f = &self.found;
        let mut puzzles = vec![];
        if let Some(r) = &f.repair {
            let rules: serde_json::Map<String, Value> =
                rules_used(&self.rule_names, &r.play).into_iter().map(|(n, c)| (n, json!(c))).collect();
            let p = &r.puzzle;
            puzzles.push(json!({
                "name": Self::name(r), "title": p.title, "file": file,
                "width": p.width(), "height": p.height(), "colours": p.colours(),
                "steps": r.play.steps.len(), "bits": r.play.bits, "rules": rules,
                "changed": r.changes.iter().map(|c| change_json(p.grid(), c)).collect::<Vec<_>>(),
                "grid": grid_text(p)?, "solution": solution_json(p, &r.solution),
            }));
        }
        Ok(json!({
            "summary": [self.summary()], "solutions": f.drawn.solutions(), "judged": f.judged,
            "changes_tried": f.tried, "stopped": f.stopped.map(|s| s.name()), "puzzles": puzzles,
        }))
    }

    /// The repaired puzzle's file in `layout`, its metadata the drawn
    /// puzzle's with a `repair` line (the changes, the player's steps and
    /// bits) and `source` (the command); `None` without a repair.
    pub fn file_text(&self, layout: Layout, command: &str) -> Result<Option<String>, WriteError> {
        let Some(r) = &self.found.repair else { return Ok(None) };
        let mut p = r.puzzle.clone();
        let words: Vec<String> = r.changes.iter().map(|c| change_words(p.grid(), c)).collect();
        let changes = if words.is_empty() { "no change".to_string() } else { words.join(", ") };
        let note = format!(
            "{changes}; player {}: {} steps, {:.2} bits of guessing",
            self.player,
            r.play.steps.len(),
            r.play.bits
        );
        p.metadata.retain(|(k, _)| k != "repair" && k != "source");
        p.metadata.push(("repair".into(), note));
        p.metadata.push(("source".into(), command.into()));
        Ok(Some(match layout {
            Layout::Grid => grid_text(&p)?,
            Layout::Counted => counted_text(&p),
            Layout::Sized => sized_text(&[&p])?,
        }))
    }
}
