//! When a bounded search's time is up: its deadline has passed, or the
//! work it is part of was given up (a studio request whose client went
//! away or whose page cancelled it). Every search that runs to a deadline
//! asks [`past`], so one flag, [`Cancel`], stops them all at the next
//! reading of their clock, wherever they read it. The flag is the work's
//! thread's: [`Cancel::run`] sets it for the work it runs on this thread
//! (the CLI never sets one); work handed to other threads takes it along
//! ([`current`], [`carry`]), and a call that cannot read the clock (a Z3
//! check) is interrupted from beside it ([`interruptible`]).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

thread_local! {
    /// The cancellation of the work running on this thread, if any.
    static CANCEL: RefCell<Option<Cancel>> = const { RefCell::new(None) };
}

/// Whether a search with `deadline` must stop: the deadline has passed, or
/// the work running on this thread was cancelled ([`Cancel::run`]). Work
/// with no deadline is never stopped.
pub fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d || cancelled())
}

/// Whether the work running on this thread was cancelled.
fn cancelled() -> bool {
    CANCEL.with(|c| c.borrow().as_ref().is_some_and(Cancel::is_set))
}

/// The cancellation of the work running on this thread, if any: to
/// [`carry`] into the threads it hands parts of its work to.
pub fn current() -> Option<Cancel> {
    CANCEL.with(|c| c.borrow().clone())
}

/// Runs `work` under `cancel` (a [`current`] taken on the thread that
/// handed the work over), or as it is if there is none.
pub fn carry<R>(cancel: Option<&Cancel>, work: impl FnOnce() -> R) -> R {
    match cancel {
        Some(cancel) => cancel.run(work),
        None => work(),
    }
}

/// Runs `work`, a call that cannot read the clock, and calls `interrupt`
/// (from another thread, at most once) if the work running on this thread
/// is cancelled before `work` returns; with no cancellation, `work` alone.
/// The flag is looked at every 10 ms.
pub fn interruptible<R>(interrupt: impl Fn() + Sync, work: impl FnOnce() -> R) -> R {
    let Some(cancel) = current() else { return work() };
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if cancel.is_set() {
                    interrupt();
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// A flag that gives up work: set from anywhere ([`Cancel::set`]), read by
/// the searches of the work [`Cancel::run`] runs.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Gives the work up: its searches stop at their next reading of the
    /// clock, as at their deadline.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the work was given up.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Runs `work` on this thread with this flag as its cancellation (the
    /// thread's flag before is restored after, even if `work` panics).
    pub fn run<R>(&self, work: impl FnOnce() -> R) -> R {
        struct Restore(Option<Cancel>);
        impl Drop for Restore {
            fn drop(&mut self) {
                CANCEL.with(|c| *c.borrow_mut() = self.0.take());
            }
        }
        let _restore = Restore(CANCEL.with(|c| c.borrow_mut().replace(self.clone())));
        work()
    }
}

#[cfg(test)]
mod tests {
    use super::{carry, current, interruptible, past, Cancel};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    #[test]
    fn a_cancelled_work_is_past_its_deadline_and_only_on_its_thread() {
        let later = Some(Instant::now() + Duration::from_secs(60));
        let cancel = Cancel::new();
        assert!(!cancel.run(|| past(later)));
        cancel.set();
        assert!(cancel.run(|| past(later)));
        assert!(!cancel.run(|| past(None)), "work with no deadline is never stopped");
        assert!(!past(later), "the flag is the work's, not the thread's after it");
        let other = cancel.clone();
        assert!(!std::thread::spawn(move || {
            let _ = other;
            past(later)
        })
        .join()
        .unwrap());
        assert!(past(Some(Instant::now())));
    }

    #[test]
    fn work_handed_to_another_thread_carries_the_cancellation() {
        let later = Some(Instant::now() + Duration::from_secs(60));
        let cancel = Cancel::new();
        cancel.set();
        let handed = cancel.run(current);
        let there = std::thread::spawn(move || (carry(handed.as_ref(), || past(later)), past(later)));
        assert_eq!(there.join().unwrap(), (true, false));
        assert!(!carry(None, || past(later)));
    }

    #[test]
    fn a_call_that_cannot_read_the_clock_is_interrupted_when_its_work_is_cancelled() {
        // the call waits for its interruption (a minute at most)
        let interrupted = AtomicBool::new(false);
        let call = || {
            let end = Instant::now() + Duration::from_secs(60);
            while !interrupted.load(Ordering::Relaxed) && Instant::now() < end {
                std::thread::sleep(Duration::from_millis(1));
            }
            interrupted.load(Ordering::Relaxed)
        };
        let cancel = Cancel::new();
        let setter = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                cancel.set();
            })
        };
        let started = Instant::now();
        assert!(cancel.run(|| interruptible(|| interrupted.store(true, Ordering::Relaxed), call)));
        assert!(started.elapsed() < Duration::from_secs(5));
        setter.join().unwrap();
        // with no cancellation, the call runs alone and is never interrupted
        assert_eq!(interruptible(|| panic!("no cancellation to interrupt"), || 7), 7);
    }
}
