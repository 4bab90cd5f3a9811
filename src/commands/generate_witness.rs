//! `witness generate`: puzzles made to a difficulty. With `--base` and
//! `--at` / `--edge-at`, Shen's EPCG (Algorithm 4): every filling of the
//! placeholder squares with 0-3 triangles (with `--marks` also a
//! separation square or a star in each palette colour) and of the
//! placeholder edges with none, a must-cross dot or a broken edge, the
//! solvable ones ranked by the TSI of the
//! chosen player or by the gap between the local player's TSI and the rule
//! player's (a puzzle that is hard unless one knows the rules). With
//! `--teach`, per rule of a file the generated puzzles whose TSI knowing
//! that rule lowers the most.

use super::analyze_witness::{deadline_in, rule_player, unknown_note, warn_unsound, DEFAULT_TIMEOUT};
use super::witness::{puzzles, sizes};
use super::{check_output, command_line, write_output, CmdResult};
use serde_json::{json, Value};
use std::path::{Path as FsPath, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::nonogram::board::limits::{hold_memory, DEFAULT_MEMORY_MB};
use stratsynth::domains::witness::make::epcg::{Placeholders, USUAL_PLACEHOLDERS};
use stratsynth::domains::witness::make::generate::{Algorithm, Generator, GeneratorConfig};
use stratsynth::domains::witness::make::generate_kinds::Kinds;
use stratsynth::domains::witness::make::rank::{self, fill_and_rank, teaching, Made};
use stratsynth::domains::witness::play::information::Odds;
use stratsynth::domains::witness::play::page::{page, PagePuzzle};
use stratsynth::domains::witness::play::players::{evaluate_all, tsi, Figure, Limits, RulePlayer, Who};
use stratsynth::domains::witness::Puzzle;
use stratsynth::domains::witness::Vertex;
use stratsynth::report::witness::made_json;
use stratsynth::report::witness::{progress_line, rows, sh, solutions_text, DEFAULT_MAX_NODES};
use stratsynth::rule_files::witness_game_player;

/// What the generated puzzles are ranked by, largest first.
#[derive(clap::ValueEnum, serde::Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// TSI of the rule player, or of the local player with `--no-rules`.
    Tsi,
    /// TSI of the local player minus TSI of the rule player (not with `--no-rules`).
    Gap,
}

/// Options of `witness generate`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct GenerateArgs {
    /// Base puzzle file (one puzzle) whose placeholder squares are filled.
    #[arg(long, conflicts_with = "teach", required_unless_present = "teach")]
    pub base: Option<PathBuf>,
    /// Placeholder squares `column,row` (docs/formats.md), each filled with 0-3 triangles.
    #[arg(long, num_args = 1.., value_name = "C,R", requires = "base")]
    pub at: Vec<String>,
    /// Placeholder edges `x1,y1-x2,y2`, each filled with none, a must-cross dot or a broken edge.
    #[arg(long, num_args = 1.., value_name = "X1,Y1-X2,Y2", requires = "base")]
    pub edge_at: Vec<String>,
    /// Placeholder squares also take a separation square or a star in each colour of
    /// the palette (the base's colours and new ones as Shen §5 counts them).
    #[arg(long, requires = "base")]
    pub marks: bool,
    /// A Witness rule file: the rule player (local checking plus these rules); default: the
    /// whole game's learned set, rules/witness/learned-game.rules (built in).
    #[arg(long, requires = "base")]
    pub rules: Option<PathBuf>,
    /// No rule player: the variants are judged and ranked by local checking alone.
    #[arg(long, requires = "base", conflicts_with = "rules")]
    pub no_rules: bool,
    /// Rank by the chosen player's TSI, or by the local player's TSI minus the rule player's.
    #[arg(long, value_enum, default_value_t = Order::Tsi)]
    pub order: Order,
    /// Keep the best N puzzles (default: all solvable ones; with --teach, 3 per rule).
    #[arg(long, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u64).range(1..), |n| n as usize))]
    pub top: Option<usize>,
    /// A JSON list on stdout instead of the text report.
    #[arg(long)]
    pub json: bool,
    /// Write an HTML page with each puzzle, a solution and its figures.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// Output puzzle file (`.ron`, each puzzle's figures as a comment).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Teaching puzzles for each rule of this Witness rule file.
    #[arg(long)]
    pub teach: Option<PathBuf>,
    /// With --teach: size `WxH` (or `WxH..WxH`) of the candidate puzzles.
    #[arg(long, requires = "teach")]
    pub size: Option<String>,
    /// With --teach: number of candidate puzzles.
    #[arg(long, default_value_t = 100, requires = "teach")]
    pub count: usize,
    /// With --teach: seed of the candidate puzzles.
    #[arg(long, default_value_t = 0, requires = "teach")]
    pub seed: u64,
    /// With --teach: the candidates carry these kinds of constraint
    /// (`triangles,colours,stars,dots,broken`, as `witness gen
    /// --constraints` makes them) instead of Algorithm 3's triangles.
    #[arg(long, requires = "teach")]
    pub constraints: Option<String>,
    /// With --teach --constraints: colours of separation squares and stars (default 2).
    #[arg(long, requires = "constraints", value_parser = clap::value_parser!(u8).range(1..))]
    pub colours: Option<u8>,
    /// States each player may expand on a puzzle larger than 5x5 before its figures are `unknown`.
    #[arg(long, default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: u64,
    /// Seconds the whole run may take (every variant's solvability check
    /// and players; with --teach, making the candidates too): no variant is
    /// judged after them, figures not known by then are `unknown`, and the
    /// exit status is 1.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT, value_parser = super::puzzle_set::parse_seconds)]
    pub timeout: f64,
    /// Megabytes of memory the process may hold; past them the figures not
    /// yet known are `unknown` (`memory`).
    #[arg(long, default_value_t = DEFAULT_MEMORY_MB, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: u64,
}

/// `witness generate --base P --at C,R... [--rules R | --no-rules] [--order tsi|gap] [--top N] [--json] [--html H] -o OUT`
/// or `witness generate --teach R --size WxH [--constraints K [--colours N]] [--count N] [--seed S] [--top N] [-o OUT]`.
pub fn generate(args: &GenerateArgs) -> CmdResult {
    let max_memory = Some(hold_memory(args.memory));
    let limits = Limits { max_nodes: args.max_nodes, deadline: Some(deadline_in(args.timeout)), max_memory };
    let inputs: Vec<&FsPath> =
        [&args.base, &args.rules, &args.teach].into_iter().flatten().map(PathBuf::as_path).collect();
    for out in [&args.output, &args.html].into_iter().flatten() {
        check_output(out, &inputs)?;
    }
    if let (Some(out), Some(html)) = (&args.output, &args.html) {
        if same_file(out, html) {
            return Err(format!("-o {} and --html {}: the same file twice; give two", out.display(), html.display()));
        }
    }
    match (&args.base, &args.teach) {
        (Some(base), None) => epcg(args, base, limits),
        (None, Some(rules)) => teach(args, rules, limits),
        _ => Err("give either --base PUZZLE.ron --at C,R ... or --teach RULES --size WxH".into()),
    }
}

/// Whether `a` and `b` name one file (the same path, or the same file
/// through `.`, `..` or links).
fn same_file(a: &FsPath, b: &FsPath) -> bool {
    let real = |p: &FsPath| {
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(FsPath::new("."));
        std::fs::canonicalize(p)
            .or_else(|_| std::fs::canonicalize(dir).map(|d| d.join(p.file_name().unwrap_or_default())))
    };
    a == b || real(a).ok().zip(real(b).ok()).is_some_and(|(x, y)| x == y)
}

/// A placeholder `column,row`.
fn square(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--at {text}: expected a square `column,row` like `1,2`");
    let (c, r) = text.split_once(',').ok_or_else(bad)?;
    Ok((c.trim().parse().map_err(|_| bad())?, r.trim().parse().map_err(|_| bad())?))
}

/// A placeholder edge `x1,y1-x2,y2`.
fn edge(text: &str) -> Result<(Vertex, Vertex), String> {
    let bad = || format!("--edge-at {text}: expected an edge `x1,y1-x2,y2` like `1,0-1,1`");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    let vertex = |t: &str| -> Result<(usize, usize), String> {
        let (x, y) = t.split_once(',').ok_or_else(bad)?;
        Ok((x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?))
    };
    Ok((vertex(a)?, vertex(b)?))
}

/// Says on standard error what `--timeout` and `--max-nodes` left unknown
/// among `made` (`what` names them): each puzzle whose figures are, and the
/// variants or candidates not judged. Whether anything was.
fn say_unknown(args: &GenerateArgs, players: &[Who], made: &[(String, &[Figure])], not_judged: &str) -> bool {
    let mut unknown = !not_judged.is_empty();
    for (origin, figures) in made {
        if let Some(why) = unknown_note(players, figures, args.timeout, args.max_nodes, args.memory) {
            unknown = true;
            eprintln!("{origin}: {why}");
        }
    }
    if !not_judged.is_empty() {
        eprintln!("{not_judged}");
    }
    unknown
}

/// Shen's Algorithm 4 over every filling of the placeholders.
fn epcg(args: &GenerateArgs, base_path: &FsPath, limits: Limits) -> CmdResult {
    let output = args.output.as_deref().ok_or("--base needs -o OUT.ron (the generated puzzles)")?;
    let mut base = puzzles(base_path)?;
    if base.len() != 1 {
        return Err(format!("{}: holds {} puzzles; --base expects exactly one", base_path.display(), base.len()));
    }
    let squares = args.at.iter().map(|t| square(t)).collect::<Result<Vec<_>, _>>()?;
    let edges = args.edge_at.iter().map(|t| edge(t)).collect::<Result<Vec<_>, _>>()?;
    let placeholders =
        Placeholders::with_kinds(base.remove(0), squares, edges, args.marks).map_err(|e| e.to_string())?;
    let count = placeholders.squares().len() + placeholders.edges().len();
    if count > USUAL_PLACEHOLDERS {
        eprintln!(
            "warning: {count} placeholders make {} variants to analyse (Shen's editor allows {USUAL_PLACEHOLDERS}: 256)",
            placeholders.max_rank()
        );
    }
    if args.order == Order::Gap && args.no_rules {
        return Err("--order gap needs a rule player, not --no-rules (the gap is the local player's TSI minus the rule player's)".into());
    }
    let file = match (&args.rules, args.no_rules) {
        (_, true) => None,
        (Some(path), false) => Some(rule_player(path)?),
        (None, false) => Some(witness_game_player()?),
    };
    let mut players = vec![Who::Local];
    players.extend(file.iter().map(Who::Rules));
    let chosen = players.len() - 1;
    let by = match args.order {
        Order::Tsi => rank::Order::Tsi,
        Order::Gap => rank::Order::Gap,
    };
    let (base, variants_count) = (placeholders.base(), placeholders.max_rank());
    let tell = |i: usize, who: &str, nodes: u64, secs: f64| {
        progress_line("witness generate: variant ", (i, variants_count), base, who, nodes, secs)
    };
    let variants = fill_and_rank(&placeholders, &players, by, limits, &tell).map_err(|e| e.to_string())?;
    let (solvable, not_judged) = (variants.solvable, variants.not_judged);
    let mut made = variants.made;
    let lists: Vec<&[_]> = made.iter().map(|m| m.figures.as_slice()).collect();
    let unsound = warn_unsound(&players, &lists, |i| made[i].origin.clone());
    let named: Vec<(String, &[Figure])> = made.iter().map(|m| (m.origin.clone(), m.figures.as_slice())).collect();
    let skipped = if not_judged > 0 {
        format!(
            "unknown: --timeout {} s ran out before {not_judged} of the {} variants were judged (solvable or not); raise --timeout",
            args.timeout,
            placeholders.max_rank()
        )
    } else {
        String::new()
    };
    let unknown = say_unknown(args, &players, &named, &skipped);
    made.truncate(args.top.unwrap_or(usize::MAX));
    let order = match args.order {
        Order::Tsi => format!("TSI of {}", players[chosen].name()),
        Order::Gap => format!("gap = TSI of local - TSI of {}", players[chosen].name()),
    };
    let judged = if not_judged > 0 {
        format!(", {not_judged} not judged within --timeout {} s", args.timeout)
    } else {
        String::new()
    };
    let summary = format!(
        "{} variants of {} (placeholders {}), {solvable} solvable{judged}; {} kept, ranked by {order} (Sh), largest first",
        placeholders.max_rank(),
        base_path.display(),
        args.at.iter().chain(&args.edge_at).map(String::as_str).collect::<Vec<_>>().join(" "),
        made.len()
    );
    report(args, &summary, &players, &made, output)?;
    Ok(if unsound || unknown { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// One puzzle's figures as a line: solutions, then per player MSI/TSI.
fn figures_line(players: &[Who], m: &Made) -> String {
    let cells: Vec<String> =
        rows(players, &m.figures).into_iter().map(|[who, msi, tsi]| format!("{who} MSI {msi} TSI {tsi}")).collect();
    let score = m.score.map_or("unknown".into(), |s| format!("{s:.2}"));
    format!("{}: score {score}; {} solutions; {}", m.origin, solutions_text(&m.figures[0]), cells.join("; "))
}

/// Writes the puzzle file (and page), prints the report or JSON.
fn report(args: &GenerateArgs, summary: &str, players: &[Who], made: &[Made], output: &FsPath) -> Result<(), String> {
    let mut ron = format!("// {}\n// {}\n[\n", command_line(), super::printable(summary));
    for m in made {
        ron += &format!("    // {}\n    {},\n", figures_line(players, m), m.puzzle.to_ron());
    }
    ron += "]\n";
    write_output(output, &ron)?;
    if let Some(html) = &args.html {
        let items: Vec<PagePuzzle> = made
            .iter()
            .map(|m| PagePuzzle {
                title: format!(
                    "{}: score {}, {} solutions",
                    m.origin,
                    m.score.map_or("unknown".into(), |s| format!("{s:.2}")),
                    solutions_text(&m.figures[0])
                ),
                puzzle: m.puzzle.clone(),
                rows: rows(players, &m.figures),
            })
            .collect();
        write_output(html, &page("witness generate", summary, &items))?;
    }
    if args.json {
        let list: Vec<Value> = made.iter().map(|m| made_json(m, players)).collect();
        println!("{}", Value::Array(list));
    } else {
        println!("{summary}; written to {}", output.display());
        for m in made {
            println!("  {}\n    {}", figures_line(players, m), m.puzzle.to_ron());
        }
    }
    Ok(())
}

/// Up to `count` candidates of `config` seeded with `seed`, none begun
/// after the deadline of `limits`.
fn candidates(config: &GeneratorConfig, seed: u64, count: usize, limits: Limits) -> Result<Vec<Puzzle>, String> {
    let mut generator = Generator::new(config.clone(), seed);
    let mut made = vec![];
    while made.len() < count && !limits.past_deadline() {
        made.push(generator.next_puzzle().map_err(|e| e.to_string())?);
    }
    Ok(made)
}

/// Per rule, the candidates whose TSI knowing the rule lowers the most.
fn teach(args: &GenerateArgs, rules_path: &FsPath, limits: Limits) -> CmdResult {
    let size = args.size.as_deref().ok_or("--teach needs --size WxH (the candidate puzzles' size)")?;
    if args.html.is_some() {
        return Err("--html draws the puzzles of --base; with --teach, write them with -o and run witness analyze --html on them".into());
    }
    let file = rule_player(rules_path)?;
    if file.rules.is_empty() {
        return Err(format!("{}: holds no rules to teach", rules_path.display()));
    }
    let (algorithm, made_by) = match &args.constraints {
        None => (Algorithm::RandomTriangles, "Algorithm 3".to_string()),
        Some(text) => {
            let kinds =
                Kinds::parse(text, args.colours.unwrap_or(2)).map_err(|e| format!("--constraints {text}: {e}"))?;
            (Algorithm::Kinds(kinds), format!("{}, {} colours", kinds.names(), kinds.colour_count))
        }
    };
    let candidates =
        candidates(&GeneratorConfig::new(sizes("--size", size)?, algorithm), args.seed, args.count, limits)?;
    let singles: Vec<RulePlayer> = (0..file.rules.len()).map(|i| file.single(i)).collect();
    let mut players = vec![Who::Local];
    players.extend(singles.iter().map(Who::Rules));
    let tell = |i: usize, who: &str, nodes: u64, secs: f64| {
        progress_line("witness generate: candidate #", (i, candidates.len()), &candidates[i], who, nodes, secs)
    };
    let figures = evaluate_all(&candidates, &players, &|_: usize| limits, &tell);
    let lists: Vec<&[_]> = figures.iter().map(Vec::as_slice).collect();
    let unsound = warn_unsound(&players, &lists, |i| format!("candidate #{i}"));
    let named: Vec<(String, &[Figure])> =
        figures.iter().enumerate().map(|(i, f)| (format!("candidate #{i}"), f.as_slice())).collect();
    let short = if candidates.len() < args.count {
        format!(
            "unknown: --timeout {} s ran out after {} of the {} candidates were made; raise --timeout",
            args.timeout,
            candidates.len(),
            args.count
        )
    } else {
        String::new()
    };
    let unknown = say_unknown(args, &players, &named, &short);
    let top = args.top.unwrap_or(3);
    let mut ron = format!("// {}\n[\n", command_line());
    let mut text = format!(
        "{} candidate {size} puzzles ({made_by}, seed {}); per rule the {top} whose TSI the rule lowers most (Sh)\n",
        candidates.len(),
        args.seed
    );
    let mut list = vec![];
    for (r, rule) in singles.iter().enumerate() {
        let mut made = teaching(&candidates, &figures, r);
        let easier = made.len();
        made.truncate(top);
        text += &format!(
            "rule {}: makes {easier} of {} candidates easier; the {} it helps most:\n",
            rule.name,
            candidates.len(),
            made.len()
        );
        ron += &format!("    // rule {}\n", rule.name);
        let mut entries = vec![];
        for m in &made {
            let (local, with) = (sh(&m.figures[0], Odds::tsi), sh(&m.figures[1], Odds::tsi));
            let gap = m.score.unwrap_or(0.0);
            text += &format!("  {}: TSI {local} -> {with} (-{gap:.2})  {}\n", m.origin, m.puzzle.to_ron());
            ron += &format!(
                "    // {}: TSI local {local}, with {} {with}, lowered by {gap:.2} Sh\n    {},\n",
                m.origin,
                rule.name,
                m.puzzle.to_ron()
            );
            entries.push(json!({"origin": m.origin, "puzzle": m.puzzle.to_ron(), "local_tsi": tsi(&m.figures, 0), "rule_tsi": tsi(&m.figures, 1), "gap": gap}));
        }
        let unrated = figures.iter().filter(|f| f[0].ran_out().is_some() || f[r + 1].ran_out().is_some()).count();
        list.push(json!({"rule": rule.name, "puzzles": entries, "unrated": unrated}));
    }
    ron += "]\n";
    if let Some(out) = &args.output {
        write_output(out, &ron)?;
    }
    if args.json {
        println!("{}", Value::Array(list));
    } else {
        print!("{text}");
    }
    Ok(if unsound || unknown { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
