//! How a learning run ([`learn`](super::driver::learn)) is set up: its
//! engine configuration, journal, skipping, augmentation, selection and
//! observer ([`LearnOptions`]), shared by the driver, the augmentation and
//! the shards.

use super::observer::Observer;
use crate::select::Selection;
use crate::synth::Config;
use std::path::Path;

/// How [`learn`](super::driver::learn) runs.
pub struct LearnOptions<'a> {
    /// The engine's configuration.
    pub config: Config,
    /// The journal's path.
    pub journal: &'a Path,
    /// Continue the journal instead of starting one.
    pub resume: bool,
    /// Skip specifications made by rules learned at earlier places.
    pub progressive: bool,
    /// How many specifications of the population that the learned rules
    /// make only on their small state are synthesised after the sample's
    /// (0: none).
    pub augment: usize,
    /// How many rules to select, and within what cost.
    pub selection: Selection,
    /// The resource limit of the second proof of the rules lost to the
    /// first one's limit that would add to the objective (0: no second
    /// proof).
    pub retry_rlimit: u32,
    /// Told of the run's progress.
    pub observer: &'a dyn Observer,
}
