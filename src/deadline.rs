//! When a bounded search's time is up: its deadline has passed, or the
//! work it is part of was given up (a studio request whose client went
//! away or whose page cancelled it). Every search that runs to a deadline
//! asks [`past`], so one flag, [`Cancel`], stops them all at the next
//! reading of their clock, wherever they read it. The flag is the work's
//! thread's: [`Cancel::run`] sets it for the work it runs on this thread
//! (the searches are single-threaded; the CLI never sets one).

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

    /// The cancellation of the work running on this thread, if any: what
    /// work that spreads over worker threads carries to them ([`carried`]).
    pub fn current() -> Option<Cancel> {
        CANCEL.with(|c| c.borrow().clone())
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

/// Runs `work` under `cancel` if there is one ([`Cancel::current`] of the
/// thread that started the work), else as it is.
pub fn carried<R>(cancel: &Option<Cancel>, work: impl FnOnce() -> R) -> R {
    match cancel {
        Some(c) => c.run(work),
        None => work(),
    }
}

#[cfg(test)]
mod tests {
    use super::{carried, past, Cancel};
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
        // carried to another thread, the flag stops the work there too
        let carried_over = cancel.run(Cancel::current);
        assert!(Cancel::current().is_none());
        assert!(std::thread::spawn(move || carried(&carried_over, || past(later))).join().unwrap());
        assert!(past(Some(Instant::now())));
    }
}
