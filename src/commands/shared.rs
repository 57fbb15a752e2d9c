//! What the commands share: the submission they were given, the solver
//! asked for, the sandbox, Ctrl-C, a closed stdout, and the flags they
//! echo back.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;

use crate::case::settings;
use crate::case::{Settings, Suite};
use crate::cli::{CheckerArg, InterfaceArg, LimitArgs, ProblemArg, SubmissionArgs};
use crate::outside::{shell_path, shell_word};
use crate::practice::Submitted;
use crate::problem::Problem;
use crate::runner::lang::{self, BuildInfo};
use crate::runner::lang::{launch::Launch, Interface};
use crate::runner::sandbox::{self, Protections};
use crate::runner::{process, spawner, Submission};
use crate::solver::{self, Solver};

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

pub(crate) fn pick_solver(name: Option<&str>) -> anyhow::Result<&'static Solver> {
    name.map_or_else(|| Ok(solver::default_solver()), solver::find)
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

/// The submission ready to judge, how it was built, and how to say it
/// again in a rerun hint. `suite` says which problem every case is, if
/// one is (a file that could be read either way is read as that judge
/// reads it, and built as it builds), and the toolchains the suite names.
pub(crate) fn submission(
    submitted: &Submitted,
    suite: impl FnOnce() -> anyhow::Result<(Option<Problem>, Vec<lang::Choice>)>,
) -> anyhow::Result<(Submission, Option<BuildInfo>, String)> {
    let (path, language, interface) = match submitted {
        Submitted::Command(command) => {
            let launch = Launch::command(command)?;
            let again = format!("--cmd {}", shell_word(command.as_ref()));
            return Ok((Submission::External(launch), None, again));
        }
        Submitted::Solver(name) => {
            let solver = pick_solver(name.as_deref())?;
            let exe = std::env::current_exe()
                .context("cannot find this program's own binary to run solvers in")?;
            let again = format!("--solver {}", solver.name);
            return Ok((Submission::Builtin { solver, exe }, None, again));
        }
        Submitted::File {
            path,
            language,
            interface,
        } => (path, *language, *interface),
    };
    let mut rerun = format!("--submission {}", shell_path(path));
    if let Some(language) = language {
        rerun.push_str(&format!(" --lang {}", language.spec().id));
    }
    let (problem, toolchains) = suite()?;
    let reading = match interface {
        Some(Interface::Function) => {
            rerun.push_str(" --interface leetcode");
            lang::Reading::Forced(Interface::Function)
        }
        Some(Interface::Program) => {
            rerun.push_str(" --interface program");
            lang::Reading::Forced(Interface::Program)
        }
        None if problem == Some(Problem::Leetcode37) => lang::Reading::LeetCodeFirst,
        None => lang::Reading::Detect,
    };
    let options = lang::Options {
        reading,
        problem,
        toolchains,
        announce: Some(Arc::new(|message: &str| {
            // It names the file being built, which may be a pack's.
            eprintln!("{}", crate::outside::Outside::new(message).terminal())
        })),
    };
    let mut built = lang::build_as(path, language, &options)?;
    if language.is_none() {
        if let Some(error) = built.info.error.as_mut() {
            if let Some(hint) = other_language_hint(path, built.info.language, error) {
                error.push_str(&format!("\n{hint}"));
            }
        }
    }
    let submission = match built.launch {
        Some(launch) => Submission::External(launch),
        None => Submission::NotCompiled {
            label: path.display().to_string(),
        },
    };
    Ok((submission, Some(built.info), rerun))
}

/// A hint for a file that did not compile as the language its extension
/// names, when the compiler's `message` names as unknown what only another
/// language has (Java's `boolean` in a file saved as `.cs`): which
/// `--lang` judges it as that one ([`lang::another_language`]).
fn other_language_hint(
    path: &std::path::Path,
    language: lang::Language,
    message: &str,
) -> Option<String> {
    let source =
        crate::files::read_text(path, "source file", crate::files::MAX_WHOLE_BYTES).ok()?;
    let name = path.file_name()?.to_string_lossy();
    let other = lang::another_language(language, &name, &source, message)?;
    let id = other.spec().id;
    Some(format!(
        "hint: {} looks like {other}, not {language}; if it is, judge it with --lang {id}, or \
         give it the extension .{}",
        path.display(),
        other.spec().extensions[0]
    ))
}

/// The problem every case under `paths` is judged as by its `judge.toml`,
/// if they all are one.
pub(crate) fn problem_of_every_case(paths: &[PathBuf]) -> Option<Problem> {
    Suite::read(paths).ok()?.problem()
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
pub(crate) fn sandbox() -> anyhow::Result<Option<Protections>> {
    let Some(protections) = spawner::protections() else {
        return Ok(None);
    };
    let protections = protections.context("failed to start the sandbox's spawner")?;
    let missing = protections.missing();
    if sandbox::mode() == sandbox::Mode::Require && !missing.is_empty() {
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
