//! The `stratsynth` command line: parses arguments (clap), calls the
//! library, reports results and errors (non-zero exit on any error).

/// `println!` for the commands: as std's, but a closed or full standard
/// output ends the process cleanly instead of panicking (see `stdout.rs`).
macro_rules! println {
    () => { $crate::stdout::line(format_args!("")) };
    ($($arg:tt)*) => { $crate::stdout::line(format_args!($($arg)*)) };
}

/// `print!` for the commands, with the same failure handling as `println!`.
macro_rules! print {
    ($($arg:tt)*) => { $crate::stdout::text(format_args!($($arg)*)) };
}

/// `eprintln!` for the commands: as std's, but a closed standard error is
/// ignored (the message is lost; the work and its outputs go on).
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod commands;
mod stdout;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Learns human-readable, provably sound solving strategies for logic
/// puzzles by program synthesis.
#[derive(Parser, Debug)]
#[command(name = "stratsynth", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Pretty-print a rule file, with each rule's cost.
    Print {
        /// The `.rules` file.
        rules: PathBuf,
        /// Put each nonogram rule's plain-English sentence first in its comment.
        #[arg(long)]
        english: bool,
    },
    /// Brute-force soundness of each nonogram rule on every valid line up to N cells.
    Check {
        /// The `.rules` file.
        rules: PathBuf,
        /// Longest line checked.
        #[arg(long, default_value_t = 10)]
        max_n: usize,
    },
    /// Prove each rule sound with Z3 up to a bound, or give a counterexample.
    Verify {
        /// The `.rules` file.
        rules: PathBuf,
        /// Soundness bound (nonogram: line length; Witness: grid side; default from the domain's DSL file).
        #[arg(long)]
        bound: Option<u32>,
        /// Z3 time limit per rule, in milliseconds.
        #[arg(long, default_value_t = stratsynth::synth::DEFAULT_TIMEOUT_MS, value_parser = clap::value_parser!(u32).range(1..))]
        timeout_ms: u32,
        /// Print one JSON list instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Solve a `.non` puzzle line by line, with the exact line solver or a rule set.
    Solve {
        /// The `.non` puzzle.
        puzzle: PathBuf,
        /// Solve with these rules (plus the decomposition oracle) instead of the exact solver.
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Apply rules only in each line's own orientation (with `--rules`).
        #[arg(long, requires = "rules")]
        one_sided: bool,
    },
    /// Write solution traces (random rollouts) of puzzles as test transitions.
    Trace {
        /// `.non` puzzles.
        #[arg(required = true)]
        puzzles: Vec<PathBuf>,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Output `.lines` file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Coverage of a rule set on test transitions.
    Cover {
        /// The `.rules` file.
        #[arg(long)]
        rules: PathBuf,
        /// The `.lines` test set.
        #[arg(long)]
        lines: PathBuf,
        /// Greedily choose the K rules that add most coverage.
        #[arg(long)]
        top: Option<usize>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// Apply rules only in each line's own orientation (the paper's setting).
        #[arg(long)]
        one_sided: bool,
    },
    /// Learn a rule set end to end: mine, synthesise, select, write, print.
    Learn {
        #[command(subcommand)]
        domain: LearnCommand,
    },
    /// Witness triangle puzzles: generate, solve, benchmark a rule set.
    Witness {
        #[command(subcommand)]
        command: WitnessCommand,
    },
    /// Synthesise sound rules for nonogram specifications (`HINTS | START | TARGET`).
    Synth(commands::synth::SynthArgs),
    /// Merge rule files written by `synth -o` (e.g. shards) into one deduplicated set.
    Merge {
        /// The `.rules` files.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Output `.rules` file.
        #[arg(short, long)]
        output: PathBuf,
        /// Also keep only the cheapest of the rules that cover the same cells alone on this `.lines` test set.
        #[arg(long)]
        tests: Option<PathBuf>,
    },
    /// Mine specifications (states with a deduction the rules should make).
    Mine {
        #[command(subcommand)]
        domain: MineCommand,
    },
    /// Choose K rules greedily by coverage on test transitions and write them.
    Select {
        /// The `.rules` file of candidates.
        #[arg(long)]
        rules: PathBuf,
        /// The `.lines` test set.
        #[arg(long)]
        lines: PathBuf,
        /// How many rules to choose.
        #[arg(short = 'k')]
        k: usize,
        /// Output `.rules` file.
        #[arg(short, long)]
        output: PathBuf,
        /// Apply rules only in each line's own orientation (the paper's setting).
        #[arg(long)]
        one_sided: bool,
    },
    /// Compare a learned rule set with control rules on test transitions.
    Compare {
        /// The learned `.rules` file.
        #[arg(long)]
        learned: PathBuf,
        /// The control `.rules` file.
        #[arg(long)]
        control: PathBuf,
        /// The `.lines` test set.
        #[arg(long)]
        lines: PathBuf,
        /// Apply rules only in each line's own orientation.
        #[arg(long)]
        one_sided: bool,
    },
    /// Analyse puzzles: solutions, line- and rule-solvability, steps, difficulty, ranking.
    Analyze(commands::analyze::AnalyzeArgs),
    /// Explain a puzzle's solve step by step with a rule set (text, and an HTML page with `--html`).
    Explain(commands::explain::ExplainArgs),
    /// Measure the line solver's throughput and the time of `cover`.
    Bench {
        /// The `.rules` file timed with `cover`.
        #[arg(long, default_value = "rules/nonogram/control.rules")]
        rules: PathBuf,
        /// The `.lines` test set timed with `cover`.
        #[arg(long, default_value = "specs/nonogram/traces.lines")]
        lines: PathBuf,
        /// Number of random 30-cell lines solved.
        #[arg(long, default_value_t = 1_000_000)]
        count: usize,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Instead, time synthesis on the specifications of this `.lines` file.
        #[arg(long)]
        synth: Option<PathBuf>,
        /// Instead, time the complete board solver on these puzzles (`.non` or webpbn XML).
        #[arg(long, num_args = 1.., value_name = "PUZZLES", conflicts_with = "synth")]
        boards: Vec<PathBuf>,
        /// With `--boards`: also run this nonogrid binary on each puzzle and compare.
        #[arg(long, requires = "boards")]
        nonogrid: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
enum LearnCommand {
    /// Nonogram rules: mine, synthesise, deduplicate, select the top K, compare with the control rules.
    Nonogram(commands::learn::NonogramArgs),
    /// Witness pruning rules from generated training puzzles.
    Witness(commands::witness::LearnArgs),
}

#[derive(Subcommand, Debug)]
enum WitnessCommand {
    /// Generate random solvable puzzles (Stevens, Appendix D).
    Gen {
        /// Algorithm 3 (random triangles until solvable) or 4 (triangles read off a random path).
        #[arg(long, value_parser = clap::value_parser!(u8).range(3..=4))]
        alg: u8,
        /// Sizes `WxH..WxH` (width and height drawn uniformly).
        #[arg(long)]
        sizes: String,
        /// Number of puzzles.
        #[arg(long)]
        count: usize,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Output `.ron` puzzle file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Solve puzzles with A*, pruning (or sorting) by local constraint checking and a rule set.
    Solve {
        /// The `.ron` puzzle file.
        #[arg(long)]
        puzzles: PathBuf,
        /// Witness rules used with local constraint checking (default: local constraint checking only).
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Prune flagged paths (default).
        #[arg(long, conflicts_with = "sort")]
        prune: bool,
        /// Sort flagged paths last instead of pruning them.
        #[arg(long)]
        sort: bool,
        /// Time budget per puzzle, in milliseconds.
        #[arg(long)]
        budget_ms: Option<u64>,
        /// Output: one line per puzzle, the solution `x,y x,y ...` or `none`.
        #[arg(long)]
        solutions_out: PathBuf,
    },
    /// Speed-up of a rule set over local constraint checking (Stevens eq. 2.1/2.2), per size.
    Bench {
        /// The `.ron` puzzle file.
        #[arg(long)]
        puzzles: PathBuf,
        /// Witness rules (used with local constraint checking).
        #[arg(long)]
        rules: PathBuf,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Time each search this many times and keep the fastest (expansions are the same every time).
        #[arg(long, default_value_t = 3)]
        repeat: usize,
        /// Large puzzles: count how many each predicate solves within the budget.
        #[arg(long)]
        large: Option<PathBuf>,
        /// Time budget per puzzle and search on the `--large` puzzles, in milliseconds.
        #[arg(long, requires = "large", default_value_t = 2000)]
        budget_ms: u64,
    },
}

/// Domains `mine` knows.
#[derive(Subcommand, Debug)]
enum MineCommand {
    /// Every deduction of every small nonogram line state, one per run of newly forced cells.
    Nonogram {
        /// Longest line enumerated.
        #[arg(long, default_value_t = 7)]
        max_len: usize,
        /// Keep a seeded random sample of this many productive states.
        #[arg(long)]
        sample: Option<usize>,
        /// Seed of the sample (with `--sample`; default 0).
        #[arg(long, default_value_t = 0, hide_default_value = true, requires = "sample")]
        seed: u64,
        /// Output `.lines` file.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Incompletable partial paths of generated puzzles that the rules do not prune.
    Witness {
        /// Puzzle sizes `WxH..WxH` (Algorithm 3).
        #[arg(long, default_value = "2x2..4x4")]
        sizes: String,
        /// Number of training puzzles.
        #[arg(long, default_value_t = 500)]
        count: usize,
        /// Random seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Witness rules whose prunes are not specifications (default: local constraint checking only).
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Every incompletable path, not only those whose parent is completable.
        #[arg(long)]
        all: bool,
        /// Output specification file (`.ron`).
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// Runs `f` on a rayon pool of `threads` workers (the global pool if `None`).
fn with_threads(threads: Option<usize>, f: impl FnOnce() -> commands::CmdResult + Send) -> commands::CmdResult {
    stratsynth::pipeline::with_threads(threads, || f().map_err(Wrapped)).map_err(|e| e.to_string())
}

/// A command's error inside [`stratsynth::pipeline::with_threads`].
struct Wrapped(String);

impl From<stratsynth::pipeline::PipelineError> for Wrapped {
    fn from(e: stratsynth::pipeline::PipelineError) -> Wrapped {
        Wrapped(e.to_string())
    }
}

impl std::fmt::Display for Wrapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Print { rules, english } => commands::rules::print(&rules, english),
        Command::Check { rules, max_n } => commands::rules::check(&rules, max_n),
        Command::Verify { rules, bound, timeout_ms, json } => commands::rules::verify(&rules, bound, timeout_ms, json),
        Command::Solve { puzzle, rules, one_sided } => commands::nonogram::solve(&puzzle, rules.as_deref(), one_sided),
        Command::Trace { puzzles, seed, output } => commands::nonogram::trace(&puzzles, seed, &output),
        Command::Cover { rules, lines, top, json, one_sided } => {
            commands::nonogram::cover(&rules, &lines, top, json, one_sided)
        }
        Command::Learn { domain: LearnCommand::Witness(args) } => with_threads(args.threads, || commands::witness::learn(&args)),
        Command::Witness { command } => match command {
            WitnessCommand::Gen { alg, sizes, count, seed, output } => commands::witness::gen(alg, &sizes, count, seed, &output),
            WitnessCommand::Solve { puzzles, rules, prune: _, sort, budget_ms, solutions_out } => {
                commands::witness::solve(&puzzles, rules.as_deref(), sort, budget_ms, &solutions_out)
            }
            WitnessCommand::Bench { puzzles, rules, json, repeat, large, budget_ms } => {
                commands::witness_bench::bench(&puzzles, &rules, json, repeat, large.as_deref(), budget_ms)
            }
        },
        Command::Mine { domain: MineCommand::Witness { sizes, count, seed, rules, all, output } } => {
            commands::witness::mine_specs(&sizes, count, seed, rules.as_deref(), all, &output)
        }
        Command::Synth(args) => with_threads(args.threads, || commands::synth::run(&args)),
        Command::Merge { inputs, output, tests } => commands::synth::merge(&inputs, &output, tests.as_deref()),
        Command::Learn { domain: LearnCommand::Nonogram(args) } => with_threads(args.threads, || commands::learn::learn(&args)),
        Command::Mine { domain: MineCommand::Nonogram { max_len, sample, seed, output } } => {
            commands::pipeline::mine(max_len, sample, seed, &output)
        }
        Command::Select { rules, lines, k, output, one_sided } => {
            commands::pipeline::select(&rules, &lines, k, &output, one_sided)
        }
        Command::Compare { learned, control, lines, one_sided } => {
            commands::pipeline::compare(&learned, &control, &lines, one_sided)
        }
        Command::Analyze(args) => commands::analyze::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Bench { boards, nonogrid, .. } if !boards.is_empty() => {
            commands::bench_boards::run(&boards, nonogrid.as_deref())
        }
        Command::Bench { synth: Some(specs), .. } => commands::bench::synth(&specs),
        Command::Bench { rules, lines, count, seed, synth: None, .. } => commands::bench::run(&rules, &lines, count, seed),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // a closed standard error leaves only the exit status to tell
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(2)
        }
    }
}
