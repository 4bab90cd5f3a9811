//! `witness analyze`: per puzzle the number of solutions and the MSI and TSI
//! (Shannon) of several players (docs/language.md "Players and solution
//! information"), as text, `--json` or an HTML page; and the players and
//! figures `witness generate` ([`super::witness_generate`]) ranks by.

use super::witness::puzzles;
use super::{check_output, read_rules_in, write_output, CmdResult};
use serde_json::{json, Value};
use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::witness::play::information::Odds;
use stratsynth::domains::witness::play::page::{page, PagePuzzle};
use stratsynth::domains::witness::play::players::{evaluate_all, RulePlayer, Who};
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::witness::Puzzle;
use stratsynth::dsl::schema::Schema;

/// Default budget of expanded states per player for puzzles beyond 5x5.
pub(crate) const DEFAULT_MAX_NODES: u64 = 5_000_000;

/// Reads a Witness rule file as a player named by its path.
pub(super) fn rule_player(path: &FsPath) -> Result<RulePlayer, String> {
    let (schema, rules) = read_rules_in(path, Schema::witness())?;
    let domain = Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?;
    Ok(RulePlayer::new(path.display().to_string(), &domain, rules))
}

/// The progress line of an evaluation on stderr: `{label}{index} (WxH),
/// player P: N states, S s`, the puzzle `p`.
pub(crate) fn progress_line(label: &str, index: usize, p: &Puzzle, player: &str, nodes: u64, secs: f64) {
    eprintln!("{label}{index} ({}x{}), player {player}: {nodes} states, {secs:.1} s", p.width(), p.height());
}

/// A value in Shannon as text: two decimals, `inf`, or `unknown`.
pub(super) fn sh(v: Option<Option<f64>>) -> String {
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
    let files = args.rules.iter().map(|r| rule_player(r)).collect::<Result<Vec<_>, _>>()?;
    let mut players = vec![Who::Uniform, Who::Local];
    players.extend(files.iter().map(Who::Rules));
    if args.perfect {
        players.push(Who::Perfect);
    }
    let file = args.puzzles.display().to_string();
    let label = format!("witness analyze: {file} puzzle #");
    let tell = |i: usize, who: &str, nodes: u64, secs: f64| progress_line(&label, i, &ps[i], who, nodes, secs);
    let results = evaluate_all(&ps, &players, args.max_nodes, &tell);
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
pub(super) fn rows(players: &[Who], figures: &[Option<Odds>]) -> Vec<[String; 3]> {
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
