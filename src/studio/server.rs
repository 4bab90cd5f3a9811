//! The studio's HTTP server: hyper (HTTP/1.1) under tokio, serving the
//! [`super::app`] router, on a tokio runtime. This module owns the connection's manners, so
//! that no client can hold the server: a limit on open connections (one
//! past it is answered 503 and closed by a task of its own, never blocking
//! the accept loop), the time a client has to send its request head (also
//! while a kept-alive connection is idle), the size of a request head, and
//! a connection's whole life; and stopping on a signal.

use super::{app, Studio, MAX_AT_WORK};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};

/// The largest request head (request line and headers) read: 16 KiB; a
/// larger one is answered 431 and its connection closed.
pub const MAX_HEAD: usize = 16 << 10;

/// The most header lines in a request head.
pub const MAX_HEADERS: usize = 64;

/// How long a connection is kept before it is asked to close after the
/// request it is serving (then given [`super::budget::MAX_BUDGET_MS`] and
/// its read time to end).
const CONNECTION_LIFE: Duration = Duration::from_secs(120);

/// What the server lets a client take.
#[derive(Clone, Copy, Debug)]
pub struct Manners {
    /// Connections open at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// The time a client has to send a request head (from the connection's
    /// start or the end of its previous answer), and, separately, its body.
    pub read_timeout: Duration,
}

/// The answer to a connection past [`Manners::max_connections`].
fn busy() -> String {
    let body = r#"{"error":"busy: too many connections open; try again"}"#;
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Serves the studio `make` makes for the address bound (`address`; port
/// 0: any free) with `manners` until Ctrl-C: a tokio runtime of two
/// threads for the connections, the requests' work on its blocking pool.
pub fn run(
    address: SocketAddr,
    manners: Manners,
    make: impl FnOnce(SocketAddr) -> Result<Studio, String>,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(MAX_AT_WORK + 2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))?;
    let listener =
        runtime.block_on(TcpListener::bind(address)).map_err(|e| format!("cannot listen on {address}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| format!("the server's address: {e}"))?;
    let stop = Arc::new(Notify::new());
    let stopper = Arc::clone(&stop);
    ctrlc::set_handler(move || stopper.notify_one()).map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
    let app = app(Arc::new(make(bound)?));
    runtime.block_on(serve(listener, app, manners, async move { stop.notified().await }));
    runtime.shutdown_timeout(Duration::from_millis(500));
    Ok(())
}

/// Serves `app` on `listener` until `stop` ends: each connection on a task
/// of its own, at most `manners.max_connections` at once.
pub async fn serve(listener: TcpListener, app: Router, manners: Manners, stop: impl Future<Output = ()>) {
    let open = Arc::new(Semaphore::new(manners.max_connections));
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            _ = &mut stop => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // out of file descriptors, say: let connections end
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        match Arc::clone(&open).try_acquire_owned() {
            Ok(slot) => {
                let app = app.clone();
                tokio::spawn(async move {
                    connection(stream, app, manners).await;
                    drop(slot);
                });
            }
            Err(_) => {
                tokio::spawn(refuse(stream, manners.read_timeout));
            }
        }
    }
}

/// Answers 503 to a connection past the limit and closes it (within the
/// read timeout, whatever the client does).
async fn refuse(mut stream: TcpStream, within: Duration) {
    let _ = tokio::time::timeout(within, async {
        stream.write_all(busy().as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
}

/// Serves one connection with the limits of `manners`.
async fn connection(stream: TcpStream, app: Router, manners: Manners) {
    let _ = stream.set_nodelay(true);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(manners.read_timeout)
        .max_buf_size(MAX_HEAD.max(8192))
        .max_header_size(MAX_HEAD)
        .max_headers(MAX_HEADERS);
    let conn = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = tokio::time::sleep(CONNECTION_LIFE) => conn.as_mut().graceful_shutdown(),
    }
    let last = Duration::from_millis(super::budget::MAX_BUDGET_MS) + 2 * manners.read_timeout;
    let _ = tokio::time::timeout(last, conn).await;
}
