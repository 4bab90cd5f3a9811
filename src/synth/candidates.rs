//! A run's candidates at a lattice node: the actions that make the
//! deduction on the specification ([`Run::actions`]), and for one action
//! the cheapest (or widest) condition that survives the concrete checks —
//! a covering problem over the node's bad and good pairs
//! ([`set_cover`](super::set_cover)), then the exhaustive table
//! ([`Run::refute`]), whose failing states join the node until the
//! condition survives (CEGIS without Z3).

use super::bits::Bits;
use super::domain::{Example, Symbolic};
use super::node::Node;
use super::run::Run;
use super::set_cover;
use super::shared::text_key;
use super::space::{ArgChoice, Candidate, Term};
use crate::dsl::ast::{ActionId, Decl, Var};
use crate::dsl::eval::{ActionValue, Binding};
use crate::dsl::schema::{ActionDef, ParamKind};
use rustc_hash::FxHashMap;

impl<'d, D: Symbolic> Run<'_, 'd, '_, D> {
    /// The node's actions that make the deduction and are sound on the
    /// specification, cheapest first. An element argument (Flow's
    /// `link(c, d)`) is a pattern variable of the action's element type,
    /// its value the element `binding` binds it to on the specification.
    pub(super) fn actions(
        &self,
        terms: &[Term],
        spec_values: &[i64],
        (spec, binding, decls): (&Example<D::State>, &Binding, &[Decl]),
        deduction: &ActionValue,
        limit: usize,
    ) -> Vec<Candidate> {
        let domain = self.shared.domain;
        let schema = domain.schema();
        // the variables an element parameter of `def` may name, with their elements
        let element_vars = |def: &ActionDef| -> Vec<(Var, i64)> {
            let ty = def.element.as_deref().and_then(|t| schema.type_id(t));
            (0..decls.len()).filter(|&v| Some(decls[v].ty) == ty).map(|v| (v as Var, binding[v] as i64)).collect()
        };
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
            let vars = element_vars(def);
            let mut elements: Vec<i64> = vars.iter().map(|&(_, e)| e).collect();
            elements.sort_unstable();
            elements.dedup();
            // every tuple of argument values
            let mut tuples: Vec<Vec<i64>> = vec![vec![]];
            for p in &def.params {
                let choices: Vec<i64> = match p {
                    ParamKind::Bool => vec![0, 1],
                    ParamKind::Int => values.clone(),
                    ParamKind::Element => elements.clone(),
                };
                tuples = tuples
                    .into_iter()
                    .flat_map(|t| choices.iter().map(move |&c| [t.clone(), vec![c]].concat()))
                    .collect();
            }
            for tuple in tuples {
                let value = ActionValue { action: id, args: tuple.clone() };
                if !domain.makes(&spec.state, deduction, &value) || !domain.is_sound(&spec.state, &value) {
                    continue;
                }
                let mut partial: Vec<(Vec<ArgChoice>, u32)> = vec![(vec![], def.cost)];
                for (p, &v) in def.params.iter().zip(&tuple) {
                    let options: Vec<(ArgChoice, u32)> = match p {
                        ParamKind::Bool => vec![(ArgChoice::Bool(v != 0), schema.costs().bool_literal)],
                        ParamKind::Int => by_value[&v].iter().map(|&i| (ArgChoice::Term(i), terms[i].cost)).collect(),
                        ParamKind::Element => vars
                            .iter()
                            .filter(|&&(_, e)| e == v)
                            .map(|&(var, _)| (ArgChoice::Element(var), schema.costs().element))
                            .collect(),
                    };
                    partial = partial
                        .into_iter()
                        .flat_map(|(args, c)| {
                            options.iter().map(move |(o, oc)| ([args.clone(), vec![*o]].concat(), c + oc))
                        })
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
    pub(super) fn table_condition(
        &mut self,
        node: &mut Node<'d, D>,
        cand: &Candidate,
        budget: u32,
    ) -> Option<Vec<usize>> {
        self.concrete_condition(node, cand, budget, None)
    }

    /// Like [`table_condition`](Self::table_condition), but the condition
    /// keeping the most good pairs of the coverage sample (then the
    /// cheapest) within `slack` of the cheapest: how general the action
    /// can be made.
    pub(super) fn widest_condition(
        &mut self,
        node: &mut Node<'d, D>,
        cand: &Candidate,
        budget: u32,
        slack: u32,
    ) -> Option<Vec<usize>> {
        self.concrete_condition(node, cand, budget, Some(slack))
    }

    /// The cheapest condition, or with `wide` the widest within that
    /// slack of the cheapest, that survives the concrete checks.
    pub(super) fn concrete_condition(
        &mut self,
        node: &mut Node<'d, D>,
        cand: &Candidate,
        budget: u32,
        wide: Option<u32>,
    ) -> Option<Vec<usize>> {
        let and = self.shared.domain.schema().costs().and;
        let max_atoms = self.shared.config.max_atoms;
        // the coverage sample's pairs come first and stay: the good pairs
        // are fixed, and the bad ones only grow with the examples refuting adds
        let good = if wide.is_some() { node.good_pairs(cand) } else { Bits::new() };
        let (mut bad, mut known) = (Bits::new(), 0);
        loop {
            known = node.extend_bad_pairs(cand, &mut bad, known);
            let choices = node.choices(&bad, &good, and, budget + and);
            let cheapest = set_cover::cheapest(&choices.list, &bad, budget + and, max_atoms)?;
            let picks = if let Some(slack) = wide {
                // within the slack of the cheapest, as generalisation
                let floor: u32 = cheapest.iter().map(|&i| choices.list[i].cost).sum();
                let budget = (floor + slack).min(budget + and);
                set_cover::widest(&choices.list, &bad, &good, 0, budget, max_atoms).unwrap_or(cheapest)
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

    /// Concrete rejection of the candidate with the condition of atoms
    /// `picks` on the exhaustive table (by the table's pairs where the
    /// space has them, else by interpreting the rule): adds up to a few
    /// failing states to the node (and the pool); whether any was found.
    pub(super) fn refute(&mut self, node: &mut Node<'d, D>, cand: &Candidate, picks: &[usize]) -> bool {
        let shared = self.shared;
        let rule = node.rule(cand, picks);
        let key = text_key(&rule, shared.domain.schema());
        let cached = shared.refuted.lock().expect("table cache").get(&key).cloned();
        let failures = match cached {
            Some(f) => f,
            None => {
                let space = node.space.clone();
                let check = shared.table_check();
                let f = match space.table.as_ref().filter(|_| shared.config.table_pairs) {
                    Some(facts) => facts.failures(&check, &space, node.table_mask(&shared.table, facts), cand, picks),
                    None => check.failures(&rule, node.table_scope(&shared.table)),
                };
                shared.refuted.lock().expect("table cache").insert(key, f.clone());
                f
            }
        };
        if failures.is_empty() {
            return false;
        }
        self.stats.rejected_by_table += 1;
        let failures: Vec<_> = failures.into_iter().map(|i| shared.table[i].clone()).collect();
        failures.iter().for_each(|ex| self.remember(ex));
        node.add_examples(failures);
        true
    }
}
