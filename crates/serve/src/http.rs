//! The HTTP side: hyper connections on tokio, every request answered by [`App::handle`] on
//! the blocking pool, so a long search holds one bot and one thread and nothing else.
//!
//! Limits, so that no client can stall the others or exhaust the server: request heads must
//! arrive within [`Limits::header_timeout`] (a client that connects and sends nothing is cut
//! off), bodies within [`Limits::body_timeout`] and [`MAX_BODY`] bytes, whole requests
//! within [`Limits::request_timeout`], and at most [`Limits::max_connections`] connections
//! are open at once (the next waits to be accepted). Malformed HTTP is answered 400 by hyper,
//! oversized bodies 413, slow ones 408, and the server goes on.
//!
//! A failed device ends the server: the search that met it is answered 500 with the device's
//! words, the server stops accepting connections, lets the requests under way finish (each
//! search fails at once) and returns the error, so that the process exits non-zero.

use crate::api::{App, Reply, Request};
use crate::sessions::COOKIE;
use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use game::{BoardView, DeviceError};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use mcts::Evaluator;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;
use tokio::sync::{Notify, Semaphore};
use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

/// Request bodies are a few small JSON fields; a larger one is refused with 413.
pub const MAX_BODY: usize = 64 * 1024;

/// How long and how many: see the module documentation.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// Longer than the longest search a client may ask for on this machine.
    pub request_timeout: Duration,
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(300),
            max_connections: 256,
        }
    }
}

#[derive(Debug, Error)]
pub enum ServeError {
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot start the server's threads: {0}")]
    Runtime(std::io::Error),
    #[error("the server stopped: {0}")]
    Device(DeviceError),
}

/// Serves `app` on `address` until the process ends, or the bots' device fails. `ready` is
/// called with the address actually bound (port 0 picks a free port) before the first
/// connection is accepted.
pub fn serve<G, E>(
    app: App<G, E>,
    address: SocketAddr,
    limits: Limits,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError>
where
    G: BoardView,
    E: Evaluator<G> + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let bind = |source| ServeError::Bind { address, source };
        let listener = tokio::net::TcpListener::bind(address).await.map_err(bind)?;
        ready(listener.local_addr().map_err(bind)?);
        let app = Arc::new(app);
        let failed = Arc::new(Notify::new());
        let router = router(Arc::clone(&app), Arc::clone(&failed), limits);
        let connections = Arc::new(Semaphore::new(limits.max_connections.max(1)));
        let graceful = GracefulShutdown::new();
        loop {
            let accepted = tokio::select! {
                () = failed.notified() => break,
                accepted = accept(&listener, &connections) => accepted,
            };
            let Some((stream, permit)) = accepted else {
                continue;
            };
            let service = TowerToHyperService::new(router.clone());
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(TokioIo::new(stream), service);
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                let _permit = permit;
                // A client that hangs up or times out ends only its own connection.
                let _ = connection.await;
            });
        }
        // The requests under way finish (their searches fail at once); idle connections
        // close. A client that never reads its answer is not waited for past a request's
        // time.
        let _ = tokio::time::timeout(limits.request_timeout, graceful.shutdown()).await;
        let failure = app.device_failure().expect("stopped for a failed device");
        Err(ServeError::Device(failure.clone()))
    })
}

/// The next connection, once there is room for it; `None` for a failed accept (out of file
/// descriptors, or a connection reset before it was accepted: the listener itself is fine,
/// so the caller goes on after a breath).
async fn accept(
    listener: &tokio::net::TcpListener,
    connections: &Arc<Semaphore>,
) -> Option<(tokio::net::TcpStream, tokio::sync::OwnedSemaphorePermit)> {
    let permit = Arc::clone(connections)
        .acquire_owned()
        .await
        .expect("the semaphore is never closed");
    match listener.accept().await {
        Ok((stream, _)) => Some((stream, permit)),
        Err(_) => {
            tokio::time::sleep(Duration::from_millis(50)).await;
            None
        }
    }
}

fn router<G, E>(app: Arc<App<G, E>>, failed: Arc<Notify>, limits: Limits) -> Router
where
    G: BoardView,
    E: Evaluator<G> + Send + 'static,
{
    Router::new()
        .fallback(
            move |method: Method, uri: Uri, headers: HeaderMap, body: Bytes| {
                answer(
                    Arc::clone(&app),
                    Arc::clone(&failed),
                    method,
                    uri,
                    headers,
                    body,
                )
            },
        )
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(RequestBodyTimeoutLayer::new(limits.body_timeout))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.request_timeout,
        ))
}

/// The reply to one request, from the blocking pool; a search that found the device failed
/// wakes the accept loop to stop the server once this reply is on its way.
async fn answer<G, E>(
    app: Arc<App<G, E>>,
    failed: Arc<Notify>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response
where
    G: BoardView,
    E: Evaluator<G> + Send + 'static,
{
    let handled = Arc::clone(&app);
    let reply = tokio::task::spawn_blocking(move || {
        let body = match std::str::from_utf8(&body) {
            Ok(body) => body,
            Err(_) => return Reply::error(400, "the request body is not UTF-8"),
        };
        let path = uri.path_and_query().map_or("/", |p| p.as_str());
        handled.handle(Request {
            method: method.as_str(),
            path,
            session: session_cookie(&headers),
            body,
        })
    })
    .await
    .unwrap_or_else(|_| Reply::error(500, "the request failed inside the server"));
    if app.device_failure().is_some() {
        failed.notify_one();
    }
    response(reply)
}

/// The session id from the `Cookie` header(s), if any.
fn session_cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('='))
}

fn response(reply: Reply) -> Response {
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, reply.body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(reply.content_type),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let mut set = |name, value: String| {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    };
    if let Some(name) = reply.download {
        set(
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        );
    }
    if let Some(id) = reply.new_session {
        set(
            header::SET_COOKIE,
            format!("{COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("theme=dark; ghast_session=abc123; x=1"),
        );
        assert_eq!(session_cookie(&headers), Some("abc123"));
        headers.insert(header::COOKIE, HeaderValue::from_static("ghast_sessionx=1"));
        assert_eq!(session_cookie(&headers), None);
    }
}
