//! What every command really prints: one snapshot each of the binary's
//! stdout and stderr on a small input, with what changes from run to run
//! or machine to machine (times, percentages of a limit, memory, temporary
//! and checkout paths, the sandbox's protections) replaced by a marker.
//!
//! A message changed on purpose is accepted with `cargo insta accept`
//! after a run (or `INSTA_UPDATE=always cargo test --test cli snapshots`).

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use super::{build_cache, have, manifest_dir, write, EXAMPLE_IN, EXAMPLE_OUT, PUZZLE};

/// No command here takes more than a few seconds; one that runs this long
/// is a hang, killed so that the suite goes on.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// What one run of the binary printed.
pub(crate) struct Printed {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary in `dir` with `args`, `stdin` and extra environment
/// `env`, as a user would; killed at [`HANG_GUARD`].
pub(crate) fn run_with(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Printed {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        // clap wraps help to $COLUMNS when it is set.
        .env_remove("COLUMNS")
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let stdin = stdin.to_owned();
    let writer = thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let (done, finished) = mpsc::channel::<()>();
    let guard = thread::spawn(move || {
        let hung = finished.recv_timeout(HANG_GUARD).is_err();
        if hung {
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
        }
        hung
    });
    let output = child.wait_with_output().expect("the binary runs");
    let _ = done.send(());
    writer.join().unwrap();
    assert!(
        !guard.join().unwrap(),
        "sudoku-judge {args:?} hung for {HANG_GUARD:?}"
    );
    Printed {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Snapshots what `sudoku-judge args...` prints in `dir`, under `name`.
fn snapshot(name: &str, dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &str)]) {
    let printed = run_with(dir, args, stdin, env);
    let text = format!(
        "$ sudoku-judge {}\nexit code: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        printed.code,
        printed.stdout,
        printed.stderr
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_suffix("");
    settings.set_omit_expression(true);
    for (path, marker) in [(dir, "[DIR]"), (manifest_dir().as_path(), "[REPO]")] {
        // The path as written, and as the kernel resolves it (/tmp may be
        // a link).
        let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        for path in [real.as_path(), path] {
            settings.add_filter(&regex::escape(&path.to_string_lossy()), marker);
        }
    }
    for (pattern, marker) in FILTERS {
        settings.add_filter(pattern, *marker);
    }
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// What differs from run to run, or from machine to machine, and the
/// marker it becomes. A number's padding goes with it (the first pattern of
/// each pair), and so do column widths, which follow the widest number.
const FILTERS: &[(&str, &str)] = &[
    // The protections the kernel grants: another as root than as a user,
    // and on each machine.
    (r"(?m)^sandbox: .*$", "sandbox: [SANDBOX]"),
    (r"(?m)^cgroup: .*$", "cgroup: [CGROUP]"),
    (r"(?m)^layers: .*$", "layers: [LAYERS]"),
    // Ranges of times, then times: `0.006–0.047 ms`, `1.2 s`, `131 ms`
    // (never `two 9s`).
    (r" +\d+(\.\d+)?–\d+(\.\d+)? (ms|µs|s)\b", " [TIMES]"),
    (r"\b\d+(\.\d+)?–\d+(\.\d+)? (ms|µs|s)\b", "[TIMES]"),
    (r" +\d+(\.\d+)? (ns|ms|µs|s)\b", " [TIME]"),
    (r"\b\d+(\.\d+)? (ns|ms|µs|s)\b", "[TIME]"),
    (r" +\d+(\.\d+)? (KB|MB|GB)\b", " [MEMORY]"),
    (r"\b\d+(\.\d+)? (KB|MB|GB)\b", "[MEMORY]"),
    (r" +\d+(\.\d+)?%", " [PERCENT]"),
    (r"\b\d+(\.\d+)?%", "[PERCENT]"),
    // Which puzzle was slowest is a matter of microseconds.
    (
        r"slowest: puzzle \d+, input line \d+",
        "slowest: puzzle [N], input line [N]",
    ),
    // bench's columns of µs per puzzle.
    (r"  +\d+\.\d\d\b", " [µs]"),
    // Columns are as wide as their widest number, which varies: runs of
    // spaces are made two.
    (r" {3,}", "  "),
    // The version, which every release changes.
    (
        concat!(r"\b", env!("CARGO_PKG_VERSION"), r"\b"),
        "[VERSION]",
    ),
];

#[test]
fn snapshot_of_help() {
    snapshot("help", &manifest_dir(), &["--help"], "", &[]);
}

#[test]
fn snapshot_of_version() {
    snapshot("version", &manifest_dir(), &["--version"], "", &[]);
}

#[test]
fn snapshot_of_test() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "suite/a.in", EXAMPLE_IN);
    write(dir.path(), "suite/a.out", EXAMPLE_OUT);
    snapshot(
        "test",
        dir.path(),
        &["test", "suite", "--solver", "mrv"],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_test_with_a_wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "suite/a.in", EXAMPLE_IN);
    write(dir.path(), "suite/a.out", EXAMPLE_OUT);
    snapshot(
        "test_wrong_answer",
        dir.path(),
        &["test", "suite", "--solver", "faulty-wrong-digit"],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_solve() {
    snapshot(
        "solve",
        &manifest_dir(),
        &["solve"],
        &format!("{PUZZLE}\nend\n"),
        &[],
    );
}

#[test]
fn snapshot_of_gen() {
    let dir = tempfile::tempdir().unwrap();
    snapshot(
        "gen",
        dir.path(),
        &["gen", "--out", "made", "--count", "2", "--seed", "1"],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_rate() {
    snapshot(
        "rate",
        &manifest_dir(),
        &["rate"],
        &format!("{PUZZLE}\nend\n"),
        &[],
    );
}

#[test]
fn snapshot_of_check() {
    snapshot(
        "check",
        &manifest_dir(),
        &["check", "cases/acwing166/sample.in"],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_stress() {
    let dir = tempfile::tempdir().unwrap();
    snapshot(
        "stress",
        dir.path(),
        &[
            "stress",
            "--solver",
            "mrv",
            "--rounds",
            "2",
            "--puzzles",
            "2",
            "--seed",
            "1",
        ],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_hack() {
    let dir = tempfile::tempdir().unwrap();
    // A solver that is wrong on every input is hacked in the first round,
    // whatever the machine's speed.
    snapshot(
        "hack",
        dir.path(),
        &[
            "hack",
            "--solver",
            "faulty-wrong-digit",
            "--budget",
            "3",
            "--seed",
            "1",
            "--puzzles",
            "2",
            "--save",
            "hacked",
        ],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_bench() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "puzzles.txt", &format!("{PUZZLE}\n"));
    snapshot(
        "bench",
        dir.path(),
        &[
            "bench",
            "--solver",
            "mrv",
            "--rounds",
            "1",
            "--warmup",
            "1",
            "puzzles.txt",
        ],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_driver() {
    if !have(&["g++"], "snapshot_of_driver") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = manifest_dir().join("tests/fixtures/submissions/ac_leetcode.cpp");
    std::fs::copy(source, dir.path().join("sol.cpp")).unwrap();
    snapshot(
        "driver",
        dir.path(),
        &["driver", "sol.cpp", "--out", "debug"],
        "",
        &[],
    );
}

#[test]
fn snapshot_of_calibrate() {
    if !have(&["python3"], "snapshot_of_calibrate") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let reference = manifest_dir().join("tests/fixtures/submissions/ac_program.py");
    write(
        dir.path(),
        "suite/ref.py",
        &std::fs::read_to_string(reference).unwrap(),
    );
    write(dir.path(), "suite/a.in", &format!("{PUZZLE}\nend\n"));
    write(
        dir.path(),
        "suite/judge.toml",
        "time_limit = \"4s\"\n\n[[reference]]\nfile = \"ref.py\"\nverdict = \"AC\"\n",
    );
    let data = dir.path().join("data");
    super::allow(&dir.path().join("suite"), &data);
    snapshot(
        "calibrate",
        dir.path(),
        &["calibrate", "suite"],
        "",
        &[("XDG_DATA_HOME", data.to_str().unwrap())],
    );
}

#[test]
fn snapshot_of_solvers() {
    snapshot("solvers", &manifest_dir(), &["solvers", "--all"], "", &[]);
}

#[test]
fn snapshot_of_doctor() {
    // Without a toolchain on PATH, every language says what to install:
    // the same on every machine, and at once.
    let dir = tempfile::tempdir().unwrap();
    snapshot(
        "doctor",
        dir.path(),
        &["doctor"],
        "",
        &[("PATH", "/nonexistent")],
    );
}
