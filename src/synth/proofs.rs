//! A run's Z3 soundness proofs, through the run-wide verdict cache: at the
//! screening bound (what decides the search; a counterexample joins the
//! node and the pool) or the full bound, one query at a time or, for the
//! rules a specification returns, all missing ones in parallel. Each query
//! is counted in the run's [`Stats`](super::outcome::Stats).

use super::domain::Symbolic;
use super::node::Node;
use super::run::Run;
use super::shared::verdict_key;
use super::verify::{Counterexample, Verdict, Verifier};
use crate::dsl::ast::Rule;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

impl<'d, D: Symbolic> Run<'_, 'd, '_, D> {
    /// Z3 at the screening bound; a counterexample joins the node and the
    /// pool.
    pub(super) fn prove(&mut self, node: &mut Node<'d, D>, rule: &Rule) -> Verdict<D::State> {
        let verdict = self.check(rule);
        if let Verdict::Unsound(state) = &verdict {
            self.learn_from(node, state.clone());
        }
        verdict
    }

    /// Z3 soundness of a rule at the screening bound, through the cache.
    pub(super) fn check(&mut self, rule: &Rule) -> Verdict<D::State> {
        self.check_at(rule, false)
    }

    /// Z3 soundness at the screening bound or (`full`) the full bound.
    pub(super) fn check_at(&mut self, rule: &Rule, full: bool) -> Verdict<D::State> {
        let shared = self.shared;
        let verifier = if full { &mut *self.full } else { &mut *self.screen };
        let key = verdict_key(verifier.bound(), rule, shared.domain.schema());
        if let Some(k) = shared.verdicts.lock().expect("verdicts").get(&key) {
            self.stats.cached += 1;
            return k.clone();
        }
        let started = Instant::now();
        let verdict = verifier.check(rule);
        self.count_query(started.elapsed(), full);
        let verdict = verdict.map(|ce| ce.state);
        self.enter(key, &verdict);
        verdict
    }

    /// Counts one Z3 soundness query that took `spent` (at the full bound
    /// or not).
    fn count_query(&mut self, spent: Duration, full: bool) {
        self.stats.z3_soundness += 1;
        self.stats.z3_time += spent;
        if full {
            self.stats.z3_full += 1;
            self.stats.z3_full_time += spent;
        }
    }

    /// Puts a verdict in the shared cache under `key`, counting it
    /// (unsound, out of the limit) only if it is the first there: two
    /// threads can ask the same query at once, and a verdict counted by
    /// both would make the run's counts depend on timing. Counted once,
    /// when it first enters the cache, a run's total is the number of
    /// distinct queries with that verdict, whoever asked first.
    fn enter(&mut self, key: String, verdict: &Verdict<D::State>) {
        let mut verdicts = self.shared.verdicts.lock().expect("verdicts");
        if let std::collections::hash_map::Entry::Vacant(slot) = verdicts.entry(key) {
            slot.insert(verdict.clone());
            match verdict {
                Verdict::Sound => {}
                Verdict::Unsound(_) => self.stats.z3_unsound += 1,
                Verdict::Unknown(_) => self.stats.z3_unknown += 1,
            }
        }
    }

    /// The full-bound verdicts of `rules` (through the cache), the missing
    /// ones proven in parallel: every query runs in a fresh Z3 context, so
    /// its verdict depends only on the rule, and a worker left idle at the
    /// end of a round takes a long specification's proofs. Returns the
    /// verdicts and the number of Z3 queries made.
    pub(super) fn full_verdicts(&mut self, rules: &[&Rule]) -> (Vec<Verdict<D::State>>, u64) {
        use rayon::prelude::*;
        let shared = self.shared;
        let schema = shared.domain.schema();
        let (bound, rlimit) = (shared.config.bound, shared.config.rlimit);
        let keys: Vec<String> = rules.iter().map(|r| verdict_key(bound, r, schema)).collect();
        let cached: Vec<Option<Verdict<D::State>>> = {
            let verdicts = shared.verdicts.lock().expect("verdicts");
            keys.iter().map(|k| verdicts.get(k).cloned()).collect()
        };
        // one query per key not in the cache
        let mut missing: Vec<usize> = (0..rules.len()).filter(|&i| cached[i].is_none()).collect();
        let mut seen = HashSet::new();
        missing.retain(|&i| seen.insert(&keys[i]));
        let answers: Vec<(Verdict<Counterexample<D::State>>, Duration)> = missing
            .par_iter()
            .with_max_len(1)
            .map(|&i| {
                let started = Instant::now();
                let verdict = Verifier::deterministic(shared.domain, bound, rlimit).check(rules[i]);
                (verdict, started.elapsed())
            })
            .collect();
        let mut proven: HashMap<&String, Verdict<D::State>> = HashMap::new();
        for (&i, (verdict, spent)) in missing.iter().zip(answers) {
            self.count_query(spent, true);
            let verdict = verdict.map(|ce| ce.state);
            self.enter(keys[i].clone(), &verdict);
            proven.insert(&keys[i], verdict);
        }
        self.stats.cached += (rules.len() - missing.len()) as u64;
        let out = cached.into_iter().zip(&keys).map(|(c, k)| c.unwrap_or_else(|| proven[k].clone())).collect();
        (out, missing.len() as u64)
    }
}
