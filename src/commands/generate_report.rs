//! The outputs of `generate nonogram`: the report on standard output (a
//! summary table of size, steps, bits and rules used, the changed cells of
//! repairs listed and drawn as text; or `--json`), one `.non` per puzzle in
//! the `-o` directory (title, the generating command, seed and player as
//! metadata, and the goal) and the `--html` page. Every output path is
//! checked before any work (the `-o` directory is created only when a
//! puzzle is written), and the report is printed before the files are
//! written, so a failed write loses nothing computed.

use super::{check_output, command_line, write_output};
use std::path::Path;
use stratsynth::domains::nonogram::board::propagate::Clues;
use stratsynth::domains::nonogram::formats::non::format_non;
use stratsynth::domains::nonogram::play::html::{gallery, Drawn};
use stratsynth::report::nonogram::generate::{changed_words, json_report, text, Report};

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
