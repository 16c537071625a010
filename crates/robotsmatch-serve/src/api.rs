//! The JSON API as pure functions: a parsed request body in, a JSON document or an
//! [`ApiError`] out. No I/O here; [`crate::router`] wires these to HTTP.
//!
//! The semantics and field names are those of the command line: `check --format json`,
//! `lint --format json`, `diff` (its counts and changed URLs) and `crawlers --format json`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use robotsmatch::lint::{lint_with, LintConfig, Severity};
use robotsmatch::SelectionKind;
use robotsmatch::{catalog, Decision, Matcher, MatcherBuilder, Profile, Robots, RuleRef};
use serde_json::{json, Map, Value};

use crate::Limits;

/// The cancel flag of one request's work: set once the request has been answered (a 503 at
/// the time limit included), abandoned by its client, or the server stops. The API functions
/// look at it between rules and URLs and give up with a 503 when it is set.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag that is not set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Sets the flag: the work stops at its next check.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// A guard that sets the flag when dropped: however the request ends, its work stops.
    pub fn on_drop(&self) -> CancelOnDrop {
        CancelOnDrop(self.clone())
    }

    /// The flag itself, for [`LintConfig::cancel_flag`].
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }

    /// `Err(503)` once cancelled.
    fn check(&self) -> Result<(), ApiError> {
        if self.is_cancelled() {
            Err(ApiError {
                status: 503,
                message: "the request was cancelled (answered already, or the server is stopping)"
                    .into(),
            })
        } else {
            Ok(())
        }
    }
}

/// Sets its [`Cancel`] flag when dropped (see [`Cancel::on_drop`]).
#[derive(Debug)]
pub struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// A request the API refuses: the HTTP status and a message naming the field at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// 400 for bad input, 413 for input over a limit, 415, 503...
    pub status: u16,
    /// One line, naming the field.
    pub message: String,
}

impl ApiError {
    /// A 400 Bad Request.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }

    /// A 413 Payload Too Large.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 413,
            message: message.into(),
        }
    }

    /// The body sent to the client: `{"error": message}`.
    pub fn to_json(&self) -> Value {
        json!({ "error": self.message })
    }
}

/// The fields of a request body, checked: an object, only known fields.
struct Body<'a> {
    obj: &'a Map<String, Value>,
}

impl<'a> Body<'a> {
    fn new(v: &'a Value, known: &[&str]) -> Result<Body<'a>, ApiError> {
        let obj = v
            .as_object()
            .ok_or_else(|| ApiError::bad("the request body must be a JSON object"))?;
        if let Some(k) = obj.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(ApiError::bad(format!(
                "unknown field '{k}' (known fields: {})",
                known.join(", ")
            )));
        }
        Ok(Body { obj })
    }

    fn opt_str(&self, name: &str) -> Result<Option<&'a str>, ApiError> {
        match self.obj.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(ApiError::bad(format!(
                "field '{name}' must be a string, not {}",
                type_name(other)
            ))),
        }
    }

    fn str(&self, name: &str) -> Result<&'a str, ApiError> {
        self.opt_str(name)?
            .ok_or_else(|| ApiError::bad(format!("missing field '{name}'")))
    }

    /// A robots.txt body, at most `limits.max_robots_bytes`.
    fn robots(&self, name: &str, limits: &Limits) -> Result<&'a str, ApiError> {
        let s = self.str(name)?;
        if s.len() > limits.max_robots_bytes {
            return Err(ApiError::too_large(format!(
                "field '{name}' is {} bytes; the limit is {} bytes",
                s.len(),
                limits.max_robots_bytes
            )));
        }
        Ok(s)
    }

    /// The crawler: not empty, not `all`, not longer than a URL may be.
    fn agent(&self, limits: &Limits) -> Result<&'a str, ApiError> {
        let a = self.str("agent")?;
        if let Err(e) = robotsmatch::agent::check_name(a) {
            return Err(ApiError::bad(format!("field 'agent' {e}")));
        }
        if a.trim().eq_ignore_ascii_case("all") {
            return Err(ApiError::bad(
                "field 'agent': 'all' is accepted by the command line's check only; name one crawler",
            ));
        }
        if a.len() > limits.max_url_bytes {
            return Err(ApiError::too_large(format!(
                "field 'agent' is {} bytes; the limit is {} bytes",
                a.len(),
                limits.max_url_bytes
            )));
        }
        Ok(a)
    }

    fn profile(&self) -> Result<Profile, ApiError> {
        match self.opt_str("profile")? {
            None => Ok(Profile::GOOGLE),
            Some(name) => Profile::from_name(name.trim()).ok_or_else(|| {
                ApiError::bad(format!(
                    "field 'profile': unknown profile '{name}' (known: {})",
                    Profile::ALL
                        .iter()
                        .map(|p| p.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }),
        }
    }

    /// The URL list: an array of strings, at most `max_urls` of at most `max_url_bytes` each.
    fn urls(&self, limits: &Limits) -> Result<Vec<&'a str>, ApiError> {
        let list = match self.obj.get("urls") {
            None => return Err(ApiError::bad("missing field 'urls'")),
            Some(Value::Array(a)) => a,
            Some(other) => {
                return Err(ApiError::bad(format!(
                    "field 'urls' must be an array of strings, not {}",
                    type_name(other)
                )))
            }
        };
        if list.len() > limits.max_urls {
            return Err(ApiError::too_large(format!(
                "field 'urls' has {} entries; the limit is {}",
                list.len(),
                limits.max_urls
            )));
        }
        list.iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::String(s) if s.len() > limits.max_url_bytes => {
                    Err(ApiError::too_large(format!(
                        "field 'urls' entry {} is {} bytes; the limit is {} bytes",
                        i + 1,
                        s.len(),
                        limits.max_url_bytes
                    )))
                }
                Value::String(s) => Ok(s.as_str()),
                other => Err(ApiError::bad(format!(
                    "field 'urls' entry {} must be a string, not {}",
                    i + 1,
                    type_name(other)
                ))),
            })
            .collect()
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A rule as JSON, as the command line writes it: kind, pattern, line; `null` for none.
fn rule_json(rule: Option<RuleRef<'_>>) -> Value {
    match rule {
        Some(r) => json!({
            "kind": r.kind().as_str(),
            "pattern": r.pattern_lossy(),
            "line": r.line(),
            "text": r.to_string(),
        }),
        None => Value::Null,
    }
}

fn verdict(d: &Decision<'_>) -> &'static str {
    if d.is_allowed() {
        "allowed"
    } else {
        "disallowed"
    }
}

/// The crawler as the engine reads it.
fn agent_json(input: &str, m: &Matcher) -> Value {
    json!({
        "input": input,
        "token": m.agent().token(),
        "tokens": m.agent().tokens(),
        "obeys_wildcard": m.agent().get_obeys_wildcard(),
    })
}

/// The chosen group: how it was chosen (`named`, `wildcard`, `none`), the token that chose
/// it, whether that is a fallback, its user-agent lines, and the line range of every group
/// merged into it (first user-agent line to its last line with a rule or directive).
pub fn group_json(robots: &Robots, m: &Matcher) -> Value {
    let sel = m.selection();
    let (kind, token) = match sel.kind() {
        SelectionKind::Named(t) => ("named", Some(t.as_str())),
        SelectionKind::Wildcard => ("wildcard", None),
        SelectionKind::None => ("none", None),
    };
    let fallback = token.is_some_and(|t| !t.eq_ignore_ascii_case(m.agent().token()));
    let mut agents = Vec::new();
    let mut ranges = Vec::new();
    for &g in sel.groups() {
        let group = &robots.groups()[g];
        for a in group.agents() {
            let chose = match sel.kind() {
                SelectionKind::Named(t) => !a.is_wildcard() && a.token().eq_ignore_ascii_case(t),
                _ => a.is_wildcard(),
            };
            if chose {
                agents.push(json!({"value": a.value(), "line": a.line()}));
            }
        }
        let start = group.agents().iter().map(|a| a.line()).min().unwrap_or(0);
        let end = group
            .agents()
            .iter()
            .map(|a| a.line())
            .chain(group.rules().iter().map(|r| r.line()))
            .chain(
                robots
                    .directives()
                    .iter()
                    .filter(|d| d.group() == Some(g))
                    .map(|d| d.line()),
            )
            .max()
            .unwrap_or(start);
        ranges.push(json!({"start": start, "end": end}));
    }
    json!({
        "kind": kind,
        "token": token,
        "fallback": fallback,
        "user_agents": agents,
        "ranges": ranges,
        "rules": m.rules().len(),
    })
}

fn builder(profile: Profile) -> MatcherBuilder {
    MatcherBuilder::new().profile(profile)
}

/// `POST /api/check`: `{robots, agent, urls, profile?}` -> the crawler, the group that
/// applies and the crawler's crawl-delay (the same for every URL), and per URL its verdict,
/// canonical path, deciding rule and runner-up, as `check --format json` gives them; and the
/// counts.
pub fn check(req: &Value, limits: &Limits, cancel: &Cancel) -> Result<Value, ApiError> {
    let body = Body::new(req, &["robots", "agent", "urls", "profile"])?;
    let text = body.robots("robots", limits)?;
    let agent = body.agent(limits)?;
    let profile = body.profile()?;
    let urls = body.urls(limits)?;
    let robots = Robots::parse(text.as_bytes());
    cancel.check()?;
    let matcher = builder(profile).build(&robots, catalog::agent_for(agent));
    let crawl_delay = matcher.selection().crawl_delay(&robots);
    let mut allowed = 0usize;
    let mut results: Vec<Value> = Vec::with_capacity(urls.len());
    for url in &urls {
        cancel.check()?;
        let e = matcher.explain(url);
        allowed += usize::from(e.decision.is_allowed());
        results.push(json!({
            "url": url,
            "allowed": e.decision.is_allowed(),
            "verdict": verdict(&e.decision),
            "path": String::from_utf8_lossy(&e.canonical_path),
            "rule": rule_json(e.decision.rule()),
            "runner_up": rule_json(e.runner_up),
            "robots_txt": e.robots_txt,
            "engine": e.decision.engine().as_str(),
        }));
    }
    Ok(json!({
        "agent": agent_json(agent, &matcher),
        "profile": profile.name,
        "group": group_json(&robots, &matcher),
        "crawl_delay": crawl_delay.map(|d| d.seconds()),
        "crawl_delay_line": crawl_delay.map(|d| d.line()),
        "lines": robots.line_count(),
        "counts": {"urls": urls.len(), "allowed": allowed, "disallowed": urls.len() - allowed},
        "results": results,
    }))
}

/// `POST /api/lint`: `{robots}` -> `{errors, warnings, findings}` as `lint --format json`
/// gives them (without the file name), within lint's default work budget.
pub fn lint_api(req: &Value, limits: &Limits, cancel: &Cancel) -> Result<Value, ApiError> {
    let body = Body::new(req, &["robots"])?;
    let text = body.robots("robots", limits)?;
    let robots = Robots::parse(text.as_bytes());
    cancel.check()?;
    let config = LintConfig::new().cancel_flag(cancel.flag());
    let report = lint_with(text.as_bytes(), &robots, &config);
    cancel.check()?;
    let findings = report.findings;
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let list: Vec<Value> = findings
        .iter()
        .map(|f| {
            json!({
                "line": f.line,
                "severity": f.severity.as_str(),
                "code": f.code,
                "message": f.message,
                "fix": f.fix,
                "related": f.related,
            })
        })
        .collect();
    Ok(json!({
        "errors": errors,
        "warnings": findings.len() - errors,
        "findings": list,
    }))
}

/// How a URL list line is read by `diff`: trimmed; blank lines skipped; a line that is
/// neither a bare path (`/...`) nor `scheme://host...` is invalid and counted.
fn diff_line(raw: &str) -> Option<Result<&str, ()>> {
    let s = raw.trim();
    if s.is_empty() {
        return None;
    }
    if s.starts_with('/') || has_host(s) {
        Some(Ok(s))
    } else {
        Some(Err(()))
    }
}

/// True for `scheme://host...` with a non-empty host (read as the matcher reads the URL).
fn has_host(s: &str) -> bool {
    robotsmatch::url::split(s.as_bytes()).host().is_some()
}

/// `POST /api/diff`: `{old, new, agent, urls, profile?}` -> what the `diff` command reports
/// for the same URL list: the group of each version, the counts (urls, unchanged, each
/// direction, invalid), the changes grouped by the rule responsible, and every changed URL
/// in input order with both verdicts and rules.
pub fn diff(req: &Value, limits: &Limits, cancel: &Cancel) -> Result<Value, ApiError> {
    let body = Body::new(req, &["old", "new", "agent", "urls", "profile"])?;
    let old_text = body.robots("old", limits)?;
    let new_text = body.robots("new", limits)?;
    let agent = body.agent(limits)?;
    let profile = body.profile()?;
    let urls = body.urls(limits)?;
    let b = builder(profile);
    let old_robots = Robots::parse(old_text.as_bytes());
    let new_robots = Robots::parse(new_text.as_bytes());
    let old = b.build(&old_robots, catalog::agent_for(agent));
    let new = b.build(&new_robots, catalog::agent_for(agent));
    let (mut old_cache, mut new_cache) = (old.create_cache(), new.create_cache());
    let (mut n, mut to_dis, mut to_all) = (0usize, 0usize, 0usize);
    let mut invalid = Vec::new();
    let mut changed = Vec::new();
    // (newly disallowed?, line) -> (count, rule)
    let mut by_rule: Vec<((bool, u32), usize, Value)> = Vec::new();
    for (i, raw) in urls.iter().enumerate() {
        cancel.check()?;
        let url = match diff_line(raw) {
            None => continue,
            Some(Err(())) => {
                invalid.push(json!({"entry": i + 1, "url": raw}));
                continue;
            }
            Some(Ok(u)) => u,
        };
        n += 1;
        // As the CLI's diff: canonicalise once, decide the canonical path with both.
        let path = robotsmatch::url::split(url.as_bytes()).canonical_path();
        let a = old.decide_canonical_with(&mut old_cache, &path);
        let z = new.decide_canonical_with(&mut new_cache, &path);
        if a.is_allowed() == z.is_allowed() {
            continue;
        }
        let now_disallowed = !z.is_allowed();
        if now_disallowed {
            to_dis += 1;
        } else {
            to_all += 1;
        }
        let responsible = if now_disallowed { &z } else { &a };
        let key = (now_disallowed, responsible.rule().map_or(0, |r| r.line()));
        match by_rule.iter_mut().find(|e| e.0 == key) {
            Some(e) => e.1 += 1,
            None => by_rule.push((key, 1, rule_json(responsible.rule()))),
        }
        changed.push(json!({
            "url": url,
            "old_verdict": verdict(&a),
            "new_verdict": verdict(&z),
            "old_rule": rule_json(a.rule()),
            "new_rule": rule_json(z.rule()),
        }));
    }
    by_rule.sort_by(|x, y| {
        y.0 .0
            .cmp(&x.0 .0)
            .then(y.1.cmp(&x.1))
            .then(x.0 .1.cmp(&y.0 .1))
    });
    let by_rule: Vec<Value> = by_rule
        .into_iter()
        .map(|((dis, _), count, rule)| {
            json!({
                "direction": if dis { "allowed -> disallowed" } else { "disallowed -> allowed" },
                "count": count,
                "rule": rule,
            })
        })
        .collect();
    Ok(json!({
        "agent": agent_json(agent, &new),
        "profile": profile.name,
        "old": {"group": group_json(&old_robots, &old), "rules": old.rules().len()},
        "new": {"group": group_json(&new_robots, &new), "rules": new.rules().len()},
        "counts": {
            "urls": n,
            "unchanged": n - to_dis - to_all,
            "allowed_to_disallowed": to_dis,
            "disallowed_to_allowed": to_all,
            "invalid": invalid.len(),
        },
        "by_rule": by_rule,
        "changed": changed,
        "invalid": invalid,
    }))
}

/// `GET /api/crawlers`: the catalog, as `crawlers --format json` gives it.
pub fn crawlers() -> Value {
    Value::Array(
        catalog::crawlers()
            .iter()
            .map(|c| {
                json!({
                    "token": c.token,
                    "fallbacks": c.fallbacks,
                    "obeys_wildcard": c.obeys_wildcard,
                    "operator": c.operator,
                    "purpose": c.purpose,
                    "source": c.source.as_str(),
                    "url": c.url,
                    "note": c.note,
                })
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_lines_are_read_like_the_cli() {
        assert_eq!(diff_line("  "), None);
        assert_eq!(diff_line(" /a?b "), Some(Ok("/a?b")));
        assert_eq!(
            diff_line("https://x.example/a"),
            Some(Ok("https://x.example/a"))
        );
        assert_eq!(
            diff_line("https://u@x.example:8080"),
            Some(Ok("https://u@x.example:8080"))
        );
        assert_eq!(diff_line("https:///a"), Some(Err(())));
        assert_eq!(diff_line("a/b"), Some(Err(())));
        assert_eq!(diff_line("1http://x/"), Some(Err(())));
    }
}
