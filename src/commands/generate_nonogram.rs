//! `generate nonogram`: nonograms made to order for a chosen player. With
//! `--from PICTURE`, the picture's puzzle if it is already fine, else the
//! repairs with the fewest changed cells; with `--size WxH`, random
//! puzzles within a difficulty range. Every puzzle kept has passed the
//! checks of `make::accept` (the player solves it, the complete solver
//! finds exactly one solution); the outputs are `generate_report`'s.

use super::generate_report::{check_outputs, finish, Names, Outputs};
use super::CmdResult;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use stratsynth::domains::nonogram::line::bitline::MAX_LINE;
use stratsynth::domains::nonogram::make::accept::range;
use stratsynth::domains::nonogram::make::accept::Wanted;
use stratsynth::domains::nonogram::make::judge::Player;
use stratsynth::domains::nonogram::make::picture::read_picture;
use stratsynth::domains::nonogram::make::random::{Shape, Symmetry};
use stratsynth::domains::nonogram::make::repair::RepairBudget;
use stratsynth::domains::nonogram::make::run::random_puzzles;
use stratsynth::domains::nonogram::play::analysis::MAX_CELLS;
use stratsynth::domains::nonogram::rules::check::brute_force_all;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::dsl::ast::Rule;
use stratsynth::report::nonogram::generate::Report;
use stratsynth::report::nonogram::generate::{random_made, repair_report, NamedPlayer};
use stratsynth::report::remedies::Remedies;
use stratsynth::report::ticking::ticking;
use stratsynth::rule_files::read_nonogram_rules;

/// Options of `generate nonogram`.
#[derive(clap::Args, Debug)]
pub struct NonogramArgs {
    /// A picture (`.non` with a goal, plain PBM, PNG; black = filled): said fine, or repaired.
    #[arg(long, value_name = "PICTURE", conflicts_with_all = ["size", "steps", "needs", "order"], required_unless_present = "size")]
    pub from: Option<PathBuf>,
    /// Random puzzles of this size, `WxH`.
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Random puzzles to make (default 10); with --from, repairs to propose (default 3).
    #[arg(long)]
    pub count: Option<usize>,
    /// Seed of the random pictures.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The chance that a cell of a random picture is black.
    #[arg(long, default_value_t = 0.5)]
    pub density: f64,
    /// Mirror symmetry of random pictures: none, horizontal (rows read the same both ways), vertical (columns do).
    #[arg(long, default_value = "none", value_parser = clap::value_parser!(Symmetry))]
    pub symmetry: Symmetry,
    /// The player's steps, `A..B` (inclusive).
    #[arg(long, value_name = "A..B")]
    pub steps: Option<String>,
    /// Bits of guessing allowed, `A..B` (inclusive; default 0..0: no guessing). With --from and B > 0: repair for uniqueness alone, the player's bits within A..B.
    #[arg(long, value_name = "A..B")]
    pub bits: Option<String>,
    /// The player: `line` (the exact line solver), `rules:FILE` (a rule set with the decomposition oracle), `probe` (line solving plus single-cell probing).
    #[arg(long, default_value = "line")]
    pub player: String,
    /// Keep only puzzles the rule player cannot finish without this rule (of the `rules:FILE` set).
    #[arg(long, value_name = "RULE")]
    pub needs: Option<String>,
    /// Sort the puzzles by difficulty, easiest first (bits, then steps).
    #[arg(long)]
    pub order: bool,
    /// Worker threads (default: every core); the output is the same for any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Directory receiving one `.non` per puzzle (created if absent).
    #[arg(short, long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// A JSON object on stdout instead of the text report.
    #[arg(long)]
    pub json: bool,
    /// An HTML page drawing each puzzle, its solution and its changed cells.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Random candidates judged at most.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_candidates: u64,
    /// With --from: changed cells at most (default 8; 32 for a repair for
    /// uniqueness alone, --bits past 0).
    #[arg(long)]
    pub max_changes: Option<usize>,
    /// With --from: pictures judged at most in the search for repairs.
    #[arg(long, default_value_t = RepairBudget::default().evaluations)]
    pub max_evaluations: usize,
    /// The complete solver's node budget per uniqueness check.
    #[arg(long, default_value_t = 100_000)]
    pub max_nodes: u64,
    /// Seconds the search may take (with --from: default 60): the repair
    /// search, or the search for random candidates, stops there and reports
    /// what it found.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: Option<u64>,
}

/// Seconds a repair search takes at most unless `--timeout` says otherwise.
const DEFAULT_REPAIR_TIMEOUT: u64 = 60;

/// The player as given by `--player`, with the rules it owns.
struct PlayerChoice {
    /// `line`, `probe` or the rule file.
    name: String,
    rules: Option<(Nonogram, Vec<Rule>)>,
    /// The rule set without the `--needs` rule.
    without: Option<Vec<Rule>>,
    probe: bool,
}

impl PlayerChoice {
    fn read(args: &NonogramArgs) -> Result<PlayerChoice, String> {
        let mut choice = PlayerChoice { name: args.player.clone(), rules: None, without: None, probe: false };
        match args.player.as_str() {
            "line" => {}
            "probe" => choice.probe = true,
            other => {
                let file = other
                    .strip_prefix("rules:")
                    .filter(|f| !f.is_empty())
                    .ok_or_else(|| format!("--player {other}: expected line, probe or rules:FILE"))?;
                choice.name = file.to_string();
                let (domain, rules) = read_nonogram_rules(Path::new(file))?;
                check_player_rules(file, &domain, &rules)?;
                choice.rules = Some((domain, rules));
            }
        }
        if let Some(rule) = &args.needs {
            let (_, rules) = choice
                .rules
                .as_ref()
                .ok_or("--needs RULE needs --player rules:FILE (the rule set the rule belongs to)")?;
            if !rules.iter().any(|r| r.name == *rule) {
                return Err(format!("--needs {rule}: no rule of that name in {}", choice.name));
            }
            choice.without = Some(rules.iter().filter(|r| r.name != *rule).cloned().collect());
        }
        Ok(choice)
    }

    fn player(&self) -> Player<'_> {
        match &self.rules {
            Some((domain, rules)) => Player::Rules { domain, rules },
            None if self.probe => Player::Probe,
            None => Player::Line,
        }
    }

    fn stuck(&self) -> Option<Player<'_>> {
        let (domain, _) = self.rules.as_ref()?;
        self.without.as_ref().map(|rules| Player::Rules { domain, rules })
    }

    fn rule_names(&self) -> Vec<String> {
        self.rules.iter().flat_map(|(_, rules)| rules.iter().map(|r| r.name.clone())).collect()
    }
}

/// Lines checked by brute force before a rule set plays (every valid line
/// of 1 to this many cells, every binding): a few seconds at most.
const PLAYER_CHECK_CELLS: usize = 10;

/// Refuses, before any candidate, a rule set that could make no puzzle: an
/// empty one, or one with a rule unsound on a short line (the brute-force
/// check; a rule unsound only on longer lines stops the run at the first
/// wrong fill).
fn check_player_rules(file: &str, domain: &Nonogram, rules: &[Rule]) -> Result<(), String> {
    if rules.is_empty() {
        return Err(format!("--player rules:{file}: the file holds no rules; this player could solve no puzzle"));
    }
    let checked = brute_force_all(domain, rules, PLAYER_CHECK_CELLS);
    match rules.iter().zip(checked).find_map(|(rule, cx)| cx.map(|cx| (rule, cx))) {
        Some((rule, cx)) => Err(format!(
            "--player rules:{file}: rule `{}` is unsound (on the line {} it fills a cell the line does not force); \
             a player must be sound: check the set with `stratsynth verify`",
            rule.name,
            stratsynth::synth::Domain::show(domain, &cx.state)
        )),
        None => Ok(()),
    }
}

/// `generate nonogram --from PICTURE ...` or `generate nonogram --size WxH ...`.
pub fn generate(args: &NonogramArgs) -> CmdResult {
    if args.max_nodes == 0 {
        return Err(
            "--max-nodes 0: the complete solver could confirm no puzzle's one solution; expected at least 1".into()
        );
    }
    let choice = PlayerChoice::read(args)?;
    let inputs: Vec<&Path> =
        args.from.iter().map(PathBuf::as_path).chain(choice.rules.as_ref().map(|_| Path::new(&choice.name))).collect();
    match (&args.from, &args.size) {
        (Some(from), _) => from_picture(args, &choice, from, &inputs),
        (None, Some(size)) => random(args, &choice, size, &inputs),
        (None, None) => Err("give --from PICTURE or --size WxH".into()),
    }
}

/// The outputs asked for.
fn outputs(args: &NonogramArgs) -> Outputs<'_> {
    Outputs {
        dir: args.output.as_deref(),
        html: args.html.as_deref(),
        json: args.json,
        seed: args.seed,
        player: &args.player,
    }
}

/// `WxH`.
fn size(text: &str) -> Result<(usize, usize), String> {
    let bad =
        || format!("--size {text}: expected WxH with sides 1 to {MAX_LINE} and at most {MAX_CELLS} cells, like 15x15");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (usize, usize) = (w.trim().parse().map_err(|_| bad())?, h.trim().parse().map_err(|_| bad())?);
    if w == 0 || h == 0 || w.max(h) > MAX_LINE || w * h > MAX_CELLS {
        return Err(bad());
    }
    Ok((w, h))
}

/// A progress bar on standard error (drawn only on a terminal).
fn bar(len: u64, what: &str) -> ProgressBar {
    let style = ProgressStyle::with_template(&format!(
        "{{bar:30}} {{pos}}/{{len}} {what}, {{msg}} candidates, {{elapsed_precise}} elapsed"
    ))
    .expect("a valid template");
    ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr()).with_style(style)
}

/// Random puzzles: the first `--count` candidates that pass.
fn random(args: &NonogramArgs, choice: &PlayerChoice, size_text: &str, inputs: &[&Path]) -> CmdResult {
    let (width, height) = size(size_text)?;
    if !(args.density > 0.0 && args.density < 1.0) {
        return Err(format!("--density {}: expected a chance strictly between 0 and 1", args.density));
    }
    let count = args.count.unwrap_or(10);
    if count == 0 || count as u64 > args.max_candidates {
        return Err(format!(
            "--count {count}: expected 1 to --max-candidates {} (each puzzle is a candidate judged)",
            args.max_candidates
        ));
    }
    let wanted = Wanted {
        player: choice.player(),
        steps: args
            .steps
            .as_deref()
            .map(|s| range::<u32>("--steps", s).map(|r| *r.start() as usize..=*r.end() as usize))
            .transpose()?,
        bits: args.bits.as_deref().map_or(Ok(0.0..=0.0), |s| range::<f64>("--bits", s))?,
        stuck: choice.stuck(),
        max_nodes: args.max_nodes,
        deadline: None,
    };
    check_outputs(&outputs(args), &Names { fixed: &[], prefix: "random", count }, inputs)?;
    let shape = Shape { width, height, density: args.density, symmetry: args.symmetry };
    let started = Instant::now();
    let progress = bar(count as u64, "puzzles");
    let deadline = args.timeout.map(|t| started + Duration::from_secs(t));
    // the bar on a terminal, else a line every few seconds
    let say = |elapsed: Duration| {
        progress.is_hidden().then(|| {
            format!(
                "generating: {} of {count} puzzles kept, {} candidates judged, {:.0} s",
                progress.position(),
                progress.message(),
                elapsed.as_secs_f64()
            )
        })
    };
    let (kept, judged) = ticking(say, || {
        random_puzzles(&shape, args.seed, count, args.max_candidates, &wanted, deadline, |judged, kept| {
            progress.set_position(kept as u64);
            progress.set_message(judged.to_string());
            true
        })
    })
    .map_err(|e| e.to_string())?;
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let mut made = random_made(kept, args.seed);
    if args.order {
        made.sort_by(|a, b| a.solve.bits.total_cmp(&b.solve.bits).then(a.solve.steps.cmp(&b.solve.steps)));
    }
    for (k, m) in made.iter_mut().enumerate() {
        m.name = format!("random-{}", k + 1);
        m.title = format!("{} ({})", m.title, m.name);
    }
    let summary = format!(
        "{} random {width}x{height} puzzles (density {}, symmetry {}, seed {}) for the player {}: {} of {judged} candidates kept in {seconds:.2} s ({:.1} puzzles/s)",
        made.len(),
        args.density,
        args.symmetry.name(),
        args.seed,
        choice.name,
        made.len(),
        made.len() as f64 / seconds.max(1e-9)
    );
    let short = made.len() < count;
    let report = Report { summary, made, rule_names: choice.rule_names(), original: None };
    finish(&outputs(args), &report)?;
    if short {
        let limit = if let Some(t) = args.timeout.filter(|_| stratsynth::deadline::past(deadline)) {
            format!("--timeout {t} s ({judged} candidates judged)")
        } else {
            format!("--max-candidates {}", args.max_candidates)
        };
        eprintln!("only {} of the {count} puzzles asked for within {limit}", report.made.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A picture: fine as it is, or repaired.
fn from_picture(args: &NonogramArgs, choice: &PlayerChoice, path: &Path, inputs: &[&Path]) -> CmdResult {
    let picture = read_picture(path).map_err(|e| e.to_string())?;
    let count = args.count.unwrap_or(3);
    let bits = args.bits.as_deref().map_or(Ok(0.0..=0.0), |s| range::<f64>("--bits", s))?;
    let max_changes = args.max_changes.unwrap_or_else(|| RepairBudget::max_changes_for(&bits));
    if count == 0 || max_changes == 0 {
        return Err("--count and --max-changes must be at least 1 (a repair changes a cell)".into());
    }
    check_outputs(&outputs(args), &Names { fixed: &["unchanged"], prefix: "repair", count }, inputs)?;
    let wanted =
        Wanted { player: choice.player(), steps: None, bits, stuck: None, max_nodes: args.max_nodes, deadline: None };
    let budget = RepairBudget {
        max_changes,
        evaluations: args.max_evaluations,
        deadline: Some(Instant::now() + Duration::from_secs(args.timeout.unwrap_or(DEFAULT_REPAIR_TIMEOUT))),
        ..RepairBudget::default()
    };
    let shown = path.display().to_string();
    let report = repair_report(
        &picture,
        &shown,
        NamedPlayer { name: &choice.name, rule_names: choice.rule_names() },
        &wanted,
        budget,
        count,
        Remedies::COMMAND,
    )?;
    if report.made.is_empty() {
        eprintln!("{}", report.summary);
        return Ok(ExitCode::from(1));
    }
    finish(&outputs(args), &report)?;
    Ok(ExitCode::SUCCESS)
}
