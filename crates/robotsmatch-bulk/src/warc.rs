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
//!   decompressed when it is gzip (Common Crawl stores bodies decoded already); otherwise the
//!   body is the HTTP `Content-Length` bytes when given, else the rest of the block.
//!
//! A malformed record (bad version line or header, missing or wrong `Content-Length`, a
//! truncated or corrupt gzip member, a block that is not HTTP) is reported as a [`Problem`]
//! with its byte offset in the file (of the gzip member when compressed) and skipped: reading
//! resumes at the next gzip member or `WARC/` line. Nothing is fatal.
//!
//! [`resolve`] then picks one capture per host: the most recent one, with redirect captures
//! followed to other captures of the input (Common Crawl stores each hop as its own capture).

use std::collections::HashMap;
use std::io::Read;

use robotsmatch::fetch::{resolve_location, MAX_REDIRECTS};

use crate::logline::host_key;

/// Larger records (decompressed) are reported and skipped.
pub const MAX_RECORD: usize = 64 << 20;

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
    /// The body, decoded.
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
}

/// Reads every record of a WARC file held in `data`, calling `capture` for each HTTP response
/// and `problem` for each malformed record.
pub fn read(
    data: &[u8],
    capture: &mut dyn FnMut(Capture),
    problem: &mut dyn FnMut(Problem),
) -> Counts {
    let mut counts = Counts::default();
    let mut report = |counts: &mut Counts, offset: u64, message: String| {
        counts.malformed += 1;
        problem(Problem { offset, message });
    };
    if !data.starts_with(&[0x1f, 0x8b]) {
        read_records(data, 0, false, &mut counts, capture, &mut report);
        return counts;
    }
    let mut pos = 0;
    while pos < data.len() {
        let rest = &data[pos..];
        if rest.iter().all(|b| b.is_ascii_whitespace()) {
            break;
        }
        let mut failure = None;
        let mut out = Vec::new();
        let mut consumed = 0;
        if !rest.starts_with(&[0x1f, 0x8b]) {
            failure = Some("not a gzip member".to_string());
        } else {
            let mut decoder = flate2::bufread::GzDecoder::new(rest);
            match (&mut decoder)
                .take(MAX_RECORD as u64 + 1)
                .read_to_end(&mut out)
            {
                Ok(n) if n > MAX_RECORD => {
                    failure = Some(format!("gzip member larger than {MAX_RECORD} bytes"))
                }
                Ok(_) => consumed = rest.len() - decoder.into_inner().len(),
                Err(e) => failure = Some(format!("bad gzip member: {e}")),
            }
        }
        match failure {
            None if consumed > 0 => {
                read_records(&out, pos as u64, true, &mut counts, capture, &mut report);
                pos += consumed;
            }
            failure => {
                let why = failure.unwrap_or_else(|| "empty gzip member".to_string());
                report(&mut counts, pos as u64, why);
                // Resume at the next gzip member header.
                match memchr::memmem::find(&data[pos + 1..], &[0x1f, 0x8b, 0x08]) {
                    Some(i) => pos += 1 + i,
                    None => break,
                }
            }
        }
    }
    counts
}

/// Reads the records in `buf` (a decompressed member, or a whole uncompressed file).
fn read_records(
    buf: &[u8],
    base: u64,
    in_member: bool,
    counts: &mut Counts,
    capture: &mut dyn FnMut(Capture),
    report: &mut dyn FnMut(&mut Counts, u64, String),
) {
    let mut p = 0;
    while p < buf.len() {
        while p < buf.len() && matches!(buf[p], b'\r' | b'\n') {
            p += 1;
        }
        if p >= buf.len() {
            break;
        }
        let offset = if in_member { base } else { base + p as u64 };
        match record(&buf[p..]) {
            Ok((len, rec)) => {
                counts.records += 1;
                p += len;
                match rec {
                    Record::Other => counts.other += 1,
                    Record::Response(Ok(mut c)) => {
                        counts.responses += 1;
                        c.offset = offset;
                        capture(c);
                    }
                    Record::Response(Err(why)) => {
                        counts.records -= 1;
                        report(counts, offset, why);
                    }
                }
            }
            Err(why) => {
                report(counts, offset, why);
                if in_member {
                    return;
                }
                // Resume at the next line that starts a record.
                match memchr::memmem::find(&buf[p + 1..], b"\nWARC/") {
                    Some(i) => p += 2 + i,
                    None => return,
                }
            }
        }
    }
}

enum Record {
    Response(Result<Capture, String>),
    Other,
}

/// Parses one record at the start of `b`: its length and what it is.
fn record(b: &[u8]) -> Result<(usize, Record), String> {
    let (head_len, head) =
        header_block(b).ok_or("record header is not terminated by a blank line")?;
    let mut lines = head.lines();
    let version = lines.next().unwrap_or("");
    if !version.starts_with("WARC/") {
        return Err(format!(
            "expected a 'WARC/1.x' line, found '{}'",
            version.chars().take(40).collect::<String>()
        ));
    }
    let mut headers: HashMap<String, String> = HashMap::new();
    for line in lines {
        let Some((k, v)) = line.split_once(':') else {
            return Err(format!(
                "bad WARC header line '{}'",
                line.chars().take(60).collect::<String>()
            ));
        };
        headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
    }
    let len: usize = headers
        .get("content-length")
        .ok_or("missing Content-Length")?
        .parse()
        .map_err(|_| format!("invalid Content-Length '{}'", headers["content-length"]))?;
    let available = b.len() - head_len;
    if len > available {
        return Err(format!(
            "record truncated: Content-Length {len}, only {available} bytes follow"
        ));
    }
    let block = &b[head_len..head_len + len];
    let kind = headers.get("warc-type").map(|s| s.to_ascii_lowercase());
    if kind.as_deref() != Some("response") {
        return Ok((head_len + len, Record::Other));
    }
    let Some(uri) = headers.get("warc-target-uri") else {
        return Ok((
            head_len + len,
            Record::Response(Err("response without WARC-Target-URI".into())),
        ));
    };
    let uri = uri.trim_matches(['<', '>']).to_string();
    let date = headers.get("warc-date").cloned().unwrap_or_default();
    let capture = http(block).map(|(status, location, body)| Capture {
        offset: 0,
        target_uri: uri,
        date,
        status,
        location,
        body,
    });
    Ok((head_len + len, Record::Response(capture)))
}

/// The header block (up to and including the blank line) as text, and its length in bytes.
fn header_block(b: &[u8]) -> Option<(usize, String)> {
    let crlf = memchr::memmem::find(b, b"\r\n\r\n").map(|i| (i, i + 4));
    let lf = memchr::memmem::find(b, b"\n\n").map(|i| (i, i + 2));
    let (end, len) = match (crlf, lf) {
        (Some(a), Some(b)) => {
            if a.0 < b.0 {
                a
            } else {
                b
            }
        }
        (a, b) => a.or(b)?,
    };
    let text = String::from_utf8_lossy(&b[..end]).replace('\r', "");
    Some((len, text))
}

/// Parses an HTTP response: status, `Location`, decoded body.
fn http(block: &[u8]) -> Result<(u16, Option<String>, Vec<u8>), String> {
    if !block.starts_with(b"HTTP/") {
        return Err("payload is not an HTTP response (no 'HTTP/' status line)".into());
    }
    let (head_len, head) = header_block(block).unwrap_or((
        block.len(),
        String::from_utf8_lossy(block).replace('\r', ""),
    ));
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or("");
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .filter(|s| (100..1000).contains(s))
        .ok_or_else(|| {
            format!(
                "bad HTTP status line '{}'",
                status_line.chars().take(60).collect::<String>()
            )
        })?;
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
            "content-length" => length = v.parse::<usize>().ok(),
            _ => {}
        }
    }
    let rest = &block[head_len.min(block.len())..];
    let mut body = if chunked {
        dechunk(rest)?
    } else {
        match length {
            Some(n) if n <= rest.len() => rest[..n].to_vec(),
            _ => rest.to_vec(),
        }
    };
    if gzip && body.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        if flate2::read::MultiGzDecoder::new(&body[..])
            .take(MAX_RECORD as u64)
            .read_to_end(&mut out)
            .is_ok()
        {
            body = out;
        }
    }
    Ok((status, location, body))
}

/// Decodes a chunked body.
fn dechunk(mut b: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let eol = memchr::memchr(b'\n', b).ok_or("chunked body: chunk size line not terminated")?;
        let line = String::from_utf8_lossy(&b[..eol]);
        let size_text = line
            .trim()
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let size = usize::from_str_radix(&size_text, 16)
            .map_err(|_| format!("chunked body: bad chunk size '{size_text}'"))?;
        b = &b[eol + 1..];
        if size == 0 {
            return Ok(out);
        }
        if size > b.len() {
            return Err(format!(
                "chunked body: chunk of {size} bytes, only {} left",
                b.len()
            ));
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size..];
        b = b
            .strip_prefix(b"\r\n")
            .or_else(|| b.strip_prefix(b"\n"))
            .unwrap_or(b);
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
/// targets); a redirect is followed to the capture of its
/// `Location` (the most recent one of that URI) up to [`MAX_REDIRECTS`] hops. Captures whose
/// target URI has no host are returned as problems.
pub fn resolve(captures: Vec<Capture>) -> (Vec<HostCapture>, Vec<Capture>) {
    let mut by_uri: HashMap<String, usize> = HashMap::new();
    let mut by_host: HashMap<String, usize> = HashMap::new();
    let mut bad = Vec::new();
    let mut kept: Vec<Capture> = Vec::new();
    for c in captures {
        let (Some(uri), Some((key, _))) =
            (normalize(&c.target_uri), host_key(c.target_uri.as_bytes()))
        else {
            bad.push(c);
            continue;
        };
        let host = String::from_utf8_lossy(key.get(c.target_uri.as_bytes())).into_owned();
        let i = kept.len();
        let newer = |j: &usize| c.date >= kept[*j].date;
        let take_uri = by_uri.get(&uri).is_none_or(newer);
        // Only captures of `/robots.txt` speak for their host; others are redirect targets.
        let is_robots = uri.ends_with("/robots.txt") && uri.matches('/').count() == 3;
        let take_host = is_robots && by_host.get(&host).is_none_or(newer);
        if take_uri || take_host {
            kept.push(c);
            if take_uri {
                by_uri.insert(uri, i);
            }
            if take_host {
                by_host.insert(host, i);
            }
        }
    }
    let mut hosts: Vec<HostCapture> = by_host
        .into_iter()
        .map(|(host, mut i)| {
            let mut redirects = Vec::new();
            let mut too_many = false;
            let mut dangling = false;
            while (300..400).contains(&kept[i].status) {
                let next = kept[i]
                    .location
                    .as_deref()
                    .and_then(|l| resolve_location(&kept[i].target_uri, l))
                    .and_then(|l| normalize(&l))
                    .and_then(|u| by_uri.get(&u).copied());
                let Some(next) = next else {
                    dangling = true;
                    break;
                };
                redirects.push(kept[i].target_uri.clone());
                if redirects.len() > MAX_REDIRECTS {
                    too_many = true;
                    break;
                }
                i = next;
            }
            HostCapture {
                host,
                capture: kept[i].clone(),
                redirects,
                too_many_redirects: too_many,
                dangling_redirect: dangling,
            }
        })
        .collect();
    hosts.sort_by(|a, b| a.host.cmp(&b.host));
    (hosts, bad)
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
                    malformed: 0
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
}
