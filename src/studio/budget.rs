//! The time budget of a studio request: `?budget_ms=N` on the URL (at most
//! [`MAX_BUDGET_MS`]) or the server's default. Work that can stop itself
//! reads the deadline (the complete solver, the difficulty measure, the
//! Witness players), which comes a tenth of the budget (at most 20 ms)
//! before the budget's end, kept back for the answer; the work runs on the
//! blocking pool, holding its place among the requests at work until it
//! ends, is answered `unknown` if it is still going a moment after the
//! budget's end, is given up when its client goes away, and a panic in it is answered 500, never stopping the
//! server.

use super::players::Players;
use super::{Answer, ApiError};
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};
use stratsynth::deadline::Cancel;
use stratsynth::stop::Stop;
use tokio::sync::OwnedSemaphorePermit;

/// The largest budget a request may ask for.
pub const MAX_BUDGET_MS: u64 = 60_000;

/// Time past the deadline given to work that stops itself at the deadline
/// to finish its answer (the player's solve after the solver's count).
const GRACE: Duration = Duration::from_millis(250);

/// The most time kept back from a budget for the answer ([`Budget::deadline`]).
const MAX_RESERVE: Duration = Duration::from_millis(20);

/// A request's time budget.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// The budget in milliseconds.
    pub ms: u64,
    /// When the work stops: a tenth of the budget (at most [`MAX_RESERVE`])
    /// before it runs out, kept back for the answer (unwinding, the JSON,
    /// the hand-over to the request's thread, the write), so that the
    /// answer is out by the end of the budget even when its thread waits
    /// some milliseconds for a core on a loaded machine.
    pub deadline: Instant,
    /// When it runs out: the answer is due.
    pub answer_by: Instant,
    /// The bytes of memory the whole server may hold (`--memory`): a
    /// complete search stops (`"stopped": "memory"`) past them.
    pub memory: Option<u64>,
}

impl Budget {
    /// The budget `?budget_ms=N` of `url`, else `default_ms`, from now.
    pub fn of_url(url: &str, default_ms: u64) -> Result<Budget, ApiError> {
        let query = url.split_once('?').map_or("", |(_, q)| q);
        let mut ms = default_ms;
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("budget_ms", n)) => {
                    ms = n.parse().ok().filter(|n| (1..=MAX_BUDGET_MS).contains(n)).ok_or_else(|| {
                        ApiError::bad(format!("budget_ms={n}: expected milliseconds from 1 to {MAX_BUDGET_MS}"))
                    })?;
                }
                _ => return Err(ApiError::bad(format!("unknown query parameter `{pair}`: expected budget_ms=N"))),
            }
        }
        Ok(Budget::from_ms(ms))
    }

    /// A budget of `ms` milliseconds from now.
    pub fn from_ms(ms: u64) -> Budget {
        let (now, whole) = (Instant::now(), Duration::from_millis(ms));
        let deadline = now + whole - (whole / 10).min(MAX_RESERVE);
        Budget { ms, deadline, answer_by: now + whole, memory: None }
    }
}

/// Runs `work` on the blocking pool, holding `slot` (a place among the
/// requests at work) until the work ends: its answer (500 if it panicked),
/// or `None` if it is still going [`GRACE`] after the deadline (the
/// searches read the deadline, so it stops there; its answer is dropped).
/// The work is given up ([`Cancel`]: its searches stop at their next
/// reading of the clock, freeing the slot) when this future is dropped
/// (the client went away: its connection closed, or the page cancelled the
/// request) and when its answer is no longer awaited.
pub async fn run_within(
    budget: &Budget,
    slot: OwnedSemaphorePermit,
    work: impl FnOnce(&Budget) -> Answer + Send + 'static,
) -> Option<Answer> {
    let b = *budget;
    let cancel = Cancel::new();
    let _give_up = GiveUp(cancel.clone());
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        catch_unwind(AssertUnwindSafe(|| cancel.run(|| work(&b)))).unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(ApiError { status: 500, message: format!("internal error (the server goes on): {why}") })
        })
    });
    let wait = budget.answer_by.saturating_duration_since(Instant::now()) + GRACE;
    match tokio::time::timeout(wait, task).await {
        Ok(Ok(answer)) => Some(answer),
        Ok(Err(e)) => Some(Err(ApiError { status: 500, message: format!("internal error (the server goes on): {e}") })),
        Err(_) => None,
    }
}

/// Gives the work of a request up when dropped: with the request's future
/// (its client gone) or once its answer is given.
struct GiveUp(Cancel);

impl Drop for GiveUp {
    fn drop(&mut self) {
        self.0.set();
    }
}

/// The answer of work stopped by its budget: `{"stopped": Stop::Timeout.name(),
/// "budget_ms": N}`.
pub fn stopped(_: &Players, budget: &Budget) -> Value {
    json!({"stopped": Stop::Timeout.name(), "budget_ms": budget.ms})
}
