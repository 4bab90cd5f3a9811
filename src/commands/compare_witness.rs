//! `witness compare`: which rules of a control set (Shen's inference rules
//! in `rules/witness/shen.rules`) a learned Witness rule set recovers, and
//! the states it prunes beyond them, on the frontier paths of a puzzle set
//! (read, or drawn around random routes).

use super::witness::{puzzles, sizes};
use super::{percent, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::witness::make::generate::{generate, Algorithm, GeneratorConfig};
use stratsynth::domains::witness::make::generate_kinds::Kinds;
use stratsynth::domains::witness::rules::compare::{compare, recovered, test_states, Verdict};
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::dsl::schema::Schema;
use stratsynth::rule_files::read_rules_in;

/// Options of `witness compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The learned rule set.
    #[arg(long)]
    pub learned: PathBuf,
    /// The control rule set.
    #[arg(long, default_value = "rules/witness/shen.rules")]
    pub control: PathBuf,
    /// Puzzles whose frontier paths are the test states (default: generated
    /// as `witness gen --constraints` does, with `--constraints`,
    /// `--colours`, `--sizes`, `--count`, `--seed`).
    #[arg(long)]
    pub puzzles: Option<PathBuf>,
    /// Constraint kinds of drawn puzzles (triangles, colours, stars, dots, broken).
    #[arg(long, default_value = "triangles,colours,stars,dots,broken")]
    pub constraints: String,
    /// Colours of drawn puzzles.
    #[arg(long, default_value_t = 2)]
    pub colours: u8,
    /// Sizes of drawn puzzles.
    #[arg(long, default_value = "3x3..4x4")]
    pub sizes: String,
    /// How many puzzles to draw.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Seed of the drawn puzzles.
    #[arg(long, default_value_t = 3)]
    pub seed: u64,
}

/// `witness compare --learned L [--control C] [--puzzles P | --constraints K --sizes R --count N --seed S]`.
pub fn compare_sets(args: &CompareArgs) -> CmdResult {
    let (schema, learned) = read_rules_in(&args.learned, Schema::witness())?;
    let (_, control) = read_rules_in(&args.control, Schema::witness())?;
    let domain = Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?;
    let (set, source) = match &args.puzzles {
        Some(p) => (puzzles(p)?, p.display().to_string()),
        None => {
            let kinds = Kinds::parse(&args.constraints, args.colours).map_err(|e| format!("--constraints: {e}"))?;
            let config = GeneratorConfig::new(sizes("--sizes", &args.sizes)?, Algorithm::Kinds(kinds));
            let drawn = generate(&config, args.seed, args.count).map_err(|e| e.to_string())?;
            let what = format!("{} puzzles {} ({}, seed {})", args.count, args.sizes, args.constraints, args.seed);
            (drawn, what)
        }
    };
    let states = test_states(&set);
    let c = compare(&domain, &learned, &control, &states);
    println!(
        "{} control rules of {} against {} learned rules of {} on {} frontier states of {source}",
        control.len(),
        args.control.display(),
        learned.len(),
        args.learned.display(),
        c.states
    );
    println!(
        "{:<28} {:>7}  {:<13} {:<40} {:>7} {:>7}",
        "control rule", "states", "verdict", "learned rule", "share", "set"
    );
    let shown = |part: usize, whole: usize| {
        if whole == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", percent(part, whole))
        }
    };
    for row in &c.rows {
        let (verdict, by, part) = match row.verdict {
            Verdict::Exact(l) => ("exact", learned[l].name.as_str(), row.states),
            Verdict::SameStates(l) => ("same states", learned[l].name.as_str(), row.states),
            Verdict::MoreGeneral(l) => ("more general", learned[l].name.as_str(), row.states),
            Verdict::Partial(l, n) => ("partial", learned[l].name.as_str(), n),
            Verdict::None => ("none", "-", 0),
            Verdict::Uncovered => ("uncovered", "-", 0),
        };
        println!(
            "{:<28} {:>7}  {:<13} {:<40} {:>7} {:>7}",
            control[row.control].name,
            row.states,
            verdict,
            by,
            shown(part, row.states),
            shown(row.by_set, row.states)
        );
    }
    let count = c.rows.iter().filter(|r| recovered(r)).count();
    println!("recovered {count} of {} control rules", control.len());
    println!("{:<40} {:>7} {:>15}", "learned rule", "states", "beyond control");
    for (rule, (prunes, beyond)) in learned.iter().zip(&c.learned) {
        println!("{:<40} {:>7} {:>15}", rule.name, prunes, beyond);
    }
    println!(
        "beyond: {} states the learned set prunes and no control rule does; {} the control set prunes and the learned set does not",
        c.beyond, c.missed
    );
    Ok(ExitCode::SUCCESS)
}
