//! The outputs of `generate nonogram`: the report on standard output (a
//! summary table of size, steps, bits and rules used, the changed cells of
//! repairs listed and drawn as text; or `--json`), one `.non` per puzzle in
//! the `-o` directory (title, the generating command, seed and player as
//! metadata, and the goal) and the `--html` page. Every output path is
//! checked before any work (the `-o` directory is created only when a
//! puzzle is written), and the report is printed before the files are
//! written, so a failed write loses nothing computed.

use super::{check_output, command_line, write_output};
use serde_json::{json, Value};
use std::path::Path;
use stratsynth::domains::nonogram::board::propagate::Clues;
use stratsynth::domains::nonogram::formats::non::{format_non, Puzzle};
use stratsynth::domains::nonogram::make::judge::Solve;
use stratsynth::domains::nonogram::play::html::{gallery, Drawn};

/// Where and how the report goes.
pub struct Outputs<'a> {
    /// `-o`: the directory of the puzzle files.
    pub dir: Option<&'a Path>,
    /// `--html`: the page.
    pub html: Option<&'a Path>,
    /// `--json`.
    pub json: bool,
    /// `--seed`, for the files' metadata.
    pub seed: u64,
    /// `--player`, for the files' metadata.
    pub player: &'a str,
}

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

/// The file names a run may write in the `-o` directory: `NAME.non` for
/// each of `names`, `unchanged.non` and `PREFIX-K.non` for K from 1 to
/// `count` (never listed whole: `count` may be large).
pub struct Names<'a> {
    /// Fixed names, without `.non`.
    pub fixed: &'a [&'a str],
    /// The numbered names' prefix (`random`, `repair`).
    pub prefix: &'a str,
    /// The largest number.
    pub count: usize,
}

impl Names<'_> {
    /// Whether the run may write the file `name` in the directory.
    fn has(&self, name: &str) -> bool {
        let Some(stem) = name.strip_suffix(".non") else { return false };
        self.fixed.contains(&stem)
            || stem
                .strip_prefix(self.prefix)
                .and_then(|k| k.strip_prefix('-'))
                .filter(|k| !k.starts_with('0'))
                .and_then(|k| k.parse::<usize>().ok())
                .is_some_and(|k| (1..=self.count).contains(&k))
    }
}

/// `path` made absolute and canonical: links resolved where it exists,
/// `.` and `..` dropped lexically where it does not.
fn resolved(path: &Path) -> std::path::PathBuf {
    if let Ok(canonical) = path.canonicalize() {
        return canonical;
    }
    let mut out = std::path::PathBuf::new();
    for part in std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()).components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => {
                out.push(other);
                if let Ok(canonical) = out.canonicalize() {
                    out = canonical;
                }
            }
        }
    }
    out
}

/// Checks, before any work (and creating nothing), the `-o` directory and
/// each file in it the run may write (the existing ones: the work done
/// does not depend on how many are asked for), and the `--html` page,
/// which must not be one of those files.
pub fn check_outputs(args: &Outputs, names: &Names, inputs: &[&Path]) -> Result<(), String> {
    if let Some(dir) = args.dir {
        if dir.exists() && !dir.is_dir() {
            return Err(format!("{}: -o takes a directory (one .non per puzzle)", dir.display()));
        }
        let existing = dir.ancestors().find(|a| a.as_os_str().is_empty() || a.exists());
        if existing.is_some_and(|a| !a.as_os_str().is_empty() && !a.is_dir()) {
            return Err(format!("{}: cannot create the output directory: a parent is not a directory", dir.display()));
        }
        if dir.is_dir() {
            let entries = std::fs::read_dir(dir)
                .map_err(|e| format!("{}: cannot read the output directory: {e}", dir.display()))?;
            for entry in entries.flatten() {
                if entry.file_name().to_str().is_some_and(|n| names.has(n)) {
                    check_output(&entry.path(), inputs)?;
                }
            }
        }
    }
    if let Some(html) = args.html {
        let parent = html.parent().map(|p| if p.as_os_str().is_empty() { Path::new(".") } else { p });
        let in_dir = args.dir.is_some_and(|dir| parent.is_some_and(|p| resolved(p) == resolved(dir)));
        if in_dir && html.file_name().and_then(|n| n.to_str()).is_some_and(|n| names.has(n)) {
            return Err(format!(
                "--html {}: a puzzle file of -o {} may have this name; give the page another",
                html.display(),
                args.dir.map(|d| d.display().to_string()).unwrap_or_default()
            ));
        }
        // a page in the -o directory not made yet is checked when it is
        if !(in_dir && args.dir.is_some_and(|d| !d.is_dir())) {
            check_output(html, inputs)?;
        }
    }
    Ok(())
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
fn changed_words(width: usize, m: &Made) -> String {
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
fn text(report: &Report) -> String {
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
pub(crate) fn json_report(report: &Report, files: &[Option<String>]) -> Value {
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

/// Prints the report, then writes the puzzle files and the page.
pub fn finish(args: &Outputs, report: &Report) -> Result<(), String> {
    let files: Vec<Option<String>> =
        report.made.iter().map(|m| args.dir.map(|d| d.join(format!("{}.non", m.name)).display().to_string())).collect();
    if args.json {
        println!("{}", json_report(report, &files));
    } else {
        print!("{}", text(report));
    }
    let command = command_line();
    if let Some(dir) = args.dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create the output directory: {e}", dir.display()))?;
    }
    for (m, file) in report.made.iter().zip(&files) {
        let Some(file) = file else { continue };
        let mut puzzle = m.puzzle.clone();
        puzzle.title = Some(m.title.clone());
        let note = format!(
            "{}; seed {}; player {}: {} steps, {:.2} bits of guessing",
            m.origin, args.seed, args.player, m.solve.steps, m.solve.bits
        );
        let note =
            if m.changed.is_empty() { note } else { format!("{note}; changed: {}", changed_words(m.puzzle.width, m)) };
        let metadata = [("by", "stratsynth generate nonogram"), ("source", command.as_str()), ("note", note.as_str())];
        write_output(Path::new(file), &format_non(&puzzle, &metadata))?;
    }
    if let Some(html) = args.html {
        let items: Vec<Drawn> = report
            .made
            .iter()
            .map(|m| Drawn {
                heading: format!("{}: {}", m.name, m.title),
                notes: vec![
                    format!("{} steps, {:.2} bits of guessing", m.solve.steps, m.solve.bits),
                    if m.changed.is_empty() {
                        "no cell changed".into()
                    } else {
                        format!("changed (outlined): {}", changed_words(m.puzzle.width, m))
                    },
                ],
                clues: Clues::from_puzzle(&m.puzzle),
                solution: m.puzzle.goal.clone().unwrap_or_default(),
                marked: m.changed.clone(),
            })
            .collect();
        write_output(html, &gallery("generate nonogram", &report.summary, &items))?;
    }
    if !args.json {
        if let Some(dir) = args.dir {
            println!("wrote {} puzzle files to {}", report.made.len(), dir.display());
        }
        if let Some(html) = args.html {
            println!("wrote {}", html.display());
        }
    }
    Ok(())
}
