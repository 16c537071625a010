//! The accept loop: HTTP/1.1 connections over hyper with the limits a public-facing tester
//! needs (issue 16), and a prompt stop.
//!
//! - At most [`Limits::max_connections`] connections are open; one more is answered 503 and
//!   closed at once, so half-sent requests cannot pile up.
//! - A request head must arrive within [`Limits::header_timeout`] of when the server starts
//!   waiting for it (hyper's header-read timer, which also runs while a kept-alive connection
//!   is idle); a connection that neither reads nor writes for [`Limits::idle_timeout`] while
//!   none of its requests is being worked on is closed.
//! - On the shutdown signal (Ctrl-C for [`serve_on`]) the listener closes, requests in
//!   progress are answered 503 (`the server is stopping`) and their work cancelled, idle
//!   connections close, and whatever is still open a second later is dropped.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tower::ServiceExt;

use crate::{app, Limits};

/// How long connections may finish the request they are answering once the server stops.
const GRACE: Duration = Duration::from_secs(1);

/// The answer to a connection over the cap.
const TOO_MANY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 52\r\n\r\n{\"error\":\"too many connections open; try again soon\"}";

/// Binds `addr` and serves the tester with the default limits until Ctrl-C.
pub async fn serve(addr: SocketAddr) -> io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    serve_on(listener, Limits::default()).await
}

/// Serves the tester on `listener` with `limits` until Ctrl-C.
pub async fn serve_on(listener: TcpListener, limits: Limits) -> io::Result<()> {
    serve_until(listener, limits, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// Serves the tester on `listener` with `limits` until `stop` completes; then stops
/// accepting, answers the requests in progress 503 (cancelling their work), closes the
/// connections (dropping what is still open after a second) and returns.
pub async fn serve_until(
    listener: TcpListener,
    limits: Limits,
    stop: impl Future<Output = ()>,
) -> io::Result<()> {
    let (app, shared) = app(limits.clone());
    let limits = Arc::new(limits);
    let places = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let (stopping_tx, stopping) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(stop);
    loop {
        let stream = tokio::select! {
            () = &mut stop => break,
            // Reap finished connections as they end.
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    if !is_connection_error(&e) {
                        // Out of file descriptors and the like: wait rather than spin.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
        };
        let Ok(place) = places.clone().try_acquire_owned() else {
            // Best effort: a client that has sent nothing yet reads the 503.
            let _ = stream.try_write(TOO_MANY);
            continue;
        };
        let _ = stream.set_nodelay(true);
        connections.spawn(connection(
            stream,
            app.clone(),
            limits.clone(),
            stopping.clone(),
            place,
        ));
    }
    drop(listener);
    // Requests in progress answer 503 now (their work is cancelled); idle connections close.
    shared.stop();
    let _ = stopping_tx.send(true);
    let _ = tokio::time::timeout(GRACE, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    connections.shutdown().await;
    Ok(())
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// When a connection last read or wrote, and how many of its requests are being worked on.
struct Activity {
    start: Instant,
    last_ms: AtomicU64,
    in_flight: AtomicUsize,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
        }
    }

    fn touch(&self) {
        let ms = self.start.elapsed().as_millis() as u64;
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    fn last(&self) -> Instant {
        self.start + Duration::from_millis(self.last_ms.load(Ordering::Relaxed))
    }

    /// Completes once the connection has been idle for `idle` with no request in progress.
    async fn idle_for(&self, idle: Duration) {
        loop {
            let now = Instant::now();
            let due = self.last() + idle;
            let wake = if self.in_flight.load(Ordering::Relaxed) > 0 {
                // A request is being worked on: look again later (its end counts as activity).
                now + idle
            } else if now >= due {
                return;
            } else {
                due
            };
            tokio::time::sleep_until(wake).await;
        }
    }
}

/// Counts a request of the connection as in progress while it lives.
struct InFlight(Arc<Activity>);

impl InFlight {
    fn new(activity: Arc<Activity>) -> InFlight {
        activity.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(activity)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
        self.0.touch();
    }
}

/// A stream that records when it last made progress.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch();
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Serves one connection until it ends, times out, goes idle, or the server stops.
async fn connection(
    stream: TcpStream,
    app: Router,
    limits: Arc<Limits>,
    mut stopping: watch::Receiver<bool>,
    _place: OwnedSemaphorePermit,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        inner: stream,
        activity: activity.clone(),
    });
    let requests = activity.clone();
    let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        let in_flight = InFlight::new(requests.clone());
        let app = app.clone();
        async move {
            let response = app.oneshot(req.map(Body::new)).await;
            drop(in_flight);
            response
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let conn = http.serve_connection(io, service);
    tokio::pin!(conn);
    let mut graceful = false;
    loop {
        tokio::select! {
            _ = conn.as_mut() => break,
            () = activity.idle_for(limits.idle_timeout) => break,
            changed = stopping.changed(), if !graceful => {
                graceful = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}
