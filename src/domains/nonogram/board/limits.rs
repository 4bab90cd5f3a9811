//! How far a complete search may go ([`Limits`]): solutions wanted, node
//! budget, deadline, memory, and when and how it hands over to the SAT
//! fallback.
//!
//! This module knows limits: not boards or search.

use std::time::Instant;

use super::encoding::Encoding;
use super::sat::SatSolver;

/// The search nodes after which the search hands over to the SAT fallback
/// by default ([`Limits::solutions`]).
pub const SAT_AFTER: u64 = 200;

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many solutions (at least 1).
    pub solutions: usize,
    /// Stop (answer unknown) after this many search nodes.
    pub max_nodes: Option<u64>,
    /// Stop (answer unknown) at this instant.
    pub deadline: Option<Instant>,
    /// Stop (answer unknown, `memory`) when the process's resident memory
    /// passes this many bytes (read every few hundred probes and when the
    /// SAT fallback gives up; the fallback's Z3 is held to it by
    /// [`hold_z3_to`]).
    pub max_memory: Option<u64>,
    /// Hand over to the SAT fallback after this many nodes (`None`: never;
    /// the fallback is bounded by the deadline only, not by nodes).
    pub sat_after: Option<u64>,
    /// The fallback's SAT solver (`None`: the default, Z3).
    pub sat_solver: Option<SatSolver>,
    /// The encoding of the fallback's formula (`None`: by the clues, see
    /// [`Limits::sat_pair`]).
    pub sat_encoding: Option<Encoding>,
    /// Cube and conquer after the handover (`cubes`: CaDiCaL on the
    /// regular formula, whatever the fallback's solver and encoding), each
    /// node's cube given this many conflicts before it is split (`None`,
    /// the default: the root board to the fallback at once).
    pub cube_conflicts: Option<i32>,
}

impl Limits {
    /// Up to `solutions` solutions, no budget, no deadline, the SAT
    /// fallback after [`SAT_AFTER`] nodes.
    pub fn solutions(solutions: usize) -> Limits {
        Limits {
            solutions,
            max_nodes: None,
            deadline: None,
            max_memory: None,
            sat_after: Some(SAT_AFTER),
            sat_solver: None,
            sat_encoding: None,
            cube_conflicts: None,
        }
    }

    /// The fallback's encoding and solver, for clues with symmetries or
    /// without: unless given, Z3, on the block-start formula for clues
    /// without symmetries and the regular one for clues with (the faster
    /// of the four pairs on each, `docs/survey.md`).
    pub fn sat_pair(&self, symmetric: bool) -> (Encoding, SatSolver) {
        let encoding = if symmetric { Encoding::Regular } else { Encoding::Starts };
        (self.sat_encoding.unwrap_or(encoding), self.sat_solver.unwrap_or_default())
    }
}

/// Holds every Z3 solver of this process to `bytes` of memory together
/// (Z3's global `memory_max_size`): past it Z3 gives up, and the search
/// that asked says `memory`.
pub fn hold_z3_to(bytes: u64) {
    z3::set_global_param("memory_max_size", &(bytes >> 20).max(1).to_string());
}

/// The default of `--memory`: 4 GiB.
pub const DEFAULT_MEMORY_MB: u64 = 4096;

/// Holds the process (its Z3 solvers too) to `mb` megabytes, said once.
pub fn hold_memory(mb: u64) -> u64 {
    static HELD: std::sync::Once = std::sync::Once::new();
    HELD.call_once(|| hold_z3_to(mb << 20));
    mb << 20
}
