//! The `sudoku-judge` program: parse the command line, run the command,
//! map the outcome to an exit code (0 all accepted, 1 some case not
//! accepted, 2 the harness itself failed, 130 interrupted). The binary's
//! `main` is this module's [`main`].

use std::io::{self, IsTerminal as _};
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{Cli, ColorChoice, Command};
use crate::commands::{self, HARNESS_ERROR};
use crate::files::OutsideLinks;
use crate::report::terminal;
use crate::runner::sandbox::Containment;

/// Stdout was closed before all was written: 128 + SIGPIPE, the status a
/// shell gives a program a broken pipe killed.
const BROKEN_PIPE: u8 = 141;

/// The program: the command line parsed, the command run, its outcome
/// an exit code.
pub fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(error) => {
            // Output piped into `head` is not worth a message, but it is
            // no success either: exit as a shell expects of a broken pipe.
            if error.chain().any(|e| {
                e.downcast_ref::<io::Error>()
                    .is_some_and(commands::closed_pipe)
            }) {
                return ExitCode::from(BROKEN_PIPE);
            }
            // The error may quote a path or a line from a suite.
            let message = format!("{error:#}");
            eprintln!(
                "error: {}",
                crate::outside::Outside::new(message).terminal()
            );
            ExitCode::from(HARNESS_ERROR)
        }
    }
}

fn run() -> anyhow::Result<ExitCode> {
    let cli = Cli::parse();
    let color = match cli.color {
        ColorChoice::Always => {
            // A Windows console is asked to draw the colours rather than
            // show them as text; elsewhere this does nothing.
            let _ = terminal::stdout_draws_escapes();
            true
        }
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
                && terminal::stdout_draws_escapes()
        }
    };
    let links = match cli.follow_outside_links {
        true => OutsideLinks::Followed,
        false => OutsideLinks::Refused,
    };
    // Submissions are started by a small process of their own, which holds
    // the sandbox and keeps the memory each one is charged its own
    // (runner/spawner.rs). Every run is handed this.
    let containment = Containment {
        mode: cli.sandbox.mode(),
        spawner: match cli.command {
            Command::Worker { .. } | Command::Spawner => None,
            _ => std::env::current_exe().ok(),
        },
    };
    match cli.command {
        Command::Test(args) => commands::test(args, color, links, containment),
        Command::Solve { solver } => commands::solve(solver.as_deref()),
        Command::Gen(args) => commands::gen(args),
        Command::Rate(args) => commands::rate(&args, links),
        Command::Check { paths } => commands::check(&paths, links),
        Command::Calibrate { suites, time_scale } => {
            commands::calibrate(&suites, time_scale, links, &containment)
        }
        Command::Stress(args) => commands::stress(args, &containment),
        Command::Hack(args) => commands::hack(args, &containment),
        Command::Bench(args) => commands::bench(args, &containment),
        Command::Driver(args) => commands::driver(&args, links, &containment),
        Command::Cache { action } => commands::cache(action),
        Command::Solvers { all } => commands::solvers(all),
        Command::Cases { out } => commands::cases(out.as_deref()),
        Command::Doctor(args) => commands::doctor(&args, &containment),
        Command::New(args) => commands::new(&args, links),
        Command::Trust(args) => commands::trust(&args, links),
        Command::Worker { solver } => commands::worker(&solver),
        Command::Spawner => {
            crate::runner::spawner::serve()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
