//! `witness analyze`: per puzzle the number of solutions and the MSI and TSI
//! (Shannon) of several players (docs/language.md "Players and solution
//! information"), as text, `--json` or an HTML page; and the players and
//! figures `witness generate` ([`super::generate_witness`]) ranks by.

use super::witness::puzzles;
use super::{check_output, write_output, CmdResult};
use serde_json::{json, Value};
use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stratsynth::domains::nonogram::board::limits::{hold_memory, DEFAULT_MEMORY_MB};
use stratsynth::domains::witness::play::page::{page, PagePuzzle};
use stratsynth::domains::witness::play::players::{evaluate_all, Figure, Limits, RulePlayer, Who};
use stratsynth::domains::witness::Puzzle;
use stratsynth::report::witness::{
    players_json, progress_line, rows, solutions, solutions_text, stopped, DEFAULT_MAX_NODES,
};
use stratsynth::rule_files::read_sound_rules;
use stratsynth::stop::Stop;

/// Default `--timeout` in seconds: per puzzle for `witness analyze` (as
/// `analyze`'s), for the whole run of `witness generate`.
pub(crate) const DEFAULT_TIMEOUT: f64 = 60.0;

/// The deadline `seconds` from now.
pub(crate) fn deadline_in(seconds: f64) -> Instant {
    Instant::now() + Duration::from_secs_f64(seconds)
}

/// Reads a Witness rule file as a player named by its path (refused if
/// the brute-force check finds a rule unsound).
pub(super) fn rule_player(path: &FsPath) -> Result<RulePlayer, String> {
    let (domain, rules) = read_sound_rules(path)?;
    Ok(RulePlayer::new(path.display().to_string(), &domain, rules))
}

/// What `--timeout` and `--max-nodes` left unknown on a puzzle, in words
/// (`None` if nothing): the players whose time ran out, and those whose
/// states did.
pub(crate) fn unknown_note(
    players: &[Who],
    figures: &[Figure],
    timeout: f64,
    max_nodes: u64,
    memory_mb: u64,
) -> Option<String> {
    let of = |why: Stop| -> Vec<&str> {
        players.iter().zip(figures).filter(|(_, f)| f.ran_out() == Some(why)).map(|(w, _)| w.name()).collect()
    };
    let mut parts = vec![];
    let time = of(Stop::Timeout);
    if !time.is_empty() {
        parts.push(format!("--timeout {timeout} s ran out in the players {}", time.join(", ")));
    }
    let nodes = of(Stop::Nodes);
    if !nodes.is_empty() {
        parts.push(format!("--max-nodes {max_nodes} states ran out in the players {}", nodes.join(", ")));
    }
    let memory = of(Stop::Memory);
    if !memory.is_empty() {
        parts.push(format!("--memory {memory_mb} MB ran out in the players {}", memory.join(", ")));
    }
    (!parts.is_empty()).then(|| format!("unknown: {}; their MSI and TSI are unknown", parts.join("; ")))
}

/// Warns on standard error of each rule player that lost solutions on a
/// puzzle (`origin(i)` names puzzle `i`); whether any did.
pub(crate) fn warn_unsound(players: &[Who], results: &[&[Figure]], origin: impl Fn(usize) -> String) -> bool {
    let mut any = false;
    for (i, figures) in results.iter().enumerate() {
        for (who, f) in players.iter().zip(figures.iter()) {
            if let Figure::Unsound { reached, solutions } = f {
                any = true;
                eprintln!(
                    "error: {}: player {} is UNSOUND: it reaches {reached} of the {solutions} solutions (a rule prunes a path some solution begins with); its figures are not given: check the rules with `stratsynth verify`",
                    origin(i),
                    who.name()
                );
            }
        }
    }
    any
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
    /// One JSON list on stdout: per puzzle `solutions`, `stopped` and `players` (`{player, msi, tsi, stopped}`).
    #[arg(long)]
    pub json: bool,
    /// Write an HTML page with each puzzle, a solution and the figures.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// States each player may expand on a puzzle larger than 5x5 before its figures are `unknown`.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Seconds one puzzle may take, all its players together; past them
    /// the figures not yet known are `unknown` (and the exit status 1).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT, value_parser = super::puzzle_set::parse_seconds)]
    pub timeout: f64,
    /// Megabytes of memory the process may hold; past them the figures not
    /// yet known are `unknown` (`memory`) and the exit status is 1.
    #[arg(long, default_value_t = DEFAULT_MEMORY_MB, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: u64,
}

/// `witness analyze PUZZLES.ron [--rules R]... [--perfect] [--json] [--html OUT.html] [--max-nodes N] [--timeout S] [--memory MB]`.
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
    let tell =
        |i: usize, who: &str, nodes: u64, secs: f64| progress_line(&label, (i, ps.len()), &ps[i], who, nodes, secs);
    let max_memory = Some(hold_memory(args.memory));
    let limits = |_: usize| Limits { max_nodes: args.max_nodes, deadline: Some(deadline_in(args.timeout)), max_memory };
    let results = evaluate_all(&ps, &players, &limits, &tell);
    let note = |figures: &[Figure]| unknown_note(&players, figures, args.timeout, args.max_nodes, args.memory);
    if args.json {
        let list: Vec<Value> = results
            .iter()
            .map(|figures| json!({"solutions": solutions(&figures[1]), "stopped": stopped(figures), "players": players_json(&players, figures)}))
            .collect();
        println!("{}", Value::Array(list));
    } else {
        print!("{}", table(&file, &ps, &players, &results, &note));
    }
    if let Some(out) = &args.html {
        let items: Vec<PagePuzzle> = ps
            .iter()
            .zip(&results)
            .enumerate()
            .map(|(i, (p, figures))| PagePuzzle {
                title: format!("Puzzle #{i}: {}x{}, {} solutions", p.width(), p.height(), solutions_text(&figures[1])),
                puzzle: p.clone(),
                rows: rows(&players, figures),
            })
            .collect();
        write_output(out, &page(&format!("witness analyze {file}"), &format!("{} puzzles", ps.len()), &items))?;
    }
    let lists: Vec<&[Figure]> = results.iter().map(Vec::as_slice).collect();
    let unsound = warn_unsound(&players, &lists, |i| format!("{file} puzzle #{i}"));
    let mut unknown = false;
    for (i, figures) in results.iter().enumerate() {
        if let Some(why) = note(figures) {
            unknown = true;
            eprintln!("{file} puzzle #{i}: {why}");
        }
    }
    Ok(if unsound || unknown { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The text report: per puzzle its size and solutions, then a row per
/// player, and what ran out if a figure is unknown (`note`).
fn table(
    file: &str,
    ps: &[Puzzle],
    players: &[Who],
    results: &[Vec<Figure>],
    note: &dyn Fn(&[Figure]) -> Option<String>,
) -> String {
    let width = players.iter().map(|w| w.name().len()).max().unwrap_or(0).max(6);
    let mut s = format!("{file}: {} puzzles; MSI and TSI in Shannon (Sh)\n", ps.len());
    for (i, (p, figures)) in ps.iter().zip(results).enumerate() {
        s += &format!("puzzle #{i}: {}x{}, {} solutions\n", p.width(), p.height(), solutions_text(&figures[1]));
        s += &format!("  {:<width$}  {:>8}  {:>8}\n", "player", "MSI", "TSI");
        for [name, msi, tsi] in rows(players, figures) {
            s += &format!("  {name:<width$}  {msi:>8}  {tsi:>8}\n");
        }
        if let Some(why) = note(figures) {
            s += &format!("  {why}\n");
        }
    }
    s + &means(players, results, width)
}

/// Per player the mean MSI and TSI over the puzzles where they are known
/// and finite, and how many of those have TSI below 1 Sh ("easy").
fn means(players: &[Who], results: &[Vec<Figure>], width: usize) -> String {
    let mut s = format!(
        "means over the puzzles each player solves (known, finite):\n  {:<width$}  {:>8}  {:>8}  {:>8}  {:>10}\n",
        "player", "puzzles", "MSI", "TSI", "TSI < 1 Sh"
    );
    for (i, who) in players.iter().enumerate() {
        let known: Vec<(f64, f64)> =
            results.iter().filter_map(|f| f[i].odds().and_then(|o| o.msi().zip(o.tsi()))).collect();
        let n = known.len().max(1) as f64;
        let (msi, tsi) = known.iter().fold((0.0, 0.0), |(a, b), (m, t)| (a + m, b + t));
        let easy = known.iter().filter(|(_, t)| *t < 1.0).count();
        s += &format!("  {:<width$}  {:>8}  {:>8.2}  {:>8.2}  {easy:>10}\n", who.name(), known.len(), msi / n, tsi / n);
    }
    s
}
