//! `robotsmatch lint`: the mistakes of a robots.txt file, each with its line, a one-line
//! explanation and a suggested fix. Exit 1 when there are errors, 0 for warnings only.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use robotsmatch::lint::{lint, Severity};

use crate::output;

/// Arguments of `lint`.
#[derive(Args, Debug)]
pub struct LintArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The robots.txt file.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// Output formats of `lint`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `FILE:LINE: severity[code]: message` and an indented fix per finding.
    Text,
    /// One JSON document: file, counts, findings.
    Json,
}

/// The most of a file `lint` reads: far past the 500 KiB crawlers read, so that the size it
/// reports is exact for any real file, and bounded for a device that never ends.
const LINT_READ_LIMIT: usize = 64 << 20;

/// Runs `lint`; returns the exit code.
pub fn run(args: LintArgs) -> anyhow::Result<u8> {
    let mut body = crate::limits::read_robots_up_to(&args.file, LINT_READ_LIMIT + 1)?;
    if body.len() > LINT_READ_LIMIT {
        // Issue 16.6: a device such as /dev/zero never ends; crawlers read 500 KiB anyway.
        body.truncate(LINT_READ_LIMIT);
        eprintln!(
            "robotsmatch: warning: '{}' is over {} MiB: lint reads its first {} MiB (crawlers read only the first 500 KiB)",
            output::escape_str(&args.file.display().to_string()),
            LINT_READ_LIMIT >> 20,
            LINT_READ_LIMIT >> 20
        );
    }
    let findings = lint(&body);
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = findings.len() - errors;
    let name = args.file.display().to_string();
    let mut out = output::stdout_for(args.format == Format::Json);
    match args.format {
        Format::Text => {
            for f in &findings {
                if f.line == 0 {
                    write!(out, "{name}: ")?;
                } else {
                    write!(out, "{name}:{}: ", f.line)?;
                }
                writeln!(out, "{}[{}]: {}", f.severity, f.code, f.message)?;
                writeln!(out, "    fix: {}", f.fix)?;
            }
            writeln!(
                out,
                "{errors} error{}, {warnings} warning{}",
                if errors == 1 { "" } else { "s" },
                if warnings == 1 { "" } else { "s" }
            )?;
        }
        Format::Json => {
            let list: Vec<serde_json::Value> = findings
                .iter()
                .map(|f| {
                    serde_json::json!({
                        "line": f.line,
                        "severity": f.severity.as_str(),
                        "code": f.code,
                        "message": f.message,
                        "fix": f.fix,
                        "related": f.related,
                    })
                })
                .collect();
            let doc = serde_json::json!({
                "file": name,
                "errors": errors,
                "warnings": warnings,
                "findings": list,
            });
            serde_json::to_writer_pretty(&mut out, &doc)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(u8::from(errors > 0))
}
