//! The robotsmatch web tester: one static page and a JSON API over the engine, served by
//! `robotsmatch serve` (DESIGN.md section 4).
//!
//! # Sections
//!
//! - [`router`] / [`router_with`]: the axum application. `GET /` serves the page
//!   (`assets/index.html`, `app.css`, `app.js`, compiled into the binary, no CDN);
//!   `GET /api/crawlers`, `POST /api/check`, `/api/lint`, `/api/diff` answer JSON with the
//!   semantics of the command line (see [`api`]).
//! - [`Limits`]: request body size, robots.txt size, URL count and length, time per request,
//!   how many large requests are worked on at once, connections, header, body and idle
//!   timeouts.
//! - [`serve`], [`serve_on`], [`serve_until`] (async) and [`run`] (blocking, prints the
//!   address it listens on); the accept loop is in `server.rs`.
//!
//! Every error is JSON, `{"error": "..."}`, naming the field at fault: 400 for bad input
//! (not JSON, not an object, an unknown field, a wrong type, a missing field, an unknown
//! profile), 408 when the body does not arrive in time, 413 over a limit, 415 without a JSON
//! content type, 404 for an unknown path, 405 for a wrong method, 503 when the work takes
//! longer than the time limit or too many large requests are waiting. Nothing is stored:
//! every request is parsed, decided and forgotten.
//!
//! # Expensive requests (issue 16)
//!
//! The work of a request runs on a blocking thread with a cancel flag ([`api::Cancel`]) that
//! is set as soon as the request is answered or abandoned: on the 503 of the time limit, when
//! the client goes away, on Ctrl-C. `lint`, `check` and `diff` look at it between rules and
//! URLs, so no work outlives its request. Requests whose body is larger than
//! [`Limits::expensive_body_bytes`] take one of [`Limits::max_expensive`] places first
//! (waiting for one counts toward the time limit); small requests never wait for them, so the
//! page stays responsive while large ones run.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod api;
mod server;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::header::{self, HeaderValue};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde_json::Value;
use tokio::sync::Semaphore;
use tokio::time::Instant;

use api::{ApiError, Cancel};
pub use server::{serve, serve_on, serve_until};

/// What one request (and one connection) may ask for. Over a limit the answer is 413 (408
/// for a body that does not arrive in time, 503 for time and for too many large requests).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes of one robots.txt text (`robots`, `old`, `new`). Default 600 KiB: the 500 KiB
    /// a crawler parses plus a margin, so that lint can still say the file is too large.
    pub max_robots_bytes: usize,
    /// Entries of `urls`. Default 10,000.
    pub max_urls: usize,
    /// Bytes of one URL (and of `agent`). Default 16 KiB.
    pub max_url_bytes: usize,
    /// Bytes of a request body. Default 4 MiB: two robots.txt files and a URL list.
    pub max_body_bytes: usize,
    /// Time for the work of one request, waiting for a place among the expensive ones
    /// included. Default 10 s. Past it the answer is 503 and the work is cancelled.
    pub time_limit: Duration,
    /// A request whose body is larger than this is expensive. Default 16 KiB: the page's
    /// requests for a typical robots.txt stay below it.
    pub expensive_body_bytes: usize,
    /// Expensive requests worked on at once; others wait (within their time limit). Default:
    /// one less than the cores, at least one.
    pub max_expensive: usize,
    /// Connections open at once. Default 256; a connection over it gets a 503 and is closed.
    pub max_connections: usize,
    /// Time to receive the head of a request, counted from when the server starts waiting
    /// for it (a new connection, or a kept-alive one after its previous answer): the
    /// header-read timeout, and the idle timeout between requests. Default 10 s; then the
    /// connection is closed.
    pub header_timeout: Duration,
    /// Time to receive the body once the head is in. Default 10 s; then the answer is 408.
    pub body_timeout: Duration,
    /// A connection on which nothing is read or written for this long while no request of
    /// it is being worked on (a client that does not read its answer) is closed. Default 10 s.
    pub idle_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            max_robots_bytes: 600 * 1024,
            max_urls: 10_000,
            max_url_bytes: 16 * 1024,
            max_body_bytes: 4 << 20,
            time_limit: Duration::from_secs(10),
            expensive_body_bytes: 16 * 1024,
            max_expensive: cores.saturating_sub(1).max(1),
            max_connections: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(10),
        }
    }
}

/// The state every handler shares: the limits, the places for expensive requests, and
/// whether the server is stopping.
pub(crate) struct Shared {
    limits: Arc<Limits>,
    expensive: Arc<Semaphore>,
    stopping: tokio::sync::watch::Sender<bool>,
}

impl Shared {
    /// Tells every request in progress that the server stops: each answers 503 at once and
    /// its work is cancelled.
    pub(crate) fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// Completes when the server stops.
    async fn stopped(&self) {
        let mut rx = self.stopping.subscribe();
        let _ = rx.wait_for(|&stopping| stopping).await;
    }
}

/// The 503 of a request cut short because the server stops.
fn stopping_error() -> ApiError {
    ApiError {
        status: 503,
        message: "the server is stopping".into(),
    }
}

/// An API function: the parsed body, the limits, the request's cancel flag.
type ApiFn = fn(&Value, &Limits, &Cancel) -> Result<Value, ApiError>;

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_CSS: &str = include_str!("../assets/app.css");
const APP_JS: &str = include_str!("../assets/app.js");

/// The Content-Security-Policy of every response: nothing from elsewhere, no inline script
/// or style, no framing.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The application with the default [`Limits`].
pub fn router() -> Router {
    router_with(Limits::default())
}

/// The application with `limits`.
pub fn router_with(limits: Limits) -> Router {
    app(limits).0
}

/// The application and its shared state (which the server tells when it stops).
pub(crate) fn app(limits: Limits) -> (Router, Arc<Shared>) {
    let body_limit = limits.max_body_bytes;
    let state = Arc::new(Shared {
        expensive: Arc::new(Semaphore::new(limits.max_expensive.max(1))),
        limits: Arc::new(limits),
        stopping: tokio::sync::watch::Sender::new(false),
    });
    let shared = state.clone();
    let api = |f: ApiFn| {
        move |State(shared): State<Arc<Shared>>, req: Request| async move {
            respond(run_api(shared, req, f).await)
        }
    };
    let router = Router::new()
        .route("/", get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }))
        .route("/index.html", get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }))
        .route("/app.css", get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }))
        .route(
            "/app.js",
            get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route("/api/crawlers", get(|| async { respond(Ok(api::crawlers())) }))
        .route("/api/check", post(api(api::check)))
        .route("/api/lint", post(api(api::lint_api)))
        .route("/api/diff", post(api(api::diff)))
        .fallback(|| async {
            respond(Err(ApiError {
                status: 404,
                message: "no such page or endpoint (the API is GET /api/crawlers, POST /api/check, /api/lint, /api/diff)".into(),
            }))
        })
        .method_not_allowed_fallback(|| async {
            respond(Err(ApiError {
                status: 405,
                message: "method not allowed (the page and /api/crawlers take GET; /api/check, /api/lint and /api/diff take POST)".into(),
            }))
        })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::map_response(headers_and_json_errors))
        .with_state(state);
    (router, shared)
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut r = Response::new(Body::from(body));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// Checks the request (JSON content type, body within the limit and in time, valid JSON),
/// takes a place among the expensive requests when it is one, then runs `f` on a blocking
/// thread under the time limit. The work's cancel flag is set however this ends: answered,
/// timed out, or dropped because the client went away or the server stops.
async fn run_api(shared: Arc<Shared>, req: Request, f: ApiFn) -> Result<Value, ApiError> {
    let limits = shared.limits.clone();
    let json_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json_type {
        return Err(ApiError {
            status: 415,
            message: "the request body must be JSON, sent with 'Content-Type: application/json'"
                .into(),
        });
    }
    let body = match tokio::time::timeout(limits.body_timeout, Bytes::from_request(req, &())).await
    {
        Err(_elapsed) => {
            return Err(ApiError {
                status: 408,
                message: format!(
                    "the request body did not arrive within {} ms",
                    limits.body_timeout.as_millis()
                ),
            })
        }
        Ok(Err(r)) if r.status().as_u16() == 413 => {
            return Err(ApiError::too_large(format!(
                "the request body is larger than {} bytes",
                limits.max_body_bytes
            )))
        }
        Ok(Err(r)) => {
            return Err(ApiError {
                status: r.status().as_u16(),
                message: format!("cannot read the request body: {}", r.body_text()),
            })
        }
        Ok(Ok(body)) => body,
    };
    let deadline = Instant::now() + limits.time_limit;
    let cancel = Cancel::new();
    let _cancel_on_drop = cancel.on_drop();
    let place = if body.len() > limits.expensive_body_bytes {
        let wait = tokio::time::timeout_at(deadline, shared.expensive.clone().acquire_owned());
        let waited = tokio::select! {
            waited = wait => waited,
            () = shared.stopped() => return Err(stopping_error()),
        };
        match waited {
            Ok(Ok(place)) => Some(place),
            Ok(Err(_)) | Err(_) => {
                return Err(ApiError {
                    status: 503,
                    message: format!(
                        "the server is busy with other large requests (at most {} at once, larger than {} bytes); none finished within the time limit of {} ms: try again",
                        limits.max_expensive,
                        limits.expensive_body_bytes,
                        limits.time_limit.as_millis()
                    ),
                })
            }
        }
    } else {
        None
    };
    let work_cancel = cancel.clone();
    let work_limits = limits.clone();
    let work = tokio::task::spawn_blocking(move || {
        // The place is held until the work has really stopped.
        let _place = place;
        let req: Value = serde_json::from_slice(&body)
            .map_err(|e| ApiError::bad(format!("the request body is not valid JSON: {e}")))?;
        f(&req, &work_limits, &work_cancel)
    });
    let done = tokio::select! {
        done = tokio::time::timeout_at(deadline, work) => done,
        () = shared.stopped() => return Err(stopping_error()),
    };
    match done {
        Ok(Ok(result)) => result,
        Ok(Err(_panic)) => Err(ApiError {
            status: 500,
            message: "internal error while deciding (a bug: please report it with the input)"
                .into(),
        }),
        Err(_elapsed) => Err(ApiError {
            status: 503,
            message: format!(
                "the request took longer than the time limit of {} ms",
                limits.time_limit.as_millis()
            ),
        }),
    }
}

fn respond(result: Result<Value, ApiError>) -> Response {
    let (status, value) = match result {
        Ok(v) => (StatusCode::OK, v),
        Err(e) => (
            StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            e.to_json(),
        ),
    };
    let bytes = serde_json::to_vec(&value).unwrap_or_else(|_| b"{\"error\":\"?\"}".to_vec());
    let mut r = Response::new(Body::from(bytes));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

/// Adds the security headers to every response, and turns any error response that is not
/// JSON yet (one of axum's own) into `{"error": reason}`.
async fn headers_and_json_errors(mut r: Response) -> Response {
    let is_json = r
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (r.status().is_client_error() || r.status().is_server_error()) && !is_json {
        let status = r.status();
        let reason = status.canonical_reason().unwrap_or("error").to_lowercase();
        let mut j = respond(Err(ApiError {
            status: status.as_u16(),
            message: reason,
        }));
        for (k, v) in r.headers() {
            if k == header::ALLOW {
                j.headers_mut().insert(k, v.clone());
            }
        }
        r = j;
    }
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

/// `127.0.0.1:8080`, `[::1]:0`, or a name and a port (`localhost:8080`, its first address).
fn resolve(bind: &str) -> io::Result<SocketAddr> {
    use std::net::ToSocketAddrs;
    let bad = |why: String| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--bind '{bind}': {why} (expected an address and a port, such as 127.0.0.1:8080)"
            ),
        )
    };
    if let Ok(addr) = bind.parse() {
        return Ok(addr);
    }
    match bind.to_socket_addrs() {
        Ok(mut addrs) => addrs.next().ok_or_else(|| bad("no address".into())),
        Err(e) => Err(bad(e.to_string())),
    }
}

/// Parses `bind` (`127.0.0.1:8080`, `[::1]:0`...), binds it, prints
/// `robotsmatch serve: listening on http://ADDR/` on stdout, and serves with `limits` until
/// Ctrl-C. Blocking: it runs its own tokio runtime, and returns within about a second of
/// Ctrl-C whatever the requests in progress were doing (their work is cancelled).
pub fn run(bind: &str, limits: Limits) -> io::Result<()> {
    let addr = resolve(bind)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The expensive requests' places, and as many threads again for small requests.
        .max_blocking_threads(limits.max_expensive.max(1) + 8)
        .build()?;
    let result = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        let local = listener.local_addr()?;
        {
            // The address is for whoever started the server; if they stopped reading (a
            // closed pipe), the server still runs: write errors are ignored.
            use std::io::Write;
            let mut out = io::stdout().lock();
            let mut text = format!("robotsmatch serve: listening on http://{local}/\n");
            if !local.ip().is_loopback() {
                text.push_str(&format!(
                    "robotsmatch serve: warning: {} is not a loopback address; anyone who can reach it can use the tester\n",
                    local.ip()
                ));
            }
            text.push_str("robotsmatch serve: press Ctrl-C to stop\n");
            let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        }
        serve_on(listener, limits).await
    });
    // Work still running has seen its cancel flag; do not wait for a blocking thread that is
    // between two checks.
    rt.shutdown_timeout(Duration::from_millis(500));
    result
}
