//! What the commands share: the submission they were given, the sandbox,
//! Ctrl-C, a closed stdout, and the flags they echo back.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;

use crate::case::settings;
use crate::case::{Settings, Suite};
use crate::cli::{CheckerArg, InterfaceArg, LimitArgs, ProblemArg, SubmissionArgs};
use crate::files::OutsideLinks;
use crate::judge::Submitted;
use crate::outside::shell_word;
use crate::problem::Problem;
use crate::runner::lang::{self, Interface};
use crate::runner::sandbox::{Containment, Mode, Protections};
use crate::runner::{process, spawner};

/// What a closed stdout interrupts the judging with, as a signal's number
/// would: SIGPIPE's on Linux and macOS, so the exit code is 141, as a shell
/// gives a program a broken pipe killed. Windows has no SIGPIPE (a closed
/// pipe is a write error there, as it is for every Rust program), and
/// exits with 141 all the same.
pub(crate) const CLOSED_STDOUT: i32 = 13;
#[cfg(unix)]
const _: () = assert!(CLOSED_STDOUT == libc::SIGPIPE);

/// The exit code when the harness could not do its job.
pub(crate) const HARNESS_ERROR: u8 = 2;

/// Whether `error` says stdout (or another pipe) was closed by its
/// reader. std calls it `BrokenPipe` (EPIPE; on Windows ERROR_NO_DATA and
/// ERROR_BROKEN_PIPE); Wine reports such a write as
/// ERROR_PIPE_NOT_CONNECTED (233), which std does not sort.
pub(crate) fn closed_pipe(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::BrokenPipe
        || (cfg!(windows) && error.raw_os_error() == Some(233))
}

/// As shells report a command stopped by a signal: 128 + its number
/// (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
pub(crate) fn interrupted_code() -> ExitCode {
    let signal = process::interrupting_signal().unwrap_or(libc::SIGINT);
    ExitCode::from(128 + u8::try_from(signal).unwrap_or(2))
}

/// Exit code 1 when what the command checked failed, else 0.
pub(crate) fn failed_if(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The submission the command line names.
pub(crate) fn submitted(args: &SubmissionArgs) -> Submitted {
    if let Some(command) = &args.cmd {
        return Submitted::Command(command.clone());
    }
    match &args.submission {
        Some(path) => Submitted::File {
            path: path.clone(),
            language: args.lang.map(|l| l.0),
            interface: args.interface.map(|i| match i {
                InterfaceArg::Leetcode => Interface::Function,
                InterfaceArg::Program => Interface::Program,
            }),
        },
        None => Submitted::Solver(args.solver.clone()),
    }
}

/// Says on stderr what a build is doing, escaped: it names the file being
/// built, which may be a pack's.
pub(crate) fn announce() -> lang::Announce {
    Arc::new(|message: &str| eprintln!("{}", crate::outside::Outside::new(message).terminal()))
}

/// The problem every case under `paths` is judged as by its `judge.toml`,
/// if they all are one.
pub(crate) fn problem_of_every_case(paths: &[PathBuf], links: OutsideLinks) -> Option<Problem> {
    Suite::read(paths, links).ok()?.problem()
}

/// The width of the terminal stdout is, or `None` when it is not one (a
/// pipe or a file gets whole lines).
pub(crate) fn stdout_width() -> Option<usize> {
    terminal_size::terminal_size_of(io::stdout()).map(|(width, _)| usize::from(width.0))
}

/// Ctrl-C, SIGTERM (how CI systems cancel a job) and SIGHUP stop the
/// running submission (it has its own process group, so the terminal's
/// signal does not reach it); the command then reports what it finished,
/// and exits as a shell would say the signal stopped it. A second signal
/// ends the judge at once.
#[cfg(unix)]
pub(crate) fn on_ctrl_c() -> anyhow::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .context("failed to install the signal handlers")?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if process::interrupting_signal().is_some() {
                std::process::exit(128 + signal);
            }
            process::interrupt(signal);
        }
    });
    Ok(())
}

/// Ctrl-C and Ctrl-Break stop the running submission; the command then
/// reports what it finished and exits with 130, as on Unix after Ctrl-C.
/// A second one ends the judge at once, with 130.
///
/// `ctrlc` takes the console's events (SetConsoleCtrlHandler) and calls
/// this handler on a thread of its own for each. Closing the console
/// window, logging off or shutting down reach it too, but Windows ends the
/// judge as soon as the console's handler returns, so the reports are not
/// written then; the Job Object holding the running submission ends with
/// the judge.
#[cfg(windows)]
pub(crate) fn on_ctrl_c() -> anyhow::Result<()> {
    ctrlc::set_handler(|| {
        if process::interrupting_signal().is_some() {
            std::process::exit(128 + libc::SIGINT);
        }
        process::interrupt(libc::SIGINT);
    })
    .context("failed to install the Ctrl-C handler")
}

/// The sandbox's protections, checked against `--sandbox require`.
pub(crate) fn sandbox(containment: &Containment) -> anyhow::Result<Option<Protections>> {
    let Some(protections) = spawner::protections(containment) else {
        return Ok(None);
    };
    let protections = protections.context("failed to start the sandbox's spawner")?;
    let missing = protections.missing();
    if containment.mode == Mode::Require && !missing.is_empty() {
        let list: Vec<String> = missing
            .iter()
            .map(|(name, why)| format!("{name}: {why}"))
            .collect();
        anyhow::bail!(
            "--sandbox require, but the kernel refused {}; {}, or judge with --sandbox auto to \
             go on without them",
            list.join("; "),
            protections.remedy()
        );
    }
    Ok(Some(protections))
}

/// Settings from `--problem`, `--time-limit`, `--memory-limit` and
/// `--checker`, as `judge.toml` would set them.
pub(crate) fn flag_settings(
    limits: &LimitArgs,
    checker: Option<CheckerArg>,
) -> anyhow::Result<Settings> {
    Ok(Settings {
        problem: limits.problem.map(ProblemArg::problem),
        time_limit: limits
            .time_limit
            .as_deref()
            .map(settings::parse_duration)
            .transpose()
            .context("invalid --time-limit")?,
        memory_limit_kb: limits
            .memory_limit
            .as_deref()
            .map(settings::parse_memory_kb)
            .transpose()
            .context("invalid --memory-limit")?,
        checker: checker.map(CheckerArg::kind),
        time_scale: None,
        toolchain: Vec::new(),
    })
}

/// `--problem`, `--time-limit` and `--memory-limit` as they were given,
/// to repeat a command.
pub(crate) fn limit_flags(limits: &LimitArgs) -> String {
    flags(&[
        (
            "--problem",
            limits.problem.map(|p| p.problem().name().to_string()),
        ),
        ("--time-limit", limits.time_limit.clone()),
        ("--memory-limit", limits.memory_limit.clone()),
    ])
}

/// ` --flag value` for each flag that has a value, to repeat a command;
/// each value quoted for the shell.
pub(crate) fn flags(pairs: &[(&str, Option<String>)]) -> String {
    pairs
        .iter()
        .filter_map(|(flag, value)| {
            value
                .as_ref()
                .map(|v| format!(" {flag} {}", shell_word(v.as_ref())))
        })
        .collect()
}
