//! stratsynth learns human-readable, provably sound solving strategies for
//! logic puzzles by program synthesis.
//!
//! The engine knows the rule language and nothing about puzzles:
//! - [`dsl`]: the rule language (syntax tree, schema, parser, printer,
//!   cost, concrete and symbolic interpreters, egg rewrites, rule keys);
//! - [`synth`]: the [`Domain`](synth::Domain) and
//!   [`Symbolic`](synth::Symbolic) traits and the synthesis engine (one
//!   specification's search, Z3 verification);
//! - [`select`]: greedy selection through an objective;
//! - [`pipeline`]: the learning pipeline over any domain (mine, synthesise
//!   in journaled rounds, deduplicate, prove again the rules lost to Z3's
//!   limit that count, select);
//! - [`files`]: outputs checked before work and written atomically;
//!   [`located`]: the located error every reader returns; [`html`]: the
//!   pieces of self-contained HTML pages; [`usage`]: what a run has cost
//!   (CPU time, peak memory); [`stop`]: why a bounded search stopped
//!   (which budget ran out); [`deadline`]: when its time is up (its
//!   deadline passed, or its work was given up).
//!
//! Over the domains: [`rule_files`] reads rule files in their domain and
//! refuses unsound Witness rules; [`report`] builds the answers (JSON and
//! text) the command line and the studio both give.
//!
//! Each puzzle domain lives under [`domains`] (nonogram lines, Witness
//! partial paths) and plugs in by implementing the engine's traits; the
//! engine never imports a domain.

#![warn(missing_docs)]

pub mod deadline;
pub mod domains;
pub mod dsl;
pub mod files;
pub mod html;
pub mod located;
pub mod pipeline;
pub mod report;
pub mod rule_files;
pub mod select;
pub mod stop;
pub mod synth;
pub mod usage;
