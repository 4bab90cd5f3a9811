//! What the Witness domain supplies to the learning pipeline
//! ([`pipeline::Learner`](crate::pipeline::Learner)): frontier
//! specifications (incompletable paths local checking does not flag) mined
//! from generated training puzzles, and as the selection objective the A*
//! search on a separate generated filter set (Stevens' triage, measured in
//! search): a rule is worth its expansions saved, and is chosen only if it
//! also saves search time, by a deterministic time model
//! ([`FilterCost::model_ms`](crate::domains::witness::rules::measure::FilterCost::model_ms)) over counts of the work done, so the
//! selection is the same run after run. Each chosen rule is reported with
//! the expansions and the (modelled and measured) time it saves
//! ([`report`](super::report)).
//!
//! Only the first `max_specs` specifications (mining order) are the
//! sample; the population ([`Learner::population`]) is every one mined,
//! in an order drawn from the seed, so that augmentation (`--augment N`)
//! synthesises N drawn from all the training puzzles that no rule learned
//! so far prunes. In mining order the first specifications of puzzles with
//! marks and dots are mostly a dot left behind or the path walled off, and
//! past them come the long paths of the first puzzle, where no short rule
//! decides: the states where a separation or a star decides are spread
//! over the other puzzles (`docs/witness-shen.md`).

use super::report::SelectionReport;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::make::generate::{generate, Algorithm, GeneratorConfig, SizeRange};
use crate::domains::witness::make::generate_kinds::Mix;
use crate::domains::witness::rules::measure::{filter_search, FilterCost};
use crate::domains::witness::search::predicates::baseline;
use crate::domains::witness::synthesis::domain::{Witness, WitnessState};
use crate::domains::witness::synthesis::mine::{mine_observed, PuzzleMined, Scope, PATH_BUDGET};
use crate::dsl::ast::Rule;
use crate::dsl::eval::ActionValue;
use crate::pipeline::{DomainError, Learner, Mined, NamedSpecs};
use crate::select::Objective;
use crate::synth::{Domain, Spec};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

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
    /// Most specifications synthesised or skipped (the first, in mining order).
    pub max_specs: usize,
    /// The constraint kinds of the training and filter puzzles: `None`,
    /// triangle puzzles of Algorithm 3; else puzzles read off a hidden
    /// path ([`Algorithm::Kinds`]), the parts of a mix in turn.
    pub kinds: Option<Mix>,
    /// Whether a rule is selected only if it also saves modelled search
    /// time (else by expansions saved alone).
    pub by_time: bool,
}

/// The Witness learner.
pub struct WitnessLearner<'a> {
    /// The domain.
    pub domain: &'a Witness,
    /// What to learn from.
    pub config: LearnConfig,
    /// The training puzzles (generated when first needed).
    training: OnceLock<Vec<Puzzle>>,
    /// The filter puzzles (generated when first needed).
    filter: OnceLock<Vec<Puzzle>>,
    /// Every specification mined, in mining order, and how many training
    /// puzzles the path budget stopped (mined when first needed).
    mined: OnceLock<(Vec<WitnessState>, usize)>,
    /// Told how mining goes (each puzzle, and progress within one).
    progress: Option<&'a (dyn Fn(PuzzleMined) + Sync)>,
}

impl<'a> WitnessLearner<'a> {
    /// A learner for `domain` on `config`.
    pub fn new(domain: &'a Witness, config: LearnConfig) -> WitnessLearner<'a> {
        WitnessLearner {
            domain,
            config,
            training: OnceLock::new(),
            filter: OnceLock::new(),
            mined: OnceLock::new(),
            progress: None,
        }
    }

    /// This learner, telling `progress` how mining goes.
    pub fn with_progress(self, progress: &'a (dyn Fn(PuzzleMined) + Sync)) -> WitnessLearner<'a> {
        WitnessLearner { progress: Some(progress), ..self }
    }

    fn generator(&self) -> GeneratorConfig {
        let algorithm = self.config.kinds.map_or(Algorithm::RandomTriangles, Algorithm::of_mix);
        GeneratorConfig::new(self.config.sizes, algorithm)
    }

    /// The training puzzles (seed).
    pub fn training_puzzles(&self) -> Result<&[Puzzle], DomainError> {
        if let Some(t) = self.training.get() {
            return Ok(t);
        }
        let t = generate(&self.generator(), self.config.seed, self.config.train)?;
        Ok(self.training.get_or_init(|| t))
    }

    /// The filter puzzles (seed + 1).
    pub fn filter_puzzles(&self) -> Result<&[Puzzle], DomainError> {
        if let Some(f) = self.filter.get() {
            return Ok(f);
        }
        let f = generate(&self.generator(), self.config.seed + 1, self.config.filter)?;
        Ok(self.filter.get_or_init(|| f))
    }

    /// Every frontier specification of the training puzzles, in mining
    /// order, and how many puzzles the path budget stopped.
    fn mined_states(&self) -> Result<&(Vec<WitnessState>, usize), DomainError> {
        if let Some(m) = self.mined.get() {
            return Ok(m);
        }
        let training = self.training_puzzles()?;
        let mut stopped = 0;
        let states = mine_observed(training, &|p, path| baseline(p, path), Scope::Frontier, &mut |m| {
            stopped += usize::from(m.finished && m.stopped);
            if let Some(tell) = self.progress {
                tell(m);
            }
        });
        Ok(self.mined.get_or_init(|| (states, stopped)))
    }

    /// `states` as specifications of `prune`, each with its text.
    fn named(&self, states: impl Iterator<Item = WitnessState>) -> Result<NamedSpecs<WitnessState>, DomainError> {
        let prune = self.domain.schema().action_id("prune").ok_or("the schema has no `prune` action")?;
        Ok(states
            .map(|state| {
                let deduction = ActionValue { action: prune, args: vec![] };
                (state.show(), Spec { state, deduction })
            })
            .collect())
    }

    /// Each rule of `chosen` (a selection, in order) with what it saves.
    pub fn report(&self, chosen: &[Rule]) -> Result<SelectionReport, DomainError> {
        Ok(SelectionReport::new(self.domain, chosen, self.filter_puzzles()?))
    }
}

impl Learner for WitnessLearner<'_> {
    type Domain = Witness;
    type ScoreError = std::convert::Infallible;
    type Objective<'b>
        = SearchObjective<'b>
    where
        Self: 'b;

    fn domain(&self) -> &Witness {
        self.domain
    }

    fn mine(&self) -> Result<Mined<WitnessState>, DomainError> {
        let c = &self.config;
        let (states, stopped) = self.mined_states()?;
        let taken = states.len().min(c.max_specs);
        let description = format!(
            "{} frontier specifications mined from {} training puzzles (seed {}{}); the first {taken} synthesised or skipped",
            states.len(),
            c.train,
            c.seed,
            if *stopped > 0 { format!("; {stopped} stopped at the path budget of {PATH_BUDGET}") } else { String::new() },
        );
        Ok(Mined { specs: self.named(states[..taken].iter().cloned())?, description })
    }

    /// Every specification mined, shuffled by the seed: a uniform draw,
    /// not the long paths of the first puzzles (nor the shortest paths,
    /// which a far constraint makes incompletable and no short rule
    /// explains).
    fn population(&self) -> Result<NamedSpecs<WitnessState>, DomainError> {
        let mut states: Vec<&WitnessState> = self.mined_states()?.0.iter().collect();
        states.shuffle(&mut ChaCha8Rng::seed_from_u64(self.config.seed));
        self.named(states.into_iter().cloned())
    }

    fn objective<'b>(&'b self, rules: &'b [Rule]) -> Result<SearchObjective<'b>, DomainError> {
        let objective = SearchObjective::new(self.domain, rules, self.filter_puzzles()?);
        Ok(SearchObjective { by_time: self.config.by_time, ..objective })
    }
}

/// The selection objective: filter-search expansions saved over local
/// constraint checking; a candidate that saves no expansions, or (when
/// `by_time`) whose work costs more modelled time than it saves, adds
/// nothing.
pub struct SearchObjective<'a> {
    domain: &'a Witness,
    candidates: &'a [Rule],
    puzzles: &'a [Puzzle],
    chosen: Vec<Rule>,
    /// The chosen set's measurements.
    current: FilterCost,
    /// Local checking's.
    baseline: FilterCost,
    /// Whether a candidate must also save modelled time.
    by_time: bool,
}

impl<'a> SearchObjective<'a> {
    /// The objective over `candidates`, measured on `puzzles`, nothing
    /// chosen, a candidate counting only if it also saves modelled time.
    pub fn new(domain: &'a Witness, candidates: &'a [Rule], puzzles: &'a [Puzzle]) -> SearchObjective<'a> {
        let (baseline, _) = filter_search(domain, &[], puzzles, 1);
        SearchObjective { domain, candidates, puzzles, chosen: vec![], current: baseline, baseline, by_time: true }
    }

    fn with(&self, i: usize) -> Vec<Rule> {
        let mut rules = self.chosen.clone();
        rules.push(self.candidates[i].clone());
        rules
    }
}

impl Objective for SearchObjective<'_> {
    type Error = std::convert::Infallible;

    fn score(&self) -> usize {
        (self.baseline.expansions - self.current.expansions) as usize
    }

    fn score_with(&self, i: usize) -> Result<usize, Self::Error> {
        let (c, _) = filter_search(self.domain, &self.with(i), self.puzzles, 1);
        let better =
            c.expansions < self.current.expansions && (!self.by_time || c.model_ms() <= self.current.model_ms());
        Ok(if better { (self.baseline.expansions - c.expansions) as usize } else { self.score() })
    }

    fn choose(&mut self, i: usize) -> Result<(), Self::Error> {
        self.chosen = self.with(i);
        self.current = filter_search(self.domain, &self.chosen, self.puzzles, 1).0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;
    use crate::select::greedy;

    const CANDIDATES: &str = "
def never:
    with s = arbitrary(square) and t = arbitrary(square):
    if used(s) > 4 and used(t) > 4:
    then prune
def walled_off:
    with s = constant(square, 0):
    if goal_reachable = 0:
    then prune
def starved_square:
    with s = arbitrary(square):
    if live(s) < triangles(s) - used(s):
    then prune
";

    /// A rule that saves no expansions is never chosen; rules that save
    /// expansions and do not cost more time than they save are; the
    /// selection and its figures are the same run after run.
    #[test]
    fn selection_takes_the_rules_that_save_search() {
        let domain = Witness::new();
        let rules = parse_rules(CANDIDATES, "test", domain.schema()).unwrap();
        let puzzles =
            generate(&GeneratorConfig::new("2x2..3x4".parse().unwrap(), Algorithm::RandomTriangles), 5, 60).unwrap();
        let select = || {
            let mut objective = SearchObjective::new(&domain, &rules, &puzzles);
            assert_eq!(objective.score_with(0), Ok(0), "a rule that prunes nothing adds nothing");
            let picks = greedy(rules.len(), crate::select::Selection::top(3), |_| 1, &mut objective).unwrap();
            (picks, objective.current)
        };
        let (picks, current) = select();
        let order: Vec<usize> = picks.iter().map(|p| p.index).collect();
        assert_eq!(order[0], 2, "{order:?}");
        assert!(!order.contains(&0), "{order:?}");
        // walled_off written with `constant` names no square: the set is
        // still judged step by step, at the cost of the `arbitrary` form
        let any = parse_rules(&CANDIDATES.replace("constant(square, 0)", "arbitrary(square)"), "test", domain.schema())
            .unwrap();
        let cost =
            |rules: &[Rule], i: usize| filter_search(&domain, &[rules[2].clone(), rules[i].clone()], &puzzles, 1).0;
        assert_eq!(cost(&rules, 1), cost(&any, 1));
        assert!(cost(&rules, 1).expansions < cost(&rules, 2).expansions);
        let chosen: Vec<Rule> = order.iter().map(|&i| rules[i].clone()).collect();
        let r = SelectionReport::new(&domain, &chosen, &puzzles);
        assert!(r.baseline.expansions > current.expansions && r.baseline.model_ms() > current.model_ms());
        assert!(r.rules.iter().all(|x| x.marginal_expansions > 0 && x.marginal_model_ms > 0.0));
        assert_eq!(r.rules.last().unwrap().cost, current);
        assert_eq!(select(), (picks, current));
    }
}
