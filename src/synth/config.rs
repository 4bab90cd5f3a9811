//! The engine's configuration: every limit and tuning knob of a synthesis
//! run, with one default each ([`Config::new`]), set through a builder that
//! validates them in one place ([`Config::builder`], like egg's `Runner`),
//! and serialisable so that a journal's run key records all of them.

use crate::dsl::schema::Schema;
use serde::{Deserialize, Serialize};

/// Knobs of the search; [`Config::new`] takes the schema's defaults.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Soundness bound (the schema's `limits.bound`).
    pub bound: u32,
    /// Z3 resource limit per query (`rlimit`: a count of Z3's own steps,
    /// so the same query gets the same answer on any machine under any
    /// load); running out makes the candidate unknown (skipped), never sound.
    pub rlimit: u32,
    /// The search decides soundness at this smaller bound (much faster in
    /// Z3); every returned rule is then proven at the full `bound`.
    pub screen_bound: u32,
    /// Size of the exhaustive table of small states.
    pub table: u32,
    /// Most expensive integer expression in an action argument.
    pub max_term_cost: u32,
    /// Most expensive left side of a comparison.
    pub max_left_cost: u32,
    /// Most expensive condition atom.
    pub max_atom_cost: u32,
    /// Most atoms in a condition.
    pub max_atoms: usize,
    /// Most expensive rule.
    pub max_rule_cost: u32,
    /// How much more than the cheapest condition a ranked one may cost
    /// (the candidates within it compete at a node).
    pub generalise_slack: u32,
    /// How much more than the condition it starts from a generalised
    /// condition may cost ([`Run::generalise`](super::run::Run)).
    pub widen_slack: u32,
    /// How many of the domain's [`widen_states`](super::domain::Domain::widen_states)
    /// generalisation draws on as good examples (0: none).
    pub widen_sample: usize,
    /// Random states beyond the table's size, up to the screening bound
    /// (where the search's Z3 queries would find their counterexamples),
    /// checked after it.
    pub sample: usize,
    /// The seed of those random states.
    pub sample_seed: u64,
    /// States of a lattice node's table scope (the states its patterns
    /// bind on) sampled as the good examples its candidates are ranked by
    /// and generalisation tries to cover.
    pub coverage_sample: usize,
    /// Table states sampled to compare the generality of rules of
    /// different lattice nodes (how many of them a rule gains on).
    pub generality_sample: usize,
    /// How many counterexamples of the shared pool (the most recent) a
    /// lattice node starts from.
    pub pool_start: usize,
    /// How many failing table states one concrete check reports.
    pub table_failures: usize,
    /// Table states checked in parallel at a time (the failures reported
    /// are those of the first chunk that has any).
    pub table_chunk: usize,
    /// How often a rule refuted at the full bound is searched again.
    pub full_retries: usize,
    /// Most action candidates tried at one node, cheapest first.
    pub max_actions: usize,
    /// Most actions tried at one node for their generality.
    pub max_general_actions: usize,
    /// The cheapest actions among which the most general are looked for.
    pub max_generality_pool: usize,
    /// Most pattern variables a rule may have (the schema's
    /// `synthesis.max_decls`).
    pub max_decls: usize,
    /// Keep trying larger element sets after one size gave rules.
    pub all_sizes: bool,
    /// Most pattern variables the search goes on to when every rule of
    /// fewer fails the domain's generalisation probes
    /// ([`Domain::probes`](super::domain::Domain::probes)): rules that
    /// only hold on the specification's own small state.
    pub probe_decls: usize,
    /// Explore every way up the pattern lattice and keep every maximally
    /// general node ([`lattice::maximal`](super::lattice::maximal)), not
    /// only the greedy climb's one.
    pub explore: bool,
    /// At a maximal node, how many cheaper candidates are tried for the
    /// cheapest sound rule kept beside the most general one (0: none).
    pub cheapest_tries: usize,
    /// At a maximal node, how many of the actions gaining the most cells
    /// compete for the widest rule kept beside the most general one (0:
    /// none).
    pub wide_actions: usize,
    /// How much more than the cheapest condition the widest rule's may cost.
    pub wide_slack: u32,
    /// Check candidates on the table through its pairs (bit sets and value
    /// columns shared by the run, [`table`](super::table)); false: by
    /// interpreting each rule on each state. The answers are the same, so
    /// it is not part of a journal's run key.
    #[serde(skip, default = "yes")]
    pub table_pairs: bool,
}

fn yes() -> bool {
    true
}

/// The default Z3 time limit per query of `verify`, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;

/// The default Z3 resource limit per synthesis query of `synth`: high
/// enough that the rules worth having are proven within it
/// (`verify --rlimit` prints each rule's count), since `synth` has no
/// second proof to catch the ones that run out.
pub const DEFAULT_RLIMIT: u32 = 1_000_000_000;

/// The default Z3 resource limit per query of `learn`'s search: low,
/// because queries that run out are most of the search's Z3 time and most
/// rules lost to the limit add nothing; the few that would add coverage or
/// enter the top K get a second proof at [`DEFAULT_SECOND_PROOF_RLIMIT`]
/// (see [`second_proof`](crate::pipeline::second_proof)), so a low limit
/// costs no rule that matters.
pub const DEFAULT_SEARCH_RLIMIT: u32 = 50_000_000;

/// The default Z3 resource limit of `learn`'s second proof (see
/// [`DEFAULT_SEARCH_RLIMIT`]).
pub const DEFAULT_SECOND_PROOF_RLIMIT: u32 = 2_000_000_000;

/// A configuration that cannot work.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The bound is 0 or beyond the schema's largest state.
    #[error("the bound must be between 1 and {max} (the schema's limits.max_state), not {bound}")]
    Bound {
        /// The bound asked for.
        bound: u32,
        /// The schema's largest state.
        max: u32,
    },
    /// A limit that must be positive is 0.
    #[error("{what} must be at least 1")]
    Zero {
        /// The limit's name.
        what: &'static str,
    },
}

impl Config {
    /// The defaults for a schema.
    pub fn new(schema: &Schema) -> Config {
        Config {
            bound: schema.file.limits.bound,
            rlimit: DEFAULT_RLIMIT,
            screen_bound: schema.file.synthesis.screen,
            table: schema.file.synthesis.table,
            max_term_cost: 5,
            max_left_cost: 2,
            max_atom_cost: schema.file.synthesis.max_atom_cost,
            max_atoms: 3,
            max_rule_cost: 30,
            generalise_slack: 3,
            widen_slack: 3,
            widen_sample: 400,
            sample: 10_000,
            sample_seed: 0x5eed,
            coverage_sample: 150,
            generality_sample: 4000,
            pool_start: 256,
            table_failures: 4,
            table_chunk: 4096,
            full_retries: 3,
            max_actions: 24,
            max_general_actions: 6,
            max_generality_pool: 2048,
            max_decls: schema.file.synthesis.max_decls,
            all_sizes: false,
            probe_decls: 2,
            explore: true,
            cheapest_tries: 3,
            wide_actions: 6,
            wide_slack: 7,
            table_pairs: true,
        }
    }

    /// A builder starting from the schema's defaults.
    pub fn builder(schema: &Schema) -> ConfigBuilder {
        ConfigBuilder { config: Config::new(schema), max_state: schema.file.limits.max_state }
    }

    /// The bound the search decides soundness at (the screening bound, at
    /// most the full bound).
    pub fn screen(&self) -> u32 {
        self.screen_bound.min(self.bound)
    }
}

/// Builds a [`Config`]: each setter changes one knob, [`build`](Self::build)
/// checks them all.
#[derive(Clone, Debug)]
pub struct ConfigBuilder {
    config: Config,
    max_state: u32,
}

impl ConfigBuilder {
    /// The soundness bound (`None`: the schema's).
    pub fn bound(mut self, bound: Option<u32>) -> ConfigBuilder {
        if let Some(b) = bound {
            self.config.bound = b;
        }
        self
    }

    /// The Z3 resource limit per query.
    pub fn rlimit(mut self, rlimit: u32) -> ConfigBuilder {
        self.config.rlimit = rlimit;
        self
    }

    /// Whether larger element sets are tried after one size gave rules.
    pub fn all_sizes(mut self, all: bool) -> ConfigBuilder {
        self.config.all_sizes = all;
        self
    }

    /// Whether every maximally general node is kept (else the greedy climb's).
    pub fn explore(mut self, explore: bool) -> ConfigBuilder {
        self.config.explore = explore;
        self
    }

    /// The configuration, if every limit is usable.
    pub fn build(self) -> Result<Config, ConfigError> {
        let c = self.config;
        if c.bound == 0 || c.bound > self.max_state {
            return Err(ConfigError::Bound { bound: c.bound, max: self.max_state });
        }
        let positive: [(&'static str, usize); 8] = [
            ("the Z3 resource limit", c.rlimit as usize),
            ("the screening bound", c.screen_bound as usize),
            ("the rule cost limit", c.max_rule_cost as usize),
            ("the atom limit", c.max_atoms),
            ("the table failures reported", c.table_failures),
            ("the table chunk", c.table_chunk),
            ("the actions tried per node", c.max_actions),
            ("the generality pool", c.max_generality_pool),
        ];
        match positive.iter().find(|(_, v)| *v == 0) {
            Some(&(what, _)) => Err(ConfigError::Zero { what }),
            None => Ok(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builder_checks_the_bound_and_zero_limits() {
        let schema = Schema::nonogram();
        let max = schema.file.limits.max_state;
        assert_eq!(Config::builder(&schema).build(), Ok(Config::new(&schema)));
        assert_eq!(Config::builder(&schema).bound(Some(8)).build().map(|c| c.bound), Ok(8));
        assert_eq!(Config::builder(&schema).bound(Some(0)).build(), Err(ConfigError::Bound { bound: 0, max }));
        assert!(Config::builder(&schema).bound(Some(max + 1)).build().is_err());
        let zero = Config::builder(&schema).rlimit(0).build();
        assert_eq!(zero, Err(ConfigError::Zero { what: "the Z3 resource limit" }));
        let mut chunkless = Config::builder(&schema);
        chunkless.config.table_chunk = 0;
        assert!(chunkless.build().is_err());
    }
}
