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

/// A group of specifications committed together (a journal round).
pub struct RoundDone {
    /// The group (1-based, replayed ones included).
    pub round: usize,
    /// The first and last specification of the group (1-based places in
    /// the whole input).
    pub specs: (usize, usize),
    /// Specifications synthesised.
    pub synthesised: usize,
    /// Specifications skipped.
    pub skipped: usize,
    /// Rules found.
    pub rules: usize,
    /// Wall time since the previous group (or the batch's start).
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

    /// A specification was committed, synthesised or skipped, with
    /// `rules` rules.
    fn specification_done(&self, _rules: usize) {}

    /// A group of specifications was committed.
    fn round_done(&self, _round: &RoundDone) {}

    /// The batch finished.
    fn batch_done(&self) {}
}

impl Observer for () {}
