//! Submissions that run as processes of their own: a program speaking the
//! AcWing 166 format on stdin and stdout, or a LeetCode-style file behind
//! its language's driver (see `drivers/`).
//!
//! Programs are charged their CPU time, as AcWing and POJ charge it, and
//! held to twice the limit in wall time so a program that sleeps cannot
//! hang the run. LeetCode-style files are charged the time spent inside
//! `solveSudoku`, which the driver measures around each call, as for the
//! built-in solvers; starting the interpreter or the JVM is not charged.
//! The driver writes answers to a file of their own, so what the submission
//! prints on stdout (debug output) never corrupts them and is reported apart.

use std::ffi::OsString;
use std::io::{BufRead as _, BufReader, Read};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use anyhow::Context as _;

use super::lang::{self, Language};
use super::process::{self, Exit};
use super::{grace, End, Limits, OwnOutput, PuzzleLines, PuzzleTimes, Run};
use crate::board::format;
use crate::board::Format;
use crate::case::CaseData;
use crate::check::Checker;

/// How a submission talks to the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// A program: puzzles on stdin in AcWing 166's format, answers on stdout.
    Program,
    /// LeetCode's `solveSudoku(board)`, called by a driver once per board.
    Function,
}

/// How to start the submission's process.
#[derive(Clone, Debug)]
pub enum Runtime {
    /// A compiled binary.
    Native(PathBuf),
    Python {
        python: PathBuf,
        args: Vec<OsString>,
    },
    /// A class on a classpath, started with a heap limit.
    Java {
        java: PathBuf,
        classpath: PathBuf,
        class: String,
    },
    /// A command line the user gave (`--cmd`), run without a shell.
    Command(Vec<OsString>),
}

/// A submission ready to run on cases.
#[derive(Clone, Debug)]
pub struct Launch {
    pub label: String,
    pub interface: Interface,
    pub runtime: Runtime,
    /// Known for `--submission` files; `None` for `--cmd`.
    pub language: Option<Language>,
}

impl Launch {
    /// A program given as a command line, e.g. `./a.out` or `python3 sol.py`.
    pub fn command(command_line: &str) -> anyhow::Result<Launch> {
        let words = shell_words::split(command_line)
            .with_context(|| format!("cannot split the command `{command_line}` into words"))?;
        let Some(program) = words.first() else {
            anyhow::bail!("--cmd is empty; give the command that runs your program");
        };
        // Fail now, once, rather than as a harness error on every case.
        if !program.contains('/') && which::which(program).is_err() {
            anyhow::bail!(
                "`{program}` is not on PATH; give the path to your program, e.g. ./{program}"
            );
        }
        Ok(Launch {
            label: format!("`{command_line}`"),
            interface: Interface::Program,
            runtime: Runtime::Command(words.into_iter().map(OsString::from).collect()),
            language: None,
        })
    }

    fn command_for(&self, limits: &Limits) -> Command {
        match &self.runtime {
            Runtime::Native(binary) => Command::new(binary),
            Runtime::Python { python, args } => {
                let mut command = Command::new(python);
                command.args(args);
                command
            }
            Runtime::Java {
                java,
                classpath,
                class,
            } => {
                let mut command = Command::new(java);
                command
                    .arg(format!("-Xmx{}m", (limits.memory_kb / 1024).max(16)))
                    .args(["-Xss64m", "-XX:+UseSerialGC", "-cp"])
                    .arg(classpath)
                    .arg(class);
                command
            }
            Runtime::Command(words) => {
                let mut command = Command::new(&words[0]);
                command.args(&words[1..]);
                command
            }
        }
    }
}

/// What dying of a failed allocation looks like on stderr, language by language.
const OUT_OF_MEMORY: [&str; 5] = [
    "std::bad_alloc",
    "MemoryError",
    "java.lang.OutOfMemoryError",
    "memory allocation of",
    "Cannot allocate memory",
];

fn out_of_memory(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .find(|line| OUT_OF_MEMORY.iter().any(|m| line.contains(m)))
        .map(|line| line.trim().to_string())
}

/// What a crashed submission said about why, in one line: a Rust panic, a
/// Java or C++ exception, a Python traceback's last line.
fn crash_cause(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr.lines().map(str::trim).collect();
    if let Some(i) = lines.iter().position(|l| l.contains("panicked at ")) {
        let place = lines[i].split("panicked at ").nth(1).unwrap_or_default();
        let message = lines.get(i + 1).copied().unwrap_or_default();
        return Some(format!("panicked at {place} {message}"));
    }
    if let Some(line) = lines.iter().find(|l| l.starts_with("Exception in thread")) {
        let exception = line.split_once("\" ").map_or(*line, |(_, rest)| rest);
        return Some(format!("threw {exception}"));
    }
    if let Some(i) = lines
        .iter()
        .position(|l| l.starts_with("terminate called after throwing"))
    {
        let what = lines.get(i + 1).and_then(|l| l.strip_prefix("what():"));
        return Some(match what {
            Some(what) => format!("{}: {}", lines[i], what.trim()),
            None => lines[i].to_string(),
        });
    }
    if lines
        .iter()
        .any(|l| l.starts_with("Traceback (most recent call last)"))
    {
        return lines
            .iter()
            .rev()
            .find(|l| !l.is_empty())
            .map(|l| format!("raised {l}"));
    }
    None
}

/// Runs `launch` on one case under `limits`, streaming the case in and its
/// answers to `checker`.
pub fn run(
    launch: &Launch,
    case: &CaseData,
    limits: &Limits,
    checker: &mut Checker<'_>,
) -> anyhow::Result<Run> {
    let function = launch.interface == Interface::Function;
    // A program gets an AcWing case byte for byte, as on the judge; any
    // other case, and every driver, gets its puzzles as AcWing lines.
    let mut raw;
    let mut lines;
    let stdin: &mut dyn Read = if !function && case.format == Format::AcWing {
        raw = case.input.open()?;
        &mut raw
    } else {
        lines = PuzzleLines::new(case.puzzles()?, true);
        &mut lines
    };
    let answers_dir = function
        .then(|| tempfile::Builder::new().prefix("sudoku-judge-").tempdir())
        .transpose()
        .context("failed to create a directory for the driver's answers")?;
    let mut command = launch.command_for(limits);
    // As on a judge: no backtraces the user's environment asked for.
    command
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    if let Some(dir) = &answers_dir {
        command.arg(dir.path().join("answers"));
    }
    let startup = lang::startup_allowance(launch.language);
    let kill_after = if function {
        limits.time + grace(limits.time) + startup
    } else {
        limits.wall() + grace(limits.time)
    };
    // The JVM reserves far more address space than it uses: only its heap
    // is bounded (-Xmx), and resident memory is watched like everyone's.
    let address_space_limit = match launch.runtime {
        Runtime::Java { .. } | Runtime::Command(_) => None,
        _ => Some(limits.memory_kb * 1024 * 2 + (512 << 20)),
    };
    // A program's stdout is its answers; a driver's is the solution's own
    // printing, kept apart.
    let mut own = OwnOutput::default();
    let mut sink = |chunk: &[u8]| {
        if function {
            own.feed(chunk);
        } else {
            checker.feed(chunk);
        }
    };
    let finished = process::run(
        process::Spec {
            command,
            kill_after,
            kill_after_cpu: (!function).then(|| limits.time + grace(limits.time)),
            kill_above_memory_kb: Some(limits.memory_kb),
            cpu_limit: Some(kill_after + Duration::from_secs(1)),
            address_space_limit,
            stdout_limit: Limits::output_bytes(case.puzzles),
            stderr_tail: 8 << 10,
        },
        process::Io {
            stdin,
            stdout: &mut sink,
        },
    )
    .with_context(|| format!("failed to run {}", launch.label))?;

    let stderr = String::from_utf8_lossy(&finished.stderr_tail).into_owned();
    let end = match (finished.killed, finished.exit) {
        (Some(kill), _) => End::Killed(kill),
        (None, Exit::Code(0)) => End::Normal,
        (None, exit) => match out_of_memory(&stderr) {
            Some(line) => End::OutOfMemory(line),
            None if stderr.contains("has overflowed its stack") => End::Crashed(format!(
                "stack overflow ({})",
                match exit {
                    Exit::Signal(s) => process::describe_signal(s),
                    Exit::Code(c) => format!("exit code {c}"),
                }
            )),
            None => {
                let how = match exit {
                    Exit::Code(code) => format!("exited with code {code}"),
                    Exit::Signal(signal) => {
                        format!("killed by {}", process::describe_signal(signal))
                    }
                };
                End::Crashed(match crash_cause(&stderr) {
                    Some(cause) => format!("{how}: {cause}"),
                    None => how,
                })
            }
        },
    };
    let killed = matches!(end, End::Killed(_));

    let Some(dir) = answers_dir else {
        return Ok(Run {
            answered: checker.answered(),
            time: finished.cpu,
            wall: finished.wall,
            cpu: finished.cpu,
            memory_kb: finished.max_rss_kb,
            puzzle_times: None,
            end,
            stdout: String::new(),
            stdout_lines: 0,
            stderr,
        });
    };
    // The driver's answers, one a line: `NANOSECONDS ROW/ROW/.../ROW`. A
    // driver killed mid-line leaves a partial answer: not an answer.
    let mut times = PuzzleTimes::default();
    let mut answered = 0;
    if let Ok(file) = std::fs::File::open(dir.path().join("answers")) {
        for line in BufReader::new(file).split(b'\n') {
            let line = line.context("failed to read the driver's answers")?;
            if answered == case.puzzles {
                break;
            }
            let line = String::from_utf8_lossy(&line);
            let Some((ns, rows)) = line.split_once(' ') else {
                continue;
            };
            let Ok(ns) = ns.parse::<u64>() else { continue };
            times.record(ns);
            let rows: Vec<Vec<char>> = rows.split('/').map(|r| r.chars().collect()).collect();
            checker.feed(format::render_nth(case.format, answered, &rows).as_bytes());
            answered += 1;
        }
    }
    let (stdout, stdout_lines) = own.finish();
    Ok(Run {
        answered,
        // A killed run is charged all the time it had.
        time: if killed { finished.wall } else { times.total() },
        wall: finished.wall,
        cpu: finished.cpu,
        memory_kb: finished.max_rss_kb,
        puzzle_times: times.spread(),
        end,
        stdout,
        stdout_lines,
        stderr,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_failures_are_recognised_in_every_language() {
        for stderr in [
            "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc",
            "Traceback (most recent call last):\nMemoryError",
            "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
            "memory allocation of 1073741824 bytes failed",
        ] {
            assert!(out_of_memory(stderr).is_some(), "{stderr}");
        }
        assert_eq!(out_of_memory("Segmentation fault"), None);
    }

    #[test]
    fn a_crash_is_explained_by_what_the_runtime_said() {
        for (stderr, cause) in [
            (
                "\nthread 'main' (12) panicked at sol.rs:6:14:\nindex out of bounds: the len is 9 but the index is 9\nnote: run with `RUST_BACKTRACE=1`",
                "panicked at sol.rs:6:14: index out of bounds: the len is 9 but the index is 9",
            ),
            (
                "Exception in thread \"main\" java.lang.IllegalStateException: oops\n\tat Solution.solveSudoku(Solution.java:5)",
                "threw java.lang.IllegalStateException: oops",
            ),
            (
                "terminate called after throwing an instance of 'std::runtime_error'\n  what():  oops",
                "terminate called after throwing an instance of 'std::runtime_error': oops",
            ),
            (
                "Traceback (most recent call last):\n  File \"sol.py\", line 3, in <module>\nKeyError: 5\n",
                "raised KeyError: 5",
            ),
        ] {
            assert_eq!(crash_cause(stderr).as_deref(), Some(cause), "{stderr}");
        }
        assert_eq!(crash_cause("just some output"), None);
    }

    #[test]
    fn a_command_line_is_split_like_a_shell_does() {
        let launch = Launch::command("sh -c 'echo \"hi there\"'").unwrap();
        let Runtime::Command(words) = &launch.runtime else {
            panic!("{launch:?}")
        };
        assert_eq!(words, &["sh", "-c", "echo \"hi there\""]);
        let missing = Launch::command("no-such-program-here x").unwrap_err();
        assert!(missing.to_string().contains("not on PATH"), "{missing}");
        assert!(Launch::command("  ").is_err());
    }
}
