//! How long a step of a specification's search takes on its own
//! ([`own_time`]), for the schedule's available parallelism: the CPU time
//! of its thread (`CLOCK_THREAD_CPUTIME_ID`: other processes on the
//! machine do not lengthen it, where wall time grows with the load). A
//! rayon thread that waits inside a step (a parallel iterator's join)
//! runs other jobs meanwhile, other walks and other specifications among
//! them, and their time is not the step's: each timed step on a thread
//! subtracts the timed steps run inside it on that thread. The rest
//! (untimed jobs stolen while waiting: slices of another walk's parallel
//! loops, a few milliseconds each, and the spinning of a thread waiting
//! for work) stays in, so a step's own time errs on the long side.

use std::cell::Cell;
use std::time::Duration;

thread_local! {
    /// The time of the timed steps finished inside the innermost timed
    /// step under way on this thread.
    static INSIDE: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// The CPU time this thread has used.
fn thread_time() -> Duration {
    // SAFETY: clock_gettime only writes the struct it is given.
    let t = unsafe {
        let mut t: libc::timespec = std::mem::zeroed();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
        t
    };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// Runs `f`, giving back its result and its own time: the CPU time of
/// this thread during it, less that of the timed steps run inside it on
/// this thread.
pub fn own_time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let outer = INSIDE.with(|c| c.replace(Duration::ZERO));
    let started = thread_time();
    let out = f();
    let elapsed = thread_time().saturating_sub(started);
    let inside = INSIDE.with(|c| c.replace(outer + elapsed));
    (out, elapsed.saturating_sub(inside))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeps this thread busy for about `time` of CPU.
    fn spin(time: Duration) {
        let started = thread_time();
        let mut x = 1u64;
        while thread_time() - started < time {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
    }

    #[test]
    fn a_step_run_inside_another_is_not_its_time() {
        let work = Duration::from_millis(30);
        let ((_, inner), outer) = own_time(|| {
            spin(work);
            own_time(|| spin(2 * work))
        });
        assert!(inner >= 2 * work);
        // the outer step's own time is its own work, not the inner one's
        assert!(outer >= work && outer < 2 * work, "{outer:?}");
        // a step after them starts from nothing
        let ((), after) = own_time(|| spin(work));
        assert!(after >= work && after < 2 * work, "{after:?}");
        // sleeping takes no CPU
        let ((), asleep) = own_time(|| std::thread::sleep(work));
        assert!(asleep < work, "{asleep:?}");
    }
}
