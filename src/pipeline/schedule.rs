//! How parallel a batch's schedule is, from its own per-specification
//! times ([`Parallelism`]): the summed work of its specifications over the
//! critical path through the dependencies between them, each on the path
//! for its own span ([`Outcome::work`](crate::synth::Outcome::work) and
//! [`Outcome::span`](crate::synth::Outcome::span): its walks run in
//! parallel too). In the window ([`WINDOW`]), the specification at place p
//! depends on the places before p - `WINDOW` (the pool it sees); in a
//! window of 0 (the augmentation's) on every earlier place; a batch
//! absorbed after another (the augmentation after the sample) starts when
//! that one has ended. Given for comparison: the same with each
//! specification on one core (its work on the path), and rounds of 8 with
//! a barrier (the design before the window), where a specification depends
//! on every earlier round.

use super::batch::{Entry, WINDOW};
use std::time::Duration;

/// A batch's available parallelism: summed work over critical path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parallelism {
    /// The specifications' summed work.
    pub sum: Duration,
    /// The critical path through the window's dependencies, each
    /// specification on it for its span.
    pub window: Duration,
    /// The same with each specification on it for its work (on one core).
    pub whole: Duration,
    /// The critical path through rounds of 8 synthesised specifications
    /// with a barrier between them (spans).
    pub rounds: Duration,
}

/// Specifications per round of the design with a barrier.
const ROUND: usize = 8;

/// The critical path of `times` (a segment's, in place order) where place
/// p depends on the places before p - `width`.
fn window_path(times: &[Duration], width: usize) -> Duration {
    // finish[p] = times[p] + the latest finish among places < p - width
    let mut latest = vec![Duration::ZERO; times.len() + 1];
    for (p, &time) in times.iter().enumerate() {
        let before = latest[p.saturating_sub(width)];
        latest[p + 1] = latest[p].max(before + time);
    }
    latest[times.len()]
}

impl Parallelism {
    /// The parallelism of `entries` (a batch's, in job order), run as
    /// consecutive `segments` of (entries, window), each starting when the
    /// one before it has ended.
    pub fn of<S>(entries: &[Entry<S>], segments: &[(usize, usize)]) -> Parallelism {
        let times = |e: &Entry<S>| match e {
            Entry::Done { outcome, .. } => (outcome.work, outcome.span),
            Entry::Skipped { .. } => (Duration::ZERO, Duration::ZERO),
        };
        let (mut window, mut whole, mut rounds, mut first) = (Duration::ZERO, Duration::ZERO, Duration::ZERO, 0);
        for &(count, width) in segments {
            let segment = &entries[first..first + count];
            let (work, span): (Vec<Duration>, Vec<Duration>) = segment.iter().map(times).unzip();
            window += window_path(&span, width);
            whole += window_path(&work, width);
            let done = segment.iter().filter(|e| matches!(e, Entry::Done { .. }));
            let done: Vec<Duration> = done.map(|e| times(e).1).collect();
            // a window of 0 runs one at a time, in rounds too
            let round = if width == 0 { 1 } else { ROUND };
            rounds += done.chunks(round).map(|r| r.iter().max().copied().unwrap_or_default()).sum::<Duration>();
            first += count;
        }
        Parallelism { sum: entries.iter().map(|e| times(e).0).sum(), window, whole, rounds }
    }

    /// Summed work over `path` (0 for an empty batch).
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
            "available parallelism {:.1} (summed specification work {:.1} s over the critical path {:.1} s through the window of {WINDOW}, \
             each specification on it for its longest walk per number of pattern variables and the steps between; \
             each specification on one core would give {:.1}: critical path {:.1} s; \
             rounds of {ROUND} with a barrier {:.1}: critical path {:.1} s)",
            self.ratio(self.window),
            self.sum.as_secs_f64(),
            self.window.as_secs_f64(),
            self.ratio(self.whole),
            self.whole.as_secs_f64(),
            self.ratio(self.rounds),
            self.rounds.as_secs_f64()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::{Outcome, Stats};

    /// A specification of `work` seconds on one core, `span` on many.
    fn done(index: usize, work: u64, span: u64) -> Entry<()> {
        let outcome = Outcome {
            rules: vec![],
            stats: Stats::default(),
            time: Duration::from_secs(work),
            work: Duration::from_secs(work),
            span: Duration::from_secs(span),
            counterexamples: vec![],
            lost: vec![],
        };
        Entry::Done { index, outcome }
    }

    #[test]
    fn the_critical_path_follows_the_window_and_the_rounds() {
        // 2 * WINDOW + 2 specifications of 1 s: places up to WINDOW see no
        // pool, the rest see the first ones'
        let mut entries: Vec<Entry<()>> = (0..2 * WINDOW + 2).map(|i| done(i, 1, 1)).collect();
        let whole = [(entries.len(), WINDOW)];
        let p = Parallelism::of(&entries, &whole);
        assert_eq!((p.sum, p.window), (Duration::from_secs(2 * WINDOW as u64 + 2), Duration::from_secs(2)));
        assert_eq!(p.rounds, Duration::from_secs((2 * WINDOW as u64 + 2).div_ceil(ROUND as u64)));
        // a slow first one delays the places past the window by its time;
        // a skipped one takes no time and no place in a round
        entries[0] = done(0, 10, 10);
        entries[1] = Entry::Skipped { index: 1, by: "r".into() };
        let p = Parallelism::of(&entries, &whole);
        assert_eq!(p.window, Duration::from_secs(11));
        assert_eq!(p.rounds, Duration::from_secs(10 + (2 * WINDOW as u64 - 7).div_ceil(ROUND as u64)));
        assert!(p.to_string().starts_with("available parallelism "));
        // three more run one at a time after them: each adds its span (its
        // work, each specification on one core)
        entries.extend((0..3).map(|i| done(2 * WINDOW + 2 + i, 5, 2)));
        let p = Parallelism::of(&entries, &[(2 * WINDOW + 2, WINDOW), (3, 0)]);
        assert_eq!((p.window, p.whole), (Duration::from_secs(11 + 6), Duration::from_secs(11 + 15)));
        assert_eq!(p.rounds, Duration::from_secs(10 + (2 * WINDOW as u64 - 7).div_ceil(ROUND as u64) + 6));
        assert_eq!(p.sum, Duration::from_secs(2 * WINDOW as u64 + 10 + 15));
    }
}
