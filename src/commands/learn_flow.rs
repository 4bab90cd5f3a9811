//! `learn flow`: the whole pipeline for Flow in one run — solve the
//! training puzzles and trace the control rules' playthrough of each
//! (the oracle stepping in where they are stuck), cut window
//! specifications out of the states met, synthesise and prove rules for
//! them (a journaled batch), deduplicate, choose the top K by the slots
//! they decide on the traces, and compare the learned rules with the
//! control rules on the training and the held-out puzzles: slots decided
//! and puzzles solved without search.

use super::learn_args::{chosen_by, selection, ProofArgs};
use super::progress::Progress;
use super::{
    check_output, command_line, make_out_dir, percent, selection_table, versions, write_rules_file, CmdResult,
};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use stratsynth::domains::flow::formats::read::read_flow;
use stratsynth::domains::flow::learn::coverage::{score_set, SetScore};
use stratsynth::domains::flow::learn::learner::{FlowLearner, LearnConfig};
use stratsynth::domains::flow::learn::names::name_rules;
use stratsynth::domains::flow::learn::traces::{trace, Trace};
use stratsynth::domains::flow::model::puzzle::Puzzle;
use stratsynth::domains::flow::model::state::Solution;
use stratsynth::domains::flow::play::playthrough::Knowledge;
use stratsynth::domains::flow::rules::player::Player;
use stratsynth::domains::flow::solve::{solve, Limits, Options};
use stratsynth::domains::flow::synthesis::domain::Flow;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::print::print_rule;
use stratsynth::dsl::schema::Schema;
use stratsynth::files::bundled;
use stratsynth::pipeline::{learn as run_pipeline, LearnOptions};
use stratsynth::rule_files::read_rules_in;
use stratsynth::synth::Config;
use stratsynth::usage::Usage;

/// Options of `learn flow`.
#[derive(clap::Args, Debug)]
pub struct FlowArgs {
    /// Directory of the outputs (`learned.rules`, `topK.rules`, the journal
    /// `learned.journal`); created, with its parents, if it does not exist.
    #[arg(long, default_value = "rules/flow")]
    pub out_dir: PathBuf,
    /// The training puzzles (`.flow`): specifications are mined from, and
    /// rules selected on, their traces.
    #[arg(long, default_value = "specs/flow/made.flow")]
    pub train: PathBuf,
    /// The held-out puzzles (`.flow`) the learned and control rules are
    /// compared on.
    #[arg(long, default_value = "specs/flow/dev.flow")]
    pub test: PathBuf,
    /// The control rules: traced on the training puzzles, and compared with.
    #[arg(long, default_value = "rules/flow/control.rules")]
    pub control: PathBuf,
    /// The side of the windows specifications are cut out with.
    #[arg(long, default_value_t = 4, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(2..=6), usize::from))]
    pub window: usize,
    /// Most specifications synthesised or skipped (the first of every
    /// window mined, in the seed's order; one a rule learned in an earlier
    /// round makes is skipped).
    #[arg(long, default_value_t = 60, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u32).range(1..), |n| n as usize))]
    pub max_specs: usize,
    /// Seed of the order of the specifications.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Also mine every open slot of the states where the control rules are
    /// stuck (the oracle's steps), not only the slots rule and probe
    /// steps decided.
    #[arg(long)]
    pub stuck: bool,
    /// Soundness bound of the proofs: every board up to N x N.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=5))]
    pub bound: u32,
    /// The bound the search screens candidates at before the full proof
    /// (at most --bound).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=5))]
    pub screen: u32,
    /// How many rules to select.
    #[arg(short = 'k', default_value_t = 10, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u32).range(1..), |n| n as usize))]
    pub k: usize,
    /// Select the top K by slots decided per unit of rule cost, their mean
    /// cost at most this at every rank (0, the default: by slots alone,
    /// cost breaking ties).
    #[arg(long, default_value_t = 0)]
    pub max_mean_cost: u32,
    /// Continue the run recorded in the journal.
    #[arg(long)]
    pub resume: bool,
    /// The proofs' resource limits and the worker threads.
    #[command(flatten)]
    pub proof: ProofArgs,
}

/// The options as the rule files' `# options:` line writes them.
impl Serialize for FlowArgs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("FlowArgs", 16)?;
        out.serialize_field("out_dir", &self.out_dir)?;
        out.serialize_field("train", &self.train)?;
        out.serialize_field("test", &self.test)?;
        out.serialize_field("control", &self.control)?;
        out.serialize_field("window", &self.window)?;
        out.serialize_field("max_specs", &self.max_specs)?;
        out.serialize_field("seed", &self.seed)?;
        match self.stuck {
            false => out.skip_field("stuck")?,
            true => out.serialize_field("stuck", &true)?,
        }
        out.serialize_field("bound", &self.bound)?;
        out.serialize_field("screen", &self.screen)?;
        out.serialize_field("k", &self.k)?;
        match self.max_mean_cost {
            0 => out.skip_field("max_mean_cost")?,
            m => out.serialize_field("max_mean_cost", &m)?,
        }
        out.serialize_field("resume", &self.resume)?;
        self.proof.serialize_fields(&mut out)?;
        out.end()
    }
}

/// Random states of larger boards the engine checks candidates on.
const SAMPLE: usize = 2000;

/// The dearest term of a condition or action.
const MAX_TERM_COST: u32 = 3;

/// The puzzles of a `.flow` file, each with its first solution.
fn solved(path: &Path) -> Result<Vec<(String, Puzzle, Solution)>, String> {
    let puzzles = read_flow(&bundled(path)?).map_err(|e| e.to_string())?;
    puzzles
        .into_iter()
        .map(|(name, p)| {
            let mut found = solve(&p, Options::default(), Limits::solutions(1)).solutions;
            if found.is_empty() {
                return Err(format!("{}: {name}: the puzzle has no solution", path.display()));
            }
            Ok((name, p, found.remove(0)))
        })
        .collect()
}

/// `learn flow [--out-dir D] [--train F] [--test F] [--window N] [--max-specs N] [--seed S] [--bound B] ...`.
pub fn learn(args: &FlowArgs) -> CmdResult {
    let started = Instant::now();
    if args.screen > args.bound {
        return Err(format!("--screen {}: at most --bound ({})", args.screen, args.bound));
    }
    let (schema, control) = read_rules_in(&bundled(&args.control)?, Schema::flow()).map_err(|e| e.to_string())?;
    let domain = Flow::with_schema(schema, "dsl/flow.ron").map_err(|e| e.to_string())?;
    let schema = domain.schema();
    // read every input before the long phases: a bad file must not cost a synthesis run
    let train = solved(&args.train)?;
    let test = solved(&args.test)?;
    make_out_dir(&args.out_dir)?;
    let learned_path = args.out_dir.join("learned.rules");
    let top_path = args.out_dir.join(format!("top{}.rules", args.k));
    for output in [&learned_path, &top_path] {
        check_output(output, &[&args.train, &args.test, &args.control])?;
    }
    let control_file = args.control.display().to_string();
    let player = Player::new(&control, schema, &control_file).map_err(|e| e.to_string())?;
    let knowledge = Knowledge::Rules { player: &player, rules: &control };
    let traces: Vec<Trace> = train
        .iter()
        .map(|(name, p, solution)| {
            trace(name, p, solution, &knowledge).map_err(|e| format!("{control_file}: {name}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let mut config = Config::builder(schema)
        .rlimit(args.proof.rlimit)
        .bound(Some(args.bound))
        .build()
        .map_err(|e| format!("--rlimit/--bound: {e}"))?;
    config.screen_bound = args.screen;
    // random states of boards beyond the table's (up to the screening
    // bound): fewer than the default's, each 4x4 board's pairs of two
    // cells being 256
    config.sample = SAMPLE;
    // terms of up to three features or literals (`open(c) - 1`, `need(c)
    // + links(d)`): the space of two cells' terms grows fast with the
    // cost, and its columns on the table with it
    config.max_term_cost = MAX_TERM_COST;
    let learner = FlowLearner::new(
        &domain,
        &traces,
        LearnConfig { window: args.window, max_specs: args.max_specs, seed: args.seed, stuck: args.stuck },
    );
    let journal = args.out_dir.join("learned.journal");
    let progress = Progress::default();
    let options = LearnOptions {
        config,
        journal: &journal,
        resume: args.resume,
        progressive: true,
        augment: 0,
        selection: selection(args.k, args.max_mean_cost),
        retry_rlimit: args.proof.retry_rlimit,
        observer: &progress,
    };
    let run = run_pipeline(&learner, options).map_err(|e| e.to_string())?;
    let mut named = run.learned.clone();
    name_rules(&mut named, schema);
    let top: Vec<Rule> = run.picks.iter().map(|p| named[p.index].clone()).collect();
    let coverage = learner.coverage(&run.learned);
    let refuted = learner.refuted();
    let all: Vec<usize> = (0..named.len()).collect();
    // the comparison: each set on the training and the held-out puzzles
    let pairs = |set: &[(String, Puzzle, Solution)]| -> Vec<(Puzzle, Solution)> {
        set.iter().map(|(_, p, s)| (p.clone(), s.clone())).collect()
    };
    let (train_set, test_set) = (pairs(&train), pairs(&test));
    let with_top: Vec<Rule> = control.iter().chain(&top).cloned().collect();
    let sets: [(String, &[Rule]); 4] = [
        (format!("learned top {}", args.k), &top),
        ("all learned".into(), &named),
        ("control".into(), &control),
        (format!("control and top {}", args.k), &with_top),
    ];
    let mut rows = vec![];
    for (name, rules) in &sets {
        let on_train = score_set(rules, schema, &train_set).map_err(|e| e.to_string())?;
        let on_test = score_set(rules, schema, &test_set).map_err(|e| e.to_string())?;
        rows.push((name.clone(), on_train, on_test));
    }
    let table = comparison(&rows, (&args.train, &args.test));
    let bound = args.bound;
    let mut header = vec![
        command_line(),
        format!("options: {}", ron::to_string(args).map_err(|e| e.to_string())?),
        versions(),
        format!("bound {bound}: Z3 proved every rule below sound on every Flow board up to {bound}x{bound}"),
        run.mined.clone(),
        format!("synthesis: {}; skipped: made by a rule learned at an earlier place; {} rules found", run.batch.summary(&journal), run.found.len()),
        format!("second proof: {}", run.retry.summary()),
        format!(
            "{} after removing rules equal up to egg's rewrites, {} after removing the {} shown unsound on a state met on the training traces \
             (proven up to {bound}x{bound}, wrong on a larger board){}",
            run.by_key,
            run.learned.len(),
            refuted.len(),
            refuted.iter().map(|u| format!("; {u}")).collect::<String>(),
        ),
    ];
    header.extend(table.iter().cloned());
    write_rules_file(&learned_path, &header, &named, schema)?;
    let max = coverage.open;
    let mut top_header = vec![
        command_line(),
        versions(),
        format!("bound {bound}: Z3 proved every rule below sound on every Flow board up to {bound}x{bound}"),
        format!(
            "the top {} of the {} rules of {} chosen {} from the {} states met on the traces of {}: \
             {} of {max} (state, open slot) pairs ({:.1}%; all learned: {})",
            top.len(),
            named.len(),
            learned_path.display(),
            chosen_by(selection(args.k, args.max_mean_cost), "the slots they decide in one round"),
            traces.iter().map(|t| t.met.len()).sum::<usize>(),
            args.train.display(),
            run.picks.last().map_or(0, |p| p.score),
            percent(run.picks.last().map_or(0, |p| p.score), max),
            coverage.together(&all),
        ),
    ];
    top_header.extend(selection_table(&run.picks, &named, |i| cost(&named[i], schema), max, 40));
    top_header.extend(table.iter().cloned());
    write_rules_file(&top_path, &top_header, &top, schema)?;
    for line in &top_header[3..] {
        println!("{line}");
    }
    println!();
    for rule in &top {
        println!("{}", print_rule(rule, schema));
    }
    println!("{}", run.mined);
    println!("synthesis {}", run.batch.times());
    println!("second proof: {}", run.retry.summary());
    println!("{} (total in this process {:.1} s)", run.phases, started.elapsed().as_secs_f64());
    println!(
        "wrote {} ({} rules) and {} ({} rules)",
        learned_path.display(),
        named.len(),
        top_path.display(),
        top.len()
    );
    println!("this run: {}", Usage::since(started));
    Ok(ExitCode::SUCCESS)
}

/// The comparison table: per rule set its rules, and on each puzzle set
/// the slots decided and the puzzles solved without search.
fn comparison(rows: &[(String, SetScore, SetScore)], (train, test): (&Path, &Path)) -> Vec<String> {
    let cell = |s: &SetScore| {
        format!(
            "{:>6} of {:<6} {:>5.1}%  {:>3} of {:<3}",
            s.decided,
            s.slots,
            percent(s.decided, s.slots),
            s.solved,
            s.puzzles
        )
    };
    let mut out = vec![
        format!(
            "played from each start: slots decided, puzzles solved without search, on {} (train) | {} (held out)",
            train.display(),
            test.display()
        ),
        format!("{:<22} {:>5}  {:<34}| {}", "rule set", "rules", "train: slots, solved", "held out: slots, solved"),
    ];
    for (name, on_train, on_test) in rows {
        out.push(format!("{name:<22} {:>5}  {} | {}", on_train.rules, cell(on_train), cell(on_test)));
    }
    out
}
