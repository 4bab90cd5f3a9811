//! What the Flow domain supplies to the learning pipeline
//! ([`pipeline::Learner`](crate::pipeline::Learner)): specifications from
//! windows of the states met on the training puzzles' solution traces
//! ([`super::windows`]): the slots each rule or probe step decided (and
//! with [`LearnConfig::stuck`] every open slot where the rules were
//! stuck), every one of them (the population) in an order
//! drawn from the seed and the first `max_specs` synthesised; and as the
//! selection objective the (state met, slot) pairs the chosen rules
//! decide in one round on those traces ([`super::coverage`]), measured
//! once per list of rules. Deduplication also drops the rules the traces
//! show unsound (proven up to the bound, wrong on a larger board).

use super::coverage::{Covered, TraceCoverage};
use super::traces::{Met, Trace};
use super::windows::window_spec;
use crate::domains::flow::model::grid::Slot;
use crate::domains::flow::model::state::Status;
use crate::domains::flow::play::playthrough::How;
use crate::domains::flow::rules::player::Unsound;
use crate::domains::flow::synthesis::case::FlowCase;
use crate::domains::flow::synthesis::domain::Flow;
use crate::dsl::ast::Rule;
use crate::pipeline::{dedup_by_key, Deduplicated, DomainError, Learner, Mined, NamedSpecs};
use crate::synth::Domain;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

/// What to learn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnConfig {
    /// The side of the windows specifications are cut out with.
    pub window: usize,
    /// Most specifications synthesised or skipped (the first of the population).
    pub max_specs: usize,
    /// Seed of the population's order.
    pub seed: u64,
    /// Also every open slot of the states where the rules are stuck.
    pub stuck: bool,
}

/// The population: every window specification, in the seed's order, and
/// how it was mined.
struct Population {
    specs: NamedSpecs<FlowCase>,
    /// Slots decided by rule or probe steps on the traces (each tried).
    tried: usize,
    /// Of them, those with a window where the deduction follows.
    found: usize,
}

/// The slots mined from state `m` of trace `t`, each with its status in
/// the solution: before a rule's or a probe's step, the slots it decided
/// (a guess decides nothing that follows by propagation); with `stuck`,
/// where the rules are stuck (the oracle's step: a probe or a guess), the
/// slot the oracle revealed and then every other open slot in slot order,
/// the reasoning the rules lack (whether it follows in a window is
/// [`window_spec`]'s to say).
fn stepped<'t>(t: &'t Trace, m: &'t Met, stuck: bool) -> impl Iterator<Item = (Slot, Status)> + 't {
    let stuck = stuck && !matches!(m.how, How::Rule(_));
    let revealed = m.decided.iter().copied().filter(move |_| stuck || m.how != How::Guess);
    let open = (0..t.puzzle.grid().slots())
        .filter(move |&s| stuck && m.state.status(s) == Status::Open && m.decided.iter().all(|d| d.0 != s))
        .map(|s| {
            let linked = t.solution.links().binary_search(&s).is_ok();
            (s, if linked { Status::Linked } else { Status::Cut })
        });
    revealed.chain(open)
}

/// The Flow learner.
pub struct FlowLearner<'a> {
    /// The domain.
    pub domain: &'a Flow,
    /// The training puzzles' traces.
    pub traces: &'a [Trace],
    /// What to learn from.
    pub config: LearnConfig,
    population: OnceLock<Population>,
    /// The coverage of the last list of rules measured.
    coverage: Mutex<Option<(Vec<Rule>, Arc<TraceCoverage>)>>,
    /// The rules deduplication found unsound on the traces.
    refuted: Mutex<Vec<Unsound>>,
}

impl<'a> FlowLearner<'a> {
    /// A learner on `traces`.
    pub fn new(domain: &'a Flow, traces: &'a [Trace], config: LearnConfig) -> FlowLearner<'a> {
        FlowLearner {
            domain,
            traces,
            config,
            population: OnceLock::new(),
            coverage: Mutex::default(),
            refuted: Mutex::default(),
        }
    }

    /// Every window specification of the traces: per trace, per state met,
    /// per slot of [`stepped`] (with [`LearnConfig::stuck`]), the spec of its first window where the
    /// deduction follows; duplicates (up to orientation) after the first
    /// left out; then shuffled by the seed.
    fn population(&self) -> &Population {
        self.population.get_or_init(|| {
            let side = self.config.window;
            let per_trace: Vec<(usize, NamedSpecs<FlowCase>)> = self
                .traces
                .par_iter()
                .map(|t| {
                    let mut tried = 0;
                    let mut specs = vec![];
                    for m in &t.met {
                        for (s, status) in stepped(t, m, self.config.stuck) {
                            tried += 1;
                            specs.extend(window_spec(
                                self.domain,
                                (&t.puzzle, &t.solution),
                                &m.state,
                                (s, status),
                                side,
                            ));
                        }
                    }
                    (tried, specs)
                })
                .collect();
            let tried = per_trace.iter().map(|(n, _)| n).sum();
            let all: Vec<_> = per_trace.into_iter().flat_map(|(_, specs)| specs).collect();
            let found = all.len();
            let mut seen = HashSet::new();
            let mut specs: NamedSpecs<FlowCase> =
                all.into_iter().filter(|(text, _)| seen.insert(text.clone())).collect();
            specs.shuffle(&mut ChaCha8Rng::seed_from_u64(self.config.seed));
            Population { specs, tried, found }
        })
    }

    /// What each of `rules` decides on the traces (measured once for a
    /// list of rules: deduplication, the selection and the report ask
    /// about the same).
    pub fn coverage(&self, rules: &[Rule]) -> Arc<TraceCoverage> {
        let mut last = self.coverage.lock().expect("coverage memo");
        if let Some((known, coverage)) = last.as_ref() {
            if known == rules {
                return coverage.clone();
            }
        }
        let coverage = Arc::new(TraceCoverage::new(rules, self.domain.schema(), self.traces));
        *last = Some((rules.to_vec(), coverage.clone()));
        coverage
    }

    /// The rules the traces showed unsound when deduplicating (each with
    /// its fault), in order.
    pub fn refuted(&self) -> Vec<Unsound> {
        self.refuted.lock().expect("refuted rules").clone()
    }
}

impl Learner for FlowLearner<'_> {
    type Domain = Flow;
    type ScoreError = std::convert::Infallible;
    type Objective<'b>
        = Covered
    where
        Self: 'b;

    fn domain(&self) -> &Flow {
        self.domain
    }

    fn mine(&self) -> Result<Mined<FlowCase>, DomainError> {
        let population = self.population();
        let states: usize = self.traces.iter().map(|t| t.met.len()).sum();
        let taken = population.specs.len().min(self.config.max_specs);
        let side = self.config.window;
        let description = format!(
            "window specifications ({side}x{side}, the exact oracle's link or cut there) mined from the traces of {} training puzzles: \
             {states} states met, {} slots decided by rule or probe steps{}, {} with a window where the deduction follows, {} distinct up to orientation; \
             the first {taken} in the order of seed {} synthesised or skipped",
            self.traces.len(),
            population.tried,
            if self.config.stuck { " or open where the rules were stuck" } else { "" },
            population.found,
            population.specs.len(),
            self.config.seed,
        );
        Ok(Mined { specs: population.specs[..taken].to_vec(), description })
    }

    fn population(&self) -> Result<NamedSpecs<FlowCase>, DomainError> {
        Ok(self.population().specs.clone())
    }

    /// By normal-form key, then without the rules the traces show
    /// unsound: proven on every board up to the bound, a rule may still
    /// be wrong on a larger one (reading a cell's index or a colour's
    /// number, which grow with the board); a state met on a trace where
    /// it concludes what the solution contradicts is a counterexample.
    fn dedup(&self, rules: &[Rule]) -> Result<Deduplicated, DomainError> {
        let kept = dedup_by_key(self.domain, rules);
        let coverage = self.coverage(&kept);
        let mut refuted = self.refuted.lock().expect("refuted rules");
        let mut sound = vec![];
        for (rule, fault) in kept.iter().zip(&coverage.refuted) {
            match fault {
                Some(f) => refuted.push(f.clone()),
                None => sound.push(rule.clone()),
            }
        }
        Ok(Deduplicated { by_key: kept.len(), rules: sound })
    }

    fn objective<'b>(&'b self, rules: &'b [Rule]) -> Result<Covered, DomainError> {
        Ok(self.coverage(rules).objective())
    }
}
