//! The learning tests, one binary (docs/design/tests.md): the synthesis
//! engine on a toy domain, `synth --resume`, `learn nonogram`, `learn
//! witness` and `learn flow` determinism, shards and their merge, the pipeline commands
//! (`mine`, `select`, `compare`), every written rule file read back, and
//! the Slurm scripts.

#[path = "../cli/mod.rs"]
mod cli;
mod engine_toy;
mod flow_determinism;
mod nonogram_determinism;
mod pipeline;
mod resume;
mod rule_files;
mod shards;
mod slurm;
mod witness_determinism;
