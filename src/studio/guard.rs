//! Only the studio's own page drives it: every request's `Host` must be
//! the address the studio serves (so a page reached through DNS
//! rebinding is refused) and its `Origin`, when sent, that address's
//! (so a page on another site cannot post to the API), else 403; a JSON
//! route takes `Content-Type: application/json` and a file route
//! `application/octet-stream` (415 otherwise), so a browser never sends
//! one cross-site without asking first. Served beyond this machine, the
//! studio also asks a token: the page (`/?token=T`, the URL printed at
//! start) and every API request (`X-Studio-Token: T`, which the page
//! learns from the HTML it was served).

use super::{respond, ApiError, Studio};
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, HOST, ORIGIN};
use axum::http::{HeaderName, Method};
use axum::middleware::Next;
use axum::response::Response;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The header carrying the token.
pub const TOKEN_HEADER: &str = "x-studio-token";

/// The routes that take a file's bytes rather than JSON.
const FILE_ROUTES: &[&str] = &["/api/nonogram/open", "/api/witness/open", "/api/flow/open"];

/// Who may drive the studio: the address it serves and, beyond this
/// machine, the token.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The address bound.
    pub address: SocketAddr,
    /// The token asked of the page and the API (`None` on loopback).
    pub token: Option<String>,
}

impl Guard {
    /// The guard of a studio bound to `address`: a fresh random token
    /// unless the address is a loopback one.
    pub fn new(address: SocketAddr) -> Guard {
        let token = (!address.ip().is_loopback()).then(|| {
            use rand::Rng;
            let mut rng = rand::thread_rng();
            (0..4).map(|_| format!("{:08x}", rng.gen::<u32>())).collect()
        });
        Guard { address, token }
    }

    /// Whether `host` (a `Host` header's value) names the address served:
    /// its IP (any IP when bound to all addresses) or, for a loopback or
    /// unspecified address, `localhost`; with its port.
    fn host_ok(&self, host: &str) -> bool {
        let (name, port) = match host.rsplit_once(':') {
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (host, Some(80)),
        };
        if port != Some(self.address.port()) {
            return false;
        }
        let served = self.address.ip();
        if name.eq_ignore_ascii_case("localhost") {
            return served.is_loopback() || served.is_unspecified();
        }
        match name.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() {
            Ok(ip) => ip == served || served.is_unspecified(),
            Err(_) => false,
        }
    }

    /// Whether a request's token is the one asked (always, when none is).
    fn token_ok(&self, given: Option<&str>) -> bool {
        self.token.as_deref().is_none_or(|t| given == Some(t))
    }

    /// The page's HTML with the token for its API calls.
    pub fn page(&self, html: &str) -> String {
        let token = self.token.as_deref().unwrap_or("");
        html.replace(
            r#"<meta name="studio-token" content="">"#,
            &format!(r#"<meta name="studio-token" content="{token}">"#),
        )
    }
}

/// The check every request passes before its route (403 or 415 otherwise).
pub async fn check(State(studio): State<Arc<Studio>>, request: Request, next: Next) -> Response {
    match refusal(&studio.guard, &request) {
        Some(error) => respond(Err(error)),
        None => next.run(request).await,
    }
}

/// Why `request` is refused, if it is.
fn refusal(guard: &Guard, request: &Request) -> Option<ApiError> {
    let header = |name| request.headers().get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
    let forbidden = |message: String| Some(ApiError { status: 403, message });
    let served = guard.address;
    match header(HOST) {
        Some(host) if guard.host_ok(host) => {}
        Some(host) => return forbidden(format!("Host {host:?} is not the address the studio serves ({served})")),
        None => return forbidden(format!("no Host: the studio serves {served}")),
    }
    if let Some(origin) = header(ORIGIN) {
        if !origin.strip_prefix("http://").is_some_and(|host| guard.host_ok(host)) {
            return forbidden(format!("Origin {origin:?} is not the studio's own page (http://{served})"));
        }
    }
    let path = request.uri().path();
    if path == "/" {
        let given = request.uri().query().and_then(|q| q.split('&').find_map(|p| p.strip_prefix("token=")));
        return (!guard.token_ok(given)).then(|| ApiError {
            status: 403,
            message: "the studio asks the token printed at its start: open the URL it printed".into(),
        });
    }
    if request.method() != Method::POST || !path.starts_with("/api/") {
        return None;
    }
    if !guard.token_ok(header(HeaderName::from_static(TOKEN_HEADER))) {
        return forbidden(format!("the studio asks the token printed at its start, in the header {TOKEN_HEADER}"));
    }
    let wanted = if FILE_ROUTES.contains(&path) { "application/octet-stream" } else { "application/json" };
    let given = header(CONTENT_TYPE).unwrap_or("");
    let media = given.split(';').next().unwrap_or("").trim();
    (!media.eq_ignore_ascii_case(wanted))
        .then(|| ApiError { status: 415, message: format!("{path} takes Content-Type: {wanted}, not {given:?}") })
}
