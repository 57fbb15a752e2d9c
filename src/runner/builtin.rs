//! Built-in solvers judged as submissions, in a worker process that speaks
//! the LeetCode drivers' protocol.
//!
//! A thread stuck in an endless loop cannot be stopped from outside, and
//! left running it would steal CPU from every case after it. So a judged
//! solver runs in a worker, this same binary started as `sudoku-judge
//! worker`, which the process layer can kill. The worker is a driver like
//! the ones in `drivers/`, with the solver compiled in: it says `ready` on
//! the answer channel (see [`crate::runner::lang::launch::ANSWERS_VAR`]),
//! reads one 81-character puzzle a line on stdin until `end`, calls the
//! solver on each board and writes `<row>/<row>/.../<row>` on the channel
//! before it reads the next. So it runs through the same path as a
//! LeetCode-style file (`function::run_function`): one process kept from
//! case to case, each board timed from outside by the kernel's CPU clock of
//! the process, and each answer out as soon as it is made, so a hung solver
//! killed at the limit has told exactly how many puzzles it answered.
//!
//! A panic is the one thing the drivers' protocol has no word for: the
//! worker writes its message and place on stderr as its last line and
//! exits with [`PANIC_EXIT`], as a panicking Rust program does, and
//! [`panic_of`] reads it back so the verdict can quote it.

// rust-clippy#17566: on targets whose thread locals are emulated (Windows
// with mingw) the lint fires on initialisers that are already `const`.
#![cfg_attr(windows, allow(clippy::missing_const_for_thread_local))]

use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use anyhow::Context as _;

use super::lang::{
    launch::{self, Launch, Runtime},
    Interface,
};
use super::run::{End, Run};
use super::sandbox::Containment;
use crate::solver::Solver;

/// The exit code of a worker whose solver panicked, as Rust uses for panics.
pub(crate) const PANIC_EXIT: i32 = 101;

/// How the worker's panic line starts.
const PANICKED: &str = "panicked at ";

/// How to start a worker for `solver` from `exe` (this program's own
/// binary): a launch like a LeetCode-style file's, with nothing to see
/// but the binary; contained as `containment` says.
pub(crate) fn launch(exe: &Path, solver: &Solver, containment: &Containment) -> Launch {
    let argv = ["sudoku-judge", "worker", "--solver", solver.name];
    Launch {
        label: format!("solver {}", solver.name),
        interface: Interface::Function,
        runtime: Runtime::Exec {
            program: exe.to_path_buf(),
            argv: argv.into_iter().map(OsString::from).collect(),
        },
        language: None,
        source: None,
        read_only: Vec::new(),
        containment: containment.clone(),
    }
}

/// A worker's run whose crash was its solver's panic, with the panic's
/// message and place as the worker said them (and no longer on stderr,
/// which the verdict would show again); any other run as it is.
pub(crate) fn panic_of(mut run: Run) -> Run {
    let exited = format!("exited with code {PANIC_EXIT}");
    if matches!(&run.end, End::Crashed(how) if how.starts_with(&exited)) {
        if let Some(at) = run.stderr.rfind(PANICKED) {
            run.end = End::Panicked(run.stderr[at..].trim_end().to_string());
            run.stderr.truncate(at);
        }
    }
    run
}

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Keeps each panic's message and place for the worker to say, instead of
/// the default hook's lines.
fn remember_panics() {
    panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        let text = match info.location() {
            Some(at) => format!("{PANICKED}{}:{}: {message}", at.file(), at.line()),
            None => format!("panicked: {message}"),
        };
        LAST_PANIC.with(|last| *last.borrow_mut() = Some(text));
    }));
}

/// The worker's side, as `sudoku-judge worker`: answers every puzzle of
/// `input` on the answer channel the judge named in the environment.
/// Returns the process's exit code.
pub(crate) fn work(solver: &Solver, input: impl BufRead) -> anyhow::Result<i32> {
    let path = std::env::var_os(launch::ANSWERS_VAR).with_context(|| {
        format!(
            "{} is not set: the worker is started by the judge",
            launch::ANSWERS_VAR
        )
    })?;
    let answers = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open the answer channel {}", path.to_string_lossy()))?;
    let code = serve(solver, input, answers, io::stderr().lock())?;
    Ok(code)
}

/// Answers every puzzle line of `input` on `answers`, in the drivers'
/// protocol; a panic is said on `stderr`. Returns the exit code.
pub(crate) fn serve(
    solver: &Solver,
    input: impl BufRead,
    mut answers: impl Write,
    mut stderr: impl Write,
) -> io::Result<i32> {
    remember_panics();
    answers.write_all(b"ready\n")?;
    answers.flush()?;
    // One board and one answer for every puzzle: fresh ones each time would
    // cost more in allocation than a fast solver spends solving.
    let mut board: Vec<Vec<char>> = Vec::new();
    let mut answer = String::with_capacity(128);
    for line in input.lines() {
        let line = line?;
        let line = line.trim_end();
        if line == "end" {
            break;
        }
        if line.chars().count() != 81 {
            continue;
        }
        board.resize_with(9, Vec::new);
        for (row, cells) in board.iter_mut().zip(line.as_bytes().chunks(9)) {
            row.clear();
            row.extend(cells.iter().map(|&b| char::from(b)));
        }
        if panic::catch_unwind(AssertUnwindSafe(|| (solver.solve)(&mut board))).is_err() {
            let said = LAST_PANIC
                .with(|last| last.borrow_mut().take())
                .unwrap_or_else(|| "panicked".to_string());
            writeln!(stderr, "{said}")?;
            stderr.flush()?;
            return Ok(PANIC_EXIT);
        }
        answer.clear();
        for (r, row) in board.iter().enumerate() {
            if r > 0 {
                answer.push('/');
            }
            // A character that would break the line apart is shown as `?`,
            // as every driver shows a cell that is not one character.
            answer.extend(row.iter().map(|&c| match c {
                '/' | '\n' | '\r' => '?',
                c => c,
            }));
        }
        answer.push('\n');
        answers.write_all(answer.as_bytes())?;
        answers.flush()?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver;

    const PUZZLE: &str = crate::board::EXAMPLE;
    const ANSWER: &str = crate::board::EXAMPLE_ANSWER;

    /// Serves `input` with solver `name`: the exit code, each line on the
    /// answer channel and what went to stderr.
    fn serve_lines(name: &str, input: &str) -> (i32, Vec<String>, String) {
        let (mut answers, mut stderr) = (Vec::new(), Vec::new());
        let solver = solver::find(name).unwrap();
        let code = serve(solver, input.as_bytes(), &mut answers, &mut stderr).unwrap();
        let _ = panic::take_hook();
        let lines = String::from_utf8(answers)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        (code, lines, String::from_utf8(stderr).unwrap())
    }

    #[test]
    fn the_worker_speaks_the_drivers_protocol() {
        let (code, lines, _) =
            serve_lines("mrv", &format!("{PUZZLE}\n\n{PUZZLE}\nend\n{PUZZLE}\n"));
        assert_eq!(code, 0);
        let rows: Vec<&str> = ANSWER
            .as_bytes()
            .chunks(9)
            .map(|r| std::str::from_utf8(r).unwrap())
            .collect();
        let answer = rows.join("/");
        // Ready first, then an answer a puzzle, none after `end`.
        assert_eq!(lines, ["ready", answer.as_str(), answer.as_str()]);
    }

    #[test]
    fn the_worker_says_a_panic_with_its_place_and_stops() {
        let (code, lines, stderr) = serve_lines("faulty-panic", &format!("{PUZZLE}\n{PUZZLE}\n"));
        assert_eq!(code, PANIC_EXIT);
        assert_eq!(lines, ["ready"]);
        let said = stderr.trim_end();
        assert!(
            said.starts_with("panicked at src/solver/faulty.rs:"),
            "{said}"
        );
        assert!(
            said.contains("index out of bounds: the len is 9 but the index is 9"),
            "{said}"
        );
        // The judge reads it back from a run that exited so.
        let mut run = Run::ended(End::Crashed(format!("exited with code {PANIC_EXIT}")), 0, 1);
        run.stderr = stderr.clone();
        let run = panic_of(run);
        assert_eq!(run.end, End::Panicked(said.to_string()));
        assert_eq!(run.stderr, "");
        let other = Run::ended(End::Crashed("exited with code 1".into()), 0, 1);
        assert_eq!(
            panic_of(other).end,
            End::Crashed("exited with code 1".into())
        );
    }
}
