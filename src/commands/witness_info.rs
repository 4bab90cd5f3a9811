//! `witness analyze`: per puzzle the number of solutions and the MSI and TSI
//! (Shannon) of several players (DSL.md "Players and solution
//! information"), as text, `--json` or an HTML page; and the players and
//! figures `witness generate` ([`super::witness_generate`]) ranks by.

use super::witness::puzzles;
use super::{check_output, read_rules_in, write_output, CmdResult};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use stratsynth::domains::witness::play::information::{odds, Odds, Player};
use stratsynth::domains::witness::play::page::{page, PagePuzzle};
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::witness::synthesis::ruleset::RuleSetPredicate;
use stratsynth::domains::witness::synthesis::view::ViewIds;
use stratsynth::domains::witness::Puzzle;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::{FeatureId, Rule};
use stratsynth::dsl::schema::Schema;

/// Default budget of expanded states per player for puzzles beyond 5x5.
pub(crate) const DEFAULT_MAX_NODES: u64 = 5_000_000;

/// A Witness rule file read once, from which each thread makes its own
/// predicate.
pub(crate) struct RuleFile {
    /// The player's name: the path as given, or a rule's name.
    pub name: String,
    ids: ViewIds,
    size: FeatureId,
    /// The rules.
    pub rules: Vec<Rule>,
}

impl RuleFile {
    /// Reads a Witness rule file.
    pub fn read(path: &FsPath) -> Result<RuleFile, String> {
        let (schema, rules) = read_rules_in(path, Schema::witness())?;
        RuleFile::new(path.display().to_string(), schema, rules)
    }

    /// The Witness rules `rules` of `schema`, named `name`.
    pub fn new(name: String, schema: Schema, rules: Vec<Rule>) -> Result<RuleFile, String> {
        let domain = Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?;
        Ok(RuleFile { name, ids: domain.ids(), size: domain.schema().size_feature, rules })
    }

    /// The player of rule `i` alone, named by the rule.
    pub fn single(&self, i: usize) -> RuleFile {
        RuleFile {
            name: self.rules[i].name.clone(),
            ids: self.ids,
            size: self.size,
            rules: vec![self.rules[i].clone()],
        }
    }

    fn predicate(&self) -> RuleSetPredicate {
        RuleSetPredicate::new(self.ids, self.size, self.rules.clone())
    }
}

/// A player as the commands name it.
pub(crate) enum Who<'a> {
    Uniform,
    Local,
    Rules(&'a RuleFile),
    Perfect,
}

impl Who<'_> {
    /// `uniform`, `local`, the rule file's path (or rule's name), `perfect`.
    pub fn name(&self) -> &str {
        match self {
            Who::Uniform => "uniform",
            Who::Local => "local",
            Who::Rules(r) => &r.name,
            Who::Perfect => "perfect",
        }
    }
}

/// The odds of `puzzle` for each player (`None`: out of `budget`), with a
/// progress line on stderr about every second once a player takes more
/// than a second; `label` names the puzzle in it.
pub(crate) fn evaluate(puzzle: &Puzzle, players: &[Who], budget: u64, label: &str) -> Vec<Option<Odds>> {
    players
        .iter()
        .map(|who| {
            let predicate = match who {
                Who::Rules(r) => Some(r.predicate()),
                _ => None,
            };
            let player = match (who, &predicate) {
                (Who::Uniform, _) => Player::Uniform,
                (Who::Local, _) => Player::Local,
                (Who::Perfect, _) => Player::Perfect,
                (Who::Rules(_), p) => Player::Rules(p.as_ref().expect("made above")),
            };
            let started = Instant::now();
            let mut shown = 0.0;
            let mut progress = |nodes: u64| {
                let secs = started.elapsed().as_secs_f64();
                if secs >= shown + 1.0 {
                    shown = secs;
                    eprintln!(
                        "{label} ({}x{}), player {}: {nodes} states, {secs:.1} s",
                        puzzle.width(),
                        puzzle.height(),
                        who.name()
                    );
                }
            };
            odds(puzzle, &player, budget, &mut progress).ok()
        })
        .collect()
}

/// A value in Shannon as text: two decimals, `inf`, or `unknown`.
pub(crate) fn sh(v: Option<Option<f64>>) -> String {
    match v {
        Some(Some(x)) => format!("{x:.2}"),
        Some(None) => "inf".into(),
        None => "unknown".into(),
    }
}

/// The figures of one puzzle as the JSON list of `{player, msi, tsi}`.
pub(crate) fn players_json(players: &[Who], figures: &[Option<Odds>]) -> Value {
    players
        .iter()
        .zip(figures)
        .map(|(who, o)| json!({"player": who.name(), "msi": sh_json(o.as_ref().map(Odds::msi)), "tsi": sh_json(o.as_ref().map(Odds::tsi))}))
        .collect()
}

/// A value in Shannon for JSON: a number, `null` for +∞, `"unknown"`.
fn sh_json(v: Option<Option<f64>>) -> Value {
    match v {
        Some(Some(x)) => json!(x),
        Some(None) => Value::Null,
        None => json!("unknown"),
    }
}

/// The number of solutions: the goals a sound player reaches (the local
/// player's), or `unknown`.
pub(crate) fn solutions(local: &Option<Odds>) -> Value {
    local.as_ref().map_or(json!("unknown"), |o| json!(o.goals))
}

/// Options of `witness analyze`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct AnalyzeArgs {
    /// The `.ron` puzzle file.
    pub puzzles: PathBuf,
    /// A Witness rule file: one more player (local checking plus these rules). Repeatable.
    #[arg(long)]
    pub rules: Vec<PathBuf>,
    /// Also the perfect player (moves no solution begins with are forbidden).
    #[arg(long)]
    pub perfect: bool,
    /// One JSON list on stdout: per puzzle `solutions` and `players` (`{player, msi, tsi}`).
    #[arg(long)]
    pub json: bool,
    /// Write an HTML page with each puzzle, a solution and the figures.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// States each player may expand on a puzzle larger than 5x5 before its figures are `unknown`.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
}

/// `witness analyze PUZZLES.ron [--rules R]... [--perfect] [--json] [--html OUT.html]`.
pub fn analyze(args: &AnalyzeArgs) -> CmdResult {
    let mut inputs: Vec<&FsPath> = vec![&args.puzzles];
    inputs.extend(args.rules.iter().map(PathBuf::as_path));
    if let Some(out) = &args.html {
        check_output(out, &inputs)?;
    }
    let ps = puzzles(&args.puzzles)?;
    let files = args.rules.iter().map(|r| RuleFile::read(r)).collect::<Result<Vec<_>, _>>()?;
    let mut players = vec![Who::Uniform, Who::Local];
    players.extend(files.iter().map(Who::Rules));
    if args.perfect {
        players.push(Who::Perfect);
    }
    let file = args.puzzles.display().to_string();
    let results: Vec<Vec<Option<Odds>>> = ps
        .par_iter()
        .enumerate()
        .map(|(i, p)| evaluate(p, &players, args.max_nodes, &format!("witness analyze: {file} puzzle #{i}")))
        .collect();
    if args.json {
        let list: Vec<Value> = results
            .iter()
            .map(|figures| json!({"solutions": solutions(&figures[1]), "players": players_json(&players, figures)}))
            .collect();
        println!("{}", Value::Array(list));
    } else {
        print!("{}", table(&file, &ps, &players, &results));
    }
    if let Some(out) = &args.html {
        let items: Vec<PagePuzzle> = ps
            .iter()
            .zip(&results)
            .enumerate()
            .map(|(i, (p, figures))| PagePuzzle {
                title: format!("Puzzle #{i}: {}x{}, {} solutions", p.width(), p.height(), solutions(&figures[1])),
                puzzle: p.clone(),
                rows: rows(&players, figures),
            })
            .collect();
        write_output(out, &page(&format!("witness analyze {file}"), &format!("{} puzzles", ps.len()), &items))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The figures of one puzzle as (player, MSI, TSI) text rows.
pub(crate) fn rows(players: &[Who], figures: &[Option<Odds>]) -> Vec<[String; 3]> {
    players
        .iter()
        .zip(figures)
        .map(|(who, o)| [who.name().to_string(), sh(o.as_ref().map(Odds::msi)), sh(o.as_ref().map(Odds::tsi))])
        .collect()
}

/// The text report: per puzzle its size and solutions, then a row per player.
fn table(file: &str, ps: &[Puzzle], players: &[Who], results: &[Vec<Option<Odds>>]) -> String {
    let width = players.iter().map(|w| w.name().len()).max().unwrap_or(0).max(6);
    let mut s = format!("{file}: {} puzzles; MSI and TSI in Shannon (Sh)\n", ps.len());
    for (i, (p, figures)) in ps.iter().zip(results).enumerate() {
        s += &format!("puzzle #{i}: {}x{}, {} solutions\n", p.width(), p.height(), solutions(&figures[1]));
        s += &format!("  {:<width$}  {:>8}  {:>8}\n", "player", "MSI", "TSI");
        for [name, msi, tsi] in rows(players, figures) {
            s += &format!("  {name:<width$}  {msi:>8}  {tsi:>8}\n");
        }
    }
    s + &means(players, results, width)
}

/// Per player the mean MSI and TSI over the puzzles where they are known
/// and finite, and how many of those have TSI below 1 Sh ("easy").
fn means(players: &[Who], results: &[Vec<Option<Odds>>], width: usize) -> String {
    let mut s = format!(
        "means over the puzzles each player solves (known, finite):\n  {:<width$}  {:>8}  {:>8}  {:>8}  {:>10}\n",
        "player", "puzzles", "MSI", "TSI", "TSI < 1 Sh"
    );
    for (i, who) in players.iter().enumerate() {
        let known: Vec<(f64, f64)> =
            results.iter().filter_map(|f| f[i].as_ref().and_then(|o| o.msi().zip(o.tsi()))).collect();
        let n = known.len().max(1) as f64;
        let (msi, tsi) = known.iter().fold((0.0, 0.0), |(a, b), (m, t)| (a + m, b + t));
        let easy = known.iter().filter(|(_, t)| *t < 1.0).count();
        s += &format!("  {:<width$}  {:>8}  {:>8.2}  {:>8.2}  {easy:>10}\n", who.name(), known.len(), msi / n, tsi / n);
    }
    s
}
