//! Learning Witness pruning rules end to end: training puzzles → frontier
//! specifications (incompletable paths local checking does not flag) →
//! synthesis with the shared engine, in deterministic rounds that skip the
//! specifications rules learnt so far already prune → greedy selection by
//! pruning power on a separate generated filter set (Stevens' triage).

use super::domain::{Witness, WitnessState};
use super::generate::{generate, Algorithm, GeneratorConfig, SizeRange};
use super::mine::{mine, Scope};
use super::predicates::baseline;
use super::ruleset::RuleSetPredicate;
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::dsl::eval::ActionValue;
use crate::dsl::print::print_rule;
use crate::select::{greedy, Objective};
use crate::synth::cover::Bits;
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
    /// Most specifications synthesised (the first, in mining order).
    pub max_specs: usize,
}

/// A learning run's results.
pub struct LearnReport {
    /// The selected rules, in selection order, with the filter paths each
    /// set prunes (cumulative).
    pub selected: Vec<(Rule, usize)>,
    /// Every distinct rule synthesised.
    pub learned: Vec<Rule>,
    /// Specifications mined, synthesised, and skipped as already pruned.
    pub specs: (usize, usize, usize),
    /// Incompletable filter paths not flagged by local checking.
    pub filter_paths: usize,
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
    let mut specs = mine(&training, &|p, path| baseline(p, path), Scope::Frontier);
    let mined = specs.len();
    specs.truncate(config.max_specs);
    let mined_time = started.elapsed();

    let started = Instant::now();
    let schema = domain.schema();
    let prune = schema.action_id("prune").ok_or("the schema has no `prune` action")?;
    let engine = Engine::new(domain, Config::new(schema));
    let mut learned: Vec<Rule> = vec![];
    let mut seen = HashSet::new();
    let mut stats = Stats::default();
    let (mut synthesised, mut skipped) = (0, 0);
    for round in specs.chunks(ROUND) {
        let pruned = RuleSetPredicate::new(domain.ids(), schema.size_feature, learned.clone());
        let todo: Vec<&WitnessState> = round.iter().filter(|s| !pruned.rules_fire(&s.puzzle, &s.path)).collect();
        skipped += round.len() - todo.len();
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
    let dead = mine(&filter, &|p, path| baseline(p, path), Scope::All);
    let sets: Vec<Bits> = learned
        .par_iter()
        .map(|rule| {
            let one = RuleSetPredicate::new(domain.ids(), schema.size_feature, vec![rule.clone()]);
            let mut b = Bits::new();
            dead.iter().enumerate().filter(|(_, s)| one.rules_fire(&s.puzzle, &s.path)).for_each(|(i, _)| b.set(i));
            b
        })
        .collect();
    let mut union = Union { sets: &sets, have: Bits::new() };
    let picks = greedy(learned.len(), config.k, |i| cost(&learned[i], schema), &mut union).map_err(|()| "selection failed")?;
    let selected = picks.iter().map(|p| (learned[p.index].clone(), p.score)).collect();
    Ok(LearnReport {
        selected,
        learned,
        specs: (mined, synthesised, skipped),
        filter_paths: dead.len(),
        stats,
        phases: [mined_time, synth_time, started.elapsed()],
    })
}

/// Paths pruned by the union of the chosen rules.
struct Union<'a> {
    sets: &'a [Bits],
    have: Bits,
}

impl Objective for Union<'_> {
    type Error = ();

    fn score(&self) -> usize {
        self.have.count()
    }

    fn score_with(&self, i: usize) -> Result<usize, ()> {
        Ok(self.have.count() + self.sets[i].minus(&self.have).count())
    }

    fn choose(&mut self, i: usize) -> Result<(), ()> {
        for p in self.sets[i].ones() {
            self.have.set(p);
        }
        Ok(())
    }
}
