//! `check --fetch`: fetch an origin's robots.txt over HTTP(S) and turn what happened into rules
//! with [`robotsmatch::fetch`] (RFC 9309 §2.3).
//!
//! The client (ureq, behind the `fetch` cargo feature) has a time limit per request
//! (`--timeout`, for connecting and for the whole exchange), reads at most the parse limit plus
//! one byte of a body, and follows redirects itself (ureq's own are off) so that the chain is
//! recorded and cut after [`MAX_REDIRECTS`] hops. The user-agent names the tool:
//! `robotsmatch/<version> (+<repository>)`.

use std::time::Duration;

use robotsmatch::cache::Origin;
use robotsmatch::fetch::FetchedRobots;
#[cfg(feature = "fetch")]
use robotsmatch::fetch::{resolve_location, Outcome, MAX_REDIRECTS};
use robotsmatch::ParseConfig;

/// The user-agent header sent.
#[cfg(feature = "fetch")]
pub const USER_AGENT: &str = concat!(
    "robotsmatch/",
    env!("CARGO_PKG_VERSION"),
    " (+",
    env!("CARGO_PKG_REPOSITORY"),
    ")"
);

/// What a fetch did, for the report, and the rules it gave.
pub struct Report {
    /// The robots.txt URL asked for first.
    pub robots_url: String,
    /// The URL of the last request.
    pub final_url: String,
    /// The status of the last response, if any.
    pub status: Option<u16>,
    /// Bytes of the body read (at most the parse limit + 1).
    pub bytes: usize,
    /// The rules and why.
    pub fetched: FetchedRobots,
    /// What the reason alone does not say: a redirect that was not followed, and why.
    pub note: Option<String>,
}

/// The robots.txt URL of `url`'s origin; an error for anything but an absolute http(s) URL.
pub fn robots_url(url: &str) -> anyhow::Result<String> {
    match Origin::from_url(url) {
        Some(o) if o.scheme() == "http" || o.scheme() == "https" => Ok(o.robots_url()),
        Some(o) => anyhow::bail!(
            "--fetch needs an http or https URL, not '{}://' ({url})",
            o.scheme()
        ),
        None => anyhow::bail!(
            "--fetch needs an absolute URL such as https://example.com/page, got '{url}'"
        ),
    }
}

/// Fetches the robots.txt of `url`'s origin.
#[cfg(feature = "fetch")]
pub fn fetch(url: &str, timeout: Duration, parse: &ParseConfig) -> anyhow::Result<Report> {
    use std::io::Read;

    let robots_url = robots_url(url)?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_connect(Some(timeout))
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .user_agent(USER_AGENT)
        .build()
        .into();
    let limit = parse.get_max_bytes() as u64 + 1;
    let mut current = robots_url.clone();
    let mut redirects: Vec<String> = Vec::new();
    let error_text = |e: ureq::Error| match e {
        ureq::Error::Timeout(_) => format!("timed out after {} s", timeout.as_secs_f64()),
        ureq::Error::Io(io) => format!("network error: {io}"),
        e => format!("network error: {e}"),
    };
    loop {
        let response = match agent.get(&current).call() {
            Ok(r) => r,
            Err(e) => {
                let outcome = Outcome::NetworkError {
                    message: error_text(e),
                    redirects,
                };
                return Ok(report(robots_url, current, None, &outcome, 0, parse));
            }
        };
        let status = response.status().as_u16();
        let mut note = None;
        if (300..400).contains(&status) {
            let location = response.headers().get("location");
            match location.map(|v| v.to_str()) {
                Some(Ok(l)) => match resolve_location(&current, l) {
                    Some(next) if is_http(&next) => {
                        redirects.push(std::mem::replace(&mut current, next));
                        if redirects.len() > MAX_REDIRECTS {
                            let outcome = Outcome::TooManyRedirects { redirects };
                            return Ok(report(
                                robots_url,
                                current,
                                Some(status),
                                &outcome,
                                0,
                                parse,
                            ));
                        }
                        continue;
                    }
                    Some(next) => {
                        note = Some(format!(
                        "the redirect to '{next}' was not followed: only http and https URLs are"
                    ))
                    }
                    None => {
                        note = Some(format!(
                            "the redirect was not followed: its Location '{l}' is not a URL"
                        ))
                    }
                },
                Some(Err(_)) => {
                    note = Some(
                        "the redirect was not followed: its Location header is not ASCII text"
                            .to_string(),
                    )
                }
                None => {
                    note = Some(
                        "the redirect was not followed: the response has no Location header"
                            .to_string(),
                    )
                }
            }
        }
        let mut body = Vec::new();
        let read = response
            .into_body()
            .into_with_config()
            .limit(u64::MAX)
            .reader()
            .take(limit)
            .read_to_end(&mut body);
        let outcome = match read {
            Ok(_) => Outcome::Response {
                status,
                body: &body,
                redirects,
            },
            Err(e) if is_timeout(&e) => Outcome::NetworkError {
                message: format!(
                    "timed out after {} s while reading the body of the {status} response, {} bytes in",
                    timeout.as_secs_f64(),
                    body.len()
                ),
                redirects,
            },
            Err(e) => Outcome::NetworkError {
                message: format!(
                    "network error while reading the body of the {status} response, {} bytes in: {e}",
                    body.len()
                ),
                redirects,
            },
        };
        let n = body.len();
        let mut report = report(robots_url, current, Some(status), &outcome, n, parse);
        report.note = note;
        return Ok(report);
    }
}

/// True for an absolute http or https URL: the only redirects followed.
#[cfg(feature = "fetch")]
fn is_http(url: &str) -> bool {
    Origin::from_url(url).is_some_and(|o| o.scheme() == "http" || o.scheme() == "https")
}

/// True when a body read failed on a time limit (ureq wraps its own timeout in the I/O
/// error, whose text is only `timeout: global`).
#[cfg(feature = "fetch")]
fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
    ) || e
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<ureq::Error>())
        .is_some_and(|u| matches!(u, ureq::Error::Timeout(_)))
}

/// Without the `fetch` feature: an error that says so.
#[cfg(not(feature = "fetch"))]
pub fn fetch(url: &str, _timeout: Duration, _parse: &ParseConfig) -> anyhow::Result<Report> {
    robots_url(url)?;
    anyhow::bail!(
        "this robotsmatch was built without the 'fetch' feature: --fetch is not available"
    )
}

#[cfg(feature = "fetch")]
fn report(
    robots_url: String,
    final_url: String,
    status: Option<u16>,
    outcome: &Outcome<'_>,
    bytes: usize,
    parse: &ParseConfig,
) -> Report {
    Report {
        robots_url,
        final_url,
        status,
        bytes,
        fetched: FetchedRobots::from_outcome(outcome, parse),
        note: None,
    }
}

impl Report {
    /// The report as `key: value` lines, indented by two spaces after a `fetch:` line.
    pub fn text(&self, parse: &ParseConfig) -> String {
        let f = &self.fetched;
        let mut s = format!("fetch:       {}\n", self.robots_url);
        let status = self
            .status
            .map_or_else(|| "none".to_string(), |s| s.to_string());
        s.push_str(&format!("  status:    {status}\n"));
        if !f.redirects().is_empty() {
            s.push_str(&format!(
                "  redirects: {}: {} -> {}\n",
                f.redirects().len(),
                f.redirects().join(" -> "),
                self.final_url
            ));
        }
        s.push_str(&format!("  final url: {}\n", self.final_url));
        if f.is_truncated() {
            s.push_str(&format!(
                "  bytes:     more than {} (cut at --max-robots-size)\n",
                parse.get_max_bytes()
            ));
        } else {
            s.push_str(&format!("  bytes:     {}\n", self.bytes));
        }
        s.push_str(&format!("  reason:    {}\n", f.reason()));
        if let Some(note) = &self.note {
            s.push_str(&format!("  note:      {note}\n"));
        }
        s
    }

    /// The report as a JSON object.
    pub fn json(&self) -> serde_json::Value {
        let f = &self.fetched;
        serde_json::json!({
            "robots_url": self.robots_url,
            "final_url": self.final_url,
            "status": self.status,
            "redirects": f.redirects(),
            "bytes": self.bytes,
            "truncated": f.is_truncated(),
            "availability": f.availability().as_str(),
            "reason": f.reason().to_string(),
            "note": self.note,
        })
    }
}
