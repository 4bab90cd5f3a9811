//! stratsynth learns human-readable, provably sound solving strategies for
//! logic puzzles by program synthesis.
//!
//! The engine (`dsl`, `synth`, `coverage`, `select`, `mine`) knows the rule
//! language and nothing about puzzles; each puzzle domain lives under
//! `domains` and plugs in through the `Domain` trait.

pub mod dedup;
pub mod domains;
pub mod dsl;
pub mod files;
pub mod rewrite;
pub mod select;
pub mod synth;
