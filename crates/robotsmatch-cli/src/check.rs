//! `robotsmatch check`: decide URLs against one robots.txt file and explain each decision.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::{Args, ValueEnum};
use robotsmatch::fetch::Availability;
use robotsmatch::{catalog, Matcher, Precedence, Profile, Robots, RuleRef, SelectionKind};

use crate::output::{self, rule_json, verdict, write_tsv};

/// Arguments of `check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The robots.txt file.
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "fetch",
        conflicts_with = "fetch"
    )]
    robots: Option<PathBuf>,
    /// Fetch the robots.txt of URL's origin (RFC 9309: 2xx parsed, 4xx allow all, 5xx/429 and
    /// network errors disallow all, up to 5 redirects) and check URL itself when no other URL
    /// is given.
    #[arg(long, value_name = "URL")]
    fetch: Option<String>,
    /// With --fetch: seconds allowed to connect and for each whole request.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    timeout: f64,
    /// The crawler: a product token (Googlebot), a full user-agent string, a catalog name
    /// (see `robotsmatch crawlers`), or `all` for one line per catalog crawler.
    #[arg(long, value_name = "AGENT")]
    agent: String,
    /// Matching profile: google (RFC 9309 as Google applies it) or legacy (first match); a
    /// comma-separated list (google,legacy) shows the verdicts side by side.
    #[arg(long, value_name = "P[,P]", default_value = "google")]
    profile: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    limits: crate::limits::LimitArgs,
    /// URLs to decide: absolute (https://host/path?q) or bare paths (/path?q).
    #[arg(value_name = "URL", required_unless_present = "fetch")]
    urls: Vec<String>,
}

/// Output formats of `check`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// An explanation per URL, as a tester shows it.
    Text,
    /// `verdict<TAB>line<TAB>rule<TAB>url` per URL.
    #[value(help = "verdict<TAB>line<TAB>rule<TAB>url per URL")]
    Tsv,
    /// One JSON document with every decision.
    Json,
}

impl From<Format> for crate::matrix::Format {
    fn from(f: Format) -> crate::matrix::Format {
        match f {
            Format::Text => crate::matrix::Format::Text,
            Format::Tsv => crate::matrix::Format::Tsv,
            Format::Json => crate::matrix::Format::Json,
        }
    }
}

/// Rejects an empty `--agent` (as the web tester's API does), and `--agent all` where one
/// crawler is needed (only `check` takes `all`).
pub fn single_agent(name: &str) -> anyhow::Result<()> {
    agent_given(name)?;
    if name.trim().eq_ignore_ascii_case("all") {
        bail!("--agent all is accepted by check only; name one crawler (see robotsmatch crawlers)");
    }
    Ok(())
}

/// Rejects an empty `--agent` (issue 16: the command line and the API agree).
pub fn agent_given(name: &str) -> anyhow::Result<()> {
    if let Err(e) = robotsmatch::agent::check_name(name) {
        bail!("--agent {e}");
    }
    Ok(())
}

/// A warning for a URL argument that is neither `scheme://host...` nor a path starting with
/// `/`, and that Google's reading decides as the path `/` (`cart`, `not a url`, an empty
/// argument): the verdict stays Google's, but the user probably meant something else.
pub fn not_a_url_warning(url: &str) -> Option<String> {
    let parts = robotsmatch::url::split(url.as_bytes());
    if url.trim_start().starts_with('/')
        || parts.host().is_some()
        || parts.canonical_path().as_ref() != b"/"
    {
        return None;
    }
    Some(format!(
        "robotsmatch: warning: '{url}' is neither a URL (scheme://host/path) nor a path starting with '/': it is decided as the path '/', as Google's library reads it"
    ))
}

/// With `--fetch`: a warning for an absolute URL of another origin (scheme, host, port) than
/// the fetched robots.txt, which is decided against that file anyway (RFC 9309: a robots.txt
/// applies to its own origin only).
fn other_origin_warning(report: &crate::fetch::Report, url: &str) -> Option<String> {
    use robotsmatch::cache::Origin;
    let fetched = Origin::from_url(&report.robots_url)?;
    let other = Origin::from_url(url)?;
    (other != fetched).then(|| {
        format!(
            "robotsmatch: warning: '{url}' is not on the origin of the fetched file ({}): it is decided against that file anyway; fetch its own robots.txt ({}) to decide it",
            report.robots_url,
            other.robots_url()
        )
    })
}

/// Parses a `--profile` value.
pub fn parse_profile(name: &str) -> anyhow::Result<Profile> {
    match Profile::from_name(name.trim()) {
        Some(p) => Ok(p),
        None => bail!(
            "unknown profile '{name}' (known: {})",
            Profile::ALL
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Runs `check`; returns the exit code.
pub fn run(mut args: CheckArgs) -> anyhow::Result<u8> {
    let profiles = args
        .profile
        .split(',')
        .map(parse_profile)
        .collect::<anyhow::Result<Vec<Profile>>>()?;
    agent_given(&args.agent)?;
    let parse = args.limits.parse_config();
    let file_robots = match &args.robots {
        Some(path) => Some(Robots::parse_with(&args.limits.read_robots(path)?, &parse)),
        None => None,
    };
    let report = match (&args.robots, &args.fetch) {
        (None, Some(url)) => {
            if !(args.timeout > 0.0 && args.timeout.is_finite()) {
                bail!(
                    "--timeout must be a positive number of seconds, got {}",
                    args.timeout
                );
            }
            let report = crate::fetch::fetch(url, Duration::from_secs_f64(args.timeout), &parse)?;
            if args.urls.is_empty() {
                args.urls.push(url.clone());
            }
            for other in &args.urls {
                if let Some(w) = other_origin_warning(&report, other) {
                    eprintln!("{}", output::escape_str(&w));
                }
            }
            if args.format == Format::Text {
                println!("{}", output::escape_str(&report.text(&parse)));
            } else if args.format == Format::Tsv {
                eprint!("{}", output::escape_str(&report.text(&parse)));
            }
            Some(report)
        }
        _ => None,
    };
    for url in &args.urls {
        if let Some(w) = not_a_url_warning(url) {
            eprintln!("{}", output::escape_str(&w));
        }
    }
    let fetch = report.as_ref();
    let (robots, label) = match (&file_robots, fetch, &args.robots) {
        (Some(r), _, Some(path)) => (Some(r), path.clone()),
        (_, Some(report), _) => (report.fetched.robots(), PathBuf::from(&report.robots_url)),
        _ => bail!("give --robots FILE or --fetch URL"),
    };
    let Some(robots) = robots else {
        // Unavailable or unreachable: allow all or disallow all, with the reason.
        let Some(report) = fetch else {
            bail!("no robots.txt rules");
        };
        return write_all_or_nothing(&args, &profiles, report);
    };
    if args.agent.eq_ignore_ascii_case("all") || profiles.len() > 1 {
        if let (Some(report), Format::Json) = (fetch, args.format) {
            // The matrix document has no place for it: the fetch status goes to stderr.
            eprint!("{}", output::escape_str(&report.text(&parse)));
        }
        return crate::matrix::run(
            &label,
            robots,
            &args.agent,
            &profiles,
            args.format.into(),
            &args.limits,
            &args.urls,
        );
    }
    let profile = profiles[0];
    let matcher = args
        .limits
        .builder(profile, 1 << 20)
        .build(robots, catalog::agent_for(&args.agent));
    let mut out = output::stdout_for(args.format == Format::Json);
    match args.format {
        Format::Tsv => {
            for url in &args.urls {
                write_tsv(&mut out, &matcher.decide(url), url.as_bytes())?;
            }
        }
        Format::Text => {
            for url in &args.urls {
                write_text(&mut out, robots, &matcher, &args.agent, url)?;
            }
        }
        Format::Json => {
            let crawl_delay = matcher.selection().crawl_delay(robots);
            let results: Vec<serde_json::Value> = args
                .urls
                .iter()
                .map(|url| {
                    let e = matcher.explain(url);
                    serde_json::json!({
                        "url": url,
                        "verdict": verdict(&e.decision),
                        "path": String::from_utf8_lossy(&e.canonical_path),
                        "rule": rule_json(e.decision.rule()),
                        "runner_up": rule_json(e.runner_up),
                        "engine": e.decision.engine().as_str(),
                    })
                })
                .collect();
            let mut doc = serde_json::json!({
                "robots": label.display().to_string(),
                "agent": args.agent,
                "token": matcher.agent().token(),
                "profile": profile.name,
                "group": group_json(robots, &matcher),
                "crawl_delay": crawl_delay.map(|d| d.seconds()),
                "crawl_delay_line": crawl_delay.map(|d| d.line()),
                "results": results,
            });
            if let Some(report) = fetch {
                doc["fetch"] = report.json();
            }
            serde_json::to_writer_pretty(&mut out, &doc)?;
            writeln!(out)?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// The chosen group as JSON: how it was chosen and its user-agent lines.
fn group_json(robots: &Robots, m: &Matcher) -> serde_json::Value {
    let (kind, token) = match m.selection().kind() {
        SelectionKind::Named(t) => ("named", Some(t.as_str())),
        SelectionKind::Wildcard => ("wildcard", None),
        SelectionKind::None => ("none", None),
    };
    let agents: Vec<serde_json::Value> = m
        .selection()
        .groups()
        .iter()
        .flat_map(|&g| robots.groups()[g].agents())
        .filter(|a| match m.selection().kind() {
            SelectionKind::Named(t) => a.token().eq_ignore_ascii_case(t),
            _ => a.is_wildcard(),
        })
        .map(|a| serde_json::json!({"value": a.value(), "line": a.line()}))
        .collect();
    serde_json::json!({"kind": kind, "token": token, "user_agents": agents, "rules": m.rules().len()})
}

/// Describes the chosen group in one line of text.
fn describe_group(robots: &Robots, m: &Matcher) -> String {
    let lines = |pred: &dyn Fn(&robotsmatch::parse::UserAgent) -> bool| -> Vec<String> {
        m.selection()
            .groups()
            .iter()
            .flat_map(|&g| robots.groups()[g].agents())
            .filter(|a| pred(a))
            .map(|a| format!("'User-agent: {}' (line {})", a.value(), a.line()))
            .collect()
    };
    match m.selection().kind() {
        SelectionKind::Named(t) => {
            let l = lines(&|a| a.token().eq_ignore_ascii_case(t));
            let merged = if m.selection().groups().len() > 1 {
                format!(", {} groups merged", m.selection().groups().len())
            } else {
                String::new()
            };
            let fallback = if t.eq_ignore_ascii_case(m.agent().token()) {
                String::new()
            } else {
                format!(
                    " (fallback: no group names '{}')",
                    m.agent().token()
                )
            };
            format!("{}{merged}{fallback}; '*' groups ignored", l.join(", "))
        }
        SelectionKind::Wildcard => {
            let l = lines(&|a| a.is_wildcard());
            format!("{} (no group names '{}')", l.join(", "), m.agent().token())
        }
        SelectionKind::None if !m.agent().get_obeys_wildcard() => format!(
            "none: no group names '{}', and this crawler ignores '*' groups, so everything is allowed",
            m.agent().token()
        ),
        SelectionKind::None => format!(
            "none: no group names '{}' and there is no '*' group, so everything is allowed",
            m.agent().token()
        ),
    }
}

fn write_text(
    out: &mut impl Write,
    robots: &Robots,
    m: &Matcher,
    agent: &str,
    url: &str,
) -> anyhow::Result<()> {
    let e = m.explain(url);
    let d = &e.decision;
    writeln!(out, "{url}")?;
    writeln!(out, "  verdict:   {}", verdict(d))?;
    let mut behaviour = String::new();
    for fallback in &m.agent().tokens()[1..] {
        behaviour.push_str(&format!(", then '{fallback}'"));
    }
    if !m.agent().get_obeys_wildcard() {
        behaviour.push_str(", ignores '*'");
    }
    writeln!(
        out,
        "  agent:     {agent} (product token '{}'{behaviour}, profile {})",
        m.agent().token(),
        m.profile().name
    )?;
    writeln!(out, "  group:     {}", describe_group(robots, m))?;
    match m.selection().crawl_delay(robots) {
        Some(d) => writeln!(out, "  crawl-delay: {} (line {})", d.seconds(), d.line())?,
        None => writeln!(out, "  crawl-delay: none")?,
    }
    writeln!(
        out,
        "  path:      {}",
        String::from_utf8_lossy(&e.canonical_path)
    )?;
    match d.rule() {
        Some(r) => writeln!(out, "  rule:      line {}: {r}", r.line())?,
        None if e.robots_txt => writeln!(out, "  rule:      none (/robots.txt is always allowed)")?,
        None => writeln!(out, "  rule:      none matches, so the URL is allowed")?,
    }
    match (e.runner_up, d.rule()) {
        (Some(r), Some(winner)) => {
            let why = match m.profile().precedence {
                Precedence::FirstMatch => "later in the file: the first match wins".to_string(),
                Precedence::LongestMatch => {
                    let (pw, pr) = (priority(winner), priority(r));
                    if pw == pr {
                        format!("same length {pr}: Allow wins ties")
                    } else {
                        format!("length {pr} < {pw}: the longest match wins")
                    }
                }
            };
            writeln!(out, "  runner-up: line {}: {r} ({why})", r.line())?
        }
        _ => writeln!(out, "  runner-up: none")?,
    }
    writeln!(out, "  engine:    {}", d.engine().as_str())?;
    Ok(())
}

/// A rule's priority: the length of its pattern in canonical percent-encoding.
fn priority(rule: RuleRef<'_>) -> usize {
    robotsmatch::canon::canonicalize(rule.pattern()).len()
}

/// `check --fetch` when robots.txt was unavailable or unreachable: every URL is allowed or
/// disallowed by the fetch outcome, and each line says why (line and rule `-`).
fn write_all_or_nothing(
    args: &CheckArgs,
    profiles: &[Profile],
    report: &crate::fetch::Report,
) -> anyhow::Result<u8> {
    let agents: Vec<String> = if args.agent.eq_ignore_ascii_case("all") {
        catalog::crawlers()
            .iter()
            .map(|c| c.token.to_string())
            .collect()
    } else {
        vec![args.agent.clone()]
    };
    let reason = report.fetched.reason();
    let mut out = output::stdout_for(args.format == Format::Json);
    let mut results = Vec::new();
    for agent in &agents {
        for &profile in profiles {
            let m = report.fetched.matcher(
                &args.limits.builder(profile, 1 << 20),
                catalog::agent_for(agent),
            );
            for url in &args.urls {
                let d = m.decide(url);
                let verdict = if d.is_allowed() {
                    "allowed"
                } else {
                    "disallowed"
                };
                match args.format {
                    Format::Tsv => {
                        if agents.len() > 1 {
                            write!(out, "{}\t", output::sanitize_str(agent))?;
                        }
                        if profiles.len() > 1 {
                            write!(out, "{}\t", profile.name)?;
                        }
                        writeln!(out, "{verdict}\t-\t-\t{}", output::sanitize_str(url))?;
                    }
                    Format::Text => {
                        writeln!(out, "{url}")?;
                        if d.is_allowed()
                            && report.fetched.availability() == Availability::Unreachable
                        {
                            writeln!(out, "  verdict:   allowed (/robots.txt is always allowed)")?;
                        } else {
                            writeln!(out, "  verdict:   {verdict}: {reason}")?;
                        }
                        writeln!(
                            out,
                            "  agent:     {agent} (product token '{}', profile {})",
                            m.matcher().map_or_else(
                                || catalog::agent_for(agent).token().to_string(),
                                |m| m.agent().token().to_string()
                            ),
                            profile.name
                        )?;
                        writeln!(out, "  rule:      -")?;
                    }
                    Format::Json => results.push(serde_json::json!({
                        "url": url,
                        "agent": agent,
                        "profile": profile.name,
                        "verdict": verdict,
                        "rule": null,
                        "crawl_delay": null,
                        "reason": reason.to_string(),
                    })),
                }
            }
        }
    }
    if args.format == Format::Json {
        let doc = serde_json::json!({
            "robots": report.robots_url,
            "fetch": report.json(),
            "results": results,
        });
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
    }
    out.flush()?;
    Ok(0)
}
