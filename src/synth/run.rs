//! One specification's search under way ([`Run`]): the run-wide state it
//! reads, its two verifiers (the screening bound decides the search, the
//! full bound confirms every returned rule), its counters, and what it
//! found; and the results it passes from step to step: a candidate rule
//! ranked at a node ([`Ranked`]), a node's best sound rule ([`Solved`]), a
//! maximal node's final rule awaiting its full-bound proof ([`Settled`]).
//! The steps are `impl Run` blocks by job: [`proofs`](super::proofs),
//! [`candidates`](super::candidates), [`solve`](super::solve),
//! [`finish`](super::finish).

use super::domain::{Example, Symbolic};
use super::node::{Breadth, Node};
use super::outcome::Stats;
use super::shared::Shared;
use super::space::Candidate;
use super::verify::Verifier;
use crate::dsl::ast::Rule;
use std::sync::Arc;

/// One specification's search state.
pub(super) struct Run<'e, 'd, 'v, D: Symbolic> {
    pub(super) shared: &'e Shared<'d, D>,
    /// Z3 at the screening bound: decides the search.
    pub(super) screen: &'v mut Verifier<'d, D>,
    /// Z3 at the full bound: confirms every returned rule.
    pub(super) full: &'v mut Verifier<'d, D>,
    pub(super) stats: Stats,
    /// Counterexamples found (published when the run is over).
    pub(super) found: Vec<D::State>,
    /// Rules whose full-bound proof ran out of Z3's resource limit.
    pub(super) lost: Vec<Rule>,
    /// How many of the pool's first states it sees (those published
    /// before it started, or fewer: see [`Engine::synthesize_seeing`](super::Engine::synthesize_seeing)).
    pub(super) seen: usize,
}

impl<'e, 'd, 'v, D: Symbolic> Run<'e, 'd, 'v, D> {
    /// A run on `shared` with these verifiers, seeing the pool's first
    /// `seen` states, nothing found yet.
    pub(super) fn new(
        shared: &'e Shared<'d, D>,
        screen: &'v mut Verifier<'d, D>,
        full: &'v mut Verifier<'d, D>,
        seen: usize,
    ) -> Self {
        Run { shared, screen, full, stats: Stats::default(), found: vec![], lost: vec![], seen }
    }

    /// Keeps a counterexample for the pool.
    pub(super) fn remember(&mut self, ex: &Arc<Example<D::State>>) {
        self.found.push(ex.state.clone());
    }

    /// A counterexample met at `node`: it joins the node and the pool.
    pub(super) fn learn_from(&mut self, node: &mut Node<'d, D>, state: D::State) {
        let ex = self.shared.example(state);
        self.remember(&ex);
        node.add_example(ex);
    }
}

/// A lattice node with the sound rule found there.
pub(super) struct Solved<'d, D: Symbolic> {
    pub(super) node: Node<'d, D>,
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
pub(super) struct Settled<'d, D: Symbolic> {
    pub(super) node: Node<'d, D>,
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
    /// Most general first, then cheapest, then first enumerated.
    pub(super) fn rank(&self) -> (std::cmp::Reverse<usize>, u32, usize) {
        (std::cmp::Reverse(self.covered), self.cost, self.order)
    }
}

/// How the candidates of one node are ranked: the cost of the node's
/// declarations (part of every rule's cost there) and the breadth they
/// compete by.
#[derive(Clone, Copy)]
pub(super) struct Ranking {
    pub(super) decl_cost: u32,
    pub(super) breadth: Breadth,
}

impl Ranking {
    /// The candidate `cand` (the `order`-th action) with the condition of
    /// atoms `picks`, ranked at `node`.
    pub(super) fn rank<D: Symbolic>(
        &self,
        node: &Node<'_, D>,
        cand: Candidate,
        picks: Vec<usize>,
        order: usize,
    ) -> Ranked {
        let cost = self.decl_cost + cand.cost + node.condition_cost(&picks);
        let covered = node.covered(&cand, &picks, self.breadth);
        Ranked { cand, picks, cost, covered, order }
    }
}
