//! The engine's shared state and what is measured on it: the exhaustive
//! table of small states (and the generality basis drawn from it), the
//! counterexample pool, the caches of verdicts, table refutations and term
//! spaces, and the concrete checks over the table (which table states a
//! rule is wrong on, how general a rule is, which rules outdo others).
//! Shared by every specification and thread of a run; nothing here
//! changes what a run decides (see the determinism note in
//! [`engine`](super::engine)).

use super::engine::Engine;
use super::domain::Symbolic;
use super::search::Settled;
use super::space::{atoms, int_terms, Atom, Term};
use crate::dsl::ast::{Rule, TypeId};
use crate::dsl::cost::cost;
use crate::dsl::eval::{ActionValue, Interpreter, View};
use crate::dsl::print::print_rule;
use crate::dsl::schema::Schema;
use std::collections::HashSet;
use std::sync::Arc;

/// Counterexample states shared by all runs.
pub(super) struct Pool<S> {
    pub(super) examples: Vec<Arc<Example<S>>>,
    /// `show` of every state held.
    pub(super) keys: HashSet<String>,
}

/// A state with its view.
pub(super) struct Example<S> {
    pub(super) state: S,
    pub(super) view: View,
}

/// A cached soundness verdict.
#[derive(Clone)]
pub(super) enum Known<S> {
    Sound,
    Unsound(S),
    Unknown,
}

/// Terms and atoms over one list of variable types.
pub(super) struct Space {
    pub(super) terms: Vec<Term>,
    pub(super) atoms: Vec<Atom>,
}

impl<'d, D: Symbolic> Engine<'d, D> {

    pub(super) fn space(&self, types: &[TypeId]) -> Arc<Space> {
        if let Some(s) = self.spaces.lock().expect("space cache").get(types) {
            return s.clone();
        }
        let schema = self.domain.schema();
        let terms = int_terms(schema, types, self.config.max_term_cost);
        let atoms = atoms(schema, types, &terms, self.config.max_left_cost, self.config.max_atom_cost);
        let space = Arc::new(Space { terms, atoms });
        self.spaces.lock().expect("space cache").insert(types.to_vec(), space.clone());
        space
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

    /// How many states of the generality sample `rule` gains on.
    pub(super) fn generality(&self, rule: &Rule) -> usize {
        use rayon::prelude::*;
        let size = self.domain.schema().size_feature;
        self.basis
            .par_iter()
            .filter(|ex| Interpreter::new(rule, &ex.view, size).applications().iter().any(|(_, a)| self.domain.productive(&ex.state, a) && self.domain.is_sound(&ex.state, a)))
            .count()
    }

    pub(super) fn example(&self, state: D::State) -> Arc<Example<D::State>> {
        Arc::new(Example { view: self.domain.view(&state), state })
    }

}

/// A rule's identity for the caches: its text without name or comments.
pub(super) fn rule_key(rule: &Rule, schema: &Schema) -> String {
    print_rule(&Rule { name: String::new(), description: vec![], ..rule.clone() }, schema)
}

/// The table states (indices, ascending) in `scope` on which `rule` is
/// wrong: the first few, found chunk by chunk in parallel.
pub(super) fn table_failures<D: Symbolic>(engine: &Engine<'_, D>, rule: &Rule, scope: &[usize]) -> Vec<usize> {
    use rayon::prelude::*;
    let size = engine.domain.schema().size_feature;
    let wrong = |&i: &usize| {
        let ex = &engine.table[i];
        let interp = Interpreter::new(rule, &ex.view, size);
        let mut wrong = false;
        interp.for_each_binding(|b| {
            if !wrong && interp.eval_bool(&rule.condition, b) && !engine.domain.is_sound(&ex.state, &interp.eval_action(b)) {
                wrong = true;
            }
        });
        wrong
    };
    for chunk in scope.chunks(engine.config.table_chunk) {
        let mut found: Vec<usize> = chunk.par_iter().filter(|i| wrong(i)).copied().collect();
        if !found.is_empty() {
            found.truncate(engine.config.table_failures);
            return found;
        }
    }
    vec![]
}
