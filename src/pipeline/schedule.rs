//! How parallel a batch's schedule is, from its own per-specification
//! times ([`Parallelism`]): the summed synthesis time over the critical
//! path through the dependencies between specifications. In the window
//! ([`WINDOW`]), the specification at place p depends on the places
//! before p - `WINDOW` (the pool it sees); with rounds of 8 and a barrier
//! (the design before the window, given for comparison) it depends on
//! every earlier round.

use super::batch::{Entry, WINDOW};
use std::time::Duration;

/// A batch's available parallelism: summed time over critical path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parallelism {
    /// The specifications' summed synthesis time.
    pub sum: Duration,
    /// The critical path through the window's dependencies.
    pub window: Duration,
    /// The critical path through rounds of 8 synthesised specifications
    /// with a barrier between them.
    pub rounds: Duration,
}

/// Specifications per round of the design with a barrier.
const ROUND: usize = 8;

impl Parallelism {
    /// The parallelism of `entries` (a batch's, in job order).
    pub fn of<S>(entries: &[Entry<S>]) -> Parallelism {
        let times: Vec<Duration> = entries
            .iter()
            .map(|e| match e {
                Entry::Done { outcome, .. } => outcome.time,
                Entry::Skipped { .. } => Duration::ZERO,
            })
            .collect();
        // finish[p] = times[p] + the latest finish among places < p - WINDOW
        let mut latest = vec![Duration::ZERO; times.len() + 1];
        for (p, &time) in times.iter().enumerate() {
            let before = latest[p.saturating_sub(WINDOW)];
            latest[p + 1] = latest[p].max(before + time);
        }
        let done: Vec<Duration> =
            entries.iter().zip(&times).filter(|(e, _)| matches!(e, Entry::Done { .. })).map(|(_, &t)| t).collect();
        let rounds = done.chunks(ROUND).map(|round| round.iter().max().copied().unwrap_or_default()).sum();
        Parallelism { sum: times.iter().sum(), window: latest[times.len()], rounds }
    }

    /// Summed time over `path` (0 for an empty batch).
    fn ratio(&self, path: Duration) -> f64 {
        if path.is_zero() {
            0.0
        } else {
            self.sum.as_secs_f64() / path.as_secs_f64()
        }
    }
}

impl std::fmt::Display for Parallelism {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "available parallelism {:.1} (summed specification time {:.1} s over the critical path {:.1} s through the window of {WINDOW}; \
             rounds of {ROUND} with a barrier would give {:.1}: critical path {:.1} s)",
            self.ratio(self.window),
            self.sum.as_secs_f64(),
            self.window.as_secs_f64(),
            self.ratio(self.rounds),
            self.rounds.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{Outcome, Stats};

    fn done(index: usize, seconds: u64) -> Entry<()> {
        let outcome = Outcome {
            rules: vec![],
            stats: Stats::default(),
            time: Duration::from_secs(seconds),
            counterexamples: vec![],
            lost: vec![],
        };
        Entry::Done { index, outcome }
    }

    #[test]
    fn the_critical_path_follows_the_window_and_the_rounds() {
        // 2 * WINDOW + 2 specifications of 1 s: places up to WINDOW see no
        // pool, the rest see the first ones'
        let mut entries: Vec<Entry<()>> = (0..2 * WINDOW + 2).map(|i| done(i, 1)).collect();
        let p = Parallelism::of(&entries);
        assert_eq!((p.sum, p.window), (Duration::from_secs(2 * WINDOW as u64 + 2), Duration::from_secs(2)));
        assert_eq!(p.rounds, Duration::from_secs((2 * WINDOW as u64 + 2).div_ceil(ROUND as u64)));
        // a slow first one delays the places past the window by its time;
        // a skipped one takes no time and no place in a round
        entries[0] = done(0, 10);
        entries[1] = Entry::Skipped { index: 1, by: "r".into() };
        let p = Parallelism::of(&entries);
        assert_eq!(p.window, Duration::from_secs(11));
        assert_eq!(p.rounds, Duration::from_secs(10 + (2 * WINDOW as u64 - 7).div_ceil(ROUND as u64)));
        assert!(p.to_string().starts_with("available parallelism "));
    }
}
