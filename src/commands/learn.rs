//! `learn nonogram`: the whole pipeline in one run — mine a seeded sample
//! of small line states, synthesise rules for their specifications (a
//! journaled batch; with progressive skipping, a specification that a rule
//! of an earlier round already makes is passed over), deduplicate, choose
//! the top K by coverage on the test traces, and report that set against
//! all learned rules and the control rules.

use super::batch::{command_line, jobs, run_batch, versions, write_rules_file, BatchOptions};
use super::{bundled, check_output, read_nonogram_rules};
use super::synth::{bound_line, config, dedup};
use super::CmdResult;
use stratsynth::domains::nonogram::apply::ApplyOptions;
use stratsynth::domains::nonogram::coverage::Coverage;
use stratsynth::domains::nonogram::domain::Nonogram;
use stratsynth::domains::nonogram::lines_file::read_test_set;
use stratsynth::domains::nonogram::mine::{mine, Sample};
use stratsynth::domains::nonogram::spec;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::print::print_rule;
use stratsynth::synth::Engine;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Longest training line mined.
const TRAIN_LEN: usize = 7;

/// Options of `learn nonogram`.
pub struct LearnArgs<'a> {
    pub out_dir: &'a Path,
    pub sample: usize,
    pub seed: u64,
    pub resume: bool,
    pub all_specs: bool,
    pub tests: &'a Path,
    pub control: &'a Path,
    pub k: usize,
    pub timeout_ms: u32,
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// `learn nonogram [--out-dir D] [--sample N --seed S] ...`.
pub fn learn(args: &LearnArgs<'_>) -> CmdResult {
    if args.sample == 0 || args.k == 0 {
        return Err("--sample and -k must be at least 1".into());
    }
    let started = Instant::now();
    let domain = Nonogram::new();
    // read the inputs of the later phases first: a bad file must not cost a synthesis run
    let tests_path = bundled(args.tests)?;
    let tests = read_test_set(&tests_path, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())?;
    let (_, control) = read_nonogram_rules(&bundled(args.control)?)?;
    std::fs::create_dir_all(args.out_dir).map_err(|e| format!("{}: {e}", args.out_dir.display()))?;
    for output in [args.out_dir.join("learned.rules"), args.out_dir.join(format!("top{}.rules", args.k))] {
        check_output(&output, &[args.tests, args.control])?;
    }

    let t = Instant::now();
    let (report, transitions) = mine(TRAIN_LEN, Some(Sample { count: args.sample, seed: args.seed }));
    let mut specs = vec![];
    for t in &transitions {
        specs.extend(spec::specs(t).ok_or_else(|| format!("mined an invalid line: {}", t.start))?);
    }
    let mine_time = t.elapsed();
    let mined = format!(
        "mined lines of 1-{TRAIN_LEN} cells: {} states, {} mirror pairs, {} productive, {} sampled with seed {}: {} specifications",
        report.states, report.mirror_pairs, report.productive, report.used, args.seed, specs.len()
    );
    eprintln!("{mined} ({:.1} s)", mine_time.as_secs_f64());

    let t = Instant::now();
    let config = config(&domain, None, args.timeout_ms)?;
    let bound = config.bound;
    let engine = Engine::new(&domain, config);
    let jobs = jobs(specs, None);
    let journal = args.out_dir.join("learned.journal");
    let options = BatchOptions { journal: &journal, resume: args.resume, shard: None, skip: vec![], progressive: !args.all_specs };
    let run = run_batch(&domain, &engine, &jobs, options)?;
    let synth_time = t.elapsed();
    let found = run.rules();

    let t = Instant::now();
    let (learned, after_rewrites) = dedup(&domain, found.clone(), Some(&tests))?;
    let dedup_time = t.elapsed();
    eprintln!("{} rules found, {after_rewrites} distinct up to egg's rewrites, {} distinct in behaviour ({:.1} s)", found.len(), learned.len(), dedup_time.as_secs_f64());

    let t = Instant::now();
    let options = ApplyOptions::default();
    let coverage = Coverage::new(&domain, &learned, &tests, options);
    let cost_of = |i: usize| cost(&learned[i], domain.schema());
    let picks = coverage.top(args.k, cost_of).map_err(|e| format!("{}: {e}", args.tests.display()))?;
    let select_time = t.elapsed();

    let t = Instant::now();
    let max = coverage.max_cells();
    let all: Vec<usize> = (0..learned.len()).collect();
    let covered_all = coverage.covered(&all).map_err(|e| e.to_string())?;
    let covered_control = Coverage::new(&domain, &control, &tests, options).covered(&(0..control.len()).collect::<Vec<_>>()).map_err(|e| e.to_string())?;
    let union: Vec<Rule> = learned.iter().chain(&control).cloned().collect();
    let covered_union =
        Coverage::new(&domain, &union, &tests, options).covered(&(0..union.len()).collect::<Vec<_>>()).map_err(|e| e.to_string())?;
    let covered_top = picks.last().map_or(0, |p| p.score);
    let coverage_time = t.elapsed();
    let total_time = started.elapsed();

    let table = vec![
        format!("{:<26} {:>6} {:>8} {:>7}", "rule set", "rules", "cells", "%"),
        format!("{:<26} {:>6} {:>8} {:>6.1}%", format!("learned top {}", args.k), picks.len(), covered_top, percent(covered_top, max)),
        format!("{:<26} {:>6} {:>8} {:>6.1}%", "all learned", learned.len(), covered_all, percent(covered_all, max)),
        format!("{:<26} {:>6} {:>8} {:>6.1}%", "control", control.len(), covered_control, percent(covered_control, max)),
        format!("{:<26} {:>6} {:>8} {:>6.1}%", "control and all learned", union.len(), covered_union, percent(covered_union, max)),
        format!("{:<26} {:>6} {:>8} {:>6.1}%", "maximum (exact solver)", "-", max, 100.0),
    ];
    let times = format!(
        "wall times: mine {:.1} s, synthesis {:.1} s (engine table included), dedup {:.1} s, select {:.1} s, coverage {:.1} s; total {:.1} s",
        mine_time.as_secs_f64(),
        synth_time.as_secs_f64(),
        dedup_time.as_secs_f64(),
        select_time.as_secs_f64(),
        coverage_time.as_secs_f64(),
        total_time.as_secs_f64()
    );
    let skipping = if args.all_specs { ", no skipping" } else { "; skipped: made by a rule learned in an earlier round" };
    let synthesis = format!("synthesis: {}{skipping}; {} rules found", run.summary(&journal), found.len());
    let header = vec![
        command_line(),
        versions(),
        bound_line(bound),
        mined,
        synthesis.clone(),
        format!(
            "{after_rewrites} after removing rules equal up to egg's rewrites, {} after removing rules that cover the same cells alone on {} \
             (the cheapest kept; rules covering none are kept)",
            learned.len(),
            args.tests.display()
        ),
        times.clone(),
    ];
    let learned_path = args.out_dir.join("learned.rules");
    write_rules_file(&learned_path, &header, &learned, &domain)?;

    let mut top_header = vec![
        command_line(),
        versions(),
        bound_line(bound),
        format!(
            "the top {} of the {} rules of {} chosen greedily by coverage (both orientations, with the decomposition oracle) on the {} transitions of {}: \
             {covered_top} of {max} cells ({:.1}%)",
            picks.len(),
            learned.len(),
            learned_path.display(),
            tests.len(),
            args.tests.display(),
            percent(covered_top, max)
        ),
        format!("{:>4}  {:<16} {:>5} {:>8} {:>11} {:>7}", "rank", "rule", "cost", "gain", "cumulative", "%"),
    ];
    let mut previous = 0;
    for (rank, p) in picks.iter().enumerate() {
        top_header.push(format!(
            "{:>4}  {:<16} {:>5} {:>8} {:>11} {:>6.1}%",
            rank + 1,
            learned[p.index].name,
            cost_of(p.index),
            p.score - previous,
            p.score,
            percent(p.score, max)
        ));
        previous = p.score;
    }
    let top: Vec<Rule> = picks.iter().map(|p| learned[p.index].clone()).collect();
    let top_path = args.out_dir.join(format!("top{}.rules", args.k));
    write_rules_file(&top_path, &top_header, &top, &domain)?;

    for line in &top_header[3..] {
        println!("{line}");
    }
    println!();
    for rule in &top {
        println!("{}", print_rule(rule, domain.schema()));
    }
    println!("coverage on the {} transitions of {} (both orientations, with the decomposition oracle):", tests.len(), args.tests.display());
    for row in &table {
        println!("{row}");
    }
    println!("{synthesis}");
    println!("{times}");
    println!("wrote {} ({} rules) and {} ({} rules)", learned_path.display(), learned.len(), top_path.display(), top.len());
    Ok(ExitCode::SUCCESS)
}
