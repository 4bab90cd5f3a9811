//! A run's maximal nodes made final: beside the node's most general rule,
//! its cheapest sound rule where that is cheaper ([`Run::cheapest`]) and
//! its widest where that gains more ([`Run::widest`]); each kept rule's
//! condition generalised while Z3 proves a wider one implied
//! ([`Run::generalise`]) and rewritten to its cheapest equal form
//! ([`Run::settle`]); and the full-bound proof that a returned rule must
//! pass, a counterexample sending the node back to the search
//! ([`Run::prove_full`]).

use super::bits::Bits;
use super::domain::Symbolic;
use super::node::{Breadth, Node};
use super::outcome::Learned;
use super::run::{Ranking, Run, Settled, Solved};
use super::set_cover;
use super::space::Candidate;
use super::verify::Verdict;
use crate::dsl::ast::{BoolExpr, Rule};
use crate::dsl::cost::cost;
use crate::dsl::rewrite::Simplifier;
use rustc_hash::FxHashSet;
use std::time::Instant;

impl<'d, D: Symbolic> Run<'_, 'd, '_, D> {
    /// At a maximal node, the cheapest sound rule cheaper than the node's
    /// most general one (the two are incomparable: one is cheaper, the
    /// other wider), if any: the cheaper candidates in order of cost, each
    /// with its cheapest condition still consistent, proven by Z3 at the
    /// screening bound (a few tries).
    pub(super) fn cheapest(&mut self, solved: &mut Solved<'d, D>) -> Option<(Candidate, Vec<usize>)> {
        let mut rest = std::mem::take(&mut solved.cheaper);
        rest.sort_by_key(|r| (r.cost, r.order));
        let decl_cost = solved.node.decl_cost();
        for r in rest.into_iter().take(self.shared.config.cheapest_tries) {
            let budget = (solved.cost - 1).saturating_sub(decl_cost + r.cand.cost);
            let picks = if solved.node.consistent(&r.cand, &r.picks) {
                Some(r.picks)
            } else {
                self.table_condition(&mut solved.node, &r.cand, budget)
            };
            let Some(picks) = picks else { continue };
            let rule = solved.node.rule(&r.cand, &picks);
            if cost(&rule, self.shared.domain.schema()) >= solved.cost {
                continue;
            }
            if let Verdict::Sound = self.prove(&mut solved.node, &rule) {
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
    pub(super) fn widest(&mut self, solved: &mut Solved<'d, D>) -> Option<(Candidate, Vec<usize>)> {
        let shared = self.shared;
        let config = &shared.config;
        let max_cost = config.max_rule_cost;
        let ranking = Ranking { decl_cost: solved.node.decl_cost(), breadth: Breadth::Cells };
        let decl_cost = ranking.decl_cost;
        let floor = solved.node.covered(&solved.cand, &solved.picks, Breadth::Cells);
        let mut ranked = vec![];
        for (order, cand) in std::mem::take(&mut solved.wide).into_iter().enumerate() {
            if decl_cost + cand.cost > max_cost {
                continue;
            }
            if let Some(picks) =
                self.widest_condition(&mut solved.node, &cand, max_cost - decl_cost - cand.cost, config.wide_slack)
            {
                ranked.push(ranking.rank(&solved.node, cand, picks, order));
            }
        }
        ranked.retain(|r| r.covered > floor);
        ranked.sort_by_key(|r| r.rank());
        for r in ranked {
            // counterexamples found meanwhile may refute it
            if !solved.node.consistent(&r.cand, &r.picks) {
                continue;
            }
            let rule = solved.node.rule(&r.cand, &r.picks);
            if let Verdict::Sound = self.prove(&mut solved.node, &rule) {
                return Some((r.cand, r.picks));
            }
        }
        None
    }

    /// A maximal node's rule made final: its condition generalised, then
    /// rewritten to the cheapest equal form (kept only if Z3 agrees it is
    /// sound at the screening bound).
    pub(super) fn settle(&mut self, mut node: Node<'d, D>, cand: Candidate, picks: Vec<usize>) -> Settled<'d, D> {
        let schema = self.shared.domain.schema();
        let general = self.generalise(&mut node, &cand, picks);
        let rule = node.rule(&cand, &general);
        let simple = Simplifier::new(schema).rule(&rule);
        let rule = if simple != rule && matches!(self.check(&simple), Verdict::Sound) { simple } else { rule };
        Settled { node, cand, rule }
    }

    /// Returns a settled rule only once Z3 proves it sound at the full
    /// bound (`first`: its verdict there, from [`full_verdicts`](Self::full_verdicts));
    /// a counterexample sends the node back to the search (a few times).
    pub(super) fn prove_full(&mut self, mut settled: Settled<'d, D>, first: Verdict<D::State>) -> Option<Learned> {
        let schema = self.shared.domain.schema();
        let mut first = Some(first);
        for _ in 0..self.shared.config.full_retries {
            let verdict = match first.take() {
                Some(verdict) => verdict,
                None => self.check_at(&settled.rule, true),
            };
            match verdict {
                Verdict::Sound => {
                    let rule = settled.rule;
                    return Some(Learned { cost: cost(&rule, schema), rule, bound: self.shared.config.bound });
                }
                Verdict::Unknown(_) => {
                    self.stats.lost_at_full_bound += 1;
                    self.lost.push(settled.rule);
                    return None;
                }
                Verdict::Unsound(state) => {
                    let Settled { mut node, cand, .. } = settled;
                    self.learn_from(&mut node, state);
                    self.stats.rejected_at_full_bound += 1;
                    let budget = self.shared.config.max_rule_cost;
                    let picks = self.sound_condition(&mut node, &cand, budget)?;
                    settled = self.settle(node, cand, picks);
                }
            }
        }
        None
    }

    /// The cheapest condition for `cand` that Z3 proves sound at the
    /// screening bound.
    pub(super) fn sound_condition(
        &mut self,
        node: &mut Node<'d, D>,
        cand: &Candidate,
        budget: u32,
    ) -> Option<Vec<usize>> {
        loop {
            let picks = self.table_condition(node, cand, budget)?;
            match self.prove(node, &node.rule(cand, &picks)) {
                Verdict::Sound => return Some(picks),
                Verdict::Unknown(_) => return None,
                Verdict::Unsound(_) => continue,
            }
        }
    }

    /// Condition generalisation: while a condition exists that keeps more
    /// of the good pairs (and all the current one keeps), is sound, and
    /// that Z3 proves implied by the current one, take it. The good pairs
    /// are those of the coverage sample and of the domain's
    /// [`widen_states`](super::domain::Domain::widen_states) the node binds
    /// on: where the coverage sample holds no state the action is right on
    /// (Witness's marks and dots), those are what tell a condition from a
    /// wider one.
    pub(super) fn generalise(&mut self, node: &mut Node<'d, D>, cand: &Candidate, mut picks: Vec<usize>) -> Vec<usize> {
        let shared = self.shared;
        let and = shared.domain.schema().costs().and;
        let budget = node.condition_cost(&picks) + shared.config.widen_slack;
        let mut banned: FxHashSet<Vec<usize>> = FxHashSet::default();
        let mut good = node.good_pairs(cand);
        if !shared.widen.is_empty() {
            let widen = node.widen_pairs(&shared.widen);
            good = good.union(&node.good_pairs_in(cand, widen));
        }
        let (mut bad, mut known) = (Bits::new(), 0);
        loop {
            known = node.extend_bad_pairs(cand, &mut bad, known);
            let kept = node.kept(&good, &picks);
            let choices = node.choices(&bad, &good, and, budget + and);
            // atoms must keep every pair the current condition keeps
            let mut list = vec![];
            let mut atom = vec![];
            for (c, &a) in choices.list.iter().zip(&choices.atom) {
                if kept.is_subset(&c.keeps) {
                    list.push(c.clone());
                    atom.push(a);
                }
            }
            let Some(next) = set_cover::widest(&list, &bad, &good, kept.count(), budget + and, shared.config.max_atoms)
            else {
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
            if !matches!(self.prove(node, &rule), Verdict::Sound) {
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
                Ok(Some(state)) => node.add_example(shared.example(state)),
                Err(_) => self.stats.z3_unknown += 1,
            }
        }
    }
}
