//! `robotsmatch`: the command line. It only wires the library to files and formats; the
//! contract (commands, flags, formats, exit codes) is section 4 of DESIGN.md.
//!
//! Exit status: 0 success; 1 when `test`, `diff` or `lint` find failures; 2 for usage or
//! input errors. A closed stdout (`| head`) ends the run quietly with 0.

mod bulk;
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
mod store;

use std::process::ExitCode;

use robotsmatch_cli::logline;

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
    Serve {
        /// Address and port to listen on (port 0 picks a free one; the address is printed).
        #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
        bind: String,
    },
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
        Command::Serve { bind } => robotsmatch_serve::run(&bind)
            .map(|()| 0)
            .map_err(Into::into),
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
