//! Output helpers shared by the commands: buffered stdout, broken-pipe detection, the TSV
//! line of the contract, JSON escaping of byte strings, and the escaping of control
//! characters in everything meant for people ([`Escape`], issue 16): a robots.txt (a fetched
//! one too) or a log can hold terminal escape sequences, which must not reach the terminal.

use std::borrow::Cow;
use std::io::{self, Write};

use robotsmatch::{Decision, RuleRef};

/// A buffered, locked stdout, for JSON (whose escaping covers control characters).
pub fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(64 * 1024, io::stdout().lock())
}

/// Stdout for a format: as it is for JSON, through [`Escape`] for text and TSV.
pub fn stdout_for(json: bool) -> Box<dyn Write> {
    if json {
        Box::new(stdout())
    } else {
        Box::new(text_stdout())
    }
}

/// A buffered, locked stdout for text meant for people (text and TSV formats): control
/// characters and bytes that are not UTF-8 are escaped (see [`Escape`]).
pub fn text_stdout() -> Escape<io::BufWriter<io::StdoutLock<'static>>> {
    Escape::new(stdout())
}

/// Writes text for a terminal: every character passes except control characters and bytes
/// that are not UTF-8, which are written as escapes. Tab and line feed pass (they are the
/// formats' own separators; values have theirs replaced by [`sanitize`] where it matters).
///
/// - C0 controls (ESC, CR, BEL, NUL, ...) and DEL: `\x1B`, `\x0D`, `\x7F`;
/// - C1 controls (U+0080 to U+009F, which some terminals obey like ESC sequences):
///   `\u{9B}`;
/// - a byte that is not part of valid UTF-8: `\xFF`.
///
/// A character cut between two writes is put back together; an incomplete one left at
/// [`Write::flush`] is escaped byte by byte.
pub struct Escape<W: Write> {
    inner: W,
    /// The start of a UTF-8 sequence cut by the end of the last write.
    carry: Vec<u8>,
}

impl<W: Write> Escape<W> {
    /// Escapes what is written before passing it to `inner`.
    pub fn new(inner: W) -> Escape<W> {
        Escape {
            inner,
            carry: Vec::new(),
        }
    }

    fn write_valid(&mut self, s: &str) -> io::Result<()> {
        // PERF: printable ASCII (nearly all output) is written as it is.
        if s.bytes()
            .all(|b| (0x20..0x7F).contains(&b) || b == b'\t' || b == b'\n')
        {
            return self.inner.write_all(s.as_bytes());
        }
        let mut start = 0;
        for (i, c) in s.char_indices() {
            if c == '\t' || c == '\n' || !c.is_control() {
                continue;
            }
            self.inner.write_all(&s.as_bytes()[start..i])?;
            if (c as u32) < 0x80 {
                write!(self.inner, "\\x{:02X}", c as u32)?;
            } else {
                write!(self.inner, "\\u{{{:X}}}", c as u32)?;
            }
            start = i + c.len_utf8();
        }
        self.inner.write_all(&s.as_bytes()[start..])
    }

    fn write_bytes(&mut self, mut rest: &[u8]) -> io::Result<()> {
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => return self.write_valid(s),
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    // `valid` is UTF-8: `valid_up_to` says so.
                    self.write_valid(std::str::from_utf8(valid).unwrap_or_default())?;
                    match e.error_len() {
                        Some(n) => {
                            for b in &after[..n] {
                                write!(self.inner, "\\x{b:02X}")?;
                            }
                            rest = &after[n..];
                        }
                        None => {
                            self.carry.extend_from_slice(after);
                            return Ok(());
                        }
                    }
                }
            }
        }
    }
}

impl<W: Write> Write for Escape<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.carry.is_empty() {
            self.write_bytes(buf)?;
        } else {
            let mut joined = std::mem::take(&mut self.carry);
            joined.extend_from_slice(buf);
            self.write_bytes(&joined)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        for b in std::mem::take(&mut self.carry) {
            write!(self.inner, "\\x{b:02X}")?;
        }
        self.inner.flush()
    }
}

/// [`Escape`] for one string (a message for stderr): control characters and invalid bytes
/// written as escapes; tab and line feed kept.
pub fn escape_str(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c.is_control() && c != '\t' && c != '\n') {
        return Cow::Borrowed(s);
    }
    let mut out = Escape::new(Vec::with_capacity(s.len() + 8));
    let _ = out.write_all(s.as_bytes()).and_then(|()| out.flush());
    Cow::Owned(String::from_utf8_lossy(&out.inner).into_owned())
}

/// True when `err` (or its cause) is a broken pipe: the reader went away, which is not an error.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// `allowed` or `disallowed`.
pub fn verdict(d: &Decision<'_>) -> &'static str {
    if d.is_allowed() {
        "allowed"
    } else {
        "disallowed"
    }
}

/// Writes the contract's TSV line: `verdict<TAB>line<TAB>rule<TAB>url`.
pub fn write_tsv(out: &mut impl Write, d: &Decision<'_>, url: &[u8]) -> io::Result<()> {
    out.write_all(verdict(d).as_bytes())?;
    out.write_all(b"\t")?;
    match d.rule() {
        Some(rule) => {
            write!(out, "{}\t{}: ", rule.line(), rule.kind().key())?;
            out.write_all(&sanitize(rule.pattern()))?;
        }
        None => out.write_all(b"-\t-")?,
    }
    out.write_all(b"\t")?;
    out.write_all(&sanitize(url))?;
    out.write_all(b"\n")
}

/// Replaces tabs and line breaks, which would break a TSV line, by spaces.
pub fn sanitize(b: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if b.iter().any(|&c| matches!(c, b'\t' | b'\n' | b'\r')) {
        std::borrow::Cow::Owned(
            b.iter()
                .map(|&c| {
                    if matches!(c, b'\t' | b'\n' | b'\r') {
                        b' '
                    } else {
                        c
                    }
                })
                .collect(),
        )
    } else {
        std::borrow::Cow::Borrowed(b)
    }
}

/// Appends `b` to `out` with tabs and line breaks replaced by spaces (as [`sanitize`], without
/// an intermediate copy).
#[inline]
pub fn extend_sanitized(out: &mut Vec<u8>, b: &[u8]) {
    if memchr::memchr3(b'\t', b'\n', b'\r', b).is_none() {
        out.extend_from_slice(b);
    } else {
        out.extend(b.iter().map(|&c| {
            if matches!(c, b'\t' | b'\n' | b'\r') {
                b' '
            } else {
                c
            }
        }));
    }
}

/// A rule as a JSON object: kind, pattern (lossy UTF-8), line.
pub fn rule_json(rule: Option<RuleRef<'_>>) -> serde_json::Value {
    match rule {
        Some(r) => serde_json::json!({
            "kind": r.kind().as_str(),
            "pattern": r.pattern_lossy(),
            "line": r.line(),
        }),
        None => serde_json::Value::Null,
    }
}

/// Like [`sanitize`], for text.
pub fn sanitize_str(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(chunks: &[&[u8]]) -> String {
        let mut out = Escape::new(Vec::new());
        for c in chunks {
            out.write_all(c).unwrap();
        }
        out.flush().unwrap();
        String::from_utf8(out.inner).unwrap()
    }

    #[test]
    fn issue16_control_characters_are_escaped() {
        assert_eq!(escaped(&[b"plain\ttext\n"]), "plain\ttext\n");
        assert_eq!(
            escaped(&[b"/a\x1b]0;pwned\x07\rb\x7f"]),
            "/a\\x1B]0;pwned\\x07\\x0Db\\x7F"
        );
        // C1 controls (CSI U+009B), invalid bytes, and non-ASCII text that is fine.
        assert_eq!(
            escaped(&["\u{9b}31m é 商".as_bytes(), b"\xff\xfe"]),
            "\\u{9B}31m é 商\\xFF\\xFE"
        );
        // A character cut between writes is kept whole; one cut at the end is escaped.
        assert_eq!(escaped(&[b"\xe5\x95", b"\x86"]), "商");
        assert_eq!(escaped(&[b"x\xe5\x95"]), "x\\xE5\\x95");
        assert_eq!(escape_str("ok"), "ok");
        assert_eq!(escape_str("a\u{1b}[2Jb"), "a\\x1B[2Jb");
    }
}
