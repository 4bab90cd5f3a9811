//! What a solve is asked ([`Options`]: the convention and the propagation
//! rules), how far it may go ([`Limits`]), and what it found ([`Outcome`],
//! with [`Stop`] when it stopped before it knew, named as every bounded
//! search names it).
//!
//! This module knows limits and answers: not boards or search.

use std::time::{Duration, Instant};

use crate::domains::flow::model::state::Solution;
/// Why a search stopped before its answer was known: the one stop reason
/// of every bounded search, so that reports name them alike.
pub use crate::stop::Stop;

/// The propagation the search applies at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// None: the search only refuses inconsistent states (a cell with more
    /// links than it may have or fewer open slots than links it needs, a
    /// loop, two colours joined, a path beside itself).
    None,
    /// The local rules to a fixpoint: forced, full, colour clash, no loop,
    /// and (without `touching`) same-colour neighbours linked.
    Local,
    /// The local rules, then stranded colours and stranded areas.
    All,
}

impl Rules {
    /// Every level, weakest first.
    pub const ALL: [Rules; 3] = [Rules::None, Rules::Local, Rules::All];

    /// The level's name (`none`, `local`, `all`).
    pub fn name(self) -> &'static str {
        match self {
            Rules::None => "none",
            Rules::Local => "local",
            Rules::All => "all",
        }
    }
}

/// What a solve counts, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Flow Free's looser convention: paths may run beside themselves.
    pub touching: bool,
    /// The propagation at each node.
    pub rules: Rules,
}

impl Default for Options {
    /// docs/reference/formats.md's convention, every rule.
    fn default() -> Options {
        Options { touching: false, rules: Rules::All }
    }
}

/// How far a search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many solutions (at least 1).
    pub solutions: usize,
    /// Stop (answer unknown) after this many search nodes.
    pub max_nodes: Option<u64>,
    /// Stop (answer unknown) at this instant.
    pub deadline: Option<Instant>,
}

impl Limits {
    /// Up to `solutions` solutions, no budget, no deadline.
    pub fn solutions(solutions: usize) -> Limits {
        Limits { solutions, max_nodes: None, deadline: None }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The solutions found, at most the limit, distinct, in the order found.
    pub solutions: Vec<Solution>,
    /// Search nodes visited (1 if propagation at the root settled the puzzle).
    pub nodes: u64,
    /// Set if the search stopped before it knew the count (the solutions
    /// found are real, but there may be more).
    pub stopped: Option<Stop>,
    /// The search's CPU time (its thread's).
    pub time: Duration,
}

impl Outcome {
    /// The number of solutions (at most the limit), or `None` if the
    /// search stopped before it knew.
    pub fn count(&self) -> Option<usize> {
        self.stopped.is_none().then_some(self.solutions.len())
    }
}
