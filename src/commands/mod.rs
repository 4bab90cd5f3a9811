//! Subcommand implementations: read inputs, call the library, print.

pub mod analyze;
pub mod bench;
pub mod bench_boards;
pub mod bench_difficulty;
pub mod bench_generate;
pub mod bench_sat;
pub mod explain;
pub mod generate_nonogram;
pub mod generate_report;
pub mod learn;
pub mod mine_select_compare;
pub mod nonogram;
pub mod progress;
pub mod puzzle_set;
pub mod rules;
pub mod studio;
pub mod synth;
pub mod witness;
pub mod witness_bench;
pub mod witness_compare;
pub mod witness_generate;
pub mod witness_info;
pub mod witness_learn;

use std::path::{Path, PathBuf};
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::parse::{detect_and_parse, parse_rules};
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

/// The rule files' domains, in the order files are tried.
pub fn schemas() -> Vec<Schema> {
    vec![Schema::nonogram(), Schema::witness(), Schema::flow()]
}

/// Reads a rule file, detecting its domain; returns the schema and rules.
pub fn read_rules(path: &Path) -> Result<(Schema, Vec<Rule>), String> {
    let shown = path.display().to_string();
    let text = stratsynth::files::read_text(path).map_err(|e| e.to_string())?;
    let mut schemas = schemas();
    let (i, rules) = detect_and_parse(&text, &shown, &schemas).map_err(|e| e.to_string())?;
    Ok((schemas.swap_remove(i), rules))
}

/// Reads a rule file that a command of the domain of `schema` takes: the
/// error of reading it in that domain, saying which domain it is in if
/// another reads it (an empty file is an empty set of any domain).
pub fn read_rules_in(path: &Path, schema: Schema) -> Result<(Schema, Vec<Rule>), String> {
    let shown = path.display().to_string();
    let text = stratsynth::files::read_text(path).map_err(|e| e.to_string())?;
    match parse_rules(&text, &shown, &schema) {
        Ok(rules) => Ok((schema, rules)),
        Err(e) => Err(match schemas().iter().find(|s| parse_rules(&text, &shown, s).is_ok()) {
            Some(other) => {
                format!("{e} (these are {} rules; this command takes {} rules)", other.domain(), schema.domain())
            }
            None => e.to_string(),
        }),
    }
}

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

/// Reads a rule file that must be in the nonogram domain.
pub fn read_nonogram_rules(path: &Path) -> Result<(Nonogram, Vec<Rule>), String> {
    let (schema, rules) = read_rules_in(path, Schema::nonogram())?;
    let domain = Nonogram::with_schema(schema, "dsl/nonogram.ron").map_err(|e| e.to_string())?;
    Ok((domain, rules))
}

/// Refuses, before any work, an output that is a directory, would replace
/// one of `inputs`, or lies in a directory that cannot be written.
pub fn check_output(output: &Path, inputs: &[&Path]) -> Result<(), String> {
    stratsynth::files::check_output(output, inputs).map_err(|e| e.to_string())
}

/// Writes an output file atomically (temporary file beside it, then rename).
pub fn write_output(path: &Path, text: &str) -> Result<(), String> {
    stratsynth::files::write_atomic(path, text.as_bytes()).map_err(|e| e.to_string())
}

/// A bundled input (the defaults of `bench` and `learn nonogram`): the
/// path as given if it exists, else the same relative path in the source
/// tree stratsynth was built from, so that the defaults work outside the
/// checkout.
pub fn bundled(path: &Path) -> Result<PathBuf, String> {
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if path.exists() || path.is_absolute() {
        Ok(path.to_path_buf())
    } else if built.exists() {
        Ok(built)
    } else {
        Err(format!(
            "{}: not found in the working directory nor in {} (the source tree stratsynth was built from); give its path",
            path.display(),
            env!("CARGO_MANIFEST_DIR")
        ))
    }
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
