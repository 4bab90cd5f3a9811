//! Periodic progress lines on standard error for work that has no events
//! to tell ([`ticking`]): a long search says where it is every few seconds.

use std::io::Write as _;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often [`ticking`] speaks.
const TICK: Duration = Duration::from_secs(5);

/// Runs `work`, printing `say(elapsed)` on standard error every few seconds
/// until it ends (when `say` gives a line).
pub fn ticking<T>(say: impl Fn(Duration) -> Option<String> + Sync, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let (done, waiting) = channel::<()>();
    std::thread::scope(|scope| {
        let say = &say;
        scope.spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = waiting.recv_timeout(TICK) {
                if let Some(line) = say(started.elapsed()) {
                    let _ = writeln!(std::io::stderr(), "{line}");
                }
            }
        });
        let out = work();
        drop(done);
        out
    })
}
