//! What one specification's synthesis gives back ([`Outcome`]): the rules
//! found ([`Learned`], each proven sound up to a bound), the rules lost to
//! Z3's resource limit, the counterexamples met, and the search's counters
//! ([`Stats`]).

use crate::dsl::ast::Rule;
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
        /// Z3 soundness queries that found a counterexample (each distinct
        /// query counted once in a run, by the specification whose verdict
        /// first entered the shared cache, so a run's total does not
        /// depend on timing).
        pub z3_unsound: u64,
        /// Z3 queries without an answer (candidate skipped): soundness
        /// queries counted once as `z3_unsound` is, and each implication
        /// query of condition generalisation as it is asked.
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
    /// The CPU time its steps took on their own (a step's thread time less
    /// that of other timed steps its thread ran inside it,
    /// [`own_time`](super::span::own_time)), summed: what it costs one core.
    pub work: Duration,
    /// Its own critical path: per number of pattern variables its longest
    /// lattice walk, plus the steps between (each whole, though some run
    /// in parallel): what it takes on enough cores.
    pub span: Duration,
    /// States on which candidates were refuted (for [`Engine::publish`](super::Engine::publish)).
    pub counterexamples: Vec<S>,
    /// Rules sound at the screening bound whose full-bound proof ran out
    /// of Z3's resource limit: unproven, so never part of a rule set
    /// unless a later proof (at a higher limit) succeeds. No two print
    /// alike.
    pub lost: Vec<Rule>,
}
