//! What the tests of the binary share: running it, writing suites, reading
//! its reports, and saying why a test could not check anything.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use sudoku_judge::case;

pub(crate) const EXAMPLE_IN: &str = r#"[["5","3",".",".","7",".",".",".","."],["6",".",".","1","9","5",".",".","."],[".","9","8",".",".",".",".","6","."],["8",".",".",".","6",".",".",".","3"],["4",".",".","8",".","3",".",".","1"],["7",".",".",".","2",".",".",".","6"],[".","6",".",".",".",".","2","8","."],[".",".",".","4","1","9",".",".","5"],[".",".",".",".","8",".",".","7","9"]]"#;

pub(crate) const EXAMPLE_OUT: &str = r#"[["5","3","4","6","7","8","9","1","2"],["6","7","2","1","9","5","3","4","8"],["1","9","8","3","4","2","5","6","7"],["8","5","9","7","6","1","4","2","3"],["4","2","6","8","5","3","7","9","1"],["7","1","3","9","2","4","8","5","6"],["9","6","1","5","3","7","2","8","4"],["2","8","7","4","1","9","6","3","5"],["3","4","5","2","8","6","1","7","9"]]"#;

/// LeetCode's example as an AcWing line, and its one solution.
pub(crate) const PUZZLE: &str = sudoku_judge::board::EXAMPLE;

pub(crate) const ANSWER: &str = sudoku_judge::board::EXAMPLE_ANSWER;

/// No run in these tests takes long; one that does is a hang, and fails
/// the test instead of stalling the suite.
pub(crate) const HANG_GUARD: Duration = Duration::from_secs(180);

pub(crate) fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Builds the C fixture `name` of `tests/fixtures/FIXTURES` with the
/// system's `cc`, outside the judge, into `dir`.
pub(crate) fn build_c(fixtures: &str, name: &str, dir: &Path) -> PathBuf {
    let source = manifest_dir()
        .join("tests/fixtures")
        .join(fixtures)
        .join(name);
    let binary = dir.join(name.trim_end_matches(".c"));
    let output = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .expect("cc runs");
    assert!(
        output.status.success(),
        "{name} did not compile:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    binary
}

/// How many cases the shipped corpus holds under `cases/{dir}`.
pub(crate) fn shipped(dir: &str) -> usize {
    case::discover(&[manifest_dir().join("cases").join(dir)])
        .unwrap()
        .len()
}

pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

/// Runs the binary in `dir` with `stdin`, killing it at [`HANG_GUARD`].
pub(crate) fn run_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    run_in_env(dir, args, stdin, &[])
}

/// [`run_in`], with the variables `env` set.
pub(crate) fn run_in_env(dir: &Path, args: &[&str], stdin: &str, env: &[(&str, &Path)]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_owned();
    let writer = thread::spawn(move || {
        use std::io::Write as _;
        let _ = input.write_all(stdin.as_bytes());
    });
    let pid = child.id();
    let started = Instant::now();
    let guard = thread::spawn(move || {
        while started.elapsed() < HANG_GUARD {
            thread::sleep(Duration::from_millis(100));
            if !Path::new(&format!("/proc/{pid}")).exists() {
                return false;
            }
        }
        // SAFETY: plain kill(2) of our own child, which has not been reaped
        // yet because `wait_with_output` below is still waiting for it.
        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        true
    });
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("the binary runs");
    writer.join().unwrap();
    assert!(
        !guard.join().unwrap(),
        "sudoku-judge {args:?} hung for {HANG_GUARD:?}"
    );
    Run {
        code: status.code().expect("exited, not killed"),
        stdout: String::from_utf8(stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(stderr).expect("stderr is UTF-8"),
    }
}

pub(crate) fn run(args: &[&str]) -> Run {
    run_in(&manifest_dir(), args, "")
}

/// Allows what the judge.toml files under `suite` name to run, as a user
/// does with `sudoku-judge trust`, keeping the consent in `data` (the
/// test's own `XDG_DATA_HOME`, which the runs that need it are given).
pub(crate) fn allow(suite: &Path, data: &Path) -> Run {
    let run = run_in_env(
        &manifest_dir(),
        &["trust", suite.to_str().unwrap()],
        "",
        &[("XDG_DATA_HOME", data)],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run
}

pub(crate) fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, text).unwrap();
    path
}

/// A suite directory with the LeetCode example as flat pair `a.in`/`a.out`.
pub(crate) fn example_suite() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.in", EXAMPLE_IN);
    write(dir.path(), "a.out", EXAMPLE_OUT);
    dir
}

pub(crate) fn cases_of(report: &Value) -> &Vec<Value> {
    report["cases"].as_array().expect("a cases array")
}

pub(crate) fn verdicts(report: &Value) -> Vec<(String, String)> {
    cases_of(report)
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["verdict"].as_str().unwrap_or("ERROR").to_owned(),
            )
        })
        .collect()
}

pub(crate) fn sound_solvers() -> Vec<String> {
    let listing = run(&["solvers"]);
    assert_eq!(listing.code, 0, "{}", listing.stderr);
    listing
        .stdout
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect()
}

/// Runs the binary on a terminal `columns` wide (a pty made by `script`)
/// and returns all it wrote there, escape sequences and all.
pub(crate) fn on_terminal(columns: u16, args: &[&str]) -> Option<String> {
    on_terminal_writing(columns, args, None)
}

/// [`on_terminal`], with stdout sent to the file `stdout` when given
/// (`> FILE`) while stderr stays on the terminal.
pub(crate) fn on_terminal_writing(
    columns: u16,
    args: &[&str],
    stdout: Option<&Path>,
) -> Option<String> {
    on_terminal_with(columns, args, stdout, &[])
}

/// [`on_terminal_writing`], with the variables `env` set.
pub(crate) fn on_terminal_with(
    columns: u16,
    args: &[&str],
    stdout: Option<&Path>,
    env: &[(&str, &Path)],
) -> Option<String> {
    if !have(&["script", "stty"], "progress on a terminal") {
        return None;
    }
    let command = std::iter::once(env!("CARGO_BIN_EXE_sudoku-judge").to_string())
        .chain(args.iter().map(|a| a.to_string()))
        .map(|word| shell_words::quote(&word).into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let command = match stdout {
        Some(file) => format!(
            "{command} > {}",
            shell_words::quote(&file.to_string_lossy())
        ),
        None => command,
    };
    let output = Command::new("script")
        .args([
            "-qec",
            &format!("stty rows 40 cols {columns}; {command}"),
            "/dev/null",
        ])
        .current_dir(manifest_dir())
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Every drawing of a progress line that starts with `start`: what follows
/// a clear-line, up to the next control character.
pub(crate) fn drawings<'a>(screen: &'a str, start: &str) -> Vec<&'a str> {
    screen
        .split("\x1b[2K")
        .map(|rest| rest.split(['\r', '\n', '\x1b']).next().unwrap())
        .filter(|line| line.starts_with(start))
        .collect()
}

pub(crate) fn processes_running(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(cmdline) = fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(needle) {
                found.push(format!(
                    "{}: {cmdline}",
                    entry.file_name().to_string_lossy()
                ));
            }
        }
    }
    found
}

/// The processes a test's own judge started, told from other tests' by
/// descent: while the judge lives, each of its processes leads back to it
/// through its parents, whoever owns it and whatever namespace it is in
/// (`/proc/PID/stat` is readable for every process, where a sandboxed
/// process's working directory is not for an ordinary user). Those seen
/// are remembered, so that after the judge is gone (and its orphans have
/// other parents) the test can still ask whether any is left.
pub(crate) struct Family {
    judge: i32,
    needle: String,
    seen: std::collections::BTreeSet<i32>,
}

impl Family {
    pub(crate) fn of(judge: &std::process::Child, needle: &str) -> Self {
        Family {
            judge: judge.id() as i32,
            needle: needle.to_owned(),
            seen: Default::default(),
        }
    }

    /// Whether a process of the judge's with the needle in its command
    /// line runs now; each found is remembered.
    pub(crate) fn look(&mut self) -> bool {
        let parents: std::collections::BTreeMap<i32, i32> = fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|entry| {
                let pid = entry.file_name().to_str()?.parse().ok()?;
                let stat = fs::read_to_string(entry.path().join("stat")).ok()?;
                let ppid = stat.rsplit_once(") ")?.1.split(' ').nth(1)?.parse().ok()?;
                Some((pid, ppid))
            })
            .collect();
        let mut found = false;
        for &pid in parents.keys() {
            let mut up = pid;
            let mut steps = 0;
            while up > 1 && up != self.judge && steps < 64 {
                up = parents.get(&up).copied().unwrap_or(0);
                steps += 1;
            }
            if up == self.judge && pid != self.judge && self.matches(pid) {
                self.seen.insert(pid);
                found = true;
            }
        }
        found
    }

    /// Of the processes seen, those still running.
    pub(crate) fn left(&self) -> Vec<String> {
        self.seen
            .iter()
            .filter(|&&pid| self.matches(pid))
            .map(|pid| format!("{pid}: {}", self.needle))
            .collect()
    }

    fn matches(&self, pid: i32) -> bool {
        let alive = fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z'))
        });
        alive
            && fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|cmdline| {
                String::from_utf8_lossy(&cmdline)
                    .replace('\0', " ")
                    .contains(&self.needle)
            })
    }
}

/// The processes whose command line contains `needle` and that work in
/// `dir`: a test's own, told apart from other tests' by the directory the
/// test judged in (a temporary directory of its own). A run starts in the
/// judge's working directory, and in a sandbox with a filesystem of its own
/// in a directory of the same path under the sandbox's root, so from here
/// its working directory is `dir` or ends with it. A process whose working
/// directory cannot be read is counted: it may be the test's.
pub(crate) fn processes_in(dir: &Path, needle: &str) -> Vec<String> {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let dir = dir.to_string_lossy();
    processes_running(needle)
        .into_iter()
        .filter(|found| {
            let pid = found.split(':').next().unwrap_or_default();
            fs::read_link(format!("/proc/{pid}/cwd"))
                .map_or(true, |cwd| cwd.to_string_lossy().ends_with(&*dir))
        })
        .collect()
}

/// One build cache for the tests, under `target/`, so each fixture is
/// compiled once and nothing lands in the user's own cache.
pub(crate) fn build_cache() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    // Tests run as another user than the one who built them (as CI runs
    // the containment tests as an ordinary user) keep a cache of their own.
    if nix::unistd::access(tmp, nix::unistd::AccessFlags::W_OK).is_ok() {
        tmp.join("build-cache")
    } else {
        std::env::temp_dir().join(format!(
            "sudoku-judge-test-cache-{}",
            nix::unistd::Uid::current()
        ))
    }
}

/// What a test does when this machine lacks what it needs (a toolchain, a
/// kernel layer, a terminal tool, a dataset), so that it would check
/// nothing:
///
/// - by default it says so, `SKIP <test>: <reason>`, straight to stderr
///   (which the test harness does not capture: it captures only the print
///   macros), so the line appears under `make test` whether the test
///   passes or not; the caller then returns early;
/// - with `SUDOKU_JUDGE_REQUIRE=all` (as `.ci/run` sets it) it fails the
///   test with the reason instead, so a suite that checked nothing cannot
///   pass. `SUDOKU_JUDGE_REQUIRE=tools` requires everything but the public
///   puzzle sets, which are not part of the repository and which no
///   package registry carries: `.ci/run` sets it, loudly, only on a
///   machine without them.
///
/// A test that can never run in one setting is not left to skip there: it
/// is `#[ignore]`d with the place that runs it named (the cgroup v2 scope
/// is checked in the VM of `.ci/vm`, with `--include-ignored`), or the
/// script that runs part of the suite as another user leaves it out by
/// name (`--skip` in `.ci/as-user`, which says which run checks it). Either
/// way it is never counted as passed where it did not run.
///
/// `what` names the check in a few words; the line also names the test by
/// its path where the harness gave its thread that name.
pub(crate) fn skip_or_fail(what: &str, why: &str) {
    skip_or_fail_for(Need::Tools, what, why);
}

/// What a test lacks, for [`skip_or_fail_for`]: `SUDOKU_JUDGE_REQUIRE`
/// names which of them must be present (`all`, `tools` or `datasets`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Need {
    /// A toolchain, a kernel layer or a terminal tool.
    Tools,
    /// A public puzzle set in `../shared/datasets` (or
    /// `$SUDOKU_JUDGE_DATASETS`).
    Datasets,
}

/// Whether `SUDOKU_JUDGE_REQUIRE` forbids skipping for lack of `need`.
pub(crate) fn required(need: Need) -> bool {
    let Some(value) = std::env::var_os("SUDOKU_JUDGE_REQUIRE") else {
        return false;
    };
    value
        .to_string_lossy()
        .split(',')
        .any(|kind| match kind.trim() {
            "all" => true,
            "tools" => need == Need::Tools,
            "datasets" => need == Need::Datasets,
            _ => false,
        })
}

/// [`skip_or_fail`] for a test that lacks `need`.
pub(crate) fn skip_or_fail_for(need: Need, what: &str, why: &str) {
    let thread = std::thread::current();
    let test = match thread.name() {
        Some(name) if name != "main" => format!("{name} ({what})"),
        _ => what.to_owned(),
    };
    if required(need) {
        let value = std::env::var("SUDOKU_JUDGE_REQUIRE").unwrap_or_default();
        panic!("{test} cannot run here: {why} (SUDOKU_JUDGE_REQUIRE={value} forbids skipping)");
    }
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIP {test}: {why}");
}

/// Whether the tools a language needs are here; when they are not, it
/// [skips or fails](skip_or_fail), so a missing toolchain never passes
/// silently.
pub(crate) fn have(tools: &[&str], test: &str) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| which::which(t).is_err())
        .collect();
    if !missing.is_empty() {
        skip_or_fail(test, &format!("{} not installed", missing.join(", ")));
    }
    missing.is_empty()
}

/// A submission that spends `cpu` seconds of CPU time, then answers with
/// the judge's own solver: a time fixed by the clock it is judged by.
pub(crate) fn slow_by(cpu: f64) -> String {
    let spin = format!(
        "import os, time\nwhile time.process_time() < {cpu}: pass\nos.execv({judge:?}, [{judge:?}, 'solve'])",
        judge = env!("CARGO_BIN_EXE_sudoku-judge")
    );
    shell_words::join(["python3", "-c", &spin])
}

pub(crate) fn judge_with(args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"));
    command
        .args(args)
        .current_dir(manifest_dir())
        .env("SUDOKU_JUDGE_CACHE", build_cache())
        .stdin(Stdio::null());
    let started = Instant::now();
    let output = command.output().expect("the binary runs");
    assert!(started.elapsed() < HANG_GUARD, "sudoku-judge {args:?} hung");
    Run {
        code: output.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// Judges fixture `file` on `cases` and returns each case's verdict and
/// message, asserting that the JSON report is well formed.
pub(crate) fn judge_fixture(file: &str, cases: &str, extra: &[&str]) -> (Run, Value) {
    judge_fixture_path(&format!("tests/fixtures/submissions/{file}"), cases, extra)
}

/// [`judge_fixture`] for a submission anywhere.
pub(crate) fn judge_fixture_path(path: &str, cases: &str, extra: &[&str]) -> (Run, Value) {
    let mut args = vec!["test", cases, "--submission", path, "--format", "json"];
    args.extend_from_slice(extra);
    let run = judge_with(&args);
    let report = run.json();
    (run, report)
}

pub(crate) fn only_verdict(report: &Value) -> (String, String) {
    let cases = cases_of(report);
    let verdict = cases[0]["verdict"].as_str().unwrap_or("ERROR").to_owned();
    for case in cases {
        assert_eq!(
            case["verdict"].as_str().unwrap_or("ERROR"),
            verdict,
            "{case}"
        );
    }
    (verdict, cases[0]["message"].as_str().unwrap().to_owned())
}

/// Waits up to `patience` for `check` to hold.
pub(crate) fn eventually(patience: Duration, mut check: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < patience {
        if check() {
            return true;
        }
        thread::sleep(Duration::from_millis(50));
    }
    check()
}

/// Judges two cases with a command that sleeps holding stdout open, presses
/// Ctrl-C during the first, and returns how the run ended. Its sleeps last
/// `seconds`, which each caller picks apart from every other test's, so that
/// the tests running beside it cannot be mistaken for what it left behind.
pub(crate) fn interrupted_run(seconds: u32, extra: &[&str]) -> Output {
    let command = format!("sh -c 'sleep {seconds} & sleep {seconds}'");
    let child = Command::new(env!("CARGO_BIN_EXE_sudoku-judge"))
        .args([
            "test",
            "cases/leetcode37/example1",
            "cases/acwing166/sample.in",
            "--cmd",
            &command,
            "--time-limit",
            "60s",
        ])
        .args(extra)
        .current_dir(manifest_dir())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once the submission runs: its `sleep` is the sign (the
    // process itself, not the judge's or the shell's command line).
    let sleep = format!(": sleep {seconds} ");
    assert!(
        eventually(HANG_GUARD, || processes_running(&sleep[2..])
            .iter()
            .any(|p| p.ends_with(&sleep))),
        "the submission never started"
    );
    // SAFETY: kill(2) on our own child, still running (not yet waited for).
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let started = Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "it did not stop"
    );
    output
}

/// The puzzle rows of `rate`'s table, split into words: not the header,
/// not the closing line of means.
pub(crate) fn rate_rows(stdout: &str) -> Vec<Vec<&str>> {
    stdout
        .lines()
        .skip(1)
        .filter(|l| !l.contains(" puzzles: mean "))
        .map(|l| l.split_whitespace().collect())
        .collect()
}
