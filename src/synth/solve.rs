//! A run's search at one lattice node ([`Run::solve_node`]): the node
//! opened on its coverage sample and the pool's latest counterexamples,
//! its candidate rules ranked (per action the cheapest condition that
//! survives the concrete checks under a cost ceiling, and for the most
//! general actions the widest), and the best one Z3 proves sound at the
//! screening bound.

use super::domain::{Example, Symbolic};
use super::holds::{holds, Holds};
use super::node::{Breadth, Node, PairMemo, Pairs};
use super::run::{Ranked, Ranking, Run, Solved};
use super::space::Candidate;
use super::verify::Verdict;
use crate::dsl::ast::{Action, ActionId, BoolExpr, Decl, Rule, TypeId};
use crate::dsl::eval::{ActionValue, Binding, Interpreter};
use std::sync::Arc;

impl<'d, D: Symbolic> Run<'_, 'd, '_, D> {
    /// The most general sound rule (sample coverage, then cost) of one
    /// lattice node, if any, with the node's search state (`memo`: what
    /// terms and atoms are on the pairs this lattice walk has met).
    pub(super) fn solve_node(
        &mut self,
        spec: &Arc<Example<D::State>>,
        deduction: &ActionValue,
        decls: &[Decl],
        binding: &Binding,
        memo: &Arc<PairMemo<D::State>>,
    ) -> Option<Solved<'d, D>> {
        self.stats.patterns_tried += 1;
        let shared = self.shared;
        let config = &shared.config;
        let (mut node, candidates) = self.open_node(spec, deduction, (decls, binding), memo)?;
        let ranking = Ranking { decl_cost: node.decl_cost(), breadth: Breadth::States };
        let wanted = [(Breadth::States, config.max_general_actions), (Breadth::Cells, config.wide_actions)];
        let [general, wide]: [Vec<usize>; 2] =
            node.most_general(&candidates, &wanted).try_into().expect("one list per breadth");
        let wide = wide.into_iter().map(|i| candidates[i].clone()).collect();
        let (mut ranked, limit) = self.rank_candidates(&mut node, &candidates, &general, ranking);
        let best = self.best_sound(&mut node, &mut ranked, limit, ranking)?;
        let general = self.shared.generality(&node.rule(&best.cand, &best.picks));
        let cheaper = ranked.into_iter().filter(|r| r.cost < best.cost).collect();
        Some(Solved { node, cand: best.cand, picks: best.picks, general, cost: best.cost, cheaper, wide })
    }

    /// The node of the patterns `decls` bound as `binding` on the
    /// specification, with its examples (the coverage sample first:
    /// candidates are ranked on it; table states the patterns bind on,
    /// evenly spread; then the most recent counterexamples of the pool it sees),
    /// and its candidate actions; `None` if it has none.
    fn open_node(
        &mut self,
        spec: &Arc<Example<D::State>>,
        deduction: &ActionValue,
        (decls, binding): (&[Decl], &Binding),
        memo: &Arc<PairMemo<D::State>>,
    ) -> Option<(Node<'d, D>, Vec<Candidate>)> {
        let shared = self.shared;
        let config = &shared.config;
        let types: Vec<TypeId> = decls.iter().map(|d| d.ty).collect();
        let space = shared.space(&types);
        let skeleton = Rule {
            name: String::new(),
            description: vec![],
            decls: decls.to_vec(),
            condition: BoolExpr::True,
            action: Action { id: ActionId(0), args: vec![] },
        };
        let interp = Interpreter::new(&skeleton, &spec.view, shared.domain.schema().size_feature);
        let spec_values = space.term_values(&interp, binding);
        let live: Vec<usize> =
            (0..space.atoms.len()).filter(|&a| holds(&space.atoms[a], &spec_values, &interp, binding)).collect();
        let candidates =
            self.actions(&space.terms, &spec_values, (spec, binding, decls), deduction, config.max_generality_pool);
        if candidates.is_empty() {
            return None;
        }
        let live_count = live.len();
        let mut node = Node {
            domain: shared.domain,
            skeleton,
            space: space.clone(),
            live,
            examples: vec![],
            sample: 0,
            scope: None,
            mask: None,
            pairs: Pairs { pairs: vec![], values: vec![], holds: Holds::new(live_count) },
            memo: memo.clone(),
            columns: None,
            widen: None,
        };
        let scope = node.table_scope(&shared.table);
        let step = (scope.len() / config.coverage_sample.max(1)).max(1);
        let coverage: Vec<_> =
            scope.iter().step_by(step).take(config.coverage_sample).map(|&i| shared.table[i].clone()).collect();
        node.sample = coverage.len();
        let start: Vec<_> = {
            let pool = shared.pool.lock().expect("pool");
            pool.examples[..self.seen.min(pool.examples.len())].iter().rev().take(config.pool_start).cloned().collect()
        };
        node.add_examples(coverage.into_iter().chain(start));
        Some((node, candidates))
    }

    /// The node's candidate rules, and the cost limit they rank under.
    /// Per action (cheapest first), the cheapest condition that survives
    /// the concrete checks; the cheapest such rule fixes a cost ceiling
    /// (plus the slack). The `general` actions (those most often sound and
    /// productive on the sample by themselves) compete too with their
    /// widest condition, whatever their cost: a general action made of
    /// costlier terms is what makes a widely applicable rule.
    fn rank_candidates(
        &mut self,
        node: &mut Node<'d, D>,
        candidates: &[Candidate],
        general: &[usize],
        ranking: Ranking,
    ) -> (Vec<Ranked>, u32) {
        let shared = self.shared;
        let config = &shared.config;
        let (slack, max_cost, decl_cost) = (config.generalise_slack, config.max_rule_cost, ranking.decl_cost);
        let mut ceiling: Option<u32> = None;
        let mut ranked: Vec<Ranked> = vec![];
        for (order, cand) in candidates.iter().enumerate().take(config.max_actions) {
            let budget = ceiling.map_or(max_cost, |c| c + slack);
            if decl_cost + cand.cost > budget {
                break;
            }
            if let Some(picks) = self.table_condition(node, cand, budget - decl_cost - cand.cost) {
                let r = ranking.rank(node, cand.clone(), picks, order);
                ceiling = Some(ceiling.map_or(r.cost, |c| c.min(r.cost)));
                ranked.push(r);
            }
        }
        let limit = ceiling.unwrap_or(max_cost) + slack;
        ranked.retain(|r| r.cost <= limit);
        for &order in general {
            let cand = &candidates[order];
            // (one already ranked with its cheapest condition competes
            // again with its widest)
            if decl_cost + cand.cost > max_cost {
                continue;
            }
            if let Some(picks) = self.widest_condition(node, cand, max_cost - decl_cost - cand.cost, slack) {
                ranked.push(ranking.rank(node, cand.clone(), picks, order));
            }
        }
        (ranked, limit)
    }

    /// The best ranked candidate Z3 proves sound at the screening bound
    /// (taken out of `ranked`). One that counterexamples met since it was
    /// ranked refute, or that Z3 refutes, is ranked again with a new
    /// condition within `limit` (or its own cost); one Z3 gives no answer
    /// on is dropped.
    fn best_sound(
        &mut self,
        node: &mut Node<'d, D>,
        ranked: &mut Vec<Ranked>,
        limit: u32,
        ranking: Ranking,
    ) -> Option<Ranked> {
        loop {
            ranked.sort_by_key(|r| r.rank());
            if ranked.is_empty() {
                return None;
            }
            let r = ranked.remove(0);
            // counterexamples met since it was ranked may refute it
            if node.consistent(&r.cand, &r.picks) {
                let rule = node.rule(&r.cand, &r.picks);
                match self.prove(node, &rule) {
                    Verdict::Sound => return Some(r),
                    Verdict::Unknown(_) => continue,
                    Verdict::Unsound(_) => {}
                }
            }
            let budget = limit.max(r.cost) - ranking.decl_cost - r.cand.cost;
            if let Some(picks) = self.table_condition(node, &r.cand, budget) {
                ranked.push(ranking.rank(node, r.cand, picks, r.order));
            }
        }
    }
}
