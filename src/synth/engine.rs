//! The engine's interface: [`Engine`] (built once per run, shared by every
//! specification and thread) synthesises the sound rules of one
//! specification ([`Spec`]) into an [`Outcome`]. This file holds the data
//! types, the engine's shared state and its measurements on the table; the
//! search itself ([`Engine::synthesize`]) lives in [`search`](super::search)
//! and [`node`](super::node), the cached data in [`cache`](super::cache),
//! the knobs in [`config`](super::config).
//!
//! Synthesis of sound rules for one specification (Butler et al. 2017,
//! §6.2), generic over a [`Domain`](super::domain::Domain).
//!
//! For each number of pattern variables (fewest first), each image of the
//! specification (its symmetries) and each set of that many of the state's
//! elements, the pattern lattice is climbed from the most specific
//! patterns ([`lattice`](super::lattice)), moving to the parent whose rule
//! applies to the most states of a fixed generality sample of the table.
//! At a lattice node:
//! - the candidate actions are the argument expressions (terms enumerated
//!   by cost, one per egg class) whose values make the deduction on the
//!   specification: the cheapest, and the most general (those sound and
//!   productive on the most states of the node's coverage sample by
//!   themselves, one per behaviour), and the widest (those gaining the
//!   most on it: nonogram cells, what coverage counts);
//! - for each, a condition (a conjunction of atoms true on the
//!   specification) that is false on every known bad example pair is found
//!   as a covering problem ([`cover`](super::cover)): the cheapest, or for
//!   the most general actions the one keeping the most good pairs within a
//!   slack of the cheapest; then it is checked concretely: CEGIS on the
//!   node's examples (its coverage sample — table states its patterns bind
//!   on — and the shared counterexample pool), the exhaustive table of
//!   small states and random larger states; each failing state joins the
//!   node;
//! - the most general survivor (most coverage-sample states covered), then
//!   the cheapest, goes to Z3 at the *screening* bound (much faster than
//!   the full bound); Z3's counterexamples join the node and the search
//!   goes on.
//!
//! At every maximal node, beside its most general rule are kept its
//! cheapest sound rule where that is cheaper, and its widest sound rule
//! (the widest actions, each with the condition keeping the most good
//! pairs within a larger slack, ranked by what they gain) where that gains
//! more: each pair is incomparable (cheaper or applying to more states
//! against filling more cells). Each kept rule's condition is generalised
//! while Z3 proves a wider condition sound and implied by the current one,
//! and the rule is rewritten to its cheapest equal form (egg). Of a
//! specification's rules, those another one outdoes on the table are
//! dropped; the rest must be proven sound by Z3 at the full bound to be
//! returned.
//!
//! Determinism: a run depends only on its specification and on the pool as
//! published ([`Engine::publish`]) before it started; every Z3 query runs
//! in a fresh solver, so caches shared across runs do not change answers,
//! and is limited by Z3's resource count (`rlimit`), not by wall-clock
//! time, so machine load does not either. A query that runs out skips its
//! candidate (counted in [`Stats`]).
use super::cache::{Example, Known, Pool, Space};
use super::space::{atoms, int_terms, TermPlan};
use super::table::TableFacts;
use super::config::Config;
use super::domain::Symbolic;
use crate::dsl::ast::{Rule, TypeId};
use crate::dsl::eval::{ActionValue, Interpreter};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A rule found for a specification, proven sound up to `bound`.
#[derive(Clone, Debug)]
pub struct Learned {
    /// The rule.
    pub rule: Rule,
    /// Its cost.
    pub cost: u32,
    /// The bound Z3 proved it sound up to.
    pub bound: u32,
}

/// Defines the counters struct once: its fields, their sum
/// ([`Stats::add`]) and their (de)serialisation all follow from the list.
macro_rules! counters {
    ($(#[$doc:meta])* pub struct $name:ident { $($(#[$fdoc:meta])* pub $field:ident: $ty:ty,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        pub struct $name {
            $($(#[$fdoc])* pub $field: $ty,)*
        }

        impl $name {
            /// Adds another run's counters.
            pub fn add(&mut self, o: &$name) {
                $(self.$field += o.$field;)*
            }
        }
    };
}

counters! {
    /// Counters of one synthesis run.
    pub struct Stats {
        /// Lattice nodes (pattern sets) tried.
        pub patterns_tried: u64,
        /// Candidate rules proposed (each consistent with every known
        /// counterexample).
        pub candidates: u64,
        /// Candidates rejected on the exhaustive table of small states.
        pub rejected_by_table: u64,
        /// Candidates settled by an earlier identical query (cache).
        pub cached: u64,
        /// Z3 queries (soundness and implication).
        pub z3_calls: u64,
        /// Z3 soundness queries made (cache hits excluded).
        pub z3_soundness: u64,
        /// Z3 soundness queries that found a counterexample.
        pub z3_unsound: u64,
        /// Z3 queries without an answer (candidate skipped).
        pub z3_unknown: u64,
        /// Time spent in Z3.
        pub z3_time: Duration,
        /// Z3 soundness queries at the full bound (part of `z3_soundness`).
        pub z3_full: u64,
        /// Time spent in Z3 at the full bound (part of `z3_time`).
        pub z3_full_time: Duration,
        /// Rules sound at the screening bound but not at the full bound.
        pub rejected_at_full_bound: u64,
        /// Maximal rules dropped before the full-bound proof because another
        /// rule of the specification makes all they make on the table states.
        pub dominated: u64,
        /// Rules lost because Z3 ran out of its resource limit on their
        /// full-bound proof (neither proven nor refuted: never kept).
        pub lost_at_full_bound: u64,
    }
}

/// The rules found for one specification and how they were found.
#[derive(Clone, Debug)]
pub struct Outcome<S> {
    /// Maximally general rules, cheapest first, no two printing alike.
    pub rules: Vec<Learned>,
    /// Counters.
    pub stats: Stats,
    /// Wall time.
    pub time: Duration,
    /// States on which candidates were refuted (for [`Engine::publish`]).
    pub counterexamples: Vec<S>,
    /// Rules sound at the screening bound whose full-bound proof ran out
    /// of Z3's resource limit: unproven, so never part of a rule set
    /// unless a later proof (at a higher limit) succeeds. No two print
    /// alike.
    pub lost: Vec<Rule>,
}

/// Shared by every specification and thread of a run.
pub struct Engine<'d, D: Symbolic> {
    pub(super) domain: &'d D,
    pub(super) config: Config,
    pub(super) table: Vec<Arc<Example<D::State>>>,
    /// The states rules of different nodes are compared on.
    pub(super) basis: Vec<Arc<Example<D::State>>>,
    pub(super) pool: Mutex<Pool<D::State>>,
    pub(super) verdicts: Mutex<HashMap<String, Known<D::State>>>,
    /// Table states (first few) each checked rule is wrong on.
    pub(super) refuted: Mutex<HashMap<String, Vec<usize>>>,
    pub(super) spaces: Mutex<HashMap<Vec<TypeId>, Arc<Space>>>,
}

impl<'d, D: Symbolic> Engine<'d, D> {
    /// An engine for `domain`; builds the exhaustive table.
    pub fn new(domain: &'d D, config: Config) -> Engine<'d, D> {
        let mut states = domain.small_states(config.table);
        states.extend(domain.sample_states(config.table, config.screen(), config.sample_seed, config.sample));
        let table: Vec<Arc<Example<D::State>>> = states
            .into_iter()
            .map(|state| Arc::new(Example { view: domain.view(&state), state }))
            .collect();
        let step = (table.len() / config.generality_sample.max(1)).max(1);
        let basis = table.iter().step_by(step).take(config.generality_sample).cloned().collect();
        Engine {
            domain,
            config,
            table,
            basis,
            pool: Mutex::new(Pool { examples: vec![], keys: HashSet::new() }),
            verdicts: Mutex::new(HashMap::new()),
            refuted: Mutex::new(HashMap::new()),
            spaces: Mutex::new(HashMap::new()),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Adds the counterexamples of finished runs to the shared pool, in
    /// the order given, skipping states it already holds. Runs started
    /// before see the pool as it was (so a batch that publishes each round
    /// of specifications in their order is deterministic).
    pub fn publish(&self, outcomes: &[&Outcome<D::State>]) {
        let mut pool = self.pool.lock().expect("pool");
        for outcome in outcomes {
            for state in &outcome.counterexamples {
                let key = self.domain.show(state);
                if pool.keys.insert(key) {
                    pool.examples.push(self.example(state.clone()));
                }
            }
        }
    }

    /// How many counterexample states the shared pool holds.
    pub fn pool_len(&self) -> usize {
        self.pool.lock().expect("pool").examples.len()
    }
}

/// The shared state's lookups and the concrete measurements over the table.
impl<'d, D: Symbolic> Engine<'d, D> {
    pub(super) fn space(&self, types: &[TypeId]) -> Arc<Space> {
        if let Some(s) = self.spaces.lock().expect("space cache").get(types) {
            return s.clone();
        }
        let schema = self.domain.schema();
        let terms = int_terms(schema, types, self.config.max_term_cost);
        let atoms = atoms(schema, types, &terms, self.config.max_left_cost, self.config.max_atom_cost);
        let table = TableFacts::new(&self.table, types);
        let space = Arc::new(Space { plan: TermPlan::new(&terms), terms, atoms, table });
        self.spaces.lock().expect("space cache").insert(types.to_vec(), space.clone());
        space
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

/// The table states (indices, ascending) in `scope` on which `rule` is
/// wrong: the first few, found chunk by chunk in parallel.
pub(super) fn table_failures<D: Symbolic>(engine: &Engine<'_, D>, rule: &Rule, scope: &[usize]) -> Vec<usize> {
    use rayon::prelude::*;
    let size = engine.domain.schema().size_feature;
    // the action values go through one buffer per state
    let wrong = |&i: &usize| {
        let ex = &engine.table[i];
        let mut action = ActionValue { action: rule.action.id, args: Vec::with_capacity(rule.action.args.len()) };
        let mut wrong = false;
        Interpreter::new(rule, &ex.view, size).each_action(|args| {
            if !wrong {
                action.args.clear();
                action.args.extend_from_slice(args);
                wrong = !engine.domain.is_sound(&ex.state, &action);
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
