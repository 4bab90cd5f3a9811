//! `explain` on a Flow puzzle (a `.flow` file, any file in a Flow layout,
//! or `SET#N`, puzzle N of a file holding several): the solve step by
//! step with a Flow rule set, each step the rule and the links and cuts it
//! makes, the complete solver's probes and guesses where the rules are
//! stuck; as text, `--json`, and an HTML page with `--html`.

use super::flow::is_flow_file;
use super::{check_output, printable, write_output, CmdResult};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::flow::draw::steps::steps_page;
use stratsynth::domains::flow::draw::text::board;
use stratsynth::domains::flow::formats::read::read_flow;
use stratsynth::domains::flow::model::puzzle::Puzzle;
use stratsynth::domains::flow::play::playthrough::{play, Knowledge};
use stratsynth::domains::flow::rules::player::Player;
use stratsynth::domains::flow::solve::{solve, Limits, Options};
use stratsynth::dsl::schema::Schema;
use stratsynth::report::flow::explain::{explain_json, page_steps, Explained};
use stratsynth::rule_files::read_rules_in;

/// `path` split as `SET#N` when it is not a file itself but `SET` is.
fn selected(path: &Path) -> Option<(PathBuf, String)> {
    let shown = path.display().to_string();
    let (file, number) = shown.rsplit_once('#')?;
    (!path.exists() && Path::new(file).is_file()).then(|| (PathBuf::from(file), number.to_string()))
}

/// Whether `explain` takes `path` as a Flow puzzle (`SET#N` of a Flow file too).
pub fn takes(path: &Path) -> bool {
    match selected(path) {
        Some((file, _)) => is_flow_file(&file),
        None => is_flow_file(path),
    }
}

/// The file holding the puzzle `path` names (`SET` of `SET#N`).
pub fn file_of(path: &Path) -> PathBuf {
    selected(path).map_or_else(|| path.to_path_buf(), |(f, _)| f)
}

/// The one puzzle `path` names (`SET#N` for one of a set), with its name.
pub fn read_one(path: &Path) -> Result<(String, Puzzle), String> {
    let shown = path.display().to_string();
    let chosen = selected(path);
    let file = chosen.as_ref().map_or(path, |(f, _)| f.as_path());
    let mut puzzles = read_flow(file).map_err(|e| e.to_string())?;
    match chosen {
        Some((file, n)) => puzzles
            .into_iter()
            .find(|(name, _)| *name == shown)
            .ok_or_else(|| format!("{}: the set holds no puzzle #{n}", file.display())),
        None if puzzles.len() == 1 => Ok(puzzles.remove(0)),
        None => Err(format!("{shown}: the set holds {} puzzles; name one as {shown}#N", puzzles.len())),
    }
}

/// What `explain` was asked, for a Flow puzzle.
pub struct Asked<'a> {
    /// The puzzle (`SET#N` for one of a set).
    pub puzzle: &'a Path,
    /// The rule file.
    pub rules: &'a Path,
    /// `--html`: the page to write.
    pub html: Option<&'a Path>,
    /// `--json`.
    pub json: bool,
}

/// `explain` on a Flow puzzle.
pub fn run(args: &Asked) -> CmdResult {
    if let Some(out) = args.html {
        check_output(out, &[args.puzzle, args.rules])?;
    }
    let (name, p) = read_one(args.puzzle)?;
    let (schema, rules) = read_rules_in(args.rules, Schema::flow())?;
    let rules_file = args.rules.display().to_string();
    let player = Player::new(&rules, &schema, &rules_file).map_err(|e| e.to_string())?;
    let outcome = solve(&p, Options::default(), Limits::solutions(2));
    let Some(solution) = outcome.solutions.first() else {
        return Err(format!("{name}: the puzzle has no solution (no path joins every pair with every cell used)"));
    };
    let knowledge = Knowledge::Rules { player: &player, rules: &rules };
    let played = play(&p, &knowledge, solution, None).map_err(|e| format!("{name}: {e}"))?;
    let solutions = outcome.solutions.len();
    let summary = format!(
        "{}x{}, {} colours, {}; {} steps with the {} rules of {rules_file}, {} of them the complete solver's ({:.1} bits)",
        p.width(),
        p.height(),
        p.colours(),
        if solutions == 1 { "exactly one solution" } else { "TWO OR MORE solutions (the oracle follows the first found)" },
        played.steps.len(),
        rules.len(),
        played.oracle_steps(),
        played.bits
    );
    let title = p.title.clone().map_or(name.clone(), |t| format!("{name}: {t}"));
    let steps = page_steps(&p, &played, &rules, &schema);
    if args.json {
        let e = Explained {
            file: &name,
            puzzle: &p,
            rules_file: &rules_file,
            rules: &rules,
            solutions,
            solution,
            play: &played,
        };
        println!("{}", serde_json::to_string_pretty(&explain_json(&e)).map_err(|e| e.to_string())?);
    } else {
        println!("{}: {summary}", printable(&title));
        for step in &steps {
            println!("{}", step.heading);
            for n in &step.notes {
                println!("    {n}");
            }
            for l in step.rule_text.iter().flat_map(|t| t.lines()) {
                println!("    | {l}");
            }
        }
        let drawn = board(&p, Some(solution)).map_err(|e| format!("{name}: {e}"))?;
        println!("\nthe solution:\n{}", drawn.lines().map(|l| format!("  {l}\n")).collect::<String>());
    }
    if let Some(out) = args.html {
        write_output(out, &steps_page(&printable(&title), &summary, &p, &steps))?;
        eprintln!("wrote {} ({} steps)", out.display(), steps.len());
    }
    Ok(ExitCode::SUCCESS)
}
