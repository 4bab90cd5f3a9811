//! The designer's studio (`stratsynth studio`): one local web page and the
//! JSON API it uses. This module owns the application: the routes (an
//! axum router, served by [`server`]), reading a request's body (at most
//! [`MAX_BODY`], within the read timeout), the time budget of each request,
//! the limit on requests at work (one past it is answered 503 at once), and
//! turning every failure (bad input, a panic, a budget run out) into an
//! answer, so that no request stops the server. The answers themselves are
//! [`nonogram`]'s, [`witness`]'s and [`flow`]'s; the requests are typed in
//! [`requests`]; the page is in `assets/`, built into the binary.

pub mod bench;
pub mod budget;
pub mod command;
pub mod flow;
pub mod guard;
pub mod nonogram;
pub mod players;
pub mod requests;
pub mod server;
pub mod witness;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use budget::{run_within, Budget};
use guard::Guard;
use http_body_util::BodyExt;
use players::Players;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The largest request body read (1 MiB); a larger one is refused (413).
pub const MAX_BODY: usize = 1 << 20;

/// Bytes of a body past [`MAX_BODY`] still read (and dropped) before the
/// 413, so that a client sending a little too much reads the answer rather
/// than a reset connection.
const LINGER: usize = 1 << 20;

/// Requests at work at once (including those past their budget whose work
/// has not stopped yet); more are refused with 503 at once.
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
    Route { path: "/api/rules", work: rule_sets, unknown: budget::stopped },
    Route { path: "/api/nonogram/analyze", work: nonogram::analyze, unknown: nonogram::analyze_unknown },
    Route { path: "/api/nonogram/explain", work: nonogram::explain, unknown: budget::stopped },
    Route { path: "/api/nonogram/repair", work: nonogram::repair, unknown: budget::stopped },
    Route { path: "/api/nonogram/random", work: nonogram::random, unknown: budget::stopped },
    Route { path: "/api/nonogram/open", work: nonogram::open, unknown: budget::stopped },
    Route { path: "/api/nonogram/export", work: nonogram::export, unknown: budget::stopped },
    Route { path: "/api/nonogram/owners", work: nonogram::owners, unknown: budget::stopped },
    Route { path: "/api/witness/analyze", work: witness::analyze, unknown: witness::analyze_unknown },
    Route { path: "/api/witness/solutions", work: witness::solutions, unknown: budget::stopped },
    Route { path: "/api/witness/generate", work: witness::generate, unknown: budget::stopped },
    Route { path: "/api/witness/open", work: witness::open, unknown: budget::stopped },
    Route { path: "/api/witness/export", work: witness::export, unknown: budget::stopped },
    Route { path: "/api/flow/analyze", work: flow::analyze, unknown: flow::analyze_unknown },
    Route { path: "/api/flow/explain", work: flow::explain, unknown: budget::stopped },
    Route { path: "/api/flow/generate", work: flow::generate, unknown: budget::stopped },
    Route { path: "/api/flow/repair", work: flow::repair, unknown: budget::stopped },
    Route { path: "/api/flow/open", work: flow::open, unknown: budget::stopped },
    Route { path: "/api/flow/export", work: flow::export, unknown: budget::stopped },
];

/// `POST /api/rules` (body `{}`): the rule file each domain's player uses,
/// `{"nonogram", "Witness", "Flow"}`, named as the other answers name them,
/// so that the page's header names every set before any panel has asked.
fn rule_sets(players: &Players, body: &[u8], _: &Budget) -> Answer {
    let requests::NoFields {} = requests::parse(body)?;
    Ok(json!({"nonogram": players.nonogram_name, "Witness": players.witness.name, "Flow": players.flow.name}))
}

/// The page's files: path, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("assets/index.html")),
    ("/studio.css", "text/css; charset=utf-8", include_str!("assets/studio.css")),
    ("/common.js", "text/javascript; charset=utf-8", include_str!("assets/common.js")),
    ("/nonogram.js", "text/javascript; charset=utf-8", include_str!("assets/nonogram.js")),
    ("/nonogram-tools.js", "text/javascript; charset=utf-8", include_str!("assets/nonogram-tools.js")),
    ("/witness.js", "text/javascript; charset=utf-8", include_str!("assets/witness.js")),
    ("/flow.js", "text/javascript; charset=utf-8", include_str!("assets/flow.js")),
];

/// The studio's state: its players, its default budget, its places for
/// requests at work, how long a body may take to come, and who may drive
/// it.
pub struct Studio {
    /// The rule sets the players use.
    pub players: Arc<Players>,
    /// The budget of a request that asks for none.
    pub default_budget_ms: u64,
    /// The time a request's body has to come, whole.
    pub read_timeout: Duration,
    /// [`MAX_AT_WORK`] places; a request's work holds one until it ends.
    pub at_work: Arc<Semaphore>,
    /// The address served and the token asked.
    pub guard: Guard,
    /// The bytes of memory the server may hold, all its requests together.
    pub memory: u64,
}

impl Studio {
    /// The studio with `players`, a default budget, a read timeout, a
    /// guard and the memory its requests may hold together.
    pub fn new(
        players: Arc<Players>,
        (default_budget_ms, read_timeout): (u64, Duration),
        guard: Guard,
        memory: u64,
    ) -> Studio {
        let at_work = Arc::new(Semaphore::new(MAX_AT_WORK));
        Studio { players, default_budget_ms, read_timeout, at_work, guard, memory }
    }
}

/// The router: every API route (POST), every file of the page (GET), 404
/// and 405 answered in JSON; every request first passes [`guard::check`].
pub fn app(studio: Arc<Studio>) -> Router {
    let mut router = Router::new();
    for route in ROUTES {
        router = router.route(route.path, post(move |State(s): State<Arc<Studio>>, r: Request| api(s, route, r)));
    }
    for asset in ASSETS {
        let page = move |s: State<Arc<Studio>>| async move { ([(CONTENT_TYPE, asset.1)], s.guard.page(asset.2)) };
        router = router.route(asset.0, get(page));
    }
    router
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&studio), guard::check))
        .with_state(studio)
}

/// 404: no such page or route.
async fn not_found(uri: Uri) -> Response {
    respond(Err(ApiError { status: 404, message: format!("{}: no such page or API route", uri.path()) }))
}

/// 405: a page asked with another method than GET, a route with another
/// than POST.
async fn wrong_method(uri: Uri) -> Response {
    let path = uri.path();
    let message = match ASSETS.iter().any(|a| a.0 == path) {
        true => format!("{path}: expected GET"),
        false => format!("{path}: expected POST with a JSON body"),
    };
    respond(Err(ApiError { status: 405, message }))
}

/// Answers one API request: its budget, its body, a place at work (503 if
/// none is free), then the route's work on the blocking pool.
async fn api(studio: Arc<Studio>, route: &'static Route, request: Request) -> Response {
    let budget_of = |url: &str| Budget::of_url(url, studio.default_budget_ms);
    let url = request.uri().to_string();
    let body = match read_body(request.into_body(), studio.read_timeout).await {
        Ok(body) => body,
        Err(e) => return respond(Err(e)),
    };
    let budget = match budget_of(&url) {
        Ok(b) => Budget { memory: Some(studio.memory), ..b },
        Err(e) => return respond(Err(e)),
    };
    let Ok(slot) = Arc::clone(&studio.at_work).try_acquire_owned() else {
        let message = format!("busy: {MAX_AT_WORK} requests at work; try again");
        return respond(Err(ApiError { status: 503, message }));
    };
    let (work, players) = (route.work, Arc::clone(&studio.players));
    let answered = run_within(&budget, slot, move |b| work(&players, &body, b)).await;
    respond(answered.unwrap_or_else(|| Ok((route.unknown)(&studio.players, &budget))))
}

/// The body, at most [`MAX_BODY`] bytes, whole within `within`.
async fn read_body(mut body: Body, within: Duration) -> Result<Vec<u8>, ApiError> {
    let read = async {
        let (mut bytes, mut seen) = (vec![], 0);
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| ApiError::bad(format!("reading the request body: {e}")))?;
            let Ok(data) = frame.into_data() else { continue };
            seen += data.len();
            if seen <= MAX_BODY {
                bytes.extend_from_slice(&data);
            } else if seen > MAX_BODY + LINGER {
                break;
            }
        }
        if seen > MAX_BODY {
            return Err(ApiError {
                status: 413,
                message: format!("the request body is over {MAX_BODY} bytes (1 MiB)"),
            });
        }
        Ok(bytes)
    };
    tokio::time::timeout(within, read).await.unwrap_or_else(|_| {
        let ms = within.as_millis();
        Err(ApiError { status: 408, message: format!("the request body did not come whole within {ms} ms") })
    })
}

/// An answer: 200 with its JSON, or the error's status with
/// `{"error": message}`.
fn respond(answer: Answer) -> Response {
    let (status, value) = match answer {
        Ok(v) => (StatusCode::OK, v),
        Err(e) => {
            (StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR), json!({"error": e.message}))
        }
    };
    (status, [(CONTENT_TYPE, "application/json")], value.to_string()).into_response()
}
