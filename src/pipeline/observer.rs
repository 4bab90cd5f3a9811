//! How a run tells its caller what it is doing ([`Observer`]), as egg's
//! `Runner` hands its caller hooks: the library prints nothing itself; a
//! command draws progress from these events. Every hook does nothing by
//! default, and `()` observes nothing.

use std::path::Path;
use std::time::Duration;

/// A batch starting.
pub struct BatchStart<'a> {
    /// Specifications in the batch.
    pub jobs: usize,
    /// Of them, finished ones read back from the journal.
    pub replayed: usize,
    /// The rounds they were finished in.
    pub rounds: usize,
    /// The rules they found.
    pub rules: usize,
    /// The journal.
    pub journal: &'a Path,
}

/// A round finished.
pub struct RoundDone {
    /// The round (1-based, replayed ones included).
    pub round: usize,
    /// The first and last specification of the round (1-based places in
    /// the whole input).
    pub specs: (usize, usize),
    /// Specifications synthesised.
    pub synthesised: usize,
    /// Specifications skipped.
    pub skipped: usize,
    /// Rules found.
    pub rules: usize,
    /// Its wall time.
    pub time: Duration,
    /// Counterexample states in the pool after it.
    pub pool: usize,
}

/// The hooks a run calls as it goes.
pub trait Observer: Sync {
    /// The specifications were mined (`description`), in `time`.
    fn mined(&self, _description: &str, _time: Duration) {}

    /// A batch starts.
    fn batch_started(&self, _start: &BatchStart<'_>) {}

    /// A specification was synthesised or skipped, with `rules` rules
    /// (called from the worker threads).
    fn specification_done(&self, _rules: usize) {}

    /// A round finished.
    fn round_done(&self, _round: &RoundDone) {}

    /// The batch finished.
    fn batch_done(&self) {}
}

impl Observer for () {}
