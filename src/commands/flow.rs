//! Flow puzzles in the commands that take puzzle files (a `.flow` file, or
//! any file whose content is a Flow layout): `analyze` (solutions counted,
//! the solution or where two differ, `--json`), `bench --boards` (answers,
//! nodes and CPU time over a set) and `print` (boards drawn as text or an
//! HTML page, solved with `--solve`). The reports are built by
//! `report::flow` and `domains::flow::draw`.

use super::puzzle_set::{run_all, SolverArgs};
use super::{write_output, CmdResult};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stratsynth::domains::flow::draw::html::{page, PageBoard};
use stratsynth::domains::flow::draw::text::board;
use stratsynth::domains::flow::formats::read::{looks_like_flow, read_flow};
use stratsynth::domains::flow::model::check::check;
use stratsynth::domains::flow::model::puzzle::Puzzle;
use stratsynth::domains::flow::play::playthrough::{play, Knowledge, Playthrough};
use stratsynth::domains::flow::rules::player::Player;
use stratsynth::domains::flow::solve::{solve, Limits, Options, Outcome, Rules};
use stratsynth::dsl::schema::Schema;
use stratsynth::report::flow::{details, json_puzzle, shown_count, table, JsonPuzzle, Played, Row};
use stratsynth::rule_files::read_rules_in;
use stratsynth::usage::cpu_time;

/// Whether `path` is a Flow file: named `.flow`, or (any other name) its
/// text reads as a Flow layout. A file that cannot be read is left to
/// the other readers to report.
pub fn is_flow_file(path: &Path) -> bool {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("flow")) {
        return true;
    }
    let non = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("non") || e.eq_ignore_ascii_case("xml"));
    !non && stratsynth::files::read_text(path).is_ok_and(|t| looks_like_flow(&t))
}

/// Whether the puzzle files are Flow files (all or none; a mix is
/// refused), and the solver's options fit them (Flow's options refused
/// on nonograms, the SAT fallback's on Flow).
pub fn takes(paths: &[PathBuf], solver: &SolverArgs) -> Result<bool, String> {
    let flow: Vec<bool> = paths.iter().map(|p| is_flow_file(p)).collect();
    if flow.iter().any(|&f| f) && flow.iter().any(|&f| !f) {
        let (a, b) = (flow.iter().position(|&f| f), flow.iter().position(|&f| !f));
        let name = |i: Option<usize>| i.map(|i| paths[i].display().to_string()).unwrap_or_default();
        return Err(format!("{} is a Flow puzzle file but {} is not: give one kind at a time", name(a), name(b)));
    }
    let is_flow = flow.first().copied().unwrap_or(false);
    let sat = solver.cube_conflicts.is_some() || solver.sat_formula.is_some() || solver.sat_solver.is_some();
    if is_flow && sat {
        return Err("--cube-conflicts, --sat-formula and --sat-solver are for nonograms, not Flow puzzles".into());
    }
    if !is_flow && (solver.touching || solver.propagation != Rules::All) {
        return Err("--touching and --propagation are for Flow puzzles".into());
    }
    Ok(is_flow)
}

/// Every puzzle of every Flow file, with its name, in order.
fn read_all(paths: &[PathBuf]) -> Result<Vec<(String, Puzzle)>, String> {
    let mut out = vec![];
    for path in paths {
        out.extend(read_flow(path).map_err(|e| e.to_string())?);
    }
    Ok(out)
}

/// The solver's options and the limits of a search starting now.
fn options(solver: &SolverArgs) -> (Options, Limits) {
    let limits = Limits {
        solutions: if solver.first { 1 } else { 2 },
        max_nodes: Some(solver.max_nodes),
        deadline: Some(Instant::now() + Duration::from_secs_f64(solver.timeout)),
    };
    (Options { touching: solver.touching, rules: solver.propagation }, limits)
}

/// Solves every puzzle in parallel, each with its own limits.
fn solve_all(set: &[(String, Puzzle)], solver: &SolverArgs) -> Result<Vec<Outcome>, String> {
    run_all(set, solver.threads, |_, _, p| {
        let (options, limits) = options(solver);
        solve(p, options, limits)
    })
}

/// Tells on stderr of every puzzle without a solution or an answer;
/// the exit status: 1 if there was one, else success.
fn verdicts(set: &[(String, Puzzle)], outcomes: &[Outcome]) -> ExitCode {
    let mut bad = false;
    for ((name, _), out) in set.iter().zip(outcomes) {
        match (out.count(), out.stopped) {
            (Some(0), _) => eprintln!("{name}: no solution"),
            (None, Some(why)) => {
                eprintln!("{name}: unknown: the solver stopped ({}) before it knew the number of solutions", why.name())
            }
            _ => continue,
        }
        bad = true;
    }
    if bad {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `analyze PUZZLES [--rules R]` on Flow files, a table or (`json`) one
/// JSON object per puzzle: the count, and the model player's solve toward
/// the first solution (with the rules of `rules`, else with the complete
/// solver's propagation): its steps, oracle steps and bits, and whether
/// the rules solve it alone.
pub fn analyze(puzzles: &[PathBuf], solver: &SolverArgs, rules: Option<&Path>, json: bool) -> CmdResult {
    let loaded = rules.map(|r| read_rules_in(r, Schema::flow())).transpose()?;
    let file = rules.map(|r| r.display().to_string()).unwrap_or_default();
    let player = match &loaded {
        Some((schema, rules)) => Some(Player::new(rules, schema, &file).map_err(|e| e.to_string())?),
        None => None,
    };
    let knowledge = match (&player, &loaded) {
        (Some(player), Some((_, rules))) => Knowledge::Rules { player, rules },
        _ => Knowledge::Propagation,
    };
    let set = read_all(puzzles)?;
    let outcomes = solve_all(&set, solver)?;
    let plays = run_all(&set, solver.threads, |i, name, p| {
        let solution = outcomes[i].solutions.first()?;
        // the players reason under the strict convention: a looser
        // solution (`--touching`) running beside itself is not theirs
        if solver.touching && check(p, solution, false).is_err() {
            return None;
        }
        Some(play(p, &knowledge, solution, None).map_err(|e| format!("{name}: {e}")))
    })?;
    let plays: Vec<Option<Playthrough>> = plays.into_iter().map(Option::transpose).collect::<Result<_, _>>()?;
    let names = loaded.as_ref().map(|(_, r)| r.as_slice());
    let played = |i: usize| plays[i].as_ref().map(|play| Played { play, rules: names });
    if json {
        let out: Vec<JsonPuzzle> = set
            .iter()
            .zip(&outcomes)
            .enumerate()
            .map(|(i, ((name, p), o))| json_puzzle(name, p, o, solver.touching, played(i).as_ref()))
            .collect();
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    } else {
        let rows: Vec<Row> =
            set.iter().zip(&outcomes).enumerate().map(|(i, ((n, p), o))| (n.as_str(), p, o, played(i))).collect();
        print!("{}", table(&rows, solver.first));
        for (name, p, o, _) in &rows {
            print!("{}", details(name, p, o, rows.len() == 1).map_err(|e| format!("{name}: {e}"))?);
        }
        if loaded.is_some() {
            let solved = plays.iter().flatten().filter(|p| p.solved_alone()).count();
            println!("\nsolved by the rules of {file} without guessing: {solved} of {}", set.len());
        }
    }
    Ok(verdicts(&set, &outcomes))
}

/// `bench --boards` on Flow files: each puzzle's answer, nodes and time,
/// then the totals (CPU time over every thread).
pub fn bench(paths: &[PathBuf], solver: &SolverArgs) -> CmdResult {
    let set = read_all(paths)?;
    let (cpu0, wall) = (cpu_time(libc::RUSAGE_SELF), Instant::now());
    let outcomes = solve_all(&set, solver)?;
    let (cpu, wall) = (cpu_time(libc::RUSAGE_SELF) - cpu0, wall.elapsed());
    let rows: Vec<Row> = set.iter().zip(&outcomes).map(|((n, p), o)| (n.as_str(), p, o, None)).collect();
    print!("{}", table(&rows, solver.first));
    let mut answers: BTreeMap<String, usize> = BTreeMap::new();
    for o in &outcomes {
        *answers.entry(shown_count(o, solver.first)).or_default() += 1;
    }
    let answers: Vec<String> = answers.iter().map(|(a, n)| format!("{n} x {a}")).collect();
    println!(
        "\ncomplete solver ({}, propagation {}): {} puzzles, {:.3} CPU s (user+sys, threads: {}, {:.3} s wall), {} nodes; solutions: {}",
        if solver.touching { "touching allowed" } else { "no path beside itself" },
        solver.propagation.name(),
        set.len(),
        cpu.as_secs_f64(),
        solver.threads.unwrap_or_else(rayon::current_num_threads),
        wall.as_secs_f64(),
        outcomes.iter().map(|o| o.nodes).sum::<u64>(),
        answers.join(", ")
    );
    Ok(verdicts(&set, &outcomes))
}

/// The time `print --solve` gives each puzzle.
const PRINT_TIMEOUT: Duration = Duration::from_secs(60);

/// How `print` draws Flow puzzles.
#[derive(Clone, Copy, Debug)]
pub struct Drawing<'a> {
    /// Solve each puzzle and draw its paths.
    pub solve: bool,
    /// With `solve`: count Flow Free's looser solutions too.
    pub touching: bool,
    /// Write one HTML page here instead of text.
    pub html: Option<&'a Path>,
}

/// `print` on a Flow file: each puzzle drawn (solved with `solve`), as
/// text, or as one HTML page.
pub fn print(path: &Path, drawing: Drawing) -> CmdResult {
    if let Some(out) = drawing.html {
        super::check_output(out, &[path])?;
    }
    let set = read_all(&[path.to_path_buf()])?;
    let options = Options { touching: drawing.touching, rules: Rules::All };
    let limits = || Limits { deadline: Some(Instant::now() + PRINT_TIMEOUT), ..Limits::solutions(2) };
    let outcomes: Vec<Outcome> =
        if drawing.solve { set.iter().map(|(_, p)| solve(p, options, limits())).collect() } else { vec![] };
    let mut boards = vec![];
    let mut text = String::new();
    for (i, (name, p)) in set.iter().enumerate() {
        let out = outcomes.get(i);
        let mut notes = vec![format!("{}x{}, {} colours", p.width(), p.height(), p.colours())];
        if let Some(o) = out {
            let drawn = if o.solutions.is_empty() { "" } else { "; the first found drawn" };
            notes.push(format!("solutions: {}{drawn}", shown_count(o, false)));
        }
        let solution = out.and_then(|o| o.solutions.first());
        text += &format!("{name}: {}\n", notes.join("; "));
        text += &board(p, solution).map_err(|e| format!("{name}: {e}"))?;
        text += "\n";
        let heading = p.title.clone().map_or(name.clone(), |t| format!("{name}: {t}"));
        boards.push(PageBoard { heading, notes, puzzle: p, solution });
    }
    match drawing.html {
        Some(out) => {
            let summary = format!("Flow puzzles of {}: {}", path.display(), set.len());
            write_output(out, &page(&path.display().to_string(), &summary, &boards))?
        }
        None => print!("{text}"),
    }
    Ok(if drawing.solve { verdicts(&set, &outcomes) } else { ExitCode::SUCCESS })
}
