//! Output helpers shared by the commands: buffered stdout, broken-pipe detection, the TSV
//! line of the contract, JSON escaping of byte strings.

use std::io::{self, Write};

use robotsmatch::{Decision, RuleRef};

/// A buffered, locked stdout.
pub fn stdout() -> io::BufWriter<io::StdoutLock<'static>> {
    io::BufWriter::with_capacity(64 * 1024, io::stdout().lock())
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
