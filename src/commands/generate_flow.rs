//! `generate flow`: random Flow puzzles made to order (`make::run`): each
//! with exactly one solution, solved by the chosen player within the bits
//! allowed, and with `--needs RULE` not solved by the set without that
//! rule. The report is `report::flow::generate`'s; `-o` writes one `.flow`
//! per puzzle in a directory, or every puzzle in one file of the sized
//! layout when it names a `.flow` file. With `--from FILE`, a drawn
//! puzzle said fine or repaired with the fewest endpoint changes
//! (`make::repair`; the report `report::flow::repair`'s, `-o` the repaired
//! puzzle in the drawn one's layout).

use super::explain_flow::{file_of, read_one};
use super::{check_output, command_line, write_output, CmdResult};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stratsynth::domains::flow::formats::read::layout;
use stratsynth::domains::flow::make::repair::{repair, Budget, Tally};
use stratsynth::domains::flow::make::run::{covers, random_puzzles, Bounds, Shape, Wanted};
use stratsynth::domains::flow::model::grid::MAX_SIDE;
use stratsynth::domains::flow::model::puzzle::NAMES;
use stratsynth::domains::flow::play::playthrough::Knowledge;
use stratsynth::domains::flow::rules::player::Player;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::schema::Schema;
use stratsynth::report::flow::generate::Report;
use stratsynth::report::flow::repair::Report as RepairReport;
use stratsynth::report::remedies::Remedies;
use stratsynth::report::ticking::ticking;
use stratsynth::rule_files::read_rules_in;

/// Options of `generate flow`.
#[derive(clap::Args, Debug)]
pub struct FlowArgs {
    /// A drawn puzzle (`SET#N` for one of a set): said fine, or repaired with the fewest endpoint changes (move one, add a pair, remove a pair).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "colours", "needs", "every_candidate"], required_unless_present = "size")]
    pub from: Option<PathBuf>,
    /// Board sizes, `WxH` (several, comma-separated: `--count` puzzles of each, in turn).
    #[arg(long, value_name = "WxH[,WxH...]")]
    pub size: Option<String>,
    /// Colours (paths) per puzzle (default: one per 10 cells, as published levels).
    #[arg(long)]
    pub colours: Option<usize>,
    /// The player: `rules` (the learned set, rules/flow/learned.rules), `control` (rules/flow/control.rules), `search` (the complete solver's propagation).
    #[arg(long, default_value = "rules", value_parser = ["rules", "control", "search"])]
    pub player: String,
    /// The rule file of `--player rules` or `control`, instead of the default.
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// Bits of guessing the player may use (default: 0 for rules and control, any for search).
    #[arg(long, value_name = "B")]
    pub max_bits: Option<f64>,
    /// Keep only puzzles the player's set cannot solve without this rule (within the bits).
    #[arg(long, value_name = "RULE")]
    pub needs: Option<String>,
    /// Puzzles to make (of each size).
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Seed of the random candidates.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A directory receiving one `.flow` per puzzle (created if absent), or a `.flow` file receiving them all (sized layout); with --from, the file receiving the repaired puzzle (in the drawn puzzle's layout).
    #[arg(short, long, value_name = "DIR|FILE.flow")]
    pub output: Option<PathBuf>,
    /// A JSON object on stdout instead of the text report.
    #[arg(long)]
    pub json: bool,
    /// Worker threads (default: every core); the output is the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random candidates judged at most (per size).
    #[arg(long, default_value_t = 1_000_000)]
    pub max_candidates: u64,
    /// The complete solver's node budget per uniqueness check.
    #[arg(long, default_value_t = 100_000)]
    pub max_nodes: u64,
    /// Judge every unique candidate by a rule player allowed no guessing, not only those the complete solver's propagation settles (slower; also keeps the puzzles where the rules see further than that propagation).
    #[arg(long)]
    pub every_candidate: bool,
    /// With --from: endpoint changes at most.
    #[arg(long, default_value_t = 3)]
    pub max_changes: usize,
    /// Seconds the whole run may take (with --from: default 60): it stops there and reports what it found.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: Option<u64>,
}

/// Seconds a repair search takes at most unless `--timeout` says otherwise.
const DEFAULT_REPAIR_TIMEOUT: u64 = 60;

/// Candidates tried for a cover before the colours are refused.
const COVER_TRIES: u64 = 64;

/// `WxH,...`.
fn sizes(text: &str) -> Result<Vec<(usize, usize)>, String> {
    let bad = |s: &str| format!("--size {s}: expected WxH with sides 1 to {MAX_SIDE} and at least 2 cells, like 10x10");
    text.split(',')
        .map(|s| {
            let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| bad(s))?;
            let (w, h): (usize, usize) = (w.trim().parse().map_err(|_| bad(s))?, h.trim().parse().map_err(|_| bad(s))?);
            if w == 0 || h == 0 || w.max(h) > MAX_SIDE || w * h < 2 {
                return Err(bad(s));
            }
            Ok((w, h))
        })
        .collect()
}

/// The player's rule file and rules (`None` for `search`), and the set
/// without `--needs`.
type Sets = Option<(PathBuf, Schema, Vec<Rule>, Option<Vec<Rule>>)>;

/// Reads the player's rules; refuses a missing learned set by name.
fn read_sets(args: &FlowArgs) -> Result<Sets, String> {
    let default = match args.player.as_str() {
        "search" if args.rules.is_some() || args.needs.is_some() => {
            return Err("--rules and --needs are for --player rules or control: the search player has no rules".into())
        }
        "search" => return Ok(None),
        "rules" => "rules/flow/learned.rules",
        _ => "rules/flow/control.rules",
    };
    let file = args.rules.clone().unwrap_or_else(|| PathBuf::from(default));
    if args.rules.is_none() && args.player == "rules" && !file.exists() {
        return Err(format!(
            "--player rules plays the learned Flow rules of {default}, which does not exist (`learn flow` writes it): \
             give --player control or search, or --rules FILE"
        ));
    }
    let (schema, rules) = read_rules_in(&file, Schema::flow())?;
    if rules.is_empty() {
        return Err(format!("{}: the file holds no rules; this player could solve no puzzle", file.display()));
    }
    let without = match &args.needs {
        Some(rule) if !rules.iter().any(|r| r.name == *rule) => {
            return Err(format!("--needs {rule}: no rule of that name in {}", file.display()))
        }
        Some(rule) => Some(rules.iter().filter(|r| r.name != *rule).cloned().collect()),
        None => None,
    };
    Ok(Some((file, schema, rules, without)))
}

/// Refuses colours no board of the size can have.
fn check_colours(w: usize, h: usize, colours: usize) -> Result<(), String> {
    if colours == 0 || 2 * colours > w * h {
        return Err(format!(
            "--colours {colours}: a {w}x{h} board has 1 to {} colours (each path has two cells at least)",
            w * h / 2
        ));
    }
    if colours > NAMES.len() {
        return Err(format!("--colours {colours}: a file names at most {} colours (letters and digits)", NAMES.len()));
    }
    Ok(())
}

/// Checks the output before any work.
fn check_output_path(out: &Path, inputs: &[&Path]) -> Result<(), String> {
    if out.extension().is_some_and(|e| e == "flow") {
        return check_output(out, inputs);
    }
    if out.exists() && !out.is_dir() {
        return Err(format!("{}: -o takes a directory, or a file named .flow", out.display()));
    }
    Ok(())
}

/// `generate flow`: `--from FILE` (a repair) or `--size WxH` (random puzzles).
pub fn generate(args: &FlowArgs) -> CmdResult {
    if args.max_nodes == 0 {
        return Err("--max-nodes must be at least 1".into());
    }
    if args.max_bits.is_some_and(|b| b.is_nan() || b < 0.0) {
        return Err("--max-bits: expected a number of bits, 0 or more".into());
    }
    match (&args.from, &args.size) {
        (Some(from), _) => from_file(args, from),
        (None, Some(size)) => random(args, size),
        (None, None) => Err("give --from FILE or --size WxH".into()),
    }
}

/// The players of `sets` (`None` for `search`): the rule player and the
/// one of the set without `--needs`.
type Players<'s> = Option<(Player<'s>, Option<Player<'s>>)>;

/// The players of the rule sets read.
fn players(sets: &Sets) -> Result<Players<'_>, String> {
    let Some((file, schema, rules, without)) = sets else { return Ok(None) };
    let shown = file.display().to_string();
    let player = Player::new(rules, schema, &shown).map_err(|e| e.to_string())?;
    let stuck = without.as_ref().map(|w| Player::new(w, schema, &shown)).transpose().map_err(|e| e.to_string())?;
    Ok(Some((player, stuck)))
}

/// What a kept puzzle must be, for the players of `sets`.
fn wanted<'a>(args: &FlowArgs, sets: &'a Sets, players: &'a Players) -> Wanted<'a> {
    let knowledge = |which: bool| match (players, sets) {
        (Some((player, _)), Some((_, _, rules, _))) if which => Some(Knowledge::Rules { player, rules }),
        (Some((_, Some(stuck))), Some((_, _, _, Some(without)))) => {
            Some(Knowledge::Rules { player: stuck, rules: without })
        }
        _ if which => Some(Knowledge::Propagation),
        _ => None,
    };
    let max_bits = args.max_bits.or(if sets.is_some() { Some(0.0) } else { None });
    Wanted {
        knowledge: knowledge(true).expect("a player"),
        max_bits,
        without: knowledge(false),
        max_nodes: args.max_nodes,
        settled: sets.is_some() && max_bits == Some(0.0) && !args.every_candidate && args.from.is_none(),
    }
}

/// The player as reports name it: `rules (FILE)`, `control (FILE)` or `search`.
fn player_name(args: &FlowArgs, sets: &Sets) -> String {
    sets.as_ref().map_or("search".to_string(), |s| format!("{} ({})", args.player, s.0.display()))
}

/// `generate flow --from FILE`: the drawn puzzle said fine, or repaired.
fn from_file(args: &FlowArgs, from: &Path) -> CmdResult {
    if args.max_changes == 0 {
        return Err("--max-changes must be at least 1 (a repair changes an endpoint)".into());
    }
    let (shown, drawn) = read_one(from)?;
    let file = file_of(from);
    let layout = layout(&stratsynth::files::read_text(&file).map_err(|e| e.to_string())?);
    let sets = read_sets(args)?;
    let inputs: Vec<&Path> = std::iter::once(file.as_path()).chain(sets.iter().map(|s| s.0.as_path())).collect();
    if let Some(out) = &args.output {
        check_output(out, &inputs)?;
    }
    let players = players(&sets)?;
    let wanted = wanted(args, &sets, &players);
    let timeout = args.timeout.unwrap_or(DEFAULT_REPAIR_TIMEOUT);
    let started = Instant::now();
    let budget = Budget { max_changes: args.max_changes, deadline: Some(started + Duration::from_secs(timeout)) };
    let tally = Tally::default();
    let say = |elapsed: Duration| {
        Some(format!(
            "{shown}: repair search, {:.0} s: trying {} changes, {} puzzles judged",
            elapsed.as_secs_f64(),
            tally.changes(),
            tally.judged()
        ))
    };
    let found = ticking(say, || repair(&drawn, &wanted, budget, &tally)).map_err(|e| format!("{shown}: {e}"))?;
    let report = RepairReport {
        shown,
        drawn,
        found,
        player: player_name(args, &sets),
        rule_names: sets.iter().flat_map(|s| s.2.iter().map(|r| r.name.clone())).collect(),
        max_bits: wanted.max_bits,
        max_changes: args.max_changes,
        timeout: timeout as f64,
        seconds: started.elapsed().as_secs_f64(),
        remedies: Remedies::COMMAND,
    };
    let text = report.file_text(layout, &command_line()).map_err(|e| e.to_string())?;
    let written = args.output.as_ref().filter(|_| text.is_some());
    if args.json {
        let file = written.map(|o| o.display().to_string());
        println!("{}", report.json(file.as_deref()).map_err(|e| e.to_string())?);
    } else {
        print!("{}", report.text().map_err(|e| e.to_string())?);
    }
    if let (Some(out), Some(text)) = (written, &text) {
        write_output(out, text)?;
        if !args.json {
            println!("wrote the repaired puzzle to {}", out.display());
        }
    }
    Ok(if text.is_some() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `generate flow --size WxH,...`: random puzzles.
fn random(args: &FlowArgs, size: &str) -> CmdResult {
    let sizes = sizes(size)?;
    let colours = |w: usize, h: usize| args.colours.unwrap_or(((w * h + 5) / 10).max(1));
    for &(w, h) in &sizes {
        check_colours(w, h, colours(w, h))?;
    }
    if args.count == 0 {
        return Err("--count must be at least 1".into());
    }
    let sets = read_sets(args)?;
    let inputs: Vec<&Path> = sets.iter().map(|s| s.0.as_path()).collect();
    if let Some(out) = &args.output {
        check_output_path(out, &inputs)?;
    }
    let players = players(&sets)?;
    let wanted = wanted(args, &sets, &players);
    let max_bits = wanted.max_bits;
    let player = player_name(args, &sets);
    let deadline = args.timeout.map(|t| Instant::now() + Duration::from_secs(t));
    let mut report = Report {
        summary: vec![],
        made: vec![],
        rule_names: sets.iter().flat_map(|s| s.2.iter().map(|r| r.name.clone())).collect(),
        player: player.clone(),
        seed: args.seed,
    };
    let mut short = vec![];
    for &(width, height) in &sizes {
        let shape = Shape { width, height, colours: colours(width, height) };
        if !covers(&shape, args.seed, COVER_TRIES) {
            return Err(format!(
                "--colours {}: none of {COVER_TRIES} tries covered the {width}x{height} board by that many paths \
                 that never run beside themselves; give another number of colours",
                shape.colours
            ));
        }
        let started = Instant::now();
        let bounds = Bounds { count: args.count, max_candidates: args.max_candidates, deadline };
        let state = std::sync::Mutex::new((0u64, 0usize));
        let say = |elapsed: Duration| {
            let (judged, kept) = *state.lock().unwrap_or_else(|e| e.into_inner());
            Some(format!(
                "generating {width}x{height}: {kept} of {} puzzles kept, {judged} candidates judged, {:.0} s",
                args.count,
                elapsed.as_secs_f64()
            ))
        };
        let (made, judged) = ticking(say, || {
            random_puzzles(&shape, args.seed, &wanted, bounds, |judged, kept| {
                *state.lock().unwrap_or_else(|e| e.into_inner()) = (judged, kept)
            })
        })
        .map_err(|e| e.to_string())?;
        let seconds = started.elapsed().as_secs_f64();
        let bits = max_bits.map_or("any bits".to_string(), |b| format!("at most {b} bits"));
        report.summary.push(format!(
            "{} random {width}x{height} puzzles with {} colours (seed {}) for the player {player}, {bits}{}: {} of {judged} candidates kept in {seconds:.2} s ({:.1} puzzles/s)",
            made.len(),
            shape.colours,
            args.seed,
            args.needs.as_ref().map_or(String::new(), |r| format!(", needing {r}")),
            made.len(),
            made.len() as f64 / seconds.max(1e-9)
        ));
        if made.len() < args.count {
            let limit = match args.timeout.filter(|_| stratsynth::deadline::past(deadline)) {
                Some(t) => format!("--timeout {t} s"),
                None => format!("--max-candidates {}", args.max_candidates),
            };
            short.push(format!(
                "{width}x{height}: only {} of the {} puzzles asked for within {limit} ({judged} candidates judged)",
                made.len(),
                args.count
            ));
        }
        report.made.extend(made);
    }
    write(args, &report)?;
    for line in &short {
        eprintln!("{line}");
    }
    Ok(if short.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Prints the report, then writes the puzzle files.
fn write(args: &FlowArgs, report: &Report) -> Result<(), String> {
    let command = command_line();
    let set = args.output.as_ref().filter(|o| o.extension().is_some_and(|e| e == "flow"));
    let files: Vec<Option<String>> = (0..report.made.len())
        .map(|k| match (&args.output, set) {
            (Some(_), Some(file)) => Some(format!("{}#{}", file.display(), k + 1)),
            (Some(dir), None) => Some(dir.join(format!("{}.flow", Report::name(k))).display().to_string()),
            _ => None,
        })
        .collect();
    if args.json {
        println!("{}", report.json(&files).map_err(|e| e.to_string())?);
    } else {
        print!("{}", report.text());
    }
    match (&args.output, set) {
        (Some(_), Some(file)) => write_output(file, &report.set_text(&command).map_err(|e| e.to_string())?)?,
        (Some(dir), None) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("{}: cannot create the output directory: {e}", dir.display()))?;
            for (k, file) in files.iter().enumerate() {
                let text = report.file_text(k, &command).map_err(|e| e.to_string())?;
                write_output(Path::new(file.as_deref().unwrap_or_default()), &text)?;
            }
        }
        _ => {}
    }
    if let (Some(out), false) = (&args.output, args.json) {
        println!("wrote {} puzzles to {}", report.made.len(), out.display());
    }
    Ok(())
}
