//! One line of a crawl log: the URL in it, its host and the path rules are matched against.
//!
//! A line holds one absolute URL, or TSV/CSV fields with the URL in a chosen column. The
//! reader is forgiving: CR line ends, surrounding white space, a byte-order mark at the start
//! of the log, CSV quotes and raw non-ASCII bytes are all handled; a line without
//! `scheme://host` is malformed. (Lines are cut by [`crate::reader`], at LF, CR LF or a lone
//! CR.)
//!
//! Fields are read as RFC 4180 reads them, with any one-byte delimiter: a field in double
//! quotes may hold the delimiter, and `""` in it is one `"`
//! (`1,"http://a.example/March-31,-2010.gif",x` has the URL as its second field). A line
//! without `"` is split at the delimiter directly; a line with quotes goes through
//! `csv-core` (BurntSushi's CSV parser). A record is one line: a quoted field cannot hold a
//! line break. Surrounding white space of a field is dropped, and so are quotes written
//! after it (`1, "http://a.example/"`).
//!
//! A URL is matched as written: `&amp;` is five characters, as in `check`, the library and
//! Google's library. Link lists scraped from HTML carry `&amp;` for `&`; for those,
//! [`LineFormat::decode_amp`] reads it as `&` (the URL is still printed as written).
#![forbid(unsafe_code)]

use std::borrow::Cow;

/// How to find the URL in a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineFormat {
    /// 1-based column, or 0 for the whole line.
    pub column: usize,
    /// The field delimiter when `column > 0`.
    pub delimiter: u8,
    /// Read `&amp;` as `&` before matching (for link lists scraped from HTML). Off by
    /// default: a URL is matched as written, as Google's library does.
    pub decode_amp: bool,
}

impl Default for LineFormat {
    fn default() -> LineFormat {
        LineFormat {
            column: 0,
            delimiter: b'\t',
            decode_amp: false,
        }
    }
}

/// Why a line has no usable URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Malformed {
    /// Nothing but white space.
    Blank,
    /// The requested column does not exist.
    NoColumn,
    /// No `scheme://host` at the start of the field.
    NotAUrl,
    /// A port that is not a number from 0 to 65535 (`:99999`, `:abc`): no host file can be
    /// chosen for it.
    BadPort,
    /// A line longer than the reader's limit ([`crate::ReadConfig::max_line`]); only its
    /// first bytes were kept.
    TooLong,
}

impl Malformed {
    /// A short description for reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Malformed::Blank => "blank line",
            Malformed::NoColumn => "no such column",
            Malformed::NotAUrl => "no scheme://host URL",
            Malformed::BadPort => "invalid port",
            Malformed::TooLong => "line longer than the limit",
        }
    }

    /// Every reason, in the order of [`Malformed::index`].
    pub const ALL: [Malformed; 5] = [
        Malformed::Blank,
        Malformed::NoColumn,
        Malformed::NotAUrl,
        Malformed::BadPort,
        Malformed::TooLong,
    ];

    /// A dense index (0 to 4), for counting by reason.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// `s` without leading and trailing ASCII white space.
pub fn trim(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// Strips a trailing CR and, on the first line of a log, a UTF-8 byte-order mark (for lines
/// cut at LF only; [`crate::reader::Chunk::lines`] does both already).
pub fn clean_line(line: &[u8], first_of_log: bool) -> &[u8] {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if first_of_log {
        line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
    } else {
        line
    }
}

/// Reads the fields of lines that hold quotes, as RFC 4180 does (see the module docs). Keep
/// one per thread: building it costs a small table.
#[derive(Clone, Debug)]
pub struct CsvFields {
    reader: csv_core::Reader,
    delimiter: u8,
}

impl CsvFields {
    /// A reader of fields separated by `delimiter`.
    pub fn new(delimiter: u8) -> CsvFields {
        CsvFields {
            reader: csv_core::ReaderBuilder::new()
                .delimiter(delimiter)
                .quote(b'"')
                .double_quote(true)
                // A line has no line end left; a CR inside one is a plain byte.
                .terminator(csv_core::Terminator::Any(b'\n'))
                .build(),
            delimiter,
        }
    }

    /// The delimiter.
    pub fn delimiter(&self) -> u8 {
        self.delimiter
    }

    /// Writes the `column`-th field (1-based) of `line`, quotes removed, into `out` (cleared
    /// first); false when the line has fewer fields.
    ///
    /// ```
    /// use robotsmatch_bulk::logline::CsvFields;
    ///
    /// let mut csv = CsvFields::new(b',');
    /// let mut field = Vec::new();
    /// assert!(csv.field_into(br#"1,"http://a.example/31,-2010 ""x"".gif",x"#, 2, &mut field));
    /// assert_eq!(field, br#"http://a.example/31,-2010 "x".gif"#);
    /// assert!(!csv.field_into(b"1,2", 3, &mut field));
    /// ```
    pub fn field_into(&mut self, line: &[u8], column: usize, out: &mut Vec<u8>) -> bool {
        use csv_core::ReadFieldResult;
        self.reader.reset();
        out.clear();
        // A field is never longer than its line.
        out.resize(line.len(), 0);
        let mut input = line;
        let mut index = 1;
        let mut written = 0;
        // csv-core skips a UTF-8 byte-order mark at the start of its input (a file's); at the
        // start of a line it is data here, as for every other way of reading a field (the
        // reader strips the mark of a log's first line before this). Given the mark's first
        // byte alone, csv-core cannot see a mark and reads it as data.
        let mut first_call = if line.starts_with(b"\xEF\xBB\xBF") {
            1
        } else {
            line.len()
        };
        loop {
            let (result, read, wrote) = self
                .reader
                .read_field(&input[..first_call.min(input.len())], &mut out[written..]);
            first_call = usize::MAX;
            input = &input[read..];
            written += wrote;
            match result {
                // The next call, with no input left, ends the field.
                ReadFieldResult::InputEmpty => {}
                // Not expected (a field is never longer than its line), but never a loop.
                ReadFieldResult::OutputFull => out.resize(out.len() * 2 + 16, 0),
                ReadFieldResult::Field { record_end } => {
                    if index == column {
                        out.truncate(written);
                        return true;
                    }
                    if record_end {
                        out.clear();
                        return false;
                    }
                    index += 1;
                    written = 0;
                }
                ReadFieldResult::End => {
                    out.clear();
                    return false;
                }
            }
        }
    }
}

/// Picks the URL field of a line.
pub fn field(line: &[u8], format: LineFormat) -> Result<Cow<'_, [u8]>, Malformed> {
    if format.column > 0 && memchr::memchr(b'"', line).is_some() {
        let mut buf = Vec::new();
        return Ok(Cow::Owned(
            field_in(line, format, &mut None, &mut buf)?.into_owned(),
        ));
    }
    plain_field(line, format)
}

/// The field of a line without quotes to read as CSV (or the whole line).
fn plain_field(line: &[u8], format: LineFormat) -> Result<Cow<'_, [u8]>, Malformed> {
    let f = if format.column == 0 {
        line
    } else {
        line.split(|&b| b == format.delimiter)
            .nth(format.column - 1)
            .ok_or(Malformed::NoColumn)?
    };
    let f = trim(f);
    Ok(unquote(f).unwrap_or(Cow::Borrowed(f)))
}

/// Like [`field`], with the CSV reader kept by the caller (made on the first quoted line, or
/// when the delimiter changes) and a buffer for a field that had to be unquoted, so that
/// classifying a line allocates nothing once both have grown. The field is borrowed from
/// `line` when no quote had to be removed inside it.
pub fn field_in<'a>(
    line: &'a [u8],
    format: LineFormat,
    csv: &mut Option<CsvFields>,
    buf: &'a mut Vec<u8>,
) -> Result<Cow<'a, [u8]>, Malformed> {
    if format.column == 0 || memchr::memchr(b'"', line).is_none() {
        // PERF: no quote, no CSV parsing (the common case): split at the delimiter.
        return plain_field(line, format);
    }
    if let Some(f) = simple_field(line, format.column, format.delimiter) {
        // PERF: the common quoted case without csv-core's byte-at-a-time reading (issue 17.3
        // measured it at +90 ns per line).
        let f = trim(f);
        return Ok(unquote(f).unwrap_or(Cow::Borrowed(f)));
    }
    {
        let reader = match csv {
            Some(r) if r.delimiter == format.delimiter => r,
            _ => csv.insert(CsvFields::new(format.delimiter)),
        };
        if !reader.field_into(line, format.column, buf) {
            return Err(Malformed::NoColumn);
        }
        let unquoted: &'a Vec<u8> = buf;
        let f = trim(unquoted);
        Ok(unquote(f).unwrap_or(Cow::Borrowed(f)))
    }
}

/// The `column`-th field (1-based) of a line that holds quotes, when RFC 4180 reads it as a
/// plain slice: the fields before it have no quote, and it is either unquoted or one quoted
/// run without `""`, closed right before a delimiter or the end. `None` otherwise (csv-core
/// reads the line then).
fn simple_field(line: &[u8], column: usize, delimiter: u8) -> Option<&[u8]> {
    let mut start = 0;
    for _ in 1..column {
        let i = memchr::memchr(delimiter, &line[start..])?;
        if memchr::memchr(b'"', &line[start..start + i]).is_some() {
            return None;
        }
        start += i + 1;
    }
    let rest = &line[start..];
    if let Some(inner) = rest.strip_prefix(b"\"") {
        let close = memchr::memchr(b'"', inner)?;
        match inner.get(close + 1) {
            None => Some(&inner[..close]),
            Some(&b) if b == delimiter => Some(&inner[..close]),
            Some(_) => None,
        }
    } else {
        // A quote inside an unquoted field is a plain byte.
        Some(&rest[..memchr::memchr(delimiter, rest).unwrap_or(rest.len())])
    }
}

/// A field in quotes without them (`""` read as `"`); `None` when `f` is not quoted.
fn unquote(f: &[u8]) -> Option<Cow<'_, [u8]>> {
    if f.len() >= 2 && f[0] == b'"' && f[f.len() - 1] == b'"' {
        let inner = &f[1..f.len() - 1];
        if memchr::memmem::find(inner, b"\"\"").is_some() {
            let mut v = Vec::with_capacity(inner.len());
            let mut i = 0;
            while i < inner.len() {
                v.push(inner[i]);
                i += if inner[i] == b'"' && inner.get(i + 1) == Some(&b'"') {
                    2
                } else {
                    1
                };
            }
            return Some(Cow::Owned(v));
        }
        return Some(Cow::Borrowed(trim(inner)));
    }
    None
}

/// Replaces `&amp;` by `&` (scraped link lists carry HTML-escaped URLs); borrows `s` when it
/// holds no `&amp;`.
///
/// ```
/// use robotsmatch_bulk::logline::decode_amp;
///
/// assert_eq!(decode_amp(b"/x?a=1&amp;b=2&c"), &b"/x?a=1&b=2&c"[..]);
/// ```
pub fn decode_amp(s: &[u8]) -> Cow<'_, [u8]> {
    if !has_amp_entity(s) {
        return Cow::Borrowed(s);
    }
    let mut v = Vec::with_capacity(s.len());
    decode_amp_into(s, &mut v);
    Cow::Owned(v)
}

/// True when `s` holds `&amp;`.
#[inline]
pub fn has_amp_entity(s: &[u8]) -> bool {
    // PERF: most URLs have no '&' at all; memchr is cheaper than a substring search.
    match memchr::memchr(b'&', s) {
        Some(first) => memchr::memmem::find(&s[first..], b"&amp;").is_some(),
        None => false,
    }
}

/// Like [`decode_amp`], writing the decoded bytes into `out` (cleared first).
pub fn decode_amp_into(s: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut rest = s;
    while let Some(i) = memchr::memmem::find(rest, b"&amp;") {
        out.extend_from_slice(&rest[..i + 1]);
        rest = &rest[i + 5..];
    }
    out.extend_from_slice(rest);
}

/// A URL field as written (for output) and as matched (`&amp;` decoded when the format asks).
pub type Extracted<'a> = (Cow<'a, [u8]>, Cow<'a, [u8]>);

/// Extracts the URL field of one (cleaned) line: the field as written (for output) and as
/// matched (with `&amp;` decoded when [`LineFormat::decode_amp`] is set, else the same bytes).
/// The caller checks it with [`host_key`] (a field without `scheme://host` is
/// [`Malformed::NotAUrl`]) and matches [`robotsmatch::canon::canonical_path`] of it.
pub fn extract(line: &[u8], format: LineFormat) -> Result<Extracted<'_>, Malformed> {
    if trim(line).is_empty() {
        return Err(Malformed::Blank);
    }
    let text = field(line, format)?;
    let url = match (&text, format.decode_amp) {
        (_, false) => text.clone(),
        (Cow::Borrowed(b), true) => decode_amp(b),
        (Cow::Owned(v), true) => Cow::Owned(decode_amp(v).into_owned()),
    };
    Ok((text, url))
}

/// A host lookup key: a span of the URL (already lower case, default port) or a new string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostKey {
    /// `url[start..end]` is the key.
    Span(usize, usize),
    /// The key had to be built (lower-cased, or `_port` appended).
    Owned(Vec<u8>),
}

impl HostKey {
    /// The key's bytes, given the URL it came from.
    #[inline]
    pub fn get<'a>(&'a self, url: &'a [u8]) -> &'a [u8] {
        match self {
            HostKey::Span(s, e) => &url[*s..*e],
            HostKey::Owned(v) => v,
        }
    }
}

/// The lookup key of a URL's host (lower case, `_port` for a non-default port) and the
/// scheme's default port. `None` when the URL has no `scheme://host`.
#[cfg(test)]
pub fn host_of(url: &[u8]) -> Option<(Cow<'_, [u8]>, Option<u16>)> {
    let (key, port) = host_key(url)?;
    Some(match key {
        HostKey::Span(s, e) => (Cow::Borrowed(&url[s..e]), port),
        HostKey::Owned(v) => (Cow::Owned(v), port),
    })
}

/// The lookup key of a URL's host (lower case, `_port` for a non-default port; a span of
/// `url` when no copy is needed) and the scheme's default port (none once a port is in the
/// key). `None` when the URL has no `scheme://host`.
///
/// ```
/// use robotsmatch_bulk::logline::host_key;
///
/// let url = b"https://Example.COM:8443/a";
/// let (key, default_port) = host_key(url).ok_or("no host")?;
/// assert_eq!((key.get(url), default_port), (&b"example.com_8443"[..], None));
/// # Ok::<(), &'static str>(())
/// ```
pub fn host_key(url: &[u8]) -> Option<(HostKey, Option<u16>)> {
    let auth = robotsmatch::url::split(url).authority()?;
    let mut key = Vec::new();
    let (built, default_port) = build_key(url, &auth, &mut key);
    Some(if built {
        (HostKey::Owned(key), default_port)
    } else {
        (HostKey::Span(auth.host.start, auth.host.end), default_port)
    })
}

/// Like [`host_key`], but a key that has to be built (lower-cased, or `_port` appended) is
/// written into `scratch`, so that no call allocates once `scratch` has grown.
#[inline]
pub fn host_key_in<'a>(url: &'a [u8], scratch: &'a mut Vec<u8>) -> Option<(&'a [u8], Option<u16>)> {
    let auth = robotsmatch::url::split(url).authority()?;
    let (built, default_port) = build_key(url, &auth, scratch);
    Some((
        if built { &scratch[..] } else { &url[auth.host] },
        default_port,
    ))
}

/// The host key of `url`'s authority `auth`: when the host as written is not the key (upper
/// case, or a port other than the scheme's), the key is written into `scratch` and the first
/// value is true; else the key is `url[auth.host]`. The second value is the default port whose
/// file also serves the host (none when a port is written).
#[inline]
pub(crate) fn build_key(
    url: &[u8],
    auth: &robotsmatch::url::Authority,
    scratch: &mut Vec<u8>,
) -> (bool, Option<u16>) {
    let port = auth.non_default_port();
    if port.is_none() && auth.host_lowercase {
        return (false, auth.default_port);
    }
    host_key_into(&url[auth.host.clone()], port, scratch);
    (
        true,
        if port.is_some() {
            None
        } else {
            auth.default_port
        },
    )
}

/// Writes the host key of `host` (as written) into `out` (cleared first): lower case, then
/// `_port` for a port other than the scheme's default.
pub fn host_key_into(host: &[u8], port: Option<u16>, out: &mut Vec<u8>) {
    out.clear();
    out.extend(host.iter().map(u8::to_ascii_lowercase));
    if let Some(port) = port {
        out.push(b'_');
        let mut digits = [0u8; 5];
        let mut n = port;
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        out.extend_from_slice(&digits[i..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(u: &str) -> Option<(String, Option<u16>)> {
        host_of(u.as_bytes()).map(|(h, p)| (String::from_utf8(h.into_owned()).unwrap(), p))
    }

    /// An empty line holds one empty field, as splitting at the delimiter gives (csv-core reads
    /// no record there; it only reads lines with a quote), and a worker counts it as blank
    /// whatever the column. Found by the `classify` fuzz target, which compares the two.
    #[test]
    fn empty_line_has_one_empty_field_and_is_blank() {
        for delimiter in [b',', b'\t', b'i'] {
            let format = LineFormat {
                column: 1,
                delimiter,
                decode_amp: false,
            };
            assert_eq!(field(b"", format).as_deref(), Ok(&b""[..]));
            let second = LineFormat {
                column: 2,
                ..format
            };
            assert_eq!(field(b"", second), Err(Malformed::NoColumn));
            assert!(!CsvFields::new(delimiter).field_into(b"", 1, &mut Vec::new()));
            let store = crate::Store::from_bodies(
                [("a.example", "User-agent: *\nDisallow: /\n")],
                crate::StoreConfig::new("Googlebot"),
            );
            for f in [format, second] {
                let mut w = crate::Classifier::new(&store).line_format(f).worker();
                assert_eq!(w.classify_line(b"").err(), Some(Malformed::Blank));
            }
        }
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host("https://Example.COM/a"),
            Some(("example.com".into(), Some(443)))
        );
        assert_eq!(
            host("http://example.com:80/a"),
            Some(("example.com".into(), Some(80)))
        );
        assert_eq!(
            host("http://example.com:8080"),
            Some(("example.com_8080".into(), None))
        );
        assert_eq!(
            host("http://user:pw@example.com/"),
            Some(("example.com".into(), Some(80)))
        );
        assert_eq!(
            host("ftp://ftp.ams.org/pub"),
            // ftp's default port is 21 (issue 15: host keys come from `url::split`).
            Some(("ftp.ams.org".into(), Some(21)))
        );
        assert_eq!(host("http://[::1]:81/"), Some(("[::1]_81".into(), None)));
        assert_eq!(
            host("http://example.com./x"),
            Some(("example.com".into(), Some(80)))
        );
        assert_eq!(host("example.com/a"), None);
        assert_eq!(host("http:///a"), None);
        assert_eq!(host("1http://x/"), None);
    }

    /// `host_key_in` gives the same key as `host_key`, without allocating once the scratch
    /// buffer has grown.
    #[test]
    fn host_key_in_equals_host_key() {
        let mut scratch = Vec::new();
        for u in [
            "https://Example.COM/a",
            "http://example.com:80/a",
            "http://example.com:8080",
            "HTTP://EXAMPLE.COM:65535/",
            "http://x.org:0/",
            "http://user:pw@example.com/",
            "ftp://ftp.ams.org/pub",
            "http://[::1]:81/",
            "http://example.com./x",
            "example.com/a",
            "http:///a",
            "http://a.com\\b",
        ] {
            let url = u.as_bytes();
            let want = host_key(url).map(|(k, p)| (k.get(url).to_vec(), p));
            let got = host_key_in(url, &mut scratch).map(|(k, p)| (k.to_vec(), p));
            assert_eq!(got, want, "{u}");
        }
    }

    #[test]
    fn lines() {
        let f = LineFormat::default();
        // Matched as written by default; decoded only when asked.
        let (text, url) = extract(b"  https://a.com/x?a=1&amp;b=2 ", f).unwrap();
        assert_eq!(&*text, b"https://a.com/x?a=1&amp;b=2");
        assert_eq!(&*url, b"https://a.com/x?a=1&amp;b=2");
        let decoding = LineFormat {
            decode_amp: true,
            ..f
        };
        let (text, url) = extract(b"  https://a.com/x?a=1&amp;b=2&amp;amp; ", decoding).unwrap();
        assert_eq!(&*text, b"https://a.com/x?a=1&amp;b=2&amp;amp;");
        assert_eq!(&*url, b"https://a.com/x?a=1&b=2&amp;");
        assert_eq!(extract(b"   ", f), Err(Malformed::Blank));
        let (_, url) = extract(b"not a url", f).unwrap();
        assert!(host_of(&url).is_none());
        let csv = LineFormat {
            column: 2,
            delimiter: b',',
            decode_amp: false,
        };
        let (text, _) = extract(b"1,\"https://a.com/q\"\"x\",z", csv).unwrap();
        assert_eq!(&*text, b"https://a.com/q\"x");
        assert_eq!(extract(b"1", csv), Err(Malformed::NoColumn));
        assert_eq!(clean_line(b"\xEF\xBB\xBFhttp://a/\r", true), b"http://a/");
    }

    /// Issue 17.3: fields as RFC 4180 reads them, for any delimiter; lines without quotes
    /// split as before.
    #[test]
    fn issue17_csv_fields_are_read_as_rfc4180() {
        let csv = |column| LineFormat {
            column,
            delimiter: b',',
            decode_amp: false,
        };
        let field_of = |line: &[u8], f: LineFormat| field(line, f).map(|c| c.into_owned());
        let line = &b"1,\"http://1.bp.blogspot.com/a/March-31,-2010---UFC-Fight-Night.gif\",x"[..];
        assert_eq!(
            field_of(line, csv(2)),
            Ok(b"http://1.bp.blogspot.com/a/March-31,-2010---UFC-Fight-Night.gif".to_vec())
        );
        assert_eq!(field_of(line, csv(3)), Ok(b"x".to_vec()));
        assert_eq!(field_of(line, csv(4)), Err(Malformed::NoColumn));
        assert_eq!(
            field_of(b"\"a,\"\"b\"\"\",c", csv(1)),
            Ok(b"a,\"b\"".to_vec())
        );
        assert_eq!(field_of(b"a, \"b,c\" ,d", csv(2)), Ok(b"\"b".to_vec()));
        assert_eq!(field_of(b"a, \"bc\" ,d", csv(2)), Ok(b"bc".to_vec()));
        let tsv = LineFormat {
            column: 2,
            ..LineFormat::default()
        };
        assert_eq!(
            field_of(b"1\t\"http://a/x\ty\"\tz", tsv),
            Ok(b"http://a/x\ty".to_vec())
        );
        assert_eq!(
            field_of(b"1\thttp://a/\"q\"\tz", tsv),
            Ok(b"http://a/\"q\"".to_vec())
        );
        // The worker's path (reader kept, buffers reused) gives the same fields.
        let mut reader = None;
        for (line, f) in [
            (line, csv(2)),
            (&b"\"a,\"\"b\"\"\",c"[..], csv(1)),
            (b"1\t\"http://a/x\ty\"\tz", tsv),
            (b"plain,line", csv(2)),
        ] {
            let mut buf = Vec::new();
            let got = field_in(line, f, &mut reader, &mut buf).map(|c| c.into_owned());
            assert_eq!(got, field_of(line, f));
        }
    }

    /// A UTF-8 byte-order mark at the start of a line is data (the reader strips only the
    /// first line's): csv-core skips one at the start of its input, so reading a field with it
    /// and without it gave different fields (found by the `classify` fuzz target: a line that
    /// was only the mark had a first field for the split and none for csv-core).
    #[test]
    fn fuzz_byte_order_mark_starting_a_line_is_data_for_csv_too() {
        let mut reader = CsvFields::new(b'\r');
        let mut out = Vec::new();
        assert!(reader.field_into(b"\xEF\xBB\xBF", 1, &mut out));
        assert_eq!(out, b"\xEF\xBB\xBF");
        let f = LineFormat {
            column: 1,
            delimiter: b'\r',
            decode_amp: true,
        };
        assert_eq!(
            field(b"\xEF\xBB\xBF", f).as_deref(),
            Ok(&b"\xEF\xBB\xBF"[..])
        );
        // A quoted line that only csv-core reads keeps its mark too.
        let mut reader = CsvFields::new(b',');
        assert!(reader.field_into(b"\xEF\xBB\xBF\"a\"\"b\",c", 1, &mut out));
        assert_eq!(out, b"\xEF\xBB\xBF\"a\"\"b\"");
        assert!(reader.field_into(b"\xEF\xBB\xBF\"a\"\"b\",c", 2, &mut out));
        assert_eq!(out, b"c");
    }

    /// The quick path for simple quoted lines reads the same fields as csv-core, on lines
    /// made of every mix of plain, quoted, doubled-quote, spaced and unclosed fields (and with
    /// a byte-order mark in front).
    #[test]
    fn simple_quoted_fields_equal_csv_core() {
        let pieces: [&[u8]; 9] = [
            b"a",
            b"\"b,c\"",
            b"\"d\"\"e\"",
            b" \"f\" ",
            b"\"g",
            b"h\"i",
            b"",
            b"\"\"",
            b"\"j\"k",
        ];
        let mut reader = CsvFields::new(b',');
        let mut want = Vec::new();
        for (a, mark) in pieces
            .iter()
            .flat_map(|&a| [(a, &b""[..]), (a, &b"\xEF\xBB\xBF"[..])])
        {
            for b in pieces {
                for c in pieces {
                    let line = [mark, a, b",", b, b",", c].concat();
                    for column in 1..=4 {
                        let f = LineFormat {
                            column,
                            delimiter: b',',
                            decode_amp: false,
                        };
                        let ok = reader.field_into(&line, column, &mut want);
                        let expected = if ok {
                            let t = trim(&want);
                            Ok(unquote(t).unwrap_or(Cow::Borrowed(t)).into_owned())
                        } else {
                            Err(Malformed::NoColumn)
                        };
                        let mut buf = Vec::new();
                        let got = field_in(&line, f, &mut None, &mut buf).map(|c| c.into_owned());
                        assert_eq!(
                            got,
                            expected,
                            "{:?} column {column}",
                            String::from_utf8_lossy(&line)
                        );
                    }
                }
            }
        }
    }
}
