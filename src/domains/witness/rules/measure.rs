//! A* with a rule set measured against local constraint checking: the
//! best-of-N timing of a search (runs differ only in time), a puzzle set
//! searched with one predicate, and per puzzle the figures of Stevens'
//! speed-up (equations 2.1/2.2), beside perfect pruning (the exact
//! completion oracle as the predicate: the expansion ratio a rule set could
//! reach at best) and the pruning trace (the share of the baseline's
//! incompletable paths the rules prune); and the learner's filter
//! searches, with their deterministic time model. `witness bench`, the
//! learner's selection and its report all measure here.

use super::ruleset::{RuleSetPredicate, Work};
use crate::domains::witness::board::oracle::Oracle;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::search::astar::{astar, Outcome, SearchConfig, SearchReport};
use crate::domains::witness::search::predicates::baseline;
use crate::domains::witness::synthesis::domain::Witness;
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::time::Duration;

/// What prunes a search: local constraint checking alone, or with a rule set.
#[derive(Clone, Copy)]
pub enum Pruning<'a> {
    /// Local constraint checking (the baseline).
    Local,
    /// Local constraint checking and the rules (their memo forgotten before
    /// each run, so that a run's time does not depend on the runs before).
    Rules(&'a RuleSetPredicate),
}

/// A* on `puzzle` pruned by `pruning`, run `repeat` times (at least once):
/// the first run's report with the least time among them.
pub fn fastest(puzzle: &Puzzle, pruning: Pruning, config: &SearchConfig, repeat: usize) -> SearchReport {
    let run = || match pruning {
        Pruning::Local => astar(puzzle, &baseline, config),
        Pruning::Rules(pred) => {
            pred.forget();
            astar(puzzle, pred, config)
        }
    };
    let mut best = run();
    for _ in 1..repeat {
        best.elapsed = best.elapsed.min(run().elapsed);
    }
    best
}

/// A puzzle set searched with one predicate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetSearch {
    /// Paths expanded, summed over the puzzles.
    pub expansions: u64,
    /// Successor paths generated, summed.
    pub generated: u64,
    /// Search time: per puzzle the fastest of the runs, summed.
    pub elapsed: Duration,
}

/// A* on each of `puzzles` pruned by `pruning`, each timed [`fastest`] of `repeat`.
pub fn search_set(puzzles: &[Puzzle], pruning: Pruning, config: &SearchConfig, repeat: usize) -> SetSearch {
    let mut out = SetSearch::default();
    for p in puzzles {
        let r = fastest(p, pruning, config, repeat);
        out.expansions += r.expansions;
        out.generated += r.generated;
        out.elapsed += r.elapsed;
    }
    out
}

/// Deterministic measurements of A* with a rule set over the filter set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterCost {
    /// Paths expanded.
    pub expansions: u64,
    /// Successor paths generated (each judged by local checking).
    pub generated: u64,
    /// The rules' work.
    pub work: Work,
}

/// Nanoseconds per unit of work of the time model, fitted by relative least
/// squares to timed filter searches with and without rules: counted work
/// weighed by these stands in for a search time that does not depend on the
/// machine's load, so rule sets are compared by a deterministic figure.
const NS_PER_GENERATED: f64 = 280.0;
const NS_PER_JUDGED: f64 = 90.0;
const NS_PER_BINDING: f64 = 85.0;
const NS_PER_REGION: f64 = 30.0;

impl FilterCost {
    /// The modelled search time in milliseconds: linear in the paths
    /// generated, the paths the rules judged, the rule bindings evaluated
    /// and the goal regions computed.
    pub fn model_ms(&self) -> f64 {
        let w = &self.work;
        (NS_PER_GENERATED * self.generated as f64
            + NS_PER_JUDGED * w.judged as f64
            + NS_PER_BINDING * w.bindings as f64
            + NS_PER_REGION * w.regions as f64)
            / 1e6
    }
}

/// A* with local constraint checking and `rules` over `puzzles`, each
/// search timed the fastest of `repeat` runs: the work counts (of every
/// run) and the measured search time.
pub fn filter_search(domain: &Witness, rules: &[Rule], puzzles: &[Puzzle], repeat: usize) -> (FilterCost, Duration) {
    let pred = RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules.to_vec());
    let set = search_set(puzzles, Pruning::Rules(&pred), &SearchConfig::default(), repeat);
    (FilterCost { expansions: set.expansions, generated: set.generated, work: pred.work() }, set.elapsed)
}

/// Sums over a group of puzzles of a rule set's speed-up measurement.
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    /// Puzzles measured.
    pub puzzles: usize,
    /// Paths the baseline search expanded.
    pub baseline_expansions: u64,
    /// Paths the rule-set search expanded.
    pub rules_expansions: u64,
    /// Expansions with perfect pruning (the exact oracle as the predicate).
    pub perfect_expansions: u64,
    /// Baseline expansions on the puzzles searched with perfect pruning.
    pub traced_baseline_expansions: u64,
    /// Baseline search time (per puzzle the fastest of the runs).
    pub baseline_time: Duration,
    /// Rule-set search time (likewise).
    pub rules_time: Duration,
    /// Puzzles the baseline solved.
    pub solved_baseline: usize,
    /// Puzzles the rule-set search solved.
    pub solved_rules: usize,
    /// Solutions the rule-set search returned that are not solutions.
    pub invalid: usize,
    /// Puzzles the baseline solved and the rules proved to have no
    /// solution: solutions the rules pruned away (proof they are unsound).
    pub lost: usize,
    /// Searches (baseline or rules) stopped by a budget (time, or the node
    /// budget that bounds memory) before an answer.
    pub stopped: usize,
    /// Puzzles whose baseline search was stopped by a budget: no trace and
    /// no search with perfect pruning (each completability query can take
    /// exponential time on such a puzzle).
    pub untraced: usize,
    /// Incompletable paths the baseline search kept on its open list.
    pub trace_incompletable: u64,
    /// Of those, the ones the rules prune.
    pub trace_pruned: u64,
}

impl Totals {
    /// Adds `o`'s sums to these.
    pub fn add(&mut self, o: &Totals) {
        self.puzzles += o.puzzles;
        self.baseline_expansions += o.baseline_expansions;
        self.rules_expansions += o.rules_expansions;
        self.perfect_expansions += o.perfect_expansions;
        self.traced_baseline_expansions += o.traced_baseline_expansions;
        self.baseline_time += o.baseline_time;
        self.rules_time += o.rules_time;
        self.solved_baseline += o.solved_baseline;
        self.solved_rules += o.solved_rules;
        self.invalid += o.invalid;
        self.lost += o.lost;
        self.stopped += o.stopped;
        self.untraced += o.untraced;
        self.trace_incompletable += o.trace_incompletable;
        self.trace_pruned += o.trace_pruned;
    }

    /// Equation 2.2: total baseline expansions over total rule-set expansions.
    pub fn expansion_speedup(&self) -> f64 {
        self.baseline_expansions as f64 / self.rules_expansions.max(1) as f64
    }

    /// Equation 2.2 for perfect pruning (on the puzzles traced): the best
    /// expansion speed-up.
    pub fn perfect_speedup(&self) -> f64 {
        self.traced_baseline_expansions as f64 / self.perfect_expansions.max(1) as f64
    }

    /// Equation 2.1: total baseline time over total rule-set time.
    pub fn time_speedup(&self) -> f64 {
        self.baseline_time.as_secs_f64() / self.rules_time.as_secs_f64().max(1e-9)
    }

    /// The share of the incompletable paths the baseline keeps that the
    /// rules prune (0 when it keeps none).
    pub fn trace_coverage(&self) -> f64 {
        if self.trace_incompletable == 0 {
            0.0
        } else {
            self.trace_pruned as f64 / self.trace_incompletable as f64
        }
    }
}

/// One puzzle: the baseline search and one search per rule set of `preds`
/// (each the fastest of `repeat` runs), and (with `trace`) the baseline
/// search again, counting the incompletable paths it keeps and how many of
/// them each rule set prunes, and the search with perfect pruning. One
/// [`Totals`] per rule set, in order, each with the same baseline and
/// perfect figures, so that rule sets are compared on one baseline run.
pub fn measure(
    p: &Puzzle,
    preds: &[&RuleSetPredicate],
    config: &SearchConfig,
    trace: bool,
    repeat: usize,
) -> Vec<Totals> {
    let b = fastest(p, Pruning::Local, config, repeat);
    let mut out: Vec<Totals> = preds
        .iter()
        .map(|pred| {
            let r = fastest(p, Pruning::Rules(pred), config, repeat);
            Totals {
                puzzles: 1,
                baseline_expansions: b.expansions,
                rules_expansions: r.expansions,
                baseline_time: b.elapsed,
                rules_time: r.elapsed,
                solved_baseline: usize::from(b.solution().is_some()),
                solved_rules: usize::from(r.solution().is_some()),
                invalid: usize::from(r.solution().is_some_and(|s| !s.is_solution(p))),
                lost: usize::from(b.solution().is_some() && r.outcome == Outcome::NoSolution),
                stopped: [&b, &r].iter().filter(|s| matches!(s.outcome, Outcome::Stopped(_))).count(),
                ..Totals::default()
            }
        })
        .collect();
    if trace && matches!(b.outcome, Outcome::Stopped(_)) {
        out.iter_mut().for_each(|t| t.untraced = 1);
    } else if trace {
        let oracle = RefCell::new(Oracle::new(p).with_deadline(config.deadline));
        let incompletable = Cell::new(0u64);
        let pruned: Vec<Cell<u64>> = preds.iter().map(|_| Cell::new(0)).collect();
        let traced = |pz: &Puzzle, path: &Path| {
            let flagged = baseline(pz, path);
            if !flagged && !oracle.borrow_mut().completable(path) {
                incompletable.set(incompletable.get() + 1);
                for (pred, n) in preds.iter().zip(&pruned) {
                    if pred.rules_fire(pz, path) {
                        n.set(n.get() + 1);
                    }
                }
            }
            flagged
        };
        astar(p, &traced, config);
        let perfect = |pz: &Puzzle, path: &Path| baseline(pz, path) || !oracle.borrow_mut().completable(path);
        let perfect_expansions = astar(p, &perfect, config).expansions;
        // the deadline stopped the exact checks: the trace means nothing
        if oracle.borrow().stopped() {
            out.iter_mut().for_each(|t| t.untraced = 1);
            return out;
        }
        for (t, n) in out.iter_mut().zip(&pruned) {
            t.trace_incompletable = incompletable.get();
            t.trace_pruned = n.get();
            t.perfect_expansions = perfect_expansions;
            t.traced_baseline_expansions = b.expansions;
        }
    }
    out
}

/// Per-size totals of [`measure`] over `ps`, one per rule set of `preds`,
/// sizes in (width, height) order.
pub fn by_size(
    ps: &[Puzzle],
    preds: &[&RuleSetPredicate],
    config: &SearchConfig,
    trace: bool,
    repeat: usize,
) -> BTreeMap<(usize, usize), Vec<Totals>> {
    let mut out: BTreeMap<(usize, usize), Vec<Totals>> = BTreeMap::new();
    for p in ps {
        let sums = out.entry((p.width(), p.height())).or_insert_with(|| vec![Totals::default(); preds.len()]);
        for (sum, t) in sums.iter_mut().zip(measure(p, preds, config, trace, repeat)) {
            sum.add(&t);
        }
    }
    out
}

/// The totals over every size of rule set `i` of [`by_size`]'s sums.
pub fn all_sizes(sizes: &BTreeMap<(usize, usize), Vec<Totals>>, i: usize) -> Totals {
    let mut all = Totals::default();
    sizes.values().for_each(|t| all.add(&t[i]));
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::board::oracle::solve;
    use crate::domains::witness::synthesis::testing::{puzzles, rules, STARVED};

    /// A sound rule keeps every solution, expands no more than local
    /// checking and no fewer than perfect pruning; the pruning trace counts
    /// only incompletable paths, and the figures add up per size.
    #[test]
    fn a_sound_rule_sits_between_local_checking_and_perfect_pruning() {
        let (domain, rules) = rules(STARVED);
        let pred = RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules);
        let puzzles = puzzles("2x2..4x4", 3, 30);
        let config = SearchConfig::default();
        let sizes = by_size(&puzzles, &[&pred], &config, true, 2);
        let all = all_sizes(&sizes, 0);
        assert_eq!(all.puzzles, 30);
        let solvable = puzzles.iter().filter(|p| solve(p).is_some()).count();
        assert_eq!((all.solved_baseline, all.solved_rules), (solvable, solvable));
        assert_eq!((all.lost, all.invalid, all.stopped, all.untraced), (0, 0, 0, 0));
        assert!(all.perfect_expansions <= all.rules_expansions);
        assert!(all.rules_expansions < all.baseline_expansions, "{all:?}");
        assert!(all.expansion_speedup() > 1.0 && all.expansion_speedup() <= all.perfect_speedup());
        assert!(all.trace_pruned > 0 && all.trace_pruned <= all.trace_incompletable);
        assert!(all.trace_coverage() > 0.0 && all.trace_coverage() <= 1.0);
        // the set search sums the same per-puzzle searches
        let set = search_set(&puzzles, Pruning::Rules(&pred), &config, 1);
        assert_eq!(set.expansions, all.rules_expansions);
        assert_eq!(search_set(&puzzles, Pruning::Local, &config, 3).expansions, all.baseline_expansions);
    }

    /// Rule sets measured side by side share one baseline search: each
    /// set's expansions, solutions and trace are those it has measured
    /// alone, and the empty set expands what local checking does.
    #[test]
    fn rule_sets_side_by_side_are_each_measured_as_alone() {
        let (domain, starved) = rules(STARVED);
        let pred = RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, starved);
        let none = RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, vec![]);
        let puzzles = puzzles("2x2..4x4", 5, 20);
        let config = SearchConfig::default();
        let both = by_size(&puzzles, &[&none, &pred], &config, true, 1);
        let alone = all_sizes(&by_size(&puzzles, &[&pred], &config, true, 1), 0);
        let (n, r) = (all_sizes(&both, 0), all_sizes(&both, 1));
        assert_eq!((n.rules_expansions, n.trace_pruned), (n.baseline_expansions, 0));
        assert_eq!(n.baseline_expansions, r.baseline_expansions);
        let figures = |t: &Totals| {
            (t.baseline_expansions, t.rules_expansions, t.perfect_expansions, t.solved_rules, t.trace_incompletable)
        };
        assert_eq!(figures(&r), figures(&alone));
        assert_eq!(r.trace_pruned, alone.trace_pruned);
        assert!(r.rules_expansions < n.rules_expansions, "{r:?}");
    }

    /// A rule that prunes completable paths loses solutions, and the
    /// measurement says so.
    #[test]
    fn an_unsound_rule_is_caught_losing_solutions() {
        let (domain, rules) =
            rules("def wrong:\n    with s = arbitrary(square):\n    if used(s) >= 1:\n    then prune\n");
        let pred = RuleSetPredicate::new(domain.ids(), domain.schema().size_feature, rules);
        let puzzles = puzzles("3x3", 1, 10);
        let all = all_sizes(&by_size(&puzzles, &[&pred], &SearchConfig::default(), false, 1), 0);
        assert!(all.lost > 0, "{all:?}");
        assert!(all.solved_rules < all.solved_baseline);
    }
}
