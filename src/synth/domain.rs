//! The traits through which a puzzle domain plugs into the engine, in the
//! manner of egg's `Analysis`: a few required items and sensible defaults.
//!
//! - [`Domain`]: what every command needs of a puzzle — its states, the
//!   schema (the DSL file), the view the rule interpreter reads, the exact
//!   oracle, what "a rule makes a deduction" means, and states as text;
//!   with defaults, its symmetries, what an action gains, and the concrete
//!   state tables the search checks candidates on before Z3.
//! - [`Symbolic`]: what synthesis and proofs need beyond that — every state
//!   up to a bound as Z3 terms ([`Encoding`]), "this action is wrong" over
//!   them, and a model read back as a state.
//!
//! Beside them, what the engine asks of a domain in their terms: a
//! specification ([`Spec`]: on this state, make this deduction), whether a
//! rule meets one ([`makes`]), and a state kept with its view.
//!
//! This module must not know any puzzle: the engine (`synth`, `select`,
//! `dsl`) is written against these traits only.
//!
//! # Example
//!
//! A toy domain (a bag of numbers; the action `claim(k)` says "some item is
//! at least k"), and a rule checked against a specification with the
//! concrete side of the trait alone:
//!
//! ```
//! use stratsynth::dsl::eval::{ActionValue, ElementTable, View};
//! use stratsynth::dsl::parse::parse_rules;
//! use stratsynth::dsl::schema::Schema;
//! use stratsynth::synth::domain::{BadState, Domain};
//! use stratsynth::synth::{makes, Spec};
//!
//! struct Bag(Schema);
//!
//! impl Domain for Bag {
//!     type State = Vec<i64>;
//!     fn schema(&self) -> &Schema {
//!         &self.0
//!     }
//!     fn view(&self, bag: &Vec<i64>) -> View {
//!         let mut items = ElementTable::new(1);
//!         bag.iter().for_each(|&v| items.push(&[v]));
//!         View { globals: vec![bag.len() as i64], tables: vec![items], pairs: vec![] }
//!     }
//!     fn is_sound(&self, bag: &Vec<i64>, claim: &ActionValue) -> bool {
//!         bag.iter().any(|&v| v >= claim.args[0])
//!     }
//!     fn makes(&self, _: &Vec<i64>, deduction: &ActionValue, claim: &ActionValue) -> bool {
//!         claim.args[0] >= deduction.args[0]
//!     }
//!     fn show(&self, bag: &Vec<i64>) -> String {
//!         format!("{bag:?}")
//!     }
//!     fn parse_state(&self, text: &str) -> Result<Vec<i64>, BadState> {
//!         ron::from_str(text).map_err(|e| BadState::new(text, e))
//!     }
//! }
//!
//! let schema = Schema::from_ron(r#"(
//!     domain: "bag", types: ["item"], size_feature: "value",
//!     features: [(name: "value", kind: Int, types: ["item"], cost: 1)],
//!     globals: [(name: "count", cost: 1)],
//!     actions: [(name: "claim", params: [Int], cost: 1)],
//!     costs: (decl: 1, singleton: 1, constant: 2, arbitrary: 1, true_: 0, not: 1, and: 0, cmp: 1,
//!             maximal: 2, minimal: 2, unique: 3, literal: 1, add: 1, sub: 1, mul: 2, bool_literal: 0),
//!     limits: (max_state: 4, bound: 4),
//!     synthesis: (literals: [0, 1], multipliers: [], max_decls: 2, max_constant: 1, table: 2, screen: 4),
//! )"#, "bag.ron").unwrap();
//! let bag = Bag(schema);
//! let rule = parse_rules("def biggest:\n with x = arbitrary(item):\n if maximal(x):\n then claim(value(x))", "toy", bag.schema())
//!     .unwrap()
//!     .remove(0);
//! let state = bag.parse_state("[1, 3]").unwrap();
//! let spec = Spec { state, deduction: ActionValue { action: rule.action.id, args: vec![3] } };
//! assert!(makes(&bag, &rule, &spec));
//! assert!(bag.parse_state("[1,").is_err());
//! ```

use crate::dsl::ast::{ActionId, Rule};
use crate::dsl::eval::{ActionValue, Interpreter, View};
use crate::dsl::schema::Schema;
use crate::dsl::symbolic::{Num, SymView};
use z3::ast::Bool;
use z3::Model;

/// What a specification asks for: on `state`, a rule must make `deduction`.
#[derive(Clone, Debug)]
pub struct Spec<S> {
    /// The state.
    pub state: S,
    /// The deduction (an action value the oracle confirms).
    pub deduction: ActionValue,
}

/// Whether `rule`, on some image of the specification's state (its
/// orientations), has an application that is sound there and makes the
/// deduction.
pub fn makes<D: Domain>(domain: &D, rule: &Rule, spec: &Spec<D::State>) -> bool {
    makes_on(domain, rule, &viewed(domain, spec))
}

/// Whether `rule` makes the specification (see [`makes`]) on its state and
/// on one of the domain's probes of it ([`Domain::probes`]; on the state
/// alone when there are none): it does not only hold on the small state.
pub fn makes_beyond<D: Domain>(domain: &D, rule: &Rule, spec: &Spec<D::State>) -> bool {
    Probed::new(domain, spec).made_beyond_by(domain, rule)
}

/// A specification's images, each with its deduction there and its view.
type Viewed<S> = Vec<(S, ActionValue, View)>;

/// The images of `spec` (see [`Domain::images`]) with their views.
fn viewed<D: Domain>(domain: &D, spec: &Spec<D::State>) -> Viewed<D::State> {
    let images = domain.images(&spec.state, &spec.deduction).into_iter();
    images
        .map(|(state, deduction)| {
            let view = domain.view(&state);
            (state, deduction, view)
        })
        .collect()
}

/// Whether `rule` has, on one of the `images`, an application sound there
/// that makes the deduction.
fn makes_on<D: Domain>(domain: &D, rule: &Rule, images: &Viewed<D::State>) -> bool {
    let size = domain.schema().size_feature;
    images.iter().any(|(state, deduction, view)| {
        Interpreter::new(rule, view, size)
            .applications()
            .into_iter()
            .any(|(_, action)| domain.is_sound(state, &action) && domain.makes(state, deduction, &action))
    })
}

/// A specification ready to be checked against many rules
/// ([`Probed::made_beyond_by`], the answer of [`makes_beyond`]): the
/// views of its images are computed once, and those of its probes once,
/// when a rule first makes its state, instead of once per rule.
pub struct Probed<'s, S> {
    spec: &'s Spec<S>,
    images: Viewed<S>,
    probes: std::sync::OnceLock<Vec<Viewed<S>>>,
}

impl<'s, S> Probed<'s, S> {
    /// `spec` with the views of its images.
    pub fn new<D: Domain<State = S>>(domain: &D, spec: &'s Spec<S>) -> Probed<'s, S> {
        Probed { spec, images: viewed(domain, spec), probes: std::sync::OnceLock::new() }
    }

    /// Whether `rule` makes the specification beyond its small state (see
    /// [`makes_beyond`]).
    pub fn made_beyond_by<D: Domain<State = S>>(&self, domain: &D, rule: &Rule) -> bool {
        if !makes_on(domain, rule, &self.images) {
            return false;
        }
        let probes = self.probes.get_or_init(|| {
            let spec = self.spec;
            let probes = domain.probes(&spec.state, &spec.deduction).into_iter();
            probes.map(|(state, deduction)| viewed(domain, &Spec { state, deduction })).collect()
        });
        probes.is_empty() || probes.iter().any(|images| makes_on(domain, rule, images))
    }
}

/// A state with its view, as the engine keeps the states it checks rules
/// on (the table, counterexamples): the view is computed once.
pub(super) struct Example<S> {
    pub(super) state: S,
    pub(super) view: View,
}

impl<S> Example<S> {
    /// `state` with its view in `domain`.
    pub(super) fn new<D: Domain<State = S>>(domain: &D, state: S) -> Example<S> {
        Example { view: domain.view(&state), state }
    }
}

/// A state's text that does not read back as a state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a state: {message}")]
pub struct BadState {
    /// The text.
    pub text: String,
    /// What is wrong with it.
    pub message: String,
}

impl BadState {
    /// The error for `text`, saying what is wrong.
    pub fn new(text: &str, message: impl std::fmt::Display) -> BadState {
        BadState { text: text.to_string(), message: message.to_string() }
    }
}

/// What a puzzle domain supplies to every command: its states and the
/// exact judge of actions on them.
pub trait Domain: Send + Sync {
    /// A concrete state, carrying what the oracle needs to judge actions on
    /// it (e.g. a line and its maximal transition).
    type State: Clone + Send + Sync + std::fmt::Debug;

    /// The domain's schema (element types, features, costs, limits).
    fn schema(&self) -> &Schema;

    /// The state as the rule language sees it.
    fn view(&self, state: &Self::State) -> View;

    /// Exact oracle: whether `action` follows from `state` by the rules of
    /// the game (in range, and agreeing with every solution).
    fn is_sound(&self, state: &Self::State, action: &ActionValue) -> bool;

    /// Whether `action`, applied on `state`, makes the specification's
    /// `deduction` (nonogram: fills at least the deduced cells with their
    /// value; Witness: prunes). Soundness is judged separately.
    fn makes(&self, state: &Self::State, deduction: &ActionValue, action: &ActionValue) -> bool;

    /// Formats a state for reports and journals (nonogram: `HINTS | CELLS`).
    fn show(&self, state: &Self::State) -> String;

    /// Reads a state back from its [`show`](Domain::show) text.
    fn parse_state(&self, text: &str) -> Result<Self::State, BadState>;

    /// Whether a sound `action` gains something on `state` (fills an
    /// unknown cell; prunes): what "the rule covers the state" means.
    fn productive(&self, state: &Self::State, action: &ActionValue) -> bool {
        self.gain(state, std::slice::from_ref(action)) > 0
    }

    /// How much sound `actions` gain on `state` together (nonogram: the
    /// unknown cells they fill): what the search ranks rules' generality
    /// by, as coverage counts cells. By default one per distinct action.
    fn gain(&self, _state: &Self::State, actions: &[ActionValue]) -> usize {
        actions.iter().enumerate().filter(|(i, a)| !actions[..*i].contains(a)).count()
    }

    /// The images of a state and a deduction under the symmetries rules are
    /// applied in (nonogram: itself and its mirror), the state itself first.
    /// A rule makes a specification if it makes the deduction on any image.
    /// By default, the state alone.
    fn images(&self, state: &Self::State, deduction: &ActionValue) -> Vec<(Self::State, ActionValue)> {
        vec![(state.clone(), deduction.clone())]
    }

    /// Larger states in which a specification's deduction still follows
    /// (nonogram: the line with a placed hint of 1 added before or after
    /// it), each with its deduction there: a rule that makes the deduction
    /// on none of them only holds on the small state it was found for, so
    /// the search goes on to more pattern variables
    /// ([`Config::probe_decls`](super::config::Config::probe_decls)). By
    /// default none (no probing).
    fn probes(&self, _state: &Self::State, _deduction: &ActionValue) -> Vec<(Self::State, ActionValue)> {
        vec![]
    }

    /// Every valid state up to `size` (the schema's `synthesis.table`): the
    /// exhaustive table candidates are checked on before Z3. By default
    /// none (every candidate then goes to Z3).
    fn small_states(&self, _size: u32) -> Vec<Self::State> {
        vec![]
    }

    /// `count` random valid states larger than the exhaustive table's and
    /// up to `bound`, from `seed` (deterministic): a second concrete tier
    /// that rejects candidates which only fail on larger states. By default
    /// none.
    fn sample_states(&self, _table: u32, _bound: u32, _seed: u64, _count: usize) -> Vec<Self::State> {
        vec![]
    }

    /// `count` random valid states larger than the exhaustive table's and
    /// up to `bound`, from `seed` (deterministic), on which an action may
    /// be right where no state of the table or the sample tier shows it:
    /// the good examples on which condition generalisation tells a
    /// condition from a wider one ([`Config::widen_sample`](super::config::Config::widen_sample)
    /// of them). A domain whose sample tier draws only states that refute
    /// (Witness: completable paths, on which `prune` is never right) and
    /// whose table lacks some elements (Witness: marks and dots) has no
    /// other example where a rule over those elements is right. By
    /// default none.
    fn widen_states(&self, _table: u32, _bound: u32, _seed: u64, _count: usize) -> Vec<Self::State> {
        vec![]
    }
}

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

/// What synthesis and Z3 proofs need beyond [`Domain`]: every state up to
/// a bound as Z3 terms, a wrong action over them, and a model read back.
pub trait Symbolic: Domain {
    /// Domain-specific symbolic terms of an [`Encoding`].
    type Extra;

    /// A symbolic state up to `bound`, in the current thread's Z3 context.
    fn encode(&self, bound: u32) -> Encoding<Self::Extra>;

    /// "Applying this action is wrong": out of range, or disagreeing with
    /// some solution of the symbolic state. Booleans are 0/1; as
    /// bit-vectors (feature `bv-arith`) the arguments share one width, at
    /// least the view's ([`SymView::width`](crate::dsl::symbolic::SymView)).
    fn wrong(&self, enc: &Encoding<Self::Extra>, action: ActionId, args: &[Num]) -> Bool;

    /// Reads the concrete state out of a model of an encoding (`None` if the
    /// model is not a valid state, which would be an encoding fault).
    fn decode(&self, enc: &Encoding<Self::Extra>, model: &Model) -> Option<Self::State>;

    /// A fact true of `state` that a model read back as `state` may have
    /// broken: where the encoding over-approximates some feature (lets a
    /// model give it values the state does not), the feature's true values
    /// on this state. A model that does not replay is excluded by
    /// asserting it, and the query asked again. `None` (the default): the
    /// encoding is exact.
    fn pin(&self, _enc: &Encoding<Self::Extra>, _state: &Self::State) -> Option<Bool> {
        None
    }

    /// An encoding for the queries about one rule: it may leave out states
    /// (e.g. hold fewer elements of a type) as long as, whenever some state
    /// up to `bound` gives the rule a wrong application (or satisfies its
    /// condition), one that it holds does too — so every query about the
    /// rule keeps its answer, and Z3 gets a smaller problem. The default is
    /// [`Symbolic::encode`].
    fn encode_for(&self, bound: u32, _rule: &Rule) -> Encoding<Self::Extra> {
        self.encode(bound)
    }

    /// How many parts a soundness query up to `bound` is asked in, one
    /// query each (the rule is sound exactly when it is sound on every
    /// part; the first part where it is not gives the verdict). By
    /// default 1: the encoding of [`encode_for`](Self::encode_for). A
    /// domain whose states of several sizes make one encoding may ask
    /// them size by size, far faster in Z3.
    fn parts(&self, _bound: u32) -> usize {
        1
    }

    /// Whether every soundness query about a rule with a variable of the
    /// DSL file's `limits.split` types ([`split_variable`]) is asked one
    /// slot of that variable at a time, on each part, whatever the limits.
    /// By default not: only a query that ran out of a resource limit
    /// whole is split ([`Verifier::split_after`]).
    ///
    /// [`split_variable`]: crate::synth::verify::split_variable
    /// [`Verifier::split_after`]: crate::synth::verify::Verifier::split_after
    fn split_always(&self) -> bool {
        false
    }

    /// The encoding of part `part` (below [`parts`](Self::parts)) of the
    /// soundness query about `rule` up to `bound`. By default
    /// [`encode_for`](Self::encode_for).
    fn encode_part(&self, bound: u32, rule: &Rule, _part: usize) -> Encoding<Self::Extra> {
        self.encode_for(bound, rule)
    }

    /// A tighter encoding for the soundness query about `rule`, asked when
    /// a model of [`encode_for`](Self::encode_for)'s does not replay
    /// (where that one over-approximates some feature for speed); its own
    /// models that do not replay may be [`pin`](Self::pin)ned. `None` (the
    /// default): there is none, and such a query answers `unknown`.
    fn encode_tight_for(&self, _bound: u32, _rule: &Rule) -> Option<Encoding<Self::Extra>> {
        None
    }
}
