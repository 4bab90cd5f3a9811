//! The synthesis engine: the sound rules of one specification (Butler et
//! al. 2017, §6.2), written against the [`Domain`] and [`Symbolic`] traits
//! only: it never names a puzzle. Many specifications, journals and
//! selection are the [`pipeline`](crate::pipeline)'s.
//!
//! A specification ([`Spec`]) asks for rules that, on its state, make its
//! deduction. For each number of pattern variables (fewest first), each
//! image of the specification (its symmetries) and each set of that many of
//! the state's elements, the pattern lattice is climbed from the most
//! specific patterns, moving to the parent whose rule applies to the most
//! states of a fixed generality sample of the table. At a lattice node:
//! - the candidate actions are the argument expressions (terms enumerated
//!   by cost, one per egg class) whose values make the deduction on the
//!   specification: the cheapest, the most general (those sound and
//!   productive on the most states of the node's coverage sample by
//!   themselves, one per behaviour), and the widest (those gaining the
//!   most on it: nonogram cells, what coverage counts);
//! - for each, a condition (a conjunction of atoms true on the
//!   specification) that is false on every known bad example pair is found
//!   as a covering problem: the cheapest, or for the most general actions
//!   the one keeping the most good pairs within a slack of the cheapest;
//!   then it is checked concretely: CEGIS on the node's examples (its
//!   coverage sample — table states its patterns bind on — and the shared
//!   counterexample pool), the exhaustive table of small states and random
//!   larger states; each failing state joins the node;
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
//! returned ([`Outcome`]).
//!
//! Determinism: a run depends only on its specification and on the part
//! of the pool it sees: what was published ([`Engine::publish`]) before it
//! started, or a prefix of the pool fixed by its caller
//! ([`Engine::synthesize_seeing`]); every Z3 query runs
//! in a fresh solver, so caches shared across runs do not change answers,
//! and is limited by Z3's resource count (`rlimit`), not by wall-clock
//! time, so machine load does not either. A query that runs out skips its
//! candidate (counted in [`Stats`]).
//!
//! The modules, from the interface down:
//! - [`engine`]: [`Engine`], one specification's synthesis over the
//!   lattice walks, and the pool it publishes to;
//! - [`solve`], [`candidates`], [`finish`], [`proofs`]: the steps of one
//!   walk ([`run`]): a node's search, its candidates and their conditions,
//!   the maximal nodes' rules made final, Z3 through the verdict cache;
//! - [`shared`]: what every run shares (table, pool, caches, spaces);
//! - [`node`]: a lattice node's examples, pairs and candidates on them;
//! - [`table`]: the exhaustive table as pairs, checked by bit sets;
//! - [`lattice`], [`space`], [`set_cover`], [`bits`]: patterns, terms and
//!   atoms, conditions as covering problems, sets of pairs;
//! - [`verify`]: Z3 soundness of a rule up to a bound ([`Verdict`]);
//! - [`outcome`], [`meta`]: what a synthesis gives back, and the `# meta:`
//!   comment recording how each rule was made;
//! - [`span`]: a step's own time, for the work and span of a search;
//! - [`config`]: the search's knobs, with their defaults and checks;
//! - [`domain`]: the traits a puzzle domain implements, and
//!   specifications.

mod bits;
mod candidates;
pub mod config;
pub mod domain;
pub mod engine;
mod finish;
mod holds;
pub mod lattice;
pub mod meta;
mod node;
pub mod outcome;
mod proofs;
mod run;
mod set_cover;
mod shared;
mod solve;
pub mod space;
mod span;
mod table;
pub mod verify;

pub use config::{
    Config, ConfigBuilder, ConfigError, DEFAULT_RLIMIT, DEFAULT_SEARCH_RLIMIT, DEFAULT_SECOND_PROOF_RLIMIT,
    DEFAULT_TIMEOUT_MS,
};
pub use domain::{makes, makes_beyond, BadState, Domain, Encoding, Probed, Spec, Symbolic};
pub use engine::Engine;
pub use outcome::{Learned, Outcome, Stats};
pub use verify::Verdict;
