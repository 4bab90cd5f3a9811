//! A learning run's progress on standard error, from the pipeline's
//! events: a bar of specifications with the rules found so far, and one
//! line per event (above the bar, or alone when standard error is not a
//! terminal); and plain periodic lines for work that has no events to
//! tell ([`ticking`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;
use stratsynth::pipeline::observer::{BatchStart, Observer, RoundDone};

/// Draws a run's progress on standard error.
#[derive(Default)]
pub struct Progress {
    /// The batch's bar (once it starts).
    bar: OnceLock<ProgressBar>,
    /// Rules found so far.
    rules: AtomicUsize,
}

impl Progress {
    /// Prints a line above the bar, or alone.
    fn say(&self, text: String) {
        match self.bar.get().filter(|bar| !bar.is_hidden()) {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }
}

impl Observer for Progress {
    fn mined(&self, description: &str, time: Duration) {
        self.say(format!("{description} ({:.1} s)", time.as_secs_f64()));
    }

    fn batch_started(&self, start: &BatchStart<'_>) {
        let bar = ProgressBar::with_draw_target(Some(start.jobs as u64), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template(
                "{bar:30} {pos}/{len} specs, {msg} rules, {elapsed_precise} elapsed, ETA {eta_precise}",
            )
            .expect("a valid template"),
        );
        self.rules.store(start.rules, Ordering::Relaxed);
        bar.set_position(start.replayed as u64);
        bar.set_message(start.rules.to_string());
        bar.reset_eta();
        self.bar.get_or_init(|| bar);
        if start.replayed > 0 {
            self.say(format!(
                "resumed {}: {} specifications in {} rounds replayed",
                start.journal.display(),
                start.replayed,
                start.rounds
            ));
        }
    }

    fn specification_done(&self, rules: usize) {
        let found = self.rules.fetch_add(rules, Ordering::Relaxed) + rules;
        if let Some(bar) = self.bar.get() {
            bar.set_message(found.to_string());
            bar.inc(1);
        }
    }

    fn round_done(&self, r: &RoundDone) {
        self.say(format!(
            "committed {}: specifications #{}-#{}: {} synthesised, {} skipped, {} rules, {:.1} s since the last; pool {} states",
            r.round,
            r.specs.0,
            r.specs.1,
            r.synthesised,
            r.skipped,
            r.rules,
            r.time.as_secs_f64(),
            r.pool
        ));
    }

    fn batch_done(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}
