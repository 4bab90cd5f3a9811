//! The designer's studio (`stratsynth studio`): one local web page and the
//! JSON API it uses, served by `tiny_http`. This module owns the server:
//! the routes, reading a request (body at most [`MAX_BODY`], JSON), the
//! time budget of each request, the limit on requests at work, and turning
//! every failure (bad input, a panic, a budget run out) into an answer, so
//! that no request stops the server. The answers themselves are
//! [`nonogram`]'s and [`witness`]'s; the page is in `assets/`, built into
//! the binary.

pub mod bench;
pub mod budget;
pub mod command;
pub mod nonogram;
pub mod players;
pub mod witness;

use budget::{run_within, Budget};
use players::Players;
use serde_json::{json, Value};
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response, Server};

/// The largest request body read (1 MiB); a larger one is refused (413).
pub const MAX_BODY: usize = 1 << 20;

/// Requests at work at once (including those past their budget whose work
/// has not stopped yet); more are refused with 503.
pub const MAX_AT_WORK: usize = 16;

/// A failed request: its HTTP status and a message saying what was wrong.
#[derive(Debug)]
pub struct ApiError {
    /// 4xx for the client's mistakes, 5xx for the server's.
    pub status: u16,
    /// What was wrong, for the designer.
    pub message: String,
}

impl ApiError {
    /// A 400: the request is malformed.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError { status: 400, message: message.into() }
    }

    /// A 422: well-formed, but not a puzzle the tool can take.
    pub fn unfit(message: impl Into<String>) -> ApiError {
        ApiError { status: 422, message: message.into() }
    }
}

/// What a route answers: JSON, or an error.
pub type Answer = Result<Value, ApiError>;

/// A POST route of the API: its path, its work, and its answer when the
/// work is still going at the end of the budget (an `unknown`).
struct Route {
    path: &'static str,
    work: fn(&Players, &[u8], &Budget) -> Answer,
    unknown: fn(&Players, &Budget) -> Value,
}

const ROUTES: &[Route] = &[
    Route { path: "/api/nonogram/analyze", work: nonogram::analyze, unknown: nonogram::analyze_unknown },
    Route { path: "/api/nonogram/explain", work: nonogram::explain, unknown: budget::stopped },
    Route { path: "/api/nonogram/repair", work: nonogram::repair, unknown: budget::stopped },
    Route { path: "/api/nonogram/random", work: nonogram::random, unknown: budget::stopped },
    Route { path: "/api/nonogram/open", work: nonogram::open, unknown: budget::stopped },
    Route { path: "/api/nonogram/export", work: nonogram::export, unknown: budget::stopped },
    Route { path: "/api/witness/analyze", work: witness::analyze, unknown: witness::analyze_unknown },
    Route { path: "/api/witness/solutions", work: witness::solutions, unknown: budget::stopped },
    Route { path: "/api/witness/generate", work: witness::generate, unknown: budget::stopped },
    Route { path: "/api/witness/open", work: witness::open, unknown: budget::stopped },
    Route { path: "/api/witness/export", work: witness::export, unknown: budget::stopped },
];

/// The page's files: path, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("assets/index.html")),
    ("/studio.css", "text/css; charset=utf-8", include_str!("assets/studio.css")),
    ("/common.js", "text/javascript; charset=utf-8", include_str!("assets/common.js")),
    ("/nonogram.js", "text/javascript; charset=utf-8", include_str!("assets/nonogram.js")),
    ("/witness.js", "text/javascript; charset=utf-8", include_str!("assets/witness.js")),
];

/// Serves until the server is unblocked (Ctrl-C): each request on a thread
/// of its own, at most [`MAX_AT_WORK`] at work.
pub fn serve(server: Arc<Server>, players: Arc<Players>, default_budget_ms: u64) {
    let at_work = Arc::new(AtomicUsize::new(0));
    while let Ok(request) = server.recv() {
        if at_work.fetch_add(1, Ordering::SeqCst) >= MAX_AT_WORK {
            at_work.fetch_sub(1, Ordering::SeqCst);
            let error = ApiError { status: 503, message: format!("busy: {MAX_AT_WORK} requests at work; try again") };
            respond(request, Err(error));
            continue;
        }
        let (players, counter) = (Arc::clone(&players), Arc::clone(&at_work));
        let spawned = std::thread::Builder::new().name("studio request".into()).spawn(move || {
            answer(request, players, default_budget_ms, &counter);
        });
        if spawned.is_err() {
            at_work.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Answers one request; `at_work` is lowered when its work is over (which
/// may be after the answer, for work past its budget).
fn answer(mut request: Request, players: Arc<Players>, default_budget_ms: u64, at_work: &Arc<AtomicUsize>) {
    let path = request.url().split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    if let Some((_, kind, text)) = ASSETS.iter().find(|(p, ..)| *p == path) {
        at_work.fetch_sub(1, Ordering::SeqCst);
        if method != Method::Get {
            return respond(request, Err(ApiError { status: 405, message: format!("{path}: expected GET") }));
        }
        let header = Header::from_bytes("Content-Type", *kind).expect("a valid header");
        let _ = request.respond(Response::from_string(*text).with_header(header));
        return;
    }
    let Some(route) = ROUTES.iter().find(|r| r.path == path) else {
        at_work.fetch_sub(1, Ordering::SeqCst);
        return respond(request, Err(ApiError { status: 404, message: format!("{path}: no such page or API route") }));
    };
    if method != Method::Post {
        at_work.fetch_sub(1, Ordering::SeqCst);
        return respond(
            request,
            Err(ApiError { status: 405, message: format!("{path}: expected POST with a JSON body") }),
        );
    }
    let body = match read_body(&mut request) {
        Ok(body) => body,
        Err(e) => {
            at_work.fetch_sub(1, Ordering::SeqCst);
            return respond(request, Err(e));
        }
    };
    let budget = match Budget::of_url(request.url(), default_budget_ms) {
        Ok(b) => b,
        Err(e) => {
            at_work.fetch_sub(1, Ordering::SeqCst);
            return respond(request, Err(e));
        }
    };
    let work = route.work;
    let release = Release(Arc::clone(at_work));
    let at_work_players = Arc::clone(&players);
    let answered = run_within(&budget, move |b| {
        let _release = release;
        work(&at_work_players, &body, b)
    });
    respond(request, answered.unwrap_or_else(|| Ok((route.unknown)(&players, &budget))));
}

/// Lowers the count of requests at work when dropped (also when the work
/// panicked).
struct Release(Arc<AtomicUsize>);

impl Drop for Release {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The body, at most [`MAX_BODY`] bytes.
fn read_body(request: &mut Request) -> Result<Vec<u8>, ApiError> {
    let too_large = || ApiError { status: 413, message: format!("the request body is over {MAX_BODY} bytes (1 MiB)") };
    let mut body = vec![];
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| ApiError::bad(format!("reading the request body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large());
    }
    Ok(body)
}

/// Sends an answer: 200 with its JSON, or the error's status with
/// `{"error": message}`.
fn respond(request: Request, answer: Answer) {
    let (status, value) = match answer {
        Ok(v) => (200, v),
        Err(e) => (e.status, json!({"error": e.message})),
    };
    let header = Header::from_bytes("Content-Type", "application/json").expect("a valid header");
    let _ = request.respond(Response::from_string(value.to_string()).with_status_code(status).with_header(header));
}

/// A JSON body: an object whose keys are among `allowed` (a misspelt
/// option is refused, not ignored).
pub fn json_body(body: &[u8], allowed: &[&str]) -> Result<serde_json::Map<String, Value>, ApiError> {
    let value: Value = serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("malformed JSON: {e}")))?;
    let map = match value {
        Value::Object(map) => map,
        other => return Err(ApiError::bad(format!("expected a JSON object, found {}", kind(&other)))),
    };
    if let Some(k) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(ApiError::bad(format!("unknown field `{k}`: expected one of {}", allowed.join(", "))));
    }
    Ok(map)
}

/// What a JSON value is, in words.
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Field `key` of `body` as an unsigned integer within `range`, or `default`.
pub fn uint(
    body: &serde_json::Map<String, Value>,
    key: &str,
    range: std::ops::RangeInclusive<u64>,
    default: Option<u64>,
) -> Result<u64, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => default.ok_or_else(|| ApiError::bad(format!("`{key}` is missing"))),
        Some(v) => v.as_u64().filter(|n| range.contains(n)).ok_or_else(|| {
            ApiError::bad(format!("`{key}`: expected an integer from {} to {}, found {v}", range.start(), range.end()))
        }),
    }
}

/// Field `key` of `body` as a string, or `default`.
pub fn string<'a>(
    body: &'a serde_json::Map<String, Value>,
    key: &str,
    default: Option<&'a str>,
) -> Result<&'a str, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => default.ok_or_else(|| ApiError::bad(format!("`{key}` is missing"))),
        Some(Value::String(s)) => Ok(s),
        Some(v) => Err(ApiError::bad(format!("`{key}`: expected a string, found {}", kind(v)))),
    }
}
