//! How long a step of a specification's search takes on its own
//! ([`own_time`]), for the schedule's available parallelism: a rayon
//! thread that waits inside a step (a parallel iterator's join) runs other
//! jobs meanwhile, other walks and other specifications among them, and
//! their time is not the step's. Each timed step on a thread subtracts the
//! timed steps run inside it on that thread; the rest (untimed jobs stolen
//! while waiting: slices of another walk's parallel loops, a few
//! milliseconds each) stays in, so a step's own time errs on the long side.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    /// The wall time of the timed steps finished inside the innermost
    /// timed step under way on this thread.
    static INSIDE: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// Runs `f`, giving back its result and its own time: its wall time less
/// that of the timed steps run inside it on this thread.
pub fn own_time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let outer = INSIDE.with(|c| c.replace(Duration::ZERO));
    let started = Instant::now();
    let out = f();
    let elapsed = started.elapsed();
    let inside = INSIDE.with(|c| c.replace(outer + elapsed));
    (out, elapsed.saturating_sub(inside))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_run_inside_another_is_not_its_time() {
        let pause = Duration::from_millis(30);
        let ((_, inner), outer) = own_time(|| {
            std::thread::sleep(pause);
            own_time(|| std::thread::sleep(2 * pause))
        });
        assert!(inner >= 2 * pause);
        // the outer step's own time is its own sleep, not the inner one's
        assert!(outer >= pause && outer < 2 * pause, "{outer:?}");
        // a step after them starts from nothing
        let ((), after) = own_time(|| std::thread::sleep(pause));
        assert!(after >= pause && after < 2 * pause, "{after:?}");
    }
}
