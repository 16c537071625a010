//! Reading robots.txt captures from WARC files (Common Crawl's `robotstxt` segments) for
//! `classify --robots-warc`.
//!
//! Accepted input:
//! - a WARC file, each record gzip-compressed as its own member (`.warc.gz`, as Common Crawl
//!   writes them; several records in one member are read too), or an uncompressed WARC;
//! - records start with a `WARC/1.x` line, then `Name: value` headers, a blank line, and
//!   `Content-Length` bytes of block. Only `WARC-Type: response` records are used (`request`,
//!   `metadata`, `warcinfo`, ... are skipped and counted); `WARC-Target-URI` names the capture
//!   and `WARC-Date` (ISO 8601) orders captures;
//! - the block of a response is an HTTP response: a status line, headers, a blank line and the
//!   body. `Transfer-Encoding: chunked` is decoded; a `Content-Encoding: gzip` body is
//!   decompressed when it is gzip (Common Crawl stores bodies decoded already; a corrupt one
//!   is kept as far as it decodes); otherwise the body is the HTTP `Content-Length` bytes
//!   when given, else the rest of the block.
//!
//! The file is streamed ([`read_from`]): a record's block is read as it is parsed, and only
//! the first `body_limit` bytes of a body are kept (the store passes the parse limit + 1, all
//! a robots.txt parser looks at), so a WARC of 60 MB bodies costs no more memory than one of
//! small ones (issue 16.4). The records of a gzip member are handed out once the whole member
//! has decoded (a member whose gzip is corrupt gives no capture).
//!
//! A malformed record (bad version line or header, missing or wrong `Content-Length`, a
//! truncated or corrupt gzip member, a block that is not HTTP) is reported as a [`Problem`]
//! with its byte offset in the file (of the gzip member when compressed) and skipped: reading
//! resumes at the next gzip member or `WARC/` line. Nothing is fatal.
//!
//! [`Captures`] then picks one capture per host as they come, keeping only the most recent
//! capture of each URI (older ones are dropped at once), and [`Captures::resolve`] follows
//! redirect captures to other captures of the input (Common Crawl stores each hop as its own
//! capture).

use std::collections::HashMap;
use std::io::{self, BufRead, Read, Seek, SeekFrom};

use robotsmatch::fetch::{resolve_location, MAX_REDIRECTS};

use crate::logline::host_key;

/// The longest WARC or HTTP header block read, in bytes; a longer one makes the record
/// malformed.
pub const MAX_HEADER: usize = 1 << 20;

/// One HTTP response capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    /// Byte offset of the record in its file (of its gzip member when compressed).
    pub offset: u64,
    /// `WARC-Target-URI`.
    pub target_uri: String,
    /// `WARC-Date` (empty when absent).
    pub date: String,
    /// The HTTP status.
    pub status: u16,
    /// The HTTP `Location` header, if any.
    pub location: Option<String>,
    /// The body, decoded, cut at the reader's body limit.
    pub body: Vec<u8>,
}

/// A record that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Byte offset in the file (of the gzip member when compressed).
    pub offset: u64,
    /// What is wrong.
    pub message: String,
}

/// Counts of what a file held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Well-formed records.
    pub records: u64,
    /// Response records read as captures.
    pub responses: u64,
    /// Other record types (request, metadata, warcinfo, ...), skipped.
    pub other: u64,
    /// Malformed records, skipped.
    pub malformed: u64,
    /// Records whose WARC header could be read (well-formed or not in their block): a file
    /// where this is 0 holds no WARC record at all.
    pub headers: u64,
}

/// Reads every record of a WARC file held in `data`, keeping bodies whole, calling `capture`
/// for each HTTP response and `problem` for each malformed record.
pub fn read(
    data: &[u8],
    capture: &mut dyn FnMut(Capture),
    problem: &mut dyn FnMut(Problem),
) -> Counts {
    // Reading from memory cannot fail.
    read_from(io::Cursor::new(data), usize::MAX, capture, problem).unwrap_or_default()
}

/// Reads every record of a WARC file from `input` as a stream, keeping at most `body_limit`
/// bytes of each body, calling `capture` for each HTTP response and `problem` for each
/// malformed record. Only an I/O error of `input` itself is an error (a corrupt gzip member
/// is a [`Problem`]); `Seek` is used to resume after a malformed record.
pub fn read_from<R: Read + Seek>(
    input: R,
    body_limit: usize,
    capture: &mut dyn FnMut(Capture),
    problem: &mut dyn FnMut(Problem),
) -> io::Result<Counts> {
    let mut r = Input::new(input)?;
    let mut counts = Counts::default();
    let gzip = r.peek()?.starts_with(&[0x1f, 0x8b]);
    if !gzip {
        read_plain(&mut r, body_limit, &mut counts, capture, problem)?;
        return Ok(counts);
    }
    loop {
        // White space between members (or at the end) is not a member.
        loop {
            let buf = r.peek()?;
            let blank = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if blank == 0 {
                break;
            }
            r.consume(blank);
        }
        if r.peek()?.is_empty() {
            break;
        }
        let start = r.pos;
        let failure = if !r.peek()?.starts_with(&[0x1f, 0x8b]) {
            Some("not a gzip member".to_string())
        } else {
            let mut member = Vec::new();
            let mut bad = Vec::new();
            let mut found = Counts::default();
            let decoded = {
                let mut decoder =
                    io::BufReader::with_capacity(64 << 10, flate2::bufread::GzDecoder::new(&mut r));
                read_member(
                    &mut decoder,
                    start,
                    body_limit,
                    &mut found,
                    &mut member,
                    &mut bad,
                )
                // The rest of a member after a bad record header: decoded (the next member
                // starts after it) and dropped.
                .and_then(|()| io::copy(&mut decoder, &mut io::sink()).map(|_| ()))
            };
            match decoded {
                Ok(()) => {
                    add(&mut counts, found);
                    for c in member {
                        capture(c);
                    }
                    for why in bad {
                        counts.malformed += 1;
                        problem(Problem {
                            offset: start,
                            message: why,
                        });
                    }
                    None
                }
                Err(e) if r.failed.is_some() => return Err(r.failed.take().unwrap_or(e)),
                Err(e) => {
                    counts.headers += found.headers;
                    Some(format!("bad gzip member: {e}"))
                }
            }
        };
        if let Some(why) = failure {
            counts.malformed += 1;
            problem(Problem {
                offset: start,
                message: why,
            });
            // Resume at the next gzip member header.
            match r.find_from(start + 1, &[0x1f, 0x8b, 0x08])? {
                Some(at) => r.seek_to(at)?,
                None => break,
            }
        }
    }
    Ok(counts)
}

/// Adds the record counts `c` to `counts`.
pub(crate) fn add(counts: &mut Counts, c: Counts) {
    counts.records += c.records;
    counts.responses += c.responses;
    counts.other += c.other;
    counts.malformed += c.malformed;
    counts.headers += c.headers;
}

/// The input: a buffered reader that knows its position, can seek back to resume after a
/// malformed record, and keeps the I/O error of the input itself apart from decoding errors.
struct Input<R> {
    inner: io::BufReader<R>,
    pos: u64,
    failed: Option<io::Error>,
}

impl<R: Read + Seek> Input<R> {
    fn new(mut inner: R) -> io::Result<Input<R>> {
        let pos = inner.stream_position()?;
        Ok(Input {
            inner: io::BufReader::with_capacity(256 << 10, inner),
            pos,
            failed: None,
        })
    }

    fn peek(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn seek_to(&mut self, at: u64) -> io::Result<()> {
        self.inner.seek(SeekFrom::Start(at))?;
        self.pos = at;
        Ok(())
    }

    /// The position of the first `needle` at or after `from`, reading forward; `None` at the
    /// end of the input.
    fn find_from(&mut self, from: u64, needle: &[u8]) -> io::Result<Option<u64>> {
        self.seek_to(from)?;
        let finder = memchr::memmem::Finder::new(needle);
        let mut window: Vec<u8> = Vec::new();
        let mut window_start = from;
        loop {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                return Ok(None);
            }
            let n = buf.len();
            window.extend_from_slice(buf);
            self.inner.consume(n);
            self.pos += n as u64;
            if let Some(i) = finder.find(&window) {
                return Ok(Some(window_start + i as u64));
            }
            // Keep the last bytes, which may start the needle.
            let keep = (needle.len() - 1).min(window.len());
            window_start += (window.len() - keep) as u64;
            window.drain(..window.len() - keep);
        }
    }
}

impl<R: Read> Read for Input<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match self.inner.read(buf) {
            Ok(n) => n,
            Err(e) => return Err(self.fail(e)),
        };
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read> BufRead for Input<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self.inner.fill_buf() {
            Ok(_) => {}
            Err(e) => return Err(self.fail(e)),
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.inner.consume(amt);
        self.pos += amt as u64;
    }
}

impl<R> Input<R> {
    /// Records an I/O error of the input itself, which ends the reading.
    fn fail(&mut self, e: io::Error) -> io::Error {
        let copy = io::Error::new(e.kind(), e.to_string());
        self.failed = Some(e);
        copy
    }
}

/// What one record is.
enum Rec {
    /// A response, read as a capture.
    Capture(Capture),
    /// Another record type.
    Other,
    /// A response whose block is not a usable HTTP response (the record itself was read
    /// whole: reading goes on with the next one).
    BadResponse(String),
}

/// Reads the records of one decoded gzip member into `out`, and the problems of its records
/// into `bad`; a malformed record header ends the member (its rest is skipped). An error is
/// one of the gzip stream.
fn read_member(
    r: &mut impl BufRead,
    offset: u64,
    body_limit: usize,
    counts: &mut Counts,
    out: &mut Vec<Capture>,
    bad: &mut Vec<String>,
) -> io::Result<()> {
    loop {
        if !skip_line_ends(r)? {
            return Ok(());
        }
        match record(r, body_limit, counts)? {
            Ok(Rec::Capture(mut c)) => {
                c.offset = offset;
                out.push(c);
            }
            Ok(Rec::Other) => {}
            Ok(Rec::BadResponse(why)) => bad.push(why),
            Err(why) => {
                bad.push(why);
                return Ok(());
            }
        }
    }
}

/// Reads the records of an uncompressed WARC, resuming at the next `WARC/` line after a
/// malformed record header.
fn read_plain<R: Read + Seek>(
    r: &mut Input<R>,
    body_limit: usize,
    counts: &mut Counts,
    capture: &mut dyn FnMut(Capture),
    problem: &mut dyn FnMut(Problem),
) -> io::Result<()> {
    loop {
        if !skip_line_ends(r)? {
            return Ok(());
        }
        let offset = r.pos;
        let result = record(r, body_limit, counts);
        if let Some(e) = r.failed.take() {
            return Err(e);
        }
        // Reading from the input did not fail: any error is the record's.
        let result = result.unwrap_or_else(|e| Err(e.to_string()));
        match result {
            Ok(Rec::Capture(mut c)) => {
                c.offset = offset;
                capture(c);
            }
            Ok(Rec::Other) => {}
            Ok(Rec::BadResponse(why)) => {
                counts.malformed += 1;
                problem(Problem {
                    offset,
                    message: why,
                });
            }
            Err(why) => {
                counts.malformed += 1;
                problem(Problem {
                    offset,
                    message: why,
                });
                // Resume at the next line that starts a record.
                match r.find_from(offset + 1, b"\nWARC/")? {
                    Some(at) => r.seek_to(at + 1)?,
                    None => return Ok(()),
                }
            }
        }
    }
}

/// Skips CR and LF bytes; false at the end of the input.
fn skip_line_ends(r: &mut impl BufRead) -> io::Result<bool> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(false);
        }
        let n = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let all = n == buf.len();
        r.consume(n);
        if !all {
            return Ok(true);
        }
    }
}

/// A header block as read by [`header_lines`].
enum Head {
    /// Lines up to a blank line (consumed), CRs removed.
    Complete(String),
    /// The input ended before a blank line: what was read.
    Unterminated(String),
    /// Longer than [`MAX_HEADER`].
    TooLong,
}

/// Reads a header block: lines up to a blank line, at most [`MAX_HEADER`] bytes.
fn header_lines(r: &mut impl BufRead) -> io::Result<Head> {
    let mut head = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let room = (MAX_HEADER + 2).saturating_sub(head.len()) as u64;
        let n = r.by_ref().take(room).read_until(b'\n', &mut line)?;
        let ended = line.last() == Some(&b'\n');
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if ended && text.is_empty() {
            return Ok(Head::Complete(String::from_utf8_lossy(&head).into_owned()));
        }
        head.extend_from_slice(text);
        if head.len() > MAX_HEADER {
            return Ok(Head::TooLong);
        }
        if n == 0 || !ended {
            return Ok(Head::Unterminated(
                String::from_utf8_lossy(&head).into_owned(),
            ));
        }
        head.push(b'\n');
    }
}

/// Reads one record at the start of `r`. `Ok(Err(why))` for a malformed record header (the
/// reader is then somewhere inside the record), `Err` for an error of the stream.
fn record(
    r: &mut impl BufRead,
    body_limit: usize,
    counts: &mut Counts,
) -> io::Result<Result<Rec, String>> {
    let head = match header_lines(r)? {
        Head::Complete(head) => head,
        Head::Unterminated(_) | Head::TooLong => {
            return Ok(Err(
                "record header is not terminated by a blank line".to_string()
            ))
        }
    };
    let mut lines = head.lines();
    let version = lines.next().unwrap_or("");
    if !version.starts_with("WARC/") {
        return Ok(Err(format!(
            "expected a 'WARC/1.x' line, found '{}'",
            version.chars().take(40).collect::<String>()
        )));
    }
    let mut headers: HashMap<String, String> = HashMap::new();
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            return Ok(Err(format!(
                "bad WARC header line '{}'",
                line.chars().take(60).collect::<String>()
            )));
        };
        headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
    }
    let Some(length) = headers.get("content-length") else {
        return Ok(Err("missing Content-Length".to_string()));
    };
    let Ok(len) = length.parse::<u64>() else {
        return Ok(Err(format!("invalid Content-Length '{length}'")));
    };
    counts.headers += 1;
    let mut block = r.take(len);
    let kind = headers.get("warc-type").map(|s| s.to_ascii_lowercase());
    let rec = if kind.as_deref() != Some("response") {
        Rec::Other
    } else if let Some(uri) = headers.get("warc-target-uri") {
        let uri = uri.trim_matches(['<', '>']).to_string();
        let date = headers.get("warc-date").cloned().unwrap_or_default();
        match http(&mut block, body_limit)? {
            Ok((status, location, body)) => Rec::Capture(Capture {
                offset: 0,
                target_uri: uri,
                date,
                status,
                location,
                body,
            }),
            Err(why) => Rec::BadResponse(why),
        }
    } else {
        Rec::BadResponse("response without WARC-Target-URI".to_string())
    };
    // The rest of the block, unread.
    io::copy(&mut block, &mut io::sink())?;
    if block.limit() > 0 {
        return Ok(Err(format!(
            "record truncated: Content-Length {len}, only {} bytes follow",
            len - block.limit()
        )));
    }
    match rec {
        Rec::Capture(_) => {
            counts.records += 1;
            counts.responses += 1;
        }
        Rec::Other => {
            counts.records += 1;
            counts.other += 1;
        }
        Rec::BadResponse(_) => {}
    }
    Ok(Ok(rec))
}

/// An HTTP response: status, `Location`, body.
type Http = (u16, Option<String>, Vec<u8>);

/// The most compressed bytes of a `Content-Encoding: gzip` body read to decode it.
const GZIP_BODY_CAP: u64 = 16 << 20;

/// Reads an HTTP response from a record's block: status, `Location`, decoded body (at most
/// `body_limit` bytes of it). `Ok(Err(why))` when the block is not a usable HTTP response;
/// `Err` for an error of the stream.
fn http<R: BufRead>(
    block: &mut io::Take<R>,
    body_limit: usize,
) -> io::Result<Result<Http, String>> {
    let mut start = Vec::with_capacity(5);
    while start.len() < 5 {
        let buf = block.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min(5 - start.len());
        start.extend_from_slice(&buf[..n]);
        block.consume(n);
    }
    if start != b"HTTP/" {
        return Ok(Err(
            "payload is not an HTTP response (no 'HTTP/' status line)".into(),
        ));
    }
    let head = match header_lines(block)? {
        Head::Complete(head) => head,
        // No blank line: the whole block is the head, and the body is empty.
        Head::Unterminated(head) => head,
        Head::TooLong => return Ok(Err("HTTP header longer than 1 MiB".into())),
    };
    let mut lines = head.lines();
    let status_line = format!("HTTP/{}", lines.next().unwrap_or(""));
    let Some(status) = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .filter(|s| (100..1000).contains(s))
    else {
        return Ok(Err(format!(
            "bad HTTP status line '{}'",
            status_line.chars().take(60).collect::<String>()
        )));
    };
    let mut location = None;
    let mut chunked = false;
    let mut gzip = false;
    let mut length = None;
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            continue;
        };
        let v = v.trim();
        match k.trim().to_ascii_lowercase().as_str() {
            "location" => location = Some(v.to_string()),
            "transfer-encoding" => chunked = v.to_ascii_lowercase().contains("chunked"),
            "content-encoding" => {
                gzip = matches!(v.to_ascii_lowercase().as_str(), "gzip" | "x-gzip")
            }
            "content-length" => length = v.parse::<u64>().ok(),
            _ => {}
        }
    }
    let limit = body_limit as u64;
    let mut raw: Box<dyn Read + '_> = if chunked {
        Box::new(Dechunk::new(block))
    } else {
        match length {
            Some(n) => Box::new(block.by_ref().take(n)),
            None => Box::new(block.by_ref()),
        }
    };
    let mut body = Vec::new();
    let keep = if gzip {
        GZIP_BODY_CAP.max(limit)
    } else {
        limit
    };
    // The rest is read too (and dropped), so that a malformed chunked encoding past the
    // limit is found whatever the limit.
    let read = raw
        .by_ref()
        .take(keep)
        .read_to_end(&mut body)
        .and_then(|_| io::copy(&mut raw, &mut io::sink()));
    if let Err(e) = read {
        return match e.get_ref().and_then(|x| x.downcast_ref::<DechunkError>()) {
            Some(bad) => Ok(Err(bad.0.clone())),
            None => Err(e),
        };
    }
    if gzip && body.starts_with(&[0x1f, 0x8b]) {
        // Kept as far as it decodes.
        let mut out = Vec::new();
        let _ = flate2::read::MultiGzDecoder::new(&body[..])
            .take(limit)
            .read_to_end(&mut out);
        body = out;
    }
    body.truncate(body_limit);
    Ok(Ok((status, location, body)))
}

/// A malformed chunked body (an error of the record, not of the stream).
#[derive(Debug)]
struct DechunkError(String);

impl std::fmt::Display for DechunkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DechunkError {}

fn dechunk_error(what: String) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        DechunkError(format!("chunked body: {what}")),
    )
}

/// Decodes `Transfer-Encoding: chunked` as a stream, within a record's block.
struct Dechunk<'a, R> {
    block: &'a mut io::Take<R>,
    /// Bytes left in the current chunk.
    left: u64,
    done: bool,
}

impl<'a, R: BufRead> Dechunk<'a, R> {
    fn new(block: &'a mut io::Take<R>) -> Dechunk<'a, R> {
        Dechunk {
            block,
            left: 0,
            done: false,
        }
    }
}

impl<R: BufRead> Read for Dechunk<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while !self.done && self.left == 0 {
            let mut line = Vec::new();
            self.block
                .by_ref()
                .take(4096)
                .read_until(b'\n', &mut line)?;
            if line.last() != Some(&b'\n') {
                return Err(dechunk_error("chunk size line not terminated".into()));
            }
            let text = String::from_utf8_lossy(&line);
            let size_text = text
                .trim()
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            let size = u64::from_str_radix(&size_text, 16)
                .map_err(|_| dechunk_error(format!("bad chunk size '{size_text}'")))?;
            if size == 0 {
                self.done = true;
                break;
            }
            if size > self.block.limit() {
                return Err(dechunk_error(format!(
                    "chunk of {size} bytes, only {} left",
                    self.block.limit()
                )));
            }
            self.left = size;
        }
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        let want = (buf.len() as u64).min(self.left) as usize;
        let n = self.block.read(&mut buf[..want])?;
        if n == 0 {
            return Err(dechunk_error("chunk cut short".into()));
        }
        self.left -= n as u64;
        if self.left == 0 {
            // The line end after the chunk's data.
            let next = self.block.fill_buf()?;
            if next.starts_with(b"\r\n") {
                self.block.consume(2);
            } else if next.starts_with(b"\n") {
                self.block.consume(1);
            }
        }
        Ok(n)
    }
}

/// The outcome chosen for one host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostCapture {
    /// The store's key of the host (lower case, `_port` for a non-default port).
    pub host: String,
    /// The capture that decided (the end of the redirect chain when one was followed).
    pub capture: Capture,
    /// The redirect captures followed, in order (their target URIs).
    pub redirects: Vec<String>,
    /// True when the chain had more than [`MAX_REDIRECTS`] redirects.
    pub too_many_redirects: bool,
    /// True when a redirect's target was not among the captures.
    pub dangling_redirect: bool,
}

/// A URI in a form that compares equal for the same resource: scheme and host lower case,
/// default port dropped, fragment dropped.
fn normalize(uri: &str) -> Option<String> {
    let origin = robotsmatch::cache::Origin::from_url(uri)?;
    let after = &uri[uri.find("://")? + 3..];
    let path = &after[after.find(['/', '?']).unwrap_or(after.len())..];
    let path = &path[..path.find('#').unwrap_or(path.len())];
    let path = if path.is_empty() { "/" } else { path };
    Some(format!("{origin}{path}"))
}

/// Chooses one capture per host: the most recent (`WARC-Date`; on a tie, the later in the
/// input) among the captures of that host's `/robots.txt` (other URIs only serve as redirect
/// targets); a redirect is followed to the capture of its `Location` (the most recent one of
/// that URI) up to [`MAX_REDIRECTS`] hops. Captures whose target URI has no host are returned
/// as problems (without their bodies). See [`Captures`] to choose as the captures come.
pub fn resolve(captures: Vec<Capture>) -> (Vec<HostCapture>, Vec<Capture>) {
    let mut chosen = Captures::default();
    for c in captures {
        chosen.add(c);
    }
    chosen.resolve()
}

/// Captures kept as they come: the most recent capture of each URI (an older one is dropped
/// when a newer one arrives, so memory follows the distinct URIs, not the captures), and for
/// each host the URI of its most recent `/robots.txt` capture.
#[derive(Debug, Default)]
pub struct Captures {
    by_uri: HashMap<String, Capture>,
    by_host: HashMap<String, String>,
    no_host: Vec<Capture>,
}

impl Captures {
    /// Takes one capture (in input order).
    pub fn add(&mut self, mut c: Capture) {
        let (Some(uri), Some((key, _))) =
            (normalize(&c.target_uri), host_key(c.target_uri.as_bytes()))
        else {
            c.body = Vec::new();
            self.no_host.push(c);
            return;
        };
        let host = String::from_utf8_lossy(key.get(c.target_uri.as_bytes())).into_owned();
        let newer = |old: Option<&Capture>| old.is_none_or(|old| c.date >= old.date);
        // Only captures of `/robots.txt` speak for their host; others are redirect targets.
        let is_robots = uri.ends_with("/robots.txt") && uri.matches('/').count() == 3;
        if is_robots && newer(self.by_host.get(&host).and_then(|u| self.by_uri.get(u))) {
            self.by_host.insert(host, uri.clone());
        }
        // The host's winner is always the most recent capture of its URI, so keeping only
        // that one per URI loses nothing.
        if newer(self.by_uri.get(&uri)) {
            self.by_uri.insert(uri, c);
        }
    }

    /// The captures kept (one per distinct URI).
    pub fn len(&self) -> usize {
        self.by_uri.len()
    }

    /// True when no capture with a host was added.
    pub fn is_empty(&self) -> bool {
        self.by_uri.is_empty()
    }

    /// One capture per host, redirects followed, sorted by host; and the captures whose
    /// target URI has no host.
    pub fn resolve(self) -> (Vec<HostCapture>, Vec<Capture>) {
        let Captures {
            by_uri,
            by_host,
            no_host,
        } = self;
        let mut hosts: Vec<HostCapture> = by_host
            .into_iter()
            .filter_map(|(host, uri)| {
                let mut c = by_uri.get(&uri)?;
                let mut redirects = Vec::new();
                let mut too_many = false;
                let mut dangling = false;
                while (300..400).contains(&c.status) {
                    let next = c
                        .location
                        .as_deref()
                        .and_then(|l| resolve_location(&c.target_uri, l))
                        .and_then(|l| normalize(&l))
                        .and_then(|u| by_uri.get(&u));
                    let Some(next) = next else {
                        dangling = true;
                        break;
                    };
                    redirects.push(c.target_uri.clone());
                    if redirects.len() > MAX_REDIRECTS {
                        too_many = true;
                        break;
                    }
                    c = next;
                }
                Some(HostCapture {
                    host,
                    capture: c.clone(),
                    redirects,
                    too_many_redirects: too_many,
                    dangling_redirect: dangling,
                })
            })
            .collect();
        hosts.sort_by(|a, b| a.host.cmp(&b.host));
        (hosts, no_host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn record(uri: &str, date: &str, http: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Date: {date}\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            http.len()
        )
        .into_bytes();
        r.extend_from_slice(http);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn gz(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b).expect("gzip");
        e.finish().expect("gzip")
    }

    fn read_all(data: &[u8]) -> (Vec<Capture>, Vec<Problem>, Counts) {
        let (mut caps, mut probs) = (Vec::new(), Vec::new());
        let counts = read(data, &mut |c| caps.push(c), &mut |p| probs.push(p));
        (caps, probs, counts)
    }

    const OK: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *\nDisallow: /x\n";

    #[test]
    fn plain_and_gzip_read_the_same() {
        let warcinfo = b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n";
        let recs = [
            warcinfo.to_vec(),
            record("http://a.example/robots.txt", "2024-01-01T00:00:00Z", OK),
            record(
                "https://b.example/robots.txt",
                "2024-01-01T00:00:00Z",
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nUser-\r\n3;x=1\r\nage\r\n0\r\n\r\n",
            ),
        ];
        let plain = recs.concat();
        let zipped: Vec<u8> = recs.iter().flat_map(|r| gz(r)).collect();
        for data in [&plain, &zipped] {
            let (caps, probs, counts) = read_all(data);
            assert_eq!(probs, vec![]);
            assert_eq!(
                counts,
                Counts {
                    records: 3,
                    responses: 2,
                    other: 1,
                    malformed: 0,
                    headers: 3,
                }
            );
            assert_eq!(caps[0].status, 200);
            assert_eq!(caps[0].body, b"User-agent: *\nDisallow: /x\n");
            assert_eq!(caps[1].body, b"User-age");
        }
        let (caps, _, _) = read_all(&zipped);
        assert_eq!(
            caps[1].offset,
            (gz(&recs[0]).len() + gz(&recs[1]).len()) as u64
        );
    }

    #[test]
    fn malformed_records_are_reported_with_offsets_and_skipped() {
        let good = record("http://a.example/robots.txt", "2024", OK);
        let not_http = record("http://b.example/robots.txt", "2024", b"<html>hello</html>");
        let mut bad_len = good.clone();
        let at = memchr::memmem::find(&bad_len, b"Content-Length: ").expect("cl") + 16;
        bad_len[at] = b'x';
        let members = [gz(&good), gz(&not_http), gz(&bad_len), gz(&good)];
        let mut data: Vec<u8> = members[..3].concat();
        let truncated = gz(&good);
        let trunc_at = data.len();
        data.extend_from_slice(&truncated[..truncated.len() / 2]);
        let last_at = data.len();
        data.extend_from_slice(&members[3]);
        let (caps, probs, counts) = read_all(&data);
        assert_eq!(caps.len(), 2, "{probs:?}");
        assert_eq!(caps[0].offset, 0);
        assert_eq!(caps[1].offset, last_at as u64);
        let offsets: Vec<u64> = probs.iter().map(|p| p.offset).collect();
        let m0 = members[0].len() as u64;
        assert_eq!(
            offsets,
            vec![m0, m0 + members[1].len() as u64, trunc_at as u64],
            "{probs:?}"
        );
        assert!(
            probs[0].message.contains("not an HTTP response"),
            "{probs:?}"
        );
        assert!(probs[1].message.contains("Content-Length"), "{probs:?}");
        assert!(probs[2].message.contains("gzip"), "{probs:?}");
        assert_eq!(counts.malformed, 3);

        // Uncompressed: the offset is the record's, and reading resumes at the next record.
        let mut plain = good.clone();
        plain.extend_from_slice(b"garbage line\n");
        let second = plain.len();
        plain.extend_from_slice(&bad_len);
        plain.extend_from_slice(&good);
        let (caps, probs, _) = read_all(&plain);
        assert_eq!(caps.len(), 2, "{probs:?}");
        assert_eq!(probs[0].offset, good.len() as u64);
        assert!(probs.iter().any(|p| p.offset == second as u64), "{probs:?}");

        // A truncated final record and empty or junk input never panic.
        let (_, probs, _) = read_all(&good[..good.len() - 10]);
        assert!(probs[0].message.contains("truncated"), "{probs:?}");
        for junk in [
            &b""[..],
            b"\x1f\x8b",
            b"\x1f\x8b\x08\x00garbage",
            b"WARC/1.0\r\n",
            b"\n\n\n",
        ] {
            read_all(junk);
        }
    }

    fn cap(uri: &str, date: &str, status: u16, location: Option<&str>) -> Capture {
        Capture {
            offset: 0,
            target_uri: uri.into(),
            date: date.into(),
            status,
            location: location.map(Into::into),
            body: format!("{uri} {date}").into_bytes(),
        }
    }

    #[test]
    fn most_recent_capture_wins_and_redirects_are_followed() {
        let caps = vec![
            cap("http://a.example/robots.txt", "2024-02", 200, None),
            cap("http://A.example:80/robots.txt", "2024-01", 503, None),
            cap(
                "http://b.example/robots.txt",
                "2024-02",
                301,
                Some("https://b.example/robots.txt"),
            ),
            cap("https://b.example/robots.txt", "2024-01", 302, Some("/r2")),
            cap("https://b.example/r2", "2024-03", 200, None),
            cap(
                "http://c.example/robots.txt",
                "2024-01",
                301,
                Some("https://elsewhere.example/robots.txt"),
            ),
            cap("http://d.example:8080/robots.txt", "2024-01", 404, None),
            cap("not a uri", "2024-01", 200, None),
        ];
        let (hosts, bad) = resolve(caps);
        assert_eq!(bad.len(), 1);
        let get = |h: &str| hosts.iter().find(|c| c.host == h).expect(h);
        assert_eq!(get("a.example").capture.status, 200);
        let b = get("b.example");
        assert_eq!(b.capture.target_uri, "https://b.example/r2");
        assert_eq!(b.redirects.len(), 2);
        assert!(get("c.example").dangling_redirect);
        assert_eq!(get("d.example_8080").capture.status, 404);

        // Seven hops: the chain is cut after five.
        let mut chain: Vec<Capture> = (0..7)
            .map(|i| {
                cap(
                    &format!("http://e.example/r{i}"),
                    "2024",
                    301,
                    Some(&format!("/r{}", i + 1)),
                )
            })
            .collect();
        chain[0].target_uri = "http://e.example/robots.txt".into();
        chain.push(cap("http://e.example/r7", "2024", 200, None));
        let (hosts, _) = resolve(chain);
        assert!(hosts
            .iter()
            .all(|h| h.too_many_redirects && h.redirects.len() == 6));
    }

    /// Issue 16.4: a body is cut at the reader's limit as it is read (plain, gzip member,
    /// chunked), and the rest of its record is skipped, so the next record is read whole.
    #[test]
    fn issue16_bodies_are_cut_at_the_limit_when_read() {
        let big = format!("User-agent: *\n{}", "Disallow: /x\n".repeat(100_000));
        let mut chunked = String::from("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for piece in big.as_bytes().chunks(7000) {
            chunked.push_str(&format!("{:x}\r\n", piece.len()));
            chunked.push_str(std::str::from_utf8(piece).expect("ascii"));
            chunked.push_str("\r\n");
        }
        chunked.push_str("0\r\n\r\n");
        let recs = [
            record(
                "http://a.example/robots.txt",
                "2024",
                format!("HTTP/1.1 200 OK\r\n\r\n{big}").as_bytes(),
            ),
            record("http://b.example/robots.txt", "2024", chunked.as_bytes()),
            record("http://c.example/robots.txt", "2024", OK),
        ];
        let plain = recs.concat();
        let zipped: Vec<u8> = recs.iter().flat_map(|r| gz(r)).collect();
        for data in [plain, zipped] {
            let mut caps = Vec::new();
            let counts = read_from(
                io::Cursor::new(&data),
                1001,
                &mut |c| caps.push(c),
                &mut |p| panic!("{p:?}"),
            )
            .expect("read");
            assert_eq!(counts.responses, 3);
            let lens: Vec<usize> = caps.iter().map(|c| c.body.len()).collect();
            assert_eq!(lens, [1001, 1001, OK.len() - 45]);
            assert_eq!(caps[0].body, &big.as_bytes()[..1001]);
            assert_eq!(caps[1].body, &big.as_bytes()[..1001]);
        }
    }

    /// Issue 16.4: only the newest capture of each URI is kept as captures come in.
    #[test]
    fn issue16_older_captures_are_dropped_as_they_come() {
        let mut kept = Captures::default();
        for day in 1..=20 {
            kept.add(cap(
                "http://a.example/robots.txt",
                &format!("2024-01-{day:02}"),
                200,
                None,
            ));
            kept.add(cap("http://b.example/robots.txt", "2024-01-05", 200, None));
            assert_eq!(kept.len(), 2);
        }
        kept.add(cap("no host", "2024", 200, None));
        let (hosts, bad) = kept.resolve();
        assert_eq!(hosts[0].capture.date, "2024-01-20");
        assert_eq!(hosts.len(), 2);
        assert!(
            bad[0].body.is_empty(),
            "no body is kept for a capture without a host"
        );
    }
}
