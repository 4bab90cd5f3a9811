//! Subcommand implementations: read inputs, call the library, print.

pub mod analyze;
pub mod batch;
pub mod bench;
pub mod bench_boards;
pub mod explain;
pub mod learn;
pub mod nonogram;
pub mod pipeline;
pub mod rules;
pub mod synth;
pub mod witness;
pub mod witness_bench;

use stratsynth::domains::nonogram::domain::Nonogram;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::parse::detect_and_parse;
use stratsynth::dsl::schema::Schema;
use std::path::Path;

/// A command's failure, already worded for the user.
pub type CmdResult = Result<std::process::ExitCode, String>;

/// The rule files' domains, in the order files are tried.
pub fn schemas() -> Vec<Schema> {
    vec![Schema::nonogram(), Schema::witness()]
}

/// Reads a rule file, detecting its domain; returns the schema and rules.
pub fn read_rules(path: &Path) -> Result<(Schema, Vec<Rule>), String> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let mut schemas = schemas();
    let (i, rules) = detect_and_parse(&text, &shown, &schemas).map_err(|e| e.to_string())?;
    Ok((schemas.swap_remove(i), rules))
}

/// Reads a rule file that must be in the nonogram domain.
pub fn read_nonogram_rules(path: &Path) -> Result<(Nonogram, Vec<Rule>), String> {
    let (schema, rules) = read_rules(path)?;
    if schema.domain() != "nonogram" {
        return Err(format!("{}: these are {} rules; this command takes nonogram rules", path.display(), schema.domain()));
    }
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
