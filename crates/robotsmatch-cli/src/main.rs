//! `robotsmatch`: the command line. It only wires the library to files and formats; the
//! contract (commands, flags, formats, exit codes) is section 4 of DESIGN.md.
//!
//! Exit status: 0 success; 1 when `test`, `diff` or `lint` find failures; 2 for usage or
//! input errors. A closed stdout (`| head`) ends the run quietly with 0.

mod check;
mod classify;
mod crawlers;
mod diff;
mod expect;
mod fetch;
mod limits;
mod lint;
mod matrix;
mod output;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Decide whether crawlers may fetch URLs under robots.txt files (RFC 9309, as Google applies it).
#[derive(Parser, Debug)]
#[command(name = "robotsmatch", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Decide URLs against one robots.txt file and explain each decision.
    Check(check::CheckArgs),
    /// Classify every URL of crawl logs against a per-host robots store, on all cores.
    Classify(classify::ClassifyArgs),
    /// Check a list of URLs that must stay crawlable or blocked (exit 1 when any fails).
    Test(expect::TestArgs),
    /// Show which URLs of a log change verdict between two versions of a file (exit 1 if any).
    Diff(diff::DiffArgs),
    /// Find the mistakes in a robots.txt file (exit 1 when there are errors).
    Lint(lint::LintArgs),
    /// List the crawler catalog: tokens, fallbacks, '*' behaviour, documentation.
    Crawlers(crawlers::CrawlersArgs),
    /// Serve the web tester: a page and a JSON API, on loopback unless told otherwise.
    #[cfg(feature = "serve")]
    Serve(ServeArgs),
}

/// Arguments of `serve`.
#[cfg(feature = "serve")]
#[derive(clap::Args, Debug)]
struct ServeArgs {
    /// Address and port to listen on (port 0 picks a free one; the address is printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    bind: String,
    /// Seconds of work per request (waiting for a place among the large ones included); past
    /// it the answer is 503 and the work is cancelled.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 10.0,
        help_heading = "Limits"
    )]
    time_limit: f64,
    /// Requests with a body over 16 KiB worked on at once [default: cores - 1, at least 1].
    #[arg(long, value_name = "N", help_heading = "Limits")]
    max_expensive: Option<usize>,
    /// Connections open at once; one more gets a 503 and is closed.
    #[arg(long, value_name = "N", default_value_t = 256, help_heading = "Limits")]
    max_connections: usize,
    /// Seconds to receive a request's head (also the idle time allowed between requests).
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 10.0,
        help_heading = "Limits"
    )]
    header_timeout: f64,
    /// Seconds to receive a request's body once its head is in (then 408).
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 10.0,
        help_heading = "Limits"
    )]
    body_timeout: f64,
    /// Seconds a connection may neither read nor write while none of its requests is being
    /// worked on (a client that does not read its answer) before it is closed.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 10.0,
        help_heading = "Limits"
    )]
    idle_timeout: f64,
}

#[cfg(feature = "serve")]
impl ServeArgs {
    /// The server's limits, each flag checked.
    fn limits(&self) -> anyhow::Result<robotsmatch_serve::Limits> {
        let secs = |flag: &str, v: f64| -> anyhow::Result<std::time::Duration> {
            if v > 0.0 && v.is_finite() && v < 1e9 {
                Ok(std::time::Duration::from_secs_f64(v))
            } else {
                anyhow::bail!("--{flag} must be a positive number of seconds, got {v}")
            }
        };
        let count = |flag: &str, v: usize| -> anyhow::Result<usize> {
            if v == 0 {
                anyhow::bail!("--{flag} must be at least 1")
            }
            Ok(v)
        };
        let mut limits = robotsmatch_serve::Limits {
            time_limit: secs("time-limit", self.time_limit)?,
            max_connections: count("max-connections", self.max_connections)?,
            header_timeout: secs("header-timeout", self.header_timeout)?,
            body_timeout: secs("body-timeout", self.body_timeout)?,
            idle_timeout: secs("idle-timeout", self.idle_timeout)?,
            ..robotsmatch_serve::Limits::default()
        };
        if let Some(n) = self.max_expensive {
            limits.max_expensive = count("max-expensive", n)?;
        }
        Ok(limits)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Classify(args) => classify::run(args),
        Command::Test(args) => expect::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Crawlers(args) => crawlers::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => args.limits().and_then(|limits| {
            robotsmatch_serve::run(&args.bind, limits)
                .map(|()| 0)
                .map_err(Into::into)
        }),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("robotsmatch: {}", output::escape_str(&format!("{err:#}")));
            ExitCode::from(2)
        }
    }
}
