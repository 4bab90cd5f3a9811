//! Learning Witness pruning rules end to end: training puzzles → frontier
//! specifications (incompletable paths local checking does not flag) →
//! synthesis with the shared engine, in deterministic rounds that skip the
//! specifications rules learnt so far already prune → greedy selection by
//! search expansions saved on a separate generated filter set (Stevens'
//! triage, measured in search), each selected rule reported with the
//! expansions and the search time it saves.

use super::domain::{Witness, WitnessState};
use super::generate::{generate, Algorithm, GeneratorConfig, SizeRange};
use super::mine::{mine, Scope};
use super::predicates::baseline;
use super::puzzle::Puzzle;
use super::search::{astar, SearchConfig};
use super::ruleset::RuleSetPredicate;
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::dsl::eval::ActionValue;
use crate::dsl::print::print_rule;
use crate::select::{greedy, Objective};
use crate::synth::{Config, Engine, Spec, Stats};
use rayon::prelude::*;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Specifications synthesised in parallel per round (fixed, for determinism).
const ROUND: usize = 8;

/// What to learn from.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// Sizes of training and filter puzzles.
    pub sizes: SizeRange,
    /// Training puzzles (Algorithm 3).
    pub train: usize,
    /// Filter puzzles for selection (Algorithm 3, the next seed).
    pub filter: usize,
    /// Seed of the training puzzles (the filter set uses `seed + 1`).
    pub seed: u64,
    /// Most rules selected.
    pub k: usize,
    /// Most specifications synthesised (the first the rules learnt so far
    /// do not prune, in mining order).
    pub max_specs: usize,
}

/// A learning run's results.
pub struct LearnReport {
    /// The selected rules, in selection order.
    pub selected: Vec<Selected>,
    /// Every distinct rule synthesised.
    pub learned: Vec<Rule>,
    /// Specifications mined, synthesised, and skipped as already pruned.
    pub specs: (usize, usize, usize),
    /// Filter-search expansions and time with local checking alone.
    pub filter_baseline: (u64, Duration),
    /// Engine counters over the run.
    pub stats: Stats,
    /// Wall time of mining, synthesis and selection.
    pub phases: [Duration; 3],
}

/// Runs the pipeline.
pub fn learn(domain: &Witness, config: &LearnConfig) -> Result<LearnReport, String> {
    let started = Instant::now();
    let generator = GeneratorConfig::new(config.sizes.clone(), Algorithm::RandomTriangles);
    let training = generate(&generator, config.seed, config.train).map_err(|e| e.to_string())?;
    let specs = mine(&training, &|p, path| baseline(p, path), Scope::Frontier);
    let mined = specs.len();
    let mined_time = started.elapsed();

    let started = Instant::now();
    let schema = domain.schema();
    let prune = schema.action_id("prune").ok_or("the schema has no `prune` action")?;
    // proofs over the goal region at 6x6 take 2-12 s on a loaded 2-core
    // machine: a 30 s limit per query (a timeout drops the candidate)
    let engine = Engine::new(domain, Config { timeout_ms: 30_000, ..Config::new(schema) });
    let mut learned: Vec<Rule> = vec![];
    let mut seen = HashSet::new();
    let mut stats = Stats::default();
    let (mut synthesised, mut skipped) = (0, 0);
    let mut next = 0;
    while next < specs.len() && synthesised < config.max_specs {
        // the next round: up to ROUND specifications the rules learnt so
        // far do not prune, in mining order
        let pruned = RuleSetPredicate::new(domain.ids(), schema.size_feature, learned.clone());
        let mut todo: Vec<&WitnessState> = vec![];
        while next < specs.len() && todo.len() < ROUND.min(config.max_specs - synthesised) {
            let s = &specs[next];
            next += 1;
            if pruned.rules_fire(&s.puzzle, &s.path) {
                skipped += 1;
            } else {
                todo.push(s);
            }
        }
        synthesised += todo.len();
        let outcomes: Vec<_> = todo
            .par_iter()
            .map(|s| engine.synthesize(&Spec { state: (*s).clone(), deduction: ActionValue { action: prune, args: vec![] } }))
            .collect();
        engine.publish(&outcomes.iter().collect::<Vec<_>>());
        for outcome in outcomes {
            stats.add(&outcome.stats);
            for l in outcome.rules {
                if seen.insert(print_rule(&Rule { name: String::new(), description: vec![], ..l.rule.clone() }, schema)) {
                    learned.push(l.rule);
                }
            }
        }
    }
    let synth_time = started.elapsed();

    let started = Instant::now();
    let filter = generate(&generator, config.seed + 1, config.filter).map_err(|e| e.to_string())?;
    let mut objective = SearchObjective::new(domain, &learned, &filter);
    let baseline_expansions = objective.expansions;
    let picks = greedy(learned.len(), config.k, |i| cost(&learned[i], schema), &mut objective).map_err(|()| "selection failed")?;
    let chosen: Vec<Rule> = picks.iter().map(|p| learned[p.index].clone()).collect();
    let selected = chosen
        .iter()
        .zip(&picks)
        .enumerate()
        .map(|(i, (rule, pick))| {
            let mut without = chosen.clone();
            without.remove(i);
            let time = |rules: &[Rule]| (0..3).map(|_| filter_search(domain, rules, &filter).1).min().unwrap_or_default();
            let (exp_without, _) = filter_search(domain, &without, &filter);
            let saved_time = time(&without).as_secs_f64() - time(&chosen).as_secs_f64();
            Selected {
                rule: rule.clone(),
                expansions: baseline_expansions - pick.score as u64,
                marginal_expansions: exp_without - objective.expansions,
                marginal_seconds: saved_time,
            }
        })
        .collect();
    Ok(LearnReport {
        selected,
        learned,
        specs: (mined, synthesised, skipped),
        filter_baseline: (baseline_expansions, filter_search(domain, &[], &filter).1),
        stats,
        phases: [mined_time, synth_time, started.elapsed()],
    })
}

/// One selected rule and what it saves on the filter searches.
pub struct Selected {
    /// The rule.
    pub rule: Rule,
    /// Filter-search expansions with this rule and the ones chosen before.
    pub expansions: u64,
    /// Expansions the final set loses without this rule.
    pub marginal_expansions: u64,
    /// Search seconds the final set loses without this rule (best of 3
    /// timings each; negative: the rule costs more time than it saves).
    pub marginal_seconds: f64,
}

/// Total expansions and search time of A* with local constraint checking
/// and `rules` over `puzzles`.
pub fn filter_search(domain: &Witness, rules: &[Rule], puzzles: &[Puzzle]) -> (u64, Duration) {
    let pred = RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules.to_vec());
    puzzles.iter().fold((0, Duration::ZERO), |(e, t), p| {
        pred.forget();
        let r = astar(p, &pred, &SearchConfig::default());
        (e + r.expansions, t + r.elapsed)
    })
}

/// The selection objective: filter-search expansions saved over local
/// constraint checking (deterministic, unlike timings). A candidate whose
/// gain is below [`MIN_GAIN`] of the chosen set's expansions scores
/// nothing: evaluating a rule on every generated path costs about that
/// much of a search's time, so it would cost more time than it saves.
struct SearchObjective<'a> {
    domain: &'a Witness,
    candidates: &'a [Rule],
    puzzles: &'a [Puzzle],
    chosen: Vec<Rule>,
    /// Baseline expansions, then the chosen set's.
    expansions: u64,
    baseline: u64,
}

/// Smallest share of the chosen set's filter expansions a rule must save.
const MIN_GAIN: f64 = 0.01;

impl<'a> SearchObjective<'a> {
    fn new(domain: &'a Witness, candidates: &'a [Rule], puzzles: &'a [Puzzle]) -> SearchObjective<'a> {
        let (baseline, _) = filter_search(domain, &[], puzzles);
        SearchObjective { domain, candidates, puzzles, chosen: vec![], expansions: baseline, baseline }
    }

    fn with(&self, i: usize) -> Vec<Rule> {
        let mut rules = self.chosen.clone();
        rules.push(self.candidates[i].clone());
        rules
    }
}

impl Objective for SearchObjective<'_> {
    type Error = ();

    fn score(&self) -> usize {
        (self.baseline - self.expansions) as usize
    }

    fn score_with(&self, i: usize) -> Result<usize, ()> {
        let (e, _) = filter_search(self.domain, &self.with(i), self.puzzles);
        let gain = self.expansions.saturating_sub(e);
        Ok(if (gain as f64) < MIN_GAIN * self.expansions as f64 { self.score() } else { (self.baseline - e) as usize })
    }

    fn choose(&mut self, i: usize) -> Result<(), ()> {
        self.chosen = self.with(i);
        self.expansions = filter_search(self.domain, &self.chosen, self.puzzles).0;
        Ok(())
    }
}
