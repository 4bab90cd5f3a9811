//! Puzzle domains and the one trait through which they plug into the engine.
//!
//! A domain supplies its schema (the DSL file), a concrete view of a state
//! for the interpreter, an exact oracle for whether an action follows from a
//! state, and a symbolic encoding of every state up to a bound for Z3. The
//! engine (dsl, synth, select) is written against [`Domain`] only.

pub mod nonogram;
pub mod witness;

use crate::dsl::eval::{ActionValue, View};
use crate::dsl::schema::Schema;
use crate::dsl::symbolic::SymView;
use crate::dsl::symbolic::Num;
use z3::ast::Bool;
use z3::Model;

/// A symbolic state up to a bound: its view for the rule compiler, the
/// constraints that make it a valid state, and whatever the domain needs to
/// say what is wrong and to read a counterexample back.
pub struct Encoding<E> {
    /// Elements and globals as Z3 terms.
    pub view: SymView,
    /// The state is valid (some solution exists) and within the bound.
    pub valid: Bool,
    /// Domain-specific terms (cells, solution, ...).
    pub extra: E,
}

/// What a puzzle domain supplies to the engine.
pub trait Domain: Send + Sync {
    /// A concrete state, carrying what the oracle needs to judge actions on
    /// it (e.g. a line and its maximal transition).
    type State: Clone + Send + Sync + std::fmt::Debug;
    /// Domain-specific symbolic terms of an [`Encoding`].
    type Extra;

    /// The domain's schema (element types, features, costs, limits).
    fn schema(&self) -> &Schema;

    /// The state as the rule language sees it.
    fn view(&self, state: &Self::State) -> View;

    /// Exact oracle: whether `action` follows from `state` by the rules of
    /// the game (in range, and agreeing with every solution).
    fn is_sound(&self, state: &Self::State, action: &ActionValue) -> bool;

    /// A symbolic state up to `bound`, in the current thread's Z3 context.
    fn encode(&self, bound: u32) -> Encoding<Self::Extra>;

    /// "Applying this action is wrong": out of range, or disagreeing with
    /// some solution of the symbolic state. Booleans are 0/1; as
    /// bit-vectors (feature `bv-arith`) the arguments share one width, at
    /// least the view's ([`SymView::width`](crate::dsl::symbolic::SymView)).
    fn wrong(&self, enc: &Encoding<Self::Extra>, action: crate::dsl::ast::ActionId, args: &[Num]) -> Bool;

    /// Reads the concrete state out of a model of an encoding (`None` if the
    /// model is not a valid state, which would be an encoding fault).
    fn decode(&self, enc: &Encoding<Self::Extra>, model: &Model) -> Option<Self::State>;

    /// Formats a state for reports (`HINTS | CELLS`).
    fn show(&self, state: &Self::State) -> String;

    /// Whether `action`, applied on `state`, makes the specification's
    /// `deduction` (nonogram: fills at least the deduced cells with their
    /// value; Witness: prunes). Soundness is judged separately.
    fn makes(&self, state: &Self::State, deduction: &ActionValue, action: &ActionValue) -> bool;

    /// Whether a sound `action` gains something on `state` (fills an
    /// unknown cell; prunes): what "the rule covers the state" means.
    fn productive(&self, state: &Self::State, action: &ActionValue) -> bool;

    /// The images of a state and a deduction under the symmetries rules are
    /// applied in (nonogram: itself and its mirror), the state itself first.
    /// A rule makes a specification if it makes the deduction on any image.
    fn images(&self, state: &Self::State, deduction: &ActionValue) -> Vec<(Self::State, ActionValue)>;

    /// Every valid state up to `size` (the schema's `synthesis.table`): the
    /// exhaustive table candidates are checked on before Z3.
    fn small_states(&self, size: u32) -> Vec<Self::State>;

    /// `count` random valid states larger than the exhaustive table's and
    /// up to `bound`, from `seed` (deterministic): a second concrete tier
    /// that rejects candidates which only fail on larger states.
    fn sample_states(&self, table: u32, bound: u32, seed: u64, count: usize) -> Vec<Self::State>;
}
