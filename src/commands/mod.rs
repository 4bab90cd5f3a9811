//! Subcommand implementations, one file per command (`VERB_DOMAIN.rs` where
//! the verb takes a domain): read inputs, call the library and its report
//! layer, print.

pub mod analyze;
pub mod analyze_witness;
pub mod bench;
pub mod bench_boards;
pub mod bench_difficulty;
pub mod bench_generate;
pub mod bench_sat;
pub mod bench_witness;
pub mod check;
pub mod compare;
pub mod compare_witness;
pub mod cover;
pub mod explain;
pub mod explain_flow;
pub mod flow;
pub mod gen_witness;
pub mod generate_flow;
pub mod generate_nonogram;
pub mod generate_report;
pub mod generate_witness;
pub mod learn_args;
pub mod learn_flow;
pub mod learn_nonogram;
pub mod learn_witness;
pub mod mine_nonogram;
pub mod mine_witness;
pub mod print;
pub mod progress;
pub mod puzzle_set;
pub mod select;
pub mod solve;
pub mod solve_witness;
pub mod synth;
pub mod test_sets;
pub mod trace;
pub mod verify;
pub mod witness;

use std::path::Path;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::schema::Schema;
use stratsynth::select::Pick;

/// The command line as typed, program name `stratsynth`.
pub fn command_line() -> String {
    let mut args: Vec<String> = std::env::args().collect();
    if let Some(first) = args.first_mut() {
        *first = "stratsynth".to_string();
    }
    printable(&args.join(" "))
}

/// Writes a rule file: `# ` header lines (each one line: control
/// characters in them, from file names or options, are written escaped),
/// a blank line, the rules.
pub fn write_rules_file(path: &Path, header: &[String], rules: &[Rule], schema: &Schema) -> Result<(), String> {
    let mut text: String = header.iter().map(|l| format!("# {}\n", printable(l))).collect();
    text.push('\n');
    text.push_str(&stratsynth::dsl::print::print_rules(rules, schema));
    write_output(path, &text)
}

/// A command's failure, already worded for the user.
pub type CmdResult = Result<std::process::ExitCode, String>;

/// `text` safe to print on a terminal: control characters (escape
/// sequences that could move the cursor, recolour or retitle the
/// terminal) are shown escaped, `\u{1b}`, instead of sent.
pub fn printable(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

/// Refuses a rule file with no rules where a command would otherwise
/// report nothing and succeed (`check`, `verify`, `cover`).
pub fn some_rules(path: &Path, rules: &[Rule]) -> Result<(), String> {
    if rules.is_empty() {
        return Err(format!("{}: no rules in this file; nothing to check", path.display()));
    }
    Ok(())
}

/// Refuses, before any work, an output that is a directory, would replace
/// one of `inputs`, or lies in a directory that cannot be written.
pub fn check_output(output: &Path, inputs: &[&Path]) -> Result<(), String> {
    stratsynth::files::check_output(output, inputs).map_err(|e| e.to_string())
}

/// Makes `--out-dir` `dir` (and its parents) if it does not exist;
/// refuses a path naming a file.
pub fn make_out_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() && !dir.is_dir() {
        return Err(format!("--out-dir {}: not a directory (it names a file); give a directory", dir.display()));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("--out-dir {}: cannot create the directory: {e}", dir.display()))
}

/// Writes an output file atomically (temporary file beside it, then rename).
pub fn write_output(path: &Path, text: &str) -> Result<(), String> {
    stratsynth::files::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// `part` as a percentage of `whole` (0 if `whole` is 0).
pub fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The versions of the tool and of Z3.
pub fn versions() -> String {
    format!("stratsynth {}, Z3 {}", env!("CARGO_PKG_VERSION"), z3::full_version())
}
/// A selection as a table: a header, then per pick its rank, rule (names
/// padded to `width`), cost, gain, cumulative score and its share of `max`.
pub fn selection_table(
    picks: &[Pick],
    rules: &[Rule],
    cost_of: impl Fn(usize) -> u32,
    max: usize,
    width: usize,
) -> Vec<String> {
    let mut table =
        vec![format!("{:>4}  {:<width$} {:>5} {:>8} {:>11} {:>7}", "rank", "rule", "cost", "gain", "cumulative", "%")];
    let mut previous = 0;
    for (rank, p) in picks.iter().enumerate() {
        table.push(format!(
            "{:>4}  {:<width$} {:>5} {:>8} {:>11} {:>6.1}%",
            rank + 1,
            rules[p.index].name,
            cost_of(p.index),
            p.score - previous,
            p.score,
            percent(p.score, max)
        ));
        previous = p.score;
    }
    table
}
