//! A client for Google's C++ robots.txt library, reached through `tools/oracle/oracle.py`
//! (Python bindings published as `jwm.robotstxt`).
//!
//! The Python interpreter is `$ROBOTSMATCH_ORACLE_PYTHON`, else `.venv/bin/python` at the
//! workspace root (made by `tools/setup-oracle`). When neither works, oracle-backed tests fail
//! with instructions, unless `ROBOTSMATCH_SKIP_ORACLE=1`, in which case they say loudly that
//! the oracle part was skipped.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A running oracle process.
pub struct Oracle {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// Google's answer for one URL: allowed, and `matching_line()` (0 when none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub allowed: bool,
    pub line: u32,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl Oracle {
    /// Starts the oracle. `Ok(None)` when it is unavailable and skipping was requested.
    pub fn start() -> Result<Option<Oracle>, String> {
        let python = std::env::var_os("ROBOTSMATCH_ORACLE_PYTHON")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace().join(".venv/bin/python"));
        let script = workspace().join("tools/oracle/oracle.py");
        let skip = std::env::var("ROBOTSMATCH_SKIP_ORACLE").is_ok_and(|v| v == "1");
        let spawned = Command::new(&python)
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) if skip => {
                eprintln!(
                    "ORACLE SKIPPED ({}: {e}); differential checks did not run",
                    python.display()
                );
                return Ok(None);
            }
            Err(e) => {
                return Err(format!(
                    "cannot start Google's library oracle with {}: {e}.\n\
                     Run `tools/setup-oracle` (makes .venv with jwm.robotstxt), set \
                     ROBOTSMATCH_ORACLE_PYTHON, or set ROBOTSMATCH_SKIP_ORACLE=1 to skip the \
                     oracle checks (they then do not count).",
                    python.display()
                ))
            }
        };
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut oracle = Oracle {
            child,
            stdin,
            stdout,
        };
        // A probe, so a broken installation (module missing) fails here with a clear message.
        match oracle.ask(b"User-agent: *\nDisallow: /x\n", "bot", &[b"/x".as_slice()]) {
            Ok(a)
                if a == [Answer {
                    allowed: false,
                    line: 2,
                }] =>
            {
                Ok(Some(oracle))
            }
            Ok(a) => Err(format!("oracle probe gave a wrong answer: {a:?}")),
            Err(e) if skip => {
                eprintln!("ORACLE SKIPPED ({e}); differential checks did not run");
                Ok(None)
            }
            Err(e) => Err(format!(
                "Google's library oracle does not answer ({e}); run `tools/setup-oracle`"
            )),
        }
    }

    fn request(&mut self, req: serde_json::Value) -> Result<serde_json::Value, String> {
        let mut line = serde_json::to_string(&req).map_err(|e| e.to_string())?;
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("oracle write: {e}"))?;
        let mut resp = String::new();
        let n = self
            .stdout
            .read_line(&mut resp)
            .map_err(|e| format!("oracle read: {e}"))?;
        if n == 0 {
            return Err("oracle exited".into());
        }
        let v: serde_json::Value = serde_json::from_str(&resp).map_err(|e| e.to_string())?;
        if let Some(err) = v.get("error") {
            return Err(format!("oracle error: {err}"));
        }
        Ok(v)
    }

    fn answers(v: &serde_json::Value) -> Result<Vec<Answer>, String> {
        v["results"]
            .as_array()
            .ok_or("no results")?
            .iter()
            .map(|r| {
                Ok(Answer {
                    allowed: r["allowed"].as_bool().ok_or("no allowed")?,
                    line: r["line"].as_u64().ok_or("no line")? as u32,
                })
            })
            .collect()
    }

    /// Asks about several URLs under one body.
    pub fn ask(
        &mut self,
        robots: &[u8],
        agent: &str,
        urls: &[&[u8]],
    ) -> Result<Vec<Answer>, String> {
        let urls: Vec<String> = urls.iter().map(|u| hex(u)).collect();
        let v = self.request(serde_json::json!({
            "robots_hex": hex(robots), "agent": agent, "urls_hex": urls,
        }))?;
        Oracle::answers(&v)
    }

    /// Asks about several URLs under the body of a file (read once by the oracle).
    pub fn ask_file(
        &mut self,
        path: &Path,
        agent: &str,
        urls: &[&[u8]],
    ) -> Result<Vec<Answer>, String> {
        let urls: Vec<String> = urls.iter().map(|u| hex(u)).collect();
        let v = self.request(serde_json::json!({
            "robots_file": path.display().to_string(), "agent": agent, "urls_hex": urls,
        }))?;
        Oracle::answers(&v)
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
