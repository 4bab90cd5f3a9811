//! The engine ([`Engine`]): built once per run for a domain and a
//! configuration, shared by every specification and thread, it
//! synthesises the sound rules of one specification ([`Engine::synthesize`])
//! and takes the counterexamples of finished ones into its pool
//! ([`Engine::publish`]). For each number of pattern variables (fewest
//! first) it walks the pattern lattice of every set of that many elements
//! of every image of the specification, in parallel ([`Run`]s gathered in
//! order); of the rules the walks settle, those another one outdoes on the
//! table are dropped, and the rest must pass the full-bound proof. It stops
//! at the first size that gives rules, unless none of them makes the
//! deduction beyond the specification's small state (on one of the
//! domain's probes): then it goes on, up to `Config::probe_decls`
//! variables.

use super::config::Config;
use super::domain::{makes_beyond, Example, Spec, Symbolic};
use super::lattice;
use super::outcome::{Learned, Outcome, Stats};
use super::run::{Run, Settled, Solved};
use super::shared::{text_key, Gains, Shared};
use super::span::own_time;
use super::verify::Verifier;
use crate::dsl::ast::{Decl, Rule};
use crate::dsl::cost::cost;
use crate::dsl::eval::{ActionValue, Binding};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Synthesises rules for specifications of one domain; shared by every
/// specification and thread of a run.
pub struct Engine<'d, D: Symbolic> {
    shared: Shared<'d, D>,
}

/// What one lattice walk gives back.
struct Walked<'d, D: Symbolic> {
    /// Its maximal nodes' rules, settled.
    settled: Vec<Settled<'d, D>>,
    stats: Stats,
    /// The counterexamples it found.
    found: Vec<D::State>,
    /// Its Z3 queries.
    calls: u64,
}

/// A specification's work and span so far (see [`Outcome::work`]).
#[derive(Default)]
struct Clock {
    work: Duration,
    span: Duration,
}

impl Clock {
    /// Runs a step done on one thread (or whose parallel parts are not
    /// told apart): its own time is on the span.
    fn step<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let (out, own) = own_time(f);
        self.work += own;
        self.span += own;
        out
    }

    /// Takes the results of steps run in parallel with their own times:
    /// the longest is on the span.
    fn parallel<T>(&mut self, timed: Vec<(T, Duration)>) -> Vec<T> {
        self.work += timed.iter().map(|(_, own)| *own).sum::<Duration>();
        self.span += timed.iter().map(|(_, own)| *own).max().unwrap_or_default();
        timed.into_iter().map(|(out, _)| out).collect()
    }
}

impl<'d, D: Symbolic> Engine<'d, D> {
    /// An engine for `domain`; builds the exhaustive table.
    pub fn new(domain: &'d D, config: Config) -> Engine<'d, D> {
        Engine { shared: Shared::new(domain, config) }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.shared.config
    }

    /// Adds the counterexamples of finished runs to the shared pool, in
    /// the order given, skipping states it already holds. Runs started
    /// before see the pool as it was (so a batch that publishes each round
    /// of specifications in their order is deterministic).
    pub fn publish(&self, outcomes: &[&Outcome<D::State>]) {
        let shared = &self.shared;
        let mut pool = shared.pool.lock().expect("pool");
        for outcome in outcomes {
            for state in &outcome.counterexamples {
                let key = shared.domain.show(state);
                if pool.keys.insert(key) {
                    pool.examples.push(shared.example(state.clone()));
                }
            }
        }
    }

    /// How many counterexample states the shared pool holds.
    pub fn pool_len(&self) -> usize {
        self.shared.pool.lock().expect("pool").examples.len()
    }

    /// Synthesises the maximally general rules for `spec` (with a fresh Z3
    /// verifier in this thread's context), seeing the whole pool as
    /// published so far.
    pub fn synthesize(&self, spec: &Spec<D::State>) -> Outcome<D::State> {
        self.synthesize_seeing(spec, self.pool_len())
    }

    /// [`synthesize`](Self::synthesize) seeing only the pool's first `seen`
    /// states (the pool only grows, in publication order): the outcome
    /// depends on those, however many were published since, so runs can
    /// overlap with publications and stay deterministic.
    pub fn synthesize_seeing(&self, spec: &Spec<D::State>, seen: usize) -> Outcome<D::State> {
        let started = Instant::now();
        // a timed step itself, so that a walk whose thread runs it while
        // waiting does not count its time
        let (mut outcome, _) = own_time(|| self.search(spec, seen));
        outcome.time = started.elapsed();
        outcome
    }

    /// [`synthesize_seeing`](Self::synthesize_seeing) but for the wall time.
    fn search(&self, spec: &Spec<D::State>, seen: usize) -> Outcome<D::State> {
        use rayon::prelude::*;
        let mut clock = Clock::default();
        let shared = &self.shared;
        let (domain, config) = (shared.domain, &shared.config);
        let screen_bound = config.screen();
        let mut screen = Verifier::deterministic(domain, screen_bound, config.rlimit);
        let mut full = Verifier::deterministic(domain, config.bound, config.rlimit);
        let mut stats = Stats::default();
        let mut found: Vec<Learned> = vec![];
        let mut counterexamples = vec![];
        let mut lost = vec![];
        let mut parallel_calls = 0;
        let schema = domain.schema();
        let images: Vec<_> = clock.step(|| {
            domain
                .images(&spec.state, &spec.deduction)
                .into_iter()
                .map(|(state, deduction)| {
                    let ex = shared.example(state);
                    let elements = lattice::elements(&ex.view, schema);
                    (ex, deduction, elements)
                })
                .collect()
        });
        // fewest bindings first, in every image, until some size gives rules
        // (proven, or lost to Z3's limit and so left to a second proof), of
        // which a proven one makes the deduction on a probe (or there are
        // `probe_decls` bindings)
        for size in 1..=config.max_decls {
            // The walks of the element sets are independent (each has its own
            // memo and search state; the engine's caches hold answers that
            // depend only on the query), so they run in parallel and are
            // gathered in order: the same result as one after the other.
            let walks: Vec<_> = images
                .iter()
                .flat_map(|(spec_ex, deduction, elements)| {
                    let sets = lattice::subsets(elements, size).into_iter();
                    sets.filter(|set| lattice::binds_arguments(set, deduction, schema))
                        .map(move |set| (spec_ex, deduction, set))
                })
                .collect();
            // one walk per rayon job: walks differ in cost by orders of
            // magnitude, and a thread running a run of them in one job
            // would leave the other cores idle at the end
            let walked: Vec<_> = walks
                .par_iter()
                .with_max_len(1)
                .map(|(spec_ex, deduction, set)| own_time(|| self.walk(spec_ex, deduction, set, (screen_bound, seen))))
                .collect();
            let walked = clock.parallel(walked);
            let mut settled = vec![];
            for walk in walked {
                settled.extend(walk.settled);
                stats.add(&walk.stats);
                counterexamples.extend(walk.found);
                parallel_calls += walk.calls;
            }
            // only rules no other one outdoes are worth the full-bound proof
            let keep = clock.step(|| self.undominated(&settled));
            let kept: Vec<Settled<'d, D>> =
                settled.into_iter().zip(&keep).filter(|(_, &k)| k).map(|(s, _)| s).collect();
            stats.dominated += (keep.len() - kept.len()) as u64;
            let mut run = Run::new(shared, &mut screen, &mut full, seen);
            let (verdicts, queries) =
                clock.step(|| run.full_verdicts(&kept.iter().map(|s| &s.rule).collect::<Vec<_>>()));
            parallel_calls += queries;
            for (candidate, verdict) in kept.into_iter().zip(verdicts) {
                found.extend(clock.step(|| run.prove_full(candidate, verdict)));
            }
            stats.add(&run.stats);
            counterexamples.extend(run.found);
            lost.extend(run.lost);
            let some = !found.is_empty() || !lost.is_empty();
            // rules lost to Z3's limit cannot be probed: they stop it, as before
            let beyond = found.is_empty()
                || size >= config.probe_decls
                || found.iter().any(|l| makes_beyond(domain, &l.rule, spec));
            if some && beyond && !config.all_sizes {
                break;
            }
        }
        stats.z3_calls = screen.calls() + full.calls() + parallel_calls;
        let mut distinct = HashSet::new();
        let mut rules: Vec<Learned> =
            found.into_iter().filter(|l| distinct.insert(text_key(&l.rule, schema))).collect();
        rules.sort_by_key(|l| l.cost);
        let mut seen_lost = HashSet::new();
        lost.retain(|rule: &Rule| seen_lost.insert(text_key(rule, schema)));
        Outcome { rules, stats, time: Duration::ZERO, work: clock.work, span: clock.span, counterexamples, lost }
    }

    /// One element set's lattice walk: its maximal nodes' rules, settled
    /// (sound at the screening bound), with the walk's counters, the
    /// counterexamples it found and its Z3 query count (in fresh verifiers
    /// of its own, so walks can run in parallel).
    fn walk(
        &self,
        spec_ex: &Arc<Example<D::State>>,
        deduction: &ActionValue,
        set: &[lattice::Element],
        (screen_bound, seen): (u32, usize),
    ) -> Walked<'d, D> {
        let shared = &self.shared;
        let (domain, config) = (shared.domain, &shared.config);
        let schema = domain.schema();
        let mut screen = Verifier::deterministic(domain, screen_bound, config.rlimit);
        let mut full = Verifier::deterministic(domain, config.bound, config.rlimit);
        let mut run = Run::new(shared, &mut screen, &mut full, seen);
        let memo = Arc::default();
        let solve = |decls: &[Decl], binding: &Binding| run.solve_node(spec_ex, deduction, decls, binding, &memo);
        let score = |s: &Solved<'d, D>| (s.general, std::cmp::Reverse(s.cost));
        let maximal = if config.explore {
            lattice::maximal(set, schema, solve, score)
        } else {
            lattice::climb(set, schema, solve, score).into_iter().collect()
        };
        let mut settled = vec![];
        for mut solved in maximal {
            if let Some((cand, picks)) = run.cheapest(&mut solved) {
                settled.push(run.settle(solved.node.clone(), cand, picks));
            }
            if let Some((cand, picks)) = run.widest(&mut solved) {
                settled.push(run.settle(solved.node.clone(), cand, picks));
            }
            settled.push(run.settle(solved.node, solved.cand, solved.picks));
        }
        let (stats, found) = (run.stats, run.found);
        Walked { settled, stats, found, calls: screen.calls() + full.calls() }
    }

    /// Which of a specification's rules to keep: a rule is dropped when
    /// another makes everything it gains on every table state (each of its
    /// productive applications is made by one of the other's on the same
    /// state), unless the two gain alike and it is the cheaper (or, at
    /// equal cost, the earlier) one.
    fn undominated(&self, settled: &[Settled<'d, D>]) -> Vec<bool> {
        let (domain, table) = (self.shared.domain, &self.shared.table);
        let schema = domain.schema();
        // per rule, the table states it gains on (a rule gains on few of
        // them, and one outdoes another only where the other gains); a rule
        // settled by several walks (or nodes) is looked at once
        let mut distinct: HashMap<String, usize> = HashMap::new();
        let mut texts = vec![];
        let of: Vec<usize> = settled
            .iter()
            .map(|s| {
                let next = texts.len();
                *distinct.entry(text_key(&s.rule, schema)).or_insert_with(|| {
                    texts.push(&s.rule);
                    next
                })
            })
            .collect();
        let distinct_gains: Vec<Arc<Gains>> = texts.iter().map(|rule| self.shared.gains(rule)).collect();
        let gains: Vec<&Gains> = of.iter().map(|&d| &*distinct_gains[d]).collect();
        let outdoes = |b: usize, a: usize| {
            let (a, b) = (gains[a], gains[b]);
            if !a.states.is_subset(&b.states) {
                return false;
            }
            // b's lists at a's states: a's states are among b's, both in order
            let mut at_b = b.states.ones().enumerate();
            a.states.ones().enumerate().all(|(n, t)| {
                let m = at_b.find(|&(_, u)| u == t).map(|(m, _)| m).expect("a subset's state");
                let ys = b.list(m);
                a.list(n).iter().all(|x| ys.iter().any(|y| domain.makes(&table[t].state, x, y)))
            })
        };
        let rank = |i: usize| (cost(&settled[i].rule, schema), i);
        (0..settled.len())
            .map(|a| !(0..settled.len()).any(|b| b != a && outdoes(b, a) && (!outdoes(a, b) || rank(b) < rank(a))))
            .collect()
    }
}
