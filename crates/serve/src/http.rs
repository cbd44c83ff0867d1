//! The HTTP side: one thread answering requests in turn through [`App::handle`].
//!
//! One game and one search at a time need no concurrency; while the bot thinks, the next
//! request simply waits.

use crate::api::{App, Reply};
use ghast::Ghast;
use mcts::Evaluator;
use std::io::Read;
use std::net::SocketAddr;
use thiserror::Error;
use tiny_http::{Header, Request, Response, Server};

/// Request bodies are a few small JSON fields; anything longer is cut off (and then fails to
/// parse) rather than buffered.
const MAX_BODY: u64 = 64 * 1024;

#[derive(Debug, Error)]
pub enum ServeError {
    #[error("cannot listen on {address}: {source}")]
    Bind {
        address: SocketAddr,
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// Serves `app` on `address` until the process ends. `ready` is called with the address
/// actually bound (port 0 picks a free port) before the first request is read.
pub fn serve<E: Evaluator<Ghast>>(
    mut app: App<E>,
    address: SocketAddr,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let server = Server::http(address).map_err(|source| ServeError::Bind { address, source })?;
    let bound = server.server_addr().to_ip().unwrap_or(address);
    ready(bound);
    for mut request in server.incoming_requests() {
        let mut body = String::new();
        let reply = match request.as_reader().take(MAX_BODY).read_to_string(&mut body) {
            Ok(_) => app.handle(request.method().as_str(), request.url(), &body),
            Err(error) => Reply {
                status: 400,
                content_type: "text/plain; charset=utf-8",
                body: format!("unreadable request body: {error}"),
                download: None,
            },
        };
        respond(request, reply);
    }
    Ok(())
}

fn respond(request: Request, reply: Reply) {
    let header = |name: &str, value: &str| {
        Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("headers are ASCII")
    };
    let mut response = Response::from_string(reply.body)
        .with_status_code(reply.status)
        .with_header(header("Content-Type", reply.content_type))
        .with_header(header("Cache-Control", "no-store"));
    if let Some(name) = reply.download {
        let disposition = format!("attachment; filename=\"{name}\"");
        response.add_header(header("Content-Disposition", &disposition));
    }
    // A client that went away is no reason to stop serving the others.
    let _ = request.respond(response);
}
