//! The learning pipeline, generic over the domain. The engine
//! ([`synth`](crate::synth)) synthesises the rules of one specification;
//! the pipeline runs it over many, in the manner of egg's `Runner` around
//! its rewrites, and reports what happened through an observer the caller
//! passes in (the library prints nothing itself):
//!
//! - [`learner`]: what a domain supplies — mined specifications, its
//!   deduplication, the selection objective ([`Learner`]);
//! - [`observer`]: the hooks a run calls as it goes ([`Observer`]);
//! - [`options`]: how a learning run is set up ([`LearnOptions`]);
//! - [`batch`]: many specifications in a deterministic sliding window,
//!   each rule named and described;
//! - [`schedule`]: a batch's available parallelism, from its own times;
//! - [`journal`]: the batch's resumable record, one round at a time;
//! - [`rounds`]: a batch run journaled, resumable and shardable
//!   ([`run_batch`]);
//! - [`second_proof`]: the rules lost to Z3's resource limit that would
//!   count, proven again at a higher limit;
//! - [`augment`]: the population's specifications the learned rules make
//!   only on their small state, synthesised after the sample's;
//! - [`shards`]: the synthesis split into shard jobs, and their merge;
//! - [`driver`]: the whole pipeline ([`learn`]): mine → synthesise →
//!   augment → deduplicate → second proof → select greedily, with each phase's time.

pub mod augment;
pub mod batch;
pub mod driver;
pub mod journal;
pub mod learner;
pub mod observer;
pub mod options;
pub mod rounds;
pub mod schedule;
pub mod second_proof;
pub mod shards;

pub use driver::{learn, LearnRun, Phases};
pub use learner::{dedup_by_key, Deduplicated, DomainError, Learner, Mined, NamedSpecs};
pub use observer::Observer;
pub use options::LearnOptions;
pub use rounds::{
    jobs, journal_path, parse_shard, run_batch, with_threads, BadShard, BatchOptions, BatchRun, PipelineError, Shard,
};
pub use second_proof::SecondProof;
