//! `explain PUZZLE --rules R [--html OUT.html] [--json]`: the solve step by step
//! with the rules (and the complete solver's probes and guesses where they
//! are stuck), as text and optionally as a self-contained HTML page. Flow
//! puzzles are `explain_flow`'s.

use super::{check_output, write_output, CmdResult};
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::complete::{Limits, Outcome};
use stratsynth::domains::nonogram::board::propagate::Clues;
use stratsynth::domains::nonogram::formats::puzzle::read_puzzle;
use stratsynth::domains::nonogram::play::analysis::count;
use stratsynth::domains::nonogram::play::html::{page, PageStep};
use stratsynth::domains::nonogram::play::player::{play, How, Knowledge};
use stratsynth::domains::Domain;
use stratsynth::report::nonogram::explain::{describe, step_json};
use stratsynth::rule_files::read_nonogram_rules;

/// Options of `explain`.
#[derive(clap::Args, Debug, Serialize)]
pub struct ExplainArgs {
    /// The puzzle (`.non`, webpbn XML, or `SET#N`: puzzle N of a tournament set; or a Flow puzzle, `.flow` or any file in a Flow layout, `SET#N` of a Flow set).
    pub puzzle: PathBuf,
    /// The player's rule set (applied with the decomposition oracle).
    #[arg(long)]
    pub rules: PathBuf,
    /// Also write the solve as one self-contained HTML page (an SVG of each step's line, the board at the end).
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Print the steps as JSON instead of the text: for nonograms one list (`how`, `rule`, `description`, `line`, `cells`, `bits`, `heading`, `notes`); for Flow one object (`steps`: `rule`, `how`, `round`, `link`, `cut`, `open`, `bits`).
    #[arg(long)]
    pub json: bool,
}

/// `explain`.
pub fn run(args: &ExplainArgs) -> CmdResult {
    if super::explain_flow::takes(&args.puzzle) {
        let asked = super::explain_flow::Asked {
            puzzle: &args.puzzle,
            rules: &args.rules,
            html: args.html.as_deref(),
            json: args.json,
        };
        return super::explain_flow::run(&asked);
    }
    let shown = args.puzzle.display().to_string();
    if let Some(out) = &args.html {
        check_output(out, &[&args.puzzle, &args.rules])?;
    }
    let puzzle = read_puzzle(&args.puzzle).map_err(|e| e.to_string())?;
    let (domain, rules) = read_nonogram_rules(&args.rules)?;
    let (Outcome { solutions, .. }, _) = count(&puzzle, Limits::solutions(2)).map_err(|e| format!("{shown}: {e}"))?;
    let Some(solution) = solutions.first() else {
        return Err(format!("{shown}: the clues contradict each other: the puzzle has no solution"));
    };
    let clues = Clues::from_puzzle(&puzzle);
    let played = play(&clues, Knowledge::Rules { domain: &domain, rules: &rules }, solution, None)
        .map_err(|e| format!("{shown}: {e}"))?;
    let title = puzzle.title.clone().unwrap_or_else(|| shown.clone());
    let summary = format!(
        "{}x{}, {}; {} steps with the {} rules of {}, {} of them the complete solver's ({:.1} bits)",
        puzzle.width,
        puzzle.height,
        if solutions.len() == 1 {
            "exactly one solution"
        } else {
            "TWO OR MORE solutions (the oracle follows the first found)"
        },
        played.steps.len(),
        rules.len(),
        args.rules.display(),
        played.oracle_steps(),
        played.difficulty
    );
    if !args.json {
        println!("{}: {summary}", super::printable(&title));
    }
    let limit = domain.schema().file.limits.max_state as usize;
    if puzzle.width.max(puzzle.height) > limit {
        eprintln!("{shown}: lines longer than the {limit} cells rules are applied to (and proven for): the rules do not apply, every step is the complete solver's");
    }
    let mut shown_rules = vec![false; rules.len()];
    let page_steps: Vec<PageStep> =
        played.steps.iter().enumerate().map(|(i, step)| describe(i, step, &clues, &domain, &rules)).collect();
    if args.json {
        let list: Vec<Value> =
            played.steps.iter().zip(&page_steps).map(|(s, p)| step_json(s, p, &clues, &domain, &rules)).collect();
        println!("{}", serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?);
    }
    for (step, described) in played.steps.iter().zip(&page_steps).filter(|_| !args.json) {
        println!("{}", described.heading);
        for n in &described.notes {
            println!("    {n}");
        }
        if let (How::Rule { rule, .. }, Some(text)) = (&step.how, &described.rule_text) {
            if !shown_rules[*rule] {
                shown_rules[*rule] = true;
                for l in text.lines() {
                    println!("    | {l}");
                }
            }
        }
    }
    if let Some(out) = &args.html {
        let html = page(&title, &summary, &clues, &page_steps);
        write_output(out, &html)?;
        eprintln!("wrote {} ({} steps)", out.display(), page_steps.len());
    }
    Ok(ExitCode::SUCCESS)
}
