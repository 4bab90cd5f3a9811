//! What the engine shares between runs and threads, as data: states with
//! their views, the counterexample pool, cached verdicts, the term and atom
//! spaces per list of variable types (with the table's pairs over them),
//! and a rule's identity for the caches.
//! Nothing here changes what a run decides (see the determinism note in
//! [`engine`](super::engine)).

use super::space::{Atom, Term, TermPlan};
use super::table::TableFacts;
use crate::dsl::ast::Rule;
use crate::dsl::eval::{Interpreter, View};
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

/// Terms and atoms over one list of variable types, and the table's pairs
/// over those types (`None` if too many: see [`TableFacts`]).
pub(super) struct Space {
    pub(super) terms: Vec<Term>,
    pub(super) plan: TermPlan,
    pub(super) atoms: Vec<Atom>,
    pub(super) table: Option<TableFacts>,
}

impl Space {
    /// The value of every term under `binding` (in one pass: [`TermPlan`]).
    pub(super) fn term_values(&self, interp: &Interpreter<'_>, binding: &[usize]) -> Vec<i64> {
        self.plan.values(&self.terms, interp, binding)
    }
}

/// A rule's identity for the caches: its text without name or comments.
pub(super) fn rule_key(rule: &Rule, schema: &Schema) -> String {
    print_rule(&Rule { name: String::new(), description: vec![], ..rule.clone() }, schema)
}
