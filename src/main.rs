//! The `stratsynth` command line: parses arguments (clap), calls the
//! library, reports results and errors (non-zero exit on any error); sets
//! the allocator (mimalloc, keeping freed memory for reuse).

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
mod studio;

use clap::{Parser, Subcommand};
use std::io::Write;
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
    Print(commands::print::PrintArgs),
    /// Brute-force soundness of each nonogram rule on every valid line up to N cells.
    Check(commands::check::CheckArgs),
    /// Prove each rule sound with Z3 up to a bound, or give a counterexample.
    Verify(commands::verify::VerifyArgs),
    /// Solve a `.non` puzzle line by line (`solve PUZZLE` or `solve nonogram PUZZLE`), or Witness puzzles with A* (`solve witness`).
    Solve(Solve),
    /// Write solution traces (random rollouts) of puzzles as test transitions.
    Trace(commands::trace::TraceArgs),
    /// Coverage of a rule set on test transitions.
    Cover(commands::cover::CoverArgs),
    /// Learn a rule set end to end: mine, synthesise, select, write, print.
    Learn {
        #[command(subcommand)]
        domain: LearnCommand,
    },
    /// Draw random puzzle sets (`gen witness`: Stevens' generators).
    Gen {
        #[command(subcommand)]
        domain: GenCommand,
    },
    /// Synthesise sound rules for nonogram specifications (`HINTS | START | TARGET`).
    Synth(commands::synth::SynthArgs),
    /// Merge rule files written by `synth -o` (e.g. shards) into one deduplicated set.
    Merge(commands::synth::MergeArgs),
    /// Mine specifications (states with a deduction the rules should make).
    Mine {
        #[command(subcommand)]
        domain: MineCommand,
    },
    /// Choose K rules greedily by coverage on test transitions and write them.
    Select(commands::select::SelectArgs),
    /// Compare a learned rule set with control rules: nonogram rules on test transitions (`compare --learned ...` or `compare nonogram`), or Witness rules (`compare witness`).
    Compare(Compare),
    /// Analyse puzzles: nonograms' solutions, line- and rule-solvability, steps, difficulty, ranking (`analyze PUZZLES` or `analyze nonogram`); Witness puzzles' solution information (`analyze witness`).
    Analyze(Analyze),
    /// Explain a puzzle's solve step by step with a rule set (text, and an HTML page with `--html`).
    Explain(commands::explain::ExplainArgs),
    /// Measure the line solver's throughput and the time of `cover` (and more, by option), or a Witness rule set's speed-up (`bench witness`).
    Bench(Bench),
    /// Make puzzles to order: nonograms from a picture or at random, Witness puzzles to a difficulty.
    Generate {
        #[command(subcommand)]
        kind: GenerateCommand,
    },
    /// The designer's studio: one local web page (and its JSON API) to draw, check, grade, explain, repair and generate puzzles.
    Studio(studio::command::StudioArgs),
    /// The former spellings `witness gen|solve|bench|analyze|generate|compare` (now `gen witness`, `solve witness`, ...).
    #[command(hide = true)]
    Witness {
        #[command(subcommand)]
        command: WitnessCommand,
    },
}

/// A verb whose nonogram options may be given directly (`VERB ARGS`, as
/// before the domains came) or after a domain (`VERB nonogram ARGS`,
/// `VERB witness ARGS`); the options given directly are `$given` (an
/// `Option` where a field is required, clap asking for it when no domain
/// is named).
macro_rules! verb {
    ($name:ident, $domains:ident, $given:ty, $nonogram:ty, $witness:ty, $nonogram_doc:literal, $witness_doc:literal) => {
        #[derive(clap::Args, Debug)]
        #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
        struct $name {
            #[command(subcommand)]
            domain: Option<$domains>,
            #[command(flatten)]
            nonogram: $given,
        }

        #[derive(Subcommand, Debug)]
        enum $domains {
            #[doc = $nonogram_doc]
            Nonogram(Box<$nonogram>),
            #[doc = $witness_doc]
            Witness($witness),
        }
    };
}

verb!(
    Solve,
    SolveDomain,
    Option<commands::solve::SolveArgs>,
    commands::solve::SolveArgs,
    commands::solve_witness::SolveArgs,
    "Solve a `.non` puzzle line by line, with the exact line solver or a rule set.",
    "Solve puzzles with A*, pruning (or sorting) by local constraint checking and a rule set."
);
verb!(
    Compare,
    CompareDomain,
    Option<commands::compare::CompareArgs>,
    commands::compare::CompareArgs,
    commands::compare_witness::CompareArgs,
    "Compare a learned rule set with control rules on test transitions.",
    "Which rules of a control set (Shen's inference rules) a learned rule set recovers, and where it goes beyond."
);
verb!(
    Analyze,
    AnalyzeDomain,
    commands::analyze::AnalyzeArgs,
    commands::analyze::AnalyzeArgs,
    commands::analyze_witness::AnalyzeArgs,
    "Analyse puzzles: solutions, line- and rule-solvability, steps, difficulty, ranking.",
    "Solutions and solution information (MSI, TSI in Sh) per player: uniform, local, each rule file."
);
verb!(
    Bench,
    BenchDomain,
    commands::bench::BenchArgs,
    commands::bench::BenchArgs,
    commands::bench_witness::BenchArgs,
    "Measure the line solver's throughput and the time of `cover`.",
    "Speed-up of a rule set over local constraint checking (Stevens eq. 2.1/2.2), per size."
);

#[derive(Subcommand, Debug)]
enum GenerateCommand {
    /// Nonograms unique and solved by a chosen player without guessing: from a picture, or random.
    Nonogram(commands::generate_nonogram::NonogramArgs),
    /// Witness puzzles made to a difficulty: every filling of placeholder squares (EPCG), or teaching puzzles per rule.
    Witness(commands::generate_witness::GenerateArgs),
    /// Flow puzzles with one solution, solved by a chosen player within the bits given (or needing a rule).
    Flow(commands::generate_flow::FlowArgs),
}

#[derive(Subcommand, Debug)]
enum GenCommand {
    /// Generate random solvable Witness puzzles (Stevens, Appendix D).
    Witness(commands::gen_witness::GenArgs),
}

#[derive(Subcommand, Debug)]
enum LearnCommand {
    /// Nonogram rules: mine, synthesise, deduplicate, select the top K, compare with the control rules.
    Nonogram(commands::learn_nonogram::NonogramArgs),
    /// Witness pruning rules from generated training puzzles.
    Witness(commands::learn_witness::LearnArgs),
    /// Flow rules from windows of the bundled puzzles' traces: mine, synthesise, select the top K, compare with the control rules.
    Flow(commands::learn_flow::FlowArgs),
}

/// The former `witness VERB` spellings, kept so that no script breaks.
#[derive(Subcommand, Debug)]
enum WitnessCommand {
    /// `gen witness` (this spelling kept for scripts): random solvable puzzles (Stevens, Appendix D).
    Gen(commands::gen_witness::GenArgs),
    /// `solve witness` (this spelling kept for scripts): A* with local constraint checking and a rule set.
    Solve(commands::solve_witness::SolveArgs),
    /// `bench witness` (this spelling kept for scripts): a rule set's speed-up over local constraint checking.
    Bench(commands::bench_witness::BenchArgs),
    /// `analyze witness` (this spelling kept for scripts): solutions and solution information per player.
    Analyze(commands::analyze_witness::AnalyzeArgs),
    /// `generate witness` (this spelling kept for scripts): puzzles made to a difficulty.
    Generate(commands::generate_witness::GenerateArgs),
    /// `compare witness` (this spelling kept for scripts): a control set's rules a learned set recovers.
    Compare(commands::compare_witness::CompareArgs),
}

/// Domains `mine` knows.
#[derive(Subcommand, Debug)]
enum MineCommand {
    /// Every deduction of every small nonogram line state, one per run of newly forced cells.
    Nonogram(commands::mine_nonogram::MineArgs),
    /// Incompletable partial paths of generated puzzles that the rules do not prune.
    Witness(commands::mine_witness::MineArgs),
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

/// Synthesis allocates many small, short-lived vectors (candidate rules,
/// bindings, table columns); mimalloc serves them faster than the system
/// allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its place in `mi_option_t` of the
/// mimalloc 3 bundled by libmimalloc-sys 0.1.49, pinned exactly in
/// Cargo.toml: the crate does not export the constant).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps freed memory for reuse instead of returning it to the system a
/// second later: synthesis frees and refills the same memory specification
/// after specification, and every page returned is zeroed again by the
/// kernel when it comes back. The environment variable
/// `MIMALLOC_PURGE_DELAY` still overrides it.
fn keep_freed_memory() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: called once, before any other thread exists
        unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
    }
}

fn main() -> ExitCode {
    keep_freed_memory();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Print(args) => commands::print::print(&args),
        Command::Check(args) => commands::check::check(&args),
        Command::Verify(args) => commands::verify::verify(&args),
        Command::Solve(Solve { domain: Some(SolveDomain::Nonogram(args)), .. }) => commands::solve::solve(&args),
        Command::Solve(Solve { nonogram: Some(args), .. }) => commands::solve::solve(&args),
        Command::Solve(Solve { domain: Some(SolveDomain::Witness(args)), .. })
        | Command::Witness { command: WitnessCommand::Solve(args) } => commands::solve_witness::solve(&args),
        Command::Trace(args) => commands::trace::trace(&args),
        Command::Cover(args) => commands::cover::cover(&args),
        Command::Learn { domain: LearnCommand::Nonogram(args) } => {
            with_threads(args.proof.threads, || commands::learn_nonogram::learn(&args))
        }
        Command::Learn { domain: LearnCommand::Witness(args) } => {
            with_threads(args.proof.threads, || commands::learn_witness::learn(&args))
        }
        Command::Learn { domain: LearnCommand::Flow(args) } => {
            with_threads(args.proof.threads, || commands::learn_flow::learn(&args))
        }
        Command::Gen { domain: GenCommand::Witness(args) }
        | Command::Witness { command: WitnessCommand::Gen(args) } => commands::gen_witness::gen(&args),
        Command::Synth(args) => with_threads(args.threads, || commands::synth::run(&args)),
        Command::Merge(args) => commands::synth::merge(&args),
        Command::Mine { domain: MineCommand::Nonogram(args) } => commands::mine_nonogram::mine(&args),
        Command::Mine { domain: MineCommand::Witness(args) } => commands::mine_witness::mine_specs(&args),
        Command::Select(args) => commands::select::select(&args),
        Command::Compare(Compare { domain: Some(CompareDomain::Nonogram(args)), .. }) => {
            commands::compare::compare(&args)
        }
        Command::Compare(Compare { nonogram: Some(args), .. }) => commands::compare::compare(&args),
        Command::Compare(Compare { domain: Some(CompareDomain::Witness(args)), .. })
        | Command::Witness { command: WitnessCommand::Compare(args) } => commands::compare_witness::compare_sets(&args),
        Command::Analyze(Analyze { domain: Some(AnalyzeDomain::Nonogram(args)), .. }) => commands::analyze::run(&args),
        Command::Analyze(Analyze { domain: None, nonogram: args }) => commands::analyze::run(&args),
        Command::Analyze(Analyze { domain: Some(AnalyzeDomain::Witness(args)), .. })
        | Command::Witness { command: WitnessCommand::Analyze(args) } => commands::analyze_witness::analyze(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Bench(Bench { domain: Some(BenchDomain::Nonogram(args)), .. }) => commands::bench::dispatch(&args),
        Command::Bench(Bench { domain: None, nonogram: args }) => commands::bench::dispatch(&args),
        Command::Bench(Bench { domain: Some(BenchDomain::Witness(args)), .. })
        | Command::Witness { command: WitnessCommand::Bench(args) } => commands::bench_witness::bench(&args),
        Command::Generate { kind: GenerateCommand::Nonogram(args) } => {
            with_threads(args.threads, || commands::generate_nonogram::generate(&args))
        }
        Command::Generate { kind: GenerateCommand::Flow(args) } => {
            with_threads(args.threads, || commands::generate_flow::generate(&args))
        }
        Command::Generate { kind: GenerateCommand::Witness(args) }
        | Command::Witness { command: WitnessCommand::Generate(args) } => commands::generate_witness::generate(&args),
        Command::Studio(args) => studio::command::run(&args),
        Command::Solve(_) | Command::Compare(_) => {
            Err("give the command's options, or a domain: nonogram or witness".into())
        }
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
