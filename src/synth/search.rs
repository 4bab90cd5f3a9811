//! One specification's search (a [`Run`]): per lattice node, candidate
//! actions and their conditions (CEGIS on concrete examples, then Z3 at the
//! screening bound), the climb's final rule generalised and simplified,
//! and its proof at the full bound. The algorithm is described in
//! [`engine`](super::engine).

use super::cache::{rule_key, Example, Known};
use super::engine::Outcome;
use super::domain::Spec;
use super::lattice;
use super::cover::{self, Bits};
use super::domain::Symbolic;
use super::engine::{table_failures, Engine, Learned, Stats};
use super::node::{holds, ArgChoice, Breadth, Candidate, Node, PairMemo, Pairs};
use super::space::Term;
use super::verify::{Verdict, Verifier};
use crate::dsl::ast::{Action, ActionId, BoolExpr, Decl, Rule, TypeId};
use crate::dsl::cost::cost;
use crate::dsl::eval::{ActionValue, Binding, Interpreter};
use crate::dsl::print::print_rule;
use crate::dsl::schema::ParamKind;
use crate::rewrite::Simplifier;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

/// One specification's search state.
pub(super) struct Run<'e, 'd, 'v, D: Symbolic> {
    pub(super) engine: &'e Engine<'d, D>,
    /// Z3 at the screening bound: decides the search.
    pub(super) screen: &'v mut Verifier<'d, D>,
    /// Z3 at the full bound: confirms every returned rule.
    pub(super) full: &'v mut Verifier<'d, D>,
    pub(super) stats: Stats,
    /// Counterexamples found (published when the run is over).
    pub(super) found: Vec<D::State>,
    /// Rules whose full-bound proof ran out of Z3's resource limit.
    pub(super) lost: Vec<Rule>,
}

/// A lattice node with the sound rule found there.
pub(super) struct Solved<S> {
    pub(super) node: Node<S>,
    pub(super) cand: Candidate,
    pub(super) picks: Vec<usize>,
    /// How many states of the generality sample the rule gains on.
    pub(super) general: usize,
    /// The rule's cost.
    pub(super) cost: u32,
    /// The node's other candidates cheaper than the rule (narrower, or
    /// they would rank first), for [`Run::cheapest`].
    pub(super) cheaper: Vec<Ranked>,
    /// The node's actions that gain the most cells on the coverage sample,
    /// for [`Run::widest`].
    pub(super) wide: Vec<Candidate>,
}

/// A maximal node's final rule, sound at the screening bound, awaiting
/// the full-bound proof (with the node, should that find a counterexample).
pub(super) struct Settled<S> {
    pub(super) node: Node<S>,
    pub(super) cand: Candidate,
    pub(super) rule: Rule,
}

/// A candidate rule at a node: an action, its cheapest condition that
/// survives the concrete checks, and how it ranks.
pub(super) struct Ranked {
    pub(super) cand: Candidate,
    pub(super) picks: Vec<usize>,
    /// Rule cost.
    pub(super) cost: u32,
    /// How broadly it applies on the coverage sample (by the [`Breadth`]
    /// it was ranked by).
    pub(super) covered: usize,
    /// Place of the action in the cheapest-first order.
    pub(super) order: usize,
}

impl Ranked {
    pub(super) fn new<D: Symbolic>(node: &Node<D::State>, cand: Candidate, picks: Vec<usize>, order: usize, decl_cost: u32, domain: &D, breadth: Breadth) -> Ranked {
        let cost = decl_cost + cand.cost + node.condition_cost(&picks, domain.schema());
        let covered = node.covered(&cand, &picks, domain, breadth);
        Ranked { cand, picks, cost, covered, order }
    }

    /// Most general first, then cheapest, then first enumerated.
    pub(super) fn rank(&self) -> (std::cmp::Reverse<usize>, u32, usize) {
        (std::cmp::Reverse(self.covered), self.cost, self.order)
    }
}

impl<'d, D: Symbolic> Run<'_, 'd, '_, D> {
    pub(super) fn remember(&mut self, ex: &Arc<Example<D::State>>) {
        self.found.push(ex.state.clone());
    }

    /// The most general sound rule (sample coverage, then cost) of one
    /// lattice node, if any, with the node's search state (`memo`: what
    /// terms and atoms are on the pairs this lattice walk has met).
    pub(super) fn solve_node(&mut self, spec: &Arc<Example<D::State>>, deduction: &ActionValue, decls: &[Decl], binding: &Binding, memo: &Arc<PairMemo<D::State>>) -> Option<Solved<D::State>> {
        self.stats.patterns_tried += 1;
        let engine = self.engine;
        let schema = engine.domain.schema();
        let types: Vec<TypeId> = decls.iter().map(|d| d.ty).collect();
        let space = engine.space(&types);
        let skeleton = Rule {
            name: String::new(),
            description: vec![],
            decls: decls.to_vec(),
            condition: BoolExpr::True,
            action: Action { id: ActionId(0), args: vec![] },
        };
        let interp = Interpreter::new(&skeleton, &spec.view, schema.size_feature);
        let spec_values = space.term_values(&interp, binding);
        let live: Vec<usize> = (0..space.atoms.len())
            .filter(|&a| holds(&space.atoms[a], &spec_values, &interp, binding))
            .collect();
        let candidates = self.actions(&space.terms, &spec_values, spec, deduction, self.engine.config.max_generality_pool);
        if candidates.is_empty() {
            return None;
        }
        let live_count = live.len();
        let mut node = Node {
            skeleton,
            space: space.clone(),
            live,
            examples: vec![],
            sample: 0,
            scope: None,
            mask: None,
            pairs: Pairs { pairs: vec![], values: vec![], holds: vec![Bits::new(); live_count] },
            memo: memo.clone(),
        };
        let decl_cost = node.decl_cost(schema);
        // the coverage sample first (candidates are ranked on it): table
        // states the patterns bind on, evenly spread; then the most recent
        // counterexamples of the pool
        let scope = node.table_scope(&engine.table, schema);
        let step = (scope.len() / engine.config.coverage_sample.max(1)).max(1);
        let coverage: Vec<_> = scope.iter().step_by(step).take(engine.config.coverage_sample).map(|&i| engine.table[i].clone()).collect();
        node.sample = coverage.len();
        let start: Vec<_> = {
            let pool = engine.pool.lock().expect("pool");
            pool.examples.iter().rev().take(engine.config.pool_start).cloned().collect()
        };
        for ex in coverage.into_iter().chain(start) {
            node.add_example(ex, schema);
        }
        // Candidates: per action (cheapest first), the cheapest condition
        // that survives the concrete checks. The cheapest such rule fixes a
        // cost ceiling (plus the slack); under it, the most general rule
        // (most sample states covered), then the cheapest, goes to Z3 first.
        // The actions most often sound and productive on the sample by
        // themselves compete too, whatever their cost: a general action
        // made of costlier terms is what makes a widely applicable rule.
        let slack = engine.config.generalise_slack;
        let max_cost = engine.config.max_rule_cost;
        let wanted = [(Breadth::States, engine.config.max_general_actions), (Breadth::Cells, engine.config.wide_actions)];
        let [general, wide]: [Vec<usize>; 2] = node.most_general(&candidates, &wanted, engine.domain).try_into().expect("one list per breadth");
        let wide = wide.into_iter().map(|i| candidates[i].clone()).collect();
        let mut ceiling: Option<u32> = None;
        let mut ranked: Vec<Ranked> = vec![];
        for (order, cand) in candidates.iter().enumerate().take(engine.config.max_actions) {
            let budget = ceiling.map_or(max_cost, |c| c + slack);
            if decl_cost + cand.cost > budget {
                break;
            }
            if let Some(picks) = self.table_condition(&mut node, cand, budget - decl_cost - cand.cost) {
                let r = Ranked::new(&node, cand.clone(), picks, order, decl_cost, engine.domain, Breadth::States);
                ceiling = Some(ceiling.map_or(r.cost, |c| c.min(r.cost)));
                ranked.push(r);
            }
        }
        let limit = ceiling.unwrap_or(max_cost) + slack;
        ranked.retain(|r| r.cost <= limit);
        for order in general {
            let cand = &candidates[order];
            // (one already ranked with its cheapest condition competes
            // again with its widest)
            if decl_cost + cand.cost > max_cost {
                continue;
            }
            if let Some(picks) = self.widest_condition(&mut node, cand, max_cost - decl_cost - cand.cost, engine.config.generalise_slack) {
                ranked.push(Ranked::new(&node, cand.clone(), picks, order, decl_cost, engine.domain, Breadth::States));
            }
        }
        let best = loop {
            ranked.sort_by_key(|r| r.rank());
            if ranked.is_empty() {
                return None;
            }
            let r = ranked.remove(0);
            // counterexamples found since it was chosen may refute it
            if !node.consistent(&r.cand, &r.picks, engine.domain) {
                let budget = limit.max(r.cost) - decl_cost - r.cand.cost;
                if let Some(picks) = self.table_condition(&mut node, &r.cand, budget) {
                    ranked.push(Ranked::new(&node, r.cand, picks, r.order, decl_cost, engine.domain, Breadth::States));
                }
                continue;
            }
            let rule = node.rule(&r.cand, &r.picks);
            match self.prove(&mut node, &rule) {
                Known::Sound => break r,
                Known::Unknown => continue,
                Known::Unsound(_) => {
                    let budget = limit.max(r.cost) - decl_cost - r.cand.cost;
                    if let Some(picks) = self.table_condition(&mut node, &r.cand, budget) {
                        ranked.push(Ranked::new(&node, r.cand, picks, r.order, decl_cost, engine.domain, Breadth::States));
                    }
                }
            }
        };
        let general = engine.generality(&node.rule(&best.cand, &best.picks));
        let cheaper = ranked.into_iter().filter(|r| r.cost < best.cost).collect();
        Some(Solved { node, cand: best.cand, picks: best.picks, general, cost: best.cost, cheaper, wide })
    }

    /// At a maximal node, the cheapest sound rule cheaper than the node's
    /// most general one (the two are incomparable: one is cheaper, the
    /// other wider), if any: the cheaper candidates in order of cost, each
    /// with its cheapest condition still consistent, proven by Z3 at the
    /// screening bound (a few tries).
    pub(super) fn cheapest(&mut self, solved: &mut Solved<D::State>) -> Option<(Candidate, Vec<usize>)> {
        let mut rest = std::mem::take(&mut solved.cheaper);
        rest.sort_by_key(|r| (r.cost, r.order));
        let decl_cost = solved.node.decl_cost(self.engine.domain.schema());
        for r in rest.into_iter().take(self.engine.config.cheapest_tries) {
            let budget = (solved.cost - 1).saturating_sub(decl_cost + r.cand.cost);
            let picks = if solved.node.consistent(&r.cand, &r.picks, self.engine.domain) { Some(r.picks) } else { self.table_condition(&mut solved.node, &r.cand, budget) };
            let Some(picks) = picks else { continue };
            let rule = solved.node.rule(&r.cand, &picks);
            if cost(&rule, self.engine.domain.schema()) >= solved.cost {
                continue;
            }
            if let Known::Sound = self.prove(&mut solved.node, &rule) {
                return Some((r.cand, picks));
            }
        }
        None
    }

    /// At a maximal node, the sound rule gaining the most cells on the
    /// coverage sample (what coverage counts), with a condition up to the
    /// wide slack costlier than the cheapest, if it gains more than the
    /// node's most general rule: the two are incomparable (one applies to
    /// more states, the other fills more cells), so both are kept. Tried
    /// in that order, each proven by Z3 at the screening bound.
    pub(super) fn widest(&mut self, solved: &mut Solved<D::State>) -> Option<(Candidate, Vec<usize>)> {
        let engine = self.engine;
        let domain = engine.domain;
        let max_cost = engine.config.max_rule_cost;
        let decl_cost = solved.node.decl_cost(domain.schema());
        let floor = solved.node.covered(&solved.cand, &solved.picks, domain, Breadth::Cells);
        let mut ranked = vec![];
        for (order, cand) in std::mem::take(&mut solved.wide).into_iter().enumerate() {
            if decl_cost + cand.cost > max_cost {
                continue;
            }
            if let Some(picks) = self.widest_condition(&mut solved.node, &cand, max_cost - decl_cost - cand.cost, engine.config.wide_slack) {
                ranked.push(Ranked::new(&solved.node, cand, picks, order, decl_cost, domain, Breadth::Cells));
            }
        }
        ranked.retain(|r| r.covered > floor);
        ranked.sort_by_key(|r| r.rank());
        for r in ranked {
            // counterexamples found meanwhile may refute it
            if !solved.node.consistent(&r.cand, &r.picks, domain) {
                continue;
            }
            let rule = solved.node.rule(&r.cand, &r.picks);
            if let Known::Sound = self.prove(&mut solved.node, &rule) {
                return Some((r.cand, r.picks));
            }
        }
        None
    }

    /// A maximal node's rule made final: its condition generalised, then
    /// rewritten to the cheapest equal form (kept only if Z3 agrees it is
    /// sound at the screening bound).
    pub(super) fn settle(&mut self, mut node: Node<D::State>, cand: Candidate, picks: Vec<usize>) -> Settled<D::State> {
        let schema = self.engine.domain.schema();
        let general = self.generalise(&mut node, &cand, picks);
        let rule = node.rule(&cand, &general);
        let simple = Simplifier::new(schema).rule(&rule);
        let rule = if simple != rule && matches!(self.check(&simple), Known::Sound) { simple } else { rule };
        Settled { node, cand, rule }
    }

    /// Returns a settled rule only once Z3 proves it sound at the full
    /// bound (`first`: its verdict there, from [`full_verdicts`](Self::full_verdicts));
    /// a counterexample sends the node back to the search (a few times).
    pub(super) fn prove_full(&mut self, mut settled: Settled<D::State>, first: Known<D::State>) -> Option<Learned> {
        let schema = self.engine.domain.schema();
        let mut verdict = Some(first);
        for _ in 0..self.engine.config.full_retries {
            let known = match verdict.take() {
                Some(known) => known,
                None => self.check_at(&settled.rule, true),
            };
            match known {
                Known::Sound => {
                    let rule = settled.rule;
                    return Some(Learned { cost: cost(&rule, schema), rule, bound: self.engine.config.bound });
                }
                Known::Unknown => {
                    self.stats.lost_at_full_bound += 1;
                    self.lost.push(settled.rule);
                    return None;
                }
                Known::Unsound(state) => {
                    let Settled { mut node, cand, .. } = settled;
                    let ex = self.engine.example(state);
                    self.remember(&ex);
                    node.add_example(ex, schema);
                    self.stats.rejected_at_full_bound += 1;
                    let budget = self.engine.config.max_rule_cost;
                    let picks = self.sound_condition(&mut node, &cand, budget)?;
                    settled = self.settle(node, cand, picks);
                }
            }
        }
        None
    }

    /// The cheapest condition for `cand` that Z3 proves sound at the
    /// screening bound.
    pub(super) fn sound_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32) -> Option<Vec<usize>> {
        loop {
            let picks = self.table_condition(node, cand, budget)?;
            match self.prove(node, &node.rule(cand, &picks)) {
                Known::Sound => return Some(picks),
                Known::Unknown => return None,
                Known::Unsound(_) => continue,
            }
        }
    }

    /// The node's actions that make the deduction and are sound on the
    /// specification, cheapest first.
    pub(super) fn actions(&self, terms: &[Term], spec_values: &[i64], spec: &Example<D::State>, deduction: &ActionValue, limit: usize) -> Vec<Candidate> {
        let schema = self.engine.domain.schema();
        // one representative per distinct value keeps the tuple count small
        let mut by_value: FxHashMap<i64, Vec<usize>> = FxHashMap::default();
        for (i, &v) in spec_values.iter().enumerate() {
            by_value.entry(v).or_default().push(i);
        }
        let mut values: Vec<i64> = by_value.keys().copied().collect();
        values.sort_unstable();
        let mut out = vec![];
        for (a, def) in schema.file.actions.iter().enumerate() {
            let id = ActionId(a as u8);
            // every tuple of argument values
            let mut tuples: Vec<Vec<i64>> = vec![vec![]];
            for p in &def.params {
                let choices: Vec<i64> = match p {
                    ParamKind::Bool => vec![0, 1],
                    ParamKind::Int => values.clone(),
                };
                tuples = tuples.into_iter().flat_map(|t| choices.iter().map(move |&c| [t.clone(), vec![c]].concat())).collect();
            }
            for tuple in tuples {
                let value = ActionValue { action: id, args: tuple.clone() };
                if !self.engine.domain.makes(&spec.state, deduction, &value) || !self.engine.domain.is_sound(&spec.state, &value) {
                    continue;
                }
                let mut partial: Vec<(Vec<ArgChoice>, u32)> = vec![(vec![], def.cost)];
                for (p, &v) in def.params.iter().zip(&tuple) {
                    let options: Vec<(ArgChoice, u32)> = match p {
                        ParamKind::Bool => vec![(ArgChoice::Bool(v != 0), schema.costs().bool_literal)],
                        ParamKind::Int => by_value[&v].iter().map(|&i| (ArgChoice::Term(i), terms[i].cost)).collect(),
                    };
                    partial = partial
                        .into_iter()
                        .flat_map(|(args, c)| options.iter().map(move |(o, oc)| ([args.clone(), vec![*o]].concat(), c + oc)))
                        .collect();
                    partial.sort_by_key(|(_, c)| *c);
                    partial.truncate(limit);
                }
                out.extend(partial.into_iter().map(|(args, cost)| Candidate { id, args, cost }));
            }
        }
        out.sort_by(|a, b| (a.cost, a.id, &a.args).cmp(&(b.cost, b.id, &b.args)));
        out.truncate(limit);
        out
    }

    /// The cheapest condition for `cand` within `budget` that is sound on
    /// every known counterexample and on the exhaustive table (CEGIS with
    /// concrete checks only; Z3 comes later).
    pub(super) fn table_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32) -> Option<Vec<usize>> {
        self.concrete_condition(node, cand, budget, None)
    }

    /// Like [`table_condition`](Self::table_condition), but the condition
    /// keeping the most good pairs of the coverage sample (then the
    /// cheapest) within `slack` of the cheapest: how general the action
    /// can be made.
    pub(super) fn widest_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32, slack: u32) -> Option<Vec<usize>> {
        self.concrete_condition(node, cand, budget, Some(slack))
    }

    /// The cheapest condition, or with `wide` the widest within that
    /// slack of the cheapest, that survives the concrete checks.
    pub(super) fn concrete_condition(&mut self, node: &mut Node<D::State>, cand: &Candidate, budget: u32, wide: Option<u32>) -> Option<Vec<usize>> {
        let and = self.engine.domain.schema().costs().and;
        let max_atoms = self.engine.config.max_atoms;
        // the coverage sample's pairs come first and stay: the good pairs
        // are fixed, and the bad ones only grow with the examples refuting adds
        let good = if wide.is_some() { node.good_pairs(cand, self.engine.domain) } else { Bits::new() };
        let (mut bad, mut known) = (Bits::new(), 0);
        loop {
            known = node.extend_bad_pairs(cand, self.engine.domain, &mut bad, known);
            let choices = node.choices(&bad, &good, and);
            let cheapest = cover::cheapest(&choices.list, &bad, budget + and, max_atoms)?;
            let picks = if let Some(slack) = wide {
                // within the slack of the cheapest, as generalisation
                let floor: u32 = cheapest.iter().map(|&i| choices.list[i].cost).sum();
                let budget = (floor + slack).min(budget + and);
                cover::widest(&choices.list, &bad, &good, 0, budget, max_atoms).unwrap_or(cheapest)
            } else {
                cheapest
            };
            let picks: Vec<usize> = picks.into_iter().map(|i| choices.atom[i]).collect();
            self.stats.candidates += 1;
            if !self.refute(node, cand, &picks) {
                return Some(picks);
            }
        }
    }

    /// Z3 at the bound; a counterexample joins the node and the pool.
    pub(super) fn prove(&mut self, node: &mut Node<D::State>, rule: &Rule) -> Known<D::State> {
        let known = self.check(rule);
        if let Known::Unsound(state) = &known {
            let ex = self.engine.example(state.clone());
            self.remember(&ex);
            node.add_example(ex, self.engine.domain.schema());
        }
        known
    }

    /// Condition generalisation: while a condition exists that keeps more
    /// of the good sample pairs (and all the current one keeps), is sound,
    /// and that Z3 proves implied by the current one, take it.
    pub(super) fn generalise(&mut self, node: &mut Node<D::State>, cand: &Candidate, mut picks: Vec<usize>) -> Vec<usize> {
        let engine = self.engine;
        let schema = engine.domain.schema();
        let and = schema.costs().and;
        let budget = node.condition_cost(&picks, schema) + engine.config.generalise_slack;
        let mut banned: FxHashSet<Vec<usize>> = FxHashSet::default();
        let good = node.good_pairs(cand, engine.domain);
        let (mut bad, mut known) = (Bits::new(), 0);
        loop {
            known = node.extend_bad_pairs(cand, engine.domain, &mut bad, known);
            let kept = node.kept(&good, &picks);
            let choices = node.choices(&bad, &good, and);
            // atoms must keep every pair the current condition keeps
            let mut list = vec![];
            let mut atom = vec![];
            for (c, &a) in choices.list.iter().zip(&choices.atom) {
                if kept.is_subset(&c.keeps) {
                    list.push(c.clone());
                    atom.push(a);
                }
            }
            let Some(next) = cover::widest(&list, &bad, &good, kept.count(), budget + and, engine.config.max_atoms) else {
                return picks;
            };
            let mut next: Vec<usize> = next.into_iter().map(|i| atom[i]).collect();
            next.sort_unstable();
            if !banned.insert(next.clone()) {
                return picks;
            }
            self.stats.candidates += 1;
            if self.refute(node, cand, &next) {
                continue;
            }
            let rule = node.rule(cand, &next);
            if !matches!(self.prove(node, &rule), Known::Sound) {
                continue;
            }
            // the old condition must imply the new one on every state
            let old = node.condition(&picks);
            let new = node.condition(&next);
            let query = Rule { condition: BoolExpr::and(vec![old, BoolExpr::Not(Box::new(new))]), ..rule.clone() };
            let started = Instant::now();
            let implied = self.screen.find_state(&query);
            self.stats.z3_time += started.elapsed();
            match implied {
                Ok(None) => picks = next,
                // a state the old condition covers and the new does not:
                // learn it as a good example that must stay covered
                Ok(Some(state)) => node.add_example(engine.example(state), schema),
                Err(_) => self.stats.z3_unknown += 1,
            }
        }
    }

    /// Concrete rejection of the candidate with the condition of atoms
    /// `picks` on the exhaustive table (by the table's pairs where the
    /// space has them, else by interpreting the rule): adds up to a few
    /// failing states to the node (and the pool); whether any was found.
    pub(super) fn refute(&mut self, node: &mut Node<D::State>, cand: &Candidate, picks: &[usize]) -> bool {
        let engine = self.engine;
        let schema = engine.domain.schema();
        let rule = node.rule(cand, picks);
        let key = rule_key(&rule, schema);
        let cached = engine.refuted.lock().expect("table cache").get(&key).cloned();
        let failures = match cached {
            Some(f) => f,
            None => {
                let space = node.space.clone();
                let f = match space.table.as_ref().filter(|_| engine.config.table_pairs) {
                    Some(facts) => facts.failures(engine, &space, node.table_mask(&engine.table, schema, facts), cand, picks),
                    None => table_failures(engine, &rule, node.table_scope(&engine.table, schema)),
                };
                engine.refuted.lock().expect("table cache").insert(key, f.clone());
                f
            }
        };
        if failures.is_empty() {
            return false;
        }
        self.stats.rejected_by_table += 1;
        for i in failures {
            let ex = engine.table[i].clone();
            self.remember(&ex);
            node.add_example(ex, schema);
        }
        true
    }

    /// Z3 soundness of a rule at the bound, through the shared cache.
    pub(super) fn check(&mut self, rule: &Rule) -> Known<D::State> {
        self.check_at(rule, false)
    }

    /// Z3 soundness at the screening bound or (`full`) the full bound.
    pub(super) fn check_at(&mut self, rule: &Rule, full: bool) -> Known<D::State> {
        let engine = self.engine;
        let verifier = if full { &mut *self.full } else { &mut *self.screen };
        let key = verdict_key(verifier.bound(), rule, engine.domain.schema());
        if let Some(k) = engine.verdicts.lock().expect("verdicts").get(&key) {
            self.stats.cached += 1;
            return k.clone();
        }
        let started = Instant::now();
        let verdict = verifier.check(rule);
        let known = self.record(verdict, started.elapsed(), full);
        engine.verdicts.lock().expect("verdicts").insert(key, known.clone());
        known
    }

    /// Counts one Z3 soundness query that took `spent` (at the full bound
    /// or not) and gives its verdict as known.
    fn record(&mut self, verdict: Verdict<D::State>, spent: std::time::Duration, full: bool) -> Known<D::State> {
        self.stats.z3_soundness += 1;
        self.stats.z3_time += spent;
        if full {
            self.stats.z3_full += 1;
            self.stats.z3_full_time += spent;
        }
        match verdict {
            Verdict::Sound => Known::Sound,
            Verdict::Unsound(ce) => {
                self.stats.z3_unsound += 1;
                Known::Unsound(ce.state)
            }
            Verdict::Unknown(_) => {
                self.stats.z3_unknown += 1;
                Known::Unknown
            }
        }
    }

    /// The full-bound verdicts of `rules` (through the shared cache), the
    /// missing ones proven in parallel: every query runs in a fresh Z3
    /// context, so its verdict depends only on the rule, and a worker left
    /// idle at the end of a round takes a long specification's proofs.
    /// Returns the verdicts and the number of Z3 queries made.
    pub(super) fn full_verdicts(&mut self, rules: &[&Rule]) -> (Vec<Known<D::State>>, u64) {
        use rayon::prelude::*;
        let engine = self.engine;
        let schema = engine.domain.schema();
        let (bound, rlimit) = (engine.config.bound, engine.config.rlimit);
        let keys: Vec<String> = rules.iter().map(|r| verdict_key(bound, r, schema)).collect();
        let cached: Vec<Option<Known<D::State>>> = {
            let verdicts = engine.verdicts.lock().expect("verdicts");
            keys.iter().map(|k| verdicts.get(k).cloned()).collect()
        };
        // one query per key not in the cache
        let mut missing: Vec<usize> = (0..rules.len()).filter(|&i| cached[i].is_none()).collect();
        let mut seen = HashSet::new();
        missing.retain(|&i| seen.insert(&keys[i]));
        let answers: Vec<(Verdict<D::State>, std::time::Duration)> = missing
            .par_iter()
            .map(|&i| {
                let started = Instant::now();
                let verdict = Verifier::deterministic(engine.domain, bound, rlimit).check(rules[i]);
                (verdict, started.elapsed())
            })
            .collect();
        let mut proven: HashMap<&String, Known<D::State>> = HashMap::new();
        for (&i, (verdict, spent)) in missing.iter().zip(answers) {
            let known = self.record(verdict, spent, true);
            engine.verdicts.lock().expect("verdicts").insert(keys[i].clone(), known.clone());
            proven.insert(&keys[i], known);
        }
        self.stats.cached += (rules.len() - missing.len()) as u64;
        let out = cached.into_iter().zip(&keys).map(|(c, k)| c.unwrap_or_else(|| proven[k].clone())).collect();
        (out, missing.len() as u64)
    }
}

/// A rule's text without its name: rules found twice print alike.
fn unnamed_text(rule: &Rule, schema: &crate::dsl::schema::Schema) -> String {
    print_rule(&Rule { name: String::new(), ..rule.clone() }, schema)
}

/// The key of a rule's verdict at `bound` in the shared cache.
fn verdict_key(bound: u32, rule: &Rule, schema: &crate::dsl::schema::Schema) -> String {
    format!("{bound}\n{}", rule_key(rule, schema))
}

/// One specification's synthesis, and the comparison of its rules.
impl<'d, D: Symbolic> Engine<'d, D> {
    /// Synthesises the maximally general rules for `spec` (with a fresh Z3
    /// verifier in this thread's context).
    pub fn synthesize(&self, spec: &Spec<D::State>) -> Outcome<D::State> {
        use rayon::prelude::*;
        let started = Instant::now();
        let screen_bound = self.config.screen();
        let mut screen = Verifier::deterministic(self.domain, screen_bound, self.config.rlimit);
        let mut full = Verifier::deterministic(self.domain, self.config.bound, self.config.rlimit);
        let mut stats = Stats::default();
        let mut found: Vec<Learned> = vec![];
        let mut counterexamples = vec![];
        let mut lost = vec![];
        let mut parallel_calls = 0;
        let schema = self.domain.schema();
        let images: Vec<_> = self
            .domain
            .images(&spec.state, &spec.deduction)
            .into_iter()
            .map(|(state, deduction)| {
                let ex = self.example(state);
                let elements = lattice::elements(&ex.view, schema);
                (ex, deduction, elements)
            })
            .collect();
        // fewest bindings first, in every image, until some size gives rules
        // (proven, or lost to Z3's limit and so left to a second proof)
        for size in 1..=schema.file.synthesis.max_decls {
            // The walks of the element sets are independent (each has its own
            // memo and search state; the engine's caches hold answers that
            // depend only on the query), so they run in parallel and are
            // gathered in order: the same result as one after the other.
            let walks: Vec<_> = images
                .iter()
                .flat_map(|(spec_ex, deduction, elements)| lattice::subsets(elements, size).into_iter().map(move |set| (spec_ex, deduction, set)))
                .collect();
            let walked: Vec<_> = walks.par_iter().map(|(spec_ex, deduction, set)| self.walk(spec_ex, deduction, set, screen_bound)).collect();
            let mut settled = vec![];
            for (walk_settled, walk_stats, walk_found, calls) in walked {
                settled.extend(walk_settled);
                stats.add(&walk_stats);
                counterexamples.extend(walk_found);
                parallel_calls += calls;
            }
            // only rules no other one outdoes are worth the full-bound proof
            let keep = self.undominated(&settled);
            let kept: Vec<Settled<D::State>> = settled.into_iter().zip(&keep).filter(|(_, &k)| k).map(|(s, _)| s).collect();
            stats.dominated += (keep.len() - kept.len()) as u64;
            let mut run = Run { engine: self, screen: &mut screen, full: &mut full, stats: Stats::default(), found: vec![], lost: vec![] };
            let (verdicts, queries) = run.full_verdicts(&kept.iter().map(|s| &s.rule).collect::<Vec<_>>());
            parallel_calls += queries;
            for (candidate, verdict) in kept.into_iter().zip(verdicts) {
                found.extend(run.prove_full(candidate, verdict));
            }
            stats.add(&run.stats);
            counterexamples.extend(run.found);
            lost.extend(run.lost);
            if !(found.is_empty() && lost.is_empty()) && !self.config.all_sizes {
                break;
            }
        }
        stats.z3_calls = screen.calls() + full.calls() + parallel_calls;
        let mut seen = HashSet::new();
        let mut rules: Vec<Learned> = found
            .into_iter()
            .filter(|l| seen.insert(unnamed_text(&l.rule, schema)))
            .collect();
        rules.sort_by_key(|l| l.cost);
        let mut seen_lost = HashSet::new();
        lost.retain(|rule: &Rule| seen_lost.insert(unnamed_text(rule, schema)));
        Outcome { rules, stats, time: started.elapsed(), counterexamples, lost }
    }

    /// One element set's lattice walk: its maximal nodes' rules, settled
    /// (sound at the screening bound), with the walk's counters, the
    /// counterexamples it found and its Z3 query count (in fresh verifiers
    /// of its own, so walks can run in parallel).
    fn walk(&self, spec_ex: &Arc<Example<D::State>>, deduction: &ActionValue, set: &[lattice::Element], screen_bound: u32) -> (Vec<Settled<D::State>>, Stats, Vec<D::State>, u64) {
        let schema = self.domain.schema();
        let mut screen = Verifier::deterministic(self.domain, screen_bound, self.config.rlimit);
        let mut full = Verifier::deterministic(self.domain, self.config.bound, self.config.rlimit);
        let mut run = Run { engine: self, screen: &mut screen, full: &mut full, stats: Stats::default(), found: vec![], lost: vec![] };
        let memo = Arc::default();
        let solve = |decls: &[Decl], binding: &Binding| run.solve_node(spec_ex, deduction, decls, binding, &memo);
        let score = |s: &Solved<D::State>| (s.general, std::cmp::Reverse(s.cost));
        let maximal = if self.config.explore {
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
        (settled, stats, found, screen.calls() + full.calls())
    }

    /// Which of a specification's rules to keep: a rule is dropped when
    /// another makes everything it gains on every table state (each of its
    /// productive applications is made by one of the other's on the same
    /// state), unless the two gain alike and it is the cheaper (or, at
    /// equal cost, the earlier) one.
    pub(super) fn undominated(&self, settled: &[Settled<D::State>]) -> Vec<bool> {
        use rayon::prelude::*;
        let schema = self.domain.schema();
        let domain = self.domain;
        // per rule, per table state, its productive applications
        let gains: Vec<Vec<Vec<ActionValue>>> = settled
            .iter()
            .map(|s| {
                self.table
                    .par_iter()
                    .map(|ex| {
                        let interp = Interpreter::new(&s.rule, &ex.view, schema.size_feature);
                        interp.applications().into_iter().map(|(_, a)| a).filter(|a| domain.productive(&ex.state, a)).collect()
                    })
                    .collect()
            })
            .collect();
        let outdoes = |b: usize, a: usize| {
            self.table.iter().enumerate().all(|(t, ex)| gains[a][t].iter().all(|x| gains[b][t].iter().any(|y| domain.makes(&ex.state, x, y))))
        };
        let rank = |i: usize| (cost(&settled[i].rule, schema), i);
        (0..settled.len())
            .map(|a| !(0..settled.len()).any(|b| b != a && outdoes(b, a) && (!outdoes(a, b) || rank(b) < rank(a))))
            .collect()
    }
}
