//! `robotsmatch`: the command line. It only wires the library to files and formats; the
//! contract (commands, flags, formats, exit codes) is section 4 of DESIGN.md.
//!
//! Exit status: 0 success; 1 when `test`, `diff` or `lint` find failures; 2 for usage or
//! input errors. A closed stdout (`| head`) ends the run quietly with 0.

mod bulk;
mod check;
mod classify;
mod limits;
mod logline;
mod output;
mod store;

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
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("robotsmatch: {err:#}");
            ExitCode::from(2)
        }
    }
}
