//! The robotsmatch web tester: one static page and a JSON API over the engine, served by
//! `robotsmatch serve` (DESIGN.md section 4).
//!
//! # Sections
//!
//! - [`router`] / [`router_with`]: the axum application. `GET /` serves the page
//!   (`assets/index.html`, `app.css`, `app.js`, compiled into the binary, no CDN);
//!   `GET /api/crawlers`, `POST /api/check`, `/api/lint`, `/api/diff` answer JSON with the
//!   semantics of the command line (see [`api`]).
//! - [`Limits`]: request body size, robots.txt size, URL count and length, time per request.
//! - [`serve`], [`serve_on`] (async) and [`run`] (blocking, prints the address it listens on).
//!
//! Every error is JSON, `{"error": "..."}`, naming the field at fault: 400 for bad input
//! (not JSON, not an object, an unknown field, a wrong type, a missing field, an unknown
//! profile), 413 over a limit, 415 without a JSON content type, 404 for an unknown path,
//! 405 for a wrong method, 503 when the work takes longer than the time limit. Nothing is
//! stored: every request is parsed, decided and forgotten.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod api;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde_json::Value;

use api::ApiError;

/// What one request may ask for. Over a limit the answer is 413 (503 for time).
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
    /// Time for the work of one request. Default 10 s.
    pub time_limit: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_robots_bytes: 600 * 1024,
            max_urls: 10_000,
            max_url_bytes: 16 * 1024,
            max_body_bytes: 4 << 20,
            time_limit: Duration::from_secs(10),
        }
    }
}

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
    let body_limit = limits.max_body_bytes;
    let state = Arc::new(limits);
    let api = |f: fn(&Value, &Limits) -> Result<Value, ApiError>| {
        move |State(limits): State<Arc<Limits>>,
              headers: HeaderMap,
              body: Result<Bytes, BytesRejection>| async move {
            respond(run_api(limits, headers, body, f).await)
        }
    };
    Router::new()
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
        .with_state(state)
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    let mut r = Response::new(Body::from(body));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// Checks the request (JSON content type, body within the limit, valid JSON), then runs `f`
/// on a blocking thread under the time limit.
async fn run_api(
    limits: Arc<Limits>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
    f: fn(&Value, &Limits) -> Result<Value, ApiError>,
) -> Result<Value, ApiError> {
    let json_type = headers
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
    let body = body.map_err(|r| {
        let status = r.status().as_u16();
        if status == 413 {
            ApiError::too_large(format!(
                "the request body is larger than {} bytes",
                limits.max_body_bytes
            ))
        } else {
            ApiError {
                status,
                message: format!("cannot read the request body: {}", r.body_text()),
            }
        }
    })?;
    let limit = limits.time_limit;
    let work = tokio::task::spawn_blocking(move || {
        let req: Value = serde_json::from_slice(&body)
            .map_err(|e| ApiError::bad(format!("the request body is not valid JSON: {e}")))?;
        f(&req, &limits)
    });
    match tokio::time::timeout(limit, work).await {
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
                limit.as_millis()
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

/// Serves the tester on `listener` until Ctrl-C.
pub async fn serve_on(listener: tokio::net::TcpListener, limits: Limits) -> io::Result<()> {
    axum::serve(listener, router_with(limits))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}

/// Binds `addr` and serves the tester with the default limits until Ctrl-C.
pub async fn serve(addr: SocketAddr) -> io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    serve_on(listener, Limits::default()).await
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
/// `robotsmatch serve: listening on http://ADDR/` on stdout, and serves until Ctrl-C.
/// Blocking: it runs its own tokio runtime.
pub fn run(bind: &str) -> io::Result<()> {
    let addr = resolve(bind)?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(8)
        .build()?;
    rt.block_on(async {
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
        serve_on(listener, Limits::default()).await
    })
}
